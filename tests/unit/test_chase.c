/* test_chase.c - unit tests of the pointer-chase chain builders: Sattolo and incremental
 * random orders are single full cycles, strided and page-strided layouts, the checkers; the
 * calibration of a chase launch on a model launch. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chasedev.h"
#include "gmb.h"

static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 31, 64, 100, 1000, 4096, 65537, 1000003};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void test_sattolo_full_cycle(void **state)
{
    (void)state;
    uint32_t *next = malloc(1000003 * sizeof *next);
    assert_non_null(next);
    for (size_t i = 0; i < NSIZES; i++)
        for (uint64_t seed = 0; seed < (sizes[i] > 5000 ? 3u : 40u); seed++) {
            assert_int_equal(gmb_chain_sattolo(next, sizes[i], seed), GMB_OK);
            if (!gmb_chain_is_full_cycle(next, sizes[i]))
                fail_msg("n=%zu seed=%llu: not one full cycle", sizes[i], (unsigned long long)seed);
            for (size_t k = 0; sizes[i] > 1 && k < sizes[i]; k++)
                assert_true(next[k] != k); /* Sattolo has no fixed point */
        }
    assert_int_equal(gmb_chain_sattolo(next, 0, 1), GMB_EUSAGE);
    free(next);
}

/* Sattolo's cycles are uniform: for n = 4 every one of the 3! = 6 cycles shows up about
 * equally often. */
static void test_sattolo_uniform(void **state)
{
    (void)state;
    int count[256] = {0};
    uint32_t next[4];
    for (uint64_t seed = 0; seed < 6000; seed++) {
        gmb_chain_sattolo(next, 4, seed);
        count[next[0] | next[1] << 2 | next[2] << 4 | next[3] << 6]++;
    }
    int kinds = 0;
    for (int i = 0; i < 256; i++)
        if (count[i]) {
            kinds++;
            assert_in_range(count[i], 850, 1150);
        }
    assert_int_equal(kinds, 6);
}

/* The incremental order is a permutation at every size it passes, and its cycle is full. */
static void test_order_grow(void **state)
{
    (void)state;
    const size_t cap = 300000;
    uint32_t *next = malloc(cap * sizeof *next);
    assert_non_null(next);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        gmb_chain_order_t o;
        assert_int_equal(gmb_chain_order_init(&o, cap, seed), GMB_OK);
        for (size_t n = 1; n <= cap; n = n * 5 / 4 + 1) {
            assert_int_equal(gmb_chain_order_grow(&o, n), GMB_OK);
            assert_int_equal(o.n, n);
            assert_int_equal(gmb_chain_is_permutation(o.order, n), 1);
            gmb_chain_next_from_order(o.order, n, next);
            if (!gmb_chain_is_full_cycle(next, n))
                fail_msg("seed %llu, n %zu: not one full cycle", (unsigned long long)seed, n);
        }
        assert_int_equal(gmb_chain_order_grow(&o, cap + 1), GMB_EUSAGE);
        gmb_chain_order_free(&o);
    }
    free(next);
}

/* Growing in one step or in many gives the same order (sizes of a sweep do not matter). */
static void test_order_prefix(void **state)
{
    (void)state;
    gmb_chain_order_t a, b;
    assert_int_equal(gmb_chain_order_init(&a, 5000, 9), GMB_OK);
    assert_int_equal(gmb_chain_order_init(&b, 5000, 9), GMB_OK);
    gmb_chain_order_grow(&a, 5000);
    for (size_t n = 10; n <= 5000; n += 770)
        gmb_chain_order_grow(&b, n);
    gmb_chain_order_grow(&b, 5000);
    assert_memory_equal(a.order, b.order, 5000 * sizeof *a.order);
    gmb_chain_order_free(&a);
    gmb_chain_order_free(&b);
}

/* The checkers catch two cycles, a tail, an index out of range, a duplicate. */
static void test_checkers(void **state)
{
    (void)state;
    uint32_t two[] = {1, 0, 3, 2};
    assert_int_equal(gmb_chain_is_full_cycle(two, 4), 0);
    uint32_t tail[] = {1, 2, 3, 1};
    assert_int_equal(gmb_chain_is_full_cycle(tail, 4), 0);
    uint32_t out[] = {1, 2, 3, 4};
    assert_int_equal(gmb_chain_is_full_cycle(out, 4), 0);
    uint32_t good[] = {2, 3, 1, 0};
    assert_int_equal(gmb_chain_is_full_cycle(good, 4), 1);
    uint32_t self[] = {0};
    assert_int_equal(gmb_chain_is_full_cycle(self, 1), 1);
    uint32_t dup[] = {0, 1, 1, 3};
    assert_int_equal(gmb_chain_is_permutation(dup, 4), 0);
    uint32_t big[] = {0, 1, 2, 4};
    assert_int_equal(gmb_chain_is_permutation(big, 4), 0);
    uint32_t perm[] = {3, 1, 0, 2};
    assert_int_equal(gmb_chain_is_permutation(perm, 4), 1);
}

/* Walk a laid-out chain: after n steps from element 0 it is back at element 0, having visited
 * every element's word exactly once; every word it visits is an element's word. */
static void check_layout(const gmb_chain_layout_t *l, const uint32_t *order, size_t n)
{
    size_t nwords = (size_t)gmb_chain_word(l, n - 1) + 1;
    uint32_t *w = malloc(nwords * sizeof *w);
    uint8_t *hit = calloc(nwords, 1);
    assert_non_null(w);
    assert_non_null(hit);
    memset(w, 0xff, nwords * sizeof *w);
    assert_int_equal(gmb_chain_fill(w, nwords, l, order, n), GMB_OK);
    uint32_t start = (uint32_t)gmb_chain_word(l, order ? order[0] : 0), p = start;
    for (size_t k = 0; k < n; k++) {
        assert_true(p < nwords);
        assert_int_equal(hit[p], 0);
        hit[p] = 1;
        p = w[p];
    }
    assert_int_equal(p, start);
    for (size_t e = 0; e < n; e++)
        assert_int_equal(hit[gmb_chain_word(l, e)], 1);
    /* walking n + 3 steps is the same as 3 */
    assert_int_equal(gmb_chain_walk(w, start, n + 3), gmb_chain_walk(w, start, 3));
    free(w);
    free(hit);
}

static void test_strided(void **state)
{
    (void)state;
    const uint64_t strides[] = {1, 2, 8, 32, 1024}; /* words: 4 B .. 4 KiB */
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++) {
        gmb_chain_layout_t l = {strides[s], 0};
        assert_int_equal(gmb_chain_word(&l, 5), 5 * strides[s]);
        for (size_t n = 1; n <= 1000; n = n * 3 + 1) {
            check_layout(&l, NULL, n); /* sequential: word k -> word k+1 */
            uint32_t *w = calloc((size_t)gmb_chain_word(&l, n - 1) + 1, sizeof *w);
            gmb_chain_fill(w, (size_t)gmb_chain_word(&l, n - 1) + 1, &l, NULL, n);
            for (size_t k = 0; k + 1 < n; k++)
                assert_int_equal(w[k * strides[s]], (k + 1) * strides[s]);
            assert_int_equal(w[(n - 1) * strides[s]], 0);
            free(w);
            gmb_chain_order_t o;
            gmb_chain_order_init(&o, n, 42 + n);
            gmb_chain_order_grow(&o, n);
            check_layout(&l, o.order, n); /* random */
            gmb_chain_order_free(&o);
        }
    }
}

static void test_page_stride(void **state)
{
    (void)state;
    const uint64_t pages[] = {1024, 16384, 524288}; /* 4 KiB, 64 KiB, 2 MiB in words */
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        gmb_chain_layout_t l = {32, pages[i]}; /* 128-byte lines */
        uint64_t lpp = pages[i] / 32;
        for (uint64_t e = 0; e < 3 * lpp; e += lpp / 2 + 1) { /* one line per page, staggered */
            uint64_t w = gmb_chain_word(&l, e);
            assert_int_equal(w / pages[i], e);
            assert_int_equal(w % pages[i], (e % lpp) * 32);
        }
        for (size_t n = 1; n <= 300 && n * pages[i] <= (1u << 22); n = n * 2 + 1) {
            check_layout(&l, NULL, n);
            gmb_chain_order_t o;
            gmb_chain_order_init(&o, n, 7 * n);
            gmb_chain_order_grow(&o, n);
            check_layout(&l, o.order, n);
            gmb_chain_order_free(&o);
        }
    }
    /* a buffer too small for the chain, pages smaller than lines */
    uint32_t w[64];
    gmb_chain_layout_t l = {32, 1024};
    assert_int_equal(gmb_chain_fill(w, 64, &l, NULL, 2), GMB_EUSAGE);
    gmb_chain_layout_t bad = {32, 16};
    assert_int_equal(gmb_chain_fill(w, 64, &bad, NULL, 2), GMB_EUSAGE);
}

/* A model chase launch: overhead + ns per load x (warm-up + timed loads), less the baseline
 * the calibration has set so far, as a chase's sample function reports it. */
typedef struct model {
    double overhead_ns, per_load_ns; /* the launch */
    gmb_u32 warm, steps;             /* set by the calibration through the pointers */
    double base_ns;
    int calls;
} model_t;

static int model_sample(void *arg, double *ns)
{
    model_t *m = arg;
    m->calls++;
    *ns = m->overhead_ns + m->per_load_ns * (m->warm + m->steps) - m->base_ns;
    return GMB_OK;
}

static void test_calibrate(void **state)
{
    (void)state;
    gmb_ctx_t c;
    memset(&c, 0, sizeof c);
    c.info.timer_res_ns = 1.0;
    /* DRAM-like: 500 ns a load, 5 us launches; target 1000 us */
    model_t m = {5000.0, 500.0, 512, 0, 0, 0};
    assert_int_equal(gmb_chase_calibrate(&c, model_sample, &m, m.warm, &m.steps, &m.base_ns, 1000.0,
                                         0, 1u << 28),
                     GMB_OK);
    assert_true(m.base_ns == 5000.0 + 500.0 * 512);  /* the baseline: overhead and warm-up */
    assert_true(m.steps >= 1900 && m.steps <= 2600); /* ~1 ms of timed loads */
    double t = 0;
    assert_int_equal(model_sample(&m, &t), GMB_OK);
    assert_true(t >= 0.5e6 && fabs(t - 500.0 * m.steps) < 1e-6); /* a sample: timed loads only */
    /* L1-like: 1 ns a load, a launch overhead of 200 us: the timed loads grow to the overhead */
    m = (model_t){200000.0, 1.0, 4096, 0, 0, 0};
    assert_int_equal(
        gmb_chase_calibrate(&c, model_sample, &m, m.warm, &m.steps, &m.base_ns, 20.0, 0, 1u << 28),
        GMB_OK);
    assert_true(m.steps * 1.0 >= 0.5 * m.base_ns);
    /* fixed: the steps stay, one calibration launch and the five of the baseline */
    m = (model_t){1000.0, 10.0, 16, 0, 0, 0};
    assert_int_equal(gmb_chase_calibrate(&c, model_sample, &m, m.warm, &m.steps, &m.base_ns, 1000.0,
                                         77, 1u << 28),
                     GMB_OK);
    assert_int_equal(m.steps, 77);
    assert_int_equal(m.calls, 6);
    /* the most steps is a ceiling */
    m = (model_t){0.0, 1e-3, 16, 0, 0, 0};
    assert_int_equal(
        gmb_chase_calibrate(&c, model_sample, &m, m.warm, &m.steps, &m.base_ns, 1e6, 0, 1u << 20),
        GMB_OK);
    assert_int_equal(m.steps, 1u << 20);
}

/* The guard: 16 launches below the baseline repeated, then the baseline again and 8 more,
 * at most 3 times; then such a launch is kept. Launches without timed loads always are. */
static void test_guard(void **state)
{
    (void)state;
    gmb_chase_guard_t g = GMB_CHASE_GUARD_INIT;
    assert_int_equal(gmb_chase_judge(&g, 100, 5.0), GMB_CHASE_KEEP);
    assert_int_equal(gmb_chase_judge(&g, 0, -5.0), GMB_CHASE_KEEP); /* a baseline launch */
    int repeats = 0, rebases = 0, i;
    for (i = 0; i < 100; i++) {
        gmb_chase_verdict_t v = gmb_chase_judge(&g, 100, i % 2 ? 0.0 : -1.0);
        if (v == GMB_CHASE_KEEP)
            break;
        repeats += v == GMB_CHASE_REPEAT;
        rebases += v == GMB_CHASE_REBASE;
        if (v == GMB_CHASE_REBASE) /* each one after the budget is spent */
            assert_true(repeats == 16 || repeats == 24 || repeats == 32);
    }
    assert_int_equal(repeats, 16 + 3 * 8);
    assert_int_equal(rebases, 3);
    assert_int_equal(g.glitches, 40);
    assert_int_equal(g.rebases, 3);
    assert_int_equal(gmb_chase_judge(&g, 100, -1.0), GMB_CHASE_KEEP); /* kept from now on */
}

/* Settle: nothing without a new baseline; else the last samples of raw against the final
 * baseline, and their statistics again. */
static void test_settle(void **state)
{
    (void)state;
    gmb_ctx_t c;
    memset(&c, 0, sizeof c);
    c.o.min_samples = 2;
    c.o.ci_target_pct = 1.0;
    double rawv[] = {900.0, 1010.0, 1020.0, 1030.0}; /* a warm-up launch, then 3 samples */
    gmb_series_t raw = {.ns = rawv, .n = 4, .cap = 4};
    double sv[] = {60.0, 70.0, 80.0}; /* against a baseline of 950 */
    gmb_series_t ser = {.ns = sv, .n = 3, .cap = 3};
    ser.st.median = 70.0;
    gmb_chase_guard_t g = GMB_CHASE_GUARD_INIT;
    assert_int_equal(gmb_chase_settle(&c, &g, &raw, 900.0, &ser), GMB_OK);
    assert_true(sv[1] == 70.0 && ser.st.median == 70.0); /* untouched */
    g.rebases = 1;
    assert_int_equal(gmb_chase_settle(&c, &g, &raw, 900.0, &ser), GMB_OK);
    assert_true(sv[0] == 110.0 && sv[1] == 120.0 && sv[2] == 130.0);
    assert_true(ser.st.median == 120.0 && ser.st.n == 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sattolo_full_cycle),
        cmocka_unit_test(test_sattolo_uniform),
        cmocka_unit_test(test_order_grow),
        cmocka_unit_test(test_order_prefix),
        cmocka_unit_test(test_checkers),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_page_stride),
        cmocka_unit_test(test_calibrate),
        cmocka_unit_test(test_guard),
        cmocka_unit_test(test_settle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
