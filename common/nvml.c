/* nvml.c - NVIDIA Management Library loaded at run time (no nvml.h needed; works without). */
#include "gmb.h"
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The few NVML declarations gmb uses (stable C ABI of libnvidia-ml.so.1). */
typedef int nvml_ret_t;
typedef void *nvml_dev_t;
enum { NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };
enum { NVML_TEMPERATURE_GPU = 0 };
/* nvmlViolationTime_t: CPU timestamp (us), time held below the application clocks (ns) */
typedef struct {
    unsigned long long reference_us, violation_ns;
} nvml_viol_t;

/* nvmlUtilization_t: percent of the last sample period a kernel ran, memory was accessed */
typedef struct {
    unsigned gpu, memory;
} nvml_util_t;
enum { NVML_ERROR_INSUFFICIENT_SIZE = 7 };
/* nvmlPciInfo_t (v3, as nvmlDeviceGetNvLinkRemotePciInfo_v2 fills it) */
typedef struct {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nvml_pci_t;
enum { NVML_ERROR_NOT_SUPPORTED = 3 };
/* nvmlMemory_t (v1): bytes */
typedef struct {
    unsigned long long total, free, used;
} nvml_memory_t;

static struct {
    int tried, ok;
    char why[128];
    nvml_ret_t (*init)(void);
    nvml_ret_t (*by_pci)(const char *, nvml_dev_t *);
    nvml_ret_t (*clock)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*max_clock)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*reasons)(nvml_dev_t, unsigned long long *);
    nvml_ret_t (*temp)(nvml_dev_t, int, unsigned *);
    nvml_ret_t (*power)(nvml_dev_t, unsigned *);
    nvml_ret_t (*bus_width)(nvml_dev_t, unsigned *);
    nvml_ret_t (*ecc)(nvml_dev_t, int *, int *);
    nvml_ret_t (*driver)(char *, unsigned);
    nvml_ret_t (*serial)(nvml_dev_t, char *, unsigned);
    nvml_ret_t (*board_part)(nvml_dev_t, char *, unsigned);
    nvml_ret_t (*pcie_gen)(nvml_dev_t, unsigned *);
    nvml_ret_t (*pcie_width)(nvml_dev_t, unsigned *);
    nvml_ret_t (*pcie_max_gen)(nvml_dev_t, unsigned *);
    nvml_ret_t (*pcie_max_width)(nvml_dev_t, unsigned *);
    nvml_ret_t (*viol)(nvml_dev_t, int, nvml_viol_t *);
    nvml_ret_t (*energy)(nvml_dev_t, unsigned long long *);
    nvml_ret_t (*procs)(nvml_dev_t, unsigned *, void *);
    nvml_ret_t (*util)(nvml_dev_t, nvml_util_t *);
    nvml_ret_t (*mem)(nvml_dev_t, nvml_memory_t *);
    nvml_ret_t (*nvl_state)(nvml_dev_t, unsigned, int *);
    nvml_ret_t (*nvl_version)(nvml_dev_t, unsigned, unsigned *);
    nvml_ret_t (*nvl_remote_pci)(nvml_dev_t, unsigned, nvml_pci_t *);
    nvml_ret_t (*nvl_remote_type)(nvml_dev_t, unsigned, int *);
} nv;

static int nvml_load(void)
{
    if (nv.tried)
        return nv.ok;
    nv.tried = 1;
    /* GMB_NVML_LIB: NVML elsewhere than the loader's path (and the tests' stand-in) */
    const char *lib = getenv("GMB_NVML_LIB");
    lib = lib && lib[0] ? lib : "libnvidia-ml.so.1";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(nv.why, sizeof nv.why, "NVML not available (%.80s not found)", lib);
        return 0;
    }
#define SYM(field, name) *(void **)&nv.field = dlsym(h, name)
    SYM(init, "nvmlInit_v2");
    SYM(by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    SYM(clock, "nvmlDeviceGetClockInfo");
    SYM(max_clock, "nvmlDeviceGetMaxClockInfo");
    SYM(reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nv.reasons)
        SYM(reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    SYM(temp, "nvmlDeviceGetTemperature");
    SYM(power, "nvmlDeviceGetPowerUsage");
    SYM(bus_width, "nvmlDeviceGetMemoryBusWidth");
    SYM(ecc, "nvmlDeviceGetEccMode");
    SYM(driver, "nvmlSystemGetDriverVersion");
    SYM(serial, "nvmlDeviceGetSerial");
    SYM(board_part, "nvmlDeviceGetBoardPartNumber");
    SYM(pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
    SYM(pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
    SYM(pcie_max_gen, "nvmlDeviceGetMaxPcieLinkGeneration");
    SYM(pcie_max_width, "nvmlDeviceGetMaxPcieLinkWidth");
    SYM(viol, "nvmlDeviceGetViolationStatus");
    SYM(energy, "nvmlDeviceGetTotalEnergyConsumption");
    SYM(procs, "nvmlDeviceGetComputeRunningProcesses_v3");
    if (!nv.procs)
        SYM(procs, "nvmlDeviceGetComputeRunningProcesses_v2");
    SYM(util, "nvmlDeviceGetUtilizationRates");
    SYM(mem, "nvmlDeviceGetMemoryInfo");
    SYM(nvl_state, "nvmlDeviceGetNvLinkState");
    SYM(nvl_version, "nvmlDeviceGetNvLinkVersion");
    SYM(nvl_remote_pci, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    SYM(nvl_remote_type, "nvmlDeviceGetNvLinkRemoteDeviceType");
#undef SYM
    if (!nv.init || !nv.by_pci || !nv.clock) {
        snprintf(nv.why, sizeof nv.why, "NVML library lacks nvmlInit_v2 or device queries");
        return 0;
    }
    nvml_ret_t r = nv.init();
    if (r) {
        snprintf(nv.why, sizeof nv.why, "nvmlInit_v2 failed (NVML error %d)", r);
        return 0;
    }
    nv.ok = 1;
    return 1;
}

static int nvml_dev(const char *pci, nvml_dev_t *d, char *why, size_t len)
{
    if (!nvml_load()) {
        gmb_strlcpy(why, nv.why, len);
        return 0;
    }
    if (!pci || !pci[0]) {
        snprintf(why, len, "device has no PCI bus id to find it in NVML");
        return 0;
    }
    /* the last device found is kept: gmb_nvml_viol asks twice a point */
    static char last[64];
    static nvml_dev_t last_d;
    if (last[0] && !strcmp(last, pci)) {
        *d = last_d;
        return 1;
    }
    nvml_ret_t r = nv.by_pci(pci, d);
    if (r) {
        snprintf(why, len, "NVML does not know PCI device %s (NVML error %d)", pci, r);
        return 0;
    }
    gmb_strlcpy(last, pci, sizeof last);
    last_d = *d;
    return 1;
}

/* NVML's cumulative times below the application clocks, by policy (nvmlPerfPolicyType_t:
 * power 0, thermal 1, board limit 3); -1 where NVML does not answer */
static void nvml_viol(nvml_dev_t d, long long viol_ns[GMB_VIOL_KINDS])
{
    static const int pol[GMB_VIOL_KINDS] = {0, 1, 3};
    for (int i = 0; i < GMB_VIOL_KINDS; i++) {
        nvml_viol_t v;
        viol_ns[i] = nv.viol && !nv.viol(d, pol[i], &v) ? (long long)v.violation_ns : -1;
    }
}

int gmb_nvml_viol(const char *pci_bus_id, long long viol_ns[GMB_VIOL_KINDS], unsigned *sm_mhz)
{
    nvml_dev_t d;
    char why[160];
    if (!nvml_dev(pci_bus_id, &d, why, sizeof why))
        return 0;
    nvml_viol(d, viol_ns);
    if (nv.clock(d, NVML_CLOCK_SM, sm_mhz))
        *sm_mhz = GMB_UNKNOWN;
    return 1;
}

int gmb_nvml_clocks(const char *pci_bus_id, gmb_clocks_t *out)
{
    memset(out, 0, sizeof *out);
    out->power_w = -1;
    nvml_dev_t d;
    if (!nvml_dev(pci_bus_id, &d, out->why, sizeof out->why))
        return GMB_OK;
    out->available = 1;
    /* a query that fails leaves its value unknown, never a plausible 0 */
    if (nv.clock(d, NVML_CLOCK_SM, &out->sm_mhz))
        out->sm_mhz = GMB_UNKNOWN;
    if (nv.clock(d, NVML_CLOCK_MEM, &out->mem_mhz))
        out->mem_mhz = GMB_UNKNOWN;
    if (!nv.max_clock || nv.max_clock(d, NVML_CLOCK_SM, &out->sm_max_mhz))
        out->sm_max_mhz = GMB_UNKNOWN;
    out->throttle_known = nv.reasons && !nv.reasons(d, &out->throttle);
    if (!out->throttle_known)
        out->throttle = 0;
    if (!nv.temp || nv.temp(d, NVML_TEMPERATURE_GPU, &out->temp_c))
        out->temp_c = GMB_UNKNOWN;
    /* a run's before/after difference of these covers all of it */
    nvml_viol(d, out->viol_ns);
    unsigned mw;
    if (nv.power && !nv.power(d, &mw))
        out->power_w = mw / 1000.0;
    return GMB_OK;
}

int gmb_nvml_energy(const char *pci_bus_id, unsigned long long *mj, char *why, size_t len)
{
    nvml_dev_t d;
    if (!nvml_dev(pci_bus_id, &d, why, len))
        return 0;
    nvml_ret_t r = nv.energy ? nv.energy(d, mj) : -1;
    if (r) {
        snprintf(why, len,
                 nv.energy ? "NVML gives no total energy for %s (NVML error %d; Volta on)"
                           : "NVML has no nvmlDeviceGetTotalEnergyConsumption (%s, %d)",
                 pci_bus_id, r);
        return 0;
    }
    return 1;
}

int gmb_nvml_fill_info(gmb_dev_info_t *info)
{
    nvml_dev_t d;
    char why[160];
    if (!nvml_dev(info->pci_bus_id, &d, why, sizeof why)) {
        if (!info->peak_source[0]) /* the reason a peak may stay unknown */
            snprintf(info->peak_source, sizeof info->peak_source,
                     "unknown: no memory clock from the driver; %.80s", why);
        return GMB_ESKIP;
    }
    unsigned v;
    if (!info->mem_clock_mhz && nv.max_clock && !nv.max_clock(d, NVML_CLOCK_MEM, &v))
        info->mem_clock_mhz = (int)v;
    if (!info->core_clock_mhz && nv.max_clock && !nv.max_clock(d, NVML_CLOCK_SM, &v))
        info->core_clock_mhz = (int)v;
    if (!info->bus_width_bits && nv.bus_width && !nv.bus_width(d, &v))
        info->bus_width_bits = (int)v;
    int cur, pend;
    if (info->ecc < 0 && nv.ecc && !nv.ecc(d, &cur, &pend))
        info->ecc = cur ? 1 : 0;
    char drv[80];
    if (nv.driver && !nv.driver(drv, sizeof drv))
        gmb_strlcpy(info->driver_version, drv, sizeof info->driver_version);
    /* which board this is: two H200 board revisions read 2 points of peak apart */
    char txt[80];
    if (nv.serial && !nv.serial(d, txt, sizeof txt))
        gmb_strlcpy(info->serial, txt, sizeof info->serial);
    if (nv.board_part && !nv.board_part(d, txt, sizeof txt))
        gmb_strlcpy(info->board_part, txt, sizeof info->board_part);
    return GMB_OK;
}

int gmb_nvml_pcie(const char *pci_bus_id, gmb_pcie_t *out)
{
    memset(out, 0, sizeof *out);
    nvml_dev_t d;
    if (!nvml_dev(pci_bus_id, &d, out->why, sizeof out->why))
        return GMB_OK;
    unsigned v;
    if (nv.pcie_gen && !nv.pcie_gen(d, &v))
        out->gen = (int)v;
    if (nv.pcie_width && !nv.pcie_width(d, &v))
        out->width = (int)v;
    if (nv.pcie_max_gen && !nv.pcie_max_gen(d, &v))
        out->max_gen = (int)v;
    if (nv.pcie_max_width && !nv.pcie_max_width(d, &v))
        out->max_width = (int)v;
    /* in a VM the "system" side of the max is the virtual upstream port, which may claim less
     * than the link the GPU trained: never report a max below what the link runs at now */
    if (out->max_gen && out->gen > out->max_gen)
        out->max_gen = out->gen;
    if (out->max_width && out->width > out->max_width)
        out->max_width = out->width;
    out->available = out->gen > 0 || out->max_gen > 0;
    if (!out->available)
        snprintf(out->why, sizeof out->why,
                 "NVML gave no PCIe link generation for %s (not a PCIe device, or an old NVML)",
                 pci_bus_id);
    return GMB_OK;
}

void gmb_throttle_names(unsigned long long bits, char *buf, size_t len)
{
    static const struct {
        unsigned long long bit;
        const char *name;
    } r[] = {
        {0x1ULL, "gpu_idle"},    {0x2ULL, "applications_clocks"}, {0x4ULL, "sw_power_cap"},
        {0x8ULL, "hw_slowdown"}, {0x10ULL, "sync_boost"},         {0x20ULL, "sw_thermal"},
        {0x40ULL, "hw_thermal"}, {0x80ULL, "hw_power_brake"},     {0x100ULL, "display_clocks"},
    };
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (bits & r[i].bit) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%s", l ? "," : "", r[i].name);
        }
    if (!buf[0])
        gmb_strlcpy(buf, "none", len);
}

void gmb_nvml_busy(const char *pci_bus_id, gmb_busy_t *out)
{
    memset(out, 0, sizeof *out);
    out->procs = out->util_gpu = out->util_mem = -1;
    nvml_dev_t d;
    if (!nvml_dev(pci_bus_id, &d, out->why, sizeof out->why))
        return;
    out->available = 1;
    /* the count first: asked with no room for the entries, NVML says how many there are;
     * then the entries (nvmlProcessInfo_t of _v2 and _v3), to leave this process out should
     * it have a context already (were the layout another, no pid would match: the count
     * stands) */
    unsigned n = 0;
    nvml_ret_t r = nv.procs ? nv.procs(d, &n, NULL) : -1;
    if (r == 0 || r == NVML_ERROR_INSUFFICIENT_SIZE)
        out->procs = (int)n;
    struct {
        unsigned pid;
        unsigned long long used_bytes;
        unsigned gpu_instance, compute_instance;
    } *e = n ? calloc(n + 4, sizeof *e) : NULL;
    unsigned cap = n + 4;
    if (e && !nv.procs(d, &cap, e)) {
        out->procs = 0;
        for (unsigned i = 0; i < cap && i < n + 4; i++)
            out->procs += e[i].pid != (unsigned)getpid();
    }
    free(e);
    nvml_util_t u;
    if (nv.util && !nv.util(d, &u)) {
        out->util_gpu = (int)u.gpu;
        out->util_mem = (int)u.memory;
    }
}

int gmb_nvml_mem(const char *pci_bus_id, gmb_nvml_mem_t *out)
{
    memset(out, 0, sizeof *out);
    nvml_dev_t d;
    if (!nvml_dev(pci_bus_id, &d, out->why, sizeof out->why))
        return 0;
    nvml_memory_t m;
    nvml_ret_t r = nv.mem ? nv.mem(d, &m) : -1;
    if (r) {
        if (nv.mem)
            snprintf(out->why, sizeof out->why, "nvmlDeviceGetMemoryInfo: NVML error %d", r);
        else
            snprintf(out->why, sizeof out->why, "the NVML library lacks nvmlDeviceGetMemoryInfo");
        return 0;
    }
    out->available = 1;
    out->total = m.total;
    out->free = m.free;
    out->used = m.used;
    return 1;
}

/* nvmlNvlinkVersion_t (1: 1.0, 2: 2.0, 3: 2.2, 4: 3.0, 5: 3.1, 6: 4.0, 7: 5.0; NVML returns
 * the enum, not the number: an A100 says 5) and the nominal GB/s per link and direction:
 * P100 (1.0) 160 GB/s both ways over 4 links, V100 (2.x) 300 over 6, A100 (3.x) 600 over
 * 12, H100 (4.0) 900 over 18, B200 (5.0) 1800 over 18. */
static const struct {
    const char *text;
    double gbps;
} nvlink_versions[] = {{"", 0},     {"1.0", 20}, {"2.0", 25}, {"2.2", 25},
                       {"3.0", 25}, {"3.1", 25}, {"4.0", 25}, {"5.0", 50}};

int gmb_nvml_nvlink(const char *pci_bus_id, gmb_nvlink_t *out)
{
    memset(out, 0, sizeof *out);
    nvml_dev_t d;
    if (!nvml_dev(pci_bus_id, &d, out->why, sizeof out->why))
        return 0;
    if (!nv.nvl_state) {
        snprintf(out->why, sizeof out->why, "the NVML library lacks nvmlDeviceGetNvLinkState");
        return 0;
    }
    for (unsigned k = 0; k < GMB_NVLINK_MAX; k++) {
        int up = 0;
        nvml_ret_t r = nv.nvl_state(d, k, &up);
        if (r) { /* past the device's last link, or no NVLink at all */
            if (!k) {
                snprintf(out->why, sizeof out->why, "no NVLink (nvmlDeviceGetNvLinkState: %s)",
                         r == NVML_ERROR_NOT_SUPPORTED ? "not supported" : "NVML error");
                return 0;
            }
            break;
        }
        out->links++;
        out->link[k].up = up == 1; /* NVML_FEATURE_ENABLED */
        out->link[k].remote_type = -1;
        if (!out->link[k].up)
            continue;
        out->links_up++;
        unsigned v = 0;
        if (!out->version && nv.nvl_version && !nv.nvl_version(d, k, &v) && v > 0 &&
            v < sizeof nvlink_versions / sizeof nvlink_versions[0]) {
            out->version = (int)v;
            gmb_strlcpy(out->version_text, nvlink_versions[v].text, sizeof out->version_text);
            out->link_gbps = nvlink_versions[v].gbps;
        }
        nvml_pci_t pci;
        memset(&pci, 0, sizeof pci);
        if (nv.nvl_remote_pci && !nv.nvl_remote_pci(d, k, &pci)) {
            pci.bus_id[sizeof pci.bus_id - 1] = '\0';
            gmb_strlcpy(out->link[k].remote_pci, pci.bus_id, sizeof out->link[k].remote_pci);
        }
        int t = -1;
        if (nv.nvl_remote_type && !nv.nvl_remote_type(d, k, &t) && t >= 0 && t <= 2)
            out->link[k].remote_type = t;
    }
    out->available = 1;
    return 1;
}

/* Domain, bus, device and function of a PCI bus id; 0 when it is none. */
static int pci_parse(const char *s, unsigned v[4])
{
    int n = 0;
    return s && sscanf(s, "%x:%x:%x.%1x%n", &v[0], &v[1], &v[2], &v[3], &n) == 4 && !s[n];
}

int gmb_pci_same(const char *a, const char *b)
{
    unsigned x[4], y[4];
    return pci_parse(a, x) && pci_parse(b, y) && !memcmp(x, y, sizeof x);
}

double gmb_nvlink_to(const gmb_nvlink_t *l, const char *peer_pci, int *direct, int *switched)
{
    *direct = *switched = 0;
    for (int k = 0; l->available && k < l->links && k < GMB_NVLINK_MAX; k++) {
        if (!l->link[k].up)
            continue;
        if (l->link[k].remote_type == 2)
            (*switched)++;
        else if (gmb_pci_same(l->link[k].remote_pci, peer_pci))
            (*direct)++;
    }
    return (*direct + *switched) * l->link_gbps;
}
