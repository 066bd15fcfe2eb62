/* bisect.c - gmb-capacity's bisection of the largest allocation: which size to try next, and
 * what an answer teaches (pure: no device, unit-tested in tests/unit/test_capacity.c). */
#include "capacity.h"

void cap_bisect_init(cap_bisect_t *b, uint64_t bound, uint64_t step, double res_frac)
{
    if (!step)
        step = 1;
    b->step = step;
    b->bound = bound / step * step;
    double r = res_frac > 0 ? res_frac * (double)b->bound : 0;
    uint64_t res = r < (double)UINT64_MAX / 2 ? (uint64_t)r / step * step : b->bound;
    b->res = res < step ? step : res;
    b->lo = 0;
    b->hi = b->bound + step;
    b->probes = 0;
}

uint64_t cap_bisect_next(const cap_bisect_t *b)
{
    if (!b->bound)
        return 0;
    if (!b->probes)
        return b->bound;
    if (b->hi <= b->lo || b->hi - b->lo <= b->res)
        return 0;
    uint64_t mid = (b->lo + (b->hi - b->lo) / 2) / b->step * b->step;
    if (mid <= b->lo)
        mid = b->lo + b->step;
    return mid < b->hi ? mid : 0;
}

void cap_bisect_report(cap_bisect_t *b, uint64_t size, int ok)
{
    /* sizes come from cap_bisect_next, inside (lo, hi): a success raises lo, a failure lowers
     * hi, and lo < hi stays */
    b->probes++;
    if (ok && size > b->lo && size < b->hi)
        b->lo = size;
    else if (!ok && size < b->hi && size > b->lo)
        b->hi = size;
}
