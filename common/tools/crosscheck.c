/* crosscheck.c - the cross-checks: one quantity (memory read bandwidth, the LLC capacity, ...)
 * as several programs of a run measured it, and whether they agree. */
#include "gmb.h"
#include "record.h"
#include "tools/reader.h"
#include "tools/crosscheck.h"

#include <math.h>
#include <string.h>

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
     {{"stream", "stream: read kernel, best memory-sized point", gmb_ex_stream_best, "read bw_GBps",
       1, NULL, NULL},
      {"l2", "l2: memory plateau of the read curve (L1 bypassed)", gmb_ex_number,
       "results.bandwidth.read.memory_GBps", 1, NULL, "results.bandwidth.read.memory_reached"},
      {"loaded", "loaded: the most read bandwidth beside the idle chase", gmb_ex_loaded,
       "read max_bw_GBps", 1, "points.0.params.stream_bytes", NULL},
      {"um", "um: device reads of managed memory resident on it", gmb_ex_um, "resident", 1,
       "results.largest.resident.size_bytes", NULL}}},
    {GMB_Q_MEM_COPY,
     "GB/s",
     0.15,
     {{"stream", "stream: copy kernel, best memory-sized point", gmb_ex_stream_best, "copy bw_GBps",
       1, NULL, NULL},
      {"copy", "copy: device to device by an SM kernel, bytes copied x 2", gmb_ex_number,
       "results.largest.d2d_device_sm.bw_GBps", 2, "results.largest.d2d_device_sm.size_bytes",
       NULL}}},
    {GMB_Q_MEM_LAT,
     "ns",
     0.15,
     {{"chase", "chase: the memory level of the random global chase", gmb_ex_chase_lat,
       "DRAM|memory ns", 1, NULL, NULL},
      {"loaded", "loaded: the chase with no streaming groups", gmb_ex_loaded, "read idle.lat_ns", 1,
       "points.0.params.size_bytes 16", NULL}}},
    {GMB_Q_LLC,
     "MiB",
     0.25,
     {{"", "the driver's figure", gmb_ex_number, "device.llc_bytes", 1.0 / 1048576, NULL, NULL},
      {"chase", "chase: where the latency curve leaves the L2", gmb_ex_chase_cap,
       "L2|L2 far|L2 part 2", 1, NULL, NULL},
      {"l2", "l2: where the read bandwidth leaves the cache plateau", gmb_ex_number,
       "results.bandwidth.read.capacity_bytes", 1.0 / 1048576, NULL, NULL}}},
    {GMB_Q_SM_CLOCK,
     "MHz",
     0.05,
     {{"chase", "chase: its cycles (clock64) over its nanoseconds (events), median of its points",
       gmb_ex_number, "results.cycles.measured_MHz", 1, NULL, NULL},
      {"chase", "NVML: the SM clock at its points' ends, median", gmb_ex_number,
       "results.cycles.nvml_MHz", 1, NULL, NULL}}},
    {GMB_Q_SHARED_LAT,
     "ns",
     0.15,
     {{"chase", "chase: shared memory, one work-item, word indices", gmb_ex_chase_onchip,
       "shared ns indices", 1, NULL, NULL},
      {"bank", "bank: latency mode, stride 1, 4-byte words (one logic operation more)",
       gmb_ex_bank_point, "latency stride 4 1 ns_per_access", 1, NULL, NULL}}},
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
    gmb_cell_conv_note(&c);
    xcheck_add(o, s->source, c.v * s->scale, (c.note & GMB_NOTE_UNCONVERGED) != 0);
}

size_t gmb_crosscheck(const gmb_runset_t *rs, size_t run, gmb_xcheck_t *out, size_t max)
{
    size_t n = 0, r;
    /* a run whose records declare headline figures: their checks; an older run: the
     * extractors of xchecks' sources */
    int figs = 0;
    for (r = 0; r < rs->nrecs; r++)
        figs |= rs->recs[r].run == run && gmb_headline_figs(rs->recs[r].j);
    for (size_t i = 0; i < sizeof xchecks / sizeof *xchecks && n < max; i++) {
        const xcheck_t *x = &xchecks[i];
        gmb_xcheck_t *o = &out[n];
        memset(o, 0, sizeof *o);
        o->quantity = x->quantity;
        o->unit = x->unit;
        o->tol = x->tol;
        for (size_t k = 0; k < sizeof x->src / sizeof *x->src && x->src[k].bench; k++)
            if (!figs || !x->src[k].bench[0]) /* a device fact: every run has it */
                xcheck_legacy(&x->src[k], gmb_runset_rec(rs, run, x->src[k].bench), o);
        for (r = 0; r < rs->nrecs && figs; r++) {
            const gmb_rec_t *rec = &rs->recs[r];
            const json_t *fs = rec->run == run ? gmb_headline_figs(rec->j) : NULL, *f;
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
                if (strcmp(gmb_jstr(ck, "quantity"), x->quantity) ||
                    gmb_headline_cell(rec->j, f, &c) || (c.note & GMB_HL_CACHE))
                    continue;
                gmb_cell_conv_note(&c);
                xcheck_add(o, gmb_jstr(ck, "source"), gmb_jnum(ck, "value"),
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
    gmb_str_t b = {0};
    if (!n)
        gmb_str_put(&b, "No quantity was measured by two programs in this run.\n");
    else
        gmb_str_put(
            &b, "| Quantity | Unit | Measurements | Spread | Verdict |\n|---|---|---|---:|---|\n");
    int unconv = 0;
    for (size_t i = 0; i < n; i++) {
        char v[48];
        gmb_str_put(&b, "| %s | %s | ", x[i].quantity, x[i].unit);
        for (size_t k = 0; k < x[i].n; k++) {
            gmb_fmt_num(x[i].vals[k].v, v, sizeof v);
            gmb_str_put(&b, "%s%s: %s%s", k ? "; " : "", x[i].vals[k].source, v,
                        x[i].vals[k].unconverged ? " †" : "");
            unconv |= x[i].vals[k].unconverged;
        }
        gmb_fmt_num(x[i].spread, v, sizeof v);
        gmb_str_put(&b, " | %sx | %s (%s %.0f%%) |\n", v, x[i].agree ? "agree" : "differ",
                    x[i].agree ? "within" : "by more than", 100 * x[i].tol);
    }
    if (unconv)
        gmb_str_put(&b, "\n%s\n", GMB_UNCONV_LEGEND);
    return gmb_str_done(&b);
}
