/* suite.h - gmb run: profiles, the suite on one device, its manifest and ETA (suite.c). */
#ifndef GMB_TOOLS_SUITE_H
#define GMB_TOOLS_SUITE_H

#include "opts.h"

#include <jansson.h>

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
    gmb_ints_t devices;   /* --devices: all (GMB_INTS_WORD(0)) or indices; n 0: one device */
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

/* The backend of --backend name (auto: the first with a device) and its device count: 0, or
 * the exit status after one line: 77 (no device: gmb_skip), 2 (unknown or not built). */
struct gmb_backend;
int gmb_suite_backend(const char *name, const struct gmb_backend **be, int *ndev);

/* Make root/<slug>/<UTC stamp>[-k] (a new directory, never a link's), its path in out. 0 or
 * GMB_ERUNTIME after one line. */
int gmb_make_rundir(const char *root, const char *slug, char *out, size_t len);

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
