/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The decision's operating characteristics, measured: seeded simulated
 * runs of the default design (gd_write_bw -a --repeat=3 --reverse: 23
 * sizes 2 B..8 MiB, three rounds, two assessments DD/HH forward and
 * reverse) go through gd_assess and gd_assess_run, the code the run and
 * gd_report use, under several noise models and true ratios. Prints the
 * run-level rates with 95% Wilson intervals (gdperf(7)'s table) and
 * asserts the rates the man page states (and that one slow size in 5%
 * log-normal noise is called "not below" in at most 5%); with the default
 * trials every row must be in man/gdperf.7 as printed. GD_SIM_TRIALS sets the
 * trials per case: 2000 by default, 400 in an AddressSanitizer build (about
 * five times slower; the plain build runs the full count). A second table
 * (test_every_size) holds "not below" to every size: runs of slow precise
 * sizes beside noisy ones, one slow size, the floor under t3 noise and a
 * drift shared by a round's sizes, at 3 to 20 rounds.
 */
#include <config.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/assess.h"
#include "synth_util.h"

#define SIZES 23
#define DIRS 2
#define MAX_ROUNDS 6
#define FLOOR 0.8
#define SEED 0x25a55e55ULL

enum model {
	M_LN5,
	M_LN15,
	M_LN30,
	M_T3,
	M_HALVED,
	M_BY_SIZE,
	M_AR1,
	M_UNEVEN,
	M_ROUND,
	M_COUNT
};

static const char *const model_name[M_COUNT] = {
	"log-normal 5%",  "log-normal 15%",	"log-normal 30%",
	"t3, 10%",	  "10% + 5% halved",	"30/15/3% by band",
	"AR(1) 0.3, 15%", "uneven rounds, 15%", "10% + round 5%",
};

/* True ratio of each size; one scenario per row of the table. */
struct scenario {
	const char *name;
	double ratio;  /* every size, unless below */
	int slow_size; /* this size's exponent at slow_ratio, or 0 */
	double slow_ratio;
	bool precise_band;  /* >= 64 KiB at 0.70 and 2%, the rest 1.0, 30% */
	double lowest_band; /* the truth's lowest band ratio */
};

static const struct scenario scenarios[] = {
	{ "all 1.00", 1.0, 0, 0, false, 1.0 },
	{ "all 0.85", 0.85, 0, 0, false, 0.85 },
	{ "all 0.80 (floor)", 0.8, 0, 0, false, 0.8 },
	{ "all 0.75", 0.75, 0, 0, false, 0.75 },
	{ "all 0.70", 0.70, 0, 0, false, 0.70 },
	{ "512 KiB at 0.65", 1.0, 19, 0.65, false, 0.948 },
};

static const struct scenario precise = {
	"64K+ 0.70 (2%) | rest 1.00 (30%)", 1.0, 0, 0, true, 0.70
};

struct rates {
	unsigned int trials, slower, not_below, inconclusive;
	unsigned long rounds; /* adaptive: rounds taken, summed */
};

/* One figure's log noise under @m at size exponent @e (2^e bytes);
 * @prev: this figure's previous round (AR(1)). */
static double noise(enum model m, int e, double prev, int round)
{
	double band_cv = e <= 12 ? 0.30 : e < 16 ? 0.15 : 0.03;

	switch (m) {
	case M_LN5:
		return log_sd(0.05) * gauss();
	case M_LN30:
		return log_sd(0.30) * gauss();
	case M_T3:
		return log_sd(0.10) * t3_draw() / sqrt(3);
	case M_HALVED:
		return log_sd(0.10) * gauss() +
		       (uniform01() < 0.05 ? log(0.5) : 0);
	case M_BY_SIZE:
		return log_sd(band_cv) * gauss();
	case M_ROUND:
		return log_sd(0.10) * gauss();
	case M_AR1:
		return round ? 0.3 * prev +
				       sqrt(1 - 0.09) * log_sd(0.15) * gauss()
			     : log_sd(0.15) * gauss();
	default:
		return log_sd(0.15) * gauss();
	}
}

/* Rounds size @e has: three, or under M_UNEVEN (as --precision leaves
 * them) three to six below 64 KiB. */
static unsigned int rounds_of(enum model m, int e)
{
	return m == M_UNEVEN && e < 16 ? 3 + (unsigned int)(uniform01() * 4)
				       : 3;
}

static void fill(const struct scenario *s, enum model m, double *d)
{
	double shift[MAX_ROUNDS] = { 0 };

	/* M_ROUND: a shift of the ratio that every size of a round shares
	 * (a drift the phase order did not cancel) */
	for (unsigned int r = 0; m == M_ROUND && r < MAX_ROUNDS; r++)
		shift[r] = log_sd(0.05) * gauss();
	for (int z = 0; z < SIZES; z++) {
		int e = z + 1;
		double truth = s->ratio, ph = 0, pd = 0;
		unsigned int nr = rounds_of(m, e);

		if (s->slow_size == e)
			truth = s->slow_ratio;
		if (s->precise_band)
			truth = e >= 16 ? 0.70 : 1.0;
		for (unsigned int r = 0; r < MAX_ROUNDS; r++) {
			double h, x;

			if (r >= nr) {
				d[r * SIZES + z] = NAN;
				continue;
			}
			if (s->precise_band) {
				double cv = e >= 16 ? 0.02 : 0.30;

				h = log_sd(cv) * gauss();
				x = log_sd(cv) * gauss();
			} else {
				h = noise(m, e, ph, (int)r);
				x = noise(m, e, pd, (int)r);
			}
			ph = h;
			pd = x;
			d[r * SIZES + z] = log(truth) + x - h + shift[r];
		}
	}
}

static void run_case(const struct scenario *s, enum model m, uint64_t seed,
		     struct rates *out)
{
	double d[DIRS][MAX_ROUNDS * SIZES], sb[SIZES];
	struct gd_assessment *a = calloc(DIRS, sizeof(*a));
	unsigned int n = sim_trials();

	assert_non_null(a);
	rng_state = seed;
	memset(out, 0, sizeof(*out));
	for (int z = 0; z < SIZES; z++)
		sb[z] = (double)(2ULL << z);
	for (unsigned int t = 0; t < n; t++) {
		bool slower = false, all_clear = true;

		for (int k = 0; k < DIRS; k++) {
			fill(s, m, d[k]);
			assert_int_equal(gd_assess(d[k], sb, MAX_ROUNDS, SIZES,
						   FLOOR, &a[k], NULL),
					 0);
		}
		gd_assess_run(a, DIRS);
		for (int k = 0; k < DIRS; k++) {
			slower |= a[k].decision == GD_DECISION_SLOWER;
			all_clear &= a[k].decision == GD_DECISION_NOT_BELOW;
		}
		out->slower += slower;
		out->not_below += !slower && all_clear;
		out->inconclusive += !slower && !all_clear;
	}
	out->trials = n;
	free(a);
}

/* gdperf(7)'s copy of the table (NULL when the page is not found). */
static char *man_page;

/* The table as printed: a scenario's heading, then one row per noise
 * model, narrow enough for the page at 80 columns. */
static char block[4096];
static size_t block_len;

/* One row of the table under its scenario's heading (@first: a new
 * scenario), printed and kept for check_block. */
static void print_row(const struct scenario *s, const char *model,
		      const struct rates *r, bool first)
{
	double sl, sh, nl, nh;
	char row[256];

	wilson(r->slower, r->trials, &sl, &sh);
	wilson(r->not_below, r->trials, &nl, &nh);
	if (first) {
		block_len =
			(size_t)snprintf(block, sizeof(block), "%s\n", s->name);
		printf("# %s\n", s->name);
	}
	snprintf(row, sizeof(row),
		 "  %-18s %5.1f [%4.1f..%5.1f] %5.1f [%4.1f..%5.1f] %5.1f\n",
		 model, 100.0 * r->slower / r->trials, sl, sh,
		 100.0 * r->not_below / r->trials, nl, nh,
		 100.0 * r->inconclusive / r->trials);
	printf("# %s", row);
	if (block_len < sizeof(block))
		block_len +=
			(size_t)snprintf(block + block_len,
					 sizeof(block) - block_len, "%s", row);
}

/* With the default trials, a scenario's heading and rows are in gdperf(7)
 * word for word: the page's table is this test's output. */
static void check_block(void)
{
	if (man_page && sim_trials() == 2000 && !strstr(man_page, block))
		fail_msg("gdperf(7)'s STATISTICS table lacks these lines:\n%s",
			 block);
}

/* What the man page states, for one measured case. */
static void check(const struct scenario *s, enum model m, const struct rates *r)
{
	/* one slow size that stands out of 5% noise: "not below" withheld */
	if (s->slow_size && m == M_LN5)
		assert_true(r->not_below * 100 <= r->trials * 5);
	if (s->lowest_band >= FLOOR && s->slow_size == 0)
		assert_true(r->slower * 1000 <= r->trials * 25);
	if (s->lowest_band >= 1.0 && s->slow_size == 0)
		assert_true(r->slower * 100 <= r->trials * 1);
	if (s->lowest_band <= 0.9 * FLOOR)
		assert_true(r->not_below * 100 <= r->trials * 5);
	/* two identical paths at 5% noise: all 46 sizes shown not below */
	if (s->ratio >= 1.0 && !s->slow_size && !s->precise_band && m == M_LN5)
		assert_true(r->not_below * 100 >= r->trials * 90);
}

static void test_operating_characteristics(void **state)
{
	struct rates r;
	uint64_t seed = SEED;

	(void)state;
	man_page = sim_man_page();
	printf("# seed %#llx, %u trials per case, floor %.2f, 23 sizes,\n"
	       "# 3 rounds, 2 assessments per run; %% of runs [95%% interval]\n",
	       (unsigned long long)SEED, sim_trials(), FLOOR);
	printf("# %-20s %-19s %-19s %s\n", "truth / noise", "slower",
	       "not below", "undecided");
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		for (int m = 0; m < M_COUNT; m++) {
			run_case(&scenarios[i], (enum model)m, seed++, &r);
			print_row(&scenarios[i], model_name[m], &r, m == 0);
			check(&scenarios[i], (enum model)m, &r);
		}
		check_block();
	}
	run_case(&precise, M_LN5, seed, &r);
	print_row(&precise, "as named", &r, true);
	check_block();
	check(&precise, M_LN5, &r);
	/* the precise slow band is not hidden by the noisy ones */
	assert_true(r.slower * 100 >= r.trials * 80);
}

/*
 * The claim "not below" is about every size: one forward assessment of
 * eight sizes, 64 KiB..8 MiB (the large-message end where GPU paths
 * fail), with a run of slow precise sizes beside noisy ones at 1.00, one
 * size at 0.65, and the floor itself under heavier noise models.
 */
#define S8 8
#define MAX_R 20

enum noise8 {
	N8_LN,
	N8_T3,
	N8_ROUND_AR,
	N8_SIZE_AR,
	N8_DRIFT_HALF, /* round AR(1) 0.5 with half of a ratio's variance */
	N8_DRIFT_IID,  /* a 5% drift a round's sizes share, no AR */
};

static const char *const noise8_name[] = {
	"log-normal",	  "t3",	       "round AR(1) 0.5", "size AR(1) 0.5",
	"drift AR, half", "drift iid",
};

struct case8 {
	char name[40];
	unsigned int rounds, slow_mask;
	bool adaptive;	     /* rounds 3.. @rounds, looking after each */
	unsigned int phases; /* assessments per run (0: one) */
	bool slow_first;     /* the slow sizes in the first phase alone */
	unsigned int trials; /* 0: sim_trials_asan(2000) */
	double slow_ratio, slow_cv, rest_ratio, rest_cv;
	enum noise8 model;
};

/* Phase @k's figures. */
static void fill8(const struct case8 *c, unsigned int k, double *d)
{
	struct synth8 s = synth8_case(
		c->rounds, c->slow_first && k ? 0 : c->slow_mask, c->slow_ratio,
		c->slow_cv, c->rest_ratio, c->rest_cv);

	s.t3 = c->model == N8_T3;
	s.round_ar = c->model == N8_ROUND_AR || c->model == N8_DRIFT_HALF ||
		     c->model == N8_DRIFT_IID;
	s.size_ar = c->model == N8_SIZE_AR;
	/* half: the drift's variance a ratio's own (two figures' noise) */
	if (c->model == N8_DRIFT_HALF)
		s.drift_sd = sqrt(2) * log_sd(c->rest_cv);
	s.drift_iid = c->model == N8_DRIFT_IID;
	synth_fill8(&s, d);
}

#define MAX_PHASES 4

/* The adaptive design as the run applies it (--until-decided,
 * sweep_precision.c): a look after every round from the third, at the
 * split levels, the @phases assessments decided together, until
 * gd_assess_seq_stop() or at @c->rounds; the rounds' figures are drawn up
 * front, so a look sees the first r rows. Fixed: one look. */
static unsigned int assess8(const struct case8 *c, double (*d)[MAX_R * S8],
			    const double *sb, struct gd_assessment *a,
			    unsigned int phases)
{
	unsigned int first = c->adaptive ? 3 : c->rounds;
	unsigned int looks = gd_assess_looks(first, c->rounds);
	enum gd_decision prev[MAX_PHASES];

	for (unsigned int r = first;; r++) {
		for (unsigned int k = 0; k < phases; k++)
			assert_int_equal(gd_assess_seq(d[k], sb, r, S8, FLOOR,
						       looks, &a[k], NULL),
					 0);
		gd_assess_run(a, phases);
		if (r >= c->rounds ||
		    gd_assess_seq_stop(r > first ? prev : NULL, a, phases))
			return r;
		for (unsigned int k = 0; k < phases; k++)
			prev[k] = a[k].decision;
	}
}

static void run8(const struct case8 *c, uint64_t seed, struct rates *out)
{
	double d[MAX_PHASES][MAX_R * S8], sb[S8];
	struct gd_assessment a[MAX_PHASES];
	unsigned int phases = c->phases ? c->phases : 1;
	/* the bounds asserted here are the page's, for 2000 trials: a
	 * sanitizer build draws as many (a tenth of this test's time) */
	unsigned int n = c->trials ? c->trials : sim_trials_asan(2000);

	rng_state = seed;
	memset(out, 0, sizeof(*out));
	for (int z = 0; z < S8; z++)
		sb[z] = (double)(65536ULL << z);
	assert_true(phases <= MAX_PHASES);
	for (unsigned int t = 0; t < n; t++) {
		bool slower = false, all_clear = true;

		/* each phase its own draw; a run's phases decided together
		 * (their correlation pooled, Holm across them) */
		for (unsigned int k = 0; k < phases; k++)
			fill8(c, k, d[k]);
		out->rounds += assess8(c, d, sb, a, phases);
		for (unsigned int k = 0; k < phases; k++) {
			slower |= a[k].decision == GD_DECISION_SLOWER;
			all_clear &= a[k].decision == GD_DECISION_NOT_BELOW;
		}
		out->slower += slower;
		out->not_below += !slower && all_clear;
		out->inconclusive += !slower && !all_clear;
	}
	out->trials = n;
}

static void print8(const struct case8 *c, const struct rates *r)
{
	char row[256], noise[40], rounds[24];

	if (c->slow_first) /* one noise for all */
		snprintf(noise, sizeof(noise), "%s %.0f%%",
			 noise8_name[c->model], 100 * c->rest_cv);
	else if (c->slow_mask)
		snprintf(noise, sizeof(noise), "%s %.0f%% | %.0f%%",
			 noise8_name[c->model], 100 * c->slow_cv,
			 100 * c->rest_cv);
	else
		snprintf(noise, sizeof(noise), "%s %.0f%%",
			 noise8_name[c->model], 100 * c->rest_cv);
	/* adaptive: at most so many rounds (the mean taken) */
	if (c->adaptive)
		snprintf(rounds, sizeof(rounds), "<=%u (%4.1f)", c->rounds,
			 (double)r->rounds / r->trials);
	else
		snprintf(rounds, sizeof(rounds), "%2u", c->rounds);
	snprintf(row, sizeof(row), "%-20s %-20s %s %5.1f %5.1f %5.1f\n",
		 c->name, noise, rounds, 100.0 * r->slower / r->trials,
		 100.0 * r->not_below / r->trials,
		 100.0 * r->inconclusive / r->trials);
	printf("# %s", row);
	if (man_page && r->trials == 2000 && !strstr(man_page, row))
		fail_msg("gdperf(7)'s STATISTICS table lacks this row: %s",
			 row);
}

/* What the man page states of the eight-size cases. */
static void check8(const struct case8 *c, const struct rates *r)
{
	double lowest = c->rest_ratio;

	if (c->slow_mask && c->slow_ratio < lowest)
		lowest = c->slow_ratio;
	/* false "not below" wherever a size is at most 0.9 x the floor,
	 * and here also for the slow runs at 0.75 */
	if (lowest <= 0.9 * FLOOR || (c->slow_mask && c->slow_cv <= 0.05))
		assert_true(r->not_below * 100 <= r->trials * 5);
	/* false "slower" at the floor, per run */
	if (lowest >= FLOOR)
		assert_true(r->slower * 1000 <= r->trials * 25);
}

/* One size, 512 KiB, at 0.65 among seven at 1.00, all with 10% noise. */
static struct case8 one_slow_size(unsigned int rounds, enum noise8 model)
{
	struct case8 c = { .rounds = rounds,
			   .slow_mask = 1u << 3,
			   .slow_ratio = 0.65,
			   .slow_cv = 0.10,
			   .rest_ratio = 1.0,
			   .rest_cv = 0.10,
			   .model = model };

	snprintf(c.name, sizeof(c.name), "512 KiB at 0.65");
	return c;
}

static const unsigned int rounds8[] = { 3, 5, 10, 20 };

/* Runs of @k slow sizes at the bottom, in the middle, at the top. */
static unsigned int placement(unsigned int k, int where, char *name, size_t len)
{
	static const char *const at[] = { "bottom", "middle", "top" };
	unsigned int first = where == 0	  ? 0
			     : where == 1 ? (S8 - k) / 2
					  : S8 - k;

	snprintf(name, len, "%u of 8 slow, %s", k, at[where]);
	return ((1u << k) - 1) << first;
}

static void run_checked8(struct case8 *c, uint64_t *seed)
{
	struct rates r;

	run8(c, (*seed)++, &r);
	print8(c, &r);
	check8(c, &r);
}

static void test_every_size(void **state)
{
	static const unsigned int slow_runs[] = { 1, 2, 3, 5 };
	static const double mixes[][2] = { { 0.02, 0.15 }, { 0.05, 0.25 } };
	uint64_t seed = SEED ^ 0x8888;
	struct case8 c;
	struct rates r4;

	(void)state;
	printf("# 8 sizes 64 KiB..8 MiB, one assessment, %u trials per "
	       "case, floor %.2f\n",
	       sim_trials_asan(2000), FLOOR);
	printf("# %-20s %-20s %2s %5s %5s %5s\n", "truth",
	       "noise (slow | rest)", "r", "slow%", "ok%", "und%");
	for (size_t k = 0; k < sizeof(slow_runs) / sizeof(slow_runs[0]); k++)
		for (int where = 0; where < 3; where++)
			for (size_t m = 0; m < 2; m++)
				for (size_t i = 0; i < 4; i++) {
					/* the noisier mix at 3 and 10 rounds */
					if (m && (i == 1 || i == 3))
						continue;
					c = (struct case8){
						.rounds = rounds8[i],
						.slow_ratio = 0.75,
						.slow_cv = mixes[m][0],
						.rest_ratio = 1.0,
						.rest_cv = mixes[m][1],
						.model = N8_LN,
					};
					c.slow_mask = placement(slow_runs[k],
								where, c.name,
								sizeof(c.name));
					run_checked8(&c, &seed);
				}
	for (int model = N8_LN; model <= N8_T3; model++)
		for (size_t i = 0; i < 4; i++) {
			c = one_slow_size(rounds8[i], (enum noise8)model);
			run_checked8(&c, &seed);
		}
	for (int model = N8_LN; model <= N8_ROUND_AR; model++)
		for (size_t i = 0; i < 4; i++) {
			c = (struct case8){ .rounds = rounds8[i],
					    .rest_ratio = FLOOR,
					    .rest_cv = 0.10,
					    .model = (enum noise8)model };
			snprintf(c.name, sizeof(c.name), "all 0.80 (floor)");
			run_checked8(&c, &seed);
		}
	c = (struct case8){ .rounds = 3, .rest_ratio = 1.0, .rest_cv = 0.05 };
	snprintf(c.name, sizeof(c.name), "all 1.00");
	{
		struct rates r;

		run8(&c, seed++, &r);
		print8(&c, &r);
		/* A/A at 5% noise, three rounds: every size shown */
		assert_true(r.not_below * 100 >= r.trials * 90);
	}
	/* a run of four device phases, each with its own drift or its own
	 * sizes' noise correlated from round to round: their correlation
	 * read from all four (gd_assess_run) */
	for (int model = N8_ROUND_AR; model <= N8_SIZE_AR; model++)
		for (size_t i = 1; i < 4; i++) {
			c = (struct case8){ .rounds = rounds8[i],
					    .phases = 4,
					    .rest_ratio = FLOOR,
					    .rest_cv = 0.10,
					    .model = (enum noise8)model };
			snprintf(c.name, sizeof(c.name),
				 "0.80, 4 phases a run");
			run8(&c, seed++, &r4);
			print8(&c, &r4);
			/* the round drift is item 3's model: asserted */
			if (model == N8_ROUND_AR)
				check8(&c, &r4);
		}
}

/*
 * The adaptive design (--until-decided, and --precision's stop): a look
 * after every round from the third to at most 10 or 20 rounds, stopping
 * once decided, at the levels split over the planned looks. Beside each
 * case, the fixed design with the same most rounds from the same draws:
 * looking early must not make a false "not below" or a false "slower"
 * more likely than measuring every round.
 */
static void run_adaptive(struct case8 *c, uint64_t seed, bool assert_aa)
{
	struct rates ad, fx;

	c->adaptive = true;
	run8(c, seed, &ad);
	print8(c, &ad);
	check8(c, &ad);
	c->adaptive = false;
	run8(c, seed, &fx);
	/* a false "not below" where a size is at or below 0.9 x the floor,
	 * and a false "slower" at the floor: no likelier than fixed (the
	 * slack: two runs' Monte Carlo error, about one point at 2,000) */
	if (c->slow_mask || c->rest_ratio <= 0.9 * FLOOR)
		assert_true(ad.not_below * 1000 <=
			    fx.not_below * 1000 + fx.trials * 10);
	if (c->rest_ratio == FLOOR && !c->slow_mask)
		assert_true(ad.slower * 1000 <=
			    fx.slower * 1000 + fx.trials * 10);
	/* two identical paths at 5% noise: decided "not below" */
	if (assert_aa)
		assert_true(ad.not_below * 100 >= ad.trials * 90);
}

static void test_adaptive(void **state)
{
	static const unsigned int slow_runs[] = { 1, 2, 3, 5 };
	static const double mixes[][2] = { { 0.02, 0.15 }, { 0.05, 0.25 } };
	static const double aa_cv[] = { 0.05, 0.10, 0.15 };
	uint64_t seed = SEED ^ 0xada9;
	struct case8 c;

	(void)state;
	printf("# adaptive: a look after rounds 3..max, levels split over\n"
	       "# the looks; r: the most rounds (the mean taken)\n");
	printf("# %-20s %-20s %-11s %5s %5s %5s\n", "truth",
	       "noise (slow | rest)", "r (mean)", "slow%", "ok%", "und%");
	for (size_t k = 0; k < sizeof(slow_runs) / sizeof(slow_runs[0]); k++)
		for (int where = 0; where < 3; where++)
			for (size_t m = 0; m < 2; m++) {
				c = (struct case8){
					.rounds = 10,
					.slow_ratio = 0.75,
					.slow_cv = mixes[m][0],
					.rest_ratio = 1.0,
					.rest_cv = mixes[m][1],
					.model = N8_LN,
				};
				c.slow_mask = placement(slow_runs[k], where,
							c.name, sizeof(c.name));
				run_adaptive(&c, seed++, false);
			}
	for (int model = N8_LN; model <= N8_T3; model++) {
		c = one_slow_size(10, (enum noise8)model);
		run_adaptive(&c, seed++, false);
	}
	for (int model = N8_LN; model <= N8_ROUND_AR; model++)
		for (unsigned int most = 10; most <= 20; most += 10) {
			c = (struct case8){ .rounds = most,
					    .rest_ratio = FLOOR,
					    .rest_cv = 0.10,
					    .model = (enum noise8)model };
			snprintf(c.name, sizeof(c.name), "all 0.80 (floor)");
			run_adaptive(&c, seed++, false);
		}
	for (size_t i = 0; i < sizeof(aa_cv) / sizeof(aa_cv[0]); i++) {
		c = (struct case8){ .rounds = 10,
				    .rest_ratio = 1.0,
				    .rest_cv = aa_cv[i] };
		snprintf(c.name, sizeof(c.name), "all 1.00");
		run_adaptive(&c, seed++, i == 0);
	}
	/* two identical paths at 10% noise, at most 20 rounds: decided (400
	 * trials under ASan, whose 95% interval must reach 90%) */
	c = (struct case8){ .rounds = MAX_R,
			    .rest_ratio = 1.0,
			    .rest_cv = 0.10,
			    .adaptive = true,
			    .trials = sim_trials_asan(400) };
	snprintf(c.name, sizeof(c.name), "all 1.00");
	{
		struct rates r;
		double lo, hi;

		run8(&c, seed++, &r);
		print8(&c, &r);
		wilson(r.not_below + r.slower, r.trials, &lo, &hi);
		assert_true(r.trials >= 2000 ? (r.not_below + r.slower) * 100 >=
						       r.trials * 90
					     : hi >= 90);
	}
}

/*
 * One size at the floor among sizes at 1.00, 5% noise, when rounds are
 * correlated: each size's own noise AR(1) 0.5, a drift a round's sizes
 * share (AR(1) 0.5 at 5%, the same with half a ratio's variance, and 5%
 * drawn afresh each round); at 3, 5, 10, 20 rounds and adaptive (<= 20),
 * with one direction and with two (the floor size in the first, the
 * second all at 1.00, decided together). "Not below" claims every size
 * clears the floor: it may not be said in more than 5% of runs, except
 * under each size's own AR(1) with three fixed rounds, which no rule can
 * see without costing two identical paths their "not below" (gdperf(7)
 * states the rate, about 11%, and what the rules tried would cost). A
 * false "slower" at most 2.5% under every model. 2000 trials a row, 200
 * under ASan (the rows' cost is mostly the looks at 20 rounds), where a
 * row's 95% interval must reach the bound.
 */
static void check_floor(const struct case8 *c, const struct rates *r)
{
	double lo, hi, most = 5;

	if (c->model == N8_SIZE_AR && !c->adaptive &&
	    c->rounds < GD_ASSESS_CORR_MIN_ROUNDS)
		most = 12;
	wilson(r->not_below, r->trials, &lo, &hi);
	if (r->trials >= 2000)
		assert_true(100.0 * r->not_below / r->trials <= most);
	else
		assert_true(lo <= most);
	wilson(r->slower, r->trials, &lo, &hi);
	assert_true(r->trials >= 2000 ? r->slower * 1000 <= r->trials * 25
				      : lo <= 2.5);
}

static void test_floor_correlated(void **state)
{
	static const enum noise8 models[] = { N8_SIZE_AR, N8_ROUND_AR,
					      N8_DRIFT_HALF, N8_DRIFT_IID };
	uint64_t seed = SEED ^ 0xc0ff;
	unsigned int n = sim_trials_asan(200);
	struct rates r;

	(void)state;
	printf("# one size, 512 KiB, at 0.80 among 1.00, 5%% noise, "
	       "%u trials per case\n",
	       n);
	printf("# %-20s %-20s %-11s %5s %5s %5s\n", "truth", "noise",
	       "r (mean)", "slow%", "ok%", "und%");
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++)
		for (unsigned int dirs = 1; dirs <= 2; dirs++)
			for (size_t i = 0; i <= 4; i++) {
				struct case8 c = {
					.rounds = i < 4 ? rounds8[i] : MAX_R,
					.adaptive = i == 4,
					.phases = dirs,
					.slow_first = true,
					.slow_mask = 1u << 3,
					.slow_ratio = FLOOR,
					.slow_cv = 0.05,
					.rest_ratio = 1.0,
					.rest_cv = 0.05,
					.model = models[m],
					.trials = n,
				};

				snprintf(c.name, sizeof(c.name),
					 "0.80 in 1.00, %u dir", dirs);
				run8(&c, seed++, &r);
				print8(&c, &r);
				check_floor(&c, &r);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operating_characteristics),
		cmocka_unit_test(test_every_size),
		cmocka_unit_test(test_adaptive),
		cmocka_unit_test(test_floor_correlated),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	free(man_page);
	return ret;
}
