/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's -g/-M: UD sends to a multicast group. Each end receives on a
 * group of its own (the base group on the server, the base with its last
 * byte plus one on the client, as perftest's default groups), attaches its
 * QP to it and tells the peer the group and QPN 0xffffff instead of its
 * GID and QPN, so the peer's address handle points at the group. On RoCE
 * the kernel delivers a RoCE v2 multicast packet only to a host that is a
 * member of the IP group, which ibv_attach_mcast does not make it
 * (rdma_cm's join does, with IGMP/MLD): so the end also joins the IP group
 * on the GID's interface, with a socket held for the run. InfiniBand needs
 * a subnet-manager join instead, which gdperf does not send: refused.
 */
#ifndef GD_MCAST_H
#define GD_MCAST_H

#include <stdbool.h>

#include <infiniband/verbs.h>

#include "transport/verbs.h"

struct json_object;

#define GD_MCAST_QPN 0xffffffu /* a UD send to a group's QPs */

struct gd_mcast {
	union ibv_gid group; /* this end's group */
	char group_text[64];
	bool attached;	/* QP 0 is attached to the group */
	bool ip_joined; /* ip_fd holds the IP-level membership */
	int ip_fd;
	unsigned int ifindex;
};

/* perftest's -M form (16 colon-separated bytes, decimal or 0x hex:
 * "255:14:0:...:1") or an IPv6 address ("ff0e::1", "::ffff:239.1.1.1")
 * into @raw; -EINVAL naming both forms otherwise, or when it is no
 * multicast address (IPv6 ff00::/8 or IPv4-mapped 224.0.0.0/4). */
int gd_mgid_parse(const char *text, uint8_t raw[16]);

/* This end's group: @base (NULL: 239.255.103.100 IPv4-mapped for an IPv4
 * GID, ff0e::6764 for an IPv6 one), its last byte plus one on the client. */
void gd_mcast_group(const struct gd_port_info *port, const uint8_t *base,
		    bool is_client, union ibv_gid *out);

/* Attach QP 0 of @v to @m->group (set by gd_mcast_group) and join the IP
 * group on the GID's interface. Errors name the device, the group and
 * what to check. */
int gd_mcast_join(struct gd_verbs *v, struct gd_mcast *m);
/* Leave what gd_mcast_join joined; harmless when nothing was. */
void gd_mcast_leave(struct gd_verbs *v, struct gd_mcast *m);
/* {"group", "qpn", "ip_joined", "ifindex"} for the JSON endpoint. */
struct json_object *gd_mcast_describe(const struct gd_mcast *m);

#endif
