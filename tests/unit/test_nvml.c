/* test_nvml.c - gmb's NVML use against a stand-in libnvidia-ml.so.1 (nvml_stub.c, loaded
 * through GMB_NVML_LIB): clocks, values NVML does not give, violation times during a run,
 * the device facts it fills, the PCIe link. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "nvml.h"

struct nvml_stub { /* as in nvml_stub.c */
    int fail_clock, fail_temp, fail_reasons, fail_viol, fail_bus, fail_energy;
    unsigned sm, mem, sm_max, mem_max, temp, power_mw, bus, gen, width, max_gen, max_width;
    int ecc;
    unsigned long long reasons, viol_ns[12];
    unsigned long long mem_total, mem_free; /* nvmlDeviceGetMemoryInfo; total 0: fails */
    /* NVLink: links (0: not supported), which are up and which end at an NVSwitch (bit masks;
     * the others end at the GPU 00000000:02:00.0), the version enum */
    unsigned nvl_links, nvl_up, nvl_switch, nvl_version;
};
static struct nvml_stub *stub, defaults;

#define GPU "0000:01:00.0"

static int setup(void **state)
{
    (void)state;
    char exe[PATH_MAX], lib[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    snprintf(lib, sizeof lib, "%s/stub/libnvidia-ml.so.1", dirname(exe));
    setenv("GMB_NVML_LIB", lib, 1);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL); /* the same instance gmb will load */
    if (!h)
        return -1;
    stub = dlsym(h, "nvml_stub");
    if (!stub)
        return -1;
    defaults = *stub;
    return 0;
}

static int reset(void **state)
{
    (void)state;
    *stub = defaults;
    return 0;
}

static void clocks_known(void **state)
{
    (void)state;
    gmb_clocks_t k;
    stub->reasons = 0x4 | 0x40; /* sw power cap, hw thermal */
    assert_int_equal(gmb_nvml_clocks(GPU, &k), 0);
    assert_true(k.available);
    assert_int_equal(k.sm_mhz, 1980);
    assert_int_equal(k.mem_mhz, 2619);
    assert_int_equal(k.sm_max_mhz, 1980);
    assert_int_equal(k.temp_c, 41);
    assert_true(k.power_w > 119.9 && k.power_w < 120.1);
    assert_true(k.throttle_known);
    char names[256];
    gmb_throttle_names(k.throttle, names, sizeof names);
    assert_non_null(strstr(names, "sw_power_cap"));
    assert_non_null(strstr(names, "hw_thermal"));
}

static void clocks_unknown_are_null(void **state)
{
    (void)state;
    stub->fail_clock = stub->fail_temp = stub->fail_reasons = 1;
    gmb_clocks_t k;
    assert_int_equal(gmb_nvml_clocks(GPU, &k), 0);
    assert_true(k.available);
    assert_int_equal(k.sm_mhz, GMB_UNKNOWN);
    assert_int_equal(k.mem_mhz, GMB_UNKNOWN);
    assert_int_equal(k.sm_max_mhz, GMB_UNKNOWN);
    assert_int_equal(k.temp_c, GMB_UNKNOWN);
    assert_false(k.throttle_known);
}

static void unknown_device(void **state)
{
    (void)state;
    gmb_clocks_t k;
    assert_int_equal(gmb_nvml_clocks("0000:02:00.0", &k), 0);
    assert_false(k.available);
    assert_non_null(strstr(k.why, "does not know"));
    assert_int_equal(gmb_nvml_clocks("", &k), 0);
    assert_false(k.available);
}

static void violation_during_run(void **state)
{
    (void)state;
    gmb_clocks_t a, b;
    stub->viol_ns[0] = 1000000000ull; /* power: 1 s so far */
    stub->viol_ns[1] = 5000000ull;    /* thermal: 5 ms */
    stub->viol_ns[3] = 0;             /* board limit */
    assert_int_equal(gmb_nvml_clocks(GPU, &a), 0);
    assert_int_equal(a.viol_ns[0], 1000000000ll);
    stub->viol_ns[0] += 250000000ull; /* 250 ms more during the run */
    assert_int_equal(gmb_nvml_clocks(GPU, &b), 0);
    json_t *clocks = json_object();
    gmb_json_clocks_during(clocks, &a, &b, 2.0);
    json_t *d = json_object_get(clocks, "during");
    assert_non_null(d);
    assert_true(json_real_value(json_object_get(d, "power_capped_ms")) > 249.9);
    assert_true(json_real_value(json_object_get(d, "power_capped_ms")) < 250.1);
    assert_true(json_real_value(json_object_get(d, "thermal_capped_ms")) == 0.0);
    assert_true(json_is_real(json_object_get(d, "board_limit_capped_ms")));
    json_decref(clocks);
    /* NVML without the violation query: null, not zero */
    stub->fail_viol = 1;
    assert_int_equal(gmb_nvml_clocks(GPU, &b), 0);
    assert_int_equal(b.viol_ns[0], -1);
    clocks = json_object();
    gmb_json_clocks_during(clocks, &a, &b, 2.0);
    assert_true(
        json_is_null(json_object_get(json_object_get(clocks, "during"), "power_capped_ms")));
    json_decref(clocks);
    /* no NVML for the device: no "during" at all */
    gmb_clocks_t none = {0};
    clocks = json_object();
    gmb_json_clocks_during(clocks, &none, &none, 2.0);
    assert_null(json_object_get(clocks, "during"));
    json_decref(clocks);
}

static void fills_device_facts(void **state)
{
    (void)state;
    gmb_dev_info_t d = {0};
    strcpy(d.backend, "opencl");
    strcpy(d.pci_bus_id, GPU);
    d.ecc = -1;
    assert_int_equal(gmb_nvml_fill_info(&d), 0);
    assert_int_equal(d.mem_clock_mhz, 3201);
    assert_int_equal(d.bus_width_bits, 6144);
    assert_int_equal(d.core_clock_mhz, 1980);
    assert_int_equal(d.ecc, 1);
    assert_string_equal(d.driver_version, "580.159.04");
    assert_string_equal(d.serial, "1654124045436");
    assert_string_equal(d.board_part, "692-2G520-0282-001");
    gmb_dev_info_derive(&d);
    assert_true(d.peak_bw_gbps > 4916.0 && d.peak_bw_gbps < 4918.0); /* 2 x 3201 x 6144 / 8 */
    assert_string_equal(d.mem_type, "HBM");
    /* a device NVML does not know: the reason stays with the unknown peak */
    gmb_dev_info_t u = {0};
    strcpy(u.backend, "opencl");
    strcpy(u.pci_bus_id, "0000:02:00.0");
    u.ecc = -1;
    assert_int_equal(gmb_nvml_fill_info(&u), GMB_ESKIP);
    gmb_dev_info_derive(&u);
    assert_true(u.peak_bw_gbps == 0);
    assert_non_null(strstr(u.peak_source, "does not know"));
}

static void pcie_max_not_below_link(void **state)
{
    (void)state;
    gmb_pcie_t p;
    assert_int_equal(gmb_nvml_pcie(GPU, &p), 0);
    assert_true(p.available);
    assert_int_equal(p.gen, 4);
    assert_int_equal(p.width, 16);
    assert_int_equal(p.max_gen, 4);    /* the VM's port said 4: the link runs at 4 */
    assert_int_equal(p.max_width, 16); /* it said 8: the link runs at 16 */
}

/* The energy counter: it advances with the stand-in's power (120 W: 120 mJ per ms, in 10 ms
 * steps); NVML without it, or an unknown device, says why. */
static void energy_counter(void **state)
{
    (void)state;
    unsigned long long e0, e1;
    char why[160] = "";
    assert_int_equal(gmb_nvml_energy(GPU, &e0, why, sizeof why), 1);
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    assert_int_equal(gmb_nvml_energy(GPU, &e1, why, sizeof why), 1);
    assert_true(e1 - e0 >= 4800 && e1 - e0 <= 7200); /* 50 ms (+ a step) at 120 W */
    stub->fail_energy = 1;
    assert_int_equal(gmb_nvml_energy(GPU, &e1, why, sizeof why), 0);
    assert_non_null(strstr(why, "NVML gives no total energy for " GPU));
    assert_int_equal(gmb_nvml_energy("0000:02:00.0", &e1, why, sizeof why), 0);
    assert_non_null(strstr(why, "does not know"));
}

/* NVML's memory counts, and the reason where it does not give them */
static void memory_counts(void **state)
{
    (void)state;
    gmb_nvml_mem_t m;
    assert_int_equal(gmb_nvml_mem(GPU, &m), 1);
    assert_int_equal(m.available, 1);
    assert_true(m.total == stub->mem_total && m.free == stub->mem_free);
    assert_true(m.used == stub->mem_total - stub->mem_free);
    stub->mem_total = 0;
    assert_int_equal(gmb_nvml_mem(GPU, &m), 0);
    assert_int_equal(m.available, 0);
    assert_non_null(strstr(m.why, "nvmlDeviceGetMemoryInfo: NVML error"));
    assert_true(m.total == 0 && m.free == 0);
    assert_int_equal(gmb_nvml_mem("0000:99:00.0", &m), 0);
    assert_non_null(strstr(m.why, "does not know"));
}

/* NVLink: links up, their version and nominal rate, where each ends; a GPU without */
static void nvlink_links(void **state)
{
    (void)state;
    gmb_nvlink_t l;
    assert_int_equal(gmb_nvml_nvlink(GPU, &l), 1);
    assert_int_equal(l.links, 18);
    assert_int_equal(l.links_up, 7);
    assert_int_equal(l.version, 6);
    assert_string_equal(l.version_text, "4.0");
    assert_true(l.link_gbps == 25);
    int direct, sw;
    /* 6 links to the GPU at 02:00.0, 1 to an NVSwitch: 7 x 25 GB/s to that GPU */
    assert_true(gmb_nvlink_to(&l, "0000:02:00.0", &direct, &sw) == 175);
    assert_true(direct == 6 && sw == 1);
    /* another GPU: through the switch only */
    assert_true(gmb_nvlink_to(&l, "0000:03:00.0", &direct, &sw) == 25);
    assert_true(direct == 0 && sw == 1);
    stub->nvl_switch = 0;
    assert_int_equal(gmb_nvml_nvlink(GPU, &l), 1);
    assert_true(gmb_nvlink_to(&l, "0000:03:00.0", &direct, &sw) == 0 && !direct && !sw);
    stub->nvl_version = 99; /* an enum NVML adds later: links counted, no nominal rate */
    assert_int_equal(gmb_nvml_nvlink(GPU, &l), 1);
    assert_true(l.version == 0 && l.link_gbps == 0 && l.version_text[0] == '\0');
    assert_true(gmb_nvlink_to(&l, "0000:02:00.0", &direct, &sw) == 0 && direct == 7);
    stub->nvl_links = 0; /* a PCIe GPU */
    assert_int_equal(gmb_nvml_nvlink(GPU, &l), 0);
    assert_non_null(strstr(l.why, "no NVLink (nvmlDeviceGetNvLinkState: not supported)"));
    assert_int_equal(gmb_nvml_nvlink("0000:99:00.0", &l), 0);
    assert_non_null(strstr(l.why, "does not know"));
}

static void pci_ids(void **state)
{
    (void)state;
    assert_true(gmb_pci_same("0000:17:00.0", "00000000:17:00.0"));
    assert_true(gmb_pci_same("0000:c0:00.1", "00000000:C0:00.1"));
    assert_false(gmb_pci_same("0000:17:00.0", "0000:17:00.1"));
    assert_false(gmb_pci_same("", "0000:17:00.0"));
    assert_false(gmb_pci_same("0000:17:00.0x", "0000:17:00.0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(clocks_known, reset),
        cmocka_unit_test_setup(clocks_unknown_are_null, reset),
        cmocka_unit_test_setup(unknown_device, reset),
        cmocka_unit_test_setup(violation_during_run, reset),
        cmocka_unit_test_setup(fills_device_facts, reset),
        cmocka_unit_test_setup(pcie_max_not_below_link, reset),
        cmocka_unit_test_setup(energy_counter, reset),
        cmocka_unit_test_setup(memory_counts, reset),
        cmocka_unit_test_setup(nvlink_links, reset),
        cmocka_unit_test_setup(pci_ids, reset),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
