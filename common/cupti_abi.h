/* cupti_abi.h - the parameter structs of the CUPTI calls common/cupti.c makes, as CUDA 13's
 * cupti_target.h, cupti_profiler_target.h, cupti_profiler_host.h and cupti_range_profiler.h
 * lay them out. gmb loads libcupti at run time and builds without the toolkit, and
 * cupti_profiler_host.h is C++ (it includes <string>), so the layouts are written here;
 * tests/unit/cupti_abi.cc checks every field's offset and every struct size against the
 * toolkit's headers wherever the toolkit is installed (make tests). Names: gmb_cu_ + the
 * CUPTI struct's name without CUpti_; fields as CUPTI names them. */
#ifndef GMB_CUPTI_ABI_H
#define GMB_CUPTI_ABI_H

#include <stddef.h>
#include <stdint.h>

/* CUPTI_PROFILER_STRUCT_SIZE: the bytes up to and including the last field */
#define GMB_CU_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

typedef int gmb_cu_result_t; /* CUptiResult */
#define GMB_CU_SUCCESS                       0
#define GMB_CU_ERROR_INVALID_PARAMETER       1
#define GMB_CU_ERROR_NOT_SUPPORTED           27
#define GMB_CU_ERROR_INSUFFICIENT_PRIVILEGES 35
#define GMB_CU_ERROR_UNKNOWN                 999
#define GMB_CU_AUTO_RANGE                    1 /* CUPTI_AutoRange */
#define GMB_CU_KERNEL_REPLAY                 2 /* CUPTI_KernelReplay */
#define GMB_CU_RANGE_PROFILER                0 /* CUPTI_PROFILER_TYPE_RANGE_PROFILER */

typedef struct gmb_cu_Profiler_Initialize_Params { /* and _DeInitialize_ */
    size_t structSize;
    void *pPriv;
} gmb_cu_Profiler_Initialize_Params;

typedef struct gmb_cu_Device_GetChipName_Params {
    size_t structSize;
    void *pPriv;
    size_t deviceIndex;
    const char *pChipName;
} gmb_cu_Device_GetChipName_Params;

typedef struct gmb_cu_Profiler_GetCounterAvailability_Params {
    size_t structSize;
    void *pPriv;
    void *ctx; /* CUcontext */
    size_t counterAvailabilityImageSize;
    uint8_t *pCounterAvailabilityImage;
} gmb_cu_Profiler_GetCounterAvailability_Params;

typedef struct gmb_cu_Profiler_Host_Initialize_Params {
    size_t structSize;
    void *pPriv;
    int profilerType; /* CUpti_ProfilerType */
    const char *pChipName;
    const uint8_t *pCounterAvailabilityImage;
    void *pHostObject;
} gmb_cu_Profiler_Host_Initialize_Params;

typedef struct gmb_cu_Profiler_Host_Deinitialize_Params {
    size_t structSize;
    void *pPriv;
    void *pHostObject;
} gmb_cu_Profiler_Host_Deinitialize_Params;

typedef struct gmb_cu_Profiler_Host_ConfigAddMetrics_Params {
    size_t structSize;
    void *pPriv;
    void *pHostObject;
    const char **ppMetricNames;
    size_t numMetrics;
} gmb_cu_Profiler_Host_ConfigAddMetrics_Params;

typedef struct gmb_cu_Profiler_Host_GetConfigImageSize_Params {
    size_t structSize;
    void *pPriv;
    void *pHostObject;
    size_t configImageSize;
} gmb_cu_Profiler_Host_GetConfigImageSize_Params;

typedef struct gmb_cu_Profiler_Host_GetConfigImage_Params {
    size_t structSize;
    void *pPriv;
    void *pHostObject;
    size_t configImageSize;
    uint8_t *pConfigImage;
} gmb_cu_Profiler_Host_GetConfigImage_Params;

typedef struct gmb_cu_Profiler_Host_GetNumOfPasses_Params {
    size_t structSize;
    void *pPriv;
    size_t configImageSize;
    uint8_t *pConfigImage;
    size_t numOfPasses;
} gmb_cu_Profiler_Host_GetNumOfPasses_Params;

typedef struct gmb_cu_Profiler_Host_EvaluateToGpuValues_Params {
    size_t structSize;
    void *pPriv;
    void *pHostObject;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char **ppMetricNames;
    size_t numMetrics;
    double *pMetricValues;
} gmb_cu_Profiler_Host_EvaluateToGpuValues_Params;

typedef struct gmb_cu_RangeProfiler_Enable_Params {
    size_t structSize;
    void *pPriv;
    void *ctx; /* CUcontext */
    void *pRangeProfilerObject;
} gmb_cu_RangeProfiler_Enable_Params;

typedef struct gmb_cu_RangeProfiler_Disable_Params { /* and _Start_ */
    size_t structSize;
    void *pPriv;
    void *pRangeProfilerObject;
} gmb_cu_RangeProfiler_Disable_Params;

typedef struct gmb_cu_RangeProfiler_Stop_Params {
    size_t structSize;
    void *pPriv;
    void *pRangeProfilerObject;
    size_t passIndex;
    size_t targetNestingLevel;
    uint8_t isAllPassSubmitted;
} gmb_cu_RangeProfiler_Stop_Params;

typedef struct gmb_cu_RangeProfiler_DecodeData_Params {
    size_t structSize;
    void *pPriv;
    void *pRangeProfilerObject;
    size_t numOfRangeDropped;
} gmb_cu_RangeProfiler_DecodeData_Params;

typedef struct gmb_cu_RangeProfiler_GetCounterDataSize_Params {
    size_t structSize;
    void *pPriv;
    void *pRangeProfilerObject;
    const char **pMetricNames;
    size_t numMetrics;
    size_t maxNumOfRanges;
    uint32_t maxNumRangeTreeNodes;
    size_t counterDataSize;
} gmb_cu_RangeProfiler_GetCounterDataSize_Params;

typedef struct gmb_cu_RangeProfiler_CounterDataImage_Initialize_Params {
    size_t structSize;
    void *pPriv;
    void *pRangeProfilerObject;
    size_t counterDataSize;
    uint8_t *pCounterData;
} gmb_cu_RangeProfiler_CounterDataImage_Initialize_Params;

typedef struct gmb_cu_RangeProfiler_GetCounterDataInfo_Params {
    size_t structSize;
    void *pPriv;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t numTotalRanges;
} gmb_cu_RangeProfiler_GetCounterDataInfo_Params;

typedef struct gmb_cu_RangeProfiler_SetConfig_Params {
    size_t structSize;
    void *pPriv;
    void *pRangeProfilerObject;
    size_t configSize;
    const uint8_t *pConfig;
    size_t counterDataImageSize;
    uint8_t *pCounterDataImage;
    int range;      /* CUpti_ProfilerRange */
    int replayMode; /* CUpti_ProfilerReplayMode */
    size_t maxRangesPerPass;
    uint16_t numNestingLevels;
    uint16_t minNestingLevel;
    size_t passIndex;
    uint16_t targetNestingLevel;
} gmb_cu_RangeProfiler_SetConfig_Params;

#endif
