/* runreport.c - gmb report: one Markdown page for a run directory, from its run.json and
 * records only: the device and host, each program's status and summary, the table, the
 * cross-checks (one quantity measured by several programs), the figures gmb plot drew. */
#include "gmb.h"
#include "nvml.h"
#include "record.h"
#include "json.h"
#include "tools/runset.h"
#include "tools/runreport.h"
#include "tools/table.h"
#include "tools/crosscheck.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The most bytes run.json and not-drawn.tsv may have: far above any gmb writes (a manifest is
 * a few KiB), so a crafted or corrupt one is refused, not read until memory runs out. */
#define RUN_JSON_MAX  (16LL << 20)
#define NOT_DRAWN_MAX (1LL << 20)

static const char *str_or(const json_t *j, const char *path, const char *dflt)
{
    const char *s = json_string_value(gmb_jpath(j, path));
    return s && *s ? s : dflt;
}

/* Text of a run.json or record string in Markdown (gmb_md_esc): '|' escaped (table cells),
 * Markdown's marks and HTML's escaped (a record's text is never markup of the page), a control
 * character as a space (a line feed would start rows of its own). */
static void put_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        const char *e = gmb_md_esc((unsigned char)*s);
        if (e)
            fputs(e, f);
        else
            fputc(*s, f);
    }
}

/* A path as a Markdown link destination in <...>: < > and \\ backslash-escaped, a control
 * character %-encoded (a run directory's name is anybody's; no line may end the link). */
static void put_dest(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<' || c == '>' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "%%%02X", c);
        else
            fputc(c, f);
    }
}

/* A number with fmt, or "–" when it is none (a missing or null field: a run cut short). */
static void put_num(FILE *f, const char *fmt, double v)
{
    if (v == v)
        fprintf(f, fmt, v);
    else
        fputs("–", f);
}

/* The device and the host, as sentences (memory, its type and the nominal peak are the
 * table's first rows): each piece a text, then a value of run.json ("device." or the top). */
static void put_device(FILE *f, const json_t *m)
{
    static const struct {
        const char *before, *path, *num; /* text; run.json path; printf format of a number */
        const char *none;                /* a string's stand-in when run.json has none */
    } parts[] = {
        {"", "device.name", NULL, "unknown device"},
        {" through ", "device.backend", NULL, "?"},
        {" (", "device.arch", NULL, "?"},
        {"); ", "device.compute_units", "%.0f", NULL},
        {" compute units, ECC ", "device.ecc", NULL, "unknown"},
        {"; driver ", "device.driver_version", NULL, "?"},
        {", runtime ", "device.runtime_version", NULL, "?"},
        {".\nHost ", "host.name", NULL, "?"},
        {": ", "host.cpu", NULL, "?"},
        {", ", "host.cpus", "%.0f", NULL},
        {" CPUs, ", "host.os", NULL, "?"},
        {". gmb ", "gmb.version", NULL, "?"},
        {" (git ", "gmb.git", NULL, "?"},
        {"), started ", "started_utc", NULL, "?"},
        {", ", "wall_s", "%.1f s", NULL},
        {", ", "status", NULL, "?"},
    };
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        fputs(parts[i].before, f);
        if (parts[i].num)
            put_num(f, parts[i].num, gmb_jnum(m, parts[i].path));
        else
            put_text(f, str_or(m, parts[i].path, parts[i].none));
    }
    fputs(".\n", f);
}

/* One program's summary: its record's results.summary (rs: the run's records, NULL when none
 * could be read), else why it did not finish. */
static void put_summary(FILE *f, const gmb_runset_t *rs, const json_t *p)
{
    const char *status = str_or(p, "status", "?");
    if (!strcmp(status, "ok")) {
        const gmb_rec_t *r = rs ? gmb_runset_find(rs, 0, str_or(p, "name", "")) : NULL;
        const char *s = r ? json_string_value(gmb_jpath(r->j, "results.summary")) : NULL;
        if (s) {
            put_text(f, s);
            return;
        }
    } else if (json_string_value(json_object_get(p, "reason"))) {
        put_text(f, json_string_value(json_object_get(p, "reason")));
        return;
    }
    fputs("–", f);
}

/* The host's load over the run (run.json's host_load, gmb run): one sentence, before the
 * GPU's conditions; nothing for a manifest without it (an older gmb run). */
static void put_host_load(FILE *f, const json_t *m)
{
    const json_t *h = json_object_get(m, "host_load");
    if (!json_is_object(h))
        return;
    double cpus = gmb_jnum(h, "cpus_online"), l0 = gmb_jnum(h, "loadavg_1m_start"),
           lmax = gmb_jnum(h, "loadavg_1m_max");
    if (json_is_true(json_object_get(h, "busy"))) {
        fputs("**The host was busy**: ", f);
        put_text(f, str_or(h, "reason", "?"));
        fputs(". A CPU device then measures a share of it, and a GPU's host side (launches, "
              "copies from host memory) shares its CPUs.",
              f);
        const json_t *dv = json_object_get(h, "device_in_use_before");
        if (json_array_size(dv)) {
            fputs(" The device was in use before:", f);
            size_t i;
            const json_t *v;
            json_array_foreach(dv, i, v)
            {
                fputs(i ? ", " : " ", f);
                put_text(f, json_string_value(v) ? json_string_value(v) : "?");
            }
            fputs(".", f);
        }
        fputs("\n\n", f);
    } else if (cpus > 0 && l0 >= 0 && lmax >= 0) {
        put_num(f, "The host was not busy: load %.2f at the start", l0);
        put_num(f, ", %.2f at most", lmax);
        put_num(f, ", on %.0f CPUs.\n\n", cpus);
    }
}

/* How each record's points were taken (NVML): other users of the GPU before the program,
 * points held below the application clocks, the SM clock at the points' ends. One sentence
 * when no record has any of it (NVML absent: a CPU, another vendor's GPU). */
static void put_conditions(FILE *f, const gmb_runset_t *rs)
{
    int any = 0;
    for (size_t i = 0; i < rs->nrecs && !any; i++)
        any = json_is_true(gmb_jpath(rs->recs[i].j, "busy_before.available")) ||
              json_is_object(gmb_jpath(rs->recs[i].j, "clocks.during"));
    if (!any) {
        const char *why = rs->nrecs ? str_or(rs->recs[0].j, "busy_before.reason", NULL) : NULL;
        fputs("NVML gave nothing on this device", f);
        if (why) {
            fputs(" (", f);
            put_text(f, why);
            fputs(")", f);
        }
        fputs(": no clocks per point, no other users recorded.\n", f);
        return;
    }
    fputs("| Program | The GPU before it | Points held below the clocks | SM clock at the points' "
          "ends (MHz) |\n|---|---|---:|---|\n",
          f);
    for (size_t i = 0; i < rs->nrecs; i++) {
        const json_t *r = rs->recs[i].j;
        fputs("| ", f);
        put_text(f, rs->recs[i].bench ? rs->recs[i].bench : "?");
        fputs(" | ", f);
        const json_t *b = json_object_get(r, "busy_before");
        double procs = gmb_jnum(b, "compute_processes"), util = gmb_jnum(b, "gpu_util_pct");
        int busy = gmb_rec_busy(r);
        if (!json_is_true(json_object_get(b, "available")))
            fputs("not known", f);
        else if (!busy && json_is_string(json_object_get(b, "after_gmb_program")) &&
                 util > GMB_BUSY_UTIL_PCT) {
            put_num(f, "idle (kernels %.0f%% busy: ", util);
            put_text(f, json_string_value(json_object_get(b, "after_gmb_program")));
            fputs(", just before it)", f);
        } else if (!busy)
            fputs("idle", f);
        else {
            put_num(f, "%.0f compute processes, ", procs);
            put_num(f, "kernels %.0f%% busy", util);
        }
        fputs(" | ", f);
        const json_t *d = gmb_jpath(r, "clocks.during");
        if (json_object_get(d, "points_clocked")) {
            put_num(f, "%.0f", gmb_jnum(d, "points_capped"));
            put_num(f, " of %.0f", gmb_jnum(d, "points_clocked"));
        } else
            fputs("–", f);
        fputs(" | ", f);
        double lo = INFINITY, hi = -INFINITY;
        size_t k;
        const json_t *pt;
        json_array_foreach(json_object_get(r, "points"), k, pt)
        {
            double mhz = gmb_jnum(pt, "clocks.sm_MHz");
            lo = mhz < lo ? mhz : lo;
            hi = mhz > hi ? mhz : hi;
        }
        if (lo > hi)
            fputs("–", f);
        else if (lo == hi)
            fprintf(f, "%.0f", lo);
        else
            fprintf(f, "%.0f–%.0f", lo, hi);
        fputs(" |\n", f);
    }
}

/* The figures gmb plot drew (the PNGs in DIR/figures), as images linked under figs, sorted
 * by name; then those it could not draw, each with its reason (DIR/figures/not-drawn.tsv, as
 * the last gmb plot wrote it). */
static void put_figures(FILE *f, const char *dir, const char *figs)
{
    char path[4096], **names = NULL;
    size_t n = 0, cap = 0;
    snprintf(path, sizeof path, "%s/figures", dir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        int plain = 1; /* gmb plot's names: a file planted with markup in its name is not */
        for (const char *q = e->d_name; *q && plain; q++)
            plain = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                    (*q >= '0' && *q <= '9') || *q == '-' || *q == '_' || *q == '.';
        if (l <= 4 || strcmp(e->d_name + l - 4, ".png") || !plain)
            continue;
        if (n == cap) {
            char **q = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *q);
            if (!q)
                break;
            names = q;
        }
        if ((names[n] = strdup(e->d_name)))
            n++;
    }
    if (d)
        closedir(d);
    snprintf(path, sizeof path, "%s/figures/not-drawn.tsv", dir);
    char err[4400];
    struct stat nst;
    FILE *nd = gmb_fopen_regular(path, NOT_DRAWN_MAX, err, sizeof err);
    if (!nd && !lstat(path, &nst)) /* there, but not a list gmb plot wrote (a FIFO...) */
        fprintf(stderr, "gmb: note: %s: not read\n", err);
    char line[2048];
    int nnd = 0;
    if (!n && !nd)
        fputs("No figures: `gmb plot` draws them into `figures/`.\n", f);
    else if (n) /* qsort of NULL (no figure, a not-drawn list) is undefined, even for 0 */
        qsort(names, n, sizeof *names, gmb_cmp_str);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "![%.*s](<", (int)(strlen(names[i]) - 4), names[i]);
        put_dest(f, figs);
        fprintf(f, "/%s>)\n", names[i]);
        free(names[i]);
    }
    free(names);
    while (nd && fgets(line, sizeof line, nd)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab || tab == line)
            continue;
        *tab = '\0';
        if (!nnd++)
            fputs(n ? "\nNot drawn:\n\n" : "No figure drawn:\n\n", f);
        fputs("- ", f);
        put_text(f, line);
        fputs(": ", f);
        put_text(f, tab + 1);
        fputs("\n", f);
    }
    if (nd) {
        fclose(nd);
        if (!n && !nnd)
            fputs("No figures: `gmb plot` drew none.\n", f);
    }
}

int gmb_run_report(const char *dir, const char *figs, FILE *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/run.json", dir);
    json_error_t je;
    char err[4400];
    /* a regular file only: a FIFO there would hang gmb report, a device feed it forever */
    FILE *mf = gmb_fopen_regular(path, RUN_JSON_MAX, err, sizeof err);
    if (!mf) {
        gmb_error("%s: not a run directory of gmb run (%s)", dir, err);
        return GMB_EUSAGE;
    }
    json_t *m = json_loadf(mf, 0, &je);
    fclose(mf);
    if (!json_is_object(m) || strcmp(str_or(m, "schema", ""), "gmb-run")) {
        gmb_error("%s: not a run directory of gmb run (%s)", dir,
                  m ? "run.json is not a gmb-run manifest" : je.text);
        json_decref(m);
        return GMB_EUSAGE;
    }
    /* the run's records, read once: the programs' summaries and the table */
    char *args[] = {(char *)dir};
    gmb_runset_t rs;
    memset(&rs, 0, sizeof rs);
    int have = !gmb_runset_load(&rs, args, 1, stderr);
    char label[256];
    gmb_device_label(json_object_get(m, "device"), str_or(m, "device.backend", "?"), label,
                     sizeof label);
    fputs("# ", f);
    put_text(f, label);
    fputs(": gmb, ", f);
    put_text(f, str_or(m, "profile", "?"));
    fputs(" profile\n\n", f);
    put_device(f, m);
    fprintf(f,
            "\n| Program | Status | Wall time (s) | Points | Summary |\n|---|---|---:|---:|---|\n");
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(m, "programs"), i, p)
    {
        fputs("| ", f);
        put_text(f, str_or(p, "name", "?"));
        fputs(" | ", f);
        put_text(f, str_or(p, "status", "?"));
        fputs(" | ", f);
        put_num(f, "%.1f", gmb_jnum(p, "wall_s"));
        fputs(" | ", f);
        put_num(f, "%.0f", gmb_jnum(p, "points"));
        fputs(" | ", f);
        put_summary(f, have ? &rs : NULL, p);
        fputs(" |\n", f);
    }
    /* the table, as gmb table prints it */
    gmb_table_t t;
    char *md = NULL, *xmd = NULL, *lmd = NULL;
    if (have && !gmb_table_build(&rs, &t)) {
        md = gmb_table_render(&t, "md");
        if (!gmb_table_levels(&t) && t.nrows) /* the bandwidth of each level, as --levels */
            lmd = gmb_table_render(&t, "md");
        gmb_table_free(&t);
    }
    gmb_xcheck_t x[8];
    if (have)
        xmd = gmb_crosscheck_md(x, gmb_crosscheck(&rs, 0, x, sizeof x / sizeof *x));
    fputs("\n## Conditions\n\n", f);
    put_host_load(f, m);
    if (have)
        put_conditions(f, &rs);
    else
        fputs("No record could be read.\n", f);
    gmb_runset_free(&rs);
    fprintf(f, "\n## Table\n\n%s", md ? md : "No record could be read.\n");
    fputs("\n## Bandwidth by level\n\nEach level of the hierarchy, from the core outwards, "
          "with the program and method that measured it (gmb table --levels).\n\n",
          f);
    fputs(lmd ? lmd : "No level's bandwidth was measured in this run.\n", f);
    free(lmd);
    fputs("\n## Cross-checks\n\nOne quantity measured by different programs, each with its own "
          "kernel and method; a figure counts only where it is that quantity (a memory figure "
          "from a buffer of at least 4x the last-level cache). Where they differ, one method "
          "has a limit the others lack, or the quantity is not one thing on this device (an "
          "L2 in two halves): read the programs' records before quoting either.\n\n",
          f);
    fputs(xmd ? xmd : "No record could be read.\n", f);
    free(md);
    free(xmd);
    fputs("\n## Figures\n\n", f);
    put_figures(f, dir, figs);
    json_decref(m);
    return ferror(f) ? GMB_ERUNTIME : GMB_OK;
}
