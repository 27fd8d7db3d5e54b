/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The sweep plan without a device: which phases (placement x direction) a
 * set of options gives, the sizes of a -a sweep, the order both sides walk
 * the steps in (interleaved by default), and the per-run decisions taken
 * from the plan (inline off and write-with-immediate with device phases);
 * and the receiver's immediate-data check of every step.
 */
#include <config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>

#include <cmocka.h>

#include "opts_util.h"
#include "cli/options.h"
#include "engine/session.h"
#include "engine/sweep.h"
#include "engine/time_account.h"

#include <json-c/json.h>

static void plan(struct gd_session *s, struct gd_opts *o,
		 const struct gd_test *t)
{
	memset(s, 0, sizeof(*s));
	s->test = t;
	s->o = o;
	assert_int_equal(gd_sweep_plan(s), 0);
}

/* gd_write_bw -a from 2 B to @max_size with phases HH,DD and @repeat
 * rounds, planned: the walk-order tests' one shape of sweep. */
static void plan_ab_rounds(struct gd_session *s, struct gd_opts *o,
			   const char *max_size, const char *repeat)
{
	assert_int_equal(PARSE(&t_write_bw, o, "-a", "--min-size=2", max_size,
			       "--phases=HH,DD", repeat, "server1"),
			 0);
	plan(s, o, &t_write_bw);
}

static void unplan(struct gd_session *s, struct gd_opts *o)
{
	free(s->samples_ns);
	gd_opts_free(o);
}

static void assert_phase(const struct gd_session *s, unsigned int i,
			 const char *name, unsigned int client,
			 unsigned int server, enum gd_dir dir)
{
	assert_true(i < s->num_phases);
	assert_string_equal(s->phases[i].name, name);
	assert_int_equal(s->phases[i].client_place, client);
	assert_int_equal(s->phases[i].server_place, server);
	assert_int_equal(s->phases[i].dir, dir);
}

/* The receiver's immediate-data check (--send_with_imm and
 * --write_with_imm), which a guest pair cannot fail: both ends agree. */
static void test_check_recv(void **state)
{
	static struct gd_session s;
	struct ibv_wc wc = { .qp_num = 0x12,
			     .wc_flags = IBV_WC_WITH_IMM,
			     .imm_data = htonl(GD_IMM_DATA) };

	(void)state;
	snprintf(s.v.port.dev_name, sizeof(s.v.port.dev_name), "rxe0");
	s.test = &t_send_bw;
	assert_int_equal(gd_step_check_recv(&s, &wc), 0);
	wc.wc_flags = 0;
	/* without immediates posted, nothing is checked */
	assert_int_equal(gd_step_check_recv(&s, &wc), 0);
	s.use_imm = true;
	gd_err_clear();
	assert_int_equal(gd_step_check_recv(&s, &wc), -EPROTO);
	assert_msg_has(
		"came without immediate data although this run posts send with immediate");
	wc.wc_flags = IBV_WC_WITH_IMM;
	wc.imm_data = htonl(0x1234);
	s.test = &t_write_bw;
	gd_err_clear();
	assert_int_equal(gd_step_check_recv(&s, &wc), -EPROTO);
	assert_msg_has("carried immediate data 0x1234, not gdperf's 0x6764");
	wc.imm_data = htonl(GD_IMM_DATA);
	assert_int_equal(gd_step_check_recv(&s, &wc), 0);
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
	unsigned int p, z, r;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-a", "--min-size=2",
			       "--max-size=8", "--phases=HH,DD", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	for (unsigned int i = 0; i < 6; i++) {
		gd_sweep_order(&s, i, &p, &z, &r);
		assert_int_equal(p, inter[i][0]);
		assert_int_equal(z, inter[i][1]);
		assert_int_equal(r, 0);
	}
	s.o->no_interleave = true;
	for (unsigned int i = 0; i < 6; i++) {
		gd_sweep_order(&s, i, &p, &z, &r);
		assert_int_equal(p, block[i][0]);
		assert_int_equal(z, block[i][1]);
	}
	unplan(&s, &o);
}

static void test_order_repeats(void **state)
{
	/* 2 phases x 2 sizes x 4 rounds: a round sweeps every size (up in
	 * even rounds, down in odd ones); inside a size the phases go
	 * A B, B A, B A, A B over the rounds (ABBA) */
	static const unsigned int want[16][3] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
		{ 1, 1, 1 }, { 0, 1, 1 }, { 1, 0, 1 }, { 0, 0, 1 },
		{ 1, 0, 2 }, { 0, 0, 2 }, { 1, 1, 2 }, { 0, 1, 2 },
		{ 0, 1, 3 }, { 1, 1, 3 }, { 0, 0, 3 }, { 1, 0, 3 },
	};
	unsigned int seen[2][2][4] = { { { 0 } } };
	struct gd_session s;
	struct gd_opts o;
	unsigned int p, z, r;

	(void)state;
	plan_ab_rounds(&s, &o, "--max-size=4", "--repeat=4");
	for (unsigned int i = 0; i < 16; i++) {
		gd_sweep_order(&s, i, &p, &z, &r);
		assert_int_equal(p, want[i][0]);
		assert_int_equal(z, want[i][1]);
		assert_int_equal(r, want[i][2]);
	}
	/* phase-by-phase still visits every (phase, size, round) once */
	s.o->no_interleave = true;
	for (unsigned int i = 0; i < 16; i++) {
		gd_sweep_order(&s, i, &p, &z, &r);
		seen[p][z][r]++;
	}
	for (p = 0; p < 2; p++)
		for (z = 0; z < 2; z++)
			for (r = 0; r < 4; r++)
				assert_int_equal(seen[p][z][r], 1);
	unplan(&s, &o);
}

/* With interleaved rounds, a (phase, size)'s last round is its last step:
 * the walk prints its live row right after that step. */
static void test_last_round_is_last_step(void **state)
{
	unsigned int last[2][3] = { { 0 } }, final[2][3] = { { 0 } };
	struct gd_session s;
	struct gd_opts o;
	unsigned int p, z, r;

	(void)state;
	plan_ab_rounds(&s, &o, "--max-size=8", "--repeat=3");
	for (unsigned int i = 0; i < 18; i++) {
		gd_sweep_order(&s, i, &p, &z, &r);
		last[p][z] = i;
		if (r + 1 == 3)
			final[p][z] = i;
	}
	for (p = 0; p < 2; p++)
		for (z = 0; z < 3; z++)
			assert_int_equal(final[p][z], last[p][z]);
	unplan(&s, &o);
}

/* A complete size's live row: the median of the rounds that succeeded,
 * their spread, the phase's name in front; nothing on the server. */
static void test_live_size(void **state)
{
	static const double avg[4] = { 100, 999, 300, 200 };
	struct gd_report_cfg cfg = { .tool = "gd_write_bw",
				     .measure = GD_MEASURE_BW,
				     .repeats = 4,
				     .live = true };
	struct gd_step_outcome outs[4];
	struct gd_session s;
	struct gd_opts o;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-s", "4096", "--phases=HH,DD",
			       "--repeat=4", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	cfg.text = open_memstream(&text, &len);
	s.rep = gd_report_new(&cfg, 0, NULL);
	assert_non_null(s.rep);
	memset(outs, 0, sizeof(outs));
	for (unsigned int r = 0; r < 4; r++) {
		outs[r].ok = r != 1; /* round 2 failed: left out */
		outs[r].res.is_bw = true;
		outs[r].res.bw = (struct gd_bw_summary){
			.size_bytes = 4096,
			.iters = 5000,
			.peak_MiBps = 2 * avg[r],
			.avg_MiBps = avg[r],
			.msg_rate_Mpps = avg[r] / 4096,
		};
	}
	s.is_server = true;
	gd_sweep_live_size(&s, 1, 0, outs, 4, true);
	fflush(cfg.text);
	assert_int_equal(len, 0);
	s.is_server = false;
	gd_sweep_live_size(&s, 1, 0, outs, 4, true);
	gd_report_free(s.rep);
	fclose(cfg.text);
	assert_non_null(strstr(text, " phase      #bytes "));
	assert_non_null(strstr(text,
			       " DD         4096       5000           400.00"
			       "              200.00 "));
	assert_non_null(strstr(text, "100.00..300.00\n"));
	assert_null(strstr(text, "999"));
	free(text);
	unplan(&s, &o);
}

/* Outcomes of rounds at size 0: HH always @hh MiB/s, DD @dd[r]. */
static void fill_rounds(struct gd_session *s, struct gd_step_outcome *outs,
			struct gd_rounds *rd, const double *dd, unsigned int n,
			double hh)
{
	memset(outs, 0,
	       sizeof(outs[0]) * s->num_phases * s->num_sizes * rd->stride);
	for (unsigned int r = 0; r < n; r++) {
		struct gd_step_outcome *h = &outs[0 * rd->stride + r];
		struct gd_step_outcome *d =
			&outs[(1 * s->num_sizes) * rd->stride + r];

		h->ok = d->ok = true;
		h->res.is_bw = d->res.is_bw = true;
		h->res.bw.avg_MiBps = hh;
		d->res.bw.avg_MiBps = dd[r];
	}
	rd->done[0] = n;
}

/* --precision: the judged sizes stop when the DD/HH interval is narrow
 * enough and the assessments are decided, else at --max-repeat, else at
 * --precision-time; the note records it. */
static void test_precision_stop(void **state)
{
	static const double tight[] = { 100, 101, 99, 100 };
	static const double wide[] = { 60, 140, 90, 120, 70, 130 };
	struct gd_step_outcome outs[2 * 1 * 6];
	struct gd_rounds rd = { .stride = 6 };
	struct gd_precision pr = { .n = 0 };
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--phases=HH,DD",
			       "--precision=5", "--max-repeat=6", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	assert_int_equal(gd_precision_base(&o), 3);
	fill_rounds(&s, outs, &rd, tight, 3, 100);
	assert_string_equal(gd_precision_stop(&s, outs, &rd, 3, 0),
			    "precision");
	fill_rounds(&s, outs, &rd, wide, 3, 100);
	assert_null(gd_precision_stop(&s, outs, &rd, 3, 0));
	assert_string_equal(gd_precision_stop(&s, outs, &rd, 3, 601),
			    "time_limit");
	fill_rounds(&s, outs, &rd, wide, 6, 100);
	assert_string_equal(gd_precision_stop(&s, outs, &rd, 6, 0),
			    "max_repeat");
	gd_precision_note(&s, &pr, outs, &rd, 0, "max_repeat");
	assert_int_equal(pr.n, 1);
	assert_int_equal(pr.sz[0].rounds, 6);
	assert_false(pr.sz[0].reached);
	assert_true(pr.sz[0].half_pct > 5);
	/* a failed round is left out of the pairs, not taken as zero */
	fill_rounds(&s, outs, &rd, tight, 4, 100);
	outs[(1 * s.num_sizes) * rd.stride + 1].ok = false;
	assert_string_equal(gd_precision_stop(&s, outs, &rd, 4, 0),
			    "precision");
	assert_int_equal(gd_precision_looks(&o), 4);
	unplan(&s, &o);
	/* --until-decided: no width target; an A/A within 1% is decided
	 * "not below" at 3 rounds, a clear slowdown "slower" at 4 (the look
	 * before says it too), and 40% noise
	 * is not decided (levels split over 4 looks) */
	assert_int_equal(PARSE(&t_write_bw, &o, "--phases=HH,DD",
			       "--until-decided", "--max-repeat=6", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	fill_rounds(&s, outs, &rd, tight, 3, 100);
	assert_string_equal(gd_precision_stop(&s, outs, &rd, 3, 0), "decided");
	/* "slower" stops the run once two looks running say it */
	fill_rounds(&s, outs, &rd, tight, 3, 200);
	assert_null(gd_precision_stop(&s, outs, &rd, 3, 0));
	fill_rounds(&s, outs, &rd, tight, 4, 200);
	assert_string_equal(gd_precision_stop(&s, outs, &rd, 4, 0), "decided");
	fill_rounds(&s, outs, &rd, wide, 3, 100);
	assert_null(gd_precision_stop(&s, outs, &rd, 3, 0));
	unplan(&s, &o);
	/* the limits mean nothing without --precision; no --no-interleave */
	REJECT(&t_write_bw, -EINVAL, "limit --precision", "--max-repeat=5",
	       "h");
	REJECT(&t_write_bw, -EINVAL, "interleaved", "--precision=5",
	       "--no-interleave", "h");
	REJECT(&t_write_bw, -EINVAL, "at least --repeat", "--precision=5",
	       "--repeat=8", "--max-repeat=5", "h");
}

/* --mem=A,B: phases HH, D1D1, D2D2 by default; any numbered word numbers
 * every name, so DD and D1D1 are one phase; list checks. */
static void test_several_memories(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(
		PARSE(&t_write_bw, &o, "--mem=hugepage,host", "server1"), 0);
	assert_int_equal(o.num_mem, 2);
	assert_string_equal(o.mem_list[1], "host");
	plan(&s, &o, &t_write_bw);
	/* the client fills the default in before the test travels */
	assert_int_equal(s.num_phases, 1);
	unplan(&s, &o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--mem=hugepage,host",
			       "--phases=HH,D1D1,D2D2,HD2", "--reverse",
			       "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	assert_int_equal(s.num_phases, 8);
	assert_phase(&s, 1, "D1D1", 1, 1, GD_DIR_FORWARD);
	assert_phase(&s, 3, "HD2", GD_PLACE_HOST, 2, GD_DIR_FORWARD);
	assert_phase(&s, 7, "HD2:rev", GD_PLACE_HOST, 2, GD_DIR_REVERSE);
	unplan(&s, &o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--mem=hugepage",
			       "--phases=HH,DD", "server1"),
			 0);
	plan(&s, &o, &t_write_bw);
	assert_phase(&s, 1, "DD", 1, 1, GD_DIR_FORWARD);
	unplan(&s, &o);
	REJECT(&t_write_bw, -EINVAL, "listed twice", "--mem=hugepage,host",
	       "--phases=HH,DD,D1D1", "h");
	REJECT(&t_write_bw, -EINVAL, "not a placement", "--phases=HH,D5D5",
	       "h");
	REJECT(&t_write_bw, -EINVAL, "'host' is listed twice",
	       "--mem=host,host", "h");
	REJECT(&t_write_bw, -EINVAL, "an empty entry", "--mem=host,,hugepage",
	       "h");
	REJECT(&t_write_bw, -E2BIG, "at most 4",
	       "--mem=host,hugepage,cuda:0,cuda:1,cuda:2", "h");
	REJECT(&t_write_bw, -EINVAL, "gpu0", "--mem=host,gpu0", "h");
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

/* The account's clock in this test: seconds that only nap_ms() moves. */
static double fake_now_s = 1000.0;

static double fake_clock_s(void)
{
	return fake_now_s;
}

static void nap_ms(long ms)
{
	fake_now_s += (double)ms / 1000.0;
}

static double jnum(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = NULL;

	assert_true(json_object_object_get_ex(o, a, &x));
	if (b)
		assert_true(json_object_object_get_ex(x, b, &x));
	return json_object_get_double(x);
}

/* The account's parts add up: every stage is a gap between two clock
 * readings, the steps' parts and the time between them make the sweep,
 * and the phases' sums make the steps'. On a clock the test steps, the
 * stages come out exactly as long as the naps between the marks. */
static void test_time_account(void **state)
{
	struct gd_step_times t = { .agree_s = 0.001,
				   .prepare_s = 0.002,
				   .start_s = 0.001,
				   .transfer_s = 0.010,
				   .window_s = 0.008,
				   .counters_s = 0.004,
				   .verify_s = 0,
				   .exchange_s = 0.002 };
	struct gd_time_account a;
	struct json_object *j, *ph;
	double wall, sum = 0, steps_total, phases_total = 0;
	char line[512];
	static const char *const stages[] = {
		"preflight_s", "connect_s", "handshake_s",
		"device_s",    "memory_s",  "qp_s",
		"sweep_s",     "report_s",  "teardown_s",
	};

	(void)state;
	gd_acct_start_on(&a, fake_clock_s);
	nap_ms(5);
	gd_acct_mark(&a, GD_ACCT_PREFLIGHT);
	nap_ms(10);
	gd_acct_mark(&a, GD_ACCT_MEMORY);
	for (unsigned int i = 0; i < 4; i++)
		gd_acct_add_step(&a, i % 2, i % 2 ? "DD" : "HH", &t);
	nap_ms(40);
	gd_acct_mark(&a, GD_ACCT_STEPS);
	nap_ms(2);
	gd_acct_mark(&a, GD_ACCT_TEARDOWN);
	j = gd_acct_json(&a, line, sizeof(line));
	wall = jnum(j, "wall_s", NULL);
	for (unsigned int i = 0; i < sizeof(stages) / sizeof(*stages); i++)
		sum += jnum(j, "stages", stages[i]);
	assert_true(fabs(wall - 0.057) < 1e-9);
	assert_true(fabs(wall - sum) < 1e-9);
	assert_true(fabs(jnum(j, "closure_s", NULL)) < 1e-9);
	assert_true(fabs(jnum(j, "stages", "preflight_s") - 0.005) < 1e-9);
	assert_true(fabs(jnum(j, "stages", "memory_s") - 0.010) < 1e-9);
	assert_true(fabs(jnum(j, "stages", "sweep_s") - 0.040) < 1e-9);
	assert_true(fabs(jnum(j, "stages", "teardown_s") - 0.002) < 1e-9);
	/* four steps of 0.020 s each inside a sweep of 40 ms: the sweep's
	 * clock and the steps' own sums need not agree, and here do not */
	steps_total = jnum(j, "steps", "total_s");
	assert_true(fabs(steps_total - 0.080) < 1e-9);
	assert_true(fabs(steps_total + jnum(j, "steps", "between_steps_s") -
			 jnum(j, "stages", "sweep_s")) < 1e-9);
	assert_true(fabs(jnum(j, "steps", "window_s") - 0.032) < 1e-9);
	assert_true(fabs(jnum(j, "steps", "warmup_and_drain_s") - 0.008) <
		    1e-9);
	assert_true(json_object_object_get_ex(j, "phases", &ph));
	assert_int_equal(json_object_array_length(ph), 2);
	for (size_t i = 0; i < 2; i++) {
		struct json_object *p = json_object_array_get_idx(ph, i);

		assert_int_equal(
			json_object_get_int(json_object_object_get(p, "steps")),
			2);
		phases_total += jnum(p, "total_s", NULL);
	}
	assert_true(fabs(phases_total - steps_total) < 1e-9);
	assert_non_null(strstr(line, " Time: "));
	assert_non_null(strstr(line, "measured windows 0.0 s"));
	json_object_put(j);
}

/* The warm-up before each window: --warmup's count, cut to 1 MiB per QP
 * (one message from 1 MiB up), none when --warmup=0. */
static void test_warmup_msgs(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-n", "100", "server1"), 0);
	assert_int_equal(o.warmup_iters, 10);
	assert_int_equal(gd_step_warmup_msgs(&o, 2), 10);
	assert_int_equal(gd_step_warmup_msgs(&o, 65536), 10);
	assert_int_equal(gd_step_warmup_msgs(&o, 262144), 4);
	assert_int_equal(gd_step_warmup_msgs(&o, 1 << 20), 1);
	assert_int_equal(gd_step_warmup_msgs(&o, 8 << 20), 1);
	o.warmup_iters = 0;
	assert_int_equal(gd_step_warmup_msgs(&o, 8 << 20), 0);
	gd_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_recv),
		cmocka_unit_test(test_default_phases),
		cmocka_unit_test(test_mixed_and_reverse),
		cmocka_unit_test(test_bidir_replaces_reverse),
		cmocka_unit_test(test_sweep_sizes),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_order_repeats),
		cmocka_unit_test(test_last_round_is_last_step),
		cmocka_unit_test(test_live_size),
		cmocka_unit_test(test_time_account),
		cmocka_unit_test(test_warmup_msgs),
		cmocka_unit_test(test_device_phase_decisions),
		cmocka_unit_test(test_precision_stop),
		cmocka_unit_test(test_several_memories),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
