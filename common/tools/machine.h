/* machine.h - gmb run --devices: the suite on every device of a machine, the peer matrix and
 * the machine's summary (machine.c). */
#ifndef GMB_TOOLS_MACHINE_H
#define GMB_TOOLS_MACHINE_H

#include "tools/suite.h"

#include <jansson.h>

/* Run the suite (o's profile and options) on each device of o->devices in turn, each into its
 * own run directory under one new machine directory DIR/machine-<host>/<UTC>/; then, with two
 * devices or more, gmb-copy's peers profile on each device (the peer matrix, under peers/);
 * then machine.json (every device's run and status, the peer matrix), table.md and table.csv
 * (one column per device) and peers.md. The machine directory goes to o->rundir. Returns the
 * exit status as gmb_suite_run does, the worst of the devices' (128 + the signal when
 * interrupted: no device after it is run); 2 for a bad --devices list, nothing written. */
int gmb_machine_run(gmb_suite_opts_t *o);

/* The peer matrix of a set of gmb-copy records (pure, for tests): for each engine ("ce",
 * "sm") that some record measured, "GBps": rows from, columns to, in the order of the device
 * indices in devs (n of them), the bandwidth of the largest copy or null, and "size_bytes";
 * "skipped": the pairs skipped with their reasons. recs: n_recs records (borrowed). */
json_t *gmb_peer_matrix(const json_t *const *recs, size_t n_recs, const int *devs, size_t n);

/* The peer matrix as Markdown (malloc'd; NULL on memory). */
char *gmb_peer_matrix_md(const json_t *matrix, const int *devs, size_t n);

#endif
