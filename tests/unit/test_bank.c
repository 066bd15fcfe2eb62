/* test_bank.c - unit tests of the bank model (conflict degree of warp accesses on 32 x 4-byte
 * banks and other layouts), the cost line fit, flatness, the inference of a bank structure
 * from synthetic stride curves, and the stride-list parser. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model/bankmodel.h"
#include "gmb.h"
#include "kernels/gmb_kernels.h"

#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            fail_msg("%s = %.17g, want %.17g (tolerance %g)", #a, a_, b_, (double)(tol));          \
    } while (0)

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- the conflict-degree model ------------------------------------------------------------ */

static void test_ways_w4(void **state)
{
    (void)state;
    assert_int_equal(gmb_bank_stride_ways(0, 4, 32, 4), 1); /* broadcast */
    assert_int_equal(gmb_bank_stride_ways(1, 4, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(2, 4, 32, 4), 2);
    assert_int_equal(gmb_bank_stride_ways(3, 4, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(4, 4, 32, 4), 4);
    assert_int_equal(gmb_bank_stride_ways(16, 4, 32, 4), 16);
    assert_int_equal(gmb_bank_stride_ways(32, 4, 32, 4), 32);
    assert_int_equal(gmb_bank_stride_ways(33, 4, 32, 4), 1); /* the +1 padding */
    assert_int_equal(gmb_bank_stride_ways(64, 4, 32, 4), 32);
    for (int s = 1; s <= 64; s++) /* 32-bit words: ways = gcd(s, 32) */
        if (gmb_bank_stride_ways(s, 4, 32, 4) != gcd(s, 32))
            fail_msg("stride %d: %d ways, want gcd = %d", s, gmb_bank_stride_ways(s, 4, 32, 4),
                     gcd(s, 32));
}

static void test_ways_w8(void **state)
{
    (void)state;
    /* half-warps of 16 lanes x 8 bytes = one 128-byte row each */
    assert_int_equal(gmb_bank_stride_ways(0, 8, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(1, 8, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(2, 8, 32, 4), 2);
    assert_int_equal(gmb_bank_stride_ways(3, 8, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(4, 8, 32, 4), 4);
    assert_int_equal(gmb_bank_stride_ways(8, 8, 32, 4), 8);
    assert_int_equal(gmb_bank_stride_ways(16, 8, 32, 4), 16);
    assert_int_equal(gmb_bank_stride_ways(32, 8, 32, 4), 16); /* at most the 16 lanes of a phase */
    assert_int_equal(gmb_bank_stride_ways(33, 8, 32, 4), 1);
    for (int s = 1; s <= 64; s++) /* 2 words per lane: ways = min(16, gcd(2s, 32) / 2) */
        if (gmb_bank_stride_ways(s, 8, 32, 4) !=
            (gcd(2 * s, 32) / 2 < 16 ? gcd(2 * s, 32) / 2 : 16))
            fail_msg("stride %d: %d ways", s, gmb_bank_stride_ways(s, 8, 32, 4));
    uint64_t a[32];
    gmb_bank_cost_t c;
    for (int t = 0; t < 32; t++)
        a[t] = 8u * (uint64_t)t;
    assert_int_equal(gmb_bank_cost(a, 32, 8, 32, 4, &c), GMB_OK);
    assert_int_equal(c.ways, 1);
    assert_int_equal(c.phases, 2);
    assert_int_equal(c.wavefronts, 2);
}

static void test_ways_w16(void **state)
{
    (void)state;
    /* quarter-warps of 8 lanes x 16 bytes = one 128-byte row each */
    assert_int_equal(gmb_bank_stride_ways(0, 16, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(1, 16, 32, 4), 1);
    assert_int_equal(gmb_bank_stride_ways(2, 16, 32, 4), 2);
    assert_int_equal(gmb_bank_stride_ways(4, 16, 32, 4), 4);
    assert_int_equal(gmb_bank_stride_ways(8, 16, 32, 4), 8);
    assert_int_equal(gmb_bank_stride_ways(16, 16, 32, 4), 8);
    assert_int_equal(gmb_bank_stride_ways(33, 16, 32, 4), 1);
    uint64_t a[32];
    gmb_bank_cost_t c;
    for (int t = 0; t < 32; t++)
        a[t] = 16u * 8u * (uint64_t)t; /* stride 8: every lane of a phase in banks 0..3 */
    assert_int_equal(gmb_bank_cost(a, 32, 16, 32, 4, &c), GMB_OK);
    assert_int_equal(c.ways, 8);
    assert_int_equal(c.phases, 4);
    assert_int_equal(c.wavefronts, 32);
}

static void test_cost_words(void **state)
{
    (void)state;
    uint64_t a[32];
    gmb_bank_cost_t c;
    /* groups of k lanes read the same word: broadcast within a group, no conflict */
    for (int k = 1; k <= 32; k *= 2) {
        for (int t = 0; t < 32; t++)
            a[t] = 4u * (uint64_t)(t / k);
        assert_int_equal(gmb_bank_cost(a, 32, 4, 32, 4, &c), GMB_OK);
        assert_int_equal(c.ways, 1);
    }
    /* all lanes conflict-free but two read different words of bank 5: 2 ways */
    for (int t = 0; t < 32; t++)
        a[t] = 4u * (uint64_t)t;
    a[7] = 4u * (32 + 5);
    assert_int_equal(gmb_bank_cost(a, 32, 4, 32, 4, &c), GMB_OK);
    assert_int_equal(c.ways, 2);
    assert_int_equal(c.wavefronts, 2);
    /* 64-bit: lanes 0 and 16 hit bank 0 in different rows, but in different phases */
    for (int t = 0; t < 32; t++)
        a[t] = 8u * (uint64_t)t;
    assert_int_equal(gmb_bank_cost(a, 32, 8, 32, 4, &c), GMB_OK);
    assert_int_equal(c.ways, 1);
    /* the 32x32 tile by column: pitch 32 conflicts 32-way, pitch 33 not at all */
    for (int t = 0; t < 32; t++)
        a[t] = 4u * (uint64_t)(t * 32 + 3);
    gmb_bank_cost(a, 32, 4, 32, 4, &c);
    assert_int_equal(c.ways, 32);
    for (int t = 0; t < 32; t++)
        a[t] = 4u * (uint64_t)(t * 33 + 3);
    gmb_bank_cost(a, 32, 4, 32, 4, &c);
    assert_int_equal(c.ways, 1);
}

static void test_cost_layouts(void **state)
{
    (void)state;
    gmb_bank_cost_t k; /* 16 banks: a phase is a half-warp; stride 1 free in 2 wavefronts */
    assert_int_equal(gmb_bank_stride_cost(1, 4, 16, 4, &k), GMB_OK);
    assert_int_equal(k.ways, 1);
    assert_int_equal(k.phases, 2);
    assert_int_equal(k.wavefronts, 2);
    assert_near(gmb_bank_cost_x(&k), 0.0, 1e-12);
    assert_int_equal(gmb_bank_stride_cost(2, 4, 16, 4, &k), GMB_OK);
    assert_int_equal(k.wavefronts, 4);
    assert_near(gmb_bank_cost_x(&k), 1.0, 1e-12);
    assert_int_equal(gmb_bank_stride_ways(2, 4, 64, 4), 1); /* 64 banks: stride 2 is free */
    assert_int_equal(gmb_bank_stride_ways(32, 4, 64, 4), 16);
    assert_int_equal(gmb_bank_stride_ways(2, 4, 32, 8), 1); /* 8-byte banks */
    assert_int_equal(gmb_bank_stride_ways(1, 4, 32, 8), 1);
    assert_int_equal(gmb_bank_stride_ways(4, 4, 32, 8), 2);
    gmb_bank_cost_t c;
    uint64_t a[32] = {0};
    assert_int_equal(gmb_bank_cost(a, 32, 3, 32, 4, &c), GMB_EUSAGE);
    assert_int_equal(gmb_bank_cost(a, 33, 4, 32, 4, &c), GMB_EUSAGE);
    assert_int_equal(gmb_bank_cost(a, 32, 4, 0, 4, &c), GMB_EUSAGE);
    assert_int_equal(gmb_bank_stride_ways(-1, 4, 32, 4), GMB_EUSAGE);
}

/* ---- the line ----------------------------------------------------------------------------- */

static void test_fit_exact(void **state)
{
    (void)state;
    double x[6] = {0, 1, 3, 7, 15, 31}, y[6];
    for (int i = 0; i < 6; i++)
        y[i] = 30.0 + 2.0 * x[i];
    gmb_bank_fit_t f;
    assert_int_equal(gmb_bank_linfit(x, y, 6, &f), GMB_OK);
    assert_true(f.ok);
    assert_int_equal(f.n, 6);
    assert_near(f.base, 30.0, 1e-9);
    assert_near(f.slope, 2.0, 1e-9);
    assert_near(f.rms, 0.0, 1e-9);
    assert_near(f.r2, 1.0, 1e-12);
}

static void test_fit_noisy(void **state)
{
    (void)state;
    double x[64], y[64], ss = 0;
    for (int i = 0; i < 64; i++) {
        x[i] = gcd(i + 1, 32) - 1;
        double e = ((double)(gmb_hash(7, (gmb_u64)i) % 1001) / 1000.0 - 0.5); /* +-0.5 */
        y[i] = 24.0 + 1.5 * x[i] + e;
        ss += e * e;
    }
    gmb_bank_fit_t f;
    assert_int_equal(gmb_bank_linfit(x, y, 64, &f), GMB_OK);
    assert_true(f.ok);
    assert_near(f.slope, 1.5, 0.05);
    assert_near(f.base, 24.0, 0.3);
    assert_true(f.rms > 0.1 && f.rms <= sqrt(ss / 64) + 1e-9); /* least squares beats the truth */
    assert_true(f.r2 > 0.99 && f.r2 < 1.0);
}

static void test_fit_degenerate(void **state)
{
    (void)state;
    double x[3] = {2, 2, 2}, y[3] = {1, 2, 3};
    gmb_bank_fit_t f;
    assert_int_equal(gmb_bank_linfit(x, y, 3, &f), GMB_OK);
    assert_false(f.ok);
    assert_near(f.base, 2.0, 1e-12);
    assert_int_equal(gmb_bank_linfit(x, y, 1, &f), GMB_OK);
    assert_false(f.ok);
    assert_int_equal(gmb_bank_linfit(x, y, 0, &f), GMB_EUSAGE);
}

static void test_flat(void **state)
{
    (void)state;
    double m[4] = {100, 101, 99, 100.5}, lo[4] = {98, 99, 97, 99}, hi[4] = {102, 103, 101, 102};
    double sp;
    assert_true(gmb_bank_flat(m, lo, hi, 4, 0.05, &sp)); /* CIs overlap at 99..101 */
    assert_near(sp, 2.0 / 100.25, 1e-9);
    /* CIs that do not overlap, but a spread below the tolerance: flat */
    double m2[3] = {100, 102, 104}, lo2[3] = {99.9, 101.9, 103.9}, hi2[3] = {100.1, 102.1, 104.1};
    assert_true(gmb_bank_flat(m2, lo2, hi2, 3, 0.05, NULL));
    assert_false(gmb_bank_flat(m2, lo2, hi2, 3, 0.01, NULL));
    /* a 2x step: not flat */
    double m3[3] = {30, 30, 60}, lo3[3] = {29, 29, 59}, hi3[3] = {31, 31, 61};
    assert_false(gmb_bank_flat(m3, lo3, hi3, 3, 0.05, &sp));
    assert_near(sp, 1.0, 1e-12);
}

/* ---- the inference ------------------------------------------------------------------------ */

/* A synthetic stride curve 0..64 for a layout: base + slope (ways - 1) + noise, CIs +-1%. */
static size_t curve(int banks, int bytes, int width, double base, double slope, double noise,
                    int *s, double *y, double *lo, double *hi)
{
    size_t n = 0;
    for (int k = 0; k <= 64; k++, n++) {
        s[n] = k;
        double e = noise * ((double)(gmb_hash(3, (gmb_u64)k) % 2001) / 1000.0 - 1.0);
        y[n] = base + slope * (gmb_bank_stride_ways(k, width, banks, bytes) - 1) + e;
        lo[n] = 0.99 * y[n];
        hi[n] = 1.01 * y[n];
    }
    return n;
}

static void test_infer_32x4(void **state)
{
    (void)state;
    int s[65];
    double y[65], lo[65], hi[65];
    size_t n = curve(32, 4, 4, 24.0, 2.0, 0.3, s, y, lo, hi);
    gmb_bank_infer_t r;
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, n, 4, 0, &r), GMB_OK);
    assert_true(r.detected);
    assert_false(r.flat);
    assert_int_equal(r.banks, 32);
    assert_int_equal(r.bank_bytes, 4);
    assert_near(r.fit.slope, 2.0, 0.05);
    assert_near(r.fit.base, 24.0, 0.3);
    assert_true(r.fit.r2 > 0.99);
    assert_true(r.alt_banks > 0 && r.alt_rms > 1.1 * r.fit.rms);
    assert_non_null(strstr(r.reason, "32 banks x 4 B"));
    /* the same curve from a CPU is not attributed to banks */
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, n, 4, 1, &r), GMB_OK);
    assert_false(r.detected);
    assert_non_null(strstr(r.reason, "no bank structure detected"));
    assert_non_null(strstr(r.reason, "CPU"));
}

static void test_infer_other_layouts(void **state)
{
    (void)state;
    int s[65];
    double y[65], lo[65], hi[65];
    gmb_bank_infer_t r;
    static const int lay[][2] = {{16, 4}, {64, 4}, {32, 8}, {16, 8}};
    for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
        size_t n = curve(lay[i][0], lay[i][1], 4, 30.0, 4.0, 0.2, s, y, lo, hi);
        assert_int_equal(gmb_bank_infer(s, y, lo, hi, n, 4, 0, &r), GMB_OK);
        if (!r.detected || r.banks != lay[i][0] || r.bank_bytes != lay[i][1])
            fail_msg("layout %d x %d: inferred %d (%d x %d): %s", lay[i][0], lay[i][1], r.detected,
                     r.banks, r.bank_bytes, r.reason);
    }
    /* from a 64-bit sweep of the 32 x 4 layout (the half-warp model) */
    size_t n = curve(32, 4, 8, 30.0, 2.0, 0.2, s, y, lo, hi);
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, n, 8, 0, &r), GMB_OK);
    assert_true(r.detected);
    assert_int_equal(r.banks * r.bank_bytes, 128);
}

static void test_infer_flat(void **state)
{
    (void)state;
    int s[65];
    double y[65], lo[65], hi[65];
    size_t n = curve(32, 4, 4, 200.0, 0.0, 3.0, s, y, lo, hi); /* noise only, +-1.5% */
    gmb_bank_infer_t r;
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, n, 4, 0, &r), GMB_OK);
    assert_false(r.detected);
    assert_true(r.flat);
    assert_non_null(strstr(r.reason, "no bank structure detected"));
    assert_non_null(strstr(r.reason, "flat"));
}

static void test_infer_unexplained(void **state)
{
    (void)state;
    /* a curve that varies a lot, but with the stride's parity rather than any bank layout */
    int s[65];
    double y[65], lo[65], hi[65];
    for (int k = 0; k <= 64; k++) {
        s[k] = k;
        y[k] = 100.0 + (gmb_hash(11, (gmb_u64)k) % 100);
        lo[k] = y[k] - 0.5;
        hi[k] = y[k] + 0.5;
    }
    gmb_bank_infer_t r;
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, 65, 4, 0, &r), GMB_OK);
    assert_false(r.detected);
    assert_false(r.flat);
    assert_non_null(strstr(r.reason, "no bank layout explains it"));
}

static void test_infer_too_few_strides(void **state)
{
    (void)state;
    int s[3] = {1, 3, 5};
    double y[3] = {20, 40, 60}, lo[3] = {19, 39, 59}, hi[3] = {21, 41, 61};
    gmb_bank_infer_t r;
    /* one stride: no candidate's cost varies */
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, 1, 4, 0, &r), GMB_OK);
    assert_false(r.detected);
    assert_non_null(strstr(r.reason, "do not change the conflict degree"));
    /* three strides that some layout would fit exactly: too few to decide */
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, 3, 4, 0, &r), GMB_OK);
    assert_false(r.detected);
    assert_non_null(strstr(r.reason, "too few"));
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, 0, 4, 0, &r), GMB_EUSAGE);
    assert_int_equal(gmb_bank_infer(s, y, lo, hi, 3, 3, 0, &r), GMB_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ways_w4),
        cmocka_unit_test(test_ways_w8),
        cmocka_unit_test(test_ways_w16),
        cmocka_unit_test(test_cost_words),
        cmocka_unit_test(test_cost_layouts),
        cmocka_unit_test(test_fit_exact),
        cmocka_unit_test(test_fit_noisy),
        cmocka_unit_test(test_fit_degenerate),
        cmocka_unit_test(test_flat),
        cmocka_unit_test(test_infer_32x4),
        cmocka_unit_test(test_infer_other_layouts),
        cmocka_unit_test(test_infer_flat),
        cmocka_unit_test(test_infer_unexplained),
        cmocka_unit_test(test_infer_too_few_strides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
