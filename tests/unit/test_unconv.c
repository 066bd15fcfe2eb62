/* test_unconv.c - gmb table's mark (†) on values that rest on unconverged points: crafted
 * chase, loaded and um records whose points converged or not, and the committed H200 quick
 * profile (its far L2, its cache cross-check, the loaded knee and the managed-memory figures
 * rest on points that never converged). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gmb.h"
#include "tools/runset.h"
#include "tools/table.h"
#include "tools/crosscheck.h"

/* the committed quick-profile run of the H200 (tests run from the repository root) */
#ifndef GMB_H200_QUICK
#define GMB_H200_QUICK "results/nvidia-h200/20261130T232558Z"
#endif

static json_t *device(void)
{
    return json_pack("{s:s, s:s, s:s, s:s}", "name", "GPU", "backend", "cuda", "type", "gpu",
                     "platform", "CUDA");
}

/* A point of params p (stolen) with one metric of median v, converged or not. */
static json_t *point(json_t *p, const char *metric, double v, int converged)
{
    return json_pack("{s:o, s:{s:{s:f, s:f, s:f}}, s:{s:f, s:i, s:b}}", "params", p, "metrics",
                     metric, "median", v, "ci_lo", v * 0.99, "ci_hi", v * 1.01, "time_ns", "median",
                     1000.0, "n", converged ? 5 : 30, "converged", converged);
}

static json_t *record(const char *bench, json_t *points, json_t *results)
{
    return json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:o}", "schema", "gmb-record",
                     "schema_version", 1, "benchmark", bench, "backend", "cuda", "time_utc",
                     "2026-01-01T00:00:00Z", "device", device(), "points", points, "results",
                     results);
}

/* A chase: L1 on 4 converged points (4-32 KiB), L2 near on 4 of which the last did not
 * converge (64-512 KiB), L2 far on 3 unconverged ones (1-4 MiB), rising at 8 MiB (not
 * converged either), DRAM on 2 converged ones (16, 32 MiB). */
static json_t *chase_rec(void)
{
    json_t *pts = json_array();
    static const struct {
        double size, lat;
        int conv;
    } p[] = {{4096, 30, 1},      {8192, 30, 1},     {16384, 30, 1},    {32768, 30, 1},
             {65536, 280, 1},    {131072, 280, 1},  {262144, 280, 1},  {524288, 281, 0},
             {1048576, 520, 0},  {2097152, 530, 0}, {4194304, 530, 0}, {8388608, 600, 0},
             {16777216, 680, 1}, {33554432, 680, 1}};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        json_array_append_new(
            pts, point(json_pack("{s:s, s:i, s:s, s:f}", "mode", "random", "page_bytes", 0, "space",
                                 "global", "size_bytes", p[i].size),
                       "lat_cycles", p[i].lat, p[i].conv));
    json_t *lv = json_pack(
        "[{s:s, s:f, s:f, s:f, s:f}, {s:s, s:f, s:f, s:f, s:f}, {s:s, s:f, s:f, s:f, s:f},"
        " {s:s, s:f, s:f, s:f, s:f}]",
        "name", "L1", "lat_cycles", 30.0, "size_lo_bytes", 4096.0, "capacity_bytes", 32768.0,
        "rise_at_bytes", 65536.0, "name", "L2 near", "lat_cycles", 280.0, "size_lo_bytes", 65536.0,
        "capacity_bytes", 524288.0, "rise_at_bytes", 1048576.0, "name", "L2 far", "lat_cycles",
        530.0, "size_lo_bytes", 1048576.0, "capacity_bytes", 4194304.0, "rise_at_bytes", 8388608.0,
        "name", "DRAM", "lat_cycles", 680.0, "size_lo_bytes", 16777216.0, "capacity_bytes",
        33554432.0, "rise_at_bytes", 0.0);
    json_t *res = json_pack("{s:[{s:s, s:i, s:s, s:o}]}", "levels", "mode", "random", "page_bytes",
                            0, "space", "global", "levels", lv);
    return record("chase", pts, res);
}

/* A loaded curve of 6 levels (0, 1, 2, 4, 8, 16 groups): the knee at 8 groups (16 the most
 * bandwidth); idle and the first levels converged, 4, 8 and 16 not. */
static json_t *loaded_rec(void)
{
    json_t *pts = json_array();
    static const struct {
        int groups;
        double bw, lat;
        int conv;
    } p[] = {{0, 0, 100, 1},   {1, 100, 110, 1}, {2, 200, 150, 1},
             {4, 400, 220, 0}, {8, 980, 400, 0}, {16, 1000, 600, 0}};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++) {
        json_t *pt = point(json_pack("{s:s, s:i}", "traffic", "read", "load_groups", p[i].groups),
                           "lat_ns", p[i].lat, p[i].conv);
        json_object_set_new(json_object_get(pt, "metrics"), "bw_GBps",
                            json_pack("{s:f}", "median", p[i].bw));
        json_array_append_new(pts, pt);
    }
    json_t *res =
        json_pack("{s:{s:{s:f}, s:f, s:{s:f, s:i}, s:{s:f, s:i}, s:f}}", "loaded", "idle", "lat_ns",
                  100.0, "max_bw_GBps", 1000.0, "knee", "lat_ns", 400.0, "load_groups", 8,
                  "most_groups", "lat_ns", 600.0, "load_groups", 16, "bw_at_2x_idle_GBps", 300.0);
    return record("loaded", pts, res);
}

/* A um record: resident converged at its largest size (1 MiB), fault-d2h not (at 1 MiB; it
 * did at 64 KiB, which is not its table figure); the latency points of 64 KiB converged, those
 * of 2 MiB not. */
static json_t *um_rec(void)
{
    json_t *pts = json_array();
    static const struct {
        const char *test;
        double size;
        int conv;
    } p[] = {{"resident", 65536, 0},
             {"resident", 1048576, 1},
             {"fault-d2h", 65536, 1},
             {"fault-d2h", 1048576, 0}};
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        json_array_append_new(
            pts, point(json_pack("{s:s, s:f}", "test", p[i].test, "size_bytes", p[i].size),
                       "bw_GBps", 10, p[i].conv));
    for (int host = 0; host < 2; host++) {
        json_array_append_new(
            pts, point(json_pack("{s:s, s:i, s:i, s:s}", "test", "latency", "size_bytes", 4194304,
                                 "stride_bytes", 65536, "placement", host ? "host" : "device"),
                       "lat_us", 5, 1));
        json_array_append_new(
            pts, point(json_pack("{s:s, s:i, s:i, s:s}", "test", "latency", "size_bytes", 134217728,
                                 "stride_bytes", 2097152, "placement", host ? "host" : "device"),
                       "lat_us", 9, 0));
    }
    json_t *res = json_pack("{s:{s:{s:f, s:i}, s:{s:f, s:i}}, s:{s:{s:f}, s:{s:f}}}", "largest",
                            "resident", "bw_GBps", 900.0, "size_bytes", 1048576, "fault-d2h",
                            "bw_GBps", 3.0, "size_bytes", 1048576, "fault_us", "65536", "fault_us",
                            14.0, "2097152", "fault_us", 28.0);
    return record("um", pts, res);
}

/* The cell of the row label (unit) in column col; NULL when the table has no such row. */
static const gmb_cell_t *cell(const gmb_table_t *t, const char *label, const char *unit, size_t col)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(t->rows[r]->label, label) && !strcmp(t->rows[r]->unit, unit))
            return &t->cells[r * t->ncols + col];
    return NULL;
}

static int marked(const gmb_table_t *t, const char *label, const char *unit)
{
    const gmb_cell_t *c = cell(t, label, unit, 0);
    if (!c)
        fail_msg("no row '%s' (%s)", label, unit);
    return (c->note & GMB_NOTE_UNCONVERGED) != 0;
}

static void build(gmb_runset_t *rs, gmb_table_t *t)
{
    memset(rs, 0, sizeof *rs);
    assert_int_equal(gmb_runset_add(rs, chase_rec(), "chase.json", "run"), 0);
    assert_int_equal(gmb_runset_add(rs, loaded_rec(), "loaded.json", "run"), 0);
    assert_int_equal(gmb_runset_add(rs, um_rec(), "um.json", "run"), 0);
    gmb_runset_label(rs);
    assert_int_equal(gmb_table_build(rs, t), 0);
}

static void test_crafted_marks(void **state)
{
    (void)state;
    gmb_runset_t rs;
    gmb_table_t t;
    build(&rs, &t);
    /* a level: its plateau points */
    assert_false(marked(&t, "L1 latency (chase not recorded)", "cycles"));
    assert_int_equal(cell(&t, "L1 latency (chase not recorded)", "cycles", 0)->npts, 4);
    assert_false(marked(&t, "L2 latency (chase not recorded)", "cycles")); /* 1 of 4 at its edge */
    assert_int_equal(cell(&t, "L2 latency (chase not recorded)", "cycles", 0)->nunc, 1);
    assert_true(marked(&t, "L2 far latency (chase not recorded)", "cycles"));
    assert_int_equal(cell(&t, "L2 far latency (chase not recorded)", "cycles", 0)->npts, 3);
    assert_false(marked(&t, "DRAM latency (chase not recorded)", "cycles"));
    /* the capacity: the plateau and the point where it rises */
    assert_true(marked(&t, "L2 capacity (latency curve)", "MiB"));
    assert_int_equal(cell(&t, "L2 capacity (latency curve)", "MiB", 0)->npts, 4);
    /* loaded: the idle point converged; the knee's neighbours (4, 8, 16 groups) did not */
    assert_false(marked(&t, "Loaded: chase latency, idle (index chase)", "ns"));
    assert_true(
        marked(&t, "Loaded: latency at the knee (97% of that bandwidth; index chase)", "ns"));
    assert_int_equal(
        cell(&t, "Loaded: latency at the knee (97% of that bandwidth; index chase)", "ns", 0)->npts,
        3);
    assert_true(marked(&t, "Loaded: the most bandwidth beside the chase", "GB/s"));
    /* twice 100 ns is first passed at 4 groups: idle, 2 and 4 groups, one of three unconverged */
    const gmb_cell_t *x2 = cell(&t, "Loaded: bandwidth where the latency doubles", "GB/s", 0);
    assert_non_null(x2);
    assert_int_equal(x2->npts, 3);
    assert_int_equal(x2->nunc, 1);
    assert_false(x2->note & GMB_NOTE_UNCONVERGED);
    /* um: the point of the largest size only */
    assert_false(marked(&t, "Managed: device reads, data on the device", "GB/s"));
    assert_int_equal(cell(&t, "Managed: device reads, data on the device", "GB/s", 0)->npts, 1);
    assert_true(marked(&t, "Managed: host reads device-written data", "GB/s"));
    assert_false(marked(&t, "Page fault, one touch per 64 KiB", "us"));
    assert_true(marked(&t, "Page fault, one touch per 2 MiB", "us"));
    assert_int_equal(cell(&t, "Page fault, one touch per 2 MiB", "us", 0)->npts, 2);
    assert_true(t.notes & GMB_NOTE_UNCONVERGED);

    /* every format carries the mark and says what it means */
    char *md = gmb_table_render(&t, "md"), *tex = gmb_table_render(&t, "tex");
    char *csv = gmb_table_render(&t, "csv");
    assert_non_null(md);
    assert_non_null(tex);
    assert_non_null(csv);
    assert_non_null(
        strstr(md, "| L2 far latency (chase not recorded) | cycles | 530.0 [524.7, 535.3] † |\n"));
    assert_non_null(
        strstr(md, "| L1 latency (chase not recorded) | cycles | 30.00 [29.70, 30.30] |\n"));
    assert_non_null(strstr(md, " †: half or more of the points it rests on did not converge"));
    assert_non_null(strstr(
        tex, "L2 far latency (chase not recorded) (cycles) & 530.0 {\\footnotesize[524.7, 535.3]}"
             "\\textsuperscript{\\dag} \\\\\n"));
    assert_non_null(strstr(tex, "; dagger: half or more of the points it rests on"));
    assert_non_null(strstr(csv, ",GPU (CUDA) ci_hi,GPU (CUDA) unconverged\n"));
    assert_non_null(
        strstr(csv, "L2 far latency (chase not recorded),cycles,530,524.7,535.3,3/3\n"));
    assert_non_null(strstr(csv, "L1 latency (chase not recorded),cycles,30,29.7,30.3,0/4\n"));
    assert_non_null(strstr(csv, "\"Page fault, one touch per 2 MiB\",us,28,,,2/2\n"));
    free(md);
    free(tex);
    free(csv);

    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

/* Without one unconverged point, nothing is marked and no legend is written. */
static void test_all_converged(void **state)
{
    (void)state;
    gmb_runset_t rs = {0};
    json_t *r = loaded_rec();
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(r, "points"), i, p)
        json_object_set_new(json_object_get(p, "time_ns"), "converged", json_true());
    assert_int_equal(gmb_runset_add(&rs, r, "loaded.json", "run"), 0);
    gmb_runset_label(&rs);
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    assert_false(t.notes & GMB_NOTE_UNCONVERGED);
    char *md = gmb_table_render(&t, "md");
    assert_non_null(md);
    assert_null(strstr(md, "†"));
    free(md);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

/* The committed H200 quick profile: what the issue names is marked, what converged is not. */
static void test_h200_quick(void **state)
{
    (void)state;
    const char *dir = getenv("GMB_H200_QUICK_DIR") ? getenv("GMB_H200_QUICK_DIR") : GMB_H200_QUICK;
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        skip();
        return;
    }
    gmb_runset_t rs = {0};
    char *args[] = {(char *)dir};
    FILE *err = fopen("/dev/null", "w");
    assert_non_null(err);
    assert_int_equal(gmb_runset_load(&rs, args, 1, err), 0);
    fclose(err);
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    /* the far L2: 4 points, none converged; the capacity also rests on the rise at 53.8 MiB */
    assert_true(marked(&t, "L2 far latency (pointer chase)", "cycles"));
    assert_true(marked(&t, "L2 far latency (pointer chase)", "ns"));
    assert_int_equal(cell(&t, "L2 far latency (pointer chase)", "cycles", 0)->npts, 4);
    assert_int_equal(cell(&t, "L2 far latency (pointer chase)", "cycles", 0)->nunc, 4);
    assert_true(marked(&t, "L2 capacity (latency curve)", "MiB"));
    assert_true(
        marked(&t, "Loaded: latency at the knee (97% of that bandwidth; index chase)", "ns"));
    assert_true(marked(&t, "Managed: host reads device-written data", "GB/s"));
    assert_true(marked(&t, "Managed: prefetch to the device", "GB/s"));
    assert_true(marked(&t, "Page fault, one touch per 64 KiB", "us"));
    assert_true(marked(&t, "Page fault, one touch per 2 MiB", "us"));
    /* converged: L1, the near L2 (4 of its 18 points not), DRAM (2 of 7), stream, the idle
     * chase, the remote reads (their 1 GiB point converged) */
    assert_false(marked(&t, "L1 latency (pointer chase)", "cycles"));
    assert_false(marked(&t, "L2 latency (pointer chase)", "cycles"));
    assert_int_equal(cell(&t, "L2 latency (pointer chase)", "cycles", 0)->nunc, 4);
    assert_false(marked(&t, "DRAM latency (pointer chase)", "cycles"));
    assert_false(marked(&t, "Read bandwidth", "GB/s"));
    assert_false(marked(&t, "Loaded: chase latency, idle (index chase)", "ns"));
    assert_false(marked(&t, "Managed: device reads it on the host (advice)", "GB/s"));
    /* the cache cross-check: the chase's 49.35 MiB marked, the driver's 60 MiB not */
    gmb_xcheck_t x[8];
    size_t n = gmb_crosscheck(&rs, 0, x, 8), found = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(x[i].quantity, "Last-level cache capacity"))
            continue;
        for (size_t k = 0; k < x[i].n; k++) {
            if (strstr(x[i].vals[k].source, "chase")) {
                found++;
                assert_true(x[i].vals[k].unconverged);
            } else {
                assert_false(x[i].vals[k].unconverged);
            }
        }
    }
    assert_int_equal(found, 1);
    char *xmd = gmb_crosscheck_md(x, n);
    assert_non_null(xmd);
    assert_non_null(strstr(xmd, "leaves the L2: 49.35 †"));
    assert_non_null(strstr(xmd, "\n†: half or more of the points"));
    free(xmd);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crafted_marks),
        cmocka_unit_test(test_all_converged),
        cmocka_unit_test(test_h200_quick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
