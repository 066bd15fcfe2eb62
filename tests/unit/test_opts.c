/* test_opts.c - unit tests of strict number/size parsing, sweeps, lists and option tables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmb.h"
#include "opts.h"

/* ---- gmb_parse_size ------------------------------------------------------------------------ */

static void size_ok(const char *s, uint64_t want)
{
    uint64_t v = 0;
    int rc = gmb_parse_size(s, &v);
    if (rc != GMB_OK || v != want)
        fail_msg("gmb_parse_size(\"%s\"): rc %d, value %llu, want %llu", s, rc,
                 (unsigned long long)v, (unsigned long long)want);
}

static void size_bad(const char *s)
{
    uint64_t v = 12345;
    int rc = gmb_parse_size(s, &v);
    if (rc != GMB_EUSAGE)
        fail_msg("gmb_parse_size(\"%s\") accepted (rc %d, value %llu)", s, rc,
                 (unsigned long long)v);
    assert_int_equal(v, 12345); /* output untouched on error */
}

static void test_size_good(void **state)
{
    (void)state;
    size_ok("4096", 4096);
    size_ok("1", 1);
    size_ok("4K", 4096);
    size_ok("4k", 4096);
    size_ok("4KiB", 4096);
    size_ok("4kib", 4096);
    size_ok("4KB", 4000);
    size_ok("4B", 4);
    size_ok("2MB", 2000000);
    size_ok("2M", 2u << 20);
    size_ok("3MiB", 3u << 20);
    size_ok("1.5GiB", 1610612736ull);
    size_ok("1G", 1ull << 30);
    size_ok("1GB", 1000000000ull);
    size_ok("1T", 1ull << 40);
    size_ok("2TiB", 2ull << 40);
    size_ok("1TB", 1000000000000ull);
    size_ok("0.5K", 512);
}

static void test_size_bad(void **state)
{
    (void)state;
    size_bad("0");
    size_bad("0K");
    size_bad("");
    size_bad("-1");
    size_bad("+1");
    size_bad("12Q");
    size_bad("1.3");   /* a fraction of a byte */
    size_bad("0.1K");  /* 102.4 bytes */
    size_bad("0x10");  /* hex */
    size_bad("1e3");   /* exponent */
    size_bad(" 4");    /* leading space */
    size_bad("4 KiB"); /* inner space */
    size_bad("4KiB "); /* trailing space */
    size_bad("K");     /* no number */
    size_bad(".5K");   /* no leading digit */
    size_bad("4KiBB"); /* unknown suffix */
    size_bad("16EiB"); /* no exa suffix, and it would overflow */
    size_bad("99999999999TiB");
    size_bad("8388608TiB"); /* exactly 2^63 */
    size_bad("nan");
    size_bad("inf");
    assert_int_equal(gmb_parse_size(NULL, &(uint64_t){0}), GMB_EUSAGE);
}

static void test_size_limit(void **state)
{
    (void)state;
    /* the largest accepted size stays below 2^63 */
    size_ok("8388607TiB", 8388607ull << 40);
}

/* ---- gmb_parse_sweep ----------------------------------------------------------------------- */

static gmb_sweep_t sw; /* too big (32 KiB) for a comfortable stack frame */

static void sweep_ok(const char *s, size_t n, const uint64_t *want)
{
    char err[256] = "";
    memset(&sw, 0, sizeof sw);
    int rc = gmb_parse_sweep(s, &sw, err, sizeof err);
    if (rc != GMB_OK)
        fail_msg("gmb_parse_sweep(\"%s\"): rc %d: %s", s, rc, err);
    assert_int_equal(sw.set, 1);
    if (sw.n != n)
        fail_msg("gmb_parse_sweep(\"%s\"): %zu points, want %zu", s, sw.n, n);
    for (size_t i = 0; i < n; i++)
        if (sw.v[i] != want[i])
            fail_msg("gmb_parse_sweep(\"%s\"): point %zu is %llu, want %llu", s, i,
                     (unsigned long long)sw.v[i], (unsigned long long)want[i]);
}

static void sweep_bad(const char *s)
{
    char err[256] = "";
    memset(&sw, 0, sizeof sw);
    int rc = gmb_parse_sweep(s, &sw, err, sizeof err);
    if (rc != GMB_EUSAGE)
        fail_msg("gmb_parse_sweep(\"%s\") accepted (rc %d, %zu points)", s, rc, sw.n);
    if (!err[0])
        fail_msg("gmb_parse_sweep(\"%s\") failed without a message", s);
}

static void test_sweep_default_x2(void **state)
{
    (void)state;
    uint64_t want[9];
    for (int i = 0; i < 9; i++)
        want[i] = 4096ull << i;
    sweep_ok("4KiB:1MiB", 9, want);
    assert_int_equal(sw.v[8], 1048576);
}

static void test_sweep_factor(void **state)
{
    (void)state;
    const uint64_t want[] = {4096, 16384, 65536};
    sweep_ok("4KiB:64KiB:x4", 3, want);
    /* a range whose end is not on the grid stops below it */
    const uint64_t want2[] = {4096, 16384};
    sweep_ok("4KiB:60KiB:x4", 2, want2);
    /* one-point range */
    const uint64_t want3[] = {4096};
    sweep_ok("4K:4K", 1, want3);
}

static void test_sweep_per_octave(void **state)
{
    (void)state;
    uint64_t want[5];
    for (int k = 0; k < 5; k++)
        want[k] = (uint64_t)llround(1024.0 * pow(2.0, k / 4.0));
    /* the formula gives these; make sure both agree with the hand values */
    assert_int_equal(want[0], 1024);
    assert_int_equal(want[1], 1218);
    assert_int_equal(want[2], 1448);
    assert_int_equal(want[3], 1722);
    assert_int_equal(want[4], 2048);
    sweep_ok("1KiB:2KiB:4/oct", 5, want);

    /* 1/oct is x2 */
    const uint64_t want1[] = {1024, 2048, 4096};
    sweep_ok("1K:4K:1/oct", 3, want1);
}

static void test_sweep_add(void **state)
{
    (void)state;
    const uint64_t want[] = {100, 200, 300, 400};
    sweep_ok("100:400:+100", 4, want);
    const uint64_t want2[] = {100, 200, 300};
    sweep_ok("100:399:+100", 3, want2);
    const uint64_t want3[] = {1024, 2048, 3072, 4096};
    sweep_ok("1K:4K:+1K", 4, want3);
    /* exactly GMB_MAX_SWEEP points is allowed */
    memset(&sw, 0, sizeof sw);
    char err[256];
    assert_int_equal(gmb_parse_sweep("1:4096:+1", &sw, err, sizeof err), GMB_OK);
    assert_int_equal(sw.n, GMB_MAX_SWEEP);
    assert_int_equal(sw.v[0], 1);
    assert_int_equal(sw.v[GMB_MAX_SWEEP - 1], 4096);
}

static void test_sweep_lists(void **state)
{
    (void)state;
    const uint64_t want[] = {4096, 1048576};
    sweep_ok("1M,4K,4K", 2, want);
    const uint64_t want2[] = {1024, 8192, 16384, 32768};
    sweep_ok("1K,8K:32K", 4, want2);
    /* overlapping ranges are merged */
    const uint64_t want3[] = {1024, 2048, 3072, 4096, 8192};
    sweep_ok("1K:4K:+1K,1K:8K", 5, want3);
    const uint64_t want4[] = {7};
    sweep_ok("7", 1, want4);
}

static void test_sweep_bad(void **state)
{
    (void)state;
    sweep_bad("");
    sweep_bad("0");
    sweep_bad("4K:1K");
    sweep_bad("4K:1M:x1");
    sweep_bad("4K:1M:x0.5");
    sweep_bad("4K:1M:x");
    sweep_bad("4K:1M:x2048");
    sweep_bad("4K:1M:+0");
    sweep_bad("4K:1M:+");
    sweep_bad("4K:1M:3/oc");
    sweep_bad("4K:1M:0/oct");
    sweep_bad("4K:1M:65/oct");
    sweep_bad("4K:1M:/oct");
    sweep_bad("4K:1M:2");
    sweep_bad("1:1TiB:+1"); /* too many points */
    sweep_bad("1:4097:+1"); /* one too many */
    sweep_bad("4K,");
    sweep_bad(",");
    sweep_bad("a:b");
    sweep_bad("4K:");
    sweep_bad(":4K");
    sweep_bad("1K:2K:x2:3");
    memset(&sw, 0, sizeof sw);
    char err[64];
    assert_int_equal(gmb_parse_sweep(NULL, &sw, err, sizeof err), GMB_EUSAGE);
}

static void test_sweep_too_many_items(void **state)
{
    (void)state;
    /* 4096 points from one range, then one more from a second item */
    sweep_bad("1:4096:+1,5000");
    /* and a factor range that would never end below the limit */
    sweep_bad("1:4611686018427387904:x1.001");
    /* a factor so near 1 that the loop would take ages: refused before it starts */
    sweep_bad("1:1TiB:x1.000000000000001");
    sweep_bad("1:2:x1.000000001");
}

/* ---- gmb_parse_list ------------------------------------------------------------------------ */

static const char *const kinds[] = {"read", "copy", NULL};

/* gmb_sweep_round: down to a multiple of the unit, zeros and repeats dropped, order kept */
static void test_sweep_round(void **state)
{
    (void)state;
    gmb_sweep_t s = {.n = 6, .v = {8, 16, 20, 31, 32, 4096 + 15}, .set = 1};
    assert_int_equal(gmb_sweep_round(&s, 16), 3);
    assert_int_equal(s.v[0], 16);
    assert_int_equal(s.v[1], 32);
    assert_int_equal(s.v[2], 4096);
    gmb_sweep_t t = {.n = 3, .v = {384, 640, 700}, .set = 1}; /* a stride, not a power of two */
    assert_int_equal(gmb_sweep_round(&t, 192), 2);
    assert_int_equal(t.v[0], 384);
    assert_int_equal(t.v[1], 576);
    gmb_sweep_t z = {.n = 2, .v = {1, 2}, .set = 1};
    assert_int_equal(gmb_sweep_round(&z, 4096), 0);
}

static void test_list(void **state)
{
    (void)state;
    gmb_list_t l;
    char err[256];

    memset(&l, 0xff, sizeof l);
    assert_int_equal(gmb_parse_list("all", kinds, &l, err, sizeof err), GMB_OK);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.idx[0], 0);
    assert_int_equal(l.idx[1], 1);

    /* in the order given */
    assert_int_equal(gmb_parse_list("copy,read", kinds, &l, err, sizeof err), GMB_OK);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.idx[0], 1);
    assert_int_equal(l.idx[1], 0);

    assert_int_equal(gmb_parse_list("read", kinds, &l, err, sizeof err), GMB_OK);
    assert_int_equal(l.n, 1);
    assert_int_equal(l.idx[0], 0);

    /* duplicates collapse */
    assert_int_equal(gmb_parse_list("copy,copy,read,copy", kinds, &l, err, sizeof err), GMB_OK);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.idx[0], 1);
    assert_int_equal(l.idx[1], 0);
}

/* gmb_parse_ints: integers, ranges with a step, words; in the order given, repeats dropped;
 * what is out of range, malformed or empty refused */
static void test_ints(void **state)
{
    (void)state;
    static const char *const words[] = {"all", "max", NULL};
    gmb_ints_t l;
    char err[256];
    assert_int_equal(gmb_parse_ints("0:64", 0, 256, NULL, &l, err, sizeof err), GMB_OK);
    assert_int_equal(l.n, 65);
    assert_int_equal(l.v[0], 0);
    assert_int_equal(l.v[64], 64);
    assert_int_equal(gmb_parse_ints("32,1,3:9:2,1,max", 0, 256, words, &l, err, sizeof err),
                     GMB_OK);
    long want[] = {32, 1, 3, 5, 7, 9, GMB_INTS_WORD(1)};
    assert_int_equal(l.n, 7);
    for (size_t i = 0; i < l.n; i++)
        assert_int_equal(l.v[i], want[i]);
    assert_int_equal(gmb_parse_ints("3:10:4", 0, 256, NULL, &l, err, sizeof err), GMB_OK);
    assert_int_equal(l.n, 2); /* 3, 7: stops before passing B */
    assert_int_equal(l.v[1], 7);
    assert_int_equal(gmb_parse_ints("0:256:1000000000000", 0, 256, NULL, &l, err, sizeof err),
                     GMB_OK); /* a step past B: A alone, no overflow */
    assert_int_equal(l.n, 1);
    static const char *const bad[] = {"9:5", "9:5:-1",  "1:4:0", "x",       "1,x",
                                      "",    ",",       "1,,2",  "4,",      "257",
                                      "-1",  "1:2:3:4", "all",   "0:999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(gmb_parse_ints(bad[i], 0, 256, NULL, &l, err, sizeof err), GMB_EUSAGE);
        assert_true(err[0] != '\0');
    }
    /* the message names the whole item, its colons too */
    assert_int_equal(gmb_parse_ints("9:1", 0, 256, NULL, &l, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "'9:1'"));
    /* more values than a list holds */
    assert_int_equal(gmb_parse_ints("0:2000", 0, 2000, NULL, &l, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "more than"));
}

static void test_list_bad(void **state)
{
    (void)state;
    gmb_list_t l;
    char err[256];

    err[0] = '\0';
    assert_int_equal(gmb_parse_list("write", kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "write"));
    assert_non_null(strstr(err, "read|copy"));

    err[0] = '\0';
    assert_int_equal(gmb_parse_list("read,bogus", kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "bogus"));

    err[0] = '\0';
    assert_int_equal(gmb_parse_list("", kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_true(err[0] != '\0');
    assert_int_equal(l.n, 0);

    assert_int_equal(gmb_parse_list(NULL, kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(gmb_parse_list(",", kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(gmb_parse_list("read,", kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(gmb_parse_list("Read", kinds, &l, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(gmb_parse_list("all,read", kinds, &l, err, sizeof err), GMB_EUSAGE);
}

/* ---- gmb_parse_long / gmb_parse_double ----------------------------------------------------- */

static void test_parse_long(void **state)
{
    (void)state;
    long v = 7;
    assert_int_equal(gmb_parse_long("12", &v), GMB_OK);
    assert_int_equal(v, 12);
    assert_int_equal(gmb_parse_long("-42", &v), GMB_OK);
    assert_int_equal(v, -42);
    assert_int_equal(gmb_parse_long("0", &v), GMB_OK);
    assert_int_equal(v, 0);

    v = 7;
    assert_int_equal(gmb_parse_long("12abc", &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long("", &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long(NULL, &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long(" 12", &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long("12 ", &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long("1.5", &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long("abc", &v), GMB_EUSAGE);
    assert_int_equal(gmb_parse_long("99999999999999999999999", &v), GMB_EUSAGE);
    assert_int_equal(v, 7);
}

static void test_parse_double(void **state)
{
    (void)state;
    double d = 7;
    assert_int_equal(gmb_parse_double("1.25", &d), GMB_OK);
    assert_true(d == 1.25);
    assert_int_equal(gmb_parse_double("-3e2", &d), GMB_OK);
    assert_true(d == -300.0);
    assert_int_equal(gmb_parse_double("5", &d), GMB_OK);
    assert_true(d == 5.0);

    d = 7;
    assert_int_equal(gmb_parse_double("12abc", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double("", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double(NULL, &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double("1e400", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double("-1e400", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double("inf", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double("nan", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double(" 1", &d), GMB_EUSAGE);
    assert_int_equal(gmb_parse_double("1 ", &d), GMB_EUSAGE);
    assert_true(d == 7.0);
}

/* ---- option tables ------------------------------------------------------------------------- */

typedef struct {
    long reps;
    double frac;
    const char *mode;
    uint64_t buf_bytes;
    int verbose;
    gmb_list_t kernels;
    gmb_sweep_t sizes;
} cfg_t;

static const char *const modes[] = {"seq", "rand", NULL};

static const gmb_opt_t table[] = {
    {"reps", GMB_OPT_INT, offsetof(cfg_t, reps), "N", "10", 1, 1000, NULL, "repeats", 0},
    {"frac", GMB_OPT_DOUBLE, offsetof(cfg_t, frac), "F", "0.5", 0, 1, NULL, "fraction", 0},
    {"mode", GMB_OPT_STR, offsetof(cfg_t, mode), "M", "seq", 1, 0, modes, "mode", 0},
    {"buf", GMB_OPT_SIZE, offsetof(cfg_t, buf_bytes), "SIZE", "4KiB", 1024, 1048576, NULL, "buffer",
     0},
    {"verbose", GMB_OPT_FLAG, offsetof(cfg_t, verbose), NULL, NULL, 1, 0, NULL, "talk", 0},
    {"kernels", GMB_OPT_LIST, offsetof(cfg_t, kernels), "K", "all", 1, 0, kinds, "kernels", 0},
    {"sizes", GMB_OPT_SWEEP, offsetof(cfg_t, sizes), "S", "1K:4K", 1024, 65536, NULL, "sizes", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};

static cfg_t cfg; /* holds a sweep: keep it off the stack */

static void test_opt_defaults(void **state)
{
    (void)state;
    char err[256] = "";
    memset(&cfg, 0, sizeof cfg);
    assert_int_equal(gmb_opt_count(table), 7);
    assert_int_equal(gmb_opt_defaults(table, &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.reps, 10);
    assert_true(cfg.frac == 0.5);
    assert_string_equal(cfg.mode, "seq");
    assert_int_equal(cfg.buf_bytes, 4096);
    assert_int_equal(cfg.verbose, 0); /* no default: untouched */
    assert_int_equal(cfg.kernels.n, 2);
    assert_int_equal(cfg.sizes.n, 3);
    assert_int_equal(cfg.sizes.v[2], 4096);
    assert_int_equal(cfg.sizes.set, 1);

    /* a broken default is reported */
    const gmb_opt_t broken[] = {
        {"reps", GMB_OPT_INT, offsetof(cfg_t, reps), "N", "5000", 1, 1000, NULL, "repeats", 0},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
    };
    err[0] = '\0';
    assert_int_equal(gmb_opt_defaults(broken, &cfg, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "--reps"));
}

static void test_opt_apply_int(void **state)
{
    (void)state;
    const gmb_opt_t *o = &table[0];
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    cfg.reps = 3;
    assert_int_equal(gmb_opt_apply(o, "1", &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.reps, 1);
    assert_int_equal(gmb_opt_apply(o, "1000", &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.reps, 1000);

    err[0] = '\0';
    assert_int_equal(gmb_opt_apply(o, "0", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "--reps"));
    assert_non_null(strstr(err, "outside"));
    assert_int_equal(gmb_opt_apply(o, "1001", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(gmb_opt_apply(o, "-5", &cfg, err, sizeof err), GMB_EUSAGE);
    err[0] = '\0';
    assert_int_equal(gmb_opt_apply(o, "ten", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "not an integer"));
    assert_int_equal(cfg.reps, 1000); /* unchanged by the failures */

    /* no range when min > max */
    const gmb_opt_t free_int = {"n", GMB_OPT_INT, offsetof(cfg_t, reps), "N", NULL, 1, 0, NULL, "n",
                                0};
    assert_int_equal(gmb_opt_apply(&free_int, "-123456", &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.reps, -123456);
}

static void test_opt_apply_str(void **state)
{
    (void)state;
    const gmb_opt_t *o = &table[2];
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    assert_int_equal(gmb_opt_apply(o, "rand", &cfg, err, sizeof err), GMB_OK);
    assert_string_equal(cfg.mode, "rand");
    err[0] = '\0';
    assert_int_equal(gmb_opt_apply(o, "random", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "--mode"));
    assert_non_null(strstr(err, "seq|rand"));
    assert_string_equal(cfg.mode, "rand");
    assert_int_equal(gmb_opt_apply(o, "", &cfg, err, sizeof err), GMB_EUSAGE);

    /* free text without choices */
    const gmb_opt_t free_str = {
        "name", GMB_OPT_STR, offsetof(cfg_t, mode), "S", NULL, 1, 0, NULL, "name", 0};
    assert_int_equal(gmb_opt_apply(&free_str, "anything at all", &cfg, err, sizeof err), GMB_OK);
    assert_string_equal(cfg.mode, "anything at all");
}

static void test_opt_apply_other(void **state)
{
    (void)state;
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    /* double range */
    assert_int_equal(gmb_opt_apply(&table[1], "0.25", &cfg, err, sizeof err), GMB_OK);
    assert_true(cfg.frac == 0.25);
    assert_int_equal(gmb_opt_apply(&table[1], "1.5", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_true(cfg.frac == 0.25);
    /* size range */
    assert_int_equal(gmb_opt_apply(&table[3], "1MiB", &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.buf_bytes, 1048576);
    assert_int_equal(gmb_opt_apply(&table[3], "1025KiB", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(gmb_opt_apply(&table[3], "512", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_int_equal(cfg.buf_bytes, 1048576);
    /* flag */
    assert_int_equal(gmb_opt_apply(&table[4], NULL, &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.verbose, 1);
    /* list */
    assert_int_equal(gmb_opt_apply(&table[5], "copy", &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.kernels.n, 1);
    assert_int_equal(cfg.kernels.idx[0], 1);
    err[0] = '\0';
    assert_int_equal(gmb_opt_apply(&table[5], "bogus", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "--kernels"));
    /* sweep range */
    assert_int_equal(gmb_opt_apply(&table[6], "1K:64K:x4", &cfg, err, sizeof err), GMB_OK);
    assert_int_equal(cfg.sizes.n, 4);
    err[0] = '\0';
    assert_int_equal(gmb_opt_apply(&table[6], "1K:128K", &cfg, err, sizeof err), GMB_EUSAGE);
    assert_non_null(strstr(err, "--sizes"));
    assert_int_equal(gmb_opt_apply(&table[6], "512,1K", &cfg, err, sizeof err), GMB_EUSAGE);
}

/* ---- gmb_opt_parse ------------------------------------------------------------------------- */

typedef struct {
    long n;
    const char *name;
    int help, aid;
} pcfg_t;
typedef struct {
    int quiet;
} qcfg_t;
static const gmb_opt_t ptable[] = {
    {"count", GMB_OPT_INT, offsetof(pcfg_t, n), "N", NULL, 1, 100, NULL, "n", 0},
    {"name", GMB_OPT_STR, offsetof(pcfg_t, name), "S", NULL, 1, 0, NULL, "s", 0},
    {"help", GMB_OPT_FLAG, offsetof(pcfg_t, help), NULL, NULL, 1, 0, NULL, "help", 0},
    {"inject-aid", GMB_OPT_FLAG, offsetof(pcfg_t, aid), NULL, NULL, 1, 0, NULL, "aid", 1},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
static const gmb_opt_t qtable[] = {
    {"quiet", GMB_OPT_FLAG, offsetof(qcfg_t, quiet), NULL, NULL, 1, 0, NULL, "q", 0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};

/* Parse the NULL-terminated words into p and q; the parser's return, first operand in *first. */
static int parse_words(pcfg_t *p, qcfg_t *q, int *first, char **words)
{
    int argc = 0;
    while (words[argc])
        argc++;
    memset(p, 0, sizeof *p);
    memset(q, 0, sizeof *q);
    const gmb_opt_set_t sets[] = {{ptable, p}, {qtable, q}};
    return gmb_opt_parse(sets, 2, argc, words, "--help", first);
}

static void test_opt_parse(void **state)
{
    (void)state;
    pcfg_t p;
    qcfg_t q;
    int first = -1;
    /* options of both tables among operands; --name=VALUE; an abbreviation; "--" ends them */
    char *w1[] = {"cmd", "A", "--count", "7", "B", "--name=x y", "--qui", "--", "--count", NULL};
    assert_int_equal(parse_words(&p, &q, &first, w1), GMB_OK);
    assert_int_equal(p.n, 7);
    assert_string_equal(p.name, "x y");
    assert_int_equal(q.quiet, 1);
    assert_int_equal(first, 6); /* the operands moved last, in their order */
    assert_string_equal(w1[6], "A");
    assert_string_equal(w1[7], "B");
    assert_string_equal(w1[8], "--count");
    /* -h stands for --help where a table has it */
    char *w2[] = {"cmd", "-h", NULL};
    assert_int_equal(parse_words(&p, &q, &first, w2), GMB_OK);
    assert_int_equal(p.help, 1);
    assert_int_equal(first, 2);
    /* a hidden option spelled in full only */
    char *w3[] = {"cmd", "--inject-aid", NULL};
    assert_int_equal(parse_words(&p, &q, &first, w3), GMB_OK);
    assert_int_equal(p.aid, 1);
    char *bad[][4] = {
        {"cmd", "--inj", NULL},          {"cmd", "--count", NULL},   /* no value */
        {"cmd", "--count", "101", NULL}, {"cmd", "--quiet=1", NULL}, /* flag with a value */
        {"cmd", "--frobnicate", NULL},   {"cmd", "-x", NULL},        {"cmd", "--count", "1x", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (parse_words(&p, &q, &first, bad[i]) != GMB_EUSAGE)
            fail_msg("gmb_opt_parse of '%s %s' is not a usage error", bad[i][1],
                     bad[i][2] ? bad[i][2] : "");
        assert_int_equal(p.aid, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_good),     cmocka_unit_test(test_size_bad),
        cmocka_unit_test(test_size_limit),    cmocka_unit_test(test_sweep_default_x2),
        cmocka_unit_test(test_sweep_factor),  cmocka_unit_test(test_sweep_per_octave),
        cmocka_unit_test(test_sweep_add),     cmocka_unit_test(test_sweep_lists),
        cmocka_unit_test(test_sweep_bad),     cmocka_unit_test(test_sweep_too_many_items),
        cmocka_unit_test(test_sweep_round),   cmocka_unit_test(test_list),
        cmocka_unit_test(test_list_bad),      cmocka_unit_test(test_ints),
        cmocka_unit_test(test_parse_long),    cmocka_unit_test(test_parse_double),
        cmocka_unit_test(test_opt_defaults),  cmocka_unit_test(test_opt_apply_int),
        cmocka_unit_test(test_opt_apply_str), cmocka_unit_test(test_opt_apply_other),
        cmocka_unit_test(test_opt_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
