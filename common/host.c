/* host.c - facts about the host and the time of a run. */
#include "gmb.h"
#include "host.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef GMB_GIT_REV
#define GMB_GIT_REV "unknown"
#endif
const char gmb_git_rev[] = GMB_GIT_REV;

void gmb_host_get(gmb_host_t *out)
{
    memset(out, 0, sizeof *out);
    if (gethostname(out->name, sizeof out->name - 1))
        gmb_strlcpy(out->name, "unknown", sizeof out->name);
    struct utsname u;
    if (!uname(&u))
        snprintf(out->os, sizeof out->os, "%s %s %s", u.sysname, u.release, u.machine);
    gmb_strlcpy(out->cpu, "unknown", sizeof out->cpu);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10)) {
                char *c = strchr(line, ':');
                if (c) {
                    c += 1 + (c[1] == ' ');
                    c[strcspn(c, "\n")] = '\0';
                    gmb_strlcpy(out->cpu, c, sizeof out->cpu);
                }
                break;
            }
        fclose(f);
    }
    out->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

double gmb_host_loadavg(void)
{
    const char *path = getenv(GMB_TEST_LOADAVG_ENV);
    FILE *f = fopen(path && *path ? path : "/proc/loadavg", "r");
    if (!f)
        return NAN;
    double v = NAN;
    if (fscanf(f, "%lf", &v) != 1 || !isfinite(v) || v < 0)
        v = NAN;
    fclose(f);
    return v;
}

int gmb_host_busy(double load, int cpus)
{
    return cpus > 0 && isfinite(load) && load > cpus;
}

void gmb_utc_now(char *iso, size_t isolen, char *stamp, size_t stamplen)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    if (iso)
        strftime(iso, isolen, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (stamp)
        strftime(stamp, stamplen, "%Y%m%dT%H%M%SZ", &tm);
}

uint64_t gmb_host_ram_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}
