/* meta.h - what a record says about the run: NVML clocks, hwloc locality, host facts. */
#ifndef GMB_META_H
#define GMB_META_H

#include "backend/backend.h"

/* Clocks and limits of an NVIDIA GPU at one moment (NVML). A value NVML did not give is
 * GMB_UNKNOWN (power: < 0; throttle: throttle_known 0), and null in the record. */
#define GMB_UNKNOWN 0xffffffffu
typedef struct gmb_clocks {
    int available;               /* 0: NVML missing or did not know the device (see why) */
    char why[160];               /* reason when not available */
    unsigned sm_mhz;             /* current SM clock */
    unsigned mem_mhz;            /* current memory clock */
    unsigned sm_max_mhz;         /* maximum SM clock */
    unsigned temp_c;             /* GPU temperature, Celsius */
    double power_w;              /* board power draw, watts; <0 unknown */
    unsigned long long throttle; /* NVML clock event (throttle) reason bits */
    int throttle_known;          /* 0: NVML did not answer for the reasons */
    long long viol_ns[3];        /* time held below the application clocks so far, by power,
                                    thermal, board limit (GMB_VIOL_NAMES); -1 unknown */
} gmb_clocks_t;
#define GMB_VIOL_KINDS 3
#define GMB_VIOL_NAMES                                                                             \
    {                                                                                              \
        "power", "thermal", "board_limit"                                                          \
    }

/* Read the clocks of the NVIDIA GPU at PCI bus id (NVML through dlopen). Always returns 0;
 * out->available says whether it worked. */
int gmb_nvml_clocks(const char *pci_bus_id, gmb_clocks_t *out);
/* Only NVML's cumulative times below the application clocks (viol_ns, as in gmb_clocks_t)
 * and the SM clock (GMB_UNKNOWN when not given), for a point's start and end: 1 when NVML
 * answered for the device, else 0. */
int gmb_nvml_viol(const char *pci_bus_id, long long viol_ns[GMB_VIOL_KINDS], unsigned *sm_mhz);
/* The board's energy counter of the NVIDIA GPU at PCI bus id: millijoules since the driver
 * loaded (nvmlDeviceGetTotalEnergyConsumption, Volta on). 1 when read, else 0 with why. */
int gmb_nvml_energy(const char *pci_bus_id, unsigned long long *mj, char *why, size_t len);
/* Fill what NVML knows and the backend did not (memory clock, bus width, ECC, driver
 * version) for an NVIDIA device; returns 0 when NVML answered, GMB_ESKIP otherwise. */
int gmb_nvml_fill_info(gmb_dev_info_t *info);
/* The PCIe link of an NVIDIA GPU (NVML). */
typedef struct gmb_pcie {
    int available; /* 0: NVML missing or did not know the device (see why) */
    char why[160]; /* reason when not available */
    int gen;       /* current link generation (may be lower than max while idle) */
    int width;     /* current link width, lanes */
    int max_gen;   /* most the device and slot support */
    int max_width; /* most lanes */
} gmb_pcie_t;

/* Read the PCIe link of the NVIDIA GPU at PCI bus id (NVML through dlopen:
 * nvmlDeviceGetCurrPcieLinkGeneration/Width, nvmlDeviceGetMaxPcieLinkGeneration/Width).
 * Always returns 0; out->available says whether it worked (fields 0 when unknown). */
int gmb_nvml_pcie(const char *pci_bus_id, gmb_pcie_t *out);

/* Who else was using the NVIDIA GPU at PCI bus id (NVML), asked before gmb opens it: the
 * processes with a compute context on it and its utilization over NVML's last sample. */
typedef struct gmb_busy {
    int available; /* 0: NVML missing or did not know the device (see why) */
    char why[160]; /* reason when not available */
    int procs;     /* compute processes on the GPU; -1 unknown */
    int util_gpu;  /* % of the last sample period a kernel ran; -1 unknown */
    int util_mem;  /* % of it memory was read or written; -1 unknown */
} gmb_busy_t;
void gmb_nvml_busy(const char *pci_bus_id, gmb_busy_t *out);
/* The GPU was in use before a run: a compute process on it, or kernels running more than
 * GMB_BUSY_UTIL_PCT % of NVML's last sample (unknown values, negative or NaN, say no), unless
 * the program came after another of the same gmb run (after_gmb): that sample then holds the
 * previous program's own kernels (on the H200, 10-69% between the quick profile's programs). */
#define GMB_BUSY_UTIL_PCT 5
static inline int gmb_busy_in_use(double procs, double util_pct, int after_gmb)
{
    return procs > 0 || (!after_gmb && util_pct > GMB_BUSY_UTIL_PCT);
}
/* gmb run tells each program after its first the name of the one before in this variable */
#define GMB_AFTER_PROGRAM_ENV "GMB_AFTER_PROGRAM"

/* Names of the set throttle bits, comma-separated, into buf ("none" when zero). */
void gmb_throttle_names(unsigned long long bits, char *buf, size_t len);

/* Where a device sits in the machine (hwloc). */
typedef struct gmb_locality {
    char source[32];  /* "hwloc", "hwloc (host CPU)", or "unknown" */
    char numa[128];   /* NUMA node list ("0", "0-1"), "unknown" */
    char cpuset[256]; /* CPU list near the device ("0-31"), "unknown" */
    char note[160];   /* why unknown, or which object was used */
} gmb_locality_t;

/* Locate a device: by its PCI bus id, or the whole host for a CPU device. Honors
 * HWLOC_XMLFILE (stored topologies). Always returns 0; fields say "unknown" when hwloc
 * cannot tell. */
int gmb_topo_locality(const gmb_dev_info_t *info, gmb_locality_t *out);

/* Host placement through hwloc: bind the calling thread's CPUs and memory allocations to
 * NUMA nodes, so host buffers allocated (or first touched) after it sit where asked, and
 * say where pages sit. Memory binding is not strict (Linux: a preferred policy): the OS
 * falls back to other nodes when the asked ones are full. Honors HWLOC_XMLFILE (with
 * HWLOC_THISSYSTEM=1 binding still acts on this machine). */
typedef struct gmb_numa gmb_numa_t;
#define GMB_NUMA_NEAR (-1) /* the device's NUMA nodes and CPUs */
#define GMB_NUMA_OS   (-2) /* no binding: the thread's binding when gmb_numa_open ran */

/* Load the topology, keep the calling thread's binding and find the device's nodes. NULL,
 * with the reason in why, without hwloc or when hwloc fails. */
gmb_numa_t *gmb_numa_open(const gmb_dev_info_t *info, char *why, size_t wlen);
/* Restore the binding gmb_numa_open found; NULL is a no-op. */
void gmb_numa_close(gmb_numa_t *m);
/* gmb_topo_locality from m's topology (no second load); m NULL: gmb_topo_locality. */
int gmb_numa_locality(const gmb_numa_t *m, const gmb_dev_info_t *info, gmb_locality_t *out);
/* NUMA nodes: how many, and the OS index (P#) of the i-th. */
int gmb_numa_count(const gmb_numa_t *m);
unsigned gmb_numa_os_index(const gmb_numa_t *m, int i);
/* Whether a NUMA node of this OS index exists. */
int gmb_numa_has(const gmb_numa_t *m, unsigned os_index);
/* The device's NUMA nodes as a list ("1", "0-1"); 0 when unknown (reason in why) or when they
 * are every node (a CPU device: why says so), so binding to them would change nothing. */
int gmb_numa_near(const gmb_numa_t *m, char *nodes, size_t nlen, char *why, size_t wlen);
/* Whether the process came bound (numactl, hwloc-bind, taskset: CPUs short of those allowed,
 * or a memory policy other than first touch). */
int gmb_numa_came_bound(const gmb_numa_t *m);
/* The run's own placement: the device's NUMA nodes and CPUs, unless the process came bound
 * (that binding is kept) or the device's nodes are unknown or every node, or the OS refuses
 * (nothing bound). desc says which ("bound to NUMA 1, CPUs 4-7 (the device's)", "kept ...",
 * "not bound: ..."). m NULL: "not bound". */
void gmb_numa_home(gmb_numa_t *m, char *desc, size_t dlen);
/* A placement in short, for tables: "near: NUMA 1", "bound: NUMA 0", "kept: NUMA 0" or "not
 * bound" from binding (gmb_numa_home's desc), with pages ("1", gmb_numa_where's) where they
 * differ from its nodes. 0 (out untouched) when binding is NULL. */
int gmb_place_brief(const char *binding, const char *pages, char *out, size_t len);
/* Whether gmb_numa_home binds nothing (the process came bound, the device's nodes are
 * unknown or all there are, ...): then "no binding" and the run's own placement are one. */
int gmb_numa_home_is_os(const gmb_numa_t *m);
/* Whether NUMA node os_index has memory (a node may be a placeholder without any). */
int gmb_numa_has_memory(const gmb_numa_t *m, unsigned os_index);
/* Whether os_index is one of the device's nodes. */
int gmb_numa_is_near(const gmb_numa_t *m, unsigned os_index);
/* Bind the calling thread: node >= 0 that NUMA node (memory) and its CPUs (all CPUs for a
 * node without any), GMB_NUMA_NEAR the device's nodes and CPUs, GMB_NUMA_OS the binding at
 * open. desc says what is bound ("NUMA 1, CPUs 4-7"). GMB_ERUNTIME with the OS's reason in
 * desc when the OS refuses (the binding is then what it was at open). */
int gmb_numa_bind(gmb_numa_t *m, int node, char *desc, size_t dlen);
/* The NUMA nodes holding the pages of [p, p + len) ("1", "0-1"), or "unknown" (no hwloc,
 * the OS does not say, pages not there yet). */
void gmb_numa_where(gmb_numa_t *m, const void *p, size_t len, char *out, size_t olen);

/* Host facts. */
typedef struct gmb_host {
    char name[256]; /* host name */
    char os[256];   /* uname: system release machine */
    char cpu[256];  /* CPU model name */
    int cpus;       /* online CPUs */
} gmb_host_t;
void gmb_host_get(gmb_host_t *out);
/* The host's 1-minute load average: the first number of /proc/loadavg, or of the file named
 * by GMB_TEST_LOADAVG_FILE (a test aid: a fake load, to make a host busy or idle on purpose).
 * NAN when it cannot be read. */
#define GMB_TEST_LOADAVG_ENV "GMB_TEST_LOADAVG_FILE"
double gmb_host_loadavg(void);
/* Whether a load average means a busy host: more runnable threads than online CPUs, so
 * something waits for a CPU (0 when either is unknown). */
int gmb_host_busy(double load, int cpus);

/* UTC time now as "2026-11-30T06:01:02Z" (iso) and "20261130T060102Z" (stamp). */
void gmb_utc_now(char *iso, size_t isolen, char *stamp, size_t stamplen);

/* The git revision gmb was built from ("unknown" outside a checkout). */
extern const char gmb_git_rev[];

#endif
