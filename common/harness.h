/* harness.h - what every benchmark program shares: options, device, measurement, record. */
#ifndef GMB_HARNESS_H
#define GMB_HARNESS_H

#include <jansson.h>

#include "backend/backend.h"
#include "cupti.h"
#include "gmb.h"
#include "nvml.h"
#include "topo.h"
#include "opts.h"
#include "record.h"
#include "model/stats.h"

/* Options every program takes (filled from gmb_common_opts). */
typedef struct gmb_common {
    const char *backend;  /* auto, cuda, opencl */
    long device;          /* index within the backend */
    const char *out;      /* record directory; NULL: results/<device-slug> */
    int list_devices;     /* print devices and exit */
    int help;             /* print help and exit */
    int summary;          /* print the one-line summary and exit (for `gmb list`) */
    int version;          /* print the version and exit */
    int man;              /* print the man page (roff) and exit */
    int quiet;            /* no progress on stderr */
    int no_record;        /* measure and print, write nothing */
    long warmup;          /* untimed runs before the samples of a point */
    long min_samples;     /* fewest timed samples per point */
    long max_samples;     /* most timed samples per point */
    double ci_target_pct; /* stop when the 95% CI of the median is within this % */
    double time_cap_s;    /* stop sampling a point after this many seconds */
    long seed;            /* seed of the pseudo-random data */
    int inject_error;     /* test aid: corrupt one result so that verification must fail */
    double peak_bw;       /* --peak-bw: the nominal peak to use (GB/s), 0 the driver's */
    int counters;         /* --counters: hardware counters per point (CUPTI) */
} gmb_common_t;

typedef struct gmb_ctx gmb_ctx_t;

/* A benchmark program: one const descriptor; main() is gmb_main(&desc, argc, argv). */
typedef struct gmb_bench {
    const char *name;             /* "stream": the program is gmb-stream */
    const char *summary;          /* one line for `gmb list` */
    const char *help;             /* paragraphs after the option list in --help */
    const gmb_opt_t *opts;        /* the benchmark's own options ({NULL} terminated) */
    size_t cfg_size;              /* bytes of the benchmark's config struct */
    const gmb_kernels_t *kernels; /* kernels for both backends */
    /* Run the sweep: add points with gmb_add_point(); return 0 or a GMB_E* code. */
    int (*run)(gmb_ctx_t *ctx);
    /* Before run, with the device open and nothing allocated or recorded: the options that
     * need the device (conflicts, limits, defaults derived from it) checked and completed in
     * ctx->cfg; 0, or GMB_EUSAGE / GMB_ESKIP after one line. NULL: none. */
    int (*check)(gmb_ctx_t *ctx);
} gmb_bench_t;

/* The state of one program run. */
struct gmb_ctx {
    const gmb_bench_t *bench; /* the benchmark */
    void *cfg;                /* its options (cfg_size bytes) */
    gmb_common_t o;           /* common options */
    const gmb_backend_t *be;  /* chosen backend */
    gmb_dev_t *dev;           /* opened device */
    gmb_dev_info_t info;      /* what the device is */
    json_t *record;           /* the record being built */
    json_t *points;           /* record["points"] (borrowed) */
    int argc;                 /* command line */
    char **argv;
    gmb_numa_t *numa;       /* host placement (hwloc; NULL without) */
    char host_binding[224]; /* where the host thread runs and allocates (gmb_numa_home) */
    int nvml;               /* NVML answers for the device: points get their clocks */
    int nvml_stopped;       /* 1: NVML took too long, later points got no clocks */
    double nvml_ms;         /* time the points' NVML queries took so far */
    double t_run;           /* gmb_now_ns() when the benchmark's run began */
    gmb_counters_t *cnt;    /* --counters: the profiling session; NULL without */
    char cnt_why[200];      /* --counters without a session: why (each point says it too) */
};

/* Timing samples of one point and their summary. */
typedef struct gmb_series {
    double *ns;             /* samples, ns */
    size_t n, cap;          /* count, capacity */
    gmb_stats_t st;         /* summary (after gmb_measure) */
    double wall_s;          /* wall time spent sampling */
    const char *stopped_by; /* why sampling stopped (gmb_measure): "converged", "max samples",
                               "time cap" or "would not converge" (GMB_FUTILE_N) */
    int warmed;             /* set by the caller: warm-up done (samples pushed so far count) */
    /* NVML across the sampling of gmb_measure (NVIDIA GPUs; the point's "clocks"): */
    int clk_known;                    /* 1: NVML answered at both ends */
    double capped_ms[GMB_VIOL_KINDS]; /* held below the application clocks, ms; <0 unknown */
    unsigned sm_mhz;                  /* SM clock when sampling ended; GMB_UNKNOWN */
    /* --counters (gmb_measure, after the timed samples): */
    int cnt_taken;          /* 1: one extra sample ran under the profiler */
    gmb_counter_vals_t cnt; /* its counts, or why there are none */
} gmb_series_t;

/* A point that has not converged after this many samples (and --min-samples) stops when its
 * CI, shrinking as 1/sqrt(n), would reach the target only past --max-samples or past the time
 * cap at its rate of sampling: more samples would not converge it, only lengthen the sweep (a
 * noisy device: PoCL's cache-sized stream points held a 2-3% CI at 100 samples). */
#define GMB_FUTILE_N 30

/* One timed sample: run the work once, put its device time in *ns. */
typedef int (*gmb_sample_fn)(void *arg, double *ns);

/* Run the program: parse options, open the device, run the sweep, write the record.
 * Returns the exit status (0, 1, 2, 3, 77). */
int gmb_main(const gmb_bench_t *bench, int argc, char **argv);

/* Measure one point: warm-up runs, then samples until the median's 95% CI is within
 * the target, or max samples, or the time cap. 0 or the sample function's error. */
int gmb_measure(gmb_ctx_t *ctx, gmb_sample_fn fn, void *arg, gmb_series_t *s);
/* Measure two points against each other: their samples taken in turn (a, b, a, b, ...; the
 * warm-up of each first), so that a drift (clocks, temperature, a neighbour's load) falls on
 * both alike and a comparison of the two is not biased by their order; each series stops
 * sampling when it has converged or holds max samples, both at the time cap (each with at
 * least 3). The last launch is b's. 0 or the first error. */
int gmb_measure_pair(gmb_ctx_t *ctx, gmb_sample_fn fa, void *a, gmb_series_t *sa, gmb_sample_fn fb,
                     void *b, gmb_series_t *sb);
/* Add a sample taken by the caller (e.g. while calibrating, after warm-up, same work);
 * 0 or GMB_ERUNTIME. */
int gmb_series_push(gmb_series_t *s, double ns);
void gmb_series_free(gmb_series_t *s);

/* Start a point with its parameters (the object is stolen); add metrics to the returned
 * point's "metrics" with gmb_point_metric, then gmb_add_point. */
json_t *gmb_point_new(json_t *params, const gmb_series_t *s);
void gmb_point_metric(json_t *point, const char *name, json_t *value);
/* Keep a metric's value for each of n samples under point["metric_samples"][name] (numbers
 * only; NaN left out), for a metric that is no function of the sample times: gmb compare
 * tests its difference on them. */
void gmb_point_metric_samples(json_t *point, const char *name, const double *v, size_t n);
/* Append the point to the record (stolen). */
void gmb_add_point(gmb_ctx_t *ctx, json_t *point);
/* The rate bytes / time of n samples ns[0], ns[stride], ... (NaN ones left out) as a metric
 * object, with the run's statistics settings; JSON null when none is left (or no memory).
 * For a second time a sample function kept beside the one gmb_measure summarised. */
json_t *gmb_json_rate_of(const gmb_ctx_t *c, const double *ns, size_t n, size_t stride,
                         double bytes);
/* Set metric name of a point to the rate bytes / time of n samples ns[0], ns[stride], ...
 * (gmb_json_rate_of) and keep each sample's rate in metric_samples, so gmb compare can test
 * it: for a second time a sample function kept beside the one gmb_measure summarised. */
void gmb_point_rate(const gmb_ctx_t *c, json_t *point, const char *name, const double *ns, size_t n,
                    size_t stride, double bytes);
/* Describe a metric once in the record: unit and meaning. */
void gmb_declare_metric(gmb_ctx_t *ctx, const char *name, const char *unit, const char *better,
                        const char *desc);
/* Add a key to the record's top-level "results" object (stolen): summaries, fits. */
void gmb_add_result(gmb_ctx_t *ctx, const char *key, json_t *value);
/* A headline figure: one value the program stands behind, under the record's "headlines"
 * (record.h: GMB_HEADLINES_VERSION, the GMB_HL_* notes). */
typedef struct gmb_headline {
    const char *label;           /* "Read bandwidth": what the figure is */
    const char *unit;            /* "GB/s" ("" for a text figure) */
    int higher;                  /* 1: higher is better; 0: lower is (numbers only) */
    double value, ci_lo, ci_hi;  /* the figure and its 95% CI (NaN: none) */
    const char *text;            /* a text figure instead of a number (NULL: a number) */
    const json_t *const *points; /* the points of this record it rests on (npoints) */
    size_t npoints;
    unsigned notes; /* GMB_HL_* (GMB_HL_UNCONVERGED is added from the points' time series) */
    /* the level of the hierarchy it is the bandwidth of (GMB_LEVEL_*, gmb table --levels), and
     * how it was measured there; NULL: none */
    const char *level, *how;
    /* a quantity other programs measure too (GMB_Q_*, the cross-checks), only where the figure
     * is that quantity (a memory figure from a memory-sized buffer); what this measurement of
     * it is; its value is scale x value (0: 1). NULL: none */
    const char *quantity, *source;
    double scale;
} gmb_headline_t;
/* Declare headline figure h under the record's "headlines" (its points found by identity
 * among those added with gmb_add_point; one not there is left out). A NaN value is not
 * recorded. */
void gmb_headline(gmb_ctx_t *ctx, const gmb_headline_t *h);
/* The points added so far whose params hold every key of the object that json_pack builds
 * from fmt and its arguments with an equal value (e.g. "{s:s, s:i}", "kernel", "copy",
 * "width_bytes", 4), in the order added, at most max in out; their count (0 on a bad fmt).
 * For gmb_headline's points. */
size_t gmb_points_where(const gmb_ctx_t *ctx, const json_t **out, size_t max, const char *fmt, ...);
/* The program's summary: printed as prefix + text (e.g. "# stream: ") and kept as
 * results.summary, where gmb report reads it; text empty: none_text. A second call appends
 * label + text to the recorded one after a space (label may be NULL; the printed lines stay
 * separate). */
void gmb_summary(gmb_ctx_t *ctx, const char *prefix, const char *label, const char *text,
                 const char *none_text);

/* A launch that fills the device for n work items, one item per work-item at most:
 * group_size (0: 256, halved to the device's maximum), groups per compute unit (0: on a GPU
 * as many as the kernel keeps resident — the backend's occupancy answer for k, else threads
 * per CU / group size —, on a CPU 4; at most 1024), and no more groups than n needs. k may
 * be NULL. */
void gmb_grid(const gmb_ctx_t *ctx, gmb_kern_t *k, long group_size, long groups_per_cu, uint64_t n,
              gmb_launch_t *g);
/* A one-pass grid for n items: groups as gmb_grid sizes them, as many as per_item items a
 * work-item need (past what the device holds, they run in waves). */
void gmb_grid_pass(const gmb_ctx_t *ctx, long group_size, uint64_t per_item, uint64_t n,
                   gmb_launch_t *g);

/* A --group-size the device can run: 0 (the default) or a power of two at most its maximum.
 * 0, or GMB_EUSAGE after one line (a check hook's rule). */
int gmb_check_group_size(const gmb_ctx_t *ctx, long group_size);

/* JSON of a device description. */
json_t *gmb_json_device(const gmb_dev_info_t *d);
/* clocks.during from two NVML snapshots (nvml.h) around a run of wall_s seconds: the time
 * the GPU was held below its application clocks by each limit; nothing when NVML was not. */
void gmb_json_clocks_during(json_t *clocks, const gmb_clocks_t *a, const gmb_clocks_t *b,
                            double wall_s);
/* Print every compiled-in backend's devices as a table. Returns 0 when any was found. */
int gmb_print_devices(FILE *f);
/* The same as one JSON array on f (gmb_json_device objects with "near": the host side near
 * each), [] when none; a backend without a device says why on err. 0 when any was found,
 * GMB_ESKIP when none (one line on err), GMB_ERUNTIME out of memory ([] on f). */
int gmb_print_devices_json(FILE *f, FILE *err);
/* Pick the backend for name ("auto": the first with a device); GMB_EUSAGE for an unknown
 * name, GMB_ESKIP with the reason in why when none has a device. */
int gmb_pick_backend(const char *name, const gmb_backend_t **out, int *ndev, char *why,
                     size_t whylen);

#endif
