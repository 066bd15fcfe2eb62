/* test_board.c - the board revision in gmb table's column heads (gmb_run_board): from the
 * committed H200 records (results/nvidia-h200: call 7's records name a -000 board, call 1's
 * were written before device.board_part_number) and from records built in memory. The
 * committed runs are read from $GMB_TEST_RESULTS (default results/, run-tests.sh's working
 * directory is the repository root). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmb.h"
#include "harness.h"
#include "tools/runset.h"
#include "tools/table.h"

static void results_path(char *out, size_t len, const char *run)
{
    const char *r = getenv("GMB_TEST_RESULTS");
    snprintf(out, len, "%s/nvidia-h200/%s", r && *r ? r : "results", run);
}

/* call 7 (-000, named in its record) and call 1 (-001 by NOTES.md, not in its records) */
static void test_board_committed(void **state)
{
    (void)state;
    char a[4096], b[4096];
    results_path(a, sizeof a, "20261130T234453Z-gpu-check/cuda-sm-one-pass");
    results_path(b, sizeof b, "20261130T225242Z");
    char *args[] = {a, b};
    gmb_runset_t rs;
    memset(&rs, 0, sizeof rs);
    FILE *err = tmpfile();
    assert_non_null(err);
    assert_int_equal(gmb_runset_load(&rs, args, 2, err), 0);
    assert_int_equal(ftell(err), 0); /* version 1 records: read in full, without a word */
    fclose(err);
    assert_int_equal(rs.nruns, 2);
    gmb_runset_label(&rs);
    assert_non_null(gmb_run_board(&rs, 0));
    assert_string_equal(gmb_run_board(&rs, 0), "692-2G520-0282-000");
    assert_null(gmb_run_board(&rs, 1));
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    assert_int_equal(t.ncols, 2);
    assert_string_equal(t.cols[0],
                        "NVIDIA H200 (CUDA), 2026-11-30 23:44, board 692-2G520-0282-000");
    assert_string_equal(t.cols[1], "NVIDIA H200 (CUDA), 2026-11-30 22:52");
    assert_string_equal(t.cols[1], rs.runs[1].label); /* no board: the run's label alone */
    char *md = gmb_table_render(&t, "md");
    assert_non_null(md);
    assert_non_null(
        strstr(md, "| NVIDIA H200 (CUDA), 2026-11-30 23:44, board 692-2G520-0282-000 |"));
    free(md);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

static json_t *rec_with_board(const char *part)
{
    json_t *r =
        json_pack("{s:s, s:i, s:s, s:s, s:s, s:{s:s, s:s, s:s}, s:[{s:{s:i}, s:{}}]}", "schema",
                  "gmb-record", "schema_version", 2, "benchmark", "stream", "backend", "cuda",
                  "time_utc", "2026-01-01T00:00:00Z", "device", "name", "NVIDIA H200", "platform",
                  "CUDA", "type", "gpu", "points", "params", "n", 1, "metrics");
    assert_non_null(r);
    if (part)
        json_object_set_new(json_object_get(r, "device"), "board_part_number", json_string(part));
    return r;
}

/* "unknown" (no NVML), an empty string and no field: no board; the first record that names
 * one names the run's */
static void test_board_crafted(void **state)
{
    (void)state;
    gmb_runset_t rs;
    memset(&rs, 0, sizeof rs);
    assert_int_equal(gmb_runset_add(&rs, rec_with_board("unknown"), "a/1.json", "a"), 0);
    assert_int_equal(gmb_runset_add(&rs, rec_with_board(""), "b/1.json", "b"), 0);
    assert_int_equal(gmb_runset_add(&rs, rec_with_board(NULL), "c/1.json", "c"), 0);
    assert_int_equal(gmb_runset_add(&rs, rec_with_board(NULL), "d/1.json", "d"), 0);
    assert_int_equal(gmb_runset_add(&rs, rec_with_board("692-2G520-0282-001"), "d/2.json", "d"), 0);
    assert_int_equal(rs.nruns, 4);
    assert_null(gmb_run_board(&rs, 0));
    assert_null(gmb_run_board(&rs, 1));
    assert_null(gmb_run_board(&rs, 2));
    assert_string_equal(gmb_run_board(&rs, 3), "692-2G520-0282-001");
    assert_null(gmb_run_board(&rs, 4)); /* no such run */
    gmb_runset_label(&rs);
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    for (size_t r = 0; r < 3; r++)
        assert_null(strstr(t.cols[r], "board"));
    assert_non_null(strstr(t.cols[3], ", board 692-2G520-0282-001"));
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_committed),
        cmocka_unit_test(test_board_crafted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
