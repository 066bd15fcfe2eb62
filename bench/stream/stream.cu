/* stream.cu - the CUDA build of stream.cl: the same kernels, once per element width. */
#include "backend/backend.h"
#include "kernels/gmb_kernels.h"

namespace w4
{
#define GMB_LANES 1
#include "stream.cl"
#undef GMB_LANES
} // namespace w4
namespace w8
{
#define GMB_LANES 2
#include "stream.cl"
#undef GMB_LANES
} // namespace w8
namespace w16
{
#define GMB_LANES 4
#include "stream.cl"
#undef GMB_LANES
} // namespace w16
namespace w16p /* 16-byte loads with the L2 256-byte prefetch hint (--l2-prefetch) */
{
#define GMB_LANES       4
#define GMB_L2_PREFETCH 1
#include "stream.cl"
#undef GMB_L2_PREFETCH
#undef GMB_LANES
} // namespace w16p
namespace w16a /* the same inline-asm loads without the hint: --l2-prefetch's control */
{
#define GMB_LANES       4
#define GMB_L2_PREFETCH 0
#include "stream.cl"
#undef GMB_L2_PREFETCH
#undef GMB_LANES
} // namespace w16a
namespace w16s /* --evict-first stores: st.global.cs */
{
#define GMB_LANES       4
#define GMB_EVICT_FIRST 1
#include "stream.cl"
#undef GMB_EVICT_FIRST
#undef GMB_LANES
} // namespace w16s
namespace w16e /* --evict-first all: ld.global.cs and st.global.cs */
{
#define GMB_LANES       4
#define GMB_EVICT_FIRST 2
#include "stream.cl"
#undef GMB_EVICT_FIRST
#undef GMB_LANES
} // namespace w16e
namespace w16t /* the tiled layout of the element-wise kernels (--tiled, and tuning) */
{
#define GMB_LANES 4
#define GMB_TILED 1
#include "stream.cl"
#undef GMB_TILED
#undef GMB_LANES
} // namespace w16t
namespace w16l /* the lockstep layout: the tiled one, a group barrier after each tile (tuning) */
{
#define GMB_LANES    4
#define GMB_TILED    1
#define GMB_LOCKSTEP 1
#include "stream.cl"
#undef GMB_LOCKSTEP
#undef GMB_TILED
#undef GMB_LANES
} // namespace w16l
/* the flat layout: one pass, J elements a work-item, no loop (tuning; J = 1 BabelStream's) */
namespace w16f1
{
#define GMB_LANES 4
#define GMB_FLAT  1
#include "stream.cl"
#undef GMB_FLAT
#undef GMB_LANES
} // namespace w16f1
namespace w16f4
{
#define GMB_LANES 4
#define GMB_FLAT  4
#include "stream.cl"
#undef GMB_FLAT
#undef GMB_LANES
} // namespace w16f4
namespace w16f16
{
#define GMB_LANES 4
#define GMB_FLAT  16
#include "stream.cl"
#undef GMB_FLAT
#undef GMB_LANES
} // namespace w16f16
namespace w16f64
{
#define GMB_LANES 4
#define GMB_FLAT  64
#include "stream.cl"
#undef GMB_FLAT
#undef GMB_LANES
} // namespace w16f64

namespace w16d /* the dynamic layout: groups claim chunks from a counter (--dynamic, tuning) */
{
#define GMB_LANES   4
#define GMB_DYNAMIC 1
#include "stream.cl"
#undef GMB_DYNAMIC
#undef GMB_LANES
} // namespace w16d

#define STREAM_FNS(ns, v)                                                                          \
    {v, "stream_init", (const void *)ns::stream_init},                                             \
        {v, "stream_fill", (const void *)ns::stream_fill},                                         \
        {v, "stream_copy", (const void *)ns::stream_copy},                                         \
        {v, "stream_scale", (const void *)ns::stream_scale},                                       \
        {v, "stream_add", (const void *)ns::stream_add},                                           \
        {v, "stream_triad", (const void *)ns::stream_triad},                                       \
        {v, "stream_read", (const void *)ns::stream_read},                                         \
    {                                                                                              \
        v, "stream_dot", (const void *)ns::stream_dot                                              \
    }

extern "C" const gmb_cuda_fn_t gmb_bench_cuda_fns[] = {
    STREAM_FNS(w4, "w4"),         STREAM_FNS(w8, "w8"),         STREAM_FNS(w16, "w16"),
    STREAM_FNS(w16p, "w16p"),     STREAM_FNS(w16a, "w16a"),     STREAM_FNS(w16s, "w16s"),
    STREAM_FNS(w16e, "w16e"),     STREAM_FNS(w16t, "w16t"),     STREAM_FNS(w16d, "w16d"),
    STREAM_FNS(w16l, "w16l"),     STREAM_FNS(w16f1, "w16f1"),   STREAM_FNS(w16f4, "w16f4"),
    STREAM_FNS(w16f16, "w16f16"), STREAM_FNS(w16f64, "w16f64"), {NULL, NULL, NULL}};
