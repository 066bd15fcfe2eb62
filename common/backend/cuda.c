/* backend_cuda.c - the CUDA backend (runtime API, callable from C; kernels come from nvcc). */
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "backend/backend.h"
#include "backend/cuda_try.h"
#include "gmb.h"
#include "nvml.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct gmb_dev {
    int idx;
    cudaStream_t s;               /* stream 0: the blocking calls */
    cudaEvent_t t0, t1;           /* timing of the blocking calls */
    cudaStream_t xs[GMB_STREAMS]; /* streams of the spans; xs[0] == s */
    cudaEvent_t xb[GMB_STREAMS];  /* span begin events */
    cudaEvent_t xe[GMB_STREAMS];  /* span end events */
    int cma;                      /* cudaDevAttrConcurrentManagedAccess */
    atomic_int gate[GMB_STREAMS]; /* 0 while the gate host function of stream i holds it */
    int gated[GMB_STREAMS];       /* a gate of stream i is enqueued and not yet opened */
    int held[GMB_STREAMS];        /* commands enqueued behind that gate */
};

struct gmb_buf {
    gmb_dev_t *dev;
    gmb_mem_kind_t kind;
    void *ptr; /* device (or host) address */
    size_t bytes;
    cudaTextureObject_t tex; /* a texture view (texture()): the object; 0 for memory */
};

struct gmb_kern {
    gmb_prog_t *prog;
    const void *fn;
    size_t shared_optin; /* dynamic shared memory this kernel was allowed (above 48 KiB) */
};

#define MAX_KERNS 64
struct gmb_prog {
    gmb_dev_t *dev;
    int nk;
    gmb_kern_t kerns[MAX_KERNS];
    const char *names[MAX_KERNS];
};

/* Check a CUDA call: on failure log it (cuda_try.h) and return. */
#define CU_TRY(call) GMB_CU_TRY_OR(call, return GMB_ERUNTIME)

/* A timed sequence is enqueued behind a gate (a host function that spins until the host has
 * enqueued all of it), so that the start event and the work run back to back instead of the
 * start event firing at once on an idle stream while the host is still enqueueing (that gap,
 * microseconds per call, was counted as device time). No CUDA call inside, as required. */
static void CUDART_CB gate_fn(void *p)
{
    atomic_int *g = p;
    while (!atomic_load_explicit(g, memory_order_acquire))
        ;
}

/* The gate is opt-in while it has not run on a GPU: GMB_CUDA_GATE=1 (the record's
 * device.timer says which timing a run used). */
static int gate_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("GMB_CUDA_GATE");
        on = v && !strcmp(v, "1");
    }
    return on;
}

static int gate_close(gmb_dev_t *d, int s)
{
    if (!gate_on())
        return GMB_OK;
    atomic_store_explicit(&d->gate[s], 0, memory_order_relaxed);
    CU_TRY(cudaLaunchHostFunc(d->xs[s], gate_fn, &d->gate[s]));
    d->gated[s] = 1;
    d->held[s] = 0;
    return GMB_OK;
}

static void gate_open(gmb_dev_t *d, int s)
{
    if (d->gated[s]) {
        atomic_store_explicit(&d->gate[s], 1, memory_order_release);
        d->gated[s] = 0;
    }
}

/* Every stream's gate: before a call that waits for the device (a synchronisation, a UVM
 * migration, a pageable copy), since host functions of different streams may run in any
 * order, so one stream's gate may wait behind another's */
static void gates_open(gmb_dev_t *d)
{
    for (int i = 0; i < GMB_STREAMS; i++)
        gate_open(d, i);
}

/* A gate holds at most this many commands: behind a closed gate the stream's queue must never
 * fill, as a full queue blocks the host's next enqueue and the host would never open the gate
 * (a deadlock). Past it the gate opens and the rest is enqueued while the device runs. */
#define GATE_MAX_HELD 128
static void gate_count(gmb_dev_t *d, int s)
{
    if (d->gated[s] && ++d->held[s] >= GATE_MAX_HELD)
        gate_open(d, s);
}

/* a pageable copy synchronises its stream before it starts: it must not wait behind a gate */
static int pageable(const gmb_buf_t *a, const gmb_buf_t *b)
{
    return a->kind == GMB_MEM_HOST_PAGEABLE || b->kind == GMB_MEM_HOST_PAGEABLE;
}

static void version_text(int v, char *buf, size_t len)
{
    snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* Why cudaGetDeviceCount found nothing, in what is true of this machine. The runtime says
 * "driver version is insufficient" also where there is no driver at all (its version is then
 * 0), so the driver's parts are looked at: its library (libcuda.so.1) and its device nodes
 * (/dev/nvidiactl, /dev/nvidia0); with both, the driver's CUDA version against the runtime's. */
static void no_device_why(cudaError_t e, char *why, size_t len)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib)
        dlclose(lib);
    struct stat st;
    const char *node = !stat("/dev/nvidiactl", &st) ? "/dev/nvidiactl"
                       : !stat("/dev/nvidia0", &st) ? "/dev/nvidia0"
                                                    : NULL;
    int drv = 0, rtv = 0;
    if (cudaDriverGetVersion(&drv) != cudaSuccess)
        drv = 0;
    if (cudaRuntimeGetVersion(&rtv) != cudaSuccess)
        rtv = 0;
    char d[16], r[16], err[160];
    version_text(drv, d, sizeof d);
    version_text(rtv, r, sizeof r);
    snprintf(err, sizeof err, "cudaGetDeviceCount: %s, %d", cudaGetErrorName(e), (int)e);
    if (!lib && !node)
        snprintf(why, len,
                 "no CUDA device: no NVIDIA driver: libcuda.so.1 not found and no "
                 "/dev/nvidia* device (%s)",
                 err);
    else if (!lib)
        snprintf(why, len,
                 "no CUDA device: %s exists but the driver's library libcuda.so.1 cannot be "
                 "loaded (%s)",
                 node, err);
    else if (!node)
        snprintf(why, len,
                 "no CUDA device: the driver's library libcuda.so.1 is there but no "
                 "/dev/nvidia* device (kernel module not loaded, or no device given to this "
                 "container) (%s)",
                 err);
    else if (drv > 0 && rtv > 0 && (e == cudaErrorInsufficientDriver || drv < rtv))
        snprintf(why, len,
                 "no CUDA device: the NVIDIA driver supports CUDA %s, gmb was built with "
                 "runtime %s (%s)",
                 d, r, err);
    else
        snprintf(why, len,
                 "no CUDA device: %s: %s (the NVIDIA driver supports CUDA %s, runtime %s)", err,
                 cudaGetErrorString(e), drv > 0 ? d : "?", rtv > 0 ? r : "?");
}

static int cu_count(int *n, char *why, size_t whylen)
{
    int c = 0;
    /* the first runtime call: load every kernel now, so that no first launch behind a gate
     * has to load a module (which may synchronise the context: a deadlock behind the gate) */
    const char *ml = getenv("CUDA_MODULE_LOADING");
    if (gate_on() && (!ml || strcmp(ml, "EAGER"))) /* LAZY inherited: the deadlock is back */
        setenv("CUDA_MODULE_LOADING", "EAGER", 1);
    cudaError_t e = cudaGetDeviceCount(&c);
    *n = 0;
    if (e != cudaSuccess) { /* 35 (insufficient driver) or 100 (no device): c is unset */
        no_device_why(e, why, whylen);
        cudaGetLastError();
        return GMB_ESKIP;
    }
    if (c <= 0) {
        snprintf(why, whylen, "no CUDA device: the driver reports 0 devices");
        return GMB_ESKIP;
    }
    *n = c;
    return GMB_OK;
}

/* The allocation granularity of device memory on device idx (cuMemGetAllocationGranularity,
 * CU_MEM_ALLOC_GRANULARITY_MINIMUM, pinned memory located on the device), from the driver
 * API through dlopen as the rest of the driver's calls here; 0 when the driver has no such
 * call or refuses. The types are cuda.h's (CUDA 13). */
static uint64_t alloc_granularity(int idx)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    CUresult (*init)(unsigned), (*get_dev)(CUdevice *, int);
    CUresult (*gran)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
    *(void **)&init = dlsym(lib, "cuInit");
    *(void **)&get_dev = dlsym(lib, "cuDeviceGet");
    *(void **)&gran = dlsym(lib, "cuMemGetAllocationGranularity");
    CUdevice dev = 0;
    size_t g = 0;
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    if (!init || !get_dev || !gran || init(0) != CUDA_SUCCESS || get_dev(&dev, idx) != CUDA_SUCCESS)
        g = 0;
    else {
        prop.location.id = (int)dev;
        if (gran(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS)
            g = 0;
    }
    dlclose(lib); /* the runtime holds its own reference */
    return (uint64_t)g;
}

static int cu_info(int idx, gmb_dev_info_t *o)
{
    struct cudaDeviceProp p;
    CU_TRY(cudaGetDeviceProperties(&p, idx));
    memset(o, 0, sizeof *o);
    gmb_strlcpy(o->backend, "cuda", sizeof o->backend);
    o->index = idx;
    gmb_strlcpy(o->name, p.name, sizeof o->name);
    gmb_strlcpy(o->vendor, "NVIDIA Corporation", sizeof o->vendor);
    gmb_strlcpy(o->type, "gpu", sizeof o->type);
    gmb_strlcpy(o->platform, "CUDA", sizeof o->platform);
    int v = 0;
    char rt[16] = "?", drv[16] = "?";
    if (cudaRuntimeGetVersion(&v) == cudaSuccess)
        version_text(v, rt, sizeof rt);
    if (cudaDriverGetVersion(&v) == cudaSuccess)
        version_text(v, drv, sizeof drv);
    snprintf(o->runtime_version, sizeof o->runtime_version, "CUDA runtime %s", rt);
    snprintf(o->driver_version, sizeof o->driver_version, "CUDA driver API %s", drv);
    snprintf(o->arch, sizeof o->arch, "sm_%d%d", p.major, p.minor);
    snprintf(o->pci_bus_id, sizeof o->pci_bus_id, "%04x:%02x:%02x.0", p.pciDomainID, p.pciBusID,
             p.pciDeviceID);
    o->mem_bytes = p.totalGlobalMem;
    o->max_alloc_bytes = p.totalGlobalMem;
    o->llc_bytes = (uint64_t)p.l2CacheSize;
    o->alloc_granularity_bytes = alloc_granularity(idx);
    if (o->alloc_granularity_bytes)
        o->caps |= GMB_CAP_GRANULE;
    o->local_mem_bytes = p.sharedMemPerBlockOptin > p.sharedMemPerBlock ? p.sharedMemPerBlockOptin
                                                                        : p.sharedMemPerBlock;
    gmb_strlcpy(o->local_mem_type, "dedicated", sizeof o->local_mem_type);
    o->compute_units = p.multiProcessorCount;
    o->max_group_size = p.maxThreadsPerBlock;
    o->threads_per_cu = p.maxThreadsPerMultiProcessor;
    o->warp_size = p.warpSize;
    o->ecc = p.ECCEnabled ? 1 : 0;
    /* CUDA 13 removed clockRate/memoryClockRate from the properties: ask the attributes */
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, idx) == cudaSuccess)
        o->core_clock_mhz = v / 1000;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, idx) == cudaSuccess)
        o->mem_clock_mhz = v / 1000;
    cudaGetLastError();
    o->bus_width_bits = p.memoryBusWidth;
    o->timer_res_ns = 500.0; /* cudaEventElapsedTime: "around 0.5 microseconds" */
    gmb_strlcpy(o->timer,
                gate_on() ? "CUDA events, the stream held by a host-function gate until the "
                            "timed work is enqueued (GMB_CUDA_GATE=1)"
                          : "CUDA events (recorded as the host enqueues the work)",
                sizeof o->timer);
    o->caps = GMB_CAP_CLOCK | GMB_CAP_PINNED | GMB_CAP_NVIDIA;
    if (p.canMapHostMemory)
        o->caps |= GMB_CAP_MAPPED;
    if (p.pageableMemoryAccess) {
        o->caps |= GMB_CAP_SYSTEM_MEM;
        gmb_strlcpy(o->system_mem,
                    p.pageableMemoryAccessUsesHostPageTables
                        ? "ATS: the device walks the host's page tables and reads host memory "
                          "over the link (the driver may migrate hot pages)"
                        : "HMM: device page faults migrate pages of plain host memory",
                    sizeof o->system_mem);
    }
    if (p.managedMemory) {
        o->caps |= GMB_CAP_MANAGED;
        if (p.concurrentManagedAccess)
            o->caps |= GMB_CAP_UM_FAULTS | GMB_CAP_PREFETCH | GMB_CAP_ADVISE;
        snprintf(o->managed, sizeof o->managed, "CUDA managed memory, %s%s%s",
                 p.concurrentManagedAccess ? "on-demand page migration (concurrentManagedAccess)"
                                           : "whole-buffer migration at launch (no device page "
                                             "faults)",
                 p.pageableMemoryAccess ? ", pageable host memory too" : "",
                 p.pageableMemoryAccessUsesHostPageTables ? " (host page tables)" : "");
    }
    if (p.persistingL2CacheMaxSize > 0)
        o->caps |= GMB_CAP_L2_POLICY;
    int cl = 0;
    if (cudaDeviceGetAttribute(&cl, cudaDevAttrClusterLaunch, idx) == cudaSuccess && cl)
        o->caps |= GMB_CAP_CLUSTER;
    cudaGetLastError();
    char api_drv[64];
    gmb_strlcpy(api_drv, o->driver_version, sizeof api_drv);
    if (gmb_nvml_fill_info(o) == GMB_OK) { /* NVML gives the driver's own version string */
        char nv[64];
        gmb_strlcpy(nv, o->driver_version, sizeof nv);
        snprintf(o->driver_version, sizeof o->driver_version, "%.30s (%.30s)", nv, api_drv);
    }
    gmb_dev_info_derive(o);
    return GMB_OK;
}

static int cu_open(int idx, gmb_dev_t **out)
{
    gmb_dev_t *d = calloc(1, sizeof *d);
    if (!d)
        return GMB_ERUNTIME;
    d->idx = idx;
    cudaError_t e = cudaSetDevice(idx);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaEventCreate(&d->t0);
    if (e == cudaSuccess)
        e = cudaEventCreate(&d->t1);
    if (e == cudaSuccess &&
        cudaDeviceGetAttribute(&d->cma, cudaDevAttrConcurrentManagedAccess, idx) != cudaSuccess) {
        cudaGetLastError();
        d->cma = 0;
    }
    d->xs[0] = d->s;
    for (int i = 1; i < GMB_STREAMS && e == cudaSuccess; i++)
        e = cudaStreamCreateWithFlags(&d->xs[i], cudaStreamNonBlocking);
    for (int i = 0; i < GMB_STREAMS && e == cudaSuccess; i++) {
        e = cudaEventCreate(&d->xb[i]);
        if (e == cudaSuccess)
            e = cudaEventCreate(&d->xe[i]);
    }
    if (e != cudaSuccess) {
        free(d); /* the process is failing: streams and events go with it */
        CU_TRY(e);
    }
    *out = d;
    return GMB_OK;
}

static void cu_close(gmb_dev_t *d)
{
    if (!d)
        return;
    gates_open(d);
    cudaSetDevice(d->idx);
    cudaStreamSynchronize(d->s);
    cudaEventDestroy(d->t0);
    cudaEventDestroy(d->t1);
    for (int i = 0; i < GMB_STREAMS; i++) {
        if (i)
            cudaStreamSynchronize(d->xs[i]);
        cudaEventDestroy(d->xb[i]);
        cudaEventDestroy(d->xe[i]);
        if (i)
            cudaStreamDestroy(d->xs[i]);
    }
    cudaStreamDestroy(d->s);
    free(d);
}

/* The CUDA call of each kind of memory (alloc, alloc_quiet). */
static const char *cu_alloc_api(gmb_mem_kind_t kind)
{
    switch (kind) {
    case GMB_MEM_DEVICE:
        return "cudaMalloc";
    case GMB_MEM_HOST_PINNED:
        return "cudaMallocHost";
    case GMB_MEM_HOST_MAPPED:
        return "cudaHostAlloc (cudaHostAllocMapped)";
    case GMB_MEM_MANAGED:
        return "cudaMallocManaged (cudaMemAttachGlobal)";
    case GMB_MEM_HOST_PAGEABLE:
        return "posix_memalign (pageable host memory)";
    }
    return "unknown";
}

/* alloc without a word on a refusal: CUDA's text in why (CUDA touches nothing, so flags change
 * nothing here; cudaMalloc's refusals are not sticky: the device goes on) */
static int cu_alloc_quiet(gmb_dev_t *d, gmb_mem_kind_t kind, size_t bytes, unsigned flags,
                          gmb_buf_t **out, char *why, size_t whylen)
{
    (void)flags;
    *out = NULL;
    why[0] = '\0';
    gmb_buf_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(why, whylen, "out of host memory for the buffer's handle");
        return GMB_ERUNTIME;
    }
    b->dev = d;
    b->kind = kind;
    b->bytes = bytes;
    cudaError_t e = cudaSetDevice(d->idx);
    if (e == cudaSuccess) {
        switch (kind) {
        case GMB_MEM_DEVICE:
            e = cudaMalloc(&b->ptr, bytes);
            break;
        case GMB_MEM_HOST_PINNED:
            e = cudaMallocHost(&b->ptr, bytes);
            break;
        case GMB_MEM_HOST_MAPPED:
            e = cudaHostAlloc(&b->ptr, bytes, cudaHostAllocMapped);
            break;
        case GMB_MEM_MANAGED:
            e = cudaMallocManaged(&b->ptr, bytes, cudaMemAttachGlobal);
            break;
        case GMB_MEM_HOST_PAGEABLE: /* page-aligned: a kernel may reach it (HMM, ATS) */
            e = posix_memalign(&b->ptr, 4096, bytes ? bytes : 1) ? cudaErrorMemoryAllocation
                                                                 : cudaSuccess;
            break;
        }
    }
    if (e != cudaSuccess) {
        free(b);
        cudaGetLastError();
        snprintf(why, whylen, "%s of %zu bytes: %s (%s, %d)", cu_alloc_api(kind), bytes,
                 cudaGetErrorString(e), cudaGetErrorName(e), (int)e);
        return e == cudaErrorNotSupported ? GMB_ESKIP : GMB_ERUNTIME;
    }
    *out = b;
    return GMB_OK;
}

/* alloc: alloc_quiet with CUDA's words on stderr where it refuses */
static int cu_alloc(gmb_dev_t *d, gmb_mem_kind_t kind, size_t bytes, gmb_buf_t **out)
{
    char why[320];
    int rc = cu_alloc_quiet(d, kind, bytes, 0, out, why, sizeof why);
    if (rc)
        gmb_error("cuda backend: %s", why);
    return rc;
}

static void cu_free(gmb_buf_t *b)
{
    if (!b)
        return;
    if (b->tex) { /* a view: the memory is its buffer's */
        cudaSetDevice(b->dev->idx);
        cudaDestroyTextureObject(b->tex);
        free(b);
        return;
    }
    switch (b->kind) {
    case GMB_MEM_DEVICE:
    case GMB_MEM_MANAGED:
        cudaFree(b->ptr);
        break;
    case GMB_MEM_HOST_PINNED:
    case GMB_MEM_HOST_MAPPED:
        cudaFreeHost(b->ptr);
        break;
    case GMB_MEM_HOST_PAGEABLE: /* a kernel (HMM, ATS) or a copy may still read it */
        gates_open(b->dev);
        cudaSetDevice(b->dev->idx);
        for (int i = 0; i < GMB_STREAMS; i++)
            cudaStreamSynchronize(b->dev->xs[i]);
        free(b->ptr);
        break;
    }
    free(b);
}

static void *cu_host_ptr(gmb_buf_t *b)
{
    return b->kind == GMB_MEM_DEVICE ? NULL : b->ptr;
}

/* Copies go through the device's stream, then wait for it: a plain cudaMemcpy runs on the
 * legacy default stream, which the non-blocking stream does not wait for, and from pageable
 * memory it may return before its DMA has landed (a kernel launched next could read stale data). */
/* Host kinds: wait for stream 0 (a copy or kernel may still use the memory), then the host. */
static int host_side(gmb_buf_t *b)
{
    if (b->kind == GMB_MEM_DEVICE || b->kind == GMB_MEM_MANAGED)
        return 0;
    CU_TRY(cudaSetDevice(b->dev->idx));
    CU_TRY(cudaStreamSynchronize(b->dev->s));
    return 1;
}

static int cu_write(gmb_buf_t *b, size_t off, const void *src, size_t bytes)
{
    int h = host_side(b);
    if (h < 0)
        return h;
    if (h) {
        memcpy((char *)b->ptr + off, src, bytes);
        return GMB_OK;
    }
    CU_TRY(cudaSetDevice(b->dev->idx));
    CU_TRY(cudaMemcpyAsync((char *)b->ptr + off, src, bytes, cudaMemcpyDefault, b->dev->s));
    CU_TRY(cudaStreamSynchronize(b->dev->s));
    return GMB_OK;
}

static int cu_read(gmb_buf_t *b, size_t off, void *dst, size_t bytes)
{
    int h = host_side(b);
    if (h < 0)
        return h;
    if (h) {
        memcpy(dst, (char *)b->ptr + off, bytes);
        return GMB_OK;
    }
    CU_TRY(cudaSetDevice(b->dev->idx));
    CU_TRY(cudaMemcpyAsync(dst, (char *)b->ptr + off, bytes, cudaMemcpyDefault, b->dev->s));
    CU_TRY(cudaStreamSynchronize(b->dev->s));
    return GMB_OK;
}

static int cu_fill(gmb_buf_t *b, size_t off, unsigned char byte, size_t bytes)
{
    int h = host_side(b);
    if (h < 0)
        return h;
    if (h) {
        memset((char *)b->ptr + off, byte, bytes);
        return GMB_OK;
    }
    CU_TRY(cudaSetDevice(b->dev->idx));
    CU_TRY(cudaMemsetAsync((char *)b->ptr + off, byte, bytes, b->dev->s));
    CU_TRY(cudaStreamSynchronize(b->dev->s));
    return GMB_OK;
}

static int timed_end(gmb_dev_t *d, double *ns)
{
    float ms = 0;
    cudaError_t e = cudaEventRecord(d->t1, d->s);
    gate_open(d, 0);
    CU_TRY(e);
    CU_TRY(cudaEventSynchronize(d->t1));
    CU_TRY(cudaEventElapsedTime(&ms, d->t0, d->t1));
    *ns = (double)ms * 1e6;
    return GMB_OK;
}

static int cu_copy(gmb_buf_t *dst, size_t doff, gmb_buf_t *src, size_t soff, size_t bytes,
                   double *ns)
{
    gmb_dev_t *d = dst->dev;
    CU_TRY(cudaSetDevice(d->idx));
    if (ns && !pageable(dst, src)) {
        int rc = gate_close(d, 0);
        if (rc)
            return rc;
    }
    cudaError_t e = ns ? cudaEventRecord(d->t0, d->s) : cudaSuccess;
    if (e == cudaSuccess)
        e = cudaMemcpyAsync((char *)dst->ptr + doff, (char *)src->ptr + soff, bytes,
                            cudaMemcpyDefault, d->s);
    if (e != cudaSuccess)
        gate_open(d, 0);
    CU_TRY(e);
    if (ns)
        return timed_end(d, ns);
    CU_TRY(cudaStreamSynchronize(d->s));
    return GMB_OK;
}

static int cu_prog_load(gmb_dev_t *d, const gmb_kernels_t *k, const char *variant, gmb_prog_t **out)
{
    if (!k->cuda_fns) {
        gmb_skip("this program was built without CUDA kernels (CUDA=0)");
        return GMB_ESKIP;
    }
    gmb_prog_t *p = calloc(1, sizeof *p);
    if (!p)
        return GMB_ERUNTIME;
    p->dev = d;
    for (const gmb_cuda_fn_t *f = k->cuda_fns; f->name && p->nk < MAX_KERNS; f++)
        if (!strcmp(f->variant, variant)) {
            p->kerns[p->nk].prog = p;
            p->kerns[p->nk].fn = f->fn;
            p->names[p->nk++] = f->name;
        }
    if (!p->nk) {
        free(p);
        gmb_error("cuda: no kernel variant '%s'", variant);
        return GMB_ERUNTIME;
    }
    *out = p;
    return GMB_OK;
}

static void cu_prog_free(gmb_prog_t *p)
{
    free(p);
}

static int cu_kern_get(gmb_prog_t *p, const char *name, gmb_kern_t **out)
{
    for (int i = 0; i < p->nk; i++)
        if (!strcmp(p->names[i], name)) {
            *out = &p->kerns[i];
            return GMB_OK;
        }
    gmb_error("cuda: no kernel '%s'", name);
    return GMB_ERUNTIME;
}

#define MAX_ARGS 16
/* Allow k more than 48 KiB of dynamic shared memory when a launch asks for it. */
static int shared_optin(gmb_kern_t *k, size_t shared_bytes)
{
    if (shared_bytes > (48u << 10) && shared_bytes > k->shared_optin) {
        CU_TRY(cudaFuncSetAttribute(k->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)shared_bytes));
        k->shared_optin = shared_bytes;
    }
    return GMB_OK;
}

/* Enqueue a launch of k on stream st (the device is current after it). */
static int launch_on(gmb_kern_t *k, cudaStream_t st, const gmb_launch_t *cfg, const gmb_arg_t *args,
                     int nargs)
{
    void *av[MAX_ARGS];
    if (nargs > MAX_ARGS)
        return GMB_ERUNTIME;
    for (int i = 0; i < nargs; i++)
        av[i] = args[i].kind == GMB_ARG_VAL ? (void *)args[i].val
                : args[i].buf->tex          ? (void *)&args[i].buf->tex /* cudaTextureObject_t */
                                            : (void *)&args[i].buf->ptr;
    dim3 grid = {(unsigned)cfg->groups, 1, 1}, block = {(unsigned)cfg->group_size, 1, 1};
    CU_TRY(cudaSetDevice(k->prog->dev->idx));
    int rc = shared_optin(k, cfg->shared_bytes);
    if (rc)
        return rc;
    if (cfg->cluster > 1) { /* a thread-block cluster launch */
        cudaLaunchAttribute at;
        memset(&at, 0, sizeof at);
        at.id = cudaLaunchAttributeClusterDimension;
        at.val.clusterDim.x = (unsigned)cfg->cluster;
        at.val.clusterDim.y = at.val.clusterDim.z = 1;
        cudaLaunchConfig_t lc = {grid, block, cfg->shared_bytes, st, &at, 1};
        cudaError_t e = cudaLaunchKernelExC(&lc, k->fn, av);
        if (e == cudaErrorInvalidClusterSize || e == cudaErrorLaunchOutOfResources ||
            e == cudaErrorInvalidConfiguration || e == cudaErrorNotSupported) {
            cudaGetLastError(); /* refused at the launch: nothing ran */
            gmb_warn("cuda: the device refused a cluster of %zu groups of %zu work-items with "
                     "%zu B of shared memory each: %s",
                     cfg->cluster, cfg->group_size, cfg->shared_bytes, cudaGetErrorString(e));
            return GMB_ESKIP;
        }
        CU_TRY(e);
        return GMB_OK;
    }
    CU_TRY(cudaLaunchKernel(k->fn, grid, block, av, cfg->shared_bytes, st));
    return GMB_OK;
}

static int cu_launch(gmb_kern_t *k, const gmb_launch_t *cfg, const gmb_arg_t *args, int nargs,
                     double *ns)
{
    gmb_dev_t *d = k->prog->dev;
    CU_TRY(cudaSetDevice(d->idx));
    int rc = shared_optin(k, cfg->shared_bytes); /* before the start event, as it always was */
    if (rc)
        return rc;
    if (ns) {
        if ((rc = gate_close(d, 0)))
            return rc;
        cudaError_t e = cudaEventRecord(d->t0, d->s);
        if (e != cudaSuccess)
            gate_open(d, 0);
        CU_TRY(e);
    }
    rc = launch_on(k, d->s, cfg, args, nargs);
    if (rc) {
        gate_open(d, 0);
        return rc;
    }
    if (ns)
        return timed_end(d, ns);
    CU_TRY(cudaStreamSynchronize(d->s));
    return GMB_OK;
}

static int cu_kern_occupancy(gmb_kern_t *k, size_t group_size, size_t shared_bytes, int *groups)
{
    *groups = 0;
    CU_TRY(cudaSetDevice(k->prog->dev->idx));
    if (shared_bytes > (48u << 10) && shared_bytes > k->shared_optin) {
        CU_TRY(cudaFuncSetAttribute(k->fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)shared_bytes));
        k->shared_optin = shared_bytes;
    }
    CU_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(groups, k->fn, (int)group_size,
                                                         shared_bytes));
    return GMB_OK;
}

/* ---- spans on several streams, peer access ----------------------------------------------- */

static int cu_span_begin(gmb_dev_t *d, int s)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    CU_TRY(cudaSetDevice(d->idx));
    int rc = gate_close(d, s);
    if (rc)
        return rc;
    cudaError_t e = cudaEventRecord(d->xb[s], d->xs[s]);
    if (e != cudaSuccess)
        gate_open(d, s);
    CU_TRY(e);
    return GMB_OK;
}

static int cu_copy_async(gmb_dev_t *d, int s, gmb_buf_t *dst, size_t doff, gmb_buf_t *src,
                         size_t soff, size_t bytes)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    CU_TRY(cudaSetDevice(d->idx));
    if (pageable(dst, src))
        gates_open(d);
    CU_TRY(cudaMemcpyAsync((char *)dst->ptr + doff, (char *)src->ptr + soff, bytes,
                           cudaMemcpyDefault, d->xs[s]));
    gate_count(d, s);
    return GMB_OK;
}

static int cu_launch_async(gmb_kern_t *k, int s, const gmb_launch_t *cfg, const gmb_arg_t *args,
                           int nargs)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    int rc = launch_on(k, k->prog->dev->xs[s], cfg, args, nargs);
    if (!rc)
        gate_count(k->prog->dev, s);
    return rc;
}

static int cu_span_end(gmb_dev_t *d, int s)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    CU_TRY(cudaSetDevice(d->idx));
    cudaError_t e = cudaEventRecord(d->xe[s], d->xs[s]);
    gate_open(d, s);
    CU_TRY(e);
    return GMB_OK;
}

static int cu_span_wait(gmb_dev_t *d, int s, double *t0_ns, double *t1_ns)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    float a = 0, b = 0;
    gates_open(d); /* never wait behind a gate that no span_end opened (queue 0's begin event
                    * is waited on too, and another queue's gate may hold this one's back) */
    CU_TRY(cudaSetDevice(d->idx));
    CU_TRY(cudaEventSynchronize(d->xe[s]));
    if (s)
        CU_TRY(cudaEventSynchronize(d->xb[0]));
    CU_TRY(cudaEventElapsedTime(&a, d->xb[0], d->xb[s]));
    CU_TRY(cudaEventElapsedTime(&b, d->xb[0], d->xe[s]));
    *t0_ns = (double)a * 1e6;
    *t1_ns = (double)b * 1e6;
    return GMB_OK;
}

static int cu_peer_enable(gmb_dev_t *d, gmb_dev_t *peer, char *why, size_t whylen)
{
    int can = 0;
    cudaError_t e = cudaDeviceCanAccessPeer(&can, d->idx, peer->idx);
    if (e != cudaSuccess || !can) {
        snprintf(why, whylen, "CUDA device %d cannot access device %d as a peer (%s)", d->idx,
                 peer->idx,
                 e != cudaSuccess ? cudaGetErrorString(e) : "cudaDeviceCanAccessPeer says no");
        cudaGetLastError();
        return GMB_ESKIP;
    }
    CU_TRY(cudaSetDevice(d->idx));
    e = cudaDeviceEnablePeerAccess(peer->idx, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
        e = cudaSuccess;
    }
    if (e == cudaErrorTooManyPeers) { /* PCIe systems allow about 8 peer mappings a device */
        snprintf(why, whylen, "CUDA device %d has no peer mapping left for device %d (%s)", d->idx,
                 peer->idx, cudaGetErrorString(e));
        cudaGetLastError();
        return GMB_ESKIP;
    }
    CU_TRY(e);
    return GMB_OK;
}

/* Two devices with peer access both ways: a copy between them goes over the link (NVLink or
 * PCIe peer-to-peer), never through the host. */
static int cu_pair_open(int a, int b, gmb_dev_t *out[2], char *why, size_t whylen)
{
    out[0] = out[1] = NULL;
    if (a == b)
        return GMB_EUSAGE;
    int rc = cu_open(a, &out[0]);
    if (!rc)
        rc = cu_open(b, &out[1]);
    if (!rc)
        rc = cu_peer_enable(out[0], out[1], why, whylen);
    if (!rc)
        rc = cu_peer_enable(out[1], out[0], why, whylen);
    if (rc) {
        cu_close(out[1]);
        cu_close(out[0]);
        out[0] = out[1] = NULL;
    }
    return rc;
}

static int cu_peer_attrs(int a, int b, int *rank, int *atomics, char *why, size_t whylen)
{
    cudaError_t e = cudaDeviceGetP2PAttribute(rank, cudaDevP2PAttrPerformanceRank, a, b);
    if (e == cudaSuccess)
        e = cudaDeviceGetP2PAttribute(atomics, cudaDevP2PAttrNativeAtomicSupported, a, b);
    if (e != cudaSuccess) {
        snprintf(why, whylen, "cudaDeviceGetP2PAttribute(%d, %d): %s", a, b, cudaGetErrorString(e));
        cudaGetLastError();
        return GMB_ESKIP;
    }
    return GMB_OK;
}

/* ---- managed memory ------------------------------------------------------------------------ */

static int cu_host_begin(gmb_buf_t *b, size_t bytes)
{
    if (bytes > b->bytes)
        return GMB_EUSAGE;
    CU_TRY(cudaSetDevice(b->dev->idx));
    gates_open(b->dev);
    for (int i = 0; i < GMB_STREAMS; i++)
        CU_TRY(cudaStreamSynchronize(b->dev->xs[i]));
    if (!b->dev->cma) /* the host must not touch managed memory while any kernel runs */
        CU_TRY(cudaDeviceSynchronize());
    return GMB_OK;
}

static int cu_host_end(gmb_buf_t *b, int s)
{
    (void)b;
    return s < 0 || s >= GMB_STREAMS ? GMB_EUSAGE : GMB_OK;
}

/* 1 when what (prefetch, advice) applies to b: managed memory on a device with
 * concurrentManagedAccess; else 0 with the reason in why. */
static int managed_ok(gmb_buf_t *b, const char *what, char *why, size_t whylen)
{
    if (b->kind != GMB_MEM_MANAGED) {
        snprintf(why, whylen, "%s is for managed memory only", what);
        return 0;
    }
    if (!b->dev->cma) {
        snprintf(why, whylen,
                 "CUDA %s needs concurrentManagedAccess, which this device and system do not "
                 "have",
                 what);
        return 0;
    }
    return 1;
}

static struct cudaMemLocation loc_of(int host, int dev)
{
    struct cudaMemLocation l;
    memset(&l, 0, sizeof l);
    l.type = host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    l.id = host ? 0 : dev;
    return l;
}

static int cu_prefetch_async(gmb_buf_t *b, int s, size_t off, size_t bytes, int to_host, char *why,
                             size_t whylen)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    if (!managed_ok(b, "prefetch", why, whylen))
        return GMB_ESKIP;
    CU_TRY(cudaSetDevice(b->dev->idx));
    gates_open(b->dev); /* the UVM migration may wait on this thread for the stream's earlier
                         * work (UVM_MIGRATE has no semaphore to wait on): never behind a gate */
    CU_TRY(cudaMemPrefetchAsync((char *)b->ptr + off, bytes, loc_of(to_host, b->dev->idx), 0,
                                b->dev->xs[s]));
    return GMB_OK;
}

static int cu_advise(gmb_buf_t *b, gmb_advice_t adv, char *why, size_t whylen)
{
    if (!managed_ok(b, "memory advice", why, whylen))
        return GMB_ESKIP;
    struct cudaMemLocation dev = loc_of(0, b->dev->idx), host = loc_of(1, 0);
    CU_TRY(cudaSetDevice(b->dev->idx));
    gates_open(b->dev);
    CU_TRY(cudaDeviceSynchronize());
    switch (adv) {
    case GMB_ADVISE_RESET:
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseUnsetReadMostly, dev));
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseUnsetPreferredLocation, dev));
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseUnsetAccessedBy, dev));
        break;
    case GMB_ADVISE_READ_MOSTLY:
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseSetReadMostly, dev));
        break;
    case GMB_ADVISE_HOST_ACCESSED:
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseSetPreferredLocation, host));
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseSetAccessedBy, dev));
        break;
    case GMB_ADVISE_PREFER_DEVICE:
        CU_TRY(cudaMemAdvise(b->ptr, b->bytes, cudaMemAdviseSetPreferredLocation, dev));
        break;
    }
    return GMB_OK;
}

static int cu_mem_free(gmb_dev_t *d, uint64_t *bytes)
{
    size_t fr = 0, total = 0;
    CU_TRY(cudaSetDevice(d->idx));
    CU_TRY(cudaMemGetInfo(&fr, &total));
    *bytes = fr;
    return GMB_OK;
}

static int cu_texture(gmb_buf_t *b, size_t *words, gmb_buf_t **out, char *why, size_t whylen)
{
    int idx = b->dev->idx, align = 0;
    size_t maxw = 0;
    if (b->kind != GMB_MEM_DEVICE || b->tex) {
        snprintf(why, whylen, "a texture views device memory only");
        return GMB_ESKIP;
    }
    /* the widest texture of this format (cudaDevAttrMaxTexture1DLinearWidth is deprecated) */
    struct cudaChannelFormatDesc fmt =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    CU_TRY(cudaSetDevice(idx));
    cudaError_t q = cudaDeviceGetTexture1DLinearMaxWidth(&maxw, &fmt, idx);
    if (q == cudaSuccess)
        q = cudaDeviceGetAttribute(&align, cudaDevAttrTextureAlignment, idx);
    if (q != cudaSuccess) { /* no texture limits: no texture, the rest of the run goes on */
        cudaGetLastError();
        snprintf(why, whylen, "the texture limits are unknown: %s", cudaGetErrorString(q));
        return GMB_ESKIP;
    }
    size_t w = *words < b->bytes / 4 ? *words : b->bytes / 4;
    if (w > maxw)
        w = maxw;
    if (!w || (align > 0 && (uintptr_t)b->ptr % (uintptr_t)align)) {
        snprintf(why, whylen, "%s",
                 w ? "the buffer is not aligned as textures need" : "an empty texture");
        return GMB_ESKIP;
    }
    struct cudaResourceDesc rd;
    struct cudaTextureDesc td;
    memset(&rd, 0, sizeof rd);
    memset(&td, 0, sizeof td);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = b->ptr;
    rd.res.linear.desc = fmt;
    rd.res.linear.sizeInBytes = w * 4;
    td.readMode = cudaReadModeElementType; /* texels as stored: no filtering, no conversion */
    gmb_buf_t *v = calloc(1, sizeof *v);
    if (!v)
        return GMB_ERUNTIME;
    cudaError_t e = cudaCreateTextureObject(&v->tex, &rd, &td, NULL);
    if (e != cudaSuccess || !v->tex) {
        free(v);
        CU_TRY(e != cudaSuccess ? e : cudaErrorInvalidValue);
    }
    v->dev = b->dev;
    v->kind = GMB_MEM_DEVICE;
    v->ptr = b->ptr;
    v->bytes = w * 4;
    *words = w;
    *out = v;
    return GMB_OK;
}

/* Why a CUDA device lacks cap, for a skip's reason. */
static const char *cu_lacks(unsigned cap)
{
    switch (cap) {
    case GMB_CAP_CLUSTER:
        return "the device has no thread-block clusters (distributed shared memory: compute "
               "capability 9.0 on)";
    case GMB_CAP_MAPPED:
        return "the device cannot map host memory (canMapHostMemory)";
    case GMB_CAP_PREFETCH:
        return "CUDA prefetch needs concurrentManagedAccess, which this device and system do "
               "not have";
    case GMB_CAP_SYSTEM_MEM:
        return "kernels cannot use plain malloc'd memory here (pageableMemoryAccess is 0: no "
               "HMM or ATS)";
    case GMB_CAP_MANAGED:
        return "cudaDevAttrManagedMemory is 0";
    case GMB_CAP_GRANULE:
        return "the CUDA driver gave none";
    default:
        return "the CUDA device does not have it";
    }
}

/* The primary context of dev, current on this thread (cudaSetDevice, cudaFree(0)), from the
 * driver's cuCtxGetCurrent through dlopen as the rest of the driver's calls here. */
static int cu_profiler_ctx(gmb_dev_t *dev, void **ctx, int *ordinal, char *why, size_t whylen)
{
    *ctx = NULL;
    *ordinal = dev->idx;
    if (cudaSetDevice(dev->idx) != cudaSuccess || cudaFree(0) != cudaSuccess) {
        cudaGetLastError();
        snprintf(why, whylen, "CUDA: no context on device %d for the counters", dev->idx);
        return GMB_ESKIP;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    CUresult (*cur)(CUcontext *) = NULL;
    if (lib)
        *(void **)&cur = dlsym(lib, "cuCtxGetCurrent");
    CUcontext c = NULL;
    int ok = cur && cur(&c) == CUDA_SUCCESS && c;
    if (lib)
        dlclose(lib); /* the runtime holds its own reference */
    if (!ok) {
        snprintf(why, whylen, "CUDA: cuCtxGetCurrent gave no context for the counters");
        return GMB_ESKIP;
    }
    *ctx = c;
    return GMB_OK;
}

const gmb_backend_t gmb_backend_cuda = {
    .kind = &gmb_kind_cuda,
    .copy_api = "cudaMemcpyAsync (cudaMemcpyDefault) on the device's stream(s)",
    .copy_pageable = "pageable copies are staged by the driver and synchronous with respect to "
                     "the host: bidir with pageable memory cannot overlap",
    .lacks = cu_lacks,
    .count = cu_count,
    .info = cu_info,
    .open = cu_open,
    .close = cu_close,
    .alloc = cu_alloc,
    .free = cu_free,
    .host_ptr = cu_host_ptr,
    .write = cu_write,
    .read = cu_read,
    .fill = cu_fill,
    .copy = cu_copy,
    .prog_load = cu_prog_load,
    .prog_free = cu_prog_free,
    .kern_get = cu_kern_get,
    .launch = cu_launch,
    .kern_occupancy = cu_kern_occupancy,
    .span_begin = cu_span_begin,
    .copy_async = cu_copy_async,
    .launch_async = cu_launch_async,
    .span_end = cu_span_end,
    .span_wait = cu_span_wait,
    .peer_enable = cu_peer_enable,
    .pair_open = cu_pair_open,
    .peer_attrs = cu_peer_attrs,
    .peer_path = "peer access enabled both ways (cudaDeviceEnablePeerAccess); the copy engine: "
                 "cudaMemcpyAsync between the two devices' memory (unified addressing) on the "
                 "source device's stream; the SM engine: the source device's kernel writes the "
                 "peer's memory in place; over NVLink or PCIe peer-to-peer, never the host",
    .host_begin = cu_host_begin,
    .host_end = cu_host_end,
    .prefetch_async = cu_prefetch_async,
    .advise = cu_advise,
    .mem_free = cu_mem_free,
    .texture = cu_texture,
    .profiler_ctx = cu_profiler_ctx,
    .alloc_quiet = cu_alloc_quiet,
    .alloc_api = cu_alloc_api,
};
