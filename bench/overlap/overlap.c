/* overlap.c - gmb-overlap: copies beside kernels (overlap efficiency, the copy's bandwidth
 * under a kernel, the kernel's slowdown under a copy) and the arithmetic-intensity sweep (the
 * measured ridge point); the descriptor, options, their check against the device, and the run
 * that loads the kernels and runs the parts (copies.c, intensity.c). */
#include "overlap.h"
#include "host.h"
#include "model/xfer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char gmb_bench_cl_source[];
extern const gmb_cuda_fn_t gmb_bench_cuda_fns[] __attribute__((weak));

static const gmb_cl_variant_t variants[] = {{"default", ""}, {NULL, NULL}};

const char *const ovl_part_names[] = {"overlap", "intensity", NULL};
const char *const ovl_dir_names[] = {"h2d", "d2h", NULL};
const char *const ovl_kern_names[] = {"compute", "stream", NULL};
const char *const ovl_prec_names[] = {"fp32", "fp64", NULL};

#define MAX_K_MAX 8192 /* --k-max at most */

#define O(field) offsetof(ovl_cfg_t, field)
static const gmb_opt_t opts[] = {
    {"parts", GMB_OPT_LIST, O(parts), "LIST", "all", 1, 0, ovl_part_names,
     "overlap (copies beside kernels) and intensity (the FMA sweep and its ridge point)", 0},
    {"directions", GMB_OPT_LIST, O(dirs), "LIST", "all", 1, 0, ovl_dir_names,
     "overlap: the copies, h2d and d2h, from and to pinned host memory (copy engine)", 0},
    {"kernels", GMB_OPT_LIST, O(kernels), "LIST", "all", 1, 0, ovl_kern_names,
     "overlap: the kernels beside a copy: compute (FMA chains on registers) and stream (y = p x "
     "+ q over DRAM-sized device arrays)",
     0},
    {"copy-size", GMB_OPT_SIZE, O(copy_bytes), "BYTES", NULL, 4096, 0x1p40, NULL,
     "overlap: bytes per copy [default 256 MiB (at least 4x the last-level cache) on a GPU, "
     "64 MiB on a CPU]",
     0},
    {"stream-size", GMB_OPT_SIZE, O(stream_bytes), "BYTES", NULL, 4096, 0x1p40, NULL,
     "overlap: each of the streaming kernel's two arrays [default: as --copy-size, at least 4x "
     "the last-level cache]",
     0},
    {"compute-iters", GMB_OPT_INT, O(compute_iters), "N", "0", 0, 1 << 30, NULL,
     "overlap: FMAs per chain of the compute kernel; 0 = calibrated to last as long as the copy",
     0},
    {"stream-passes", GMB_OPT_INT, O(stream_passes), "N", "0", 0, 65536, NULL,
     "overlap: launches of the streaming kernel per run; 0 = calibrated to last as long as the "
     "copy",
     0},
    {"precisions", GMB_OPT_LIST, O(precisions), "LIST", "all", 1, 0, ovl_prec_names,
     "intensity: fp32, and fp64 where the device has doubles", 0},
    {"size", GMB_OPT_SIZE, O(size_bytes), "BYTES", NULL, 4096, 0x1p40, NULL,
     "intensity: each of the arrays x and y [default 4x the last-level cache, at least 256 MiB "
     "on a GPU, 16 MiB on a CPU; 64 MiB where the cache is unknown]",
     0},
    {"k-max", GMB_OPT_INT, O(k_max), "K", "1024", 1, MAX_K_MAX, NULL,
     "intensity: the largest FMAs per element, a power of two (the sweep: 0, 1, 2, 4 .. K)", 0},
    {"group-size", GMB_OPT_INT, O(group_size), "N", "0", 0, 1024, NULL,
     "work-items per group, a power of two; 0 = 256 or the device maximum", 0},
    {"groups-per-cu", GMB_OPT_INT, O(groups_per_cu), "N", "0", 0, 1024, NULL,
     "overlap: groups per compute unit of the compute kernel's grid; 0 = as many as fit (GPU) "
     "or 4 (CPU); the streaming kernels run a one-pass grid, four elements a work-item",
     0},
    {"min-sample-us", GMB_OPT_DOUBLE, O(min_sample_us), "US", "100", 1, 1e7, NULL,
     "intensity: launches per sample raised until a sample lasts this long (overlap: a sample "
     "is one copy)",
     0},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef O

static const char help[] =
    "Part overlap: a copy (h2d: pinned host memory to a device buffer; d2h: back; the copy\n"
    "engine) alone, a kernel alone, and both at once on two streams (OpenCL: two queues), for\n"
    "each direction and kernel. compute: every work-item of a full grid runs four dependent\n"
    "FMA chains on registers (x = x p + q), --compute-iters FMAs each, calibrated so that the\n"
    "kernel alone lasts about as long as the copy alone; stream: y = p x + q over two device\n"
    "arrays of --stream-size (DRAM-sized, not the copy's), --stream-passes launches back to\n"
    "back, calibrated likewise. Every run is timed by device events: a stream's span from its\n"
    "first command's start to its last's end; both: from the earlier start to the later end.\n"
    "The copy alone and the kernel alone are sampled in turn (a drift falls on both), then\n"
    "both. overlap_efficiency = (t_copy + t_kernel - t_both) / min(t_copy, t_kernel), from the\n"
    "medians: 1 = the shorter one wholly hidden, 0 = one after the other; kept as measured even\n"
    "outside [0, 1] (above 1: together faster than the longer alone, noise or clocks; below 0:\n"
    "slower than in turn, contention or a stream that waited). Beside it: the copy's bandwidth\n"
    "under the kernel (its own span within the both-runs) against alone, and the kernel's\n"
    "slowdown under the copy (its own span against alone).\n"
    "Part intensity: y[i] = f_k(x[i]), k dependent FMAs per element (fp32; fp64 where the\n"
    "device has doubles), over arrays of --size (4x the last-level cache, STREAM's rule), for\n"
    "k = 0, 1, 2, 4 .. --k-max; bytes = read + write per element, FLOPs = 2k per element,\n"
    "intensity = k / (element bytes) FLOP/B. Beside each k >= 1 the same chains on register\n"
    "data (compute-only: same grid, no loads, one store a work-item); k = 0 is the memory-only\n"
    "time. The ridge point: the memory side is k = 0 and the k after it whose time stays within\n"
    "10% over the 95% CI of k = 0 (the flat line: their median time); the compute side the k\n"
    "past it at 2x the time of k = 0 or more (at least two; the line t = a k, a the median of\n"
    "t / k); the ridge k* = flat / a, where the lines cross, which must lie between the two\n"
    "sides; else \"no clear ridge\" with the reason (compute-bound from k = 1, not compute-bound\n"
    "within the sweep, lines that cross outside the transition). hidden(k) = (t_mem +\n"
    "t_compute(k) - t(k)) / t_compute(k): the share of the compute that the memory time hides\n"
    "(1 all, 0 none), reported at the largest k below the ridge.\n"
    "Verified: every copy's destination (poisoned first; all of it up to 32 MiB, 8 chunks\n"
    "beyond) against its pseudo-random source; the compute kernel's outputs of spread\n"
    "work-items and the intensity kernels' outputs (chunks, sized to the host's time) against\n"
    "the host's recomputation of the same chain from the same source (overlap.cl; fma is\n"
    "correctly rounded on both sides: equal bit for bit).\n";

void ovl_fail(ovl_run_t *r, const char *fmt, ...)
{
    char m[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    gmb_error("verification failed: %s", m);
    r->failed = 1;
}

static int has(const gmb_list_t *l, int v)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->idx[i] == v)
            return 1;
    return 0;
}

/* bytes rounded up to a power of two */
static uint64_t pow2_up(uint64_t b)
{
    uint64_t p = 1;
    while (p < b && p < (1ull << 62))
        p <<= 1;
    return p;
}

/* A size of the run against the device and the host: buffers of bytes each, nbuf on the
 * device, host_bytes of host memory beside; 0 or GMB_EUSAGE after one line. */
static int size_fits(const gmb_ctx_t *c, const char *opt, uint64_t bytes, int nbuf,
                     uint64_t host_bytes)
{
    const gmb_dev_info_t *d = &c->info;
    uint64_t ram = gmb_host_ram_bytes();
    char a[32], b[32];
    if (d->max_alloc_bytes && bytes > d->max_alloc_bytes) {
        gmb_error("--%s %s: more than the device allows one buffer (%s)", opt,
                  gmb_fmt_size(bytes, a, sizeof a), gmb_fmt_size(d->max_alloc_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (d->mem_bytes && (double)bytes * nbuf > 0.8 * (double)d->mem_bytes) {
        gmb_error("--%s %s: %d such buffers take more than 80%% of the device's %s", opt,
                  gmb_fmt_size(bytes, a, sizeof a), nbuf, gmb_fmt_size(d->mem_bytes, b, sizeof b));
        return GMB_EUSAGE;
    }
    if (host_bytes && ram && host_bytes > ram / 2) {
        gmb_error("--%s %s: pinned host memory of more than half the host's %s", opt,
                  gmb_fmt_size(host_bytes, a, sizeof a), gmb_fmt_size(ram, b, sizeof b));
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

/* The options against each other and the device; the sizes' defaults from the device. */
static int ovl_check(gmb_ctx_t *c)
{
    ovl_cfg_t *cfg = c->cfg;
    const gmb_dev_info_t *d = &c->info;
    if (cfg->k_max & (cfg->k_max - 1)) {
        gmb_error("--k-max: %ld is not a power of two", cfg->k_max);
        return GMB_EUSAGE;
    }
    if (gmb_check_group_size(c, cfg->group_size))
        return GMB_EUSAGE;
    int cpu = !strcmp(d->type, "cpu");
    uint64_t llc4 = 4 * d->llc_bytes, cap = d->mem_bytes / 8;
    if (!cfg->copy_bytes) {
        uint64_t want = cpu ? 64ull << 20 : (256ull << 20) > llc4 ? 256ull << 20 : pow2_up(llc4);
        uint64_t top =
            gmb_xfer_top(want, d->mem_bytes, gmb_host_ram_bytes(), d->max_alloc_bytes, 1u << 20);
        cfg->copy_bytes = top && top < want ? top : want;
    }
    if (!cfg->stream_bytes) {
        uint64_t want = cfg->copy_bytes > llc4 ? cfg->copy_bytes : pow2_up(llc4);
        cfg->stream_bytes = cap && want > cap ? cap : want;
    }
    if (!cfg->size_bytes) {
        uint64_t want = !d->llc_bytes ? 64ull << 20 : pow2_up(llc4);
        uint64_t least = cpu ? 16ull << 20 : 256ull << 20;
        want = want < least ? least : want;
        cfg->size_bytes = cap && want > cap ? cap : want;
    }
    /* whole 16-byte units (four floats, two doubles) */
    cfg->copy_bytes -= cfg->copy_bytes % 16;
    cfg->stream_bytes -= cfg->stream_bytes % 16;
    cfg->size_bytes -= cfg->size_bytes % 16;
    if (has(&cfg->parts, P_OVERLAP) &&
        (size_fits(c, "copy-size", cfg->copy_bytes, 1, cfg->copy_bytes) ||
         size_fits(c, "stream-size", cfg->stream_bytes, 2, 0) ||
         size_fits(c, "copy-size and --stream-size", cfg->copy_bytes + 2 * cfg->stream_bytes, 1,
                   0)))
        return GMB_EUSAGE;
    if (has(&cfg->parts, P_INTENSITY) && size_fits(c, "size", cfg->size_bytes, 2, 0))
        return GMB_EUSAGE;
    if (cfg->size_bytes / 4 > (1ull << 40)) {
        gmb_error("--size: at most 4 Ti elements");
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

/* Whether the device's compiler has doubles: the ovl_caps kernel says what the source was
 * built with (OpenCL: cl_khr_fp64 defined; CUDA: always). 0 or the backend's error. */
static int probe_fp64(ovl_run_t *r)
{
    gmb_ctx_t *c = r->c;
    const gmb_backend_t *be = c->be;
    gmb_kern_t *k = NULL;
    gmb_buf_t *b = NULL;
    uint32_t v = 0xffffffffu;
    gmb_launch_t one = {1, 1, 0, 0};
    int rc = be->kern_get(r->prog, "ovl_caps", &k);
    if (!rc)
        rc = be->alloc(c->dev, GMB_MEM_DEVICE, sizeof v, &b);
    if (!rc)
        rc = be->fill(b, 0, 0xff, sizeof v);
    gmb_arg_t av[] = {GMB_A_BUF(b)};
    if (!rc)
        rc = be->launch(k, &one, av, 1, NULL);
    if (!rc)
        rc = be->read(b, 0, &v, sizeof v);
    be->free(b);
    if (rc)
        return rc;
    if (v > 1) {
        gmb_error("the capability kernel wrote %u, not 0 or 1", v);
        return GMB_ERUNTIME;
    }
    r->fp64 = (int)v;
    if (be->kind->traits & GMB_BE_LINKED) /* nvcc's kernels: doubles on every device */
        snprintf(r->fp64_how, sizeof r->fp64_how, "%s: every device has doubles", be->kind->label);
    else
        snprintf(r->fp64_how, sizeof r->fp64_how, "the %s compiler %s cl_khr_fp64 (%s)",
                 be->kind->label, v ? "defines" : "does not define",
                 v ? "the device has doubles" : "no doubles");
    return GMB_OK;
}

static int ovl_run(gmb_ctx_t *c)
{
    ovl_cfg_t *cfg = c->cfg;
    const gmb_backend_t *be = c->be;
    ovl_run_t r = {.c = c, .skipped = json_array()};
    static const char *const kn[3][2] = {{"ovl_init_f32", "ovl_init_f64"},
                                         {"ovl_mem_f32", "ovl_mem_f64"},
                                         {"ovl_reg_f32", "ovl_reg_f64"}};
    int rc = be->prog_load(c->dev, c->bench->kernels, variants[0].variant, &r.prog);
    if (!rc)
        rc = probe_fp64(&r);
    for (int f = 0; f < 2 && !rc; f++) {
        if (f == F_FP64 && !r.fp64)
            break;
        gmb_kern_t **dst[3] = {&r.kinit[f], &r.kmem[f], &r.kreg[f]};
        for (int j = 0; j < 3 && !rc; j++)
            rc = be->kern_get(r.prog, kn[j][f], dst[j]);
    }
    if (rc)
        goto out;
    char a[32], b[32], s[32];
    printf("# gmb-overlap: %s device %d: %s; %d compute units; doubles: %s\n", be->kind->name,
           c->info.index, c->info.name, c->info.compute_units, r.fp64 ? "yes" : "no");
    printf("# copies %s, streaming arrays %s, intensity arrays %s (%s)\n",
           gmb_fmt_size(cfg->copy_bytes, a, sizeof a), gmb_fmt_size(cfg->stream_bytes, b, sizeof b),
           gmb_fmt_size(cfg->size_bytes, s, sizeof s), gmb_residence(&c->info, cfg->size_bytes));
    fflush(stdout);
    gmb_declare_metric(
        c, "copy_GBps", "GB/s", "higher",
        "bytes copied / the copy's device time (both: its own span in the both-run)");
    gmb_declare_metric(c, "kernel_ns", "ns", "lower",
                       "overlap, both: the kernel's own span in the both-run (device time)");
    gmb_declare_metric(c, "bw_GBps", "GB/s", "higher",
                       "bytes read + written by the streaming kernel / its device time");
    gmb_declare_metric(c, "gflops", "GFLOP/s", "higher",
                       "2 FLOPs per FMA x the FMAs of the grid / device time");
    gmb_declare_metric(c, "launch_ns", "ns", "lower",
                       "intensity: device time of one launch (a sample's span / its launches)");
    json_t *fp = json_pack("{s:b, s:s}", "available", r.fp64, "how", r.fp64_how);
    gmb_add_result(c, "fp64", fp);
    for (size_t i = 0; i < cfg->parts.n && !rc; i++) {
        int p = cfg->parts.idx[i];
        rc = p == P_OVERLAP ? ovl_part_overlap(&r) : ovl_part_intensity(&r);
        if (rc == GMB_EVERIFY)
            rc = GMB_OK; /* its points are recorded; the other parts still run */
    }
    gmb_summary(c, "# overlap: ", NULL, r.sm.text, "nothing measured to summarise.");
    if (!rc && r.failed)
        rc = GMB_EVERIFY;
out:
    gmb_add_result(c, "skipped", r.skipped);
    if (r.prog && be->prog_free)
        be->prog_free(r.prog);
    return rc;
}

static const gmb_kernels_t kernels = {gmb_bench_cl_source, variants, gmb_bench_cuda_fns};
static const gmb_bench_t bench = {
    .name = "overlap",
    .summary = "copies beside kernels (overlap efficiency, copy bandwidth under a kernel) and the "
               "arithmetic-intensity sweep (the measured ridge point), FP32 and FP64",
    .help = help,
    .opts = opts,
    .cfg_size = sizeof(ovl_cfg_t),
    .kernels = &kernels,
    .run = ovl_run,
    .check = ovl_check,
};

int main(int argc, char **argv)
{
    return gmb_main(&bench, argc, argv);
}
