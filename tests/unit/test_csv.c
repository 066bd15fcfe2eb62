/* test_csv.c - gmb_csv_field: the one CSV quoting rule (RFC 4180) of the record CSVs and of
 * gmb table --format csv. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
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

/* Split csv (RFC 4180) into records of fields; returns the records, each field count in
 * nf[], the fields '\x1f'-joined in rows[] (caller frees). Fails on a malformed text. */
static int parse(const char *p, int *nf, char **rows, int max)
{
    int nr = 0;
    while (*p && nr < max) {
        char *out = calloc(strlen(p) + 1, 1), *o = out;
        int c = 1;
        for (;;) {
            if (*p == '"') {
                for (p++;; p++) {
                    if (!*p)
                        fail_msg("record %d: a quoted field never ends", nr + 1);
                    if (*p == '"' && p[1] == '"')
                        *o++ = *p++;
                    else if (*p == '"')
                        break;
                    else
                        *o++ = *p;
                }
                p++;
            } else {
                while (*p && *p != ',' && *p != '\n') {
                    if (*p == '"' || *p == '\r')
                        fail_msg("record %d: 0x%02x in an unquoted field", nr + 1, *p);
                    *o++ = *p++;
                }
            }
            if (*p == ',') {
                *o++ = '\x1f';
                c++;
                p++;
                continue;
            }
            if (*p != '\n')
                fail_msg("record %d does not end in LF", nr + 1);
            p++;
            break;
        }
        nf[nr] = c;
        rows[nr++] = out;
    }
    return nr;
}

/* A crafted record (',', '"', CR, LF, tab, other control bytes and a leading '#' in names
 * and values): its RFC 4180 CSV reads back with every name and value whole, every record of
 * the header's width; the gnuplot CSV of the same record keeps its clean rule. */
static void test_record_rfc4180(void **state)
{
    (void)state;
    char err[512];
    json_t *r =
        gmb_record_load("tests/fixtures/records/fuzz/csv-cells/chase.json", err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    char *csv = gmb_record_csv_rfc4180(r);
    assert_non_null(csv);
    int nf[16];
    char *rows[16];
    int nr = parse(csv, nf, rows, 16);
    assert_int_equal(nr, 4);
    for (int i = 1; i < nr; i++)
        assert_int_equal(nf[i], nf[0]);
    assert_non_null(strstr(rows[0], "\x1fwe,ird\"key\r\n\tx\x01\x1f"));
    assert_non_null(strstr(rows[0], "\x1fm,e\"t\rric_ci_lo\x1f"));
    assert_non_null(strstr(rows[2], "\x1f#va,l\"ue\nnext\r\x7f"
                                    "end\x1f"));
    assert_non_null(strstr(rows[1], "\x1f"
                                    "a\"b,c\n"));
    for (int i = 0; i < nr; i++)
        free(rows[i]);
    free(csv);
    char *plain = gmb_record_csv(r);
    assert_non_null(plain);
    assert_null(strchr(plain, '"'));
    free(plain);
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_record_rfc4180),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
