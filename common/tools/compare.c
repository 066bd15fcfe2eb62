/* compare.c - gmb compare: two records' points matched by their parameters, each metric's
 * change with a rank test. */
#include "gmb.h"
#include "record.h"
#include "tools/reader.h"
#include "tools/compare.h"

#include <math.h>
#include <string.h>

/* ---- compare ---------------------------------------------------------------------------- */

size_t gmb_metric_samples(const json_t *pt, const char *metric, double **out)
{
    *out = NULL;
    const json_t *own = json_object_get(json_object_get(pt, "metric_samples"), metric);
    size_t no = json_array_size(own), k = 0;
    if (no) { /* the benchmark kept them */
        double *v = malloc(no * sizeof *v);
        if (!v)
            return 0;
        for (size_t i = 0; i < no; i++) {
            double x = json_number_value(json_array_get(own, i));
            if (json_is_number(json_array_get(own, i)) && x == x)
                v[k++] = x;
        }
        if (!k)
            free(v);
        *out = k ? v : NULL;
        return k;
    }
    const json_t *m = json_object_get(json_object_get(pt, "metrics"), metric);
    const json_t *s = json_object_get(pt, "samples_ns");
    double mm = gmb_jnum(m, "median"), mmin = gmb_jnum(m, "min"), mmax = gmb_jnum(m, "max");
    double tm = gmb_jnum(pt, "time_ns.median"), tmin = gmb_jnum(pt, "time_ns.min");
    double tmax = gmb_jnum(pt, "time_ns.max");
    size_t n = json_array_size(s);
    if (!n || !(tm > 0) || !(tmin > 0) || mm != mm || mmin != mmin || mmax != mmax)
        return 0;
    double numer = mm * tm, f = mm / tm, tol = 1e-6;
    int rate = fabs(mmax * tmin - numer) <= tol * fabs(numer) &&
               fabs(mmin * tmax - numer) <= tol * fabs(numer);
    int scale =
        fabs(mmax - tmax * f) <= tol * fabs(mmax) && fabs(mmin - tmin * f) <= tol * fabs(mmin);
    if (!rate && !scale)
        return 0;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double t = json_number_value(json_array_get(s, i));
        v[i] = rate ? numer / t : t * f;
    }
    *out = v;
    return n;
}

/* Calibration parameters, not the point's identity: they may differ between devices. */
static int calibration(const char *k)
{
    static const char *const cal[] = {"reps",     "groups",        "group_size", "iters",
                                      "elements", "bytes_per_rep", "arrays",     NULL};
    for (int i = 0; cal[i]; i++)
        if (!strcmp(k, cal[i]))
            return 1;
    return 0;
}

/* Identity of a point: its non-calibration params, as "key=value;..." (exact) and shown. */
static void point_key(const json_t *pt, char *key, size_t klen, char *show, size_t slen)
{
    const char *k;
    const json_t *v;
    size_t kl = 0, sl = 0;
    key[0] = show[0] = '\0';
    json_object_foreach((json_t *)json_object_get(pt, "params"), k, v)
    {
        if (calibration(k))
            continue;
        char val[64], nice[96];
        if (json_is_string(v))
            snprintf(val, sizeof val, "%s", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(val, sizeof val, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else if (json_is_real(v))
            snprintf(val, sizeof val, "%.17g", json_real_value(v));
        else
            snprintf(val, sizeof val, "%s", json_is_true(v) ? "true" : "false");
        size_t l = strlen(k);
        if (json_is_string(v))
            snprintf(nice, sizeof nice, "%s", val);
        else if (l > 6 && !strcmp(k + l - 6, "_bytes")) {
            char sz[32];
            if (json_is_integer(v) && json_integer_value(v) == 0)
                continue; /* e.g. page_bytes 0: no page */
            /* a value no uint64_t holds (< 0, huge) is no byte count: shown as it is */
            double b = json_number_value(v);
            if (b >= 0 && b < 0x1p64)
                gmb_fmt_size((uint64_t)b, sz, sizeof sz);
            else
                gmb_strlcpy(sz, val, sizeof sz);
            snprintf(nice, sizeof nice, "%.*s=%s", (int)(l - 6), k, sz);
        } else
            snprintf(nice, sizeof nice, "%s=%s", k, val);
        if (kl < klen)
            kl += (size_t)snprintf(key + kl, klen - kl, "%s=%s;", k, val);
        if (sl < slen)
            sl += (size_t)snprintf(show + sl, slen - sl, "%s%s", sl ? " " : "", nice);
    }
}

/* A point of B by its identity, for matching: sorted by key, then by position. */
typedef struct keyed {
    char *key;  /* point_key's exact key */
    size_t idx; /* position in B's points */
} keyed_t;

static int cmp_keyed(const void *x, const void *y)
{
    const keyed_t *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* The first point of B (lowest position) with key, or NULL: a binary search. */
static const json_t *find_keyed(const keyed_t *k, size_t nk, const json_t *points, const char *key)
{
    size_t lo = 0, hi = nk;
    while (lo < hi) { /* the first entry >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(k[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nk && !strcmp(k[lo].key, key) ? json_array_get(points, k[lo].idx) : NULL;
}

/* Room for one more row: the capacity is a function of the count (the power of two >= n,
 * at least 16), so appends cost O(1) amortized without a stored capacity. */
static int rows_room(gmb_cmp_t **rows, size_t n)
{
    if (n && (n < 16 || (n & (n - 1))))
        return GMB_OK;
    size_t cap = n < 16 ? 16 : 2 * n;
    gmb_cmp_t *nr = realloc(*rows, cap * sizeof *nr);
    if (!nr)
        return GMB_ERUNTIME;
    *rows = nr;
    return GMB_OK;
}

size_t gmb_compare_records(const json_t *a, const json_t *b, gmb_cmp_t **rows, size_t *n)
{
    size_t added = 0, i, j, nk = 0;
    const json_t *pa, *pb;
    const json_t *ma = json_object_get(a, "metrics"), *mb = json_object_get(b, "metrics");
    const char *bench = json_string_value(json_object_get(a, "benchmark"));
    const json_t *bpoints = json_object_get(b, "points");
    /* B's points by key, sorted: each point of A is found in O(log n), the first point of B
     * with its key as a linear scan would */
    keyed_t *keys = calloc(json_array_size(bpoints) + 1, sizeof *keys);
    if (!keys)
        return 0;
    json_array_foreach(bpoints, j, pb)
    {
        char kb[1024], showb[200];
        point_key(pb, kb, sizeof kb, showb, sizeof showb);
        if (!(keys[nk].key = strdup(kb)))
            goto out;
        keys[nk++].idx = j;
    }
    qsort(keys, nk, sizeof *keys, cmp_keyed);
    json_array_foreach(json_object_get(a, "points"), i, pa)
    {
        char ka[1024], show[200];
        point_key(pa, ka, sizeof ka, show, sizeof show);
        const json_t *match = find_keyed(keys, nk, bpoints, ka);
        if (!match)
            continue;
        const char *name;
        const json_t *mv;
        json_object_foreach((json_t *)json_object_get(pa, "metrics"), name, mv)
        {
            const json_t *mvb = json_object_get(json_object_get(match, "metrics"), name);
            const json_t *decl = json_object_get(ma, name);
            if (!decl)
                decl = json_object_get(mb, name);
            const char *unit = gmb_jstr(decl, "unit");
            if (!json_is_object(mvb) || !strcmp(unit, "%"))
                continue;
            gmb_cmp_t c = {0};
            gmb_strlcpy(c.bench, bench ? bench : "?", sizeof c.bench);
            gmb_strlcpy(c.point, show, sizeof c.point);
            gmb_strlcpy(c.metric, name, sizeof c.metric);
            gmb_strlcpy(c.unit, unit, sizeof c.unit);
            c.higher = strcmp(gmb_jstr(decl, "better"), "lower") != 0;
            c.a = gmb_jnum(mv, "median");
            c.b = gmb_jnum(mvb, "median");
            if (!(c.a != 0) || c.a != c.a || c.b != c.b)
                continue;
            c.ratio = c.b / c.a;
            c.change = 100.0 * (c.higher ? c.ratio - 1.0 : 1.0 / c.ratio - 1.0);
            double *sa = NULL, *sb = NULL;
            size_t na = gmb_metric_samples(pa, name, &sa),
                   nb = gmb_metric_samples(match, name, &sb);
            c.p = na && nb ? gmb_mann_whitney_p(sa, na, sb, nb) : -1;
            c.na = na;
            c.nb = nb;
            free(sa);
            free(sb);
            if (rows_room(rows, *n))
                goto out;
            (*rows)[(*n)++] = c;
            added++;
        }
    }
out:
    for (size_t k = 0; k < nk; k++)
        free(keys[k].key);
    free(keys);
    return added;
}
