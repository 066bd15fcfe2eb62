/* runreport.c - gmb report: one Markdown page for a run directory, from its run.json and
 * records only: the device and host, each program's status and summary, the table, the
 * figures gmb plot drew. */
#include "gmb.h"
#include "tools.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or(const json_t *j, const char *path, const char *dflt)
{
    const char *s = json_string_value(gmb_jpath(j, path));
    return s && *s ? s : dflt;
}

/* Text of a run.json or record string in Markdown: '|' escaped (table cells), line breaks
 * as spaces. */
static void put_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
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
 * table's first rows). */
static void put_device(FILE *f, const json_t *m)
{
    const json_t *d = json_object_get(m, "device");
    put_text(f, str_or(d, "name", "unknown device"));
    fputs(" through ", f);
    put_text(f, str_or(d, "backend", "?"));
    fputs(" (", f);
    put_text(f, str_or(d, "arch", "?"));
    fputs("); ", f);
    put_num(f, "%.0f", gmb_jnum(d, "compute_units"));
    fputs(" compute units, ECC ", f);
    put_text(f, str_or(d, "ecc", "unknown"));
    fputs("; driver ", f);
    put_text(f, str_or(d, "driver_version", "?"));
    fputs(", runtime ", f);
    put_text(f, str_or(d, "runtime_version", "?"));
    fputs(".\nHost ", f);
    put_text(f, str_or(m, "host.name", "?"));
    fputs(": ", f);
    put_text(f, str_or(m, "host.cpu", "?"));
    fputs(", ", f);
    put_num(f, "%.0f", gmb_jnum(m, "host.cpus"));
    fputs(" CPUs, ", f);
    put_text(f, str_or(m, "host.os", "?"));
    fputs(". gmb ", f);
    put_text(f, str_or(m, "gmb.version", "?"));
    fputs(" (git ", f);
    put_text(f, str_or(m, "gmb.git", "?"));
    fputs("), started ", f);
    put_text(f, str_or(m, "started_utc", "?"));
    fputs(", ", f);
    put_num(f, "%.1f s", gmb_jnum(m, "wall_s"));
    fputs(", ", f);
    put_text(f, str_or(m, "status", "?"));
    fputs(".\n", f);
}

/* One program's summary: its record's results.summary, else why it did not finish. */
static void put_summary(FILE *f, const char *dir, const json_t *p)
{
    const char *status = str_or(p, "status", "?");
    size_t i;
    const json_t *r;
    if (!strcmp(status, "ok"))
        json_array_foreach(json_object_get(p, "records"), i, r)
        {
            char path[4096];
            if (!json_is_string(r))
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, json_string_value(r));
            json_t *rec = json_load_file(path, 0, NULL);
            const char *s = json_string_value(gmb_jpath(rec, "results.summary"));
            if (s)
                put_text(f, s);
            json_decref(rec);
            if (s)
                return;
        }
    if (strcmp(status, "ok") && json_string_value(json_object_get(p, "reason"))) {
        put_text(f, json_string_value(json_object_get(p, "reason")));
        return;
    }
    fputs("–", f);
}

/* The figures gmb plot drew (the PNGs in DIR/figures), as images linked under figs, sorted
 * by name. */
static void put_figures(FILE *f, const char *dir, const char *figs)
{
    char path[4096], **names = NULL;
    size_t n = 0, cap = 0;
    snprintf(path, sizeof path, "%s/figures", dir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".png"))
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
    if (!n)
        fputs("No figures: `gmb plot` draws them into `figures/`.\n", f);
    else
        qsort(names, n, sizeof *names, gmb_cmp_str);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "![%.*s](<%s/%s>)\n", (int)(strlen(names[i]) - 4), names[i], figs, names[i]);
        free(names[i]);
    }
    free(names);
}

int gmb_run_report(const char *dir, const char *figs, FILE *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/run.json", dir);
    json_error_t je;
    json_t *m = json_load_file(path, 0, &je);
    if (!json_is_object(m) || strcmp(str_or(m, "schema", ""), "gmb-run")) {
        gmb_error("%s: not a run directory of gmb run (%s)", dir,
                  m ? "run.json is not a gmb-run manifest" : je.text);
        json_decref(m);
        return GMB_EUSAGE;
    }
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
        put_summary(f, dir, p);
        fputs(" |\n", f);
    }
    /* the table, as gmb table prints it */
    char *args[] = {(char *)dir};
    gmb_runset_t rs;
    gmb_table_t t;
    char *md = NULL;
    memset(&rs, 0, sizeof rs);
    if (!gmb_runset_load(&rs, args, 1, stderr) && !gmb_table_build(&rs, &t)) {
        md = gmb_table_render(&t, "md");
        gmb_table_free(&t);
    }
    gmb_runset_free(&rs);
    fprintf(f, "\n## Table\n\n%s", md ? md : "No record could be read.\n");
    free(md);
    fputs("\n## Figures\n\n", f);
    put_figures(f, dir, figs);
    json_decref(m);
    return ferror(f) ? GMB_ERUNTIME : GMB_OK;
}
