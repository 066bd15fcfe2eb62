/* backend.h - the vendor seam: one table of functions, filled by CUDA and by OpenCL. */
#ifndef GMB_BACKEND_H
#define GMB_BACKEND_H

#include <stddef.h>
#include <stdint.h>

typedef struct gmb_dev gmb_dev_t;   /* an opened device: context, queue/stream, events */
typedef struct gmb_buf gmb_buf_t;   /* memory owned by a device (or host memory it can see) */
typedef struct gmb_prog gmb_prog_t; /* a benchmark's kernels, loaded for one variant */
typedef struct gmb_kern gmb_kern_t; /* one kernel of a program (owned by the program) */

/* Kinds of memory; a backend that lacks one returns GMB_ESKIP from alloc. */
typedef enum {
    GMB_MEM_DEVICE = 0,    /* device memory (cudaMalloc, clCreateBuffer) */
    GMB_MEM_HOST_PAGEABLE, /* malloc'd host memory */
    GMB_MEM_HOST_PINNED,   /* page-locked host memory */
    GMB_MEM_HOST_MAPPED,   /* pinned host memory mapped into the device's address space */
    GMB_MEM_MANAGED,       /* unified / shared virtual memory */
} gmb_mem_kind_t;

/* Capability bits of a device (gmb_dev_info_t.caps). */
#define GMB_CAP_CLOCK     (1u << 0) /* kernels can read a cycle counter (clock64) */
#define GMB_CAP_PINNED    (1u << 1) /* page-locked host memory */
#define GMB_CAP_MANAGED   (1u << 2) /* managed memory with migration */
#define GMB_CAP_PEER      (1u << 3) /* peer access to another device */
#define GMB_CAP_L2_POLICY (1u << 4) /* L2 persisting access-policy windows */
#define GMB_CAP_NVIDIA    (1u << 5) /* an NVIDIA GPU (NVML may describe it) */
#define GMB_CAP_MAPPED                                                                             \
    (1u << 6) /* kernels may use GMB_MEM_HOST_MAPPED memory (CUDA:                                 \
                 canMapHostMemory; OpenCL: host-unified memory, since                              \
                 OpenCL 1.2 leaves kernels on a mapped buffer undefined) */
#define GMB_CAP_UM_FAULTS                                                                          \
    (1u                                                                                            \
     << 7) /* managed memory moves page by page on demand while the host may use it (CUDA:         \
              concurrentManagedAccess); without it a backend moves whole buffers when it likes */
#define GMB_CAP_PREFETCH                                                                           \
    (1u << 8) /* managed memory can be moved explicitly (CUDA: cudaMemPrefetchAsync with           \
                 concurrentManagedAccess; OpenCL 2.1: clEnqueueSVMMigrateMem) */
#define GMB_CAP_ADVISE                                                                             \
    (1u << 9) /* advice on managed memory (CUDA: cudaMemAdvise with concurrentManagedAccess) */
#define GMB_CAP_CLUSTER                                                                            \
    (1u << 11) /* groups launch in clusters whose members reach each other's shared memory         \
                  (CUDA: thread-block clusters and distributed shared memory, cudaDevAttrCluster-  \
                  Launch, compute capability 9.0 on; OpenCL: never) */
#define GMB_CAP_SYSTEM_MEM                                                                         \
    (1u << 10) /* kernels may use plain malloc'd memory (GMB_MEM_HOST_PAGEABLE) (CUDA:             \
                  pageableMemoryAccess, HMM or ATS; OpenCL: fine-grained system SVM) */
#define GMB_CAP_GRANULE                                                                            \
    (1u << 12) /* the driver gives the allocation granularity (alloc_granularity_bytes) */
#define GMB_CAP_HOST_UNIFIED                                                                       \
    (1u << 13) /* the device's memory is the host's, so managed memory has nothing to move         \
                  (OpenCL: CL_DEVICE_HOST_UNIFIED_MEMORY; CUDA: never set) */

/* What a backend is (gmb_backend_kind_t.traits). Code outside the backends reads these, and
 * the text the backend supplies, never its name: as fio's I/O engines declare behaviour
 * flags that its shared code tests. */
#define GMB_BE_PTX                                                                                 \
    (1u << 0) /* kernels use inline PTX: cache operators (ld.global.cg, which bypasses L1;         \
                 .ca, .cs), the L2 prefetch hint, the SM clock and %smid */
#define GMB_BE_LINKED                                                                              \
    (1u << 1) /* kernels are linked into the program (nvcc): a benchmark's own host code           \
                 (constant-memory symbols, cache preference, access-policy windows, partition      \
                 kernels) acts on them */
#define GMB_BE_ADDR_HOLD                                                                           \
    (1u << 2) /* an address a kernel stores in device memory holds in later launches, and a        \
                 kernel may store one of shared memory (generic addressing); else addresses        \
                 must live in shared virtual memory */
#define GMB_BE_GPU_KNOWN                                                                           \
    (1u << 3) /* its GPUs' hierarchy is known: global loads through L1, then the L2, then DRAM     \
                 (levels.h) */
#define GMB_BE_PEER_KERNEL                                                                         \
    (1u << 4) /* a kernel of one device of a pair reads and writes the other's memory in place     \
                 (CUDA peer access); else only copies cross between the devices (OpenCL: the       \
                 implementation moves a kernel's buffers to its device) */
#define GMB_BE_PEER_PULL                                                                           \
    (1u << 5) /* a copy between the devices of a pair runs on the destination device's queue       \
                 (OpenCL: the source is migrated to its own device first); else on the source      \
                 device's stream (CUDA: the source pushes over the link) */

/* A backend gmb knows, compiled in or not (a record from another machine names it). */
typedef struct gmb_backend_kind {
    const char *name;  /* "cuda", "opencl": --backend and device.backend */
    const char *label; /* "CUDA", "OpenCL": tables */
    unsigned traits;   /* GMB_BE_* */
} gmb_backend_kind_t;
extern const gmb_backend_kind_t gmb_kind_cuda, gmb_kind_opencl;
/* The kind named name (a backend's or a record's device.backend); NULL when gmb knows none. */
const gmb_backend_kind_t *gmb_backend_kind(const char *name);
/* The choices of --backend: "auto|cuda|opencl". */
const char *gmb_backend_choices(void);

/* Streams (CUDA) / in-order queues (OpenCL) of an opened device. Stream 0 is the one the
 * blocking calls (write, read, fill, copy, launch) use; work on different streams may run at
 * the same time (e.g. a host-to-device and a device-to-host copy on two copy engines). */
#define GMB_STREAMS 2

/* What a device is; everything `gmb devices` prints and a record stores. */
typedef struct gmb_dev_info {
    char backend[16];                 /* "cuda" or "opencl" */
    int index;                        /* index within the backend (--device) */
    char name[256];                   /* device name */
    char vendor[128];                 /* vendor name */
    char type[16];                    /* "gpu", "cpu", "accelerator", "other" */
    char platform[128];               /* OpenCL platform name; "CUDA" for CUDA */
    char driver_version[64];          /* driver version */
    char runtime_version[64];         /* CUDA runtime / OpenCL version of the device */
    char arch[32];                    /* "sm_90" or the OpenCL device version */
    char pci_bus_id[32];              /* "0000:17:00.0", "" when unknown */
    char serial[32];                  /* the board's serial number (NVML), "" when unknown */
    char board_part[64];              /* the board's part number (NVML), "" when unknown */
    uint64_t mem_bytes;               /* global memory */
    uint64_t max_alloc_bytes;         /* largest single allocation */
    uint64_t llc_bytes;               /* last-level cache the device reports (L2), 0 unknown */
    uint64_t local_mem_bytes;         /* most shared/local memory one work-group can have */
    uint64_t alloc_granularity_bytes; /* the device's allocation granularity (CUDA:
                                         cuMemGetAllocationGranularity, minimum, pinned device
                                         memory); 0 unknown (OpenCL has no such query) */
    char local_mem_type[16];          /* "dedicated" (on-chip), "global" (emulated), "" unknown */
    int compute_units;                /* SMs / compute units */
    int max_group_size;               /* most work-items per group */
    int threads_per_cu;               /* most resident threads per CU, 0 unknown */
    int warp_size;                    /* warp / wavefront / SIMD width, 0 unknown */
    int core_clock_mhz;               /* peak core clock, 0 unknown */
    int mem_clock_mhz;                /* peak memory clock, 0 unknown */
    int bus_width_bits;               /* memory bus width, 0 unknown */
    double peak_bw_gbps;              /* nominal peak = 2 x mem clock x bus width / 8; 0 unknown */
    char timer[128];                  /* what device times are taken with */
    char peak_source[224];            /* the inputs of peak_bw_gbps, or why it is unknown */
    int peak_given;                   /* peak_bw_gbps was given (--peak-bw), not derived */
    char mem_type[32];                /* guess: "HBM", "GDDR/LPDDR/DDR", "unknown" */
    int ecc;                          /* 1 on, 0 off, -1 unknown */
    double timer_res_ns;              /* resolution of the device event timer */
    char managed[128];    /* what GMB_MEM_MANAGED is here ("" when the device has none) */
    char system_mem[128]; /* how kernels reach plain malloc'd memory ("": they cannot) */
    unsigned caps;        /* GMB_CAP_* */
} gmb_dev_info_t;

/* Advice on managed memory (backend table: advise). */
typedef enum {
    GMB_ADVISE_RESET = 0,     /* none: read-mostly, preferred location and accessed-by unset */
    GMB_ADVISE_READ_MOSTLY,   /* read-mostly: a reader gets its own copy, writers invalidate them */
    GMB_ADVISE_HOST_ACCESSED, /* prefer the host, accessed by the device: the device reads and
                                 writes host memory in place, nothing migrates */
    GMB_ADVISE_PREFER_DEVICE, /* prefer the device: evicted to the host only under pressure */
} gmb_advice_t;

/* One kernel argument. */
typedef enum { GMB_ARG_BUF, GMB_ARG_VAL } gmb_arg_kind_t;
typedef struct gmb_arg {
    gmb_arg_kind_t kind; /* buffer or plain value */
    size_t size;         /* bytes of the value (GMB_ARG_VAL) */
    const void *val;     /* the value (GMB_ARG_VAL) */
    gmb_buf_t *buf;      /* the buffer (GMB_ARG_BUF) */
} gmb_arg_t;
#define GMB_A_BUF(b) ((gmb_arg_t){GMB_ARG_BUF, 0, NULL, (b)})
#define GMB_A_VAL(v) ((gmb_arg_t){GMB_ARG_VAL, sizeof(v), &(v), NULL})

/* A 1-D launch: groups x group_size work-items. */
typedef struct gmb_launch {
    size_t groups;       /* work-groups / thread blocks */
    size_t group_size;   /* work-items per group */
    size_t shared_bytes; /* dynamic shared/local memory per group (GMB_DYN_SHARED in the kernel):
                            CUDA's launch parameter, OpenCL's __local argument after the others */
    size_t cluster;      /* groups per cluster (GMB_CAP_CLUSTER; groups a multiple of it); 0 or
                            1: none. A cluster the device cannot place makes launch return
                            GMB_ESKIP (one warning line), nothing run */
} gmb_launch_t;

/* A kernel compiled into the program by nvcc, found by (variant, name). */
typedef struct gmb_cuda_fn {
    const char *variant; /* e.g. "w16" */
    const char *name;    /* kernel name */
    const void *fn;      /* the __global__ function */
} gmb_cuda_fn_t;

/* An OpenCL build variant: the source is built once per variant with these options. */
typedef struct gmb_cl_variant {
    const char *variant; /* e.g. "w16" */
    const char *options; /* e.g. "-DGMB_LANES=4" */
} gmb_cl_variant_t;

/* A benchmark's kernels for both backends. */
typedef struct gmb_kernels {
    const char *cl_source;               /* embedded OpenCL C (prelude + bench .cl) */
    const gmb_cl_variant_t *cl_variants; /* {NULL} terminated */
    const gmb_cuda_fn_t *cuda_fns;       /* {NULL} terminated; NULL when CUDA was not built */
} gmb_kernels_t;

/* The backend table. Every function returns 0 or a negative GMB_E* code after logging
 * one line with file:line, the call and the vendor's error text. */
typedef struct gmb_backend {
    const gmb_backend_kind_t *kind; /* its name ("cuda", "opencl"), label and traits */
    const char *copy_api;           /* the calls of its copy-engine copies */
    const char *copy_pageable;      /* how it copies pageable host memory */
    /* Why a device of this backend lacks cap (one GMB_CAP_* bit), in words for a skip: never
     * NULL. */
    const char *(*lacks)(unsigned cap);
    /* Number of devices in *n; GMB_ESKIP with the reason in why when there is none. */
    int (*count)(int *n, char *why, size_t whylen);
    /* Describe device idx (0 <= idx < count). */
    int (*info)(int idx, gmb_dev_info_t *out);
    /* Open device idx: context, queue with profiling, timer events. */
    int (*open)(int idx, gmb_dev_t **out);
    void (*close)(gmb_dev_t *dev);
    /* Allocate bytes of memory of a kind; GMB_ESKIP when the kind is not supported. */
    int (*alloc)(gmb_dev_t *dev, gmb_mem_kind_t kind, size_t bytes, gmb_buf_t **out);
    void (*free)(gmb_buf_t *buf);
    /* Host pointer of host-visible memory (pinned, mapped, managed, pageable), else NULL. */
    void *(*host_ptr)(gmb_buf_t *buf);
    /* Blocking copies between host memory and a buffer, at a byte offset (a host kind is
     * copied by the host after the device's stream 0 is idle). */
    int (*write)(gmb_buf_t *dst, size_t off, const void *src, size_t bytes);
    int (*read)(gmb_buf_t *src, size_t off, void *dst, size_t bytes);
    /* Fill bytes of a buffer with a byte value (blocking); host kinds are set by the host. */
    int (*fill)(gmb_buf_t *buf, size_t off, unsigned char byte, size_t bytes);
    /* Timed buffer-to-buffer copy on stream 0 of dst's device, either side of any kind (host
     * kinds through the copy engine: CUDA cudaMemcpyAsync, OpenCL Read/WriteBuffer with the
     * host pointer); elapsed device time in *ns when ns != NULL. Blocking. */
    int (*copy)(gmb_buf_t *dst, size_t doff, gmb_buf_t *src, size_t soff, size_t bytes, double *ns);
    /* Load a benchmark's kernels for one variant (OpenCL: build; CUDA: look up). */
    int (*prog_load)(gmb_dev_t *dev, const gmb_kernels_t *k, const char *variant, gmb_prog_t **out);
    void (*prog_free)(gmb_prog_t *prog); /* NULL: nothing to do */
    /* Find a kernel of a loaded program. */
    int (*kern_get)(gmb_prog_t *prog, const char *name, gmb_kern_t **out);
    /* Launch and wait; device-event time of the kernel in *ns when ns != NULL. */
    int (*launch)(gmb_kern_t *k, const gmb_launch_t *cfg, const gmb_arg_t *args, int nargs,
                  double *ns);
    /* Most groups of group_size work-items (and shared_bytes of dynamic shared memory) of
     * this kernel that one compute unit keeps resident at once, in *groups; 0 when the API
     * cannot tell (OpenCL). */
    int (*kern_occupancy)(gmb_kern_t *k, size_t group_size, size_t shared_bytes, int *groups);

    /* ---- overlapping work, timed by device events --------------------------------------
     * A span brackets the work enqueued on one stream s (0 <= s < GMB_STREAMS) of a device
     * between span_begin and span_end: span_begin; copy_async / launch_async, as many as
     * wanted; span_end; then span_wait gives the device time of the span. Spans of several
     * streams may be open at once (one per stream); their times share one clock. A span must
     * hold at least one command. Between span_begin and span_wait, the buffers involved must
     * stay allocated and host memory unchanged. */
    /* Open a span on stream s of dev (a previous span there must have been waited for). */
    int (*span_begin)(gmb_dev_t *dev, int s);
    /* Enqueue a copy on stream s of dev without waiting for it: either side of any kind, on any
     * device (peer copies: dev is the device whose stream runs it). Host kinds go through
     * the copy engine like copy(). Pageable memory: CUDA stages it and returns only when the
     * copy is done (synchronous with respect to the host), OpenCL enqueues a non-blocking
     * Read/WriteBuffer (the implementation may stage it too). */
    int (*copy_async)(gmb_dev_t *dev, int s, gmb_buf_t *dst, size_t doff, gmb_buf_t *src,
                      size_t soff, size_t bytes);
    /* Enqueue a launch of k on stream s of its program's device without waiting. */
    int (*launch_async)(gmb_kern_t *k, int s, const gmb_launch_t *cfg, const gmb_arg_t *args,
                        int nargs);
    /* Close the span of stream s: work enqueued after this is not part of it. */
    int (*span_end)(gmb_dev_t *dev, int s);
    /* Wait until the span of stream s is done. *t0_ns, *t1_ns: its begin and end in ns, on a
     * device clock whose origin is the begin of stream 0's latest span (so spans of several
     * streams of one device can be compared: overlap, aggregate time); stream 0 must have a
     * span begun. CUDA: events recorded at begin and end; OpenCL: START of the span's first
     * command, END of its last (profiling counters are one device clock for all queues). */
    int (*span_wait)(gmb_dev_t *dev, int s, double *t0_ns, double *t1_ns);
    /* Let dev's kernels and copies reach peer's memory directly (CUDA: cudaDeviceCanAccessPeer,
     * cudaDeviceEnablePeerAccess; enabling twice is fine). 0 when enabled; GMB_ESKIP with the
     * reason in why when the pair cannot (OpenCL: never), nothing printed. */
    int (*peer_enable)(gmb_dev_t *dev, gmb_dev_t *peer, char *why, size_t whylen);
    /* Open devices a and b (a != b) anew, so that copies between their memories run: out[0] is
     * a, out[1] is b; the caller closes both (their buffers first). Buffers that one of them
     * allocates are that device's; copy_async between them runs on the stream named (see
     * GMB_BE_PEER_PULL for which device's); peer_path says how, for a record. CUDA: each
     * opened as open() does, peer access enabled both ways; OpenCL: one context over both,
     * each with its own queues. GMB_ESKIP with the reason in why, nothing printed, when the
     * pair cannot (CUDA: no peer access; OpenCL: two platforms); GMB_EUSAGE for a bad index. */
    int (*pair_open)(int a, int b, gmb_dev_t *out[2], char *why, size_t whylen);
    const char *peer_path; /* how copies between the devices of a pair move, in words */
    /* What the driver says of the path from device a to device b (CUDA:
     * cudaDeviceGetP2PAttribute): *rank, the link's relative performance rank
     * (cudaDevP2PAttrPerformanceRank), *atomics 1 when native atomics work over it. GMB_ESKIP
     * with the reason in why, nothing printed, where the API has no such query (OpenCL). */
    int (*peer_attrs)(int a, int b, int *rank, int *atomics, char *why, size_t whylen);

    /* ---- managed memory (GMB_MEM_MANAGED) ----------------------------------------------
     * CUDA managed memory (cudaMallocManaged) or OpenCL coarse-grained shared virtual memory
     * (clSVMAlloc). write/read/fill/copy and kernel arguments take it like device memory; the
     * host itself may touch host_ptr(buf) only between host_begin and host_end. host_begin and
     * host_end also take host kinds (they then only wait for the device). */
    /* Wait for every stream of the buffer's device, then hand its first bytes to the host
     * (OpenCL: blocking clEnqueueSVMMap of them for reading and writing; CUDA: nothing more,
     * pages move when the host touches them). Again before host_end: no more bytes. */
    int (*host_begin)(gmb_buf_t *buf, size_t bytes);
    /* Hand it back to the device on stream s (OpenCL: clEnqueueSVMUnmap there, part of an open
     * span: the implementation may move the data now; CUDA: nothing is enqueued). */
    int (*host_end)(gmb_buf_t *buf, int s);
    /* Enqueue on stream s a move of bytes at off to the device (to_host 0) or to the host,
     * part of an open span (CUDA: cudaMemPrefetchAsync; OpenCL: clEnqueueSVMMigrateMem).
     * GMB_ESKIP with the reason in why, nothing printed, when the device cannot. */
    int (*prefetch_async)(gmb_buf_t *buf, int s, size_t off, size_t bytes, int to_host, char *why,
                          size_t whylen);
    /* Advise on the whole buffer for its device (CUDA: cudaMemAdvise; RESET unsets the three).
     * GMB_ESKIP with the reason in why, nothing printed, when the backend has no advice. */
    int (*advise)(gmb_buf_t *buf, gmb_advice_t adv, char *why, size_t whylen);
    /* Device memory free now, in *bytes (CUDA: cudaMemGetInfo); GMB_ESKIP, nothing printed,
     * when the API cannot tell (OpenCL). */
    int (*mem_free)(gmb_dev_t *dev, uint64_t *bytes);

    /* ---- textures ------------------------------------------------------------------------
     * A read-only view of the first *words 32-bit words of a device buffer as a 1-D texture of
     * unsigned 32-bit texels, read through the texture path (CUDA: a texture object over linear
     * memory, tex1Dfetch; OpenCL: an image1d_buffer_t, read_imageui). Kernels take it like a
     * buffer (GMB_A_BUF); nothing else may use it; free() releases the view, not the buffer.
     * *words is lowered to the most texels the device allows. Writes to the buffer are seen by
     * later launches only. GMB_ESKIP with the reason in why, nothing printed, when the device
     * has no such textures (OpenCL: no image support) or buf is not device memory. */
    int (*texture)(gmb_buf_t *buf, size_t *words, gmb_buf_t **out, char *why, size_t whylen);

    /* The device's context for a vendor profiler (CUDA: the primary context, made current on
     * this thread, a CUcontext; CUPTI's counters, common/cupti.h) and the device's ordinal
     * there; GMB_ESKIP with the reason in why, nothing printed, where there is none (OpenCL:
     * CUPTI counts CUDA kernels only). */
    int (*profiler_ctx)(gmb_dev_t *dev, void **ctx, int *ordinal, char *why, size_t whylen);

    /* ---- allocation as an experiment (gmb-capacity) ------------------------------------- */
    /* Allocate as alloc does, but quietly: a refusal prints nothing and leaves the vendor's
     * words in why (the call, the bytes, its error text, name and code), for a program that
     * expects refusals (a bisection of the largest allocation, exhaustion). flags: GMB_ALLOC_*.
     * 0; GMB_ESKIP (the kind is not supported here) or GMB_ERUNTIME (refused), why set. */
    int (*alloc_quiet)(gmb_dev_t *dev, gmb_mem_kind_t kind, size_t bytes, unsigned flags,
                       gmb_buf_t **out, char *why, size_t whylen);
    /* The calls alloc and alloc_quiet make for a kind, in words for a record (e.g. "cudaMalloc";
     * OpenCL says that its buffers may be allocated at their first use); never NULL. */
    const char *(*alloc_api)(gmb_mem_kind_t kind);
} gmb_backend_t;

/* Flags of alloc_quiet. */
#define GMB_ALLOC_UNTOUCHED                                                                        \
    (1u << 0) /* no first touch by the backend (OpenCL touches device buffers, and the host        \
                 clears pinned ones, so that a failure shows at alloc): the caller times the       \
                 allocation alone, then its own first touch, where a lazy implementation (PoCL,    \
                 clCreateBuffer) really allocates, and may fail */

/* The backends compiled in, NULL-terminated, CUDA first. */
extern const gmb_backend_t *const gmb_backends[];
/* Look a backend up by name; NULL when unknown or not compiled in. */
const gmb_backend_t *gmb_backend_find(const char *name);
/* Where a working set of bytes lives on the device: "cache" (<= the last-level cache),
 * "dram" (>= 4x it, STREAM's rule), "transition" between, "unknown" without a cache size. */
const char *gmb_residence(const gmb_dev_info_t *d, uint64_t bytes);
/* Fill the derived fields of info (peak bandwidth text, memory type guess). */
void gmb_dev_info_derive(gmb_dev_info_t *info);
/* Take gbps (> 0) as the nominal peak (the user's --peak-bw, e.g. from a datasheet), keeping
 * what the driver gave in peak_source. */
void gmb_dev_info_give_peak(gmb_dev_info_t *info, double gbps);

#endif
