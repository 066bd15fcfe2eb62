/* topo.c - device locality through hwloc: the NUMA nodes and CPUs next to a device. */
#include "gmb.h"
#include "meta.h"

#include <stdlib.h>
#include <string.h>

#if GMB_HAVE_HWLOC
#include <hwloc.h>

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

int gmb_topo_locality(const gmb_dev_info_t *info, gmb_locality_t *out)
{
    memset(out, 0, sizeof *out);
    hwloc_topology_t t;
    if (hwloc_topology_init(&t)) {
        set_unknown(out, "hwloc_topology_init failed");
        return GMB_OK;
    }
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(t)) {
        hwloc_topology_destroy(t);
        set_unknown(out, "hwloc_topology_load failed");
        return GMB_OK;
    }
    if (!strcmp(info->type, "cpu")) {
        /* the device is the host's CPUs: its memory is every NUMA node */
        hwloc_obj_t root = hwloc_get_root_obj(t);
        gmb_strlcpy(out->source, "hwloc (host CPU)", sizeof out->source);
        put_sets(root->cpuset, root->nodeset, out);
        snprintf(out->note, sizeof out->note, "CPU device: the whole machine");
    } else if (info->pci_bus_id[0]) {
        hwloc_obj_t pci = hwloc_get_pcidev_by_busidstring(t, info->pci_bus_id);
        hwloc_obj_t anc = pci ? hwloc_get_non_io_ancestor_obj(t, pci) : NULL;
        if (!anc) {
            char why[160];
            snprintf(why, sizeof why, "hwloc does not see PCI device %s", info->pci_bus_id);
            set_unknown(out, why);
        } else {
            gmb_strlcpy(out->source, "hwloc", sizeof out->source);
            put_sets(anc->cpuset, anc->nodeset, out);
            snprintf(out->note, sizeof out->note, "PCI %s under %s L#%u", info->pci_bus_id,
                     hwloc_obj_type_string(anc->type), anc->logical_index);
        }
    } else {
        set_unknown(out, "the driver reports no PCI bus id for this device");
    }
    hwloc_topology_destroy(t);
    return GMB_OK;
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
#endif
