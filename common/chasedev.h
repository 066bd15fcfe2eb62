/* chasedev.h - what the pointer-chase benchmarks (gmb-chase, gmb-loaded) share on the device
 * side: laying a chain out and checking it there (the kernels of gmb_chain_kernels.h), and
 * calibrating a chase launch (timed loads and the baseline without them). */
#ifndef GMB_CHASEDEV_H
#define GMB_CHASEDEV_H

#include "model/chain.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"

/* The grid of the kernels that make and check a chain of n elements: one element a
 * work-item, groups of 256 (or the device's most), at most 64 groups a compute unit
 * (grid-stride beyond). */
gmb_launch_t gmb_chain_grid(const gmb_ctx_t *c, uint64_t n);

/* Lay the chain of n elements out on the device in chain (chase_build from prog) and check
 * every element there (chase_check; bad: a device word it may set): order NULL is the
 * sequential chain, else the cycle of order, which must be a permutation (checked on the
 * host) and is written to order_d. 0, GMB_EVERIFY with the reason in err, or the backend's
 * error. */
int gmb_chain_lay_out(gmb_ctx_t *c, gmb_prog_t *prog, gmb_buf_t *chain, gmb_buf_t *order_d,
                      gmb_buf_t *bad, const uint32_t *order, uint64_t n,
                      const gmb_chain_layout_t *lay, char *err, size_t errlen);

/* The baseline of a chase launch: 5 launches of fn(arg) with *steps set to 0 (restored after),
 * and *base_ns becomes the fastest of them (a launch is only ever slowed down, by preemption
 * on a shared CPU for one), or, with keep, the fastest of them and the baseline so far (one
 * taken while the device or the host was still warming up gives way). fn reports a launch's
 * time less *base_ns, as a chase's sample function does. 0 or fn's error (*base_ns kept). */
int gmb_chase_baseline(gmb_sample_fn fn, void *arg, gmb_u32 *steps, double *base_ns, int keep);

/* gmb_chase_baseline with keep, for a point under way: the series of keep[0..nkeep) (at most 8),
 * which fn pushes a value to per launch, keep their lengths (the baseline's launches are no
 * samples). 0 or fn's error. */
int gmb_chase_rebaseline(gmb_sample_fn fn, void *arg, gmb_u32 *steps, double *base_ns,
                         gmb_series_t *const *keep, int nkeep);

/* Calibrate a chase launch whose sample function fn(arg) times *steps timed loads after warm
 * untimed ones and subtracts *base_ns. Timed loads: fixed when fixed > 0, else enough for
 * min_sample_us (and 1000 timer ticks), at least twice the warm-up ones and 1024, at most
 * max_steps. Baseline: the fastest of 5 launches with the warm-up loads only (launch overhead
 * and warm-up; the fastest, since a launch is only ever slowed down, by preemption on a shared
 * CPU for one), measured after the calibration launches have warmed everything up. Then, when
 * not fixed, the timed loads grow until their own time reaches the target and the baseline
 * itself, so that the baseline's noise cannot swamp a sample. 0 or fn's error. */
int gmb_chase_calibrate(const gmb_ctx_t *c, gmb_sample_fn fn, void *arg, gmb_u32 warm,
                        gmb_u32 *steps, double *base_ns, double min_sample_us, gmb_u32 fixed,
                        gmb_u32 max_steps);

/* A chase launch faster than its baseline (time less baseline <= 0) is a timer glitch (seen
 * on loaded CPUs), repeated; again and again, the baseline has drifted (a CPU's clock or
 * thread pool, a GPU's clocks) and is measured again (at most 3 times; then such a sample is
 * kept). One guard per point; gmb_chase_settle puts every sample against the final baseline. */
typedef struct gmb_chase_guard {
    int budget;   /* glitches still repeated before the baseline is measured again */
    int glitches; /* launches repeated */
    int rebases;  /* baselines measured again */
} gmb_chase_guard_t;
#define GMB_CHASE_GUARD_INIT ((gmb_chase_guard_t){16, 0, 0})
typedef enum { GMB_CHASE_KEEP, GMB_CHASE_REPEAT, GMB_CHASE_REBASE } gmb_chase_verdict_t;

/* What to do with a launch of steps timed loads whose time less the baseline is ns: keep it,
 * repeat it (a glitch), or measure the baseline again (gmb_chase_baseline with keep) and
 * repeat it. Launches without timed loads (the baseline's own) are always kept. */
gmb_chase_verdict_t gmb_chase_judge(gmb_chase_guard_t *g, gmb_u32 steps, double ns);

/* After gmb_measure of a point whose baseline was measured again: each sample of ser (the last
 * ser->n launches of raw, whole launch times) against the final baseline base_ns, and its
 * statistics again. Nothing when g->rebases is 0. 0 or an error. */
int gmb_chase_settle(const gmb_ctx_t *c, const gmb_chase_guard_t *g, const gmb_series_t *raw,
                     double base_ns, gmb_series_t *ser);

#endif
