/* test_topo.c - device locality from stored hwloc topologies (HWLOC_XMLFILE). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "meta.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_by_pci),
        cmocka_unit_test(unknown_pci),
        cmocka_unit_test(no_pci_id),
        cmocka_unit_test(cpu_device_is_whole_machine),
    };
    return cmocka_run_group_tests(tests, use_fixture, NULL);
}
