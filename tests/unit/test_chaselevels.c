/* test_chaselevels.c - level names of the chase on the committed H200 curves
 * (results/nvidia-h200): page-stride levels are TLB levels only where no cache ends them (the
 * 4 KiB and 64 KiB strides' first levels are the L1, the 2 MiB stride's step has no plateau
 * after it within 4 GiB), and OpenCL's levels are named from the cache the device reports,
 * as CUDA names them; a CPU's stay numbered. The records are read from GMB_RESULTS_DIR, else
 * results/ beside tests/ (the unit tests run from the repository's root). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmb.h"
#include "model/levels.h"
#include "tools/runset.h"
#include "tools/table.h"
#include "tools/crosscheck.h"

#define MAXP 4096

/* o's string member k, "" when none */
static const char *str(const json_t *o, const char *k)
{
    const char *v = json_string_value(json_object_get(o, k));
    return v ? v : "";
}

static const char *results_dir(void)
{
    const char *e = getenv("GMB_RESULTS_DIR");
    return e && *e ? e : "results";
}

static json_t *load(const char *rel)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/nvidia-h200/%s", results_dir(), rel);
    json_error_t err;
    json_t *j = json_load_file(p, 0, &err);
    if (!j)
        fail_msg("%s: %s", p, err.text);
    return j;
}

typedef struct curve {
    size_t n;
    double size[MAXP], y[MAXP];
    double line; /* stride_bytes of its points */
} curve_t;

/* The points of one curve, as gmb-chase had them: median cycles or ns per point (NAN when
 * not verified). */
static void get_curve(const json_t *rec, const char *mode, const char *space, double page,
                      const char *unit, curve_t *cv)
{
    size_t i;
    const json_t *p;
    cv->n = 0;
    cv->line = 0;
    json_array_foreach(json_object_get(rec, "points"), i, p)
    {
        const json_t *pa = json_object_get(p, "params");
        if (strcmp(str(pa, "mode"), mode) || strcmp(str(pa, "space"), space) ||
            json_number_value(json_object_get(pa, "page_bytes")) != page)
            continue;
        const json_t *m =
            json_object_get(json_object_get(json_object_get(p, "metrics"), unit), "median");
        const char *v = str(json_object_get(p, "extra"), "verified");
        cv->size[cv->n] = json_number_value(json_object_get(pa, "size_bytes"));
        cv->y[cv->n++] = !strcmp(v, "full") && m ? json_number_value(m) : NAN;
        cv->line = json_number_value(json_object_get(pa, "stride_bytes"));
    }
}

/* Whether gmb-chase detected this curve's levels on cycles (else ns). */
static const char *unit_of(const json_t *rec, const char *mode, const char *space, double page)
{
    size_t i;
    const json_t *cv;
    json_array_foreach(json_object_get(json_object_get(rec, "results"), "levels"), i, cv)
    {
        if (!strcmp(str(cv, "mode"), mode) && !strcmp(str(cv, "space"), space) &&
            json_number_value(json_object_get(cv, "page_bytes")) == page)
            return !strcmp(str(cv, "detected_on"), "cycles") ? "lat_cycles" : "lat_ns";
    }
    return "lat_ns";
}

/* A run's analysis, as gmb-chase does it: the random curve of space named (dev), its caches,
 * then the page curve of page bytes named against them. */
typedef struct run {
    gmb_level_t L[GMB_MAX_LEVELS];
    char names[GMB_MAX_LEVELS][GMB_LEVEL_NAME];
    int nl;
    gmb_lv_cache_t caches[GMB_MAX_LEVELS + 1];
    size_t nc;
    int bottom;
} run_t;

static void normal(const json_t *rec, const char *space, const gmb_lv_device_t *dev,
                   gmb_lv_path_t path, run_t *r)
{
    static curve_t cv;
    get_curve(rec, "random", space, 0, unit_of(rec, "random", space, 0), &cv);
    assert_true(cv.n > 10);
    r->nl = gmb_levels_detect(cv.size, cv.y, cv.n, NULL, r->L, GMB_MAX_LEVELS, NULL);
    assert_true(r->nl >= 2);
    double llc = json_number_value(json_object_get(json_object_get(rec, "device"), "llc_bytes"));
    int memory = llc > 0 && cv.size[cv.n - 1] >= 4 * llc;
    gmb_level_names(dev, path, NULL, memory, r->L, r->nl, r->names);
    r->nc = gmb_lv_caches((const char(*)[GMB_LEVEL_NAME])r->names, r->L, r->nl, memory, r->caches);
    if (dev->gpu)
        r->nc = gmb_lv_caches_reported(r->caches, r->nc, llc, "L2");
    r->bottom = r->L[0].first == 0;
}

/* The page curve of page bytes in space, named: returns the levels kept. */
static int paged(const json_t *rec, const char *space, double page, const run_t *r, gmb_level_t *L,
                 gmb_page_level_t *P)
{
    static curve_t cv;
    get_curve(rec, "page", space, page, unit_of(rec, "page", space, page), &cv);
    assert_true(cv.n > 5);
    int nl = gmb_levels_detect(cv.size, cv.y, cv.n, NULL, L, GMB_MAX_LEVELS, NULL);
    assert_true(nl >= 0);
    return gmb_page_level_names(r->caches, r->nc, r->bottom, page, cv.line, L, nl, 3, P);
}

static const gmb_lv_device_t CUDA_H200 = {1, 1, 62914560.0};

static void expect_names(const run_t *r, const char *const *want, int n)
{
    assert_int_equal(r->nl, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(r->names[i], want[i]);
}

/* 20261130T225242Z-gpu-check, CUDA: the 4 KiB stride's levels are the L1 (1448 pages of one
 * 128 B line: 181 KiB), the near L2 and DRAM; 64 KiB's the L1 and the near L2; the 2 MiB
 * stride rises past 1.41 GiB to 195 cycles at 4 GiB without a plateau: no level. */
static void test_h200_cuda_pages(void **state)
{
    (void)state;
    json_t *rec = load("20261130T225242Z-gpu-check/cuda/20261130T225227Z-chase.json");
    run_t r;
    normal(rec, "global", &CUDA_H200, GMB_LV_GLOBAL, &r);
    expect_names(&r, (const char *const[]){"L1", "L2 near", "L2 far", "DRAM"}, 4);
    gmb_level_t L[GMB_MAX_LEVELS];
    gmb_page_level_t P[GMB_MAX_LEVELS];
    int n = paged(rec, "global", 4096, &r, L, P);
    assert_int_equal(n, 3);
    assert_string_equal(P[0].name, "L1 (page stride)");
    assert_float_equal(P[0].lines_bytes, 1448 * 128.0, 0);
    assert_string_equal(P[1].name, "L2 near (page stride)");
    assert_string_equal(P[2].name, "DRAM (page stride)");
    for (int i = 0; i < n; i++)
        assert_int_equal(P[i].tlb, 0);
    n = paged(rec, "global", 65536, &r, L, P);
    assert_int_equal(n, 2);
    assert_string_equal(P[0].name, "L1 (page stride)");
    assert_string_equal(P[1].name, "L2 near (page stride)");
    assert_int_equal(paged(rec, "global", 2097152, &r, L, P), 0);
    /* global-cg: L2 and DRAM, against its own random curve */
    run_t cg;
    normal(rec, "global-cg", &CUDA_H200, GMB_LV_L2_FIRST, &cg);
    n = paged(rec, "global-cg", 4096, &cg, L, P);
    assert_int_equal(n, 2);
    assert_string_equal(P[0].name, "L2 near (page stride)");
    assert_string_equal(P[1].name, "DRAM (page stride)");
    json_decref(rec);
}

/* 20261130T230554Z-gpu-check, CUDA: the record named the 2 MiB stride "TLB level 1 ≈ 32
 * cycles, reach 1448 MiB; TLB level 2 ≈ 205 cycles" (and gmb table published it). The second
 * plateau is two points at 3.4 and 4 GiB, still rising (198, 211 cycles), whose lines (215 and
 * 256 KiB) are the L1's size: no level, never that reach. */
static void test_h200_cuda_2mib_no_reach(void **state)
{
    (void)state;
    json_t *rec = load("20261130T230554Z-gpu-check/cuda/20261130T230558Z-chase.json");
    run_t r;
    normal(rec, "global", &CUDA_H200, GMB_LV_GLOBAL, &r);
    gmb_level_t L[GMB_MAX_LEVELS];
    gmb_page_level_t P[GMB_MAX_LEVELS];
    assert_int_equal(paged(rec, "global", 2097152, &r, L, P), 0);
    int n = paged(rec, "global", 4096, &r, L, P);
    assert_true(n >= 2);
    for (int i = 0; i < n; i++) {
        assert_int_equal(P[i].tlb, 0);
        assert_null(strstr(P[i].name, "TLB"));
    }
    json_decref(rec);
}

/* Every committed chase record with page-stride curves: no level named TLB is a cache level
 * (its lines under the edge of the cache they fit), and none is reach 1448 MiB at 32 cycles. */
static void test_h200_every_page_curve(void **state)
{
    (void)state;
    static const struct {
        const char *path, *backend;
    } recs[] = {
        {"20261130T211553Z-gpu-check/cuda/20261130T211536Z-chase.json", "cuda"},
        {"20261130T211553Z-gpu-check/opencl/20261130T211750Z-chase.json", "opencl"},
        {"20261130T212628Z-gpu-check/cuda/20261130T212632Z-chase.json", "cuda"},
        {"20261130T225242Z-gpu-check/cuda/20261130T225227Z-chase.json", "cuda"},
        {"20261130T225242Z-gpu-check/opencl/20261130T225336Z-chase.json", "opencl"},
        {"20261130T230554Z-gpu-check/cuda/20261130T230558Z-chase.json", "cuda"},
    };
    const double pages[] = {4096, 65536, 2097152};
    int tlb = 0, curves = 0;
    for (size_t k = 0; k < sizeof recs / sizeof *recs; k++) {
        json_t *rec = load(recs[k].path);
        gmb_lv_device_t dev = {1, !strcmp(recs[k].backend, "cuda"), 62914560.0};
        run_t r;
        normal(rec, "global", &dev, GMB_LV_GLOBAL, &r);
        for (size_t q = 0; q < 3; q++) {
            gmb_level_t L[GMB_MAX_LEVELS];
            gmb_page_level_t P[GMB_MAX_LEVELS];
            int n = paged(rec, "global", pages[q], &r, L, P);
            curves++;
            for (int i = 0; i < n; i++) {
                if (!P[i].tlb)
                    continue;
                tlb++;
                print_message("%s %.0f: %s lat %.1f reach %.0f lines %.0f cache %s\n", recs[k].path,
                              pages[q], P[i].name, L[i].lat, L[i].size_hi, P[i].lines_bytes,
                              r.caches[P[i].cache].name);
                assert_true(P[i].cache >= 0);
                assert_true(P[i].lines_bytes < GMB_LV_EDGE * r.caches[P[i].cache].bytes);
                assert_false(fabs(L[i].size_hi - 1448.0 * 1048576) < 1048576 &&
                             fabs(L[i].lat - 32) < 1);
            }
        }
        json_decref(rec);
    }
    assert_int_equal(curves, 18);
    assert_int_equal(tlb, 0); /* none of the committed curves shows a TLB level */
}

/* A TLB step inside the L1: 2 MiB strides, 32 cycles to 1 GiB, 60 cycles to 2 GiB (512 and
 * 1024 lines of 128 B: 64 and 128 KiB, in a 215 KiB L1), then the L2 past the L1's lines. */
static void test_synthetic_tlb(void **state)
{
    (void)state;
    gmb_lv_cache_t c[] = {
        {"L1", 220416, 262144}, {"L2 near", 23726464, 28215680}, {"DRAM", INFINITY, 0}};
    gmb_level_t L[3] = {
        {.lat = 32, .size_lo = 2097152, .size_hi = 1073741824, .npoints = 30},
        {.lat = 60, .size_lo = 1.2e9, .size_hi = 2147483648.0, .npoints = 4},
        {.lat = 300, .size_lo = 8589934592.0, .size_hi = 17179869184.0, .npoints = 5}};
    gmb_page_level_t P[3];
    assert_int_equal(gmb_page_level_names(c, 3, 1, 2097152, 128, L, 3, 3, P), 3);
    assert_string_equal(P[0].name, "TLB level 1");
    assert_int_equal(P[0].tlb, 1);
    assert_float_equal(P[0].miss_cost, 28, 1e-9);
    /* 2 GiB: 128 KiB of lines, 0.59 of the L1: no cache's end, but the level after it has its
     * lines in the L2: a TLB step and a cache's in one: numbered */
    assert_string_equal(P[1].name, "level 2");
    assert_string_equal(P[2].name, "L2 near (page stride)");
    /* the level after a TLB level, the last: "after TLB level 1" */
    gmb_level_t L2[2] = {L[0], L[1]};
    assert_int_equal(gmb_page_level_names(c, 3, 1, 2097152, 128, L2, 2, 3, P), 2);
    assert_string_equal(P[0].name, "TLB level 1");
    assert_string_equal(P[1].name, "after TLB level 1");
    /* without the caches below (bottom 0): the first cache known may not be the first */
    assert_int_equal(gmb_page_level_names(c + 1, 2, 0, 2097152, 128, L2, 2, 3, P), 2);
    assert_string_equal(P[0].name, "level 1");
    assert_string_equal(P[1].name, "level 2");
    /* no caches at all: numbered */
    assert_int_equal(gmb_page_level_names(NULL, 0, 0, 2097152, 128, L2, 2, 3, P), 2);
    assert_string_equal(P[0].name, "level 1");
    /* an end level of two points is dropped: one level left is none */
    L2[1].npoints = 2;
    assert_int_equal(gmb_page_level_names(c, 3, 1, 2097152, 128, L2, 2, 3, P), 0);
}

/* NVIDIA's OpenCL on the H200 (20261130T225242Z-gpu-check/opencl): the device reports a 60 MiB
 * cache (the L2, from the CUDA driver): the same names as CUDA's record of the same run; a
 * CPU device and a GPU that reports no cache: numbered. */
static void test_opencl_names(void **state)
{
    (void)state;
    json_t *rec = load("20261130T225242Z-gpu-check/opencl/20261130T225336Z-chase.json");
    double llc = json_number_value(json_object_get(json_object_get(rec, "device"), "llc_bytes"));
    assert_float_equal(llc, 62914560.0, 0);
    gmb_lv_device_t ocl = {1, 0, llc};
    run_t r;
    normal(rec, "global", &ocl, GMB_LV_GLOBAL, &r);
    expect_names(&r, (const char *const[]){"L1", "L2 near", "L2 far", "DRAM"}, 4);
    json_t *cu = load("20261130T225242Z-gpu-check/cuda/20261130T225227Z-chase.json");
    run_t rc;
    normal(cu, "global", &CUDA_H200, GMB_LV_GLOBAL, &rc);
    for (int i = 0; i < r.nl; i++)
        assert_string_equal(r.names[i], rc.names[i]);
    json_decref(cu);
    gmb_lv_device_t cpu = {0, 0, llc};
    normal(rec, "global", &cpu, GMB_LV_GLOBAL, &r);
    expect_names(&r, (const char *const[]){"level 1", "level 2", "level 3", "memory"}, 4);
    gmb_lv_device_t nocache = {1, 0, 0};
    normal(rec, "global", &nocache, GMB_LV_GLOBAL, &r);
    expect_names(&r, (const char *const[]){"level 1", "level 2", "level 3", "memory"}, 4);
    /* its page strides: no TLB level (4 KiB: the L1's lines; 2 MiB: no plateau after) */
    normal(rec, "global", &ocl, GMB_LV_GLOBAL, &r);
    gmb_level_t L[GMB_MAX_LEVELS];
    gmb_page_level_t P[GMB_MAX_LEVELS];
    int n = paged(rec, "global", 4096, &r, L, P);
    assert_true(n >= 2);
    assert_string_equal(P[0].name, "L1 (page stride)");
    assert_int_equal(paged(rec, "global", 2097152, &r, L, P), 0);
    json_decref(rec);
    /* the first session's OpenCL run, whose random curve has one L1 and its L2 as the last
     * level (the sweep's end): L1, L2 */
    rec = load("20261130T211553Z-gpu-check/opencl/20261130T211750Z-chase.json");
    normal(rec, "global", &ocl, GMB_LV_GLOBAL, &r);
    assert_string_equal(r.names[0], "L1");
    json_decref(rec);
}

/* Synthetic OpenCL devices: an AMD-like GPU (8 MiB L2 reported, an L1 of 16 KiB, a 256 MiB
 * level above the L2 that the device does not report: numbered), and an on-chip space. */
static void test_opencl_synthetic(void **state)
{
    (void)state;
    gmb_level_t L[4] = {{.size_hi = 16384},
                        {.size_hi = 8388608},
                        {.size_hi = 268435456},
                        {.size_hi = 4294967296.0}};
    char n[4][GMB_LEVEL_NAME];
    gmb_lv_device_t amd = {1, 0, 8388608};
    gmb_level_names(&amd, GMB_LV_GLOBAL, NULL, 1, L, 4, n);
    assert_string_equal(n[0], "L1");
    assert_string_equal(n[1], "L2");
    assert_string_equal(n[2], "level 3");
    assert_string_equal(n[3], "DRAM");
    gmb_level_names(&amd, GMB_LV_ONCHIP, NULL, 1, L, 4, n);
    assert_string_equal(n[0], "level 1");
    assert_string_equal(n[3], "level 4");
    gmb_level_names(&amd, GMB_LV_LINK, "host", 1, L, 2, n);
    assert_string_equal(n[1], "host memory");
    /* two levels below the reported cache: which is the L1 is not told */
    gmb_level_t M[4] = {
        {.size_hi = 16384}, {.size_hi = 131072}, {.size_hi = 8388608}, {.size_hi = 4294967296.0}};
    gmb_level_names(&amd, GMB_LV_GLOBAL, NULL, 1, M, 4, n);
    assert_string_equal(n[0], "level 1");
    assert_string_equal(n[1], "level 2");
    assert_string_equal(n[2], "L2");
    assert_string_equal(n[3], "DRAM");
}

/* The cell of the row labelled label (unit) in column col of t, or NULL. */
static const gmb_cell_t *cell(const gmb_table_t *t, const char *label, const char *unit, size_t col)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (!strcmp(t->rows[i]->label, label) && !strcmp(t->rows[i]->unit, unit))
            return &t->cells[i * t->ncols + col];
    return NULL;
}

/* An OpenCL GPU column: the committed NVIDIA OpenCL record of the H200 with its random global
 * levels named as gmb-chase names them now (from the 60 MiB cache the device reports): the
 * table's L1, L2, L2 far and DRAM rows fill (index chase: OpenCL chases word indices), and the
 * last-level-cache cross-check compares the driver's 60 MiB with the chase's L2 end. */
static void test_opencl_column(void **state)
{
    (void)state;
    json_t *rec = load("20261130T225242Z-gpu-check/opencl/20261130T225336Z-chase.json");
    gmb_lv_device_t ocl = {1, 0, 62914560.0};
    size_t i;
    json_t *cv;
    json_array_foreach(json_object_get(json_object_get(rec, "results"), "levels"), i, cv)
    {
        if (strcmp(str(cv, "mode"), "random") || strcmp(str(cv, "space"), "global"))
            continue;
        json_t *lv = json_object_get(cv, "levels");
        gmb_level_t L[GMB_MAX_LEVELS];
        char names[GMB_MAX_LEVELS][GMB_LEVEL_NAME];
        int nl = (int)json_array_size(lv);
        assert_int_equal(nl, 4);
        for (int k = 0; k < nl; k++)
            L[k] = (gmb_level_t){.size_hi = json_number_value(json_object_get(
                                     json_array_get(lv, (size_t)k), "capacity_bytes"))};
        gmb_level_names(&ocl, GMB_LV_GLOBAL, NULL, 1, L, nl, names);
        for (int k = 0; k < nl; k++)
            json_object_set_new(json_array_get(lv, (size_t)k), "name", json_string(names[k]));
    }
    gmb_runset_t rs = {0};
    assert_int_equal(gmb_runset_add(&rs, rec, "ocl/chase.json", "ocl"), 0);
    gmb_runset_label(&rs);
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    const char *rows[] = {"L1 latency (index chase)", "L2 latency (index chase)",
                          "L2 far latency (index chase)", "DRAM latency (index chase)"};
    const double want[] = {40.4, 288, 512, 673}; /* cycles, derived (ns x 1980 MHz) */
    for (size_t k = 0; k < 4; k++) {
        const gmb_cell_t *c = cell(&t, rows[k], "cycles", 0);
        if (!c || c->kind != 1)
            fail_msg("no %s row", rows[k]);
        assert_true(fabs(c->v - want[k]) < 0.02 * want[k]);
        c = cell(&t, rows[k], "ns", 0);
        assert_non_null(c);
        assert_int_equal(c->kind, 1);
    }
    assert_null(cell(&t, "Latency level 1 (index chase)", "ns", 0));
    gmb_table_free(&t);
    gmb_xcheck_t x[8];
    size_t n = gmb_crosscheck(&rs, 0, x, 8), found = 0;
    for (size_t k = 0; k < n; k++)
        if (!strcmp(x[k].quantity, "Last-level cache capacity")) {
            found = 1;
            assert_int_equal(x[k].n, 2);
            assert_float_equal(x[k].vals[0].v, 60, 1e-9);                   /* the driver's */
            assert_float_equal(x[k].vals[1].v, 56431488 / 1048576.0, 1e-9); /* the far L2's end */
        }
    assert_true(found);
    gmb_runset_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h200_cuda_pages),
        cmocka_unit_test(test_h200_cuda_2mib_no_reach),
        cmocka_unit_test(test_h200_every_page_curve),
        cmocka_unit_test(test_synthetic_tlb),
        cmocka_unit_test(test_opencl_names),
        cmocka_unit_test(test_opencl_synthetic),
        cmocka_unit_test(test_opencl_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
