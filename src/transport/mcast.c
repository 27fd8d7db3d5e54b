/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * UD multicast groups (-g/-M): the group's address in perftest's form or
 * IPv6 text, each end's group, the attach and the IP-level membership a
 * RoCE v2 group needs on Linux (see mcast.h).
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-c/json.h>

#include "util/error.h"
#include "transport/mcast.h"

static bool gd_raw_is_v4mapped(const uint8_t *r)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0,    0,
					    0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(r, prefix, sizeof(prefix));
}

static bool gd_raw_is_mcast(const uint8_t *r)
{
	return r[0] == 0xff || (gd_raw_is_v4mapped(r) && (r[12] >> 4) == 0xe);
}

/* perftest's 16 colon-separated bytes */
static int gd_mgid_bytes(const char *text, uint8_t raw[16])
{
	const char *p = text;

	for (int i = 0; i < 16; i++) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 0);
		if (errno || end == p || v < 0 || v > 255 ||
		    *end != (i == 15 ? '\0' : ':'))
			return -1;
		raw[i] = (uint8_t)v;
		p = end + 1;
	}
	return 0;
}

int gd_mgid_parse(const char *text, uint8_t raw[16])
{
	int colons = 0;

	for (const char *c = text; *c; c++)
		colons += *c == ':';
	if (colons == 15 ? gd_mgid_bytes(text, raw)
			 : inet_pton(AF_INET6, text, raw) != 1)
		return gd_err(
			-EINVAL,
			"-M %s: give the group as perftest does, 16 bytes separated by ':' (255:14:0:0:0:0:0:0:0:0:0:0:0:0:0:1), or as an IPv6 address (ff0e::1, ::ffff:239.1.1.1)",
			text);
	if (!gd_raw_is_mcast(raw))
		return gd_err(
			-EINVAL,
			"-M %s is no multicast group: give an IPv6 multicast address (ff00::/8) or an IPv4-mapped one (::ffff:224.0.0.0 to ::ffff:239.255.255.255)",
			text);
	return 0;
}

void gd_mcast_group(const struct gd_port_info *port, const uint8_t *base,
		    bool is_client, union ibv_gid *out)
{
	/* organisation-local scope: 239.255.0.0/16 and ff08::/16 would do,
	 * site-local ff0e is perftest's kind of default; 0x67 0x64 is "gd" */
	static const uint8_t v4[16] = { 0, 0, 0,    0,	  0,   0,   0,	 0,
					0, 0, 0xff, 0xff, 239, 255, 103, 100 };
	static const uint8_t v6[16] = { 0xff, 0x0e, 0, 0, 0, 0, 0,    0,
					0,    0,    0, 0, 0, 0, 0x67, 0x64 };

	memcpy(out->raw,
	       base				   ? base
	       : gd_raw_is_v4mapped(port->gid.raw) ? v4
						   : v6,
	       16);
	if (is_client)
		out->raw[15]++;
}

/* The netdev behind the GID, for the IPv6 membership. */
static unsigned int gd_gid_ifindex(struct gd_verbs *v)
{
	char path[512], name[IF_NAMESIZE + 2] = "";
	FILE *f;

#ifdef HAVE__IBV_QUERY_GID_EX
	struct ibv_gid_entry e;

	if (!ibv_query_gid_ex(v->ctx, v->port.port, (uint32_t)v->port.gid_index,
			      &e, 0) &&
	    e.ndev_ifindex)
		return e.ndev_ifindex;
#endif
	snprintf(path, sizeof(path), "%s/ports/%u/gid_attrs/ndevs/%d",
		 v->ctx->device->ibdev_path, v->port.port, v->port.gid_index);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(name, sizeof(name), f))
		name[0] = '\0';
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	return name[0] ? if_nametoindex(name) : 0;
}

static int gd_mcast_ip_join(struct gd_verbs *v, struct gd_mcast *m)
{
	const uint8_t *g = m->group.raw, *l = v->port.gid.raw;
	bool v4 = gd_raw_is_v4mapped(g);
	int ret;

	if (v4 != gd_raw_is_v4mapped(l))
		return gd_err(
			-EINVAL,
			"-g: group %s is %s but GID %d of %s is %s (%s); give a group of the GID's kind with -M, or another GID with -x",
			m->group_text, v4 ? "IPv4" : "IPv6", v->port.gid_index,
			v->port.dev_name, v4 ? "IPv6" : "IPv4",
			v->port.gid_text);
	m->ip_fd =
		socket(v4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (m->ip_fd < 0)
		return gd_err(-errno, "-g: cannot open a socket to join %s: %s",
			      m->group_text, strerror(errno));
	if (v4) {
		struct ip_mreq mr;

		memcpy(&mr.imr_multiaddr.s_addr, g + 12, 4);
		memcpy(&mr.imr_interface.s_addr, l + 12, 4);
		ret = setsockopt(m->ip_fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr,
				 sizeof(mr));
	} else {
		struct ipv6_mreq mr;

		m->ifindex = gd_gid_ifindex(v);
		memcpy(&mr.ipv6mr_multiaddr, g, 16);
		mr.ipv6mr_interface = m->ifindex;
		ret = m->ifindex
			      ? setsockopt(m->ip_fd, IPPROTO_IPV6,
					   IPV6_ADD_MEMBERSHIP, &mr, sizeof(mr))
			      : (errno = ENODEV, -1);
	}
	if (!ret) {
		m->ip_joined = true;
		return 0;
	}
	ret = -errno;
	close(m->ip_fd);
	errno = -ret;
	return gd_err(
		ret,
		"-g: cannot join IP group %s on the interface of %s GID %d (%s): %s; RoCE v2 delivers a group's packets only to members (check ip maddr, and the interface's multicast flag)",
		m->group_text, v->port.dev_name, v->port.gid_index,
		v->port.gid_text, strerror(-ret));
}

int gd_mcast_join(struct gd_verbs *v, struct gd_mcast *m)
{
	int ret;

	inet_ntop(AF_INET6, m->group.raw, m->group_text, sizeof(m->group_text));
	if (v->port.link_layer != IBV_LINK_LAYER_ETHERNET)
		return gd_err(
			-EOPNOTSUPP,
			"-g on %s port %u (InfiniBand): the group must be joined at the subnet manager (an SA MCMemberRecord join, as perftest sends through umad), which gdperf does not do; run -g on RoCE, or without -g",
			v->port.dev_name, v->port.port);
	ret = ibv_attach_mcast(v->qp[0], &m->group, 0);
	if (ret)
		return gd_err(
			-ret,
			"-g: cannot attach QP 0x%x on %s to group %s (ibv_attach_mcast): %s; check the device's max_mcast_grp (ibv_devinfo -v)",
			v->qp[0]->qp_num, v->port.dev_name, m->group_text,
			strerror(ret));
	m->attached = true;
	return gd_mcast_ip_join(v, m);
}

void gd_mcast_leave(struct gd_verbs *v, struct gd_mcast *m)
{
	if (m->attached && v->qp[0])
		ibv_detach_mcast(v->qp[0], &m->group, 0);
	m->attached = false;
	if (m->ip_joined)
		close(m->ip_fd);
	m->ip_joined = false;
}

struct json_object *gd_mcast_describe(const struct gd_mcast *m)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "group",
			       json_object_new_string(m->group_text));
	json_object_object_add(j, "attached",
			       json_object_new_boolean(m->attached));
	json_object_object_add(j, "ip_joined",
			       json_object_new_boolean(m->ip_joined));
	if (m->ifindex)
		json_object_object_add(j, "ifindex",
				       json_object_new_int64(m->ifindex));
	return j;
}
