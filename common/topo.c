/* topo.c - device locality through hwloc: the NUMA nodes and CPUs next to a device. */
#include "gmb.h"
#include "topo.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GMB_HAVE_HWLOC
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include <unistd.h>

static void set_unknown(gmb_locality_t *out, const char *why)
{
    gmb_strlcpy(out->source, "unknown", sizeof out->source);
    gmb_strlcpy(out->numa, "unknown", sizeof out->numa);
    gmb_strlcpy(out->cpuset, "unknown", sizeof out->cpuset);
    gmb_strlcpy(out->note, why, sizeof out->note);
}

static void put_sets(hwloc_const_cpuset_t cpus, hwloc_const_nodeset_t nodes, gmb_locality_t *out)
{
    char *s = NULL;
    if (hwloc_bitmap_list_asprintf(&s, cpus) >= 0 && s) {
        gmb_strlcpy(out->cpuset, s, sizeof out->cpuset);
        free(s);
    }
    s = NULL;
    if (hwloc_bitmap_list_asprintf(&s, nodes) >= 0 && s) {
        gmb_strlcpy(out->numa, s[0] ? s : "unknown", sizeof out->numa);
        free(s);
    }
}

/* The object holding the device: the root for a CPU device, else the first non-I/O ancestor
 * of its PCI device; NULL with the reason in why. */
static hwloc_obj_t device_obj(hwloc_topology_t t, const gmb_dev_info_t *info, char *why,
                              size_t wlen)
{
    if (!strcmp(info->type, "cpu"))
        return hwloc_get_root_obj(t);
    if (!info->pci_bus_id[0]) {
        gmb_strlcpy(why, "the driver reports no PCI bus id for this device", wlen);
        return NULL;
    }
    hwloc_obj_t pci = hwloc_get_pcidev_by_busidstring(t, info->pci_bus_id);
    hwloc_obj_t anc = pci ? hwloc_get_non_io_ancestor_obj(t, pci) : NULL;
    if (!anc)
        snprintf(why, wlen, "hwloc does not see PCI device %s", info->pci_bus_id);
    return anc;
}

/* A loaded topology with PCI devices, or NULL with the reason. */
static hwloc_topology_t load(char *why, size_t wlen)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t)) {
        gmb_strlcpy(why, "hwloc_topology_init failed", wlen);
        return NULL;
    }
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    /* the PCI tree is all gmb needs, and hwloc's Linux backend reads it from sysfs itself:
     * the plugins that would enumerate devices through the vendors' APIs (initializing
     * OpenCL, CUDA, NVML in this process, before or beside the backend) stay out, and so does
     * the libpciaccess one (under LeakSanitizer its allocations showed as leaks) */
    static const char *const apis[] = {"opencl", "cuda", "nvml", "rsmi", "levelzero", "gl", "pci"};
    for (size_t i = 0; i < sizeof apis / sizeof apis[0]; i++)
        hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, apis[i]);
    /* test aid: a stored topology taken as this machine's (binding acts here), seen by gmb
     * only (HWLOC_XMLFILE would reach the OpenCL implementation's hwloc too) */
    const char *x = getenv("GMB_TEST_TOPOLOGY");
    if (x && *x &&
        (hwloc_topology_set_xml(t, x) ||
         hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM))) {
        hwloc_topology_destroy(t);
        snprintf(why, wlen, "GMB_TEST_TOPOLOGY %s: not an hwloc XML topology", x);
        return NULL;
    }
    if (hwloc_topology_load(t)) {
        hwloc_topology_destroy(t);
        gmb_strlcpy(why, "hwloc_topology_load failed", wlen);
        return NULL;
    }
    return t;
}

/* Locate the device in topology t (gmb_topo_locality). */
static void locate(hwloc_topology_t t, const gmb_dev_info_t *info, gmb_locality_t *out)
{
    char why[160] = "";
    hwloc_obj_t o = device_obj(t, info, why, sizeof why);
    if (!o) {
        set_unknown(out, why);
    } else if (!strcmp(info->type, "cpu")) {
        /* the device is the host's CPUs: its memory is every NUMA node */
        gmb_strlcpy(out->source, "hwloc (host CPU)", sizeof out->source);
        put_sets(o->cpuset, o->nodeset, out);
        snprintf(out->note, sizeof out->note, "CPU device: the whole machine");
    } else {
        gmb_strlcpy(out->source, "hwloc", sizeof out->source);
        put_sets(o->cpuset, o->nodeset, out);
        snprintf(out->note, sizeof out->note, "PCI %s under %s L#%u", info->pci_bus_id,
                 hwloc_obj_type_string(o->type), o->logical_index);
    }
}

int gmb_topo_locality(const gmb_dev_info_t *info, gmb_locality_t *out)
{
    memset(out, 0, sizeof *out);
    char why[160] = "";
    hwloc_topology_t t = load(why, sizeof why);
    if (!t) {
        set_unknown(out, why);
        return GMB_OK;
    }
    locate(t, info, out);
    hwloc_topology_destroy(t);
    return GMB_OK;
}

/* The thread's binding as the OS holds it, saved whole so that restoring it is exact (hwloc's
 * view of a memory policy folds strict and preferred binding into one). */
#define SAVED_CPUS  4096 /* CPUs an affinity mask may name */
#define SAVED_NODES 4096 /* NUMA nodes a memory policy may name (>= the kernel's) */
typedef struct saved {
    cpu_set_t *cpus; /* affinity (CPU_ALLOC(SAVED_CPUS)) */
    size_t cpus_size;
    int mode;                                              /* memory policy, with its flags */
    unsigned long nodes[SAVED_NODES / (8 * sizeof(long))]; /* its nodes */
    int ok;                                                /* both read */
} saved_t;

static const char *mode_name(int mode)
{
    static const char *const names[] = {
        "default",        "preferred",          "bind", "interleave", "local",
        "preferred-many", "weighted-interleave"};
    mode &= ~(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | (1 << 13));
    return mode >= 0 && mode < (int)(sizeof names / sizeof names[0]) ? names[mode] : "other";
}

static int save_binding(saved_t *sv)
{
    sv->cpus = CPU_ALLOC(SAVED_CPUS);
    sv->cpus_size = CPU_ALLOC_SIZE(SAVED_CPUS);
    sv->ok =
        sv->cpus && !sched_getaffinity(0, sv->cpus_size, sv->cpus) &&
        !syscall(SYS_get_mempolicy, &sv->mode, sv->nodes, (unsigned long)SAVED_NODES, NULL, 0UL);
    return sv->ok;
}

static int restore_binding(const saved_t *sv)
{
    int base = sv->mode & ~(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | (1 << 13));
    int plain = base == MPOL_DEFAULT || base == MPOL_LOCAL; /* these take no nodes */
    return sched_setaffinity(0, sv->cpus_size, sv->cpus) ||
           syscall(SYS_set_mempolicy, sv->mode, plain ? NULL : sv->nodes,
                   plain ? 0UL : (unsigned long)SAVED_NODES + 1);
}

struct gmb_numa {
    hwloc_topology_t t;
    saved_t sv;               /* the thread's binding at open */
    int bound0;               /* the process came bound */
    int changed;              /* a binding other than the one at open may be in force */
    hwloc_cpuset_t near_cpus; /* the device's CPUs and nodes (NULL: unknown) */
    hwloc_nodeset_t near_nodes;
    char near_why[160]; /* why near is unknown or means nothing */
};

/* A bitmap as a list ("0-3,8"); one too long for out ends in "..." rather than mid-number. */
static void list_of(hwloc_const_bitmap_t b, char *out, size_t olen)
{
    char *s = NULL;
    if (hwloc_bitmap_list_asprintf(&s, b) < 0 || !s)
        gmb_strlcpy(out, "?", olen);
    else if (strlen(s) < olen)
        gmb_strlcpy(out, s, olen);
    else if (olen > 4) {
        size_t k = olen - 4;
        while (k > 0 && s[k - 1] != ',') /* cut after a whole item */
            k--;
        snprintf(out, olen, "%.*s...", (int)k, s);
    }
    free(s);
}

gmb_numa_t *gmb_numa_open(const gmb_dev_info_t *info, char *why, size_t wlen)
{
    gmb_numa_t *m = calloc(1, sizeof *m);
    if (!m) {
        gmb_strlcpy(why, "out of memory", wlen);
        return NULL;
    }
    if (!(m->t = load(why, wlen))) {
        free(m);
        return NULL;
    }
    hwloc_obj_t o = device_obj(m->t, info, m->near_why, sizeof m->near_why);
    hwloc_obj_t root = hwloc_get_root_obj(m->t);
    if (save_binding(&m->sv) && hwloc_topology_is_thissystem(m->t)) {
        /* came bound: CPUs short of those the process may use, or a memory policy */
        hwloc_cpuset_t c = hwloc_bitmap_alloc();
        int base = m->sv.mode & ~(MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | (1 << 13));
        m->bound0 =
            (c && !hwloc_cpuset_from_glibc_sched_affinity(m->t, c, m->sv.cpus, m->sv.cpus_size) &&
             !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(m->t), c)) ||
            (base != MPOL_DEFAULT && base != MPOL_LOCAL);
        hwloc_bitmap_free(c);
    }
    if (o && (!o->nodeset || hwloc_bitmap_iszero(o->nodeset))) {
        gmb_strlcpy(m->near_why, "hwloc places the device under no NUMA node", sizeof m->near_why);
    } else if (o && hwloc_get_nbobjs_by_type(m->t, HWLOC_OBJ_NUMANODE) > 1 &&
               hwloc_bitmap_isequal(o->nodeset, root->nodeset)) {
        /* binding to every node would only trade the OS's local allocation for the first
         * node's: no placement at all is the honest "near" */
        gmb_strlcpy(m->near_why,
                    !strcmp(info->type, "cpu") ? "a CPU device's memory is every NUMA node"
                                               : "the device is as near to every NUMA node",
                    sizeof m->near_why);
    } else if (o) {
        m->near_cpus = hwloc_bitmap_dup(o->cpuset);
        m->near_nodes = hwloc_bitmap_dup(o->nodeset);
    }
    return m;
}

void gmb_numa_close(gmb_numa_t *m)
{
    if (!m)
        return;
    char d[64];
    gmb_numa_bind(m, GMB_NUMA_OS, d, sizeof d);
    CPU_FREE(m->sv.cpus);
    hwloc_bitmap_free(m->near_cpus);
    hwloc_bitmap_free(m->near_nodes);
    hwloc_topology_destroy(m->t);
    free(m);
}

int gmb_numa_locality(const gmb_numa_t *m, const gmb_dev_info_t *info, gmb_locality_t *out)
{
    if (!m)
        return gmb_topo_locality(info, out);
    memset(out, 0, sizeof *out);
    locate(m->t, info, out);
    return GMB_OK;
}

int gmb_numa_count(const gmb_numa_t *m)
{
    return m ? hwloc_get_nbobjs_by_type(m->t, HWLOC_OBJ_NUMANODE) : 0;
}

unsigned gmb_numa_os_index(const gmb_numa_t *m, int i)
{
    hwloc_obj_t o = m ? hwloc_get_obj_by_type(m->t, HWLOC_OBJ_NUMANODE, (unsigned)i) : NULL;
    return o ? o->os_index : 0;
}

static hwloc_obj_t node_obj(const gmb_numa_t *m, unsigned os_index)
{
    for (int i = 0; i < gmb_numa_count(m); i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(m->t, HWLOC_OBJ_NUMANODE, (unsigned)i);
        if (o && o->os_index == os_index)
            return o;
    }
    return NULL;
}

int gmb_numa_has(const gmb_numa_t *m, unsigned os_index)
{
    return node_obj(m, os_index) != NULL;
}

int gmb_numa_has_memory(const gmb_numa_t *m, unsigned os_index)
{
    hwloc_obj_t o = node_obj(m, os_index);
    return o && o->attr && o->attr->numanode.local_memory > 0;
}

int gmb_numa_near(const gmb_numa_t *m, char *nodes, size_t nlen, char *why, size_t wlen)
{
    if (!m || !m->near_nodes) {
        gmb_strlcpy(why, m ? m->near_why : "no topology", wlen);
        return 0;
    }
    list_of(m->near_nodes, nodes, nlen);
    return 1;
}

int gmb_numa_is_near(const gmb_numa_t *m, unsigned os_index)
{
    return m && m->near_nodes && hwloc_bitmap_isset(m->near_nodes, os_index);
}

int gmb_numa_came_bound(const gmb_numa_t *m)
{
    return m && m->bound0;
}

/* What gmb_numa_home does: 0 bind near, else why it binds nothing (into why). */
static int home_unbound(const gmb_numa_t *m, char *why, size_t wlen)
{
    if (!m->sv.ok)
        gmb_strlcpy(why, "the thread's binding cannot be read (so it could not be restored)", wlen);
    else if (m->bound0)
        gmb_strlcpy(why, "kept", wlen);
    else if (!m->near_nodes)
        gmb_strlcpy(why, m->near_why, wlen);
    else if (hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(m->t), m->near_cpus) &&
             hwloc_bitmap_isincluded(hwloc_topology_get_allowed_nodeset(m->t), m->near_nodes))
        gmb_strlcpy(why, "the device's CPUs and NUMA nodes are all there are", wlen);
    else
        return 0;
    return 1;
}

int gmb_numa_home_is_os(const gmb_numa_t *m)
{
    char why[160];
    return !m || home_unbound(m, why, sizeof why);
}

void gmb_numa_home(gmb_numa_t *m, char *desc, size_t dlen)
{
    char d[160], why[160];
    if (!m) {
        gmb_strlcpy(desc, "not bound", dlen);
    } else if (home_unbound(m, why, sizeof why)) {
        gmb_numa_bind(m, GMB_NUMA_OS, d, sizeof d); /* undo what a bind did, if any */
        if (!m->bound0) {
            snprintf(desc, dlen, "not bound: %s", why);
        } else {
            char c[128] = "?", n[64] = "";
            hwloc_cpuset_t cs = hwloc_bitmap_alloc();
            hwloc_nodeset_t ns = hwloc_bitmap_alloc();
            if (cs &&
                !hwloc_cpuset_from_glibc_sched_affinity(m->t, cs, m->sv.cpus, m->sv.cpus_size))
                list_of(cs, c, sizeof c);
            if (ns) {
                for (unsigned i = 0; i < SAVED_NODES; i++)
                    if (m->sv.nodes[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long))) & 1)
                        hwloc_bitmap_set(ns, i);
                if (!hwloc_bitmap_iszero(ns))
                    list_of(ns, n, sizeof n);
            }
            hwloc_bitmap_free(cs);
            hwloc_bitmap_free(ns);
            snprintf(desc, dlen, "kept the binding the process came with: CPUs %s, memory %s%s%s",
                     c, mode_name(m->sv.mode), n[0] ? " NUMA " : "", n);
        }
    } else if (gmb_numa_bind(m, GMB_NUMA_NEAR, d, sizeof d)) {
        snprintf(desc, dlen, "not bound: %s", d);
    } else {
        snprintf(desc, dlen, "bound to %s (the device's)", d);
    }
}

/* The OS refused a binding (errno): say so, and go back to the binding at open. */
static int refused(gmb_numa_t *m, const char *what, hwloc_const_bitmap_t set, char *desc,
                   size_t dlen)
{
    int e = errno;
    char l[128];
    list_of(set, l, sizeof l);
    snprintf(desc, dlen, "binding %s %s failed: %s", what, l, strerror(e));
    gmb_numa_bind(m, GMB_NUMA_OS, l, sizeof l);
    return GMB_ERUNTIME;
}

int gmb_numa_bind(gmb_numa_t *m, int node, char *desc, size_t dlen)
{
    hwloc_const_cpuset_t cpus;
    hwloc_const_nodeset_t mem;
    hwloc_obj_t root = hwloc_get_root_obj(m->t);
    if (!hwloc_topology_is_thissystem(m->t)) { /* hwloc would bind nothing and say it did */
        gmb_strlcpy(desc,
                    "the topology is not this machine's (HWLOC_XMLFILE without "
                    "HWLOC_THISSYSTEM=1): nothing bound",
                    dlen);
        return node == GMB_NUMA_OS ? GMB_OK : GMB_ERUNTIME;
    }
    if (node == GMB_NUMA_OS) {
        if (m->changed && restore_binding(&m->sv)) {
            snprintf(desc, dlen, "restoring the thread's binding failed: %s", strerror(errno));
            return GMB_ERUNTIME;
        }
        m->changed = 0; /* restored, or nothing to undo (no system call) */
        snprintf(desc, dlen, "none (as the OS places it)");
        return GMB_OK;
    }
    if (!m->sv.ok) {
        gmb_strlcpy(desc, "the thread's binding cannot be read (so it could not be restored)",
                    dlen);
        return GMB_ERUNTIME;
    }
    if (node == GMB_NUMA_NEAR) {
        if (!m->near_nodes) {
            snprintf(desc, dlen, "the device's NUMA nodes are unknown: %s", m->near_why);
            return GMB_ERUNTIME;
        }
        cpus = m->near_cpus;
        mem = m->near_nodes;
    } else {
        hwloc_obj_t o = node_obj(m, (unsigned)node);
        if (!o) {
            snprintf(desc, dlen, "no NUMA node %d", node);
            return GMB_ERUNTIME;
        }
        /* a node without CPUs (device or CXL memory): the thread may run anywhere */
        cpus = o->cpuset && !hwloc_bitmap_iszero(o->cpuset) ? o->cpuset : root->cpuset;
        mem = o->nodeset;
    }
    char c[128], n[64];
    m->changed = 1; /* from the first system call on, a restore has work to do */
    if (hwloc_set_cpubind(m->t, cpus, HWLOC_CPUBIND_THREAD))
        return refused(m, "CPUs", cpus, desc, dlen);
    /* not strict: a preference (Linux), the OS falls back when the nodes are full */
    if (hwloc_set_membind(m->t, mem, HWLOC_MEMBIND_BIND,
                          HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET))
        return refused(m, "memory to NUMA", mem, desc, dlen);
    list_of(cpus, c, sizeof c);
    list_of(mem, n, sizeof n);
    snprintf(desc, dlen, "NUMA %s, CPUs %s", n, c);
    return GMB_OK;
}

void gmb_numa_where(gmb_numa_t *m, const void *p, size_t len, char *out, size_t olen)
{
    gmb_strlcpy(out, "unknown", olen);
    hwloc_nodeset_t s =
        m && p && len && hwloc_topology_is_thissystem(m->t) ? hwloc_bitmap_alloc() : NULL;
    if (!s)
        return;
    if (!hwloc_get_area_memlocation(m->t, p, len, s, HWLOC_MEMBIND_BYNODESET) &&
        !hwloc_bitmap_iszero(s))
        list_of(s, out, olen);
    hwloc_bitmap_free(s);
}
#else
int gmb_topo_locality(const gmb_dev_info_t *info, gmb_locality_t *out)
{
    (void)info;
    memset(out, 0, sizeof *out);
    gmb_strlcpy(out->source, "unknown", sizeof out->source);
    gmb_strlcpy(out->numa, "unknown", sizeof out->numa);
    gmb_strlcpy(out->cpuset, "unknown", sizeof out->cpuset);
    gmb_strlcpy(out->note, "gmb was built without hwloc", sizeof out->note);
    return GMB_OK;
}

gmb_numa_t *gmb_numa_open(const gmb_dev_info_t *info, char *why, size_t wlen)
{
    (void)info;
    gmb_strlcpy(why, "gmb was built without hwloc", wlen);
    return NULL;
}

void gmb_numa_close(gmb_numa_t *m)
{
    (void)m;
}

int gmb_numa_count(const gmb_numa_t *m)
{
    (void)m;
    return 0;
}

unsigned gmb_numa_os_index(const gmb_numa_t *m, int i)
{
    (void)m;
    (void)i;
    return 0;
}

int gmb_numa_has(const gmb_numa_t *m, unsigned os_index)
{
    (void)m;
    (void)os_index;
    return 0;
}

int gmb_numa_near(const gmb_numa_t *m, char *nodes, size_t nlen, char *why, size_t wlen)
{
    (void)m;
    (void)nodes;
    (void)nlen;
    gmb_strlcpy(why, "gmb was built without hwloc", wlen);
    return 0;
}

int gmb_numa_is_near(const gmb_numa_t *m, unsigned os_index)
{
    (void)m;
    (void)os_index;
    return 0;
}

int gmb_numa_came_bound(const gmb_numa_t *m)
{
    (void)m;
    return 0;
}

int gmb_numa_locality(const gmb_numa_t *m, const gmb_dev_info_t *info, gmb_locality_t *out)
{
    (void)m;
    return gmb_topo_locality(info, out);
}

int gmb_numa_home_is_os(const gmb_numa_t *m)
{
    (void)m;
    return 1;
}

int gmb_numa_has_memory(const gmb_numa_t *m, unsigned os_index)
{
    (void)m;
    (void)os_index;
    return 0;
}

void gmb_numa_home(gmb_numa_t *m, char *desc, size_t dlen)
{
    (void)m;
    gmb_strlcpy(desc, "not bound: gmb was built without hwloc", dlen);
}

int gmb_numa_bind(gmb_numa_t *m, int node, char *desc, size_t dlen)
{
    (void)m;
    (void)node;
    gmb_strlcpy(desc, "gmb was built without hwloc", dlen);
    return GMB_ERUNTIME;
}

void gmb_numa_where(gmb_numa_t *m, const void *p, size_t len, char *out, size_t olen)
{
    (void)m;
    (void)p;
    (void)len;
    gmb_strlcpy(out, "unknown", olen);
}
#endif

int gmb_place_brief(const char *b, const char *pages, char *out, size_t len)
{
    if (!b)
        return 0;
    char nodes[64] = "";
    const char *n = strstr(b, "NUMA ");
    if (n)
        sscanf(n + 5, "%63[^,;) ]", nodes);
    if (!strncmp(b, "bound to ", 9))
        snprintf(out, len, "%s: NUMA %s", strstr(b, "(the device's)") ? "near" : "bound", nodes);
    else if (!strncmp(b, "kept ", 5))
        snprintf(out, len, "kept: NUMA %s", nodes);
    else
        snprintf(out, len, "not bound");
    if (pages && strcmp(pages, "unknown") && strcmp(pages, nodes)) {
        size_t l = strlen(out);
        snprintf(out + l, len - l, ", pages NUMA %s", pages);
    }
    return 1;
}
