/* tools.h - the suite tools of bin/gmb: run (profiles, manifest), plot, table, compare. */
#ifndef GMB_TOOLS_H
#define GMB_TOOLS_H

#include "opts.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* ---- help of bin/gmb (help.c) ---------------------------------------------------------------- */

/* One subcommand: its help (gmb --help, gmb CMD --help and the man page are made from it) and
 * its options, a table as the programs' that parses them too (gmb_cmd_parse). */
typedef struct gmb_cmd_help {
    const char *name;      /* "run" */
    const char *synopsis;  /* "gmb run ...", one line per form, '\n'-separated, no wrapping */
    const char *summary;   /* what it does: one paragraph, no newline */
    const gmb_opt_t *opts; /* the options, into the command's struct below; NULL: none */
} gmb_cmd_help_t;

/* The options of gmb devices, table, report and compare (run's are gmb_suite_opts_t's,
 * plot's gmb_plot_opts_t's). */
typedef struct gmb_devices_opts {
    int json; /* one JSON array instead of the listing */
} gmb_devices_opts_t;
typedef struct gmb_table_opts {
    const char *format; /* md, tex or csv */
    const char *out;    /* a file instead of stdout; NULL: stdout */
    const char *rows;   /* the rows to keep; NULL: every row */
    int levels;         /* bandwidth by level */
} gmb_table_opts_t;
typedef struct gmb_report_opts {
    const char *out; /* the page's file, "-" stdout; NULL: RUN/report.md */
} gmb_report_opts_t;
typedef struct gmb_compare_opts {
    int headline;      /* only the headline */
    double fail_below; /* exit 1 past this regression in percent; < 0: never */
    double alpha;      /* significance level of the verdicts, in (0, 1) */
} gmb_compare_opts_t;

/* Every subcommand, in the order of gmb --help; the last entry's name is NULL. */
extern const gmb_cmd_help_t gmb_cmd_help[];
/* The entry of a subcommand, or NULL. */
const gmb_cmd_help_t *gmb_cmd_help_find(const char *name);
/* gmb --help: every synopsis with its summary, wrapped at 79 columns. */
void gmb_cmd_usage(FILE *f);
/* gmb CMD --help: the synopsis and summary of h, wrapped at 79 columns, and its options as
 * the programs print theirs. */
void gmb_cmd_print_help(FILE *f, const gmb_cmd_help_t *h);
/* Parse the options of gmb CMD (argv[1] is CMD) into cfg by h's table, its defaults first:
 * the operands moved to argv[*first..argc-1]; *help set by -h or --help. 0, or 2 after one
 * line on stderr (3: no memory). */
int gmb_cmd_parse(const gmb_cmd_help_t *h, void *cfg, int argc, char **argv, int *first, int *help);
/* gmb(1) as roff: every subcommand's synopsis, summary and options, the programs named in
 * benches (gmb-NAME(1) each), environment, exit status, files. */
void gmb_cmd_man(FILE *f, char *const *benches, int nbenches);

/* ---- records read back (json.c, runset.c) ---------------------------------------------------- */

/* One record read from disk. */
typedef struct gmb_rec {
    json_t *j;         /* the record (owned) */
    char path[4096];   /* file it came from */
    const char *bench; /* j["benchmark"] (borrowed) */
    size_t run;        /* index of its run in the set */
} gmb_rec_t;

/* One run: the records of one directory (a run directory, or the directory of the record
 * files named on the command line). One table column, one colour in a figure. */
typedef struct gmb_run {
    char source[4096];    /* directory */
    char label[192];      /* "NVIDIA H200 (CUDA)"; the date is added when two runs share a label */
    char time_utc[32];    /* time of its first record */
    const json_t *device; /* device object of its first record (borrowed) */
} gmb_run_t;

/* Runs and their records. */
typedef struct gmb_runset {
    gmb_run_t *runs; /* runs, in the order given */
    size_t nruns;    /* count */
    gmb_rec_t *recs; /* records, run by run, files sorted by name */
    size_t nrecs;    /* count */
    int nbad;        /* records or arguments that could not be read (one line each on err) */
} gmb_runset_t;

/* Load runs from arguments, each a run directory (its *.json records but run.json) or a
 * record file. A corrupt, truncated or foreign file gets one line on err naming it and is
 * left out; a record of another schema version is read with one line saying so. Returns
 * 0 when at least one record was read, GMB_EUSAGE otherwise (the reasons are on err). */
int gmb_runset_load(gmb_runset_t *rs, char *const *args, int nargs, FILE *err);
/* Add one parsed record (stolen) as run source/.. ; used by gmb_runset_load and tests. */
int gmb_runset_add(gmb_runset_t *rs, json_t *rec, const char *path, const char *source);
/* Make the run labels (device, backend; dates when two runs share one). */
void gmb_runset_label(gmb_runset_t *rs);
void gmb_runset_free(gmb_runset_t *rs);
/* The latest record of benchmark bench in run r, or NULL. */
const gmb_rec_t *gmb_runset_find(const gmb_runset_t *rs, size_t run, const char *bench);
/* The board part number NVML gave for run r's device (device.board_part_number of its first
 * record that has one), NULL when none does ("unknown", or a record older than the field):
 * two revisions of one model measure a few percent apart. */
const char *gmb_run_board(const gmb_runset_t *rs, size_t run);

/* A value at a dotted path ("results.best.read.bw_GBps") or NULL. */
const json_t *gmb_jpath(const json_t *j, const char *path);
/* A number (integer or real) at a path, or NaN. */
double gmb_jnum(const json_t *j, const char *path);
/* Whether a record's busy_before says the GPU was in use before it (gmb_busy_in_use). */
int gmb_rec_busy(const json_t *rec);
/* Short device label: "Intel Xeon Processor (PoCL CPU)", "NVIDIA H200 (CUDA)". */
void gmb_device_label(const json_t *device, const char *backend, char *out, size_t len);

/* ---- the report of a run (runreport.c) ------------------------------------------------------- */

/* Write the Markdown report of run directory dir (its run.json and records) to f: device and
 * host, each program's status and summary, the table, the figures under dir/figures, linked
 * as figs/NAME.png (figs: "figures" for a page in dir, else a path to them). 0, GMB_EUSAGE
 * (no gmb-run manifest: one line said) or GMB_ERUNTIME (a write failed). */
int gmb_run_report(const char *dir, const char *figs, FILE *f);

/* ---- table (table.c, legacy.c, render*.c) ---------------------------------------------------- */

/* One cell of the table. */
typedef struct gmb_cell {
    int kind;               /* 0 empty, 1 number, 2 text */
    double v;               /* number: the median (or the value) */
    double lo, hi;          /* its 95% CI; NaN when the value has none */
    char text[128];         /* text cell */
    int note;               /* bits: 1 from a cache-resident point (no DRAM point), 2 from a DRAM
                               point between 4x and 16x the LLC, 4 a peak given with --peak-bw, 8
                               from an interrupted program, 16 from one with capped points, 32 from
                               points half or more of which did not converge (GMB_NOTE_UNCONVERGED), 64 a
                               capacity past the cache the device reports (GMB_NOTE_PAST_LLC) */
    int npts, nunc;         /* the points the value rests on that say whether they converged, and
                               how many of them did not (the extractor counts them) */
    int figure;             /* 1: read from a headline figure (gmb_headline), 0: by an extractor */
    const char *level, *by; /* the figure's level of the hierarchy and how it was measured
                               there (borrowed from the record); NULL: none */
} gmb_cell_t;

#define GMB_NOTE_UNCONVERGED 32
/* note bit: a cache capacity past the one the device reports (the plateau's end, not the size) */
#define GMB_NOTE_PAST_LLC 64

/* A row extractor: fill out from a record (the device for bench ""); 0 when it did. */
typedef int (*gmb_row_fn)(const json_t *rec, const char *arg, gmb_cell_t *out);

/* One row of the table: data, keyed by the benchmark whose record it reads. */
typedef struct gmb_row {
    const char *bench; /* benchmark ("" = device facts, from any record of the run) */
    const char *label; /* what the row shows */
    const char *unit;  /* unit of its numbers ("" for text) */
    gmb_row_fn fn;     /* extractor */
    const char *arg;   /* extractor argument */
} gmb_row_t;

/* Every row gmb table knows, in order; a later benchmark adds its rows here. */
extern const gmb_row_t gmb_table_rows[];

/* A row of the bandwidth-by-level view: a level of the hierarchy, the row of gmb_table_rows
 * (by label) that measures it, and the program and method that did. */
typedef struct gmb_level_row {
    const char *level; /* "L1, aggregate of all SMs", "DRAM" ... */
    const char *row;   /* the label of its row in gmb_table_rows */
    const char *by;    /* the program and how it measured */
} gmb_level_row_t;

/* The level view's rows, from the core outwards (NULL-terminated). */
extern const gmb_level_row_t gmb_level_rows[];

/* The table: rows (those with a value in some column) x runs. */
typedef struct gmb_table {
    size_t nrows, ncols;        /* rows, columns (runs) */
    const gmb_row_t **rows;     /* rows shown */
    const char **cols;          /* column heads: the run labels, ", board P" added where the
                                   part number is known (in heads) */
    char *heads;                /* the heads' text (owned) */
    gmb_cell_t *cells;          /* nrows x ncols, row-major */
    int notes;                  /* the notes of all cells, or-ed */
    const gmb_level_row_t **lv; /* the level view (gmb_table_levels): each row's level; NULL:
                                   the full table */
    gmb_level_row_t *lvfig;     /* the level rows the figures named (owned, nrows at most) */
    gmb_row_t *dyn;             /* rows of headline figures no row of gmb_table_rows names
                                   (owned, with their text), ndyn of them */
    size_t ndyn;
} gmb_table_t;

/* Whether two rows show the same thing: benchmark, label and unit. */
int gmb_row_same(const gmb_row_t *a, const gmb_row_t *b);
/* Build the table of a run set: a record with headline figures (gmb_headline) fills the rows
 * of its benchmark from them, those no row names added at the end; an older record is read by
 * the rows' extractors (as is every record with GMB_TABLE_READER=legacy in the environment, a
 * test aid). 0 or GMB_ERUNTIME. */
int gmb_table_build(const gmb_runset_t *rs, gmb_table_t *t);
void gmb_table_free(gmb_table_t *t);
/* Turn a built table into the bandwidth-by-level view: the GB/s rows whose headline figures
 * name a level (gmb_headline_t.level), and for older records the rows gmb_level_rows maps to
 * one, in the order of the levels there (a level it does not name after them), rows of one
 * level in table order (the renderers then give each row's level and program). 0, or
 * GMB_ERUNTIME (memory). */
int gmb_table_levels(gmb_table_t *t);
/* Render as "md", "tex" or "csv". Returns a malloc'd string, or NULL (unknown format). */
char *gmb_table_render(const gmb_table_t *t, const char *format);
/* Format a number with 4 significant digits, no exponent ("3912", "180.6", "0.01940"). */
void gmb_fmt_num(double v, char *buf, size_t len);

/* ---- cross-checks (crosscheck.c) ------------------------------------------------------------- */

/* One quantity that several programs of a run measure, each its own way: their values and
 * whether they agree. */
typedef struct gmb_xcheck {
    const char *quantity; /* "Memory read bandwidth" */
    const char *unit;     /* its unit */
    double tol;           /* they agree when the largest is at most (1 + tol) x the smallest */
    size_t n;             /* measurements found (2 or more) */
    struct {
        const char *source; /* which program, which figure */
        double v;           /* its value, in unit */
        int unconverged;    /* it rests on points half or more of which did not converge */
    } vals[8];
    double spread; /* largest / smallest */
    int agree;     /* spread <= 1 + tol */
} gmb_xcheck_t;

/* The cross-checks of run `run` of rs with two or more measurements, into out[0..max): a
 * figure counts only where it is what the quantity says (a memory figure from a buffer of at
 * least 4x the last-level cache, a plateau the program says it reached). Returns how many. */
size_t gmb_crosscheck(const gmb_runset_t *rs, size_t run, gmb_xcheck_t *out, size_t max);
/* The cross-checks x[0..n) as a Markdown section body (a table, or a line saying no quantity
 * had two measurements). malloc'd, NULL when out of memory. */
char *gmb_crosscheck_md(const gmb_xcheck_t *x, size_t n);

/* ---- compare (compare.c) --------------------------------------------------------------------- */

/* One compared metric of one point. */
typedef struct gmb_cmp {
    char bench[32];  /* benchmark */
    char point[200]; /* the point's identity ("read width=16 B size=4 KiB") */
    char metric[48]; /* metric name */
    char unit[16];   /* its unit */
    int higher;      /* 1: higher is better */
    double a, b;     /* medians */
    double ratio;    /* b / a */
    double p;        /* Mann-Whitney two-sided p on the samples in the metric's unit; -1 none */
    double change;   /* relative change in the better direction, %: >0 B better */
    size_t na, nb;   /* raw samples of the metric on each side (0: none) */
} gmb_cmp_t;

/* Values of a metric for every raw sample of a point: the point's own metric_samples[metric]
 * when it has them (a metric that is no function of the sample times), else derived from
 * samples_ns by the metric's relation to time_ns (a rate numer/t or a scale t*f). Returns
 * the count written to a malloc'd *out, or 0 when there are none. */
size_t gmb_metric_samples(const json_t *point, const char *metric, double **out);
/* Compare two records of one benchmark: every metric (but % ones) of every point present
 * in both (points matched on their parameters except calibration ones; a point of A gets
 * the first point of B with its parameters), in A's order. O(n log n) in the points.
 * Appends to *rows (realloc'd, count in *n): *rows is NULL with *n 0, or what an earlier
 * call left (*n may be lowered to reuse it). Returns the number appended. */
size_t gmb_compare_records(const json_t *a, const json_t *b, gmb_cmp_t **rows, size_t *n);

/* Text from a record made safe to print on a terminal, in place and at its length: each
 * control character (C0, DEL, and C1 as UTF-8, U+0080 to U+009F) a space (an ESC would drive
 * the terminal, a line feed start a line of its own). */
void gmb_text_plain(char *s);

/* How Markdown output (gmb table --format md, gmb report) writes byte c of a record's text:
 * NULL for as it is, else what stands for it: '|' (a table cell's end) and Markdown's own
 * marks (\\ [ ] ! ` * _) backslash-escaped, < > & as HTML entities (no tag of a record's
 * is live where the page is rendered), a control character as a space (a line feed would
 * start rows of its own). */
const char *gmb_md_esc(unsigned char c);

/* ---- plot (plot.c) --------------------------------------------------------------------------- */

/* Plot options. */
typedef struct gmb_plot_opts {
    const char *out;   /* directory of the figures */
    const char *plots; /* directory of the gnuplot scripts */
    int pdf;           /* also PDF */
    const char *size;  /* --size WxH as given (width and height are read from it) */
    int width, height; /* PNG size in pixels (SVG/PDF alike, scaled) */
    int data_only;     /* 1: write the data and variables files, run no gnuplot (fuzz target) */
} gmb_plot_opts_t;

/* Draw every benchmark of the run set that has plots/<bench>.gp. Prints each figure made
 * on stdout, one note per benchmark skipped on stderr. A figure that cannot be drawn (no
 * point, gnuplot failed or missing, nothing drawn) is named with its reason in
 * <out>/not-drawn.tsv (rewritten each time; empty when all were drawn) and on stderr, and
 * the others are still made. Returns 0 when every figure was drawn or named so, GMB_ERUNTIME
 * when a file could not be written (or no figure at all was drawn nor named). */
int gmb_plot(const gmb_runset_t *rs, const gmb_plot_opts_t *o);

/* ---- run (suite.c) --------------------------------------------------------------------------- */

/* The options of one benchmark for one profile and device type. */
typedef struct gmb_profile {
    char args[1024]; /* options, space-separated ("" = the benchmark's defaults) */
    double est_s;    /* expected seconds (for the ETA); 0 unknown */
    int generic;     /* 1: no line for this benchmark: the generic fallback */
} gmb_profile_t;

/* Most option words a profile line may give one benchmark. */
#define GMB_PROFILE_MAX_WORDS 100

/* Look up bench/profile/devtype in a profiles file (lines "bench profile devtype est_s
 * options..." of any length; '*' matches any benchmark or device type; the first match
 * wins). When no line matches, the generic fallback ("*" lines, else built-in). 0, or
 * GMB_ERUNTIME when the file cannot be read (the built-in fallback is then filled), or
 * GMB_EUSAGE when the options of a matching line do not fit out->args or exceed
 * GMB_PROFILE_MAX_WORDS words (one error line naming file:line; never cut; the built-in
 * fallback is filled). */
int gmb_profile_lookup(const char *file, const char *bench, const char *profile,
                       const char *devtype, gmb_profile_t *out);

/* Write a JSON object to dir/name atomically (temporary file, fsync, rename over the old
 * one). 0 or GMB_ERUNTIME. */
int gmb_json_write_atomic(const json_t *j, const char *dir, const char *name);

/* Suite options. */
typedef struct gmb_suite_opts {
    const char *bindir;   /* where gmb-<name> programs are */
    const char *profiles; /* profiles file (NULL: generic fallback) */
    int profiles_given;   /* the user named it: one that cannot be read is an error */
    const char *profile;  /* "quick" or "full" */
    const char *backend;  /* auto, cuda, opencl */
    long device;          /* device index */
    const char *results;  /* results root ("results") */
    const char *only;     /* comma list of benchmarks to run, or NULL */
    const char *skip;     /* comma list of benchmarks not to run, or NULL */
    double timeout_s;     /* stop a program after this long; 0: 10x its estimate, >= 300 s */
    int full, quick;      /* --full, --quick given (profile is then set from them) */
    char *const *extra;   /* options appended for every benchmark */
    int nextra;           /* their count */
    int argc;             /* gmb's command line (for the manifest) */
    char *const *argv;
    char rundir[4096]; /* out: the run directory made */
} gmb_suite_opts_t;

/* Run every benchmark found in bindir on one device into a new run directory with a
 * run.json manifest. Returns the exit status: 0 all ok, 1 a verification failed, 3 a
 * program failed, 77 all skipped, 128 + the signal when
 * interrupted (SIGINT 130, SIGTERM 143, SIGHUP 129: forwarded to the program), 2 usage. */
int gmb_suite_run(gmb_suite_opts_t *o);

/* The ETA of gmb run (pure, for tests). The factor for the estimates left: the finished
 * programs' measured seconds over their estimates, bounded to [GMB_ETA_SCALE_MIN,
 * GMB_ETA_SCALE_MAX]; 1 with nothing finished (or nothing that makes sense). */
#define GMB_ETA_SCALE_MIN 0.1
#define GMB_ETA_SCALE_MAX 10.0
double gmb_eta_scale(double done_est, double done_meas);
/* Seconds the suite has left, or -1 when nothing is estimated: done_est and done_meas of the
 * finished programs, the running one's estimate cur_est (unscaled; 0 unknown) after ran_s
 * seconds, the estimates of the programs after it (later_est, unscaled). The running program
 * is expected to take its scaled estimate; but never less than GMB_ETA_OVERRUN of what it has
 * run is left of it, so an overrun shows time left that grows as it runs, never 0:00; and past
 * its scaled estimate its elapsed time counts in the factor of the programs after it. */
#define GMB_ETA_OVERRUN 0.25
double gmb_eta_left(double done_est, double done_meas, double cur_est, double ran_s,
                    double later_est);

/* Manifest helpers (suite.c; pure, for tests). A new manifest object. */
json_t *gmb_manifest_new(const char *profile, json_t *device, const char *slug,
                         const char *started_utc, int argc, char *const *argv);
/* Add a program (pending) with its options; returns its (borrowed) entry. */
json_t *gmb_manifest_add(json_t *m, const char *name, const char *args, double est_s);
/* Mark a program finished: exit status (or -signal), wall time, records, reason line. */
void gmb_manifest_done(json_t *prog, int status, int signal, double wall_s, json_t *records,
                       const char *reason);
/* Word for an exit status: ok, verification_failed, usage_error, error, skipped. */
const char *gmb_status_word(int status);

#endif
