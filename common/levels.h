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

#endif
