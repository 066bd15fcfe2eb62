/* test_machine.c - unit tests of gmb run --devices' peer matrix: rows from, columns to, a
 * device's own record first, the peer's copy back where the row's device did not measure it,
 * null where nobody did, the skipped pairs with their reasons; its Markdown. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmb.h"
#include "tools/machine.h"

/* A gmb-copy record of device dev: results.largest and results.skipped as given (JSON). */
static json_t *copy_rec(int dev, const char *largest, const char *skipped)
{
    json_t *r = json_pack("{s:s, s:{s:i}, s:{s:o, s:o}}", "benchmark", "copy", "device", "index",
                          dev, "results", "largest", json_loads(largest, 0, NULL), "skipped",
                          json_loads(skipped, 0, NULL));
    assert_non_null(r);
    return r;
}

static double cell(const json_t *m, const char *eng, size_t a, size_t b)
{
    const json_t *v =
        json_array_get(json_array_get(json_object_get(json_object_get(m, eng), "GBps"), a), b);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void test_matrix(void **state)
{
    (void)state;
    /* device 0 measured 0->1 (ce, sm) and 1->0 back (ce); device 2 measured 2->0 and skipped
     * 2->1; device 1's record is missing */
    json_t *r0 = copy_rec(0,
                          "{\"p2p_peer1_ce\": {\"bw_GBps\": 40.5, \"size_bytes\": 1024},"
                          " \"p2p_peer1_sm\": {\"bw_GBps\": 30.0, \"size_bytes\": 1024},"
                          " \"p2p_rev_peer1_ce\": {\"bw_GBps\": 39.0, \"size_bytes\": 1024}}",
                          "[]");
    json_t *r2 = copy_rec(2, "{\"p2p_peer0_ce\": {\"bw_GBps\": 20.0, \"size_bytes\": 1024}}",
                          "[{\"direction\": \"p2p\", \"kind\": \"peer1\", \"engine\": \"ce\","
                          " \"reason\": \"no peer access\"},"
                          " {\"direction\": \"h2d\", \"kind\": \"pinned\", \"engine\": \"sm\","
                          " \"reason\": \"not a peer skip\"}]");
    const json_t *recs[] = {r0, r2};
    int devs[] = {0, 1, 2};
    json_t *m = gmb_peer_matrix(recs, 2, devs, 3);
    assert_non_null(m);
    assert_true(cell(m, "ce", 0, 1) == 40.5);
    assert_true(cell(m, "ce", 1, 0) == 39.0); /* device 1 has no record: 0's copy back */
    assert_true(cell(m, "ce", 2, 0) == 20.0);
    assert_true(isnan(cell(m, "ce", 0, 0)) && isnan(cell(m, "ce", 1, 2)) &&
                isnan(cell(m, "ce", 2, 1)) && isnan(cell(m, "ce", 0, 2)));
    assert_true(cell(m, "sm", 0, 1) == 30.0);
    assert_true(isnan(cell(m, "sm", 1, 0)));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "ce"), "size_bytes")),
                     1024);
    const json_t *sk = json_object_get(m, "skipped");
    assert_int_equal(json_array_size(sk), 1); /* the p2p skip only */
    assert_int_equal(json_integer_value(json_object_get(json_array_get(sk, 0), "from")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(sk, 0), "to")), 1);
    char *md = gmb_peer_matrix_md(m, devs, 3);
    assert_non_null(md);
    assert_non_null(strstr(md, "| from \\ to | device 0 | device 1 | device 2 |"));
    assert_non_null(strstr(md, "| device 0 | · | 40.5 | — |"));
    assert_non_null(strstr(md, "| device 2 | 20 | — | · |"));
    assert_non_null(strstr(md, "SM kernel (sm)"));
    assert_non_null(strstr(md, "- skipped: device 2 to device 1, ce: no peer access"));
    free(md);
    json_decref(m);
    json_decref(r0);
    json_decref(r2);
}

static void test_nothing(void **state)
{
    (void)state;
    json_t *r = copy_rec(0, "{}", "[]");
    const json_t *recs[] = {r};
    int devs[] = {0, 1};
    json_t *m = gmb_peer_matrix(recs, 1, devs, 2);
    assert_null(json_object_get(m, "ce"));
    assert_null(json_object_get(m, "sm"));
    char *md = gmb_peer_matrix_md(m, devs, 2);
    assert_non_null(strstr(md, "No peer copy was measured."));
    free(md);
    json_decref(m);
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),
        cmocka_unit_test(test_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
