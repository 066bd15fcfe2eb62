/* driver.c - bin/gmb: list benchmarks, list devices, run benchmarks (found by glob). */
#include "gmb.h"
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PROGS 64

static char bindir[PATH_MAX];

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the benchmark programs next to this one (gmb-<name>), sorted. */
static int find_benches(char **names, int max)
{
    DIR *d = opendir(bindir);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max)
        if (!strncmp(e->d_name, "gmb-", 4) && e->d_name[4]) {
            char p[PATH_MAX + 300];
            snprintf(p, sizeof p, "%s/%s", bindir, e->d_name);
            if (!access(p, X_OK))
                names[n++] = strdup(e->d_name + 4);
        }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
}

static int run_prog(const char *name, char **args, int nargs)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/gmb-%s", bindir, name);
    char **argv = calloc((size_t)nargs + 2, sizeof *argv);
    if (!argv)
        return 3;
    argv[0] = path;
    for (int i = 0; i < nargs; i++)
        argv[i + 1] = args[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execv(path, argv);
        gmb_error("cannot run %s: %s", path, strerror(errno));
        _exit(3);
    }
    free(argv);
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return 3;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: gmb list                    benchmarks and what they measure\n"
               "       gmb devices                 devices of every backend\n"
               "       gmb run NAME [options]      run one benchmark (gmb run NAME --help)\n"
               "       gmb run [options]           run every benchmark in turn\n"
               "       gmb --version\n");
}

int main(int argc, char **argv)
{
    gmb_progname = "gmb";
    char self[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0)
        gmb_strlcpy(self, argv[0], sizeof self);
    else
        self[l] = '\0';
    gmb_strlcpy(bindir, dirname(self), sizeof bindir);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    char *names[MAX_PROGS];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("gmb %s (git %s)\n", GMB_VERSION, gmb_git_rev);
        return 0;
    }
    if (!strcmp(cmd, "devices")) {
        if (argc > 2) {
            gmb_error("'gmb devices' takes no argument");
            return 2;
        }
        return gmb_print_devices(stdout) ? 77 : 0;
    }
    if (!strcmp(cmd, "list")) {
        int n = find_benches(names, MAX_PROGS);
        int rc = 0;
        for (int i = 0; i < n; i++) {
            char *a[] = {"--summary"};
            if (run_prog(names[i], a, 1))
                rc = 3;
        }
        free_names(names, n);
        return rc;
    }
    if (!strcmp(cmd, "run")) {
        int n = find_benches(names, MAX_PROGS);
        if (argc > 2 && argv[2][0] != '-') {
            int found = 0;
            for (int i = 0; i < n; i++)
                found |= !strcmp(names[i], argv[2]);
            free_names(names, n);
            if (!found) {
                gmb_error("unknown benchmark '%s' (see gmb list)", argv[2]);
                return 2;
            }
            return run_prog(argv[2], argv + 3, argc - 3);
        }
        int worst = 0;
        for (int i = 0; i < n; i++) {
            int rc = run_prog(names[i], argv + 2, argc - 2);
            fprintf(stderr, "gmb: %s: exit %d\n", names[i], rc);
            if (rc == 2)
                return 2; /* the same options would be wrong for the next ones too */
            if (rc && rc != 77 && (!worst || worst == 77))
                worst = rc;
            else if (rc == 77 && !worst)
                worst = 77;
        }
        free_names(names, n);
        return worst;
    }
    gmb_error("unknown command '%s' (see gmb --help)", cmd);
    return 2;
}
