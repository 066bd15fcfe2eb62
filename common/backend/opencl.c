/* backend_opencl.c - the OpenCL backend, through the ICD loader (any vendor, PoCL on CPUs). */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include "backend/backend.h"
#include "gmb.h"
#include "nvml.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Vendor extension queries (cl_nv_device_attribute_query, cl_amd_device_attribute_query,
 * cl_khr_pci_bus_info); values from the Khronos registry. */
#define GMB_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define GMB_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define GMB_CL_DEVICE_WARP_SIZE_NV                0x4003
#define GMB_CL_DEVICE_PCI_BUS_ID_NV               0x4008
#define GMB_CL_DEVICE_PCI_SLOT_ID_NV              0x4009
#define GMB_CL_DEVICE_PCI_DOMAIN_ID_NV            0x400A
#define GMB_CL_DEVICE_WAVEFRONT_WIDTH_AMD         0x4043
#define GMB_CL_DEVICE_PCI_BUS_INFO_KHR            0x410F

typedef struct {
    cl_uint domain, bus, device, function;
} khr_pci_info_t;

/* Shared virtual memory (OpenCL 2.0; migration 2.1). The header is used at 1.2, and the entry
 * points are looked up at run time, so that a 1.2 loader still runs everything else. Values
 * from the Khronos registry. */
#define GMB_CL_DEVICE_SVM_CAPABILITIES 0x1053
#define GMB_CL_SVM_COARSE_GRAIN_BUFFER (1 << 0)
#define GMB_CL_SVM_FINE_GRAIN_BUFFER   (1 << 1)
#define GMB_CL_SVM_FINE_GRAIN_SYSTEM   (1 << 2)
#define GMB_CL_MIGRATE_TO_HOST         (1 << 0)
static struct {
    int done;
    void *(*alloc)(cl_context, cl_bitfield, size_t, cl_uint);
    void (*free)(cl_context, void *);
    cl_int (*map)(cl_command_queue, cl_bool, cl_bitfield, void *, size_t, cl_uint, const cl_event *,
                  cl_event *);
    cl_int (*unmap)(cl_command_queue, void *, cl_uint, const cl_event *, cl_event *);
    cl_int (*memcpy)(cl_command_queue, cl_bool, void *, const void *, size_t, cl_uint,
                     const cl_event *, cl_event *);
    cl_int (*fill)(cl_command_queue, void *, const void *, size_t, size_t, cl_uint,
                   const cl_event *, cl_event *);
    cl_int (*arg)(cl_kernel, cl_uint, const void *);
    cl_int (*migrate)(cl_command_queue, cl_uint, const void **, const size_t *, cl_bitfield,
                      cl_uint, const cl_event *, cl_event *);
} SVM;

static void svm_load(void)
{
    if (SVM.done)
        return;
    SVM.done = 1;
    /* the loader this program is linked with; the casts go through void * (POSIX dlsym) */
    *(void **)&SVM.alloc = dlsym(RTLD_DEFAULT, "clSVMAlloc");
    *(void **)&SVM.free = dlsym(RTLD_DEFAULT, "clSVMFree");
    *(void **)&SVM.map = dlsym(RTLD_DEFAULT, "clEnqueueSVMMap");
    *(void **)&SVM.unmap = dlsym(RTLD_DEFAULT, "clEnqueueSVMUnmap");
    *(void **)&SVM.memcpy = dlsym(RTLD_DEFAULT, "clEnqueueSVMMemcpy");
    *(void **)&SVM.fill = dlsym(RTLD_DEFAULT, "clEnqueueSVMMemFill");
    *(void **)&SVM.arg = dlsym(RTLD_DEFAULT, "clSetKernelArgSVMPointer");
    *(void **)&SVM.migrate = dlsym(RTLD_DEFAULT, "clEnqueueSVMMigrateMem");
    if (!SVM.alloc || !SVM.free || !SVM.map || !SVM.unmap || !SVM.memcpy || !SVM.fill || !SVM.arg)
        SVM.alloc = NULL; /* all or nothing */
}

/* OpenCL version of a CL_DEVICE_VERSION string ("OpenCL 3.0 ...") as 10 * major + minor. */
static int version_of(const char *v)
{
    int maj = 0, min = 0;
    if (sscanf(v, "OpenCL %d.%d", &maj, &min) != 2)
        return 0;
    return maj * 10 + min;
}

/* A span on one queue: the first and the last command enqueued while it is open. */
typedef struct span {
    int open;       /* between span_begin and span_end */
    cl_event first; /* START of this is the span's begin (retained) */
    cl_event last;  /* END of this is the span's end (retained; may equal first) */
} span_t;

struct gmb_dev {
    cl_device_id id;
    cl_context ctx;
    cl_command_queue q;               /* queue 0: the blocking calls */
    cl_command_queue qs[GMB_STREAMS]; /* queues of the spans; qs[0] == q */
    span_t sp[GMB_STREAMS];           /* the span of each queue */
    unsigned caps;                    /* GMB_CAP_* of the device */
    int cpu;                          /* a CPU device: first touches fault its pages in */
    cl_program touch_p;               /* CPU: the first-touch kernel's program (built once) */
    cl_kernel touch;                  /* ... and kernel; NULL until needed or where it failed */
    int touch_failed;                 /* it could not be built: the fill serves */
};

struct gmb_buf {
    gmb_dev_t *dev;
    gmb_mem_kind_t kind; /* device, or a host kind */
    cl_mem mem;          /* the buffer; NULL for pageable memory */
    void *host;          /* host pointer: malloc'd (pageable) or mapped once (pinned, mapped) */
    void *svm;           /* managed: the shared virtual memory (coarse-grained buffer) */
    int mapped;          /* managed: the host has it (host_begin without host_end) */
    size_t mapped_bytes; /* managed: how much of it the host has (from the start) */
    size_t bytes;
};

struct gmb_kern {
    gmb_prog_t *prog;
    cl_kernel k;
    char name[64];
};

#define MAX_KERNS 64
struct gmb_prog {
    gmb_dev_t *dev;
    cl_program p;
    int nk;
    gmb_kern_t kerns[MAX_KERNS];
};

static const char *cl_errstr(cl_int e)
{
    switch (e) {
#define E(x)                                                                                       \
    case x:                                                                                        \
        return #x;
        E(CL_DEVICE_NOT_FOUND)
        E(CL_DEVICE_NOT_AVAILABLE)
        E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        E(CL_OUT_OF_RESOURCES)
        E(CL_OUT_OF_HOST_MEMORY)
        E(CL_PROFILING_INFO_NOT_AVAILABLE)
        E(CL_BUILD_PROGRAM_FAILURE)
        E(CL_INVALID_VALUE)
        E(CL_INVALID_DEVICE)
        E(CL_INVALID_CONTEXT)
        E(CL_INVALID_COMMAND_QUEUE)
        E(CL_INVALID_MEM_OBJECT)
        E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        E(CL_INVALID_IMAGE_SIZE)
        E(CL_INVALID_IMAGE_DESCRIPTOR)
        E(CL_INVALID_BUILD_OPTIONS)
        E(CL_INVALID_PROGRAM_EXECUTABLE)
        E(CL_INVALID_KERNEL_NAME)
        E(CL_INVALID_KERNEL)
        E(CL_INVALID_ARG_INDEX)
        E(CL_INVALID_ARG_VALUE)
        E(CL_INVALID_ARG_SIZE)
        E(CL_INVALID_KERNEL_ARGS)
        E(CL_INVALID_WORK_GROUP_SIZE)
        E(CL_INVALID_WORK_ITEM_SIZE)
        E(CL_INVALID_GLOBAL_WORK_SIZE)
        E(CL_INVALID_EVENT)
        E(CL_INVALID_BUFFER_SIZE)
        E(CL_INVALID_PLATFORM)
        E(CL_INVALID_OPERATION)
        E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        E(CL_INVALID_PROGRAM)
        E(CL_MAP_FAILURE)
        E(CL_INVALID_HOST_PTR)
        E(CL_MEM_COPY_OVERLAP)
        E(CL_INVALID_EVENT_WAIT_LIST)
#undef E
    case -9999: /* NVIDIA's own code */
        return "NVIDIA: illegal memory access in a kernel";
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform/ICD installed)";
    default:
        return "unknown OpenCL error";
    }
}

/* Check an OpenCL call: on failure log file:line, the call and the error, and return. */
#define CL_TRY(call)                                                                               \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS) {                                                                    \
            gmb_error("%s:%d: %s: %s (%d)", __FILE__, __LINE__, #call, cl_errstr(e_), (int)e_);    \
            return GMB_ERUNTIME;                                                                   \
        }                                                                                          \
    } while (0)

/* ---- device list ---------------------------------------------------------------------- */

#define MAX_DEVS 64
static struct {
    int done, n;
    cl_int err;
    cl_device_id dev[MAX_DEVS];
    cl_platform_id plat[MAX_DEVS];
} L;

/* NVIDIA's OpenCL library may be installed without its ICD file: when the loader would not
 * find it, point OCL_ICD_VENDORS at a private directory that names it too. */
static char icd_dir[64]; /* the private vendors directory, removed once the loader read it */

static void remove_icd_dir(void)
{
    if (!icd_dir[0])
        return;
    DIR *d = opendir(icd_dir);
    if (d) {
        struct dirent *e;
        char p[512];
        while ((e = readdir(d)))
            if (e->d_name[0] != '.') {
                snprintf(p, sizeof p, "%s/%s", icd_dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(icd_dir);
    icd_dir[0] = '\0';
    /* the directory is gone: a child (gmb run's benchmarks) must not inherit a path to it;
     * it makes its own when it needs one */
    unsetenv("OCL_ICD_VENDORS");
}

static void ensure_nvidia_icd(void)
{
    if (getenv("OCL_ICD_VENDORS") || getenv("GMB_NO_ICD_FIX"))
        return;
    const char *sys = "/etc/OpenCL/vendors";
    DIR *d = opendir(sys);
    if (d) {
        struct dirent *e;
        int has_nv = 0;
        while ((e = readdir(d)))
            has_nv |= strstr(e->d_name, "nvidia") != NULL;
        closedir(d);
        if (has_nv)
            return;
    }
    void *h = dlopen("libnvidia-opencl.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return;
    dlclose(h);
    char dir[] = "/tmp/gmb-icd-XXXXXX";
    if (!mkdtemp(dir))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/nvidia.icd", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fputs("libnvidia-opencl.so.1\n", f);
    fclose(f);
    /* keep the system's other vendors too */
    d = opendir(sys);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l < 5 || strcmp(e->d_name + l - 4, ".icd"))
                continue;
            char src[512], dst[512];
            snprintf(src, sizeof src, "%s/%s", sys, e->d_name);
            snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
            if (symlink(src, dst)) { /* best effort */
            }
        }
        closedir(d);
    }
    setenv("OCL_ICD_VENDORS", dir, 1);
    gmb_strlcpy(icd_dir, dir, sizeof icd_dir);
    gmb_info("note: NVIDIA's OpenCL library has no ICD file in %s: using a private vendors "
             "directory naming libnvidia-opencl.so.1 (set OCL_ICD_VENDORS to override)",
             sys);
}

static int type_rank(cl_device_type t)
{
    return (t & CL_DEVICE_TYPE_GPU) ? 0 : (t & CL_DEVICE_TYPE_ACCELERATOR) ? 1 : 2;
}

static void list_devices(void)
{
    if (L.done)
        return;
    L.done = 1;
    ensure_nvidia_icd();
    cl_uint np = 0;
    cl_platform_id plats[16];
    L.err = clGetPlatformIDs(16, plats, &np);
    remove_icd_dir(); /* the loader has read the vendor files by now */
    if (L.err != CL_SUCCESS)
        return;
    if (np > 16)
        np = 16;
    /* GPUs first, then accelerators, then CPUs; platform order within a rank */
    for (int rank = 0; rank < 3; rank++)
        for (cl_uint p = 0; p < np; p++) {
            cl_uint nd = 0;
            cl_device_id ids[MAX_DEVS];
            if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVS, ids, &nd) != CL_SUCCESS)
                continue;
            for (cl_uint i = 0; i < nd && i < MAX_DEVS && L.n < MAX_DEVS; i++) {
                cl_device_type t;
                if (clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof t, &t, NULL) != CL_SUCCESS ||
                    type_rank(t) != rank)
                    continue;
                L.plat[L.n] = plats[p];
                L.dev[L.n++] = ids[i];
            }
        }
}

static int ocl_count(int *n, char *why, size_t whylen)
{
    list_devices();
    *n = L.n;
    if (L.err != CL_SUCCESS) {
        snprintf(why, whylen, "no OpenCL platform: clGetPlatformIDs: %s (%d)", cl_errstr(L.err),
                 (int)L.err);
        return GMB_ESKIP;
    }
    if (!L.n) {
        snprintf(why, whylen, "no OpenCL device in any platform");
        return GMB_ESKIP;
    }
    return GMB_OK;
}

static void dev_str(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t need = 0; /* a longer string than buf is cut, not lost (CL_INVALID_VALUE) */
    char *tmp = NULL;
    if (clGetDeviceInfo(d, what, 0, NULL, &need) == CL_SUCCESS && need && (tmp = malloc(need)) &&
        clGetDeviceInfo(d, what, need, tmp, NULL) == CL_SUCCESS) {
        tmp[need - 1] = '\0';
        gmb_strlcpy(buf, tmp, len);
    }
    free(tmp);
    /* trim trailing blanks some drivers leave */
    for (size_t l = strlen(buf); l && (buf[l - 1] == ' ' || buf[l - 1] == '\n'); l--)
        buf[l - 1] = '\0';
}

static int has_ext(cl_device_id d, const char *ext)
{
    size_t len = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || !len)
        return 0;
    char *s = malloc(len + 1);
    if (!s)
        return 0;
    int found = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, len, s, NULL) == CL_SUCCESS) {
        s[len] = '\0';
        size_t el = strlen(ext);
        for (char *p = strstr(s, ext); p && !found; p = strstr(p + 1, ext))
            found = (p == s || p[-1] == ' ') && (p[el] == ' ' || p[el] == '\0');
    }
    free(s);
    return found;
}

/* What NVIDIA's OpenCL does not say, from the CUDA driver (libcuda.so.1 comes with
 * libnvidia-opencl.so.1), found by PCI bus id: the L2 size (NVIDIA's
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is the SMs' L1 summed, a few MiB where the L2 holds 50),
 * and the memory clock and bus width when NVML gave none. cuda.h: CU_DEVICE_ATTRIBUTE_
 * MEMORY_CLOCK_RATE 36 (kHz), _GLOBAL_MEMORY_BUS_WIDTH 37 (bits), _L2_CACHE_SIZE 38 (bytes).
 * Without the CUDA driver the L2 size stays unknown (0) rather than wrong. */
static void nv_cuda_attrs(gmb_dev_info_t *o)
{
    void *h = o->pci_bus_id[0] ? dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h)
        return;
    int (*init)(unsigned), (*by_pci)(int *, const char *), (*attr)(int *, int, int);
    *(void **)&init = dlsym(h, "cuInit");
    *(void **)&by_pci = dlsym(h, "cuDeviceGetByPCIBusId");
    *(void **)&attr = dlsym(h, "cuDeviceGetAttribute");
    int dev = 0, v = 0;
    if (!init || !by_pci || !attr || init(0) || by_pci(&dev, o->pci_bus_id))
        return; /* no dlclose: NVIDIA's OpenCL uses the same library */
    if (!attr(&v, 38, dev) && v > 0)
        o->llc_bytes = (uint64_t)v;
    if (!o->mem_clock_mhz && !attr(&v, 36, dev) && v > 0)
        o->mem_clock_mhz = v / 1000;
    if (!o->bus_width_bits && !attr(&v, 37, dev) && v > 0)
        o->bus_width_bits = v;
}

/* The shared-virtual-memory caps of device d (GMB_CAP_MANAGED, _PREFETCH, _SYSTEM_MEM); with
 * o non-NULL, its managed and system_mem texts too. */
static unsigned svm_caps(cl_device_id d, gmb_dev_info_t *o)
{
    char v[64];
    cl_bitfield svm = 0;
    unsigned caps = 0;
    dev_str(d, CL_DEVICE_VERSION, v, sizeof v);
    int ver = version_of(v);
    svm_load();
    if (ver < 20 || !SVM.alloc ||
        clGetDeviceInfo(d, GMB_CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) ||
        !(svm & GMB_CL_SVM_COARSE_GRAIN_BUFFER))
        return 0;
    caps |= GMB_CAP_MANAGED;
    if (svm & GMB_CL_SVM_FINE_GRAIN_SYSTEM)
        caps |= GMB_CAP_SYSTEM_MEM;
    if (ver >= 21 && SVM.migrate)
        caps |= GMB_CAP_PREFETCH;
    if (o) {
        if (caps & GMB_CAP_SYSTEM_MEM)
            gmb_strlcpy(o->system_mem, "OpenCL fine-grained system shared virtual memory",
                        sizeof o->system_mem);
        snprintf(o->managed, sizeof o->managed,
                 "OpenCL coarse-grained shared virtual memory (clSVMAlloc)%s%s",
                 svm & GMB_CL_SVM_FINE_GRAIN_BUFFER ? "; fine-grained buffers too" : "",
                 caps & GMB_CAP_PREFETCH ? "; clEnqueueSVMMigrateMem" : "");
    }
    return caps;
}

static int ocl_info(int idx, gmb_dev_info_t *o)
{
    list_devices();
    if (idx < 0 || idx >= L.n)
        return GMB_EUSAGE;
    cl_device_id d = L.dev[idx];
    memset(o, 0, sizeof *o);
    gmb_strlcpy(o->backend, "opencl", sizeof o->backend);
    o->index = idx;
    o->ecc = -1;
    dev_str(d, CL_DEVICE_NAME, o->name, sizeof o->name);
    dev_str(d, CL_DEVICE_VENDOR, o->vendor, sizeof o->vendor);
    dev_str(d, CL_DRIVER_VERSION, o->driver_version, sizeof o->driver_version);
    dev_str(d, CL_DEVICE_VERSION, o->runtime_version, sizeof o->runtime_version);
    if (clGetPlatformInfo(L.plat[idx], CL_PLATFORM_NAME, sizeof o->platform, o->platform, NULL))
        o->platform[0] = '\0';
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    gmb_strlcpy(o->type,
                (t & CL_DEVICE_TYPE_GPU)           ? "gpu"
                : (t & CL_DEVICE_TYPE_CPU)         ? "cpu"
                : (t & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                   : "other",
                sizeof o->type);
    cl_ulong u64 = 0;
    cl_uint u32 = 0;
    size_t sz = 0;
    cl_bool b = 0;
    if (!clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof u64, &u64, NULL))
        o->mem_bytes = u64;
    if (!clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof u64, &u64, NULL))
        o->max_alloc_bytes = u64;
    if (!clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof u64, &u64, NULL))
        o->llc_bytes = u64;
    if (!clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof u64, &u64, NULL))
        o->local_mem_bytes = u64;
    cl_device_local_mem_type lt;
    if (!clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof lt, &lt, NULL))
        gmb_strlcpy(o->local_mem_type, lt == CL_LOCAL ? "dedicated" : "global",
                    sizeof o->local_mem_type);
    if (!clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u32, &u32, NULL))
        o->compute_units = (int)u32;
    if (!clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof sz, &sz, NULL))
        o->max_group_size = (int)sz;
    if (!clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u32, &u32, NULL))
        o->core_clock_mhz = (int)u32;
    if (!clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof b, &b, NULL) && b)
        o->caps |= GMB_CAP_MAPPED | GMB_CAP_HOST_UNIFIED;
    if (!clGetDeviceInfo(d, CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof b, &b, NULL))
        o->ecc = b ? 1 : 0;
    if (!clGetDeviceInfo(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof sz, &sz, NULL))
        o->timer_res_ns = sz ? (double)sz : 1.0;
    gmb_strlcpy(o->timer, "OpenCL profiling events (command start to end)", sizeof o->timer);
    gmb_strlcpy(o->arch, o->runtime_version, sizeof o->arch);

    khr_pci_info_t pci;
    if (has_ext(d, "cl_khr_pci_bus_info") &&
        !clGetDeviceInfo(d, GMB_CL_DEVICE_PCI_BUS_INFO_KHR, sizeof pci, &pci, NULL))
        snprintf(o->pci_bus_id, sizeof o->pci_bus_id, "%04x:%02x:%02x.%x", pci.domain, pci.bus,
                 pci.device, pci.function);
    if (has_ext(d, "cl_nv_device_attribute_query")) {
        cl_uint maj = 0, min = 0, bus = 0, slot = 0, dom = 0, warp = 0;
        o->caps |= GMB_CAP_NVIDIA;
        if (!clGetDeviceInfo(d, GMB_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof maj, &maj,
                             NULL) &&
            !clGetDeviceInfo(d, GMB_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof min, &min,
                             NULL)) {
            snprintf(o->arch, sizeof o->arch, "sm_%u%u", maj, min);
            unsigned cc = maj * 10 + min;
            o->threads_per_cu = cc == 75                                          ? 1024
                                : (cc == 86 || cc == 87 || cc == 89 || cc >= 120) ? 1536
                                                                                  : 2048;
        }
        if (!clGetDeviceInfo(d, GMB_CL_DEVICE_WARP_SIZE_NV, sizeof warp, &warp, NULL))
            o->warp_size = (int)warp;
        if (!o->pci_bus_id[0] &&
            !clGetDeviceInfo(d, GMB_CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL) &&
            !clGetDeviceInfo(d, GMB_CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL)) {
            if (clGetDeviceInfo(d, GMB_CL_DEVICE_PCI_DOMAIN_ID_NV, sizeof dom, &dom, NULL))
                dom = 0;
            /* the NV "slot id" packs device << 3 | function */
            snprintf(o->pci_bus_id, sizeof o->pci_bus_id, "%04x:%02x:%02x.%x", dom, bus, slot >> 3,
                     slot & 7);
        }
    }
    if (has_ext(d, "cl_amd_device_attribute_query") &&
        !clGetDeviceInfo(d, GMB_CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof u32, &u32, NULL))
        o->warp_size = (int)u32;
    if (!strcmp(o->type, "cpu"))
        gmb_strlcpy(o->peak_source, "unknown: a CPU device reports no memory clock or bus width",
                    sizeof o->peak_source);
    o->caps |= svm_caps(d, o);
    if (o->caps & GMB_CAP_NVIDIA) {
        o->llc_bytes = 0; /* not the L2 there: unknown unless the CUDA driver says */
        gmb_nvml_fill_info(o);
        nv_cuda_attrs(o);
    }
    gmb_dev_info_derive(o);
    return GMB_OK;
}

static void ocl_close(gmb_dev_t *d);

/* Open device idx in context ctx (retained here, so the caller keeps its own reference):
 * queues with profiling, the device's facts. */
static int open_in(int idx, cl_context ctx, gmb_dev_t **out)
{
    gmb_dev_t *d = calloc(1, sizeof *d);
    if (!d)
        return GMB_ERUNTIME;
    cl_int e;
    d->id = L.dev[idx];
    d->caps = svm_caps(d->id, NULL); /* what the SVM calls need; not the whole ocl_info */
    cl_device_type ty = 0;
    d->cpu = clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof ty, &ty, NULL) == CL_SUCCESS &&
             (ty & CL_DEVICE_TYPE_CPU);
    clRetainContext(ctx);
    d->ctx = ctx;
    d->q = clCreateCommandQueue(d->ctx, d->id, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        const cl_int err = e; /* not address-taken: the compiler sees CL_TRY return */
        clReleaseContext(d->ctx);
        free(d);
        CL_TRY(err);
    }
    d->qs[0] = d->q;
    int made = 1;
    for (e = CL_SUCCESS; made < GMB_STREAMS && e == CL_SUCCESS; made++)
        d->qs[made] = clCreateCommandQueue(d->ctx, d->id, CL_QUEUE_PROFILING_ENABLE, &e);
    if (e != CL_SUCCESS) {
        const cl_int err = e;
        for (int i = made - 2; i >= 0; i--)
            clReleaseCommandQueue(d->qs[i]);
        clReleaseContext(d->ctx);
        free(d);
        CL_TRY(err);
    }
    *out = d;
    return GMB_OK;
}

static int ocl_open(int idx, gmb_dev_t **out)
{
    list_devices();
    if (idx < 0 || idx >= L.n)
        return GMB_EUSAGE;
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)L.plat[idx], 0};
    cl_context ctx = clCreateContext(props, 1, &L.dev[idx], NULL, NULL, &e);
    CL_TRY(e);
    int rc = open_in(idx, ctx, out);
    clReleaseContext(ctx); /* the device holds its own reference */
    return rc;
}

/* Two devices in one context over both (the same platform): buffers belong to the context,
 * each device has its own queues, and a copy between buffers that two devices allocated runs
 * on the queue of the copy's caller after the source's migration to its own device (see
 * enqueue_copy). */
static int ocl_pair_open(int a, int b, gmb_dev_t *out[2], char *why, size_t whylen)
{
    list_devices();
    out[0] = out[1] = NULL;
    if (a < 0 || a >= L.n || b < 0 || b >= L.n || a == b)
        return GMB_EUSAGE;
    if (L.plat[a] != L.plat[b]) {
        char pa[128] = "?", pb[128] = "?";
        clGetPlatformInfo(L.plat[a], CL_PLATFORM_NAME, sizeof pa, pa, NULL);
        clGetPlatformInfo(L.plat[b], CL_PLATFORM_NAME, sizeof pb, pb, NULL);
        snprintf(why, whylen,
                 "OpenCL devices %d and %d are in different platforms (%s, %s): one context "
                 "cannot hold both, and a copy between them would go through the host",
                 a, b, pa, pb);
        return GMB_ESKIP;
    }
    cl_int e;
    cl_device_id ids[2] = {L.dev[a], L.dev[b]};
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)L.plat[a], 0};
    cl_context ctx = clCreateContext(props, 2, ids, NULL, NULL, &e);
    if (e != CL_SUCCESS) {
        snprintf(why, whylen, "clCreateContext over OpenCL devices %d and %d: %s (%d)", a, b,
                 cl_errstr(e), (int)e);
        return GMB_ESKIP;
    }
    int rc = open_in(a, ctx, &out[0]);
    if (!rc && (rc = open_in(b, ctx, &out[1]))) {
        ocl_close(out[0]);
        out[0] = NULL;
    }
    clReleaseContext(ctx);
    return rc;
}

static void span_clear(span_t *sp)
{
    if (sp->last && sp->last != sp->first)
        clReleaseEvent(sp->last);
    if (sp->first)
        clReleaseEvent(sp->first);
    sp->first = sp->last = NULL;
    sp->open = 0;
}

static void ocl_close(gmb_dev_t *d)
{
    if (!d)
        return;
    for (int i = GMB_STREAMS - 1; i >= 0; i--) {
        clFinish(d->qs[i]);
        span_clear(&d->sp[i]);
        if (i)
            clReleaseCommandQueue(d->qs[i]);
    }
    clReleaseCommandQueue(d->q);
    if (d->touch)
        clReleaseKernel(d->touch);
    if (d->touch_p)
        clReleaseProgram(d->touch_p);
    clReleaseContext(d->ctx);
    free(d);
}

/* Host kinds: pageable is malloc'd memory that copies reach through Read/WriteBuffer; pinned
 * and mapped are CL_MEM_ALLOC_HOST_PTR buffers (page-locked where the implementation can),
 * mapped once for their host pointer and kept mapped. Mapped ones are also kernel arguments:
 * the device then reads host memory through the mapping (zero-copy). The same allocation
 * serves both kinds; what differs is how a benchmark uses it. */
/* Fill bytes of device buffer or shared virtual memory b from off with byte and wait: with
 * the widest pattern (16, 4 or 1 bytes) that off and bytes allow, in pieces of at most
 * 256 MiB (NVIDIA's OpenCL stalled for over 20 s in one 1-byte-pattern fill of 3.75 GiB on an
 * H200, then failed). The first error, or CL_SUCCESS. */
static cl_int fill_wide(cl_command_queue q, gmb_buf_t *b, size_t off, unsigned char byte,
                        size_t bytes)
{
    cl_uchar pat[16];
    memset(pat, byte, sizeof pat);
    size_t w = off % 16 == 0 && bytes % 16 == 0 ? 16 : off % 4 == 0 && bytes % 4 == 0 ? 4 : 1;
    const size_t piece = (size_t)256 << 20;
    cl_int e = CL_SUCCESS;
    for (size_t at = 0; at < bytes && e == CL_SUCCESS; at += piece) {
        size_t len = bytes - at < piece ? bytes - at : piece;
        e = b->svm ? SVM.fill(q, (char *)b->svm + off + at, pat, w, len, 0, NULL, NULL)
                   : clEnqueueFillBuffer(q, b->mem, pat, w, off + at, len, 0, NULL, NULL);
    }
    return e == CL_SUCCESS ? clFinish(q) : e;
}

/* The first-touch kernel of a CPU device (one 16-byte store a work-item), built once; NULL
 * where it cannot be built (then, and on later calls, the fill serves). */
static cl_kernel touch_kernel(gmb_dev_t *d)
{
    static const char *src = "__kernel void gmb_touch(__global uint4 *p, ulong n)\n"
                             "{ size_t i = get_global_id(0); if (i < n) p[i] = (uint4)(0); }\n";
    if (d->touch || d->touch_failed)
        return d->touch;
    cl_int e;
    d->touch_p = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &e);
    if (e == CL_SUCCESS && clBuildProgram(d->touch_p, 1, &d->id, "", NULL, NULL) == CL_SUCCESS)
        d->touch = clCreateKernel(d->touch_p, "gmb_touch", &e);
    if (!d->touch) {
        if (d->touch_p)
            clReleaseProgram(d->touch_p);
        d->touch_p = NULL;
        d->touch_failed = 1;
    }
    return d->touch;
}

/* The first touch of a new device buffer. On a CPU device it faults the buffer's pages in, and
 * PoCL's fill does that on one thread: there a kernel on every core does it (3 buffers of
 * 2 GiB: 3.8-6.8 s before gmb-stream's first kernel on a 2-core VM with the fill, 1.1-5.7 s so;
 * page clearing had been a third of the run's CPU time). The bytes past the last whole 16-byte
 * element, and every other device, take the fill. */
static cl_int first_touch(gmb_dev_t *d, gmb_buf_t *b, size_t bytes)
{
    cl_kernel k = d->cpu && bytes >= 16 ? touch_kernel(d) : NULL;
    if (!k)
        return fill_wide(d->q, b, 0, 0, bytes);
    cl_ulong n = bytes / 16;
    size_t local = 256, global = (size_t)((n + local - 1) / local * local);
    cl_int e = clSetKernelArg(k, 0, sizeof b->mem, &b->mem);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k, 1, sizeof n, &n);
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(d->q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (e == CL_SUCCESS && bytes % 16)
        return fill_wide(d->q, b, (size_t)n * 16, 0, bytes % 16);
    return e == CL_SUCCESS ? clFinish(d->q) : e;
}

/* The OpenCL call of each kind of memory (alloc, alloc_quiet). */
static const char *ocl_alloc_api(gmb_mem_kind_t kind)
{
    switch (kind) {
    case GMB_MEM_DEVICE:
        return "clCreateBuffer (CL_MEM_READ_WRITE; an implementation may allocate at the "
               "first use: PoCL does)";
    case GMB_MEM_HOST_PINNED:
    case GMB_MEM_HOST_MAPPED:
        return "clCreateBuffer (CL_MEM_ALLOC_HOST_PTR), mapped once (clEnqueueMapBuffer)";
    case GMB_MEM_MANAGED:
        return "clSVMAlloc (coarse-grained shared virtual memory)";
    case GMB_MEM_HOST_PAGEABLE:
        return "posix_memalign (pageable host memory)";
    }
    return "unknown";
}

/* alloc without a word on a refusal: the call and OpenCL's error in why. Without
 * GMB_ALLOC_UNTOUCHED a device buffer gets alloc's first touch (where a lazy implementation
 * allocates, and refuses) and a pinned one is cleared by the host, as alloc does. */
static int ocl_alloc_quiet(gmb_dev_t *d, gmb_mem_kind_t kind, size_t bytes, unsigned flags,
                           gmb_buf_t **out, char *why, size_t whylen)
{
    *out = NULL;
    why[0] = '\0';
    if (kind == GMB_MEM_MANAGED && !(d->caps & GMB_CAP_MANAGED)) {
        snprintf(why, whylen,
                 "the device (or the OpenCL loader) has no coarse-grained shared "
                 "virtual memory (clSVMAlloc)");
        return GMB_ESKIP;
    }
    gmb_buf_t *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(why, whylen, "out of host memory for the buffer's handle");
        return GMB_ERUNTIME;
    }
    b->dev = d;
    b->kind = kind;
    b->bytes = bytes;
    cl_int e = CL_SUCCESS;
    const char *what = "clCreateBuffer";
    if (kind == GMB_MEM_MANAGED) {
        b->svm = SVM.alloc(d->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, 0);
        if (!b->svm) {
            free(b);
            snprintf(why, whylen, "clSVMAlloc of %zu bytes returned NULL (OpenCL gives no code)",
                     bytes);
            return GMB_ERUNTIME;
        }
        *out = b;
        return GMB_OK;
    }
    if (kind == GMB_MEM_HOST_PAGEABLE) {
        if (posix_memalign(&b->host, 4096, bytes ? bytes : 1)) /* a kernel may reach it (SVM) */
            b->host = NULL;
        if (!b->host) {
            free(b);
            snprintf(why, whylen, "posix_memalign of %zu bytes of pageable host memory failed",
                     bytes);
            return GMB_ERUNTIME;
        }
        *out = b;
        return GMB_OK;
    }
    cl_mem_flags fl = CL_MEM_READ_WRITE | (kind == GMB_MEM_DEVICE ? 0 : CL_MEM_ALLOC_HOST_PTR);
    b->mem = clCreateBuffer(d->ctx, fl, bytes, NULL, &e);
    if (e == CL_SUCCESS && kind != GMB_MEM_DEVICE) {
        what = "clEnqueueMapBuffer";
        b->host = clEnqueueMapBuffer(d->q, b->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                     NULL, NULL, &e);
        if (e == CL_SUCCESS && !b->host)
            e = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        if (e == CL_SUCCESS && !(flags & GMB_ALLOC_UNTOUCHED))
            memset(b->host, 0, bytes);
    } else if (e == CL_SUCCESS && !(flags & GMB_ALLOC_UNTOUCHED)) {
        /* touch it so that allocation failures show here, not in a timed kernel */
        what = "the first touch (fill) of a new buffer";
        e = first_touch(d, b, bytes);
    }
    if (e != CL_SUCCESS) {
        if (b->mem)
            clReleaseMemObject(b->mem);
        free(b);
        snprintf(why, whylen, "%s of %zu bytes: %s (%d)", what, bytes, cl_errstr(e), (int)e);
        return GMB_ERUNTIME;
    }
    *out = b;
    return GMB_OK;
}

/* alloc: alloc_quiet with OpenCL's words on stderr where it refuses (a skip where the device
 * has no such memory) */
static int ocl_alloc(gmb_dev_t *d, gmb_mem_kind_t kind, size_t bytes, gmb_buf_t **out)
{
    char why[320];
    int rc = ocl_alloc_quiet(d, kind, bytes, 0, out, why, sizeof why);
    if (rc == GMB_ESKIP)
        gmb_skip("opencl backend: %s", why);
    else if (rc)
        gmb_error("opencl backend: %s", why);
    return rc;
}

static void ocl_free(gmb_buf_t *b)
{
    if (!b)
        return;
    if (b->kind == GMB_MEM_HOST_PAGEABLE) { /* a kernel or a non-blocking copy may still use it */
        for (int i = 0; i < GMB_STREAMS; i++)
            clFinish(b->dev->qs[i]);
        free(b->host);
    } else if (b->svm) {
        for (int i = 0; i < GMB_STREAMS; i++)
            clFinish(b->dev->qs[i]);
        if (b->mapped && SVM.unmap(b->dev->q, b->svm, 0, NULL, NULL) == CL_SUCCESS)
            clFinish(b->dev->q);
        SVM.free(b->dev->ctx, b->svm);
    } else {
        if (b->host &&
            clEnqueueUnmapMemObject(b->dev->q, b->mem, b->host, 0, NULL, NULL) == CL_SUCCESS)
            clFinish(b->dev->q);
        clReleaseMemObject(b->mem);
    }
    free(b);
}

static void *ocl_host_ptr(gmb_buf_t *b)
{
    return b->svm ? b->svm : b->host;
}

/* Host kinds are written, read and filled by the host once every queue is idle (a copy or a
 * kernel may still be using the memory). */
static int host_side(gmb_buf_t *b)
{
    if (!b->host)
        return 0;
    for (int i = 0; i < GMB_STREAMS; i++)
        CL_TRY(clFinish(b->dev->qs[i]));
    return 1;
}

static int ocl_write(gmb_buf_t *b, size_t off, const void *src, size_t bytes)
{
    if (b->svm) {
        CL_TRY(SVM.memcpy(b->dev->q, CL_TRUE, (char *)b->svm + off, src, bytes, 0, NULL, NULL));
        return GMB_OK;
    }
    int h = host_side(b);
    if (h)
        return h < 0 ? h : (memcpy((char *)b->host + off, src, bytes), GMB_OK);
    CL_TRY(clEnqueueWriteBuffer(b->dev->q, b->mem, CL_TRUE, off, bytes, src, 0, NULL, NULL));
    return GMB_OK;
}

static int ocl_read(gmb_buf_t *b, size_t off, void *dst, size_t bytes)
{
    if (b->svm) {
        CL_TRY(SVM.memcpy(b->dev->q, CL_TRUE, dst, (char *)b->svm + off, bytes, 0, NULL, NULL));
        return GMB_OK;
    }
    int h = host_side(b);
    if (h)
        return h < 0 ? h : (memcpy(dst, (char *)b->host + off, bytes), GMB_OK);
    CL_TRY(clEnqueueReadBuffer(b->dev->q, b->mem, CL_TRUE, off, bytes, dst, 0, NULL, NULL));
    return GMB_OK;
}

static int ocl_fill(gmb_buf_t *b, size_t off, unsigned char byte, size_t bytes)
{
    int h = b->svm ? 0 : host_side(b);
    if (h)
        return h < 0 ? h : (memset((char *)b->host + off, byte, bytes), GMB_OK);
    CL_TRY(fill_wide(b->dev->q, b, off, byte, bytes));
    return GMB_OK;
}

static int event_ns(cl_event ev, double *ns)
{
    cl_ulong t0 = 0, t1 = 0;
    CL_TRY(clWaitForEvents(1, &ev));
    CL_TRY(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CL_TRY(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    *ns = (double)(t1 - t0);
    return GMB_OK;
}

/* Enqueue a copy on queue q: device to device with CopyBuffer; a host side through
 * Write/ReadBuffer with its host pointer (the pinned path of NVIDIA's OpenCL guide). */
static int enqueue_copy(cl_command_queue q, gmb_buf_t *dst, size_t doff, gmb_buf_t *src,
                        size_t soff, size_t bytes, cl_event *ev)
{
    if (dst->host && src->host) {
        gmb_error("opencl backend: a copy between two host buffers is not a device copy");
        return GMB_EUSAGE;
    }
    if (dst->svm || src->svm) {
        if (dst->mem || src->mem) {
            gmb_error("opencl backend: a copy between shared virtual memory and a buffer object "
                      "is not supported");
            return GMB_EUSAGE;
        }
        CL_TRY(SVM.memcpy(q, CL_FALSE, (char *)ocl_host_ptr(dst) + doff,
                          (char *)ocl_host_ptr(src) + soff, bytes, 0, NULL, ev));
        return GMB_OK;
    }
    if (src->host)
        CL_TRY(clEnqueueWriteBuffer(q, dst->mem, CL_FALSE, doff, bytes, (char *)src->host + soff, 0,
                                    NULL, ev));
    else if (dst->host)
        CL_TRY(clEnqueueReadBuffer(q, src->mem, CL_FALSE, soff, bytes, (char *)dst->host + doff, 0,
                                   NULL, ev));
    else if (src->dev == dst->dev)
        CL_TRY(clEnqueueCopyBuffer(q, src->mem, dst->mem, soff, doff, bytes, 0, NULL, ev));
    else { /* between the two devices of a pair: the source to its own device first */
        cl_event mig;
        CL_TRY(clEnqueueMigrateMemObjects(src->dev->q, 1, &src->mem, 0, 0, NULL, &mig));
        cl_int e = clFlush(src->dev->q);
        if (e == CL_SUCCESS)
            e = clEnqueueCopyBuffer(q, src->mem, dst->mem, soff, doff, bytes, 1, &mig, ev);
        clReleaseEvent(mig);
        CL_TRY(e);
    }
    return GMB_OK;
}

static int ocl_copy(gmb_buf_t *dst, size_t doff, gmb_buf_t *src, size_t soff, size_t bytes,
                    double *ns)
{
    cl_event ev;
    int rc = enqueue_copy(dst->dev->q, dst, doff, src, soff, bytes, &ev);
    if (rc)
        return rc;
    rc = ns ? event_ns(ev, ns) : (clFinish(dst->dev->q) ? GMB_ERUNTIME : GMB_OK);
    clReleaseEvent(ev);
    return rc;
}

static int ocl_prog_load(gmb_dev_t *d, const gmb_kernels_t *k, const char *variant,
                         gmb_prog_t **out)
{
    const char *opts = NULL;
    for (const gmb_cl_variant_t *v = k->cl_variants; v && v->variant; v++)
        if (!strcmp(v->variant, variant))
            opts = v->options;
    if (!opts || !k->cl_source) {
        gmb_error("opencl: no kernel variant '%s'", variant);
        return GMB_ERUNTIME;
    }
    gmb_prog_t *p = calloc(1, sizeof *p);
    if (!p)
        return GMB_ERUNTIME;
    cl_int e;
    p->dev = d;
    const char *src = k->cl_source;
    p->p = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &e);
    if (e != CL_SUCCESS) {
        free(p);
        CL_TRY(e);
    }
    char full[512];
    snprintf(full, sizeof full, "-cl-std=CL1.2 %s", opts);
    e = clBuildProgram(p->p, 1, &d->id, full, NULL, NULL);
    if (e != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(p->p, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = calloc(1, len + 1);
        if (log && !clGetProgramBuildInfo(p->p, d->id, CL_PROGRAM_BUILD_LOG, len, log, NULL))
            fprintf(stderr, "%s: OpenCL build log (variant %s):\n%s\n", gmb_progname, variant, log);
        free(log);
        clReleaseProgram(p->p);
        free(p);
        CL_TRY(e);
    }
    *out = p;
    return GMB_OK;
}

static void ocl_prog_free(gmb_prog_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nk; i++)
        clReleaseKernel(p->kerns[i].k);
    clReleaseProgram(p->p);
    free(p);
}

static int ocl_kern_get(gmb_prog_t *p, const char *name, gmb_kern_t **out)
{
    for (int i = 0; i < p->nk; i++)
        if (!strcmp(p->kerns[i].name, name)) {
            *out = &p->kerns[i];
            return GMB_OK;
        }
    if (p->nk == MAX_KERNS)
        return GMB_ERUNTIME;
    cl_int e;
    cl_kernel k = clCreateKernel(p->p, name, &e);
    CL_TRY(e);
    gmb_kern_t *kk = &p->kerns[p->nk++];
    kk->prog = p;
    kk->k = k;
    gmb_strlcpy(kk->name, name, sizeof kk->name);
    *out = kk;
    return GMB_OK;
}

/* Set the arguments of a launch; pageable memory cannot be one. */
static int set_args(gmb_kern_t *k, const gmb_launch_t *cfg, const gmb_arg_t *args, int nargs)
{
    if (cfg->cluster > 1) { /* callers check GMB_CAP_CLUSTER, which OpenCL never has */
        gmb_error("opencl backend: no thread-block clusters (a launch asked for %zu groups each)",
                  cfg->cluster);
        return GMB_EUSAGE;
    }
    for (int i = 0; i < nargs; i++) {
        if (args[i].kind == GMB_ARG_BUF && args[i].buf->svm) {
            CL_TRY(SVM.arg(k->k, (cl_uint)i, args[i].buf->svm));
            continue;
        }
        if (args[i].kind == GMB_ARG_BUF && args[i].buf->kind == GMB_MEM_HOST_PAGEABLE &&
            (k->prog->dev->caps & GMB_CAP_SYSTEM_MEM)) { /* fine-grained system SVM */
            CL_TRY(SVM.arg(k->k, (cl_uint)i, args[i].buf->host));
            continue;
        }
        if (args[i].kind == GMB_ARG_BUF && !args[i].buf->mem) {
            gmb_error("opencl backend: pageable host memory cannot be a kernel argument");
            return GMB_EUSAGE;
        }
        if (args[i].kind == GMB_ARG_BUF)
            CL_TRY(clSetKernelArg(k->k, (cl_uint)i, sizeof(cl_mem), &args[i].buf->mem));
        else
            CL_TRY(clSetKernelArg(k->k, (cl_uint)i, args[i].size, args[i].val));
    }
    if (cfg->shared_bytes) /* the kernel's trailing __local parameter (GMB_DYN_SHARED) */
        CL_TRY(clSetKernelArg(k->k, (cl_uint)nargs, cfg->shared_bytes, NULL));
    return GMB_OK;
}

static int ocl_launch(gmb_kern_t *k, const gmb_launch_t *cfg, const gmb_arg_t *args, int nargs,
                      double *ns)
{
    int rc0 = set_args(k, cfg, args, nargs);
    if (rc0)
        return rc0;
    size_t local = cfg->group_size, global = cfg->groups * cfg->group_size;
    cl_command_queue q = k->prog->dev->q;
    cl_event ev;
    CL_TRY(clEnqueueNDRangeKernel(q, k->k, 1, NULL, &global, &local, 0, NULL, ns ? &ev : NULL));
    if (!ns) {
        CL_TRY(clFinish(q));
        return GMB_OK;
    }
    int rc = event_ns(ev, ns);
    clReleaseEvent(ev);
    return rc;
}

static int ocl_kern_occupancy(gmb_kern_t *k, size_t group_size, size_t shared_bytes, int *groups)
{
    (void)k;
    (void)group_size;
    (void)shared_bytes;
    *groups = 0; /* OpenCL does not say */
    return GMB_OK;
}

/* ---- spans on several queues, peer access ------------------------------------------------ */

static int ocl_span_begin(gmb_dev_t *d, int s)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    span_clear(&d->sp[s]);
    d->sp[s].open = 1;
    return GMB_OK;
}

/* Keep ev (owned) as the latest command of queue s's span. */
static void span_add(gmb_dev_t *d, int s, cl_event ev)
{
    span_t *sp = &d->sp[s];
    if (!sp->open) {
        clReleaseEvent(ev);
        return;
    }
    if (!sp->first) {
        sp->first = sp->last = ev;
        return;
    }
    if (sp->last != sp->first)
        clReleaseEvent(sp->last);
    sp->last = ev;
}

static int ocl_copy_async(gmb_dev_t *d, int s, gmb_buf_t *dst, size_t doff, gmb_buf_t *src,
                          size_t soff, size_t bytes)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    cl_event ev;
    int rc = enqueue_copy(d->qs[s], dst, doff, src, soff, bytes, &ev);
    if (rc)
        return rc;
    span_add(d, s, ev);
    CL_TRY(clFlush(d->qs[s])); /* start it: the other queue's work runs meanwhile */
    return GMB_OK;
}

static int ocl_launch_async(gmb_kern_t *k, int s, const gmb_launch_t *cfg, const gmb_arg_t *args,
                            int nargs)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    int rc = set_args(k, cfg, args, nargs);
    if (rc)
        return rc;
    gmb_dev_t *d = k->prog->dev;
    size_t local = cfg->group_size, global = cfg->groups * cfg->group_size;
    cl_event ev;
    CL_TRY(clEnqueueNDRangeKernel(d->qs[s], k->k, 1, NULL, &global, &local, 0, NULL, &ev));
    span_add(d, s, ev);
    CL_TRY(clFlush(d->qs[s]));
    return GMB_OK;
}

static int ocl_span_end(gmb_dev_t *d, int s)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    d->sp[s].open = 0;
    return GMB_OK;
}

static int ocl_span_wait(gmb_dev_t *d, int s, double *t0_ns, double *t1_ns)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    span_t *sp = &d->sp[s], *s0 = &d->sp[0];
    if (!sp->first || !s0->first) {
        gmb_error("opencl backend: span_wait on queue %d: %s", s,
                  !sp->first ? "the span holds no command" : "queue 0 has no span");
        return GMB_EUSAGE;
    }
    cl_ulong o = 0, a = 0, b = 0;
    CL_TRY(clWaitForEvents(1, &sp->last));
    CL_TRY(clWaitForEvents(1, &s0->first));
    CL_TRY(clGetEventProfilingInfo(s0->first, CL_PROFILING_COMMAND_START, sizeof o, &o, NULL));
    CL_TRY(clGetEventProfilingInfo(sp->first, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL));
    CL_TRY(clGetEventProfilingInfo(sp->last, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL));
    if (b < a) { /* the span's commands on clocks that disagree: no time to take from them */
        gmb_error("opencl backend: span on queue %d ends %.0f ns before it starts: the "
                  "implementation's profiling clocks disagree between commands",
                  s, (double)(a - b));
        return GMB_ERUNTIME;
    }
    *t0_ns = (double)(cl_long)(a - o);
    *t1_ns = (double)(cl_long)(b - o);
    return GMB_OK;
}

static int ocl_peer_enable(gmb_dev_t *d, gmb_dev_t *peer, char *why, size_t whylen)
{
    (void)d;
    (void)peer;
    snprintf(why, whylen,
             "OpenCL has no peer access: a kernel reaches only buffers the implementation has "
             "placed on its own device (copies between devices run: gmb-copy p2p)");
    return GMB_ESKIP;
}

static int ocl_peer_attrs(int a, int b, int *rank, int *atomics, char *why, size_t whylen)
{
    (void)a;
    (void)b;
    *rank = *atomics = 0;
    snprintf(why, whylen, "OpenCL has no query of the path between two devices");
    return GMB_ESKIP;
}

/* ---- managed memory (coarse-grained SVM) -------------------------------------------------- */

static int ocl_host_begin(gmb_buf_t *b, size_t bytes)
{
    if (bytes > b->bytes || (b->mapped && bytes > b->mapped_bytes))
        return GMB_EUSAGE;
    for (int i = 0; i < GMB_STREAMS; i++)
        CL_TRY(clFinish(b->dev->qs[i]));
    if (!b->svm) /* host kinds: the device is done with it, that is all */
        return b->host ? GMB_OK : GMB_EUSAGE;
    if (b->mapped)
        return GMB_OK;
    /* only what the host will touch: a map may copy it */
    CL_TRY(SVM.map(b->dev->q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, b->svm, bytes ? bytes : 1, 0,
                   NULL, NULL));
    b->mapped = 1;
    b->mapped_bytes = bytes;
    return GMB_OK;
}

static int ocl_host_end(gmb_buf_t *b, int s)
{
    if (s < 0 || s >= GMB_STREAMS || (!b->svm && !b->host))
        return GMB_EUSAGE;
    if (!b->mapped)
        return GMB_OK;
    /* The unmap's own event is not asked for (PoCL 6.0 crashes in clEnqueueSVMUnmap when it
     * is): markers just before and after it, on the same in-order queue, stand for its start
     * and its end in the span. */
    cl_command_queue q = b->dev->qs[s];
    cl_event before, after;
    CL_TRY(clEnqueueMarkerWithWaitList(q, 0, NULL, &before));
    span_add(b->dev, s, before);
    CL_TRY(SVM.unmap(q, b->svm, 0, NULL, NULL));
    b->mapped = 0;
    CL_TRY(clEnqueueMarkerWithWaitList(q, 0, NULL, &after));
    span_add(b->dev, s, after);
    CL_TRY(clFlush(q));
    return GMB_OK;
}

static int ocl_prefetch_async(gmb_buf_t *b, int s, size_t off, size_t bytes, int to_host, char *why,
                              size_t whylen)
{
    if (s < 0 || s >= GMB_STREAMS)
        return GMB_EUSAGE;
    if (!b->svm || !(b->dev->caps & GMB_CAP_PREFETCH)) {
        snprintf(why, whylen, "%s",
                 !b->svm ? "only shared virtual memory can be migrated"
                         : "migrating shared virtual memory needs OpenCL 2.1 "
                           "(clEnqueueSVMMigrateMem), which the device or loader lacks");
        return GMB_ESKIP;
    }
    /* Markers just before and after the migration stand for its start and end in the span,
     * as for the unmap of host_end: NVIDIA's OpenCL (580.159.04, H200) gave a migration's own
     * event an END 122 ms before its START. */
    const void *p = (char *)b->svm + off;
    cl_command_queue q = b->dev->qs[s];
    cl_event before, after;
    CL_TRY(clEnqueueMarkerWithWaitList(q, 0, NULL, &before));
    span_add(b->dev, s, before);
    cl_int e = SVM.migrate(q, 1, &p, &bytes, to_host ? GMB_CL_MIGRATE_TO_HOST : 0, 0, NULL, NULL);
    if (e != CL_SUCCESS) { /* has the call but not the move (CL_INVALID_OPERATION), or refuses
                            * this one: gmb-um probes a migration first and skips the tests */
        snprintf(why, whylen,
                 "clEnqueueSVMMigrateMem: %s (%d): the implementation does not "
                 "migrate shared virtual memory",
                 cl_errstr(e), (int)e);
        return GMB_ESKIP;
    }
    CL_TRY(clEnqueueMarkerWithWaitList(q, 0, NULL, &after));
    span_add(b->dev, s, after);
    CL_TRY(clFlush(q));
    return GMB_OK;
}

static int ocl_advise(gmb_buf_t *b, gmb_advice_t adv, char *why, size_t whylen)
{
    (void)b;
    (void)adv;
    snprintf(why, whylen,
             "OpenCL has no advice on shared virtual memory (read-mostly, "
             "preferred location, accessed-by are CUDA's)");
    return GMB_ESKIP;
}

static int ocl_mem_free(gmb_dev_t *d, uint64_t *bytes)
{
    (void)d;
    *bytes = 0;
    return GMB_ESKIP; /* OpenCL does not say */
}

/* OpenCL has no context a vendor profiler of CUDA kernels could take */
static int ocl_profiler_ctx(gmb_dev_t *dev, void **ctx, int *ordinal, char *why, size_t whylen)
{
    *ctx = NULL;
    *ordinal = -1;
    snprintf(why, whylen, "OpenCL: CUPTI counts CUDA kernels only (run with --backend cuda)");
    return GMB_ESKIP;
}

static int ocl_texture(gmb_buf_t *b, size_t *words, gmb_buf_t **out, char *why, size_t whylen)
{
    cl_bool img = CL_FALSE;
    size_t maxw = 0;
    cl_int e;
    if (b->kind != GMB_MEM_DEVICE || !b->mem) {
        snprintf(why, whylen, "an image views a device buffer object only");
        return GMB_ESKIP;
    }
    CL_TRY(clGetDeviceInfo(b->dev->id, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL));
    if (!img) {
        snprintf(why, whylen, "the device has no images (CL_DEVICE_IMAGE_SUPPORT)");
        return GMB_ESKIP;
    }
    CL_TRY(clGetDeviceInfo(b->dev->id, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof maxw, &maxw, NULL));
    size_t w = *words < b->bytes / 4 ? *words : b->bytes / 4;
    if (w > maxw)
        w = maxw;
    if (!w) {
        snprintf(why, whylen, "an empty image");
        return GMB_ESKIP;
    }
    cl_image_format f = {CL_R, CL_UNSIGNED_INT32};
    cl_image_desc d;
    memset(&d, 0, sizeof d);
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.image_width = w;
    d.buffer = b->mem;
    gmb_buf_t *v = calloc(1, sizeof *v);
    if (!v)
        return GMB_ERUNTIME;
    v->mem = clCreateImage(b->dev->ctx, CL_MEM_READ_ONLY, &f, &d, NULL, &e);
    if (e != CL_SUCCESS) {
        free(v);
        if (e == CL_IMAGE_FORMAT_NOT_SUPPORTED) { /* CL_R of 32-bit unsigned texels: optional */
            snprintf(why, whylen, "the device has no 1-D images of 32-bit unsigned texels");
            return GMB_ESKIP;
        }
        CL_TRY(e);
    }
    v->dev = b->dev;
    v->kind = GMB_MEM_DEVICE;
    v->bytes = w * 4;
    *words = w;
    *out = v;
    return GMB_OK;
}

/* Why an OpenCL device lacks cap, for a skip's reason. */
static const char *ocl_lacks(unsigned cap)
{
    switch (cap) {
    case GMB_CAP_CLUSTER:
        return "OpenCL has no thread-block clusters (distributed shared memory is CUDA's, "
               "compute capability 9.0 on)";
    case GMB_CAP_MAPPED:
        return "OpenCL kernels reach host memory only on a device that shares it "
               "(CL_DEVICE_HOST_UNIFIED_MEMORY)";
    case GMB_CAP_PREFETCH:
        return "migrating shared virtual memory needs OpenCL 2.1 (clEnqueueSVMMigrateMem), "
               "which the device or loader lacks";
    case GMB_CAP_SYSTEM_MEM:
        return "kernels cannot use plain malloc'd memory here (no fine-grained system shared "
               "virtual memory)";
    case GMB_CAP_MANAGED:
        return "no coarse-grained shared virtual memory";
    case GMB_CAP_GRANULE:
        return "OpenCL has no such query";
    default:
        return "OpenCL does not offer it";
    }
}

const gmb_backend_t gmb_backend_opencl = {
    .kind = &gmb_kind_opencl,
    .copy_api = "clEnqueueWriteBuffer/ReadBuffer with the host pointer (host side), "
                "clEnqueueCopyBuffer (device to device), non-blocking, one queue each",
    .copy_pageable = "pageable copies go through the implementation's staging",
    .lacks = ocl_lacks,
    .count = ocl_count,
    .info = ocl_info,
    .open = ocl_open,
    .close = ocl_close,
    .alloc = ocl_alloc,
    .free = ocl_free,
    .host_ptr = ocl_host_ptr,
    .write = ocl_write,
    .read = ocl_read,
    .fill = ocl_fill,
    .copy = ocl_copy,
    .prog_load = ocl_prog_load,
    .prog_free = ocl_prog_free,
    .kern_get = ocl_kern_get,
    .launch = ocl_launch,
    .kern_occupancy = ocl_kern_occupancy,
    .span_begin = ocl_span_begin,
    .copy_async = ocl_copy_async,
    .launch_async = ocl_launch_async,
    .span_end = ocl_span_end,
    .span_wait = ocl_span_wait,
    .peer_enable = ocl_peer_enable,
    .pair_open = ocl_pair_open,
    .peer_attrs = ocl_peer_attrs,
    .peer_path = "one context over both devices (the same platform); the source buffer "
                 "migrated to its device (clEnqueueMigrateMemObjects), then clEnqueueCopyBuffer "
                 "on the destination device's queue, timed by its profiling events; how the "
                 "data move is the implementation's (OpenCL does not say)",
    .host_begin = ocl_host_begin,
    .host_end = ocl_host_end,
    .prefetch_async = ocl_prefetch_async,
    .advise = ocl_advise,
    .mem_free = ocl_mem_free,
    .texture = ocl_texture,
    .profiler_ctx = ocl_profiler_ctx,
    .alloc_quiet = ocl_alloc_quiet,
    .alloc_api = ocl_alloc_api,
};
