/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's software rate limiter (--rate_limit with --rate_limit_type=SW,
 * its default in gdperf): an initiator posts a burst of --burst_size
 * messages, summed over its QPs, then no more until the rate allows the
 * next one. Deadlines advance by a fixed gap from the first, so a burst
 * that could not go out on time (full send queues) is made up at once and
 * the average holds.
 */
#ifndef GD_PACE_H
#define GD_PACE_H

#include <stdbool.h>
#include <stdint.h>

struct gd_opts;
enum gd_rate_unit;

struct gd_pace {
	uint64_t burst_msgs; /* 0: not paced */
	uint64_t gap_ticks;  /* between burst starts, in the clock's ticks */
	uint64_t next_tick;  /* when the next burst may start */
	uint64_t left;	     /* of the current burst, still to post */
	double ns_per_tick;  /* the clock's, fixed at the start */
};

/* "Gbit/s", "MiB/s" or "msgs/s", for messages. */
const char *gd_rate_unit_name(enum gd_rate_unit u);
/* The messages per second @o's limit allows at @size_bytes; 0: no limit. */
double gd_pace_msgs_per_s(const struct gd_opts *o, uint64_t size_bytes);
/* The same as MiB/s of payload; 0: no limit. */
double gd_pace_MiBps(const struct gd_opts *o, uint64_t size_bytes);
/* Messages per burst: --burst_size, or -t when it is 0 (perftest). */
uint64_t gd_pace_burst_msgs(const struct gd_opts *o);
/* Nanoseconds between burst starts at @size_bytes; 0: no limit. */
uint64_t gd_pace_gap_ns(const struct gd_opts *o, uint64_t size_bytes);

/*
 * The pacer reads no clock of its own: each call takes "now" in ticks of
 * a clock that advances @ns_per_tick nanoseconds a tick, so that a test
 * steps time through bursts, stalls and catch-up instead of waiting on
 * it. The loops pass gd_clock_ticks() and gd_clock_ns_per_tick().
 */
/* Arm @p for a loop at @size_bytes: the first burst may start at
 * @now_ticks. */
void gd_pace_start(struct gd_pace *p, const struct gd_opts *o,
		   uint64_t size_bytes, uint64_t now_ticks, double ns_per_tick);
/* How many messages may be posted at @now_ticks: UINT64_MAX unpaced;
 * opens the next burst when its time has come. A sender that was away
 * for k gaps finds k bursts due, one opened per call, so the average
 * rate holds (perftest's behaviour). */
uint64_t gd_pace_room(struct gd_pace *p, uint64_t now_ticks);
/* @n messages of the current burst were posted. */
static inline void gd_pace_took(struct gd_pace *p, uint64_t n)
{
	if (p->burst_msgs)
		p->left -= n < p->left ? n : p->left;
}
/* Nanoseconds from @now_ticks until the next burst may start, 0 when it
 * may now or the loop is not paced: what a sleeping (-e) initiator may
 * wait. */
uint64_t gd_pace_wait_ns(const struct gd_pace *p, uint64_t now_ticks);

#endif
