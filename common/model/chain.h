/* chain.h - pointer-chase chains: random single cycles (Sattolo; incremental random orders),
 * sequential strides and page strides, laid out as 4-byte words where each holds the next. */
#ifndef GMB_CHAIN_H
#define GMB_CHAIN_H

#include <stddef.h>
#include <stdint.h>

/* Where the elements of a chain sit in a buffer of 4-byte words. Element e of a plain chain
 * is at word e * stride_words; with pages (page_words > 0) element e is the line
 * (e mod lines per page) of page e, so that consecutive pages use different cache sets. */
typedef struct gmb_chain_layout {
    uint64_t stride_words; /* words from one element to the next (line size / 4) */
    uint64_t page_words;   /* words per page; 0: no pages */
} gmb_chain_layout_t;

/* Word offset of element e. */
static inline uint64_t gmb_chain_word(const gmb_chain_layout_t *l, uint64_t e)
{
    if (l->page_words)
        return e * l->page_words + (e % (l->page_words / l->stride_words)) * l->stride_words;
    return e * l->stride_words;
}

/* A random order of 0..n-1 grown one element at a time (inside-out Fisher-Yates): after
 * growing to n, order[0..n) is a uniformly random permutation of 0..n-1, whatever sizes it
 * was grown through. The cycle order[0] -> order[1] -> ... -> order[n-1] -> order[0] is then
 * a uniformly random single cycle (the distribution of Sattolo's algorithm), so one array
 * serves every working set of an ascending sweep in O(largest n) in all. */
typedef struct gmb_chain_order {
    uint32_t *order; /* order[0..n) */
    size_t n;        /* elements so far */
    size_t cap;      /* most elements */
    uint64_t rng;    /* generator state (splitmix64) */
} gmb_chain_order_t;

/* Allocate room for cap elements (cap < 2^32) and start empty. 0, GMB_EUSAGE or GMB_ERUNTIME. */
int gmb_chain_order_init(gmb_chain_order_t *o, size_t cap, uint64_t seed);
/* Grow to n elements (n <= cap; smaller n than now: nothing). 0 or GMB_EUSAGE. */
int gmb_chain_order_grow(gmb_chain_order_t *o, size_t n);
void gmb_chain_order_free(gmb_chain_order_t *o);

/* Sattolo's algorithm: next[] becomes a uniformly random cyclic permutation of 0..n-1 (one
 * cycle through all n; n == 1: next[0] = 0). 0 or GMB_EUSAGE (n == 0 or n >= 2^32). */
int gmb_chain_sattolo(uint32_t *next, size_t n, uint64_t seed);
/* next[order[k]] = order[(k + 1) mod n]: the successor array of the cycle an order walks. */
void gmb_chain_next_from_order(const uint32_t *order, size_t n, uint32_t *next);

/* 1 when next[] is one cycle through all n elements (every index < n, visited once, back to
 * the start after n steps), else 0. O(n) time, no memory. */
int gmb_chain_is_full_cycle(const uint32_t *next, size_t n);
/* 1 when order[0..n) is a permutation of 0..n-1, 0 when not, GMB_ERUNTIME without memory.
 * O(n) with independent accesses only (a bitmap), so cheap even for 2^30 elements. */
int gmb_chain_is_permutation(const uint32_t *order, size_t n);

/* Lay a chain of n elements out in words[0..nwords): words[word(e)] = word(next element).
 * order NULL: the sequential chain 0 -> 1 -> ... -> n-1 -> 0; else the cycle of order.
 * Other words are left alone. 0 or GMB_EUSAGE (a word beyond nwords or 2^32). */
int gmb_chain_fill(uint32_t *words, size_t nwords, const gmb_chain_layout_t *l,
                   const uint32_t *order, size_t n);
/* Follow a laid-out chain from word start for steps loads; returns the word reached. */
uint32_t gmb_chain_walk(const uint32_t *words, uint32_t start, uint64_t steps);

#endif
