/* test_overlap.c - unit tests of gmb-overlap's pure parts (bench/overlap/ridge.c and ref.c,
 * compiled in here: they live beside the program, not in libgmb): the ridge point of synthetic
 * sweeps (a roofline, a serial sum, memory-bound and compute-bound ones, lines that cross
 * outside the transition, bad input), the hidden fraction and the overlap efficiency, and the
 * host's FMA chain that the kernels' outputs are checked against. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../../bench/overlap/ref.c"
#include "../../bench/overlap/ridge.c"

static const double K[] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
#define NK (sizeof K / sizeof K[0])

/* t = max(mem, a k): the lines cross at mem / a */
static void roofline(void **state)
{
    (void)state;
    double t[NK];
    for (size_t i = 0; i < NK; i++)
        t[i] = fmax(100, 2 * K[i]);
    ovl_ridge_t r;
    assert_int_equal(ovl_ridge_fit(K, t, NK, 101, &r), 0);
    assert_true(r.found);
    assert_true(fabs(r.k - 50) < 1e-9);
    assert_true(fabs(r.flat_ns - 100) < 1e-9);
    assert_true(fabs(r.slope_ns - 2) < 1e-9);
    assert_int_equal(r.nmem, 7);  /* k 0 .. 32 */
    assert_int_equal(r.ncomp, 4); /* k 128 .. 1024: 2x k 0's time or more */
    assert_true(r.kmem_max == 32 && r.kcomp_min == 128 && r.departure_k == 64);
    assert_string_equal(r.why, "");
}

/* t = mem + a k (no overlap at all): the lines still cross, nearer k 0 than a roofline's */
static void serial(void **state)
{
    (void)state;
    double t[NK];
    for (size_t i = 0; i < NK; i++)
        t[i] = 100 + 2 * K[i];
    ovl_ridge_t r;
    assert_int_equal(ovl_ridge_fit(K, t, NK, 100, &r), 0);
    assert_true(r.found);
    assert_true(r.kmem_max == 4 && r.kcomp_min == 64);
    assert_true(r.k > 4 / 1.1 && r.k < 50); /* median t / k of k 64 .. 1024 is 2.39 */
    assert_true(fabs(r.slope_ns - (100 + 2 * 256.0) / 256) < 1e-9);
}

/* flat to the end, or one point off it only: not compute-bound within the sweep */
static void memory_bound(void **state)
{
    (void)state;
    double t[NK];
    for (size_t i = 0; i < NK; i++)
        t[i] = 100 + 0.005 * K[i];
    ovl_ridge_t r;
    assert_int_equal(ovl_ridge_fit(K, t, NK, 100, &r), 0);
    assert_false(r.found);
    assert_true(isnan(r.k) && isnan(r.departure_k));
    assert_int_equal(r.nmem, NK);
    assert_non_null(strstr(r.why, "not compute-bound within the sweep: 0 points"));
    t[NK - 1] = 250; /* one point at 2x: two are needed */
    assert_int_equal(ovl_ridge_fit(K, t, NK, 100, &r), 0);
    assert_false(r.found);
    assert_non_null(strstr(r.why, "1 point at 2x"));
    assert_true(r.departure_k == 1024);
}

/* compute-bound from k = 1: no memory side past k 0 */
static void compute_bound(void **state)
{
    (void)state;
    double t[NK];
    for (size_t i = 0; i < NK; i++)
        t[i] = fmax(100, 200 * K[i]);
    ovl_ridge_t r;
    assert_int_equal(ovl_ridge_fit(K, t, NK, 100, &r), 0);
    assert_false(r.found);
    assert_non_null(strstr(r.why, "compute-bound from the first k"));
    assert_true(r.departure_k == 1 && r.nmem == 1);
}

/* lines that cross outside the transition between the two sides: no clear ridge */
static void outside(void **state)
{
    (void)state;
    const double k[] = {0, 1, 2, 4, 8};
    const double t[] = {100, 100, 100, 300, 600}; /* a = 75: they cross at k 1.33 < 2 / 1.1 */
    ovl_ridge_t r;
    assert_int_equal(ovl_ridge_fit(k, t, 5, 100, &r), 0);
    assert_false(r.found);
    assert_non_null(strstr(r.why, "outside the transition"));
    /* the tolerance: a last flat point a little past the crossing still counts */
    const double t2[] = {100, 100, 100, 108, 216, 432}, k2[] = {0, 1, 2, 4, 8, 16};
    assert_int_equal(ovl_ridge_fit(k2, t2, 6, 100, &r), 0);
    assert_true(r.found);
    assert_true(fabs(r.k - 100 / 27.0) < 1e-9 && r.kmem_max == 4 && r.k < 4);
}

/* a CI on k = 0 widens the plateau; a CI below the median is taken as none */
static void ci_plateau(void **state)
{
    (void)state;
    const double k[] = {0, 1, 2, 4, 8, 16};
    const double t[] = {100, 118, 125, 200, 400, 800};
    ovl_ridge_t r;
    assert_int_equal(ovl_ridge_fit(k, t, 6, 100, &r), 0);
    assert_int_equal(r.nmem, 1); /* 118 > 110 */
    assert_int_equal(ovl_ridge_fit(k, t, 6, 110, &r), 0);
    assert_int_equal(r.nmem, 2); /* 118 <= 121, 125 > 121 */
    assert_int_equal(ovl_ridge_fit(k, t, 6, 50, &r), 0);
    assert_int_equal(r.nmem, 1);
}

static void bad_input(void **state)
{
    (void)state;
    ovl_ridge_t r;
    const double k[] = {0, 1, 2}, t[] = {1, 2, 3};
    assert_int_equal(ovl_ridge_fit(k, t, 1, 1, &r), -1);
    assert_false(r.found);
    const double k1[] = {1, 2, 4};
    assert_int_equal(ovl_ridge_fit(k1, t, 3, 1, &r), -1);
    assert_non_null(strstr(r.why, "the first k is not 0"));
    const double k2[] = {0, 2, 2};
    assert_int_equal(ovl_ridge_fit(k2, t, 3, 1, &r), -1);
    const double t2[] = {1, NAN, 3}, t3[] = {1, 0, 3}, t4[] = {1, INFINITY, 3};
    assert_int_equal(ovl_ridge_fit(k, t2, 3, 1, &r), -1);
    assert_int_equal(ovl_ridge_fit(k, t3, 3, 1, &r), -1);
    assert_int_equal(ovl_ridge_fit(k, t4, 3, 1, &r), -1);
    assert_false(r.found);
}

static void fractions(void **state)
{
    (void)state;
    assert_true(ovl_efficiency(10, 10, 10) == 1); /* wholly hidden */
    assert_true(ovl_efficiency(10, 10, 20) == 0); /* one after the other */
    assert_true(fabs(ovl_efficiency(10, 5, 12) - 0.6) < 1e-12);
    assert_true(ovl_efficiency(10, 5, 9) > 1);  /* faster together: kept */
    assert_true(ovl_efficiency(10, 5, 16) < 0); /* slower than in turn: kept */
    assert_true(isnan(ovl_efficiency(0, 5, 5)) && isnan(ovl_efficiency(5, 5, NAN)));
    assert_true(ovl_hidden_fraction(100, 50, 100) == 1); /* the memory time hides it all */
    assert_true(ovl_hidden_fraction(100, 50, 150) == 0); /* none */
    assert_true(fabs(ovl_hidden_fraction(100, 50, 120) - 0.6) < 1e-12);
    assert_true(isnan(ovl_hidden_fraction(100, 0, 120)));
}

/* the host's chain: correctly rounded FMAs (not a multiply and an add, each rounded), staying
 * in [1, 2] from a start in [1, 2), and the compute-only sum of four chains */
static void chain(void **state)
{
    (void)state;
    float p = (float)OVL_P, q = (float)OVL_Q;
    assert_true(p == 1 - 0x1p-10f && q == 0x1p-10f); /* exact constants */
    for (uint64_t i = 0; i < 64; i++) {
        float x = ovl_ref_input(7, i), y = ovl_ref_mem_f32(x, 0);
        assert_true(x >= 1 && x < 2);
        assert_memory_equal(&x, &y, sizeof x);
        y = ovl_ref_mem_f32(x, 1);
        float f = fmaf(x, p, q);
        assert_memory_equal(&y, &f, sizeof y);
        float z = ovl_ref_mem_f32(x, 4096);
        assert_true(z >= 1 && z <= 2);
        double d = ovl_ref_mem_f64(x, 4096);
        assert_true(d >= 1 && d <= x);
    }
    /* an FMA and a rounded product then sum differ somewhere among these starts */
    int differ = 0;
    for (uint64_t i = 0; i < 4096 && !differ; i++) {
        volatile float x = ovl_ref_input(3, i), m = x * p;
        float two = m + q, one = ovl_ref_mem_f32(x, 1);
        differ = memcmp(&two, &one, sizeof one) != 0;
    }
    assert_true(differ);
    float x[4];
    for (int j = 0; j < 4; j++)
        x[j] = ovl_ref_mem_f32(ovl_ref_input(9, 4 * 5 + (uint64_t)j), 33);
    float want = (x[0] + x[1]) + (x[2] + x[3]);
    float got = (float)ovl_ref_reg(0, 5, 33, 9);
    assert_memory_equal(&got, &want, sizeof got);
    double xd[4];
    for (int j = 0; j < 4; j++)
        xd[j] = ovl_ref_mem_f64(ovl_ref_input(9, 4 * 5 + (uint64_t)j), 33);
    assert_true(ovl_ref_reg(1, 5, 33, 9) == (xd[0] + xd[1]) + (xd[2] + xd[3]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roofline),     cmocka_unit_test(serial),
        cmocka_unit_test(memory_bound), cmocka_unit_test(compute_bound),
        cmocka_unit_test(outside),      cmocka_unit_test(ci_plateau),
        cmocka_unit_test(bad_input),    cmocka_unit_test(fractions),
        cmocka_unit_test(chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
