/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The test envelope: what was tested (host, RDMA devices, GPUs, platform,
 * GPU-to-NIC map, registration route) and the findings about it, as one
 * JSON object. gd_doctor prints it; every gd_* run embeds it.
 */
#ifndef GD_ENVELOPE_H
#define GD_ENVELOPE_H

#include <stdint.h>

struct json_object;

#define GD_ENVELOPE_SCHEMA "gdperf.envelope/1"

/* Leave the device backends' drivers alone (starting a GPU driver can take
 * seconds on a busy node); their modules and files are still read. */
#define GD_ENVELOPE_NO_GPU (1u << 0)
/* Skip the hwloc topology, GPU-to-NIC map and ACS reads. */
#define GD_ENVELOPE_NO_TOPOLOGY (1u << 1)
/* What a gd_* run can afford before its first measurement. */
#define GD_ENVELOPE_QUICK GD_ENVELOPE_NO_TOPOLOGY

struct gd_envelope_opts {
	const char *root;	     /* sysfs/proc root; NULL or "/" = live */
	const char *topology_xml;    /* hwloc XML instead of the live system */
	const char *rails_path;	     /* "DEVICE RAIL" lines; NULL = no rails */
	uint64_t memlock_need_bytes; /* 0 = no RLIMIT_MEMLOCK check */
	unsigned int flags;	     /* GD_ENVELOPE_* */
	const char *peer;	     /* --peer HOST[:PORT]: bootstrap check */
	int peer_timeout_ms;	     /* its TCP connect limit; 0: 3000 */
};

enum gd_severity { GD_SEV_INFO, GD_SEV_WARNING, GD_SEV_ERROR };

/*
 * Build the envelope into *@out (caller puts it). Inventory problems become
 * findings inside the envelope, not errors; only allocation failures and an
 * unreadable --topology-xml/--rails file return -errno (with gd_err).
 */
int gd_envelope_collect(const struct gd_envelope_opts *opts,
			struct json_object **out);

enum gd_pcie_ro_state {
	GD_PCIE_RO_UNKNOWN,
	GD_PCIE_RO_ENABLED,
	GD_PCIE_RO_DISABLED,
};

/* What the NIC function's PCIe Device Control says of relaxed ordering. */
struct gd_pcie_ro {
	enum gd_pcie_ro_state state;
	char bdf[16];	     /* the RDMA device's PCI function, if found */
	unsigned int devctl; /* Device Control, when read */
	char text[512];	     /* "enabled (...)", "disabled (...)" or
			      * "unknown (why)" */
};

/*
 * Read the "Enable Relaxed Ordering" bit of RDMA device @ibdev's PCI
 * function (ROOT/sys/class/infiniband/DEV/device; @root NULL or "/" is the
 * live system). 0 when read; -errno with ro->text "unknown (why)" when not:
 * -ENODEV no PCI function (rxe, siw) or it did not answer, -EACCES config
 * space not readable without CAP_SYS_ADMIN, -ENOENT no PCI Express
 * capability, -EIO libpci failed. Records nothing with gd_err.
 */
int gd_envelope_pcie_ro(const char *root, const char *ibdev,
			struct gd_pcie_ro *ro);

/* Highest severity among the envelope's findings (GD_SEV_INFO if none). */
enum gd_severity gd_envelope_worst(struct json_object *envelope);
const char *gd_severity_name(enum gd_severity sev);

#endif
