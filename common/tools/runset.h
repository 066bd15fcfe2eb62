/* runset.h - records read back: runs of record files, their labels (runset.c). */
#ifndef GMB_TOOLS_RUNSET_H
#define GMB_TOOLS_RUNSET_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

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

/* Whether a record's busy_before says the GPU was in use before it (gmb_busy_in_use). */
int gmb_rec_busy(const json_t *rec);
/* Short device label: "Intel Xeon Processor (PoCL CPU)", "NVIDIA H200 (CUDA)". */
void gmb_device_label(const json_t *device, const char *backend, char *out, size_t len);

#endif
