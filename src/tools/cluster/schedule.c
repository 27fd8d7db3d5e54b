/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The schedules of a plan. Each answers one question, so each is its own
 * phase: coverage (every association, both directions, repeats), diversity
 * (different partners, across racks), concurrency (every rail of a pair at
 * once) and, when asked for, locality (near against far GPU). Pairs come
 * from the round-robin circle method.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/plan.h"
#include "util/error.h"

int gd_sched_circle_steps(int n)
{
	return n % 2 ? n : n - 1;
}

static int cmp_pair(const void *x, const void *y)
{
	const int *p = x, *q = y;

	return p[0] - q[0];
}

/* Classic circle: element m-1 stays put, the others rotate by one per step.
 * With an odd count the fixed element is a dummy and its partner rests.
 * The pairs come in the circle's order, not sorted. */
static int circle_pairs(int n, int step, int (*pairs)[2], int *bye)
{
	int m = n + n % 2, r = m - 1, np = 0, j;

	*bye = -1;
	for (j = 0; j < m / 2; j++) {
		int x = j ? (step + j) % r : m - 1;
		int y = (step - j % r + r) % r;

		if (x >= n || y >= n) {
			*bye = x >= n ? y : x;
			continue;
		}
		pairs[np][0] = x < y ? x : y;
		pairs[np][1] = x < y ? y : x;
		np++;
	}
	return np;
}

int gd_sched_circle(int n, int step, int (*pairs)[2], int *bye)
{
	int np = circle_pairs(n, step, pairs, bye);

	qsort(pairs, np, sizeof(pairs[0]), cmp_pair);
	return np;
}

static struct gd_plan_step *step_add(struct gd_plan *plan, int round,
				     int n_pairs)
{
	struct gd_plan_step *s, *grown;
	int step = 1;
	size_t i;

	for (i = 0; i < plan->n_steps; i++)
		if (plan->steps[i].round == round)
			step++;
	grown = realloc(plan->steps, (plan->n_steps + 1) * sizeof(*s));
	if (!grown)
		return NULL;
	plan->steps = grown;
	s = &plan->steps[plan->n_steps];
	memset(s, 0, sizeof(*s));
	s->pairs = calloc(n_pairs ? n_pairs : 1, sizeof(*s->pairs));
	if (!s->pairs)
		return NULL;
	plan->n_steps++;
	s->round = round;
	s->step = step;
	s->bye = -1;
	return s;
}

/* A coverage-style round from circle step @cs: its disjoint pairs, then,
 * if a server rested, its pair from the next circle step on its own. */
static int round_from_circle(struct gd_plan *plan, int round, int cs)
{
	int n = (int)plan->cfg.servers, bye, bye2, np, i;
	int(*tmp)[2] = calloc(n / 2 + 1, sizeof(*tmp));
	struct gd_plan_step *s;
	int ret = -ENOMEM;

	if (!tmp)
		goto out;
	np = gd_sched_circle(n, cs, tmp, &bye);
	s = step_add(plan, round, np);
	if (!s)
		goto out;
	memcpy(s->pairs, tmp, np * sizeof(*tmp));
	s->n_pairs = np;
	s->bye = bye;
	if (bye >= 0) {
		np = gd_sched_circle(n, (cs + 1) % gd_sched_circle_steps(n),
				     tmp, &bye2);
		s = step_add(plan, round, 1);
		if (!s)
			goto out;
		for (i = 0; i < np; i++)
			if (tmp[i][0] == bye || tmp[i][1] == bye)
				memcpy(s->pairs[0], tmp[i], sizeof(tmp[i]));
		s->n_pairs = 1;
	}
	ret = 0;
out:
	free(tmp);
	return ret ? gd_err(ret, "out of memory building round %d", round) : 0;
}

/* Round 1's partners of every host, two slots each (the bye's partner
 * meets it in a second step), so a lookup costs no scan of the round. */
static int *coverage_partners(const struct gd_plan *plan)
{
	int n = (int)plan->cfg.servers, *p = malloc(2 * (size_t)n * sizeof(*p));
	size_t i;
	int j, k;

	if (!p)
		return NULL;
	for (j = 0; j < 2 * n; j++)
		p[j] = -1;
	for (i = 0; i < plan->n_steps; i++) {
		const struct gd_plan_step *s = &plan->steps[i];

		for (j = 0; s->round == GD_ROUND_COVERAGE && j < s->n_pairs;
		     j++)
			for (k = 0; k < 2; k++) {
				int h = s->pairs[j][k], o = s->pairs[j][!k];

				p[2 * h + (p[2 * h] >= 0)] = o;
			}
	}
	return p;
}

struct rack_ref {
	const char *rack;
	int host;
};

static int cmp_rack(const void *x, const void *y)
{
	const struct rack_ref *p = x, *q = y;

	return strcmp(p->rack, q->rack);
}

/* A number per distinct rack name, so that comparing racks is one integer
 * comparison; NULL only when out of memory. */
static int *rack_ids(const struct gd_plan *plan)
{
	int n = (int)plan->cfg.servers, i, id = 0;
	struct rack_ref *r = malloc((size_t)n * sizeof(*r));
	int *ids = malloc((size_t)n * sizeof(*ids));

	if (!r || !ids) {
		free(r);
		free(ids);
		return NULL;
	}
	for (i = 0; i < n; i++)
		r[i] = (struct rack_ref){ plan->hosts[i].rack, i };
	qsort(r, n, sizeof(*r), cmp_rack);
	for (i = 0; i < n; i++) {
		if (i && strcmp(r[i - 1].rack, r[i].rack))
			id++;
		ids[r[i].host] = id;
	}
	free(r);
	return ids;
}

/* The score of circle step @cs: a million per cross-rack pair, one per
 * pair not met in round 1. */
static long diversity_score(const struct gd_plan *plan, int cs,
			    const int *partner, const int *rack, int (*tmp)[2])
{
	int n = (int)plan->cfg.servers, bye, i;
	int np = circle_pairs(n, cs, tmp, &bye);
	long score = 0;

	for (i = 0; i < np; i++) {
		int a = tmp[i][0], b = tmp[i][1];

		if (plan->have_racks && rack[a] != rack[b])
			score += 1000000;
		if (partner[2 * a] != b && partner[2 * a + 1] != b)
			score += 1;
	}
	return score;
}

/* Prefer the circle step with the most cross-rack pairs, then the fewest
 * partners already met in round 1. */
static int diversity_step(const struct gd_plan *plan)
{
	int n = (int)plan->cfg.servers, steps = gd_sched_circle_steps(n);
	int(*tmp)[2] = calloc(n / 2 + 1, sizeof(*tmp));
	int *partner = coverage_partners(plan), *rack = rack_ids(plan);
	long best_score = -1;
	int best = -1, cs;

	for (cs = 1; tmp && partner && rack && cs < steps; cs++) {
		long score = diversity_score(plan, cs, partner, rack, tmp);

		if (score > best_score) {
			best_score = score;
			best = cs;
		}
	}
	free(tmp);
	free(partner);
	free(rack);
	return best;
}

static int concurrency_round(struct gd_plan *plan)
{
	size_t i, n = plan->n_steps;
	int dir;

	for (i = 0; i < n; i++) {
		for (dir = 0; dir < 2; dir++) {
			struct gd_plan_step *s;

			if (plan->steps[i].round != GD_ROUND_COVERAGE)
				continue;
			s = step_add(plan, GD_ROUND_CONCURRENCY,
				     plan->steps[i].n_pairs);
			if (!s)
				return gd_err(-ENOMEM, "out of memory");
			/* step_add may have moved the array */
			memcpy(s->pairs, plan->steps[i].pairs,
			       plan->steps[i].n_pairs * sizeof(*s->pairs));
			s->n_pairs = plan->steps[i].n_pairs;
			s->bye = plan->steps[i].bye;
			s->a_to_b_only = dir == 0;
			s->b_to_a_only = dir == 1;
		}
	}
	return 0;
}

/* Round 4: the round-1 pairs again, step for step (the bye's pair in its
 * own step), both directions, so that every server runs one execution as
 * the client against its round-1 partner. */
static int locality_round(struct gd_plan *plan)
{
	size_t i, n = plan->n_steps;

	for (i = 0; i < n; i++) {
		struct gd_plan_step *s;

		if (plan->steps[i].round != GD_ROUND_COVERAGE)
			continue;
		s = step_add(plan, GD_ROUND_LOCALITY, plan->steps[i].n_pairs);
		if (!s)
			return gd_err(-ENOMEM, "out of memory");
		memcpy(s->pairs, plan->steps[i].pairs,
		       plan->steps[i].n_pairs * sizeof(*s->pairs));
		s->n_pairs = plan->steps[i].n_pairs;
		s->bye = plan->steps[i].bye;
	}
	return 0;
}

static void exec_fill(const struct gd_plan *plan, struct gd_plan_exec *e,
		      const struct gd_plan_step *s, int pi)
{
	static const char tag[] = "?cdxl";

	e->round = s->round;
	e->step = s->step;
	e->a = s->pairs[pi][0];
	e->b = s->pairs[pi][1];
	e->rail = plan->hosts[e->a].assoc[e->gpu].rail;
	/* Disjoint pairs never share a host, so a port per GPU suffices
	 * (loopback plans renumber in build_execs). */
	e->port = (int)(plan->cfg.base_port + e->gpu);
	snprintf(e->id, sizeof(e->id), "%c%d-%s-%s-g%d-%s-r%d", tag[s->round],
		 s->step, plan->hosts[e->a].name, plan->hosts[e->b].name,
		 e->gpu, e->b_to_a ? "ba" : "ab", e->repeat);
}

static size_t step_execs(struct gd_plan *plan, const struct gd_plan_step *s,
			 struct gd_plan_exec *out)
{
	long reps = s->round == GD_ROUND_COVERAGE ? plan->cfg.repeats : 1;
	/* locality: one NIC per server, GPU 0's (the run picks the GPUs) */
	long g_n =
		s->round == GD_ROUND_LOCALITY ? 1 : plan->cfg.gpus_per_server;
	long rep, g;
	size_t n = 0;
	int pi, d;

	for (pi = 0; pi < s->n_pairs; pi++)
		for (rep = 1; rep <= reps; rep++)
			for (g = 0; g < g_n; g++)
				for (d = 0; d < 2; d++) {
					if ((d == 0 && s->b_to_a_only) ||
					    (d == 1 && s->a_to_b_only))
						continue;
					if (out) {
						out[n].gpu = (int)g;
						out[n].repeat = (int)rep;
						out[n].b_to_a = d;
						exec_fill(plan, &out[n], s, pi);
					}
					n++;
				}
	return n;
}

static int build_execs(struct gd_plan *plan)
{
	size_t i, total = 0;
	long max_port = plan->cfg.base_port + plan->cfg.gpus_per_server - 1;

	if (max_port > 65535)
		return gd_err(-EINVAL,
			      "--base-port: runs need TCP ports %ld.."
			      "%ld, above 65535; lower --base-port",
			      plan->cfg.base_port, max_port);
	for (i = 0; i < plan->n_steps; i++)
		total += step_execs(plan, &plan->steps[i], NULL);
	plan->execs = calloc(total, sizeof(*plan->execs));
	if (!plan->execs)
		return gd_err(-ENOMEM, "out of memory for %zu executions",
			      total);
	for (i = 0; i < plan->n_steps; i++)
		plan->n_execs += step_execs(plan, &plan->steps[i],
					    plan->execs + plan->n_execs);
	/* On one host a listener that just closed may linger in TIME_WAIT:
	 * give every loopback execution a port of its own. */
	if (plan->cfg.loopback_host[0] &&
	    plan->cfg.base_port + (long)total > 65535)
		return gd_err(-EINVAL,
			      "--base-port: %zu loopback executions "
			      "need ports %ld..%ld, above 65535; lower "
			      "--base-port",
			      total, plan->cfg.base_port,
			      plan->cfg.base_port + (long)total - 1);
	for (i = 0; plan->cfg.loopback_host[0] && i < total; i++)
		plan->execs[i].port = (int)(plan->cfg.base_port + (long)i);
	return 0;
}

int gd_plan_build(struct gd_plan *plan)
{
	int n = (int)plan->cfg.servers, cs, ret;

	gd_plan_worksheet(&plan->cfg, &plan->ws);
	ret = round_from_circle(plan, GD_ROUND_COVERAGE, 0);
	if (ret)
		return ret;
	if (gd_sched_circle_steps(n) > 1) {
		cs = diversity_step(plan);
		if (cs < 0)
			return gd_err(-ENOMEM, "out of memory");
		ret = round_from_circle(plan, GD_ROUND_DIVERSITY, cs);
		if (ret)
			return ret;
	}
	ret = concurrency_round(plan);
	if (!ret && plan->cfg.locality_round)
		ret = locality_round(plan);
	return ret ? ret : build_execs(plan);
}
