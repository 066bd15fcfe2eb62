/* plot.c - `gmb plot`: data files for gnuplot from records (series as a script's "# gmb:"
 * lines ask), then gnuplot (fork/exec, headless terminals) with plots/style.gp and
 * plots/<bench>.gp, once per output format; and the summary figures, scripts that draw rows
 * of the table (every benchmark's) side by side, one bar per run. */
#include "gmb.h"
#include "record.h"
#include "json.h"
#include "tools/runset.h"
#include "tools/table.h"
#include "tools/plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORDS         16
#define MAX_TABROWS       48
#define GMB_MAX_RUNS_PLOT 256 /* runs a summary figure draws */
#define UNDRAWN           1   /* a figure not drawn: why says why (not an error of gmb plot) */
#define NO_GNUPLOT        "gnuplot not found: install it (apt-get install gnuplot-nox) or set GMB_GNUPLOT"

/* A row of the table a summary script draws: "# gmb: tabrow GROUP | LABEL | ROW | UNIT"; or
 * "# gmb: tablevels GROUP | UNIT": every level of gmb table --levels in UNIT, one bar each,
 * named by its level (the first row of each level: the level view's order). */
typedef struct tabrow {
    char group[16]; /* the panel it goes to (a data file each) */
    char label[64]; /* what the figure calls it */
    char row[192];  /* the table's row label */
    char unit[16];  /* and its unit */
    int levels;     /* 1: tablevels, the level view's rows (label and row unused) */
} tabrow_t;

/* What a plot script asks for, from its "# gmb: KEY VALUE" lines. */
typedef struct spec {
    char series[MAX_WORDS][48]; /* params that split points into series */
    int nseries;
    char x[48];               /* param on the x axis: X_MIN/X_MAX are given */
    char need[MAX_WORDS][48]; /* CSV columns a record must have to be drawn */
    int nneed;
    char optional[MAX_WORDS][48]; /* metrics added empty when a record lacks them */
    int noptional;
    char results[MAX_WORDS][48]; /* results.KEY arrays flattened into CSV files */
    int nresults;
    char rescols[MAX_WORDS][MAX_WORDS][48]; /* "resultcols KEY C,..": columns always in the
                                               header of KEY's file (zero rows included) */
    int nrescols[MAX_WORDS];
    char resrows[MAX_WORDS][MAX_WORDS][48]; /* "resultrows KEY T,..": the rows kept, each term
                                               COL=TEXT (that text) or COL (a value) */
    int nresrows[MAX_WORDS];
    char runvar[MAX_WORDS][3][96]; /* NAME PATH [str]: one value per run (str: a string,
                                      "" when the record lacks it; else NaN) */
    int nrunvar;
    tabrow_t tabrow[MAX_TABROWS]; /* summary scripts: table rows drawn */
    int ntabrow;
} spec_t;

static int split_list(const char *s, char out[][48], int max)
{
    int n = 0;
    char tmp[512];
    gmb_strlcpy(tmp, s, sizeof tmp);
    for (char *t = strtok(tmp, ", \t"); t && n < max; t = strtok(NULL, ", \t"))
        gmb_strlcpy(out[n++], t, 48);
    return n;
}

static int read_spec(const char *script, spec_t *sp)
{
    memset(sp, 0, sizeof *sp);
    FILE *f = fopen(script, "r");
    if (!f)
        return GMB_ERUNTIME;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "# gmb:", 6))
            continue;
        char key[32] = "", val[960] = "";
        if (sscanf(line + 6, "%31s %959[^\n]", key, val) < 1)
            continue;
        if (!strcmp(key, "series"))
            sp->nseries = split_list(val, sp->series, MAX_WORDS);
        else if (!strcmp(key, "x"))
            gmb_strlcpy(sp->x, val, sizeof sp->x);
        else if (!strcmp(key, "need"))
            sp->nneed = split_list(val, sp->need, MAX_WORDS);
        else if (!strcmp(key, "optional"))
            sp->noptional = split_list(val, sp->optional, MAX_WORDS);
        else if (!strcmp(key, "results"))
            sp->nresults = split_list(val, sp->results, MAX_WORDS);
        else if (!strcmp(key, "resultcols") || !strcmp(key, "resultrows")) {
            char rk[48] = "", list[900] = "";
            int k;
            if (sscanf(val, "%47s %899[^\n]", rk, list) < 2)
                continue;
            for (k = 0; k < sp->nresults && strcmp(sp->results[k], rk); k++)
                ;
            if (k == sp->nresults) /* after its "results" line only */
                continue;
            if (key[6] == 'c')
                sp->nrescols[k] = split_list(list, sp->rescols[k], MAX_WORDS);
            else
                sp->nresrows[k] = split_list(list, sp->resrows[k], MAX_WORDS);
        } else if ((!strcmp(key, "tabrow") || !strcmp(key, "tablevels")) &&
                   sp->ntabrow < MAX_TABROWS) {
            int lv = key[3] == 'l', want = lv ? 2 : 4; /* tablevels GROUP | UNIT */
            char part[4][96] = {"", "", "", ""};
            int k = 0;
            for (char *q = val, *bar; k < 4; q = bar + 1) {
                bar = strchr(q, '|');
                if (bar)
                    *bar = '\0';
                while (*q == ' ' || *q == '\t')
                    q++;
                gmb_strlcpy(part[k], q, sizeof part[k]);
                for (size_t l = strlen(part[k]);
                     l && (part[k][l - 1] == ' ' || part[k][l - 1] == '\t');)
                    part[k][--l] = '\0';
                k++;
                if (!bar)
                    break;
            }
            /* the group names gnuplot variables (N_GROUP, F_GROUP) and a file: an identifier */
            int ident = k == want && part[0][0] && strlen(part[0]) < sizeof sp->tabrow[0].group &&
                        !(part[0][0] >= '0' && part[0][0] <= '9');
            for (const char *q = part[0]; ident && *q; q++)
                ident = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                        (*q >= '0' && *q <= '9') || *q == '_';
            if (k == want && !ident)
                fprintf(stderr,
                        "gmb: note: %s: %s group '%s' is not a name of letters, digits "
                        "and _ (at most 15, not a digit first): line ignored\n",
                        script, key, part[0]);
            if (k == want && ident) { /* else not a row: ignored, as any line gmb does not know */
                tabrow_t *t = &sp->tabrow[sp->ntabrow++];
                memset(t, 0, sizeof *t);
                gmb_strlcpy(t->group, part[0], sizeof t->group);
                t->levels = lv;
                if (lv) {
                    gmb_strlcpy(t->unit, part[1], sizeof t->unit);
                } else {
                    gmb_strlcpy(t->label, part[1], sizeof t->label);
                    gmb_strlcpy(t->row, part[2], sizeof t->row);
                    gmb_strlcpy(t->unit, part[3], sizeof t->unit);
                }
            }
        } else if (!strcmp(key, "runvar") && sp->nrunvar < MAX_WORDS) {
            char a[96], b[96], t[96] = "";
            if (sscanf(val, "%95s %95s %95s", a, b, t) >= 2) {
                gmb_strlcpy(sp->runvar[sp->nrunvar][0], a, 96);
                gmb_strlcpy(sp->runvar[sp->nrunvar][1], b, 96);
                gmb_strlcpy(sp->runvar[sp->nrunvar][2], t, 96);
                sp->nrunvar++;
            }
        }
    }
    fclose(f);
    return GMB_OK;
}

/* A string from a record (untrusted: records travel) as a gnuplot string expression.
 * Single-quoted: gnuplot substitutes backquotes (a shell command) inside double quotes, and
 * expands no escape, backquote or macro inside single ones. A quote in s is concatenated as
 * "'" (gnuplot 5.4's tokenizer fails on two doubled quotes in a row, '' ''); control
 * characters (a line feed would end the command) become spaces. */
static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("'.\"'\".'", f);
        else
            fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
    }
    fputc('\'', f);
}

/* Drop a UTF-8 sequence cut off at the end of s (text truncated to a buffer): jansson
 * refuses invalid UTF-8 in keys and strings (a key it refuses frees the value set). */
static void utf8_trim(char *s)
{
    size_t l = strlen(s), i = l, cont = 0;
    while (i && cont < 3 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) {
        i--;
        cont++;
    }
    if (!i || (unsigned char)s[i - 1] < 0xC0) {
        if (cont) /* continuation bytes without a lead byte */
            s[i] = '\0';
        return;
    }
    unsigned char lead = (unsigned char)s[i - 1];
    size_t need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1;
    if (cont < need)
        s[i - 1] = '\0';
}

/* Text of a scalar param ("" when missing), never ending in a cut UTF-8 sequence. */
static void scalar_text(const json_t *v, char *out, size_t len)
{
    if (json_is_string(v)) {
        snprintf(out, len, "%s", json_string_value(v));
        utf8_trim(out);
    } else if (json_is_integer(v)) {
        snprintf(out, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v)) {
        snprintf(out, len, "%g", json_real_value(v));
    } else if (json_is_boolean(v)) {
        snprintf(out, len, "%s", json_is_true(v) ? "true" : "false");
    } else {
        out[0] = '\0';
    }
}

/* Every file gmb plot makes is made new, then renamed over its name (gmb_file_new,
 * gmb_file_commit): a link planted at the name is replaced, never followed. */
static int write_file(const char *path, const char *data)
{
    char tmp[8400];
    FILE *f = gmb_file_new(path, tmp, sizeof tmp);
    if (!f)
        return GMB_ERUNTIME;
    fputs(data, f);
    return gmb_file_commit(f, tmp, path);
}

/* A file of a figure not written (errno says why): said on stderr, and the figure's reason
 * (not-drawn.tsv names it; errno kept). */
static void write_failed(const char *path, char *why, size_t wlen)
{
    int e = errno ? errno : EIO;
    snprintf(why, wlen, "cannot write %.500s: %s", path, strerror(e));
    gmb_error("%s", why);
    errno = e;
}

/* gnuplot writes its figures here, a directory of gmb plot's own in the output directory
 * (mkdtemp), and gmb moves each finished figure into place: gnuplot never opens a name in the
 * output directory, where a link could stand. */
static char fig_tmpdir[4400];

/* Does a point have this CSV column (param, metric, extra, or time_ns/n/converged)? */
static int has_column(const json_t *pt, const char *col)
{
    if (!strcmp(col, "time_ns") || !strcmp(col, "n") || !strcmp(col, "converged"))
        return 1;
    if (json_object_get(json_object_get(pt, "params"), col) ||
        json_object_get(json_object_get(pt, "extra"), col))
        return 1;
    const char *suff[] = {"", "_ci_lo", "_ci_hi", "_min", "_max"};
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)json_object_get(pt, "metrics"), k, v)
    {
        for (int i = 0; i < 5; i++) {
            size_t l = strlen(k);
            if (!strncmp(col, k, l) && !strcmp(col + l, suff[i]))
                return 1;
        }
    }
    return 0;
}

/* Can a needed metric be drawn: does one point at least have a finite, positive median?
 * Every metric a script needs is a time or a rate, drawn on a log axis; a record whose
 * values all fall outside it (a corrupt or crafted one) would stop gnuplot, and with it the
 * figure of every other run. Params and extras are not checked here. */
static int drawable(const json_t *points, const char *col)
{
    size_t i;
    const json_t *pt;
    int metric = 0;
    json_array_foreach(points, i, pt)
    {
        const json_t *m = json_object_get(json_object_get(pt, "metrics"), col);
        if (!m)
            continue;
        metric = 1;
        const json_t *v = json_object_get(m, "median");
        double x = json_is_number(v) ? json_number_value(v) : NAN;
        if (isfinite(x) && x > 0)
            return 1;
    }
    return !metric;
}

/* Flatten an array of objects into rows: each leaf object's scalars with those of the
 * objects that hold it (nested arrays of objects become more rows). */
static void flatten(const json_t *arr, const json_t *inherit, json_t *rows)
{
    size_t i;
    const json_t *o;
    json_array_foreach(arr, i, o)
    {
        if (!json_is_object(o))
            continue;
        json_t *row = json_deep_copy(inherit);
        const char *k;
        const json_t *v;
        const json_t *sub = NULL;
        json_object_foreach((json_t *)o, k, v)
        {
            if (json_is_array(v) && json_is_object(json_array_get(v, 0)) && !sub)
                sub = v;
            else if (!json_is_array(v) && !json_is_object(v))
                json_object_set(row, k, (json_t *)v);
        }
        if (sub)
            flatten(sub, row, rows);
        else
            json_array_append(rows, row);
        json_decref(row);
    }
}

/* Is a flattened row one a script asked for: every term COL=TEXT (COL's text is TEXT) or COL
 * (COL has a value) holds? */
static int row_kept(const json_t *row, const char (*terms)[48], int nterms)
{
    for (int k = 0; k < nterms; k++) {
        char col[48], txt[160];
        gmb_strlcpy(col, terms[k], sizeof col);
        char *eq = strchr(col, '=');
        if (eq)
            *eq = '\0';
        const json_t *v = json_object_get(row, col);
        scalar_text(v, txt, sizeof txt);
        if (eq ? strcmp(txt, eq + 1) != 0 : !txt[0])
            return 0;
    }
    return 1;
}

/* CSV of flattened rows: the union of their keys and of cols (a script's columns, there with
 * no row too) as the header; names and cells follow gmb_csv_clean, so every line has the
 * header's columns. */
static char *rows_csv(const json_t *rows, const char (*cols)[48], int ncols)
{
    json_t *keys = json_object();
    size_t i;
    const json_t *r;
    for (int k = 0; k < ncols; k++)
        json_object_set_new(keys, cols[k], json_true());
    json_array_foreach(rows, i, r)
    {
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)r, k, v) json_object_set_new(keys, k, json_true());
    }
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    if (!s) {
        json_decref(keys);
        return NULL;
    }
    s[0] = '\0';
#define ADD(txt)                                                                                   \
    do {                                                                                           \
        const char *t_ = (txt);                                                                    \
        size_t l_ = strlen(t_);                                                                    \
        if (n + l_ + 1 > cap) {                                                                    \
            cap = 2 * (n + l_ + 1);                                                                \
            char *ns_ = realloc(s, cap);                                                           \
            if (!ns_) {                                                                            \
                free(s);                                                                           \
                json_decref(keys);                                                                 \
                return NULL;                                                                       \
            }                                                                                      \
            s = ns_;                                                                               \
        }                                                                                          \
        memcpy(s + n, t_, l_ + 1);                                                                 \
        n += l_;                                                                                   \
    } while (0)
    const char *k;
    const json_t *v;
    int col = 0;
    json_object_foreach(keys, k, v)
    {
        ADD(col++ ? "," : "");
        size_t at = n;
        ADD(k);
        gmb_csv_clean(s + at); /* the names follow the rule of the cells */
    }
    ADD("\n");
    json_array_foreach(rows, i, r)
    {
        col = 0;
        json_object_foreach(keys, k, v)
        {
            char txt[160];
            ADD(col++ ? "," : "");
            const json_t *x = json_object_get(r, k);
            if (json_is_real(x))
                snprintf(txt, sizeof txt, "%.9g", json_real_value(x));
            else
                scalar_text(x, txt, sizeof txt);
            gmb_csv_clean(txt); /* keep the CSV simple: no quoting needed */
            ADD(txt);
        }
        ADD("\n");
    }
#undef ADD
    json_decref(keys);
    return s;
}

/* Run gnuplot on the files; its output goes to log. Returns its exit status (127: none). */
static int run_gnuplot(const char *setvars, const char *const *files, int nfiles, const char *log)
{
    const char *gp = getenv("GMB_GNUPLOT");
    if (!gp || !*gp)
        gp = "gnuplot";
    char *argv[16];
    int ac = 0;
    argv[ac++] = (char *)gp;
    argv[ac++] = "-e";
    argv[ac++] = (char *)setvars;
    for (int i = 0; i < nfiles && ac < 15; i++)
        argv[ac++] = (char *)files[i];
    argv[ac] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0) {
            dup2(nul, 0);
            close(nul);
        }
        unsetenv("DISPLAY"); /* headless: files only, never a window */
        setenv("GNUTERM", "svg", 1);
        execvp(gp, argv);
        _exit(127);
    }
    if (pid < 0)
        return 127;
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 126;
}

/* gnuplot's complaint in its log: the last line that is not blank, the echoed command's caret
 * nor a warning (a warning then, if it said nothing else). */
static void complaint(const char *path, char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024], warn[1024] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        for (char *q = line; *q; q++)
            if (*q == '\t')
                *q = ' ';
        if (!line[strspn(line, " \t^")])
            continue;
        if (strstr(line, "warning:"))
            gmb_strlcpy(warn, line, sizeof warn);
        else
            gmb_strlcpy(out, line, len);
    }
    fclose(f);
    if (!out[0])
        gmb_strlcpy(out, warn, len);
}

/* Is file name in a figure of figure name (a benchmark or summary): NAME.FMT or NAME-*.FMT,
 * FMT one of gmb plot's formats? */
static int figure_of(const char *file, const char *name)
{
    static const char *const fmts[] = {".png", ".svg", ".pdf"};
    size_t l = strlen(file), bl = strlen(name);
    if (strncmp(file, name, bl) || (file[bl] != '-' && file[bl] != '.') || l < bl + 4)
        return 0;
    for (int k = 0; k < 3; k++)
        if (!strcmp(file + l - 4, fmts[k]))
            return 1;
    return 0;
}

/* Remove the figures of figure name in out (those of an earlier gmb plot too): a figure not
 * drawn now leaves none that looks like it. */
static void remove_figures(const char *out, const char *name)
{
    char path[8300];
    DIR *d = opendir(out);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!figure_of(e->d_name, name))
            continue;
        snprintf(path, sizeof path, "%s/%s", out, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
}

/* gnuplot with style.gp, the variables file vars and script, once per format; the figures it
 * made (OUTBASE-*.<fmt>: name-*) are printed once every format made its own. 0, or UNDRAWN
 * with why (gnuplot failed or is missing, or drew nothing): then none of them is left. */
static int draw(const gmb_plot_opts_t *o, const char *name, const char *vars, const char *script,
                const char *log, char *why, size_t wlen)
{
    char path[8300];
    char style[8300];
    snprintf(style, sizeof style, "%s/style.gp", o->plots);
    const char *files[] = {style, vars, script};
    const char *fmts[] = {"png", "svg", "pdf"};
    char *made[64];
    int nmade = 0, rc = GMB_OK;
    if (o->data_only)
        return GMB_OK;
    for (int k = 0; k < (o->pdf ? 3 : 2) && !rc; k++) {
        char setv[256];
        snprintf(setv, sizeof setv, "FMT='%s'; W=%d; H=%d", fmts[k], o->width, o->height);
        int st = run_gnuplot(setv, files, 3, log);
        if (st == 127) {
            snprintf(why, wlen, "%s", NO_GNUPLOT);
            rc = UNDRAWN;
            break;
        }
        if (st) {
            char said[512];
            complaint(log, said, sizeof said);
            if (st > 128)
                snprintf(why, wlen, "gnuplot killed by signal %d (%s) on %s%s%s", st - 128, fmts[k],
                         script, said[0] ? ": " : "", said);
            else
                snprintf(why, wlen, "gnuplot failed (exit %d, %s) on %s: %s", st, fmts[k], script,
                         said[0] ? said : "it said nothing");
            rc = UNDRAWN;
            fprintf(stderr, "gmb: note: %s: gnuplot's log: %s\n", name, log);
        }
        /* the figures this format made: <name>*.<fmt>, in gmb plot's own directory */
        DIR *d = opendir(fig_tmpdir);
        struct dirent *e;
        int n = 0;
        while (d && (e = readdir(d))) {
            size_t l = strlen(e->d_name), el = strlen(fmts[k]);
            if (!figure_of(e->d_name, name) || strcmp(e->d_name + l - el, fmts[k]))
                continue;
            struct stat st2;
            snprintf(path, sizeof path, "%s/%s", fig_tmpdir, e->d_name);
            if (lstat(path, &st2) || !S_ISREG(st2.st_mode))
                continue;
            if (st || !st2.st_size || nmade == 64) { /* a failed run leaves empty files */
                unlink(path);
                continue;
            }
            if ((made[nmade] = strdup(path)))
                nmade++;
            n++;
        }
        if (d)
            closedir(d);
        if (!n && !rc) {
            snprintf(why, wlen, "%s drew nothing (%s) from these records", script, fmts[k]);
            rc = UNDRAWN;
        }
    }
    for (int i = 0; i < nmade; i++) {
        snprintf(path, sizeof path, "%s/%s", o->out, made[i] + strlen(fig_tmpdir) + 1);
        if (rc)
            unlink(made[i]);              /* all of its formats, or none */
        else if (rename(made[i], path)) { /* over a link at path: the link goes, not its target */
            snprintf(why, wlen, "cannot put %.400s: %s", path, strerror(errno));
            unlink(made[i]);
            rc = UNDRAWN;
        } else
            printf("%s\n", path);
        free(made[i]);
    }
    return rc;
}

/* The variables file and gnuplot's log of figure name (a benchmark or a summary) in datadir
 * (len bytes each); an old log is removed. */
static void data_paths(const char *datadir, const char *name, char *vars, char *log, size_t len)
{
    snprintf(vars, len, "%s/%s-vars.gp", datadir, name);
    snprintf(log, len, "%s/%s.log", datadir, name);
    unlink(log);
}

/* NRUNS and run_label[] of the runs drawn: those of rs indexed by runs (JSON integers), or
 * every run of rs when runs is NULL (gnuplot takes no empty array: [""] then). */
static void put_runs(FILE *f, const gmb_runset_t *rs, const json_t *runs)
{
    size_t n = runs ? json_array_size(runs) : rs->nruns;
    fprintf(f, "NRUNS = %zu\narray run_label[%zu] = [", n, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        size_t r = runs ? (size_t)json_integer_value(json_array_get(runs, i)) : i;
        fputs(i ? ", " : "", f);
        gp_str(f, rs->runs[r].label);
    }
    fputs(n ? "]\n" : "\"\"]\n", f);
}

/* One benchmark: data files, variables, gnuplot per format. 0, UNDRAWN (why: no record it can
 * draw, or gnuplot's complaint) or GMB_ERUNTIME (a file not written). */
static int plot_bench(const gmb_runset_t *rs, const char *bench, const gmb_plot_opts_t *o,
                      const char *datadir, const char *script, char *why, size_t wlen)
{
    spec_t sp;
    if (read_spec(script, &sp))
        return GMB_ERUNTIME;
    char path[8300], vars[8300], log[8300];
    data_paths(datadir, bench, vars, log, sizeof vars);
    /* the runs that have this benchmark, and the series of each */
    json_t *sfile = json_array(), *srun = json_array(), *ssub = json_array(),
           *slabel = json_array(), *svals = json_array(), *runs = json_array();
    json_t *nrows[MAX_WORDS]; /* per results key: the rows of each run's file */
    for (int k = 0; k < MAX_WORDS; k++)
        nrows[k] = json_array();
    double xmin = INFINITY, xmax = -INFINITY;
    int rc = GMB_ERUNTIME;
    why[0] = '\0';
    for (size_t r = 0; r < rs->nruns; r++) {
        const gmb_rec_t *rec = gmb_runset_find(rs, r, bench);
        if (!rec)
            continue;
        const json_t *points = json_object_get(rec->j, "points");
        const json_t *p0 = json_array_get(points, 0);
        char note[256] = "";
        if (!p0) /* interrupted or skipped before its first point */
            snprintf(note, sizeof note, "no points");
        for (int k = 0; k < sp.nneed && !note[0]; k++)
            if (!has_column(p0, sp.need[k]))
                snprintf(note, sizeof note, "no column '%s'", sp.need[k]);
        for (int k = 0; k < sp.nneed && !note[0]; k++)
            if (!drawable(points, sp.need[k]))
                snprintf(note, sizeof note, "no point with a finite, positive '%s'", sp.need[k]);
        if (note[0]) {
            fprintf(stderr, "gmb: note: %s: %s: not drawn by %s\n", rec->path, note, script);
            if (!strstr(why, note)) /* the figure's reason, when no run can be drawn */
                snprintf(why + strlen(why), wlen - strlen(why), "%s%s", why[0] ? "; " : "", note);
            continue;
        }
        size_t ri = json_array_size(runs) + 1; /* gnuplot index of this run */
        json_array_append_new(runs, json_integer((json_int_t)r));
        /* split the points into series, in order of first appearance */
        json_t *groups = json_object(), *order = json_array();
        size_t i;
        const json_t *pt;
        json_array_foreach(points, i, pt)
        {
            char key[512] = "";
            size_t kl = 0;
            for (int k = 0; k < sp.nseries; k++) {
                char v[128];
                scalar_text(json_object_get(json_object_get(pt, "params"), sp.series[k]), v,
                            sizeof v);
                kl += (size_t)snprintf(key + kl, sizeof key - kl, "%s%s", k ? " " : "", v);
                if (kl >= sizeof key)
                    kl = sizeof key - 1;
            }
            utf8_trim(key);
            json_t *g = json_object_get(groups, key);
            if (!g) {
                g = json_array();
                if (json_object_set_new(groups, key, g))
                    continue; /* g is freed */
                json_array_append_new(order, json_string(key));
            }
            json_t *cp = json_deep_copy(pt);
            json_object_del(cp, "samples_ns");
            json_array_append_new(g, cp);
            if (sp.x[0]) {
                const json_t *xv = json_object_get(json_object_get(pt, "params"), sp.x);
                double x = json_is_number(xv) ? json_number_value(xv) : NAN;
                if (x == x) {
                    xmin = fmin(xmin, x);
                    xmax = fmax(xmax, x);
                }
            }
        }
        const json_t *kv;
        json_array_foreach(order, i, kv)
        {
            const char *key = json_string_value(kv);
            json_t *g = json_object_get(groups, key);
            json_t *first = json_array_get(g, 0);
            for (int k = 0; k < sp.noptional; k++) { /* optional metrics: empty columns */
                json_t *m = json_object_get(first, "metrics");
                if (!json_object_get(m, sp.optional[k]))
                    json_object_set_new(m, sp.optional[k], json_object());
            }
            json_t *sub = json_pack("{s:O}", "points", g);
            char *csv = gmb_record_csv(sub);
            json_decref(sub);
            snprintf(path, sizeof path, "%s/%s-r%zu-s%zu.csv", datadir, bench, ri, i + 1);
            if (!csv || write_file(path, csv)) {
                write_failed(path, why, wlen);
                free(csv);
                json_decref(groups);
                json_decref(order);
                goto fail;
            }
            free(csv);
            json_array_append_new(sfile, json_string(path));
            json_array_append_new(srun, json_integer((json_int_t)ri));
            json_array_append_new(ssub, json_integer((json_int_t)i + 1));
            json_t *vals = json_array();
            const json_t *p1 = json_array_get(g, 0);
            char label[512] = "";
            size_t ll = 0;
            for (int k = 0; k < sp.nseries; k++) {
                char v[128];
                scalar_text(json_object_get(json_object_get(p1, "params"), sp.series[k]), v,
                            sizeof v);
                json_array_append_new(vals, json_string(v));
                if (v[0] && ll < sizeof label)
                    ll += (size_t)snprintf(label + ll, sizeof label - ll, "%s%s", ll ? " " : "", v);
            }
            utf8_trim(label);
            json_array_append_new(slabel, json_string(label));
            json_array_append_new(svals, vals);
        }
        json_decref(groups);
        json_decref(order);
        /* results arrays, flattened */
        for (int k = 0; k < sp.nresults; k++) {
            json_t *rows = json_array(), *empty = json_object(), *kept = json_array();
            flatten(json_object_get(json_object_get(rec->j, "results"), sp.results[k]), empty,
                    rows);
            size_t j;
            json_t *row;
            json_array_foreach(rows, j, row)
            {
                if (row_kept(row, (const char(*)[48])sp.resrows[k], sp.nresrows[k]))
                    json_array_append(kept, row);
            }
            char *csv = rows_csv(kept, (const char(*)[48])sp.rescols[k], sp.nrescols[k]);
            json_array_append_new(nrows[k], json_integer((json_int_t)json_array_size(kept)));
            json_decref(kept);
            json_decref(rows);
            json_decref(empty);
            snprintf(path, sizeof path, "%s/%s-r%zu-%s.csv", datadir, bench, ri, sp.results[k]);
            if (!csv || write_file(path, csv)) {
                write_failed(path, why, wlen);
                free(csv);
                goto fail;
            }
            free(csv);
        }
    }
    size_t nr = json_array_size(runs), ns = json_array_size(sfile);
    if (!nr || !ns) {
        if (!why[0])
            snprintf(why, wlen, "no points");
        rc = UNDRAWN;
        goto fail;
    }
    /* the variables file */
    char vtmp[8400];
    FILE *f = gmb_file_new(vars, vtmp, sizeof vtmp);
    if (!f) {
        write_failed(vars, why, wlen);
        goto fail;
    }
    fprintf(f, "# %s: made by gmb plot from the records; data for %s\n", vars, script);
    put_runs(f, rs, runs);
    for (int k = 0; k < sp.nrunvar; k++) {
        fprintf(f, "array run_%s[%zu] = [", sp.runvar[k][0], nr);
        for (size_t i = 0; i < nr; i++) {
            size_t r = (size_t)json_integer_value(json_array_get(runs, i));
            const gmb_rec_t *rec = gmb_runset_find(rs, r, bench);
            const json_t *v = gmb_jpath(rec->j, sp.runvar[k][1]);
            fputs(i ? ", " : "", f);
            if (json_is_number(v))
                fprintf(f, "%.17g", json_number_value(v));
            else if (json_is_string(v))
                gp_str(f, json_string_value(v));
            else if (v && !json_is_null(v))
                fputs("1", f); /* present, not a scalar (an object): 1; missing: NaN */
            else if (!strcmp(sp.runvar[k][2], "str"))
                gp_str(f, ""); /* a string the record lacks: "" (string operators work on it) */
            else
                fputs("NaN", f);
        }
        fputs("]\n", f);
    }
    for (int k = 0; k < sp.nresults; k++) {
        fprintf(f, "array res_%s[%zu] = [", sp.results[k], nr);
        for (size_t i = 0; i < nr; i++) {
            snprintf(path, sizeof path, "%s/%s-r%zu-%s.csv", datadir, bench, i + 1, sp.results[k]);
            fputs(i ? ", " : "", f);
            gp_str(f, path);
        }
        fputs("]\n", f);
        fprintf(f, "array res_n_%s[%zu] = [", sp.results[k], nr); /* its rows: 0 (none) too */
        for (size_t i = 0; i < nr; i++)
            fprintf(f, "%s%" JSON_INTEGER_FORMAT, i ? ", " : "",
                    json_integer_value(json_array_get(nrows[k], i)));
        fputs("]\n", f);
    }
    fprintf(f, "NS = %zu\n", ns);
    const char *names[] = {"s_file", "s_label"};
    json_t *arrs[] = {sfile, slabel};
    for (int a = 0; a < 2; a++) {
        fprintf(f, "array %s[%zu] = [", names[a], ns);
        for (size_t i = 0; i < ns; i++) {
            fputs(i ? ", " : "", f);
            gp_str(f, json_string_value(json_array_get(arrs[a], i)));
        }
        fputs("]\n", f);
    }
    fprintf(f, "array s_run[%zu] = [", ns);
    for (size_t i = 0; i < ns; i++)
        fprintf(f, "%s%" JSON_INTEGER_FORMAT, i ? ", " : "",
                json_integer_value(json_array_get(srun, i)));
    fprintf(f, "]\narray s_sub[%zu] = [", ns);
    for (size_t i = 0; i < ns; i++)
        fprintf(f, "%s%" JSON_INTEGER_FORMAT, i ? ", " : "",
                json_integer_value(json_array_get(ssub, i)));
    fputs("]\n", f);
    for (int k = 0; k < sp.nseries; k++) {
        fprintf(f, "array s_%s[%zu] = [", sp.series[k], ns);
        for (size_t i = 0; i < ns; i++) {
            fputs(i ? ", " : "", f);
            gp_str(f, json_string_value(json_array_get(json_array_get(svals, i), (size_t)k)));
        }
        fputs("]\n", f);
    }
    if (sp.x[0] && xmin <= xmax)
        fprintf(f, "X_MIN = %.17g\nX_MAX = %.17g\n", xmin, xmax);
    snprintf(path, sizeof path, "%s/%s", fig_tmpdir, bench);
    fputs("OUTBASE = ", f);
    gp_str(f, path);
    fputs("\n", f);
    if (gmb_file_commit(f, vtmp, vars)) {
        write_failed(vars, why, wlen);
        goto fail;
    }
    rc = -1; /* written: draw */
fail:
    json_decref(sfile);
    json_decref(srun);
    json_decref(ssub);
    json_decref(slabel);
    json_decref(svals);
    json_decref(runs);
    for (int k = 0; k < MAX_WORDS; k++)
        json_decref(nrows[k]);
    return rc == -1 ? draw(o, bench, vars, script, log, why, wlen) : rc;
}

/* A table cell a summary figure draws: a finite, positive number, not from a cache-resident
 * point where the row means memory (note flag 1). */
static int usable(const gmb_cell_t *c)
{
    return c->kind == 1 && c->v > 0 && c->v < INFINITY && !(c->note & 1); /* note: flags */
}

/* Whether the table's row label is row, the chase it names aside: "L1 latency (pointer
 * chase)", "Constant cache latency (level 1; index chase)" are "L1 latency", "Constant cache
 * latency (level 1)" (the table's latency rows say which chase they are; a figure's bar is
 * the level, whichever chase measured it in a run). */
static int same_row(const char *label, const char *row)
{
    static const char *const chase[] = {"pointer chase, 32-bit", "pointer chase", "index chase",
                                        "chase not recorded"};
    size_t n = strlen(row), l = strlen(label);
    if (!strcmp(label, row))
        return 1;
    for (size_t k = 0; k < sizeof chase / sizeof *chase; k++) {
        size_t c = strlen(chase[k]);
        /* "ROW (CHASE)" */
        if (l == n + c + 3 && !strncmp(label, row, n) && !strncmp(label + n, " (", 2) &&
            !strncmp(label + n + 2, chase[k], c) && label[l - 1] == ')')
            return 1;
        /* ROW "X (Y)" as "X (Y; CHASE)" */
        if (n && row[n - 1] == ')' && l == n + c + 2 && !strncmp(label, row, n - 1) &&
            !strncmp(label + n - 1, "; ", 2) && !strncmp(label + n + 1, chase[k], c) &&
            label[l - 1] == ')')
            return 1;
    }
    return 0;
}

/* One row of a summary figure's data file: LABEL (48 bytes at most, a comma as a colon, quotes
 * and control characters as spaces), then value, CI low and high of each of ncols runs' cells
 * (NULL: a gap). Returns 1. */
static int summary_row(FILE *m, const char *label, const gmb_cell_t *const *cells, size_t ncols)
{
    char lab[48];
    gmb_strlcpy(lab, label, sizeof lab);
    for (char *q = lab; *q; q++) /* the file's separator never in a label: "L1, all" "L1: all" */
        if (*q == ',')
            *q = ':';
        else if (*q == '"' || (unsigned char)*q < 32 || (q == lab && *q == '#'))
            *q = ' '; /* nor a quote, a control or a comment's mark first */
    fputs(lab, m);
    for (size_t r = 0; r < ncols; r++) {
        const gmb_cell_t *c = r < GMB_MAX_RUNS_PLOT ? cells[r] : NULL;
        /* log axes: a value that is not finite and positive is a gap; a CI bound that is not
         * finite gives way to the value; a figure the table marks as from a cache-resident
         * point (stream's ᶜ) is not the level the row names */
        if (!c)
            fputs(",,,", m);
        else
            fprintf(m, ",%.9g,%.9g,%.9g", c->v, isfinite(c->lo) ? c->lo : c->v,
                    isfinite(c->hi) ? c->hi : c->v);
    }
    fputs("\n", m);
    return 1;
}

/* A summary script (name.gp with tabrow lines): for each group of its rows, a data file of
 * the rows any run has (label, then value, CI low and high per run; empty where a run has
 * none; a value without a CI is its own bounds), the variables (NRUNS, run_label, and per
 * group G: F_G its file, N_G its rows), gnuplot per format. 0, GMB_ESKIP (no row in any run),
 * UNDRAWN (why) or GMB_ERUNTIME. */
static int plot_summary(const gmb_runset_t *rs, const char *name, const gmb_plot_opts_t *o,
                        const char *datadir, const spec_t *sp, const char *script, char *why,
                        size_t wlen)
{
    gmb_table_t t, tl; /* the table, and its level view where a tablevels line asks for it */
    int want_lv = 0;
    for (int k = 0; k < sp->ntabrow; k++)
        want_lv |= sp->tabrow[k].levels;
    if (gmb_table_build(rs, &t))
        return GMB_ERUNTIME;
    if (want_lv && (gmb_table_build(rs, &tl) || gmb_table_levels(&tl))) {
        gmb_table_free(&t);
        return GMB_ERUNTIME;
    }
    char vars[8300], log[8300], path[8300];
    data_paths(datadir, name, vars, log, sizeof vars);
    char vtmp[8400];
    FILE *f = gmb_file_new(vars, vtmp, sizeof vtmp);
    int rc = f ? GMB_OK : GMB_ERUNTIME, total = 0, ngroups = 0;
    why[0] = '\0';
    if (!f)
        write_failed(vars, why, wlen);
    else {
        fprintf(f, "# %s: made by gmb plot from the table of the records; data for %s\n", vars,
                script);
        put_runs(f, rs, NULL); /* the table's columns are the runs */
    }
    for (int g = 0; g < sp->ntabrow && !rc; g++) {
        const char *grp = sp->tabrow[g].group;
        int first = 1;
        for (int k = 0; k < g && first; k++)
            first = strcmp(sp->tabrow[k].group, grp) != 0;
        if (!first)
            continue;
        char *csv = NULL;
        size_t clen = 0;
        FILE *m = open_memstream(&csv, &clen);
        if (!m) {
            rc = GMB_ERUNTIME;
            break;
        }
        fputs("# label", m); /* a comment line: the columns' names */
        for (size_t r = 0; r < t.ncols; r++)
            fprintf(m, ",v%zu,lo%zu,hi%zu", r + 1, r + 1, r + 1);
        fputs("\n", m);
        int n = 0;
        for (int k = g; k < sp->ntabrow; k++) {
            const tabrow_t *tr = &sp->tabrow[k];
            if (strcmp(tr->group, grp))
                continue;
            if (!tr->levels) {
                /* each run's cell: of the first row that is this one (whichever chase) and
                 * that run has */
                const gmb_cell_t *cells[GMB_MAX_RUNS_PLOT];
                int any = 0;
                for (size_t r = 0; r < t.ncols && r < GMB_MAX_RUNS_PLOT; r++) {
                    cells[r] = NULL;
                    for (size_t i = 0; i < t.nrows && !cells[r]; i++)
                        if (same_row(t.rows[i]->label, tr->row) &&
                            !strcmp(t.rows[i]->unit, tr->unit) && usable(&t.cells[i * t.ncols + r]))
                            cells[r] = &t.cells[i * t.ncols + r];
                    any |= cells[r] != NULL;
                }
                n += any && summary_row(m, tr->label, cells, t.ncols);
                continue;
            }
            /* tablevels: each level in the unit, its first row a run has a value in */
            for (size_t i = 0; i < tl.nrows; i++) {
                const char *lvl = tl.lv[i]->level;
                int seen = 0;
                for (size_t j = 0; j < i && !seen; j++)
                    seen = !strcmp(tl.lv[j]->level, lvl) && !strcmp(tl.rows[j]->unit, tr->unit);
                if (seen || strcmp(tl.rows[i]->unit, tr->unit))
                    continue;
                const gmb_cell_t *cells[GMB_MAX_RUNS_PLOT];
                int any = 0;
                for (size_t r = 0; r < tl.ncols && r < GMB_MAX_RUNS_PLOT; r++) {
                    cells[r] = NULL;
                    for (size_t j = i; j < tl.nrows && !cells[r]; j++)
                        if (!strcmp(tl.lv[j]->level, lvl) && !strcmp(tl.rows[j]->unit, tr->unit) &&
                            usable(&tl.cells[j * tl.ncols + r]))
                            cells[r] = &tl.cells[j * tl.ncols + r];
                    any |= cells[r] != NULL;
                }
                n += any && summary_row(m, lvl, cells, tl.ncols);
            }
        }
        snprintf(path, sizeof path, "%s/%s-%s.csv", datadir, name, grp);
        if (fclose(m)) {
            write_failed(path, why, wlen);
            free(csv);
            rc = GMB_ERUNTIME;
            break;
        }
        if (write_file(path, csv)) {
            write_failed(path, why, wlen);
            rc = GMB_ERUNTIME;
        }
        free(csv);
        if (f) {
            fprintf(f, "N_%s = %d\nF_%s = ", grp, n, grp);
            gp_str(f, path);
            fprintf(f, "\nU_%s = ", grp);
            gp_str(f, sp->tabrow[g].unit);
            fputs("\n", f);
        }
        total += n;
        ngroups++;
    }
    if (f) {
        fprintf(f, "NG = %d\nBENCH = ", ngroups); /* the groups (U_g: each one's unit) */
        gp_str(f, name);
        fputs("\n", f);
        snprintf(path, sizeof path, "%s/%s", fig_tmpdir, name);
        fputs("OUTBASE = ", f);
        gp_str(f, path);
        fputs("\n", f);
        if (gmb_file_commit(f, vtmp, vars) && !rc) {
            write_failed(vars, why, wlen);
            rc = GMB_ERUNTIME;
        }
    }
    gmb_table_free(&t);
    if (want_lv)
        gmb_table_free(&tl);
    if (rc)
        return rc;
    return total ? draw(o, name, vars, script, log, why, wlen) : GMB_ESKIP;
}

/* The figures not drawn, each with its reason: OUT/not-drawn.tsv (NAME TAB REASON a line,
 * empty when every figure was drawn), written anew by every gmb plot (a temporary file
 * renamed), and a line each on stderr (but for those said already, said[i], and those
 * gnuplot's absence left undrawn, when nogp: the caller says it once). When it cannot be
 * written, an earlier list is removed (it would name the wrong figures). 0 or GMB_ERUNTIME. */
static int put_undrawn(const char *out, char (*names)[64], char (*whys)[600], const int *said,
                       int n, int nogp)
{
    char path[4300], tmp[4400];
    snprintf(path, sizeof path, "%s/not-drawn.tsv", out);
    FILE *f = gmb_file_new(path, tmp, sizeof tmp);
    if (!f) {
        gmb_error("cannot write %s: %s", path, strerror(errno ? errno : EIO));
        unlink(path);
        return GMB_ERUNTIME;
    }
    for (int i = 0; i < n; i++) {
        for (char *q = whys[i]; *q; q++) /* one line, two fields */
            if (*q == '\t' || *q == '\n' || *q == '\r')
                *q = ' ';
        fprintf(f, "%s\t%s\n", names[i], whys[i]);
        if (!said[i] && (!nogp || strcmp(whys[i], NO_GNUPLOT)))
            fprintf(stderr, "gmb: figure %s not drawn: %s\n", names[i], whys[i]);
    }
    if (gmb_file_commit(f, tmp, path)) {
        gmb_error("cannot write %s: %s", path, strerror(errno ? errno : EIO));
        unlink(path);
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

static int plot_all(const gmb_runset_t *rs, const gmb_plot_opts_t *o, const char *datadir);

/* A program without a plot script of its own: its headline figures (the table's rows of its
 * benchmark with a number in some run) drawn by plots/headlines.gp, a panel per unit (at most
 * MAX_WORDS units, MAX_TABROWS rows). As plot_summary; GMB_ESKIP when it has none. */
static int plot_headlines(const gmb_runset_t *rs, const char *bench, const gmb_plot_opts_t *o,
                          const char *datadir, const char *script, char *why, size_t wlen)
{
    gmb_table_t t;
    static spec_t sp;
    char units[MAX_WORDS][16];
    int nu = 0;
    memset(&sp, 0, sizeof sp);
    if (gmb_table_build(rs, &t))
        return GMB_ERUNTIME;
    for (size_t i = 0; i < t.nrows && sp.ntabrow < MAX_TABROWS; i++) {
        const gmb_row_t *row = t.rows[i];
        int any = 0, u;
        for (size_t r = 0; r < t.ncols; r++)
            any |= usable(&t.cells[i * t.ncols + r]);
        if (!any || strcmp(row->bench, bench) || strlen(row->label) >= sizeof sp.tabrow[0].row ||
            strlen(row->unit) >= sizeof units[0])
            continue;
        for (u = 0; u < nu && strcmp(units[u], row->unit); u++)
            ;
        if (u == nu && nu == MAX_WORDS)
            continue;
        if (u == nu)
            gmb_strlcpy(units[nu++], row->unit, sizeof units[0]);
        tabrow_t *tr = &sp.tabrow[sp.ntabrow++];
        snprintf(tr->group, sizeof tr->group, "g%d", u + 1);
        gmb_strlcpy(tr->label, row->label, sizeof tr->label);
        utf8_trim(tr->label);
        gmb_strlcpy(tr->row, row->label, sizeof tr->row);
        gmb_strlcpy(tr->unit, row->unit, sizeof tr->unit);
    }
    gmb_table_free(&t);
    if (!sp.ntabrow)
        return GMB_ESKIP;
    return plot_summary(rs, bench, o, datadir, &sp, script, why, wlen);
}

int gmb_plot(const gmb_runset_t *rs, const gmb_plot_opts_t *given)
{
    char datadir[4200], style[4200];
    snprintf(style, sizeof style, "%s/style.gp", given->plots);
    if (access(style, R_OK)) {
        gmb_error("no %s: where are gmb's gnuplot scripts? (set GMB_PLOTS)", style);
        return GMB_ERUNTIME;
    }
    /* gnuplot runs a file name that begins with '<' as a shell command (popen), and a run
     * directory's name is anybody's: every path gnuplot gets (its command line, the data files
     * and OUTBASE in the variables files) is made from these, absolute, so begins with '/' */
    static char out_abs[PATH_MAX], plots_abs[PATH_MAX];
    gmb_plot_opts_t ab = *given;
    const gmb_plot_opts_t *o = &ab;
    if (!realpath(given->plots, plots_abs)) {
        gmb_error("no %s: where are gmb's gnuplot scripts? (set GMB_PLOTS)", style);
        return GMB_ERUNTIME;
    }
    /* the output directory a link (a figures/ planted in a run directory): gmb plot writes
     * into a directory, never through a link to one, as at figures/data */
    char outl[PATH_MAX];
    gmb_strlcpy(outl, given->out, sizeof outl);
    for (size_t l = strlen(outl); l > 1 && outl[l - 1] == '/';) /* "link/" is the link too */
        outl[--l] = '\0';
    struct stat ost;
    if (!lstat(outl, &ost) && S_ISLNK(ost.st_mode)) {
        gmb_error("%s is a link, not a directory of gmb plot's: remove it", outl);
        return GMB_ERUNTIME;
    }
    if (!realpath(given->out, out_abs)) {
        gmb_error("cannot find %s: %s", given->out, strerror(errno));
        return GMB_ERUNTIME;
    }
    ab.out = out_abs;
    ab.plots = plots_abs;
    snprintf(datadir, sizeof datadir, "%s/data", o->out);
    if (gmb_mkdirs(datadir))
        return GMB_ERUNTIME;
    struct stat dst;
    if (lstat(datadir, &dst) || !S_ISDIR(dst.st_mode)) { /* a link there: not ours to follow */
        gmb_error("%s is not a directory of gmb plot's (a link?): remove it", datadir);
        return GMB_ERUNTIME;
    }
    snprintf(fig_tmpdir, sizeof fig_tmpdir, "%s/.gmb-plot-XXXXXX", o->out);
    if (!mkdtemp(fig_tmpdir)) {
        gmb_error("cannot make a directory in %s: %s", o->out, strerror(errno));
        return GMB_ERUNTIME;
    }
    int rc = plot_all(rs, o, datadir);
    /* what gnuplot left there (a failed format's files) goes with the directory */
    DIR *td = opendir(fig_tmpdir);
    struct dirent *te;
    char tp[8400];
    while (td && (te = readdir(td)))
        if (strcmp(te->d_name, ".") && strcmp(te->d_name, "..")) {
            snprintf(tp, sizeof tp, "%s/%s", fig_tmpdir, te->d_name);
            unlink(tp);
        }
    if (td)
        closedir(td);
    rmdir(fig_tmpdir);
    return rc;
}

/* gmb_plot's body, once its directories are made. */
static int plot_all(const gmb_runset_t *rs, const gmb_plot_opts_t *o, const char *datadir)
{
    static char nd_name[321][64], nd_why[321][600]; /* the figures not drawn */
    static int nd_said[321];                        /* 1: its reason is on stderr already */
    int nnd = 0;
    memset(nd_said, 0, sizeof nd_said);
    /* the benchmarks present, once each, sorted */
    const char *benches[256];
    size_t nb = 0;
    for (size_t i = 0; i < rs->nrecs && nb < 256; i++) {
        const char *b = rs->recs[i].bench;
        size_t k;
        for (k = 0; k < nb && strcmp(benches[k], b); k++)
            ;
        if (k == nb)
            benches[nb++] = b;
    }
    qsort(benches, nb, sizeof *benches, gmb_cmp_str);
    int rc = GMB_OK, made = 0;
    for (size_t i = 0; i < nb; i++) {
        char script[4400];
        int ok = 1;
        for (const char *p = benches[i]; *p; p++)
            ok &= (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_';
        snprintf(script, sizeof script, "%s/%s.gp", o->plots, benches[i]);
        char own[4400]; /* its own script; without one, its headline figures */
        gmb_strlcpy(own, script, sizeof own);
        if (ok && access(script, R_OK))
            snprintf(script, sizeof script, "%s/headlines.gp", o->plots);
        if (!ok || access(script, R_OK)) {
            if (nnd < 320) { /* named in not-drawn.tsv and the report like any other */
                gmb_strlcpy(nd_name[nnd], benches[i], sizeof nd_name[0]);
                snprintf(nd_why[nnd++], sizeof nd_why[0], "no plot script %.500s", script);
                fprintf(stderr, "gmb: figure %s not drawn: no plot script %s\n", benches[i],
                        script);
            }
            continue;
        }
        if (!strcmp(strrchr(script, '/') + 1, "headlines.gp")) {
            nd_why[nnd][0] = '\0';
            int r =
                plot_headlines(rs, benches[i], o, datadir, script, nd_why[nnd], sizeof nd_why[0]);
            if (r == GMB_ESKIP && nnd < 320) {
                gmb_strlcpy(nd_name[nnd], benches[i], sizeof nd_name[0]);
                snprintf(nd_why[nnd++], sizeof nd_why[0],
                         "no plot script %.500s and no headline figure to draw", own);
                fprintf(stderr,
                        "gmb: figure %s not drawn: no plot script %s and no headline figure to "
                        "draw\n",
                        benches[i], own);
                remove_figures(o->out, benches[i]);
            } else if (r == UNDRAWN && nnd < 320) {
                gmb_strlcpy(nd_name[nnd++], benches[i], sizeof nd_name[0]);
                remove_figures(o->out, benches[i]);
            } else if (r) {
                rc = r;
                if (nnd < 320 && nd_why[nnd][0]) {
                    nd_said[nnd] = 1;
                    gmb_strlcpy(nd_name[nnd++], benches[i], sizeof nd_name[0]);
                    remove_figures(o->out, benches[i]);
                }
            } else
                made++;
            continue;
        }
        nd_why[nnd][0] = '\0';
        int r = plot_bench(rs, benches[i], o, datadir, script, nd_why[nnd], sizeof nd_why[0]);
        if (r == UNDRAWN && nnd < 320) {
            gmb_strlcpy(nd_name[nnd++], benches[i], sizeof nd_name[0]);
            remove_figures(o->out, benches[i]);
        } else if (r) {
            rc = r;
            if (nnd < 320 && nd_why[nnd][0]) { /* a file not written: named, said already */
                nd_said[nnd] = 1;
                gmb_strlcpy(nd_name[nnd++], benches[i], sizeof nd_name[0]);
                remove_figures(o->out, benches[i]);
            }
        } else
            made++;
    }
    /* the summary scripts: the plots/NAME.gp with tabrow lines, by name, after the benchmarks */
    DIR *d = opendir(o->plots);
    char *sums[64];
    size_t ns = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".gp") || !strcmp(e->d_name, "style.gp"))
            continue;
        int bench = 0;
        for (size_t i = 0; i < nb && !bench; i++)
            bench = strlen(benches[i]) == l - 3 && !strncmp(benches[i], e->d_name, l - 3);
        if (!bench && ns == 64) {
            fprintf(stderr,
                    "gmb: note: more than 64 plot scripts without a benchmark in %s: "
                    "%s and others not read\n",
                    o->plots, e->d_name);
            break;
        }
        if (!bench && (sums[ns] = strndup(e->d_name, l - 3)))
            ns++;
    }
    if (d)
        closedir(d);
    qsort(sums, ns, sizeof *sums, gmb_cmp_str);
    for (size_t i = 0; i < ns; i++) {
        char script[4400];
        spec_t sp;
        snprintf(script, sizeof script, "%s/%s.gp", o->plots, sums[i]);
        if (!read_spec(script, &sp) && sp.ntabrow) {
            nd_why[nnd][0] = '\0';
            int r =
                plot_summary(rs, sums[i], o, datadir, &sp, script, nd_why[nnd], sizeof nd_why[0]);
            if (r == GMB_ESKIP && nnd < 320) {
                gmb_strlcpy(nd_name[nnd], sums[i], sizeof nd_name[0]);
                snprintf(nd_why[nnd++], sizeof nd_why[0], "no row that %.500s draws in these runs",
                         script);
                fprintf(stderr, "gmb: figure %s not drawn: no row that it draws in these runs\n",
                        sums[i]);
                remove_figures(o->out, sums[i]);
            } else if (r == UNDRAWN && nnd < 320) {
                gmb_strlcpy(nd_name[nnd++], sums[i], sizeof nd_name[0]);
                remove_figures(o->out, sums[i]);
            } else if (r) {
                rc = r;
                if (nnd < 320 && nd_why[nnd][0]) {
                    nd_said[nnd] = 1;
                    gmb_strlcpy(nd_name[nnd++], sums[i], sizeof nd_name[0]);
                    remove_figures(o->out, sums[i]);
                }
            } else
                made++;
        }
        free(sums[i]);
    }
    /* no figure drawn because there is no gnuplot: an error of gmb plot (a runtime one), said
     * once, not a figure's reason each */
    int nogp = 0;
    for (int i = 0; i < nnd && !made; i++)
        nogp |= !strcmp(nd_why[i], NO_GNUPLOT);
    if (put_undrawn(o->out, nd_name, nd_why, nd_said, nnd, nogp))
        rc = GMB_ERUNTIME;
    if (nogp) {
        gmb_error("no figure drawn: %s (the figures are named in %s/not-drawn.tsv)", NO_GNUPLOT,
                  o->out);
        rc = GMB_ERUNTIME;
    }
    if (!made && !nnd && rc == GMB_OK) {
        gmb_error("no figure made");
        rc = GMB_ERUNTIME;
    }
    return rc;
}
