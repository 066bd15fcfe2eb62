/* test_suite.c - unit tests of gmb run's pure parts: profile lookup (file lines, device
 * types, generic fallback), the manifest (entries, statuses) and its atomic writing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gmb.h"
#include "tools/suite.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gmb-unit-suite.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_profiles(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/profiles.conf", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# comment\n"
          "stream quick gpu 10   --sizes 4KiB:1GiB:x4  \n"
          "stream quick *   40 --sizes 4KiB:64MiB\n"
          "bad line\n"
          "*      quick *   7  --time-cap 0.1\n"
          "stream full  *   0\n"
          "xnan   full  *   nan --a\n"
          "xneg   full  *   -5  --b\n"
          "xinf   full  *   inf --c\n",
          f);
    fclose(f);
    gmb_profile_t p;
    assert_int_equal(gmb_profile_lookup(path, "stream", "quick", "gpu", &p), 0);
    assert_string_equal(p.args, "--sizes 4KiB:1GiB:x4");
    assert_true(p.est_s == 10);
    assert_int_equal(p.generic, 0);
    assert_int_equal(gmb_profile_lookup(path, "stream", "quick", "cpu", &p), 0);
    assert_string_equal(p.args, "--sizes 4KiB:64MiB");
    assert_int_equal(gmb_profile_lookup(path, "chase", "quick", "gpu", &p), 0);
    assert_string_equal(p.args, "--time-cap 0.1");
    assert_int_equal(p.generic, 1);
    assert_int_equal(gmb_profile_lookup(path, "stream", "full", "gpu", &p), 0);
    assert_string_equal(p.args, "");
    /* no line at all: the built-in fallback (full = defaults, quick = common options) */
    assert_int_equal(gmb_profile_lookup(path, "chase", "full", "gpu", &p), 0);
    assert_string_equal(p.args, "");
    assert_int_equal(p.generic, 1);
    /* an estimate that is no duration (nan, < 0, inf): unknown (0), the options kept */
    const char *odd[][2] = {{"xnan", "--a"}, {"xneg", "--b"}, {"xinf", "--c"}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(gmb_profile_lookup(path, odd[i][0], "full", "gpu", &p), 0);
        assert_string_equal(p.args, odd[i][1]);
        assert_true(p.est_s == 0);
    }
    assert_int_equal(gmb_profile_lookup("/nonexistent/profiles", "x", "quick", "gpu", &p),
                     GMB_ERUNTIME);
    assert_non_null(strstr(p.args, "--time-cap"));
}

/* Run a lookup with stderr in a file; what it wrote goes to msg. */
static int lookup_msg(const char *path, const char *bench, gmb_profile_t *p, char *msg, size_t len)
{
    char errpath[128];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    fflush(stderr);
    int saved = dup(2), fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    int rc = gmb_profile_lookup(path, bench, "quick", "gpu", p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(errpath, "r");
    assert_non_null(f);
    size_t n = fread(msg, 1, len - 1, f);
    msg[n] = '\0';
    fclose(f);
    return rc;
}

/* Lines longer than any buffer: read whole (never split into a second line), and options
 * that do not fit are an error naming file:line, never cut. */
static void test_profiles_long_lines(void **state)
{
    (void)state;
    char path[128], msg[4096], want[256];
    snprintf(path, sizeof path, "%s/profiles.conf", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    /* a comment whose tail, cut at 2 KiB, would read as a line for stream */
    fputs("# ", f);
    for (int i = 0; i < 2045; i++)
        fputc('x', f);
    fputs("stream quick * 99 --evil\n", f);
    /* a long line for another benchmark, then stream's own */
    fputs("chase quick * 1 --sizes", f);
    for (int i = 0; i < 5000; i++)
        fputs(" 4KiB", f);
    fputs("\nstream quick * 5 --sizes 4KiB:1GiB\n", f);
    /* options of 1500 bytes (they fit no gmb_profile_t), of 3000 bytes, of 101 words */
    fputs("bank quick * 1 --x ", f);
    for (int i = 0; i < 1495; i++)
        fputc('y', f);
    fputs("\nl2 quick * 1 --x ", f);
    for (int i = 0; i < 2995; i++)
        fputc('y', f);
    fputs("\num quick * 1", f);
    for (int i = 0; i < 101; i++)
        fputs(" -u", f);
    fputs("\n", f);
    fclose(f);

    gmb_profile_t p;
    assert_int_equal(lookup_msg(path, "stream", &p, msg, sizeof msg), 0);
    assert_string_equal(p.args, "--sizes 4KiB:1GiB");
    assert_true(p.est_s == 5);
    assert_string_equal(msg, "");

    const struct {
        const char *bench;
        int line;
    } bad[] = {{"bank", 4}, {"l2", 5}, {"um", 6}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(lookup_msg(path, bad[i].bench, &p, msg, sizeof msg), GMB_EUSAGE);
        snprintf(want, sizeof want, "gmb: error: %s:%d: the options of this line are too long",
                 path, bad[i].line);
        if (strncmp(msg, want, strlen(want)))
            fail_msg("%s: got '%s', want '%s...'", bad[i].bench, msg, want);
        assert_int_equal((int)(strchr(msg, '\n') - msg), (int)strlen(msg) - 1); /* one line */
        assert_non_null(strstr(p.args, "--time-cap")); /* the built-in fallback, not a cut */
    }
}

static void test_manifest(void **state)
{
    (void)state;
    char *argv[] = {"gmb", "run"};
    json_t *m = gmb_manifest_new("quick", json_pack("{s:s}", "name", "dev"), "dev",
                                 "2026-01-01T00:00:00Z", 2, argv);
    assert_non_null(m);
    json_t *a = gmb_manifest_add(m, "bank", "--x 1", 3);
    json_t *b = gmb_manifest_add(m, "chase", "", 0);
    assert_string_equal(json_string_value(json_object_get(a, "status")), "pending");
    gmb_manifest_done(a, 0, 0, 1.5, json_pack("[s]", "r-bank.json"), "");
    assert_string_equal(json_string_value(json_object_get(a, "status")), "ok");
    assert_int_equal(json_integer_value(json_object_get(a, "exit_status")), 0);
    assert_true(json_is_null(json_object_get(a, "reason")));
    gmb_manifest_done(b, -1, 2, 0.5, NULL, "stopped");
    assert_string_equal(json_string_value(json_object_get(b, "status")), "interrupted");
    assert_true(json_is_null(json_object_get(b, "exit_status")));
    assert_int_equal(json_integer_value(json_object_get(b, "signal")), 2);
    assert_int_equal(json_array_size(json_object_get(b, "records")), 0);
    assert_string_equal(gmb_status_word(77), "skipped");
    assert_string_equal(gmb_status_word(1), "verification_failed");
    assert_string_equal(gmb_status_word(3), "error");
    assert_string_equal(gmb_status_word(2), "usage_error");

    /* written atomically, read back equal; rewriting replaces it; no temporary left */
    assert_int_equal(gmb_json_write_atomic(m, dir, "run.json"), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/run.json", dir);
    json_t *back = json_load_file(path, 0, NULL);
    assert_non_null(back);
    assert_true(json_equal(back, m));
    json_decref(back);
    json_object_set_new(m, "status", json_string("complete"));
    assert_int_equal(gmb_json_write_atomic(m, dir, "run.json"), 0);
    back = json_load_file(path, 0, NULL);
    assert_string_equal(json_string_value(json_object_get(back, "status")), "complete");
    assert_string_equal(json_string_value(json_object_get(back, "schema")), "gmb-run");
    json_decref(back);
    DIR *d = opendir(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)))
        files += e->d_name[0] != '.' || strlen(e->d_name) > 2;
    closedir(d);
    assert_int_equal(files, 1);
    assert_int_equal(gmb_json_write_atomic(m, "/nonexistent-dir", "run.json"), GMB_ERUNTIME);
    json_decref(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_profiles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profiles_long_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_manifest, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
