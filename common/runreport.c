/* runreport.c - gmb report: one Markdown page for a run directory, from its run.json and
 * records only: the device and host, each program's status and summary, the table, the
 * figures gmb plot drew. */
#include "gmb.h"
#include "tools.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or(const json_t *j, const char *path, const char *dflt)
{
    const char *s = json_string_value(gmb_jpath(j, path));
    return s && *s ? s : dflt;
}

/* Text for one cell of a Markdown table: '|' escaped, line breaks as spaces. */
static void put_cell(FILE *f, const char *s)
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

/* The device and the host, as sentences. */
static void put_device(FILE *f, const json_t *m)
{
    const json_t *d = json_object_get(m, "device");
    char num[32];
    fprintf(f, "%s through %s (%s), %.3g GiB of memory", str_or(d, "name", "unknown device"),
            str_or(d, "backend", "?"), str_or(d, "arch", "?"),
            gmb_jnum(d, "mem_bytes") / (double)(1ull << 30));
    if (gmb_jnum(d, "bus_width_bits") > 0)
        fprintf(f, " (%s, %.0f-bit bus)", str_or(d, "mem_type", "unknown type"),
                gmb_jnum(d, "bus_width_bits"));
    if (gmb_jnum(d, "peak_bw_GBps") > 0) {
        gmb_fmt_num(gmb_jnum(d, "peak_bw_GBps"), num, sizeof num);
        fprintf(f, ", nominal peak %s GB/s (%s)", num, str_or(d, "peak_bw_source", "?"));
    } else {
        fprintf(f, ", no nominal peak (%s)", str_or(d, "peak_bw_source", "unknown"));
    }
    fprintf(f, "; %d compute units, ECC %s; driver %s, runtime %s.\n",
            (int)gmb_jnum(d, "compute_units"), str_or(d, "ecc", "unknown"),
            str_or(d, "driver_version", "?"), str_or(d, "runtime_version", "?"));
    fprintf(f, "Host %s: %s, %d CPUs, %s. gmb %s (git %s), %s profile, started %s, %.1f s, %s.\n",
            str_or(m, "host.name", "?"), str_or(m, "host.cpu", "?"), (int)gmb_jnum(m, "host.cpus"),
            str_or(m, "host.os", "?"), str_or(m, "gmb.version", "?"), str_or(m, "gmb.git", "?"),
            str_or(m, "profile", "?"), str_or(m, "started_utc", "?"), gmb_jnum(m, "wall_s"),
            str_or(m, "status", "?"));
}

/* One program's summary: its record's results.summary, else why it did not finish. */
static void put_summary(FILE *f, const char *dir, const json_t *p)
{
    const char *status = str_or(p, "status", "?");
    const json_t *recs = json_object_get(p, "records");
    size_t i;
    const json_t *r;
    if (!strcmp(status, "ok"))
        json_array_foreach(recs, i, r)
        {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, json_string_value(r));
            json_t *rec = json_load_file(path, 0, NULL);
            const char *s = json_string_value(gmb_jpath(rec, "results.summary"));
            if (s)
                put_cell(f, s);
            json_decref(rec);
            if (s)
                return;
        }
    if (strcmp(status, "ok") && json_string_value(json_object_get(p, "reason"))) {
        put_cell(f, json_string_value(json_object_get(p, "reason")));
        return;
    }
    fputs("–", f);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The figures gmb plot drew (the PNGs in DIR/figures), as images, sorted by name. */
static void put_figures(FILE *f, const char *dir)
{
    char path[4096], *names[256];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/figures", dir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".png"))
            names[n++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    if (!n) {
        fputs("No figures: `gmb plot` draws them into `figures/`.\n", f);
        return;
    }
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        if (names[i]) {
            fprintf(f, "![%.*s](figures/%s)\n", (int)(strlen(names[i]) - 4), names[i], names[i]);
            free(names[i]);
        }
    }
}

int gmb_run_report(const char *dir, FILE *f)
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
    fprintf(f, "# %s: gmb, %s profile\n\n", label, str_or(m, "profile", "?"));
    put_device(f, m);
    fprintf(f,
            "\n| Program | Status | Wall time (s) | Points | Summary |\n|---|---|---:|---:|---|\n");
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(m, "programs"), i, p)
    {
        fprintf(f, "| %s | %s | %.1f | %d | ", str_or(p, "name", "?"), str_or(p, "status", "?"),
                gmb_jnum(p, "wall_s") == gmb_jnum(p, "wall_s") ? gmb_jnum(p, "wall_s") : 0.0,
                (int)gmb_jnum(p, "points"));
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
    put_figures(f, dir);
    json_decref(m);
    return ferror(f) ? GMB_ERUNTIME : GMB_OK;
}
