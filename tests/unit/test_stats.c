/* test_stats.c - unit tests of the sample summary (median, CI, moments, convergence) and the
 * Mann-Whitney rank test, and the rule that judges two series to differ. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "gmb.h"
#include "model/stats.h"

#define TOL 1e-12

/* |a - b| <= tol, doubles (cmocka 1.1 only compares floats) */
#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            fail_msg("%s = %.17g, want %.17g (tolerance %g)", #a, a_, b_, (double)(tol));          \
    } while (0)

static void test_odd(void **state)
{
    (void)state;
    const double x[] = {5, 1, 4, 2, 3};
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 5, 1, 1.0, &s), GMB_OK);
    assert_int_equal(s.n, 5);
    assert_near(s.median, 3.0, TOL);
    assert_near(s.min, 1.0, TOL);
    assert_near(s.max, 5.0, TOL);
    assert_near(s.mean, 3.0, TOL);
    assert_near(s.stddev, sqrt(2.5), TOL); /* sum of squares 10, n-1 = 4 */
}

static void test_even(void **state)
{
    (void)state;
    /* classic: mean 5, sum of squared deviations 32 */
    const double x[] = {9, 2, 5, 4, 4, 7, 4, 5};
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 8, 1, 1.0, &s), GMB_OK);
    assert_int_equal(s.n, 8);
    assert_near(s.median, 4.5, TOL); /* sorted 2 4 4 4 5 5 7 9 */
    assert_near(s.min, 2.0, TOL);
    assert_near(s.max, 9.0, TOL);
    assert_near(s.mean, 5.0, TOL);
    assert_near(s.stddev, sqrt(32.0 / 7.0), TOL);

    const double y[] = {10.0, 1.0};
    assert_int_equal(gmb_stats_compute(y, 2, 1, 1.0, &s), GMB_OK);
    assert_near(s.median, 5.5, TOL);
    assert_near(s.stddev, sqrt(40.5), TOL);
}

static void test_one(void **state)
{
    (void)state;
    const double x[] = {42.5};
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 1, 1, 1.0, &s), GMB_OK);
    assert_int_equal(s.n, 1);
    assert_near(s.median, 42.5, TOL);
    assert_near(s.min, 42.5, TOL);
    assert_near(s.max, 42.5, TOL);
    assert_near(s.mean, 42.5, TOL);
    assert_near(s.stddev, 0.0, TOL);
    assert_near(s.ci_lo, 42.5, TOL);
    assert_near(s.ci_hi, 42.5, TOL);
    assert_int_equal(s.converged, 0); /* one sample never converges */
}

/* The 95% CI of the median: 1-based ranks j = floor(n/2 - 1.96 sqrt(n)/2) and
 * k = ceil(1 + n/2 + 1.96 sqrt(n)/2), clamped to [1, n]; computed here independently. */
static void ci_ranks(size_t n, long *j, long *k)
{
    double h = 1.96 * sqrt((double)n) / 2.0;
    *j = (long)floor((double)n / 2.0 - h);
    *k = (long)ceil(1.0 + (double)n / 2.0 + h);
    if (*j < 1)
        *j = 1;
    if (*k > (long)n)
        *k = (long)n;
}

static void test_ci_100(void **state)
{
    (void)state;
    double x[100];
    for (int i = 0; i < 100; i++) /* 1..100, shuffled deterministically */
        x[i] = (double)((i * 37) % 100 + 1);
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 100, 5, 1.0, &s), GMB_OK);
    long j, k;
    ci_ranks(100, &j, &k);
    assert_int_equal(j, 40); /* floor(50 - 9.8) */
    assert_int_equal(k, 61); /* ceil(51 + 9.8) */
    /* samples are 1..100, so the value of rank r is r */
    assert_near(s.ci_lo, (double)j, TOL);
    assert_near(s.ci_hi, (double)k, TOL);
    assert_near(s.median, 50.5, TOL);
    assert_true(s.ci_lo < s.median && s.median < s.ci_hi);
    assert_near(s.min, 1.0, TOL);
    assert_near(s.max, 100.0, TOL);
    assert_near(s.mean, 50.5, TOL);
    assert_near(s.ci_rel, (61.0 - 50.5) / 50.5, TOL);
}

static void test_ci_sizes(void **state)
{
    (void)state;
    /* for every n the CI is the ranks of the formula, and brackets the median */
    /* 1.96 and the implementation's 1.959964 first give other ranks at n = 1666 */
    double x[400];
    for (size_t n = 1; n <= 400; n++) {
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(n - i) * 3.0; /* descending: n*3 .. 3 */
        gmb_stats_t s;
        assert_int_equal(gmb_stats_compute(x, n, 1, 1.0, &s), GMB_OK);
        long j, k;
        ci_ranks(n, &j, &k);
        if (s.ci_lo != 3.0 * (double)j || s.ci_hi != 3.0 * (double)k)
            fail_msg("n=%zu: CI [%g, %g], want ranks %ld, %ld", n, s.ci_lo, s.ci_hi, j, k);
        assert_true(s.ci_lo <= s.median && s.median <= s.ci_hi);
    }
}

static void test_ci_small(void **state)
{
    (void)state;
    const double x[] = {30, 10, 50, 20, 40};
    gmb_stats_t s;
    for (size_t n = 1; n < 6; n++) {
        assert_int_equal(gmb_stats_compute(x, n, 1, 1.0, &s), GMB_OK);
        assert_near(s.ci_lo, s.min, TOL);
        assert_near(s.ci_hi, s.max, TOL);
    }
    assert_near(s.ci_lo, 10.0, TOL);
    assert_near(s.ci_hi, 50.0, TOL);
    assert_near(s.ci_rel, 20.0 / 30.0, TOL);
}

static void test_converge_identical(void **state)
{
    (void)state;
    double x[50];
    for (int i = 0; i < 50; i++)
        x[i] = 1234.5;
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 50, 5, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 1);
    assert_near(s.ci_rel, 0.0, TOL);
    assert_near(s.stddev, 0.0, TOL);
    assert_near(s.ci_lo, 1234.5, TOL);
    assert_near(s.ci_hi, 1234.5, TOL);
}

static void test_converge_spread(void **state)
{
    (void)state;
    double x[50];
    for (int i = 0; i < 50; i++) /* 1, 2, 4 ... : a factor 2^49 between extremes */
        x[i] = ldexp(1.0, i % 50);
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 50, 5, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 0);
    assert_true(s.ci_rel > 0.01);

    /* a mild spread: 1000 +- 10% over 50 samples does not meet 1% either */
    for (int i = 0; i < 50; i++)
        x[i] = 900.0 + 4.0 * (double)i;
    assert_int_equal(gmb_stats_compute(x, 50, 5, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 0);
    /* but it meets 10% */
    assert_int_equal(gmb_stats_compute(x, 50, 5, 0.10, &s), GMB_OK);
    assert_int_equal(s.converged, 1);
}

static void test_converge_min_samples(void **state)
{
    (void)state;
    double x[50];
    for (int i = 0; i < 50; i++)
        x[i] = 7.0;
    gmb_stats_t s;
    /* identical samples, but fewer than min_samples */
    assert_int_equal(gmb_stats_compute(x, 4, 5, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 0);
    assert_int_equal(gmb_stats_compute(x, 49, 50, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 0);
    assert_int_equal(gmb_stats_compute(x, 50, 50, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 1);
    assert_int_equal(gmb_stats_compute(x, 5, 5, 0.01, &s), GMB_OK);
    assert_int_equal(s.converged, 1);
}

static void test_empty(void **state)
{
    (void)state;
    const double x[] = {1.0};
    gmb_stats_t s;
    memset(&s, 0x5a, sizeof s);
    assert_int_equal(gmb_stats_compute(x, 0, 1, 1.0, &s), GMB_EUSAGE);
    assert_int_equal(s.n, 0);
    assert_int_equal(s.converged, 0);
}

static void test_input_untouched(void **state)
{
    (void)state;
    double x[] = {9, 2, 5, 4, 4, 7, 4, 5, -1, 100};
    const double copy[] = {9, 2, 5, 4, 4, 7, 4, 5, -1, 100};
    gmb_stats_t s;
    assert_int_equal(gmb_stats_compute(x, 10, 1, 1.0, &s), GMB_OK);
    assert_memory_equal(x, copy, sizeof x);
    assert_near(s.min, -1.0, TOL);
    assert_near(s.max, 100.0, TOL);
    assert_near(s.median, 4.5, TOL);
}

/* ---- Mann-Whitney -------------------------------------------------------------------------- */

static void test_mw_identical(void **state)
{
    (void)state;
    double a[20], b[20];
    for (int i = 0; i < 20; i++)
        a[i] = b[19 - i] = (double)(i + 1);
    double p = gmb_mann_whitney_p(a, 20, b, 20);
    assert_true(p > 0.99 && p <= 1.0);

    /* all values equal: no evidence of a shift */
    for (int i = 0; i < 20; i++)
        a[i] = b[i] = 3.0;
    p = gmb_mann_whitney_p(a, 20, b, 20);
    assert_true(p > 0.99 && p <= 1.0);
}

static void test_mw_separated(void **state)
{
    (void)state;
    double a[20], b[20];
    for (int i = 0; i < 20; i++) {
        a[i] = (double)(i + 1);
        b[i] = (double)(i + 101);
    }
    double p = gmb_mann_whitney_p(a, 20, b, 20);
    assert_true(p >= 0.0 && p < 0.001);
    /* symmetric in its arguments */
    double q = gmb_mann_whitney_p(b, 20, a, 20);
    assert_near(p, q, 1e-15);
    /* U = 0, mean 200, variance 20*20*41/12: z = (200 - 0.5) / sqrt(4100/3) */
    double z = 199.5 / sqrt(4100.0 / 3.0);
    assert_near(p, erfc(z / sqrt(2.0)), 1e-15);

    /* overlapping halves: not significant at 5% */
    for (int i = 0; i < 20; i++)
        b[i] = (double)(i + 2) + 0.5;
    p = gmb_mann_whitney_p(a, 20, b, 20);
    assert_true(p > 0.05 && p <= 1.0);
}

static void test_mw_empty(void **state)
{
    (void)state;
    const double a[] = {1, 2, 3};
    assert_near(gmb_mann_whitney_p(a, 0, a, 3), -1.0, 0.0);
    assert_near(gmb_mann_whitney_p(a, 3, a, 0), -1.0, 0.0);
    assert_near(gmb_mann_whitney_p(a, 0, a, 0), -1.0, 0.0);
}

/* the rule gmb-access's confirmation is judged by: p < 0.05 and the CIs disjoint, both */
static void test_differ(void **state)
{
    (void)state;
    assert_true(gmb_differ(0.01, 1, 2, 3, 4));      /* b above a */
    assert_true(gmb_differ(0.01, 3, 4, 1, 2));      /* b below a */
    assert_false(gmb_differ(0.01, 1, 3, 2, 4));     /* overlapping CIs, small p */
    assert_false(gmb_differ(0.01, 1, 4, 2, 3));     /* one CI inside the other */
    assert_false(gmb_differ(0.01, 1, 2, 2, 3));     /* touching: not disjoint */
    assert_false(gmb_differ(0.20, 1, 2, 3, 4));     /* disjoint, large p */
    assert_false(gmb_differ(0.05, 1, 2, 3, 4));     /* p = 0.05 is not below it */
    assert_false(gmb_differ(-1.0, 1, 2, 3, 4));     /* no test */
    assert_false(gmb_differ(NAN, 1, 2, 3, 4));      /* no p */
    assert_false(gmb_differ(0.01, NAN, NAN, 3, 4)); /* no CI */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd),
        cmocka_unit_test(test_even),
        cmocka_unit_test(test_one),
        cmocka_unit_test(test_ci_100),
        cmocka_unit_test(test_ci_sizes),
        cmocka_unit_test(test_ci_small),
        cmocka_unit_test(test_converge_identical),
        cmocka_unit_test(test_converge_spread),
        cmocka_unit_test(test_converge_min_samples),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_input_untouched),
        cmocka_unit_test(test_mw_identical),
        cmocka_unit_test(test_mw_separated),
        cmocka_unit_test(test_mw_empty),
        cmocka_unit_test(test_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
