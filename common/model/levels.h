/* levels.h - memory-hierarchy levels from a latency curve: plateaus, the sizes where latency
 * rises, and how sure we are; "no clear level" rather than an invented one. */
#ifndef GMB_LEVELS_H
#define GMB_LEVELS_H

#include <stddef.h>

#define GMB_MAX_LEVELS 16 /* most levels one curve yields */

/* One plateau of a latency curve. */
typedef struct gmb_level {
    double lat;        /* median latency of the plateau's points (unit of the input) */
    double size_lo;    /* smallest size on the plateau */
    double size_hi;    /* largest size still on the plateau: the capacity, "up to" */
    double rise_at;    /* next measured size, where latency has risen; 0 for the last level */
    size_t first;      /* index (into the input arrays) of the plateau's first point */
    size_t last;       /* index of its last point */
    size_t npoints;    /* points on the plateau */
    double confidence; /* 0..1: plateau length x height of its steps against the noise */
} gmb_level_t;

/* Detection settings; gmb_levels_defaults() fills them. */
typedef struct gmb_levels_cfg {
    double tol_min;    /* smallest relative latency change counted as a step (log units) */
    double noise_mult; /* steps must also exceed noise_mult x the curve's noise (log units) */
    size_t min_points; /* points a plateau needs (2 are accepted at either end of the curve) */
} gmb_levels_cfg_t;

void gmb_levels_defaults(gmb_levels_cfg_t *cfg);

/* Find the levels of the curve (size[i], lat[i]), i < n, sizes ascending. Points with a
 * latency that is not a positive number are ignored. Plateaus are runs of points within a
 * tolerance of their median (in log latency; tolerance = max(tol_min, noise_mult x noise),
 * noise from the robust spread of neighbour differences); adjacent plateaus closer than the
 * tolerance merge; points between plateaus are transitions, where a level's capacity ends.
 * A curve with fewer than two plateaus has no levels: returns 0 ("no clear level").
 * Returns the number of levels written to out (at most max), or GMB_EUSAGE. cfg NULL: the
 * defaults. When noise is not NULL the estimated noise (log units) goes there. */
int gmb_levels_detect(const double *size, const double *lat, size_t n, const gmb_levels_cfg_t *cfg,
                      gmb_level_t *out, size_t max, double *noise);

/* "high" (>= 0.7), "medium" (>= 0.4) or "low". */
const char *gmb_level_confidence_word(double confidence);

/* ---- names ------------------------------------------------------------------------------ */

#define GMB_LEVEL_NAME 48 /* bytes of a level's name, with its terminator */

/* Where a curve's loads go: what its levels can be. */
typedef enum {
    GMB_LV_GLOBAL,   /* global memory through L1 (global, texture): L1, L2 ..., memory */
    GMB_LV_L2_FIRST, /* global memory from the L2 on (global-cg, atomics): L2 ..., memory */
    GMB_LV_ONCHIP,   /* shared/local, constant, another SM's shared memory: numbered */
    GMB_LV_LINK,     /* across a link (host, peer): numbered, the last "<link> memory" */
} gmb_lv_path_t;

/* The evidence the device gives about its levels. */
typedef struct gmb_lv_device {
    int gpu;          /* the device is a GPU */
    int known;        /* the GPU's structure is known (GMB_BE_GPU_KNOWN: CUDA; global: L1,
                         then the L2) */
    double llc_bytes; /* the cache the device reports (CUDA: the L2; OpenCL:
                         CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, or the L2 from the CUDA driver on
                         NVIDIA); 0 unknown */
} gmb_lv_device_t;

/* Names of the nl levels L of a normal-mode (random or stride) curve. memory: the sweep
 * reached memory (4x the last-level cache), so the last level is it (when its own plateau
 * reaches that far: one ending below is a cache); link: "host" or "peer"
 * (GMB_LV_LINK). CUDA GPU: L1 (GMB_LV_GLOBAL's first level), then "L2", "L2 near"/"L2 far"
 * or "L2 part N", and "DRAM". Another GPU (OpenCL) names them from the cache the device
 * reports: the levels ending from an eighth of it up to 1.5x it are the L2 (named as on
 * CUDA), one level below them on GMB_LV_GLOBAL is the L1, the last one "DRAM" when the sweep
 * reached memory; any other level, every level of a GPU that reports no cache, and every
 * level of a CPU are numbered ("level N"; the last on global memory "memory"). */
void gmb_level_names(const gmb_lv_device_t *dev, gmb_lv_path_t path, const char *link, int memory,
                     const gmb_level_t *L, int nl, char (*out)[GMB_LEVEL_NAME]);

/* A cache a page-stride chain may hit, from the normal-mode chase of the same run. */
typedef struct gmb_lv_cache {
    char name[GMB_LEVEL_NAME]; /* "L1", "L2 near", "DRAM" ... */
    double bytes;              /* its capacity (the level's last size); INFINITY: memory */
    double rise;               /* the next size measured, where the latency had risen; 0 none */
} gmb_lv_cache_t;

/* The caches a normal-mode curve's nl levels L (named names) show, into out (at most nl):
 * each level's capacity and rise; with memory (the sweep reached it) the last one is memory
 * (INFINITY) when named so ("DRAM", "... memory"). Returns how many. */
size_t gmb_lv_caches(const char (*names)[GMB_LEVEL_NAME], const gmb_level_t *L, int nl, int memory,
                     gmb_lv_cache_t *out);

/* The cache the device reports (llc bytes, named name) into the caches c[0..n) of a curve
 * (room for n + 1): before the memory entry, when it is larger than every cache the curve
 * showed (a cache the curve did not find as a level, say the far half of an L2 that one SM
 * sees as a slope). Returns the new count. */
size_t gmb_lv_caches_reported(gmb_lv_cache_t *c, size_t n, double llc, const char *name);

/* A page-stride level whose lines reach this share of their cache's capacity ends where the
 * cache does: 2^-5/8. Two curves of one run found the near L2's end two quarter-octave steps
 * apart on the H200 (22.6 and 28.2 MiB), so a level ending within two steps under a cache's
 * capacity may be that cache's end; the bound sits halfway to the third step. */
#define GMB_LV_EDGE 0.6484197773255048

/* A page-stride level as gmb_page_level_names sees it. */
typedef struct gmb_page_level {
    char name[GMB_LEVEL_NAME]; /* "TLB level 1", "L1 (page stride)", "level 2" ... */
    int tlb;                   /* its number when a TLB level (its end is no cache's), else 0 */
    double lines_bytes;        /* bytes of the lines the chain touches at its last size */
    int cache;                 /* index of the cache its lines fit (-1: none known) */
    double miss_cost;          /* a TLB level: the next level's latency less its own, else NAN */
} gmb_page_level_t;

/* Levels of a page-stride curve (page bytes a page, line bytes the one line a page touches)
 * against the caches caches[0..nc) of the same run, ascending (the last may be memory);
 * bottom: caches[0] is the first level there is (a measured curve from its smallest sizes),
 * so no smaller cache hides under it. The lines of a level (at its last size) fit the first
 * cache whose rise (or capacity, when it has none) they do not pass. A level is a TLB level
 * only when its end is no cache's: its lines are under GMB_LV_EDGE of that cache's capacity
 * and the next level's lines still fit it. A level whose end is a cache's is named after it,
 * "<cache> (page stride)"; the level after the last TLB level "after TLB level N" (or "<cache>
 * (page stride, after TLB level N)" when a cache ends it); anything the caches do not tell apart is
 * numbered. A last level of fewer than min_points points (a plateau the sweep's end cut to two
 * points cannot be told from the end of a slope) is dropped, and a curve left with one level has
 * none: the return value is the number of levels kept (0: no clear level), their names in out[]. */
int gmb_page_level_names(const gmb_lv_cache_t *caches, size_t nc, int bottom, double page,
                         double line, const gmb_level_t *L, int nl, size_t min_points,
                         gmb_page_level_t *out);

#endif
