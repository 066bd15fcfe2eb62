/* test_csv.c - gmb_csv_field: the one CSV quoting rule (RFC 4180) of the record CSVs and of
 * gmb table --format csv. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "record.h"

static void want(const char *in, const char *out)
{
    char buf[256];
    size_t n = gmb_csv_field(buf, sizeof buf, in);
    assert_int_equal(n, strlen(out));
    assert_string_equal(buf, out);
}

/* plain text as it is; quoted for ',', '"', CR, LF; quotes doubled */
static void test_rule(void **state)
{
    (void)state;
    want("", "");
    want("plain text", "plain text");
    want(" lead #x\tz;", " lead #x\tz;"); /* blanks, '#', tab, ';': no quotes */
    want("a,b", "\"a,b\"");
    want("say \"hi\"", "\"say \"\"hi\"\"\"");
    want("\"", "\"\"\"\"");
    want("cr\rhere", "\"cr\rhere\"");
    want("two\nlines", "\"two\nlines\"");
    want("Read bandwidth, 4 KiB \"hot\"", "\"Read bandwidth, 4 KiB \"\"hot\"\"\"");
}

/* snprintf's contract: the length of the whole field, a cut one '\0'-ended, len 0 writes
 * nothing */
static void test_sizes(void **state)
{
    (void)state;
    char small[4] = "zzz";
    assert_int_equal(gmb_csv_field(NULL, 0, "a,\"b\""), 9);
    assert_int_equal(gmb_csv_field(small, sizeof small, "a,\"b\""), 9);
    assert_string_equal(small, "\"a,");
    char one[1] = {'x'};
    assert_int_equal(gmb_csv_field(one, 1, "abc"), 3);
    assert_int_equal(one[0], '\0');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
