/* um.c - gmb-um: unified (managed) memory: on-demand migration both ways, prefetch both ways,
 * reads of data that stays on the host (advice), read-mostly duplication, and the cost of one
 * page fault by a one-thread chase through pages; every sample on fresh data, verified. */
#include "model/chain.h"
#include "kernels/gmb_kernels.h"
#include "harness.h"
#include "host.h"
#include "model/xfer.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {{"default", ""}, {NULL, NULL}};

enum {
    T_RESIDENT,
    T_FAULT_H2D,
    T_FAULT_D2H,
    T_PREFETCH_H2D,
    T_PREFETCH_D2H,
    T_REMOTE,
    T_READMOSTLY,
    T_SYSTEM,
    T_LATENCY,
    NT
};
static const char *const test_names[] = {"resident",     "fault-h2d", "fault-d2h",  "prefetch-h2d",
                                         "prefetch-d2h", "remote",    "readmostly", "system",
                                         "latency",      NULL};

#define MAX_HOST_THREADS 64 /* most host threads of a fill or a check */

typedef struct cfg {
    gmb_sweep_t sizes;   /* bytes of managed memory per point */
    gmb_list_t tests;    /* indices into test_names */
    gmb_sweep_t strides; /* latency: bytes from one touched page to the next */
    long pages;          /* latency: pages touched per chase */
    long host_threads;   /* host threads of the timed host reads */
    uint64_t top;        /* um_check: the largest buffer (sizes or latency region) */
} cfg_t;

#define O(field) offsetof(cfg_t, field)
static const gmb_opt_t opts[] = {
    {"sizes", GMB_OPT_SWEEP, O(sizes), "LIST", NULL, 4096, 0x1p62, NULL,
     "bytes of managed memory, rounded down to 4 KiB [default 1MiB:min(1GiB,mem/4,RAM/4):x4]", 0},
    {"tests", GMB_OPT_LIST, O(tests), "LIST", "all", 1, 0, test_names,
     "resident, fault-h2d, fault-d2h, prefetch-h2d, prefetch-d2h, remote, readmostly, system, "
     "latency",
     0},
    {"strides", GMB_OPT_SWEEP, O(strides), "LIST", "64KiB,2MiB", 4096, 0x1p30, NULL,
     "latency: bytes between the pages one chase touches (multiples of 4 KiB; below 64 KiB the "
     "CUDA driver's fault-time prefetcher brings neighbours along)",
     0},
    {"host-threads", GMB_OPT_INT, O(host_threads), "N", "1", 1, MAX_HOST_THREADS, NULL,
     "host threads of the host's timed parts (fault-d2h's touches and check, the checks of "
     "prefetch-d2h and readmostly): 1 is the one-thread lower bound; untimed fills use every "
     "CPU (at most 16)",
     0},
    {"pages", GMB_OPT_INT, O(pages), "N", "128", 2, 4096, NULL,
     "latency: pages one chase touches, in a random order (at most 4096: one kernel, serial "
     "faults)",
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Managed memory: CUDA cudaMallocManaged; OpenCL coarse-grained shared virtual memory,\n"
    "which the host reaches by map/unmap (the implementation decides when data moves).\n"
    "Tests, each over --sizes (one buffer of each size; never more than half the device):\n"
    "  resident      the device reads data already on it (the ceiling of the others)\n"
    "  fault-h2d     the host wrote the data; the device reads it: on-demand migration\n"
    "                (OpenCL: unmap + the kernel)\n"
    "  fault-d2h     the data moved to the device (prefetch, where there is one: it keeps the\n"
    "                driver's thrashing mitigation out), the device wrote it; the host loads\n"
    "                one word of each 4 KiB page (--host-threads threads, host clock; OpenCL:\n"
    "                map + the loads): the migration, not a host thread's reading; then\n"
    "                every word checked, host_resident_GBps its rate\n"
    "  prefetch-h2d  cudaMemPrefetchAsync / clEnqueueSVMMigrateMem to the device; then the\n"
    "                device reads it (kernel_after_GBps: did all of it arrive?)\n"
    "  prefetch-d2h  the same to the host; then the host reads it (host_after_GBps)\n"
    "                (a device whose memory is the host's: the call's time, lat_us, no rate)\n"
    "  remote        advice: preferred location host, accessed by the device: the device reads\n"
    "                host memory in place over the link, nothing migrates (CUDA)\n"
    "  readmostly    advice read-mostly: the host writes, the device reads (duplication);\n"
    "                host_read_GBps: the host then reads its own copy (CUDA)\n"
    "  system        plain malloc'd memory: the host writes, the device reads it (CUDA with\n"
    "                pageableMemoryAccess: HMM or ATS; OpenCL fine-grained system SVM)\n"
    "  latency       one thread chases --pages pages --strides apart, in a random order, with\n"
    "                the pages on the host (each touch a fault) and on the device (resident):\n"
    "                fault_us = the difference per touch\n"
    "Table: GB/s = bytes of the buffer / time (1e9 B/s); us = time per touch (latency) or per\n"
    "call (a prefetch that has nothing to move). Device tests are timed by device events, host\n"
    "tests by the host's monotonic clock. Every sample writes new data (a new salt; resident\n"
    "and latency keep theirs, on purpose) and checks all of it: the device compares every\n"
    "word it reads, the host every word it reads; the device's answers are poisoned first.\n"
    "A fault cost is claimed only where the device faults pages in (CUDA\n"
    "concurrentManagedAccess); the record says how data moves here (results.migration) and\n"
    "the CUDA driver's unified-memory tunables (results.uvm_driver).\n";

#define K_PAT        0x9e3779b1u
#define MAX_PARTS    (1u << 16)
#define PAGE_BYTES   4096ull
#define STEPS_PASSES 1 /* the chase walks its cycle once per sample */

/* The pattern of the kernels (UM_PAT in um.cl). */
static inline gmb_u32 pat(gmb_u64 i, gmb_u32 s)
{
    return (gmb_u32)i * K_PAT ^ s;
}

/* One host thread's share of a fill or a check: words [lo, hi) of p. */
enum { HOST_FILL, HOST_CHECK, HOST_TOUCH }; /* what a host pass does */

typedef struct host_job {
    gmb_u32 *p;     /* the words */
    gmb_u64 lo, hi; /* this thread's range */
    gmb_u32 salt;   /* the pattern's salt */
    int check;      /* HOST_FILL: write the pattern; HOST_CHECK: count the words that differ
                       from it; HOST_TOUCH: read the first word of each 4 KiB page */
    gmb_u64 bad;    /* check: words that differ; touch: the sum of the words read */
} host_job_t;

static void *host_job_run(void *arg)
{
    host_job_t *j = arg;
    gmb_u64 bad = 0;
    if (j->check == HOST_CHECK)
        for (gmb_u64 i = j->lo; i < j->hi; i++)
            bad += j->p[i] != pat(i, j->salt);
    else if (j->check == HOST_TOUCH) /* one load a page: the fault, not the host's reading */
        for (gmb_u64 i = j->lo; i < j->hi; i += PAGE_BYTES / 4)
            bad += ((volatile const gmb_u32 *)j->p)[i];
    else
        for (gmb_u64 i = j->lo; i < j->hi; i++)
            j->p[i] = pat(i, j->salt);
    j->bad = bad;
    return NULL;
}

/* Fill, check or touch (host_job_t.check) the words of salt's pattern over n words with up to
 * threads host threads, each a contiguous range of whole pages (a thread that cannot start:
 * its range runs on the caller's). Words that differ (check). */
static gmb_u64 host_pass(gmb_u32 *p, gmb_u64 n, gmb_u32 salt, int check, int threads)
{
    host_job_t job[MAX_HOST_THREADS];
    pthread_t tid[MAX_HOST_THREADS];
    int started[MAX_HOST_THREADS] = {0};
    gmb_u64 pages = (n * 4 + PAGE_BYTES - 1) / PAGE_BYTES;
    if (threads < 1)
        threads = 1;
    if (threads > MAX_HOST_THREADS)
        threads = MAX_HOST_THREADS;
    if ((gmb_u64)threads > pages)
        threads = (int)(pages ? pages : 1);
    for (int t = 0; t < threads; t++) {
        gmb_u64 a = pages * (gmb_u64)t / (gmb_u64)threads,
                b = pages * (gmb_u64)(t + 1) / (gmb_u64)threads;
        gmb_u64 lo = a * (PAGE_BYTES / 4), hi = b * (PAGE_BYTES / 4);
        job[t] = (host_job_t){p, lo < n ? lo : n, hi < n ? hi : n, salt, check, 0};
    }
    for (int t = 1; t < threads; t++)
        started[t] = !pthread_create(&tid[t], NULL, host_job_run, &job[t]);
    host_job_run(&job[0]);
    gmb_u64 bad = job[0].bad;
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            host_job_run(&job[t]);
        bad += job[t].bad;
    }
    return bad;
}

typedef struct state state_t;

/* A point being measured: one test at one size (latency: one stride and placement). */
typedef struct point {
    state_t *s;
    int test;            /* T_* */
    uint64_t bytes;      /* bytes of the buffer the test uses */
    gmb_launch_t gr, gw; /* grids of um_read and um_write for bytes */
    gmb_series_t aux;    /* a second time per sample (NAN: none), in sample order */
    int bad;             /* a sample failed its check */
    char err[256];       /* the first failure */
    /* latency */
    gmb_u64 links;     /* links of the chain (pages) */
    gmb_u64 steps;     /* links one chase follows: links - 1, so it cannot end where it began */
    gmb_u32 end_word;  /* where the chase must end */
    const gmb_u32 *hw; /* the chain's words (host copy) */
    int on_host;       /* pages placed on the host before each chase */
} point_t;

struct state {
    gmb_ctx_t *c;
    gmb_buf_t *m;     /* managed memory: the largest size */
    gmb_buf_t *part;  /* device memory: the groups' sums, chase's end */
    gmb_prog_t *prog; /* kernels */
    gmb_kern_t *kread, *kwrite, *kchase;
    uint64_t top;   /* the largest buffer (sizes or latency region) */
    gmb_u32 salt;   /* the latest sample's salt */
    gmb_u32 *hpart; /* host copy of the sums */
    json_t *largest, *fault_us, *skipped;
    int injected;     /* the planted error is in */
    int shared_host;  /* the device says its memory is the host's */
    int fill_threads; /* host threads of the untimed fills */
};

static void fail(point_t *p, const char *fmt, const char *what, unsigned long long a,
                 unsigned long long b)
{
    if (!p->bad)
        snprintf(p->err, sizeof p->err, fmt, what, a, b);
    p->bad = 1;
}

/* Host side of the managed buffer: words, after host_begin. */
static gmb_u32 *host_words(state_t *s)
{
    return s->c->be->host_ptr(s->m);
}

/* Pages to the host before the host writes (where the backend can prefetch); else the
 * host's touches bring them. */
static int place_host(state_t *s, uint64_t bytes)
{
    const gmb_backend_t *be = s->c->be;
    char why[256];
    if (s->c->info.caps & GMB_CAP_PREFETCH) {
        int rc = be->prefetch_async(s->m, 0, 0, (size_t)bytes, 1, why, sizeof why);
        if (rc && rc != GMB_ESKIP)
            return rc;
    }
    return be->host_begin(s->m, (size_t)bytes);
}

/* Pages to the device before the device writes, where the backend can prefetch: a page that
 * went device -> host -> device by faults within a fraction of a millisecond, sample after
 * sample, is what the CUDA driver's thrashing mitigation detects, and it may then pin the page
 * on the host and map it remotely (a device write over the link, a host read of local memory:
 * no migration measured). An explicit move resets that state. */
static int place_dev(state_t *s, uint64_t bytes)
{
    char why[256];
    if (!(s->c->info.caps & GMB_CAP_PREFETCH) || s->shared_host)
        return GMB_OK;
    int rc = s->c->be->prefetch_async(s->m, 0, 0, (size_t)bytes, 0, why, sizeof why);
    return rc == GMB_ESKIP ? GMB_OK : rc;
}

/* The host writes a new salt's pattern over bytes (pages on the host). */
static int host_write(point_t *p)
{
    state_t *s = p->s;
    int rc = place_host(s, p->bytes);
    if (rc)
        return rc;
    s->salt = s->salt * 1664525u + 1013904223u;
    host_pass(host_words(s), p->bytes / 4, s->salt, HOST_FILL, s->fill_threads);
    if (s->c->o.inject_error && !s->injected) { /* test aid: one word the device must miss */
        host_words(s)[p->bytes / 4 - 1] ^= 1u;
        s->injected = 1;
    }
    return GMB_OK;
}

/* The device writes a new salt's pattern over bytes. */
static int dev_write(point_t *p)
{
    state_t *s = p->s;
    const gmb_backend_t *be = s->c->be;
    s->salt = s->salt * 1664525u + 1013904223u;
    gmb_u64 n4 = p->bytes / 16;
    gmb_arg_t av[] = {GMB_A_BUF(s->m), GMB_A_VAL(n4), GMB_A_VAL(s->salt)};
    int rc = be->launch(s->kwrite, &p->gw, av, 3, NULL);
    if (rc)
        return rc;
    if (s->c->o.inject_error && !s->injected) {
        gmb_u32 w;
        if ((rc = be->read(s->m, (size_t)p->bytes - 4, &w, 4)))
            return rc;
        w ^= 1u;
        if ((rc = be->write(s->m, (size_t)p->bytes - 4, &w, 4)))
            return rc;
        s->injected = 1;
    }
    return GMB_OK;
}

/* What one timed span on stream 0 holds: [host_end (OpenCL unmap: the implementation may
 * move the data there, so it counts)], then a launch (k) or a prefetch (k NULL). */
typedef struct span_work {
    int end_host;          /* host_end first */
    gmb_kern_t *k;         /* the kernel; NULL: a prefetch */
    const gmb_launch_t *g; /* its launch */
    const gmb_arg_t *av;   /* its arguments */
    int nargs;             /* how many */
    uint64_t pf_bytes;     /* prefetch: bytes from the start of the buffer */
    int pf_to_host;        /* prefetch: to the host (else to the device) */
} span_work_t;

/* Run w as one span, its device time in *ns. A prefetch the device cannot do is GMB_ESKIP
 * with the reason in why (nothing waited for). */
static int timed_span(state_t *s, const span_work_t *w, double *ns, char *why, size_t whylen)
{
    const gmb_backend_t *be = s->c->be;
    char spare[8];
    double t0, t1;
    int rc = be->span_begin(s->c->dev, 0);
    if (!rc && w->end_host)
        rc = be->host_end(s->m, 0);
    if (!rc && w->k)
        rc = be->launch_async(w->k, 0, w->g, w->av, w->nargs);
    else if (!rc)
        rc = be->prefetch_async(s->m, 0, 0, (size_t)w->pf_bytes, w->pf_to_host, why ? why : spare,
                                why ? whylen : sizeof spare);
    int r2 = be->span_end(s->c->dev, 0);
    rc = rc ? rc : r2;
    if (!rc)
        rc = be->span_wait(s->c->dev, 0, &t0, &t1);
    if (!rc)
        *ns = t1 - t0;
    return rc;
}

/* Timed on the device: [host_end (OpenCL unmap)] + the read kernel, as one span, which
 * compares every word with the pattern of the latest salt; any group's difference fails. */
static int dev_read(point_t *p, int end_host, double *ns)
{
    state_t *s = p->s;
    const gmb_backend_t *be = s->c->be;
    gmb_u64 n4 = p->bytes / 16;
    gmb_arg_t av[] = {GMB_A_BUF(s->m), GMB_A_VAL(n4), GMB_A_VAL(s->salt), GMB_A_BUF(s->part)};
    span_work_t w = {end_host, s->kread, &p->gr, av, 4, 0, 0};
    /* poisoned (untimed): a launch that wrote nothing cannot pass on an earlier sample's 0s */
    int rc = be->fill(s->part, 0, 0xff, p->gr.groups * sizeof(gmb_u32));
    if (!rc)
        rc = timed_span(s, &w, ns, NULL, 0);
    if (!rc)
        rc = be->read(s->part, 0, s->hpart, p->gr.groups * sizeof(gmb_u32));
    if (rc)
        return rc;
    gmb_u32 diff = 0;
    size_t bad = 0;
    for (size_t g = 0; g < p->gr.groups; g++) {
        diff |= s->hpart[g];
        bad += s->hpart[g] != 0;
    }
    if (diff)
        fail(p, "%s: the device found words unlike what was written in %llu of %llu groups",
             test_names[p->test], bad, p->gr.groups);
    return GMB_OK;
}

/* Timed on the host: [host_begin (OpenCL map) +] a check of every word; ns. */
static int host_read(point_t *p, int begin, double *ns)
{
    state_t *s = p->s;
    double t0 = gmb_now_ns();
    int rc = begin ? s->c->be->host_begin(s->m, (size_t)p->bytes) : GMB_OK;
    if (rc)
        return rc;
    gmb_u64 bad = host_pass(host_words(s), p->bytes / 4, s->salt, HOST_CHECK,
                            (int)((const cfg_t *)s->c->cfg)->host_threads);
    *ns = gmb_now_ns() - t0;
    if (bad)
        fail(p, "%s: %llu of %llu words differ from what the device wrote", test_names[p->test],
             bad, p->bytes / 4);
    return GMB_OK;
}

/* Timed on the host: host_begin (OpenCL map) + one load from each 4 KiB page, --host-threads
 * threads: each page's first touch faults it over (CUDA), so this is the migration's time, not
 * that of a host thread reading every word; the words are checked afterwards (host_read). */
static int host_touch(point_t *p, double *ns)
{
    state_t *s = p->s;
    double t0 = gmb_now_ns();
    int rc = s->c->be->host_begin(s->m, (size_t)p->bytes);
    if (rc)
        return rc;
    host_pass(host_words(s), p->bytes / 4, s->salt, HOST_TOUCH,
              (int)((const cfg_t *)s->c->cfg)->host_threads);
    *ns = gmb_now_ns() - t0;
    return GMB_OK;
}

/* A prefetch of the buffer as one span, after [host_end (OpenCL unmap)]; ns. */
static int prefetch(point_t *p, int to_host, int end_host, double *ns)
{
    char why[256];
    span_work_t w = {end_host, NULL, NULL, NULL, 0, p->bytes, to_host};
    int rc = timed_span(p->s, &w, ns, why, sizeof why);
    if (rc == GMB_ESKIP) /* first_checks found that it can: something changed */
        gmb_error("prefetch: %s", why);
    return rc == GMB_ESKIP ? GMB_ERUNTIME : rc;
}

/* One chase through the chain; ns; the end checked. */
static int chase(point_t *p, int end_host, double *ns)
{
    state_t *s = p->s;
    const gmb_backend_t *be = s->c->be;
    gmb_launch_t one = {.groups = 1, .group_size = 1};
    gmb_u32 last = (gmb_u32)(p->bytes / 4 - 1);
    gmb_arg_t av[] = {GMB_A_BUF(s->m), GMB_A_VAL(p->steps), GMB_A_VAL(last), GMB_A_BUF(s->part)};
    span_work_t w = {end_host, s->kchase, &one, av, 4, 0, 0};
    gmb_u32 end = 0;
    /* poisoned (untimed): 0xffffffff is never where a chase ends */
    int rc = be->fill(s->part, 0, 0xff, sizeof end);
    if (!rc)
        rc = timed_span(s, &w, ns, NULL, 0);
    if (!rc)
        rc = be->read(s->part, 0, &end, sizeof end);
    if (rc)
        return rc;
    if (end != p->end_word)
        fail(p, "%s: the chase ended at word %llu, expected %llu", test_names[p->test], end,
             p->end_word);
    return GMB_OK;
}

/* The chain's words into the managed buffer by the host (pages on the host). */
static int chain_to_host(point_t *p)
{
    state_t *s = p->s;
    int rc = place_host(s, p->bytes);
    if (rc)
        return rc;
    gmb_u32 *w = host_words(s);
    for (gmb_u64 k = 0; k < p->links; k++) {
        gmb_u32 at = k ? p->hw[k - 1] : 0; /* the words the chain uses, in its order */
        w[at] = p->hw[k];
    }
    if (s->c->o.inject_error && !s->injected) { /* test aid: skip a page, end elsewhere */
        w[0] = p->hw[1];
        s->injected = 1;
    }
    return GMB_OK;
}

/* One sample of p's test (its preparation untimed). */
static int sample(void *arg, double *ns)
{
    point_t *p = arg;
    state_t *s = p->s;
    const gmb_backend_t *be = s->c->be;
    double aux = NAN;
    int rc = GMB_OK;
    switch (p->test) {
    case T_RESIDENT:
        rc = dev_read(p, 0, ns);
        break;
    case T_FAULT_H2D:
    case T_SYSTEM:
    case T_READMOSTLY:
        if (!(rc = host_write(p)))
            rc = dev_read(p, 1, ns);
        if (!rc && p->test == T_READMOSTLY && !(rc = host_read(p, 1, &aux)))
            rc = be->host_end(s->m, 0);
        break;
    case T_FAULT_D2H: /* pages moved to the device first: see place_dev; timed: the touches,
                         then every word checked (its time the second number) */
        if (!(rc = place_dev(s, p->bytes)) && !(rc = dev_write(p)) && !(rc = host_touch(p, ns)) &&
            !(rc = host_read(p, 0, &aux)))
            rc = be->host_end(s->m, 0);
        break;
    case T_PREFETCH_H2D:
        if (!(rc = host_write(p)) && !(rc = prefetch(p, 0, 1, ns)))
            rc = dev_read(p, 0, &aux);
        break;
    case T_PREFETCH_D2H:
        if (!(rc = dev_write(p)) && !(rc = prefetch(p, 1, 0, ns)) && !(rc = host_read(p, 1, &aux)))
            rc = be->host_end(s->m, 0);
        break;
    case T_REMOTE: /* the data stays on the host (its preferred location), new every sample */
        if (!(rc = host_write(p)))
            rc = dev_read(p, 1, ns);
        break;
    case T_LATENCY:
        if (p->on_host && !(rc = chain_to_host(p)))
            rc = chase(p, 1, ns);
        else if (!p->on_host)
            rc = chase(p, 0, ns);
        break;
    }
    if (!rc)
        rc = gmb_series_push(&p->aux, aux);
    return rc;
}

/* Metric name of a point: the aux times of the last n samples as a rate of bytes (null
 * without them), each sample's rate kept for gmb compare. */
static void aux_rate(json_t *pt, const char *name, const point_t *p, size_t n, double bytes,
                     const gmb_ctx_t *c)
{
    if (n > p->aux.n)
        n = p->aux.n;
    gmb_point_rate(c, pt, name, p->aux.ns + (p->aux.n - n), n, 1, bytes);
}

static const char *aux_metric(int test)
{
    switch (test) {
    case T_FAULT_D2H:
        return "host_resident_GBps";
    case T_PREFETCH_H2D:
        return "kernel_after_GBps";
    case T_PREFETCH_D2H:
        return "host_after_GBps";
    case T_READMOSTLY:
        return "host_read_GBps";
    default:
        return NULL;
    }
}

static void print_header(void)
{
    printf("%-13s %10s %9s %10s %7s %12s %4s %-8s\n", "test", "size", "stride", "GB/s", "+-CI%",
           "us", "n", "verified");
}

static void note_skip(state_t *s, const char *test, const char *why)
{
    printf("# skipped: %s: %s\n", test, why);
    json_array_append_new(s->skipped, json_pack("{s:s, s:s}", "test", test, "reason", why));
}

/* Measure one point, record it, its median time in *med_ns; GMB_EVERIFY after recording a
 * failed one. */
static int run_point(state_t *s, point_t *p, uint64_t stride, double *med_ns)
{
    gmb_ctx_t *c = s->c;
    gmb_series_t ser = {0};
    int rc = gmb_measure(c, sample, p, &ser);
    if (rc) {
        gmb_series_free(&ser);
        return rc;
    }
    const char *tn = test_names[p->test];
    int host_timed = p->test == T_FAULT_D2H;
    json_t *params = json_pack("{s:s, s:I, s:s}", "test", tn, "size_bytes", (json_int_t)p->bytes,
                               "timer", host_timed ? "host monotonic clock" : "device events");
    if (host_timed || (aux_metric(p->test) && p->test != T_PREFETCH_H2D))
        json_object_set_new(params, "host_threads",
                            json_integer((json_int_t)((const cfg_t *)c->cfg)->host_threads));
    if (host_timed) /* what the host's timed part does: one load a page */
        json_object_set_new(params, "host_touch_bytes", json_integer((json_int_t)PAGE_BYTES));
    if (p->test == T_LATENCY) {
        json_object_set_new(params, "stride_bytes", json_integer((json_int_t)stride));
        json_object_set_new(params, "pages", json_integer((json_int_t)p->steps));
        json_object_set_new(params, "order", json_string("random"));
        json_object_set_new(params, "placement", json_string(p->on_host ? "host" : "device"));
    }
    json_t *pt = gmb_point_new(params, &ser);
    double bw = 0, us = 0;
    /* a prefetch where the device's memory is the host's moves nothing: its time, no rate;
     * so does one that lasts less than 100 timer ticks (OpenCL lets an implementation make
     * clEnqueueSVMMigrateMem a mere hint: a rate from its few microseconds would be absurd) */
    int prefetch = p->test == T_PREFETCH_H2D || p->test == T_PREFETCH_D2H;
    int nomove = s->shared_host && prefetch;
    double rel = c->info.timer_res_ns / ser.st.median; /* STREAM's clock check */
    int timeonly = nomove || (prefetch && !host_timed && rel > 0.01);
    if (p->test == T_LATENCY || timeonly) {
        double per = p->test == T_LATENCY ? (double)p->steps : 1.0;
        gmb_point_metric(pt, "lat_us", gmb_json_scaled(1e-3 / per, &ser.st));
        us = ser.st.median * 1e-3 / per;
        if (timeonly)
            aux_rate(pt, aux_metric(p->test), p, ser.n, (double)p->bytes, c);
    } else {
        gmb_point_metric(pt, "bw_GBps", gmb_json_rate((double)p->bytes, &ser.st));
        bw = (double)p->bytes / ser.st.median;
        const char *am = aux_metric(p->test);
        if (am)
            aux_rate(pt, am, p, ser.n, (double)p->bytes, c);
    }
    json_t *extra = json_object_get(pt, "extra");
    json_object_set_new(extra, "verified", json_string(p->bad ? "FAILED" : "full"));
    json_object_set_new(extra, "timer_resolution_rel", json_real(host_timed ? 0.0 : rel));
    char sz[32], st[32] = "-", bws[32] = "-", uss[32] = "-";
    if (p->test == T_LATENCY)
        gmb_fmt_size(stride, st, sizeof st);
    if (p->test == T_LATENCY || timeonly) {
        snprintf(uss, sizeof uss, "%.3f", us);
    } else {
        snprintf(bws, sizeof bws, "%.3f", bw);
    }
    printf("%-13s %10s %9s %10s %7.2f %12s %4zu %-8s\n",
           p->test == T_LATENCY ? (p->on_host ? "latency-host" : "latency-dev") : tn,
           gmb_fmt_size(p->bytes, sz, sizeof sz), st, bws, 100.0 * ser.st.ci_rel, uss, ser.n,
           p->bad ? "FAILED" : "full");
    fflush(stdout);
    json_object_set_new(
        extra, "moved",
        json_boolean(!nomove && !s->shared_host && p->test != T_RESIDENT && p->test != T_REMOTE));
    if (!host_timed && rel > 0.01 && !nomove)
        printf("# note: %s %s: %.0f ns is within 100x of the device timer's resolution (%g ns): "
               "%s%s\n",
               tn, sz, ser.st.median, c->info.timer_res_ns,
               timeonly ? "its time is kept, no rate" : "a bound, not a rate",
               s->shared_host ? " (the device shares the host's memory: nothing to move)" : "");
    if (p->bad) {
        gmb_error("verification failed: %s", p->err);
    } else if (p->test != T_LATENCY && !timeonly) {
        json_t *b = json_pack("{s:f, s:I}", "bw_GBps", bw, "size_bytes", (json_int_t)p->bytes);
        json_object_set_new(s->largest, tn, b); /* sizes ascend: the last is the largest */
    }
    gmb_add_point(c, pt);
    *med_ns = ser.st.median;
    gmb_series_free(&ser);
    return p->bad ? GMB_EVERIFY : GMB_OK;
}

/* Advice for a test; GMB_ESKIP (with the reason noted) when the backend has none. */
static int advise(state_t *s, gmb_advice_t adv, const char *test)
{
    char why[256];
    int rc = s->c->be->advise(s->m, adv, why, sizeof why);
    if (rc == GMB_ESKIP)
        note_skip(s, test, why);
    return rc;
}

/* A new managed buffer of bytes for the next point (the previous one freed): an implementation
 * may move a whole allocation at once (OpenCL at unmap or launch), so each point has its own. */
static int um_alloc(state_t *s, uint64_t bytes, gmb_mem_kind_t kind)
{
    s->c->be->free(s->m);
    s->m = NULL;
    int rc = s->c->be->alloc(s->c->dev, kind, (size_t)bytes, &s->m);
    if (rc && rc != GMB_ESKIP) {
        char a[32];
        gmb_error("cannot allocate %s of %s memory", gmb_fmt_size(bytes, a, sizeof a),
                  kind == GMB_MEM_MANAGED ? "managed" : "host");
    }
    return rc;
}

/* Before a test's first point: can the device really prefetch (one page)? GMB_ESKIP with the
 * reason noted when not. */
static int first_checks(state_t *s, int test)
{
    if (test != T_PREFETCH_H2D && test != T_PREFETCH_D2H)
        return GMB_OK;
    char why[256];
    double ns;
    span_work_t w = {0, NULL, NULL, NULL, 0, PAGE_BYTES, test == T_PREFETCH_D2H};
    int rc = timed_span(s, &w, &ns, why, sizeof why);
    if (rc == GMB_ESKIP)
        note_skip(s, test_names[test], why);
    return rc;
}

/* Every size of one bandwidth test. */
static int run_sizes(state_t *s, int test)
{
    gmb_ctx_t *c = s->c;
    const gmb_backend_t *be = c->be;
    const cfg_t *cfg = c->cfg;
    const char *tn = test_names[test];
    unsigned caps = c->info.caps;
    if ((test == T_PREFETCH_H2D || test == T_PREFETCH_D2H) && !(caps & GMB_CAP_PREFETCH)) {
        note_skip(s, tn, be->lacks(GMB_CAP_PREFETCH));
        return GMB_OK;
    }
    if (test == T_SYSTEM && !(caps & GMB_CAP_SYSTEM_MEM)) {
        note_skip(s, tn, be->lacks(GMB_CAP_SYSTEM_MEM));
        return GMB_OK;
    }
    int rc = GMB_OK;
    for (size_t i = 0; i < cfg->sizes.n && !rc; i++) {
        point_t p = {.s = s, .test = test, .bytes = cfg->sizes.v[i]};
        if ((rc = um_alloc(s, p.bytes, test == T_SYSTEM ? GMB_MEM_HOST_PAGEABLE : GMB_MEM_MANAGED)))
            break;
        if (!i && (rc = first_checks(s, test)))
            break;
        gmb_u64 n4 = p.bytes / 16;
        gmb_grid(c, s->kread, 0, 0, n4, &p.gr);
        gmb_grid(c, s->kwrite, 0, 0, n4, &p.gw);
        if (test == T_REMOTE)
            rc = advise(s, GMB_ADVISE_HOST_ACCESSED, tn);
        if (!rc && test == T_READMOSTLY)
            rc = advise(s, GMB_ADVISE_READ_MOSTLY, tn);
        if (!rc && test == T_RESIDENT) { /* on the device before the samples */
            if (!(rc = place_dev(s, p.bytes)))
                rc = dev_write(&p);
        }
        double med;
        if (!rc)
            rc = run_point(s, &p, 0, &med);
        gmb_series_free(&p.aux);
    }
    be->free(s->m); /* a buffer per point: the size measured is the size allocated */
    s->m = NULL;
    return rc == GMB_ESKIP ? GMB_OK : rc;
}

/* The latency test: for every stride, a random cycle through --pages pages; chased with the
 * pages on the host (each touch a fault) and on the device. */
static int run_latency(state_t *s)
{
    gmb_ctx_t *c = s->c;
    const cfg_t *cfg = c->cfg;
    gmb_u64 np = (gmb_u64)cfg->pages;
    uint32_t *next = malloc(np * sizeof *next);
    gmb_u32 *hw = malloc(np * sizeof *hw);
    int rc = next && hw ? GMB_OK : GMB_ERUNTIME;
    if (!rc)
        rc = gmb_chain_sattolo(next, np, (uint64_t)c->o.seed);
    for (size_t i = 0; i < cfg->strides.n && !rc; i++) {
        uint64_t stride = cfg->strides.v[i];
        gmb_u64 sw = stride / 4;
        /* hw[k]: the word the k-th link leads to, starting from page 0 (word 0) */
        gmb_u64 at = 0;
        for (gmb_u64 k = 0; k < np; k++) {
            at = next[at];
            hw[k] = (gmb_u32)(at * sw);
        }
        if ((rc = um_alloc(s, np * stride, GMB_MEM_MANAGED)))
            break;
        double med[2] = {0, 0};
        for (int host = 1; host >= 0 && !rc; host--) {
            point_t p = {.s = s,
                         .test = T_LATENCY,
                         .bytes = np * stride,
                         .links = np,
                         .steps = np - 1,
                         .end_word = hw[np - 2],
                         .hw = hw,
                         .on_host = host};
            if (!host) { /* the chain on the device: written once, chased, kept there */
                if (!(rc = chain_to_host(&p))) {
                    double ns;
                    rc = chase(&p, 1, &ns); /* faults it all over, untimed */
                }
            }
            if (!rc)
                rc = run_point(s, &p, stride, &med[host]);
            med[host] *= 1e-3 / (double)p.steps;
            gmb_series_free(&p.aux);
        }
        if (!rc) {
            char key[32];
            snprintf(key, sizeof key, "%llu", (unsigned long long)stride);
            json_t *f = json_pack("{s:f, s:f}", "host_us", med[1], "device_us", med[0]);
            /* a fault cost only where the device faults pages in one by one */
            int faults = (c->info.caps & GMB_CAP_UM_FAULTS) && !s->shared_host;
            if (faults)
                json_object_set_new(f, "fault_us", json_real(med[1] - med[0]));
            json_object_set_new(s->fault_us, key, f);
            printf("# latency, stride %s: %.3f us per touch after the host wrote, %.3f resident: "
                   "%.3f us %s\n",
                   key, med[1], med[0], med[1] - med[0],
                   faults           ? "per fault"
                   : s->shared_host ? "more (nothing migrates here: not a fault cost)"
                                    : "more (no device page faults here: data moves at unmap or "
                                      "launch, not a fault cost)");
        }
    }
    free(next);
    free(hw);
    s->c->be->free(s->m);
    s->m = NULL;
    return rc;
}

/* The sizes against the device and the host (never oversubscribed), the largest buffer into
 * cfg->top; a device without managed memory skips. */
static int um_check(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    uint64_t ram = gmb_host_ram_bytes();
    char a[32], b[32];
    /* never oversubscribe: managed memory beyond the device's can stall a GPU for minutes;
     * half of what is free now (other processes may hold the rest), else half of it all */
    uint64_t avail = c->info.mem_bytes, fr = 0;
    int rc = c->be->mem_free(c->dev, &fr);
    if (rc && rc != GMB_ESKIP)
        return rc;
    int have_free = !rc && fr && fr < avail;
    if (have_free)
        avail = fr;
    if (!cfg->sizes.set) {
        uint64_t top = gmb_xfer_top(1ull << 30, avail, ram, c->info.max_alloc_bytes, 4096);
        char spec[64], err[256];
        snprintf(spec, sizeof spec, "1MiB:%llu:x4,%llu", (unsigned long long)top,
                 (unsigned long long)top);
        if (top < (1u << 20) || gmb_parse_sweep(spec, &cfg->sizes, err, sizeof err)) {
            gmb_error("default sizes: the device or host has too little memory (%s)", spec);
            return GMB_ERUNTIME;
        }
    }
    size_t k = gmb_sweep_round(&cfg->sizes, PAGE_BYTES); /* whole 4 KiB pages */
    for (size_t i = 0; i < cfg->strides.n; i++)
        if (cfg->strides.v[i] % PAGE_BYTES) {
            gmb_error("--strides: %s is not a multiple of 4 KiB",
                      gmb_fmt_size(cfg->strides.v[i], a, sizeof a));
            return GMB_EUSAGE;
        }
    int lat = 0;
    for (size_t i = 0; i < cfg->tests.n; i++)
        lat |= cfg->tests.idx[i] == T_LATENCY;
    cfg->top = k ? cfg->sizes.v[k - 1] : 0;
    uint64_t region = (uint64_t)cfg->pages * cfg->strides.v[cfg->strides.n - 1];
    if (lat && region > cfg->top)
        cfg->top = region;
    if (lat && region / 4 > UINT32_MAX) {
        gmb_error("--pages x --strides: %s is more than a 32-bit word index reaches",
                  gmb_fmt_size(region, a, sizeof a));
        return GMB_EUSAGE;
    }
    if (!cfg->top) {
        gmb_error("--sizes: the buffer needs at least one 4 KiB page");
        return GMB_EUSAGE;
    }
    if (cfg->top > avail / 2 || (c->info.max_alloc_bytes && cfg->top > c->info.max_alloc_bytes)) {
        gmb_error("%s: %s of managed memory is more than half of the device's %s%s (gmb-um never "
                  "oversubscribes)",
                  lat && cfg->top == region ? "--pages x --strides" : "--sizes",
                  gmb_fmt_size(cfg->top, a, sizeof a), gmb_fmt_size(avail, b, sizeof b),
                  have_free ? " free now" : "");
        return GMB_EUSAGE;
    }
    if (ram && cfg->top > ram / 4) {
        gmb_error("--sizes: %s of managed memory would take more than a quarter of the host's %s",
                  gmb_fmt_size(cfg->top, a, sizeof a), gmb_fmt_size(ram, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (!(c->info.caps & GMB_CAP_MANAGED)) {
        gmb_skip("%s device %d has no managed memory (%s)", c->be->kind->name, c->info.index,
                 c->be->lacks(GMB_CAP_MANAGED));
        return GMB_ESKIP;
    }
    return GMB_OK;
}

/* The CUDA driver's unified-memory tunables that change what is measured (thrashing
 * mitigation, fault-time prefetch), from sysfs when the nvidia_uvm module exposes them. */
static json_t *uvm_params(void)
{
    static const char *const names[] = {
        "uvm_perf_thrashing_enable",  "uvm_perf_thrashing_threshold",
        "uvm_perf_thrashing_pin",     "uvm_perf_thrashing_lapse_usec",
        "uvm_perf_prefetch_enable",   "uvm_perf_prefetch_threshold",
        "uvm_perf_fault_batch_count", NULL};
    json_t *o = json_object();
    for (int i = 0; names[i]; i++) {
        char path[160], v[64] = "";
        snprintf(path, sizeof path, "/sys/module/nvidia_uvm/parameters/%s", names[i]);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(v, sizeof v, f)) {
            v[strcspn(v, "\r\n")] = '\0';
            json_object_set_new(o, names[i], json_string(v));
        }
        fclose(f);
    }
    if (!json_object_size(o))
        json_object_set_new(o, "why", json_string("no /sys/module/nvidia_uvm/parameters here"));
    return o;
}

/* The summary: how managed memory moves, each test's rate at its largest buffer, the fault
 * cost per touch; printed and recorded. */
static void summarise(gmb_ctx_t *c, const char *moves, const json_t *largest,
                      const json_t *fault_us)
{
    static const char *const tests[][2] = {
        {"resident", "the device reads data resident on it"},
        {"fault-h2d", "the device reads host-written data"},
        {"fault-d2h", "the host faults device-written data over (one load a 4 KiB page)"},
        {"prefetch-h2d", "prefetch to the device"},
        {"prefetch-d2h", "prefetch to the host"},
        {"remote", "the device reads it on the host (advice)"},
        {"readmostly", "the device reads a read-mostly copy"},
        {"system", "the device reads host-written malloc'd memory"}};
    /* where the device's memory is the host's, nothing faults over: the host's loads are reads */
    int shared =
        json_is_true(json_object_get(json_object_get(c->record, "results"), "host_unified_memory"));
    gmb_text_t sm = {{0}, 0};
    char sz[32];
    gmb_text_add(&sm, "managed memory moves: %s", moves);
    for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
        const json_t *b = json_object_get(largest, tests[i][0]);
        const char *what = shared && !strcmp(tests[i][0], "fault-d2h")
                               ? "the host loads device-written data (one load a 4 KiB page)"
                               : tests[i][1];
        if (b)
            gmb_text_add(
                &sm, "; %s %.4g GB/s at %s", what, json_real_value(json_object_get(b, "bw_GBps")),
                gmb_fmt_size((uint64_t)json_integer_value(json_object_get(b, "size_bytes")), sz,
                             sizeof sz));
    }
    const char *stride;
    const json_t *f;
    json_object_foreach((json_t *)fault_us, stride, f)
    {
        if (json_object_get(f, "fault_us"))
            gmb_text_add(&sm, "; a page fault %.3g us (one touch per %s)",
                         json_real_value(json_object_get(f, "fault_us")),
                         gmb_fmt_size(strtoull(stride, NULL, 10), sz, sizeof sz));
    }
    gmb_text_add(&sm, ".");
    gmb_summary(c, "# um: ", NULL, sm.text, "no test measured.");
}

/* The headline figures: how managed and malloc'd memory reach the device (text), each test's
 * rate at its largest buffer, and the fault cost at strides of 64 KiB and 2 MiB, each resting
 * on its points. */
static void headlines(gmb_ctx_t *c, const json_t *largest, const json_t *fault_us)
{
    const json_t *res = json_object_get(c->record, "results");
    int shared = json_is_true(json_object_get(res, "host_unified_memory"));
    static const struct {
        const char *test, *label; /* test: a results.largest key, or "=KEY" a text result */
    } H[] = {
        {"=migration", "Managed memory moves"},
        {"resident", "Managed: device reads, data on the device"},
        {"fault-h2d", "Managed: device reads host-written data"},
        {"fault-d2h", NULL}, /* by its method: the host's check, or one load a page */
        {"prefetch-h2d", "Managed: prefetch to the device"},
        {"prefetch-d2h", "Managed: prefetch to the host"},
        {"remote", "Managed: device reads it on the host (advice)"},
        {"readmostly", "Managed: device reads, read-mostly copy made"},
        {"=system_memory", "How the device reaches malloc'd memory"},
        {"system", "Device reads host-written malloc'd memory"},
    };
    for (size_t i = 0; i < sizeof H / sizeof H[0]; i++) {
        if (H[i].test[0] == '=') {
            const char *t = json_string_value(json_object_get(res, H[i].test + 1));
            if (t && *t)
                gmb_headline(c, &(gmb_headline_t){.label = H[i].label, .unit = "", .text = t});
            continue;
        }
        const json_t *b = json_object_get(largest, H[i].test);
        if (!json_is_number(json_object_get(b, "bw_GBps")))
            continue;
        json_int_t size = json_integer_value(json_object_get(b, "size_bytes"));
        const json_t *pts[8];
        size_t n = gmb_points_where(c, pts, 8, "{s:s, s:I}", "test", H[i].test, "size_bytes", size);
        int touch = 0;
        for (size_t k = 0; k < n; k++)
            touch |= json_integer_value(json_object_get(json_object_get(pts[k], "params"),
                                                        "host_touch_bytes")) > 0;
        /* the touches migrate pages only where the device's memory is not the host's */
        const char *l = H[i].label ? H[i].label
                        : touch && !shared
                            ? "Managed: migration to the host on host faults (one load a 4 KiB "
                              "page)"
                        : touch ? "Managed: host loads device-written data, one a 4 KiB page "
                                  "(host memory: nothing migrates)"
                                : "Managed: host reads device-written data";
        /* device reads of resident managed memory: the memory's read bandwidth, for the
         * cross-checks, from a buffer of 4x the LLC or more */
        int mem = !strcmp(H[i].test, "resident") && c->info.llc_bytes &&
                  (double)size >= 4.0 * (double)c->info.llc_bytes;
        gmb_headline(
            c, &(gmb_headline_t){.label = l,
                                 .unit = "GB/s",
                                 .higher = 1,
                                 .value = json_number_value(json_object_get(b, "bw_GBps")),
                                 .ci_lo = NAN,
                                 .ci_hi = NAN,
                                 .points = pts,
                                 .npoints = n,
                                 .quantity = mem ? GMB_Q_MEM_READ : NULL,
                                 .source = "um: device reads of managed memory resident on it"});
    }
    static const struct {
        const char *stride, *label;
    } F[] = {{"65536", "Page fault, one touch per 64 KiB"},
             {"2097152", "Page fault, one touch per 2 MiB"}};
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        const json_t *v = json_object_get(json_object_get(fault_us, F[i].stride), "fault_us");
        if (!json_is_number(v))
            continue;
        const json_t *pts[8];
        size_t n = gmb_points_where(c, pts, 8, "{s:s, s:I}", "test", "latency", "stride_bytes",
                                    (json_int_t)atoll(F[i].stride));
        gmb_headline(c, &(gmb_headline_t){.label = F[i].label,
                                          .unit = "us",
                                          .value = json_number_value(v),
                                          .ci_lo = NAN,
                                          .ci_hi = NAN,
                                          .points = pts,
                                          .npoints = n});
    }
}

static int um_run(gmb_ctx_t *c)
{
    cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    cpu_set_t cpus; /* the CPUs this thread may run on: the program's placement */
    long ncpu =
        sched_getaffinity(0, sizeof cpus, &cpus) ? sysconf(_SC_NPROCESSORS_ONLN) : CPU_COUNT(&cpus);
    state_t s = {.c = c,
                 .salt = (gmb_u32)c->o.seed * 2654435761u + 1u,
                 .fill_threads = ncpu < 1    ? 1
                                 : ncpu > 16 ? 16
                                             : (int)ncpu};
    s.top = cfg->top;
    int rc = GMB_OK;
    s.largest = json_object();
    s.fault_us = json_object();
    s.skipped = json_array();
    s.hpart = malloc(MAX_PARTS * sizeof *s.hpart);
    if (!s.hpart) {
        rc = GMB_ERUNTIME;
        goto out;
    }
    if ((rc = be->alloc(c->dev, GMB_MEM_DEVICE, MAX_PARTS * sizeof(gmb_u32), &s.part)) ||
        (rc = be->prog_load(c->dev, c->bench->kernels, "default", &s.prog)) ||
        (rc = be->kern_get(s.prog, "um_read", &s.kread)) ||
        (rc = be->kern_get(s.prog, "um_write", &s.kwrite)) ||
        (rc = be->kern_get(s.prog, "um_chase", &s.kchase)))
        goto out;
    gmb_launch_t g;
    gmb_grid(c, s.kread, 0, 0, s.top / 16, &g);
    if (g.groups > MAX_PARTS || g.group_size > 1024 || (g.group_size & (g.group_size - 1))) {
        gmb_error("um_read: a grid of %zu groups of %zu does not fit its reduction", g.groups,
                  g.group_size);
        rc = GMB_ERUNTIME;
        goto out;
    }
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes of the buffer / time of the test's timed part (1e9 B/s)");
    gmb_declare_metric(c, "lat_us", "us", "lower",
                       "latency: time of one chase / pages touched (one dependent touch each); "
                       "prefetch where the device's memory is the host's: time of the call");
    gmb_declare_metric(c, "host_resident_GBps", "GB/s", "higher",
                       "fault-d2h: the host's check of every word after the timed touches, "
                       "pages now on the host (--host-threads threads)");
    gmb_declare_metric(c, "kernel_after_GBps", "GB/s", "higher",
                       "prefetch-h2d: the device's read after the prefetch (all arrived: the "
                       "resident rate)");
    gmb_declare_metric(c, "host_after_GBps", "GB/s", "higher",
                       "prefetch-d2h: the host's check of every word after the prefetch");
    gmb_declare_metric(c, "host_read_GBps", "GB/s", "higher",
                       "readmostly: the host's check of every word after the device read its "
                       "copy (no migration back)");
    printf("# gmb-um: %s device %d: %s\n# managed memory: %s\n", be->kind->name, c->info.index,
           c->info.name, c->info.managed);
    /* OpenCL host-unified memory (a CPU, an integrated GPU): migrations have nothing to move */
    s.shared_host = (c->info.caps & GMB_CAP_HOST_UNIFIED) != 0;
    gmb_add_result(c, "managed_memory", json_string(c->info.managed));
    const char *moves = s.shared_host ? "none: the device's memory is the host's"
                        : (c->info.caps & GMB_CAP_UM_FAULTS)
                            ? "on demand: the device faults pages in"
                            : "whole buffers, when the runtime moves them (launch, unmap): no "
                              "device page faults";
    gmb_add_result(c, "migration", json_string(moves));
    gmb_add_result(c, "uvm_driver", uvm_params());
    gmb_add_result(c, "system_memory",
                   json_string(c->info.system_mem[0] ? c->info.system_mem
                                                     : "kernels cannot use plain malloc'd memory"));
    gmb_add_result(c, "host_unified_memory", json_boolean(s.shared_host));
    if (s.shared_host)
        printf("# the device reports host-unified memory: migration has nothing to move here, and "
               "the rates are those of the map/unmap/migrate calls and the reads\n");
    print_header();
    for (size_t ti = 0; ti < cfg->tests.n && !rc; ti++) {
        int t = cfg->tests.idx[ti];
        rc = t == T_LATENCY ? run_latency(&s) : run_sizes(&s, t);
    }
    if (!rc)
        summarise(c, moves, s.largest, s.fault_us);
    headlines(c, s.largest, s.fault_us); /* those of the tests it finished, when stopped too */
    gmb_add_result(c, "largest", s.largest);
    gmb_add_result(c, "fault_us", s.fault_us);
    gmb_add_result(c, "skipped", s.skipped);
    s.largest = s.fault_us = s.skipped = NULL;
out:
    json_decref(s.largest);
    json_decref(s.fault_us);
    json_decref(s.skipped);
    free(s.hpart);
    be->prog_free(s.prog);
    be->free(s.part);
    be->free(s.m);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "um",
    .summary = "unified memory: on-demand migration and prefetch both ways, remote reads, "
               "read-mostly, fault latency",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(cfg_t),
    .kernels = &kernels,
    .run = um_run,
    .check = um_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
