/* help.c - the help of bin/gmb's subcommands: one table (tools.h: gmb_cmd_help) that gmb
 * --help, gmb CMD --help and gmb help CMD print, and that a man page can be made from. */
#include "tools/tools.h"

#include <string.h>

const gmb_cmd_help_t gmb_cmd_help[] = {
    {"list", "gmb list",
     "Every benchmark program found next to gmb (bin/gmb-NAME) and what it measures, one line "
     "each.",
     ""},
    {"devices", "gmb devices [--json]",
     "The devices of every backend built in: name, memory, compute units, clocks, bus, peak "
     "bandwidth, memory type, ECC, driver, board and the host side near each. Exit 77 with the "
     "reason on stderr when there is none.",
     "--json\tone JSON array on stdout instead, an object per device of every backend (the "
     "device object of a record, with the host side near it); [] and exit 77 when there is "
     "none\n"},
    {"run",
     "gmb run NAME [options]\n"
     "gmb run [--full|--quick] [--backend B] [--device N] [--out DIR] [--only LIST] "
     "[--skip LIST] [--profiles FILE] [--timeout S] [-- OPTIONS]",
     "With a NAME, run that benchmark with its own options (gmb run NAME --help). Without, run "
     "every benchmark on one device, the quick profile by default, into a new run directory "
     "DIR/<device>/<UTC>/ with the records and a run.json manifest; its path is printed.",
     "--full\tthe full profile (long sweeps)\n"
     "--quick\tthe quick profile (the default)\n"
     "--backend B\tauto, cuda or opencl (default auto: the first with a device)\n"
     "--device N\tthe device index within the backend (see gmb devices; default 0)\n"
     "--out DIR\tthe results root the run directory is made under (default results)\n"
     "--results DIR\tthe same as --out DIR\n"
     "--only LIST\tonly these benchmarks (comma-separated names)\n"
     "--skip LIST\tnot these benchmarks (comma-separated names)\n"
     "--profiles FILE\tthe profiles file (default plots/profiles.conf; one named here must be "
     "a readable file)\n"
     "--timeout S\tstop a program after S seconds (default 10 x its estimate, at least 300)\n"
     "-- OPTIONS\toptions given to every benchmark after its profile's (not --out, --device, "
     "--backend, which gmb run sets, nor --no-record, --list-devices, --help, --version)\n"},
    {"plot", "gmb plot RUN... [--out DIR] [--pdf] [--size WxH] [--plots DIR]",
     "Figures (PNG and SVG, PDF with --pdf) of every benchmark with a gnuplot script, one colour "
     "per run. RUN: a run directory or record files (.json).",
     "--out DIR\twhere the figures go (default RUN/figures for one run, else ./figures)\n"
     "--pdf\talso PDF\n"
     "--size WxH\tPNG size in pixels (default 960x600)\n"
     "--plots DIR\tthe gnuplot scripts (default the installed ones)\n"},
    {"table", "gmb table RUN... [--levels] [--format md|tex|csv] [--rows LIST] [--out FILE]",
     "The summary table of the runs, one column per run: medians with their 95% confidence "
     "intervals. RUN: a run directory or record files (.json).",
     "--format F\tmd (Markdown, the default), tex (LaTeX, \\usepackage{array}: as wide as "
     "the text, \\small, labels and values wrap in p columns, plain numbers) or csv (RFC 4180, "
     "rows end in LF)\n"
     "--levels\tbandwidth by level: the bandwidth of each level of the hierarchy (L1, shared "
     "memory, L2, its near and far plateaus where gmb-l2 found two, DRAM, host and peer links), "
     "from the core outwards, with its 95% CI and the "
     "program and method that measured it (--rows then numbers these rows)\n"
     "--rows LIST\tonly these rows, in the table's order: comma-separated items, each a row's "
     "1-based number in the full table (see it once without --rows), a range N-M, or text that "
     "a row's label contains (case-insensitive); a label with a comma is picked by its number\n"
     "--out FILE\twrite to FILE (its name is printed) instead of stdout\n"},
    {"report", "gmb report RUN [--out FILE|-]",
     "A Markdown page of a gmb run directory: device and host, each program's status and "
     "summary, the table, the cross-checks and the figures (made by gmb plot).",
     "--out FILE\twrite to FILE, - for stdout (default RUN/report.md, mode 0644 less the "
     "umask)\n"},
    {"compare", "gmb compare A B [--headline] [--fail-below PCT] [--alpha P]",
     "Compare two runs: first the headline (the rows of gmb table side by side: A, B, B/A and "
     "a verdict from their 95% CIs, 'n/a (no samples)' without), then every metric of every "
     "point in both: medians, B/A, change, Mann-Whitney p, n and verdict. Says when A and B are "
     "different devices; warns "
     "once on stderr of points with fewer than 9 samples (their n is marked *). A, B: a "
     "run directory or record files (.json).",
     "--headline\tonly the headline\n"
     "--alpha P\tthe significance level of the verdicts, in (0, 1) (default 0.05)\n"
     "--fail-below PCT\texit 1 when a metric is significantly worse in B by more than PCT "
     "percent (its row says REGRESSION)\n"},
    {"help", "gmb help [CMD]", "This help, or the help of CMD (the same as gmb CMD --help).", ""},
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
    if (!h->options[0])
        return;
    fprintf(f, "\noptions:\n");
    for (const char *s = h->options; *s;) {
        size_t l = strcspn(s, "\n");
        const char *tab = memchr(s, '\t', l);
        size_t ol = tab ? (size_t)(tab - s) : l;
        fprintf(f, "  %-18.*s", (int)ol, s);
        int col = 2 + (ol > 18 ? (int)ol : 18);
        if (ol >= 18) {
            fprintf(f, "\n%*s", 21, "");
            col = 21;
        } else {
            fputc(' ', f);
            col = 21;
        }
        if (tab)
            wrap(f, tab + 1, l - ol - 1, col, 21);
        else
            fputc('\n', f);
        s += l + (s[l] == '\n');
    }
    fprintf(f, "  %-18s %s\n", "-h, --help", "this help");
}
