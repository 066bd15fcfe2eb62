/* nvml_stub.c - a stand-in libnvidia-ml.so.1 for test_nvml: the NVML entry points gmb loads,
 * answering from nvml_stub (which the test reaches with dlsym), for one GPU at 0000:01:00.0.
 * Built as a shared library next to the unit tests; loaded through GMB_NVML_LIB. */
#include <string.h>

struct nvml_stub {
    int fail_clock, fail_temp, fail_reasons, fail_viol, fail_bus;
    unsigned sm, mem, sm_max, mem_max, temp, power_mw, bus, gen, width, max_gen, max_width;
    int ecc;
    unsigned long long reasons, viol_ns[12];
};

struct nvml_stub nvml_stub = {0,      0,    0, 0,  0, 1980, 2619, 1980, 3201, 41,
                              120000, 6144, 4, 16, 4, 8,    1,    0x1,  {0}};

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

int nvmlDeviceGetEccMode(void *d, int *cur, int *pend)
{
    (void)d;
    *cur = *pend = nvml_stub.ecc;
    return OK;
}

int nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
    if (len < 16)
        return ERR_NOT_SUPPORTED;
    strcpy(buf, "580.159.04");
    return OK;
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

/* nvmlViolationTime_t */
struct viol {
    unsigned long long reference_us, violation_ns;
};

int nvmlDeviceGetViolationStatus(void *d, int policy, struct viol *v)
{
    (void)d;
    if (nvml_stub.fail_viol || policy < 0 || policy >= 12)
        return ERR_NOT_SUPPORTED;
    v->reference_us = 1;
    v->violation_ns = nvml_stub.viol_ns[policy];
    return OK;
}
