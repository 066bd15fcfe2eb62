/* suite.c - `gmb run`: every benchmark next to bin/gmb on one device, quick or full profile,
 * progress on stderr, one run directory with every record and a run.json manifest. */
#include "gmb.h"
#include "harness.h"
#include "host.h"
#include "nvml.h"
#include "record.h"
#include "tools/runset.h"
#include "tools/suite.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define MAX_PROGS 64

/* ---- profiles --------------------------------------------------------------------------- */

/* Built-in fallback when no profiles file says anything: common options only. */
static void builtin(const char *profile, gmb_profile_t *out)
{
    memset(out, 0, sizeof *out);
    out->generic = 1;
    if (!strcmp(profile, "quick")) {
        gmb_strlcpy(out->args, "--max-samples 20 --time-cap 0.3 --ci-target 2", sizeof out->args);
        out->est_s = 30;
    }
}

#define GMB_PROFILES_MAX_BYTES (1 << 20) /* far above any profiles.conf */

int gmb_profile_lookup(const char *file, const char *bench, const char *profile,
                       const char *devtype, gmb_profile_t *out)
{
    builtin(profile, out);
    if (!file)
        return GMB_OK;
    /* a regular file of a sane size only: a FIFO would hang the suite, /dev/zero fill memory,
     * a directory read as nothing (O_NONBLOCK: opening a FIFO does not wait for a writer) */
    int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return GMB_ERUNTIME;
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > GMB_PROFILES_MAX_BYTES) {
        gmb_error("%s: %s", file,
                  fstat(fd, &st)         ? strerror(errno)
                  : !S_ISREG(st.st_mode) ? "not a regular file (a profiles file is text)"
                                         : "larger than 1 MiB: not a profiles file");
        close(fd);
        return GMB_EUSAGE;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        close(fd);
        return GMB_ERUNTIME;
    }
    char *line = NULL; /* a whole line, of any length: never split */
    size_t cap = 0;
    int found = 0, rc = GMB_OK; /* found 2: this benchmark's line, 1: a '*' line */
    for (long no = 1; found < 2 && getline(&line, &cap, f) >= 0; no++) {
        char b[64], p[32], d[32], *rest;
        double est;
        int used = 0;
        line[strcspn(line, "\r\n")] = '\0';
        char *s = line + strspn(line, " \t");
        if (!*s || *s == '#')
            continue;
        if (sscanf(s, "%63s %31s %31s %lf%n", b, p, d, &est, &used) < 4)
            continue;
        if (strcmp(p, profile) || (strcmp(d, "*") && strcmp(d, devtype)))
            continue;
        int level = !strcmp(b, bench) ? 2 : !strcmp(b, "*") ? 1 : 0;
        if (level <= found)
            continue;
        rest = s + used;
        rest += strspn(rest, " \t");
        size_t l = strlen(rest);
        while (l && (rest[l - 1] == ' ' || rest[l - 1] == '\t'))
            rest[--l] = '\0';
        /* options that do not fit are an error, never cut */
        int words = 0;
        for (const char *w = rest; *w; w += strcspn(w, " \t")) {
            w += strspn(w, " \t");
            words += *w != '\0';
        }
        if (l >= sizeof out->args || words > GMB_PROFILE_MAX_WORDS) {
            gmb_error("%s:%ld: the options of this line are too long (%zu bytes, %d words; at "
                      "most %zu bytes, %d words)",
                      file, no, l, words, sizeof out->args - 1, GMB_PROFILE_MAX_WORDS);
            builtin(profile, out);
            rc = GMB_EUSAGE;
            break;
        }
        gmb_strlcpy(out->args, rest, sizeof out->args);
        out->est_s = isfinite(est) && est >= 0 ? est : 0; /* nan, inf, < 0: unknown */
        out->generic = level == 1;
        found = level;
    }
    free(line);
    fclose(f);
    return rc;
}

/* ---- manifest --------------------------------------------------------------------------- */

int gmb_json_write_atomic(const json_t *j, const char *dir, const char *name)
{
    char tmp[4200], path[4200];
    snprintf(tmp, sizeof tmp, "%s/.gmb-tmp-XXXXXX", dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    if (!s)
        return GMB_ERUNTIME;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(s);
        return GMB_ERUNTIME;
    }
    size_t n = strlen(s), off = 0;
    int ok = 1;
    while (off < n) {
        ssize_t w = write(fd, s + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            ok = 0;
            break;
        }
        off += (size_t)w;
    }
    ok = ok && write(fd, "\n", 1) == 1 && fsync(fd) == 0 && fchmod(fd, 0644) == 0;
    ok = close(fd) == 0 && ok;
    free(s);
    if (!ok || rename(tmp, path)) {
        int e = errno; /* the caller says why (ENOSPC) */
        unlink(tmp);
        errno = e;
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

const char *gmb_status_word(int status)
{
    switch (status) {
    case 0:
        return "ok";
    case 1:
        return "verification_failed";
    case 2:
        return "usage_error";
    case 77:
        return "skipped";
    default:
        return "error";
    }
}

json_t *gmb_manifest_new(const char *profile, json_t *device, const char *slug,
                         const char *started_utc, int argc, char *const *argv)
{
    json_t *cmd = json_array();
    for (int i = 0; i < argc; i++)
        json_array_append_new(cmd, json_string(argv[i]));
    gmb_host_t h;
    gmb_host_get(&h);
    return json_pack("{s:s, s:i, s:{s:s, s:s}, s:o, s:{s:s, s:s, s:s, s:i}, s:s, s:o, s:s, "
                     "s:s, s:n, s:n, s:s, s:n, s:n, s:[]}",
                     "schema", "gmb-run", "schema_version", 1, "gmb", "version", GMB_VERSION, "git",
                     gmb_git_rev, "command", cmd, "host", "name", h.name, "os", h.os, "cpu", h.cpu,
                     "cpus", h.cpus, "profile", profile, "device", device ? device : json_object(),
                     "device_slug", slug, "started_utc", started_utc, "finished_utc", "wall_s",
                     "status", "running", "exit_status", "interrupted", "programs");
}

json_t *gmb_manifest_add(json_t *m, const char *name, const char *args, double est_s)
{
    char log[128];
    snprintf(log, sizeof log, "%s.log", name);
    json_t *p =
        json_pack("{s:s, s:s, s:f, s:s, s:n, s:n, s:n, s:n, s:i, s:[], s:s, s:n}", "name", name,
                  "options", args, "estimate_s", est_s, "status", "pending", "exit_status",
                  "signal", "started_utc", "wall_s", "points", 0, "records", "log", log, "reason");
    json_array_append_new(json_object_get(m, "programs"), p);
    return p;
}

void gmb_manifest_done(json_t *p, int status, int sig, double wall_s, json_t *records,
                       const char *reason)
{
    const char *word = status < 0 ? "interrupted" : gmb_status_word(status);
    json_object_set_new(p, "status", json_string(word));
    json_object_set_new(p, "exit_status", status < 0 || sig ? json_null() : json_integer(status));
    json_object_set_new(p, "signal", sig ? json_integer(sig) : json_null());
    json_object_set_new(p, "wall_s", json_real(wall_s));
    json_object_set_new(p, "records", records ? records : json_array());
    json_object_set_new(p, "reason", reason && *reason ? json_string(reason) : json_null());
}

/* ---- the suite -------------------------------------------------------------------------- */

static volatile sig_atomic_t stop_sig;
static void on_signal(int s)
{
    if (!stop_sig) /* the first one is the one the programs and run.json name */
        stop_sig = s;
}

static int in_list(const char *list, const char *name)
{
    size_t l = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (n == l && !strncmp(p, name, l))
            return 1;
        p += n + (c ? 1 : 0);
    }
    return 0;
}

/* Programs gmb-<name> in bindir, sorted; names malloc'd. */
static int find_programs(const char *bindir, char **names, int max)
{
    DIR *d = opendir(bindir);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max)
        if (!strncmp(e->d_name, "gmb-", 4) && e->d_name[4]) {
            char p[8300];
            snprintf(p, sizeof p, "%s/%s", bindir, e->d_name);
            struct stat st;
            if (!stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK))
                names[n++] = strdup(e->d_name + 4);
        }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, gmb_cmp_str);
    return n;
}

/* *.json names in dir but run.json (sorted JSON array of strings). */
static json_t *list_records(const char *dir)
{
    json_t *a = json_array();
    DIR *d = opendir(dir);
    if (!d)
        return a;
    char *names[4096];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 4096) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] != '.' && l > 5 && !strcmp(e->d_name + l - 5, ".json") &&
            strcmp(e->d_name, "run.json"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, gmb_cmp_str);
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(a, json_string(names[i]));
        free(names[i]);
    }
    return a;
}

/* Names in after that are not in before. */
static json_t *new_names(const json_t *before, const json_t *after)
{
    json_t *out = json_array();
    size_t i, j;
    const json_t *a, *b;
    json_array_foreach(after, i, a)
    {
        int seen = 0;
        json_array_foreach(before, j, b) seen |= json_equal(a, b);
        if (!seen)
            json_array_append(out, (json_t *)a);
    }
    return out;
}

/* Remove temporary files a killed program left behind. */
static void clean_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, ".gmb-tmp-", 9)) {
            char p[8300];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    closedir(d);
}

static void fmt_dur(double s, char *buf, size_t len)
{
    if (!(s >= 0) || s > 359999)
        snprintf(buf, len, "?");
    else if (s >= 3600)
        snprintf(buf, len, "%d:%02d:%02d", (int)s / 3600, (int)s / 60 % 60, (int)s % 60);
    else
        snprintf(buf, len, "%d:%02d", (int)s / 60, (int)s % 60);
}

/* ---- the ETA ---------------------------------------------------------------------------- */

double gmb_eta_scale(double done_est, double done_meas)
{
    if (!(done_est > 0) || !(done_meas >= 0) || !isfinite(done_est) || !isfinite(done_meas))
        return 1.0;
    double k = done_meas / done_est;
    return k < GMB_ETA_SCALE_MIN   ? GMB_ETA_SCALE_MIN
           : k > GMB_ETA_SCALE_MAX ? GMB_ETA_SCALE_MAX
                                   : k;
}

double gmb_eta_left(double done_est, double done_meas, double cur_est, double ran_s,
                    double later_est)
{
    cur_est = cur_est > 0 && isfinite(cur_est) ? cur_est : 0; /* nan, < 0: unknown */
    later_est = later_est > 0 && isfinite(later_est) ? later_est : 0;
    ran_s = ran_s > 0 && isfinite(ran_s) ? ran_s : 0;
    if (!(done_est > 0) && cur_est == 0 && later_est == 0)
        return -1;
    double k = gmb_eta_scale(done_est, done_meas), cur = cur_est * k, left = cur - ran_s;
    double k_later = k;
    if (cur_est > 0) {
        if (left < GMB_ETA_OVERRUN * ran_s) /* past (or near) its estimate: not done yet */
            left = GMB_ETA_OVERRUN * ran_s;
        if (ran_s > cur) /* what it ran so far is measured: the rest go as slowly */
            k_later = gmb_eta_scale(done_est + cur_est, done_meas + ran_s);
    } else if (left < 0) {
        left = 0;
    }
    return left + later_est * k_later;
}

/* ---- the host's load -------------------------------------------------------------------- */

/* How busy the host (and the device) was while the suite ran: run.json's host_load, and a
 * note on stderr the first time it is busy. */
typedef struct host_load {
    int cpus;          /* online CPUs */
    int cpu_device;    /* the device is the host's CPU (OpenCL): it measures a share */
    double start, max; /* 1-minute load averages; NAN unknown */
    int busy;          /* busy seen */
    char reason[256];  /* the first reason */
    json_t *in_use;    /* programs whose record saw the device in use before them */
} host_load_t;

static json_t *jnum_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static void load_json(const host_load_t *h, json_t *m)
{
    json_object_set_new(m, "host_load",
                        json_pack("{s:o, s:o, s:i, s:b, s:o, s:O}", "loadavg_1m_start",
                                  jnum_or_null(h->start), "loadavg_1m_max", jnum_or_null(h->max),
                                  "cpus_online", h->cpus, "busy", h->busy, "reason",
                                  h->busy ? json_string(h->reason) : json_null(),
                                  "device_in_use_before", h->in_use));
}

/* Busy from now on: the reason kept, said once on stderr. */
static void load_busy(host_load_t *h, const char *reason, const char *note)
{
    if (h->busy)
        return;
    h->busy = 1;
    gmb_strlcpy(h->reason, reason, sizeof h->reason);
    fprintf(stderr, "gmb: note: %s\n", note);
}

/* The load average now, at the start (before NULL) or before a program. Between programs it
 * holds the previous program too, whose threads on a CPU device are at most one a CPU: a
 * load above the CPUs is still someone else's. */
static void load_check(host_load_t *h, const char *before)
{
    double l = gmb_host_loadavg();
    if (!before)
        h->start = l;
    if (isfinite(l) && !(l <= h->max))
        h->max = l;
    if (!gmb_host_busy(l, h->cpus))
        return;
    char when[96], reason[256], note[512];
    snprintf(when, sizeof when, "%s%.64s", before ? "before " : "at the start",
             before ? before : "");
    snprintf(reason, sizeof reason, "load %.2f on %d CPUs %s", l, h->cpus, when);
    snprintf(note, sizeof note, "the host is busy (load %.2f on %d CPUs, %s): %s", l, h->cpus, when,
             h->cpu_device ? "a CPU device measures a share of it; numbers are lower than on "
                             "an idle host"
                           : "the host's side of each measurement (launches, copies through "
                             "host memory) shares its CPUs");
    load_busy(h, reason, note);
}

/* After a program: whether one of its records saw the device in use before it (NVML's
 * busy_before: another process, or kernels not gmb's). */
static void load_check_records(host_load_t *h, const char *dir, const char *prog,
                               const json_t *recs)
{
    size_t i;
    const json_t *r;
    json_array_foreach(recs, i, r)
    {
        char path[8300];
        snprintf(path, sizeof path, "%s/%s", dir, json_string_value(r));
        char err[4600];
        json_t *j = gmb_record_load(path, err, sizeof err); /* a regular file only: no FIFO */
        int in_use = j && gmb_rec_busy(j);
        json_decref(j);
        if (!in_use)
            continue;
        json_array_append_new(h->in_use, json_string(prog));
        char reason[256], note[512];
        snprintf(reason, sizeof reason,
                 "the device was in use before %.64s (busy_before in %.120s)", prog,
                 json_string_value(r));
        snprintf(note, sizeof note,
                 "the device was in use before %.64s (busy_before in its record): its numbers may "
                 "be a share of the device",
                 prog);
        load_busy(h, reason, note);
        break;
    }
}

/* What one running program looks like to the progress display. */
typedef struct prog_view {
    const char *name; /* benchmark */
    int idx, n;       /* 1-based index, count */
    long points;      /* point rows seen */
    char last[96];    /* the last point row, condensed */
    double t0;        /* start of this program (ns) */
    double suite_t0;  /* start of the suite (ns) */
    double done_est;  /* estimates of the finished programs (those with one) */
    double done_meas; /* their measured seconds */
    double cur_est;   /* this program's estimate (unscaled; 0 unknown) */
    double later_est; /* the estimates of the programs after it (unscaled) */
    int tty;          /* stderr is a terminal */
    int shown;        /* a bar is on screen */
} prog_view_t;

static void bar_clear(prog_view_t *v)
{
    if (v->tty && v->shown) {
        fputs("\r\033[K", stderr);
        v->shown = 0;
    }
}

static void bar_draw(prog_view_t *v)
{
    if (!v->tty)
        return;
    struct winsize ws;
    int cols = ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 100;
    double now = gmb_now_ns();
    char el[16], eta[16], line[512], bar[24];
    fmt_dur((now - v->suite_t0) / 1e9, el, sizeof el);
    fmt_dur(gmb_eta_left(v->done_est, v->done_meas, v->cur_est, (now - v->t0) / 1e9, v->later_est),
            eta, sizeof eta);
    int w = 16, fill = (int)((double)w * (v->idx - 1) / (v->n ? v->n : 1));
    for (int i = 0; i < w; i++)
        bar[i] = i < fill ? '#' : i == fill ? '>' : '.';
    bar[w] = '\0';
    snprintf(line, sizeof line, "[%s] %d/%d %s  %s elapsed, ETA %s  point %ld%s%s", bar, v->idx,
             v->n, v->name, el, eta, v->points, v->last[0] ? ": " : "", v->last);
    if ((int)strlen(line) > cols - 1)
        line[cols - 1] = '\0';
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    v->shown = 1;
}

/* A child's output line: log it; a point row (its last word is the verification) counts. */
static void on_line(prog_view_t *v, char *line)
{
    size_t l = strlen(line);
    while (l && (line[l - 1] == ' ' || line[l - 1] == '\t'))
        line[--l] = '\0';
    if (!l || line[0] == '#')
        return;
    const char *last = strrchr(line, ' ');
    last = last ? last + 1 : line;
    if (strcmp(last, "full") && strcmp(last, "sampled") && strcmp(last, "FAILED") &&
        strcmp(last, "none"))
        return;
    v->points++;
    size_t k = 0; /* condense runs of blanks */
    for (const char *p = line; *p && k + 1 < sizeof v->last; p++)
        if (*p != ' ' || (k && v->last[k - 1] != ' '))
            v->last[k++] = *p;
    v->last[k] = '\0';
    char *cut = v->last + (k > 48 ? 48 : k);
    *cut = '\0';
}

/* Pump a pipe: append to the log, split into lines. 0 at EOF. */
typedef struct pump {
    int fd;         /* read end, -1 when closed */
    char buf[4096]; /* partial line */
    size_t n;       /* bytes in buf */
    int is_err;     /* stderr: remember the last line */
    char lastline[512];
} pump_t;

static void pump_read(pump_t *p, int logfd, prog_view_t *v)
{
    char tmp[4096];
    ssize_t r = read(p->fd, tmp, sizeof tmp);
    if (r < 0 && errno == EINTR)
        return;
    if (r <= 0) {
        close(p->fd);
        p->fd = -1;
        return;
    }
    if (logfd >= 0 && write(logfd, tmp, (size_t)r) != r) {
        /* the log is best effort: the record is the result */
    }
    for (ssize_t i = 0; i < r; i++) {
        char c = tmp[i];
        if (c == '\n' || p->n == sizeof p->buf - 1) {
            p->buf[p->n] = '\0';
            if (p->is_err && p->n)
                gmb_strlcpy(p->lastline, p->buf, sizeof p->lastline);
            else if (!p->is_err)
                on_line(v, p->buf);
            p->n = 0;
            if (c == '\n')
                continue;
        }
        p->buf[p->n++] = c;
    }
}

/* Split "a b  c" into argv words (in place); returns count. */
static int split_words(char *s, char **out, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        out[n++] = t;
    return n;
}

/* The start of program name's command line: its path (in path), its profile's options (split
 * in args, of sizeof prof->args bytes) and the options after '--'; at most 180 words, so
 * that the caller may add its own. Returns the count. */
static int prog_argv(const gmb_suite_opts_t *o, const char *name, const gmb_profile_t *prof,
                     char *path, size_t plen, char *args, char **argv)
{
    int ac = 0;
    snprintf(path, plen, "%s/gmb-%s", o->bindir, name);
    argv[ac++] = path;
    gmb_strlcpy(args, prof->args, sizeof prof->args);
    ac += split_words(args, argv + ac, GMB_PROFILE_MAX_WORDS);
    for (int k = 0; k < o->nextra && ac < 180; k++)
        argv[ac++] = o->extra[k];
    return ac;
}

/* Run argv (a program with --help last) only to parse its options: its exit status, and the
 * first line it wrote on stderr in line (its reason when it refuses them). */
static int dry_parse(char **argv, char *line, size_t len)
{
    int err[2];
    line[0] = '\0';
    if (pipe(err))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(err[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(err[1]);
    size_t got = 0;
    int eol = 0; /* the first line only (the rest is read to the end, not kept) */
    ssize_t r = 0;
    char buf[512];
    double t_end = gmb_now_ns() + 10e9; /* a program that hangs on --help is not ours to wait on */
    for (;;) {
        struct pollfd pf = {err[0], POLLIN, 0};
        double left_ms = (t_end - gmb_now_ns()) / 1e6;
        if (pid < 0 || left_ms <= 0 || poll(&pf, 1, (int)left_ms) == 0) {
            if (pid > 0)
                kill(pid, SIGKILL);
            break;
        }
        if ((r = read(err[0], buf, sizeof buf)) < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        for (ssize_t k = 0; k < r && !eol && got + 1 < len; k++) {
            if (buf[k] == '\n')
                eol = 1;
            else
                line[got++] = buf[k];
        }
    }
    close(err[0]);
    line[got] = '\0';
    int st = 0;
    if (pid < 0)
        return -1;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run one program; its output goes to logpath; progress on stderr. Returns its exit status
 * (0..255) or -signal; *why gets its last stderr line. */
static int run_child(const char *path, char **argv, const char *logpath, prog_view_t *v,
                     double timeout_s, char *why, size_t whylen)
{
    int out[2], err[2];
    char pts[128] = "";
    why[0] = '\0';
    /* stdout on a pseudo-terminal when we can: the program's stdio then flushes each line,
     * so its point rows arrive as they are measured (a pipe would buffer them to the end) */
    int ptm = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    int sfd = -1;
    if (ptm >= 0 && !grantpt(ptm) && !unlockpt(ptm) && ptsname_r(ptm, pts, sizeof pts) == 0 &&
        (sfd = open(pts, O_RDWR | O_NOCTTY | O_CLOEXEC)) >= 0) {
        struct termios tio;
        if (!tcgetattr(sfd, &tio)) { /* bytes as written: no \r added, no echo */
            cfmakeraw(&tio);
            tcsetattr(sfd, TCSANOW, &tio);
        }
        out[0] = ptm;
        out[1] = sfd;
    } else {
        if (ptm >= 0)
            close(ptm);
        pts[0] = '\0';
        if (pipe(out))
            return 3;
    }
    if (pipe(err)) {
        close(out[0]);
        close(out[1]);
        return 3;
    }
    int logfd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        close(out[1]);
        dup2(err[1], 2);
        close(out[0]);
        close(err[0]);
        close(err[1]);
        execv(path, argv);
        fprintf(stderr, "gmb: error: cannot run %s: %s\n", path, strerror(errno));
        _exit(3);
    }
    close(out[1]);
    close(err[1]);
    if (pid < 0) {
        close(out[0]);
        close(err[0]);
        if (logfd >= 0)
            close(logfd);
        snprintf(why, whylen, "cannot start %.300s: %s", path, strerror(errno));
        return 3;
    }
    pump_t po = {.fd = out[0]}, pe = {.fd = err[0], .is_err = 1};
    int forwarded = 0, timed_out = 0;
    double last_draw = 0, t_start = gmb_now_ns();
    while (po.fd >= 0 || pe.fd >= 0) {
        if (stop_sig && !forwarded) { /* Ctrl-C reaches the child too; a kill does not: the
                                       * signal that came, so its record names it */
            kill(pid, stop_sig);
            forwarded = 1;
        }
        double ran_s = (gmb_now_ns() - t_start) / 1e9;
        if (timeout_s > 0 && ran_s > timeout_s && timed_out < 2) {
            /* a hung program (a GPU kernel that never ends) must not hang the suite:
             * SIGTERM, then SIGKILL 10 s later */
            if (!timed_out || ran_s > timeout_s + 10) {
                kill(pid, timed_out ? SIGKILL : SIGTERM);
                timed_out++;
            }
        }
        struct pollfd fds[2];
        int nf = 0;
        if (po.fd >= 0)
            fds[nf++] = (struct pollfd){po.fd, POLLIN, 0};
        if (pe.fd >= 0)
            fds[nf++] = (struct pollfd){pe.fd, POLLIN, 0};
        int r = poll(fds, (nfds_t)nf, 250);
        if (r > 0)
            for (int i = 0; i < nf; i++)
                if (fds[i].revents & (POLLIN | POLLHUP | POLLERR))
                    pump_read(fds[i].fd == po.fd ? &po : &pe, logfd, v);
        double now = gmb_now_ns();
        if (v->tty && now - last_draw > 2e8) {
            bar_draw(v);
            last_draw = now;
        }
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        if (stop_sig && !forwarded) {
            kill(pid, stop_sig);
            forwarded = 1;
        }
    if (logfd >= 0)
        close(logfd);
    gmb_strlcpy(why, pe.lastline, whylen);
    if (timed_out)
        snprintf(why, whylen, "timed out after %.0f s (gmb run --timeout)", timeout_s);
    if (WIFSIGNALED(st))
        return -WTERMSIG(st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

/* Make results/<slug>/<stamp>[-k]; the path goes to out. */
int gmb_make_rundir(const char *root, const char *slug, char *out, size_t len)
{
    char parent[4200], stamp[32], p[4300];
    gmb_utc_now(NULL, 0, stamp, sizeof stamp);
    snprintf(parent, sizeof parent, "%s/%s", root, slug);
    /* the device's directory is gmb's own: a link planted there would put the run elsewhere */
    struct stat st;
    if (!lstat(parent, &st) && S_ISLNK(st.st_mode)) {
        gmb_error("%s is a symbolic link: a run directory is made only in a real directory "
                  "(remove the link, or give --out elsewhere)",
                  parent);
        return GMB_ERUNTIME;
    }
    if (gmb_mkdirs(parent))
        return GMB_ERUNTIME;
    for (int k = 1; k < 1000; k++) {
        if (k == 1)
            snprintf(p, sizeof p, "%s/%s", parent, stamp);
        else
            snprintf(p, sizeof p, "%s/%s-%d", parent, stamp, k);
        gmb_strlcpy(out, p, len);
        if (!mkdir(out, 0755))
            return GMB_OK;
        if (errno != EEXIST)
            break;
    }
    gmb_error("cannot create a run directory under %s: %s", parent, strerror(errno));
    return GMB_ERUNTIME;
}

/* An option after '--' that gmb run sets itself or that defeats a run (every abbreviation
 * getopt_long would take for it, and --opt=VALUE): 2 with one line, else 0. A prefix counts
 * even where it is ambiguous in some program (that one would refuse it anyway). */
static int extra_refused(char *const *extra, int n)
{
    static const struct {
        const char *name, *why;
    } no[] = {
        {"out", "gmb run puts every record in its run directory (give --out DIR before '--')"},
        {"device", "gmb run sets the device itself (give --device N before '--')"},
        {"backend", "gmb run sets the backend itself (give --backend NAME before '--')"},
        {"no-record", "a run is its records"},
        {"list-devices", "it measures nothing (see gmb devices)"},
        {"help", "it measures nothing (see gmb run --help, gmb-NAME --help)"},
        {"version", "it measures nothing (see gmb --version)"},
        {"man", "it measures nothing"},
        {"summary", "it measures nothing (see gmb list)"},
    };
    for (int k = 0; k < n && strcmp(extra[k], "--"); k++) {
        const char *a = extra[k];
        if (!strcmp(a, "-h")) {
            gmb_error("'-h' after '--': %s", no[5].why);
            return 2;
        }
        if (strncmp(a, "--", 2) || !a[2])
            continue;
        size_t l = strcspn(a + 2, "=");
        for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
            if (l <= strlen(no[i].name) && !strncmp(a + 2, no[i].name, l)) {
                gmb_error("'%.64s' after '--'%s%s%s: %s", a, l < strlen(no[i].name) ? " (--" : "",
                          l < strlen(no[i].name) ? no[i].name : "",
                          l < strlen(no[i].name) ? ")" : "", no[i].why);
                return 2;
            }
    }
    return 0;
}

int gmb_suite_backend(const char *name, const gmb_backend_t **be, int *ndev)
{
    char why[1024];
    int rc = gmb_pick_backend(name, be, ndev, why, sizeof why);
    if (rc == GMB_ESKIP) {
        gmb_skip("%s", why);
        return 77;
    }
    if (rc) {
        gmb_error("%s", why);
        return 2;
    }
    return 0;
}

/* Room a run directory's own part takes under the results root: /<slug>/<stamp>-k */
#define RUNDIR_PART 128

int gmb_suite_run(gmb_suite_opts_t *o)
{
    const gmb_backend_t *be = NULL;
    int ndev = 0, rc;
    char why[1024];
    if (extra_refused(o->extra, o->nextra))
        return 2;
    /* the results root first: a run directory is made under it and every program writes its
     * records there, so a root too long or unwritable is said before any device is opened */
    if (strlen(o->results) > GMB_OUT_MAX - RUNDIR_PART) {
        gmb_error("--out is %zu characters long: at most %d (the run directory and its records "
                  "go under it)",
                  strlen(o->results), GMB_OUT_MAX - RUNDIR_PART);
        return 2;
    }
    if ((rc = gmb_out_check(o->results, why, sizeof why))) {
        gmb_error("%s", why);
        return rc == GMB_EUSAGE ? 2 : 3;
    }
    if ((rc = gmb_suite_backend(o->backend, &be, &ndev)))
        return rc;
    if (o->device < 0 || o->device >= ndev) {
        gmb_error("--device %ld does not exist: %s has %d device%s", o->device, be->kind->name,
                  ndev, ndev == 1 ? "" : "s");
        return 2;
    }
    gmb_dev_info_t info;
    if (be->info((int)o->device, &info)) {
        gmb_error("cannot read device %ld of %s", o->device, be->kind->name);
        return 3;
    }
    char *names[MAX_PROGS];
    int nall = find_programs(o->bindir, names, MAX_PROGS), n = 0;
    for (int i = 0; i < nall; i++) { /* --only / --skip */
        if ((o->only && !in_list(o->only, names[i])) || (o->skip && in_list(o->skip, names[i])))
            free(names[i]);
        else
            names[n++] = names[i];
    }
    for (const char *lst = o->only; lst && *lst;) { /* every --only name must exist */
        const char *c = strchr(lst, ',');
        size_t l = c ? (size_t)(c - lst) : strlen(lst);
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= strlen(names[i]) == l && !strncmp(names[i], lst, l);
        if (!found) {
            gmb_error("--only: no benchmark '%.*s' next to gmb (see gmb list)", (int)l, lst);
            for (int i = 0; i < n; i++)
                free(names[i]);
            return 2;
        }
        lst += l + (c ? 1 : 0);
    }
    if (!n) {
        gmb_error("no benchmark to run in %s", o->bindir);
        return 2;
    }
    /* the options of every benchmark first: a bad profiles line stops before any output */
    gmb_profile_t prof[MAX_PROGS];
    for (int i = 0; i < n; i++) {
        int prc = gmb_profile_lookup(o->profiles, names[i], o->profile, info.type, &prof[i]);
        if (prc && prc != GMB_EUSAGE && o->profiles_given) { /* named, not there: no fallback */
            gmb_error("--profiles %s: %s", o->profiles, strerror(errno ? errno : EIO));
            prc = GMB_EUSAGE;
        }
        if (prc == GMB_EUSAGE) {
            for (int k = 0; k < n; k++)
                free(names[k]);
            return 2;
        }
        if (prc && i == 0)
            gmb_warn("cannot read %s: the generic %s profile is used", o->profiles, o->profile);
    }
    /* the options after '--' go to every program: each one parses them (with --help, so
     * nothing runs) before a run directory is made; one it refuses is a usage error now, not
     * a run of usage errors */
    for (int i = 0; i < n && o->nextra; i++) {
        char path[8300], line[512], args[sizeof prof[i].args], *argv[200];
        int ac = prog_argv(o, names[i], &prof[i], path, sizeof path, args, argv);
        argv[ac++] = "--help";
        argv[ac] = NULL;
        int prc = dry_parse(argv, line, sizeof line);
        if (prc == 2) {
            gmb_error("the options after '--' are refused by gmb-%s: %s", names[i], line);
            for (int k = 0; k < n; k++)
                free(names[k]);
            return 2;
        }
    }
    char slug[96], started[32];
    gmb_slug(info.name, slug, sizeof slug);
    if (gmb_make_rundir(o->results, slug, o->rundir, sizeof o->rundir)) {
        for (int i = 0; i < n; i++)
            free(names[i]);
        return 3;
    }
    gmb_utc_now(started, sizeof started, NULL, 0);
    /* a nominal peak given to every benchmark (-- --peak-bw X) describes the device here too;
     * the last one wins, as in the benchmarks' own parsing */
    for (int k = 0; k < o->nextra; k++) {
        const char *a = o->extra[k], *v = NULL;
        double g;
        if (!strcmp(a, "--peak-bw") && k + 1 < o->nextra)
            v = o->extra[k + 1];
        else if (!strncmp(a, "--peak-bw=", 10))
            v = a + 10;
        if (v && !gmb_parse_double(v, &g) && g > 0)
            gmb_dev_info_give_peak(&info, g);
    }
    json_t *dev = gmb_json_device(&info);
    json_t *m = gmb_manifest_new(o->profile, dev, slug, started, o->argc, o->argv);
    json_t *entry[MAX_PROGS];
    double est_total = 0;
    for (int i = 0; i < n; i++) {
        entry[i] = gmb_manifest_add(m, names[i], prof[i].args, prof[i].est_s);
        est_total += prof[i].est_s;
    }
    if (gmb_json_write_atomic(m, o->rundir, "run.json")) {
        gmb_error("cannot write %s/run.json", o->rundir);
        json_decref(m);
        for (int i = 0; i < n; i++)
            free(names[i]);
        return 3;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: poll and waitpid return early */
    sigemptyset(&sa.sa_mask);
    struct sigaction old_sa[GMB_NSTOP_SIGNALS]; /* SIGINT, SIGTERM, SIGHUP: one way to stop */
    stop_sig = 0;
    for (int k = 0; k < GMB_NSTOP_SIGNALS; k++)
        sigaction(gmb_stop_signals[k], &sa, &old_sa[k]);

    int tty = isatty(2);
    char devs[64] = "no time estimate", d[16];
    if (est_total > 0) {
        fmt_dur(est_total, d, sizeof d);
        snprintf(devs, sizeof devs, "about %s", d);
    }
    json_object_set_new(m, "estimate_s", json_real(est_total));
    fprintf(stderr, "gmb: %s profile on %s device %ld (%s): %d benchmark%s, %s; run in %s\n",
            o->profile, be->kind->name, o->device, info.name, n, n == 1 ? "" : "s", devs,
            o->rundir);
    host_load_t hl = {.cpus = (int)sysconf(_SC_NPROCESSORS_ONLN),
                      .cpu_device = !strcmp(info.type, "cpu"),
                      .start = NAN,
                      .max = NAN,
                      .in_use = json_array()};
    load_check(&hl, NULL);
    load_json(&hl, m);
    double t0 = gmb_now_ns(), est_done = 0, act_done = 0;
    int worst = 0, nok = 0, nskip = 0, nfail = 0;
    const char *interrupted = NULL;
    char wfail[256] = ""; /* why run.json could not be written: then no program is started */
    for (int i = 0; i < n; i++) {
        if (stop_sig || wfail[0]) {
            json_object_set_new(entry[i], "status", json_string("not_run"));
            continue;
        }
        char path[8300], logpath[8300], args[sizeof prof[i].args], started_p[32], *argv[200];
        snprintf(logpath, sizeof logpath, "%s/%s.log", o->rundir, names[i]);
        int ac = prog_argv(o, names[i], &prof[i], path, sizeof path, args, argv);
        char devno[32];
        snprintf(devno, sizeof devno, "%ld", o->device);
        argv[ac++] = "--backend";
        argv[ac++] = (char *)be->kind->name;
        argv[ac++] = "--device";
        argv[ac++] = devno;
        argv[ac++] = "--out";
        argv[ac++] = o->rundir;
        argv[ac] = NULL;
        gmb_utc_now(started_p, sizeof started_p, NULL, 0);
        json_object_set_new(entry[i], "status", json_string("running"));
        json_object_set_new(entry[i], "started_utc", json_string(started_p));
        if (gmb_json_write_atomic(m, o->rundir, "run.json")) {
            snprintf(wfail, sizeof wfail, "%s", strerror(errno ? errno : EIO));
            gmb_error("cannot write %s/run.json (%s): %s and the programs after it are not "
                      "started (a record could not be written either)",
                      o->rundir, wfail, names[i]);
            json_object_set_new(entry[i], "status", json_string("not_run"));
            continue;
        }
        json_t *before = list_records(o->rundir);
        if (i > 0) {
            load_check(&hl, names[i]);
            load_json(&hl, m);
        }
        /* ETA: the estimates left, scaled by how the finished ones went (gmb_eta_left) */
        double later = 0;
        for (int k = i + 1; k < n; k++)
            later += prof[k].est_s;
        prog_view_t v = {.name = names[i],
                         .idx = i + 1,
                         .n = n,
                         .t0 = gmb_now_ns(),
                         .suite_t0 = t0,
                         .done_est = est_done,
                         .done_meas = act_done,
                         .cur_est = prof[i].est_s,
                         .later_est = later,
                         .tty = tty};
        if (!tty) {
            char left[64] = "", dl[16];
            double eta = gmb_eta_left(est_done, act_done, prof[i].est_s, 0, later);
            if (eta >= 0) {
                fmt_dur(eta, dl, sizeof dl);
                snprintf(left, sizeof left, ", about %s left", dl);
            }
            fprintf(stderr, "gmb: [%d/%d] %s: running (%s profile%s%s)%s\n", i + 1, n, names[i],
                    o->profile, prof[i].args[0] ? ": " : "",
                    prof[i].args[0] ? prof[i].args : ", the benchmark's defaults", left);
        }
        char reason[512];
        double limit = o->timeout_s > 0 ? o->timeout_s : fmax(300.0, 10.0 * prof[i].est_s);
        /* the GPU's recent load is the previous program's (busy_before.after_gmb_program) */
        if (i > 0)
            setenv(GMB_AFTER_PROGRAM_ENV, names[i - 1], 1);
        else
            unsetenv(GMB_AFTER_PROGRAM_ENV);
        int st = run_child(path, argv, logpath, &v, limit, reason, sizeof reason);
        unsetenv(GMB_AFTER_PROGRAM_ENV);
        double wall = (gmb_now_ns() - v.t0) / 1e9;
        bar_clear(&v);
        if (st >= 0 && prof[i].est_s > 0) {
            est_done += prof[i].est_s;
            act_done += wall;
        }
        json_t *after = list_records(o->rundir);
        json_t *recs = new_names(before, after);
        json_decref(before);
        json_decref(after);
        load_check_records(&hl, o->rundir, names[i], recs);
        load_json(&hl, m);
        int sig = st < 0 ? -st : 0;
        int intr = stop_sig && st != 0; /* stopped by us (or the same Ctrl-C) */
        if (sig && !intr && !reason[0])
            snprintf(reason, sizeof reason, "killed by signal %d (%s)", sig, strsignal(sig));
        gmb_manifest_done(entry[i], intr ? -1 : sig ? 3 : st, sig, wall, recs, reason);
        json_object_set_new(entry[i], "points", json_integer(v.points));
        const char *word = json_string_value(json_object_get(entry[i], "status"));
        if (sig && !intr)
            st = 3;
        if (intr) {
            interrupted = names[i];
            json_object_set_new(m, "interrupted", json_string(names[i]));
        } else if (st == 0) {
            nok++;
        } else if (st == 77) {
            nskip++;
        } else {
            nfail++;
            if (worst != 3)
                worst = st == 1 ? 1 : 3;
        }
        fprintf(stderr, "gmb: [%d/%d] %s: %s, %.1f s, %ld point%s%s%s\n", i + 1, n, names[i], word,
                wall, v.points, v.points == 1 ? "" : "s", st && reason[0] ? ": " : "",
                st && reason[0] ? reason : "");
        if (gmb_json_write_atomic(m, o->rundir, "run.json")) {
            snprintf(wfail, sizeof wfail, "%s", strerror(errno ? errno : EIO));
            gmb_error("cannot write %s/run.json (%s): no further program is started", o->rundir,
                      wfail);
        }
    }
    if (stop_sig)
        clean_tmp(o->rundir);
    char fin[32];
    gmb_utc_now(fin, sizeof fin, NULL, 0);
    int status = stop_sig ? 128 + stop_sig : wfail[0] ? 3 : worst ? worst : nskip == n ? 77 : 0;
    json_object_set_new(m, "finished_utc", json_string(fin));
    json_object_set_new(m, "wall_s", json_real((gmb_now_ns() - t0) / 1e9));
    json_object_set_new(m, "status",
                        json_string(stop_sig   ? "interrupted"
                                    : wfail[0] ? "write_failed"
                                               : "complete"));
    json_object_set_new(m, "exit_status", json_integer(status));
    if (stop_sig)
        json_object_set_new(m, "interrupted_by", json_string(gmb_signal_name(stop_sig)));
    json_object_set_new(m, "summary",
                        json_pack("{s:i, s:i, s:i, s:i, s:i}", "ok", nok, "skipped", nskip,
                                  "failed", nfail, "not_finished", n - nok - nskip - nfail, "total",
                                  n));
    int wrc = gmb_json_write_atomic(m, o->rundir, "run.json");
    if (wrc)
        gmb_error("cannot write %s/run.json (%s): its last state on disk is older than this run's "
                  "end; the records written are in %s",
                  o->rundir, strerror(errno ? errno : EIO), o->rundir);
    if (interrupted || stop_sig)
        fprintf(stderr, "gmb: interrupted%s%s: the finished records and run.json are in %s\n",
                interrupted ? " during " : "", interrupted ? interrupted : "", o->rundir);
    else {
        double took = (gmb_now_ns() - t0) / 1e9;
        char tk[16], first[48] = "no estimate";
        fmt_dur(took, tk, sizeof tk);
        if (est_total > 0) {
            char e[16];
            fmt_dur(est_total, e, sizeof e);
            snprintf(first, sizeof first, "the first estimate %s", e);
        }
        fprintf(stderr, "gmb: %s in %.1f s (%s; %s): %d ok, %d skipped, %d failed%s; %s/run.json\n",
                wfail[0] ? "stopped" : "done", took, tk, first, nok, nskip, nfail,
                wfail[0] ? ", the rest not run (run.json could not be written)" : "", o->rundir);
    }
    for (int k = 0; k < GMB_NSTOP_SIGNALS; k++)
        sigaction(gmb_stop_signals[k], &old_sa[k], NULL);
    json_decref(hl.in_use);
    json_decref(m);
    for (int i = 0; i < n; i++)
        free(names[i]);
    return wrc ? 3 : status;
}
