/* runset.c - run sets: the records of the directories and files gmb plot, table, report and
 * compare were given, grouped into runs and labelled. */
#include "gmb.h"
#include "nvml.h"
#include "record.h"
#include "tools/reader.h"
#include "topo.h"

#include <ctype.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

/* ---- run sets --------------------------------------------------------------------------- */

void gmb_device_label(const json_t *dev, const char *backend, char *out, size_t len)
{
    char name[160];
    const char *n = gmb_jstr(dev, "name");
    /* PoCL names its CPU device "pthread-<arch>-<model>": keep the model */
    while (*n) {
        const char *p = n;
        while (*p && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
            p++;
        if (p > n && *p == '-' && p[1])
            n = p + 1;
        else
            break;
    }
    size_t k = 0;
    for (const char *p = n; *p && k + 1 < sizeof name; p++) {
        if (!strncmp(p, "(R)", 3) || !strncmp(p, "(TM)", 4) || !strncmp(p, "(tm)", 4)) {
            p += p[1] == 'R' ? 2 : 3;
            continue;
        }
        if (*p == ' ' && (k == 0 || name[k - 1] == ' '))
            continue;
        name[k++] = *p;
    }
    while (k && name[k - 1] == ' ')
        k--;
    name[k] = '\0';
    if (!k)
        gmb_strlcpy(name, "device", sizeof name);
    const char *plat = gmb_jstr(dev, "platform"), *type = gmb_jstr(dev, "type");
    const char *be = backend && *backend ? backend : gmb_jstr(dev, "backend");
    if (strstr(plat, "Portable Computing Language"))
        snprintf(out, len, "%s (PoCL %s)", name, !strcmp(type, "cpu") ? "CPU" : type);
    else if (gmb_backend_kind(be))
        snprintf(out, len, "%s (%s)", name, gmb_backend_kind(be)->label);
    else
        snprintf(out, len, "%s", name);
}

int gmb_runset_add(gmb_runset_t *rs, json_t *rec, const char *path, const char *source)
{
    size_t r;
    for (r = 0; r < rs->nruns; r++)
        if (!strcmp(rs->runs[r].source, source))
            break;
    if (r == rs->nruns) {
        gmb_run_t *nr = realloc(rs->runs, (rs->nruns + 1) * sizeof *nr);
        if (!nr)
            return GMB_ERUNTIME;
        rs->runs = nr;
        memset(&nr[r], 0, sizeof nr[r]);
        gmb_strlcpy(nr[r].source, source, sizeof nr[r].source);
        rs->nruns++;
    }
    gmb_rec_t *nrec = realloc(rs->recs, (rs->nrecs + 1) * sizeof *nrec);
    if (!nrec)
        return GMB_ERUNTIME;
    rs->recs = nrec;
    gmb_rec_t *x = &nrec[rs->nrecs++];
    memset(x, 0, sizeof *x);
    x->j = rec;
    gmb_strlcpy(x->path, path, sizeof x->path);
    x->bench = json_string_value(json_object_get(rec, "benchmark"));
    x->run = r;
    /* devices are borrowed from records: re-point every run (recs may have moved) */
    for (size_t i = 0; i < rs->nruns; i++)
        rs->runs[i].device = NULL;
    for (size_t i = 0; i < rs->nrecs; i++) {
        gmb_run_t *run = &rs->runs[rs->recs[i].run];
        if (!run->device) {
            run->device = json_object_get(rs->recs[i].j, "device");
            gmb_strlcpy(run->time_utc, gmb_jstr(rs->recs[i].j, "time_utc"), sizeof run->time_utc);
        }
    }
    return GMB_OK;
}

void gmb_runset_label(gmb_runset_t *rs)
{
    for (size_t r = 0; r < rs->nruns; r++) {
        const gmb_rec_t *first = NULL;
        for (size_t i = 0; i < rs->nrecs && !first; i++)
            if (rs->recs[i].run == r)
                first = &rs->recs[i];
        gmb_device_label(rs->runs[r].device, first ? gmb_jstr(first->j, "backend") : "",
                         rs->runs[r].label, sizeof rs->runs[r].label);
    }
    /* two runs on one device: add the date, then the directory name if still equal */
    char(*orig)[192] = calloc(rs->nruns ? rs->nruns : 1, sizeof *orig);
    if (!orig)
        return;
    for (size_t r = 0; r < rs->nruns; r++)
        gmb_strlcpy(orig[r], rs->runs[r].label, sizeof orig[r]);
    for (size_t r = 0; r < rs->nruns; r++) {
        int dup = 0;
        for (size_t q = 0; q < rs->nruns; q++)
            dup |= q != r && !strcmp(orig[q], orig[r]);
        if (!dup)
            continue;
        char date[20];
        gmb_strlcpy(date, rs->runs[r].time_utc[0] ? rs->runs[r].time_utc : "?", 17);
        if (strlen(date) > 10 && date[10] == 'T')
            date[10] = ' ';
        snprintf(rs->runs[r].label, sizeof rs->runs[r].label, "%.150s, %s", orig[r], date);
    }
    for (size_t r = 0; r < rs->nruns; r++)
        gmb_strlcpy(orig[r], rs->runs[r].label, sizeof orig[r]);
    for (size_t r = 0; r < rs->nruns; r++) {
        int dup = 0;
        for (size_t q = 0; q < rs->nruns; q++)
            dup |= q != r && !strcmp(orig[q], orig[r]);
        if (!dup)
            continue;
        const char *slash = strrchr(rs->runs[r].source, '/');
        snprintf(rs->runs[r].label, sizeof rs->runs[r].label, "%.120s (%.60s)", orig[r],
                 slash ? slash + 1 : rs->runs[r].source);
    }
    free(orig);
}

void gmb_runset_free(gmb_runset_t *rs)
{
    for (size_t i = 0; i < rs->nrecs; i++)
        json_decref(rs->recs[i].j);
    free(rs->recs);
    free(rs->runs);
    memset(rs, 0, sizeof *rs);
}

const gmb_rec_t *gmb_runset_find(const gmb_runset_t *rs, size_t run, const char *bench)
{
    const gmb_rec_t *best = NULL;
    for (size_t i = 0; i < rs->nrecs; i++) {
        const gmb_rec_t *x = &rs->recs[i];
        if (x->run != run || !x->bench || strcmp(x->bench, bench))
            continue;
        if (!best || strcmp(gmb_jstr(x->j, "time_utc"), gmb_jstr(best->j, "time_utc")) >= 0)
            best = x;
    }
    return best;
}

/* Read one record file; one line on err when it cannot be used. */
static void load_one(gmb_runset_t *rs, const char *path, const char *source, FILE *err)
{
    char msg[4600];
    json_t *r = gmb_record_load(path, msg, sizeof msg);
    if (!r) {
        fprintf(err, "gmb: error: %s; skipped\n", msg);
        rs->nbad++;
        return;
    }
    if (msg[0]) /* a newer schema: read what we understand */
        fprintf(err, "gmb: warning: %s\n", msg);
    json_int_t ver = json_integer_value(json_object_get(r, "schema_version"));
    if (ver < GMB_RECORD_SCHEMA_READ_FULLY)
        fprintf(err,
                "gmb: warning: %s: schema version %" JSON_INTEGER_FORMAT
                " is older than this gmb reads in full (%d; it writes %d): what it lacks shows "
                "as '-'\n",
                path, ver, GMB_RECORD_SCHEMA_READ_FULLY, GMB_RECORD_SCHEMA_VERSION);
    if (!json_is_string(json_object_get(r, "benchmark")) ||
        !json_is_array(json_object_get(r, "points"))) {
        fprintf(err, "gmb: error: %s: a gmb record without benchmark or points; skipped\n", path);
        json_decref(r);
        rs->nbad++;
        return;
    }
    if (!json_is_object(json_object_get(r, "device")))
        json_object_set_new(r, "device", json_object());
    if (gmb_runset_add(rs, r, path, source)) {
        json_decref(r);
        rs->nbad++;
    }
}

int gmb_runset_load(gmb_runset_t *rs, char *const *args, int nargs, FILE *err)
{
    for (int a = 0; a < nargs; a++) {
        struct stat st;
        char src[4096];
        gmb_strlcpy(src, args[a], sizeof src);
        size_t l = strlen(src);
        while (l > 1 && src[l - 1] == '/')
            src[--l] = '\0';
        if (stat(src, &st)) {
            fprintf(err, "gmb: error: %s: no such file or directory\n", src);
            rs->nbad++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            char dir[4096];
            gmb_strlcpy(dir, src, sizeof dir);
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = '\0';
            else
                gmb_strlcpy(dir, ".", sizeof dir);
            load_one(rs, src, dir, err);
            continue;
        }
        DIR *d = opendir(src);
        if (!d) {
            fprintf(err, "gmb: error: %s: cannot read the directory\n", src);
            rs->nbad++;
            continue;
        }
        char **names = NULL;
        size_t n = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t el = strlen(e->d_name);
            if (e->d_name[0] == '.' || el < 6 || strcmp(e->d_name + el - 5, ".json") ||
                !strcmp(e->d_name, "run.json"))
                continue;
            char **nn = realloc(names, (n + 1) * sizeof *nn);
            if (!nn)
                break;
            names = nn;
            if (!(names[n] = strdup(e->d_name)))
                break;
            n++;
        }
        closedir(d);
        if (n)
            qsort(names, n, sizeof *names, gmb_cmp_str);
        if (!n) {
            fprintf(err, "gmb: error: %s: no records (*.json) in this directory\n", src);
            rs->nbad++;
        }
        for (size_t i = 0; i < n; i++) {
            char p[8300];
            snprintf(p, sizeof p, "%s/%s", src, names[i]);
            load_one(rs, p, src, err);
            free(names[i]);
        }
        free(names);
    }
    gmb_runset_label(rs);
    return rs->nrecs ? GMB_OK : GMB_EUSAGE;
}

/* The record of bench in run r; bench "" (device facts): the first record of the run that
 * has a device. NULL when there is none. */
const gmb_rec_t *gmb_runset_rec(const gmb_runset_t *rs, size_t r, const char *bench)
{
    if (bench[0])
        return gmb_runset_find(rs, r, bench);
    for (size_t k = 0; k < rs->nrecs; k++)
        if (rs->recs[k].run == r && json_object_size(json_object_get(rs->recs[k].j, "device")))
            return &rs->recs[k];
    return NULL;
}

int gmb_rec_busy(const json_t *rec)
{
    const json_t *b = json_object_get(rec, "busy_before");
    return json_is_true(json_object_get(b, "available")) &&
           gmb_busy_in_use(gmb_jnum(b, "compute_processes"), gmb_jnum(b, "gpu_util_pct"),
                           json_is_string(json_object_get(b, "after_gmb_program")));
}
