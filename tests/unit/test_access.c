/* test_access.c - unit tests of gmb-access's random blocks (common/kernels/gmb_kernels.h, the one
 * source the kernels and the host's verification share): the block picked is the hash scaled
 * by a multiply-high into [0, nb), uniform and with replacement (about 1 - 1/e of the blocks
 * read in a pass), independent of its neighbour's; a read keeps its word in the block, and in
 * order reads itself; the vector accesses read the words the word placement would, at every
 * width; random-write's values; and the rule that names the block of full bandwidth (curves.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/curves.h"
#include "kernels/gmb_kernels.h"

/* The word that word w of a pass reads: gmb_block_vec with a word a vector (lbv = lb). */
static uint64_t gmb_block_word(uint64_t w, uint32_t lb, uint32_t key, uint32_t nb, uint32_t order)
{
    return gmb_block_vec(w, lb, key, nb, order);
}

/* the hash written out again (lowbias32 of the index, the seed mixed in): a change of
 * gmb_hash, or a pick that does not use it, shows */
static uint32_t ref_hash(uint32_t seed, uint32_t q)
{
    uint32_t x = q ^ (seed * 0x85ebca6bu);
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* p = floor(h x nb / 2^32) for the edge counts of blocks, from 1 to 2^32 - 1 */
static void pick_is_scaled_hash(void **state)
{
    (void)state;
    const uint32_t nbs[] = {1, 2, 3, 7, 1000, 65536, 0x7fffffffu, 0xfffffffeu, 0xffffffffu};
    const uint32_t keys[] = {0, 1, 0xdeadbeefu};
    for (size_t a = 0; a < sizeof nbs / sizeof *nbs; a++)
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            for (uint64_t q = 0; q < 0xffffffffull; q = q * 3 + 1) {
                uint32_t nb = nbs[a], p = gmb_block_pick(keys[k], (uint32_t)q, nb);
                uint64_t prod = (uint64_t)ref_hash(keys[k], (uint32_t)q) * nb;
                assert_true(p < nb);
                assert_true((uint64_t)p << 32 <= prod);
                assert_true(prod < ((uint64_t)p + 1) << 32);
            }
    assert_int_equal(gmb_block_pick(12345u, 678u, 1), 0); /* one block: always it */
}

/* chi-square of counts against a uniform expectation */
static double chi2(const unsigned *count, size_t cells, double expect)
{
    double x = 0;
    for (size_t i = 0; i < cells; i++)
        x += (count[i] - expect) * (count[i] - expect) / expect;
    return x;
}

/* a pass of nb picks (blocks 0..nb-1 each placed once): with replacement, 1 - 1/e of the
 * blocks distinct; the picks spread evenly (64 cells), a pick independent of its
 * predecessor's (8 x 8 cells), another key another placement */
static void picks_uniform_with_replacement(void **state)
{
    (void)state;
    const uint32_t nbs[] = {65536, 50000, 1u << 20};
    for (size_t a = 0; a < sizeof nbs / sizeof *nbs; a++) {
        uint32_t nb = nbs[a], key = 0x6a09e667u, prev = 0;
        unsigned char *seen = calloc(nb, 1);
        unsigned cell[64] = {0}, pair[64] = {0};
        size_t distinct = 0, same = 0;
        assert_non_null(seen);
        for (uint32_t q = 0; q < nb; q++) {
            uint32_t p = gmb_block_pick(key, q, nb);
            distinct += !seen[p];
            seen[p] = 1;
            unsigned c = (unsigned)((uint64_t)p * 64 / nb);
            cell[c]++;
            if (q)
                pair[(prev % 8) * 8 + c % 8]++;
            prev = c;
            same += gmb_block_pick(key + 1, q, nb) == p;
        }
        free(seen);
        double share = (double)distinct / nb;
        assert_true(share > 0.625 && share < 0.640); /* 1 - 1/e = 0.632 */
        /* 63 degrees of freedom: mean 63, sd 11.2; 120 is 5 sd */
        assert_true(chi2(cell, 64, nb / 64.0) < 120);
        assert_true(chi2(pair, 64, (nb - 1) / 64.0) < 120);
        assert_true(same < nb / 1000 + 10); /* 1 in nb by chance */
    }
}

/* the word a read reads: the same word of the picked block; in order, itself */
static void block_word(void **state)
{
    (void)state;
    const uint32_t lbs[] = {0, 1, 3, 5, 14};
    const uint32_t key = 0xb5ad4eceu;
    for (size_t a = 0; a < sizeof lbs / sizeof *lbs; a++) {
        uint32_t lb = lbs[a], bw = 1u << lb, nb = 3000 + lb;
        uint64_t n = (uint64_t)nb << lb;
        for (uint64_t w = 0; w < n; w += 1 + w / 7) {
            uint64_t x = gmb_block_word(w, lb, key, nb, 0);
            assert_true(x < n);
            assert_true((x & (bw - 1)) == (w & (bw - 1)));
            assert_true(x >> lb == gmb_block_pick(key, (uint32_t)(w >> lb), nb));
            assert_true(gmb_block_word(w, lb, key, nb, ~0u) == w);
        }
        /* a block's words stay together, in order: neighbouring work-items, neighbouring words */
        uint64_t base = gmb_block_word((uint64_t)17 << lb, lb, key, nb, 0);
        for (uint32_t r = 0; r < bw; r++)
            assert_true(gmb_block_word(((uint64_t)17 << lb) + r, lb, key, nb, 0) == base + r);
    }
    /* the largest buffer: 2^32 - 1 words of 4-byte blocks, the last read; 16 KiB words (64
     * KiB blocks) past 2^32 words would be refused, but the index is 64-bit anyway */
    uint32_t nb = 0xffffffffu;
    assert_true(gmb_block_word(nb - 1ull, 0, key, nb, 0) < nb);
    assert_true(gmb_block_word(nb - 1ull, 0, key, nb, ~0u) == nb - 1ull);
    assert_true(gmb_block_word(((uint64_t)262143 << 14) + 5, 14, key, 262144, ~0u) ==
                ((uint64_t)262143 << 14) + 5);
}

/* the vector accesses (words 2^lw: gmb_access_lw, 1 for 4-byte blocks, 2 for 8, 4 from 16):
 * vector v's words are those the word placement reads for words v x 2^lw + k, written out
 * here with a multiply (p x 2^lb + w mod 2^lb, p the block pick of w div 2^lb), for every
 * width and in order */
static void block_vec(void **state)
{
    (void)state;
    const uint32_t lbs[] = {0, 1, 2, 3, 5, 14};
    const uint32_t lws[] = {0, 1, 2, 2, 2, 2};
    const uint32_t key = 0x243f6a88u;
    for (size_t a = 0; a < sizeof lbs / sizeof *lbs; a++) {
        uint32_t lb = lbs[a], lw = gmb_access_lw(lb), lbv = lb - lw, nb = 2999 + lb;
        assert_int_equal(lw, lws[a]);
        uint64_t nvec = (uint64_t)nb << lbv;
        for (uint64_t v = 0; v < nvec; v += 1 + v / 5) {
            uint64_t d = gmb_block_vec(v, lbv, key, nb, 0) << lw;
            assert_true(gmb_block_vec(v, lbv, key, nb, ~0u) == v); /* in order: itself */
            for (uint32_t k = 0; k < 1u << lw; k++) {
                uint64_t w = (v << lw) + k;
                uint64_t p = (uint64_t)ref_hash(key, (uint32_t)(w >> lb)) * nb >> 32;
                assert_true(d + k == p * ((uint64_t)1 << lb) + w % ((uint64_t)1 << lb));
            }
        }
    }
}

/* what random-write writes: per 4-word group one hash, the word's place in it times the
 * golden ratio's 32 bits added (the uint4 kernel's h, h + s, h + 2s, h + 3s; the uint2
 * kernel's halves of it), a function of the word alone */
static void write_value(void **state)
{
    (void)state;
    const uint32_t seeds[] = {0, 0xbb67ae85u};
    for (size_t a = 0; a < 2; a++)
        for (uint64_t d = 0; d < 0xffffffffull; d = d * 5 + 3) {
            uint32_t want =
                ref_hash(seeds[a], (uint32_t)(d >> 2)) + (uint32_t)(d & 3) * 0x9e3779b9u;
            assert_int_equal(gmb_write_value(seeds[a], d), want);
        }
    /* the words of a group differ, and differ from the next group's first */
    assert_true(gmb_write_value(7, 4) != gmb_write_value(7, 5));
    assert_true(gmb_write_value(7, 7) != gmb_write_value(7, 8));
}

/* the block of full bandwidth: the first from which every later share reaches 0.9 */
static void held_from(void **state)
{
    (void)state;
    const double rising[] = {0.1, 0.3, 0.7, 0.92, 0.99, 1.0};
    assert_int_equal(gmb_curve_held_from(rising, 6, 0.9), 3);
    const double dip[] = {0.1, 0.95, 0.85, 0.93, 0.97}; /* touches 0.9, falls back */
    assert_int_equal(gmb_curve_held_from(dip, 5, 0.9), 3);
    const double exact[] = {0.5, 0.9, 0.9};
    assert_int_equal(gmb_curve_held_from(exact, 3, 0.9), 1); /* reaching is enough */
    const double never[] = {0.1, 0.5, 0.95, 0.8};
    assert_int_equal(gmb_curve_held_from(never, 4, 0.9), 4); /* the last falls short */
    const double all[] = {0.91, 1.2};
    assert_int_equal(gmb_curve_held_from(all, 2, 0.9), 0);
    const double holes[] = {0.2, 0.95, NAN, 0.96, NAN};
    assert_int_equal(gmb_curve_held_from(holes, 5, 0.9), 1); /* failed points skipped */
    const double hole_first[] = {0.2, NAN, 0.96};
    assert_int_equal(gmb_curve_held_from(hole_first, 3, 0.9), 2); /* never a NaN's index */
    const double none[] = {NAN, NAN};
    assert_int_equal(gmb_curve_held_from(none, 2, 0.9), 2);
    assert_int_equal(gmb_curve_held_from(none, 0, 0.9), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pick_is_scaled_hash), cmocka_unit_test(picks_uniform_with_replacement),
        cmocka_unit_test(block_word),          cmocka_unit_test(block_vec),
        cmocka_unit_test(write_value),         cmocka_unit_test(held_from),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
