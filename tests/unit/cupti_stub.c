/* cupti_stub.c - a stand-in libcupti for the tests: the range-profiler and profiler-host calls
 * gmb makes, each checking its struct size, returning known counter values for every kernel
 * range, and failing where the test asks (environment, read at each call):
 *   GMB_CUPTI_STUB_FAIL=CALL=CODE   the CUPTI call CALL returns CODE (e.g. 35, no permission)
 *   GMB_CUPTI_STUB_VALUES=M=V,...   metric M's value (the defaults are below)
 *   GMB_CUPTI_STUB_RANGES=N         ranges (kernels) a collection holds [1]; range r has r+1
 *                                   times the sectors and a hit rate 10 r points higher
 *   GMB_CUPTI_STUB_DROPPED=N        ranges DecodeData reports dropped [0]
 *   GMB_CUPTI_STUB_PASSES=N         Stop calls before isAllPassSubmitted [1]
 * It exports gmb_cupti_standin, so gmb takes it without a CUDA context and says so. */
#include "../../common/cupti_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gmb_cupti_standin = "gmb's stand-in libcupti (tests/unit/cupti_stub.c)";

/* objects handed out and not yet released: the tests read it to see everything freed */
int gmb_cupti_stub_live;

static const struct {
    const char *name;
    double value;
} defaults[] = {
    {"dram__bytes_read.sum", 1048576},
    {"dram__bytes_write.sum", 524288},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 62.5},
    {"gpu__time_duration.sum", 2000},
    {"lts__t_sector_hit_rate.pct", 40},
    {"lts__t_sectors.sum", 65536},
    {"lts__t_sectors_srcunit_tex.sum", 49152},
    {"l1tex__t_sector_hit_rate.pct", 12.5},
    {"l1tex__t_sectors.sum", 32768},
};
#define NDEF (sizeof defaults / sizeof defaults[0])

static int host_obj, rp_obj; /* the objects' addresses are these */
static int inited, configured, started, stops, submitted;
static size_t ranges_now;

static gmb_cu_result_t fail(const char *call)
{
    const char *f = getenv("GMB_CUPTI_STUB_FAIL");
    size_t n = strlen(call);
    if (f && !strncmp(f, call, n) && f[n] == '=')
        return atoi(f + n + 1);
    return GMB_CU_SUCCESS;
}

static long env_l(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && v[0] ? strtol(v, NULL, 10) : dflt;
}

static int metric_index(const char *m)
{
    for (size_t i = 0; i < NDEF; i++)
        if (!strcmp(m, defaults[i].name))
            return (int)i;
    return -1;
}

static double value(const char *m, size_t r)
{
    int i = metric_index(m);
    double v = defaults[i].value;
    const char *e = getenv("GMB_CUPTI_STUB_VALUES");
    size_t n = strlen(m);
    for (const char *p = e; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, m, n) && p[n] == '=')
            v = strtod(p + n + 1, NULL);
    if (strstr(m, "hit_rate"))
        return v + 10.0 * (double)r;
    if (strstr(m, "sectors"))
        return v * (double)(r + 1);
    return v;
}

#define CHECK(call, type, last)                                                                    \
    do {                                                                                           \
        gmb_cu_result_t r_ = fail(call);                                                           \
        if (r_)                                                                                    \
            return r_;                                                                             \
        if (!p || p->structSize != GMB_CU_SIZE(type, last))                                        \
            return GMB_CU_ERROR_INVALID_PARAMETER;                                                 \
    } while (0)

gmb_cu_result_t cuptiGetResultString(gmb_cu_result_t r, const char **s)
{
    *s = r == 35   ? "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"
         : r == 1  ? "CUPTI_ERROR_INVALID_PARAMETER"
         : r == 17 ? "CUPTI_ERROR_INVALID_METRIC_NAME"
         : r == 7  ? "CUPTI_ERROR_INVALID_OPERATION"
                   : "CUPTI_ERROR_UNKNOWN";
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerInitialize(gmb_cu_Profiler_Initialize_Params *p)
{
    CHECK("cuptiProfilerInitialize", gmb_cu_Profiler_Initialize_Params, pPriv);
    inited++;
    gmb_cupti_stub_live++;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerDeInitialize(gmb_cu_Profiler_Initialize_Params *p)
{
    CHECK("cuptiProfilerDeInitialize", gmb_cu_Profiler_Initialize_Params, pPriv);
    if (!inited)
        return 7;
    inited--;
    gmb_cupti_stub_live--;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiDeviceGetChipName(gmb_cu_Device_GetChipName_Params *p)
{
    CHECK("cuptiDeviceGetChipName", gmb_cu_Device_GetChipName_Params, pChipName);
    p->pChipName = "STANDIN";
    return inited ? GMB_CU_SUCCESS : 15;
}

gmb_cu_result_t
cuptiProfilerGetCounterAvailability(gmb_cu_Profiler_GetCounterAvailability_Params *p)
{
    CHECK("cuptiProfilerGetCounterAvailability", gmb_cu_Profiler_GetCounterAvailability_Params,
          pCounterAvailabilityImage);
    if (p->pCounterAvailabilityImage)
        memset(p->pCounterAvailabilityImage, 0xa5, p->counterAvailabilityImageSize);
    else
        p->counterAvailabilityImageSize = 64;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerHostInitialize(gmb_cu_Profiler_Host_Initialize_Params *p)
{
    CHECK("cuptiProfilerHostInitialize", gmb_cu_Profiler_Host_Initialize_Params, pHostObject);
    if (p->profilerType != GMB_CU_RANGE_PROFILER || !p->pChipName ||
        strcmp(p->pChipName, "STANDIN") || !p->pCounterAvailabilityImage)
        return GMB_CU_ERROR_INVALID_PARAMETER;
    p->pHostObject = &host_obj;
    gmb_cupti_stub_live++;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerHostDeinitialize(gmb_cu_Profiler_Host_Deinitialize_Params *p)
{
    CHECK("cuptiProfilerHostDeinitialize", gmb_cu_Profiler_Host_Deinitialize_Params, pHostObject);
    if (p->pHostObject != &host_obj)
        return GMB_CU_ERROR_INVALID_PARAMETER;
    gmb_cupti_stub_live--;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerHostConfigAddMetrics(gmb_cu_Profiler_Host_ConfigAddMetrics_Params *p)
{
    CHECK("cuptiProfilerHostConfigAddMetrics", gmb_cu_Profiler_Host_ConfigAddMetrics_Params,
          numMetrics);
    for (size_t i = 0; i < p->numMetrics; i++)
        if (metric_index(p->ppMetricNames[i]) < 0)
            return 17;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t
cuptiProfilerHostGetConfigImageSize(gmb_cu_Profiler_Host_GetConfigImageSize_Params *p)
{
    CHECK("cuptiProfilerHostGetConfigImageSize", gmb_cu_Profiler_Host_GetConfigImageSize_Params,
          configImageSize);
    p->configImageSize = 128;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerHostGetConfigImage(gmb_cu_Profiler_Host_GetConfigImage_Params *p)
{
    CHECK("cuptiProfilerHostGetConfigImage", gmb_cu_Profiler_Host_GetConfigImage_Params,
          pConfigImage);
    if (p->configImageSize != 128)
        return GMB_CU_ERROR_INVALID_PARAMETER;
    memset(p->pConfigImage, 0x5a, 128);
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiProfilerHostGetNumOfPasses(gmb_cu_Profiler_Host_GetNumOfPasses_Params *p)
{
    CHECK("cuptiProfilerHostGetNumOfPasses", gmb_cu_Profiler_Host_GetNumOfPasses_Params,
          numOfPasses);
    p->numOfPasses = 3;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerEnable(gmb_cu_RangeProfiler_Enable_Params *p)
{
    CHECK("cuptiRangeProfilerEnable", gmb_cu_RangeProfiler_Enable_Params, pRangeProfilerObject);
    p->pRangeProfilerObject = &rp_obj;
    configured = started = stops = submitted = 0;
    gmb_cupti_stub_live++;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerDisable(gmb_cu_RangeProfiler_Disable_Params *p)
{
    CHECK("cuptiRangeProfilerDisable", gmb_cu_RangeProfiler_Disable_Params, pRangeProfilerObject);
    if (p->pRangeProfilerObject != &rp_obj)
        return GMB_CU_ERROR_INVALID_PARAMETER;
    gmb_cupti_stub_live--;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t
cuptiRangeProfilerGetCounterDataSize(gmb_cu_RangeProfiler_GetCounterDataSize_Params *p)
{
    CHECK("cuptiRangeProfilerGetCounterDataSize", gmb_cu_RangeProfiler_GetCounterDataSize_Params,
          counterDataSize);
    p->counterDataSize = 256 + 16 * p->maxNumOfRanges;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerCounterDataImageInitialize(
    gmb_cu_RangeProfiler_CounterDataImage_Initialize_Params *p)
{
    CHECK("cuptiRangeProfilerCounterDataImageInitialize",
          gmb_cu_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData);
    memset(p->pCounterData, 0, p->counterDataSize);
    ranges_now = 0;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerSetConfig(gmb_cu_RangeProfiler_SetConfig_Params *p)
{
    CHECK("cuptiRangeProfilerSetConfig", gmb_cu_RangeProfiler_SetConfig_Params, targetNestingLevel);
    /* the real one refuses user range with kernel replay; gmb asks auto range, kernel replay */
    if (p->range != GMB_CU_AUTO_RANGE || p->replayMode != GMB_CU_KERNEL_REPLAY || !p->pConfig ||
        p->configSize != 128 || !p->pCounterDataImage)
        return 7;
    configured = 1; /* a new configuration: whatever a failed call left behind is gone */
    started = 0;
    stops = 0;
    submitted = 0;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerStart(gmb_cu_RangeProfiler_Disable_Params *p)
{
    CHECK("cuptiRangeProfilerStart", gmb_cu_RangeProfiler_Disable_Params, pRangeProfilerObject);
    if (!configured || started)
        return 7;
    started = 1;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerStop(gmb_cu_RangeProfiler_Stop_Params *p)
{
    CHECK("cuptiRangeProfilerStop", gmb_cu_RangeProfiler_Stop_Params, isAllPassSubmitted);
    if (!started)
        return 7;
    started = 0;
    stops++;
    submitted = stops >= env_l("GMB_CUPTI_STUB_PASSES", 1);
    p->isAllPassSubmitted = (uint8_t)submitted;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t cuptiRangeProfilerDecodeData(gmb_cu_RangeProfiler_DecodeData_Params *p)
{
    CHECK("cuptiRangeProfilerDecodeData", gmb_cu_RangeProfiler_DecodeData_Params,
          numOfRangeDropped);
    if (!submitted)
        return 7;
    p->numOfRangeDropped = (size_t)env_l("GMB_CUPTI_STUB_DROPPED", 0);
    ranges_now = (size_t)env_l("GMB_CUPTI_STUB_RANGES", 1);
    configured = 0;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t
cuptiRangeProfilerGetCounterDataInfo(gmb_cu_RangeProfiler_GetCounterDataInfo_Params *p)
{
    CHECK("cuptiRangeProfilerGetCounterDataInfo", gmb_cu_RangeProfiler_GetCounterDataInfo_Params,
          numTotalRanges);
    p->numTotalRanges = ranges_now;
    return GMB_CU_SUCCESS;
}

gmb_cu_result_t
cuptiProfilerHostEvaluateToGpuValues(gmb_cu_Profiler_Host_EvaluateToGpuValues_Params *p)
{
    CHECK("cuptiProfilerHostEvaluateToGpuValues", gmb_cu_Profiler_Host_EvaluateToGpuValues_Params,
          pMetricValues);
    if (p->pHostObject != &host_obj || p->rangeIndex >= ranges_now)
        return GMB_CU_ERROR_INVALID_PARAMETER;
    for (size_t i = 0; i < p->numMetrics; i++) {
        if (metric_index(p->ppMetricNames[i]) < 0)
            return 17;
        p->pMetricValues[i] = value(p->ppMetricNames[i], p->rangeIndex);
    }
    return GMB_CU_SUCCESS;
}
