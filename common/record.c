/* record.c - JSON/CSV rendering of run records and their atomic, never-overwriting output. */
#include "record.h"
#include "gmb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct gmb_hl_note gmb_headline_notes[] = {
    {GMB_HL_CACHE, "cache-resident"},  {GMB_HL_NEAR_LLC, "near-llc"},
    {GMB_HL_PEAK_GIVEN, "peak-given"}, {GMB_HL_UNCONVERGED, "unconverged"},
    {GMB_HL_PAST_LLC, "past-llc"},     {0, NULL},
};

json_t *gmb_json_stats(const gmb_stats_t *s)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:f, s:b}", "median", s->median,
                     "ci_lo", s->ci_lo, "ci_hi", s->ci_hi, "min", s->min, "max", s->max, "mean",
                     s->mean, "stddev", s->stddev, "n", (json_int_t)s->n, "ci_rel",
                     s->ci_rel > 1e300 ? 1e300 : s->ci_rel, "converged", s->converged);
}

json_t *gmb_json_rate(double numer, const gmb_stats_t *t)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "median", numer / t->median, "ci_lo",
                     numer / t->ci_hi, "ci_hi", numer / t->ci_lo, "min", numer / t->max, "max",
                     numer / t->min, "mean", numer / t->mean);
}

json_t *gmb_json_scaled(double f, const gmb_stats_t *t)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "median", t->median * f, "ci_lo",
                     t->ci_lo * f, "ci_hi", t->ci_hi * f, "min", t->min * f, "max", t->max * f,
                     "mean", t->mean * f);
}

/* Growable string. */
typedef struct {
    char *s;
    size_t n, cap;
    int bad;
    int rfc; /* CSV fields: 1 quoted as gmb_csv_field, 0 gmb_csv_clean'ed (gnuplot) */
} sbuf_t;

static void sb_add(sbuf_t *b, const char *txt)
{
    size_t l = strlen(txt);
    if (b->bad)
        return;
    if (b->n + l + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + l;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->bad = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->n, txt, l + 1);
    b->n += l;
}

void gmb_csv_clean(char *cell)
{
    int lead = 1; /* still in the blanks that begin the cell */
    for (char *p = cell; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == ',' || c == '"' || (lead && c == '#'))
            *p = ';';
        else if (c < 0x20 || c == 0x7f)
            *p = ' ';
        lead = lead && *p == ' ';
    }
}

size_t gmb_csv_field(char *out, size_t len, const char *s)
{
    size_t n = 0;
    int q = strpbrk(s, ",\"\r\n") != NULL;
#define PUT(ch)                                                                                    \
    do {                                                                                           \
        if (n + 1 < len)                                                                           \
            out[n] = (ch);                                                                         \
        n++;                                                                                       \
    } while (0)
    if (q)
        PUT('"');
    for (; *s; s++) {
        if (*s == '"')
            PUT('"');
        PUT(*s);
    }
    if (q)
        PUT('"');
#undef PUT
    if (len)
        out[n < len ? n : len - 1] = '\0';
    return n;
}

/* Append text as one CSV field or name (gmb_csv_field, or gmb_csv_clean for gnuplot). */
static void sb_cell(sbuf_t *b, const char *txt)
{
    if (!b->rfc) {
        size_t at = b->n;
        sb_add(b, txt);
        if (!b->bad)
            gmb_csv_clean(b->s + at);
        return;
    }
    char small[256];
    size_t n = gmb_csv_field(small, sizeof small, txt);
    if (n < sizeof small) {
        sb_add(b, small);
        return;
    }
    char *big = malloc(n + 1);
    if (!big) {
        b->bad = 1;
        return;
    }
    gmb_csv_field(big, n + 1, txt);
    sb_add(b, big);
    free(big);
}

/* Append a scalar as a CSV field (strings as sb_cell makes them). */
static void sb_scalar(sbuf_t *b, const json_t *v)
{
    char tmp[64];
    if (!v || json_is_null(v))
        return;
    if (json_is_integer(v)) {
        snprintf(tmp, sizeof tmp, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        sb_add(b, tmp);
    } else if (json_is_real(v)) {
        snprintf(tmp, sizeof tmp, "%.6g", json_real_value(v));
        sb_add(b, tmp);
    } else if (json_is_true(v)) {
        sb_add(b, "1");
    } else if (json_is_false(v)) {
        sb_add(b, "0");
    } else if (json_is_string(v)) {
        sb_cell(b, json_string_value(v));
    }
}

static const char *const stat_cols[] = {"median", "ci_lo", "ci_hi", "min", "max"};

/* The keys of member what of every point, in the order they first appear: a column for
 * each, so a field only some points have (bidir's per-direction rates) is not lost. */
static json_t *csv_columns(const json_t *points, const char *what)
{
    json_t *cols = json_object();
    size_t i;
    json_t *pt;
    const char *key;
    json_t *val;
    json_array_foreach(points, i, pt)
    {
        json_object_foreach(json_object_get(pt, what), key, val)
        {
            if (cols && !json_object_get(cols, key))
                json_object_set_new(cols, key, json_null());
        }
    }
    return cols;
}

static char *record_csv(const json_t *rec, int rfc)
{
    json_t *points = json_object_get(rec, "points");
    if (!json_is_array(points))
        return NULL;
    sbuf_t b = {0};
    b.rfc = rfc;
    json_t *params = csv_columns(points, "params");
    json_t *metrics = csv_columns(points, "metrics");
    json_t *extra = csv_columns(points, "extra");
    const char *key;
    json_t *val;
    int col = 0;
    if (!params || !metrics || !extra)
        b.bad = 1;
    /* header */
    json_object_foreach(params, key, val)
    {
        sb_add(&b, col++ ? "," : "");
        sb_cell(&b, key);
    }
    json_object_foreach(metrics, key, val)
    {
        for (size_t i = 0; i < 5; i++) {
            sb_add(&b, col++ ? "," : "");
            char *name = NULL; /* the column's name whole, then quoted */
            if (asprintf(&name, "%s%s%s", key, i ? "_" : "", i ? stat_cols[i] : "") < 0) {
                b.bad = 1;
                continue;
            }
            sb_cell(&b, name);
            free(name);
        }
    }
    sb_add(&b, col++ ? ",time_ns,n,converged" : "time_ns,n,converged");
    json_object_foreach(extra, key, val)
    {
        sb_add(&b, ",");
        sb_cell(&b, key);
    }
    sb_add(&b, "\n");
    /* rows */
    size_t i;
    json_t *pt;
    json_array_foreach(points, i, pt)
    {
        json_t *pp = json_object_get(pt, "params"), *pm = json_object_get(pt, "metrics");
        json_t *t = json_object_get(pt, "time_ns"), *px = json_object_get(pt, "extra");
        col = 0;
        json_object_foreach(params, key, val)
        {
            sb_add(&b, col++ ? "," : "");
            sb_scalar(&b, json_object_get(pp, key));
        }
        json_object_foreach(metrics, key, val)
        {
            json_t *m = json_object_get(pm, key);
            for (size_t k = 0; k < 5; k++) {
                sb_add(&b, col++ ? "," : "");
                sb_scalar(&b, json_object_get(m, stat_cols[k]));
            }
        }
        sb_add(&b, col++ ? "," : "");
        sb_scalar(&b, json_object_get(t, "median"));
        sb_add(&b, ",");
        sb_scalar(&b, json_object_get(t, "n"));
        sb_add(&b, ",");
        sb_scalar(&b, json_object_get(t, "converged"));
        json_object_foreach(extra, key, val)
        {
            sb_add(&b, ",");
            sb_scalar(&b, json_object_get(px, key));
        }
        sb_add(&b, "\n");
    }
    json_decref(params);
    json_decref(metrics);
    json_decref(extra);
    if (b.bad) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

char *gmb_record_csv(const json_t *rec)
{
    return record_csv(rec, 0);
}

char *gmb_record_csv_rfc4180(const json_t *rec)
{
    return record_csv(rec, 1);
}

void gmb_slug(const char *name, char *out, size_t len)
{
    size_t n = 0;
    int dash = 0;
    if (!len)
        return;
    for (const char *p = name ? name : ""; *p && n + 1 < len; p++) {
        unsigned char c = (unsigned char)*p;
        if (isalnum(c) && c < 128) {
            if (dash && n) {
                if (n + 2 >= len)
                    break; /* no room for "-x": end at a word boundary */
                out[n++] = '-';
            }
            dash = 0;
            out[n++] = (char)tolower(c);
        } else {
            dash = 1;
        }
    }
    out[n] = '\0';
    if (!n)
        gmb_strlcpy(out, "device", len);
}

int gmb_mkdirs(const char *dir)
{
    char p[4096];
    if (!dir || !dir[0]) {
        gmb_error("empty directory name");
        return GMB_ERUNTIME;
    }
    gmb_strlcpy(p, dir, sizeof p);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) && errno != EEXIST)
                goto fail;
            *s = '/';
        }
    if (mkdir(p, 0755) && errno != EEXIST)
        goto fail;
    return GMB_OK;
fail:
    gmb_error("cannot create directory %s: %s", p, strerror(errno));
    return GMB_ERUNTIME;
}

FILE *gmb_file_new(const char *path, char *tmp, size_t len)
{
    if (snprintf(tmp, len, "%s.XXXXXX", path) >= (int)len)
        return NULL;
    int fd = mkstemp(tmp);
    if (fd < 0)
        return NULL;
    mode_t mask = umask(0); /* mkstemp makes 0600: what fopen would give instead */
    umask(mask);
    FILE *f = fchmod(fd, 0666 & ~mask) ? NULL : fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
    }
    return f;
}

int gmb_file_commit(FILE *f, const char *tmp, const char *path)
{
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

int gmb_out_check(const char *dir, char *why, size_t len)
{
    if (!dir[0]) {
        snprintf(why, len, "--out '': need a directory (or '-' for standard output)");
        return GMB_EUSAGE;
    }
    if (strlen(dir) > GMB_OUT_MAX) {
        snprintf(why, len, "--out is %zu characters long: at most %d", strlen(dir), GMB_OUT_MAX);
        return GMB_EUSAGE;
    }
    char p[GMB_OUT_MAX + 1];
    gmb_strlcpy(p, dir, sizeof p);
    struct stat st;
    /* the nearest part of the path that exists: what will hold the directory made later */
    while (stat(p, &st)) {
        if (errno != ENOENT && errno != ENOTDIR) { /* ENOTDIR: a file on the way, found above */
            snprintf(why, len, "--out %.200s: %.200s: %s", dir, p, strerror(errno));
            return GMB_ERUNTIME;
        }
        char *sl = strrchr(p, '/');
        if (!sl)
            gmb_strlcpy(p, ".", sizeof p);
        else if (sl == p)
            p[1] = '\0';
        else
            *sl = '\0';
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, len, "--out %.200s: %.200s is not a directory", dir, p);
        return GMB_EUSAGE;
    }
    char probe[GMB_OUT_MAX + 32];
    snprintf(probe, sizeof probe, "%s/.gmb-tmp-XXXXXX", p);
    int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(why, len, "--out %.200s: cannot write in %.200s: %s", dir, p, strerror(errno));
        return GMB_ERUNTIME;
    }
    close(fd);
    unlink(probe);
    return GMB_OK;
}

static int write_tmp(const char *dir, const char *data, char *tmp, size_t len)
{
    snprintf(tmp, len, "%s/.gmb-tmp-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return GMB_ERUNTIME;
    size_t n = strlen(data), off = 0;
    while (off < n) {
        ssize_t w = write(fd, data + off, n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        off += (size_t)w;
    }
    int ok = off == n && fsync(fd) == 0;
    if (fchmod(fd, 0644))
        ok = 0;
    if (close(fd))
        ok = 0;
    if (!ok) {
        unlink(tmp);
        return GMB_ERUNTIME;
    }
    return GMB_OK;
}

/* Temporaries of a writer that died before its link()s (killed, or the machine went down):
 * .gmb-tmp-* files an hour old are removed by the next record written in dir (a live writer
 * keeps its temporaries for the seconds a record takes). */
static void drop_stale_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    time_t now = time(NULL);
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, ".gmb-tmp-", 9))
            continue;
        char p[8400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (!lstat(p, &st) && S_ISREG(st.st_mode) && now - st.st_mtime > 3600)
            unlink(p);
    }
    if (d)
        closedir(d);
}

int gmb_publish(const char *dir, const char *stem, int n, const char *const *ext,
                const char *const *data, char *out_stem, size_t out_len)
{
    char tmp[8][4096];
    if (n < 1 || n > 8)
        return GMB_ERUNTIME;
    if (gmb_mkdirs(dir))
        return GMB_ERUNTIME;
    drop_stale_tmp(dir);
    for (int i = 0; i < n; i++)
        if (write_tmp(dir, data[i], tmp[i], sizeof tmp[i])) {
            gmb_error("cannot write in %s: %s", dir, strerror(errno));
            for (int j = 0; j < i; j++)
                unlink(tmp[j]);
            return GMB_ERUNTIME;
        }
    int rc = GMB_ERUNTIME;
    for (int k = 1; k < 1000 && rc; k++) {
        char base[4096], path[8][4200];
        if (k == 1)
            snprintf(base, sizeof base, "%s/%s", dir, stem);
        else
            snprintf(base, sizeof base, "%s/%s-%d", dir, stem, k);
        /* the last file first, the first (the record readers take: .json) last: once it is
         * there, every file of the set is */
        int i, clash = 0;
        for (i = n - 1; i >= 0; i--) {
            snprintf(path[i], sizeof path[i], "%s.%s", base, ext[i]);
            if (link(tmp[i], path[i])) {
                clash = errno == EEXIST;
                if (!clash)
                    gmb_error("cannot create %s: %s", path[i], strerror(errno));
                break;
            }
        }
        if (i < 0) {
            rc = GMB_OK;
            gmb_strlcpy(out_stem, base, out_len);
        } else {
            for (int j = n - 1; j > i; j--) /* undo this attempt; names we made only */
                unlink(path[j]);
            if (!clash)
                break;
        }
    }
    for (int i = 0; i < n; i++)
        unlink(tmp[i]);
    return rc;
}

int gmb_record_write(const json_t *rec, const char *dir, const char *stem, char *out_stem,
                     size_t out_len)
{
    char *js = json_dumps(rec, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    char *csv = gmb_record_csv_rfc4180(rec); /* a record file: RFC 4180, not for gnuplot */
    int rc = GMB_ERUNTIME;
    if (js && csv) {
        size_t l = strlen(js);
        char *jsn = malloc(l + 2);
        if (jsn) {
            memcpy(jsn, js, l);
            memcpy(jsn + l, "\n", 2);
            const char *ext[] = {"json", "csv"};
            const char *data[] = {jsn, csv};
            rc = gmb_publish(dir, stem, 2, ext, data, out_stem, out_len);
            free(jsn);
        }
    } else {
        gmb_error("cannot render the record");
    }
    free(js);
    free(csv);
    return rc;
}

/* What a file that is not a regular file is, for a message. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "of an unknown kind";
}

FILE *gmb_fopen_regular(const char *path, long long max, char *err, size_t errlen)
{
    struct stat st;
    err[0] = '\0';
    /* never block on (or read) a FIFO, device or directory: open without blocking, check
     * what was opened, read from that descriptor (no stat-then-open race) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st)) {
        snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file (%s)", path, file_kind(st.st_mode));
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    if (max > 0 && (long long)st.st_size > max) {
        snprintf(err, errlen, "%s: %lld bytes, more than the %lld this file may have", path,
                 (long long)st.st_size, max);
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r"); /* buffered: json_loadfd reads a byte per system call */
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    return f;
}

json_t *gmb_record_load(const char *path, char *err, size_t errlen)
{
    json_error_t je;
    FILE *f = gmb_fopen_regular(path, 0, err, errlen);
    if (!f)
        return NULL;
    json_t *r = json_loadf(f, 0, &je);
    fclose(f);
    if (!r) {
        for (char *p = je.text; *p; p++) /* the bytes jansson quotes: one line, no escapes */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        snprintf(err, errlen, "%s: not a valid record: %s (line %d)", path, je.text, je.line);
        return NULL;
    }
    const char *schema = json_string_value(json_object_get(r, "schema"));
    json_t *ver = json_object_get(r, "schema_version");
    if (!json_is_object(r) || !schema || strcmp(schema, GMB_RECORD_SCHEMA) ||
        !json_is_integer(ver)) {
        snprintf(err, errlen, "%s: not a gmb record (no schema \"%s\" with a version)", path,
                 GMB_RECORD_SCHEMA);
        json_decref(r);
        return NULL;
    }
    if (json_integer_value(ver) > GMB_RECORD_SCHEMA_VERSION)
        snprintf(err, errlen,
                 "%s: schema version %" JSON_INTEGER_FORMAT
                 " is newer than this gmb reads (%d): unknown fields are ignored",
                 path, json_integer_value(ver), GMB_RECORD_SCHEMA_VERSION);
    return r;
}
