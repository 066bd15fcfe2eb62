/* copy.c - gmb-copy: host<->device, device<->device and peer copies by the copy engine and by
 * an SM copy kernel, pageable, pinned and mapped host memory, bandwidth and small-copy latency
 * over sizes, every copy verified; the PCIe link's nominal bandwidth when NVML knows it. */
#include "kernels/gmb_kernels.h"
#include "harness.h"
#include "host.h"
#include "model/xfer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {{"default", ""}, {NULL, NULL}};

enum { D_H2D, D_D2H, D_D2D, D_BIDIR, D_P2P, ND };
static const char *const dir_names[] = {"h2d", "d2h", "d2d", "bidir", "p2p", NULL};
enum { K_PAGEABLE, K_PINNED, K_MAPPED, NKIND };
static const char *const kind_names[] = {"pageable", "pinned", "mapped", NULL};
static const gmb_mem_kind_t kind_mem[] = {GMB_MEM_HOST_PAGEABLE, GMB_MEM_HOST_PINNED,
                                          GMB_MEM_HOST_MAPPED};
enum { E_CE, E_SM, NENG };
static const char *const engine_names[] = {"ce", "sm", NULL};

typedef struct cfg {
    gmb_sweep_t sizes;    /* bytes per copy */
    gmb_list_t dirs;      /* indices into dir_names */
    gmb_list_t kinds;     /* indices into kind_names */
    gmb_list_t engines;   /* indices into engine_names */
    double min_sample_us; /* shortest sample: small copies repeat back to back up to it */
    gmb_ints_t peers;     /* p2p peers: "next", "all" or device indices */
    gmb_ints_t nodes;     /* host memory placement: near, os, all or NUMA node indices */
    const char *sm_grid;  /* the copy kernel's grid: one-pass or resident */
    const char *sm_bidir; /* SM bidir: split (one kernel) or streams (two kernels) */
    /* completed by copy_check */
    uint64_t top;                          /* the largest copy */
    int peer[GMB_MAX_LIST], npeer;         /* p2p peers (peer_list) */
    int place[GMB_MAX_LIST], nplace, host; /* host placements (host_places); host memory asked */
} cfg_t;

static const char *const sm_grid_choices[] = {"one-pass", "resident", NULL};
static const char *const sm_bidir_choices[] = {"split", "streams", NULL};

#define O(field) offsetof(cfg_t, field)
/* the words of --peers and --host-nodes (GMB_INTS_WORD(index) in their lists) */
enum { PEER_NEXT, PEER_ALL };
static const char *const peer_words[] = {"next", "all", NULL};
enum { NODE_NEAR, NODE_OS, NODE_ALL };
static const char *const node_words[] = {"near", "os", "all", NULL};
static const gmb_opt_t opts[] = {
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", NULL, 16, 0x1p62, NULL,
     "bytes per copy: sizes, ranges A:B[:x2|:+S|:N/oct] [default 4KiB:min(1GiB,mem/4,RAM/4):x2]",
     0},
    {"directions", GMB_OPT_LIST, O(dirs), "LIST", "all", 1, 0, dir_names,
     "h2d, d2h, d2d, bidir (h2d and d2h at once), p2p (to each --peers device and back), "
     "comma-separated",
     0},
    {"kinds", GMB_OPT_LIST, O(kinds), "LIST", "all", 1, 0, kind_names,
     "host memory of h2d, d2h, bidir: pageable (malloc), pinned, mapped (zero-copy)", 0},
    {"engines", GMB_OPT_LIST, O(engines), "LIST", "all", 1, 0, engine_names,
     "ce (copy engine: memcpy/enqueue calls), sm (a copy kernel), comma-separated", 0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "100", 1, 1e7, NULL,
     "shortest timed sample; small copies repeat back to back to reach it", 0},
    {"peers", GMB_OPT_INTS, O(peers), "LIST", "next", 0, 1e6, peer_words,
     "p2p: next (the next device of this one's platform and kind), all (every such device: a "
     "row of the peer matrix) or device indices, comma-separated",
     0},
    {"sm-grid", GMB_OPT_STR, O(sm_grid), "GRID", "one-pass", 0, 0, sm_grid_choices,
     "the copy kernel's grid: one-pass (a work-item per 16-byte element, as many groups as that "
     "takes) or resident (the groups every CU holds, grid-stride); bidir: always half the "
     "resident grid each",
     0},
    {"sm-bidir", GMB_OPT_STR, O(sm_bidir), "HOW", "split", 0, 0, sm_bidir_choices,
     "bidir on the SM engine: split (one kernel, runs of 32 work-items copying in turns one way "
     "and the other: nvbandwidth's split-warp copy) or streams (a copy kernel a direction, on "
     "two streams, half the resident grid each)",
     0},
    {"host-nodes", GMB_OPT_INTS, O(nodes), "LIST", "near", 0, (1 << 20) - 1, node_words,
     "where h2d, d2h, bidir host memory and the host thread sit: near (the device's NUMA "
     "node), os (no binding), all (near, then every other node), or NUMA node numbers",
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Directions: h2d, d2h (host memory of each --kinds), d2d (one device), bidir (h2d on one\n"
    "stream/queue and d2h on another at once: aggregate and each direction), p2p (this device\n"
    "to each --peers device and back; skipped with the reason for a pair without peer access;\n"
    "gmb-copy --device i --directions p2p --peers all for every i gives the whole matrix).\n"
    "Engines: ce = the copy engine (CUDA cudaMemcpyAsync; OpenCL clEnqueueWrite/ReadBuffer with\n"
    "the host pointer, clEnqueueCopyBuffer device to device); sm = a float4 copy kernel\n"
    "(--sm-grid: one-pass by default), which reaches host memory only through a mapping (kind\n"
    "mapped: zero-copy). SM bidir (--sm-bidir): split (default) = one kernel over a device and\n"
    "a host buffer, runs of 32 work-items copying in turns host to device and device to host\n"
    "(nvbandwidth's split-warp copy; bytes = the buffer, half each way; per_direction_GBps =\n"
    "half of it, the figure nvbandwidth reports; both buffers verified), or streams = one copy\n"
    "kernel a direction on two streams, half the resident grid each.\n"
    "Pageable copies are staged by the driver and synchronous with respect to the host (CUDA).\n"
    "Bandwidth = bytes copied / device time, GB/s (1e9 B/s); bidir counts both directions.\n"
    "Latency = device time per copy (small sizes: the cost of one copy). A sample repeats the\n"
    "copy back to back until it lasts --min-sample-us. Sources hold pseudo-random floats;\n"
    "every destination is poisoned first and verified after (all of it up to 32 MiB, 8\n"
    "chunks beyond). % link: of the PCIe link's nominal bandwidth per direction (NVML's\n"
    "maximum generation x width, as an idle link may train down; gen3 0.985, gen4 1.969,\n"
    "gen5 3.938 GB/s per lane).\n"
    "Host placement (hwloc): by default the run's own (every program's): the host thread\n"
    "runs on the device's CPUs and allocates on its NUMA node(s), unless the process came\n"
    "bound (numactl, hwloc-bind, taskset: kept) or hwloc cannot place the device or it is as\n"
    "near to every node (a CPU device): then nothing is bound. The host buffers are written\n"
    "whole under it before the first copy. --host-nodes all measures every other node too\n"
    "(their points carry params.host_node; results.numa_copy compares them with the\n"
    "default). Memory binding is a preference (the OS falls back to other nodes when the\n"
    "asked ones are full): every host point records what was bound (extra.host_binding) and\n"
    "the NUMA nodes its buffers' pages do sit on (extra.host_pages_numa, from the OS).\n";

#define SEED_HOST(c) ((gmb_u32)(c)->o.seed * 4u + 1u) /* host sources */
#define SEED_DEV(c)  ((gmb_u32)(c)->o.seed * 4u + 2u) /* device sources */
#define SEED_PEER(c) ((gmb_u32)(c)->o.seed * 4u + 3u) /* the peer's source */
#define FULL_VERIFY  (32ull << 20)
#define CHUNKS       8
#define CHUNK_BYTES  (256ull << 10)
#define MAX_REPS     (1u << 16)

/* One copy of a point: which stream of which device runs it, from where to where. */
typedef struct job {
    gmb_dev_t *dev;   /* whose stream runs it */
    int stream;       /* its stream / queue */
    gmb_buf_t *dst;   /* destination (poisoned, then verified) */
    gmb_buf_t *src;   /* source (pseudo-random floats of seed) */
    gmb_u32 seed;     /* of the source */
    gmb_kern_t *k;    /* SM engine: the copy kernel of dev; NULL: the copy engine */
    gmb_launch_t geo; /* its launch */
    const char *name; /* "h2d", "d2h" ... */
} job_t;

/* A point being measured. */
typedef struct point {
    gmb_ctx_t *c;
    job_t job[2];      /* one, or two at once (bidir) */
    int njobs;         /* 1 or 2 */
    uint64_t bytes;    /* bytes per copy */
    gmb_u64 n4;        /* 16-byte elements per copy */
    gmb_u32 reps;      /* copies per sample (each job) */
    int split;         /* SM bidir by copy_split: one job, dst the device buffer, src host */
    double *each_ns;   /* bidir: per-job time of every sample call, job-major pairs */
    size_t neach, cap; /* pairs stored, capacity */
} point_t;

/* The run: buffers, kernels, link, results. */
typedef struct state {
    gmb_ctx_t *c;
    gmb_buf_t *dsrc, *ddst;    /* device buffers, top bytes */
    gmb_buf_t *hsrc, *hdst;    /* host buffers of the current kind */
    gmb_prog_t *prog;          /* kernels of the device */
    gmb_kern_t *kinit, *kcopy; /* its kernels */
    gmb_kern_t *ksplit;        /* copy_split: SM bidir in one kernel */
    uint64_t top;              /* largest size */
    double link_gbps;          /* nominal PCIe bandwidth per direction, 0 unknown */
    double peer_gbps;          /* p2p: the pair's nominal NVLink bandwidth per direction, 0
                                  unknown (set while run_p2p measures) */
    json_t *largest;           /* results.largest */
    json_t *latency;           /* results.latency_us */
    json_t *skipped;           /* results.skipped */
    json_t *peers;             /* results.peers: the p2p peers measured */
    int injected;              /* the planted error is in */
    gmb_numa_t *numa;          /* host placement (NULL without hwloc) */
    const char *node;          /* the host series' placement label, NULL for the default */
    char node_buf[24];         /* where node points otherwise: "os" or a NUMA node number */
    char first_binding[224];   /* binding of the default placement */
    char binding[224];         /* what the host series runs under (extra.host_binding) */
    char pages[96];            /* NUMA nodes of its buffers' pages (extra.host_pages_numa) */
    char label[48];            /* its kind as shown: "pinned", "pinned@1" */
    json_t *placements;        /* results.host_placement */
    json_t *at;                /* the point index of each results.largest and .latency_us
                                  entry ("largest KEY", "latency KEY"; not recorded) */
} state_t;

/* Enqueue one copy of job j (no wait). */
static int enqueue(const gmb_backend_t *be, point_t *p, job_t *j)
{
    if (j->k) {
        gmb_arg_t av[] = {GMB_A_BUF(j->dst), GMB_A_BUF(j->src), GMB_A_VAL(p->n4)};
        return be->launch_async(j->k, j->stream, &j->geo, av, 3);
    }
    return be->copy_async(j->dev, j->stream, j->dst, 0, j->src, 0, (size_t)p->bytes);
}

/* One sample: every job's span begun, their copies enqueued in turns (bidir: one h2d, one
 * d2h, ... so that both streams run from the start, not one after the other), then waited
 * for; the span from the first begin to the last end (one job: its own span). */
static int sample(void *arg, double *ns)
{
    point_t *p = arg;
    const gmb_backend_t *be = p->c->be;
    double t0[2], t1[2];
    int rc = GMB_OK;
    for (int j = 0; j < p->njobs && !rc; j++)
        rc = be->span_begin(p->job[j].dev, p->job[j].stream);
    for (gmb_u32 r = 0; r < p->reps && !rc; r++)
        for (int j = 0; j < p->njobs && !rc; j++)
            rc = enqueue(be, p, &p->job[j]);
    for (int j = 0; j < p->njobs; j++) {
        int r = be->span_end(p->job[j].dev, p->job[j].stream);
        rc = rc ? rc : r;
    }
    for (int j = 0; j < p->njobs; j++) { /* wait for all, even after an error */
        int r = be->span_wait(p->job[j].dev, p->job[j].stream, &t0[j], &t1[j]);
        rc = rc ? rc : r;
    }
    if (rc)
        return rc;
    if (p->njobs == 1) {
        *ns = t1[0] - t0[0];
        return GMB_OK;
    }
    *ns = fmax(t1[0], t1[1]) - fmin(t0[0], t0[1]);
    if (p->neach == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        double *e = realloc(p->each_ns, cap * 2 * sizeof *e);
        if (!e)
            return GMB_ERUNTIME;
        p->each_ns = e;
        p->cap = cap;
    }
    p->each_ns[2 * p->neach] = t1[0] - t0[0];
    p->each_ns[2 * p->neach + 1] = t1[1] - t0[1];
    p->neach++;
    return GMB_OK;
}

/* Check a destination against its source's data: all of it, or sampled chunks. */
static int verify(gmb_ctx_t *c, const job_t *j, uint64_t bytes, const char **how, char *err,
                  size_t errlen)
{
    gmb_span_t sp[CHUNKS];
    size_t n = gmb_verify_spans(bytes, FULL_VERIFY, CHUNK_BYTES, CHUNKS, j->seed, sp, CHUNKS);
    *how = bytes <= FULL_VERIFY ? "full" : "sampled";
    size_t most = 0;
    for (size_t i = 0; i < n; i++)
        most = sp[i].bytes > most ? (size_t)sp[i].bytes : most;
    float *buf = malloc(most ? most : 1);
    if (!buf)
        return GMB_ERUNTIME;
    int rc = GMB_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        if ((rc = c->be->read(j->dst, (size_t)sp[i].off, buf, (size_t)sp[i].bytes)))
            break;
        gmb_u64 e0 = sp[i].off / sizeof(float);
        for (size_t q = 0; q < sp[i].bytes / sizeof(float); q++) {
            float e = gmb_rand_float(j->seed, e0 + q);
            if (memcmp(&buf[q], &e, sizeof e)) {
                snprintf(err, errlen, "%s: element %llu: got %.9g, expected %.9g", j->name,
                         (unsigned long long)(e0 + q), buf[q], e);
                rc = GMB_EVERIFY;
                break;
            }
        }
    }
    free(buf);
    return rc;
}

/* The split bidir's buffers (device dst, host src of the job): at element e both hold the host
 * data where (e / 4) / 32 is even (copied to the device), the device's where it is odd (copied
 * to the host); all of it, or sampled chunks. */
static int verify_split(gmb_ctx_t *c, const job_t *j, uint64_t bytes, const char **how, char *err,
                        size_t errlen)
{
    gmb_span_t sp[CHUNKS];
    size_t n = gmb_verify_spans(bytes, FULL_VERIFY, CHUNK_BYTES, CHUNKS, j->seed, sp, CHUNKS);
    *how = bytes <= FULL_VERIFY ? "full" : "sampled";
    size_t most = 0;
    for (size_t i = 0; i < n; i++)
        most = sp[i].bytes > most ? (size_t)sp[i].bytes : most;
    float *buf = malloc(most ? most : 1);
    if (!buf)
        return GMB_ERUNTIME;
    int rc = GMB_OK;
    gmb_buf_t *both[2] = {j->dst, j->src};
    const char *name[2] = {"bidir (device buffer)", "bidir (host buffer)"};
    for (int b = 0; b < 2 && !rc; b++)
        for (size_t i = 0; i < n && !rc; i++) {
            if ((rc = c->be->read(both[b], (size_t)sp[i].off, buf, (size_t)sp[i].bytes)))
                break;
            gmb_u64 e0 = sp[i].off / sizeof(float);
            for (size_t q = 0; q < sp[i].bytes / sizeof(float); q++) {
                gmb_u64 e = e0 + q;
                float want = gmb_rand_float((e / 4 / 32) & 1 ? SEED_DEV(c) : SEED_HOST(c), e);
                if (memcmp(&buf[q], &want, sizeof want)) {
                    snprintf(err, errlen, "%s: element %llu: got %.9g, expected %.9g", name[b],
                             (unsigned long long)e, buf[q], want);
                    rc = GMB_EVERIFY;
                    break;
                }
            }
        }
    free(buf);
    return rc;
}

/* A rate metric of a point from per-job samples (the last n of the pairs). */
static void job_rate(json_t *pt, const char *name, const point_t *p, int j, size_t n, double bytes,
                     const gmb_ctx_t *c)
{
    gmb_point_rate(c, pt, name, p->each_ns + 2 * (p->neach - n) + (size_t)j, n, 2, bytes);
}

static void print_header(void)
{
    printf("%-8s %-11s %-3s %10s %10s %7s %10s %6s %4s %6s %-8s\n", "dir", "kind", "eng", "size",
           "GB/s", "+-CI%", "lat us", "%link", "n", "reps", "verified");
}

static void note_skip(state_t *s, const char *dir, const char *kind, const char *engine,
                      const char *why)
{
    printf("# skipped: %s %s %s: %s\n", dir, kind, engine, why);
    json_array_append_new(s->skipped, json_pack("{s:s, s:s, s:s, s:s}", "direction", dir, "kind",
                                                kind, "engine", engine, "reason", why));
}

static int init_src(state_t *s, gmb_kern_t *kinit, gmb_buf_t *b, uint64_t bytes, gmb_u32 seed);

/* Measure, verify and record one point. dir and kind name the series. */
static int run_point(state_t *s, point_t *p, const char *dir, const char *kind, const char *engine,
                     int host_link)
{
    gmb_ctx_t *c = s->c;
    const gmb_backend_t *be = c->be;
    const cfg_t *cfg = c->cfg;
    int rc;
    if (p->split) { /* both buffers are source and destination: their own data first */
        if ((rc = init_src(s, s->kinit, p->job[0].dst, p->bytes, SEED_DEV(c))) ||
            (rc = init_src(s, s->kinit, p->job[0].src, p->bytes, SEED_HOST(c))))
            return rc;
    } else {
        for (int j = 0; j < p->njobs; j++) /* poison what the copies must write */
            if ((rc = be->fill(p->job[j].dst, 0, 0xff, (size_t)p->bytes)))
                return rc;
    }
    /* copies per sample: a sample lasts at least min_sample_us */
    double t1, want = cfg->min_sample_us * 1e3;
    p->reps = 1;
    if ((rc = sample(p, &t1)) || (rc = sample(p, &t1))) /* the first is the warm-up */
        return rc;
    gmb_series_t ser = {.warmed = 1};
    if (t1 >= want && (rc = gmb_series_push(&ser, t1)))
        return rc;
    for (int it = 0; it < 4 && t1 < want && p->reps < MAX_REPS; it++) {
        double f = fmax(2.0, 1.1 * want / fmax(t1, 1.0));
        p->reps = (gmb_u32)fmin((double)p->reps * f, (double)MAX_REPS);
        if ((rc = sample(p, &t1)))
            return rc;
    }
    if ((rc = gmb_measure(c, sample, p, &ser))) {
        gmb_series_free(&ser);
        return rc;
    }
    if (c->o.inject_error && !s->injected) { /* test aid: one wrong element, the last */
        float bad = -1.0f;
        rc = be->write(p->job[0].dst, (size_t)p->bytes - sizeof bad, &bad, sizeof bad);
        s->injected = 1;
        if (rc) {
            gmb_series_free(&ser);
            return rc;
        }
    }
    char err[256] = "";
    const char *how = "none";
    if (p->split)
        rc = verify_split(c, &p->job[0], p->bytes, &how, err, sizeof err);
    for (int j = 0; j < p->njobs && !rc && !p->split; j++)
        rc = verify(c, &p->job[j], p->bytes, &how, err, sizeof err);
    if (rc && rc != GMB_EVERIFY) {
        gmb_series_free(&ser);
        return rc;
    }
    /* per job (split: the one kernel's bytes, half each way) */
    double moved = (double)p->bytes * p->reps;
    json_t *params = json_pack("{s:s, s:s, s:s, s:I, s:i, s:i}", "direction", dir, "kind", kind,
                               "engine", engine, "size_bytes", (json_int_t)p->bytes, "reps",
                               (int)p->reps, "streams", p->njobs);
    if (p->job[0].k) /* the copy kernel's grid */
        json_object_set_new(params, "groups", json_integer((json_int_t)p->job[0].geo.groups));
    if (p->split || (p->njobs == 2 && p->job[0].k))
        json_object_set_new(params, "sm_bidir", json_string(p->split ? "split" : "streams"));
    if (host_link && s->node)
        json_object_set_new(params, "host_node", json_string(s->node));
    json_t *pt = gmb_point_new(params, &ser);
    gmb_point_metric(pt, "bw_GBps", gmb_json_rate(moved * p->njobs, &ser.st));
    gmb_point_metric(pt, "lat_us", gmb_json_scaled(1e-3 / p->reps, &ser.st));
    double bw = moved * p->njobs / ser.st.median, link = 0;
    if (p->split) /* nvbandwidth's SM bidir figure: half of what the kernel moved */
        gmb_point_metric(pt, "per_direction_GBps", gmb_json_rate(moved / 2, &ser.st));
    if ((host_link && s->link_gbps > 0) || (!host_link && s->peer_gbps > 0)) {
        link = (host_link ? s->link_gbps : s->peer_gbps) *
               (p->split ? 2 : p->njobs); /* bidir: both directions */
        gmb_point_metric(pt, "pct_link", gmb_json_rate(moved * p->njobs * 100.0 / link, &ser.st));
    }
    if (p->njobs == 2) {
        size_t n = ser.n <= p->neach ? ser.n : p->neach;
        job_rate(pt, "h2d_bw_GBps", p, 0, n, moved, c);
        job_rate(pt, "d2h_bw_GBps", p, 1, n, moved, c);
    }
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "verified", json_string(rc == GMB_OK ? how : "FAILED"));
    if (host_link) {
        json_object_set_new(extra, "host_binding", json_string(s->binding));
        json_object_set_new(extra, "host_pages_numa", json_string(s->pages));
    }
    char sz[32], pct[16] = "-";
    const char *shown = host_link ? s->label : kind;
    if (link > 0)
        snprintf(pct, sizeof pct, "%.1f", 100.0 * bw / link);
    double lat = ser.st.median / p->reps * 1e-3;
    printf("%-8s %-11s %-3s %10s %10.3f %7.2f %10.2f %6s %4zu %6u %-8s\n", dir, shown, engine,
           gmb_fmt_size(p->bytes, sz, sizeof sz), bw, 100.0 * ser.st.ci_rel, lat, pct, ser.st.n,
           p->reps, rc == GMB_OK ? how : "FAILED");
    fflush(stdout);
    if (rc == GMB_OK) {
        char key[96];
        snprintf(key, sizeof key, "%s_%s_%s%s%s", dir, kind, engine,
                 host_link && s->node ? "_node" : "", host_link && s->node ? s->node : "");
        json_t *b = json_pack("{s:f, s:I}", "bw_GBps", bw, "size_bytes", (json_int_t)p->bytes);
        if (ser.st.ci_lo > 0) /* the bandwidth's 95% CI, from the time's */
            json_object_set_new(b, "ci",
                                json_pack("[f, f]", moved * p->njobs / ser.st.ci_hi,
                                          moved * p->njobs / ser.st.ci_lo));
        if (link > 0)
            json_object_set_new(b, "pct_link", json_real(100.0 * bw / link));
        json_object_set_new(s->largest, key, b); /* sizes ascend: the last one stays */
        char at[112];
        json_int_t idx = (json_int_t)json_array_size(c->points); /* pt's, added below */
        snprintf(at, sizeof at, "largest %s", key);
        json_object_set_new(s->at, at, json_integer(idx));
        if (!json_object_get(s->latency, key)) {
            json_object_set_new(
                s->latency, key,
                json_pack("{s:f, s:I}", "lat_us", lat, "size_bytes", (json_int_t)p->bytes));
            snprintf(at, sizeof at, "latency %s", key);
            json_object_set_new(s->at, at, json_integer(idx));
        }
    }
    gmb_add_point(c, pt);
    gmb_series_free(&ser);
    if (rc == GMB_EVERIFY)
        gmb_error("verification failed: %s %s %s, %s: %s", dir, shown, engine, sz, err);
    return rc;
}

/* Every size of one series. */
static int run_series(state_t *s, job_t *jobs, int njobs, const char *dir, const char *kind,
                      const char *engine, int host_link)
{
    const cfg_t *cfg = s->c->cfg;
    int rc = GMB_OK;
    for (size_t i = 0; i < cfg->sizes.n && !rc; i++) {
        point_t p = {.c = s->c, .njobs = njobs, .bytes = cfg->sizes.v[i]};
        p.split = jobs[0].k && jobs[0].k == s->ksplit;
        p.n4 = p.bytes / 16;
        for (int j = 0; j < njobs; j++) {
            p.job[j] = jobs[j];
            if (p.job[j].k)
                gmb_grid(s->c, p.job[j].k, 0, 0, p.n4, &p.job[j].geo);
            /* bidir: half the resident grid each; a grid that fills every CU's slots would keep
             * the other stream's kernel waiting until it ends (no overlap) */
            if (p.job[j].k && njobs == 2 && p.job[j].geo.groups > 1)
                p.job[j].geo.groups = (p.job[j].geo.groups + 1) / 2;
            /* one copy: by default a work-item per element (on an H200 stream's copy read and
             * wrote 88.8% of the peak so, 81-82% on the resident grid-stride grid) */
            if (p.job[j].k && njobs == 1 && !strcmp(cfg->sm_grid, "one-pass"))
                gmb_grid_pass(s->c, 0, 1, p.n4, &p.job[j].geo);
        }
        rc = run_point(s, &p, dir, kind, engine, host_link);
        free(p.each_ns);
    }
    return rc;
}

/* Fill a buffer with the pseudo-random floats of seed: host memory by the host, device memory
 * by the init kernel of prog's device. */
static int init_src(state_t *s, gmb_kern_t *kinit, gmb_buf_t *b, uint64_t bytes, gmb_u32 seed)
{
    const gmb_backend_t *be = s->c->be;
    gmb_u64 n = bytes / sizeof(float);
    float *h = be->host_ptr(b);
    if (h) {
        for (gmb_u64 i = 0; i < n; i++)
            h[i] = gmb_rand_float(seed, i);
        return GMB_OK;
    }
    gmb_launch_t g;
    gmb_grid(s->c, kinit, 0, 0, n, &g);
    gmb_arg_t av[] = {GMB_A_BUF(b), GMB_A_VAL(n), GMB_A_VAL(seed)};
    return be->launch(kinit, &g, av, 3, NULL);
}

/* h2d, d2h and bidir with host memory of one kind. */
static int run_host(state_t *s, int kind)
{
    gmb_ctx_t *c = s->c;
    const gmb_backend_t *be = c->be;
    const cfg_t *cfg = c->cfg;
    const char *kn = kind_names[kind];
    int rc;
    if ((rc = be->alloc(c->dev, kind_mem[kind], (size_t)s->top, &s->hsrc)) ||
        (rc = be->alloc(c->dev, kind_mem[kind], (size_t)s->top, &s->hdst))) {
        char a[32];
        if (rc != GMB_ESKIP)
            gmb_error("cannot allocate 2 x %s of %s host memory", gmb_fmt_size(s->top, a, sizeof a),
                      kn);
        return rc;
    }
    /* every page of both buffers written here, under the binding (not first touched later by
     * whichever thread copies into it), then asked where it sits */
    if ((rc = init_src(s, s->kinit, s->hsrc, s->top, SEED_HOST(c))) ||
        (rc = be->fill(s->hdst, 0, 0xff, (size_t)s->top)))
        return rc;
    char a[32] = "unknown", b[32] = "unknown";
    gmb_numa_where(s->numa, be->host_ptr(s->hsrc), (size_t)s->top, a, sizeof a);
    gmb_numa_where(s->numa, be->host_ptr(s->hdst), (size_t)s->top, b, sizeof b);
    if (!strcmp(a, b))
        gmb_strlcpy(s->pages, a, sizeof s->pages);
    else
        snprintf(s->pages, sizeof s->pages, "source %s, destination %s", a, b);
    snprintf(s->label, sizeof s->label, "%s%s%s", kn, s->node ? "@" : "", s->node ? s->node : "");
    json_object_set_new(s->placements, s->label,
                        json_pack("{s:s?, s:s, s:s}", "host_node", s->node, "binding", s->binding,
                                  "pages_numa", s->pages));
    printf("# host memory %s: %s; pages on NUMA %s\n", s->label, s->binding, s->pages);
    for (size_t di = 0; di < cfg->dirs.n && !rc; di++) {
        int d = cfg->dirs.idx[di];
        if (d != D_H2D && d != D_D2H && d != D_BIDIR)
            continue;
        for (size_t ei = 0; ei < cfg->engines.n && !rc; ei++) {
            int e = cfg->engines.idx[ei];
            if (e == E_SM && kind != K_MAPPED) {
                note_skip(s, dir_names[d], kn, "sm",
                          "the SM engine reaches host memory only through a mapping (kind "
                          "mapped, the zero-copy path)");
                continue;
            }
            if (e == E_SM && !(c->info.caps & GMB_CAP_MAPPED)) {
                note_skip(s, dir_names[d], kn, "sm",
                          "the device does not let kernels use mapped host memory (OpenCL: no "
                          "host-unified memory, where OpenCL 1.2 leaves it undefined)");
                continue;
            }
            gmb_kern_t *k = e == E_SM ? s->kcopy : NULL;
            job_t h2d = {c->dev, 0, s->ddst, s->hsrc, SEED_HOST(c), k, {0}, "h2d"};
            job_t d2h = {c->dev, d == D_BIDIR ? 1 : 0, s->hdst, s->dsrc, SEED_DEV(c), k, {0},
                         "d2h"};
            job_t jobs[2] = {h2d, d2h};
            /* split: one kernel between the device and the host destination buffers */
            job_t split = {c->dev, 0, s->ddst, s->hdst, SEED_HOST(c), s->ksplit, {0}, "bidir"};
            if (d == D_BIDIR && e == E_SM && !strcmp(cfg->sm_bidir, "split"))
                rc = run_series(s, &split, 1, "bidir", kn, engine_names[e], 1);
            else if (d == D_H2D)
                rc = run_series(s, &h2d, 1, "h2d", kn, engine_names[e], 1);
            else if (d == D_D2H)
                rc = run_series(s, &d2h, 1, "d2h", kn, engine_names[e], 1);
            else
                rc = run_series(s, jobs, 2, "bidir", kn, engine_names[e], 1);
        }
    }
    be->free(s->hsrc);
    be->free(s->hdst);
    s->hsrc = s->hdst = NULL;
    return rc;
}

/* Append placement (or peer) p to out unless it is there; 0 when out is full (p not added). */
static int placement_add(int *out, int *n, int p)
{
    for (int j = 0; j < *n; j++)
        if (out[j] == p)
            return 1;
    if (*n == GMB_MAX_LIST)
        return 0;
    out[(*n)++] = p;
    return 1;
}

/* A peer of this device for next and all: another device of the same platform and kind (an
 * OpenCL GPU's peer is never the CPU device of another platform). */
static int peer_like(const gmb_dev_info_t *self, const gmb_backend_t *be, int k)
{
    gmb_dev_info_t o;
    return !be->info(k, &o) && !strcmp(o.platform, self->platform) && !strcmp(o.type, self->type);
}

/* The p2p peers of --peers: n of them into out (none when the backend has one device; next
 * and all take only devices of this one's platform and kind, an index any device).
 * GMB_EUSAGE (one line) for a malformed list, this device itself or one that is not there. */
static int peer_list(gmb_ctx_t *c, int *out, int *n)
{
    const gmb_ints_t *l = &((const cfg_t *)c->cfg)->peers;
    char why[256];
    int ndev = 0, self = c->info.index;
    *n = 0;
    if (c->be->count(&ndev, why, sizeof why) || ndev < 1)
        ndev = 1; /* no peer then: the p2p step says why it skips */
    for (size_t i = 0; i < l->n; i++) {
        long v = l->v[i];
        if (v < 0) { /* next: the next such device after this one; all: every such one */
            for (int k = 1, got = 0; k < ndev && (!got || v == GMB_INTS_WORD(PEER_ALL)); k++) {
                int d = (self + k) % ndev;
                if (!peer_like(&c->info, c->be, d))
                    continue;
                got = 1;
                if (!placement_add(out, n, d))
                    break;
            }
            continue;
        }
        if (v == self || v >= ndev) {
            gmb_error("--peers %ld: %s", v,
                      v == self ? "the device itself (d2d measures that)"
                                : "no such device (gmb devices lists them)");
            return GMB_EUSAGE;
        }
        if (!placement_add(out, n, (int)v)) {
            gmb_error("--peers: at most %d devices", GMB_MAX_LIST);
            return GMB_EUSAGE;
        }
    }
    return GMB_OK; /* the list names one device at least, or a word */
}

/* What the driver and NVML say of the path to a peer, into its results.peers entry: the
 * driver's attributes (performance rank, native atomics) and the NVLinks between the two
 * (NVML: links up, version, direct or through an NVSwitch, nominal GB/s per direction, which
 * pct_link of the p2p points is against), each with the reason where there is none. */
static void peer_facts(state_t *s, json_t *pj, const gmb_dev_info_t *pinfo)
{
    gmb_ctx_t *c = s->c;
    char why[256];
    int rank = 0, atomics = 0;
    if (c->be->peer_attrs(c->info.index, pinfo->index, &rank, &atomics, why, sizeof why))
        json_object_set_new(pj, "attributes", json_pack("{s:b, s:s}", "available", 0, "why", why));
    else
        json_object_set_new(pj, "attributes",
                            json_pack("{s:b, s:i, s:b}", "available", 1, "performance_rank", rank,
                                      "native_atomics", atomics));
    gmb_nvlink_t l;
    const char *ppci = pinfo->pci_bus_id, *tp = getenv("GMB_TEST_NVML_PEER_PCI");
    if (!ppci[0] && tp && *tp) { /* test aid: the peer's PCI bus id (a stand-in NVML knows) */
        ppci = tp;
        gmb_warn("test aid GMB_TEST_NVML_PEER_PCI: the PCI bus id of peer %d is taken as %s",
                 pinfo->index, tp);
    }
    if (!c->info.pci_bus_id[0] || !ppci[0]) {
        json_object_set_new(pj, "nvlink",
                            json_pack("{s:b, s:s}", "available", 0, "why",
                                      "a device without a PCI bus id (NVML finds a GPU by it)"));
        return;
    }
    if (!gmb_nvml_nvlink(c->info.pci_bus_id, &l)) {
        json_object_set_new(pj, "nvlink", json_pack("{s:b, s:s}", "available", 0, "why", l.why));
        return;
    }
    int direct = 0, sw = 0;
    double nominal = gmb_nvlink_to(&l, ppci, &direct, &sw);
    json_object_set_new(pj, "nvlink",
                        json_pack("{s:b, s:s, s:i, s:i, s:s, s:i, s:i, s:f, s:o}", "available", 1,
                                  "source", "NVML", "links", l.links, "links_up", l.links_up,
                                  "version", l.version_text, "direct_links", direct, "switch_links",
                                  sw, "link_GBps", l.link_gbps, "nominal_GBps",
                                  nominal > 0 ? json_real(nominal) : json_null()));
    s->peer_gbps = nominal;
    if (nominal > 0)
        printf("# peer %d: NVLink %s, %d link%s direct and %d through NVSwitch: nominal %.0f GB/s "
               "per direction (NVML)\n",
               pinfo->index, l.version_text, direct, direct == 1 ? "" : "s", sw, nominal);
}

/* p2p: this device to peer pi and back, when the pair can copy device to device. The pair is
 * opened anew (pair_open: OpenCL needs one context over both) with its own buffers on each
 * side: a's source to b's destination (p2p), b's source to a's destination (p2p_rev). */
static int run_p2p(state_t *s, int pi)
{
    gmb_ctx_t *c = s->c;
    const gmb_backend_t *be = c->be;
    const cfg_t *cfg = c->cfg;
    char why[512], kind[32];
    snprintf(kind, sizeof kind, "peer%d", pi);
    gmb_dev_info_t pinfo;
    gmb_dev_t *pair[2] = {NULL, NULL};
    gmb_buf_t *buf[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [device][source, destination] */
    gmb_prog_t *prog[2] = {NULL, NULL};
    gmb_kern_t *kinit[2] = {NULL, NULL}, *kcopy[2] = {NULL, NULL};
    int rc = be->info(pi, &pinfo), r1 = GMB_OK;
    if (rc)
        return rc;
    if (2 * s->top > pinfo.mem_bytes || 4 * s->top > c->info.mem_bytes) {
        snprintf(why, sizeof why, "device %d has too little memory for the pair's buffers",
                 2 * s->top > pinfo.mem_bytes ? pi : c->info.index);
        r1 = GMB_ESKIP;
    } else {
        r1 = be->pair_open(c->info.index, pi, pair, why, sizeof why);
    }
    if (r1 != GMB_OK) {
        for (size_t ei = 0; ei < cfg->engines.n && r1 == GMB_ESKIP; ei++)
            note_skip(s, "p2p", kind, engine_names[cfg->engines.idx[ei]], why);
        return r1 == GMB_ESKIP ? GMB_OK : r1;
    }
    const gmb_u32 seed[2] = {SEED_DEV(c), SEED_PEER(c)};
    for (int d = 0; d < 2 && !rc; d++)
        if ((rc = be->alloc(pair[d], GMB_MEM_DEVICE, (size_t)s->top, &buf[d][0])) ||
            (rc = be->alloc(pair[d], GMB_MEM_DEVICE, (size_t)s->top, &buf[d][1])) ||
            (rc = be->prog_load(pair[d], c->bench->kernels, "default", &prog[d])) ||
            (rc = be->kern_get(prog[d], "copy_init", &kinit[d])) ||
            (rc = be->kern_get(prog[d], "copy_sm", &kcopy[d])) ||
            (rc = init_src(s, kinit[d], buf[d][0], s->top, seed[d])))
            break;
    if (rc)
        goto out;
    json_t *pj = json_pack("{s:i, s:s, s:s, s:s}", "index", pi, "name", pinfo.name, "pci_bus_id",
                           pinfo.pci_bus_id, "path", be->peer_path);
    peer_facts(s, pj, &pinfo);
    json_array_append_new(s->peers, pj);
    /* the copy engine's copy runs on the destination's queue where the backend pulls (OpenCL),
     * else on the source's stream; the SM engine is the source device's kernel writing the
     * peer's memory, where kernels reach it (CUDA peer access) */
    int pull = (be->kind->traits & GMB_BE_PEER_PULL) != 0;
    for (size_t ei = 0; ei < cfg->engines.n && !rc; ei++) {
        int e = cfg->engines.idx[ei];
        if (e == E_SM && !(be->kind->traits & GMB_BE_PEER_KERNEL)) {
            note_skip(s, "p2p", kind, engine_names[e],
                      "a kernel reaches only memory on its own device here (no peer access): "
                      "the SM engine's peer copy needs it, the copy engine's runs");
            continue;
        }
        for (int d = 0; d < 2 && !rc; d++) {
            gmb_dev_t *run = pull && e == E_CE ? pair[1 - d] : pair[d];
            job_t j = {run,           0,
                       buf[1 - d][1], buf[d][0],
                       seed[d],       e == E_SM ? kcopy[d] : NULL,
                       {0},           d ? "p2p_rev" : "p2p"};
            rc = run_series(s, &j, 1, j.name, kind, engine_names[e], 0);
        }
    }
out:
    s->peer_gbps = 0;
    for (int d = 1; d >= 0; d--) {
        be->free(buf[d][0]);
        be->free(buf[d][1]);
        be->prog_free(prog[d]);
        be->close(pair[d]);
    }
    return rc;
}

/* results.peer_copy: per engine, the fastest and the slowest peer at the largest copy, both
 * ways (p2p: this device to the peer, p2p_rev: back), from results.largest. */
static void peer_summary(state_t *s)
{
    json_t *sum = json_object();
    const char *dirs[] = {"p2p", "p2p_rev"};
    for (int e = 0; engine_names[e]; e++)
        for (int d = 0; d < 2; d++) {
            double hi = -1, lo = INFINITY;
            int hi_p = -1, lo_p = -1;
            size_t i;
            json_t *pj;
            json_array_foreach(s->peers, i, pj)
            {
                int pi = (int)json_integer_value(json_object_get(pj, "index"));
                char key[64];
                snprintf(key, sizeof key, "%s_peer%d_%s", dirs[d], pi, engine_names[e]);
                json_t *b = json_object_get(s->largest, key);
                if (!b)
                    continue;
                double v = json_real_value(json_object_get(b, "bw_GBps"));
                if (v > hi)
                    hi = v, hi_p = pi;
                if (v < lo)
                    lo = v, lo_p = pi;
            }
            if (hi_p < 0)
                continue;
            char key[64];
            snprintf(key, sizeof key, "%s_%s", dirs[d], engine_names[e]);
            json_object_set_new(sum, key,
                                json_pack("{s:f, s:i, s:f, s:i, s:I}", "fastest_GBps", hi,
                                          "fastest_peer", hi_p, "slowest_GBps", lo, "slowest_peer",
                                          lo_p, "peers", (json_int_t)json_array_size(s->peers)));
        }
    if (json_object_size(sum))
        gmb_add_result(s->c, "peer_copy", sum);
    else
        json_decref(sum);
}

static int pick_sizes(state_t *s)
{
    gmb_ctx_t *c = s->c;
    cfg_t *cfg = c->cfg;
    uint64_t ram = gmb_host_ram_bytes();
    char a[32], b[32];
    int host = 0;
    for (size_t i = 0; i < cfg->dirs.n; i++)
        host |=
            cfg->dirs.idx[i] == D_H2D || cfg->dirs.idx[i] == D_D2H || cfg->dirs.idx[i] == D_BIDIR;
    if (!cfg->sizes.set) {
        uint64_t top =
            gmb_xfer_top(1ull << 30, c->info.mem_bytes, ram, c->info.max_alloc_bytes, 16);
        char spec[64], err[256];
        snprintf(spec, sizeof spec, "4KiB:%llu:x2,%llu", (unsigned long long)top,
                 (unsigned long long)top);
        if (top < 4096 || gmb_parse_sweep(spec, &cfg->sizes, err, sizeof err)) {
            gmb_error("default sizes: the device or host has too little memory (%s)", spec);
            return GMB_ERUNTIME;
        }
    }
    size_t k = gmb_sweep_round(&cfg->sizes, 16); /* whole 16-byte elements */
    if (!k) {
        gmb_error("--sizes: a copy needs at least 16 bytes");
        return GMB_EUSAGE;
    }
    s->top = cfg->sizes.v[k - 1];
    if (c->info.max_alloc_bytes && s->top > c->info.max_alloc_bytes) {
        gmb_error("--sizes: %s is more than the device allows in one buffer (%s)",
                  gmb_fmt_size(s->top, a, sizeof a),
                  gmb_fmt_size(c->info.max_alloc_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (s->top > c->info.mem_bytes / 2) {
        gmb_error("--sizes: 2 device buffers of %s do not fit in the device's %s",
                  gmb_fmt_size(s->top, a, sizeof a), gmb_fmt_size(c->info.mem_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (host && ram && s->top > ram / 4) {
        gmb_error("--sizes: 2 host buffers of %s would take more than half of the host's %s",
                  gmb_fmt_size(s->top, a, sizeof a), gmb_fmt_size(ram, b, sizeof b));
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

/* The PCIe link (NVML) into results.link and s->link_gbps. */
static void link_result(state_t *s)
{
    gmb_ctx_t *c = s->c;
    gmb_pcie_t l;
    json_t *j;
    if (!(c->info.caps & GMB_CAP_NVIDIA)) {
        j = json_pack("{s:b, s:s}", "available", 0, "why",
                      "not an NVIDIA GPU (NVML describes NVIDIA GPUs only)");
    } else {
        gmb_nvml_pcie(c->info.pci_bus_id, &l);
        if (!l.available) {
            j = json_pack("{s:b, s:s}", "available", 0, "why", l.why);
        } else {
            /* an idle GPU may train its link down: % of link is against the link's maximum
             * (device and system), the current one is recorded beside it */
            double cur = gmb_pcie_gbps(l.gen, l.width), max = gmb_pcie_gbps(l.max_gen, l.max_width);
            s->link_gbps = max > 0 ? max : cur;
            j = json_pack("{s:b, s:s, s:i, s:i, s:i, s:i, s:f, s:f, s:s}", "available", 1, "source",
                          "NVML", "gen", l.gen, "width", l.width, "max_gen", l.max_gen, "max_width",
                          l.max_width, "nominal_GBps", s->link_gbps, "current_nominal_GBps", cur,
                          "pct_link_against", max > 0 ? "max_gen x max_width" : "gen x width");
            if (!(s->link_gbps > 0))
                json_object_set_new(j, "why", json_string("generation without a known lane rate"));
        }
    }
    printf("# gmb-copy: %s device %d: %s\n", c->be->kind->name, c->info.index, c->info.name);
    if (s->link_gbps > 0)
        printf("# PCIe link: gen%lld x%lld now, at most gen%lld x%lld: nominal %.2f GB/s per "
               "direction (NVML)\n",
               json_integer_value(json_object_get(j, "gen")),
               json_integer_value(json_object_get(j, "width")),
               json_integer_value(json_object_get(j, "max_gen")),
               json_integer_value(json_object_get(j, "max_width")), s->link_gbps);
    else
        printf("# PCIe link: unknown (%s)\n", json_string_value(json_object_get(j, "why")));
    gmb_add_result(c, "link", j);
}

/* The host placements of --host-nodes, in order, without repeats: GMB_NUMA_NEAR stands for
 * the run's own (gmb_numa_home: near the device, or what the process came with, or nothing),
 * GMB_NUMA_OS for no binding where that differs, n >= 0 for NUMA node n; all leaves out
 * nodes without memory and, past GMB_MAX_LIST placements, warns. GMB_EUSAGE (one line) for
 * a malformed list or a node that is not there, GMB_ESKIP for a node without hwloc (when
 * host memory is asked for). */
static int host_places(state_t *s, int host, int *out, int *n)
{
    const gmb_ints_t *l = &((const cfg_t *)s->c->cfg)->nodes;
    *n = 0;
    for (size_t k = 0; k < l->n; k++) {
        long v = l->v[k];
        int one = GMB_NUMA_NEAR;            /* one placement: near stands for the run's own */
        if (v == GMB_INTS_WORD(NODE_ALL)) { /* the run's own, then every other node with memory */
            int left = 0;
            if (!placement_add(out, n, GMB_NUMA_NEAR))
                left++;
            for (int i = 0; i < gmb_numa_count(s->numa); i++) {
                unsigned os = gmb_numa_os_index(s->numa, i);
                if (gmb_numa_is_near(s->numa, os) || os >= 1u << 20)
                    continue;
                if (!gmb_numa_has_memory(s->numa, os))
                    gmb_info("--host-nodes all: NUMA node %u has no memory: left out", os);
                else if (!placement_add(out, n, (int)os))
                    left++;
            }
            if (left)
                gmb_warn("--host-nodes all: at most %d placements: %d node%s left out",
                         GMB_MAX_LIST, left, left == 1 ? "" : "s");
            continue;
        }
        if (v == GMB_INTS_WORD(NODE_OS)) {
            one = gmb_numa_home_is_os(s->numa) ? GMB_NUMA_NEAR : GMB_NUMA_OS;
        } else if (v >= 0) {
            if (!s->numa) {
                if (!host) /* no host memory asked for: nothing to place */
                    continue;
                gmb_error("--host-nodes %ld: binding to a NUMA node needs hwloc (%s)", v,
                          s->c->host_binding);
                return GMB_ESKIP;
            }
            if (!gmb_numa_has(s->numa, (unsigned)v)) {
                char nl[160] = "";
                size_t at = 0;
                for (int i = 0; i < gmb_numa_count(s->numa) && at < sizeof nl - 16; i++)
                    at += (size_t)snprintf(nl + at, sizeof nl - at, "%s%u", i ? "," : "",
                                           gmb_numa_os_index(s->numa, i));
                gmb_error("--host-nodes %ld: no such NUMA node (this machine has %s)", v, nl);
                return GMB_EUSAGE;
            }
            one = (int)v;
        }
        if (!placement_add(out, n, one)) {
            gmb_error("--host-nodes: at most %d placements", GMB_MAX_LIST);
            return GMB_EUSAGE;
        }
    }
    return GMB_OK;
}

/* Bind the host thread for placement pl (host_places); s->node and s->binding say what
 * was done. The default never fails: where the device's nodes are unknown or binding to
 * them is refused, nothing is bound and binding says why. */
static int host_bind(state_t *s, int pl, char *why, size_t wlen)
{
    char desc[160];
    if (pl == GMB_NUMA_NEAR) { /* the run's own placement (gmb_numa_home) */
        s->node = NULL;
        if (s->numa)
            gmb_numa_home(s->numa, s->binding, sizeof s->binding);
        else
            gmb_strlcpy(s->binding, s->c->host_binding, sizeof s->binding);
        gmb_strlcpy(s->first_binding, s->binding, sizeof s->first_binding);
        return GMB_OK;
    }
    if (pl == GMB_NUMA_OS)
        gmb_strlcpy(s->node_buf, "os", sizeof s->node_buf);
    else
        snprintf(s->node_buf, sizeof s->node_buf, "%d", pl);
    s->node = s->node_buf;
    if (gmb_numa_bind(s->numa, pl, desc, sizeof desc)) {
        gmb_strlcpy(why, desc, wlen);
        return GMB_ESKIP;
    }
    if (pl == GMB_NUMA_OS)
        gmb_strlcpy(s->binding, "not bound (as the OS places it)", sizeof s->binding);
    else
        snprintf(s->binding, sizeof s->binding, "bound to %s", desc);
    return GMB_OK;
}

/* results.numa_copy: per host series measured on more than one placement, the largest copy
 * near and on the slowest other placement, and their ratio. */
static void numa_summary(state_t *s)
{
    json_t *out = json_object();
    const char *key;
    json_t *v;
    json_object_foreach(s->largest, key, v)
    {
        if (strstr(key, "_node"))
            continue;
        size_t kl = strlen(key);
        double near = json_number_value(json_object_get(v, "bw_GBps")), worst = 0;
        const char *worst_node = NULL;
        const char *k2;
        json_t *v2;
        json_object_foreach(s->largest, k2, v2)
        {
            if (strncmp(k2, key, kl) || strncmp(k2 + kl, "_node", 5) ||
                !strcmp(k2 + kl + 5, "os")) /* other NUMA nodes only */
                continue;
            double bw = json_number_value(json_object_get(v2, "bw_GBps"));
            if (!worst_node || bw < worst) {
                worst = bw;
                worst_node = k2 + kl + 5;
            }
        }
        if (!worst_node || !(near > 0))
            continue;
        json_object_set_new(out, key,
                            json_pack("{s:s, s:f, s:s, s:f, s:f}", "default_binding",
                                      s->first_binding, "default_GBps", near, "slowest_node",
                                      worst_node, "slowest_GBps", worst, "slowest_pct_of_default",
                                      100.0 * worst / near));
        printf("# %s, largest copy: %.2f GB/s by default, %.2f GB/s from node %s (%.0f%%)\n", key,
               near, worst, worst_node, 100.0 * worst / near);
    }
    gmb_add_result(s->c, "numa_copy", out);
}

/* The summary: the largest copy of the main series (pinned host memory and device memory by
 * the copy engine) and the smallest pinned host-to-device copy's time, printed and recorded. */
static void summarise(gmb_ctx_t *c, const json_t *largest, const json_t *latency)
{
    static const char *const keys[][2] = {{"h2d_pinned_ce", "host to device"},
                                          {"d2h_pinned_ce", "device to host"},
                                          {"bidir_pinned_ce", "both at once"},
                                          {"d2d_device_ce", "device to device"}};
    gmb_text_t sm = {{0}, 0};
    char sz[32];
    int host = 0; /* a pinned host series is in the summary */
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const json_t *b = json_object_get(largest, keys[i][0]);
        if (!b)
            continue;
        host |= i < 3;
        gmb_text_add(&sm, "%s%s %.4g GB/s", sm.len ? ", " : "", keys[i][1],
                     json_real_value(json_object_get(b, "bw_GBps")));
        if (json_object_get(b, "pct_link"))
            gmb_text_add(&sm, " (%.0f%% of the link)",
                         json_real_value(json_object_get(b, "pct_link")));
        gmb_text_add(&sm, " at %s",
                     gmb_fmt_size((uint64_t)json_integer_value(json_object_get(b, "size_bytes")),
                                  sz, sizeof sz));
    }
    if (sm.len)
        gmb_text_add(&sm, " (copy engine, the largest copy%s)",
                     host ? "; host memory pinned, near the device by default" : "");
    double peer = 0; /* the fastest peer, this device to it (p2p_peerN_ce) */
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)largest, key, v)
    {
        size_t kl = strlen(key);
        if (!strncmp(key, "p2p_peer", 8) && kl > 3 && !strcmp(key + kl - 3, "_ce") &&
            json_real_value(json_object_get(v, "bw_GBps")) > peer)
            peer = json_real_value(json_object_get(v, "bw_GBps"));
    }
    if (peer > 0)
        gmb_text_add(&sm, "%sthe fastest peer copy %.4g GB/s (copy engine)", sm.len ? "; " : "",
                     peer);
    const json_t *l = json_object_get(latency, "h2d_pinned_ce");
    if (l)
        gmb_text_add(&sm, "%sa %s pinned host-to-device copy takes %.3g us", sm.len ? "; " : "",
                     gmb_fmt_size((uint64_t)json_integer_value(json_object_get(l, "size_bytes")),
                                  sz, sizeof sz),
                     json_real_value(json_object_get(l, "lat_us")));
    gmb_text_add(&sm, "%s", sm.len ? "." : "no copy of the main series (pinned, copy engine).");
    gmb_summary(c, "# copy: ", NULL, sm.text, "no copy measured.");
}

/* The headline figures: where the pinned host memory sat; each largest copy's bandwidth (and
 * % of the PCIe link), the NUMA and peer extremes, the smallest pinned copy's time. */
static void headlines(gmb_ctx_t *c, const state_t *s)
{
    char place[128];
    const json_t *pl = json_object_get(s->placements, "pinned");
    if (gmb_place_brief(json_string_value(json_object_get(pl, "binding")),
                        json_string_value(json_object_get(pl, "pages_numa")), place, sizeof place))
        gmb_headline(c, &(gmb_headline_t){.label = "Host memory of the copies (pinned)",
                                          .unit = "",
                                          .text = place});
    static const struct {
        const char *key, *field, *label, *unit; /* key: "largest K", "latency K", or a result's */
        int higher;
    } H[] = {
        {"largest h2d_pinned_ce", "bw_GBps", "Host to device, pinned, largest copy", "GB/s", 1},
        {"largest h2d_pinned_ce", "pct_link", "Host to device, pinned, of PCIe nominal", "%", 1},
        {"largest d2h_pinned_ce", "bw_GBps", "Device to host, pinned, largest copy", "GB/s", 1},
        {"largest d2h_pinned_ce", "pct_link", "Device to host, pinned, of PCIe nominal", "%", 1},
        {"numa_copy h2d_pinned_ce", "slowest_GBps",
         "Host to device, pinned, slowest other NUMA node", "GB/s", 1},
        {"numa_copy h2d_pinned_ce", "slowest_pct_of_default",
         "Host to device, pinned, slowest other node vs default", "%", 1},
        {"numa_copy d2h_pinned_ce", "slowest_GBps",
         "Device to host, pinned, slowest other NUMA node", "GB/s", 1},
        {"numa_copy d2h_pinned_ce", "slowest_pct_of_default",
         "Device to host, pinned, slowest other node vs default", "%", 1},
        {"largest bidir_pinned_ce", "bw_GBps", "Both directions at once, pinned (sum)", "GB/s", 1},
        {"largest h2d_pageable_ce", "bw_GBps", "Host to device, pageable, largest copy", "GB/s", 1},
        {"largest d2d_device_ce", "bw_GBps", "Device to device, copy engine (bytes copied)", "GB/s",
         1},
        {"largest d2d_device_sm", "bw_GBps", "Device to device, SM kernel (bytes copied)", "GB/s",
         1},
        {"peer_copy p2p_ce", "fastest_GBps", "Peer copy, copy engine, fastest peer", "GB/s", 1},
        {"peer_copy p2p_ce", "slowest_GBps", "Peer copy, copy engine, slowest peer", "GB/s", 1},
        {"latency h2d_pinned_ce", "lat_us", "Host to device, pinned, smallest copy", "us", 0},
    };
    const json_t *res = json_object_get(c->record, "results");
    for (size_t i = 0; i < sizeof H / sizeof H[0]; i++) {
        char what[32], key[64];
        if (sscanf(H[i].key, "%31s %63s", what, key) != 2)
            continue;
        const json_t *from = !strcmp(what, "largest")   ? s->largest
                             : !strcmp(what, "latency") ? s->latency
                                                        : json_object_get(res, what);
        const json_t *e = json_object_get(from, key), *v = json_object_get(e, H[i].field);
        if (!json_is_number(v))
            continue;
        const json_t *at = json_object_get(s->at, H[i].key);
        const json_t *pt = at ? json_array_get(c->points, (size_t)json_integer_value(at)) : NULL;
        /* the bandwidth's 95% CI where the figure has one and it holds the value */
        const json_t *ci = !strcmp(H[i].field, "bw_GBps") ? json_object_get(e, "ci") : NULL;
        double x = json_number_value(v), lo = json_number_value(json_array_get(ci, 0)),
               hi = json_number_value(json_array_get(ci, 1));
        int has_ci = json_array_size(ci) == 2 && lo <= x && x <= hi;
        /* the links' bandwidths (the level view); an SM kernel's device-to-device copy from
         * a buffer of 4x the LLC or more, bytes read and written: the memory's copy bandwidth
         * (the cross-checks) */
        static const char *const links[][3] = {
            {"Host to device, pinned, largest copy", GMB_LEVEL_HOST_H2D,
             "gmb-copy: copy engine, pinned host memory, the largest copy"},
            {"Device to host, pinned, largest copy", GMB_LEVEL_HOST_D2H,
             "gmb-copy: copy engine, pinned host memory, the largest copy"},
            {"Both directions at once, pinned (sum)", GMB_LEVEL_HOST_BOTH,
             "gmb-copy: copy engines, both directions at once (sum)"},
            {"Peer copy, copy engine, fastest peer", GMB_LEVEL_PEER,
             "gmb-copy: copy engine, the fastest peer"}};
        size_t l = 0;
        while (l < sizeof links / sizeof links[0] && strcmp(links[l][0], H[i].label))
            l++;
        int known = l < sizeof links / sizeof links[0];
        double llc = (double)c->info.llc_bytes;
        int mem = !strcmp(H[i].key, "largest d2d_device_sm") && llc > 0 &&
                  json_number_value(json_object_get(e, "size_bytes")) >= 4 * llc;
        gmb_headline(c, &(gmb_headline_t){.label = H[i].label,
                                          .unit = H[i].unit,
                                          .higher = H[i].higher,
                                          .value = x,
                                          .ci_lo = has_ci ? lo : NAN,
                                          .ci_hi = has_ci ? hi : NAN,
                                          .points = pt ? &pt : NULL,
                                          .npoints = pt ? 1 : 0,
                                          .level = known ? links[l][1] : NULL,
                                          .how = known ? links[l][2] : NULL,
                                          .quantity = mem ? GMB_Q_MEM_COPY : NULL,
                                          .source = "copy: device to device by an SM kernel, "
                                                    "bytes copied x 2",
                                          .scale = 2});
    }
}

/* The sizes against the device and the host, the peers and the host placements, into cfg
 * (checked even when p2p or host memory is not asked for). */
static int copy_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    state_t s = {.c = c};
    s.numa = c->numa;
    cfg->host = 0;
    for (size_t i = 0; i < cfg->dirs.n; i++)
        cfg->host |= cfg->dirs.idx[i] != D_D2D && cfg->dirs.idx[i] != D_P2P;
    int rc = pick_sizes(&s);
    if (rc || (rc = peer_list(c, cfg->peer, &cfg->npeer)) ||
        (rc = host_places(&s, cfg->host, cfg->place, &cfg->nplace)))
        return rc;
    cfg->top = s.top;
    return GMB_OK;
}

static int copy_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    state_t s = {.c = c};
    s.numa = c->numa;
    s.top = cfg->top;
    const int *peer = cfg->peer, *place = cfg->place;
    int npeer = cfg->npeer, nplace = cfg->nplace, host = cfg->host, rc = GMB_OK;
    s.largest = json_object();
    s.latency = json_object();
    s.skipped = json_array();
    s.peers = json_array();
    s.placements = json_object();
    s.at = json_object();
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)s.top, &s.dsrc)) ||
        (rc = be->alloc(c->dev, GMB_MEM_DEVICE, (size_t)s.top, &s.ddst)) ||
        (rc = be->prog_load(c->dev, c->bench->kernels, "default", &s.prog)) ||
        (rc = be->kern_get(s.prog, "copy_init", &s.kinit)) ||
        (rc = be->kern_get(s.prog, "copy_sm", &s.kcopy)) ||
        (rc = be->kern_get(s.prog, "copy_split", &s.ksplit)) ||
        (rc = init_src(&s, s.kinit, s.dsrc, s.top, SEED_DEV(c))))
        goto out;
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes copied (both directions for bidir) x copies / device time (1e9 B/s)");
    gmb_declare_metric(c, "lat_us", "us", "lower", "device time per copy");
    gmb_declare_metric(c, "pct_link", "%", "higher",
                       "bw_GBps as a percentage of the link's nominal bandwidth (per direction; "
                       "bidir: both directions), when NVML gives the link: PCIe for host copies, "
                       "the NVLinks between the pair for p2p");
    gmb_declare_metric(c, "per_direction_GBps", "GB/s", "higher",
                       "bidir on the SM engine by one split kernel: half the bytes it moved / "
                       "its time, what nvbandwidth reports as its SM bidirectional bandwidth");
    gmb_declare_metric(c, "h2d_bw_GBps", "GB/s", "higher",
                       "bidir: the host-to-device copies' own bandwidth (their stream's span)");
    gmb_declare_metric(c, "d2h_bw_GBps", "GB/s", "higher",
                       "bidir: the device-to-host copies' own bandwidth (their stream's span)");
    link_result(&s);
    print_header();
    gmb_add_result(
        c, "engines",
        json_pack("{s:s, s:s, s:s}", "ce", be->copy_api, "sm",
                  "copy_sm: grid-stride float4 copy kernel, one launch per copy; bidir by default "
                  "copy_split, one kernel whose runs of 32 work-items copy in turns one way and "
                  "the other (nvbandwidth's split-warp copy), bytes = the buffer (half each way)",
                  "pageable", be->copy_pageable));
    for (int pi = 0; pi < nplace && host && !rc; pi++) {
        char why[192];
        if (host_bind(&s, place[pi], why, sizeof why)) {
            char l[48];
            snprintf(l, sizeof l, "node %s", s.node);
            note_skip(&s, "h2d/d2h/bidir", l, "all", why);
            continue;
        }
        for (size_t ki = 0; ki < cfg->kinds.n && !rc; ki++)
            rc = run_host(&s, cfg->kinds.idx[ki]);
    }
    s.node = NULL;
    char d[224];
    gmb_numa_home(s.numa, d, sizeof d); /* the device's own work below: the run's placement */
    if (host && !rc)
        numa_summary(&s);
    for (size_t di = 0; di < cfg->dirs.n && !rc; di++) {
        if (cfg->dirs.idx[di] == D_D2D)
            for (size_t ei = 0; ei < cfg->engines.n && !rc; ei++) {
                int e = cfg->engines.idx[ei];
                job_t j = {c->dev, 0,    s.ddst, s.dsrc, SEED_DEV(c), e == E_SM ? s.kcopy : NULL,
                           {0},    "d2d"};
                rc = run_series(&s, &j, 1, "d2d", "device", engine_names[e], 0);
            }
        else if (cfg->dirs.idx[di] == D_P2P) {
            if (!npeer) {
                char why[128];
                int ndev = 0;
                be->count(&ndev, why, sizeof why);
                snprintf(why, sizeof why, "%s has %d device%s: p2p needs two", be->kind->name, ndev,
                         ndev == 1 ? "" : "s");
                for (size_t ei = 0; ei < cfg->engines.n; ei++)
                    note_skip(&s, "p2p", "device", engine_names[cfg->engines.idx[ei]], why);
            }
            for (int k = 0; k < npeer && !rc; k++)
                rc = run_p2p(&s, peer[k]);
            peer_summary(&s);
        }
    }
    if (!rc)
        summarise(c, s.largest, s.latency);
    headlines(c, &s); /* those of the copies it finished, when stopped early too */
    gmb_add_result(c, "peers", s.peers);
    gmb_add_result(c, "largest", s.largest);
    gmb_add_result(c, "latency_us", s.latency);
    gmb_add_result(c, "skipped", s.skipped);
    gmb_add_result(c, "host_placement", s.placements);
    s.largest = s.latency = s.skipped = s.peers = s.placements = NULL;
out:
    json_decref(s.placements);
    json_decref(s.at);
    json_decref(s.peers);
    json_decref(s.largest);
    json_decref(s.latency);
    json_decref(s.skipped);
    be->free(s.hsrc);
    be->free(s.hdst);
    be->prog_free(s.prog);
    be->free(s.dsrc);
    be->free(s.ddst);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "copy",
    .summary = "host<->device, device<->device and peer copies: copy engine and SM kernel, "
               "pageable/pinned/mapped",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = copy_run,
    .check = copy_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
