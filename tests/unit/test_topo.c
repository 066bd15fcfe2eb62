/* test_topo.c - device locality from stored hwloc topologies (HWLOC_XMLFILE). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if GMB_HAVE_HWLOC
#include <linux/mempolicy.h>
#endif

#include "gmb.h"
#include "topo.h"

/* two packages, one NUMA node each (CPUs 0-3, 4-7), a GPU at 0000:65:00.0 under package 1 */
#define FIXTURE "tests/fixtures/topo-2numa-gpu.xml"

static int use_fixture(void **state)
{
    (void)state;
    return setenv("HWLOC_XMLFILE", FIXTURE, 1);
}

static void gpu_by_pci(void **state)
{
    (void)state;
    gmb_dev_info_t d = {0};
    strcpy(d.type, "gpu");
    strcpy(d.pci_bus_id, "0000:65:00.0");
    gmb_locality_t l;
    assert_int_equal(gmb_topo_locality(&d, &l), 0);
#if GMB_HAVE_HWLOC
    assert_string_equal(l.source, "hwloc");
    assert_string_equal(l.numa, "1");
    assert_string_equal(l.cpuset, "4-7");
#else
    assert_string_equal(l.source, "unknown");
#endif
}

static void unknown_pci(void **state)
{
    (void)state;
    gmb_dev_info_t d = {0};
    strcpy(d.type, "gpu");
    strcpy(d.pci_bus_id, "0000:01:00.0");
    gmb_locality_t l;
    assert_int_equal(gmb_topo_locality(&d, &l), 0);
    assert_string_equal(l.source, "unknown");
    assert_string_equal(l.numa, "unknown");
    assert_string_equal(l.cpuset, "unknown");
    assert_true(strlen(l.note) > 0);
}

static void no_pci_id(void **state)
{
    (void)state;
    gmb_dev_info_t d = {0};
    strcpy(d.type, "gpu");
    gmb_locality_t l;
    assert_int_equal(gmb_topo_locality(&d, &l), 0);
    assert_string_equal(l.source, "unknown");
}

static void cpu_device_is_whole_machine(void **state)
{
    (void)state;
    gmb_dev_info_t d = {0};
    strcpy(d.type, "cpu");
    gmb_locality_t l;
    assert_int_equal(gmb_topo_locality(&d, &l), 0);
#if GMB_HAVE_HWLOC
    assert_string_equal(l.source, "hwloc (host CPU)");
    assert_string_equal(l.numa, "0-1");
    assert_string_equal(l.cpuset, "0-7");
#endif
}

static gmb_dev_info_t gpu_at(const char *bus)
{
    gmb_dev_info_t d = {0};
    strcpy(d.type, "gpu");
    strcpy(d.pci_bus_id, bus);
    return d;
}

/* The NUMA nodes, and the device's: node 1 for the GPU under package 1. */
static void numa_nodes_and_near(void **state)
{
    (void)state;
    gmb_dev_info_t d = gpu_at("0000:65:00.0");
    char why[160] = "";
    gmb_numa_t *m = gmb_numa_open(&d, why, sizeof why);
#if GMB_HAVE_HWLOC
    char nodes[32] = "";
    assert_non_null(m);
    assert_int_equal(gmb_numa_count(m), 2);
    assert_int_equal(gmb_numa_os_index(m, 0), 0);
    assert_int_equal(gmb_numa_os_index(m, 1), 1);
    assert_true(gmb_numa_has(m, 1));
    assert_false(gmb_numa_has(m, 2));
    assert_int_equal(gmb_numa_near(m, nodes, sizeof nodes, why, sizeof why), 1);
    assert_string_equal(nodes, "1");
    assert_true(gmb_numa_is_near(m, 1));
    assert_false(gmb_numa_is_near(m, 0));
    /* the locality from the same topology, without loading it again */
    gmb_locality_t l;
    assert_int_equal(gmb_numa_locality(m, &d, &l), 0);
    assert_string_equal(l.source, "hwloc");
    assert_string_equal(l.numa, "1");
    assert_string_equal(l.cpuset, "4-7");
    /* a stored topology that is not this machine's: hwloc would bind nothing and say it did */
    char desc[160];
    assert_int_equal(gmb_numa_bind(m, 0, desc, sizeof desc), GMB_ERUNTIME);
    assert_non_null(strstr(desc, "not this machine's"));
    char where[32];
    int x = 1;
    gmb_numa_where(m, &x, sizeof x, where, sizeof where);
    assert_string_equal(where, "unknown");
    /* nor does the run's own placement claim one */
    assert_false(gmb_numa_came_bound(m));
    gmb_numa_home(m, desc, sizeof desc);
    assert_non_null(strstr(desc, "not bound: the topology is not this machine's"));
    gmb_numa_close(m);
#else
    assert_null(m);
    assert_string_equal(why, "gmb was built without hwloc");
#endif
}

/* No near node where hwloc cannot place the device, or where it is every node. */
static void numa_near_unknown(void **state)
{
    (void)state;
    gmb_dev_info_t d = gpu_at("0000:01:00.0");
    char why[160] = "", nodes[32] = "";
    gmb_numa_t *m = gmb_numa_open(&d, why, sizeof why);
    assert_int_equal(gmb_numa_near(m, nodes, sizeof nodes, why, sizeof why), 0);
#if GMB_HAVE_HWLOC
    assert_non_null(strstr(why, "hwloc does not see PCI device 0000:01:00.0"));
    gmb_numa_close(m);
    gmb_dev_info_t c = {0};
    strcpy(c.type, "cpu");
    m = gmb_numa_open(&c, why, sizeof why);
    assert_non_null(m);
    assert_int_equal(gmb_numa_near(m, nodes, sizeof nodes, why, sizeof why), 0);
    assert_string_equal(why, "a CPU device's memory is every NUMA node");
    assert_false(gmb_numa_is_near(m, 0));
    gmb_numa_close(m);
#endif
}

/* Binding acts on this machine (HWLOC_THISSYSTEM=1 with the stored topology). Node 0 and one
 * of CPUs 0-3 must exist here, node 1 must not (so the OS refuses it and says why): else the
 * test is skipped. Pages the thread first touched sit on node 0 (or the OS does not say). */
static void numa_bind(void **state)
{
    (void)state;
#if GMB_HAVE_HWLOC
    cpu_set_t aff;
    int cpu03 = 0;
    if (!sched_getaffinity(0, sizeof aff, &aff))
        for (int i = 0; i < 4; i++)
            cpu03 |= CPU_ISSET(i, &aff);
    if (!access("/sys/devices/system/node/node1", F_OK) || !cpu03)
        skip(); /* this machine has a node 1, or none of CPUs 0-3 */
    assert_int_equal(setenv("HWLOC_THISSYSTEM", "1", 1), 0);
    gmb_dev_info_t d = gpu_at("0000:65:00.0");
    char why[160] = "", desc[160] = "";
    gmb_numa_t *m = gmb_numa_open(&d, why, sizeof why);
    assert_non_null(m);
    assert_int_equal(gmb_numa_bind(m, 0, desc, sizeof desc), 0);
    assert_string_equal(desc, "NUMA 0, CPUs 0-3");
    size_t len = 1 << 20;
    char *p = malloc(len);
    assert_non_null(p);
    memset(p, 1, len);
    char where[32];
    gmb_numa_where(m, p, len, where, sizeof where);
    assert_true(!strcmp(where, "0") || !strcmp(where, "unknown"));
    free(p);
    assert_int_equal(gmb_numa_bind(m, 1, desc, sizeof desc), GMB_ERUNTIME);
    assert_non_null(strstr(desc, "failed"));
    assert_int_equal(gmb_numa_bind(m, GMB_NUMA_NEAR, desc, sizeof desc), GMB_ERUNTIME);
    assert_int_equal(gmb_numa_bind(m, 7, desc, sizeof desc), GMB_ERUNTIME);
    assert_string_equal(desc, "no NUMA node 7");
    assert_int_equal(gmb_numa_bind(m, GMB_NUMA_OS, desc, sizeof desc), 0);
    assert_string_equal(desc, "none (as the OS places it)");
    gmb_numa_where(m, NULL, 0, where, sizeof where);
    assert_string_equal(where, "unknown");
    gmb_numa_close(m);
    assert_int_equal(unsetenv("HWLOC_THISSYSTEM"), 0);
#endif
}

#if GMB_HAVE_HWLOC
/* The thread's memory policy and CPU affinity, as the OS holds them. */
typedef struct binding {
    int mode;
    unsigned long nodes[64];
    cpu_set_t cpus;
} binding_t;

static binding_t binding_now(void)
{
    binding_t b;
    memset(&b, 0, sizeof b);
    assert_int_equal(syscall(SYS_get_mempolicy, &b.mode, b.nodes, 4096UL, NULL, 0UL), 0);
    assert_int_equal(sched_getaffinity(0, sizeof b.cpus, &b.cpus), 0);
    return b;
}

static void assert_binding(const binding_t *a, const binding_t *b)
{
    assert_int_equal(a->mode, b->mode);
    assert_memory_equal(a->nodes, b->nodes, sizeof a->nodes);
    assert_true(CPU_EQUAL(&a->cpus, &b->cpus));
}
#endif

/* On this machine's own topology: a binding the process came with (here a strict memory
 * binding to node 0, as numactl --membind=0 makes) is kept and said, and after binding node
 * 0 the restore gives back exactly that policy, not a preference; unbound, a restore gives
 * back the default. */
static void numa_restore_exact(void **state)
{
    (void)state;
#if GMB_HAVE_HWLOC
    char *xml = getenv("HWLOC_XMLFILE") ? strdup(getenv("HWLOC_XMLFILE")) : NULL;
    assert_int_equal(unsetenv("HWLOC_XMLFILE"), 0);
    gmb_dev_info_t c = {0};
    strcpy(c.type, "cpu");
    char why[160] = "", desc[224] = "";
    binding_t start = binding_now();
    gmb_numa_t *m = gmb_numa_open(&c, why, sizeof why);
    assert_non_null(m);
    assert_false(gmb_numa_came_bound(m));
    assert_int_equal(gmb_numa_bind(m, 0, desc, sizeof desc), 0);
    assert_int_equal(gmb_numa_bind(m, GMB_NUMA_OS, desc, sizeof desc), 0);
    binding_t now = binding_now();
    assert_binding(&start, &now);
    gmb_numa_close(m);

    unsigned long node0 = 1;
    assert_int_equal(syscall(SYS_set_mempolicy, MPOL_BIND, &node0, 65UL), 0);
    binding_t strict = binding_now();
    m = gmb_numa_open(&c, why, sizeof why);
    assert_non_null(m);
    assert_true(gmb_numa_came_bound(m));
    assert_true(gmb_numa_home_is_os(m));
    gmb_numa_home(m, desc, sizeof desc);
    assert_non_null(strstr(desc, "kept the binding the process came with: CPUs "));
    assert_non_null(strstr(desc, ", memory bind NUMA 0"));
    assert_int_equal(gmb_numa_bind(m, 0, desc, sizeof desc), 0);
    gmb_numa_home(m, desc, sizeof desc); /* the run's own again: the strict binding */
    now = binding_now();
    assert_binding(&strict, &now);
    gmb_numa_close(m);
    now = binding_now();
    assert_binding(&strict, &now);
    assert_int_equal(syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0UL), 0);
    if (xml) {
        assert_int_equal(setenv("HWLOC_XMLFILE", xml, 1), 0);
        free(xml);
    }
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_by_pci),          cmocka_unit_test(unknown_pci),
        cmocka_unit_test(no_pci_id),           cmocka_unit_test(cpu_device_is_whole_machine),
        cmocka_unit_test(numa_nodes_and_near), cmocka_unit_test(numa_near_unknown),
        cmocka_unit_test(numa_bind),           cmocka_unit_test(numa_restore_exact),
    };
    return cmocka_run_group_tests(tests, use_fixture, NULL);
}
