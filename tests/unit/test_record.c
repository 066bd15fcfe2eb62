/* test_record.c - unit tests of run records: slugs, atomic never-overwriting publication,
 * JSON round trip, CSV rendering, loading errors and derived metrics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <utime.h>
#include <unistd.h>

#include "gmb.h"
#include "record.h"
#include "model/stats.h"

/* |a - b| <= tol, doubles (cmocka 1.1 only compares floats) */
#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            fail_msg("%s = %.17g, want %.17g (tolerance %g)", #a, a_, b_, (double)(tol));          \
    } while (0)

/* ---- helpers ------------------------------------------------------------------------------- */

/* A fresh temporary directory per test (state), removed with everything in it afterwards. */
static int tmpdir_setup(void **state)
{
    const char *base = getenv("TMPDIR");
    char *d = malloc(4096);
    if (!d)
        return -1;
    snprintf(d, 4096, "%s/gmb-test-record-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(d)) {
        free(d);
        return -1;
    }
    *state = d;
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    chmod(path, 0700); /* undo a read-only test */
    return remove(path);
}

static int rm_fix(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_D || flag == FTW_DNR)
        chmod(path, 0700);
    return 0;
}

static int tmpdir_teardown(void **state)
{
    char *d = *state;
    int rc = 0;
    if (d) {
        nftw(d, rm_fix, 16, FTW_PHYS); /* make every directory writable first */
        rc = nftw(d, rm_one, 16, FTW_DEPTH | FTW_PHYS);
        free(d);
    }
    return rc ? -1 : 0;
}

/* Whole file into a malloc'd string; NULL when missing. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t r;
    while ((r = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            s = realloc(s, cap);
            assert_non_null(s);
        }
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static void check_file(const char *dir, const char *name, const char *want)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    char *got = slurp(p);
    if (!got)
        fail_msg("%s is missing", p);
    assert_string_equal(got, want);
    free(got);
}

static int file_exists(const char *dir, const char *name)
{
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

/* Number of entries in dir (without . and ..), and of temporary files among them. */
static int count_entries(const char *dir, int *ntmp)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    *ntmp = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        n++;
        if (!strncmp(e->d_name, ".gmb-tmp-", 9))
            (*ntmp)++;
    }
    closedir(d);
    return n;
}

/* ---- gmb_slug ------------------------------------------------------------------------------ */

static void slug_is(const char *name, const char *want)
{
    char out[128];
    gmb_slug(name, out, sizeof out);
    if (strcmp(out, want))
        fail_msg("gmb_slug(\"%s\") = \"%s\", want \"%s\"", name ? name : "(null)", out, want);
}

static void test_slug(void **state)
{
    (void)state;
    slug_is("NVIDIA H200", "nvidia-h200");
    slug_is("pthread-skylake-avx512-Intel(R) Xeon(R) Processor",
            "pthread-skylake-avx512-intel-r-xeon-r-processor");
    slug_is("", "device");
    slug_is("***", "device");
    slug_is(NULL, "device");
    slug_is("  Tesla  V100-SXM2-16GB  ", "tesla-v100-sxm2-16gb");
    slug_is("AMD Instinct MI300X", "amd-instinct-mi300x");
    slug_is("a__b", "a-b");
    slug_is("Gr\xc3\xbc\xc3\x9f"
            "e",
            "gr-e"); /* non-ASCII bytes separate */
}

static void test_slug_truncation(void **state)
{
    (void)state;
    const char *name = "pthread-skylake-avx512-Intel(R) Xeon(R) Processor";
    char full[128];
    gmb_slug(name, full, sizeof full);
    for (size_t len = 1; len <= 60; len++) {
        char out[64];
        memset(out, 'Z', sizeof out);
        gmb_slug(name, out, len);
        size_t l = strnlen(out, len);
        if (l >= len)
            fail_msg("len %zu: slug not terminated within the buffer", len);
        for (size_t i = len; i < sizeof out; i++)
            if (out[i] != 'Z')
                fail_msg("len %zu: byte %zu written past the buffer", len, i);
        for (size_t i = 0; i < l; i++)
            if (!((out[i] >= 'a' && out[i] <= 'z') || (out[i] >= '0' && out[i] <= '9') ||
                  out[i] == '-'))
                fail_msg("len %zu: '%c' in \"%s\"", len, out[i], out);
        if (len > strlen(full) && strcmp(out, full))
            fail_msg("len %zu: \"%s\", want \"%s\"", len, out, full);
    }
    char out[4];
    memset(out, 'Z', sizeof out);
    gmb_slug("NVIDIA H200", out, 0); /* nothing written */
    assert_memory_equal(out, "ZZZZ", 4);
}

/* ---- gmb_publish / gmb_record_write -------------------------------------------------------- */

static void test_publish_twice(void **state)
{
    const char *tmp = *state;
    char dir[4096], stem[4200], want[4200];
    snprintf(dir, sizeof dir, "%s/results/nvidia-h200/run", tmp); /* nested, not yet there */
    const char *ext[] = {"json", "csv"};
    const char *one[] = {"{\"a\": 1}\n", "a\n1\n"};
    const char *two[] = {"{\"a\": 2}\n", "a\n2\n"};
    const char *three[] = {"{\"a\": 3}\n", "a\n3\n"};

    assert_int_equal(gmb_publish(dir, "x", 2, ext, one, stem, sizeof stem), GMB_OK);
    snprintf(want, sizeof want, "%s/x", dir);
    assert_string_equal(stem, want);
    check_file(dir, "x.json", one[0]);
    check_file(dir, "x.csv", one[1]);

    assert_int_equal(gmb_publish(dir, "x", 2, ext, two, stem, sizeof stem), GMB_OK);
    snprintf(want, sizeof want, "%s/x-2", dir);
    assert_string_equal(stem, want);
    check_file(dir, "x-2.json", two[0]);
    check_file(dir, "x-2.csv", two[1]);
    check_file(dir, "x.json", one[0]); /* never overwritten */
    check_file(dir, "x.csv", one[1]);

    assert_int_equal(gmb_publish(dir, "x", 2, ext, three, stem, sizeof stem), GMB_OK);
    snprintf(want, sizeof want, "%s/x-3", dir);
    assert_string_equal(stem, want);
    check_file(dir, "x-3.json", three[0]);

    int ntmp, n = count_entries(dir, &ntmp);
    assert_int_equal(ntmp, 0);
    assert_int_equal(n, 6);

    /* published files are readable by others (mkstemp makes 0600) */
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/x.json", dir);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
}

static void test_publish_partial_clash(void **state)
{
    const char *tmp = *state;
    char stem[4200], want[4200];
    const char *ext[] = {"json", "csv"};
    const char *data[] = {"J", "C"};
    /* only the second name of the first choice exists: the first must not be left behind */
    char p[4200];
    snprintf(p, sizeof p, "%s/y.csv", tmp);
    spit(p, "old");
    assert_int_equal(gmb_publish(tmp, "y", 2, ext, data, stem, sizeof stem), GMB_OK);
    snprintf(want, sizeof want, "%s/y-2", tmp);
    assert_string_equal(stem, want);
    assert_false(file_exists(tmp, "y.json"));
    check_file(tmp, "y.csv", "old");
    check_file(tmp, "y-2.json", "J");
    check_file(tmp, "y-2.csv", "C");
    int ntmp, n = count_entries(tmp, &ntmp);
    assert_int_equal(ntmp, 0);
    assert_int_equal(n, 3);

    /* bad counts are refused */
    assert_int_equal(gmb_publish(tmp, "z", 0, ext, data, stem, sizeof stem), GMB_ERUNTIME);
    assert_int_equal(gmb_publish(tmp, "z", 9, ext, data, stem, sizeof stem), GMB_ERUNTIME);
    assert_int_equal(count_entries(tmp, &ntmp), 3);
}

/* The record (.json, the first name) is linked last: a clash on it undoes the .csv made
 * before it; temporaries an hour old (a writer killed before its links) are removed, a live
 * writer's are not. */
static void test_publish_json_last_stale_tmp(void **state)
{
    const char *tmp = *state;
    char dir[4096], p[4300], stem[4200], want[4200];
    snprintf(dir, sizeof dir, "%s/pub", tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    const char *ext[] = {"json", "csv"};
    const char *data[] = {"J", "C"};
    snprintf(p, sizeof p, "%s/q.json", dir);
    spit(p, "old");
    snprintf(p, sizeof p, "%s/.gmb-tmp-stale1", dir);
    spit(p, "dead writer's");
    struct utimbuf old = {time(NULL) - 7200, time(NULL) - 7200};
    assert_int_equal(utime(p, &old), 0);
    snprintf(p, sizeof p, "%s/.gmb-tmp-live01", dir);
    spit(p, "live writer's");
    assert_int_equal(gmb_publish(dir, "q", 2, ext, data, stem, sizeof stem), GMB_OK);
    snprintf(want, sizeof want, "%s/q-2", dir);
    assert_string_equal(stem, want);
    assert_false(file_exists(dir, "q.csv")); /* made before the clash on q.json, undone */
    check_file(dir, "q.json", "old");
    check_file(dir, "q-2.json", "J");
    check_file(dir, "q-2.csv", "C");
    assert_false(file_exists(dir, ".gmb-tmp-stale1"));
    assert_true(file_exists(dir, ".gmb-tmp-live01"));
}

static void test_publish_readonly(void **state)
{
    const char *tmp = *state;
    if (geteuid() == 0)
        skip(); /* root ignores permissions */
    char ro[4096], sub[4200], stem[4200] = "unchanged";
    snprintf(ro, sizeof ro, "%s/ro", tmp);
    assert_int_equal(mkdir(ro, 0755), 0);
    assert_int_equal(chmod(ro, 0555), 0);
    const char *ext[] = {"json", "csv"};
    const char *data[] = {"J", "C"};
    assert_int_equal(gmb_publish(ro, "x", 2, ext, data, stem, sizeof stem), GMB_ERUNTIME);
    assert_string_equal(stem, "unchanged");
    int ntmp;
    assert_int_equal(count_entries(ro, &ntmp), 0);
    /* a directory that cannot be created */
    snprintf(sub, sizeof sub, "%s/deeper/still", ro);
    assert_int_equal(gmb_publish(sub, "x", 2, ext, data, stem, sizeof stem), GMB_ERUNTIME);
    assert_int_equal(count_entries(ro, &ntmp), 0);
    assert_int_equal(chmod(ro, 0755), 0);
}

/* ---- records ------------------------------------------------------------------------------- */

/* One point as the harness writes it. */
static json_t *point(const char *kernel, json_int_t size_bytes, json_t *bw, const double *ns,
                     size_t n, size_t min_samples, const char *verified)
{
    gmb_stats_t st;
    assert_int_equal(gmb_stats_compute(ns, n, min_samples, 0.01, &st), GMB_OK);
    json_t *samples = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(samples, json_real(ns[i]));
    json_t *p =
        json_pack("{s:{s:s, s:I}, s:{s:o}, s:o, s:o, s:{s:s}}", "params", "kernel", kernel,
                  "size_bytes", size_bytes, "metrics", "bw_GBps", bw, "time_ns",
                  gmb_json_stats(&st), "samples_ns", samples, "extra", "verified", verified);
    assert_non_null(p);
    return p;
}

/* A record with two points whose every real has a short decimal form. */
static json_t *make_record(void)
{
    const double ns1[] = {3000, 1000, 2000};
    const double ns2[] = {2048, 2048, 2048, 2048};
    json_t *bw1 = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "median", 1.5, "ci_lo", 1.4, "ci_hi",
                            1.6, "min", 1.3, "max", 1.7, "mean", 1.5);
    assert_non_null(bw1);
    gmb_stats_t t2;
    assert_int_equal(gmb_stats_compute(ns2, 4, 2, 0.01, &t2), GMB_OK);
    json_t *bw2 = gmb_json_rate(8192.0, &t2); /* 4 GB/s exactly */
    assert_non_null(bw2);
    json_t *r = json_pack("{s:s, s:i, s:s, s:s, s:{s:s}, s:[o, o]}", "schema", GMB_RECORD_SCHEMA,
                          "schema_version", GMB_RECORD_SCHEMA_VERSION, "benchmark", "stream",
                          "status", "ok", "device", "name", "NVIDIA H200", "points",
                          point("copy", 4096, bw1, ns1, 3, 2, "full"),
                          point("read", 8192, bw2, ns2, 4, 2, "sampled"));
    assert_non_null(r);
    return r;
}

static const char csv_want[] =
    "kernel,size_bytes,bw_GBps,bw_GBps_ci_lo,bw_GBps_ci_hi,bw_GBps_min,bw_GBps_max,time_ns,n,"
    "converged,verified\n"
    "copy,4096,1.5,1.4,1.6,1.3,1.7,2000,3,0,full\n"
    "read,8192,4,4,4,4,4,2048,4,1,sampled\n";

static void test_record_csv(void **state)
{
    (void)state;
    json_t *r = make_record();
    char *csv = gmb_record_csv(r);
    assert_non_null(csv);
    assert_string_equal(csv, csv_want);
    free(csv);
    json_decref(r);

    /* not a record with points */
    json_t *bad = json_pack("{s:s}", "schema", GMB_RECORD_SCHEMA);
    assert_null(gmb_record_csv(bad));
    json_decref(bad);
}

static void test_record_csv_quoting(void **state)
{
    (void)state;
    /* never quoted (gnuplot reads no quotes): ',' and '"' become ';'; missing fields stay
     * empty */
    json_t *r = json_pack("{s:[{s:{s:s, s:b}, s:{}, s:{s:I, s:b}, s:{s:s}},"
                          "   {s:{s:s}, s:{}, s:{}, s:{}}]}",
                          "points", "params", "name", "a,\"b\" c", "flag", 1, "metrics", "time_ns",
                          "n", (json_int_t)5, "converged", 0, "extra", "note", "x", "params",
                          "name", "plain", "metrics", "time_ns", "extra");
    assert_non_null(r);
    char *csv = gmb_record_csv(r);
    assert_non_null(csv);
    assert_string_equal(csv, "name,flag,time_ns,n,converged,note\n"
                             "a;;b; c,1,,5,0,x\n"
                             "plain,,,,,\n");
    free(csv);
    json_decref(r);
}

/* Points with different fields: a column for each field any point has (in the order they
 * first appear), empty where a point lacks it. */
static void test_record_csv_union(void **state)
{
    (void)state;
    json_t *r = json_pack("{s:[{s:{s:s}, s:{s:{s:f}}, s:{s:I, s:b}, s:{}},"
                          "   {s:{s:s, s:i}, s:{s:{s:f}, s:{s:f}}, s:{s:I, s:b}, s:{s:s}}]}",
                          "points", "params", "dir", "h2d", "metrics", "bw", "median", 2.0,
                          "time_ns", "n", (json_int_t)3, "converged", 1, "extra", "params", "dir",
                          "bidir", "node", 1, "metrics", "bw", "median", 4.0, "h2d_bw", "median",
                          1.5, "time_ns", "n", (json_int_t)4, "converged", 0, "extra", "note", "x");
    assert_non_null(r);
    char *csv = gmb_record_csv(r);
    assert_non_null(csv);
    assert_string_equal(csv, "dir,node,bw,bw_ci_lo,bw_ci_hi,bw_min,bw_max,h2d_bw,h2d_bw_ci_lo,"
                             "h2d_bw_ci_hi,h2d_bw_min,h2d_bw_max,time_ns,n,converged,note\n"
                             "h2d,,2,,,,,,,,,,,3,1,\n"
                             "bidir,1,4,,,,,1.5,,,,,,4,0,x\n");
    free(csv);
    json_decref(r);
}

/* Every line of csv has the columns of the first; no quote, no control byte but the line
 * ends, no line gnuplot would take for a comment (a '#' first, after blanks). */
static void assert_rectangular(const char *csv)
{
    int cols = -1, lines = 0;
    for (const char *l = csv; *l;) {
        const char *end = strchr(l, '\n');
        if (!end)
            fail_msg("line %d does not end with a newline", lines + 1);
        int c = 1;
        for (const char *p = l; p < end; p++) {
            if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '"')
                fail_msg("line %d: byte 0x%02x at %d", lines + 1, (unsigned char)*p, (int)(p - l));
            c += *p == ',';
        }
        if (l[strspn(l, " ")] == '#')
            fail_msg("line %d begins with '#'", lines + 1);
        if (cols < 0)
            cols = c;
        else if (c != cols)
            fail_msg("line %d has %d columns, the header %d", lines + 1, c, cols);
        lines++;
        l = end + 1;
    }
    assert_true(lines > 1);
}

/* A crafted record (tests/fixtures/records/fuzz/csv-cells): ',', '"', CR, LF, tab, other
 * control bytes and a leading '#' in param, metric and extra names and string values. */
static void test_record_csv_crafted(void **state)
{
    (void)state;
    char err[512];
    json_t *r =
        gmb_record_load("tests/fixtures/records/fuzz/csv-cells/chase.json", err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    char *csv = gmb_record_csv(r);
    assert_non_null(csv);
    assert_rectangular(csv);
    assert_string_equal(
        csv, ";first,mode,space,page_bytes,size_bytes,we;ird;key   x ,lat_ns,lat_ns_ci_lo,"
             "lat_ns_ci_hi,lat_ns_min,lat_ns_max,m;e;t ric,m;e;t ric_ci_lo,m;e;t ric_ci_hi,"
             "m;e;t ric_min,m;e;t ric_max,time_ns,n,converged,e;x tra;\n"
             " ;lead,random,global,0,4096,ok,1.5,1.4,1.6,1.3,1.7,1,1,1,1,1,1000,3,1,a;b;c \n"
             "plain,random,global,0,8192,;va;l;ue next  end,2.5,2.4,2.6,2.3,2.7,1,1,1,1,1,1000,3,"
             "1,a;b;c \n"
             "plain,random,global,0,16384,;va;l;ue next  end,3.5,3.4,3.6,3.3,3.7,1,1,1,1,1,1000,"
             "3,1,a;b;c \n");
    free(csv);
    json_decref(r);

    char cell[] = "\t #a,\"b\"#\r\n\x7f";
    gmb_csv_clean(cell);
    assert_string_equal(cell, "  ;a;;b;#   ");
}

static void test_record_roundtrip(void **state)
{
    const char *tmp = *state;
    char dir[4096], stem[4200], path[4300], err[512];
    snprintf(dir, sizeof dir, "%s/nvidia-h200", tmp);
    json_t *r = make_record();

    assert_int_equal(gmb_record_write(r, dir, "stream-20250101T000000Z", stem, sizeof stem),
                     GMB_OK);
    snprintf(path, sizeof path, "%s/stream-20250101T000000Z", dir);
    assert_string_equal(stem, path);

    snprintf(path, sizeof path, "%s.json", stem);
    err[0] = 'X';
    json_t *back = gmb_record_load(path, err, sizeof err);
    assert_non_null(back);
    assert_string_equal(err, "");
    if (!json_equal(r, back)) {
        char *a = json_dumps(r, JSON_SORT_KEYS), *b = json_dumps(back, JSON_SORT_KEYS);
        fail_msg("record changed on the way:\n%s\n%s", a, b);
    }
    /* the points kept their shape: reals stay reals, integers stay integers */
    json_t *p0 = json_array_get(json_object_get(back, "points"), 0);
    assert_true(json_is_real(json_object_get(json_object_get(p0, "time_ns"), "median")));
    assert_true(json_is_integer(json_object_get(json_object_get(p0, "time_ns"), "n")));
    assert_true(json_is_integer(json_object_get(json_object_get(p0, "params"), "size_bytes")));
    assert_true(json_is_false(json_object_get(json_object_get(p0, "time_ns"), "converged")));
    assert_int_equal(json_array_size(json_object_get(p0, "samples_ns")), 3);
    json_decref(back);

    /* the JSON file ends with a newline; the CSV file is gmb_record_csv's text */
    char *js = slurp(path);
    assert_non_null(js);
    assert_true(strlen(js) > 0 && js[strlen(js) - 1] == '\n');
    free(js);
    snprintf(path, sizeof path, "%s.csv", stem);
    char *csv = slurp(path);
    assert_non_null(csv);
    assert_string_equal(csv, csv_want);
    free(csv);

    /* a second write of the same stem goes next to it */
    assert_int_equal(gmb_record_write(r, dir, "stream-20250101T000000Z", stem, sizeof stem),
                     GMB_OK);
    snprintf(path, sizeof path, "%s/stream-20250101T000000Z-2", dir);
    assert_string_equal(stem, path);
    int ntmp;
    assert_int_equal(count_entries(dir, &ntmp), 4);
    assert_int_equal(ntmp, 0);
    json_decref(r);
}

static void test_record_precision(void **state)
{
    const char *tmp = *state;
    char stem[4200], path[4300], err[512];
    /* reals are written with 10 significant digits: close, though not always bit-exact */
    json_t *r = json_pack("{s:s, s:i, s:[], s:f, s:f}", "schema", GMB_RECORD_SCHEMA,
                          "schema_version", 1, "points", "x", 1234.5678901234567, "y", 2.0 / 3.0);
    assert_int_equal(gmb_record_write(r, tmp, "p", stem, sizeof stem), GMB_OK);
    snprintf(path, sizeof path, "%s.json", stem);
    json_t *back = gmb_record_load(path, err, sizeof err);
    assert_non_null(back);
    double x = json_real_value(json_object_get(back, "x"));
    double y = json_real_value(json_object_get(back, "y"));
    assert_near(x, 1234.5678901234567, 1234.5678901234567 * 1e-9);
    assert_near(y, 2.0 / 3.0, 1e-9);
    json_decref(back);
    json_decref(r);
}

static void test_record_load_errors(void **state)
{
    const char *tmp = *state;
    char path[4200], err[512];

    snprintf(path, sizeof path, "%s/missing.json", tmp);
    err[0] = '\0';
    assert_null(gmb_record_load(path, err, sizeof err));
    assert_non_null(strstr(err, "missing.json"));

    snprintf(path, sizeof path, "%s/truncated.json", tmp);
    spit(path, "{\"schema\": \"gmb-record\", \"schema_version\": 1, \"points\": [{\"par");
    err[0] = '\0';
    assert_null(gmb_record_load(path, err, sizeof err));
    assert_true(err[0] != '\0');

    snprintf(path, sizeof path, "%s/noschema.json", tmp);
    spit(path, "{\"schema_version\": 1, \"points\": []}\n");
    err[0] = '\0';
    assert_null(gmb_record_load(path, err, sizeof err));
    assert_non_null(strstr(err, "not a gmb record"));

    snprintf(path, sizeof path, "%s/other.json", tmp);
    spit(path, "{\"schema\": \"other\", \"schema_version\": 1}\n");
    err[0] = '\0';
    assert_null(gmb_record_load(path, err, sizeof err));
    assert_true(err[0] != '\0');

    snprintf(path, sizeof path, "%s/noversion.json", tmp);
    spit(path, "{\"schema\": \"gmb-record\", \"schema_version\": \"1\"}\n");
    assert_null(gmb_record_load(path, err, sizeof err));

    snprintf(path, sizeof path, "%s/array.json", tmp);
    spit(path, "[\"schema\", \"gmb-record\"]\n");
    assert_null(gmb_record_load(path, err, sizeof err));

    snprintf(path, sizeof path, "%s/empty.json", tmp);
    spit(path, "");
    assert_null(gmb_record_load(path, err, sizeof err));

    /* a newer schema loads, with a warning */
    char text[128];
    snprintf(path, sizeof path, "%s/newer.json", tmp);
    snprintf(text, sizeof text,
             "{\"schema\": \"gmb-record\", \"schema_version\": %d, \"points\": [], \"new\": 1}\n",
             GMB_RECORD_SCHEMA_VERSION + 1);
    spit(path, text);
    err[0] = '\0';
    json_t *r = gmb_record_load(path, err, sizeof err);
    assert_non_null(r);
    assert_true(err[0] != '\0');
    assert_non_null(strstr(err, "newer"));
    assert_int_equal(json_integer_value(json_object_get(r, "schema_version")),
                     GMB_RECORD_SCHEMA_VERSION + 1);
    json_decref(r);

    /* the current one loads without a word */
    snprintf(path, sizeof path, "%s/current.json", tmp);
    snprintf(text, sizeof text,
             "{\"schema\": \"gmb-record\", \"schema_version\": %d, \"points\": []}\n",
             GMB_RECORD_SCHEMA_VERSION);
    spit(path, text);
    strcpy(err, "stale");
    r = gmb_record_load(path, err, sizeof err);
    assert_non_null(r);
    assert_string_equal(err, "");
    json_decref(r);
}

/* A FIFO, a directory or a device named *.json is never opened for reading: no blocking
 * on the FIFO (SIGALRM ends the test if it blocks), one line naming it and what it is. */
static void test_record_load_special(void **state)
{
    const char *tmp = *state;
    char path[4200], err[512];
    alarm(20);

    snprintf(path, sizeof path, "%s/fifo.json", tmp);
    assert_int_equal(mkfifo(path, 0644), 0);
    err[0] = '\0';
    assert_null(gmb_record_load(path, err, sizeof err));
    assert_non_null(strstr(err, "fifo.json: not a regular file (a FIFO)"));
    assert_null(strchr(err, '\n'));

    snprintf(path, sizeof path, "%s/dir.json", tmp);
    assert_int_equal(mkdir(path, 0755), 0);
    err[0] = '\0';
    assert_null(gmb_record_load(path, err, sizeof err));
    assert_non_null(strstr(err, "dir.json: not a regular file (a directory)"));

    err[0] = '\0';
    assert_null(gmb_record_load("/dev/null", err, sizeof err));
    assert_string_equal(err, "/dev/null: not a regular file (a character device)");

    /* a symbolic link to a regular record is read */
    snprintf(path, sizeof path, "%s/real.json", tmp);
    spit(path, "{\"schema\": \"gmb-record\", \"schema_version\": 1, \"points\": []}\n");
    char link_path[4300];
    snprintf(link_path, sizeof link_path, "%s/link.json", tmp);
    assert_int_equal(symlink(path, link_path), 0);
    json_t *r = gmb_record_load(link_path, err, sizeof err);
    assert_non_null(r);
    assert_string_equal(err, "");
    json_decref(r);
    alarm(0);
}

/* ---- derived metrics ----------------------------------------------------------------------- */

static double num(const json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_number(v))
        fail_msg("no number '%s'", key);
    return json_number_value(v);
}

static void test_json_rate(void **state)
{
    (void)state;
    gmb_stats_t t = {.n = 5,
                     .median = 2000,
                     .ci_lo = 1000,
                     .ci_hi = 4000,
                     .min = 500,
                     .max = 8000,
                     .mean = 2500};
    json_t *r = gmb_json_rate(4096.0, &t);
    assert_non_null(r);
    assert_int_equal(json_object_size(r), 6);
    assert_near(num(r, "median"), 2.048, 1e-12);
    assert_near(num(r, "ci_lo"), 1.024, 1e-12); /* numer / ci_hi: a longer time, a lower rate */
    assert_near(num(r, "ci_hi"), 4.096, 1e-12); /* numer / ci_lo */
    assert_near(num(r, "min"), 0.512, 1e-12);   /* numer / max */
    assert_near(num(r, "max"), 8.192, 1e-12);   /* numer / min */
    assert_near(num(r, "mean"), 1.6384, 1e-12); /* numer / mean time */
    assert_true(num(r, "ci_lo") <= num(r, "median") && num(r, "median") <= num(r, "ci_hi"));
    json_decref(r);

    json_t *s = gmb_json_scaled(0.5, &t);
    assert_non_null(s);
    assert_near(num(s, "median"), 1000, 1e-12);
    assert_near(num(s, "ci_lo"), 500, 1e-12);
    assert_near(num(s, "ci_hi"), 2000, 1e-12);
    assert_near(num(s, "min"), 250, 1e-12);
    assert_near(num(s, "max"), 4000, 1e-12);
    assert_near(num(s, "mean"), 1250, 1e-12);
    json_decref(s);
}

static void test_json_stats(void **state)
{
    (void)state;
    const double ns[] = {3000, 1000, 2000};
    gmb_stats_t st;
    assert_int_equal(gmb_stats_compute(ns, 3, 2, 0.01, &st), GMB_OK);
    json_t *j = gmb_json_stats(&st);
    assert_non_null(j);
    assert_int_equal(json_object_size(j), 10);
    assert_near(num(j, "median"), 2000, 0);
    assert_near(num(j, "ci_lo"), 1000, 0);
    assert_near(num(j, "ci_hi"), 3000, 0);
    assert_near(num(j, "min"), 1000, 0);
    assert_near(num(j, "max"), 3000, 0);
    assert_near(num(j, "mean"), 2000, 0);
    assert_near(num(j, "stddev"), 1000, 1e-9);
    assert_near(num(j, "ci_rel"), 0.5, 1e-12);
    assert_true(json_is_integer(json_object_get(j, "n")));
    assert_int_equal(json_integer_value(json_object_get(j, "n")), 3);
    assert_true(json_is_false(json_object_get(j, "converged")));
    json_decref(j);

    /* an infinite ci_rel (median 0) is stored as a finite large number */
    const double zero[] = {0, 0, 0};
    assert_int_equal(gmb_stats_compute(zero, 3, 2, 0.01, &st), GMB_OK);
    j = gmb_json_stats(&st);
    assert_non_null(j);
    assert_near(num(j, "ci_rel"), 1e300, 0);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slug),
        cmocka_unit_test(test_slug_truncation),
        cmocka_unit_test_setup_teardown(test_publish_twice, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test_setup_teardown(test_publish_partial_clash, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test_setup_teardown(test_publish_json_last_stale_tmp, tmpdir_setup,
                                        tmpdir_teardown),
        cmocka_unit_test_setup_teardown(test_publish_readonly, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test(test_record_csv),
        cmocka_unit_test(test_record_csv_quoting),
        cmocka_unit_test(test_record_csv_union),
        cmocka_unit_test(test_record_csv_crafted),
        cmocka_unit_test_setup_teardown(test_record_roundtrip, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test_setup_teardown(test_record_precision, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test_setup_teardown(test_record_load_errors, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test_setup_teardown(test_record_load_special, tmpdir_setup, tmpdir_teardown),
        cmocka_unit_test(test_json_rate),
        cmocka_unit_test(test_json_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
