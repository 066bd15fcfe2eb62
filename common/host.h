/* host.h - facts about the host and the run (see host.c): name, OS, CPU, load, UTC time, the
 * git revision gmb was built from. */
#ifndef GMB_HOST_H
#define GMB_HOST_H

#include <stddef.h>
#include <stdint.h>

/* Host facts. */
typedef struct gmb_host {
    char name[256]; /* host name */
    char os[256];   /* uname: system release machine */
    char cpu[256];  /* CPU model name */
    int cpus;       /* online CPUs */
} gmb_host_t;
void gmb_host_get(gmb_host_t *out);
/* The host's 1-minute load average: the first number of /proc/loadavg, or of the file named
 * by GMB_TEST_LOADAVG_FILE (a test aid: a fake load, to make a host busy or idle on purpose).
 * NAN when it cannot be read. */
#define GMB_TEST_LOADAVG_ENV "GMB_TEST_LOADAVG_FILE"
double gmb_host_loadavg(void);
/* Whether a load average means a busy host: more runnable threads than online CPUs, so
 * something waits for a CPU (0 when either is unknown). */
int gmb_host_busy(double load, int cpus);
/* The host's physical memory in bytes (0 unknown). */
uint64_t gmb_host_ram_bytes(void);

/* UTC time now as "2026-11-30T06:01:02Z" (iso) and "20261130T060102Z" (stamp). */
void gmb_utc_now(char *iso, size_t isolen, char *stamp, size_t stamplen);

/* The git revision gmb was built from ("unknown" outside a checkout). */
extern const char gmb_git_rev[];

#endif
