/* machine.c - gmb run --devices: the suite on every device of a machine, one device after the
 * other, then the peer matrix (gmb-copy's peers profile on each device) and the machine's
 * summary: machine.json, the table with one column per device, peers.md. */
#include "tools/machine.h"

#include "gmb.h"
#include "harness.h"
#include "host.h"
#include "record.h"
#include "tools/runset.h"
#include "tools/table.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const engines[] = {"ce", "sm", NULL};

/* The bandwidth of key in a copy record's results.largest (NAN when absent), its size. */
static double largest(const json_t *rec, const char *key, json_int_t *size)
{
    const json_t *b =
        json_object_get(json_object_get(json_object_get(rec, "results"), "largest"), key);
    const json_t *v = json_object_get(b, "bw_GBps");
    if (!json_is_number(v))
        return NAN;
    if (size && json_is_integer(json_object_get(b, "size_bytes")))
        *size = json_integer_value(json_object_get(b, "size_bytes"));
    return json_number_value(v);
}

static int rec_device(const json_t *rec)
{
    const json_t *i = json_object_get(json_object_get(rec, "device"), "index");
    return json_is_integer(i) ? (int)json_integer_value(i) : -1;
}

json_t *gmb_peer_matrix(const json_t *const *recs, size_t n_recs, const int *devs, size_t n)
{
    json_t *out = json_object(), *skipped = json_array();
    for (int e = 0; engines[e]; e++) {
        json_t *rows = json_array();
        json_int_t size = 0;
        int any = 0;
        for (size_t a = 0; a < n; a++) {
            json_t *row = json_array();
            for (size_t b = 0; b < n; b++) {
                double v = NAN;
                char key[64];
                /* a to b: a's own record, else b's copy back to a (p2p_rev of peer a) */
                for (size_t r = 0; r < n_recs && a != b && isnan(v); r++)
                    if (rec_device(recs[r]) == devs[a]) {
                        snprintf(key, sizeof key, "p2p_peer%d_%s", devs[b], engines[e]);
                        v = largest(recs[r], key, &size);
                    }
                for (size_t r = 0; r < n_recs && a != b && isnan(v); r++)
                    if (rec_device(recs[r]) == devs[b]) {
                        snprintf(key, sizeof key, "p2p_rev_peer%d_%s", devs[a], engines[e]);
                        v = largest(recs[r], key, &size);
                    }
                any |= !isnan(v);
                json_array_append_new(row, isnan(v) ? json_null() : json_real(v));
            }
            json_array_append_new(rows, row);
        }
        if (any)
            json_object_set_new(out, engines[e],
                                json_pack("{s:o, s:I}", "GBps", rows, "size_bytes", size));
        else
            json_decref(rows);
    }
    for (size_t r = 0; r < n_recs; r++) {
        size_t i;
        const json_t *s;
        json_array_foreach(json_object_get(json_object_get(recs[r], "results"), "skipped"), i, s)
        {
            const char *dir = json_string_value(json_object_get(s, "direction"));
            const char *kind = json_string_value(json_object_get(s, "kind"));
            if (!dir || strcmp(dir, "p2p") || !kind)
                continue;
            int to = -1;
            if (sscanf(kind, "peer%d", &to) != 1)
                to = -1;
            json_array_append_new(skipped,
                                  json_pack("{s:i, s:o, s:O, s:O}", "from", rec_device(recs[r]),
                                            "to", to >= 0 ? json_integer(to) : json_null(),
                                            "engine", json_object_get(s, "engine"), "reason",
                                            json_object_get(s, "reason")));
        }
    }
    json_object_set_new(out, "skipped", skipped);
    return out;
}

char *gmb_peer_matrix_md(const json_t *m, const int *devs, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int any = 0;
    for (int e = 0; engines[e]; e++) {
        const json_t *em = json_object_get(m, engines[e]);
        if (!em)
            continue;
        any = 1;
        char sz[32];
        fprintf(f, "%s, the largest copy (%s): GB/s from the row's device to the column's\n\n",
                e ? "SM kernel (sm)" : "Copy engine (ce)",
                gmb_fmt_size((uint64_t)json_integer_value(json_object_get(em, "size_bytes")), sz,
                             sizeof sz));
        fprintf(f, "| from \\ to |");
        for (size_t b = 0; b < n; b++)
            fprintf(f, " device %d |", devs[b]);
        fprintf(f, "\n|---|");
        for (size_t b = 0; b < n; b++)
            fprintf(f, "---:|");
        fprintf(f, "\n");
        for (size_t a = 0; a < n; a++) {
            fprintf(f, "| device %d |", devs[a]);
            const json_t *row = json_array_get(json_object_get(em, "GBps"), a);
            for (size_t b = 0; b < n; b++) {
                const json_t *v = json_array_get(row, b);
                if (a == b)
                    fprintf(f, " · |");
                else if (json_is_number(v))
                    fprintf(f, " %.4g |", json_number_value(v));
                else
                    fprintf(f, " — |");
            }
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
    }
    if (!any)
        fprintf(f, "No peer copy was measured.\n\n");
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(m, "skipped"), i, s)
    {
        char reason[512];
        gmb_strlcpy(reason, json_string_value(json_object_get(s, "reason")) ?: "", sizeof reason);
        gmb_text_plain(reason);
        const json_t *to = json_object_get(s, "to");
        fprintf(f, "- skipped: device %lld to ",
                (long long)json_integer_value(json_object_get(s, "from")));
        if (json_is_integer(to))
            fprintf(f, "device %lld", (long long)json_integer_value(to));
        else
            fprintf(f, "any device");
        fprintf(f, ", %s: %s\n", json_string_value(json_object_get(s, "engine")) ?: "?", reason);
    }
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- the run ------------------------------------------------------------------------------ */

static volatile sig_atomic_t machine_sig; /* a stop between two devices' suites */
static void on_stop(int s)
{
    if (!machine_sig)
        machine_sig = s;
}

static int put_text(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX + 64], tmp[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = gmb_file_new(path, tmp, sizeof tmp);
    if (f)
        fputs(text, f);
    if (!f || gmb_file_commit(f, tmp, path)) {
        gmb_error("cannot write %s: %s", path, strerror(errno ? errno : EIO));
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

/* The device indices of --devices into devs (n of them): all, or indices each < ndev, none
 * twice. GMB_EUSAGE with one line. */
static int device_list(const gmb_ints_t *l, int ndev, const char *be, int *devs, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < l->n; i++) {
        long v = l->v[i];
        if (v < 0) { /* all */
            for (int k = 0; k < ndev; k++) {
                int seen = 0;
                for (size_t j = 0; j < *n; j++)
                    seen |= devs[j] == k;
                if (!seen && *n < GMB_MAX_INTS)
                    devs[(*n)++] = k;
            }
            continue;
        }
        if (v >= ndev) {
            gmb_error("--devices %ld: no such device (%s has %d device%s; gmb devices lists them)",
                      v, be, ndev, ndev == 1 ? "" : "s");
            return GMB_EUSAGE;
        }
        for (size_t j = 0; j < *n; j++)
            if (devs[j] == v) {
                gmb_error("--devices: device %ld is named twice", v);
                return GMB_EUSAGE;
            }
        devs[(*n)++] = (int)v;
    }
    return *n ? GMB_OK : GMB_EUSAGE;
}

/* Worst of two exit statuses as the suite counts them: a signal, then 3, then 1; 77 only
 * when both are; else 0. */
static int worse(int a, int b)
{
    if (a >= 128 || b >= 128)
        return a >= 128 ? a : b;
    if (a == 3 || b == 3 || a == 2 || b == 2)
        return 3;
    if (a == 1 || b == 1)
        return 1;
    return a == 77 && b == 77 ? 77 : 0;
}

/* The path of a run directory relative to the machine directory (its records move with it). */
static const char *rel(const char *path, const char *root)
{
    size_t l = strlen(root);
    return !strncmp(path, root, l) && path[l] == '/' ? path + l + 1 : path;
}

/* Read the table of the device runs and write table.md and table.csv, one column per device
 * ("device N: <its label>"). */
static void machine_table(const char *mdir, json_t *devices)
{
    size_t nd = json_array_size(devices), nr = 0;
    char **args = calloc(nd ? nd : 1, sizeof *args);
    int *idx = calloc(nd ? nd : 1, sizeof *idx);
    char path[8300];
    for (size_t i = 0; args && idx && i < nd; i++) {
        const json_t *d = json_array_get(devices, i);
        const char *run = json_string_value(json_object_get(d, "run"));
        if (!run)
            continue;
        snprintf(path, sizeof path, "%s/%s", mdir, run);
        args[nr] = strdup(path);
        idx[nr++] = (int)json_integer_value(json_object_get(d, "index"));
    }
    gmb_runset_t rs;
    memset(&rs, 0, sizeof rs);
    FILE *devnull = fopen("/dev/null", "w");
    if (nr && !gmb_runset_load(&rs, args, (int)nr, devnull ? devnull : stderr) && rs.nruns == nr) {
        for (size_t r = 0; r < rs.nruns; r++) {
            char l[sizeof rs.runs[r].label];
            snprintf(l, sizeof l, "device %d: %.170s", idx[r], rs.runs[r].label);
            gmb_strlcpy(rs.runs[r].label, l, sizeof rs.runs[r].label);
        }
        gmb_table_t t;
        if (!gmb_table_build(&rs, &t)) {
            const char *fmt[] = {"md", "csv"};
            for (int k = 0; k < 2; k++) {
                char *s = gmb_table_render(&t, fmt[k]), name[16];
                snprintf(name, sizeof name, "table.%s", fmt[k]);
                if (s)
                    put_text(mdir, name, s);
                if (s && !k)
                    fputs(s, stdout);
                free(s);
            }
            gmb_table_free(&t);
        }
    }
    if (devnull)
        fclose(devnull);
    gmb_runset_free(&rs);
    for (size_t i = 0; args && i < nr; i++)
        free(args[i]);
    free(args);
    free(idx);
}

/* The peer matrix from the peers runs' copy records, into m and peers.md. */
static void machine_peers(const char *mdir, json_t *m, const int *devs, size_t n)
{
    json_t *peers = json_object_get(m, "peers");
    json_t *runs = json_object_get(peers, "runs");
    const json_t **recs = calloc(json_array_size(runs) + 1, sizeof *recs);
    json_t **own = calloc(json_array_size(runs) + 1, sizeof *own);
    size_t nrec = 0, i;
    const json_t *r;
    json_array_foreach(runs, i, r)
    {
        const json_t *files = json_object_get(r, "records");
        size_t k;
        const json_t *f;
        json_array_foreach(files, k, f)
        {
            const char *name = json_string_value(f);
            size_t l = name ? strlen(name) : 0;
            if (!recs || !own || l < 10 || strcmp(name + l - 10, "-copy.json"))
                continue;
            char path[12400];
            snprintf(path, sizeof path, "%s/%s/%s", mdir,
                     json_string_value(json_object_get(r, "run")), name);
            json_t *j = json_load_file(path, 0, NULL);
            if (j)
                recs[nrec] = own[nrec] = j, nrec++;
        }
    }
    json_t *mat = gmb_peer_matrix(recs, nrec, devs, n);
    char *md = gmb_peer_matrix_md(mat, devs, n);
    if (md) {
        char host[256] = "";
        gethostname(host, sizeof host - 1);
        char *page = NULL;
        if (asprintf(&page, "# Peer copies on %s\n\n%s", host, md) >= 0) {
            put_text(mdir, "peers.md", page);
            printf("== peer copies (peers.md)\n%s", md);
        }
        free(page);
    }
    free(md);
    json_object_set_new(peers, "matrix", mat);
    for (size_t k = 0; k < nrec; k++)
        json_decref(own[k]);
    free(recs);
    free(own);
}

/* Record a suite's outcome (its run directory, run.json's records) in entry. */
static void suite_done(json_t *entry, const gmb_suite_opts_t *o, const char *mdir, int st)
{
    json_object_set_new(entry, "exit_status", json_integer(st));
    json_object_set_new(entry, "status",
                        json_string(st >= 128  ? "interrupted"
                                    : st == 0  ? "complete"
                                    : st == 77 ? "skipped"
                                    : st == 1  ? "verification_failed"
                                               : "failed"));
    if (!o->rundir[0]) {
        json_object_set_new(entry, "run", json_null());
        return;
    }
    json_object_set_new(entry, "run", json_string(rel(o->rundir, mdir)));
    char path[8300];
    snprintf(path, sizeof path, "%s/run.json", o->rundir);
    json_t *man = json_load_file(path, 0, NULL), *recs = json_array();
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(man, "programs"), i, p)
    {
        size_t k;
        json_t *f;
        json_array_foreach(json_object_get(p, "records"), k, f) json_array_append(recs, f);
    }
    json_object_set_new(entry, "records", recs);
    json_decref(man);
}

int gmb_machine_run(gmb_suite_opts_t *o)
{
    const gmb_backend_t *be = NULL;
    int ndev = 0, rc, devs[GMB_MAX_INTS];
    size_t n = 0;
    char why[1024];
    if ((rc = gmb_suite_backend(o->backend, &be, &ndev)))
        return rc;
    if (device_list(&o->devices, ndev, be->kind->name, devs, &n))
        return 2;
    if (strlen(o->results) > GMB_OUT_MAX - 2 * 128) {
        gmb_error("--out is %zu characters long: at most %d (the machine directory, its run "
                  "directories and their records go under it)",
                  strlen(o->results), GMB_OUT_MAX - 2 * 128);
        return 2;
    }
    if ((rc = gmb_out_check(o->results, why, sizeof why))) {
        gmb_error("%s", why);
        return rc == GMB_EUSAGE ? 2 : 3;
    }
    char host[256] = "", slug[128], mslug[160], mdir[4096], started[32];
    gethostname(host, sizeof host - 1);
    gmb_slug(host[0] ? host : "host", slug, sizeof slug);
    snprintf(mslug, sizeof mslug, "machine-%s", slug);
    if (gmb_make_rundir(o->results, mslug, mdir, sizeof mdir))
        return 3;
    gmb_utc_now(started, sizeof started, NULL, 0);
    json_t *cmd = json_array();
    for (int i = 0; i < o->argc; i++)
        json_array_append_new(cmd, json_string(o->argv[i]));
    json_t *m = json_pack("{s:s, s:i, s:{s:s, s:s}, s:o, s:s, s:s, s:s, s:s, s:[], s:{s:[]}, "
                          "s:s, s:n, s:n}",
                          "schema", "gmb-machine", "schema_version", 1, "gmb", "version",
                          GMB_VERSION, "git", gmb_git_rev, "command", cmd, "host", host, "backend",
                          be->kind->name, "profile", o->profile, "started_utc", started, "devices",
                          "peers", "runs", "status", "running", "finished_utc", "exit_status");
    json_t *devices = json_object_get(m, "devices");
    for (size_t i = 0; i < n; i++) {
        gmb_dev_info_t info;
        json_t *d = json_pack("{s:i, s:s}", "index", devs[i], "status", "pending");
        if (!be->info(devs[i], &info))
            json_object_set_new(d, "name", json_string(info.name)),
                json_object_set_new(d, "pci_bus_id", json_string(info.pci_bus_id)),
                json_object_set_new(d, "serial", json_string(info.serial)),
                json_object_set_new(d, "board_part", json_string(info.board_part));
        json_array_append_new(devices, d);
    }
    if (gmb_json_write_atomic(m, mdir, "machine.json")) {
        gmb_error("cannot write %s/machine.json", mdir);
        json_decref(m);
        return 3;
    }
    struct sigaction sa, old[GMB_NSTOP_SIGNALS];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    machine_sig = 0;
    for (int k = 0; k < GMB_NSTOP_SIGNALS; k++)
        sigaction(gmb_stop_signals[k], &sa, &old[k]);
    fprintf(stderr, "gmb: %s profile on %zu %s device%s in turn; the machine's runs in %s\n",
            o->profile, n, be->kind->name, n == 1 ? "" : "s", mdir);
    const char *results = o->results;
    int status = -1;
    o->results = mdir;
    for (size_t i = 0; i < n && !machine_sig && (status < 0 || status < 128); i++) {
        json_t *d = json_array_get(devices, i);
        o->device = devs[i];
        o->rundir[0] = '\0';
        fprintf(stderr, "gmb: device %d (%zu of %zu)\n", devs[i], i + 1, n);
        int st = gmb_suite_run(o);
        if (st == 2 && !o->rundir[0] && i == 0) { /* refused before it made anything */
            char mj[4200];
            snprintf(mj, sizeof mj, "%s/machine.json", mdir);
            unlink(mj);
            rmdir(mdir);
            char parent[4200];
            snprintf(parent, sizeof parent, "%s/%s", results, mslug);
            rmdir(parent); /* when empty */
            o->results = results;
            for (int k = 0; k < GMB_NSTOP_SIGNALS; k++)
                sigaction(gmb_stop_signals[k], &old[k], NULL);
            json_decref(m);
            o->rundir[0] = '\0';
            return 2;
        }
        suite_done(d, o, mdir, st);
        status = status < 0 ? st : worse(status, st);
        gmb_json_write_atomic(m, mdir, "machine.json");
    }
    /* the peer matrix: gmb-copy's peers profile on each device, where copy is run at all */
    json_t *peers = json_object_get(m, "peers");
    int copy_on = (!o->only || strstr(o->only, "copy")) && (!o->skip || !strstr(o->skip, "copy"));
    if (n < 2 || !copy_on || machine_sig || status >= 128) {
        json_object_set_new(peers, "why",
                            json_string(n < 2      ? "one device: no pair"
                                        : !copy_on ? "gmb-copy not run (--only, --skip)"
                                                   : "interrupted before the peer copies"));
    } else {
        char proot[4200];
        snprintf(proot, sizeof proot, "%s/peers", mdir);
        const char *only = o->only, *skip = o->skip, *profile = o->profile;
        o->only = "copy";
        o->skip = NULL;
        o->profile = "peers";
        o->results = proot;
        for (size_t i = 0; i < n && !machine_sig; i++) {
            json_t *e = json_pack("{s:i}", "index", devs[i]);
            o->device = devs[i];
            o->rundir[0] = '\0';
            fprintf(stderr, "gmb: peer copies of device %d (%zu of %zu)\n", devs[i], i + 1, n);
            int st = gmb_suite_run(o);
            suite_done(e, o, mdir, st);
            json_array_append_new(json_object_get(peers, "runs"), e);
            status = worse(status, st);
            gmb_json_write_atomic(m, mdir, "machine.json");
            if (st >= 128)
                break;
        }
        o->only = only;
        o->skip = skip;
        o->profile = profile;
        machine_peers(mdir, m, devs, n);
    }
    o->results = results;
    if (machine_sig && status < 128)
        status = 128 + machine_sig;
    size_t i;
    json_t *d;
    json_array_foreach(devices, i, d)
    {
        if (!strcmp(json_string_value(json_object_get(d, "status")), "pending"))
            json_object_set_new(d, "status", json_string("not_run"));
    }
    printf("== the devices side by side (table.md)\n");
    machine_table(mdir, devices);
    char fin[32];
    gmb_utc_now(fin, sizeof fin, NULL, 0);
    json_object_set_new(m, "finished_utc", json_string(fin));
    json_object_set_new(m, "status", json_string(status >= 128 ? "interrupted" : "complete"));
    json_object_set_new(m, "exit_status", json_integer(status));
    if (status >= 128)
        json_object_set_new(m, "interrupted_by", json_string(gmb_signal_name(status - 128)));
    int wrc = gmb_json_write_atomic(m, mdir, "machine.json");
    if (wrc)
        gmb_error("cannot write %s/machine.json", mdir);
    for (int k = 0; k < GMB_NSTOP_SIGNALS; k++)
        sigaction(gmb_stop_signals[k], &old[k], NULL);
    fprintf(stderr, "gmb: machine run %s: %zu device%s; %s/machine.json, table.md, peers.md\n",
            status >= 128 ? "interrupted" : "done", n, n == 1 ? "" : "s", mdir);
    gmb_strlcpy(o->rundir, mdir, sizeof o->rundir);
    json_decref(m);
    return wrc ? 3 : status;
}
