/* report.c - records read back for gmb plot/table/compare: run sets, the table of row
 * extractors and its Markdown/LaTeX/CSV rendering, and the per-point comparison. */
#include "model/curves.h"
#include "gmb.h"
#include "model/levels.h"
#include "nvml.h"
#include "topo.h"
#include "record.h"
#include "model/stats.h"
#include "tools/tools.h"

#include <ctype.h>
#include <stdarg.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- JSON helpers ----------------------------------------------------------------------- */

const json_t *gmb_jpath(const json_t *j, const char *path)
{
    char key[128];
    while (j && path && *path) {
        const char *dot = strchr(path, '.');
        size_t l = dot ? (size_t)(dot - path) : strlen(path);
        if (l >= sizeof key)
            return NULL;
        memcpy(key, path, l);
        key[l] = '\0';
        char *end;
        long idx = strtol(key, &end, 10);
        if (json_is_array(j) && key[0] && !*end) /* "sizes.0": an array element */
            j = idx >= 0 ? json_array_get(j, (size_t)idx) : NULL;
        else
            j = json_object_get(j, key);
        path = dot ? dot + 1 : NULL;
    }
    return j;
}

double gmb_jnum(const json_t *j, const char *path)
{
    const json_t *v = gmb_jpath(j, path);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

int gmb_rec_busy(const json_t *rec)
{
    const json_t *b = json_object_get(rec, "busy_before");
    return json_is_true(json_object_get(b, "available")) &&
           gmb_busy_in_use(gmb_jnum(b, "compute_processes"), gmb_jnum(b, "gpu_util_pct"),
                           json_is_string(json_object_get(b, "after_gmb_program")));
}

static const char *jstr(const json_t *j, const char *path)
{
    const char *s = json_string_value(gmb_jpath(j, path));
    return s ? s : "";
}

/* ---- growable string -------------------------------------------------------------------- */

typedef struct {
    char *s;
    size_t n, cap;
    int bad;
} buf_t;

static void bput(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(buf_t *b, const char *fmt, ...)
{
    va_list ap;
    if (b->bad)
        return;
    for (;;) {
        va_start(ap, fmt);
        int l = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (l < 0) {
            b->bad = 1;
            return;
        }
        if (b->s && b->n + (size_t)l < b->cap) {
            b->n += (size_t)l;
            return;
        }
        size_t cap = (b->cap ? 2 * b->cap : 1024) + (size_t)l;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->bad = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

static char *bdone(buf_t *b)
{
    if (b->bad) {
        free(b->s);
        return NULL;
    }
    if (!b->s)
        return strdup("");
    return b->s;
}

/* ---- run sets --------------------------------------------------------------------------- */

void gmb_device_label(const json_t *dev, const char *backend, char *out, size_t len)
{
    char name[160];
    const char *n = jstr(dev, "name");
    /* PoCL names its CPU device "pthread-<arch>-<model>": keep the model */
    while (*n) {
        const char *p = n;
        while (*p && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
            p++;
        if (p > n && *p == '-' && p[1])
            n = p + 1;
        else
            break;
    }
    size_t k = 0;
    for (const char *p = n; *p && k + 1 < sizeof name; p++) {
        if (!strncmp(p, "(R)", 3) || !strncmp(p, "(TM)", 4) || !strncmp(p, "(tm)", 4)) {
            p += p[1] == 'R' ? 2 : 3;
            continue;
        }
        if (*p == ' ' && (k == 0 || name[k - 1] == ' '))
            continue;
        name[k++] = *p;
    }
    while (k && name[k - 1] == ' ')
        k--;
    name[k] = '\0';
    if (!k)
        gmb_strlcpy(name, "device", sizeof name);
    const char *plat = jstr(dev, "platform"), *type = jstr(dev, "type");
    const char *be = backend && *backend ? backend : jstr(dev, "backend");
    if (strstr(plat, "Portable Computing Language"))
        snprintf(out, len, "%s (PoCL %s)", name, !strcmp(type, "cpu") ? "CPU" : type);
    else if (gmb_backend_kind(be))
        snprintf(out, len, "%s (%s)", name, gmb_backend_kind(be)->label);
    else
        snprintf(out, len, "%s", name);
}

int gmb_runset_add(gmb_runset_t *rs, json_t *rec, const char *path, const char *source)
{
    size_t r;
    for (r = 0; r < rs->nruns; r++)
        if (!strcmp(rs->runs[r].source, source))
            break;
    if (r == rs->nruns) {
        gmb_run_t *nr = realloc(rs->runs, (rs->nruns + 1) * sizeof *nr);
        if (!nr)
            return GMB_ERUNTIME;
        rs->runs = nr;
        memset(&nr[r], 0, sizeof nr[r]);
        gmb_strlcpy(nr[r].source, source, sizeof nr[r].source);
        rs->nruns++;
    }
    gmb_rec_t *nrec = realloc(rs->recs, (rs->nrecs + 1) * sizeof *nrec);
    if (!nrec)
        return GMB_ERUNTIME;
    rs->recs = nrec;
    gmb_rec_t *x = &nrec[rs->nrecs++];
    memset(x, 0, sizeof *x);
    x->j = rec;
    gmb_strlcpy(x->path, path, sizeof x->path);
    x->bench = json_string_value(json_object_get(rec, "benchmark"));
    x->run = r;
    /* devices are borrowed from records: re-point every run (recs may have moved) */
    for (size_t i = 0; i < rs->nruns; i++)
        rs->runs[i].device = NULL;
    for (size_t i = 0; i < rs->nrecs; i++) {
        gmb_run_t *run = &rs->runs[rs->recs[i].run];
        if (!run->device) {
            run->device = json_object_get(rs->recs[i].j, "device");
            gmb_strlcpy(run->time_utc, jstr(rs->recs[i].j, "time_utc"), sizeof run->time_utc);
        }
    }
    return GMB_OK;
}

void gmb_runset_label(gmb_runset_t *rs)
{
    for (size_t r = 0; r < rs->nruns; r++) {
        const gmb_rec_t *first = NULL;
        for (size_t i = 0; i < rs->nrecs && !first; i++)
            if (rs->recs[i].run == r)
                first = &rs->recs[i];
        gmb_device_label(rs->runs[r].device, first ? jstr(first->j, "backend") : "",
                         rs->runs[r].label, sizeof rs->runs[r].label);
    }
    /* two runs on one device: add the date, then the directory name if still equal */
    char(*orig)[192] = calloc(rs->nruns ? rs->nruns : 1, sizeof *orig);
    if (!orig)
        return;
    for (size_t r = 0; r < rs->nruns; r++)
        gmb_strlcpy(orig[r], rs->runs[r].label, sizeof orig[r]);
    for (size_t r = 0; r < rs->nruns; r++) {
        int dup = 0;
        for (size_t q = 0; q < rs->nruns; q++)
            dup |= q != r && !strcmp(orig[q], orig[r]);
        if (!dup)
            continue;
        char date[20];
        gmb_strlcpy(date, rs->runs[r].time_utc[0] ? rs->runs[r].time_utc : "?", 17);
        if (strlen(date) > 10 && date[10] == 'T')
            date[10] = ' ';
        snprintf(rs->runs[r].label, sizeof rs->runs[r].label, "%.150s, %s", orig[r], date);
    }
    for (size_t r = 0; r < rs->nruns; r++)
        gmb_strlcpy(orig[r], rs->runs[r].label, sizeof orig[r]);
    for (size_t r = 0; r < rs->nruns; r++) {
        int dup = 0;
        for (size_t q = 0; q < rs->nruns; q++)
            dup |= q != r && !strcmp(orig[q], orig[r]);
        if (!dup)
            continue;
        const char *slash = strrchr(rs->runs[r].source, '/');
        snprintf(rs->runs[r].label, sizeof rs->runs[r].label, "%.120s (%.60s)", orig[r],
                 slash ? slash + 1 : rs->runs[r].source);
    }
    free(orig);
}

void gmb_runset_free(gmb_runset_t *rs)
{
    for (size_t i = 0; i < rs->nrecs; i++)
        json_decref(rs->recs[i].j);
    free(rs->recs);
    free(rs->runs);
    memset(rs, 0, sizeof *rs);
}

const gmb_rec_t *gmb_runset_find(const gmb_runset_t *rs, size_t run, const char *bench)
{
    const gmb_rec_t *best = NULL;
    for (size_t i = 0; i < rs->nrecs; i++) {
        const gmb_rec_t *x = &rs->recs[i];
        if (x->run != run || !x->bench || strcmp(x->bench, bench))
            continue;
        if (!best || strcmp(jstr(x->j, "time_utc"), jstr(best->j, "time_utc")) >= 0)
            best = x;
    }
    return best;
}

/* Read one record file; one line on err when it cannot be used. */
static void load_one(gmb_runset_t *rs, const char *path, const char *source, FILE *err)
{
    char msg[4600];
    json_t *r = gmb_record_load(path, msg, sizeof msg);
    if (!r) {
        fprintf(err, "gmb: error: %s; skipped\n", msg);
        rs->nbad++;
        return;
    }
    if (msg[0]) /* a newer schema: read what we understand */
        fprintf(err, "gmb: warning: %s\n", msg);
    json_int_t ver = json_integer_value(json_object_get(r, "schema_version"));
    if (ver < GMB_RECORD_SCHEMA_READ_FULLY)
        fprintf(err,
                "gmb: warning: %s: schema version %" JSON_INTEGER_FORMAT
                " is older than this gmb reads in full (%d; it writes %d): what it lacks shows "
                "as '-'\n",
                path, ver, GMB_RECORD_SCHEMA_READ_FULLY, GMB_RECORD_SCHEMA_VERSION);
    if (!json_is_string(json_object_get(r, "benchmark")) ||
        !json_is_array(json_object_get(r, "points"))) {
        fprintf(err, "gmb: error: %s: a gmb record without benchmark or points; skipped\n", path);
        json_decref(r);
        rs->nbad++;
        return;
    }
    if (!json_is_object(json_object_get(r, "device")))
        json_object_set_new(r, "device", json_object());
    if (gmb_runset_add(rs, r, path, source)) {
        json_decref(r);
        rs->nbad++;
    }
}

int gmb_runset_load(gmb_runset_t *rs, char *const *args, int nargs, FILE *err)
{
    for (int a = 0; a < nargs; a++) {
        struct stat st;
        char src[4096];
        gmb_strlcpy(src, args[a], sizeof src);
        size_t l = strlen(src);
        while (l > 1 && src[l - 1] == '/')
            src[--l] = '\0';
        if (stat(src, &st)) {
            fprintf(err, "gmb: error: %s: no such file or directory\n", src);
            rs->nbad++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            char dir[4096];
            gmb_strlcpy(dir, src, sizeof dir);
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = '\0';
            else
                gmb_strlcpy(dir, ".", sizeof dir);
            load_one(rs, src, dir, err);
            continue;
        }
        DIR *d = opendir(src);
        if (!d) {
            fprintf(err, "gmb: error: %s: cannot read the directory\n", src);
            rs->nbad++;
            continue;
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t el = strlen(e->d_name);
            if (e->d_name[0] == '.' || el < 6 || strcmp(e->d_name + el - 5, ".json") ||
                !strcmp(e->d_name, "run.json"))
                continue;
            char **nn = realloc(names, (n + 1) * sizeof *nn);
            if (!nn)
                break;
            names = nn;
            if (!(names[n] = strdup(e->d_name)))
                break;
            n++;
        }
        closedir(d);
        if (n)
            qsort(names, n, sizeof *names, gmb_cmp_str);
        if (!n) {
            fprintf(err, "gmb: error: %s: no records (*.json) in this directory\n", src);
            rs->nbad++;
        }
        for (size_t i = 0; i < n; i++) {
            char p[8300];
            snprintf(p, sizeof p, "%s/%s", src, names[i]);
            load_one(rs, p, src, err);
            free(names[i]);
        }
        free(names);
    }
    gmb_runset_label(rs);
    return rs->nrecs ? GMB_OK : GMB_EUSAGE;
}

/* ---- row extractors --------------------------------------------------------------------- */

static void set_num(gmb_cell_t *c, double v, double lo, double hi)
{
    c->kind = 1;
    c->v = v;
    c->lo = lo;
    c->hi = hi;
}

static void set_stat(gmb_cell_t *c, const json_t *m)
{
    set_num(c, gmb_jnum(m, "median"), gmb_jnum(m, "ci_lo"), gmb_jnum(m, "ci_hi"));
}

/* ---- convergence: the points a value rests on ------------------------------------------- */

/* Count point p in c's tally: whether its time series converged (its CI within the target
 * before --max-samples or --time-cap stopped it). A point without the flag counts for
 * nothing. */
static void conv_add(gmb_cell_t *c, const json_t *p)
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
static void conv_note(gmb_cell_t *c)
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
        if (strcmp(jstr(p, "params.mode"), mode) || strcmp(jstr(p, "params.space"), space) ||
            (!strcmp(mode, "page") && gmb_jnum(p, "params.page_bytes") != page))
            continue;
        if ((s >= lo && s <= hi) || (up > 0 && s == up))
            conv_add(c, p);
    }
}

/* device facts: arg "memtype", "mem_gib", "peak" */
static int ex_device(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const json_t *d = json_object_get(rec, "device");
    if (!json_is_object(d) || !json_object_size(d))
        return -1;
    if (!strcmp(arg, "memtype")) {
        const char *t = jstr(d, "mem_type");
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
        set_num(c, b / 1073741824.0, NAN, NAN);
        return 0;
    }
    if (!strcmp(arg, "peak")) {
        double p = gmb_jnum(d, "peak_bw_GBps");
        if (p > 0) {
            set_num(c, p, NAN, NAN);
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
static int ex_stream_best(const json_t *rec, const char *arg, gmb_cell_t *c)
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
        if (strcmp(jstr(p, "params.kernel"), kernel) || gmb_jnum(p, "params.size_bytes") != size ||
            (width == width && gmb_jnum(p, "params.width_bytes") != width))
            continue;
        const json_t *m = gmb_jpath(json_object_get(p, "metrics"), metric);
        if (!json_is_object(m))
            return -1;
        set_stat(c, m);
        c->note = tier_note(best);
        conv_add(c, p);
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
        if (!strcmp(jstr(cv, "mode"), "random") && !strcmp(jstr(cv, "space"), space))
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
        const char *nm = jstr(l, "name");
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
    const gmb_backend_kind_t *kind = gmb_backend_kind(jstr(rec, "device.backend"));
    if (!nl || !generic || !kind || (kind->traits & GMB_BE_GPU_KNOWN) ||
        strcmp(jstr(rec, "device.type"), "gpu") || !(global || l2first))
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
        if (strcmp(jstr(p, "params.mode"), "random") || strcmp(jstr(p, "params.space"), space) ||
            !(s >= lo && s <= hi))
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
        if (strcmp(jstr(p, "params.mode"), mode) || strcmp(jstr(p, "params.space"), space) ||
            (page >= 0 && gmb_jnum(p, "params.page_bytes") != page))
            continue;
        const char *ch = jstr(p, "extra.chain");
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
static int ex_chase_lat(const json_t *rec, const char *arg, gmb_cell_t *c)
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
    set_num(c, v, NAN, NAN);
    level_ci(rec, space, l, cyc ? "lat_cycles" : "lat_ns", v, c);
    level_conv(rec, "random", 0, space, l, 0, c);
    return 0;
}

/* chase, an on-chip memory (shared, constant): arg "[@CHAIN ]SPACE ns|cycles". Its first level; or,
 * where the detector found none because the random curve is flat (every point within -20 %
 * and +25 % of their median: no step at all, one level over the whole sweep), that median,
 * with the CI of the point nearest it. */
static int ex_chase_onchip(const json_t *rec, const char *arg, gmb_cell_t *c)
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
        if (chain[0] && !strcmp(jstr(p, "params.space"), space) &&
            strncmp(jstr(p, "extra.chain"), "word indices", 12))
            return -1;
    }
    snprintf(buf, sizeof buf, "%s:level 1 %s", space, unit);
    if (!ex_chase_lat(rec, buf, c))
        return 0;
    const char *metric = !strcmp(unit, "cycles") ? "lat_cycles" : "lat_ns";
    double v[4096], med; /* a sweep's points at most (GMB_MAX_SWEEP) */
    size_t n = 0;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        double m = gmb_jnum(json_object_get(json_object_get(p, "metrics"), metric), "median");
        if (!strcmp(jstr(p, "params.mode"), "random") && !strcmp(jstr(p, "params.space"), space) &&
            m > 0 && n < 4096)
            v[n++] = m;
    }
    if (n < 3)
        return -1;
    qsort(v, n, sizeof *v, gmb_cmp_double);
    med = gmb_median_sorted(v, n);
    if (!(v[0] >= 0.8 * med && v[n - 1] <= 1.25 * med))
        return -1; /* steps the detector could not call levels: no one number */
    set_num(c, med, NAN, NAN);
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
        if (!strcmp(jstr(l, "params.mode"), "random") && !strcmp(jstr(l, "params.space"), "global"))
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
    if (strcmp(jstr(rec, "device.type"), "gpu"))
        return 0; /* a CPU's page levels are numbered */
    gmb_level_t L[GMB_MAX_LEVELS];
    int cyc = !strcmp(jstr(cv, "detected_on"), "cycles");
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
        if (!strcmp(jstr(l, "params.mode"), "page") && gmb_jnum(l, "params.page_bytes") == page) {
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
        if (strcmp(jstr(cv, "mode"), "page") || strcmp(jstr(cv, "space"), "global") ||
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
            set_num(c, v, NAN, NAN);
            level_conv(rec, "page", page, "global", l, !strcmp(what, "reach"), c);
            return 0;
        }
        return -1;
    }
    return -1;
}

/* chase: capacity of the last level named one of arg, MiB */
static int ex_chase_cap(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    const json_t *l = find_level(rec, "global", arg, 1);
    double v = gmb_jnum(l, "capacity_bytes");
    if (!l || !(v > 0))
        return -1;
    set_num(c, v / 1048576.0, NAN, NAN);
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
                 !strcmp(jstr(inf, "device_type"), "cpu") ? " (CPU)" : "");
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
        if (!strcmp(jstr(f, "mode"), mode) && gmb_jnum(f, "width_bytes") == w &&
            json_is_true(json_object_get(f, "ok"))) {
            set_num(c, gmb_jnum(f, "slope"), NAN, NAN);
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
        if (!strcmp(jstr(p, "params.mode"), "throughput") &&
            !strcmp(jstr(p, "params.pattern"), "stride") &&
            gmb_jnum(p, "params.width_bytes") == wb && gmb_jnum(p, "params.param") == stride) {
            const json_t *m = gmb_jpath(json_object_get(p, "metrics"), metric);
            if (!json_is_object(m))
                return -1;
            set_stat(c, m);
            conv_add(c, p);
            return 0;
        }
    }
    return -1;
}

/* bank: the metric of one point, arg "MODE PATTERN WIDTH PARAM METRIC" */
static int ex_bank_point(const json_t *rec, const char *arg, gmb_cell_t *c)
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
        if (!strcmp(jstr(p, "params.mode"), mode) && !strcmp(jstr(p, "params.pattern"), pat) &&
            gmb_jnum(p, "params.width_bytes") == w && gmb_jnum(p, "params.param") == param &&
            json_is_object(m)) {
            set_stat(c, m);
            conv_add(c, p);
            return 0;
        }
    }
    return -1;
}

/* any benchmark: a number at a dotted path of the record, arg "path [scale]" */
static int ex_number(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char path[128];
    double scale = 1;
    if (sscanf(arg, "%127s %lf", path, &scale) < 1)
        return -1;
    double v = gmb_jnum(rec, path);
    if (v != v)
        return -1;
    set_num(c, v * scale, NAN, NAN);
    return 0;
}

/* gmb-loaded: arg "read|write FIELD", FIELD a number under results.loaded (read) or
 * results.loaded_write: idle.lat_ns, max_bw_GBps, knee.lat_ns (and the other figures of the
 * knee, most_groups), bw_at_2x_idle_GBps. Its points: the idle chase's; the point of the most
 * bandwidth; the knee's level and its neighbours on the curve, with the most bandwidth it is
 * within 3% of; the last level and the one before it; the idle chase and the two levels
 * around the crossing of twice its latency. */
#define LOADED_MAX 256 /* levels of a curve: gmb-loaded's MAX_LEVELS and more */
static int ex_loaded(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char traffic[8], field[48], path[96];
    if (sscanf(arg, "%7s %47s", traffic, field) != 2)
        return -1;
    const char *res = !strcmp(traffic, "write") ? "results.loaded_write" : "results.loaded";
    snprintf(path, sizeof path, "%s.%s", res, field);
    double v = gmb_jnum(rec, path);
    if (v != v)
        return -1;
    set_num(c, v, NAN, NAN);
    /* the curve's levels, in order of streaming groups */
    const json_t *lv[LOADED_MAX], *p;
    size_t n = 0, i, most = 0;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        const char *t = jstr(p, "params.traffic");
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
            conv_add(c, lv[0]);
    } else if (!strcmp(obj, "max_bw_GBps")) {
        conv_add(c, lv[most]);
    } else if (!strcmp(obj, "knee") || !strcmp(obj, "most_groups")) {
        snprintf(path, sizeof path, "%s.%s.load_groups", res, obj);
        double g = gmb_jnum(rec, path);
        for (i = 0; i < n && gmb_jnum(lv[i], "params.load_groups") != g; i++)
            ;
        if (i == n)
            return 0;
        for (size_t k = i ? i - 1 : 0; k <= i + 1 && k < n; k++)
            conv_add(c, lv[k]);
        if (!strcmp(obj, "knee") && (most + 1 < i || most > i + 1))
            conv_add(c, lv[most]);
    } else if (!strcmp(obj, "bw_at_2x_idle_GBps") && idle) {
        double twice = 2 * gmb_jnum(lv[0], "metrics.lat_ns.median");
        for (i = 1; i < n && !(gmb_jnum(lv[i], "metrics.lat_ns.median") >= twice); i++)
            ;
        conv_add(c, lv[0]);
        if (i < n) {
            if (i > 1)
                conv_add(c, lv[i - 1]);
            conv_add(c, lv[i]);
        }
    }
    return 0;
}

/* gmb-um: arg "TEST" (results.largest.TEST.bw_GBps, from the test's point at that size),
 * "fault-d2h touch" (the same of a fault-d2h whose host timed one load a page, not a check of
 * every word: params.host_touch_bytes; plain "fault-d2h" is one that checked them) or
 * "fault STRIDE" (results.fault_us.STRIDE.fault_us, from the latency points of that stride:
 * pages on the host and resident) */
static int ex_um(const json_t *rec, const char *arg, gmb_cell_t *c)
{
    char test[32], stride[24] = "", path[96];
    int touch = -1; /* fault-d2h: 1 touches timed, 0 every word read, -1 either */
    if (sscanf(arg, "%31s %23s", test, stride) < 1)
        return -1;
    int fault = !strcmp(test, "fault");
    if (!strcmp(test, "fault-d2h"))
        touch = !strcmp(stride, "touch");
    if (fault)
        snprintf(path, sizeof path, "results.fault_us.%s.fault_us", stride);
    else
        snprintf(path, sizeof path, "results.largest.%s.bw_GBps", test);
    double v = gmb_jnum(rec, path), size = NAN;
    if (v != v)
        return -1;
    set_num(c, v, NAN, NAN);
    if (!fault) {
        snprintf(path, sizeof path, "results.largest.%s.size_bytes", test);
        size = gmb_jnum(rec, path);
    }
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        if (fault ? !strcmp(jstr(p, "params.test"), "latency") &&
                        gmb_jnum(p, "params.stride_bytes") == atof(stride)
                  : !strcmp(jstr(p, "params.test"), test) &&
                        gmb_jnum(p, "params.size_bytes") == size) {
            if (touch >= 0 && touch != (gmb_jnum(p, "params.host_touch_bytes") > 0))
                return -1; /* the other method's figure: the other row */
            conv_add(c, p);
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
        set_num(c, v, lo, hi);
    else
        set_num(c, v, NAN, NAN);
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
    if (eq && (!npath[0] || strcmp(jstr(rec, npath), eq + 1)))
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
        if (strcmp(jstr(e, "name"), arg + at))
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
    set_num(c, v / 1048576.0, NAN, NAN);
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
        if (!strcmp(jstr(e, "where"), where))
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
                set_num(c, v, NAN, NAN);
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
            set_num(c, v, bw ? gmb_jnum(b, "bw_ci_lo_GBps") : NAN,
                    bw ? gmb_jnum(b, "bw_ci_hi_GBps") : NAN);
            return 0;
        }
        return -1;
    }
    if (!strcmp(what, "misalignment")) {
        double v = gmb_jnum(found, "worst_over_aligned");
        if (v != v)
            return -1;
        set_num(c, 100.0 * v, NAN, NAN);
        return 0;
    }
    double g = gmb_jnum(found, "granularity_bytes");
    if (g == g) {
        set_num(c, g, NAN, NAN);
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
    set_num(c, json_number_value(v), NAN, NAN);
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
    {"stream", "Read bandwidth", "GB/s", ex_stream_best, "read bw_GBps"},
    {"stream", "Read, of nominal peak", "%", ex_stream_best, "read pct_peak"},
    {"stream", "Copy bandwidth", "GB/s", ex_stream_best, "copy bw_GBps"},
    {"stream", "Copy, of nominal peak", "%", ex_stream_best, "copy pct_peak"},
    {"stream", "Triad bandwidth", "GB/s", ex_stream_best, "triad bw_GBps"},
    {"stream", "Triad, of nominal peak", "%", ex_stream_best, "triad pct_peak"},
    /* gmb-stream --energy: the whole board's energy (NVML) per bit the kernel moved */
    {"stream", "Board power, idle", "W", ex_number, "results.energy.idle_W"},
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
    {"chase", "L1 latency (pointer chase)", "cycles", ex_chase_lat, "@addr L1 cycles"},
    {"chase", "L1 latency (pointer chase)", "ns", ex_chase_lat, "@addr L1 ns"},
    {"chase", "L1 latency (index chase)", "cycles", ex_chase_lat, "@idx L1 cycles"},
    {"chase", "L1 latency (index chase)", "ns", ex_chase_lat, "@idx L1 ns"},
    {"chase", "L1 latency (chase not recorded)", "cycles", ex_chase_lat, "@none L1 cycles"},
    {"chase", "L1 latency (chase not recorded)", "ns", ex_chase_lat, "@none L1 ns"},
    {"chase", "L2 latency (pointer chase)", "cycles", ex_chase_lat,
     "@addr L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 latency (pointer chase)", "ns", ex_chase_lat, "@addr L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 latency (index chase)", "cycles", ex_chase_lat,
     "@idx L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 latency (index chase)", "ns", ex_chase_lat, "@idx L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 latency (chase not recorded)", "cycles", ex_chase_lat,
     "@none L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 latency (chase not recorded)", "ns", ex_chase_lat,
     "@none L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 far latency (pointer chase)", "cycles", ex_chase_lat, "@addr L2 far cycles"},
    {"chase", "L2 far latency (pointer chase)", "ns", ex_chase_lat, "@addr L2 far ns"},
    {"chase", "L2 far latency (index chase)", "cycles", ex_chase_lat, "@idx L2 far cycles"},
    {"chase", "L2 far latency (index chase)", "ns", ex_chase_lat, "@idx L2 far ns"},
    {"chase", "L2 far latency (chase not recorded)", "cycles", ex_chase_lat, "@none L2 far cycles"},
    {"chase", "L2 far latency (chase not recorded)", "ns", ex_chase_lat, "@none L2 far ns"},
    {"chase", "DRAM latency (pointer chase)", "cycles", ex_chase_lat, "@addr DRAM|memory cycles"},
    {"chase", "DRAM latency (pointer chase)", "ns", ex_chase_lat, "@addr DRAM|memory ns"},
    {"chase", "DRAM latency (index chase)", "cycles", ex_chase_lat, "@idx DRAM|memory cycles"},
    {"chase", "DRAM latency (index chase)", "ns", ex_chase_lat, "@idx DRAM|memory ns"},
    {"chase", "DRAM latency (chase not recorded)", "cycles", ex_chase_lat,
     "@none DRAM|memory cycles"},
    {"chase", "DRAM latency (chase not recorded)", "ns", ex_chase_lat, "@none DRAM|memory ns"},
    {"chase", "L2 capacity (latency curve)", "MiB", ex_chase_cap, "L2|L2 far|L2 part 2"},
    /* on-chip memories: the first level of the shared (local) and constant chases */
    {"chase", "Shared/local-memory latency (pointer chase, 32-bit)", "cycles", ex_chase_onchip,
     "@saddr shared cycles"},
    {"chase", "Shared/local-memory latency (pointer chase, 32-bit)", "ns", ex_chase_onchip,
     "@saddr shared ns"},
    {"chase", "Shared/local-memory latency (index chase)", "cycles", ex_chase_onchip,
     "@idx shared cycles"},
    {"chase", "Shared/local-memory latency (index chase)", "ns", ex_chase_onchip, "@idx shared ns"},
    {"chase", "Shared/local-memory latency (chase not recorded)", "cycles", ex_chase_onchip,
     "@none shared cycles"},
    {"chase", "Shared/local-memory latency (chase not recorded)", "ns", ex_chase_onchip,
     "@none shared ns"},
    {"chase", "Constant cache latency (level 1; index chase)", "cycles", ex_chase_onchip,
     "@idx constant cycles"},
    {"chase", "Constant cache latency (level 1; index chase)", "ns", ex_chase_onchip,
     "@idx constant ns"},
    {"chase", "Constant cache latency (level 1; chase not recorded)", "cycles", ex_chase_onchip,
     "@none constant cycles"},
    {"chase", "Constant cache latency (level 1; chase not recorded)", "ns", ex_chase_onchip,
     "@none constant ns"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; index chase)",
     "cycles", ex_chase_onchip, "@idx dsmem cycles"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; index chase)", "ns",
     ex_chase_onchip, "@idx dsmem ns"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; chase not recorded)",
     "cycles", ex_chase_onchip, "@none dsmem cycles"},
    {"chase", "Distributed shared-memory latency (another SM of the cluster; chase not recorded)",
     "ns", ex_chase_onchip, "@none dsmem ns"},
    /* atomics (done at the L2 on a GPU): the L2 level of the atomic chase */
    {"chase", "L2 atomic latency (index chase)", "cycles", ex_chase_lat,
     "@idx atomic:L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 atomic latency (index chase)", "ns", ex_chase_lat,
     "@idx atomic:L2|L2 near|L2 part 1 ns"},
    {"chase", "L2 atomic latency (chase not recorded)", "cycles", ex_chase_lat,
     "@none atomic:L2|L2 near|L2 part 1 cycles"},
    {"chase", "L2 atomic latency (chase not recorded)", "ns", ex_chase_lat,
     "@none atomic:L2|L2 near|L2 part 1 ns"},
    /* the texture path (--spaces texture): its L1 (the texture cache) and L2 levels */
    {"chase", "Texture L1 latency (index chase)", "cycles", ex_chase_lat, "@idx texture:L1 cycles"},
    {"chase", "Texture L1 latency (index chase)", "ns", ex_chase_lat, "@idx texture:L1 ns"},
    {"chase", "Texture L1 latency (chase not recorded)", "cycles", ex_chase_lat,
     "@none texture:L1 cycles"},
    {"chase", "Texture L1 latency (chase not recorded)", "ns", ex_chase_lat, "@none texture:L1 ns"},
    {"chase", "Texture L2 latency (index chase)", "cycles", ex_chase_lat,
     "@idx texture:L2|L2 near|L2 part 1 cycles"},
    {"chase", "Texture L2 latency (index chase)", "ns", ex_chase_lat,
     "@idx texture:L2|L2 near|L2 part 1 ns"},
    {"chase", "Texture L2 latency (chase not recorded)", "cycles", ex_chase_lat,
     "@none texture:L2|L2 near|L2 part 1 cycles"},
    {"chase", "Texture L2 latency (chase not recorded)", "ns", ex_chase_lat,
     "@none texture:L2|L2 near|L2 part 1 ns"},
    /* across a link: the device's loads from mapped host memory, from a peer's memory */
    {"chase", "Host memory latency (mapped, from the device; pointer chase)", "ns", ex_chase_lat,
     "@addr host:host memory ns"},
    {"chase", "Host memory latency (mapped, from the device; index chase)", "ns", ex_chase_lat,
     "@idx host:host memory ns"},
    {"chase", "Host memory latency (mapped, from the device; chase not recorded)", "ns",
     ex_chase_lat, "@none host:host memory ns"},
    {"chase", "Peer memory latency (from the device; pointer chase)", "ns", ex_chase_lat,
     "@addr peer:peer memory ns"},
    {"chase", "Peer memory latency (from the device; index chase)", "ns", ex_chase_lat,
     "@idx peer:peer memory ns"},
    {"chase", "Peer memory latency (from the device; chase not recorded)", "ns", ex_chase_lat,
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
    {"chase", "Latency level 1 (pointer chase)", "ns", ex_chase_lat, "@addr level 1 ns"},
    {"chase", "Latency level 1 (index chase)", "ns", ex_chase_lat, "@idx level 1 ns"},
    {"chase", "Latency level 1 (chase not recorded)", "ns", ex_chase_lat, "@none level 1 ns"},
    {"chase", "Latency level 2 (pointer chase)", "ns", ex_chase_lat, "@addr level 2 ns"},
    {"chase", "Latency level 2 (index chase)", "ns", ex_chase_lat, "@idx level 2 ns"},
    {"chase", "Latency level 2 (chase not recorded)", "ns", ex_chase_lat, "@none level 2 ns"},
    {"chase", "Latency level 3 (pointer chase)", "ns", ex_chase_lat, "@addr level 3 ns"},
    {"chase", "Latency level 3 (index chase)", "ns", ex_chase_lat, "@idx level 3 ns"},
    {"chase", "Latency level 3 (chase not recorded)", "ns", ex_chase_lat, "@none level 3 ns"},
    {"chase", "Latency level 4 (pointer chase)", "ns", ex_chase_lat, "@addr level 4 ns"},
    {"chase", "Latency level 4 (index chase)", "ns", ex_chase_lat, "@idx level 4 ns"},
    {"chase", "Latency level 4 (chase not recorded)", "ns", ex_chase_lat, "@none level 4 ns"},
    {"chase", "Latency level 5 (pointer chase)", "ns", ex_chase_lat, "@addr level 5 ns"},
    {"chase", "Latency level 5 (index chase)", "ns", ex_chase_lat, "@idx level 5 ns"},
    {"chase", "Latency level 5 (chase not recorded)", "ns", ex_chase_lat, "@none level 5 ns"},
    {"chase", "Latency level 6 (pointer chase)", "ns", ex_chase_lat, "@addr level 6 ns"},
    {"chase", "Latency level 6 (index chase)", "ns", ex_chase_lat, "@idx level 6 ns"},
    {"chase", "Latency level 6 (chase not recorded)", "ns", ex_chase_lat, "@none level 6 ns"},
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
    {"atomic", "Global atomic adds (red), distinct addresses", "Gop/s", ex_number,
     "results.contention.global_red.distinct_Gops"},
    {"atomic", "Global atomic adds (red), one address", "Gop/s", ex_number,
     "results.contention.global_red.one_address_Gops"},
    {"atomic", "Global atomic adds (atom), distinct addresses", "Gop/s", ex_number,
     "results.contention.global_atom.distinct_Gops"},
    {"atomic", "Global atomic adds (atom), one address: time per update", "ns", ex_number,
     "results.contention.global_atom.one_address_ns_per_update"},
    {"atomic", "Shared-memory atomic adds (atom), distinct addresses", "Gop/s", ex_number,
     "results.contention.shared_atom.distinct_Gops"},
    {"atomic", "Shared-memory atomic adds (atom), one address a group", "Gop/s", ex_number,
     "results.contention.shared_atom.one_address_Gops"},
    /* gmb-loaded: the DRAM chase idle and beside streaming groups */
    {"loaded", "Loaded: chase latency, idle (index chase)", "ns", ex_loaded, "read idle.lat_ns"},
    {"loaded", "Loaded: the most bandwidth beside the chase", "GB/s", ex_loaded,
     "read max_bw_GBps"},
    {"loaded", "Loaded: latency at the knee (97% of that bandwidth; index chase)", "ns", ex_loaded,
     "read knee.lat_ns"},
    {"loaded", "Loaded: latency with the most streaming groups (index chase)", "ns", ex_loaded,
     "read most_groups.lat_ns"},
    {"loaded", "Loaded: bandwidth where the latency doubles", "GB/s", ex_loaded,
     "read bw_at_2x_idle_GBps"},
    {"loaded", "Loaded by writes: the most bandwidth beside the chase", "GB/s", ex_loaded,
     "write max_bw_GBps"},
    {"loaded", "Loaded by writes: latency at the knee (index chase)", "ns", ex_loaded,
     "write knee.lat_ns"},
    {"loaded", "Loaded by writes: bandwidth where the latency doubles", "GB/s", ex_loaded,
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
    {"l2", "Cache plateau bandwidth, write", "GB/s", ex_number,
     "results.bandwidth.write.cache_GBps"},
    {"l2", "Memory plateau bandwidth, read", "GB/s", ex_vci,
     "results.bandwidth.read.memory_GBps results.bandwidth.read.memory_ci"},
    {"l2", "Cache / memory bandwidth, read", "x", ex_number, "results.bandwidth.read.ratio"},
    {"l2", "Cache capacity (bandwidth curve, read)", "MiB", ex_l2_capacity, "read"},
    {"l2", "Cache capacity (bandwidth curve, write)", "MiB", ex_l2_capacity, "write"},
    {"l2", "Cold / warm time, smallest set", "x", ex_number,
     "results.coldwarm.sizes.0.cold_over_warm"},
    {"bank", "Shared-memory banks", "", ex_bank_banks, ""},
    {"bank", "Bank-conflict cost per way (latency)", "cycles", ex_bank_slope, "latency 4"},
    {"bank", "Bank-conflict cost per way (throughput)", "cycles", ex_bank_slope, "throughput 4"},
    {"bank", "Shared-memory bandwidth, no conflict", "GB/s", ex_bank_bw, "4 bw_GBps"},
    /* another SM's shared memory (remote pattern, a cluster of 2): the widest accesses */
    {"bank", "Distributed shared-memory bandwidth, 16-byte reads (cluster of 2)", "GB/s",
     ex_bank_point, "throughput remote 16 2 bw_GBps"},
    {"bank", "Shared-memory bandwidth, 16-byte reads, stride 1", "GB/s", ex_bank_point,
     "throughput stride 16 1 bw_GBps"},
    /* gmb-copy: where the host memory sat; the largest copy of a series (bytes copied, counted
     * once) */
    {"copy", "Host memory of the copies (pinned)", "", ex_host_place, ""},
    {"copy", "Host to device, pinned, largest copy", "GB/s", ex_vci,
     "results.largest.h2d_pinned_ce.bw_GBps results.largest.h2d_pinned_ce.ci"},
    {"copy", "Host to device, pinned, of PCIe nominal", "%", ex_number,
     "results.largest.h2d_pinned_ce.pct_link"},
    {"copy", "Device to host, pinned, largest copy", "GB/s", ex_vci,
     "results.largest.d2h_pinned_ce.bw_GBps results.largest.d2h_pinned_ce.ci"},
    {"copy", "Device to host, pinned, of PCIe nominal", "%", ex_number,
     "results.largest.d2h_pinned_ce.pct_link"},
    {"copy", "Host to device, pinned, slowest other NUMA node", "GB/s", ex_number,
     "results.numa_copy.h2d_pinned_ce.slowest_GBps"},
    {"copy", "Host to device, pinned, slowest other node vs default", "%", ex_number,
     "results.numa_copy.h2d_pinned_ce.slowest_pct_of_default"},
    {"copy", "Device to host, pinned, slowest other NUMA node", "GB/s", ex_number,
     "results.numa_copy.d2h_pinned_ce.slowest_GBps"},
    {"copy", "Device to host, pinned, slowest other node vs default", "%", ex_number,
     "results.numa_copy.d2h_pinned_ce.slowest_pct_of_default"},
    {"copy", "Both directions at once, pinned (sum)", "GB/s", ex_vci,
     "results.largest.bidir_pinned_ce.bw_GBps results.largest.bidir_pinned_ce.ci"},
    {"copy", "Host to device, pageable, largest copy", "GB/s", ex_vci,
     "results.largest.h2d_pageable_ce.bw_GBps results.largest.h2d_pageable_ce.ci"},
    {"copy", "Device to device, copy engine (bytes copied)", "GB/s", ex_vci,
     "results.largest.d2d_device_ce.bw_GBps results.largest.d2d_device_ce.ci"},
    {"copy", "Device to device, SM kernel (bytes copied)", "GB/s", ex_vci,
     "results.largest.d2d_device_sm.bw_GBps results.largest.d2d_device_sm.ci"},
    {"copy", "Peer copy, copy engine, fastest peer", "GB/s", ex_number,
     "results.peer_copy.p2p_ce.fastest_GBps"},
    {"copy", "Peer copy, copy engine, slowest peer", "GB/s", ex_number,
     "results.peer_copy.p2p_ce.slowest_GBps"},
    {"copy", "Host to device, pinned, smallest copy", "us", ex_number,
     "results.latency_us.h2d_pinned_ce.lat_us"},
    /* gmb-um: managed memory, how it moves here, the largest buffer of each test */
    {"um", "Managed memory moves", "", ex_text, "results.migration"},
    {"um", "Managed: device reads, data on the device", "GB/s", ex_um, "resident"},
    {"um", "Managed: device reads host-written data", "GB/s", ex_um, "fault-h2d"},
    /* fault-d2h: a host thread checking every word (records before the touches), or the
     * migration itself, timed by one load a page */
    {"um", "Managed: host reads device-written data", "GB/s", ex_um, "fault-d2h"},
    {"um", "Managed: migration to the host on host faults (one load a 4 KiB page)", "GB/s", ex_um,
     "fault-d2h touch"},
    {"um", "Managed: prefetch to the device", "GB/s", ex_um, "prefetch-h2d"},
    {"um", "Managed: prefetch to the host", "GB/s", ex_um, "prefetch-d2h"},
    {"um", "Managed: device reads it on the host (advice)", "GB/s", ex_um, "remote"},
    {"um", "Managed: device reads, read-mostly copy made", "GB/s", ex_um, "readmostly"},
    {"um", "How the device reaches malloc'd memory", "", ex_text, "results.system_memory"},
    {"um", "Device reads host-written malloc'd memory", "GB/s", ex_um, "system"},
    {"um", "Page fault, one touch per 64 KiB", "us", ex_um, "fault 65536"},
    {"um", "Page fault, one touch per 2 MiB", "us", ex_um, "fault 2097152"},
    {NULL, NULL, NULL, NULL, NULL},
};

/* The record of bench in run r; bench "" (device facts): the first record of the run that
 * has a device. NULL when there is none. */
static const gmb_rec_t *run_rec(const gmb_runset_t *rs, size_t r, const char *bench)
{
    if (bench[0])
        return gmb_runset_find(rs, r, bench);
    for (size_t k = 0; k < rs->nrecs; k++)
        if (rs->recs[k].run == r && json_object_size(json_object_get(rs->recs[k].j, "device")))
            return &rs->recs[k];
    return NULL;
}

const char *gmb_run_board(const gmb_runset_t *rs, size_t r)
{
    for (size_t k = 0; k < rs->nrecs; k++) {
        const char *p = json_string_value(
            json_object_get(json_object_get(rs->recs[k].j, "device"), "board_part_number"));
        if (rs->recs[k].run == r && p && *p && strcmp(p, "unknown"))
            return p;
    }
    return NULL;
}

int gmb_row_same(const gmb_row_t *a, const gmb_row_t *b)
{
    return a == b || (!strcmp(a->bench, b->bench) && !strcmp(a->label, b->label) &&
                      !strcmp(a->unit, b->unit));
}

/* The headline figures of a record (gmb_headline), NULL where it has none of a version this
 * reader knows, or GMB_TABLE_READER=legacy asks for the extractors. */
static const json_t *headline_figs(const json_t *rec)
{
    static int said;
    const char *env = getenv("GMB_TABLE_READER");
    const json_t *h = json_object_get(rec, "headlines");
    if (env && !strcmp(env, "legacy")) {
        if (!said++)
            fprintf(stderr, "gmb: GMB_TABLE_READER=legacy (a test aid): the table's extractors "
                            "read every record, its headline figures unread\n");
        return NULL;
    }
    if (gmb_jnum(h, "version") != GMB_HEADLINES_VERSION)
        return NULL;
    const json_t *f = json_object_get(h, "figures");
    return json_is_array(f) ? f : NULL;
}

/* The figure of figs that row shows; NULL: none. */
static const json_t *headline_of(const json_t *figs, const gmb_row_t *row)
{
    size_t i;
    const json_t *f;
    json_array_foreach(figs, i, f)
    {
        if (!strcmp(jstr(f, "label"), row->label) && !strcmp(jstr(f, "unit"), row->unit))
            return f;
    }
    return NULL;
}

/* Fill c from headline figure f of record rec: its value and CI (or text), its notes, and the
 * convergence of the points it rests on. 0, or -1 for a figure without a value. */
static int headline_cell(const json_t *rec, const json_t *f, gmb_cell_t *c)
{
    const json_t *text = json_object_get(f, "text");
    if (json_is_string(text)) {
        c->kind = 2;
        gmb_strlcpy(c->text, json_string_value(text), sizeof c->text);
    } else if (json_is_number(json_object_get(f, "value")))
        set_num(c, gmb_jnum(f, "value"), gmb_jnum(f, "ci_lo"), gmb_jnum(f, "ci_hi"));
    else
        return -1;
    size_t i, k;
    const json_t *n, *p;
    json_array_foreach(json_object_get(f, "notes"), i, n)
    {
        for (k = 0; gmb_headline_notes[k].name; k++)
            if (json_is_string(n) && !strcmp(json_string_value(n), gmb_headline_notes[k].name))
                c->note |= (int)gmb_headline_notes[k].bit;
    }
    json_array_foreach(json_object_get(f, "points"), i, p)
    {
        const json_t *pt = json_array_get(json_object_get(rec, "points"), json_integer_value(p));
        if (json_is_integer(p) && pt)
            conv_add(c, pt);
    }
    /* the points, where they say, decide whether it converged (conv_note), as for the rows an
     * extractor reads */
    if (c->npts > 0)
        c->note &= ~GMB_NOTE_UNCONVERGED;
    c->figure = 1;
    const json_t *lv = json_object_get(f, "level");
    if (json_is_string(json_object_get(lv, "name"))) {
        c->level = json_string_value(json_object_get(lv, "name"));
        c->by = jstr(lv, "how");
    }
    return 0;
}

/* The cell of row in run r of rs, from the record's headline figures where it has them, else
 * the row's extractor; 1 when it has a value. */
static int table_cell(const gmb_runset_t *rs, size_t r, const gmb_row_t *row, gmb_cell_t *c)
{
    memset(c, 0, sizeof *c);
    c->lo = c->hi = NAN;
    const gmb_rec_t *rec = run_rec(rs, r, row->bench);
    const json_t *figs = rec && row->bench[0] ? headline_figs(rec->j) : NULL;
    const json_t *f = figs ? headline_of(figs, row) : NULL;
    int rc = !rec   ? -1
             : figs ? (f ? headline_cell(rec->j, f, c) : -1)
                    : row->fn(rec->j, row->arg, c);
    if (rc || (c->kind == 1 && c->v != c->v)) {
        memset(c, 0, sizeof *c);
        c->lo = c->hi = NAN;
        return 0;
    }
    conv_note(c);
    /* from a program stopped before its end: the points it finished */
    if (row->bench[0] && !strcmp(jstr(rec->j, "status"), "interrupted"))
        c->note |= 8;
    /* from a program some of whose points ran with the clocks held down */
    const json_t *during = json_object_get(json_object_get(rec->j, "clocks"), "during");
    if (row->bench[0] && json_integer_value(json_object_get(during, "points_capped")) > 0)
        c->note |= 16;
    return 1;
}

/* Add to t->dyn the rows of the headline figures of rs's records that no row of
 * gmb_table_rows (nall of them) names, once each, in the order of the runs. 0 or -1. */
static int table_dyn(const gmb_runset_t *rs, size_t nall, gmb_table_t *t, size_t max)
{
    for (size_t k = 0; k < rs->nrecs; k++) {
        const json_t *figs = headline_figs(rs->recs[k].j), *f;
        const char *bench = jstr(rs->recs[k].j, "benchmark");
        size_t i;
        json_array_foreach(figs, i, f)
        {
            gmb_row_t row = {bench, jstr(f, "label"), jstr(f, "unit"), NULL, NULL};
            int known = !bench[0] || !row.label[0];
            for (size_t j = 0; j < nall && !known; j++)
                known = gmb_row_same(&gmb_table_rows[j], &row);
            for (size_t j = 0; j < t->ndyn && !known; j++)
                known = gmb_row_same(&t->dyn[j], &row);
            if (known || t->ndyn == max)
                continue;
            size_t lb = strlen(bench) + 1, ll = strlen(row.label) + 1, lu = strlen(row.unit) + 1;
            char *text = malloc(lb + ll + lu);
            if (!text)
                return -1;
            memcpy(text, bench, lb);
            memcpy(text + lb, row.label, ll);
            memcpy(text + lb + ll, row.unit, lu);
            t->dyn[t->ndyn++] = (gmb_row_t){text, text + lb, text + lb + ll, NULL, NULL};
        }
    }
    return 0;
}

int gmb_table_build(const gmb_runset_t *rs, gmb_table_t *t)
{
    memset(t, 0, sizeof *t);
    size_t nall = 0, nfig = 0;
    while (gmb_table_rows[nall].label)
        nall++;
    for (size_t k = 0; k < rs->nrecs; k++)
        nfig += json_array_size(headline_figs(rs->recs[k].j));
    size_t nrow = nall + nfig;
    t->ncols = rs->nruns;
    t->rows = calloc(nrow ? nrow : 1, sizeof *t->rows);
    t->cols = calloc(rs->nruns ? rs->nruns : 1, sizeof *t->cols);
    t->cells = calloc((nrow ? nrow : 1) * (rs->nruns ? rs->nruns : 1), sizeof *t->cells);
    t->dyn = calloc(nfig ? nfig : 1, sizeof *t->dyn);
    if (!t->rows || !t->cols || !t->cells || !t->dyn || table_dyn(rs, nall, t, nfig)) {
        gmb_table_free(t);
        return GMB_ERUNTIME;
    }
    /* a column names its board's part number where NVML gave it (revisions differ) */
    enum { HEAD = 320 };
    t->heads = calloc(rs->nruns ? rs->nruns : 1, HEAD);
    if (!t->heads) {
        gmb_table_free(t);
        return GMB_ERUNTIME;
    }
    for (size_t r = 0; r < rs->nruns; r++) {
        const char *board = gmb_run_board(rs, r);
        char *h = t->heads + r * HEAD;
        if (board)
            snprintf(h, HEAD, "%s, board %s", rs->runs[r].label, board);
        else
            gmb_strlcpy(h, rs->runs[r].label, HEAD);
        t->cols[r] = h;
    }
    for (size_t i = 0; i < nall + t->ndyn; i++) {
        const gmb_row_t *row = i < nall ? &gmb_table_rows[i] : &t->dyn[i - nall];
        gmb_cell_t *cells = &t->cells[t->nrows * t->ncols];
        int any = 0;
        for (size_t r = 0; r < rs->nruns; r++)
            if (table_cell(rs, r, row, &cells[r])) {
                any = 1;
                t->notes |= cells[r].note;
            }
        if (any)
            t->rows[t->nrows++] = row;
    }
    return GMB_OK;
}

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

/* The rank of level name in the level view: where gmb_level_rows first names it; nl (after
 * them all) when it does not. */
static size_t level_rank(const char *name, size_t nl)
{
    for (size_t i = 0; i < nl; i++)
        if (!strcmp(gmb_level_rows[i].level, name))
            return i;
    return nl;
}

int gmb_table_levels(gmb_table_t *t)
{
    size_t nl = 0, nr = t->nrows, n = 0;
    while (gmb_level_rows[nl].level)
        nl++;
    const gmb_row_t **rows = calloc(nr + 1, sizeof *rows);
    const gmb_level_row_t **lv = calloc(nr + 1, sizeof *lv);
    gmb_level_row_t *fig = calloc(nr + 1, sizeof *fig);
    size_t *rank = calloc(nr + 1, sizeof *rank), *from = calloc(nr + 1, sizeof *from);
    gmb_cell_t *cells = calloc((nr + 1) * (t->ncols ? t->ncols : 1), sizeof *cells);
    if (!rows || !lv || !fig || !rank || !from || !cells) {
        free(rows);
        free(lv);
        free(fig);
        free(rank);
        free(from);
        free(cells);
        return GMB_ERUNTIME;
    }
    /* each GB/s row's level: the one its figures name, else (cells an extractor read) the
     * one gmb_level_rows maps its label to */
    for (size_t r = 0; r < nr; r++) {
        const gmb_cell_t *c = &t->cells[r * t->ncols];
        const gmb_level_row_t *l = NULL;
        int legacy = 0;
        for (size_t k = 0; k < t->ncols && !l; k++) {
            if (c[k].kind && c[k].level) {
                fig[r] = (gmb_level_row_t){c[k].level, t->rows[r]->label, c[k].by ? c[k].by : ""};
                l = &fig[r];
            }
            legacy |= c[k].kind && !c[k].figure;
        }
        for (size_t i = 0; i < nl && !l && legacy; i++)
            if (!strcmp(t->rows[r]->label, gmb_level_rows[i].row))
                l = &gmb_level_rows[i];
        if (!l || strcmp(t->rows[r]->unit, "GB/s"))
            continue;
        /* in level order, then table order (insertion keeps it stable) */
        size_t k = n++, rk = level_rank(l->level, nl);
        for (; k > 0 && rank[k - 1] > rk; k--) {
            rows[k] = rows[k - 1];
            lv[k] = lv[k - 1];
            rank[k] = rank[k - 1];
            from[k] = from[k - 1];
        }
        rows[k] = t->rows[r];
        lv[k] = l;
        rank[k] = rk;
        from[k] = r;
    }
    int notes = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(&cells[i * t->ncols], &t->cells[from[i] * t->ncols], t->ncols * sizeof *cells);
        for (size_t c = 0; c < t->ncols; c++)
            notes |= cells[i * t->ncols + c].note;
    }
    free(rank);
    free(from);
    free(t->rows);
    free(t->cells);
    free(t->lv);
    free(t->lvfig);
    t->rows = rows;
    t->cells = cells;
    t->lv = lv;
    t->lvfig = fig;
    t->nrows = n;
    t->notes = notes;
    return GMB_OK;
}

void gmb_table_free(gmb_table_t *t)
{
    for (size_t i = 0; i < t->ndyn; i++)
        free((char *)t->dyn[i].bench);
    free(t->dyn);
    free(t->lv);
    free(t->lvfig);
    free(t->rows);
    free(t->cols);
    free(t->heads);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void gmb_fmt_num(double v, char *buf, size_t len)
{
    if (v != v || isinf(v)) { /* (int)log10(inf) would not fit */
        snprintf(buf, len, "%s", v != v ? "nan" : v > 0 ? "inf" : "-inf");
        return;
    }
    double a = fabs(v);
    int dec = a > 0 ? 3 - (int)floor(log10(a)) : 0;
    if (dec < 0)
        dec = 0;
    if (dec > 6)
        dec = 6;
    snprintf(buf, len, "%.*f", dec, v);
    if (!strcmp(buf, "-0") || !strncmp(buf, "-0.000000", 10))
        snprintf(buf, len, "%.*f", dec, 0.0);
}

/* LaTeX-escape text */
static void tex_text(buf_t *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
        case '%':
        case '$':
        case '#':
        case '_':
        case '{':
        case '}':
            bput(b, "\\%c", *s);
            break;
        case '~':
            bput(b, "\\textasciitilde{}");
            break;
        case '^':
            bput(b, "\\textasciicircum{}");
            break;
        case '\\':
            bput(b, "\\textbackslash{}");
            break;
        default: /* a control character (a line feed ends a paragraph) as a space */
            bput(b, "%c", (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s);
        }
    }
}

/* A unit in plain LaTeX (no siunitx): the few that need more than escaping. */
static const char *tex_unit(const char *u)
{
    static const char *const map[][2] = {
        {"x", "$\\times$"},
        {"%", "\\%"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(u, map[i][0]))
            return map[i][1];
    return NULL;
}

void gmb_text_plain(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            *p = ' ';
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) /* C1: two bytes, two spaces */
            *p = p[1] = ' ';
}

const char *gmb_md_esc(unsigned char c)
{
    switch (c) {
    case '|':
        return "\\|";
    case '\\':
        return "\\\\";
    case '[':
        return "\\[";
    case ']':
        return "\\]";
    case '!':
        return "\\!";
    case '`':
        return "\\`";
    case '*':
        return "\\*";
    case '_':
        return "\\_";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '&':
        return "&amp;";
    default:
        return c < 0x20 || c == 0x7f ? " " : NULL;
    }
}

/* Markdown-escape a record's text (gmb_md_esc): no markup of its own, no row of its own. */
static void md_text(buf_t *b, const char *s)
{
    for (; *s; s++) {
        const char *e = gmb_md_esc((unsigned char)*s);
        if (e)
            bput(b, "%s", e);
        else
            bput(b, "%c", *s);
    }
}

/* A table CSV field: gmb_csv_field's rule (RFC 4180; the row labels have commas). */
static void csv_text(buf_t *b, const char *s)
{
    char small[512];
    size_t n = gmb_csv_field(small, sizeof small, s);
    if (n < sizeof small) {
        bput(b, "%s", small);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        b->bad = 1;
        return;
    }
    gmb_csv_field(big, n + 1, s);
    bput(b, "%s", big);
    free(big);
}

/* What the mark † says (Markdown and the cross-checks; LaTeX's comment line spells it). */
#define UNCONV_LEGEND                                                                              \
    "†: half or more of the points it rests on did not converge (their samples stopped at "      \
    "--max-samples or --time-cap before the 95% CI of the median came within --ci-target; "        \
    "gmb table --format csv counts them: its unconverged columns)."

static void cell_md(buf_t *b, const gmb_cell_t *c, int tex)
{
    char v[48], lo[48], hi[48];
    if (c->kind == 0) {
        bput(b, tex ? "--" : "–");
        return;
    }
    if (c->kind == 2) { /* a text: its marks too */
        if (tex)
            tex_text(b, c->text);
        else
            md_text(b, c->text);
    } else {
        gmb_fmt_num(c->v, v, sizeof v);
        bput(b, "%s", v);
    }
    if (c->kind == 1 && c->lo == c->lo && c->hi == c->hi) {
        gmb_fmt_num(c->lo, lo, sizeof lo);
        gmb_fmt_num(c->hi, hi, sizeof hi);
        if (tex)
            bput(b, " {\\footnotesize[%s, %s]}", lo, hi);
        else
            bput(b, " [%s, %s]", lo, hi);
    }
    if (c->note & 1)
        bput(b, tex ? "\\textsuperscript{c}" : " ᶜ");
    if (c->note & 2)
        bput(b, tex ? "\\textsuperscript{t}" : " ᵗ");
    if (c->note & 4)
        bput(b, tex ? "\\textsuperscript{g}" : " ᵍ");
    if (c->note & 8)
        bput(b, tex ? "\\textsuperscript{i}" : " ⁱ");
    if (c->note & 16)
        bput(b, tex ? "\\textsuperscript{p}" : " ᵖ");
    if (c->note & GMB_NOTE_UNCONVERGED)
        bput(b, tex ? "\\textsuperscript{\\dag}" : " †");
    if (c->note & GMB_NOTE_PAST_LLC)
        bput(b, tex ? "\\textsuperscript{l}" : " ˡ");
}

char *gmb_table_render(const gmb_table_t *t, const char *fmt)
{
    buf_t b = {0};
    const gmb_cell_t *cells = t->cells;
    if (!strcmp(fmt, "md")) {
        bput(&b, t->lv ? "| Level | Measured by | Unit |" : "| Metric | Unit |");
        for (size_t c = 0; c < t->ncols; c++) {
            bput(&b, " ");
            md_text(&b, t->cols[c]);
            bput(&b, " |");
        }
        bput(&b, t->lv ? "\n|---|---|---|" : "\n|---|---|");
        for (size_t c = 0; c < t->ncols; c++)
            bput(&b, "---:|");
        bput(&b, "\n");
        for (size_t r = 0; r < t->nrows; r++) {
            bput(&b, "| ");
            if (t->lv) {
                md_text(&b, t->lv[r]->level);
                bput(&b, " | ");
                md_text(&b, t->lv[r]->by);
            } else {
                md_text(&b, t->rows[r]->label);
            }
            bput(&b, " | %s |", t->rows[r]->unit);
            for (size_t c = 0; c < t->ncols; c++) {
                bput(&b, " ");
                cell_md(&b, &cells[r * t->ncols + c], 0);
                bput(&b, " |");
            }
            bput(&b, "\n");
        }
        bput(&b, "\nMedians with their 95%% confidence interval in brackets.");
        if (t->notes & 1)
            bput(&b, " ᶜ: no DRAM-sized point was measured; the best cache-resident point.");
        if (t->notes & 2)
            bput(&b, " ᵗ: the largest sets were 4 to 16 times the last-level cache (DRAM points, "
                     "but a repetition may still find part of its set in the cache).");
        if (t->notes & 4)
            bput(&b, " ᵍ: given with --peak-bw, not the driver's figure (the %% of peak rows "
                     "use it).");
        if (t->notes & 8)
            bput(&b, " ⁱ: from a program stopped before its end (the points it finished).");
        if (t->notes & 16)
            bput(&b, " ᵖ: from a program with points that NVML saw held below the application "
                     "clocks (power, thermal or board limit) for over 1%% of their time (the "
                     "record's points say which).");
        if (t->notes & GMB_NOTE_UNCONVERGED)
            bput(&b, " %s", UNCONV_LEGEND);
        if (t->notes & GMB_NOTE_PAST_LLC)
            bput(&b, " ˡ: past the cache size the device reports: where the bandwidth plateau "
                     "ended (the sets there still hit in part), not the cache's size.");
        bput(&b, "\n");
    } else if (!strcmp(fmt, "tex")) {
        /* the width of the text, whatever the columns: the label column and the values
         * wrap (p columns), the device names of the header too */
        bput(&b, "%% gmb table: needs \\usepackage{array} (no booktabs, no siunitx); as "
                 "wide as the text\n");
        bput(&b, "{\\small\\noindent%%\n\\begin{tabular}{@{}>{\\raggedright\\arraybackslash}"
                 "p{\\dimexpr0.34\\linewidth-\\tabcolsep\\relax}");
        for (size_t c = 0; c < t->ncols; c++)
            bput(&b,
                 ">{\\raggedleft\\arraybackslash}p{\\dimexpr0.66\\linewidth/%zu-2\\tabcolsep"
                 "%s\\relax}",
                 t->ncols ? t->ncols : 1, c + 1 == t->ncols ? "+\\tabcolsep" : "");
        bput(&b, "@{}}\n\\hline\n%s", t->lv ? "Level --- measured by (unit)" : "Metric (unit)");
        for (size_t c = 0; c < t->ncols; c++) {
            bput(&b, " & ");
            tex_text(&b, t->cols[c]);
        }
        bput(&b, " \\\\\n\\hline\n");
        for (size_t r = 0; r < t->nrows; r++) {
            if (t->lv) { /* the level, and who measured it */
                tex_text(&b, t->lv[r]->level);
                bput(&b, " --- ");
                tex_text(&b, t->lv[r]->by);
            } else {
                tex_text(&b, t->rows[r]->label);
            }
            const char *u = tex_unit(t->rows[r]->unit);
            if (t->rows[r]->unit[0]) { /* the unit in the label column: one column less */
                bput(&b, " (");
                if (u)
                    bput(&b, "%s", u);
                else
                    tex_text(&b, t->rows[r]->unit);
                bput(&b, ")");
            }
            for (size_t c = 0; c < t->ncols; c++) {
                bput(&b, " & ");
                cell_md(&b, &cells[r * t->ncols + c], 1);
            }
            bput(&b, " \\\\\n");
        }
        bput(&b, "\\hline\n\\end{tabular}\\par}\n");
        bput(&b, "%% medians with their 95%% confidence interval in brackets");
        if (t->notes & 1)
            bput(&b, "; c: no DRAM-sized point was measured, the best cache-resident point");
        if (t->notes & 2)
            bput(&b, "; t: the largest sets were 4 to 16 times the last-level cache");
        if (t->notes & 4)
            bput(&b, "; g: given with --peak-bw, not the driver's figure (the %% of peak rows "
                     "use it)");
        if (t->notes & 8)
            bput(&b, "; i: from a program stopped before its end (the points it finished)");
        if (t->notes & 16)
            bput(&b, "; p: from a program with points held below the application clocks for "
                     "over 1%% of their time (NVML)");
        if (t->notes & GMB_NOTE_UNCONVERGED)
            bput(&b, "; dagger: %s", &UNCONV_LEGEND[strlen("†: ")]);
        if (t->notes & GMB_NOTE_PAST_LLC)
            bput(&b, "; l: past the cache size the device reports, where the bandwidth plateau "
                     "ended, not the cache's size");
        bput(&b, "\n");
    } else if (!strcmp(fmt, "csv")) {
        bput(&b, t->lv ? "level,measured_by,metric,unit" : "metric,unit");
        for (size_t c = 0; c < t->ncols; c++) {
            const char *suffix[] = {"", " ci_lo", " ci_hi", " unconverged"};
            for (int k = 0; k < 4; k++) {
                char h[256];
                snprintf(h, sizeof h, "%s%s", t->cols[c], suffix[k]);
                bput(&b, ",");
                csv_text(&b, h);
            }
        }
        bput(&b, "\n");
        for (size_t r = 0; r < t->nrows; r++) {
            if (t->lv) {
                csv_text(&b, t->lv[r]->level);
                bput(&b, ",");
                csv_text(&b, t->lv[r]->by);
                bput(&b, ",");
            }
            csv_text(&b, t->rows[r]->label);
            bput(&b, ",");
            csv_text(&b, t->rows[r]->unit);
            for (size_t c = 0; c < t->ncols; c++) {
                const gmb_cell_t *x = &cells[r * t->ncols + c];
                char v[48] = "", lo[48] = "", hi[48] = "";
                if (x->kind == 1) {
                    snprintf(v, sizeof v, "%.6g", x->v);
                    if (x->lo == x->lo && x->hi == x->hi) {
                        snprintf(lo, sizeof lo, "%.6g", x->lo);
                        snprintf(hi, sizeof hi, "%.6g", x->hi);
                    }
                }
                bput(&b, ",");
                csv_text(&b, x->kind == 2 ? x->text : v);
                bput(&b, ",%s,%s,", lo, hi);
                if (x->kind && x->npts) /* "unconverged/points", the mark's ground */
                    bput(&b, "%d/%d", x->nunc, x->npts);
            }
            bput(&b, "\n");
        }
    } else {
        return NULL;
    }
    return bdone(&b);
}

/* ---- cross-checks ----------------------------------------------------------------------- */

/* One program's figure of a cross-checked quantity. */
typedef struct xsrc {
    const char *bench;  /* its record ("" = the device facts) */
    const char *source; /* what the page calls it */
    gmb_row_fn fn;      /* a table row extractor and its argument */
    const char *arg;
    double scale;     /* the figure times this is the quantity */
    const char *size; /* "PATH [K]": a size in bytes that must be >= K (default 4) x the LLC: a
                         memory figure (STREAM's rule; a random chase wants 16: at 4x, a
                         quarter of its loads may still hit the cache) */
    const char *flag; /* path of a boolean that must be true (the program says it got there) */
} xsrc_t;

/* A quantity and the figures of it: data, like the table's rows. */
typedef struct xcheck {
    const char *quantity, *unit;
    double tol;
    xsrc_t src[4];
} xcheck_t;

static const xcheck_t xchecks[] = {
    {GMB_Q_MEM_READ,
     "GB/s",
     0.15,
     {{"stream", "stream: read kernel, best memory-sized point", ex_stream_best, "read bw_GBps", 1,
       NULL, NULL},
      {"l2", "l2: memory plateau of the read curve (L1 bypassed)", ex_number,
       "results.bandwidth.read.memory_GBps", 1, NULL, "results.bandwidth.read.memory_reached"},
      {"loaded", "loaded: the most read bandwidth beside the idle chase", ex_loaded,
       "read max_bw_GBps", 1, "points.0.params.stream_bytes", NULL},
      {"um", "um: device reads of managed memory resident on it", ex_um, "resident", 1,
       "results.largest.resident.size_bytes", NULL}}},
    {GMB_Q_MEM_COPY,
     "GB/s",
     0.15,
     {{"stream", "stream: copy kernel, best memory-sized point", ex_stream_best, "copy bw_GBps", 1,
       NULL, NULL},
      {"copy", "copy: device to device by an SM kernel, bytes copied x 2", ex_number,
       "results.largest.d2d_device_sm.bw_GBps", 2, "results.largest.d2d_device_sm.size_bytes",
       NULL}}},
    {GMB_Q_MEM_LAT,
     "ns",
     0.15,
     {{"chase", "chase: the memory level of the random global chase", ex_chase_lat,
       "DRAM|memory ns", 1, NULL, NULL},
      {"loaded", "loaded: the chase with no streaming groups", ex_loaded, "read idle.lat_ns", 1,
       "points.0.params.size_bytes 16", NULL}}},
    {GMB_Q_LLC,
     "MiB",
     0.25,
     {{"", "the driver's figure", ex_number, "device.llc_bytes", 1.0 / 1048576, NULL, NULL},
      {"chase", "chase: where the latency curve leaves the L2", ex_chase_cap, "L2|L2 far|L2 part 2",
       1, NULL, NULL},
      {"l2", "l2: where the read bandwidth leaves the cache plateau", ex_number,
       "results.bandwidth.read.capacity_bytes", 1.0 / 1048576, NULL, NULL}}},
    {GMB_Q_SM_CLOCK,
     "MHz",
     0.05,
     {{"chase", "chase: its cycles (clock64) over its nanoseconds (events), median of its points",
       ex_number, "results.cycles.measured_MHz", 1, NULL, NULL},
      {"chase", "NVML: the SM clock at its points' ends, median", ex_number,
       "results.cycles.nvml_MHz", 1, NULL, NULL}}},
    {GMB_Q_SHARED_LAT,
     "ns",
     0.15,
     {{"chase", "chase: shared memory, one work-item, word indices", ex_chase_onchip,
       "shared ns indices", 1, NULL, NULL},
      {"bank", "bank: latency mode, stride 1, 4-byte words (one logic operation more)",
       ex_bank_point, "latency stride 4 1 ns_per_access", 1, NULL, NULL}}},
};

/* Add a value of quantity x from source to o (at most as many as o holds); 1 when added. */
static int xcheck_add(gmb_xcheck_t *o, const char *source, double v, int unconverged)
{
    if (o->n >= sizeof o->vals / sizeof o->vals[0] || !(v > 0))
        return 0;
    o->vals[o->n].source = source;
    o->vals[o->n].v = v;
    o->vals[o->n].unconverged = unconverged;
    o->n++;
    return 1;
}

/* The value of source s of x in record rec (an older record's, read by the extractor), into
 * o where it is what the quantity says. */
static void xcheck_legacy(const xsrc_t *s, const gmb_rec_t *rec, gmb_xcheck_t *o)
{
    gmb_cell_t c = {0};
    if (!rec || s->fn(rec->j, s->arg, &c) || c.kind != 1 || !(c.v > 0) || (c.note & 1))
        return; /* none, or a cache-resident point standing in for memory */
    char path[128];
    double llc = gmb_jnum(rec->j, "device.llc_bytes"), mult = 4;
    if (s->size && (sscanf(s->size, "%127s %lf", path, &mult) < 1 ||
                    !(llc > 0 && gmb_jnum(rec->j, path) >= mult * llc)))
        return; /* not memory-sized, or the LLC unknown (0 or none) */
    if (s->flag && !json_is_true(gmb_jpath(rec->j, s->flag)))
        return;
    conv_note(&c);
    xcheck_add(o, s->source, c.v * s->scale, (c.note & GMB_NOTE_UNCONVERGED) != 0);
}

size_t gmb_crosscheck(const gmb_runset_t *rs, size_t run, gmb_xcheck_t *out, size_t max)
{
    size_t n = 0, r;
    /* a run whose records declare headline figures: their checks; an older run: the
     * extractors of xchecks' sources */
    int figs = 0;
    for (r = 0; r < rs->nrecs; r++)
        figs |= rs->recs[r].run == run && headline_figs(rs->recs[r].j);
    for (size_t i = 0; i < sizeof xchecks / sizeof *xchecks && n < max; i++) {
        const xcheck_t *x = &xchecks[i];
        gmb_xcheck_t *o = &out[n];
        memset(o, 0, sizeof *o);
        o->quantity = x->quantity;
        o->unit = x->unit;
        o->tol = x->tol;
        for (size_t k = 0; k < sizeof x->src / sizeof *x->src && x->src[k].bench; k++)
            if (!figs || !x->src[k].bench[0]) /* a device fact: every run has it */
                xcheck_legacy(&x->src[k], run_rec(rs, run, x->src[k].bench), o);
        for (r = 0; r < rs->nrecs && figs; r++) {
            const gmb_rec_t *rec = &rs->recs[r];
            const json_t *fs = rec->run == run ? headline_figs(rec->j) : NULL, *f;
            size_t j;
            if (!fs) { /* an older record beside them: its sources */
                for (size_t k = 0;
                     rec->run == run && k < sizeof x->src / sizeof *x->src && x->src[k].bench; k++)
                    if (x->src[k].bench[0] && !strcmp(x->src[k].bench, rec->bench))
                        xcheck_legacy(&x->src[k], rec, o);
                continue;
            }
            json_array_foreach(fs, j, f)
            {
                const json_t *ck = json_object_get(f, "check");
                gmb_cell_t c = {0};
                if (strcmp(jstr(ck, "quantity"), x->quantity) || headline_cell(rec->j, f, &c) ||
                    (c.note & GMB_HL_CACHE))
                    continue;
                conv_note(&c);
                xcheck_add(o, jstr(ck, "source"), gmb_jnum(ck, "value"),
                           (c.note & GMB_NOTE_UNCONVERGED) != 0);
            }
        }
        if (o->n < 2)
            continue;
        double lo = INFINITY, hi = 0;
        for (size_t k = 0; k < o->n; k++) {
            lo = fmin(lo, o->vals[k].v);
            hi = fmax(hi, o->vals[k].v);
        }
        o->spread = hi / lo;
        o->agree = o->spread <= 1 + x->tol;
        n++;
    }
    return n;
}

char *gmb_crosscheck_md(const gmb_xcheck_t *x, size_t n)
{
    buf_t b = {0};
    if (!n)
        bput(&b, "No quantity was measured by two programs in this run.\n");
    else
        bput(&b, "| Quantity | Unit | Measurements | Spread | Verdict |\n|---|---|---|---:|---|\n");
    int unconv = 0;
    for (size_t i = 0; i < n; i++) {
        char v[48];
        bput(&b, "| %s | %s | ", x[i].quantity, x[i].unit);
        for (size_t k = 0; k < x[i].n; k++) {
            gmb_fmt_num(x[i].vals[k].v, v, sizeof v);
            bput(&b, "%s%s: %s%s", k ? "; " : "", x[i].vals[k].source, v,
                 x[i].vals[k].unconverged ? " †" : "");
            unconv |= x[i].vals[k].unconverged;
        }
        gmb_fmt_num(x[i].spread, v, sizeof v);
        bput(&b, " | %sx | %s (%s %.0f%%) |\n", v, x[i].agree ? "agree" : "differ",
             x[i].agree ? "within" : "by more than", 100 * x[i].tol);
    }
    if (unconv)
        bput(&b, "\n%s\n", UNCONV_LEGEND);
    return bdone(&b);
}

/* ---- compare ---------------------------------------------------------------------------- */

size_t gmb_metric_samples(const json_t *pt, const char *metric, double **out)
{
    *out = NULL;
    const json_t *own = json_object_get(json_object_get(pt, "metric_samples"), metric);
    size_t no = json_array_size(own), k = 0;
    if (no) { /* the benchmark kept them */
        double *v = malloc(no * sizeof *v);
        if (!v)
            return 0;
        for (size_t i = 0; i < no; i++) {
            double x = json_number_value(json_array_get(own, i));
            if (json_is_number(json_array_get(own, i)) && x == x)
                v[k++] = x;
        }
        if (!k)
            free(v);
        *out = k ? v : NULL;
        return k;
    }
    const json_t *m = json_object_get(json_object_get(pt, "metrics"), metric);
    const json_t *s = json_object_get(pt, "samples_ns");
    double mm = gmb_jnum(m, "median"), mmin = gmb_jnum(m, "min"), mmax = gmb_jnum(m, "max");
    double tm = gmb_jnum(pt, "time_ns.median"), tmin = gmb_jnum(pt, "time_ns.min");
    double tmax = gmb_jnum(pt, "time_ns.max");
    size_t n = json_array_size(s);
    if (!n || !(tm > 0) || !(tmin > 0) || mm != mm || mmin != mmin || mmax != mmax)
        return 0;
    double numer = mm * tm, f = mm / tm, tol = 1e-6;
    int rate = fabs(mmax * tmin - numer) <= tol * fabs(numer) &&
               fabs(mmin * tmax - numer) <= tol * fabs(numer);
    int scale =
        fabs(mmax - tmax * f) <= tol * fabs(mmax) && fabs(mmin - tmin * f) <= tol * fabs(mmin);
    if (!rate && !scale)
        return 0;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double t = json_number_value(json_array_get(s, i));
        v[i] = rate ? numer / t : t * f;
    }
    *out = v;
    return n;
}

/* Calibration parameters, not the point's identity: they may differ between devices. */
static int calibration(const char *k)
{
    static const char *const cal[] = {"reps",     "groups",        "group_size", "iters",
                                      "elements", "bytes_per_rep", "arrays",     NULL};
    for (int i = 0; cal[i]; i++)
        if (!strcmp(k, cal[i]))
            return 1;
    return 0;
}

/* Identity of a point: its non-calibration params, as "key=value;..." (exact) and shown. */
static void point_key(const json_t *pt, char *key, size_t klen, char *show, size_t slen)
{
    const char *k;
    const json_t *v;
    size_t kl = 0, sl = 0;
    key[0] = show[0] = '\0';
    json_object_foreach((json_t *)json_object_get(pt, "params"), k, v)
    {
        if (calibration(k))
            continue;
        char val[64], nice[96];
        if (json_is_string(v))
            snprintf(val, sizeof val, "%s", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(val, sizeof val, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else if (json_is_real(v))
            snprintf(val, sizeof val, "%.17g", json_real_value(v));
        else
            snprintf(val, sizeof val, "%s", json_is_true(v) ? "true" : "false");
        size_t l = strlen(k);
        if (json_is_string(v))
            snprintf(nice, sizeof nice, "%s", val);
        else if (l > 6 && !strcmp(k + l - 6, "_bytes")) {
            char sz[32];
            if (json_is_integer(v) && json_integer_value(v) == 0)
                continue; /* e.g. page_bytes 0: no page */
            /* a value no uint64_t holds (< 0, huge) is no byte count: shown as it is */
            double b = json_number_value(v);
            if (b >= 0 && b < 0x1p64)
                gmb_fmt_size((uint64_t)b, sz, sizeof sz);
            else
                gmb_strlcpy(sz, val, sizeof sz);
            snprintf(nice, sizeof nice, "%.*s=%s", (int)(l - 6), k, sz);
        } else
            snprintf(nice, sizeof nice, "%s=%s", k, val);
        if (kl < klen)
            kl += (size_t)snprintf(key + kl, klen - kl, "%s=%s;", k, val);
        if (sl < slen)
            sl += (size_t)snprintf(show + sl, slen - sl, "%s%s", sl ? " " : "", nice);
    }
}

/* A point of B by its identity, for matching: sorted by key, then by position. */
typedef struct keyed {
    char *key;  /* point_key's exact key */
    size_t idx; /* position in B's points */
} keyed_t;

static int cmp_keyed(const void *x, const void *y)
{
    const keyed_t *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* The first point of B (lowest position) with key, or NULL: a binary search. */
static const json_t *find_keyed(const keyed_t *k, size_t nk, const json_t *points, const char *key)
{
    size_t lo = 0, hi = nk;
    while (lo < hi) { /* the first entry >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(k[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nk && !strcmp(k[lo].key, key) ? json_array_get(points, k[lo].idx) : NULL;
}

/* Room for one more row: the capacity is a function of the count (the power of two >= n,
 * at least 16), so appends cost O(1) amortized without a stored capacity. */
static int rows_room(gmb_cmp_t **rows, size_t n)
{
    if (n && (n < 16 || (n & (n - 1))))
        return GMB_OK;
    size_t cap = n < 16 ? 16 : 2 * n;
    gmb_cmp_t *nr = realloc(*rows, cap * sizeof *nr);
    if (!nr)
        return GMB_ERUNTIME;
    *rows = nr;
    return GMB_OK;
}

size_t gmb_compare_records(const json_t *a, const json_t *b, gmb_cmp_t **rows, size_t *n)
{
    size_t added = 0, i, j, nk = 0;
    const json_t *pa, *pb;
    const json_t *ma = json_object_get(a, "metrics"), *mb = json_object_get(b, "metrics");
    const char *bench = json_string_value(json_object_get(a, "benchmark"));
    const json_t *bpoints = json_object_get(b, "points");
    /* B's points by key, sorted: each point of A is found in O(log n), the first point of B
     * with its key as a linear scan would */
    keyed_t *keys = calloc(json_array_size(bpoints) + 1, sizeof *keys);
    if (!keys)
        return 0;
    json_array_foreach(bpoints, j, pb)
    {
        char kb[1024], showb[200];
        point_key(pb, kb, sizeof kb, showb, sizeof showb);
        if (!(keys[nk].key = strdup(kb)))
            goto out;
        keys[nk++].idx = j;
    }
    qsort(keys, nk, sizeof *keys, cmp_keyed);
    json_array_foreach(json_object_get(a, "points"), i, pa)
    {
        char ka[1024], show[200];
        point_key(pa, ka, sizeof ka, show, sizeof show);
        const json_t *match = find_keyed(keys, nk, bpoints, ka);
        if (!match)
            continue;
        const char *name;
        const json_t *mv;
        json_object_foreach((json_t *)json_object_get(pa, "metrics"), name, mv)
        {
            const json_t *mvb = json_object_get(json_object_get(match, "metrics"), name);
            const json_t *decl = json_object_get(ma, name);
            if (!decl)
                decl = json_object_get(mb, name);
            const char *unit = jstr(decl, "unit");
            if (!json_is_object(mvb) || !strcmp(unit, "%"))
                continue;
            gmb_cmp_t c = {0};
            gmb_strlcpy(c.bench, bench ? bench : "?", sizeof c.bench);
            gmb_strlcpy(c.point, show, sizeof c.point);
            gmb_strlcpy(c.metric, name, sizeof c.metric);
            gmb_strlcpy(c.unit, unit, sizeof c.unit);
            c.higher = strcmp(jstr(decl, "better"), "lower") != 0;
            c.a = gmb_jnum(mv, "median");
            c.b = gmb_jnum(mvb, "median");
            if (!(c.a != 0) || c.a != c.a || c.b != c.b)
                continue;
            c.ratio = c.b / c.a;
            c.change = 100.0 * (c.higher ? c.ratio - 1.0 : 1.0 / c.ratio - 1.0);
            double *sa = NULL, *sb = NULL;
            size_t na = gmb_metric_samples(pa, name, &sa),
                   nb = gmb_metric_samples(match, name, &sb);
            c.p = na && nb ? gmb_mann_whitney_p(sa, na, sb, nb) : -1;
            c.na = na;
            c.nb = nb;
            free(sa);
            free(sb);
            if (rows_room(rows, *n))
                goto out;
            (*rows)[(*n)++] = c;
            added++;
        }
    }
out:
    for (size_t k = 0; k < nk; k++)
        free(keys[k].key);
    free(keys);
    return added;
}
