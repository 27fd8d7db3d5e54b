/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * hw_counters over RDMA netlink: find the device's index in an nldev GET
 * dump, then ask STAT_GET for the port's default counters. The kernel
 * fills that reply from the driver's get_hw_stats on every request, which
 * is why gdperf prefers it to sysfs (see counters_nl.h).
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "transport/counters_nl.h"
#include "util/error.h"

/* A STAT_GET reply carries about 40 bytes per counter: mlx5's 100-odd
 * counters fit many times over. */
#define GD_NL_BUF_BYTES 65536
/* The kernel answers at once; this only bounds a kernel that never does. */
#define GD_NL_TIMEOUT_MS 2000

/* Attributes of one message, indexed by type; newer ones are ignored. */
static int gd_nl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;

	if (mnl_attr_type_valid(attr, RDMA_NLDEV_ATTR_MAX - 1) < 0)
		return MNL_CB_OK;
	tb[mnl_attr_get_type(attr)] = attr;
	return MNL_CB_OK;
}

int gd_counters_nl_parse_dev(const struct nlmsghdr *nlh, const char *device,
			     uint32_t *index)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *name, *idx;

	if (mnl_attr_parse(nlh, 0, gd_nl_attr_cb, tb) != MNL_CB_OK)
		return 0;
	name = tb[RDMA_NLDEV_ATTR_DEV_NAME];
	idx = tb[RDMA_NLDEV_ATTR_DEV_INDEX];
	if (!name || !idx || mnl_attr_validate(name, MNL_TYPE_NUL_STRING) < 0 ||
	    mnl_attr_validate(idx, MNL_TYPE_U32) < 0 ||
	    strcmp(mnl_attr_get_str(name), device))
		return 0;
	*index = mnl_attr_get_u32(idx);
	return 1;
}

/* One RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY: its name and value. */
static int gd_nl_entry(const struct nlattr *entry, gd_nl_counter_fn fn,
		       void *arg)
{
	const struct nlattr *a, *name = NULL, *value = NULL;

	mnl_attr_for_each_nested(a, entry)
	{
		if (mnl_attr_get_type(a) ==
		    RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME)
			name = a;
		else if (mnl_attr_get_type(a) ==
			 RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE)
			value = a;
	}
	if (!name || !value ||
	    mnl_attr_validate(name, MNL_TYPE_NUL_STRING) < 0 ||
	    mnl_attr_validate(value, MNL_TYPE_U64) < 0)
		return gd_err(
			-EPROTO,
			"a hw counter entry without a name or a 64-bit value");
	return fn(mnl_attr_get_str(name), mnl_attr_get_u64(value), arg);
}

int gd_counters_nl_parse_stat(const struct nlmsghdr *nlh, gd_nl_counter_fn fn,
			      void *arg)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *table, *entry;
	int n = 0, ret;

	if (mnl_attr_parse(nlh, 0, gd_nl_attr_cb, tb) != MNL_CB_OK)
		return gd_err(-EPROTO, "a STAT_GET reply that does not parse");
	table = tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS];
	if (!table)
		return gd_err(-EPROTO, "a STAT_GET reply without hw counters");
	mnl_attr_for_each_nested(entry, table)
	{
		if (mnl_attr_get_type(entry) !=
		    RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		ret = gd_nl_entry(entry, fn, arg);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

struct gd_nl_dev {
	const char *device;
	uint32_t index;
	int found;
};

static int gd_nl_dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct gd_nl_dev *d = data;

	if (!d->found)
		d->found = gd_counters_nl_parse_dev(nlh, d->device, &d->index);
	return MNL_CB_OK;
}

struct gd_nl_stat {
	gd_nl_counter_fn fn;
	void *arg;
	int ret;
};

static int gd_nl_stat_cb(const struct nlmsghdr *nlh, void *data)
{
	struct gd_nl_stat *s = data;

	s->ret = gd_counters_nl_parse_stat(nlh, s->fn, s->arg);
	return s->ret < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

/* Send @req and run @cb over the replies until the kernel's ack or the
 * dump's end. 0 or -errno (the kernel's, or the socket's). */
static int gd_nl_talk(struct mnl_socket *nl, struct nlmsghdr *req, char *buf,
		      mnl_cb_t cb, void *data)
{
	unsigned int portid = mnl_socket_get_portid(nl);
	ssize_t len;
	int ret;

	if (mnl_socket_sendto(nl, req, req->nlmsg_len) < 0)
		return -errno;
	do {
		len = mnl_socket_recvfrom(nl, buf, GD_NL_BUF_BYTES);
		if (len < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		errno = 0;
		ret = mnl_cb_run(buf, (size_t)len, req->nlmsg_seq, portid, cb,
				 data);
	} while (ret > MNL_CB_STOP);
	return ret < 0 ? (errno ? -errno : -EPROTO) : 0;
}

static struct nlmsghdr *gd_nl_request(char *buf, uint16_t cmd, uint16_t flags,
				      uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	return nlh;
}

static struct mnl_socket *gd_nl_open(void)
{
	struct timeval tv = { .tv_sec = GD_NL_TIMEOUT_MS / 1000,
			      .tv_usec = GD_NL_TIMEOUT_MS % 1000 * 1000 };
	struct mnl_socket *nl = mnl_socket_open(NETLINK_RDMA);

	if (!nl)
		return NULL;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		       sizeof(tv))) {
		int err = errno;

		mnl_socket_close(nl);
		errno = err;
		return NULL;
	}
	return nl;
}

int gd_counters_nl_read(const char *device, int port, gd_nl_counter_fn fn,
			void *arg)
{
	/* requests: a header and two u32 attributes */
	char req_buf[256] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct gd_nl_dev dev = { .device = device };
	struct gd_nl_stat st = { .fn = fn, .arg = arg };
	struct mnl_socket *nl;
	struct nlmsghdr *req;
	char *buf;
	int ret;

	buf = malloc(GD_NL_BUF_BYTES);
	if (!buf)
		return gd_err(-ENOMEM, "out of memory for a netlink reply");
	nl = gd_nl_open();
	if (!nl) {
		ret = gd_err(-errno, "no RDMA netlink socket (%s)",
			     strerror(errno));
		goto out;
	}
	req = gd_nl_request(req_buf, RDMA_NLDEV_CMD_GET, NLM_F_DUMP, 1);
	ret = gd_nl_talk(nl, req, buf, gd_nl_dev_cb, &dev);
	if (ret) {
		ret = gd_err(ret, "the device list (nldev GET) failed: %s",
			     strerror(-ret));
		goto close;
	}
	if (!dev.found) {
		ret = gd_err(-ENODEV,
			     "%s is not in the RDMA netlink device list",
			     device);
		goto close;
	}
	req = gd_nl_request(req_buf, RDMA_NLDEV_CMD_STAT_GET, 0, 2);
	mnl_attr_put_u32(req, RDMA_NLDEV_ATTR_DEV_INDEX, dev.index);
	mnl_attr_put_u32(req, RDMA_NLDEV_ATTR_PORT_INDEX, (uint32_t)port);
	ret = gd_nl_talk(nl, req, buf, gd_nl_stat_cb, &st);
	if (st.ret < 0)
		ret = st.ret; /* recorded by the parser or by @fn */
	else if (ret)
		ret = gd_err(ret, "STAT_GET for %s port %d failed: %s", device,
			     port, strerror(-ret));
close:
	mnl_socket_close(nl);
out:
	free(buf);
	return ret;
}
