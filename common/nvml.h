/* nvml.h - what NVML tells of an NVIDIA GPU (loaded at run time, see nvml.c): clocks, limits,
 * energy, the PCIe link, who else uses it. */
#ifndef GMB_NVML_H
#define GMB_NVML_H

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

/* The memory of the NVIDIA GPU at PCI bus id as NVML counts it (nvmlDeviceGetMemoryInfo): 1
 * when NVML answered, else 0 with why (the fields 0). */
typedef struct gmb_nvml_mem {
    int available;              /* 0: NVML missing or did not know the device (see why) */
    char why[160];              /* reason when not available */
    uint64_t total, free, used; /* bytes */
} gmb_nvml_mem_t;
int gmb_nvml_mem(const char *pci_bus_id, gmb_nvml_mem_t *out);

/* The NVLinks of the NVIDIA GPU at a PCI bus id (NVML: nvmlDeviceGetNvLinkState, ...Version,
 * ...RemotePciInfo_v2, ...RemoteDeviceType, links 0 to GMB_NVLINK_MAX - 1). */
#define GMB_NVLINK_MAX 18 /* NVML_NVLINK_MAX_LINKS */
typedef struct gmb_nvlink {
    int available; /* 0: NVML missing, did not know the device, or no NVLink here (see why) */
    char why[160]; /* reason when not available */
    int links;     /* links NVML answered for */
    int links_up;  /* of them active */
    int version;   /* nvmlNvlinkVersion_t of the first active link (1: 1.0 ... 6: 4.0, 7: 5.0) */
    char version_text[8]; /* "4.0"; "" unknown */
    double link_gbps;     /* nominal GB/s per link and direction of that version; 0 unknown */
    struct {
        int up;              /* active */
        int remote_type;     /* 0 a GPU, 1 an IBM NPU, 2 an NVSwitch, -1 unknown */
        char remote_pci[32]; /* the far end's PCI bus id, "" unknown */
    } link[GMB_NVLINK_MAX];
} gmb_nvlink_t;
/* 1 when NVML answered (links_up may be 0), else 0 with why. */
int gmb_nvml_nvlink(const char *pci_bus_id, gmb_nvlink_t *out);
/* The NVLink path from a GPU (its links in l) to the GPU at peer_pci: active links that end at
 * it (*direct) and active links to an NVSwitch (*switched, which reach every GPU of the
 * switch fabric), and their nominal GB/s per direction (links x link_gbps; 0 when none or the
 * version is unknown). Pure (for tests). */
double gmb_nvlink_to(const gmb_nvlink_t *l, const char *peer_pci, int *direct, int *switched);
/* Whether two PCI bus ids name the same function ("0000:17:00.0" = "00000000:17:00.0"). */
int gmb_pci_same(const char *a, const char *b);

#endif
