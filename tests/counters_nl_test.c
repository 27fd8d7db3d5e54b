/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The RDMA netlink reply parsers of counters_nl.c on messages built here
 * the way the kernel's nldev builds them (a device list entry; a STAT_GET
 * reply with its nested hw counter table), and what they refuse. The
 * request itself needs a kernel with an RDMA device: guest case 90 checks
 * the counters it reads.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "transport/counters_nl.h"
#include "util/error.h"

#define MSG_BYTES 2048

struct seen {
	unsigned int n;
	char names[4][32];
	uint64_t values[4];
};

static int collect(const char *name, uint64_t value, void *arg)
{
	struct seen *s = arg;

	if (s->n == 4)
		return -E2BIG;
	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
	s->values[s->n++] = value;
	return 0;
}

static struct nlmsghdr *reply(char *buf, uint16_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	return nlh;
}

/* One table entry; @value_attr false leaves the value out. */
static void entry(struct nlmsghdr *nlh, const char *name, uint64_t value,
		  bool value_attr)
{
	struct nlattr *e =
		mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	if (value_attr)
		mnl_attr_put_u64(
			nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value);
	mnl_attr_nest_end(nlh, e);
}

static void test_stat_reply(void **state)
{
	char buf[MSG_BYTES] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nlh = reply(buf, RDMA_NLDEV_CMD_STAT_GET);
	struct seen s = { 0 };
	struct nlattr *table;

	(void)state;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	entry(nlh, "sent_pkts", 85056, true);
	/* above 2^32: the value is a u64 end to end */
	entry(nlh, "rcvd_pkts", 5000000000ULL, true);
	mnl_attr_nest_end(nlh, table);
	assert_int_equal(gd_counters_nl_parse_stat(nlh, collect, &s), 2);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[0], "sent_pkts");
	assert_int_equal(s.values[0], 85056);
	assert_string_equal(s.names[1], "rcvd_pkts");
	assert_true(s.values[1] == 5000000000ULL);
}

static void test_stat_refusals(void **state)
{
	char buf[MSG_BYTES] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nlh = reply(buf, RDMA_NLDEV_CMD_STAT_GET);
	struct seen s = { 0 };
	struct nlattr *table;

	(void)state;
	/* no table at all: a reply that says nothing is not "no counters" */
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	assert_int_equal(gd_counters_nl_parse_stat(nlh, collect, &s), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "without hw counters"));
	gd_err_clear();

	/* an entry without its value */
	nlh = reply(buf, RDMA_NLDEV_CMD_STAT_GET);
	table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	entry(nlh, "sent_pkts", 1, true);
	entry(nlh, "rcvd_pkts", 0, false);
	mnl_attr_nest_end(nlh, table);
	s.n = 0;
	assert_int_equal(gd_counters_nl_parse_stat(nlh, collect, &s), -EPROTO);
	assert_non_null(strstr(gd_err_msg(), "64-bit value"));
	gd_err_clear();

	/* the callback's refusal stops the walk and is returned */
	nlh = reply(buf, RDMA_NLDEV_CMD_STAT_GET);
	table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	for (int i = 0; i < 6; i++)
		entry(nlh, "c", (uint64_t)i, true);
	mnl_attr_nest_end(nlh, table);
	s.n = 0;
	assert_int_equal(gd_counters_nl_parse_stat(nlh, collect, &s), -E2BIG);
	assert_int_equal(s.n, 4);
}

static void test_device_entry(void **state)
{
	char buf[MSG_BYTES] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nlh = reply(buf, RDMA_NLDEV_CMD_GET);
	uint32_t index = 0;

	(void)state;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	assert_int_equal(gd_counters_nl_parse_dev(nlh, "mlx5_0", &index), 1);
	assert_int_equal(index, 7);
	/* another device, or a prefix of the name, is not this one */
	index = 0;
	assert_int_equal(gd_counters_nl_parse_dev(nlh, "mlx5_1", &index), 0);
	assert_int_equal(gd_counters_nl_parse_dev(nlh, "mlx5", &index), 0);
	assert_int_equal(index, 0);
	/* a message without the index names no device */
	nlh = reply(buf, RDMA_NLDEV_CMD_GET);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	assert_int_equal(gd_counters_nl_parse_dev(nlh, "mlx5_0", &index), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_reply),
		cmocka_unit_test(test_stat_refusals),
		cmocka_unit_test(test_device_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
