/* test_eta.c - unit tests of gmb run's ETA (the estimates left scaled by how the finished
 * programs went, an overrun that keeps time left and slows the rest) and of the host's load
 * (the load average read from a file, busy above the online CPUs). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gmb.h"
#include "host.h"
#include "tools/suite.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_scale(void **state)
{
    (void)state;
    NEAR(gmb_eta_scale(0, 0), 1);             /* nothing finished */
    NEAR(gmb_eta_scale(0, 50), 1);            /* finished, none with an estimate */
    NEAR(gmb_eta_scale(40, 197), 197.0 / 40); /* the loaded host of issue 19: ~4.9x */
    NEAR(gmb_eta_scale(40, 20), 0.5);
    NEAR(gmb_eta_scale(1, 1000), GMB_ETA_SCALE_MAX); /* bounded */
    NEAR(gmb_eta_scale(1000, 1), GMB_ETA_SCALE_MIN);
    NEAR(gmb_eta_scale(10, 0), GMB_ETA_SCALE_MIN);
    NEAR(gmb_eta_scale(NAN, 5), 1);
    NEAR(gmb_eta_scale(5, NAN), 1);
    NEAR(gmb_eta_scale(-3, 5), 1);
    NEAR(gmb_eta_scale(5, -1), 1);
    NEAR(gmb_eta_scale(INFINITY, 5), 1);
}

static void test_left(void **state)
{
    (void)state;
    /* at the start: the sum of the estimates */
    NEAR(gmb_eta_left(0, 0, 40, 0, 44), 84);
    /* nothing estimated at all: unknown */
    assert_true(gmb_eta_left(0, 0, 0, 5, 0) < 0);
    assert_true(gmb_eta_left(0, 0, NAN, 0, -1) < 0);
    /* one finished program took twice its estimate: the rest doubled */
    NEAR(gmb_eta_left(10, 20, 40, 0, 34), 80 + 68);
    /* the running program counts down from its scaled estimate */
    NEAR(gmb_eta_left(10, 20, 40, 30, 34), 50 + 68);
    /* near its end, a quarter of what it ran is left, never less */
    NEAR(gmb_eta_left(0, 0, 40, 35, 0), GMB_ETA_OVERRUN * 35);
    /* past its estimate (stream: 197 s against 40): never 0, and it grows as it runs */
    double prev = 0;
    for (double ran = 41; ran < 200; ran += 10) {
        double l = gmb_eta_left(0, 0, 40, ran, 0);
        assert_true(l > 0);
        assert_true(l > prev);
        NEAR(l, GMB_ETA_OVERRUN * ran);
        prev = l;
    }
    /* past its estimate, the programs after it go at its rate so far */
    NEAR(gmb_eta_left(0, 0, 40, 160, 44), GMB_ETA_OVERRUN * 160 + 44 * 4.0);
    /* with finished ones: the running one's time so far joins their measure */
    NEAR(gmb_eta_left(10, 10, 40, 90, 50), GMB_ETA_OVERRUN * 90 + 50 * (100.0 / 50));
    /* continuous where it passes its estimate: the rest scaled as before */
    NEAR(gmb_eta_left(10, 20, 40, 80, 34), GMB_ETA_OVERRUN * 80 + 68);
    /* an unknown estimate for the running one: nothing of it, the rest as estimated */
    NEAR(gmb_eta_left(0, 0, 0, 100, 30), 30);
    NEAR(gmb_eta_left(10, 20, 0, 100, 30), 60);
    /* the bound holds for the rest too */
    NEAR(gmb_eta_left(1, 1000, 0, 0, 30), 30 * GMB_ETA_SCALE_MAX);
}

static void test_loadavg(void **state)
{
    (void)state;
    char path[] = "/tmp/gmb-unit-loadavg.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    setenv(GMB_TEST_LOADAVG_ENV, path, 1);
    FILE *f = fopen(path, "w");
    fputs("3.90 2.50 1.00 3/120 4242\n", f);
    fclose(f);
    NEAR(gmb_host_loadavg(), 3.90);
    f = fopen(path, "w");
    fputs("garbage\n", f);
    fclose(f);
    assert_true(isnan(gmb_host_loadavg()));
    f = fopen(path, "w");
    fputs("-1 0 0\n", f);
    fclose(f);
    assert_true(isnan(gmb_host_loadavg()));
    unlink(path);
    assert_true(isnan(gmb_host_loadavg())); /* no such file */
    unsetenv(GMB_TEST_LOADAVG_ENV);
    double l = gmb_host_loadavg(); /* the real one, where there is one */
    if (access("/proc/loadavg", R_OK) == 0)
        assert_true(l >= 0);

    assert_true(gmb_host_busy(3.9, 2));
    assert_false(gmb_host_busy(2.0, 2)); /* every CPU busy, nobody waiting */
    assert_false(gmb_host_busy(0.1, 2));
    assert_false(gmb_host_busy(NAN, 2));
    assert_false(gmb_host_busy(5, 0)); /* CPUs unknown */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_left),
        cmocka_unit_test(test_loadavg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
