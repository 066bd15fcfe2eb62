/* cupti.c - hardware counters through CUPTI's range profiler (CUDA 13), loaded with dlopen:
 * one session a device, one extra sample a point, kernel replay, one range a kernel. */
#include "cupti.h"
#include "cupti_abi.h"
#include "gmb.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GMB_CUPTI_DIR
#define GMB_CUPTI_DIR "/usr/local/cuda/lib64"
#endif

/* the metrics gmb asks for, in this order (cupti.h says how each is used) */
enum {
    M_DRAM_RD,
    M_DRAM_WR,
    M_DRAM_PCT,
    M_DUR,
    M_L2_HIT,
    M_L2_SEC,
    M_L2_TEX,
    M_L1_HIT,
    M_L1_SEC,
    NM
};
static const char *metric_names[NM] = {
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__time_duration.sum",
    "lts__t_sector_hit_rate.pct",
    "lts__t_sectors.sum",
    "lts__t_sectors_srcunit_tex.sum",
    "l1tex__t_sector_hit_rate.pct",
    "l1tex__t_sectors.sum",
};
#define MAX_RANGES 64 /* kernels one sample may launch and still be counted */
#define MAX_PASSES 64 /* Start/Stop rounds before giving up on isAllPassSubmitted */

typedef gmb_cu_result_t (*cu_fn)(void *);

struct gmb_counters {
    void *lib;           /* dlopen handle */
    char path[256];      /* the library loaded */
    const char *standin; /* the stand-in's own description; NULL for CUPTI */
    gmb_cu_result_t (*result_string)(gmb_cu_result_t, const char **);
    cu_fn prof_init, prof_deinit, chip_name, avail, host_init, host_deinit, add_metrics, cfg_size,
        cfg_image, passes, evaluate, rp_enable, rp_disable, rp_start, rp_stop, rp_decode,
        rp_data_size, rp_data_init, rp_data_info, rp_set_config;
    int initialised;    /* cuptiProfilerInitialize succeeded */
    void *host;         /* CUpti_Profiler_Host_Object */
    void *rp;           /* CUpti_RangeProfiler_Object */
    void *ctx;          /* CUcontext */
    char chip[64];      /* the chip's name (cuptiDeviceGetChipName) */
    uint8_t *avail_img; /* counter availability image */
    uint8_t *config;    /* config image */
    size_t config_size;
    uint8_t *data; /* counter data image */
    size_t data_size;
    size_t num_passes; /* passes the metrics need (cuptiProfilerHostGetNumOfPasses) */
};

/* "call: CUPTI_ERROR_...(n) text" into why; the privileges error says what to change */
static void cu_why(const gmb_counters_t *c, const char *call, gmb_cu_result_t r, char *why,
                   size_t len)
{
    const char *s = NULL;
    if (!c->result_string || c->result_string(r, &s) != GMB_CU_SUCCESS || !s)
        s = "no error text";
    snprintf(why, len, "CUPTI: %s: %s (%d)%s", call, s, r,
             r == GMB_CU_ERROR_INSUFFICIENT_PRIVILEGES
                 ? ": counters need root or the driver option NVreg_RestrictProfilingToAdminUsers=0"
                 : "");
}

#define CU(call, fn, p)                                                                            \
    do {                                                                                           \
        gmb_cu_result_t r_ = c->fn(p);                                                             \
        if (r_ != GMB_CU_SUCCESS) {                                                                \
            cu_why(c, call, r_, why, whylen);                                                      \
            return GMB_ESKIP;                                                                      \
        }                                                                                          \
    } while (0)

static void *try_open(gmb_counters_t *c, const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h)
        gmb_strlcpy(c->path, path, sizeof c->path);
    return h;
}

static int load(gmb_counters_t *c, char *why, size_t whylen)
{
    const char *env = getenv("GMB_CUPTI_LIB");
    if (env && env[0]) {
        if (!(c->lib = try_open(c, env))) {
            snprintf(why, whylen, "CUPTI not available (GMB_CUPTI_LIB=%.120s: %.120s)", env,
                     dlerror());
            return GMB_ESKIP;
        }
    } else if (!(c->lib = try_open(c, "libcupti.so.13")) &&
               !(c->lib = try_open(c, "libcupti.so")) &&
               !(c->lib = try_open(c, GMB_CUPTI_DIR "/libcupti.so.13")) &&
               !(c->lib = try_open(c, GMB_CUPTI_DIR "/libcupti.so"))) {
        snprintf(why, whylen,
                 "CUPTI not available (libcupti.so.13 not found on the loader's path nor in "
                 "%.100s; GMB_CUPTI_LIB names another)",
                 GMB_CUPTI_DIR);
        return GMB_ESKIP;
    }
    const char *const *standin = dlsym(c->lib, "gmb_cupti_standin");
    c->standin = standin ? *standin : NULL;
    *(void **)&c->result_string = dlsym(c->lib, "cuptiGetResultString");
    static const struct {
        size_t off;
        const char *name;
    } syms[] = {
#define S(f, n) {offsetof(gmb_counters_t, f), n}
        S(prof_init, "cuptiProfilerInitialize"),
        S(prof_deinit, "cuptiProfilerDeInitialize"),
        S(chip_name, "cuptiDeviceGetChipName"),
        S(avail, "cuptiProfilerGetCounterAvailability"),
        S(host_init, "cuptiProfilerHostInitialize"),
        S(host_deinit, "cuptiProfilerHostDeinitialize"),
        S(add_metrics, "cuptiProfilerHostConfigAddMetrics"),
        S(cfg_size, "cuptiProfilerHostGetConfigImageSize"),
        S(cfg_image, "cuptiProfilerHostGetConfigImage"),
        S(passes, "cuptiProfilerHostGetNumOfPasses"),
        S(evaluate, "cuptiProfilerHostEvaluateToGpuValues"),
        S(rp_enable, "cuptiRangeProfilerEnable"),
        S(rp_disable, "cuptiRangeProfilerDisable"),
        S(rp_start, "cuptiRangeProfilerStart"),
        S(rp_stop, "cuptiRangeProfilerStop"),
        S(rp_decode, "cuptiRangeProfilerDecodeData"),
        S(rp_data_size, "cuptiRangeProfilerGetCounterDataSize"),
        S(rp_data_init, "cuptiRangeProfilerCounterDataImageInitialize"),
        S(rp_data_info, "cuptiRangeProfilerGetCounterDataInfo"),
        S(rp_set_config, "cuptiRangeProfilerSetConfig"),
#undef S
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *f = dlsym(c->lib, syms[i].name);
        if (!f) {
            snprintf(why, whylen,
                     "CUPTI not available (%.120s lacks %s: the range profiler needs CUDA "
                     "12.6 or later)",
                     c->path, syms[i].name);
            return GMB_ESKIP;
        }
        memcpy((char *)c + syms[i].off, &f, sizeof f);
    }
    return GMB_OK;
}

/* profiler, chip, availability, host object, config image, range profiler */
static int setup(gmb_counters_t *c, int ordinal, char *why, size_t whylen)
{
    gmb_cu_Profiler_Initialize_Params ip = {GMB_CU_SIZE(gmb_cu_Profiler_Initialize_Params, pPriv),
                                            NULL};
    CU("cuptiProfilerInitialize", prof_init, &ip);
    c->initialised = 1;
    gmb_cu_Device_GetChipName_Params cp = {GMB_CU_SIZE(gmb_cu_Device_GetChipName_Params, pChipName),
                                           NULL, (size_t)ordinal, NULL};
    CU("cuptiDeviceGetChipName", chip_name, &cp);
    gmb_strlcpy(c->chip, cp.pChipName ? cp.pChipName : "?", sizeof c->chip);
    gmb_cu_Profiler_GetCounterAvailability_Params ap = {
        GMB_CU_SIZE(gmb_cu_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage), NULL,
        c->ctx, 0, NULL};
    CU("cuptiProfilerGetCounterAvailability", avail, &ap);
    if (ap.counterAvailabilityImageSize) {
        if (!(c->avail_img = calloc(1, ap.counterAvailabilityImageSize)))
            return GMB_ERUNTIME;
        ap.pCounterAvailabilityImage = c->avail_img;
        CU("cuptiProfilerGetCounterAvailability", avail, &ap);
    }
    gmb_cu_Profiler_Host_Initialize_Params hp = {
        GMB_CU_SIZE(gmb_cu_Profiler_Host_Initialize_Params, pHostObject),
        NULL,
        GMB_CU_RANGE_PROFILER,
        c->chip,
        c->avail_img,
        NULL};
    CU("cuptiProfilerHostInitialize", host_init, &hp);
    c->host = hp.pHostObject;
    gmb_cu_Profiler_Host_ConfigAddMetrics_Params mp = {
        GMB_CU_SIZE(gmb_cu_Profiler_Host_ConfigAddMetrics_Params, numMetrics), NULL, c->host,
        metric_names, NM};
    CU("cuptiProfilerHostConfigAddMetrics", add_metrics, &mp);
    gmb_cu_Profiler_Host_GetConfigImageSize_Params sp = {
        GMB_CU_SIZE(gmb_cu_Profiler_Host_GetConfigImageSize_Params, configImageSize), NULL, c->host,
        0};
    CU("cuptiProfilerHostGetConfigImageSize", cfg_size, &sp);
    if (!sp.configImageSize || !(c->config = calloc(1, sp.configImageSize)))
        return GMB_ERUNTIME;
    c->config_size = sp.configImageSize;
    gmb_cu_Profiler_Host_GetConfigImage_Params gp = {
        GMB_CU_SIZE(gmb_cu_Profiler_Host_GetConfigImage_Params, pConfigImage), NULL, c->host,
        c->config_size, c->config};
    CU("cuptiProfilerHostGetConfigImage", cfg_image, &gp);
    gmb_cu_Profiler_Host_GetNumOfPasses_Params pp = {
        GMB_CU_SIZE(gmb_cu_Profiler_Host_GetNumOfPasses_Params, numOfPasses), NULL, c->config_size,
        c->config, 0};
    CU("cuptiProfilerHostGetNumOfPasses", passes, &pp);
    c->num_passes = pp.numOfPasses;
    gmb_cu_RangeProfiler_Enable_Params ep = {
        GMB_CU_SIZE(gmb_cu_RangeProfiler_Enable_Params, pRangeProfilerObject), NULL, c->ctx, NULL};
    CU("cuptiRangeProfilerEnable", rp_enable, &ep);
    c->rp = ep.pRangeProfilerObject;
    gmb_cu_RangeProfiler_GetCounterDataSize_Params dp = {
        GMB_CU_SIZE(gmb_cu_RangeProfiler_GetCounterDataSize_Params, counterDataSize),
        NULL,
        c->rp,
        metric_names,
        NM,
        MAX_RANGES,
        MAX_RANGES,
        0};
    CU("cuptiRangeProfilerGetCounterDataSize", rp_data_size, &dp);
    if (!dp.counterDataSize || !(c->data = calloc(1, dp.counterDataSize)))
        return GMB_ERUNTIME;
    c->data_size = dp.counterDataSize;
    return GMB_OK;
}

int gmb_counters_open(void *ctx, int ordinal, const char *no_ctx, gmb_counters_t **out, char *why,
                      size_t whylen)
{
    *out = NULL;
    gmb_counters_t *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, whylen, "out of memory");
        return GMB_ERUNTIME;
    }
    /* without a context only a library named by GMB_CUPTI_LIB is opened (a stand-in may
     * drive a CPU build): the system's libcupti is never loaded where it cannot count */
    const char *env = getenv("GMB_CUPTI_LIB");
    int rc = ctx || (env && env[0]) ? load(c, why, whylen) : GMB_ESKIP;
    if (!ctx && (rc || !c->standin)) { /* no context is the first reason, unless a stand-in */
        snprintf(why, whylen, "%s",
                 no_ctx ? no_ctx : "CUPTI counts CUDA kernels only: no CUDA context here");
        rc = GMB_ESKIP;
    }
    c->ctx = ctx;
    if (!rc && (rc = setup(c, ordinal, why, whylen)) == GMB_ERUNTIME)
        snprintf(why, whylen, "CUPTI: an image of size 0, or out of memory");
    if (rc) {
        gmb_counters_close(c);
        return rc;
    }
    *out = c;
    return GMB_OK;
}

/* one collection's CUPTI calls; 0 with v filled, else GMB_ESKIP with why */
static int collect(gmb_counters_t *c, gmb_counters_fn fn, void *arg, gmb_counter_vals_t *v,
                   int *fn_rc, char *why, size_t whylen)
{
    gmb_cu_RangeProfiler_CounterDataImage_Initialize_Params ip = {
        GMB_CU_SIZE(gmb_cu_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData), NULL,
        c->rp, c->data_size, c->data};
    CU("cuptiRangeProfilerCounterDataImageInitialize", rp_data_init, &ip);
    gmb_cu_RangeProfiler_SetConfig_Params sp = {
        GMB_CU_SIZE(gmb_cu_RangeProfiler_SetConfig_Params, targetNestingLevel),
        NULL,
        c->rp,
        c->config_size,
        c->config,
        c->data_size,
        c->data,
        GMB_CU_AUTO_RANGE,
        GMB_CU_KERNEL_REPLAY,
        MAX_RANGES,
        1,
        1,
        0,
        1};
    CU("cuptiRangeProfilerSetConfig", rp_set_config, &sp);
    int all = 0;
    for (int pass = 0; !all && pass < MAX_PASSES; pass++) {
        gmb_cu_RangeProfiler_Disable_Params st = {
            GMB_CU_SIZE(gmb_cu_RangeProfiler_Disable_Params, pRangeProfilerObject), NULL, c->rp};
        CU("cuptiRangeProfilerStart", rp_start, &st);
        double ns = 0;
        *fn_rc = fn(arg, &ns);
        gmb_cu_RangeProfiler_Stop_Params tp = {
            GMB_CU_SIZE(gmb_cu_RangeProfiler_Stop_Params, isAllPassSubmitted),
            NULL,
            c->rp,
            0,
            0,
            0};
        CU("cuptiRangeProfilerStop", rp_stop, &tp);
        if (*fn_rc)
            return GMB_OK;
        all = tp.isAllPassSubmitted;
    }
    if (!all) {
        snprintf(why, whylen, "CUPTI: not every pass submitted after %d rounds", MAX_PASSES);
        return GMB_ESKIP;
    }
    gmb_cu_RangeProfiler_DecodeData_Params dp = {
        GMB_CU_SIZE(gmb_cu_RangeProfiler_DecodeData_Params, numOfRangeDropped), NULL, c->rp, 0};
    CU("cuptiRangeProfilerDecodeData", rp_decode, &dp);
    if (dp.numOfRangeDropped) {
        snprintf(why, whylen, "CUPTI dropped %zu ranges: the sample launched more than %d kernels",
                 dp.numOfRangeDropped, MAX_RANGES);
        return GMB_ESKIP;
    }
    gmb_cu_RangeProfiler_GetCounterDataInfo_Params np = {
        GMB_CU_SIZE(gmb_cu_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges), NULL, c->data,
        c->data_size, 0};
    CU("cuptiRangeProfilerGetCounterDataInfo", rp_data_info, &np);
    if (!np.numTotalRanges) {
        snprintf(why, whylen, "CUPTI counted no kernel in the sample");
        return GMB_ESKIP;
    }
    double sum[NM] = {0}, l2w = 0, l1w = 0, dw = 0;
    for (size_t r = 0; r < np.numTotalRanges; r++) {
        double m[NM];
        gmb_cu_Profiler_Host_EvaluateToGpuValues_Params ep = {
            GMB_CU_SIZE(gmb_cu_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues),
            NULL,
            c->host,
            c->data,
            c->data_size,
            r,
            metric_names,
            NM,
            m};
        CU("cuptiProfilerHostEvaluateToGpuValues", evaluate, &ep);
        for (int i = 0; i < NM; i++)
            sum[i] += m[i];
        /* rates: each kernel's weighted by what it is a rate of */
        l2w += m[M_L2_HIT] * m[M_L2_SEC];
        l1w += m[M_L1_HIT] * m[M_L1_SEC];
        dw += m[M_DRAM_PCT] * m[M_DUR];
    }
    v->dram_read_bytes = sum[M_DRAM_RD];
    v->dram_write_bytes = sum[M_DRAM_WR];
    v->kernel_ns = sum[M_DUR];
    v->dram_pct = sum[M_DUR] > 0 ? dw / sum[M_DUR] : -1;
    v->l2_sectors = sum[M_L2_SEC];
    v->l2_hit_pct = sum[M_L2_SEC] > 0 ? l2w / sum[M_L2_SEC] : -1;
    v->l2_sm_bytes = sum[M_L2_TEX] * 32.0;
    v->l1_hit_pct = sum[M_L1_SEC] > 0 ? l1w / sum[M_L1_SEC] : -1;
    v->kernels = np.numTotalRanges;
    return GMB_OK;
}

int gmb_counters_collect(gmb_counters_t *c, gmb_counters_fn fn, void *arg, gmb_counter_vals_t *v)
{
    memset(v, 0, sizeof *v);
    int fn_rc = 0;
    if (collect(c, fn, arg, v, &fn_rc, v->why, sizeof v->why) == GMB_OK && !fn_rc)
        v->ok = 1;
    return fn_rc;
}

static json_t *num_or_null(double x)
{
    return x >= 0 ? json_real(x) : json_null();
}

json_t *gmb_counters_json(const gmb_counter_vals_t *v)
{
    if (!v->ok)
        return json_null();
    return json_pack("{s:f, s:f, s:o, s:o, s:f, s:f, s:o, s:f, s:I}", "dram_read_bytes",
                     v->dram_read_bytes, "dram_write_bytes", v->dram_write_bytes,
                     "dram_throughput_pct", num_or_null(v->dram_pct), "l2_hit_pct",
                     num_or_null(v->l2_hit_pct), "l2_sectors", v->l2_sectors, "l2_sm_bytes",
                     v->l2_sm_bytes, "l1_hit_pct", num_or_null(v->l1_hit_pct), "kernel_ns",
                     v->kernel_ns, "kernels", (json_int_t)v->kernels);
}

json_t *gmb_counters_describe(const gmb_counters_t *c)
{
    json_t *m = json_array();
    for (int i = 0; i < NM; i++)
        json_array_append_new(m, json_string(metric_names[i]));
    return json_pack(
        "{s:b, s:s, s:s, s:o, s:s, s:o, s:I, s:s, s:s, s:s}", "available", 1, "source",
        c->standin ? "stand-in CUPTI (a test aid: its values are the stand-in's, not a device's)"
                   : "CUPTI range profiler",
        "library", c->path, "standin", c->standin ? json_string(c->standin) : json_null(), "chip",
        c->chip, "metrics", m, "passes", (json_int_t)c->num_passes, "replay",
        "kernel (CUPTI replays each kernel as many passes as the metrics need, restoring its "
        "memory between passes)",
        "range",
        "auto (one range a kernel; summed over the sample's kernels, hit rates weighted "
        "by sectors, DRAM throughput by kernel time)",
        "taken",
        "in one extra sample after each point's timed samples, never during them: the "
        "timed samples ran without the profiler");
}

void gmb_counters_close(gmb_counters_t *c)
{
    if (!c)
        return;
    if (c->rp) {
        gmb_cu_RangeProfiler_Disable_Params p = {
            GMB_CU_SIZE(gmb_cu_RangeProfiler_Disable_Params, pRangeProfilerObject), NULL, c->rp};
        c->rp_disable(&p);
    }
    if (c->host) {
        gmb_cu_Profiler_Host_Deinitialize_Params p = {
            GMB_CU_SIZE(gmb_cu_Profiler_Host_Deinitialize_Params, pHostObject), NULL, c->host};
        c->host_deinit(&p);
    }
    if (c->initialised) {
        gmb_cu_Profiler_Initialize_Params p = {
            GMB_CU_SIZE(gmb_cu_Profiler_Initialize_Params, pPriv), NULL};
        c->prof_deinit(&p);
    }
    if (c->lib)
        dlclose(c->lib);
    free(c->avail_img);
    free(c->config);
    free(c->data);
    free(c);
}
