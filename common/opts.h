/* opts.h - option tables (data, not code), strict number/size parsing and size sweeps. */
#ifndef GMB_OPTS_H
#define GMB_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Kinds of option value. */
typedef enum {
    GMB_OPT_FLAG,   /* no argument; int set to 1 */
    GMB_OPT_INT,    /* long, range-checked */
    GMB_OPT_DOUBLE, /* double, range-checked */
    GMB_OPT_SIZE,   /* uint64_t bytes with K/M/G, KiB/MiB/GiB, KB/MB/GB suffixes */
    GMB_OPT_SWEEP,  /* gmb_sweep_t: list and/or ranges of sizes */
    GMB_OPT_STR,    /* const char *, optionally one of choices */
    GMB_OPT_LIST,   /* gmb_list_t: comma list of choices (or "all") */
    GMB_OPT_INTS,   /* gmb_ints_t: comma list of integers and ranges in [min, max] (min >= 0),
                       choices as words (gmb_parse_ints) */
} gmb_opt_type_t;

/* One option: the same table parses, range-checks and prints --help. */
typedef struct gmb_opt {
    const char *name;           /* long name, without "--" */
    gmb_opt_type_t type;        /* value kind */
    size_t offset;              /* where the value lives in the config struct */
    const char *metavar;        /* shown in --help ("SIZE", "N") */
    const char *def;            /* default, as text parsed like the argument; NULL: none */
    double min, max;            /* range for INT, DOUBLE and SIZE (inclusive); min>max: none */
    const char *const *choices; /* NULL-terminated, for STR and LIST; NULL: free text */
    const char *help;           /* one line */
    int hidden;                 /* 1: not shown in --help (test aids) */
} gmb_opt_t;

#define GMB_MAX_SWEEP 4096 /* most points one sweep may hold */
#define GMB_MAX_LIST  32   /* most items one list may hold */

/* A sorted, de-duplicated list of sizes in bytes. */
typedef struct gmb_sweep {
    size_t n;                  /* number of points */
    uint64_t v[GMB_MAX_SWEEP]; /* sizes in bytes, ascending */
    int set;                   /* 1 when given on the command line or by default */
} gmb_sweep_t;

/* A list of chosen items (indices into the option's choices). */
typedef struct gmb_list {
    size_t n;              /* number of items */
    int idx[GMB_MAX_LIST]; /* indices into choices, in the order given */
} gmb_list_t;

#define GMB_MAX_INTS 1024 /* most values one list of integers may hold */

/* A list of integers (GMB_OPT_INTS): values >= 0, and words (GMB_INTS_WORD(k) for the k-th
 * of the option's choices), in the order given, repeats dropped. */
typedef struct gmb_ints {
    size_t n;
    long v[GMB_MAX_INTS];
} gmb_ints_t;
#define GMB_INTS_WORD(k) (-1L - (long)(k))

/* Parse a signed integer strictly (whole string, no overflow). 0 or GMB_EUSAGE. */
int gmb_parse_long(const char *s, long *out);
/* Parse a finite double strictly. 0 or GMB_EUSAGE. */
int gmb_parse_double(const char *s, double *out);
/* Parse a size: "4096", "4K", "4KiB", "1.5GiB", "2MB". K/M/G/T and KiB.. are powers of 1024,
 * KB/MB/GB/TB powers of 1000. Rejects zero, negatives, fractions of a byte, overflow.
 * 0 or GMB_EUSAGE. */
int gmb_parse_size(const char *s, uint64_t *out);
/* Parse a sweep: comma-separated items, each a size or a range "A:B[:STEP]" with STEP
 * "xF" (multiply, default x2), "+S" (add a size) or "N/oct" (N points per octave, rounded
 * to whole bytes). Result sorted and de-duplicated. 0 or GMB_EUSAGE (message in err). */
int gmb_parse_sweep(const char *s, gmb_sweep_t *out, char *err, size_t errlen);
/* Round every size of s down to a multiple of unit (> 0: an element, a stride, a page), drop
 * the sizes that become 0 and the repeats (s stays ascending). Returns the sizes left. */
size_t gmb_sweep_round(gmb_sweep_t *s, uint64_t unit);
/* Parse a comma list against choices ("all" = every choice). 0 or GMB_EUSAGE. */
int gmb_parse_list(const char *s, const char *const *choices, gmb_list_t *out, char *err,
                   size_t errlen);

/* Parse a comma list of integers in [min, max] (min >= 0) and ranges A:B or A:B:STEP (A <= B,
 * STEP >= 1: A, A + STEP, ... up to B), each item also one of words (NULL: none), which
 * stands for GMB_INTS_WORD(its index). In the order given, repeats dropped, at most
 * GMB_MAX_INTS. 0 or GMB_EUSAGE (message in err). */
int gmb_parse_ints(const char *s, double min, double max, const char *const *words, gmb_ints_t *out,
                   char *err, size_t errlen);

/* Apply one option's text value into cfg (range and choice checks included).
 * 0 or GMB_EUSAGE with a one-line reason in err. */
int gmb_opt_apply(const gmb_opt_t *o, const char *arg, void *cfg, char *err, size_t errlen);
/* One option table and the struct its offsets point into. */
typedef struct gmb_opt_set {
    const gmb_opt_t *table;
    void *cfg;
} gmb_opt_set_t;

/* Parse the options of argv[1..argc-1] (argv[0] names the command) against the tables of
 * sets, as getopt_long does: long names or their unique abbreviations (a hidden option only
 * spelled in full), "--name VALUE" or "--name=VALUE", -h as --help where a table has "help",
 * options and operands in any order, "--" ending the options. The operands are moved to
 * argv[*first..argc-1] in their order. An error is one line on stderr naming the option,
 * with "(see SEE)" after it. 0, GMB_EUSAGE, or GMB_ERUNTIME (no memory). */
int gmb_opt_parse(const gmb_opt_set_t *sets, size_t nsets, int argc, char **argv, const char *see,
                  int *first);
/* Set every option's default into cfg. 0 or GMB_EUSAGE (a broken table). */
int gmb_opt_defaults(const gmb_opt_t *table, void *cfg, char *err, size_t errlen);
/* Print the help lines of a table (NULL name ends it). */
void gmb_opt_help(const gmb_opt_t *table, FILE *f);

/* The same lines as a man page's option list (roff .TP paragraphs), hidden ones left out. */
void gmb_opt_man(const gmb_opt_t *table, FILE *f);

/* Plain text S as roff body text: backslashes and hyphens escaped, and a line that would
 * start with a control character (a dot or an apostrophe) made literal. */
void gmb_man_text(const char *s, FILE *f);
/* Number of entries in a table. */
size_t gmb_opt_count(const gmb_opt_t *table);

#endif
