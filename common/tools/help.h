/* help.h - bin/gmb's commands: their help, their option tables and gmb(1) (help.c, manpage.c). */
#ifndef GMB_TOOLS_HELP_H
#define GMB_TOOLS_HELP_H

#include "opts.h"

#include <stdio.h>

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

#endif
