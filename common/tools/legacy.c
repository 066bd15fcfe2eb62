/* legacy.c - the reader of records without headline figures (before version 1 of the
 * "headlines" key): the table's rows and their extractors, the level view's mapping. */
#include "gmb.h"
#include "model/curves.h"
#include "record.h"
#include "tools/reader.h"
#include "topo.h"

#include <math.h>
#include <string.h>

/* ---- row extractors --------------------------------------------------------------------- */

void gmb_cell_set(gmb_cell_t *c, double v, double lo, double hi)
{
    c->kind = 1;
    c->v = v;
    c->lo = lo;
    c->hi = hi;
}

static void set_stat(gmb_cell_t *c, const json_t *m)
{
    gmb_cell_set(c, gmb_jnum(m, "median"), gmb_jnum(m, "ci_lo"), gmb_jnum(m, "ci_hi"));
}

/* ---- convergence: the points a value rests on ------------------------------------------- */

/* Count point p in c's tally: whether its time series converged (its CI within the target
 * before --max-samples or --time-cap stopped it). A point without the flag counts for
 * nothing. */
void gmb_cell_conv_add(gmb_cell_t *c, const json_t *p)
{
    const json_t *f = gmb_jpath(p, "time_ns.converged");
    if (!json_is_boolean(f))
        return;
    c->npts++;
    c->nunc += !json_is_true(f);
}

/* The mark of a value whose points did not converge: half or more of them (a median of
 * plateau points survives a few unconverged ones at its edge; a knee's or a single point's
 * value does not). */
void gmb_cell_conv_note(gmb_cell_t *c)
{
    if (c->nunc > 0 && 2 * c->nunc >= c->npts)
        c->note |= GMB_NOTE_UNCONVERGED;
}

/* Count the points of a chase curve (mode, page bytes for "page", space) within a level's
 * sizes, [size_lo_bytes, capacity_bytes], and, with rise set, the point where it rises (the
 * capacity rests on it too). */
static void level_conv(const json_t *rec, const char *mode, double page, const char *space,
                       const json_t *l, int rise, gmb_cell_t *c)
{
    double lo = gmb_jnum(l, "size_lo_bytes"), hi = gmb_jnum(l, "capacity_bytes");
    double up = rise ? gmb_jnum(l, "rise_at_bytes") : NAN;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        double s = gmb_jnum(p, "params.size_bytes");
        if (strcmp(gmb_jstr(p, "params.mode"), mode) ||
            strcmp(gmb_jstr(p, "params.space"), space) ||
            (!strcmp(mode, "page") && gmb_jnum(p, "params.page_bytes") != page))
            continue;
        if ((s >= lo && s <= hi) || (up > 0 && s == up))
            gmb_cell_conv_add(c, p);
    }
}

/* device facts: arg "memtype", "mem_gib", "peak" */
static int ex_device(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const json_t *d = json_object_get(rec, "device");
    if (!json_is_object(d) || !json_object_size(d))
        return -1;
    if (!strcmp(arg, "memtype")) {
        const char *t = gmb_jstr(d, "mem_type");
        double bus = gmb_jnum(d, "bus_width_bits");
        if (!*t && !(bus > 0))
            return -1;
        c->kind = 2;
        if (bus > 0)
            snprintf(c->text, sizeof c->text, "%s, %.0f-bit", *t ? t : "unknown", bus);
        else
            snprintf(c->text, sizeof c->text, "%s", t);
        return 0;
    }
    if (!strcmp(arg, "mem_gib")) {
        double b = gmb_jnum(d, "mem_bytes");
        if (!(b > 0))
            return -1;
        gmb_cell_set(c, b / 1073741824.0, NAN, NAN);
        return 0;
    }
    if (!strcmp(arg, "peak")) {
        double p = gmb_jnum(d, "peak_bw_GBps");
        if (p > 0) {
            gmb_cell_set(c, p, NAN, NAN);
            c->note = json_is_true(json_object_get(d, "peak_bw_given")) ? 4 : 0;
        } else if (json_is_string(json_object_get(d, "peak_bw_source"))) {
            c->kind = 2;
            gmb_strlcpy(c->text, "unknown", sizeof c->text);
        } else {
            return -1;
        }
        return 0;
    }
    return -1;
}

/* The mark of a stream point o (results.best or results.energy): 1 a cache point (no DRAM
 * point), 2 a DRAM point from 4x but not 16x the LLC, else 0. */
static int tier_note(const json_t *o)
{
    return !json_is_true(json_object_get(o, "dram")) ? 1 : gmb_jnum(o, "tier") == 1 ? 2 : 0;
}

/* stream: the best point of a kernel (results.best; DRAM points first); arg "kernel metric" */
int gmb_ex_stream_best(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char kernel[32] = "", metric[32] = "";
    if (sscanf(arg, "%31s %31s", kernel, metric) != 2)
        return -1;
    const json_t *best = json_object_get(gmb_jpath(rec, "results.best"), kernel);
    double size = gmb_jnum(best, "size_bytes"), width = gmb_jnum(best, "width_bytes");
    if (!best || size != size)
        return -1;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        if (strcmp(gmb_jstr(p, "params.kernel"), kernel) ||
            gmb_jnum(p, "params.size_bytes") != size ||
            (width == width && gmb_jnum(p, "params.width_bytes") != width))
            continue;
        const json_t *m = gmb_jpath(json_object_get(p, "metrics"), metric);
        if (!json_is_object(m))
            return -1;
        set_stat(c, m);
        c->note = tier_note(best);
        gmb_cell_conv_add(c, p);
        return 0;
    }
    return -1;
}

/* chase: the levels of the random chase of a space ("global", "host", ...) */
static const json_t *chase_levels(const json_t *rec, const char *space)
{
    size_t i;
    const json_t *cv;
    json_array_foreach(gmb_jpath(rec, "results.levels"), i, cv)
    {
        if (!strcmp(gmb_jstr(cv, "mode"), "random") && !strcmp(gmb_jstr(cv, "space"), space))
            return json_object_get(cv, "levels");
    }
    return NULL;
}

/* The names the levels lv of a record's random curve in space go by, into out (at most
 * GMB_MAX_LEVELS; the count is returned): their own; but an OpenCL GPU's record whose levels
 * are all numbered ("level N", "memory": written before gmb-chase named them there) gets the
 * names gmb_level_names gives them now from the evidence the record holds (the cache the
 * device reported, device.llc_bytes), as a new run of the same device would. */
static int level_names_of(const json_t *rec, const char *space, const json_t *lv,
                          char (*out)[GMB_LEVEL_NAME])
{
    gmb_level_t L[GMB_MAX_LEVELS];
    int nl = 0, generic = 1, memory = 0;
    size_t i;
    const json_t *l;
    json_array_foreach(lv, i, l)
    {
        if (nl == GMB_MAX_LEVELS)
            break;
        const char *nm = gmb_jstr(l, "name");
        gmb_strlcpy(out[nl], nm, GMB_LEVEL_NAME);
        generic &= !strncmp(nm, "level ", 6) || !strcmp(nm, "memory");
        memory |= !strcmp(nm, "memory");
        memset(&L[nl], 0, sizeof L[nl]);
        L[nl].size_lo = gmb_jnum(l, "size_lo_bytes");
        L[nl].size_hi = gmb_jnum(l, "capacity_bytes");
        L[nl].rise_at = gmb_jnum(l, "rise_at_bytes");
        nl++;
    }
    int global = !strcmp(space, "global") || !strcmp(space, "texture"),
        l2first = !strcmp(space, "global-cg") || !strcmp(space, "atomic");
    /* a GPU of a backend whose hierarchy gmb does not know (OpenCL): named from its cache */
    const gmb_backend_kind_t *kind = gmb_backend_kind(gmb_jstr(rec, "device.backend"));
    if (!nl || !generic || !kind || (kind->traits & GMB_BE_GPU_KNOWN) ||
        strcmp(gmb_jstr(rec, "device.type"), "gpu") || !(global || l2first))
        return nl;
    gmb_lv_device_t dev = {1, 0, gmb_jnum(rec, "device.llc_bytes")};
    if (!(dev.llc_bytes > 0))
        return nl;
    gmb_level_names(&dev, global ? GMB_LV_GLOBAL : GMB_LV_L2_FIRST, NULL, memory, L, nl, out);
    return nl;
}

/* The level of space named one of names ("L2|L2 near"); last = 1: the last one matching. */
static const json_t *find_level(const json_t *rec, const char *space, const char *names, int last)
{
    const json_t *lv = chase_levels(rec, space), *found = NULL;
    char nms[GMB_MAX_LEVELS][GMB_LEVEL_NAME];
    int nl = level_names_of(rec, space, lv, nms);
    for (int i = 0; i < nl; i++) {
        const char *n = nms[i];
        for (const char *p = names; *p;) {
            const char *bar = strchr(p, '|');
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            if (strlen(n) == len && !strncmp(n, p, len)) {
                found = json_array_get(lv, (size_t)i);
                if (!last)
                    return found;
            }
            p += len + (bar ? 1 : 0);
        }
    }
    return found;
}

/* The CI of a level: from the point of its curve within its sizes nearest its median. */
static void level_ci(const json_t *rec, const char *space, const json_t *l, const char *metric,
                     double v, gmb_cell_t *c)
{
    double lo = gmb_jnum(l, "size_lo_bytes"), hi = gmb_jnum(l, "capacity_bytes");
    double best = INFINITY;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        double s = gmb_jnum(p, "params.size_bytes");
        if (strcmp(gmb_jstr(p, "params.mode"), "random") ||
            strcmp(gmb_jstr(p, "params.space"), space) || !(s >= lo && s <= hi))
            continue;
        const json_t *m = gmb_jpath(json_object_get(p, "metrics"), metric);
        double med = gmb_jnum(m, "median");
        if (json_is_object(m) && fabs(med - v) < best) {
            best = fabs(med - v);
            c->lo = gmb_jnum(m, "ci_lo") - med + v; /* the point's CI around the level */
            c->hi = gmb_jnum(m, "ci_hi") - med + v;
        }
    }
}

/* The chase a curve's points ran (extra.chain): 'a' 64-bit addresses (p = *p), 's' 32-bit
 * shared-memory addresses, 'i' word indices (p = a[p]), 0 when its points do not say. */
static int curve_chain(const json_t *rec, const char *mode, const char *space, double page)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        if (strcmp(gmb_jstr(p, "params.mode"), mode) ||
            strcmp(gmb_jstr(p, "params.space"), space) ||
            (page >= 0 && gmb_jnum(p, "params.page_bytes") != page))
            continue;
        const char *ch = gmb_jstr(p, "extra.chain");
        if (!strncmp(ch, "shared-memory addresses", 23))
            return 's';
        if (!strncmp(ch, "addresses", 9))
            return 'a';
        if (!strncmp(ch, "word indices", 12))
            return 'i';
    }
    return 0;
}

/* A row's chase: a leading "@addr ", "@saddr ", "@idx " or "@none " (the curve's points do
 * not say) in arg, which is moved past it; 1 when the curve's chase is that one (or arg names
 * none), else 0. */
static int chain_is(const json_t *rec, const char **arg, const char *mode, const char *space,
                    double page)
{
    if ((*arg)[0] != '@')
        return 1;
    const char *w = *arg + 1, *sp = strchr(w, ' ');
    size_t len = sp ? (size_t)(sp - w) : strlen(w);
    *arg = sp ? sp + 1 : w + len;
    int want = len == 4 && !strncmp(w, "addr", 4)    ? 'a'
               : len == 5 && !strncmp(w, "saddr", 5) ? 's'
               : len == 3 && !strncmp(w, "idx", 3)   ? 'i'
                                                     : 0;
    return curve_chain(rec, mode, space, page) == want;
}

/* chase: arg "[@CHAIN ][SPACE:]NAMES|... ns|cycles" (the last word is the unit; space global
 * when none is named; CHAIN: the chase the row is of, see chain_is) */
int gmb_ex_chase_lat(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char space[16] = "global", names[96];
    const char *chain = arg;
    if (arg[0] == '@') { /* past the chain word: the space is after it */
        const char *sp = strchr(arg, ' ');
        arg = sp ? sp + 1 : arg + strlen(arg);
    }
    const char *colon = strchr(arg, ':');
    if (colon && (size_t)(colon - arg) < sizeof space) {
        memcpy(space, arg, (size_t)(colon - arg));
        space[colon - arg] = '\0';
        arg = colon + 1;
    }
    gmb_strlcpy(names, arg, sizeof names);
    char *sp = strrchr(names, ' ');
    if (!sp)
        return -1;
    *sp = '\0';
    int cyc = !strcmp(sp + 1, "cycles");
    if (!chain_is(rec, &chain, "random", space, -1))
        return -1;
    const json_t *l = find_level(rec, space, names, 0);
    double v = gmb_jnum(l, cyc ? "lat_cycles" : "lat_ns");
    if (!l || v != v)
        return -1;
    gmb_cell_set(c, v, NAN, NAN);
    level_ci(rec, space, l, cyc ? "lat_cycles" : "lat_ns", v, c);
    level_conv(rec, "random", 0, space, l, 0, c);
    return 0;
}

/* chase, an on-chip memory (shared, constant): arg "[@CHAIN ]SPACE ns|cycles". Its first level; or,
 * where the detector found none because the random curve is flat (every point within -20 %
 * and +25 % of their median: no step at all, one level over the whole sweep), that median,
 * with the CI of the point nearest it. */
int gmb_ex_chase_onchip(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char space[16], unit[16], buf[48], chain[16] = "";
    const char *rest = arg;
    if (rest[0] == '@') {
        const char *sp = strchr(rest, ' ');
        rest = sp ? sp + 1 : rest + strlen(rest);
    }
    if (sscanf(rest, "%15s %15s %15s", space, unit, chain) < 2 ||
        !chain_is(rec, &arg, "random", space, -1))
        return -1;
    /* "indices": only a curve chased by word indices (like bank's), none of addresses */
    const json_t *p;
    size_t i;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        if (chain[0] && !strcmp(gmb_jstr(p, "params.space"), space) &&
            strncmp(gmb_jstr(p, "extra.chain"), "word indices", 12))
            return -1;
    }
    snprintf(buf, sizeof buf, "%s:level 1 %s", space, unit);
    if (!gmb_ex_chase_lat(rec, buf, c))
        return 0;
    const char *metric = !strcmp(unit, "cycles") ? "lat_cycles" : "lat_ns";
    double v[4096], med; /* a sweep's points at most (GMB_MAX_SWEEP) */
    size_t n = 0;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        double m = gmb_jnum(json_object_get(json_object_get(p, "metrics"), metric), "median");
        if (!strcmp(gmb_jstr(p, "params.mode"), "random") &&
            !strcmp(gmb_jstr(p, "params.space"), space) && m > 0 && n < 4096)
            v[n++] = m;
    }
    if (n < 3)
        return -1;
    qsort(v, n, sizeof *v, gmb_cmp_double);
    med = gmb_median_sorted(v, n);
    if (!(v[0] >= 0.8 * med && v[n - 1] <= 1.25 * med))
        return -1; /* steps the detector could not call levels: no one number */
    gmb_cell_set(c, med, NAN, NAN);
    json_t *flat = json_pack("{s:f, s:f}", "size_lo_bytes", 0.0, "capacity_bytes", 1e300);
    level_ci(rec, space, flat, metric, med, c);
    level_conv(rec, "random", 0, space, flat, 0, c);
    json_decref(flat);
    return 0;
}

/* The caches of a record's random global curve, as gmb-chase names page-stride levels against
 * them (gmb_lv_caches, and the cache the device reports); *bottom: its first level starts at
 * the curve's smallest size. */
static size_t rec_caches(const json_t *rec, gmb_lv_cache_t *out, int *bottom)
{
    const json_t *lv = chase_levels(rec, "global"), *l;
    size_t i, n = 0, nl = json_array_size(lv);
    double lo = INFINITY, llc = gmb_jnum(rec, "device.llc_bytes");
    json_array_foreach(json_object_get(rec, "points"), i, l)
    {
        if (!strcmp(gmb_jstr(l, "params.mode"), "random") &&
            !strcmp(gmb_jstr(l, "params.space"), "global"))
            lo = fmin(lo, gmb_jnum(l, "params.size_bytes"));
    }
    *bottom = 0;
    char nms[GMB_MAX_LEVELS][GMB_LEVEL_NAME];
    level_names_of(rec, "global", lv, nms);
    json_array_foreach(lv, i, l)
    {
        if (n >= GMB_MAX_LEVELS)
            break;
        gmb_lv_cache_t *k = &out[n++];
        const char *nm = nms[i];
        snprintf(k->name, sizeof k->name, "%s", nm);
        int mem = i + 1 == nl && (!strcmp(nm, "DRAM") || strstr(nm, "memory"));
        k->bytes = mem ? INFINITY : gmb_jnum(l, "capacity_bytes");
        k->rise = mem ? 0 : gmb_jnum(l, "rise_at_bytes");
        if (k->rise != k->rise)
            k->rise = 0;
        if (!i)
            *bottom = gmb_jnum(l, "size_lo_bytes") <= lo;
    }
    return n ? gmb_lv_caches_reported(out, n, llc, "L2") : 0;
}

/* The TLB levels of page curve cv of rec: P[i].tlb for each of its levels (0: none), as
 * gmb-chase names them now. A record written with the rule (its levels carry lines_bytes)
 * says so itself (tlb_level); an older one's levels are named again, against its random
 * global curve: a level named TLB there is one only if no cache ends it. Returns the levels. */
static int rec_tlb(const json_t *rec, const json_t *cv, gmb_page_level_t *P)
{
    const json_t *lv = json_object_get(cv, "levels"), *l;
    int nl = (int)json_array_size(lv), fresh = nl > 0;
    size_t i;
    if (nl > GMB_MAX_LEVELS)
        nl = GMB_MAX_LEVELS;
    json_array_foreach(lv, i, l)
    {
        if ((int)i < nl)
            fresh &= json_is_number(json_object_get(l, "lines_bytes"));
    }
    if (fresh) {
        for (int k = 0; k < nl; k++) {
            double t = gmb_jnum(json_array_get(lv, (size_t)k), "tlb_level");
            P[k].tlb = t > 0 ? (int)t : 0;
        }
        return nl;
    }
    if (strcmp(gmb_jstr(rec, "device.type"), "gpu"))
        return 0; /* a CPU's page levels are numbered */
    gmb_level_t L[GMB_MAX_LEVELS];
    int cyc = !strcmp(gmb_jstr(cv, "detected_on"), "cycles");
    for (int k = 0; k < nl; k++) {
        l = json_array_get(lv, (size_t)k);
        L[k] = (gmb_level_t){.lat = gmb_jnum(l, cyc ? "lat_cycles" : "lat_ns"),
                             .size_lo = gmb_jnum(l, "size_lo_bytes"),
                             .size_hi = gmb_jnum(l, "capacity_bytes"),
                             .rise_at = gmb_jnum(l, "rise_at_bytes"),
                             .npoints = (size_t)fmax(0, gmb_jnum(l, "points"))};
    }
    double page = gmb_jnum(cv, "page_bytes"), line = NAN;
    json_array_foreach(json_object_get(rec, "points"), i, l)
    {
        if (!strcmp(gmb_jstr(l, "params.mode"), "page") &&
            gmb_jnum(l, "params.page_bytes") == page) {
            line = gmb_jnum(l, "params.stride_bytes");
            break;
        }
    }
    gmb_lv_cache_t caches[GMB_MAX_LEVELS + 1];
    int bottom = 0;
    size_t nc = rec_caches(rec, caches, &bottom);
    if (!(line > 0))
        return 0;
    return gmb_page_level_names(caches, nc, bottom, page, line, L, nl, 3, P);
}

/* chase, page mode (the TLB): TLB level N of the global page-stride curve of PAGE bytes; arg
 * "[@CHAIN ]PAGE N reach|ns|cycles|miss_ns|miss_cycles". Only a level whose end is no
 * cache's (gmb_page_level_names; a record's level named "TLB level N" by an older rule that a
 * cache ends is none), with a level after it for the miss cost (the next level's latency less
 * its own). */
static int ex_chase_tlb(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const char *chain = arg;
    if (arg[0] == '@') {
        const char *sp = strchr(arg, ' ');
        arg = sp ? sp + 1 : arg + strlen(arg);
    }
    double page;
    int n;
    char what[16];
    if (sscanf(arg, "%lf %d %15s", &page, &n, what) != 3)
        return -1;
    size_t i;
    const json_t *cv;
    json_array_foreach(gmb_jpath(rec, "results.levels"), i, cv)
    {
        if (strcmp(gmb_jstr(cv, "mode"), "page") || strcmp(gmb_jstr(cv, "space"), "global") ||
            gmb_jnum(cv, "page_bytes") != page)
            continue;
        if (!chain_is(rec, &chain, "page", "global", page))
            return -1;
        gmb_page_level_t P[GMB_MAX_LEVELS];
        int nl = rec_tlb(rec, cv, P);
        const json_t *lv = json_object_get(cv, "levels");
        for (int k = 0; k + 1 < nl; k++) {
            if (P[k].tlb != n)
                continue;
            const json_t *l = json_array_get(lv, (size_t)k),
                         *nx = json_array_get(lv, (size_t)k + 1);
            int miss = !strncmp(what, "miss_", 5);
            const char *unit = miss ? what + 5 : what;
            const char *key = !strcmp(unit, "ns") ? "lat_ns" : "lat_cycles";
            double v = !strcmp(what, "reach") ? gmb_jnum(l, "capacity_bytes") / 1048576.0
                       : miss                 ? gmb_jnum(nx, key) - gmb_jnum(l, key)
                                              : gmb_jnum(l, key);
            if (v != v || (!miss && !(v > 0)))
                return -1;
            gmb_cell_set(c, v, NAN, NAN);
            level_conv(rec, "page", page, "global", l, !strcmp(what, "reach"), c);
            return 0;
        }
        return -1;
    }
    return -1;
}

/* chase: capacity of the last level named one of arg, MiB */
int gmb_ex_chase_cap(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const json_t *l = find_level(rec, "global", arg, 1);
    double v = gmb_jnum(l, "capacity_bytes");
    if (!l || !(v > 0))
        return -1;
    gmb_cell_set(c, v / 1048576.0, NAN, NAN);
    level_conv(rec, "random", 0, "global", l, 1, c);
    return 0;
}

/* bank: banks inferred (text) */
static int ex_bank_banks(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const json_t *inf = gmb_jpath(rec, "results.inference");
    if (!json_is_object(inf))
        return -1;
    c->kind = 2;
    if (json_is_true(json_object_get(inf, "detected")))
        snprintf(c->text, sizeof c->text, "%.0f x %.0f B", gmb_jnum(inf, "banks"),
                 gmb_jnum(inf, "bank_bytes"));
    else
        snprintf(c->text, sizeof c->text, "none detected%s",
                 !strcmp(gmb_jstr(inf, "device_type"), "cpu") ? " (CPU)" : "");
    return 0;
}

/* bank: slope of the conflict fit, arg "mode width" */
static int ex_bank_slope(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char mode[32];
    double w;
    if (sscanf(arg, "%31s %lf", mode, &w) != 2)
        return -1;
    /* no bank structure detected: a slope over no banks is no cost per way */
    const json_t *inf = gmb_jpath(rec, "results.inference");
    if (json_is_object(inf) && !json_is_true(json_object_get(inf, "detected")))
        return -1;
    size_t i;
    const json_t *f;
    json_array_foreach(gmb_jpath(rec, "results.fits"), i, f)
    {
        if (!strcmp(gmb_jstr(f, "mode"), mode) && gmb_jnum(f, "width_bytes") == w &&
            json_is_true(json_object_get(f, "ok"))) {
            gmb_cell_set(c, gmb_jnum(f, "slope"), NAN, NAN);
            return 0;
        }
    }
    return -1;
}

/* bank: the throughput point of the fastest stride, arg "width metric" */
static int ex_bank_bw(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char w[8], metric[32], path[64];
    if (sscanf(arg, "%7s %31s", w, metric) != 2)
        return -1;
    snprintf(path, sizeof path, "results.bandwidth.%s.fastest_stride.stride", w);
    double stride = gmb_jnum(rec, path), wb = atof(w);
    if (stride != stride)
        return -1;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        if (!strcmp(gmb_jstr(p, "params.mode"), "throughput") &&
            !strcmp(gmb_jstr(p, "params.pattern"), "stride") &&
            gmb_jnum(p, "params.width_bytes") == wb && gmb_jnum(p, "params.param") == stride) {
            const json_t *m = gmb_jpath(json_object_get(p, "metrics"), metric);
            if (!json_is_object(m))
                return -1;
            set_stat(c, m);
            gmb_cell_conv_add(c, p);
            return 0;
        }
    }
    return -1;
}

/* bank: the metric of one point, arg "MODE PATTERN WIDTH PARAM METRIC" */
int gmb_ex_bank_point(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char mode[16], pat[16], metric[32];
    double w, param;
    if (sscanf(arg, "%15s %15s %lf %lf %31s", mode, pat, &w, &param, metric) != 5)
        return -1;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        const json_t *m = gmb_jpath(json_object_get(p, "metrics"), metric);
        if (!strcmp(gmb_jstr(p, "params.mode"), mode) &&
            !strcmp(gmb_jstr(p, "params.pattern"), pat) && gmb_jnum(p, "params.width_bytes") == w &&
            gmb_jnum(p, "params.param") == param && json_is_object(m)) {
            set_stat(c, m);
            gmb_cell_conv_add(c, p);
            return 0;
        }
    }
    return -1;
}

/* any benchmark: a number at a dotted path of the record, arg "path [scale]" */
int gmb_ex_number(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char path[128];
    double scale = 1;
    if (sscanf(arg, "%127s %lf", path, &scale) < 1)
        return -1;
    double v = gmb_jnum(rec, path);
    if (v != v)
        return -1;
    gmb_cell_set(c, v * scale, NAN, NAN);
    return 0;
}

/* gmb-loaded: arg "read|write FIELD", FIELD a number under results.loaded (read) or
 * results.loaded_write: idle.lat_ns, max_bw_GBps, knee.lat_ns (and the other figures of the
 * knee, most_groups), bw_at_2x_idle_GBps. Its points: the idle chase's; the point of the most
 * bandwidth; the knee's level and its neighbours on the curve, with the most bandwidth it is
 * within 3% of; the last level and the one before it; the idle chase and the two levels
 * around the crossing of twice its latency. */
#define LOADED_MAX 256 /* levels of a curve: gmb-loaded's MAX_LEVELS and more */
int gmb_ex_loaded(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char traffic[8], field[48], path[96];
    if (sscanf(arg, "%7s %47s", traffic, field) != 2)
        return -1;
    const char *res = !strcmp(traffic, "write") ? "results.loaded_write" : "results.loaded";
    snprintf(path, sizeof path, "%s.%s", res, field);
    double v = gmb_jnum(rec, path);
    if (v != v)
        return -1;
    gmb_cell_set(c, v, NAN, NAN);
    /* the curve's levels, in order of streaming groups */
    const json_t *lv[LOADED_MAX], *p;
    size_t n = 0, i, most = 0;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        const char *t = gmb_jstr(p, "params.traffic");
        if (strcmp(*t ? t : "read", traffic) || n == LOADED_MAX)
            continue;
        size_t k = n++;
        double g = gmb_jnum(p, "params.load_groups");
        for (; k > 0 && gmb_jnum(lv[k - 1], "params.load_groups") > g; k--)
            lv[k] = lv[k - 1];
        lv[k] = p;
    }
    if (!n)
        return 0;
    for (i = 1; i < n; i++)
        if (gmb_jnum(lv[i], "metrics.bw_GBps.median") >
            gmb_jnum(lv[most], "metrics.bw_GBps.median"))
            most = i;
    int idle = gmb_jnum(lv[0], "params.load_groups") == 0;
    char obj[48];
    gmb_strlcpy(obj, field, sizeof obj);
    char *dot = strchr(obj, '.');
    if (dot)
        *dot = '\0';
    if (!strcmp(obj, "idle")) {
        if (idle)
            gmb_cell_conv_add(c, lv[0]);
    } else if (!strcmp(obj, "max_bw_GBps")) {
        gmb_cell_conv_add(c, lv[most]);
    } else if (!strcmp(obj, "knee") || !strcmp(obj, "most_groups")) {
        snprintf(path, sizeof path, "%s.%s.load_groups", res, obj);
        double g = gmb_jnum(rec, path);
        for (i = 0; i < n && gmb_jnum(lv[i], "params.load_groups") != g; i++)
            ;
        if (i == n)
            return 0;
        for (size_t k = i ? i - 1 : 0; k <= i + 1 && k < n; k++)
            gmb_cell_conv_add(c, lv[k]);
        if (!strcmp(obj, "knee") && (most + 1 < i || most > i + 1))
            gmb_cell_conv_add(c, lv[most]);
    } else if (!strcmp(obj, "bw_at_2x_idle_GBps") && idle) {
        double twice = 2 * gmb_jnum(lv[0], "metrics.lat_ns.median");
        for (i = 1; i < n && !(gmb_jnum(lv[i], "metrics.lat_ns.median") >= twice); i++)
            ;
        gmb_cell_conv_add(c, lv[0]);
        if (i < n) {
            if (i > 1)
                gmb_cell_conv_add(c, lv[i - 1]);
            gmb_cell_conv_add(c, lv[i]);
        }
    }
    return 0;
}

/* gmb-um: arg "TEST" (results.largest.TEST.bw_GBps, from the test's point at that size),
 * "fault-d2h touch" (the same of a fault-d2h whose host timed one load a page, not a check of
 * every word: params.host_touch_bytes, on a device whose memory is not the host's;
 * "fault-d2h hosttouch" the same where it is: no migration; plain "fault-d2h" is one that
 * checked them) or
 * "fault STRIDE" (results.fault_us.STRIDE.fault_us, from the latency points of that stride:
 * pages on the host and resident) */
int gmb_ex_um(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char test[32], stride[24] = "", path[96];
    int touch = -1; /* fault-d2h: 1 touches timed, 0 every word read, -1 either */
    if (sscanf(arg, "%31s %23s", test, stride) < 1)
        return -1;
    int fault = !strcmp(test, "fault");
    if (!strcmp(test, "fault-d2h")) {
        /* the touches: a migration ("touch"), or loads where the device's memory is the
         * host's ("hosttouch"), each its own row */
        int host = !strcmp(stride, "hosttouch");
        touch = host || !strcmp(stride, "touch");
        if (touch && host != json_is_true(gmb_jpath(rec, "results.host_unified_memory")))
            return -1;
    }
    if (fault)
        snprintf(path, sizeof path, "results.fault_us.%s.fault_us", stride);
    else
        snprintf(path, sizeof path, "results.largest.%s.bw_GBps", test);
    double v = gmb_jnum(rec, path), size = NAN;
    if (v != v)
        return -1;
    gmb_cell_set(c, v, NAN, NAN);
    if (!fault) {
        snprintf(path, sizeof path, "results.largest.%s.size_bytes", test);
        size = gmb_jnum(rec, path);
    }
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        if (fault ? !strcmp(gmb_jstr(p, "params.test"), "latency") &&
                        gmb_jnum(p, "params.stride_bytes") == atof(stride)
                  : !strcmp(gmb_jstr(p, "params.test"), test) &&
                        gmb_jnum(p, "params.size_bytes") == size) {
            if (touch >= 0 && touch != (gmb_jnum(p, "params.host_touch_bytes") > 0))
                return -1; /* the other method's figure: the other row */
            gmb_cell_conv_add(c, p);
            touch = touch >= 0 ? 2 : touch;
        }
    }
    return touch == 0 || touch == 1 ? -1 : 0; /* fault-d2h: no point says which method */
}

/* The cell's value v with the 95% CI of the [lo, hi] array ci where it holds v, else none */
static void set_vci(gmb_cell_t *c, double v, const json_t *ci)
{
    double lo = json_number_value(json_array_get(ci, 0)),
           hi = json_number_value(json_array_get(ci, 1));
    if (json_array_size(ci) == 2 && lo <= v && v <= hi)
        gmb_cell_set(c, v, lo, hi);
    else
        gmb_cell_set(c, v, NAN, NAN);
}

/* arg "VALUE CI [NAMEPATH=NAME]": the number at VALUE with the 95% CI of the [lo, hi] array at
 * CI (none when absent); with NAMEPATH=NAME only where the string at NAMEPATH is NAME (a level
 * a program named: "L1", "level 1") */
static int ex_vci(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char vpath[128], cpath[128], npath[128] = "";
    const char *eq = strchr(arg, '=');
    if (sscanf(arg, "%127s %127s %127[^=]", vpath, cpath, npath) < 2)
        return -1;
    if (eq && (!npath[0] || strcmp(gmb_jstr(rec, npath), eq + 1)))
        return -1;
    double v = gmb_jnum(rec, vpath);
    if (v != v)
        return -1;
    set_vci(c, v, gmb_jpath(rec, cpath));
    return 0;
}

/* arg "ARRAY NAME": the element of the array at ARRAY whose name is NAME (a plateau a program
 * named: "L2 far"), its GBps with its 95% CI */
static int ex_named(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char apath[128];
    int at = 0;
    if (sscanf(arg, "%127s %n", apath, &at) < 1 || !arg[at])
        return -1;
    size_t i;
    const json_t *e;
    json_array_foreach(gmb_jpath(rec, apath), i, e)
    {
        if (strcmp(gmb_jstr(e, "name"), arg + at))
            continue;
        double v = gmb_jnum(e, "GBps");
        if (v != v)
            return -1;
        set_vci(c, v, json_object_get(e, "ci"));
        return 0;
    }
    return -1;
}

/* l2: a cache capacity read off a bandwidth curve (arg "read" or "write"), MiB; marked
 * GMB_NOTE_PAST_LLC when it is past the cache the device reports (the H200's read plateau
 * held to the 64 MiB set of a 50 MiB L2): then it is where the plateau ended, not the cache's
 * size */
static int ex_l2_capacity(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char path[96];
    snprintf(path, sizeof path, "results.bandwidth.%s", arg);
    const json_t *bw = gmb_jpath(rec, path);
    double v = gmb_jnum(bw, "capacity_bytes"), llc = gmb_jnum(bw, "device_llc_bytes");
    if (!(llc > 0))
        llc = gmb_jnum(rec, "device.llc_bytes");
    if (!(v > 0))
        return -1;
    gmb_cell_set(c, v / 1048576.0, NAN, NAN);
    if (json_is_true(json_object_get(bw, "capacity_beyond_llc")) ||
        (llc > 0 && v > GMB_BW_PAST_LLC * llc))
        c->note |= GMB_NOTE_PAST_LLC;
    return 0;
}

/* access: arg "granularity WHERE" (the inferred granularity, B, or "none claimed"),
 * "misalignment WHERE" (the worst offset's bandwidth, % of the aligned: worst_over_aligned,
 * the confirmation's ratio, significant or not; no cell when the confirmation failed),
 * "random WHERE bw B" (random B-byte blocks' bandwidth, GB/s), "random WHERE of B" (their
 * share of the contiguous reads, %) or "random WHERE full" (the block from which random reads
 * get full bandwidth, B, or "none up to N B", N the largest block with a bandwidth),
 * "random_write WHERE bw|of|full B" (the same of
 * random writes: results.random_write), of the largest buffer that is WHERE ("dram", "cache";
 * random, random_write: every point of the buffer there) */
static int ex_access(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char what[16] = "", where[16] = "", field[8] = "";
    double block = NAN;
    if (sscanf(arg, "%15s %15s %7s %lf", what, where, field, &block) < 2)
        return -1;
    const json_t *found = NULL, *e;
    size_t i;
    json_array_foreach(json_object_get(json_object_get(rec, "results"), what), i, e)
    {
        if (!strcmp(gmb_jstr(e, "where"), where))
            found = e; /* the buffers come in ascending size: the last one */
    }
    if (!found)
        return -1;
    if (!strcmp(what, "random") || !strcmp(what, "random_write")) {
        const json_t *bl = json_object_get(found, "blocks");
        if (!strcmp(field, "full")) {
            double v = gmb_jnum(found, "full_bw_block_bytes");
            size_t nb = json_array_size(bl);
            if (v == v) {
                gmb_cell_set(c, v, NAN, NAN);
                return 0;
            }
            /* no block reached it: say up to which (the largest block measured: one that
             * failed verification has no bandwidth), when the reference was measured */
            if (gmb_jnum(found, "contiguous_GBps") != gmb_jnum(found, "contiguous_GBps"))
                return -1;
            while (nb && gmb_jnum(json_array_get(bl, nb - 1), "bw_GBps") !=
                             gmb_jnum(json_array_get(bl, nb - 1), "bw_GBps"))
                nb--;
            if (!nb)
                return -1;
            c->kind = 2;
            snprintf(c->text, sizeof c->text, "none up to %.0f B",
                     gmb_jnum(json_array_get(bl, nb - 1), "block_bytes"));
            return 0;
        }
        size_t k;
        const json_t *b;
        json_array_foreach(bl, k, b)
        {
            if (gmb_jnum(b, "block_bytes") != block)
                continue;
            int bw = !strcmp(field, "bw");
            double v = bw                     ? gmb_jnum(b, "bw_GBps")
                       : !strcmp(field, "of") ? 100.0 * gmb_jnum(b, "of_contiguous")
                                              : NAN;
            if (v != v)
                return -1;
            gmb_cell_set(c, v, bw ? gmb_jnum(b, "bw_ci_lo_GBps") : NAN,
                         bw ? gmb_jnum(b, "bw_ci_hi_GBps") : NAN);
            return 0;
        }
        return -1;
    }
    if (!strcmp(what, "misalignment")) {
        double v = gmb_jnum(found, "worst_over_aligned");
        if (v != v)
            return -1;
        gmb_cell_set(c, 100.0 * v, NAN, NAN);
        return 0;
    }
    double g = gmb_jnum(found, "granularity_bytes");
    if (g == g) {
        gmb_cell_set(c, g, NAN, NAN);
        return 0;
    }
    c->kind = 2;
    snprintf(c->text, sizeof c->text, "none claimed");
    return 0;
}

/* any benchmark: a string at a dotted path of the record, as text, arg "path" */
static int ex_text(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const char *v = json_string_value(gmb_jpath(rec, arg));
    if (!v || !*v)
        return -1;
    c->kind = 2;
    snprintf(c->text, sizeof c->text, "%s", v);
    return 0;
}

/* stream --energy: a kernel's figure (arg "kernel field"), marked ᶜ where it streamed a
 * cache-resident set (no DRAM point) and ᵗ for a DRAM point from 4x but not 16x the LLC */
static int ex_energy(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char kernel[32] = "", field[48] = "";
    if (sscanf(arg, "%31s %47s", kernel, field) != 2)
        return -1;
    const json_t *e = json_object_get(gmb_jpath(rec, "results.energy.kernels"), kernel);
    const json_t *v = json_object_get(e, field);
    if (!json_is_number(v))
        return -1;
    gmb_cell_set(c, json_number_value(v), NAN, NAN);
    c->note = tier_note(e);
    return 0;
}

/* copy: where its default host buffers sat, short: "near: NUMA 1", "kept: NUMA 0", "not
 * bound" (the record's binding phrase), with the pages' nodes where they differ */
static int ex_host_place(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    (void)arg;
    const json_t *pl = gmb_jpath(rec, "results.host_placement.pinned");
    if (!gmb_place_brief(json_string_value(json_object_get(pl, "binding")),
                         json_string_value(json_object_get(pl, "pages_numa")), c->text,
                         sizeof c->text))
        return -1;
    c->kind = 2;
    return 0;
}

/* The rows, in order. A benchmark's rows read its record; bench "" reads the device. Rows
 * that no column has are left out, so rows for records not yet written cost nothing. */
const gmb_row_t gmb_table_rows[] = {
    {"", "Memory type, bus width", "", ex_device, "memtype"},
    {"", "Memory size", "GiB", ex_device, "mem_gib"},
    {"", "Nominal peak bandwidth", "GB/s", ex_device, "peak"},
    {"stream", "Read bandwidth", "GB/s", gmb_ex_stream_best, "read bw_GBps"},
    {"stream", "Read, of nominal peak", "%", gmb_ex_stream_best, "read pct_peak"},
    {"stream", "Copy bandwidth", "GB/s", gmb_ex_stream_best, "copy bw_GBps"},
    {"stream", "Copy, of nominal peak", "%", gmb_ex_stream_best, "copy pct_peak"},
    {"stream", "Triad bandwidth", "GB/s", gmb_ex_stream_best, "triad bw_GBps"},
    {"stream", "Triad, of nominal peak", "%", gmb_ex_stream_best, "triad pct_peak"},
    /* gmb-stream --energy: the whole board's energy (NVML) per bit the kernel moved */
    {"stream", "Board power, idle", "W", gmb_ex_number, "results.energy.idle_W"},
    {"stream", "Read: board power while streaming", "W", ex_energy, "read power_W"},
    {"stream", "Read: board energy per bit", "pJ/bit", ex_energy, "read pJ_per_bit"},
    {"stream", "Read: board energy per bit above idle", "pJ/bit", ex_energy,
     "read pJ_per_bit_above_idle"},
    {"stream", "Copy: board energy per bit", "pJ/bit", ex_energy, "copy pJ_per_bit"},
    {"stream", "Copy: board energy per bit above idle", "pJ/bit", ex_energy,
     "copy pJ_per_bit_above_idle"},
    {"stream", "Triad: board energy per bit", "pJ/bit", ex_energy, "triad pJ_per_bit"},
    {"stream", "Triad: board energy per bit above idle", "pJ/bit", ex_energy,
     "triad pJ_per_bit_above_idle"},
    /* every latency says which chase it is: addresses (p = *p, 64-bit; shared memory: 32-bit
     * shared-window addresses), word indices (p = a[p], an integer operation more a step), or
     * a record whose points do not say */
    {"chase", "L1 latency (pointer chase)", "cycles", gmb_ex_chase_lat, "@addr L1 cycles"},
    {"chase", "L1 latency (pointer chase)", "ns", gmb_ex_chase_lat, "@addr L1 ns"},
    {"chase", "L1 latency (index chase)", "cycles", gmb_ex_chase_lat, "@idx L1 cycles"},
    {"chase", "L1 latency (index chase)", "ns", gmb_ex_chase_lat, "@idx L1 ns"},
    {"chase", "L1 latency (chase not recorded)", "cycles", gmb_ex_chase_lat, "@none L1 cycles"},
    {"chase", "L1 latency (chase not recorded)", "ns", gmb_ex_chase_lat, "@none L1 ns"},
    {"chase", "L2 latency (pointer chase)", "cycles", gmb_ex_chase_lat,
     "@addr L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 latency (pointer chase)", "ns", gmb_ex_chase_lat,
     "@addr L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 latency (index chase)", "cycles", gmb_ex_chase_lat,
     "@idx L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 latency (index chase)", "ns", gmb_ex_chase_lat, "@idx L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 latency (chase not recorded)", "cycles", gmb_ex_chase_lat,
     "@none L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 latency (chase not recorded)", "ns", gmb_ex_chase_lat,
     "@none L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 far latency (pointer chase)", "cycles", gmb_ex_chase_lat, "@addr L2 far cycles"},
    {"chase", "L2 far latency (pointer chase)", "ns", gmb_ex_chase_lat, "@addr L2 far ns"},
    {"chase", "L2 far latency (index chase)", "cycles", gmb_ex_chase_lat, "@idx L2 far cycles"},
    {"chase", "L2 far latency (index chase)", "ns", gmb_ex_chase_lat, "@idx L2 far ns"},
    {"chase", "L2 far latency (chase not recorded)", "cycles", gmb_ex_chase_lat,
     "@none L2 far cycles"},
    {"chase", "L2 far latency (chase not recorded)", "ns", gmb_ex_chase_lat, "@none L2 far ns"},
    {"chase", "DRAM latency (pointer chase)", "cycles", gmb_ex_chase_lat,
     "@addr DRAM|memory cycles"},
    {"chase", "DRAM latency (pointer chase)", "ns", gmb_ex_chase_lat, "@addr DRAM|memory ns"},
    {"chase", "DRAM latency (index chase)", "cycles", gmb_ex_chase_lat, "@idx DRAM|memory cycles"},
    {"chase", "DRAM latency (index chase)", "ns", gmb_ex_chase_lat, "@idx DRAM|memory ns"},
    {"chase", "DRAM latency (chase not recorded)", "cycles", gmb_ex_chase_lat,
     "@none DRAM|memory cycles"},
    {"chase", "DRAM latency (chase not recorded)", "ns", gmb_ex_chase_lat, "@none DRAM|memory ns"},
    {"chase", "L2 capacity (latency curve)", "MiB", gmb_ex_chase_cap, "L2|L2 far|L2 part 2"},
    /* on-chip memories: the first level of the shared (local) and constant chases */
    {"chase", "Shared/local-memory latency (pointer chase, 32-bit)", "cycles", gmb_ex_chase_onchip,
     "@saddr shared cycles"},
    {"chase", "Shared/local-memory latency (pointer chase, 32-bit)", "ns", gmb_ex_chase_onchip,
     "@saddr shared ns"},
    {"chase", "Shared/local-memory latency (index chase)", "cycles", gmb_ex_chase_onchip,
     "@idx shared cycles"},
    {"chase", "Shared/local-memory latency (index chase)", "ns", gmb_ex_chase_onchip,
     "@idx shared ns"},
    {"chase", "Shared/local-memory latency (chase not recorded)", "cycles", gmb_ex_chase_onchip,
     "@none shared cycles"},
    {"chase", "Shared/local-memory latency (chase not recorded)", "ns", gmb_ex_chase_onchip,
     "@none shared ns"},
    {"chase", "Constant cache latency (level 1; index chase)", "cycles", gmb_ex_chase_onchip,
     "@idx constant cycles"},
    {"chase", "Constant cache latency (level 1; index chase)", "ns", gmb_ex_chase_onchip,
     "@idx constant ns"},
    {"chase", "Constant cache latency (level 1; chase not recorded)", "cycles", gmb_ex_chase_onchip,
     "@none constant cycles"},
    {"chase", "Constant cache latency (level 1; chase not recorded)", "ns", gmb_ex_chase_onchip,
     "@none constant ns"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; index chase)",
     "cycles", gmb_ex_chase_onchip, "@idx dsmem cycles"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; index chase)", "ns",
     gmb_ex_chase_onchip, "@idx dsmem ns"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; chase not recorded)",
     "cycles", gmb_ex_chase_onchip, "@none dsmem cycles"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; chase not recorded)",
     "ns", gmb_ex_chase_onchip, "@none dsmem ns"},
    /* atomics (done at the L2 on a GPU): the L2 level of the atomic chase */
    {"chase", "L2 atomic latency (index chase)", "cycles", gmb_ex_chase_lat,
     "@idx atomic:L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 atomic latency (index chase)", "ns", gmb_ex_chase_lat,
     "@idx atomic:L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 atomic latency (chase not recorded)", "cycles", gmb_ex_chase_lat,
     "@none atomic:L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 atomic latency (chase not recorded)", "ns", gmb_ex_chase_lat,
     "@none atomic:L2|L2 near|L2 part 1 ns"},
    /* the texture path (--spaces texture): its L1 (the texture cache) and L2 levels */
    {"chase", "Texture L1 latency (index chase)", "cycles", gmb_ex_chase_lat,
     "@idx texture:L1 cycles"},
    {"chase", "Texture L1 latency (index chase)", "ns", gmb_ex_chase_lat, "@idx texture:L1 ns"},
    {"chase", "Texture L1 latency (chase not recorded)", "cycles", gmb_ex_chase_lat,
     "@none texture:L1 cycles"},
    {"chase", "Texture L1 latency (chase not recorded)", "ns", gmb_ex_chase_lat,
     "@none texture:L1 ns"},
    {"chase", "Texture L2 latency (index chase)", "cycles", gmb_ex_chase_lat,
     "@idx texture:L2|L2 near|L2 part 1 cycles"},
    {"chase", "Texture L2 latency (index chase)", "ns", gmb_ex_chase_lat,
     "@idx texture:L2|L2 near|L2 part 1 ns"},
    {"chase", "Texture L2 latency (chase not recorded)", "cycles", gmb_ex_chase_lat,
     "@none texture:L2|L2 near|L2 part 1 cycles"},
    {"chase", "Texture L2 latency (chase not recorded)", "ns", gmb_ex_chase_lat,
     "@none texture:L2|L2 near|L2 part 1 ns"},
    /* across a link: the device's loads from mapped host memory, from a peer's memory */
    {"chase", "Host memory latency (mapped, from the device; pointer chase)", "ns",
     gmb_ex_chase_lat, "@addr host:host memory ns"},
    {"chase", "Host memory latency (mapped, from the device; index chase)", "ns", gmb_ex_chase_lat,
     "@idx host:host memory ns"},
    {"chase", "Host memory latency (mapped, from the device; chase not recorded)", "ns",
     gmb_ex_chase_lat, "@none host:host memory ns"},
    {"chase", "Peer memory latency (from the device; pointer chase)", "ns", gmb_ex_chase_lat,
     "@addr peer:peer memory ns"},
    {"chase", "Peer memory latency (from the device; index chase)", "ns", gmb_ex_chase_lat,
     "@idx peer:peer memory ns"},
    {"chase", "Peer memory latency (from the device; chase not recorded)", "ns", gmb_ex_chase_lat,
     "@none peer:peer memory ns"},
    /* the TLB levels of the 2 MiB page-stride chase: levels no cache ends (gmb_page_level_names),
     * their reach, latency and miss cost (the next level's latency less theirs) */
    {"chase", "TLB level 1 (2 MiB page stride): latency (pointer chase)", "cycles", ex_chase_tlb,
     "@addr 2097152 1 cycles"},
    {"chase", "TLB level 1 (2 MiB page stride): latency (index chase)", "cycles", ex_chase_tlb,
     "@idx 2097152 1 cycles"},
    {"chase", "TLB level 1 (2 MiB page stride): latency (chase not recorded)", "cycles",
     ex_chase_tlb, "@none 2097152 1 cycles"},
    {"chase", "TLB level 1 (2 MiB page stride): miss cost (pointer chase)", "cycles", ex_chase_tlb,
     "@addr 2097152 1 miss_cycles"},
    {"chase", "TLB level 1 (2 MiB page stride): miss cost (index chase)", "cycles", ex_chase_tlb,
     "@idx 2097152 1 miss_cycles"},
    {"chase", "TLB level 1 (2 MiB page stride): miss cost (chase not recorded)", "cycles",
     ex_chase_tlb, "@none 2097152 1 miss_cycles"},
    {"chase", "TLB level 1 (2 MiB page stride): reach", "MiB", ex_chase_tlb, "2097152 1 reach"},
    {"chase", "TLB level 2 (2 MiB page stride): latency (pointer chase)", "cycles", ex_chase_tlb,
     "@addr 2097152 2 cycles"},
    {"chase", "TLB level 2 (2 MiB page stride): latency (index chase)", "cycles", ex_chase_tlb,
     "@idx 2097152 2 cycles"},
    {"chase", "TLB level 2 (2 MiB page stride): latency (chase not recorded)", "cycles",
     ex_chase_tlb, "@none 2097152 2 cycles"},
    {"chase", "TLB level 2 (2 MiB page stride): miss cost (pointer chase)", "cycles", ex_chase_tlb,
     "@addr 2097152 2 miss_cycles"},
    {"chase", "TLB level 2 (2 MiB page stride): miss cost (index chase)", "cycles", ex_chase_tlb,
     "@idx 2097152 2 miss_cycles"},
    {"chase", "TLB level 2 (2 MiB page stride): miss cost (chase not recorded)", "cycles",
     ex_chase_tlb, "@none 2097152 2 miss_cycles"},
    {"chase", "TLB level 2 (2 MiB page stride): reach", "MiB", ex_chase_tlb, "2097152 2 reach"},
    {"chase", "TLB level 3 (2 MiB page stride): latency (pointer chase)", "cycles", ex_chase_tlb,
     "@addr 2097152 3 cycles"},
    {"chase", "TLB level 3 (2 MiB page stride): latency (index chase)", "cycles", ex_chase_tlb,
     "@idx 2097152 3 cycles"},
    {"chase", "TLB level 3 (2 MiB page stride): latency (chase not recorded)", "cycles",
     ex_chase_tlb, "@none 2097152 3 cycles"},
    {"chase", "TLB level 3 (2 MiB page stride): miss cost (pointer chase)", "cycles", ex_chase_tlb,
     "@addr 2097152 3 miss_cycles"},
    {"chase", "TLB level 3 (2 MiB page stride): miss cost (index chase)", "cycles", ex_chase_tlb,
     "@idx 2097152 3 miss_cycles"},
    {"chase", "TLB level 3 (2 MiB page stride): miss cost (chase not recorded)", "cycles",
     ex_chase_tlb, "@none 2097152 3 miss_cycles"},
    {"chase", "TLB level 3 (2 MiB page stride): reach", "MiB", ex_chase_tlb, "2097152 3 reach"},
    /* a CPU (or a curve gmb-chase did not name): its levels by number, never as GPU ones */
    {"chase", "Latency level 1 (pointer chase)", "ns", gmb_ex_chase_lat, "@addr level 1 ns"},
    {"chase", "Latency level 1 (index chase)", "ns", gmb_ex_chase_lat, "@idx level 1 ns"},
    {"chase", "Latency level 1 (chase not recorded)", "ns", gmb_ex_chase_lat, "@none level 1 ns"},
    {"chase", "Latency level 2 (pointer chase)", "ns", gmb_ex_chase_lat, "@addr level 2 ns"},
    {"chase", "Latency level 2 (index chase)", "ns", gmb_ex_chase_lat, "@idx level 2 ns"},
    {"chase", "Latency level 2 (chase not recorded)", "ns", gmb_ex_chase_lat, "@none level 2 ns"},
    {"chase", "Latency level 3 (pointer chase)", "ns", gmb_ex_chase_lat, "@addr level 3 ns"},
    {"chase", "Latency level 3 (index chase)", "ns", gmb_ex_chase_lat, "@idx level 3 ns"},
    {"chase", "Latency level 3 (chase not recorded)", "ns", gmb_ex_chase_lat, "@none level 3 ns"},
    {"chase", "Latency level 4 (pointer chase)", "ns", gmb_ex_chase_lat, "@addr level 4 ns"},
    {"chase", "Latency level 4 (index chase)", "ns", gmb_ex_chase_lat, "@idx level 4 ns"},
    {"chase", "Latency level 4 (chase not recorded)", "ns", gmb_ex_chase_lat, "@none level 4 ns"},
    {"chase", "Latency level 5 (pointer chase)", "ns", gmb_ex_chase_lat, "@addr level 5 ns"},
    {"chase", "Latency level 5 (index chase)", "ns", gmb_ex_chase_lat, "@idx level 5 ns"},
    {"chase", "Latency level 5 (chase not recorded)", "ns", gmb_ex_chase_lat, "@none level 5 ns"},
    {"chase", "Latency level 6 (pointer chase)", "ns", gmb_ex_chase_lat, "@addr level 6 ns"},
    {"chase", "Latency level 6 (index chase)", "ns", gmb_ex_chase_lat, "@idx level 6 ns"},
    {"chase", "Latency level 6 (chase not recorded)", "ns", gmb_ex_chase_lat, "@none level 6 ns"},
    /* gmb-access: the access granularity the stride curve shows; misaligned reads; random
     * 32-byte reads and writes */
    {"access", "Access granularity (stride curve, DRAM buffer)", "B", ex_access,
     "granularity dram"},
    {"access", "Access granularity (stride curve, cache-resident buffer)", "B", ex_access,
     "granularity cache"},
    {"access", "Misaligned contiguous reads, worst offset, of aligned (DRAM)", "%", ex_access,
     "misalignment dram"},
    {"access", "Random 32-byte reads (DRAM)", "GB/s", ex_access, "random dram bw 32"},
    {"access", "Random 32-byte reads, of contiguous (DRAM)", "%", ex_access, "random dram of 32"},
    {"access", "Block size for full random-read bandwidth (DRAM)", "B", ex_access,
     "random dram full"},
    {"access", "Random 32-byte writes (DRAM)", "GB/s", ex_access, "random_write dram bw 32"},
    {"access", "Random 32-byte writes, of contiguous (DRAM)", "%", ex_access,
     "random_write dram of 32"},
    /* gmb-atomic: atomic adds on distinct addresses and on one address */
    {"atomic", "Global atomic adds (red), distinct addresses", "Gop/s", gmb_ex_number,
     "results.contention.global_red.distinct_Gops"},
    {"atomic", "Global atomic adds (red), one address", "Gop/s", gmb_ex_number,
     "results.contention.global_red.one_address_Gops"},
    {"atomic", "Global atomic adds (atom), distinct addresses", "Gop/s", gmb_ex_number,
     "results.contention.global_atom.distinct_Gops"},
    {"atomic", "Global atomic adds (atom), one address: time per update", "ns", gmb_ex_number,
     "results.contention.global_atom.one_address_ns_per_update"},
    {"atomic", "Shared-memory atomic adds (atom), distinct addresses", "Gop/s", gmb_ex_number,
     "results.contention.shared_atom.distinct_Gops"},
    {"atomic", "Shared-memory atomic adds (atom), one address a group", "Gop/s", gmb_ex_number,
     "results.contention.shared_atom.one_address_Gops"},
    /* gmb-loaded: the DRAM chase idle and beside streaming groups */
    {"loaded", "Loaded: chase latency, idle (index chase)", "ns", gmb_ex_loaded,
     "read idle.lat_ns"},
    {"loaded", "Loaded: the most bandwidth beside the chase", "GB/s", gmb_ex_loaded,
     "read max_bw_GBps"},
    {"loaded", "Loaded: latency at the knee (97% of that bandwidth; index chase)", "ns",
     gmb_ex_loaded, "read knee.lat_ns"},
    {"loaded", "Loaded: latency with the most streaming groups (index chase)", "ns", gmb_ex_loaded,
     "read most_groups.lat_ns"},
    {"loaded", "Loaded: bandwidth where the latency doubles", "GB/s", gmb_ex_loaded,
     "read bw_at_2x_idle_GBps"},
    {"loaded", "Loaded by writes: the most bandwidth beside the chase", "GB/s", gmb_ex_loaded,
     "write max_bw_GBps"},
    {"loaded", "Loaded by writes: latency at the knee (index chase)", "ns", gmb_ex_loaded,
     "write knee.lat_ns"},
    {"loaded", "Loaded by writes: bandwidth where the latency doubles", "GB/s", gmb_ex_loaded,
     "write bw_at_2x_idle_GBps"},
    /* gmb-l2: its plateau model (L2 on a GPU, the last-level cache on a CPU) */
    {"l2", "L1 bandwidth, aggregate (every SM re-reads one set)", "GB/s", ex_vci,
     "results.bandwidth.l1.first.GBps results.bandwidth.l1.first.ci "
     "results.bandwidth.l1.first.name=L1"},
    {"l2", "Cache level 1 bandwidth, aggregate (every compute unit re-reads one set)", "GB/s",
     ex_vci,
     "results.bandwidth.l1.first.GBps results.bandwidth.l1.first.ci "
     "results.bandwidth.l1.first.name=level 1"},
    {"l2", "L2 bandwidth, every SM re-reads one set (after the L1 plateau)", "GB/s", ex_vci,
     "results.bandwidth.l1.last.GBps results.bandwidth.l1.last.ci "
     "results.bandwidth.l1.last.name=L2"},
    {"l2", "Cache plateau bandwidth, read (L2 on a GPU)", "GB/s", ex_vci,
     "results.bandwidth.read.cache_GBps results.bandwidth.read.cache_ci"},
    {"l2", "L2 near bandwidth, read (the first of two L2 plateaus)", "GB/s", ex_named,
     "results.bandwidth.read.levels L2 near"},
    {"l2", "L2 far bandwidth, read (the second L2 plateau)", "GB/s", ex_named,
     "results.bandwidth.read.levels L2 far"},
    {"l2", "Cache plateau bandwidth, write", "GB/s", gmb_ex_number,
     "results.bandwidth.write.cache_GBps"},
    {"l2", "Memory plateau bandwidth, read", "GB/s", ex_vci,
     "results.bandwidth.read.memory_GBps results.bandwidth.read.memory_ci"},
    {"l2", "Cache / memory bandwidth, read", "x", gmb_ex_number, "results.bandwidth.read.ratio"},
    {"l2", "Cache capacity (bandwidth curve, read)", "MiB", ex_l2_capacity, "read"},
    {"l2", "Cache capacity (bandwidth curve, write)", "MiB", ex_l2_capacity, "write"},
    {"l2", "Cold / warm time, smallest set", "x", gmb_ex_number,
     "results.coldwarm.sizes.0.cold_over_warm"},
    {"bank", "Shared-memory banks", "", ex_bank_banks, ""},
    {"bank", "Bank-conflict cost per way (latency)", "cycles", ex_bank_slope, "latency 4"},
    {"bank", "Bank-conflict cost per way (throughput)", "cycles", ex_bank_slope, "throughput 4"},
    {"bank", "Shared-memory bandwidth, no conflict", "GB/s", ex_bank_bw, "4 bw_GBps"},
    /* another SM's shared memory (remote pattern, a cluster of 2): the widest accesses */
    {"bank", "Distributed shared-memory bandwidth, 16-byte reads (cluster of 2)", "GB/s",
     gmb_ex_bank_point, "throughput remote 16 2 bw_GBps"},
    {"bank", "Shared-memory bandwidth, 16-byte reads, stride 1", "GB/s", gmb_ex_bank_point,
     "throughput stride 16 1 bw_GBps"},
    /* gmb-copy: where the host memory sat; the largest copy of a series (bytes copied, counted
     * once) */
    {"copy", "Host memory of the copies (pinned)", "", ex_host_place, ""},
    {"copy", "Host to device, pinned, largest copy", "GB/s", ex_vci,
     "results.largest.h2d_pinned_ce.bw_GBps results.largest.h2d_pinned_ce.ci"},
    {"copy", "Host to device, pinned, of PCIe nominal", "%", gmb_ex_number,
     "results.largest.h2d_pinned_ce.pct_link"},
    {"copy", "Device to host, pinned, largest copy", "GB/s", ex_vci,
     "results.largest.d2h_pinned_ce.bw_GBps results.largest.d2h_pinned_ce.ci"},
    {"copy", "Device to host, pinned, of PCIe nominal", "%", gmb_ex_number,
     "results.largest.d2h_pinned_ce.pct_link"},
    {"copy", "Host to device, pinned, slowest other NUMA node", "GB/s", gmb_ex_number,
     "results.numa_copy.h2d_pinned_ce.slowest_GBps"},
    {"copy", "Host to device, pinned, slowest other node vs default", "%", gmb_ex_number,
     "results.numa_copy.h2d_pinned_ce.slowest_pct_of_default"},
    {"copy", "Device to host, pinned, slowest other NUMA node", "GB/s", gmb_ex_number,
     "results.numa_copy.d2h_pinned_ce.slowest_GBps"},
    {"copy", "Device to host, pinned, slowest other node vs default", "%", gmb_ex_number,
     "results.numa_copy.d2h_pinned_ce.slowest_pct_of_default"},
    {"copy", "Both directions at once, pinned (sum)", "GB/s", ex_vci,
     "results.largest.bidir_pinned_ce.bw_GBps results.largest.bidir_pinned_ce.ci"},
    {"copy", "Host to device, pageable, largest copy", "GB/s", ex_vci,
     "results.largest.h2d_pageable_ce.bw_GBps results.largest.h2d_pageable_ce.ci"},
    {"copy", "Device to device, copy engine (bytes copied)", "GB/s", ex_vci,
     "results.largest.d2d_device_ce.bw_GBps results.largest.d2d_device_ce.ci"},
    {"copy", "Device to device, SM kernel (bytes copied)", "GB/s", ex_vci,
     "results.largest.d2d_device_sm.bw_GBps results.largest.d2d_device_sm.ci"},
    {"copy", "Peer copy, copy engine, fastest peer", "GB/s", gmb_ex_number,
     "results.peer_copy.p2p_ce.fastest_GBps"},
    {"copy", "Peer copy, copy engine, slowest peer", "GB/s", gmb_ex_number,
     "results.peer_copy.p2p_ce.slowest_GBps"},
    {"copy", "Host to device, pinned, smallest copy", "us", gmb_ex_number,
     "results.latency_us.h2d_pinned_ce.lat_us"},
    /* gmb-um: managed memory, how it moves here, the largest buffer of each test */
    {"um", "Managed memory moves", "", ex_text, "results.migration"},
    {"um", "Managed: device reads, data on the device", "GB/s", gmb_ex_um, "resident"},
    {"um", "Managed: device reads host-written data", "GB/s", gmb_ex_um, "fault-h2d"},
    /* fault-d2h: a host thread checking every word (records before the touches), or the
     * migration itself, timed by one load a page */
    {"um", "Managed: host reads device-written data", "GB/s", gmb_ex_um, "fault-d2h"},
    {"um", "Managed: migration to the host on host faults (one load a 4 KiB page)", "GB/s",
     gmb_ex_um, "fault-d2h touch"},
    {"um",
     "Managed: host loads device-written data, one a 4 KiB page (host memory: nothing "
     "migrates)",
     "GB/s", gmb_ex_um, "fault-d2h hosttouch"},
    {"um", "Managed: prefetch to the device", "GB/s", gmb_ex_um, "prefetch-h2d"},
    {"um", "Managed: prefetch to the host", "GB/s", gmb_ex_um, "prefetch-d2h"},
    {"um", "Managed: device reads it on the host (advice)", "GB/s", gmb_ex_um, "remote"},
    {"um", "Managed: device reads, read-mostly copy made", "GB/s", gmb_ex_um, "readmostly"},
    {"um", "How the device reaches malloc'd memory", "", ex_text, "results.system_memory"},
    {"um", "Device reads host-written malloc'd memory", "GB/s", gmb_ex_um, "system"},
    {"um", "Page fault, one touch per 64 KiB", "us", gmb_ex_um, "fault 65536"},
    {"um", "Page fault, one touch per 2 MiB", "us", gmb_ex_um, "fault 2097152"},
    {NULL, NULL, NULL, NULL, NULL},
};

const gmb_level_row_t gmb_level_rows[] = {
    {GMB_LEVEL_L1, "L1 bandwidth, aggregate (every SM re-reads one set)",
     "gmb-l2 l1: every SM re-reads one set through L1; the first plateau"},
    {GMB_LEVEL_CACHE1, "Cache level 1 bandwidth, aggregate (every compute unit re-reads one set)",
     "gmb-l2 l1: every compute unit re-reads one set; the first plateau"},
    {GMB_LEVEL_SHARED, "Shared-memory bandwidth, no conflict",
     "gmb-bank: 4-byte words, stride 1, every SM or compute unit"},
    {GMB_LEVEL_SHARED, "Shared-memory bandwidth, 16-byte reads, stride 1",
     "gmb-bank: 16-byte reads, stride 1, every SM or compute unit"},
    {GMB_LEVEL_DSMEM, "Distributed shared-memory bandwidth, 16-byte reads (cluster of 2)",
     "gmb-bank: another SM's shared memory, cluster of 2"},
    {GMB_LEVEL_L2_SAME, "L2 bandwidth, every SM re-reads one set (after the L1 plateau)",
     "gmb-l2 l1: the plateau after the L1s' (RRZE gpu-cache's figure)"},
    {GMB_LEVEL_L2, "Cache plateau bandwidth, read (L2 on a GPU)",
     "gmb-l2 read: L1 bypassed, every line from the L2; the cache plateau"},
    {GMB_LEVEL_L2_NEAR, "L2 near bandwidth, read (the first of two L2 plateaus)",
     "gmb-l2 read: L1 bypassed; the read curve's first L2 plateau"},
    {GMB_LEVEL_L2_FAR, "L2 far bandwidth, read (the second L2 plateau)",
     "gmb-l2 read: L1 bypassed; the read curve's second L2 plateau"},
    {GMB_LEVEL_DRAM, "Read bandwidth", "gmb-stream read: the best memory-sized point"},
    {GMB_LEVEL_DRAM, "Memory plateau bandwidth, read", "gmb-l2 read: the memory plateau"},
    {GMB_LEVEL_HOST_H2D, "Host to device, pinned, largest copy",
     "gmb-copy: copy engine, pinned host memory, the largest copy"},
    {GMB_LEVEL_HOST_D2H, "Device to host, pinned, largest copy",
     "gmb-copy: copy engine, pinned host memory, the largest copy"},
    {GMB_LEVEL_HOST_BOTH, "Both directions at once, pinned (sum)",
     "gmb-copy: copy engines, both directions at once (sum)"},
    {GMB_LEVEL_PEER, "Peer copy, copy engine, fastest peer",
     "gmb-copy: copy engine, the fastest peer"},
    {NULL, NULL, NULL},
};
