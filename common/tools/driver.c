/* driver.c - bin/gmb: list benchmarks and devices, run one or all (found by glob), and
 * plot, tabulate and compare their records. */
#include "gmb.h"
#include "harness.h"
#include "host.h"
#include "json.h"
#include "tools/help.h"
#include "tools/runset.h"
#include "tools/runreport.h"
#include "tools/table.h"
#include "tools/compare.h"
#include "tools/plot.h"
#include "tools/machine.h"
#include "tools/suite.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PROGS 64

static char bindir[PATH_MAX];

/* Names of the benchmark programs next to this one (gmb-<name>), sorted. */
static int find_benches(char **names, int max)
{
    DIR *d = opendir(bindir);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max)
        if (!strncmp(e->d_name, "gmb-", 4) && e->d_name[4]) {
            char p[PATH_MAX + 300];
            snprintf(p, sizeof p, "%s/%s", bindir, e->d_name);
            if (!access(p, X_OK))
                names[n++] = strdup(e->d_name + 4);
        }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, gmb_cmp_str);
    return n;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

/* Run gmb-<name> with args; what it prints on standard output comes through a pipe onto
 * ours, so that a standard output that cannot be written is this process's one error. */
static int run_prog(const char *name, char **args, int nargs)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/gmb-%s", bindir, name);
    char **argv = calloc((size_t)nargs + 2, sizeof *argv);
    int fd[2];
    if (!argv || pipe(fd)) {
        free(argv);
        return 3;
    }
    argv[0] = path;
    for (int i = 0; i < nargs; i++)
        argv[i + 1] = args[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execv(path, argv);
        gmb_error("cannot run %s: %s", path, strerror(errno));
        _exit(3);
    }
    free(argv);
    close(fd[1]);
    char buf[4096];
    ssize_t r;
    while ((r = read(fd[0], buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR))
        if (r > 0)
            fwrite(buf, 1, (size_t)r, stdout);
    close(fd[0]);
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return 3;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

/* The directory of gnuplot scripts and run profiles: $GMB_PLOTS, else next to the
 * programs (bin/../plots, build/san/bin/../../../plots, PREFIX/share/gmb/plots). */
static void find_plots(char *out, size_t len)
{
    char p[PATH_MAX + 64];
    const char *env = getenv("GMB_PLOTS");
    if (env && *env) {
        gmb_strlcpy(out, env, len);
        return;
    }
    const char *rel[] = {"../plots", "../../../plots", "../share/gmb/plots"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        snprintf(p, sizeof p, "%s/%s/style.gp", bindir, rel[i]);
        if (!access(p, R_OK)) {
            p[strlen(p) - 9] = '\0'; /* without "/style.gp" */
            char *real = realpath(p, NULL);
            gmb_strlcpy(out, real ? real : p, len);
            free(real);
            return;
        }
    }
    snprintf(p, sizeof p, "%s/../plots", bindir);
    gmb_strlcpy(out, p, len);
}

static void usage(FILE *f)
{
    gmb_cmd_usage(f);
}

/* gmb CMD --help */
static int cmd_help(const char *cmd)
{
    const gmb_cmd_help_t *h = gmb_cmd_help_find(cmd);
    if (!h) {
        gmb_error("no command '%s' (see gmb --help)", cmd);
        return 2;
    }
    gmb_cmd_print_help(stdout, h);
    return 0;
}

/* Parse gmb CMD's options into cfg: 0, 2 or 3 as gmb_cmd_parse, or -1 after printing its
 * help (-h, --help). */
static int parse(const char *cmd, void *cfg, int argc, char **argv, int *first)
{
    int help, rc = gmb_cmd_parse(gmb_cmd_help_find(cmd), cfg, argc, argv, first, &help);
    if (!rc && help)
        return cmd_help(cmd) ? 2 : -1;
    return rc;
}

static int cmd_suite(int argc, char **argv)
{
    gmb_suite_opts_t o;
    memset(&o, 0, sizeof o);
    char plots[PATH_MAX], profiles[PATH_MAX + 32];
    /* the benchmarks' options after '--' are theirs: gmb run parses what comes before */
    int dd = 2;
    while (dd < argc && strcmp(argv[dd], "--"))
        dd++;
    int first, rc = parse("run", &o, dd, argv, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (first < dd) {
        gmb_error("unexpected argument '%s' for gmb run (options for every benchmark go after "
                  "'--')",
                  argv[first]);
        return 2;
    }
    if (dd < argc) {
        o.extra = argv + dd + 1;
        o.nextra = argc - dd - 1;
    }
    if (o.full && o.quick) {
        gmb_error("--full and --quick: choose one profile");
        return 2;
    }
    o.profile = o.full ? "full" : "quick";
    if (!strcmp(o.results, "-") || !*o.results) { /* '-' is a program's stdout, not a root */
        gmb_error("--out '%s': a run is a directory of records; give a directory (a program's "
                  "--out - writes one record to standard output)",
                  o.results);
        return 2;
    }
    if (o.profiles) {
        o.profiles_given = 1;
    } else {
        find_plots(plots, sizeof plots);
        snprintf(profiles, sizeof profiles, "%s/profiles.conf", plots);
        o.profiles = profiles;
    }
    o.bindir = bindir;
    o.argc = argc;
    o.argv = argv;
    if (o.devices.n) {
        for (int k = 2; k < dd; k++)
            if (!strcmp(argv[k], "--device") || !strncmp(argv[k], "--device=", 9)) {
                gmb_error("--device and --devices: choose one (--devices N runs device N alone "
                          "as a machine run)");
                return 2;
            }
        rc = gmb_machine_run(&o);
    } else {
        rc = gmb_suite_run(&o);
    }
    if (o.rundir[0])
        printf("%s\n", o.rundir);
    return rc;
}

/* Load the run set of the RUN operands of a command: 0, or 2 after one line. */
static int load_runs(char **runs, int nruns, gmb_runset_t *rs)
{
    memset(rs, 0, sizeof *rs);
    if (!nruns) {
        gmb_error("no RUN given (a run directory or record files)");
        return 2;
    }
    if (gmb_runset_load(rs, runs, nruns, stderr)) {
        gmb_error("no readable record in the arguments");
        gmb_runset_free(rs);
        return 2;
    }
    return 0;
}

static int cmd_plot(int argc, char **argv)
{
    gmb_plot_opts_t o;
    memset(&o, 0, sizeof o);
    char plots[PATH_MAX], out[PATH_MAX + 16];
    int first, nsz = 0, rc = parse("plot", &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((sscanf(o.size, "%dx%d%n", &o.width, &o.height, &nsz) != 2 || o.size[nsz]) ||
        o.width < 200 || o.height < 150 || o.width > 10000 || o.height > 10000) {
        gmb_error("--size '%s': need WxH in pixels, e.g. 960x600", o.size);
        return 2;
    }
    if (!o.plots) {
        find_plots(plots, sizeof plots);
        o.plots = plots;
    }
    char **runs = argv + first;
    int nruns = argc - first;
    gmb_runset_t rs;
    if ((rc = load_runs(runs, nruns, &rs)))
        return rc;
    if (!o.out) { /* one run: its figures/ ; several: ./figures */
        struct stat st;
        if (rs.nruns == 1 && !stat(runs[0], &st) && S_ISDIR(st.st_mode))
            snprintf(out, sizeof out, "%s/figures", rs.runs[0].source);
        else if (rs.nruns == 1)
            snprintf(out, sizeof out, "%s/figures", rs.runs[0].source);
        else
            snprintf(out, sizeof out, "figures");
        o.out = out;
    }
    if (gmb_mkdirs(o.out)) {
        gmb_runset_free(&rs);
        return 3;
    }
    rc = gmb_plot(&rs, &o) ? 3 : 0;
    gmb_runset_free(&rs);
    return rc;
}

/* Keep the rows of t that LIST names (gmb table --rows): comma-separated items, each a
 * 1-based row number, a range N-M, or text a label contains (any case); in the table's
 * order. 0, or 2 with one line when an item names no row. */
static int select_rows(gmb_table_t *t, const char *list)
{
    if (!list[strspn(list, ", ")]) { /* '', ',,,': no item at all */
        gmb_error("--rows '%s': no row named (give row numbers, ranges N-M or label text)", list);
        return 2;
    }
    char *keep = calloc(t->nrows + 1, 1), *dup = strdup(list);
    int rc = 0;
    if (!keep || !dup) {
        free(keep);
        free(dup);
        return 3;
    }
    for (char *save = NULL, *it = strtok_r(dup, ",", &save); it && !rc;
         it = strtok_r(NULL, ",", &save)) {
        while (*it == ' ')
            it++;
        size_t l = strlen(it);
        while (l && it[l - 1] == ' ')
            it[--l] = '\0';
        unsigned long lo, hi;
        int used = 0, hit = 0;
        if (l &&
            (sscanf(it, "%lu-%lu%n", &lo, &hi, &used) == 2 ||
             (sscanf(it, "%lu%n", &lo, &used) == 1 && (hi = lo))) &&
            (size_t)used == l) {
            if (lo < 1 || hi < lo || hi > t->nrows) {
                gmb_error("--rows '%s': the table has rows 1 to %zu", it, t->nrows);
                rc = 2;
            }
            for (unsigned long r = lo; !rc && r <= hi; r++)
                keep[r - 1] = 1;
            continue;
        }
        for (size_t r = 0; l && r < t->nrows; r++)
            if (strcasestr(t->rows[r]->label, it))
                keep[r] = hit = 1;
        if (!hit) {
            gmb_error("--rows '%s': no row's label contains it (gmb table without --rows "
                      "lists them)",
                      it);
            rc = 2;
        }
    }
    if (!rc) { /* compact rows and cells in place */
        size_t n = 0;
        t->notes = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            if (!keep[r])
                continue;
            t->rows[n] = t->rows[r];
            memmove(&t->cells[n * t->ncols], &t->cells[r * t->ncols], t->ncols * sizeof *t->cells);
            for (size_t c = 0; c < t->ncols; c++)
                t->notes |= t->cells[n * t->ncols + c].note;
            n++;
        }
        t->nrows = n;
    }
    free(keep);
    free(dup);
    return rc;
}

/* Write len bytes of data to path whole or not at all: under a temporary name beside it, then
 * renamed over it (an earlier file survives a full disk; a link at path is replaced, never
 * followed). Mode 0666 less the umask, as fopen would make it. 0, or 3 with the reason. */
static int put_file(const char *path, const char *data, size_t len)
{
    char tmp[PATH_MAX + 32];
    FILE *f = gmb_file_new(path, tmp, sizeof tmp);
    if (f)
        fwrite(data, 1, len, f);
    if (!f || gmb_file_commit(f, tmp, path)) {
        gmb_error("cannot write %s: %s", path, strerror(errno ? errno : EIO));
        return 3;
    }
    return 0;
}

static int cmd_table(int argc, char **argv)
{
    gmb_table_opts_t o = {0};
    int first, rc = parse("table", &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    gmb_runset_t rs;
    if ((rc = load_runs(argv + first, argc - first, &rs)))
        return rc;
    gmb_table_t t;
    char *s = NULL;
    if (gmb_table_build(&rs, &t)) {
        gmb_error("cannot build the table");
        gmb_runset_free(&rs);
        return 3;
    }
    if (o.levels && gmb_table_levels(&t)) {
        gmb_table_free(&t);
        gmb_runset_free(&rs);
        return 3;
    }
    if (o.rows && (rc = select_rows(&t, o.rows))) {
        gmb_table_free(&t);
        gmb_runset_free(&rs);
        return rc;
    }
    if (!(s = gmb_table_render(&t, o.format))) {
        gmb_error("cannot build the table");
        rc = 3;
    } else if (o.out) {
        if (!(rc = put_file(o.out, s, strlen(s))))
            printf("%s\n", o.out);
    } else {
        fputs(s, stdout);
    }
    free(s);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
    return rc;
}

static int cmd_report(int argc, char **argv)
{
    gmb_report_opts_t o = {0};
    int first, rc = parse("report", &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (first == argc) {
        gmb_error("no RUN given (a run directory of gmb run)");
        return 2;
    }
    if (argc - first > 1) {
        gmb_error("gmb report takes one RUN directory");
        return 2;
    }
    const char *dir = argv[first], *outf = o.out;
    /* the figures' links: relative for a page in RUN, else RUN's own path */
    char def[PATH_MAX + 16], rdir[PATH_MAX], odir[PATH_MAX], figs[PATH_MAX + 16] = "figures";
    if (!outf) {
        snprintf(def, sizeof def, "%s/report.md", dir);
        outf = def;
    }
    char *oc = strdup(outf);
    int here = oc && strcmp(outf, "-") && realpath(dir, rdir) && realpath(dirname(oc), odir) &&
               !strcmp(rdir, odir);
    free(oc);
    if (!here && realpath(dir, rdir))
        snprintf(figs, sizeof figs, "%s/figures", rdir);
    /* the page in memory first: a bad RUN writes nothing */
    char *page = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&page, &len);
    if (!mf)
        return 3;
    rc = gmb_run_report(dir, figs, mf);
    if (fclose(mf) && !rc)
        rc = GMB_ERUNTIME;
    if (rc) {
        free(page);
        if (rc != GMB_EUSAGE)
            gmb_error("cannot make the report of %s", dir);
        return rc == GMB_EUSAGE ? 2 : 3;
    }
    if (!strcmp(outf, "-")) {
        rc = fwrite(page, 1, len, stdout) == len ? 0 : 3;
        free(page);
        return rc;
    }
    rc = put_file(outf, page, len);
    free(page);
    if (!rc)
        printf("%s\n", outf);
    return rc;
}

/* A ratio with 3 significant digits, never 0.000 for a small one ("0.769", "0.000251",
 * "1.34e+04"). */
static void fmt_ratio(double r, char *buf, size_t len)
{
    if (r != r || isinf(r))
        snprintf(buf, len, "%s", r != r ? "nan" : r > 0 ? "inf" : "-inf");
    else
        snprintf(buf, len, "%.3g", r);
}

/* Whether a headline quantity is better higher (1), lower (-1) or neither (0), by its unit. */
/* s (a record's text, NULL: "") as gmb_text_plain makes it, for one printf: a copy in one of
 * 8 buffers used in turn. */
static const char *plain(const char *s)
{
    static char buf[8][PATH_MAX + 64];
    static unsigned k;
    char *b = buf[k++ % 8];
    gmb_strlcpy(b, s ? s : "", sizeof buf[0]);
    gmb_text_plain(b);
    return b;
}

static int unit_better(const char *u)
{
    static const char *const up[] = {"GB/s", "Gop/s", "%", NULL};
    static const char *const down[] = {"ns", "us", "cycles", NULL};
    for (int i = 0; up[i]; i++)
        if (!strcmp(u, up[i]))
            return 1;
    for (int i = 0; down[i]; i++)
        if (!strcmp(u, down[i]))
            return -1;
    return 0;
}

/* A table cell as text ("4585 [4539, 4599]", "HBM, 6016-bit", "-"). */
static void fmt_cell(const gmb_cell_t *c, char *buf, size_t len)
{
    char v[48], lo[48], hi[48];
    if (!c || c->kind == 0) {
        snprintf(buf, len, "-");
    } else if (c->kind == 2) {
        snprintf(buf, len, "%s", c->text);
    } else {
        gmb_fmt_num(c->v, v, sizeof v);
        if (c->lo == c->lo && c->hi == c->hi) {
            gmb_fmt_num(c->lo, lo, sizeof lo);
            gmb_fmt_num(c->hi, hi, sizeof hi);
            snprintf(buf, len, "%s [%s, %s]", v, lo, hi);
        } else {
            snprintf(buf, len, "%s", v);
        }
    }
}

/* One headline row: a row of gmb table on each side. */
typedef struct {
    const gmb_row_t *row;
    const gmb_cell_t *a, *b;
} head_t;

/* The headline: the rows of gmb table of A and of B side by side, with B/A and a verdict
 * from the 95% CIs (the table keeps no raw samples: two CIs apart differ at about p < 0.01,
 * overlapping ones are not told apart). Prints it; returns 0 or 3. */
static int print_headline(const gmb_runset_t *ra, const gmb_runset_t *rb)
{
    gmb_table_t ta, tb;
    if (gmb_table_build(ra, &ta))
        return 3;
    if (gmb_table_build(rb, &tb)) {
        gmb_table_free(&ta);
        return 3;
    }
    head_t *h = calloc(ta.nrows + tb.nrows + 1, sizeof *h);
    size_t nh = 0;
    if (!h) {
        gmb_table_free(&ta);
        gmb_table_free(&tb);
        return 3;
    }
    for (size_t i = 0; i < ta.nrows; i++) { /* A's rows, then B's others, in table order */
        h[nh].row = ta.rows[i];
        h[nh].a = &ta.cells[i * ta.ncols];
        for (size_t j = 0; j < tb.nrows; j++)
            if (gmb_row_same(tb.rows[j], ta.rows[i]))
                h[nh].b = &tb.cells[j * tb.ncols];
        nh++;
    }
    for (size_t j = 0; j < tb.nrows; j++) {
        int seen = 0;
        for (size_t i = 0; i < ta.nrows; i++)
            seen |= gmb_row_same(tb.rows[j], ta.rows[i]);
        if (!seen) {
            h[nh].row = tb.rows[j];
            h[nh++].b = &tb.cells[j * tb.ncols];
        }
    }
    int wl = (int)strlen("quantity"), wu = (int)strlen("unit"), wa = 1, wb = 1;
    char ca[200], cb[200];
    for (size_t i = 0; i < nh; i++) {
        fmt_cell(h[i].a, ca, sizeof ca);
        fmt_cell(h[i].b, cb, sizeof cb);
        int l = (int)strlen(h[i].row->label), u = (int)strlen(h[i].row->unit);
        wl = l > wl ? l : wl;
        wu = u > wu ? u : wu;
        wa = (int)strlen(ca) > wa ? (int)strlen(ca) : wa;
        wb = (int)strlen(cb) > wb ? (int)strlen(cb) : wb;
    }
    printf("\nheadline (the rows of gmb table; A and B with their 95%% CI):\n");
    printf("%-*s  %-*s  %-*s  %-*s  %9s  %s\n", wl, "quantity", wu, "unit", wa, "A", wb, "B", "B/A",
           "verdict");
    for (size_t i = 0; i < nh; i++) {
        const gmb_cell_t *a = h[i].a, *b = h[i].b;
        char r[32] = "-";
        const char *verdict = "n/a (no samples)";
        fmt_cell(a, ca, sizeof ca);
        fmt_cell(b, cb, sizeof cb);
        if (a && b && a->kind == 1 && b->kind == 1) {
            if (a->v != 0)
                fmt_ratio(b->v / a->v, r, sizeof r);
            int dir = unit_better(h[i].row->unit);
            int ci = a->lo == a->lo && a->hi == a->hi && b->lo == b->lo && b->hi == b->hi;
            int apart = ci && (b->lo > a->hi || b->hi < a->lo);
            if (!ci)
                verdict = "n/a (no samples)";
            else if (!apart)
                verdict = "CIs overlap";
            else if (!dir)
                verdict = "differ (CIs apart)";
            else
                verdict =
                    (b->v > a->v) == (dir > 0) ? "B better (CIs apart)" : "B worse (CIs apart)";
        } else if (a && b && a->kind == 2 && b->kind == 2) {
            verdict = strcmp(a->text, b->text) ? "differ" : "same";
        } else {
            verdict = "-";
        }
        gmb_text_plain(ca);
        gmb_text_plain(cb);
        printf("%-*s  %-*s  %-*s  %-*s  %9s  %s\n", wl, plain(h[i].row->label), wu,
               plain(h[i].row->unit), wa, ca, wb, cb, r, verdict);
    }
    free(h);
    gmb_table_free(&ta);
    gmb_table_free(&tb);
    return 0;
}

/* Fewer samples than this a side: a weak verdict (Google Benchmark warns alike). */
#define FEW_SAMPLES 9

static int cmd_compare(int argc, char **argv)
{
    gmb_compare_opts_t o = {.fail_below = -1}; /* no --fail-below: never */
    int first, rc = parse("compare", &o, argc, argv, &first);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!(o.alpha > 0 && o.alpha < 1)) {
        gmb_error("--alpha: %g is outside (0, 1)", o.alpha);
        return 2;
    }
    if (argc - first > 2) {
        gmb_error("gmb compare takes two runs (A B), not '%s'", argv[first + 2]);
        return 2;
    }
    if (argc - first != 2) {
        gmb_error("gmb compare needs two runs: A B (run directories or record files)");
        return 2;
    }
    char **args = argv + first;
    double fail_below = o.fail_below, alpha = o.alpha;
    int headline_only = o.headline;
    gmb_runset_t ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    int la = gmb_runset_load(&ra, &args[0], 1, stderr);
    int lb = gmb_runset_load(&rb, &args[1], 1, stderr);
    if (la || lb) {
        gmb_error("no readable record in %s", la ? args[0] : args[1]);
        gmb_runset_free(&ra);
        gmb_runset_free(&rb);
        return 2;
    }
    gmb_cmp_t *rows = NULL;
    size_t n = 0;
    int benches = 0;
    for (size_t i = 0; i < ra.nrecs; i++) {
        const gmb_rec_t *a = gmb_runset_find(&ra, ra.recs[i].run, ra.recs[i].bench);
        if (a != &ra.recs[i])
            continue; /* the latest record of each benchmark */
        const gmb_rec_t *b = gmb_runset_find(&rb, 0, a->bench);
        if (!b) {
            fprintf(stderr, "gmb: note: %s: no %s record in %s\n", plain(a->bench), plain(a->bench),
                    plain(args[1]));
            continue;
        }
        benches++;
        gmb_compare_records(a->j, b->j, &rows, &n);
    }
    if (!n) {
        gmb_error("nothing to compare: no benchmark point is in both %s and %s", args[0], args[1]);
        free(rows);
        gmb_runset_free(&ra);
        gmb_runset_free(&rb);
        return 2;
    }
    /* every record string printed goes through plain(): records travel, and an ESC or a line
     * feed in a device name would drive the terminal or forge lines of this output */
    for (size_t i = 0; i < n; i++) {
        gmb_text_plain(rows[i].bench);
        gmb_text_plain(rows[i].point);
        gmb_text_plain(rows[i].metric);
        gmb_text_plain(rows[i].unit);
    }
    printf("A: %s (%s)\n", plain(ra.runs[0].label), plain(ra.runs[0].source));
    printf("B: %s (%s)\n", plain(rb.runs[0].label), plain(rb.runs[0].source));
    const char *na = json_string_value(json_object_get(ra.runs[0].device, "name"));
    const char *nb = json_string_value(json_object_get(rb.runs[0].device, "name"));
    if (strcmp(na ? na : "", nb ? nb : ""))
        printf("A and B are different devices (%s, %s): the ratios compare devices, not a "
               "change\n",
               plain(na ? na : "unknown"), plain(nb ? nb : "unknown"));
    /* two boards (part numbers, NVML's) of one model differ by a few percent in DRAM latency
     * and bandwidth: a side without one cannot be told to be the same board */
    const char *pa = gmb_run_board(&ra, 0), *pb = gmb_run_board(&rb, 0);
    if ((pa || pb) && strcmp(pa ? pa : "", pb ? pb : "")) {
        char w[400];
        snprintf(w, sizeof w,
                 "A and B ran on different boards (A: %s, B: %s): board revisions of one model "
                 "differ by a few percent in DRAM latency and bandwidth",
                 pa ? pa : "part number not recorded", pb ? pb : "part number not recorded");
        gmb_text_plain(w);
        gmb_warn("%s", w);
        printf("%s\n", w);
    }
    /* a side with an interrupted program compares the points that program finished */
    for (int side = 0; side < 2; side++) {
        const gmb_runset_t *rs = side ? &rb : &ra;
        for (size_t i = 0; i < rs->nrecs; i++) {
            const char *st = json_string_value(json_object_get(rs->recs[i].j, "status"));
            if (st && !strcmp(st, "interrupted"))
                printf("%s: %s was interrupted: only the points it finished\n", side ? "B" : "A",
                       plain(rs->recs[i].bench));
            /* conditions that move numbers: clocks held down, another program on the GPU */
            const json_t *r = rs->recs[i].j;
            double capped = gmb_jnum(r, "clocks.during.points_capped");
            double procs = gmb_jnum(r, "busy_before.compute_processes");
            double util = gmb_jnum(r, "busy_before.gpu_util_pct");
            if (capped > 0)
                printf("%s: %s had %.0f of %.0f points held below the application clocks for "
                       "over 1%% of their time (their clocks say which)\n",
                       side ? "B" : "A", plain(rs->recs[i].bench), capped,
                       gmb_jnum(r, "clocks.during.points_clocked"));
            if (gmb_rec_busy(r))
                printf("%s: %s found the GPU in use before it (%.0f compute processes, kernels "
                       "%.0f%% busy)\n",
                       side ? "B" : "A", plain(rs->recs[i].bench), procs > 0 ? procs : 0,
                       util > 0 ? util : 0);
        }
    }
    if (print_headline(&ra, &rb)) {
        gmb_error("cannot build the headline");
        free(rows);
        gmb_runset_free(&ra);
        gmb_runset_free(&rb);
        return 3;
    }
    if (headline_only && fail_below < 0) {
        free(rows);
        gmb_runset_free(&ra);
        gmb_runset_free(&rb);
        return 0;
    }
    /* the widths of the columns from what they hold: no label is cut short */
    int wbench = 5, wpoint = 5, wmetric = 6, wunit = 4, wa = 8, wb = 8;
    char a[32], b[32];
    for (size_t i = 0; i < n; i++) {
        const gmb_cmp_t *c = &rows[i];
        int l;
        if ((l = (int)strlen(c->bench)) > wbench)
            wbench = l;
        if ((l = (int)strlen(c->point)) > wpoint)
            wpoint = l;
        if ((l = (int)strlen(c->metric)) > wmetric)
            wmetric = l;
        if ((l = (int)strlen(c->unit)) > wunit)
            wunit = l;
        gmb_fmt_num(c->a, a, sizeof a);
        gmb_fmt_num(c->b, b, sizeof b);
        if ((l = (int)strlen(a)) > wa)
            wa = l;
        if ((l = (int)strlen(b)) > wb)
            wb = l;
    }
    if (!headline_only)
        printf("\nevery metric of every point in both (n: the fewer samples of A and B; *: fewer "
               "than %d):\n%-*s  %-*s  %-*s  %-*s  %*s  %*s  %9s  %8s  %8s  %4s  %s\n",
               FEW_SAMPLES, wbench, "bench", wpoint, "point", wmetric, "metric", wunit, "unit", wa,
               "A median", wb, "B median", "B/A", "change", "p", "n", "verdict");
    int better = 0, worse = 0, ns = 0, nop = 0, regress = 0, few = 0;
    for (size_t i = 0; i < n; i++) {
        const gmb_cmp_t *c = &rows[i];
        char p[16], r[32], nsamp[24];
        gmb_fmt_num(c->a, a, sizeof a);
        gmb_fmt_num(c->b, b, sizeof b);
        fmt_ratio(c->ratio, r, sizeof r);
        size_t nmin = c->na < c->nb ? c->na : c->nb;
        int weak = c->p >= 0 && nmin < FEW_SAMPLES;
        /* one count a point: its metrics follow one another */
        if (weak &&
            !(i && !strcmp(rows[i - 1].bench, c->bench) && !strcmp(rows[i - 1].point, c->point) &&
              (rows[i - 1].na < rows[i - 1].nb ? rows[i - 1].na : rows[i - 1].nb) < FEW_SAMPLES &&
              rows[i - 1].p >= 0))
            few++;
        if (c->p >= 0)
            snprintf(nsamp, sizeof nsamp, "%zu%s", nmin, weak ? "*" : "");
        else
            snprintf(nsamp, sizeof nsamp, "-");
        const char *verdict;
        if (c->p < 0) {
            snprintf(p, sizeof p, "-");
            verdict = "no samples";
            nop++;
        } else {
            snprintf(p, sizeof p, "%.2g", c->p);
            if (c->p < alpha && c->change > 0) {
                verdict = "B better";
                better++;
            } else if (c->p < alpha && c->change < 0) {
                verdict = "B worse";
                worse++;
            } else {
                verdict = "not significant";
                ns++;
            }
        }
        int reg = fail_below >= 0 && c->p >= 0 && c->p < alpha && c->change < -fail_below;
        regress += reg;
        if (!headline_only)
            printf("%-*s  %-*s  %-*s  %-*s  %*s  %*s  %9s  %+7.1f%%  %8s  %4s  %s%s\n", wbench,
                   c->bench, wpoint, c->point, wmetric, c->metric, wunit, c->unit, wa, a, wb, b, r,
                   c->change, p, nsamp, verdict, reg ? "  REGRESSION" : "");
    }
    if (few)
        fprintf(stderr, "gmb: warning: %d point%s fewer than %d samples: %s verdicts are weak%s\n",
                few, few == 1 ? " has" : "s have", FEW_SAMPLES, few == 1 ? "its" : "their",
                headline_only ? "" : " (n marked *)");
    printf("%zu metrics of %d benchmark%s: %d better in B, %d worse (p < %g, Mann-Whitney), %d "
           "not significant, %d without raw samples\n",
           n, benches, benches == 1 ? "" : "s", better, worse, alpha, ns, nop);
    rc = 0;
    if (fail_below >= 0) {
        printf("regression check (--fail-below %g%%): %d metric%s worse by more than %g%%, "
               "significant: %s\n",
               fail_below, regress, regress == 1 ? "" : "s", fail_below, regress ? "FAIL" : "ok");
        rc = regress ? 1 : 0;
    }
    free(rows);
    gmb_runset_free(&ra);
    gmb_runset_free(&rb);
    return rc;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    gmb_stdout_init();
    return gmb_stdout_done(dispatch(argc, argv));
}

/* gmb CMD ...: the command's exit status */
static int dispatch(int argc, char **argv)
{
    gmb_progname = "gmb";
    char self[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0)
        gmb_strlcpy(self, argv[0], sizeof self);
    else
        self[l] = '\0';
    gmb_strlcpy(bindir, dirname(self), sizeof bindir);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    char *names[MAX_PROGS];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || (!strcmp(cmd, "help") && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "help")) { /* gmb help CMD = gmb CMD --help */
        if (argc > 3) {
            gmb_error("gmb help takes one command");
            return 2;
        }
        return cmd_help(argv[2]);
    }
    if (!strcmp(cmd, "--man")) { /* gmb(1), from the help table; make builds build/man */
        int n = find_benches(names, MAX_PROGS);
        gmb_cmd_man(stdout, names, n);
        free_names(names, n);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("gmb %s (git %s)\n", GMB_VERSION, gmb_git_rev);
        return 0;
    }
    /* gmb CMD --help: CMD's help (gmb run parses its own options, and a benchmark's); a
     * value that reads -h or --help counts as the flag */
    static const char *const with_help[] = {"devices", "list",   "plot", "table",
                                            "compare", "report", NULL};
    int known = 0;
    for (int i = 0; with_help[i]; i++)
        known |= !strcmp(cmd, with_help[i]);
    for (int i = 2; known && i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return cmd_help(cmd);
    if (!strcmp(cmd, "devices")) {
        gmb_devices_opts_t o = {0};
        int first, rc = parse("devices", &o, argc, argv, &first);
        if (rc)
            return rc < 0 ? 0 : rc;
        if (first < argc) {
            gmb_error("'gmb devices' takes only --json, not '%s'", argv[first]);
            return 2;
        }
        if (o.json)
            return gmb_print_devices_json(stdout, stderr) ? 77 : 0;
        return gmb_print_devices(stdout) ? 77 : 0;
    }
    if (!strcmp(cmd, "list")) {
        int first, rc = parse("list", NULL, argc, argv, &first);
        if (rc)
            return rc < 0 ? 0 : rc;
        if (first < argc) {
            gmb_error("'gmb list' takes no argument");
            return 2;
        }
        int n = find_benches(names, MAX_PROGS);
        for (int i = 0; i < n; i++) {
            char *a[] = {"--summary"};
            if (run_prog(names[i], a, 1))
                rc = 3;
        }
        free_names(names, n);
        return rc;
    }
    if (!strcmp(cmd, "run")) {
        if (argc > 2 && argv[2][0] != '-') { /* one benchmark, its own options */
            int n = find_benches(names, MAX_PROGS);
            int found = 0;
            for (int i = 0; i < n; i++)
                found |= !strcmp(names[i], argv[2]);
            free_names(names, n);
            if (!found) {
                gmb_error("unknown benchmark '%s' (see gmb list)", argv[2]);
                return 2;
            }
            /* the program becomes this process: a signal to gmb is a signal to it, and
             * its exit status is gmb's (a fork would orphan it on SIGTERM) */
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/gmb-%s", bindir, argv[2]);
            argv[2] = path;
            fflush(NULL);
            execv(path, argv + 2);
            gmb_error("cannot run %s: %s", path, strerror(errno));
            return 3;
        }
        return cmd_suite(argc, argv);
    }
    if (!strcmp(cmd, "plot"))
        return cmd_plot(argc, argv);
    if (!strcmp(cmd, "table"))
        return cmd_table(argc, argv);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc, argv);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc, argv);
    gmb_error("unknown command '%s' (see gmb --help)", cmd);
    return 2;
}
