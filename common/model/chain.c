/* chain.c - pointer-chase chain builders and checkers (see chain.h). */
#include "model/chain.h"

#include "gmb.h"

#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound) (Lemire's multiply-shift; bias below bound / 2^64). */
static uint64_t below(uint64_t *s, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)splitmix64(s) * bound) >> 64);
}

int gmb_chain_order_init(gmb_chain_order_t *o, size_t cap, uint64_t seed)
{
    memset(o, 0, sizeof *o);
    if (!cap || cap > UINT32_MAX)
        return GMB_EUSAGE;
    o->order = malloc(cap * sizeof *o->order);
    if (!o->order)
        return GMB_ERUNTIME;
    o->cap = cap;
    o->rng = seed * 0x2545f4914f6cdd1dull + 1;
    return GMB_OK;
}

int gmb_chain_order_grow(gmb_chain_order_t *o, size_t n)
{
    if (n > o->cap)
        return GMB_EUSAGE;
    for (size_t i = o->n; i < n; i++) { /* inside-out: element i goes to a random place */
        size_t j = (size_t)below(&o->rng, (uint64_t)i + 1);
        o->order[i] = o->order[j];
        o->order[j] = (uint32_t)i;
    }
    if (n > o->n)
        o->n = n;
    return GMB_OK;
}

void gmb_chain_order_free(gmb_chain_order_t *o)
{
    free(o->order);
    memset(o, 0, sizeof *o);
}

int gmb_chain_sattolo(uint32_t *next, size_t n, uint64_t seed)
{
    if (!n || n > UINT32_MAX)
        return GMB_EUSAGE;
    uint64_t s = seed * 0x2545f4914f6cdd1dull + 7;
    for (size_t i = 0; i < n; i++)
        next[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) { /* j < i strictly: the one difference from a shuffle */
        size_t j = (size_t)below(&s, i);
        uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    return GMB_OK;
}

void gmb_chain_next_from_order(const uint32_t *order, size_t n, uint32_t *next)
{
    for (size_t k = 0; k < n; k++)
        next[order[k]] = order[k + 1 == n ? 0 : k + 1];
}

int gmb_chain_is_full_cycle(const uint32_t *next, size_t n)
{
    if (!n)
        return 0;
    uint64_t p = 0;
    for (size_t k = 1; k <= n; k++) {
        if (next[p] >= n)
            return 0;
        p = next[p];
        if (p == 0) /* back at the start: a full cycle only after exactly n steps */
            return k == n;
    }
    return 0; /* n steps without returning: 0 lies on a tail, not a cycle */
}

int gmb_chain_is_permutation(const uint32_t *order, size_t n)
{
    uint64_t *seen = calloc((n + 63) / 64 + 1, sizeof *seen);
    if (!seen)
        return GMB_ERUNTIME;
    int ok = 1;
    for (size_t k = 0; k < n && ok; k++) {
        uint32_t e = order[k];
        if (e >= n || (seen[e / 64] >> (e % 64) & 1))
            ok = 0;
        else
            seen[e / 64] |= 1ull << (e % 64);
    }
    free(seen);
    return ok;
}

int gmb_chain_fill(uint32_t *words, size_t nwords, const gmb_chain_layout_t *l,
                   const uint32_t *order, size_t n)
{
    if (!n || !l->stride_words || (l->page_words && l->page_words < l->stride_words))
        return GMB_EUSAGE;
    uint64_t last = gmb_chain_word(l, n - 1); /* the highest word of the chain */
    if (last >= nwords || last > UINT32_MAX)
        return GMB_EUSAGE;
    for (size_t k = 0; k < n; k++) {
        size_t k1 = k + 1 == n ? 0 : k + 1;
        uint64_t e = order ? order[k] : k, f = order ? order[k1] : k1;
        words[gmb_chain_word(l, e)] = (uint32_t)gmb_chain_word(l, f);
    }
    return GMB_OK;
}

uint32_t gmb_chain_walk(const uint32_t *words, uint32_t start, uint64_t steps)
{
    uint32_t p = start;
    for (uint64_t i = 0; i < steps; i++)
        p = words[p];
    return p;
}
