/* test_levels.c - unit tests of the level detector on synthetic latency curves: a clean
 * staircase, a noisy one, a gradual transition, a split L2, and curves without steps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "gmb.h"
#include "model/levels.h"

#define KiB    1024.0
#define MiB    (1024.0 * KiB)
#define NPTS   89                /* 1 KiB .. 4 GiB, 4 points per octave */
#define OCT4   1.189207115002721 /* 2^(1/4) */
#define MAXLEV GMB_MAX_LEVELS

typedef double (*curve_fn)(double size);

static double sizes[NPTS], lats[NPTS];

/* Deterministic noise in [-1, 1]. */
static double unoise(unsigned i, unsigned seed)
{
    uint32_t x = i * 0x9e3779b9u ^ seed * 0x85ebca6bu;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (double)x / 2147483647.5 - 1.0;
}

/* Sample a curve at 4 points per octave from 1 KiB, with relative noise. */
static void make(curve_fn f, double rel_noise, unsigned seed)
{
    for (unsigned i = 0; i < NPTS; i++) {
        sizes[i] = KiB * pow(2.0, i / 4.0);
        lats[i] = f(sizes[i]) * (1.0 + rel_noise * unoise(i, seed));
    }
}

#define C1 (240 * KiB)
#define C2 (48 * MiB)
static double staircase(double x)
{
    return x <= C1 ? 33 : x <= C2 ? 280 : 690;
}

/* level k: latency within rel of want, capacity (last size on the plateau) within a quarter
 * octave below the true capacity, and the next size beyond it */
static void check_level(const gmb_level_t *L, double want_lat, double rel, double cap)
{
    if (!(fabs(L->lat - want_lat) <= rel * want_lat))
        fail_msg("latency %.4g, want %.4g +- %.0f%%", L->lat, want_lat, rel * 100);
    if (cap > 0) {
        if (!(L->size_hi <= cap * 1.0001 && L->size_hi >= cap / OCT4 / 1.0001))
            fail_msg("capacity %.6g, want (%.6g, %.6g]", L->size_hi, cap / OCT4, cap);
        if (!(L->rise_at > cap))
            fail_msg("rise at %.6g, want above %.6g", L->rise_at, cap);
    } else if (L->rise_at != 0) {
        fail_msg("the last level has rise_at %.6g", L->rise_at);
    }
}

static void test_clean_staircase(void **state)
{
    (void)state;
    gmb_level_t L[MAXLEV];
    double noise = -1;
    make(staircase, 0, 1);
    int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, &noise);
    assert_int_equal(n, 3);
    check_level(&L[0], 33, 1e-9, C1);
    check_level(&L[1], 280, 1e-9, C2);
    check_level(&L[2], 690, 1e-9, 0);
    assert_true(noise == 0);
    for (int i = 0; i < 3; i++)
        assert_string_equal(gmb_level_confidence_word(L[i].confidence), "high");
    assert_true(L[0].first == 0 && L[2].last == NPTS - 1);
}

static void test_noisy_staircase(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 20; seed++) {
        gmb_level_t L[MAXLEV];
        make(staircase, 0.05, seed); /* +-5% on every point */
        int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
        if (n != 3)
            fail_msg("seed %u: %d levels, want 3", seed, n);
        check_level(&L[0], 33, 0.05, C1);
        check_level(&L[1], 280, 0.05, C2);
        check_level(&L[2], 690, 0.05, 0);
    }
}

/* One wild point on a plateau must not split it or make a level. */
static void test_outlier(void **state)
{
    (void)state;
    gmb_level_t L[MAXLEV];
    make(staircase, 0.01, 3);
    lats[50] *= 3; /* a 1 MiB-ish point inside the L2 plateau */
    int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
    assert_int_equal(n, 3);
    check_level(&L[1], 280, 0.02, C2);
}

/* L2 -> DRAM over two octaves (replacement that is not LRU, hashed sets). */
static double gradual(double x)
{
    if (x <= C1)
        return 33;
    if (x <= C2)
        return 280;
    if (x >= 4 * C2)
        return 690;
    return 280 * pow(690.0 / 280.0, log2(x / C2) / 2);
}

static void test_gradual(void **state)
{
    (void)state;
    gmb_level_t L[MAXLEV];
    make(gradual, 0.01, 5);
    int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
    assert_int_equal(n, 3);
    check_level(&L[0], 33, 0.02, C1);
    assert_true(fabs(L[1].lat - 280) < 0.03 * 280);
    /* the L2 level ends where the rise starts (within the tolerance), not halfway up */
    assert_true(L[1].size_hi <= C2 * OCT4 * OCT4 && L[1].size_hi >= C2 / OCT4);
    assert_true(fabs(L[2].lat - 690) < 0.03 * 690);
    assert_true(L[2].size_lo >= 2 * C2); /* the slope is no one's plateau */
}

/* A split L2: near half, far half, DRAM. */
#define CN (25 * MiB)
#define CF (50 * MiB)
static double split_l2(double x)
{
    return x <= C1 ? 33 : x <= CN ? 260 : x <= CF ? 480 : 690;
}

static void test_split_l2(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 5; seed++) {
        gmb_level_t L[MAXLEV];
        make(split_l2, 0.02, seed);
        int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
        if (n != 4)
            fail_msg("seed %u: %d levels, want 4", seed, n);
        check_level(&L[0], 33, 0.02, C1);
        check_level(&L[1], 260, 0.02, CN);
        check_level(&L[2], 480, 0.02, CF);
        check_level(&L[3], 690, 0.02, 0);
    }
}

static double flat(double x)
{
    (void)x;
    return 100;
}

static void test_flat_no_levels(void **state)
{
    (void)state;
    gmb_level_t L[MAXLEV];
    make(flat, 0, 1);
    assert_int_equal(gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL), 0);
    for (unsigned seed = 1; seed <= 10; seed++) {
        make(flat, 0.05, seed);
        assert_int_equal(gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL), 0);
    }
}

/* A steady rise with no plateau anywhere has no levels either, steep or shallow. */
static double slope_k;
static double slope(double x)
{
    return 20 * pow(x / KiB, slope_k);
}

static void test_slope_no_levels(void **state)
{
    (void)state;
    gmb_level_t L[MAXLEV];
    const double ks[] = {0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.13, 0.15, 0.2, 0.3, 0.5};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        slope_k = ks[i];
        make(slope, 0.01, 7);
        int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
        if (n != 0)
            fail_msg("slope x^%g: %d levels, want 0", ks[i], n);
    }
}

/* Too few points, invalid values, skipped points. */
static void test_edges(void **state)
{
    (void)state;
    gmb_level_t L[MAXLEV];
    double s1[] = {1024}, l1[] = {5};
    assert_int_equal(gmb_levels_detect(s1, l1, 1, NULL, L, MAXLEV, NULL), 0);
    assert_int_equal(gmb_levels_detect(s1, l1, 0, NULL, L, MAXLEV, NULL), 0);
    assert_int_equal(gmb_levels_detect(NULL, l1, 1, NULL, L, MAXLEV, NULL), GMB_EUSAGE);
    /* skipped points (NaN, 0) are ignored: the staircase is still found */
    make(staircase, 0, 1);
    lats[10] = NAN;
    lats[40] = 0;
    int n = gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
    assert_int_equal(n, 3);
    check_level(&L[2], 690, 1e-9, 0);
    /* max bounds what is written */
    assert_int_equal(gmb_levels_detect(sizes, lats, NPTS, NULL, L, 2, NULL), 2);
}

/* A measured curve of NPTS points (4 a octave from 1 KiB, as make() samples) into sizes and
 * lats, then its levels. */
static int detect_measured(const double *y, size_t n, gmb_level_t *L)
{
    assert_int_equal(n, NPTS);
    for (unsigned i = 0; i < NPTS; i++) {
        sizes[i] = KiB * pow(2.0, i / 4.0);
        lats[i] = y[i];
    }
    return gmb_levels_detect(sizes, lats, NPTS, NULL, L, MAXLEV, NULL);
}

/* A measured curve (gmb-chase, CUDA, random global chase, on an NVIDIA H200, 2026-11-30; ns,
 * 4 points per octave from 1 KiB to 4 GiB): L1 up to 215 KiB, the near L2 up to 28 MiB,
 * three points of transition through the far L2 that fall rather than level (310, 280,
 * 266 ns), then DRAM creeping up 2 percent over 6 octaves. The falling transition is a slope
 * of its own: merged into DRAM's plateau, the merged run's drift made a slope of DRAM too. */
static void test_measured_h200(void **state)
{
    (void)state;
    static const double ns[] = {
        20.6,  20.6,  20.6,  20.6,  20.5,  20.6,  20.5,  20.5,  20.6,  20.5,  20.5,  20.5,  20.5,
        20.5,  20.5,  20.5,  20.5,  20.5,  20.6,  20.4,  20.4,  20.5,  20.6,  20.6,  20.5,  20.6,
        20.6,  20.6,  20.5,  20.6,  20.5,  20.5,  87.3,  139.9, 146.1, 146.0, 146.1, 146.1, 145.2,
        146.1, 145.1, 146.1, 146.2, 146.3, 145.7, 145.1, 146.4, 146.1, 146.0, 145.6, 145.3, 145.6,
        146.1, 146.4, 144.8, 145.3, 145.5, 145.1, 146.3, 148.4, 252.6, 309.7, 279.7, 266.3, 348.2,
        351.7, 349.6, 351.2, 348.6, 352.2, 351.2, 353.9, 352.8, 353.4, 351.2, 352.6, 357.3, 355.1,
        355.9, 354.6, 356.4, 355.6, 354.9, 355.7, 355.0, 354.9, 355.7, 353.7, 355.2,
    };
    gmb_level_t L[MAXLEV];
    int n = detect_measured(ns, sizeof ns / sizeof ns[0], L);
    assert_int_equal(n, 3);
    check_level(&L[2], 353.5, 0.01, 0);
    assert_true(fabs(L[0].lat - 20.5) < 0.2 && fabs(L[1].lat - 146.0) < 1.0);
    assert_true(L[0].size_hi > 210e3 && L[0].size_hi < 230e3); /* L1: 215 KiB */
    assert_true(L[1].size_hi > 27e6 && L[1].size_hi < 29e6);   /* the near L2: 28 MiB */
    assert_true(L[2].size_lo > 60e6 && L[2].size_lo < 70e6);   /* DRAM from 64 MiB */
}

/* The same chase's next run, in cycles (clock64 around the timed loads alone; its ns carry the
 * subtraction of a warm-up launch, which scattered them at the far L2's points): L1 32, the
 * near L2 280 up to 26 MiB, the far L2 525-534 from 38 to 53 MiB, DRAM 662-693 from 64 MiB. */
static void test_measured_h200_cycles(void **state)
{
    (void)state;
    static const double cyc[] = {
        32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,
        32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  32.0,
        32.0,  32.0,  32.0,  32.0,  32.0,  32.0,  164.3, 268.5, 280.4, 280.6, 280.8, 279.8, 280.1,
        280.3, 279.7, 280.2, 279.9, 280.2, 279.9, 279.9, 280.1, 280.0, 280.0, 280.1, 280.0, 280.0,
        280.0, 279.9, 280.0, 280.0, 280.0, 280.0, 280.0, 286.6, 425.4, 524.6, 534.3, 533.7, 662.4,
        657.8, 675.5, 675.1, 681.8, 679.2, 682.7, 685.4, 682.2, 684.9, 687.9, 690.6, 688.7, 689.9,
        688.2, 690.9, 690.6, 690.2, 689.8, 690.0, 692.8, 689.5, 692.0, 691.9, 692.8,
    };
    gmb_level_t L[MAXLEV];
    int n = detect_measured(cyc, sizeof cyc / sizeof cyc[0], L);
    assert_int_equal(n, 4);
    assert_true(fabs(L[0].lat - 32) < 0.5 && fabs(L[1].lat - 280) < 1);
    assert_true(fabs(L[2].lat - 534) < 10 && fabs(L[3].lat - 688) < 10);
    assert_true(L[1].size_hi > 26e6 && L[1].size_hi < 29e6); /* the near L2: 26.9 MiB */
    assert_true(L[2].size_lo > 38e6 && L[2].size_hi < 57e6); /* the far L2: 38 .. 53 MiB */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_staircase), cmocka_unit_test(test_noisy_staircase),
        cmocka_unit_test(test_outlier),         cmocka_unit_test(test_gradual),
        cmocka_unit_test(test_split_l2),        cmocka_unit_test(test_flat_no_levels),
        cmocka_unit_test(test_slope_no_levels), cmocka_unit_test(test_edges),
        cmocka_unit_test(test_measured_h200),   cmocka_unit_test(test_measured_h200_cycles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
