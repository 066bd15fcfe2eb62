/* cupti.h - hardware counters of a point's kernels through CUPTI's range profiler, loaded at
 * run time (dlopen): DRAM bytes and throughput, L2 and L1 hit rates, L2 sectors from the SMs.
 * Counting replays kernels, so the counts come from one extra sample after the timed ones. */
#ifndef GMB_CUPTI_H
#define GMB_CUPTI_H

#include <jansson.h>
#include <stddef.h>

typedef struct gmb_counters gmb_counters_t; /* a profiling session on one device */

/* The counts of one sample's kernels (summed over them; rates weighted by their sectors or
 * time). ok = 0: none, why says so. */
typedef struct gmb_counter_vals {
    int ok;                  /* 1: the values hold */
    char why[200];           /* ok = 0: the reason */
    double dram_read_bytes;  /* dram__bytes_read.sum */
    double dram_write_bytes; /* dram__bytes_write.sum */
    double dram_pct;         /* dram__throughput.avg.pct_of_peak_sustained_elapsed, weighted by
                                gpu__time_duration */
    double l2_hit_pct;       /* lts__t_sector_hit_rate.pct, weighted by lts__t_sectors */
    double l2_sectors;       /* lts__t_sectors.sum */
    double l2_sm_bytes;      /* lts__t_sectors_srcunit_tex.sum x 32 B: L2 sectors the SMs'
                                L1/TEX units asked for */
    double l1_hit_pct;       /* l1tex__t_sector_hit_rate.pct, weighted by l1tex__t_sectors */
    double kernel_ns;        /* gpu__time_duration.sum (under the profiler: not the timing) */
    size_t kernels;          /* ranges (kernels, auto range) counted */
} gmb_counter_vals_t;

/* The sample function the counters run once (gmb_sample_fn's shape). */
typedef int (*gmb_counters_fn)(void *arg, double *ns);

/* Open a session on the device with CUDA context ctx (a CUcontext) and ordinal; ctx NULL: the
 * device has none, and no_ctx (NULL: a generic text) is the reason unless the library is the
 * stand-in. Otherwise: load libcupti (GMB_CUPTI_LIB, else libcupti.so.13 / libcupti.so on the
 * loader's path, else the toolkit's directory gmb was built against), initialise the profiler,
 * build the configuration of gmb's metrics for the device's chip and enable the range profiler. A
 * library that exports gmb_cupti_standin is the tests' stand-in: it is taken without a context and
 * the record says so. Returns 0 and *out, or GMB_ESKIP with the reason in why (no library, a
 * missing symbol, no context, the CUPTI call and its error text:
 * CUPTI_ERROR_INSUFFICIENT_PRIVILEGES with what to change), nothing printed, nothing held. */
int gmb_counters_open(void *ctx, int ordinal, const char *no_ctx, gmb_counters_t **out, char *why,
                      size_t whylen);

/* Run fn(arg) once under the profiler (auto range: one range per kernel; kernel replay: each
 * kernel replayed as many passes as the metrics need, its memory restored between passes)
 * and put the counts in *v. Returns 0 with v->ok = 1; a CUPTI failure (or dropped ranges)
 * gives 0 with v->ok = 0 and the reason in v->why; fn's own failure is returned as is. */
int gmb_counters_collect(gmb_counters_t *c, gmb_counters_fn fn, void *arg, gmb_counter_vals_t *v);

/* What the session is, for the record: source (library, stand-in or not), chip, metrics,
 * passes, replay and range modes, and how the counts are taken. A new reference. */
json_t *gmb_counters_describe(const gmb_counters_t *c);

/* One point's counts as the record's "counters" object; null (a new reference either way)
 * when !v->ok. */
json_t *gmb_counters_json(const gmb_counter_vals_t *v);

/* Disable the profiler and release everything; NULL is fine. */
void gmb_counters_close(gmb_counters_t *c);

#endif
