/* test_copy.c - unit tests of common/model/xfer.c: PCIe nominal bandwidth, the chunks verification
 * reads, the default size cap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/xfer.h"

#define MiB (1024ull * 1024ull)
#define GiB (1024ull * MiB)

static void pcie_lanes(void **st)
{
    (void)st;
    assert_float_equal(gmb_pcie_lane_gbps(3), 0.985, 1e-12);
    assert_float_equal(gmb_pcie_lane_gbps(4), 1.969, 1e-12);
    assert_float_equal(gmb_pcie_lane_gbps(5), 3.938, 1e-12);
    assert_float_equal(gmb_pcie_lane_gbps(1), 0.25, 1e-12);
    assert_float_equal(gmb_pcie_lane_gbps(0), 0, 0);
    assert_float_equal(gmb_pcie_lane_gbps(7), 0, 0); /* unknown generation: no number */
}

static void pcie_links(void **st)
{
    (void)st;
    assert_float_equal(gmb_pcie_gbps(5, 16), 63.008, 1e-9); /* H100/H200 PCIe */
    assert_float_equal(gmb_pcie_gbps(4, 16), 31.504, 1e-9);
    assert_float_equal(gmb_pcie_gbps(3, 8), 7.88, 1e-9);
    assert_float_equal(gmb_pcie_gbps(4, 0), 0, 0);
    assert_float_equal(gmb_pcie_gbps(4, -1), 0, 0);
    assert_float_equal(gmb_pcie_gbps(0, 16), 0, 0);
}

static void spans_full(void **st)
{
    (void)st;
    gmb_span_t sp[8];
    assert_int_equal(gmb_verify_spans(4096, 32 * MiB, 256 * 1024, 8, 1, sp, 8), 1);
    assert_int_equal(sp[0].off, 0);
    assert_int_equal(sp[0].bytes, 4096);
    assert_int_equal(gmb_verify_spans(32 * MiB, 32 * MiB, 256 * 1024, 8, 1, sp, 8), 1);
    assert_int_equal(sp[0].bytes, 32 * MiB);
    assert_int_equal(gmb_verify_spans(0, 32 * MiB, 256 * 1024, 8, 1, sp, 8), 0);
    assert_int_equal(gmb_verify_spans(4096, 32 * MiB, 256 * 1024, 8, 1, sp, 0), 0);
}

static void spans_sampled(void **st)
{
    (void)st;
    const uint64_t chunk = 256 * 1024;
    for (uint32_t seed = 0; seed < 50; seed++) {
        uint64_t bytes = 1 * GiB + 16 * seed; /* not a whole number of chunks */
        gmb_span_t sp[8];
        size_t n = gmb_verify_spans(bytes, 32 * MiB, chunk, 8, seed, sp, 8);
        assert_true(n >= 2 && n <= 8);
        assert_int_equal(sp[0].off, 0);                 /* the first chunk */
        assert_int_equal(sp[n - 1].off + chunk, bytes); /* the last, ending at the end */
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(sp[i].bytes, chunk);
            assert_true(sp[i].off + sp[i].bytes <= bytes);
            if (i && i < n - 1)
                assert_int_equal(sp[i].off % chunk, 0); /* chunk-aligned between */
            if (i)
                assert_true(sp[i].off > sp[i - 1].off); /* ascending, no duplicate */
        }
    }
    /* the choice depends on the seed */
    gmb_span_t a[8], b[8];
    size_t na = gmb_verify_spans(4 * GiB, 32 * MiB, chunk, 8, 1, a, 8);
    size_t nb = gmb_verify_spans(4 * GiB, 32 * MiB, chunk, 8, 2, b, 8);
    int differ = na != nb;
    for (size_t i = 0; i < na && i < nb; i++)
        differ |= a[i].off != b[i].off;
    assert_true(differ);
    /* max bounds what is written */
    assert_int_equal(gmb_verify_spans(4 * GiB, 32 * MiB, chunk, 8, 1, a, 3), 3);
    /* chunks larger than the buffer: one span, the whole buffer */
    assert_int_equal(gmb_verify_spans(40 * MiB, 32 * MiB, 64 * MiB, 8, 1, a, 8), 1);
    assert_int_equal(a[0].bytes, 40 * MiB);
}

static void top_cap(void **st)
{
    (void)st;
    /* an H200 with plenty of RAM: the wanted 1 GiB */
    assert_int_equal(gmb_xfer_top(GiB, 141 * GiB, 2048 * GiB, 141 * GiB, 16), GiB);
    /* a small device: a quarter of its memory */
    assert_int_equal(gmb_xfer_top(GiB, 2 * GiB, 64 * GiB, 0, 16), GiB / 2);
    /* little RAM: a quarter of it */
    assert_int_equal(gmb_xfer_top(GiB, 80 * GiB, 2 * GiB, 0, 16), GiB / 2);
    /* largest allocation */
    assert_int_equal(gmb_xfer_top(GiB, 80 * GiB, 64 * GiB, 100 * MiB, 16), 100 * MiB);
    /* rounded down to the alignment; unknown caps ignored */
    assert_int_equal(gmb_xfer_top(1000003, 0, 0, 0, 16), 1000000);
    assert_int_equal(gmb_xfer_top(8, 0, 0, 0, 16), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pcie_lanes),    cmocka_unit_test(pcie_links), cmocka_unit_test(spans_full),
        cmocka_unit_test(spans_sampled), cmocka_unit_test(top_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
