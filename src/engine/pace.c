/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The software rate limiter's arithmetic, perftest's: a rate in Gbit/s
 * (10^9 bits of payload), MiB/s or messages per second becomes messages
 * per second at the message size, and bursts of --burst_size start
 * burst/rate seconds apart, timed by the clock reading each caller
 * passes (the loops' raw ticks; a test's own steps).
 */
#include <config.h>

#include "engine/opts.h"
#include "engine/pace.h"

const char *gd_rate_unit_name(enum gd_rate_unit u)
{
	switch (u) {
	case GD_RATE_MIBPS:
		return "MiB/s";
	case GD_RATE_PPS:
		return "msgs/s";
	case GD_RATE_GBPS:
		break;
	}
	return "Gbit/s";
}

double gd_pace_msgs_per_s(const struct gd_opts *o, uint64_t size_bytes)
{
	if (!(o->rate_limit > 0) || !size_bytes)
		return 0;
	switch (o->rate_unit) {
	case GD_RATE_MIBPS:
		return o->rate_limit * 1048576.0 / (double)size_bytes;
	case GD_RATE_PPS:
		return o->rate_limit;
	case GD_RATE_GBPS:
		break;
	}
	return o->rate_limit * 1e9 / (8.0 * (double)size_bytes);
}

double gd_pace_MiBps(const struct gd_opts *o, uint64_t size_bytes)
{
	return gd_pace_msgs_per_s(o, size_bytes) * (double)size_bytes /
	       1048576.0;
}

uint64_t gd_pace_burst_msgs(const struct gd_opts *o)
{
	return o->burst_size ? o->burst_size : o->tx_depth;
}

uint64_t gd_pace_gap_ns(const struct gd_opts *o, uint64_t size_bytes)
{
	double pps = gd_pace_msgs_per_s(o, size_bytes);

	if (!(pps > 0))
		return 0;
	return (uint64_t)((double)gd_pace_burst_msgs(o) * 1e9 / pps);
}

void gd_pace_start(struct gd_pace *p, const struct gd_opts *o,
		   uint64_t size_bytes, uint64_t now_ticks, double ns_per_tick)
{
	uint64_t gap_ns = gd_pace_gap_ns(o, size_bytes);

	p->burst_msgs = gap_ns ? gd_pace_burst_msgs(o) : 0;
	p->ns_per_tick = ns_per_tick > 0 ? ns_per_tick : 1.0;
	p->gap_ticks = (uint64_t)((double)gap_ns / p->ns_per_tick);
	p->next_tick = now_ticks;
	p->left = 0;
}

uint64_t gd_pace_room(struct gd_pace *p, uint64_t now_ticks)
{
	if (!p->burst_msgs)
		return UINT64_MAX;
	if (!p->left && now_ticks >= p->next_tick) {
		p->left = p->burst_msgs;
		p->next_tick += p->gap_ticks;
	}
	return p->left;
}

uint64_t gd_pace_wait_ns(const struct gd_pace *p, uint64_t now_ticks)
{
	if (!p->burst_msgs || p->left || now_ticks >= p->next_tick)
		return 0;
	return (uint64_t)((double)(p->next_tick - now_ticks) * p->ns_per_tick);
}
