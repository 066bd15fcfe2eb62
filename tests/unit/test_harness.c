/* test_harness.c - the measurement loop (gmb_measure) and point building, without a device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include "harness.h"

/* A sample source: a fixed list of times, cycled; counts its calls; can fail at a call. */
typedef struct fake {
    const double *t;
    size_t nt;
    int calls;
    int fail_at; /* 1-based call that fails; 0: never */
    int sleep_us;
} fake_t;

static int fake_sample(void *arg, double *ns)
{
    fake_t *f = arg;
    f->calls++;
    if (f->fail_at && f->calls == f->fail_at)
        return GMB_ERUNTIME;
    if (f->sleep_us)
        usleep((useconds_t)f->sleep_us);
    *ns = f->t[(size_t)(f->calls - 1) % f->nt];
    return GMB_OK;
}

static gmb_ctx_t ctx(long warmup, long minn, long maxn, double ci_pct, double cap_s)
{
    gmb_ctx_t c;
    memset(&c, 0, sizeof c);
    c.o.warmup = warmup;
    c.o.min_samples = minn;
    c.o.max_samples = maxn;
    c.o.ci_target_pct = ci_pct;
    c.o.time_cap_s = cap_s;
    return c;
}

static void steady_converges_at_min(void **state)
{
    (void)state;
    const double t[] = {1000.0};
    fake_t f = {t, 1, 0, 0, 0};
    gmb_ctx_t c = ctx(2, 5, 100, 1.0, 10.0);
    gmb_series_t s = {0};
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_OK);
    assert_int_equal(f.calls, 2 + 5); /* warm-ups are not samples */
    assert_int_equal(s.n, 5);
    assert_true(s.st.converged);
    assert_true(s.st.median == 1000.0);
    gmb_series_free(&s);
}

static void noisy_stops_at_max(void **state)
{
    (void)state;
    const double t[] = {1000.0, 3000.0, 1500.0, 2500.0, 900.0, 4000.0};
    fake_t f = {t, 6, 0, 0, 0};
    gmb_ctx_t c = ctx(0, 5, 25, 1.0, 10.0); /* max below GMB_FUTILE_N */
    gmb_series_t s = {0};
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_OK);
    assert_int_equal(s.n, 25);
    assert_false(s.st.converged);
    assert_string_equal(s.stopped_by, "max samples");
    gmb_series_free(&s);
}

/* A series whose CI is far from the target stops at GMB_FUTILE_N samples (its CI, shrinking as
 * 1/sqrt(n), would need more than max samples); --min-samples above it raises the floor; one
 * near the target samples on and converges; a converged one says so. */
static void futile_stops_early(void **state)
{
    (void)state;
    const double t[] = {1000.0, 3000.0, 1500.0, 2500.0, 900.0, 4000.0};
    fake_t f = {t, 6, 0, 0, 0};
    gmb_ctx_t c = ctx(0, 5, 1000, 1.0, 10.0);
    gmb_series_t s = {0};
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_OK);
    assert_int_equal(s.n, GMB_FUTILE_N);
    assert_false(s.st.converged);
    assert_string_equal(s.stopped_by, "would not converge");
    gmb_series_free(&s);
    f.calls = 0;
    c = ctx(0, 50, 1000, 1.0, 10.0);
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_OK);
    assert_int_equal(s.n, 50);
    assert_string_equal(s.stopped_by, "would not converge");
    gmb_series_free(&s);
    /* +-1.5% around 1000, a 0.3% target: not within it at 30 samples, but (ci/target)^2 x n
     * is well under max samples: sampled on until it converges */
    const double near[] = {985.0, 1015.0, 1000.0, 992.0, 1008.0, 1011.0, 989.0, 1003.0, 997.0};
    fake_t g = {near, 9, 0, 0, 0};
    c = ctx(0, 5, 1000, 0.3, 10.0);
    assert_int_equal(gmb_measure(&c, fake_sample, &g, &s), GMB_OK);
    assert_true(s.n > GMB_FUTILE_N);
    assert_true(s.st.converged);
    assert_string_equal(s.stopped_by, "converged");
    gmb_series_free(&s);
}

static void time_cap_stops_unconverged(void **state)
{
    (void)state;
    const double t[] = {1000.0, 3000.0};
    fake_t f = {t, 2, 0, 0, 20000}; /* 20 ms a sample */
    gmb_ctx_t c = ctx(0, 5, 1000, 0.01, 0.05);
    gmb_series_t s = {0};
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_OK);
    assert_true(s.n >= 3); /* never fewer than 3, even past the cap */
    assert_true(s.n < 10);
    assert_false(s.st.converged);
    assert_true(s.wall_s >= 0.05);
    gmb_series_free(&s);
}

static void zero_time_is_an_error(void **state)
{
    (void)state;
    const double t[] = {0.0};
    fake_t f = {t, 1, 0, 0, 0};
    gmb_ctx_t c = ctx(0, 5, 100, 1.0, 10.0);
    gmb_series_t s = {0};
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_ERUNTIME);
    gmb_series_free(&s);
}

static void sample_error_propagates(void **state)
{
    (void)state;
    const double t[] = {1000.0};
    fake_t f = {t, 1, 0, 4, 0};
    gmb_ctx_t c = ctx(1, 5, 100, 1.0, 10.0);
    gmb_series_t s = {0};
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_ERUNTIME);
    assert_int_equal(f.calls, 4);
    gmb_series_free(&s);
}

static void warmed_series_keeps_its_samples(void **state)
{
    (void)state;
    const double t[] = {1000.0};
    fake_t f = {t, 1, 0, 0, 0};
    gmb_ctx_t c = ctx(3, 5, 100, 1.0, 10.0);
    gmb_series_t s = {.warmed = 1};
    assert_int_equal(gmb_series_push(&s, 1000.0), GMB_OK);
    assert_int_equal(gmb_measure(&c, fake_sample, &f, &s), GMB_OK);
    assert_int_equal(f.calls, 4); /* no warm-up; the pushed sample counts */
    assert_int_equal(s.n, 5);
    gmb_series_free(&s);
}

/* Two sources sampled in turn; each call appends its tag to a shared log. */
typedef struct tagged {
    fake_t f;
    char tag;
    char *log; /* shared, at least 256 bytes */
} tagged_t;

static int tagged_sample(void *arg, double *ns)
{
    tagged_t *t = arg;
    size_t l = strlen(t->log);
    if (l < 255) {
        t->log[l] = t->tag;
        t->log[l + 1] = '\0';
    }
    return fake_sample(&t->f, ns);
}

/* The pair's samples alternate after each one's warm-up; a steady one stops at min samples
 * while a noisy one goes on to max, alone. */
static void pair_alternates(void **state)
{
    (void)state;
    char log[256] = "";
    const double steady[] = {1000.0}, noisy[] = {1000.0, 3000.0, 1500.0};
    tagged_t a = {{steady, 1, 0, 0, 0}, 'a', log}, b = {{noisy, 3, 0, 0, 0}, 'b', log};
    gmb_ctx_t c = ctx(1, 4, 8, 1.0, 10.0);
    gmb_series_t sa = {0}, sb = {0};
    assert_int_equal(gmb_measure_pair(&c, tagged_sample, &a, &sa, tagged_sample, &b, &sb), GMB_OK);
    /* warm-ups (a, b), then a b a b a b a b (a converged at 4), then b alone up to 8 */
    assert_string_equal(log, "ababababab"
                             "bbbb");
    assert_int_equal(sa.n, 4);
    assert_true(sa.st.converged);
    assert_int_equal(sb.n, 8);
    assert_false(sb.st.converged);
    assert_true(sb.st.median == 1500.0);
    gmb_series_free(&sa);
    gmb_series_free(&sb);
}

/* The time cap stops both, each with at least 3; an error of either is returned at once. */
static void pair_time_cap_and_errors(void **state)
{
    (void)state;
    char log[256] = "";
    const double t[] = {1000.0, 3000.0};
    tagged_t a = {{t, 2, 0, 0, 10000}, 'a', log}, b = {{t, 2, 0, 0, 10000}, 'b', log};
    gmb_ctx_t c = ctx(0, 5, 1000, 0.01, 0.03);
    gmb_series_t sa = {0}, sb = {0};
    assert_int_equal(gmb_measure_pair(&c, tagged_sample, &a, &sa, tagged_sample, &b, &sb), GMB_OK);
    assert_true(sa.n >= 3 && sb.n >= 3 && sa.n < 10 && sb.n == sa.n);
    gmb_series_free(&sa);
    gmb_series_free(&sb);
    log[0] = '\0';
    tagged_t e = {{t, 2, 0, 3, 0}, 'e', log}, d = {{t, 2, 0, 0, 0}, 'd', log};
    gmb_series_t se = {0}, sd = {0};
    gmb_ctx_t c2 = ctx(0, 5, 100, 1.0, 10.0);
    assert_int_equal(gmb_measure_pair(&c2, tagged_sample, &d, &sd, tagged_sample, &e, &se),
                     GMB_ERUNTIME);
    assert_string_equal(log, "dedede"); /* e's third call failed: nothing after it */
    gmb_series_free(&se);
    gmb_series_free(&sd);
}

static void point_holds_samples_and_rate(void **state)
{
    (void)state;
    gmb_series_t s = {0};
    const double t[] = {100.0, 200.0, 300.0};
    for (int i = 0; i < 3; i++)
        assert_int_equal(gmb_series_push(&s, t[i]), GMB_OK);
    assert_int_equal(gmb_stats_compute(s.ns, s.n, 1, 1.0, &s.st), GMB_OK);
    json_t *pt = gmb_point_new(json_pack("{s:s}", "kernel", "copy"), &s);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(1000.0, &s.st));
    assert_int_equal(json_array_size(json_object_get(pt, "samples_ns")), 3);
    json_t *m = json_object_get(json_object_get(pt, "metrics"), "bw_GBps");
    assert_true(json_real_value(json_object_get(m, "median")) == 5.0); /* 1000 / 200 */
    assert_true(json_real_value(json_object_get(m, "min")) == 1000.0 / 300.0);
    assert_string_equal(json_string_value(json_object_get(json_object_get(pt, "params"), "kernel")),
                        "copy");
    json_decref(pt);
    gmb_series_free(&s);
}

/* A summary longer than its buffer is cut at a character's start and ends in an ellipsis;
 * later pieces are dropped; what fits is kept whole. */
static void text_cut_with_ellipsis(void **state)
{
    (void)state;
    static gmb_text_t t; /* 16 KiB: not on the stack */
    memset(&t, 0, sizeof t);
    gmb_text_add(&t, "level %d", 1);
    assert_string_equal(t.text, "level 1");
    assert_int_equal(t.len, 7);
    for (int i = 0; i < 10000; i++) /* "≈" is 3 bytes: some cut lands inside one */
        gmb_text_add(&t, " ≈%d", i);
    size_t n = strlen(t.text);
    assert_true(n >= sizeof t.text - 8 && n < sizeof t.text);
    assert_string_equal(t.text + n - 3, "\xe2\x80\xa6");
    /* whole UTF-8 characters before the ellipsis: every sequence complete */
    size_t i = 0;
    while (i < n - 3) {
        unsigned char c = (unsigned char)t.text[i];
        size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 0;
        assert_true(k > 0 && i + k <= n - 3);
        for (size_t j = 1; j < k; j++)
            assert_int_equal((unsigned char)t.text[i + j] & 0xC0, 0x80);
        i += k;
    }
    assert_int_equal(i, n - 3);
    gmb_text_add(&t, "more");
    assert_int_equal(strlen(t.text), n);
    assert_int_equal(t.len, sizeof t.text - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steady_converges_at_min),
        cmocka_unit_test(noisy_stops_at_max),
        cmocka_unit_test(futile_stops_early),
        cmocka_unit_test(time_cap_stops_unconverged),
        cmocka_unit_test(zero_time_is_an_error),
        cmocka_unit_test(sample_error_propagates),
        cmocka_unit_test(warmed_series_keeps_its_samples),
        cmocka_unit_test(pair_alternates),
        cmocka_unit_test(pair_time_cap_and_errors),
        cmocka_unit_test(point_holds_samples_and_rate),
        cmocka_unit_test(text_cut_with_ellipsis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
