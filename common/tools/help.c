/* help.c - the help of bin/gmb's subcommands: one table (help.h: gmb_cmd_help) that gmb
 * --help, gmb CMD --help and gmb help CMD print, and that a man page can be made from. */
#include "tools/help.h"
#include "tools/plot.h"
#include "tools/suite.h"
#include "gmb.h"

#include <stddef.h>
#include <string.h>

static const char *const backends[] = {"auto", "cuda", "opencl", NULL};
static const char *const formats[] = {"md", "tex", "csv", NULL};

/* Each command's options: a table as a program's (opts.h), into its struct (help.h, plot.h,
 * suite.h). */
#define O(type, field) offsetof(type, field)
static const gmb_opt_t devices_opts[] = {
    {"json", GMB_OPT_FLAG, O(gmb_devices_opts_t, json), NULL, NULL, 1, 0, NULL,
     "one JSON array on stdout instead, an object per device of every backend (the device "
     "object of a record, with the host side near it); [] and exit 77 when there is none",
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
static const char *const device_words[] = {"all", NULL};
static const gmb_opt_t run_opts[] = {
    {"full", GMB_OPT_FLAG, O(gmb_suite_opts_t, full), NULL, NULL, 1, 0, NULL,
     "the full profile (long sweeps)", 0},
    {"quick", GMB_OPT_FLAG, O(gmb_suite_opts_t, quick), NULL, NULL, 1, 0, NULL,
     "the quick profile (the default)", 0},
    {"backend", GMB_OPT_STR, O(gmb_suite_opts_t, backend), "B", "auto", 1, 0, backends,
     "the compute API; auto: the first with a device", 0},
    {"device", GMB_OPT_INT, O(gmb_suite_opts_t, device), "N", "0", 0, 1e6, NULL,
     "the device index within the backend (see gmb devices)", 0},
    {"devices", GMB_OPT_INTS, O(gmb_suite_opts_t, devices), "LIST", NULL, 0, 1e6, device_words,
     "all (every device of the backend) or device indices, comma-separated: the suite on each "
     "in turn, then the peer matrix (gmb-copy's peers profile) and the machine's summary, all "
     "in DIR/machine-<host>/<UTC>/ (replaces --device)",
     0},
    {"out", GMB_OPT_STR, O(gmb_suite_opts_t, results), "DIR", "results", 1, 0, NULL,
     "the results root the run directory is made under", 0},
    {"results", GMB_OPT_STR, O(gmb_suite_opts_t, results), "DIR", NULL, 1, 0, NULL,
     "the same as --out DIR", 0},
    {"only", GMB_OPT_STR, O(gmb_suite_opts_t, only), "LIST", NULL, 1, 0, NULL,
     "only these benchmarks (comma-separated names)", 0},
    {"skip", GMB_OPT_STR, O(gmb_suite_opts_t, skip), "LIST", NULL, 1, 0, NULL,
     "not these benchmarks (comma-separated names)", 0},
    {"profiles", GMB_OPT_STR, O(gmb_suite_opts_t, profiles), "FILE", NULL, 1, 0, NULL,
     "the profiles file (one named here must be a readable file) [default "
     "plots/profiles.conf]",
     0},
    {"timeout", GMB_OPT_DOUBLE, O(gmb_suite_opts_t, timeout_s), "S", NULL, 0.001, 1e9, NULL,
     "stop a program after S seconds [default 10 x its estimate, at least 300]", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
static const gmb_opt_t plot_opts[] = {
    {"out", GMB_OPT_STR, O(gmb_plot_opts_t, out), "DIR", NULL, 1, 0, NULL,
     "where the figures go [default RUN/figures for one run, else ./figures]", 0},
    {"pdf", GMB_OPT_FLAG, O(gmb_plot_opts_t, pdf), NULL, NULL, 1, 0, NULL, "also PDF", 0},
    {"size", GMB_OPT_STR, O(gmb_plot_opts_t, size), "WxH", "960x600", 1, 0, NULL,
     "PNG size in pixels, from 200x150 to 10000x10000", 0},
    {"plots", GMB_OPT_STR, O(gmb_plot_opts_t, plots), "DIR", NULL, 1, 0, NULL,
     "the gnuplot scripts [default the installed ones]", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
static const gmb_opt_t table_opts[] = {
    {"format", GMB_OPT_STR, O(gmb_table_opts_t, format), "F", "md", 1, 0, formats,
     "md (Markdown), tex (LaTeX, \\usepackage{array}: as wide as the text, \\small, labels and "
     "values wrap in p columns, plain numbers) or csv (RFC 4180, rows end in LF)",
     0},
    {"levels", GMB_OPT_FLAG, O(gmb_table_opts_t, levels), NULL, NULL, 1, 0, NULL,
     "bandwidth by level: the bandwidth of each level of the hierarchy (L1, shared memory, L2, "
     "its near and far plateaus where gmb-l2 found two, DRAM, host and peer links), from the "
     "core outwards, with its 95% CI and the program and method that measured it (--rows then "
     "numbers these rows)",
     0},
    {"rows", GMB_OPT_STR, O(gmb_table_opts_t, rows), "LIST", NULL, 1, 0, NULL,
     "only these rows, in the table's order: comma-separated items, each a row's 1-based "
     "number in the full table (see it once without --rows), a range N-M, or text that a "
     "row's label contains (case-insensitive); a label with a comma is picked by its number",
     0},
    {"out", GMB_OPT_STR, O(gmb_table_opts_t, out), "FILE", NULL, 1, 0, NULL,
     "write to FILE (its name is printed) instead of stdout", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
static const gmb_opt_t report_opts[] = {
    {"out", GMB_OPT_STR, O(gmb_report_opts_t, out), "FILE", NULL, 1, 0, NULL,
     "write to FILE, - for stdout (mode 0644 less the umask) [default RUN/report.md]", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
static const gmb_opt_t compare_opts[] = {
    {"headline", GMB_OPT_FLAG, O(gmb_compare_opts_t, headline), NULL, NULL, 1, 0, NULL,
     "only the headline", 0},
    {"alpha", GMB_OPT_DOUBLE, O(gmb_compare_opts_t, alpha), "P", "0.05", 0, 1, NULL,
     "the significance level of the verdicts, in (0, 1)", 0},
    {"fail-below", GMB_OPT_DOUBLE, O(gmb_compare_opts_t, fail_below), "PCT", NULL, 0, 1e9, NULL,
     "exit 1 when a metric is significantly worse in B by more than PCT percent (its row says "
     "REGRESSION)",
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
/* -h, --help: every command's */
static const gmb_opt_t help_opt[] = {
    {"help", GMB_OPT_FLAG, 0, NULL, NULL, 1, 0, NULL, "this help", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};

const gmb_cmd_help_t gmb_cmd_help[] = {
    {"list", "gmb list",
     "Every benchmark program found next to gmb (bin/gmb-NAME) and what it measures, one line "
     "each.",
     NULL},
    {"devices", "gmb devices [--json]",
     "The devices of every backend built in: name, memory, compute units, clocks, bus, peak "
     "bandwidth, memory type, ECC, driver, board and the host side near each. Exit 77 with the "
     "reason on stderr when there is none.",
     devices_opts},
    {"run",
     "gmb run NAME [options]\n"
     "gmb run [--full|--quick] [--backend B] [--device N | --devices all|LIST] [--out DIR] "
     "[--only LIST] [--skip LIST] [--profiles FILE] [--timeout S] [-- OPTIONS]",
     "With a NAME, run that benchmark with its own options (gmb run NAME --help). Without, run "
     "every benchmark on one device, the quick profile by default, into a new run directory "
     "DIR/<device>/<UTC>/ with the records and a run.json manifest; its path is printed. "
     "-- OPTIONS: options given to every benchmark after its profile's (not --out, --device, "
     "--backend, which gmb run sets, nor --no-record, --list-devices, --help, --version).",
     run_opts},
    {"plot", "gmb plot RUN... [--out DIR] [--pdf] [--size WxH] [--plots DIR]",
     "Figures (PNG and SVG, PDF with --pdf) of every benchmark with a gnuplot script, one colour "
     "per run. RUN: a run directory or record files (.json).",
     plot_opts},
    {"table", "gmb table RUN... [--levels] [--format md|tex|csv] [--rows LIST] [--out FILE]",
     "The summary table of the runs, one column per run: medians with their 95% confidence "
     "intervals. RUN: a run directory or record files (.json).",
     table_opts},
    {"report", "gmb report RUN [--out FILE|-]",
     "A Markdown page of a gmb run directory: device and host, each program's status and "
     "summary, the table, the cross-checks and the figures (made by gmb plot).",
     report_opts},
    {"compare", "gmb compare A B [--headline] [--fail-below PCT] [--alpha P]",
     "Compare two runs: first the headline (the rows of gmb table side by side: A, B, B/A and "
     "a verdict from their 95% CIs, 'n/a (no samples)' without), then every metric of every "
     "point in both: medians, B/A, change, Mann-Whitney p, n and verdict. Says when A and B are "
     "different devices; warns "
     "once on stderr of points with fewer than 9 samples (their n is marked *). A, B: a "
     "run directory or record files (.json).",
     compare_opts},
    {"help", "gmb help [CMD]", "This help, or the help of CMD (the same as gmb CMD --help).", NULL},
    {NULL, NULL, NULL, NULL},
};

const gmb_cmd_help_t *gmb_cmd_help_find(const char *name)
{
    for (const gmb_cmd_help_t *h = gmb_cmd_help; h->name; h++)
        if (!strcmp(h->name, name))
            return h;
    return NULL;
}

/* Print text from column col (the cursor is there) wrapped at 79, continuation lines
 * indented by ind; a newline ends the text. */
static void wrap(FILE *f, const char *s, size_t len, int col, int ind)
{
    const char *end = s + len;
    int fresh = 1; /* no word on this line yet */
    while (s < end) {
        while (s < end && *s == ' ')
            s++;
        if (s == end)
            break;
        const char *w = s;
        while (w < end && *w != ' ')
            w++;
        int wl = (int)(w - s);
        if (!fresh && col + 1 + wl > 79) {
            fprintf(f, "\n%*s", ind, "");
            col = ind;
        } else if (!fresh) {
            fputc(' ', f);
            col++;
        }
        fresh = 0;
        fprintf(f, "%.*s", wl, s);
        col += wl;
        s = w;
    }
    fputc('\n', f);
}

/* The synopsis lines of h, the first after lead ("usage: " or 7 blanks). */
static void synopsis(FILE *f, const gmb_cmd_help_t *h, int first)
{
    for (const char *s = h->synopsis; *s;) {
        size_t l = strcspn(s, "\n");
        fputs(first ? "usage: " : "       ", f);
        first = 0;
        /* continuation lines under the command's first option */
        const char *sp = memchr(s, ' ', l);
        const char *sp2 = sp ? memchr(sp + 1, ' ', l - (size_t)(sp + 1 - s)) : NULL;
        int ind = 7 + (sp2 ? (int)(sp2 - s + 1) : (int)l);
        if (ind > 30)
            ind = 15;
        wrap(f, s, l, 7, ind);
        s += l + (s[l] == '\n');
    }
}

void gmb_cmd_usage(FILE *f)
{
    int first = 1;
    for (const gmb_cmd_help_t *h = gmb_cmd_help; h->name; h++) {
        synopsis(f, h, first);
        first = 0;
        fprintf(f, "%*s", 15, "");
        wrap(f, h->summary, strlen(h->summary), 15, 15);
    }
    fprintf(f, "       gmb --version\n"
               "gmb CMD --help (or gmb help CMD): the options of CMD.\n");
}

void gmb_cmd_print_help(FILE *f, const gmb_cmd_help_t *h)
{
    synopsis(f, h, 1);
    fputc('\n', f);
    wrap(f, h->summary, strlen(h->summary), 0, 0);
    fprintf(f, "\noptions:\n");
    gmb_opt_help(h->opts, f);
    gmb_opt_help(help_opt, f);
}

int gmb_cmd_parse(const gmb_cmd_help_t *h, void *cfg, int argc, char **argv, int *first, int *help)
{
    char err[768], see[64];
    *help = 0;
    if (gmb_opt_defaults(h->opts, cfg, err, sizeof err)) {
        gmb_error("bad option table: %s", err);
        return 3;
    }
    snprintf(see, sizeof see, "gmb %s --help", h->name);
    const gmb_opt_set_t sets[] = {{h->opts, cfg}, {help_opt, help}};
    int rc = gmb_opt_parse(sets, 2, argc - 1, argv + 1, see, first);
    *first += 1;
    return rc == GMB_EUSAGE ? 2 : rc ? 3 : 0;
}
