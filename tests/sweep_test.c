/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sweep plan without a device: which phases (placement x direction) a
 * set of options gives, the sizes of a -a sweep, the order both sides walk
 * the steps in (interleaved by default), and the per-run decisions taken
 * from the plan (inline off and write-with-immediate with device phases).
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "opts_util.h"
#include "engine/session.h"

static void plan(struct gd_session *s, struct gd_opts *o,
		 const struct gd_test *t)
{
	memset(s, 0, sizeof(*s));
	s->test = t;
	s->o = o;
	assert_int_equal(gd_sweep_plan(s), 0);
}

static void unplan(struct gd_session *s, struct gd_opts *o)
{
	free(s->samples_ns);
	gd_opts_free(o);
}

static void assert_phase(const struct gd_session *s, unsigned int i,
			 const char *name, enum gd_place client,
			 enum gd_place server, enum gd_dir dir)
{
	assert_true(i < s->num_phases);
	assert_string_equal(s->phases[i].name, name);
	assert_int_equal(s->phases[i].client_place, client);
	assert_int_equal(s->phases[i].server_place, server);
	assert_int_equal(s->phases[i].dir, dir);
}

static void test_default_phases(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	/* the client fills in the default before the test travels */
	assert_int_equal(PARSE(&t_write_bw, &o, "--phases=HH", "server1"), 0);
	plan(&s, &o, &t_write_bw);
	assert_int_equal(s.num_phases, 1);
	assert_phase(&s, 0, "HH", GD_PLACE_HOST, GD_PLACE_HOST, GD_DIR_FORWARD);
	assert_int_equal(s.num_sizes, 1);
	assert_int_equal(s.sizes[0], 65536);
	assert_false(s.use_imm);
	unplan(&s, &o);
}

static void test_mixed_and_reverse(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--phases=HD,DH", "--reverse",
			       "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	assert_int_equal(s.num_phases, 4);
	assert_phase(&s, 0, "HD", GD_PLACE_HOST, GD_PLACE_DEV, GD_DIR_FORWARD);
	assert_phase(&s, 1, "DH", GD_PLACE_DEV, GD_PLACE_HOST, GD_DIR_FORWARD);
	assert_phase(&s, 2, "HD:rev", GD_PLACE_HOST, GD_PLACE_DEV,
		     GD_DIR_REVERSE);
	assert_phase(&s, 3, "DH:rev", GD_PLACE_DEV, GD_PLACE_HOST,
		     GD_DIR_REVERSE);
	unplan(&s, &o);
}

static void test_bidir_replaces_reverse(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_send_bw, &o, "--phases=HH,DD", "-b",
			       "--reverse", "server1"),
			 0);
	plan(&s, &o, &t_send_bw);
	assert_int_equal(s.num_phases, 2);
	assert_phase(&s, 0, "HH:bidir", GD_PLACE_HOST, GD_PLACE_HOST,
		     GD_DIR_BIDIR);
	assert_phase(&s, 1, "DD:bidir", GD_PLACE_DEV, GD_PLACE_DEV,
		     GD_DIR_BIDIR);
	unplan(&s, &o);
}

static void test_sweep_sizes(void **state)
{
	static const uint64_t want[] = { 64, 128, 256, 512, 1024 };
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-a", "--min-size=64",
			       "--max-size=1K", "--phases=HH", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	assert_int_equal(s.num_sizes, 5);
	for (unsigned int i = 0; i < 5; i++)
		assert_int_equal(s.sizes[i], want[i]);
	unplan(&s, &o);
	/* the default -a sweep: 2 B .. 8 MiB, 23 powers of two */
	assert_int_equal(PARSE(&t_write_bw, &o, "-a", "--phases=HH", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	assert_int_equal(s.num_sizes, 23);
	assert_int_equal(s.sizes[0], 2);
	assert_int_equal(s.sizes[22], 8388608);
	unplan(&s, &o);
}

static void test_order(void **state)
{
	/* 2 phases x 3 sizes: A B A B A B, or the whole of A then B */
	static const unsigned int inter[6][2] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 }, { 1, 2 }
	};
	static const unsigned int block[6][2] = {
		{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 }, { 1, 1 }, { 1, 2 }
	};
	struct gd_session s;
	struct gd_opts o;
	unsigned int p, z;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-a", "--min-size=2",
			       "--max-size=8", "--phases=HH,DD", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	for (unsigned int i = 0; i < 6; i++) {
		gd_sweep_order(&s, i, &p, &z);
		assert_int_equal(p, inter[i][0]);
		assert_int_equal(z, inter[i][1]);
	}
	s.o->no_interleave = true;
	for (unsigned int i = 0; i < 6; i++) {
		gd_sweep_order(&s, i, &p, &z);
		assert_int_equal(p, block[i][0]);
		assert_int_equal(z, block[i][1]);
	}
	unplan(&s, &o);
}

static void test_device_phase_decisions(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	/* write latency: host-only polls the buffer, inline stays on */
	assert_int_equal(PARSE(&t_write_lat, &o, "--phases=HH", "server1"), 0);
	plan(&s, &o, &t_write_lat);
	assert_false(s.use_imm);
	assert_int_equal(o.inline_bytes, 64);
	assert_int_equal(s.samples_cap, 1000 + 100);
	unplan(&s, &o);
	/* any device phase: every phase completes by write-with-immediate
	 * and nothing is sent inline, so only the memory path differs */
	assert_int_equal(PARSE(&t_write_lat, &o, "--phases=HH,HD", "server1"),
			 0);
	plan(&s, &o, &t_write_lat);
	assert_true(s.use_imm);
	assert_int_equal(o.inline_bytes, 0);
	unplan(&s, &o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_phases),
		cmocka_unit_test(test_mixed_and_reverse),
		cmocka_unit_test(test_bidir_replaces_reverse),
		cmocka_unit_test(test_sweep_sizes),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_device_phase_decisions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
