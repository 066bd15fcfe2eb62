/* fuzz_records.c - libFuzzer target: one input is one record, read back as gmb's tools read
 * records that travel (untrusted): loaded from a run directory (gmb_runset_load), tabulated in
 * every format, cross-checked, compared with itself, turned into gnuplot's data and variables
 * files (gmb plot without gnuplot), and, as run.json beside it, made into a report. Built
 * with clang -fsanitize=fuzzer,address,undefined (make fuzz); a crash, a sanitizer report or
 * a leak is a failure. Run from the repository root (plots/ is read). */
#include "gmb.h"
#include "record.h"
#include "tools/runset.h"
#include "tools/runreport.h"
#include "tools/table.h"
#include "tools/crosscheck.h"
#include "tools/compare.h"
#include "tools/plot.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256]; /* this process's run directory: x.json, run.json, figures/ */
static int quiet;     /* GMB_FUZZ_QUIET=1: stderr to /dev/null while an input runs */

/* Remove path and, when it is a directory, everything under it (the fuzz run's own files). */
static void rm_tree(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    char p[1024];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        if (e->d_type == DT_DIR)
            rm_tree(p);
        else
            unlink(p);
    }
    if (d) {
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void cleanup(void)
{
    if (dir[0])
        rm_tree(dir);
}

static void put(const char *name, const uint8_t *data, size_t size)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    if (!f)
        abort(); /* the fuzz run's own directory: a failure here is the harness's */
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gmb-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            abort();
        atexit(cleanup);
        gmb_quiet = 1;
        quiet = getenv("GMB_FUZZ_QUIET") && !strcmp(getenv("GMB_FUZZ_QUIET"), "1");
    }
    int saved = -1;
    if (quiet) { /* gmb's one line per bad record, thousands a second: not on the terminal */
        fflush(stderr);
        saved = dup(2);
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 2);
        close(nul);
    }
    if (getenv("GMB_FUZZ_PLANT")) { /* test aid: a planted overflow the run must report */
        volatile char *p = malloc(4);
        p[size % 4 + 4] = 1;
        free((void *)p);
    }
    put("x.json", data, size);
    put("run.json", data, size);

    gmb_runset_t rs;
    memset(&rs, 0, sizeof rs);
    char *args[] = {dir};
    FILE *err = fopen("/dev/null", "w");
    if (gmb_runset_load(&rs, args, 1, err) == 0) {
        gmb_runset_label(&rs);
        gmb_table_t t;
        if (!gmb_table_build(&rs, &t)) {
            const char *fmts[] = {"md", "tex", "csv"};
            for (int k = 0; k < 3; k++)
                free(gmb_table_render(&t, fmts[k]));
            gmb_table_free(&t);
        }
        gmb_xcheck_t x[16];
        size_t nx = gmb_crosscheck(&rs, 0, x, 16);
        free(gmb_crosscheck_md(x, nx));
        gmb_cmp_t *rows = NULL;
        size_t n = 0;
        for (size_t i = 0; i < rs.nrecs; i++)
            gmb_compare_records(rs.recs[i].j, rs.recs[i].j, &rows, &n);
        free(rows);
        char figs[512];
        snprintf(figs, sizeof figs, "%s/figures", dir);
        gmb_plot_opts_t o = {
            .out = figs, .plots = "plots", .width = 640, .height = 480, .data_only = 1};
        if (!gmb_mkdirs(figs)) {
            gmb_plot(&rs, &o);
        }
        gmb_runset_free(&rs);
    }
    gmb_run_report(dir, "figures", err);
    fclose(err);
    if (saved >= 0) {
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
    }
    return 0;
}
