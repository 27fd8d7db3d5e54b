/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A port's hw_counters over RDMA netlink (the nldev STAT_GET request that
 * `rdma statistic show` sends). The kernel answers it from the driver
 * each time, while sysfs hw_counters/ serves a copy that any reader
 * refreshes and that lives for "lifespan" ms: a snapshot read this way
 * needs no wait after the traffic to be current.
 */
#ifndef GD_COUNTERS_NL_H
#define GD_COUNTERS_NL_H

#include <stdint.h>

struct nlmsghdr;

/* Called once per counter; non-zero stops the walk and is returned. */
typedef int (*gd_nl_counter_fn)(const char *name, uint64_t value, void *arg);

/*
 * Read @device's @port hw_counters, calling @fn for each. 0, or -errno
 * recorded with the reason (no NETLINK_RDMA, a kernel without STAT_GET,
 * no such device): the caller then reads sysfs instead.
 */
int gd_counters_nl_read(const char *device, int port, gd_nl_counter_fn fn,
			void *arg);

/* The reply parsers, apart for the unit tests. gd_counters_nl_parse_dev:
 * 1 and *@index when the device message @nlh names @device, else 0.
 * gd_counters_nl_parse_stat: @fn for each counter of a STAT_GET reply;
 * the number of counters, or -EPROTO (a malformed entry) or @fn's value. */
int gd_counters_nl_parse_dev(const struct nlmsghdr *nlh, const char *device,
			     uint32_t *index);
int gd_counters_nl_parse_stat(const struct nlmsghdr *nlh, gd_nl_counter_fn fn,
			      void *arg);

#endif
