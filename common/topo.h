/* topo.h - where a device sits (hwloc, see topo.c): its locality, and the host placement
 * (NUMA binding, where pages sit) of the transfer benchmarks. */
#ifndef GMB_TOPO_H
#define GMB_TOPO_H

#include "backend/backend.h"

/* Where a device sits in the machine (hwloc). */
typedef struct gmb_locality {
    char source[32];  /* "hwloc", "hwloc (host CPU)", or "unknown" */
    char numa[128];   /* NUMA node list ("0", "0-1"), "unknown" */
    char cpuset[256]; /* CPU list near the device ("0-31"), "unknown" */
    char note[160];   /* why unknown, or which object was used */
} gmb_locality_t;

/* Locate a device: by its PCI bus id, or the whole host for a CPU device. Honors
 * HWLOC_XMLFILE (stored topologies). Always returns 0; fields say "unknown" when hwloc
 * cannot tell. */
int gmb_topo_locality(const gmb_dev_info_t *info, gmb_locality_t *out);

/* Host placement through hwloc: bind the calling thread's CPUs and memory allocations to
 * NUMA nodes, so host buffers allocated (or first touched) after it sit where asked, and
 * say where pages sit. Memory binding is not strict (Linux: a preferred policy): the OS
 * falls back to other nodes when the asked ones are full. Honors HWLOC_XMLFILE (with
 * HWLOC_THISSYSTEM=1 binding still acts on this machine). */
typedef struct gmb_numa gmb_numa_t;
#define GMB_NUMA_NEAR (-1) /* the device's NUMA nodes and CPUs */
#define GMB_NUMA_OS   (-2) /* no binding: the thread's binding when gmb_numa_open ran */

/* Load the topology, keep the calling thread's binding and find the device's nodes. NULL,
 * with the reason in why, without hwloc or when hwloc fails. */
gmb_numa_t *gmb_numa_open(const gmb_dev_info_t *info, char *why, size_t wlen);
/* Restore the binding gmb_numa_open found; NULL is a no-op. */
void gmb_numa_close(gmb_numa_t *m);
/* gmb_topo_locality from m's topology (no second load); m NULL: gmb_topo_locality. */
int gmb_numa_locality(const gmb_numa_t *m, const gmb_dev_info_t *info, gmb_locality_t *out);
/* NUMA nodes: how many, and the OS index (P#) of the i-th. */
int gmb_numa_count(const gmb_numa_t *m);
unsigned gmb_numa_os_index(const gmb_numa_t *m, int i);
/* Whether a NUMA node of this OS index exists. */
int gmb_numa_has(const gmb_numa_t *m, unsigned os_index);
/* The device's NUMA nodes as a list ("1", "0-1"); 0 when unknown (reason in why) or when they
 * are every node (a CPU device: why says so), so binding to them would change nothing. */
int gmb_numa_near(const gmb_numa_t *m, char *nodes, size_t nlen, char *why, size_t wlen);
/* Whether the process came bound (numactl, hwloc-bind, taskset: CPUs short of those allowed,
 * or a memory policy other than first touch). */
int gmb_numa_came_bound(const gmb_numa_t *m);
/* The run's own placement: the device's NUMA nodes and CPUs, unless the process came bound
 * (that binding is kept) or the device's nodes are unknown or every node, or the OS refuses
 * (nothing bound). desc says which ("bound to NUMA 1, CPUs 4-7 (the device's)", "kept ...",
 * "not bound: ..."). m NULL: "not bound". */
void gmb_numa_home(gmb_numa_t *m, char *desc, size_t dlen);
/* A placement in short, for tables: "near: NUMA 1", "bound: NUMA 0", "kept: NUMA 0" or "not
 * bound" from binding (gmb_numa_home's desc), with pages ("1", gmb_numa_where's) where they
 * differ from its nodes. 0 (out untouched) when binding is NULL. */
int gmb_place_brief(const char *binding, const char *pages, char *out, size_t len);
/* Whether gmb_numa_home binds nothing (the process came bound, the device's nodes are
 * unknown or all there are, ...): then "no binding" and the run's own placement are one. */
int gmb_numa_home_is_os(const gmb_numa_t *m);
/* Whether NUMA node os_index has memory (a node may be a placeholder without any). */
int gmb_numa_has_memory(const gmb_numa_t *m, unsigned os_index);
/* Whether os_index is one of the device's nodes. */
int gmb_numa_is_near(const gmb_numa_t *m, unsigned os_index);
/* Bind the calling thread: node >= 0 that NUMA node (memory) and its CPUs (all CPUs for a
 * node without any), GMB_NUMA_NEAR the device's nodes and CPUs, GMB_NUMA_OS the binding at
 * open. desc says what is bound ("NUMA 1, CPUs 4-7"). GMB_ERUNTIME with the OS's reason in
 * desc when the OS refuses (the binding is then what it was at open). */
int gmb_numa_bind(gmb_numa_t *m, int node, char *desc, size_t dlen);
/* The NUMA nodes holding the pages of [p, p + len) ("1", "0-1"), or "unknown" (no hwloc,
 * the OS does not say, pages not there yet). */
void gmb_numa_where(gmb_numa_t *m, const void *p, size_t len, char *out, size_t olen);

#endif
