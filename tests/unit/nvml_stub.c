#define _POSIX_C_SOURCE 200809L
/* nvml_stub.c - a stand-in libnvidia-ml.so.1 for test_nvml: the NVML entry points gmb loads,
 * answering from nvml_stub (which the test reaches with dlsym), for one GPU at 0000:01:00.0.
 * Built as a shared library next to the unit tests; loaded through GMB_NVML_LIB. */
#include <stdlib.h>
#include <string.h>

#include <time.h>
#include <unistd.h>

struct nvml_stub {
    int fail_clock, fail_temp, fail_reasons, fail_viol, fail_bus, fail_energy;
    unsigned sm, mem, sm_max, mem_max, temp, power_mw, bus, gen, width, max_gen, max_width;
    int ecc;
    unsigned long long reasons, viol_ns[12];
    unsigned long long mem_total, mem_free; /* nvmlDeviceGetMemoryInfo; total 0: fails */
    /* NVLink: links (0: not supported), which are up and which end at an NVSwitch (bit masks;
     * the others end at the GPU 00000000:02:00.0), the version enum */
    unsigned nvl_links, nvl_up, nvl_switch, nvl_version;
};

struct nvml_stub nvml_stub = {.sm = 1980,
                              .mem = 2619,
                              .sm_max = 1980,
                              .mem_max = 3201,
                              .temp = 41,
                              .power_mw = 120000,
                              .bus = 6144,
                              .gen = 4,
                              .width = 16,
                              .max_gen = 4,
                              .max_width = 8,
                              .ecc = 1,
                              .reasons = 0x1,
                              .mem_total = 150ull << 30,
                              .mem_free = 149ull << 30,
                              .nvl_links = 18,
                              .nvl_up = 0x7f,
                              .nvl_switch = 0x40,
                              .nvl_version = 6};

enum { OK = 0, ERR_NOT_SUPPORTED = 3, ERR_NOT_FOUND = 6 };

int nvmlInit_v2(void)
{
    return OK;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *pci, void **d)
{
    if (strcmp(pci, "0000:01:00.0"))
        return ERR_NOT_FOUND;
    *d = &nvml_stub;
    return OK;
}

int nvmlDeviceGetClockInfo(void *d, int type, unsigned *v)
{
    (void)d;
    if (nvml_stub.fail_clock)
        return ERR_NOT_SUPPORTED;
    *v = type == 2 ? nvml_stub.mem : nvml_stub.sm;
    return OK;
}

int nvmlDeviceGetMaxClockInfo(void *d, int type, unsigned *v)
{
    (void)d;
    if (nvml_stub.fail_clock)
        return ERR_NOT_SUPPORTED;
    *v = type == 2 ? nvml_stub.mem_max : nvml_stub.sm_max;
    return OK;
}

int nvmlDeviceGetCurrentClocksEventReasons(void *d, unsigned long long *r)
{
    (void)d;
    if (nvml_stub.fail_reasons)
        return ERR_NOT_SUPPORTED;
    *r = nvml_stub.reasons;
    return OK;
}

int nvmlDeviceGetTemperature(void *d, int sensor, unsigned *t)
{
    (void)d;
    if (nvml_stub.fail_temp || sensor != 0)
        return ERR_NOT_SUPPORTED;
    *t = nvml_stub.temp;
    return OK;
}

int nvmlDeviceGetPowerUsage(void *d, unsigned *mw)
{
    (void)d;
    *mw = nvml_stub.power_mw;
    return OK;
}

int nvmlDeviceGetMemoryBusWidth(void *d, unsigned *b)
{
    (void)d;
    if (nvml_stub.fail_bus)
        return ERR_NOT_SUPPORTED;
    *b = nvml_stub.bus;
    return OK;
}

/* nvmlMemory_t (v1) */
int nvmlDeviceGetMemoryInfo(void *d, unsigned long long m[3])
{
    (void)d;
    if (!nvml_stub.mem_total)
        return ERR_NOT_SUPPORTED;
    m[0] = nvml_stub.mem_total;
    m[1] = nvml_stub.mem_free;
    m[2] = nvml_stub.mem_total - nvml_stub.mem_free;
    return OK;
}

int nvmlDeviceGetEccMode(void *d, int *cur, int *pend)
{
    (void)d;
    *cur = *pend = nvml_stub.ecc;
    return OK;
}

/* A string answer: v into buf when len holds at least need bytes (NVML's own minimum) */
static int stub_text(char *buf, unsigned len, unsigned need, const char *v)
{
    if (len < need)
        return ERR_NOT_SUPPORTED;
    strcpy(buf, v);
    return OK;
}

int nvmlDeviceGetSerial(void *d, char *buf, unsigned len)
{
    (void)d;
    return stub_text(buf, len, 30, "1654124045436");
}

/* GMB_STUB_BOARD_PART=P: another board's part number (a second revision of the model) */
int nvmlDeviceGetBoardPartNumber(void *d, char *buf, unsigned len)
{
    (void)d;
    const char *e = getenv("GMB_STUB_BOARD_PART");
    return stub_text(buf, len, 30, e && *e && strlen(e) < 30 ? e : "692-2G520-0282-001");
}

int nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
    return stub_text(buf, len, 16, "580.159.04");
}

int nvmlDeviceGetCurrPcieLinkGeneration(void *d, unsigned *v)
{
    (void)d;
    *v = nvml_stub.gen;
    return OK;
}

int nvmlDeviceGetCurrPcieLinkWidth(void *d, unsigned *v)
{
    (void)d;
    *v = nvml_stub.width;
    return OK;
}

int nvmlDeviceGetMaxPcieLinkGeneration(void *d, unsigned *v)
{
    (void)d;
    *v = nvml_stub.max_gen;
    return OK;
}

int nvmlDeviceGetMaxPcieLinkWidth(void *d, unsigned *v)
{
    (void)d;
    *v = nvml_stub.max_width;
    return OK;
}

/* The energy counter: power_mw drawn since the first call, in steps of 10 ms as a real
 * counter updates in steps (GMB_STUB_ENERGY_STEP_MS another step, 0: never advances); with
 * GMB_STUB_ENERGY_RAMP the power grows by that many W per second (a board that draws more
 * later than at first, as under load after idle); GMB_STUB_ENERGY_READ_US: each read takes
 * that long. */
int nvmlDeviceGetTotalEnergyConsumption(void *d, unsigned long long *mj)
{
    (void)d;
    static double t0 = -1;
    if (nvml_stub.fail_energy)
        return ERR_NOT_SUPPORTED;
    const char *slow = getenv("GMB_STUB_ENERGY_READ_US"); /* a read as slow as NVML's can be */
    if (slow) {
        struct timespec nap = {0, atol(slow) * 1000L};
        nanosleep(&nap, NULL);
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double ms = ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
    if (t0 < 0)
        t0 = ms;
    const char *e = getenv("GMB_STUB_ENERGY_STEP_MS");
    double step = e ? atof(e) : 10.0;
    double t = step > 0 ? (double)(long long)((ms - t0) / step) * step : 0;
    const char *r = getenv("GMB_STUB_ENERGY_RAMP");
    double ramp = r ? atof(r) : 0; /* W/s: mJ = (P0 t + ramp t^2 / 2) with t in s, x 1000 */
    *mj =
        1000000ull + (unsigned long long)(t * nvml_stub.power_mw / 1000.0 + ramp * t * t * 0.5e-3);
    return OK;
}

/* nvmlViolationTime_t */
struct viol {
    unsigned long long reference_us, violation_ns;
};

/* GMB_STUB_POWER_CAPPED=F: the power policy's counter (0) also grows by F of the time since
 * the first query, a board held at its power limit that share of the time;
 * GMB_STUB_VIOL_READ_US: each query takes that long */
int nvmlDeviceGetViolationStatus(void *d, int policy, struct viol *v)
{
    (void)d;
    static double t0 = -1;
    if (nvml_stub.fail_viol || policy < 0 || policy >= 12)
        return ERR_NOT_SUPPORTED;
    v->reference_us = 1;
    v->violation_ns = nvml_stub.viol_ns[policy];
    const char *slow = getenv("GMB_STUB_VIOL_READ_US"); /* a driver slow to answer */
    if (slow) {
        struct timespec nap = {0, atol(slow) * 1000L};
        nanosleep(&nap, NULL);
    }
    const char *f = getenv("GMB_STUB_POWER_CAPPED");
    if (f && policy == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double ns = ts.tv_sec * 1e9 + ts.tv_nsec;
        if (t0 < 0)
            t0 = ns;
        v->violation_ns += (unsigned long long)(atof(f) * (ns - t0));
    }
    return OK;
}

/* GMB_STUB_PROCS=N: N processes with a compute context on the GPU (pids 1000, 1001, ...);
 * GMB_STUB_PROCS_SELF=1: the last of them is the caller */
struct proc_info {
    unsigned pid;
    unsigned long long used;
    unsigned gi, ci;
};
int nvmlDeviceGetComputeRunningProcesses_v3(void *d, unsigned *n, struct proc_info *infos)
{
    (void)d;
    const char *e = getenv("GMB_STUB_PROCS"), *self = getenv("GMB_STUB_PROCS_SELF");
    unsigned want = e ? (unsigned)atoi(e) : 0;
    if (*n < want) {
        *n = want;
        return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
    }
    for (unsigned i = 0; i < want; i++) {
        infos[i].pid = self && i + 1 == want ? (unsigned)getpid() : 1000u + i;
        infos[i].used = 1u << 20;
        infos[i].gi = infos[i].ci = 0xffffffffu;
    }
    *n = want;
    return OK;
}

/* GMB_STUB_UTIL=P: kernels ran P% of the last sample period (memory too) */
int nvmlDeviceGetUtilizationRates(void *d, unsigned *u)
{
    (void)d;
    const char *e = getenv("GMB_STUB_UTIL");
    u[0] = u[1] = e ? (unsigned)atoi(e) : 0;
    return OK;
}

/* NVLink */
int nvmlDeviceGetNvLinkState(void *d, unsigned link, int *active)
{
    (void)d;
    if (link >= nvml_stub.nvl_links)
        return link >= 18 ? 2 /* NVML_ERROR_INVALID_ARGUMENT */ : ERR_NOT_SUPPORTED;
    *active = (nvml_stub.nvl_up >> link) & 1;
    return OK;
}

int nvmlDeviceGetNvLinkVersion(void *d, unsigned link, unsigned *v)
{
    (void)d;
    if (link >= nvml_stub.nvl_links)
        return ERR_NOT_SUPPORTED;
    *v = nvml_stub.nvl_version;
    return OK;
}

/* nvmlPciInfo_t (v3) */
struct stub_pci {
    char legacy[16];
    unsigned domain, bus, device, id, subsystem;
    char bus_id[32];
};
int nvmlDeviceGetNvLinkRemotePciInfo_v2(void *d, unsigned link, struct stub_pci *p)
{
    (void)d;
    if (link >= nvml_stub.nvl_links || !((nvml_stub.nvl_up >> link) & 1))
        return ERR_NOT_SUPPORTED;
    memset(p, 0, sizeof *p);
    strcpy(p->bus_id, (nvml_stub.nvl_switch >> link) & 1 ? "00000000:C0:00.0" : "00000000:02:00.0");
    return OK;
}

int nvmlDeviceGetNvLinkRemoteDeviceType(void *d, unsigned link, int *t)
{
    (void)d;
    if (link >= nvml_stub.nvl_links || !((nvml_stub.nvl_up >> link) & 1))
        return ERR_NOT_SUPPORTED;
    *t = (nvml_stub.nvl_switch >> link) & 1 ? 2 : 0;
    return OK;
}
