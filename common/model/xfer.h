/* xfer.h - pure helpers of transfer benchmarks: PCIe nominal bandwidth, which chunks of a
 * destination verification reads, the largest default transfer size. */
#ifndef GMB_XFER_H
#define GMB_XFER_H

#include <stddef.h>
#include <stdint.h>

/* Nominal bandwidth of one PCIe lane in one direction, GB/s (1e9 B/s), after line coding:
 * gen1 0.25, gen2 0.5 (8b/10b), gen3 0.985, gen4 1.969, gen5 3.938 (128b/130b); 0 for any
 * other generation (unknown). */
double gmb_pcie_lane_gbps(int gen);
/* Nominal bandwidth of a link of width lanes in one direction, GB/s; 0 when gen or width is
 * unknown (<= 0, or a generation gmb_pcie_lane_gbps does not know). */
double gmb_pcie_gbps(int gen, int width);

/* One byte range a verification reads. */
typedef struct gmb_span {
    uint64_t off;   /* first byte */
    uint64_t bytes; /* length */
} gmb_span_t;

/* The ranges of a bytes-long buffer to verify: the whole buffer when bytes <= full_bytes
 * (returns 1), else up to nchunks chunks of chunk_bytes: the first, the last, and chunk-aligned
 * pseudo-random ones between chosen from seed (de-duplicated, ascending). At most max spans
 * are written to out; returns how many were, 0 when bytes or max is 0 or chunk_bytes is 0
 * while a chunked choice is needed. */
size_t gmb_verify_spans(uint64_t bytes, uint64_t full_bytes, uint64_t chunk_bytes, unsigned nchunks,
                        uint32_t seed, gmb_span_t *out, size_t max);

/* The largest default transfer: want, capped at a quarter of the device's memory, a quarter
 * of the host's RAM and the largest allocation (each cap ignored when 0), rounded down to
 * align bytes (a power of two). 0 when nothing is left. */
uint64_t gmb_xfer_top(uint64_t want, uint64_t dev_mem, uint64_t host_ram, uint64_t max_alloc,
                      uint64_t align);

#endif
