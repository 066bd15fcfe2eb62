/* test_report.c - unit tests of what gmb table and compare compute from records: paths,
 * device labels, row extraction, number formatting, Markdown/LaTeX/CSV rendering, metric
 * samples and the per-point comparison. Records are built in memory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmb.h"
#include "harness.h"
#include "json.h"
#include "tools/runset.h"
#include "tools/table.h"
#include "tools/crosscheck.h"
#include "tools/compare.h"

#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (a), b_ = (b);                                                                 \
        if (!(fabs(a_ - b_) <= (tol)))                                                             \
            fail_msg("%s = %.17g, want %.17g (tolerance %g)", #a, a_, b_, (double)(tol));          \
    } while (0)

/* A stream record of one device with read (DRAM point) and copy (cache only). */
static json_t *stream_rec(const char *name, double peak, double read_bw)
{
    char txt[4096];
    snprintf(txt, sizeof txt,
             "{\"schema\":\"gmb-record\",\"schema_version\":1,\"benchmark\":\"stream\","
             "\"backend\":\"cuda\",\"time_utc\":\"2026-01-01T00:00:00Z\","
             "\"device\":{\"name\":\"%s\",\"backend\":\"cuda\",\"type\":\"gpu\","
             "\"platform\":\"CUDA\",\"mem_bytes\":85899345920,\"mem_type\":\"HBM\","
             "\"bus_width_bits\":5120,\"peak_bw_GBps\":%g,\"peak_bw_source\":\"x\"},"
             "\"metrics\":{\"bw_GBps\":{\"unit\":\"GB/s\",\"better\":\"higher\",\"desc\":\"\"}},"
             "\"points\":["
             "{\"params\":{\"kernel\":\"read\",\"width_bytes\":16,\"size_bytes\":1073741824,"
             "\"reps\":1},\"metrics\":{\"bw_GBps\":{\"median\":%g,\"ci_lo\":%g,\"ci_hi\":%g,"
             "\"min\":1,\"max\":9999,\"mean\":1}}},"
             "{\"params\":{\"kernel\":\"copy\",\"width_bytes\":16,\"size_bytes\":4096,"
             "\"reps\":7},\"metrics\":{\"bw_GBps\":{\"median\":12.5,\"ci_lo\":12,\"ci_hi\":13,"
             "\"min\":1,\"max\":99,\"mean\":1}}}],"
             "\"results\":{\"best\":{\"read\":{\"bw_GBps\":%g,\"width_bytes\":16,"
             "\"size_bytes\":1073741824,\"dram\":true},\"copy\":{\"bw_GBps\":12.5,"
             "\"width_bytes\":16,\"size_bytes\":4096,\"dram\":false}}}}",
             name, peak, read_bw, read_bw - 1, read_bw + 1, read_bw);
    json_error_t e;
    json_t *r = json_loads(txt, 0, &e);
    if (!r)
        fail_msg("bad test JSON: %s", e.text);
    return r;
}

static void test_jpath(void **state)
{
    (void)state;
    json_t *j = json_loads("{\"a\":{\"b\":[{\"c\":3},{\"c\":4.5}]},\"s\":\"x\"}", 0, NULL);
    assert_near(gmb_jnum(j, "a.b.1.c"), 4.5, 0);
    assert_near(gmb_jnum(j, "a.b.0.c"), 3, 0);
    assert_true(isnan(gmb_jnum(j, "a.b.2.c")));
    assert_true(isnan(gmb_jnum(j, "s")));
    assert_null(gmb_jpath(j, "a.x"));
    json_decref(j);
}

static void test_device_label(void **state)
{
    (void)state;
    char out[192];
    json_t *d = json_loads("{\"name\":\"pthread-skylake-avx512-Intel(R) Xeon(R) Processor\","
                           "\"platform\":\"Portable Computing Language\",\"type\":\"cpu\"}",
                           0, NULL);
    gmb_device_label(d, "opencl", out, sizeof out);
    assert_string_equal(out, "Intel Xeon Processor (PoCL CPU)");
    json_decref(d);
    d = json_loads("{\"name\":\"NVIDIA H200\",\"platform\":\"CUDA\",\"type\":\"gpu\"}", 0, NULL);
    gmb_device_label(d, "cuda", out, sizeof out);
    assert_string_equal(out, "NVIDIA H200 (CUDA)");
    gmb_device_label(d, "opencl", out, sizeof out);
    assert_string_equal(out, "NVIDIA H200 (OpenCL)");
    json_decref(d);
}

static void test_fmt_num(void **state)
{
    (void)state;
    char b[32];
    const struct {
        double v;
        const char *want;
    } c[] = {{3912.4, "3912"},   {180.62, "180.6"}, {1.70226, "1.702"},   {0.019403, "0.01940"},
             {12345.6, "12346"}, {0, "0"},          {-0.4408, "-0.4408"}, {1e-9, "0.000000"},
             {99.99, "99.99"},   {100.04, "100.0"}, {INFINITY, "inf"},    {-INFINITY, "-inf"},
             {NAN, "nan"}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        gmb_fmt_num(c[i].v, b, sizeof b);
        assert_string_equal(b, c[i].want);
    }
}

/* Two runs: rows, cells, notes, the rows no run has are left out. */
static void test_table_rows(void **state)
{
    (void)state;
    gmb_runset_t rs = {0};
    assert_int_equal(gmb_runset_add(&rs, stream_rec("NVIDIA H200", 4800, 4000), "a/s.json", "a"),
                     0);
    assert_int_equal(gmb_runset_add(&rs, stream_rec("NVIDIA H100", 3350, 3000), "b/s.json", "b"),
                     0);
    gmb_runset_label(&rs);
    assert_string_equal(rs.runs[0].label, "NVIDIA H200 (CUDA)");
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    assert_int_equal(t.ncols, 2);
    /* memory, size, peak, read, copy (no pct_peak metric: those rows are left out) */
    assert_int_equal(t.nrows, 5);
    assert_string_equal(t.rows[0]->label, "Memory type, bus width");
    assert_string_equal(t.cells[0].text, "HBM, 5120-bit");
    assert_near(t.cells[1 * 2 + 0].v, 80.0, 1e-12);   /* 80 GiB */
    assert_near(t.cells[2 * 2 + 1].v, 3350.0, 1e-12); /* peak of the second */
    assert_string_equal(t.rows[3]->label, "Read bandwidth");
    assert_near(t.cells[3 * 2 + 0].v, 4000, 0);
    assert_near(t.cells[3 * 2 + 0].lo, 3999, 0);
    assert_near(t.cells[3 * 2 + 0].hi, 4001, 0);
    assert_int_equal(t.cells[3 * 2 + 0].note, 0); /* a DRAM point */
    assert_string_equal(t.rows[4]->label, "Copy bandwidth");
    assert_int_equal(t.cells[4 * 2 + 1].note, 1); /* cache only */
    assert_int_equal(t.notes, 1);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

static void test_table_render(void **state)
{
    (void)state;
    gmb_runset_t rs = {0};
    gmb_runset_add(&rs, stream_rec("GPU | A", 0, 2.5), "a/s.json", "a");
    gmb_runset_label(&rs);
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    char *md = gmb_table_render(&t, "md");
    assert_non_null(md);
    assert_non_null(strstr(md, "| Metric | Unit | GPU \\| A (CUDA) |\n|---|---|---:|\n"));
    assert_non_null(strstr(md, "| Nominal peak bandwidth | GB/s | unknown |\n"));
    assert_non_null(strstr(md, "| Read bandwidth | GB/s | 2.500 [1.500, 3.500] |\n"));
    assert_non_null(strstr(md, "| Copy bandwidth | GB/s | 12.50 [12.00, 13.00] ᶜ |\n"));
    char *tex = gmb_table_render(&t, "tex");
    assert_non_null(tex);
    /* one label column (the unit in it) and one p column a run: exactly \linewidth */
    assert_non_null(strstr(tex, "{\\small\\noindent%\n\\begin{tabular}{@{}>{\\raggedright"
                                "\\arraybackslash}p{\\dimexpr0.34\\linewidth-\\tabcolsep\\relax}"
                                ">{\\raggedleft\\arraybackslash}p{\\dimexpr0.66\\linewidth/1-"
                                "2\\tabcolsep+\\tabcolsep\\relax}@{}}\n\\hline\nMetric (unit) & "
                                "GPU | A (CUDA) \\\\\n\\hline\n"));
    assert_non_null(
        strstr(tex, "Read bandwidth (GB/s) & 2.500 {\\footnotesize[1.500, 3.500]} \\\\\n"));
    assert_null(strstr(tex, "\\num{"));
    assert_non_null(strstr(tex, "\\hline\n\\end{tabular}\\par}\n"));
    char *csv = gmb_table_render(&t, "csv");
    assert_non_null(csv);
    assert_non_null(strstr(csv,
                           "metric,unit,GPU | A (CUDA),GPU | A (CUDA) ci_lo,GPU | A (CUDA) ci_hi,"
                           "GPU | A (CUDA) unconverged\n"));
    assert_non_null(strstr(csv, "\"Memory type, bus width\",,\"HBM, 5120-bit\",,,\n"));
    /* its point says nothing of convergence: no count */
    assert_non_null(strstr(csv, "Read bandwidth,GB/s,2.5,1.5,3.5,\n"));
    assert_null(gmb_table_render(&t, "html"));
    free(md);
    free(tex);
    free(csv);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

/* A point with samples 100, 200, 400 ns: rate numer/t and scale t*f are recovered. */
static json_t *point3(const char *metric, int rate)
{
    double t[] = {100, 200, 400}, numer = 800, f = 0.5;
    char txt[1024];
    snprintf(txt, sizeof txt,
             "{\"params\":{\"size_bytes\":4096,\"reps\":3},\"samples_ns\":[100,200,400],"
             "\"time_ns\":{\"median\":200,\"min\":100,\"max\":400},"
             "\"metrics\":{\"%s\":{\"median\":%g,\"min\":%g,\"max\":%g}}}",
             metric, rate ? numer / t[1] : t[1] * f, rate ? numer / t[2] : t[0] * f,
             rate ? numer / t[0] : t[2] * f);
    return json_loads(txt, 0, NULL);
}

static void test_metric_samples(void **state)
{
    (void)state;
    double *v;
    json_t *p = point3("bw", 1);
    assert_int_equal(gmb_metric_samples(p, "bw", &v), 3);
    assert_near(v[0], 8, 1e-12);
    assert_near(v[2], 2, 1e-12);
    free(v);
    json_decref(p);
    p = point3("lat", 0);
    assert_int_equal(gmb_metric_samples(p, "lat", &v), 3);
    assert_near(v[1], 100, 1e-12);
    free(v);
    /* not a function of the times: no samples */
    json_object_set_new(json_object_get(json_object_get(p, "metrics"), "lat"), "max",
                        json_real(12345));
    assert_int_equal(gmb_metric_samples(p, "lat", &v), 0);
    assert_null(v);
    /* a rate from second times: the metric and each sample's rate (a missing time left out) */
    gmb_ctx_t c;
    memset(&c, 0, sizeof c);
    c.o.min_samples = 1;
    c.o.ci_target_pct = 1;
    const double t2[] = {1, 2, NAN, 4};
    gmb_point_rate(&c, p, "bw2", t2, 4, 1, 8.0);
    assert_near(gmb_jnum(json_object_get(json_object_get(p, "metrics"), "bw2"), "median"), 4,
                1e-12); /* 8 B / the median time, 2 ns */
    assert_int_equal(gmb_metric_samples(p, "bw2", &v), 3);
    assert_near(v[0], 8, 1e-12);
    assert_near(v[1], 4, 1e-12);
    assert_near(v[2], 2, 1e-12);
    free(v);
    /* the point's own samples of a metric come first (NaN left out when kept) */
    const double own[] = {5, NAN, 7};
    gmb_point_metric_samples(p, "lat", own, 3);
    assert_int_equal(gmb_metric_samples(p, "lat", &v), 2);
    assert_near(v[0], 5, 1e-12);
    assert_near(v[1], 7, 1e-12);
    free(v);
    json_decref(p);
}

/* A record of bench on a GPU with a 50 MiB LLC: points and results from the JSON given. */
static json_t *gpu_rec(const char *bench, const char *points, const char *results)
{
    char txt[4096];
    snprintf(txt, sizeof txt,
             "{\"schema\":\"gmb-record\",\"schema_version\":1,\"benchmark\":\"%s\","
             "\"backend\":\"cuda\",\"time_utc\":\"2026-01-01T00:00:00Z\","
             "\"device\":{\"name\":\"G\",\"backend\":\"cuda\",\"type\":\"gpu\","
             "\"llc_bytes\":52428800},\"points\":%s,\"results\":%s}",
             bench, points, results);
    json_error_t e;
    json_t *r = json_loads(txt, 0, &e);
    if (!r)
        fail_msg("bad test JSON: %s", e.text);
    return r;
}

/* Cross-checks: the figures of one quantity from several records, those that are not the
 * quantity left out (a small buffer, a plateau not reached, a cache point), the spread and
 * the verdict; the Markdown. */
static void test_crosscheck(void **state)
{
    (void)state;
    gmb_runset_t rs = {0};
    /* memory plateau 4100, reached; capacity 48 MiB (the first record: the device facts) */
    gmb_runset_add(&rs,
                   gpu_rec("l2", "[]",
                           "{\"bandwidth\":{\"read\":{\"memory_GBps\":4100,\"memory_reached\":"
                           "true,\"capacity_bytes\":50331648}}}"),
                   "a/l2.json", "a");
    /* read 4000 at a DRAM point; copy only at a cache point (left out); its device has no
     * LLC figure (the driver's comes from the first record, l2's) */
    gmb_runset_add(&rs, stream_rec("G", 4800, 4000), "a/s.json", "a");
    /* 3000 beside the chase over 1 GiB (>= 4 x 50 MiB); idle 700 ns */
    gmb_runset_add(&rs,
                   gpu_rec("loaded",
                           "[{\"params\":{\"size_bytes\":1073741824,\"stream_bytes\":"
                           "1073741824}}]",
                           "{\"loaded\":{\"max_bw_GBps\":3000,\"idle\":{\"lat_ns\":700}}}"),
                   "a/lo.json", "a");
    /* resident reads over 64 MiB: not memory-sized, left out */
    gmb_runset_add(&rs,
                   gpu_rec("um", "[]",
                           "{\"largest\":{\"resident\":{\"bw_GBps\":9999,\"size_bytes\":"
                           "67108864}}}"),
                   "a/um.json", "a");
    /* the chase's memory level 680 ns; its L2 up to 49 MiB; its cycles over its ns say 1950
     * MHz, NVML 1980 */
    gmb_runset_add(&rs,
                   gpu_rec("chase", "[]",
                           "{\"levels\":[{\"mode\":\"random\",\"space\":\"global\",\"levels\":["
                           "{\"name\":\"L2\",\"lat_ns\":150,\"capacity_bytes\":51380224},"
                           "{\"name\":\"DRAM\",\"lat_ns\":680}]}],"
                           "\"cycles\":{\"measured_MHz\":1950,\"nvml_MHz\":1980}}"),
                   "a/ch.json", "a");
    /* an SM copy kernel over 1 GiB: 2000 GB/s copied; stream's copy is a cache point only, so
     * the copy bandwidth has one figure */
    gmb_runset_add(&rs,
                   gpu_rec("copy", "[]",
                           "{\"largest\":{\"d2d_device_sm\":{\"bw_GBps\":2000,\"size_bytes\":"
                           "1073741824}}}"),
                   "a/co.json", "a");
    gmb_runset_label(&rs);
    gmb_xcheck_t x[8];
    size_t n = gmb_crosscheck(&rs, 0, x, 8);
    assert_int_equal(n, 4); /* read bandwidth, latency, capacity, clock; copy has one figure */
    assert_string_equal(x[0].quantity, "Memory read bandwidth");
    assert_int_equal(x[0].n, 3);          /* stream, l2, loaded; um's small buffer left out */
    assert_near(x[0].vals[0].v, 4000, 0); /* in the order of the check's sources */
    assert_near(x[0].vals[1].v, 4100, 0);
    assert_near(x[0].vals[2].v, 3000, 0);
    assert_near(x[0].spread, 4100.0 / 3000, 1e-12);
    assert_false(x[0].agree);
    assert_string_equal(x[1].quantity, "Memory latency, idle");
    assert_near(x[1].vals[0].v, 680, 0);
    assert_near(x[1].vals[1].v, 700, 0);
    assert_true(x[1].agree);
    assert_string_equal(x[2].quantity, "Last-level cache capacity");
    assert_int_equal(x[2].n, 3);
    assert_near(x[2].vals[0].v, 50, 1e-12); /* the driver's */
    assert_near(x[2].vals[1].v, 49, 1e-12); /* chase */
    assert_near(x[2].vals[2].v, 48, 1e-12); /* l2 */
    assert_true(x[2].agree);
    assert_string_equal(x[3].quantity, "SM clock during the chase");
    assert_near(x[3].vals[0].v, 1950, 0); /* cycles over ns */
    assert_near(x[3].vals[1].v, 1980, 0); /* NVML */
    assert_true(x[3].agree);              /* within 5% */
    /* at most max */
    assert_int_equal(gmb_crosscheck(&rs, 0, x, 1), 1);
    char *md = gmb_crosscheck_md(x, n);
    assert_non_null(md);
    assert_non_null(strstr(md, "| Memory read bandwidth | GB/s | stream: read kernel, best "
                               "memory-sized point: 4000; "));
    assert_non_null(strstr(md, " | 1.367x | differ (by more than 15%) |\n"));
    assert_non_null(strstr(md, " | 1.029x | agree (within 15%) |\n"));
    free(md);
    gmb_runset_free(&rs);
    /* a plateau not reached is not a memory figure; nothing to check then */
    gmb_runset_t r2 = {0};
    gmb_runset_add(&r2,
                   gpu_rec("l2", "[]",
                           "{\"bandwidth\":{\"read\":{\"memory_GBps\":4100,\"memory_reached\":"
                           "false}}}"),
                   "b/l2.json", "b");
    gmb_runset_add(&r2, stream_rec("G", 4800, 4000), "b/s.json", "b");
    gmb_runset_label(&r2);
    /* loaded over 1 GiB on a device whose LLC is unknown (0): not known to be memory-sized */
    json_t *lo =
        gpu_rec("loaded", "[{\"params\":{\"size_bytes\":1073741824,\"stream_bytes\":1073741824}}]",
                "{\"loaded\":{\"max_bw_GBps\":3000}}");
    json_object_set_new(json_object_get(lo, "device"), "llc_bytes", json_integer(0));
    gmb_runset_add(&r2, lo, "b/lo.json", "b");
    assert_int_equal(gmb_crosscheck(&r2, 0, x, 8), 0);
    md = gmb_crosscheck_md(x, 0);
    assert_string_equal(md, "No quantity was measured by two programs in this run.\n");
    free(md);
    gmb_runset_free(&r2);
    /* a random chase over 512 MiB (about 10x the LLC: a tenth of its loads may hit the cache)
     * is not an idle memory latency; over 1 GiB it is */
    for (int big = 0; big < 2; big++) {
        gmb_runset_t r3 = {0};
        char pts[128];
        snprintf(pts, sizeof pts, "[{\"params\":{\"size_bytes\":%s}}]",
                 big ? "1073741824" : "536870912");
        gmb_runset_add(&r3, gpu_rec("loaded", pts, "{\"loaded\":{\"idle\":{\"lat_ns\":700}}}"),
                       "c/lo.json", "c");
        gmb_runset_add(&r3,
                       gpu_rec("chase", "[]",
                               "{\"levels\":[{\"mode\":\"random\",\"space\":\"global\","
                               "\"levels\":[{\"name\":\"DRAM\",\"lat_ns\":680}]}]}"),
                       "c/ch.json", "c");
        gmb_runset_label(&r3);
        assert_int_equal(gmb_crosscheck(&r3, 0, x, 8), (size_t)big);
        gmb_runset_free(&r3);
    }
}

/* A record of bench with headline figures figs (JSON array) and no points. */
static json_t *fig_rec(const char *bench, const char *figs)
{
    json_t *r = gpu_rec(bench, "[]", "{}");
    json_error_t e;
    json_t *f = json_loads(figs, 0, &e);
    if (!f)
        fail_msg("bad test JSON: %s", e.text);
    json_object_set_new(r, "headlines", json_pack("{s:i, s:o}", "version", 1, "figures", f));
    return r;
}

/* Cross-checks and the level view from headline figures: a figure's check is a value of its
 * quantity (a cache-resident one left out), its level a row of the level view in the order of
 * the levels; an older record beside them is read by the extractors. */
static void test_figure_checks(void **state)
{
    (void)state;
    gmb_runset_t rs = {0};
    /* the first record: the driver's LLC figure (50 MiB) with every run */
    gmb_runset_add(&rs,
                   fig_rec("stream",
                           "[{\"label\":\"Read bandwidth\",\"unit\":\"GB/s\",\"better\":"
                           "\"higher\",\"value\":4000,\"ci_lo\":3990,\"ci_hi\":4010,\"points\":"
                           "[],\"notes\":[],\"level\":{\"name\":\"DRAM (memory)\",\"how\":"
                           "\"S\"},\"check\":{\"quantity\":\"Memory read bandwidth\",\"source\":"
                           "\"s-read\",\"value\":4000}},"
                           "{\"label\":\"Copy bandwidth\",\"unit\":\"GB/s\",\"better\":"
                           "\"higher\",\"value\":9000,\"ci_lo\":null,\"ci_hi\":null,\"points\":"
                           "[],\"notes\":[\"cache-resident\"],\"check\":{\"quantity\":\"Memory "
                           "copy bandwidth (bytes read + written)\",\"source\":\"s-copy\","
                           "\"value\":9000}}]"),
                   "a/s.json", "a");
    /* a program no row names: its figure a level's row and a value of a quantity */
    gmb_runset_add(&rs,
                   fig_rec("toy",
                           "[{\"label\":\"Toy L1\",\"unit\":\"GB/s\",\"better\":\"higher\","
                           "\"value\":20000,\"ci_lo\":null,\"ci_hi\":null,\"points\":[],"
                           "\"notes\":[],\"level\":{\"name\":\"L1, aggregate of all SMs\","
                           "\"how\":\"T\"}},"
                           "{\"label\":\"Toy LLC\",\"unit\":\"MiB\",\"better\":\"higher\","
                           "\"value\":48,\"ci_lo\":null,\"ci_hi\":null,\"points\":[],\"notes\":"
                           "[],\"check\":{\"quantity\":\"Last-level cache capacity\",\"source\":"
                           "\"t-llc\",\"value\":48}},"
                           "{\"label\":\"Toy copy\",\"unit\":\"GB/s\",\"better\":\"higher\","
                           "\"value\":1000,\"ci_lo\":null,\"ci_hi\":null,\"points\":[],\"notes\":"
                           "[],\"check\":{\"quantity\":\"Memory copy bandwidth (bytes read + "
                           "written)\",\"source\":\"t-copy\",\"value\":2000}}]"),
                   "a/t.json", "a");
    /* an older record (no headlines): its extractor, 3000 beside the chase over 1 GiB */
    gmb_runset_add(&rs,
                   gpu_rec("loaded",
                           "[{\"params\":{\"size_bytes\":1073741824,\"stream_bytes\":"
                           "1073741824}}]",
                           "{\"loaded\":{\"max_bw_GBps\":3000}}"),
                   "a/lo.json", "a");
    gmb_runset_label(&rs);
    gmb_xcheck_t x[8];
    size_t n = gmb_crosscheck(&rs, 0, x, 8);
    assert_int_equal(n, 2); /* read (stream, loaded), capacity (driver, toy); copy: one */
    assert_string_equal(x[0].quantity, "Memory read bandwidth");
    assert_int_equal(x[0].n, 2);
    assert_string_equal(x[0].vals[0].source, "s-read");
    assert_near(x[0].vals[0].v, 4000, 0);
    assert_near(x[0].vals[1].v, 3000, 0); /* the older record's, by its extractor */
    assert_string_equal(x[1].quantity, "Last-level cache capacity");
    assert_int_equal(x[1].n, 2);
    assert_near(x[1].vals[0].v, 50, 1e-12); /* the driver's */
    assert_string_equal(x[1].vals[1].source, "t-llc");
    assert_near(x[1].vals[1].v, 48, 0);
    /* the level view: the toy's L1 before stream's DRAM, the figures without a level left out */
    gmb_table_t t;
    assert_int_equal(gmb_table_build(&rs, &t), 0);
    assert_int_equal(gmb_table_levels(&t), 0);
    assert_int_equal(t.nrows, 2);
    assert_string_equal(t.lv[0]->level, "L1, aggregate of all SMs");
    assert_string_equal(t.lv[0]->by, "T");
    assert_string_equal(t.rows[0]->label, "Toy L1");
    assert_string_equal(t.lv[1]->level, "DRAM (memory)");
    assert_string_equal(t.rows[1]->label, "Read bandwidth");
    assert_near(t.cells[1].v, 4000, 0);
    gmb_table_free(&t);
    gmb_runset_free(&rs);
}

static void test_compare(void **state)
{
    (void)state;
    json_t *a = stream_rec("A", 0, 100), *b = stream_rec("B", 0, 50);
    /* B's calibration differs (reps), its identity not: still matched */
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "points"), 0), "params"),
                        "reps", json_integer(99));
    gmb_cmp_t *rows = NULL;
    size_t n = 0;
    assert_int_equal(gmb_compare_records(a, b, &rows, &n), 2);
    assert_string_equal(rows[0].point, "read width=16 B size=1 GiB");
    assert_string_equal(rows[0].metric, "bw_GBps");
    assert_near(rows[0].ratio, 0.5, 1e-12);
    assert_near(rows[0].change, -50, 1e-9);
    assert_true(rows[0].p < 0); /* no raw samples in these records */
    assert_int_equal(rows[0].higher, 1);
    /* two points of B with one identity: the first one in B's order is the match */
    json_t *pb = json_object_get(b, "points");
    json_t *dup = json_deep_copy(json_array_get(pb, 0));
    json_object_set_new(json_object_get(json_object_get(dup, "metrics"), "bw_GBps"), "median",
                        json_real(25));
    json_array_insert_new(pb, 0, json_deep_copy(dup));
    json_object_set_new(json_object_get(json_object_get(dup, "metrics"), "bw_GBps"), "median",
                        json_real(75));
    json_array_append_new(pb, dup);
    n = 0;
    assert_int_equal(gmb_compare_records(a, b, &rows, &n), 2);
    assert_near(rows[0].ratio, 0.25, 1e-12);
    json_array_remove(pb, 0);
    json_array_remove(pb, json_array_size(pb) - 1);
    /* rows appended call after call are all kept */
    n = 0;
    for (int k = 0; k < 40; k++)
        assert_int_equal(gmb_compare_records(a, b, &rows, &n), 2);
    assert_int_equal(n, 80);
    assert_near(rows[78].ratio, 0.5, 1e-12);
    assert_near(rows[79].ratio, 1.0, 1e-12);
    /* a point B does not have is left out */
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "points"), 1), "params"),
                        "kernel", json_string("triad"));
    n = 0;
    assert_int_equal(gmb_compare_records(a, b, &rows, &n), 1);
    /* a *_bytes param that is no byte count (negative, huge): shown as it is, never cast */
    json_object_set_new(json_object_get(json_array_get(json_object_get(a, "points"), 0), "params"),
                        "size_bytes", json_integer(-4096));
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "points"), 0), "params"),
                        "size_bytes", json_integer(-4096));
    n = 0;
    assert_int_equal(gmb_compare_records(a, b, &rows, &n), 1);
    assert_string_equal(rows[0].point, "read width=16 B size=-4096");
    json_object_set_new(json_object_get(json_array_get(json_object_get(a, "points"), 0), "params"),
                        "size_bytes", json_real(1e300));
    json_object_set_new(json_object_get(json_array_get(json_object_get(b, "points"), 0), "params"),
                        "size_bytes", json_real(1e300));
    n = 0;
    assert_int_equal(gmb_compare_records(a, b, &rows, &n), 1);
    assert_string_equal(rows[0].point, "read width=16 B size=1.0000000000000001e+300");
    free(rows);
    json_decref(a);
    json_decref(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jpath),         cmocka_unit_test(test_device_label),
        cmocka_unit_test(test_fmt_num),       cmocka_unit_test(test_table_rows),
        cmocka_unit_test(test_table_render),  cmocka_unit_test(test_metric_samples),
        cmocka_unit_test(test_compare),       cmocka_unit_test(test_crosscheck),
        cmocka_unit_test(test_figure_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
