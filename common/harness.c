/* harness.c - gmb_main(): options -> device -> sweep -> verified points -> record. */
#include "harness.h"
#include "host.h"

#include <stdarg.h>
#include <signal.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>
#include <unistd.h>

static const char *const backend_choices[] = {"auto", "cuda", "opencl", NULL};

#define C(field) offsetof(gmb_common_t, field)
static const gmb_opt_t common_opts[] = {
    {"backend", GMB_OPT_STR, C(backend), "NAME", "auto", 1, 0, backend_choices,
     "compute API; auto = CUDA when it has a device, else OpenCL", 0},
    {"device", GMB_OPT_INT, C(device), "N", "0", 0, 1e6, NULL,
     "device index within the backend (see --list-devices)", 0},
    {"list-devices", GMB_OPT_FLAG, C(list_devices), NULL, NULL, 1, 0, NULL,
     "list the devices of every backend and exit", 0},
    {"out", GMB_OPT_STR, C(out), "DIR", NULL, 1, 0, NULL,
     "write the record in DIR [default results/<device>]; '-': its JSON to standard output "
     "(the point rows then go to standard error, no CSV is written)",
     0},
    {"no-record", GMB_OPT_FLAG, C(no_record), NULL, NULL, 1, 0, NULL,
     "measure and print, write no record", 0},
    {"warmup", GMB_OPT_INT, C(warmup), "N", "1", 0, 1000, NULL,
     "untimed runs before the samples of each point", 0},
    {"min-samples", GMB_OPT_INT, C(min_samples), "N", "5", 1, 100000, NULL,
     "fewest timed samples per point", 0},
    {"max-samples", GMB_OPT_INT, C(max_samples), "N", "100", 1, 100000, NULL,
     "most timed samples per point", 0},
    {"ci-target", GMB_OPT_DOUBLE, C(ci_target_pct), "PCT", "1", 0.01, 100, NULL,
     "stop when the 95% CI of the median time is within PCT %; a point not within it after "
     "max(30, --min-samples) samples stops where its CI, shrinking as 1/sqrt(n), would need more "
     "than --max-samples or --time-cap (marked not converged, time_ns.stopped_by)",
     0},
    {"time-cap", GMB_OPT_DOUBLE, C(time_cap_s), "S", "1", 0.001, 3600, NULL,
     "stop sampling a point after S seconds (it is then marked not converged)", 0},
    {"seed", GMB_OPT_INT, C(seed), "N", "1", 0, 4294967295.0, NULL,
     "seed of the pseudo-random data", 0},
    {"peak-bw", GMB_OPT_DOUBLE, C(peak_bw), "GBPS", NULL, 0.001, 1e7, NULL,
     "nominal peak memory bandwidth (GB/s) for % of peak, where the driver gives none (AMD, "
     "Intel, CPUs) or to take a datasheet's; recorded as given [default the driver's]",
     0},
    {"counters", GMB_OPT_FLAG, C(counters), NULL, NULL, 1, 0, NULL,
     "hardware counters per point through CUPTI's range profiler (CUDA; libcupti loaded at run "
     "time): DRAM bytes read and written, DRAM throughput as % of peak, L2 hit rate, L2 sectors "
     "from the SMs, L1 hit rate; taken in one extra sample after each point's timed samples, its "
     "kernels replayed by CUPTI, never during the timed ones. Without CUPTI, without the "
     "permission, or on OpenCL the point's counters are null and the record says why",
     0},
    {"quiet", GMB_OPT_FLAG, C(quiet), NULL, NULL, 1, 0, NULL, "no progress messages", 0},
    {"help", GMB_OPT_FLAG, C(help), NULL, NULL, 1, 0, NULL, "this help", 0},
    {"version", GMB_OPT_FLAG, C(version), NULL, NULL, 1, 0, NULL,
     "print the version and the git commit built, and exit", 0},
    {"man", GMB_OPT_FLAG, C(man), NULL, NULL, 1, 0, NULL,
     "print the man page (roff) made from this help, and exit (make builds build/man/)", 1},
    {"summary", GMB_OPT_FLAG, C(summary), NULL, NULL, 1, 0, NULL, "print the summary", 1},
    {"inject-error", GMB_OPT_FLAG, C(inject_error), NULL, NULL, 1, 0, NULL,
     "test aid: corrupt one result element; verification must fail (exit 1)", 1},
    {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL, 0},
};
#undef C

/* The man page gmb-NAME(1): the --help text as roff (make puts it in build/man/). */
static void man_page(const gmb_bench_t *b, FILE *f)
{
    char up[64];
    size_t i = 0;
    for (; b->name[i] && i < sizeof up - 1; i++)
        up[i] = (char)toupper((unsigned char)b->name[i]);
    up[i] = '\0';
    fprintf(f, ".TH GMB\\-");
    gmb_man_text(up, f);
    fprintf(f, " 1 \"\" \"gmb %s\" \"gmb manual\"\n.SH NAME\ngmb\\-", GMB_VERSION);
    gmb_man_text(b->name, f);
    fputs(" \\- ", f);
    gmb_man_text(b->summary, f);
    fputs("\n.SH SYNOPSIS\n.B gmb\\-", f);
    gmb_man_text(b->name, f);
    fputs("\n[\\fIoptions\\fR]\n.br\n.B gmb run ", f);
    gmb_man_text(b->name, f);
    fputs("\n[\\fIoptions\\fR]\n.SH DESCRIPTION\n", f);
    gmb_man_text(b->summary, f);
    fputs(".\n.SH OPTIONS\n.SS Benchmark options\n", f);
    gmb_opt_man(b->opts, f);
    fputs(".SS Common options\n", f);
    gmb_opt_man(common_opts, f);
    if (b->help) { /* paragraphs: a blank line starts a new one, lines keep their breaks */
        fputs(".SH NOTES\n.nf\n", f);
        gmb_man_text(b->help, f);
        fputs("\n.fi\n", f);
    }
    fputs(
        ".SH EXIT STATUS\n0 ok, 1 verification failed, 2 usage error, 3 runtime error, 77 "
        "skipped (no usable device or capability; the reason on standard error).\n"
        ".SH ENVIRONMENT\n"
        ".TP\n.B GMB_NVML_LIB\nthe NVML library to load (clocks, throttling, board "
        "identity, other users of the GPU) [default libnvidia\\-ml.so.1]; without NVML "
        "those fields read unknown.\n"
        ".TP\n.B GMB_NO_ICD_FIX\nset: do not make a private OpenCL vendors directory "
        "naming NVIDIA's OpenCL library when /etc/OpenCL/vendors lacks it (nor does "
        "gmb when OCL_ICD_VENDORS is set).\n"
        ".TP\n.B GMB_CUDA_GATE\n1: hold each timed CUDA sequence behind a gate until the host has "
        "enqueued all of it, so that no enqueueing gap is timed (opt-in; the record's "
        "device.timer says which timing a run used).\n"
        ".SH FILES\nA record \\fIUTC\\fR\\-",
        f);
    gmb_man_text(b->name, f);
    fputs(".json and .csv in the \\-\\-out directory "
          "(default results/\\fIdevice\\fR).\n.SH SEE ALSO\n.BR gmb (1),\n"
          "bench/",
          f);
    gmb_man_text(b->name, f);
    fputs("/README.md in the source tree.\n", f);
}

static void usage(const gmb_bench_t *b, FILE *f)
{
    fprintf(f, "usage: gmb-%s [options]\n%s\n\nBenchmark options:\n", b->name, b->summary);
    gmb_opt_help(b->opts, f);
    fprintf(f, "\nCommon options:\n");
    gmb_opt_help(common_opts, f);
    if (b->help)
        fprintf(f, "\n%s", b->help);
    fprintf(f, "\nExit status: 0 ok, 1 verification failed, 2 usage error, 3 runtime error, "
               "77 skipped (no usable device).\n");
}

int gmb_pick_backend(const char *name, const gmb_backend_t **out, int *ndev, char *why,
                     size_t whylen)
{
    *out = NULL;
    *ndev = 0;
    if (strcmp(name, "auto")) {
        const gmb_backend_t *be = gmb_backend_find(name);
        if (!be) {
            int known = gmb_backend_kind(name) != NULL;
            snprintf(why, whylen,
                     known ? "backend '%s' was not built into this gmb (see make's output)"
                           : "unknown backend '%s' (choose from %s)",
                     name, gmb_backend_choices());
            return known ? GMB_ESKIP : GMB_EUSAGE;
        }
        *out = be;
        return be->count(ndev, why, whylen);
    }
    char all[1024] = "";
    for (int i = 0; gmb_backends[i]; i++) {
        char w[400];
        int n = 0;
        if (gmb_backends[i]->count(&n, w, sizeof w) == GMB_OK && n > 0) {
            *out = gmb_backends[i];
            *ndev = n;
            return GMB_OK;
        }
        size_t l = strlen(all);
        snprintf(all + l, sizeof all - l, "%s%s", l ? "; " : "", w);
    }
    snprintf(why, whylen, "no usable device: %s", all[0] ? all : "no backend was built");
    return GMB_ESKIP;
}

json_t *gmb_json_device(const gmb_dev_info_t *d)
{
    json_t *j = json_pack(
        "{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:s, "
        "s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:s, s:b, s:s, s:s, s:f, s:s, s:s, s:s, s:s}",
        "backend", d->backend, "index", d->index, "name", d->name, "vendor", d->vendor, "type",
        d->type, "platform", d->platform, "driver_version", d->driver_version, "runtime_version",
        d->runtime_version, "arch", d->arch, "pci_bus_id", d->pci_bus_id, "mem_bytes",
        (json_int_t)d->mem_bytes, "max_alloc_bytes", (json_int_t)d->max_alloc_bytes, "llc_bytes",
        (json_int_t)d->llc_bytes, "local_mem_bytes", (json_int_t)d->local_mem_bytes,
        "local_mem_type", d->local_mem_type, "compute_units", d->compute_units, "max_group_size",
        d->max_group_size, "threads_per_cu", d->threads_per_cu, "warp_size", d->warp_size,
        "core_clock_MHz", d->core_clock_mhz, "mem_clock_MHz", d->mem_clock_mhz, "bus_width_bits",
        d->bus_width_bits, "peak_bw_GBps", d->peak_bw_gbps, "peak_bw_source", d->peak_source,
        "peak_bw_given", d->peak_given, "mem_type", d->mem_type, "ecc",
        d->ecc < 0 ? "unknown"
        : d->ecc   ? "on"
                   : "off",
        "timer_res_ns", d->timer_res_ns, "timer", d->timer, "managed_memory",
        d->managed[0] ? d->managed : "none", "serial", d->serial[0] ? d->serial : "unknown",
        "board_part_number", d->board_part[0] ? d->board_part : "unknown");
    if (j) /* where the device gives it (CUDA); null: none given (OpenCL has no such query) */
        json_object_set_new(j, "alloc_granularity_bytes",
                            d->alloc_granularity_bytes
                                ? json_integer((json_int_t)d->alloc_granularity_bytes)
                                : json_null());
    return j;
}

int gmb_print_devices(FILE *f)
{
    int found = 0, topo_tried = 0;
    gmb_numa_t *topo = NULL; /* one topology for every device's locality */
    fprintf(f, "%-7s %3s  %-36s %10s %5s %9s %8s %5s %10s %-15s %-7s\n", "backend", "idx", "name",
            "memory", "CUs", "core MHz", "mem MHz", "bus", "peak GB/s", "memory type", "ECC");
    for (int i = 0; gmb_backends[i]; i++) {
        const gmb_backend_t *be = gmb_backends[i];
        int n = 0;
        char why[400];
        if (be->count(&n, why, sizeof why) != GMB_OK) {
            fprintf(f, "%-7s   -  (%s)\n", be->kind->name, why);
            continue;
        }
        for (int k = 0; k < n; k++) {
            gmb_dev_info_t d;
            if (be->info(k, &d))
                continue;
            found = 1;
            char mem[32], peak[16] = "?", mc[16] = "?", bus[16] = "?";
            gmb_fmt_size(d.mem_bytes, mem, sizeof mem);
            if (d.peak_bw_gbps > 0)
                snprintf(peak, sizeof peak, "%.1f", d.peak_bw_gbps);
            if (d.mem_clock_mhz)
                snprintf(mc, sizeof mc, "%d", d.mem_clock_mhz);
            if (d.bus_width_bits)
                snprintf(bus, sizeof bus, "%d", d.bus_width_bits);
            fprintf(f, "%-7s %3d  %-36.36s %10s %5d %9d %8s %5s %10s %-15s %-7s\n", be->kind->name,
                    k, d.name, mem, d.compute_units, d.core_clock_mhz, mc, bus, peak, d.mem_type,
                    d.ecc < 0 ? "unknown"
                    : d.ecc   ? "on"
                              : "off");
            fprintf(f, "%-7s %3s  %s; %s; %s; peak = %s\n", "", "", d.type, d.platform,
                    d.driver_version, d.peak_source);
            if (d.board_part[0] || d.serial[0]) /* NVML: which board (revisions differ) */
                fprintf(f, "%-7s %3s  board %s, serial %s\n", "", "",
                        d.board_part[0] ? d.board_part : "unknown",
                        d.serial[0] ? d.serial : "unknown");
            gmb_locality_t loc; /* where the host side goes by default; one topology load */
            char tw[160];
            if (!topo && !topo_tried++)
                topo = gmb_numa_open(&d, tw, sizeof tw);
            gmb_numa_locality(topo, &d, &loc);
            if (strcmp(loc.source, "unknown"))
                fprintf(f, "%-7s %3s  near: NUMA %s, CPUs %s (%s)\n", "", "", loc.numa, loc.cpuset,
                        loc.note);
            else
                fprintf(f, "%-7s %3s  near: unknown (%s)\n", "", "", loc.note);
        }
    }
    gmb_numa_close(topo);
    return found ? GMB_OK : GMB_ESKIP;
}

int gmb_print_devices_json(FILE *f, FILE *err)
{
    json_t *all = json_array();
    gmb_numa_t *topo = NULL; /* one topology for every device's locality */
    int topo_tried = 0;
    for (int i = 0; all && gmb_backends[i]; i++) {
        const gmb_backend_t *be = gmb_backends[i];
        int n = 0;
        char why[400];
        if (be->count(&n, why, sizeof why) != GMB_OK) {
            fprintf(err, "gmb: %s: %s\n", be->kind->name, why);
            continue;
        }
        for (int k = 0; k < n; k++) {
            gmb_dev_info_t d;
            if (be->info(k, &d))
                continue;
            json_t *o = gmb_json_device(&d);
            gmb_locality_t loc;
            char tw[160];
            if (!topo && !topo_tried++)
                topo = gmb_numa_open(&d, tw, sizeof tw);
            gmb_numa_locality(topo, &d, &loc);
            if (o)
                json_object_set_new(o, "near",
                                    json_pack("{s:s, s:s, s:s, s:s}", "numa", loc.numa, "cpuset",
                                              loc.cpuset, "source", loc.source, "note", loc.note));
            if (!o || json_array_append_new(all, o)) {
                json_decref(all);
                all = NULL;
            }
        }
    }
    gmb_numa_close(topo);
    char *s = all ? json_dumps(all, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    size_t found = all ? json_array_size(all) : 0;
    json_decref(all);
    if (!s) {
        fputs("[]\n", f);
        fprintf(err, "gmb: out of memory\n");
        return GMB_ERUNTIME;
    }
    fprintf(f, "%s\n", s);
    free(s);
    if (!found)
        fprintf(err, "gmb: no device in any backend\n");
    return found ? GMB_OK : GMB_ESKIP;
}

int gmb_check_group_size(const gmb_ctx_t *c, long L)
{
    if (L && ((L & (L - 1)) || L > c->info.max_group_size)) {
        gmb_error("--group-size %ld: need a power of two <= %d (the device's maximum)", L,
                  c->info.max_group_size);
        return GMB_EUSAGE;
    }
    return GMB_OK;
}

void gmb_grid(const gmb_ctx_t *c, gmb_kern_t *k, long group_size, long groups_per_cu, uint64_t n,
              gmb_launch_t *g)
{
    long L = group_size;
    if (!L) {
        L = 256;
        while (L > c->info.max_group_size && L > 1)
            L /= 2;
    }
    long per_cu = groups_per_cu;
    if (!per_cu && strcmp(c->info.type, "cpu")) {
        int resident = 0; /* a kernel's registers can allow fewer groups than thread slots */
        if (k && c->be->kern_occupancy && c->be->kern_occupancy(k, (size_t)L, 0, &resident))
            resident = 0;
        int slots = c->info.threads_per_cu ? c->info.threads_per_cu : 2048;
        per_cu = resident > 0 ? resident : (slots / L > 0 ? slots / L : 1);
    } else if (!per_cu) {
        per_cu = 4;
    }
    if (per_cu > 1024)
        per_cu = 1024;
    uint64_t full = (uint64_t)c->info.compute_units * (uint64_t)per_cu;
    uint64_t need = (n + (uint64_t)L - 1) / (uint64_t)L;
    memset(g, 0, sizeof *g); /* no dynamic shared memory */
    g->group_size = (size_t)L;
    g->groups = (size_t)(need < full ? need : full);
    if (!g->groups)
        g->groups = 1;
}

void gmb_grid_pass(const gmb_ctx_t *c, long group_size, uint64_t per_item, uint64_t n,
                   gmb_launch_t *g)
{
    gmb_grid(c, NULL, group_size, 1, n, g);
    uint64_t per_group = (uint64_t)g->group_size * (per_item ? per_item : 1);
    g->groups = (size_t)((n + per_group - 1) / per_group);
    if (!g->groups)
        g->groups = 1;
}

/* ---- measurement ----------------------------------------------------------------------- */

int gmb_series_push(gmb_series_t *s, double ns)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        double *p = realloc(s->ns, cap * sizeof *p);
        if (!p)
            return GMB_ERUNTIME;
        s->ns = p;
        s->cap = cap;
    }
    s->ns[s->n++] = ns;
    return GMB_OK;
}

void gmb_series_free(gmb_series_t *s)
{
    free(s->ns);
    memset(s, 0, sizeof *s);
}

/* The measurement loop of k series (1 or 2), their samples taken in turn (0, 1, 0, 1, ...):
 * warm-up of each series not yet warmed, then until every series has converged, holds
 * max samples or would not converge (GMB_FUTILE_N), or the time cap has passed and each holds
 * at least 3. */
static int measure_k(gmb_ctx_t *c, gmb_sample_fn const *fn, void *const *arg, gmb_series_t **s,
                     int k)
{
    int rc;
    double ns;
    for (int q = 0; q < k; q++)
        for (long i = 0; !s[q]->warmed && i < c->o.warmup; i++)
            if ((rc = fn[q](arg[q], &ns)))
                return rc;
    /* NVML's times below the application clocks at both ends of the sampling: how much
     * of it ran capped (power, thermal, board limit), per point */
    long long v0[GMB_VIOL_KINDS], v1[GMB_VIOL_KINDS];
    unsigned sm = GMB_UNKNOWN;
    double q0 = gmb_now_ns();
    int clk = c->nvml && gmb_nvml_viol(c->info.pci_bus_id, v0, &sm);
    c->nvml_ms += (gmb_now_ns() - q0) / 1e6;
    double t0 = gmb_now_ns(), target = c->o.ci_target_pct / 100.0;
    size_t minn = (size_t)c->o.min_samples, maxn = (size_t)c->o.max_samples;
    if (maxn < minn)
        maxn = minn;
    int done[2] = {0, 0}, futile[2] = {0, 0};
    size_t fn_n = minn > GMB_FUTILE_N ? minn : GMB_FUTILE_N;
    for (;;) {
        int all = 1, few = 0;
        for (int q = 0; q < k; q++) {
            if (done[q])
                continue;
            if (gmb_stop_signal()) /* Ctrl-C or a deadline: the point is dropped, the rest kept */
                return GMB_EINTR;
            if ((rc = fn[q](arg[q], &ns)))
                return rc;
            if (!(ns > 0)) { /* below the timer's resolution: no number to defend */
                gmb_error("a timed sample took %g ns: raise the work per sample", ns);
                return GMB_ERUNTIME;
            }
            if ((rc = gmb_series_push(s[q], ns)))
                return rc;
            s[q]->wall_s = (gmb_now_ns() - t0) / 1e9;
            if (s[q]->n >= minn) {
                if ((rc = gmb_stats_compute(s[q]->ns, s[q]->n, minn, target, &s[q]->st)))
                    return rc;
                done[q] = s[q]->st.converged || s[q]->n >= maxn;
                if (!done[q] && s[q]->n >= fn_n && target > 0) {
                    double r = s[q]->st.ci_rel / target, need = (double)s[q]->n * r * r;
                    futile[q] = need > (double)maxn ||
                                need * s[q]->wall_s / (double)s[q]->n > c->o.time_cap_s;
                    done[q] = futile[q];
                }
            }
            all &= done[q];
            few |= s[q]->n < 3;
        }
        if (all || ((gmb_now_ns() - t0) / 1e9 > c->o.time_cap_s && !few))
            break;
    }
    q0 = gmb_now_ns();
    clk = clk && gmb_nvml_viol(c->info.pci_bus_id, v1, &sm);
    double now = gmb_now_ns();
    c->nvml_ms += (now - q0) / 1e6;
    /* a sweep must not wait on NVML: once its queries have taken 20 ms and 1% of the run,
     * the points after this one go without clocks */
    if (c->nvml && c->nvml_ms > 20 && c->nvml_ms > 0.01 * (now - c->t_run) / 1e6) {
        c->nvml = 0;
        c->nvml_stopped = 1;
    }
    /* the counters: one more sample of each series under the profiler, after the timing */
    for (int q = 0; c->o.counters && q < k; q++) {
        s[q]->cnt_taken = 1;
        if (!c->cnt) /* none to be had: null, and why */
            gmb_strlcpy(s[q]->cnt.why, c->cnt_why, sizeof s[q]->cnt.why);
        else if ((rc = gmb_counters_collect(c->cnt, fn[q], arg[q], &s[q]->cnt)))
            return rc;
    }
    for (int q = 0; q < k; q++) {
        if ((rc = gmb_stats_compute(s[q]->ns, s[q]->n, minn, target, &s[q]->st)))
            return rc;
        s[q]->stopped_by = s[q]->st.converged ? "converged"
                           : s[q]->n >= maxn  ? "max samples"
                           : futile[q]        ? "would not converge"
                                              : "time cap";
        s[q]->clk_known = clk;
        s[q]->sm_mhz = sm;
        for (int i = 0; i < GMB_VIOL_KINDS; i++) /* a pair's series share one interval */
            s[q]->capped_ms[i] =
                clk && v0[i] >= 0 && v1[i] >= v0[i] ? (double)(v1[i] - v0[i]) / 1e6 : -1;
    }
    return GMB_OK;
}

int gmb_measure(gmb_ctx_t *c, gmb_sample_fn fn, void *arg, gmb_series_t *s)
{
    return measure_k(c, &fn, &arg, &s, 1);
}

int gmb_measure_pair(gmb_ctx_t *c, gmb_sample_fn fa, void *a, gmb_series_t *sa, gmb_sample_fn fb,
                     void *b, gmb_series_t *sb)
{
    gmb_sample_fn fn[2] = {fa, fb};
    void *arg[2] = {a, b};
    gmb_series_t *s[2] = {sa, sb};
    return measure_k(c, fn, arg, s, 2);
}

json_t *gmb_json_rate_of(const gmb_ctx_t *c, const double *ns, size_t n, size_t stride,
                         double bytes)
{
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return json_null();
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(ns[i * stride]))
            x[k++] = ns[i * stride];
    gmb_stats_t st;
    json_t *r = json_null();
    if (k && !gmb_stats_compute(x, k, (size_t)c->o.min_samples, c->o.ci_target_pct / 100.0, &st))
        r = gmb_json_rate(bytes, &st);
    free(x);
    return r;
}

/* The point's clocks: SM clock at its end, how long NVML says the GPU was held below its
 * application clocks while it was sampled, by limit, and the largest share of that time */
static json_t *point_clocks(const gmb_series_t *s)
{
    static const char *const names[GMB_VIOL_KINDS] = GMB_VIOL_NAMES;
    json_t *k = json_pack("{s:o, s:f}", "sm_MHz",
                          s->sm_mhz == GMB_UNKNOWN ? json_null() : json_integer(s->sm_mhz),
                          "wall_s", s->wall_s);
    double most = -1;
    for (int i = 0; i < GMB_VIOL_KINDS; i++) {
        char key[48];
        snprintf(key, sizeof key, "%s_capped_ms", names[i]);
        double ms = s->capped_ms[i];
        json_object_set_new(k, key, ms >= 0 ? json_real(ms) : json_null());
        if (ms >= 0 && s->wall_s > 0 && ms / (s->wall_s * 1e3) > most)
            most = ms / (s->wall_s * 1e3);
    }
    json_object_set_new(k, "capped_share", most >= 0 ? json_real(most) : json_null());
    return k;
}

json_t *gmb_point_new(json_t *params, const gmb_series_t *s)
{
    json_t *samples = json_array();
    for (size_t i = 0; i < s->n; i++)
        json_array_append_new(samples, json_real(s->ns[i]));
    json_t *pt = json_pack("{s:o, s:{}, s:o, s:o, s:{}}", "params", params, "metrics", "time_ns",
                           gmb_json_stats(&s->st), "samples_ns", samples, "extra");
    if (pt && s->stopped_by)
        json_object_set_new(json_object_get(pt, "time_ns"), "stopped_by",
                            json_string(s->stopped_by));
    if (pt && s->clk_known)
        json_object_set_new(pt, "clocks", point_clocks(s));
    if (pt && s->cnt_taken) {
        json_object_set_new(pt, "counters", gmb_counters_json(&s->cnt));
        if (!s->cnt.ok)
            json_object_set_new(pt, "counters_why", json_string(s->cnt.why));
    }
    return pt;
}

void gmb_point_metric(json_t *point, const char *name, json_t *value)
{
    json_object_set_new(json_object_get(point, "metrics"), name, value);
}

void gmb_point_rate(const gmb_ctx_t *c, json_t *point, const char *name, const double *ns, size_t n,
                    size_t stride, double bytes)
{
    gmb_point_metric(point, name, gmb_json_rate_of(c, ns, n, stride, bytes));
    double *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return;
    for (size_t i = 0; i < n; i++) /* NaN (no time) and 0 stay out */
        r[i] = ns[i * stride] > 0 ? bytes / ns[i * stride] : NAN;
    gmb_point_metric_samples(point, name, r, n);
    free(r);
}

void gmb_point_metric_samples(json_t *point, const char *name, const double *v, size_t n)
{
    json_t *ms = json_object_get(point, "metric_samples"), *a = json_array();
    if (!ms) {
        ms = json_object();
        json_object_set_new(point, "metric_samples", ms);
    }
    for (size_t i = 0; i < n; i++)
        if (v[i] == v[i])
            json_array_append_new(a, json_real(v[i]));
    json_object_set_new(ms, name, a);
}

void gmb_add_point(gmb_ctx_t *c, json_t *point)
{
    json_array_append_new(c->points, point);
}

void gmb_declare_metric(gmb_ctx_t *c, const char *name, const char *unit, const char *better,
                        const char *desc)
{
    json_object_set_new(json_object_get(c->record, "metrics"), name,
                        json_pack("{s:s, s:s, s:s}", "unit", unit, "better", better, "desc", desc));
}

void gmb_add_result(gmb_ctx_t *c, const char *key, json_t *value)
{
    json_object_set_new(json_object_get(c->record, "results"), key, value);
}

static json_t *json_num_or_null(double v)
{
    return v == v ? json_real(v) : json_null();
}

void gmb_headline(gmb_ctx_t *c, const gmb_headline_t *h)
{
    if (!h->text && h->value != h->value)
        return;
    json_t *hl = json_object_get(c->record, "headlines");
    if (!hl) {
        hl = json_pack("{s:i, s:[]}", "version", GMB_HEADLINES_VERSION, "figures");
        json_object_set_new(c->record, "headlines", hl);
    }
    json_t *f = json_pack("{s:s, s:s}", "label", h->label, "unit", h->unit);
    if (h->text)
        json_object_set_new(f, "text", json_string(h->text));
    else {
        json_object_set_new(f, "better", json_string(h->higher ? "higher" : "lower"));
        json_object_set_new(f, "value", json_real(h->value));
        json_object_set_new(f, "ci_lo", json_num_or_null(h->ci_lo));
        json_object_set_new(f, "ci_hi", json_num_or_null(h->ci_hi));
    }
    /* the points by index; whether half or more of them did not converge */
    json_t *pts = json_array();
    size_t npts = 0, nunc = 0;
    for (size_t k = 0; k < h->npoints; k++) {
        size_t i;
        json_t *p;
        json_array_foreach(c->points, i, p)
        {
            if (p != h->points[k])
                continue;
            json_array_append_new(pts, json_integer((json_int_t)i));
            const json_t *cv = json_object_get(json_object_get(p, "time_ns"), "converged");
            if (json_is_boolean(cv)) {
                npts++;
                nunc += !json_is_true(cv);
            }
            break;
        }
    }
    json_object_set_new(f, "points", pts);
    unsigned notes = h->notes & ~(unsigned)GMB_HL_UNCONVERGED;
    if (nunc > 0 && 2 * nunc >= npts)
        notes |= GMB_HL_UNCONVERGED;
    json_t *nj = json_array();
    for (size_t k = 0; gmb_headline_notes[k].name; k++)
        if (notes & gmb_headline_notes[k].bit)
            json_array_append_new(nj, json_string(gmb_headline_notes[k].name));
    json_object_set_new(f, "notes", nj);
    if (h->level)
        json_object_set_new(f, "level",
                            json_pack("{s:s, s:s}", "name", h->level, "how", h->how ? h->how : ""));
    if (h->quantity && !h->text)
        json_object_set_new(f, "check",
                            json_pack("{s:s, s:s, s:f}", "quantity", h->quantity, "source",
                                      h->source ? h->source : h->label, "value",
                                      (h->scale ? h->scale : 1) * h->value));
    json_array_append_new(json_object_get(hl, "figures"), f);
}

size_t gmb_points_where(const gmb_ctx_t *c, const json_t **out, size_t max, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *want = json_vpack_ex(NULL, 0, fmt, ap);
    va_end(ap);
    size_t n = 0, i;
    const json_t *p;
    if (json_is_object(want))
        json_array_foreach(c->points, i, p)
        {
            const json_t *pa = json_object_get(p, "params");
            const char *k;
            const json_t *v;
            int all = n < max;
            json_object_foreach((json_t *)want, k, v) all =
                all && json_equal(json_object_get(pa, k), v);
            if (all)
                out[n++] = p;
        }
    json_decref(want);
    return n;
}

void gmb_summary(gmb_ctx_t *c, const char *prefix, const char *label, const char *text,
                 const char *none_text)
{
    const char *t = text && *text ? text : none_text;
    printf("%s%s\n", prefix, t);
    fflush(stdout);
    json_t *res = json_object_get(c->record, "results");
    const char *old = json_string_value(json_object_get(res, "summary"));
    label = label ? label : "";
    size_t n = (old ? strlen(old) + 1 : 0) + strlen(label) + strlen(t) + 1;
    char *all = malloc(n);
    if (all) {
        snprintf(all, n, "%s%s%s%s", old ? old : "", old ? " " : "", label, t);
        json_object_set_new(res, "summary", json_string(all));
        free(all);
    }
}

/* ---- the record skeleton --------------------------------------------------------------- */

static json_t *json_clocks(const gmb_clocks_t *k)
{
    if (!k->available)
        return json_pack("{s:b, s:s}", "available", 0, "reason", k->why);
    char names[256];
    gmb_throttle_names(k->throttle, names, sizeof names);
#define KNOWN(v) ((v) == GMB_UNKNOWN ? json_null() : json_integer((json_int_t)(v)))
    return json_pack("{s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "available", 1, "sm_MHz",
                     KNOWN(k->sm_mhz), "mem_MHz", KNOWN(k->mem_mhz), "sm_max_MHz",
                     KNOWN(k->sm_max_mhz), "temp_C", KNOWN(k->temp_c), "power_W",
                     k->power_w < 0 ? json_null() : json_real(k->power_w), "throttle_bits",
                     k->throttle_known ? json_integer((json_int_t)k->throttle) : json_null(),
                     "throttle_reasons", k->throttle_known ? json_string(names) : json_null());
#undef KNOWN
}

/* The GPU's other users before the run; a note on stderr when there were any (a process
 * with a compute context on it, or a kernel running for over 5% of NVML's last sample) */
static json_t *json_busy(const gmb_busy_t *b)
{
    if (!b->available)
        return json_pack("{s:b, s:s}", "available", 0, "reason", b->why);
#define KNOWN(v) ((v) < 0 ? json_null() : json_integer(v))
    json_t *j =
        json_pack("{s:b, s:o, s:o, s:o}", "available", 1, "compute_processes", KNOWN(b->procs),
                  "gpu_util_pct", KNOWN(b->util_gpu), "mem_util_pct", KNOWN(b->util_mem));
#undef KNOWN
    const char *prev = getenv(GMB_AFTER_PROGRAM_ENV); /* gmb run's previous program */
    int after = prev && prev[0];
    if (after)
        json_object_set_new(j, "after_gmb_program", json_string(prev));
    char who[128] = "";
    if (b->procs > 0)
        snprintf(who, sizeof who, "%d compute process%s on it", b->procs,
                 b->procs == 1 ? "" : "es");
    if (b->util_gpu > GMB_BUSY_UTIL_PCT && !after)
        snprintf(who + strlen(who), sizeof who - strlen(who),
                 "%skernels running %d%% of NVML's last sample", who[0] ? ", " : "", b->util_gpu);
    if (gmb_busy_in_use(b->procs, b->util_gpu, after))
        gmb_warn("the GPU was in use before this run (%s): its numbers may be shared with "
                 "another program's",
                 who);
    return j;
}

/* What happened between two snapshots: how long the GPU was held below its application
 * clocks by power, thermal and board limits during the run (NVML's cumulative violation
 * times), under clocks.during; a note on stderr when that is more than 1% of the run. */
void gmb_json_clocks_during(json_t *clocks, const gmb_clocks_t *a, const gmb_clocks_t *b,
                            double wall_s)
{
    if (!a->available || !b->available)
        return;
    static const char *const names[GMB_VIOL_KINDS] = GMB_VIOL_NAMES;
    json_t *d = json_pack("{s:f}", "wall_s", wall_s);
    for (int i = 0; i < GMB_VIOL_KINDS; i++) {
        char key[48];
        snprintf(key, sizeof key, "%s_capped_ms", names[i]);
        int known = a->viol_ns[i] >= 0 && b->viol_ns[i] >= a->viol_ns[i];
        double ms = known ? (double)(b->viol_ns[i] - a->viol_ns[i]) / 1e6 : 0;
        json_object_set_new(d, key, known ? json_real(ms) : json_null());
        if (known && wall_s > 0 && ms > 10.0 * wall_s) /* > 1% of the run */
            gmb_warn("the GPU was held below its application clocks by its %s limit for %.0f ms "
                     "of this %.1f s run: its numbers are not at full clocks",
                     names[i], ms, wall_s);
    }
    json_object_set_new(clocks, "during", d);
}

/* Points sampled while NVML says the GPU was held below its application clocks for more
 * than 1% of the time: counted under clocks.during (points_clocked: those with clocks), and
 * a note on stderr naming the first one. */
static void points_capped(gmb_ctx_t *c)
{
    json_t *during = json_object_get(json_object_get(c->record, "clocks"), "during");
    if (!during)
        return;
    size_t i, clocked = 0, capped = 0, first = 0;
    json_t *pt;
    json_array_foreach(c->points, i, pt)
    {
        json_t *k = json_object_get(pt, "clocks");
        if (!k)
            continue;
        clocked++;
        if (json_number_value(json_object_get(k, "capped_share")) > 0.01 && !capped++)
            first = i;
    }
    json_object_set_new(during, "points_clocked", json_integer((json_int_t)clocked));
    json_object_set_new(during, "points_capped", json_integer((json_int_t)capped));
    json_object_set_new(during, "points_nvml_ms", json_real(c->nvml_ms));
    if (c->nvml_stopped)
        json_object_set_new(during, "points_stopped",
                            json_string("NVML's answers took more than 1% of the run: the "
                                        "points after the last with clocks have none"));
    if (capped)
        gmb_warn("%zu of %zu points were measured while the GPU was held below its application "
                 "clocks for more than 1%% of their time (the first: point %zu); each point's "
                 "clocks say by which limit and how long",
                 capped, clocked, first);
}

static json_t *json_options(const gmb_opt_t *table, const void *cfg)
{
    json_t *o = json_object();
    for (const gmb_opt_t *t = table; t && t->name; t++) {
        const char *p = (const char *)cfg + t->offset;
        json_t *v = NULL;
        switch (t->type) {
        case GMB_OPT_FLAG:
            v = json_boolean(*(const int *)p);
            break;
        case GMB_OPT_INT:
            v = json_integer(*(const long *)p);
            break;
        case GMB_OPT_DOUBLE:
            v = json_real(*(const double *)p);
            break;
        case GMB_OPT_SIZE:
            v = json_integer((json_int_t) * (const uint64_t *)p);
            break;
        case GMB_OPT_STR:
            v = *(const char *const *)p ? json_string(*(const char *const *)p) : json_null();
            break;
        case GMB_OPT_SWEEP: {
            const gmb_sweep_t *sw = (const gmb_sweep_t *)p;
            v = json_array();
            for (size_t i = 0; i < sw->n; i++)
                json_array_append_new(v, json_integer((json_int_t)sw->v[i]));
            break;
        }
        case GMB_OPT_LIST: {
            const gmb_list_t *l = (const gmb_list_t *)p;
            v = json_array();
            for (size_t i = 0; i < l->n; i++)
                json_array_append_new(v, json_string(t->choices[l->idx[i]]));
            break;
        }
        case GMB_OPT_INTS: { /* the values; a word as itself */
            const gmb_ints_t *l = (const gmb_ints_t *)p;
            v = json_array();
            for (size_t i = 0; i < l->n; i++)
                json_array_append_new(v, l->v[i] >= 0 ? json_integer((json_int_t)l->v[i])
                                                      : json_string(t->choices[-1 - l->v[i]]));
            break;
        }
        }
        json_object_set_new(o, t->name, v);
    }
    return o;
}

static json_t *record_new(gmb_ctx_t *c, const char *iso)
{
    gmb_host_t h;
    gmb_locality_t loc;
    gmb_host_get(&h);
    gmb_numa_locality(c->numa, &c->info, &loc);
    json_t *cmd = json_array();
    for (int i = 0; i < c->argc; i++)
        json_array_append_new(cmd, json_string(c->argv[i]));
    json_t *r = json_pack(
        "{s:s, s:i, s:{s:s, s:s}, s:s, s:o, s:s, s:{s:s, s:s, s:s, s:i}, s:s, s:o, "
        "s:{s:s, s:s, s:s, s:s, s:s}, s:{}, s:{}, s:[], s:{}, s:s}",
        "schema", GMB_RECORD_SCHEMA, "schema_version", GMB_RECORD_SCHEMA_VERSION, "gmb", "version",
        GMB_VERSION, "git", gmb_git_rev, "benchmark", c->bench->name, "command", cmd, "time_utc",
        iso, "host", "name", h.name, "os", h.os, "cpu", h.cpu, "cpus", h.cpus, "backend",
        c->be->kind->name, "device", gmb_json_device(&c->info), "locality", "source", loc.source,
        "numa_nodes", loc.numa, "cpuset", loc.cpuset, "note", loc.note, "host_binding",
        c->host_binding, "clocks", "metrics", "points", "results", "status", "running");
    if (r) {
        json_object_set_new(r, "options", json_options(c->bench->opts, c->cfg));
        json_object_set_new(r, "measurement",
                            json_pack("{s:I, s:I, s:I, s:f, s:f, s:I, s:s}", "warmup",
                                      (json_int_t)c->o.warmup, "min_samples",
                                      (json_int_t)c->o.min_samples, "max_samples",
                                      (json_int_t)c->o.max_samples, "ci_target_pct",
                                      c->o.ci_target_pct, "time_cap_s", c->o.time_cap_s, "seed",
                                      (json_int_t)c->o.seed, "timer", c->info.timer));
    }
    return r;
}

/* --counters: the profiling session, and what the record says of it (its reason, once on
 * stderr, where there is none: the points then carry no counters and nothing else changes) */
static void counters_open(gmb_ctx_t *c)
{
    void *ctx = NULL;
    int ord = 0;
    char bwhy[200] = "", why[256] = "";
    int brc = c->be->profiler_ctx ? c->be->profiler_ctx(c->dev, &ctx, &ord, bwhy, sizeof bwhy)
                                  : GMB_ESKIP;
    if (!c->be->profiler_ctx)
        snprintf(bwhy, sizeof bwhy, "%s: no profiler context", c->be->kind->label);
    int rc = gmb_counters_open(brc ? NULL : ctx, ord < 0 ? 0 : ord, bwhy, &c->cnt, why, sizeof why);
    json_t *m = json_object_get(c->record, "measurement");
    if (rc) {
        const char *r = why;
        gmb_warn("counters: none: %s", r);
        gmb_strlcpy(c->cnt_why, r, sizeof c->cnt_why);
        json_object_set_new(
            m, "counters",
            json_pack("{s:b, s:b, s:s}", "requested", 1, "available", 0, "reason", r));
        return;
    }
    json_t *d = gmb_counters_describe(c->cnt);
    json_object_set_new(d, "requested", json_true());
    json_object_set_new(m, "counters", d);
}

/* ---- main ------------------------------------------------------------------------------ */

static int parse_args(gmb_ctx_t *c, int argc, char **argv)
{
    const gmb_opt_set_t sets[] = {{c->bench->opts, c->cfg}, {common_opts, &c->o}};
    int first, rc = gmb_opt_parse(sets, 2, argc, argv, "--help", &first);
    if (!rc && first < argc) {
        gmb_error("unexpected argument '%s' (see --help)", argv[first]);
        rc = GMB_EUSAGE;
    }
    return rc;
}

/* Whether a record can be written under dir (--out, or the default when dflt): 0, or the
 * error said. */
static int out_check(const char *dir, int dflt)
{
    char why[1024];
    int rc = gmb_out_check(dir, why, sizeof why);
    if (rc)
        gmb_error("%s%s", why, dflt ? " (the default --out: give --out DIR, or --no-record)" : "");
    return rc;
}

int gmb_main(const gmb_bench_t *b, int argc, char **argv)
{
    static char prog[64];
    snprintf(prog, sizeof prog, "gmb-%s", b->name);
    gmb_progname = prog;
    gmb_stdout_init(); /* a write to standard output that failed is an error at exit */
    setvbuf(stdout, NULL, _IOLBF, 0); /* point rows reach a pipe (gmb run) as measured */
    gmb_ctx_t c = {0};
    c.bench = b;
    c.argc = argc;
    c.argv = argv;
    c.cfg = calloc(1, b->cfg_size ? b->cfg_size : 1);
    if (!c.cfg)
        return 3;
    char err[768], why[1024];
    int rc = gmb_opt_defaults(common_opts, &c.o, err, sizeof err);
    if (!rc)
        rc = gmb_opt_defaults(b->opts, c.cfg, err, sizeof err);
    if (rc) {
        gmb_error("bad option table: %s", err);
        free(c.cfg);
        return 3;
    }
    if ((rc = parse_args(&c, argc, argv)))
        goto out;
    gmb_quiet = c.o.quiet;
    if (c.o.help) {
        usage(b, stdout);
        goto out;
    }
    if (c.o.version) {
        printf("gmb-%s %s (git %s)\n", b->name, GMB_VERSION, gmb_git_rev);
        goto out;
    }
    if (c.o.man) {
        man_page(b, stdout);
        goto out;
    }
    /* --out -: the record's JSON is all that reaches standard output; what the program
     * prints there (point rows, the summary) goes to standard error */
    int json_fd = -1;
    if (c.o.out && !strcmp(c.o.out, "-")) {
        if (c.o.no_record) {
            gmb_error("--out - writes the record to standard output; --no-record writes none");
            rc = GMB_EUSAGE;
            goto out;
        }
        fflush(stdout);
        if ((json_fd = dup(STDOUT_FILENO)) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
            gmb_error("--out -: cannot redirect standard output: %s", strerror(errno));
            rc = GMB_ERUNTIME;
            goto out;
        }
    }
    if (c.o.summary) {
        printf("%-10s %s\n", b->name, b->summary);
        goto out;
    }
    if (c.o.list_devices) {
        gmb_print_devices(stdout);
        goto out;
    }
    /* a record that could not be written is known now, not after the measurement: --out, or
     * the default results/<device> (here where results/ goes, below once the device is named) */
    if (json_fd < 0 && !c.o.no_record && (rc = out_check(c.o.out ? c.o.out : "results", !c.o.out)))
        goto out;
    int ndev = 0;
    rc = gmb_pick_backend(c.o.backend, &c.be, &ndev, why, sizeof why);
    if (rc == GMB_ESKIP) {
        gmb_skip("%s", why);
        goto out;
    }
    if (rc) {
        gmb_error("%s", why);
        goto out;
    }
    if (c.o.device >= ndev) {
        gmb_error("--device %ld does not exist: %s has %d device%s (0..%d; see --list-devices)",
                  c.o.device, c.be->kind->name, ndev, ndev == 1 ? "" : "s", ndev - 1);
        rc = GMB_EUSAGE;
        goto out;
    }
    if ((rc = c.be->info((int)c.o.device, &c.info)))
        goto out;
    if (json_fd < 0 && !c.o.no_record && !c.o.out) {
        char slug[96], dir[160];
        gmb_slug(c.info.name, slug, sizeof slug);
        snprintf(dir, sizeof dir, "results/%s", slug);
        if ((rc = out_check(dir, 1)))
            goto out;
    }
    if (c.o.peak_bw > 0)
        gmb_dev_info_give_peak(&c.info, c.o.peak_bw);
    /* test aid: the PCI bus id NVML is asked about for a device without one (with a stand-in
     * NVML through GMB_NVML_LIB, the NVML paths run on PoCL) */
    const char *tp = getenv("GMB_TEST_NVML_PCI");
    if (tp && *tp && !c.info.pci_bus_id[0]) {
        gmb_strlcpy(c.info.pci_bus_id, tp, sizeof c.info.pci_bus_id);
        gmb_warn("test aid GMB_TEST_NVML_PCI: NVML is asked about %s for this device", tp);
        gmb_dev_info_t nvi = c.info; /* the board NVML names, as on a GPU; nothing else */
        if (gmb_nvml_fill_info(&nvi) == GMB_OK) {
            gmb_strlcpy(c.info.serial, nvi.serial, sizeof c.info.serial);
            gmb_strlcpy(c.info.board_part, nvi.board_part, sizeof c.info.board_part);
        }
    }
    /* the host side near the device before its context and queues are made, so the threads
     * and host memory they make start there too (the runtime itself started earlier, to
     * list the devices) */
    char nwhy[160];
    const char *tt = getenv("GMB_TEST_TOPOLOGY");
    if (tt && *tt)
        gmb_warn("test aid GMB_TEST_TOPOLOGY: hwloc takes %s for this machine", tt);
    c.numa = gmb_numa_open(&c.info, nwhy, sizeof nwhy);
    if (c.numa)
        gmb_numa_home(c.numa, c.host_binding, sizeof c.host_binding);
    else
        snprintf(c.host_binding, sizeof c.host_binding, "not bound: %s", nwhy);
    /* who else uses the GPU, asked before this program has a context on it */
    gmb_busy_t busy;
    gmb_nvml_busy(c.info.pci_bus_id, &busy);
    if ((rc = c.be->open((int)c.o.device, &c.dev)) || (b->check && (rc = b->check(&c))))
        goto out;
    char iso[32], stamp[32];
    gmb_utc_now(iso, sizeof iso, stamp, sizeof stamp);
    c.record = record_new(&c, iso);
    if (!c.record) {
        gmb_error("cannot build the record");
        rc = GMB_ERUNTIME;
        goto out;
    }
    json_object_set_new(c.record, "busy_before", json_busy(&busy));
    if (c.o.counters)
        counters_open(&c);
    c.points = json_object_get(c.record, "points");
    gmb_clocks_t k0, k;
    gmb_nvml_clocks(c.info.pci_bus_id, &k0);
    json_object_set_new(json_object_get(c.record, "clocks"), "before", json_clocks(&k0));
    c.nvml = k0.available;
    double t_run = gmb_now_ns();
    c.t_run = t_run;

    gmb_catch_stop(); /* Ctrl-C, gmb run's deadline: keep the points measured so far */
    rc = b->run(&c);
    if (gmb_stop_signal() && rc != GMB_EVERIFY) /* however the benchmark ended after it */
        rc = GMB_EINTR;
    if (rc == GMB_OK && !json_array_size(c.points)) {
        /* every part asked for was skipped: a skip, not a success; the first reason goes on
         * this line too (gmb run keeps the last stderr line as the program's reason) */
        const json_t *sk = json_object_get(json_object_get(c.record, "results"), "skipped");
        const char *why1 = json_string_value(json_object_get(json_array_get(sk, 0), "reason"));
        gmb_skip("nothing measured: every part asked for was skipped%s%s", why1 ? "; first: " : "",
                 why1 ? why1 : " (the reasons are above)");
        rc = GMB_ESKIP;
    }

    gmb_nvml_clocks(c.info.pci_bus_id, &k);
    json_object_set_new(json_object_get(c.record, "clocks"), "after", json_clocks(&k));
    gmb_json_clocks_during(json_object_get(c.record, "clocks"), &k0, &k,
                           (gmb_now_ns() - t_run) / 1e9);
    points_capped(&c);
    /* options as run, defaults the benchmark derived from the device included */
    json_object_set_new(c.record, "options", json_options(b->opts, c.cfg));
    json_object_set_new(c.record, "status",
                        json_string(rc == GMB_OK        ? "ok"
                                    : rc == GMB_EVERIFY ? "verification_failed"
                                    : rc == GMB_EINTR   ? "interrupted"
                                                        : "error"));
    if (rc == GMB_EINTR)
        json_object_set_new(c.record, "interrupted_by",
                            json_string(gmb_signal_name(gmb_stop_signal())));
    /* a run that measured something is kept, failed verifications and interrupted runs too
     * (every point in it was finished and verified) */
    if ((rc == GMB_OK || rc == GMB_EVERIFY || rc == GMB_EINTR) && !c.o.no_record &&
        json_array_size(c.points) > 0) {
        char dir[4096], slug[96], stem[128], outp[4200];
        gmb_slug(c.info.name, slug, sizeof slug);
        if (json_fd >= 0) {
            fflush(stdout);
            char *js = json_dumps(c.record, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
            size_t jl = js ? strlen(js) : 0, off = 0;
            while (js && off < jl) {
                ssize_t w = write(json_fd, js + off, jl - off);
                if (w <= 0 && errno != EINTR)
                    break;
                off += w > 0 ? (size_t)w : 0;
            }
            int bad = !js || off < jl || write(json_fd, "\n", 1) != 1;
            free(js);
            if (bad) {
                gmb_error("--out -: cannot write the record to standard output");
                rc = rc ? rc : GMB_ERUNTIME;
            }
        } else {
            if (c.o.out)
                gmb_strlcpy(dir, c.o.out, sizeof dir);
            else
                snprintf(dir, sizeof dir, "results/%s", slug);
            snprintf(stem, sizeof stem, "%s-%s", stamp, b->name);
            int wrc = gmb_record_write(c.record, dir, stem, outp, sizeof outp);
            if (wrc)
                rc = rc ? rc : wrc;
            else
                gmb_info("record: %s.json and .csv", outp);
        }
    }
    if (rc == GMB_EINTR)
        gmb_error("interrupted by %s: %zu finished point%s %s", strsignal(gmb_stop_signal()),
                  json_array_size(c.points), json_array_size(c.points) == 1 ? "" : "s",
                  c.o.no_record || !json_array_size(c.points) ? "(no record)"
                                                              : "kept in the record");
out:
    gmb_counters_close(c.cnt);
    if (c.dev)
        c.be->close(c.dev);
    gmb_numa_close(c.numa);
    json_decref(c.record);
    free(c.cfg);
    return gmb_stdout_done(gmb_exit_code(rc));
}
