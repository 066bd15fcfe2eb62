/* record.h - run records: one JSON (everything) and one CSV (a row per point) per run. */
#ifndef GMB_RECORD_H
#define GMB_RECORD_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "model/stats.h"

#define GMB_RECORD_SCHEMA "gmb-record"
/* The layout this gmb writes: tests/schema/record-v<N>.schema.json. A new required field or a
 * field of another type is a new version (2: device.serial and board_part_number, every
 * point metric a statistics object, gmb-loaded's pct_peak too). */
#define GMB_RECORD_SCHEMA_VERSION 2
/* The oldest version whose records hold everything gmb's readers show (a version 1 record
 * lacks only the board's serial and part number, which the table then leaves out): older
 * ones are read with a warning. */
#define GMB_RECORD_SCHEMA_READ_FULLY 1

/* Headline figures (gmb_headline): gmb table, gmb compare, the level view and the
 * cross-checks read the record's "headlines" (version GMB_HEADLINES_VERSION: {"version",
 * "figures": [{label, unit, better, value, ci_lo, ci_hi (or text), points, notes, and
 * optionally level: {name, how}, check: {quantity, source, value}}]}) and know no program by
 * name. */
#define GMB_HEADLINES_VERSION 1
/* its notes (bits; named in the record as gmb_headline_notes[] says) */
#define GMB_HL_CACHE       1  /* "cache-resident": from a point no bigger than the cache */
#define GMB_HL_NEAR_LLC    2  /* "near-llc": a DRAM point between 4x and 16x the LLC */
#define GMB_HL_PEAK_GIVEN  4  /* "peak-given": a % of a peak given with --peak-bw */
#define GMB_HL_UNCONVERGED 32 /* "unconverged": half or more of its points did not converge */
#define GMB_HL_PAST_LLC    64 /* "past-llc": a capacity past the cache the device reports */
/* Bit and name of each note, in bit order ({0, NULL} terminated). */
extern const struct gmb_hl_note {
    unsigned bit;
    const char *name;
} gmb_headline_notes[];

/* The levels of the memory hierarchy a headline figure can be the bandwidth of
 * (gmb_headline_t.level): gmb table --levels shows them in this order, from the core out. */
#define GMB_LEVEL_L1        "L1, aggregate of all SMs"
#define GMB_LEVEL_CACHE1    "Cache level 1, aggregate of all compute units"
#define GMB_LEVEL_SHARED    "Shared memory, aggregate"
#define GMB_LEVEL_DSMEM     "Distributed shared memory"
#define GMB_LEVEL_L2_SAME   "L2, every SM the same lines"
#define GMB_LEVEL_L2        "L2 (a CPU: its last-level cache)"
#define GMB_LEVEL_L2_NEAR   "L2 near"
#define GMB_LEVEL_L2_FAR    "L2 far"
#define GMB_LEVEL_DRAM      "DRAM (memory)"
#define GMB_LEVEL_HOST_H2D  "Host link, host to device"
#define GMB_LEVEL_HOST_D2H  "Host link, device to host"
#define GMB_LEVEL_HOST_BOTH "Host link, both directions"
#define GMB_LEVEL_PEER      "Peer link"
/* The quantities several programs measure, each its own way (gmb_headline_t.quantity): the
 * cross-checks set their values side by side. */
#define GMB_Q_MEM_READ   "Memory read bandwidth"
#define GMB_Q_MEM_COPY   "Memory copy bandwidth (bytes read + written)"
#define GMB_Q_MEM_LAT    "Memory latency, idle"
#define GMB_Q_LLC        "Last-level cache capacity"
#define GMB_Q_SM_CLOCK   "SM clock during the chase"
#define GMB_Q_SHARED_LAT "Shared-memory latency"

/* Build the JSON of a point's derived metric: value = numer / time (a rate, e.g. GB/s from
 * bytes / ns) for every statistic of the time. CI ends swap (a longer time, a lower rate).
 * Returns a new object {median, ci_lo, ci_hi, min, max, mean}. */
json_t *gmb_json_rate(double numer, const gmb_stats_t *time);
/* Same for value = time * factor (e.g. ns per access). */
json_t *gmb_json_scaled(double factor, const gmb_stats_t *time);
/* JSON of a time summary (median, ci_lo, ci_hi, min, max, mean, stddev, n, ci_rel,
 * converged). */
json_t *gmb_json_stats(const gmb_stats_t *s);

/* The rule of every cell and header name of the CSV data files gmb writes for gnuplot
 * (never quoted: gnuplot does not read quotes): ',' and '"' become ';', a control
 * byte (CR, LF, tab ...) a space, a '#' that begins the cell (after blanks: a comment line
 * to gnuplot) ';'. So a crafted key or value never shifts a column or splits a line. In
 * place; the length is kept. */
void gmb_csv_clean(char *cell);

/* One CSV field, RFC 4180: s is quoted when it holds ',', '"', CR or LF, a '"' doubled;
 * every other byte as it is. The rule of the record CSVs and of gmb table --format csv,
 * whose rows end in LF (RFC 4180 allows it; one ending for every row). Writes at most len
 * bytes with the '\0' to out (as snprintf does) and returns the length of the whole field. */
size_t gmb_csv_field(char *out, size_t len, const char *s);

/* Render a record's points as CSV: the params of every point (in the order they first
 * appear), then for each metric of any point median,ci_lo,ci_hi,min,max, then time_ns, n,
 * converged and the points' extra scalar fields; a point without a field leaves its cell
 * empty. Every cell and name follows gmb_csv_clean (the data files of gnuplot, which reads
 * no quotes): every line has the same columns. Returns a malloc'd string or NULL. */
char *gmb_record_csv(const json_t *record);
/* The same with every cell and name a field of gmb_csv_field (RFC 4180, kept whole; rows
 * end in LF): the .csv file of a record (gmb_record_write). */
char *gmb_record_csv_rfc4180(const json_t *record);

/* Make a file-name-safe slug of a device name: lower case, [a-z0-9] runs joined by '-',
 * at most len-1 characters, never empty ("device"). */
void gmb_slug(const char *name, char *out, size_t len);

/* Create dir and its parents (mode 0755). 0 or GMB_ERUNTIME. */
int gmb_mkdirs(const char *dir);

/* Publish n files dir/<stem>[-k].<ext[i]> atomically (each written to a temporary file,
 * then hard-linked to its name, which fails rather than overwrite). The first k (1: no
 * suffix, then -2, -3 ...) for which no name exists is used; the chosen path without
 * extension goes to out_stem. 0 or GMB_ERUNTIME (nothing left behind). */
int gmb_publish(const char *dir, const char *stem, int n, const char *const *ext,
                const char *const *data, char *out_stem, size_t out_len);

/* Write a record (JSON, and CSV from its points) under dir as <stem>.json and .csv.
 * Paths chosen go to out_stem. 0 or GMB_ERUNTIME. */
/* A file written whole or not at all: gmb_file_new opens a fresh temporary beside path (its
 * name in tmp, len bytes; mode 0666 less the umask), NULL on failure; gmb_file_commit closes
 * it and renames it over path (a link there is replaced, never followed), 0 or GMB_ERUNTIME
 * with errno, and no temporary left either way. */
FILE *gmb_file_new(const char *path, char *tmp, size_t len);
int gmb_file_commit(FILE *f, const char *tmp, const char *path);

/* The longest --out directory a record is written under (its files' names come after). */
#define GMB_OUT_MAX 3800

/* Before a measurement: can a record be written under dir later? Creates nothing: the nearest
 * existing part of the path must be a directory that takes a file. 0; GMB_EUSAGE (empty,
 * too long, a file in the way) or GMB_ERUNTIME (not writable) with the reason in why. */
int gmb_out_check(const char *dir, char *why, size_t len);

int gmb_record_write(const json_t *record, const char *dir, const char *stem, char *out_stem,
                     size_t out_len);

/* Open path to read if it is a regular file of at most max bytes (max 0: any size): a FIFO,
 * device, socket or directory is opened without blocking, checked with fstat and closed
 * unread. The FILE, or NULL with err set (one line naming path). */
FILE *gmb_fopen_regular(const char *path, long long max, char *err, size_t errlen);

/* Load and check a record: a regular file (a FIFO, device, socket or directory is never
 * read: opened without blocking, checked with fstat, then read through that descriptor),
 * JSON syntax, schema name, a schema version this build reads (newer ones load with a
 * warning in err). Returns the JSON or NULL with err set (one line naming path). */
json_t *gmb_record_load(const char *path, char *err, size_t errlen);

#endif
