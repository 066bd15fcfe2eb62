/* test_cupti.c - gmb's CUPTI counters (common/cupti.c) against the stand-in libcupti
 * (cupti_stub.c, through GMB_CUPTI_LIB): the values and how kernels add up, every error path
 * of the loader and of a collection, and everything released after each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cupti.h"
#include "gmb.h"

static char stub_path[PATH_MAX + 64], nvml_path[PATH_MAX + 64];
static void *stub; /* held open so that its counter outlives gmb's dlclose */
static int *live;  /* the stand-in's objects not yet released */
static int fn_calls, fn_rc;
static int fake_ctx; /* a context for the loader's own errors (it is never used) */

static int run_once(void *arg, double *ns)
{
    (void)arg;
    fn_calls++;
    *ns = 1000;
    return fn_rc;
}

static int setup(void **state)
{
    (void)state;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *dir = dirname(exe);
    snprintf(stub_path, sizeof stub_path, "%s/stub/libcupti-standin.so", dir);
    snprintf(nvml_path, sizeof nvml_path, "%s/stub/libnvidia-ml.so.1", dir);
    stub = dlopen(stub_path, RTLD_NOW | RTLD_LOCAL);
    live = stub ? dlsym(stub, "gmb_cupti_stub_live") : NULL;
    return live ? 0 : -1;
}

static int reset(void **state)
{
    (void)state;
    setenv("GMB_CUPTI_LIB", stub_path, 1);
    unsetenv("GMB_CUPTI_STUB_FAIL");
    unsetenv("GMB_CUPTI_STUB_VALUES");
    unsetenv("GMB_CUPTI_STUB_RANGES");
    unsetenv("GMB_CUPTI_STUB_DROPPED");
    unsetenv("GMB_CUPTI_STUB_PASSES");
    fn_calls = 0;
    fn_rc = 0;
    return 0;
}

static gmb_counters_t *open_ok(void)
{
    gmb_counters_t *c = NULL;
    char why[256] = "";
    assert_int_equal(gmb_counters_open(NULL, 0, NULL, &c, why, sizeof why), GMB_OK);
    assert_non_null(c);
    return c;
}

static void no_library(void **state)
{
    (void)state;
    setenv("GMB_CUPTI_LIB", "/nonexistent/libcupti.so", 1);
    gmb_counters_t *c = (void *)1;
    char why[256] = "";
    assert_int_equal(gmb_counters_open(&fake_ctx, 0, NULL, &c, why, sizeof why), GMB_ESKIP);
    assert_null(c);
    assert_non_null(strstr(why, "CUPTI not available (GMB_CUPTI_LIB=/nonexistent"));
}

static void library_without_the_range_profiler(void **state)
{
    (void)state;
    setenv("GMB_CUPTI_LIB", nvml_path, 1); /* a library, but not CUPTI's */
    gmb_counters_t *c = NULL;
    char why[256] = "";
    assert_int_equal(gmb_counters_open(&fake_ctx, 0, NULL, &c, why, sizeof why), GMB_ESKIP);
    assert_non_null(strstr(why, "lacks cuptiProfilerInitialize"));
}

static void no_context_gives_the_backends_reason(void **state)
{
    (void)state;
    setenv("GMB_CUPTI_LIB", "/nonexistent/libcupti.so", 1);
    gmb_counters_t *c = NULL;
    char why[256] = "";
    assert_int_equal(gmb_counters_open(NULL, 0, "OpenCL: none", &c, why, sizeof why), GMB_ESKIP);
    assert_string_equal(why, "OpenCL: none");
    setenv("GMB_CUPTI_LIB", nvml_path, 1);
    assert_int_equal(gmb_counters_open(NULL, 0, "OpenCL: none", &c, why, sizeof why), GMB_ESKIP);
    assert_string_equal(why, "OpenCL: none");
    assert_null(c);
}

static void values_of_one_kernel(void **state)
{
    (void)state;
    gmb_counters_t *c = open_ok();
    gmb_counter_vals_t v;
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 1);
    assert_int_equal(fn_calls, 1);
    assert_int_equal(v.kernels, 1);
    assert_true(v.dram_read_bytes == 1048576 && v.dram_write_bytes == 524288);
    assert_true(v.dram_pct == 62.5 && v.kernel_ns == 2000);
    assert_true(v.l2_hit_pct == 40 && v.l2_sectors == 65536);
    assert_true(v.l2_sm_bytes == 49152.0 * 32 && v.l1_hit_pct == 12.5);
    json_t *j = gmb_counters_json(&v), *d = gmb_counters_describe(c);
    assert_true(json_real_value(json_object_get(j, "dram_read_bytes")) == 1048576);
    assert_int_equal(json_integer_value(json_object_get(j, "kernels")), 1);
    assert_non_null(strstr(json_string_value(json_object_get(d, "source")), "stand-in"));
    assert_string_equal(json_string_value(json_object_get(d, "chip")), "STANDIN");
    assert_int_equal(json_integer_value(json_object_get(d, "passes")), 3);
    assert_int_equal(json_array_size(json_object_get(d, "metrics")), 9);
    json_decref(j);
    json_decref(d);
    /* a second collection on the same session starts from a fresh counter image */
    setenv("GMB_CUPTI_STUB_VALUES", "dram__bytes_read.sum=7", 1);
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_true(v.ok && v.dram_read_bytes == 7 && v.dram_write_bytes == 524288);
    gmb_counters_close(c);
    assert_int_equal(*live, 0);
}

static void kernels_add_up(void **state)
{
    (void)state;
    setenv("GMB_CUPTI_STUB_RANGES", "2", 1); /* range r: (r+1) x sectors, hit rate + 10 r */
    gmb_counters_t *c = open_ok();
    gmb_counter_vals_t v;
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 1);
    assert_int_equal(v.kernels, 2);
    assert_true(v.dram_read_bytes == 2 * 1048576.0);
    assert_true(v.l2_sectors == 3 * 65536.0);
    /* weighted by sectors: (40 x 1 + 50 x 2) / 3 */
    assert_float_equal(v.l2_hit_pct, 140.0 / 3, 1e-9);
    assert_float_equal(v.l1_hit_pct, (12.5 + 22.5 * 2) / 3, 1e-9);
    assert_float_equal(v.dram_pct, 62.5, 1e-12); /* equal kernel times */
    gmb_counters_close(c);
    assert_int_equal(*live, 0);
}

static void passes_until_submitted(void **state)
{
    (void)state;
    setenv("GMB_CUPTI_STUB_PASSES", "3", 1);
    gmb_counters_t *c = open_ok();
    gmb_counter_vals_t v;
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 1);
    assert_int_equal(fn_calls, 3);
    setenv("GMB_CUPTI_STUB_PASSES", "1000", 1);
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 0);
    assert_non_null(strstr(v.why, "not every pass submitted"));
    gmb_counters_close(c);
}

/* every call of the open path failing: a skip naming the call and its error, nothing held */
static void open_fails_at_each_call(void **state)
{
    (void)state;
    static const char *calls[] = {
        "cuptiProfilerInitialize",
        "cuptiDeviceGetChipName",
        "cuptiProfilerGetCounterAvailability",
        "cuptiProfilerHostInitialize",
        "cuptiProfilerHostConfigAddMetrics",
        "cuptiProfilerHostGetConfigImageSize",
        "cuptiProfilerHostGetConfigImage",
        "cuptiProfilerHostGetNumOfPasses",
        "cuptiRangeProfilerEnable",
        "cuptiRangeProfilerGetCounterDataSize",
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        char f[128], why[256] = "";
        snprintf(f, sizeof f, "%s=35", calls[i]);
        setenv("GMB_CUPTI_STUB_FAIL", f, 1);
        gmb_counters_t *c = (void *)1;
        assert_int_equal(gmb_counters_open(NULL, 0, NULL, &c, why, sizeof why), GMB_ESKIP);
        assert_null(c);
        char want[160];
        snprintf(want, sizeof want, "CUPTI: %s: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)",
                 calls[i]);
        assert_non_null(strstr(why, want));
        assert_non_null(strstr(why, "NVreg_RestrictProfilingToAdminUsers=0"));
        assert_int_equal(*live, 0);
    }
    setenv("GMB_CUPTI_STUB_FAIL", "cuptiProfilerHostConfigAddMetrics=17", 1);
    gmb_counters_t *c = NULL;
    char why[256] = "";
    assert_int_equal(gmb_counters_open(NULL, 0, NULL, &c, why, sizeof why), GMB_ESKIP);
    assert_non_null(strstr(why, "CUPTI_ERROR_INVALID_METRIC_NAME (17)"));
    assert_null(strstr(why, "NVreg"));
}

/* every call of a collection failing: no counts, the reason, the session still usable */
static void collect_fails_at_each_call(void **state)
{
    (void)state;
    static const char *calls[] = {
        "cuptiRangeProfilerCounterDataImageInitialize",
        "cuptiRangeProfilerSetConfig",
        "cuptiRangeProfilerStart",
        "cuptiRangeProfilerStop",
        "cuptiRangeProfilerDecodeData",
        "cuptiRangeProfilerGetCounterDataInfo",
        "cuptiProfilerHostEvaluateToGpuValues",
    };
    gmb_counters_t *c = open_ok();
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        char f[128];
        snprintf(f, sizeof f, "%s=7", calls[i]);
        setenv("GMB_CUPTI_STUB_FAIL", f, 1);
        gmb_counter_vals_t v;
        assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
        assert_int_equal(v.ok, 0);
        assert_non_null(strstr(v.why, calls[i]));
        assert_non_null(strstr(v.why, "CUPTI_ERROR_INVALID_OPERATION"));
        json_t *j = gmb_counters_json(&v);
        assert_true(json_is_null(j));
        json_decref(j);
    }
    unsetenv("GMB_CUPTI_STUB_FAIL");
    gmb_counter_vals_t v;
    /* a Start that failed left the stand-in stopped: the next collection works */
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 1);
    gmb_counters_close(c);
    assert_int_equal(*live, 0);
}

static void dropped_or_no_ranges(void **state)
{
    (void)state;
    gmb_counters_t *c = open_ok();
    gmb_counter_vals_t v;
    setenv("GMB_CUPTI_STUB_DROPPED", "1", 1);
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 0);
    assert_non_null(strstr(v.why, "dropped 1 ranges"));
    unsetenv("GMB_CUPTI_STUB_DROPPED");
    setenv("GMB_CUPTI_STUB_RANGES", "0", 1);
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 0);
    assert_non_null(strstr(v.why, "counted no kernel"));
    gmb_counters_close(c);
}

static void sample_failure_is_returned(void **state)
{
    (void)state;
    gmb_counters_t *c = open_ok();
    gmb_counter_vals_t v;
    fn_rc = GMB_EVERIFY;
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), GMB_EVERIFY);
    assert_int_equal(v.ok, 0);
    fn_rc = 0;
    assert_int_equal(gmb_counters_collect(c, run_once, NULL, &v), 0);
    assert_int_equal(v.ok, 1);
    gmb_counters_close(c);
    gmb_counters_close(NULL);
    assert_int_equal(*live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(no_library, reset),
        cmocka_unit_test_setup(library_without_the_range_profiler, reset),
        cmocka_unit_test_setup(no_context_gives_the_backends_reason, reset),
        cmocka_unit_test_setup(values_of_one_kernel, reset),
        cmocka_unit_test_setup(kernels_add_up, reset),
        cmocka_unit_test_setup(passes_until_submitted, reset),
        cmocka_unit_test_setup(open_fails_at_each_call, reset),
        cmocka_unit_test_setup(collect_fails_at_each_call, reset),
        cmocka_unit_test_setup(dropped_or_no_ranges, reset),
        cmocka_unit_test_setup(sample_failure_is_returned, reset),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
