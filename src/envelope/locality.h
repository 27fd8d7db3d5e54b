/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Choosing device memory by its place relative to the NIC in use, from the
 * envelope's GPU-to-NIC map (--mem=BACKEND:near, :far).
 */
#ifndef GD_ENVELOPE_LOCALITY_H
#define GD_ENVELOPE_LOCALITY_H

struct json_object;

enum gd_locality { GD_LOCALITY_NEAR, GD_LOCALITY_FAR };

struct gd_device_pick {
	int index; /* the backend's ordinal */
	char pci_bus_id[32];
	char path_class[8]; /* PIX, PXB, PHB, NODE, SYS */
	char why[512];
};

/*
 * From @env's topology.map (rows keyed by the backend's @index_key) pick the
 * device nearest to @nic, or the least local one (SYS before NODE before
 * PHB ...) that is still farther than the nearest, among devices the route
 * record does not rule out; ties go to the first in PCI order. 0, or
 * -ENODATA (no map) / -ENODEV (nothing fits) with a message.
 */
int gd_envelope_pick_device(struct json_object *env, const char *index_key,
			    const char *nic, enum gd_locality which,
			    struct gd_device_pick *out);

#endif
