/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's rate limiter: the options as parsed and refused, their wire
 * and JSON forms, perftest's arithmetic (units to messages per second, the
 * gap between bursts) and the pacer against the clock. The paced loops on
 * a device run in the guest (case 37).
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "util/stats.h"
#include "cli/options.h"
#include "engine/pace.h"
#include "opts_util.h"

static void test_parse(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--rate_limit=2.5"), 0);
	assert_true(o.rate_limit == 2.5);
	assert_int_equal(o.rate_unit, GD_RATE_GBPS);
	assert_int_equal(gd_pace_burst_msgs(&o), o.tx_depth);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--rate_limit=100",
			       "--rate_units=M", "--burst_size=8",
			       "--rate_limit_type=SW"),
			 0);
	assert_int_equal(o.rate_unit, GD_RATE_MIBPS);
	assert_int_equal(gd_pace_burst_msgs(&o), 8);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_read_bw, &o, "--rate_limit=1000",
			       "--rate_units=p", "-b"),
			 0);
	assert_int_equal(o.rate_unit, GD_RATE_PPS);
	gd_opts_free(&o);
	/* perftest's rules */
	REJECT(&t_write_bw, -EINVAL, "burst mode needs the rate limiter",
	       "--burst_size=4");
	REJECT(&t_write_bw, -EINVAL, "--rate_units applies to the rate limiter",
	       "--rate_units=M");
	REJECT(&t_write_bw, -EINVAL, "--rate_limit_type applies",
	       "--rate_limit_type=SW");
	REJECT(&t_write_bw, -EINVAL, "must be above 0", "--rate_limit=0");
	REJECT(&t_write_bw, -ERANGE, "--rate_limit", "--rate_limit=-1");
	REJECT(&t_write_bw, -EINVAL, "give g (Gbit/s), M (MiB/s) or p",
	       "--rate_limit=1", "--rate_units=G");
	REJECT(&t_write_bw, -EINVAL, "InfiniBand only", "--rate_limit=1",
	       "--rate_limit_type=HW");
	REJECT(&t_write_bw, -EINVAL, "raw Ethernet QPs only", "--rate_limit=1",
	       "--rate_limit_type=PP");
	REJECT(&t_write_bw, -EINVAL, "give SW", "--rate_limit=1",
	       "--rate_limit_type=sw");
	REJECT(&t_atomic_bw, -EINVAL, "does not apply to gd_atomic_bw",
	       "--rate_limit=1");
	REJECT(&t_write_lat, -EINVAL, "does not apply to gd_write_lat",
	       "--rate_limit=1");
	REJECT(&t_write_bw, -EINVAL, "raw_ethernet_* tests",
	       "--typical_pkt_size=100");
	/* 1 MiB messages at 1 MiB/s in bursts of 128: 128 s between bursts */
	REJECT(&t_write_bw, -EINVAL, "128.000 s apart", "--rate_limit=1",
	       "--rate_units=M", "-s", "1M");
	/* ... and at -a the largest size counts */
	REJECT(&t_write_bw, -EINVAL, "of 8388608 bytes", "--rate_limit=1",
	       "-a");
}

/* perftest's arithmetic: Gbit/s are 10^9 bits of payload, M is MiB/s. */
static void test_arithmetic(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(
		PARSE(&t_write_bw, &o, "--rate_limit=8", "--burst_size=10"), 0);
	/* 8e9 bits/s in 1000-byte messages: 1e6 msgs/s, bursts 10 us apart */
	assert_true(gd_pace_msgs_per_s(&o, 1000) == 1e6);
	assert_int_equal(gd_pace_gap_ns(&o, 1000), 10000);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--rate_limit=64",
			       "--rate_units=M", "--burst_size=4"),
			 0);
	assert_true(gd_pace_msgs_per_s(&o, 65536) == 1024);
	assert_true(gd_pace_MiBps(&o, 65536) == 64);
	assert_int_equal(gd_pace_gap_ns(&o, 65536), 3906250);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--rate_limit=500",
			       "--rate_units=p", "-t", "50"),
			 0);
	/* messages per second do not depend on the size; burst: -t */
	assert_true(gd_pace_msgs_per_s(&o, 2) == 500);
	assert_true(gd_pace_msgs_per_s(&o, 1 << 20) == 500);
	assert_int_equal(gd_pace_gap_ns(&o, 4096), 100000000);
	gd_opts_free(&o);
	assert_int_equal(PARSE0(&t_write_bw, &o), 0);
	assert_true(gd_pace_msgs_per_s(&o, 4096) == 0);
	assert_int_equal(gd_pace_gap_ns(&o, 4096), 0);
	gd_opts_free(&o);
}

/* One burst's worth at @now_ticks, all of it taken: what a sender that
 * always has room posts in one pass of its loop. */
static uint64_t take_all(struct gd_pace *p, uint64_t now_ticks)
{
	uint64_t room = gd_pace_room(p, now_ticks);

	gd_pace_took(p, room);
	return room;
}

/* The pacer on a clock the test steps (1 ns a tick): 4 messages every
 * 2 ms. Exact counts, whatever the machine is doing: a burst at each
 * 2 ms mark, none between; a sender away for ten gaps finds ten bursts
 * due and posts them at once (perftest's catch-up, so the average
 * holds), then waits again. */
static void test_pacer(void **state)
{
	struct gd_opts o;
	struct gd_pace p;
	uint64_t posted = 0, t;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--rate_limit=2000",
			       "--rate_units=p", "--burst_size=4"),
			 0);
	gd_pace_start(&p, &o, 64, 0, 1.0);
	assert_int_equal(gd_pace_room(&p, 0), 4);
	gd_pace_took(&p, 3);
	assert_int_equal(gd_pace_room(&p, 0), 1);
	gd_pace_took(&p, 1);
	assert_int_equal(gd_pace_room(&p, 0), 0);
	assert_int_equal(gd_pace_wait_ns(&p, 0), 2000000);
	assert_int_equal(gd_pace_room(&p, 500000), 0);
	assert_int_equal(gd_pace_wait_ns(&p, 500000), 1500000);
	assert_int_equal(gd_pace_room(&p, 1999999), 0);
	assert_int_equal(gd_pace_room(&p, 2000000), 4);
	assert_int_equal(gd_pace_wait_ns(&p, 2000000), 0);
	gd_pace_took(&p, 4);

	/* steady: a pass every 100 us for 100 ms, bursts at 0, 2, ... 100 */
	gd_pace_start(&p, &o, 64, 0, 1.0);
	for (t = 0; t <= 100000000; t += 100000)
		posted += take_all(&p, t);
	assert_int_equal(posted, 4 * 51);

	/* a stall: away from 0 to 20 ms, then ten due bursts, one a call */
	gd_pace_start(&p, &o, 64, 0, 1.0);
	posted = take_all(&p, 0);
	for (int i = 0; i < 10; i++)
		posted += take_all(&p, 20000000);
	assert_int_equal(posted, 4 + 4 * 10);
	assert_int_equal(gd_pace_room(&p, 20000000), 0);
	assert_int_equal(gd_pace_wait_ns(&p, 20000000), 2000000);

	/* a burst left half-posted stays open past its gap; the next opens
	 * only once it is done */
	gd_pace_start(&p, &o, 64, 0, 1.0);
	gd_pace_took(&p, gd_pace_room(&p, 0) - 2);
	assert_int_equal(gd_pace_room(&p, 3000000), 2);
	gd_pace_took(&p, 2);
	assert_int_equal(gd_pace_room(&p, 3000000), 4);

	/* ticks of another length: a 4 GHz counter, 0.25 ns a tick */
	gd_pace_start(&p, &o, 64, 1000, 0.25);
	gd_pace_took(&p, gd_pace_room(&p, 1000));
	assert_int_equal(gd_pace_room(&p, 1000 + 7999999), 0);
	assert_int_equal(gd_pace_wait_ns(&p, 1000 + 4000000), 1000000);
	assert_int_equal(gd_pace_room(&p, 1000 + 8000000), 4);

	/* unpaced: no limit, never a wait */
	gd_opts_free(&o);
	assert_int_equal(PARSE0(&t_write_bw, &o), 0);
	gd_pace_start(&p, &o, 64, 0, 1.0);
	assert_true(gd_pace_room(&p, 0) == UINT64_MAX);
	assert_int_equal(gd_pace_wait_ns(&p, 0), 0);
	gd_opts_free(&o);
}

/* The three numbers travel (the server may be the initiator: --reversed,
 * -b, reversed phases); the document says the limiter as it runs. */
static void test_wire_and_json(void **state)
{
	struct gd_opts c, srv;
	struct json_object *w, *d, *r;
	char field[64], ours[64], theirs[64];

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &c, "--rate_limit=3",
			       "--rate_units=M", "--burst_size=16",
			       "127.0.0.1"),
			 0);
	w = gd_opts_to_wire(&t_write_bw, &c);
	assert_int_equal(PARSE0(&t_write_bw, &srv), 0);
	assert_int_equal(gd_opts_from_wire(&t_write_bw, &srv, w, field,
					   sizeof(field), ours, theirs,
					   sizeof(ours)),
			 0);
	assert_true(srv.rate_limit == 3);
	assert_int_equal(srv.rate_unit, GD_RATE_MIBPS);
	assert_int_equal(srv.burst_size, 16);
	json_object_put(w);
	d = gd_opts_describe(&t_write_bw, &srv);
	assert_true(json_object_object_get_ex(d, "rate_limit", &r));
	assert_string_equal(
		json_object_to_json_string_ext(
			r, JSON_C_TO_STRING_PLAIN |
				   JSON_C_TO_STRING_NOSLASHESCAPE),
		"{\"type\":\"SW\",\"rate\":3.0,\"units\":\"MiB/s\",\"burst_msgs\":16}");
	assert_false(json_object_object_get_ex(d, "rate_units", NULL));
	assert_false(json_object_object_get_ex(d, "burst_size", NULL));
	json_object_put(d);
	gd_opts_free(&srv);
	gd_opts_free(&c);
	assert_int_equal(PARSE0(&t_write_bw, &c), 0);
	d = gd_opts_describe(&t_write_bw, &c);
	assert_true(json_object_object_get_ex(d, "rate_limit", &r));
	assert_null(r);
	json_object_put(d);
	gd_opts_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_pacer),
		cmocka_unit_test(test_wire_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
