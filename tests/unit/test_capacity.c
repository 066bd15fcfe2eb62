/* test_capacity.c - unit tests of gmb-capacity's bisection of the largest allocation
 * (bench/capacity/bisect.c, compiled in here): the bound first, halves between the largest
 * success and the smallest failure, sizes multiples of the step, done within the resolution;
 * every success at most the answer, every failure above it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../bench/capacity/bisect.c"

#define MIB ((uint64_t)1 << 20)

/* Run a bisection against a device that gives every size up to have (and no more); the
 * probes in tried (at most max), their count returned, the answer in *ans. */
static unsigned run(uint64_t bound, uint64_t step, double res, uint64_t have, uint64_t *tried,
                    unsigned max, uint64_t *ans)
{
    cap_bisect_t b;
    cap_bisect_init(&b, bound, step, res);
    unsigned n = 0;
    for (uint64_t s; (s = cap_bisect_next(&b));) {
        assert_true(n < max);
        tried[n++] = s;
        cap_bisect_report(&b, s, s <= have);
    }
    assert_int_equal(b.probes, n);
    *ans = b.lo;
    return n;
}

static void test_bound_succeeds(void **state)
{
    (void)state;
    uint64_t t[64], ans;
    assert_int_equal(run(256 * MIB, 4096, 0.01, 1024 * MIB, t, 64, &ans), 1);
    assert_int_equal(t[0], 256 * MIB);
    assert_int_equal(ans, 256 * MIB);
}

static void test_threshold(void **state)
{
    (void)state;
    const uint64_t bound = 64 * MIB, have = 20 * MIB + 12345;
    uint64_t t[64], ans;
    cap_bisect_t b;
    cap_bisect_init(&b, bound, 4096, 0.01);
    unsigned n = run(bound, 4096, 0.01, have, t, 64, &ans);
    assert_true(ans <= have);
    assert_true(have - ans <= b.res + 4096); /* within the resolution (and a step) */
    assert_true(n <= 10);                    /* log2(100) + the bound */
    assert_int_equal(t[0], bound);
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(t[i] % 4096, 0);
        assert_true(t[i] <= bound);
        assert_true(t[i] <= have ? t[i] <= ans : t[i] > ans);
    }
}

static void test_nothing_succeeds(void **state)
{
    (void)state;
    uint64_t t[64], ans;
    unsigned n = run(64 * MIB, 4096, 0.01, 0, t, 64, &ans);
    assert_int_equal(ans, 0);
    assert_true(n >= 2 && n <= 10);
    for (unsigned i = 1; i < n; i++)
        assert_true(t[i] < t[i - 1]); /* only halves downwards */
}

static void test_bound_below_step(void **state)
{
    (void)state;
    cap_bisect_t b;
    cap_bisect_init(&b, 4095, 4096, 0.01);
    assert_int_equal(b.bound, 0);
    assert_int_equal(cap_bisect_next(&b), 0);
    cap_bisect_init(&b, 10000, 4096, 0.01); /* rounded down to the step */
    assert_int_equal(cap_bisect_next(&b), 8192);
}

static void test_resolution_at_least_step(void **state)
{
    (void)state;
    cap_bisect_t b;
    cap_bisect_init(&b, 64 * 4096, 4096, 0.0001);
    assert_int_equal(b.res, 4096);
    cap_bisect_init(&b, 64 * MIB, 0, 0.5); /* step 0 taken as 1 */
    assert_int_equal(b.step, 1);
    assert_int_equal(b.res, 32 * MIB);
}

/* every threshold below the bound, a coarse step: the answer is the largest multiple of the
 * step at most the threshold, to the resolution, the invariants at every one */
static void test_every_threshold(void **state)
{
    (void)state;
    const uint64_t step = 2 * MIB, bound = 200 * step;
    for (uint64_t have = 0; have <= bound + step; have += step / 2) {
        uint64_t t[64], ans;
        cap_bisect_t b;
        cap_bisect_init(&b, bound, step, 0.01);
        unsigned n = run(bound, step, 0.01, have, t, 64, &ans);
        uint64_t best = have >= bound ? bound : have / step * step;
        assert_true(ans <= best);
        assert_true(best - ans <= b.res);
        for (unsigned i = 0; i < n; i++)
            assert_true(t[i] <= have ? t[i] <= ans : t[i] > ans);
    }
}

/* answers that contradict each other (memory freed or taken meanwhile): sizes stay between the
 * largest success and the smallest failure, and the search ends */
static void test_unsteady_device(void **state)
{
    (void)state;
    cap_bisect_t b;
    cap_bisect_init(&b, 64 * MIB, 4096, 0.01);
    unsigned n = 0;
    for (uint64_t s; (s = cap_bisect_next(&b)); n++) {
        assert_true(n < 64);
        assert_true(s > b.lo && s < b.hi);
        cap_bisect_report(&b, s, n % 3 == 1);
    }
    assert_true(b.hi - b.lo <= b.res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_succeeds),           cmocka_unit_test(test_threshold),
        cmocka_unit_test(test_nothing_succeeds),         cmocka_unit_test(test_bound_below_step),
        cmocka_unit_test(test_resolution_at_least_step), cmocka_unit_test(test_every_threshold),
        cmocka_unit_test(test_unsteady_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
