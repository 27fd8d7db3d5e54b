/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Failure-domain classification: the smallest unit the evidence proves,
 * tried from widest to narrowest (application environment, rail, server,
 * GPU/NIC association). A server or association is proven only when it is
 * bad with two partners, or with one partner that is good elsewhere;
 * otherwise both candidates are named and a retest with new partners asked.
 * Every question about a unit reads only the runs touching its host (the
 * analysis' host lists), so a pass over the fleet is linear in its runs.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet_index.h"
#include "util/error.h"

const char *gd_fleet_unit_name(enum gd_fleet_unit u)
{
	static const char *const names[] = {
		[GD_UNIT_ASSOCIATION] = "association",
		[GD_UNIT_SERVER] = "server",
		[GD_UNIT_RAIL] = "rail",
		[GD_UNIT_ENVIRONMENT] = "application environment",
		[GD_UNIT_PAIR] = "unresolved pair",
	};

	return names[u];
}

static struct gd_fleet_domain *domain_add(struct gd_fleet *fl,
					  enum gd_fleet_unit unit)
{
	struct gd_fleet_domain *grown;

	grown = gd_fleet_grow(fl->domains, &fl->domains_cap, fl->n_domains,
			      sizeof(*grown));
	if (!grown)
		return NULL;
	fl->domains = grown;
	grown = &fl->domains[fl->n_domains++];
	memset(grown, 0, sizeof(*grown));
	grown->unit = unit;
	return grown;
}

static bool tested(const struct gd_fleet_run *r)
{
	return gd_fleet_run_tested(r);
}

/* A unit is a host (gpu < 0) or one association of it. */
static bool touches(const struct gd_fleet_run *r, int host, int gpu)
{
	return (r->a == host || r->b == host) && (gpu < 0 || r->gpu == gpu);
}

static int partner(const struct gd_fleet_run *r, int host)
{
	return r->a == host ? r->b : r->a;
}

static bool open_bad(const struct gd_fleet_run *r)
{
	return gd_fleet_run_bad(r) && !r->explained;
}

/* Per-partner tallies of one unit, reset after each use. */
struct tally {
	int *t, *bad;
	int *seen; /* partners with a tally */
	size_t n_seen;
	bool *has; /* per host: an unexplained bad run */
};

/* Partners with which the unit's runs are mostly bad (unexplained). */
static int bad_partners(const struct gd_fleet *fl, struct tally *ty, int host,
			int gpu, int *first, int *lanes)
{
	const uint32_t *runs;
	size_t i, k = gd_fleet_index_host(fl->ix, host, &runs);
	unsigned long long lane_bits = 0;
	int n = 0;

	*first = -1;
	for (i = 0; i < k; i++) {
		const struct gd_fleet_run *r = &fl->runs[runs[i]];
		int q = partner(r, host);

		if ((gpu >= 0 && r->gpu != gpu) || q < 0 || !tested(r) ||
		    (gd_fleet_run_bad(r) && r->explained))
			continue;
		if (!ty->t[q]++)
			ty->seen[ty->n_seen++] = q;
		if (open_bad(r)) {
			ty->bad[q]++;
			lane_bits |= 1ULL << (r->gpu & 63);
		}
	}
	for (i = 0; i < ty->n_seen; i++) {
		int q = ty->seen[i];

		if (ty->bad[q] * 2 >= ty->t[q]) {
			if (*first < 0 || q < *first)
				*first = q;
			n++;
		}
		ty->t[q] = ty->bad[q] = 0;
	}
	ty->n_seen = 0;
	*lanes = __builtin_popcountll(lane_bits);
	return n;
}

/* Partner q of the unit is exonerated when it has a good run elsewhere. */
static bool good_elsewhere(const struct gd_fleet *fl, int q, int gpu, int not )
{
	const uint32_t *runs;
	size_t i, k = gd_fleet_index_host(fl->ix, q, &runs);

	for (i = 0; i < k; i++) {
		const struct gd_fleet_run *r = &fl->runs[runs[i]];

		if (touches(r, q, gpu) && partner(r, q) != not &&tested(r) &&
		    !gd_fleet_run_bad(r))
			return true;
	}
	return false;
}

static void explain(struct gd_fleet *fl, int host, int gpu)
{
	const uint32_t *runs;
	size_t i, k = gd_fleet_index_host(fl->ix, host, &runs);

	for (i = 0; i < k; i++)
		if (touches(&fl->runs[runs[i]], host, gpu) &&
		    open_bad(&fl->runs[runs[i]]))
			fl->runs[runs[i]].explained = true;
}

/* Evidence: counts, partners and the first bad run's reason; plus which
 * memory path the pattern points at. */
static void unit_evidence(const struct gd_fleet *fl, int host, int gpu,
			  char *dst, size_t len)
{
	int bad = 0, t = 0, host_slow = 0, gpu_slow = 0;
	const struct gd_fleet_run *ex = NULL;
	const uint32_t *runs;
	size_t i, k = gd_fleet_index_host(fl->ix, host, &runs);

	for (i = 0; i < k; i++) {
		const struct gd_fleet_run *r = &fl->runs[runs[i]];

		if (!touches(r, host, gpu) || !tested(r))
			continue;
		t++;
		if (!gd_fleet_run_bad(r))
			continue;
		bad++;
		ex = ex ? ex : r;
		host_slow += r->slow && strstr(r->slow_why, "HH ") != NULL;
		gpu_slow += r->slow && strstr(r->slow_why, "D ") != NULL;
	}
	snprintf(
		dst, len, "%d of %d executions bad; e.g. %.100s: %.200s%s", bad,
		t, ex ? ex->id : "-", ex ? gd_fleet_run_why(ex) : "",
		gpu_slow && !host_slow
			? ". Host-memory path normal, "
			  "GPU-memory path slow: check GPU/NIC locality and path class "
			  "(gd_doctor map), PCIe link and ACS"
		: host_slow
			? ". Host-memory path slow too: check the NIC port, link speed, "
			  "cable and error counters"
			: "");
}

static void unit_name(const struct gd_fleet *fl, int host, int gpu, char *dst,
		      size_t len)
{
	if (gpu < 0)
		snprintf(dst, len, "%s", fl->hosts[host].name);
	else
		snprintf(dst, len, "%s:gpu%d", fl->hosts[host].name, gpu);
}

static int unit_lanes_needed(const struct gd_fleet *fl)
{
	int half = (fl->gpus_per_server + 1) / 2;

	if (fl->gpus_per_server < 2)
		return 1;
	return half < 2 ? 2 : half;
}

/* Record one domain for @host/@gpu (and partner @q for a pair). */
static int domain_unit(struct gd_fleet *fl, int host, int gpu, int q,
		       enum gd_fleet_unit unit)
{
	struct gd_fleet_domain *d = domain_add(fl, unit);
	char other[GD_FLEET_NAME_MAX + 16];

	if (!d)
		return -ENOMEM;
	unit_evidence(fl, host, gpu, d->evidence, sizeof(d->evidence));
	unit_name(fl, host, gpu, d->name, sizeof(d->name));
	if (unit == GD_UNIT_PAIR) {
		unit_name(fl, q, gpu, other, sizeof(other));
		strncat(d->name, " or ", sizeof(d->name) - strlen(d->name) - 1);
		strncat(d->name, other, sizeof(d->name) - strlen(d->name) - 1);
		snprintf(d->action, sizeof(d->action),
			 "retest each with a "
			 "different partner (round 2, diversity) to separate "
			 "them; quarantine neither yet");
		explain(fl, q, gpu);
	} else {
		snprintf(d->action, sizeof(d->action),
			 "quarantine only %s "
			 "and retest it",
			 d->name);
	}
	explain(fl, host, gpu);
	return 0;
}

/* Hosts with an unexplained bad run: the only ones a pass can prove
 * anything about (explaining never makes a run bad). */
static void hosts_with_bad(const struct gd_fleet *fl, bool *has)
{
	size_t i;

	memset(has, 0, fl->n_hosts * sizeof(*has));
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (!open_bad(r))
			continue;
		if (r->a >= 0)
			has[r->a] = true;
		if (r->b >= 0)
			has[r->b] = true;
	}
}

/* One pass over every unit; *@proven when a unit was proven. */
static int units_pass(struct gd_fleet *fl, struct tally *ty, bool gpu_each,
		      bool pairs, bool *proven)
{
	int h, g, q, lanes, n, ret = 0;
	int g_n = gpu_each ? fl->gpus_per_server : 1;

	hosts_with_bad(fl, ty->has);
	for (h = 0; !ret && h < (int)fl->n_hosts; h++) {
		for (g = 0; ty->has[h] && !ret && g < g_n; g++) {
			int gpu = gpu_each ? g : -1;

			n = bad_partners(fl, ty, h, gpu, &q, &lanes);
			if (!n || (!gpu_each && lanes < unit_lanes_needed(fl)))
				continue;
			if (n >= 2 || good_elsewhere(fl, q, gpu, h)) {
				ret = domain_unit(fl, h, gpu, q,
						  gpu_each ? GD_UNIT_ASSOCIATION
							   : GD_UNIT_SERVER);
				*proven = true;
			} else if (pairs) {
				ret = domain_unit(fl, h, gpu, q, GD_UNIT_PAIR);
			}
		}
	}
	return ret;
}

/* Prove what can be proven over hosts (gpu_each false) or associations,
 * re-evaluating after each proof (a proven unit explains its partners'
 * bad runs); what stays ambiguous is named as a pair. */
static int classify_units(struct gd_fleet *fl, bool gpu_each)
{
	struct tally ty = { .t = calloc(fl->n_hosts + 1, sizeof(int)),
			    .bad = calloc(fl->n_hosts + 1, sizeof(int)),
			    .seen = calloc(fl->n_hosts + 1, sizeof(int)),
			    .has = calloc(fl->n_hosts + 1, sizeof(bool)) };
	bool proven = true, pairs = false;
	int ret = ty.t && ty.bad && ty.seen && ty.has ? 0 : -ENOMEM;

	while (!ret && (proven || !pairs)) {
		pairs = !proven;
		proven = false;
		ret = units_pass(fl, &ty, gpu_each, pairs, &proven);
	}
	free(ty.t);
	free(ty.bad);
	free(ty.seen);
	free(ty.has);
	return ret;
}

static int classify_env(struct gd_fleet *fl)
{
	size_t i, bad = 0, t = 0;
	int hosts = 0, rails = 0;
	char *hb = calloc(fl->n_hosts + 1, 1), *rb = calloc(fl->rails + 1, 1);
	const struct gd_fleet_run *ex = NULL;
	struct gd_fleet_domain *d;

	if (!hb || !rb)
		goto out;
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		t += tested(r);
		/* A document without its hosts names no host to count. */
		if (!gd_fleet_run_bad(r) || r->a < 0 || r->b < 0)
			continue;
		bad++;
		ex = ex ? ex : r;
		hosts += !hb[r->a] + (!hb[r->b] && r->b != r->a);
		hb[r->a] = hb[r->b] = 1;
		if (r->rail < fl->rails)
			rails += !rb[r->rail];
		if (r->rail < fl->rails)
			rb[r->rail] = 1;
	}
	if (t < 4 || bad * 2 < t || hosts * 2 < (int)fl->n_hosts ||
	    rails * 2 < fl->rails)
		goto out;
	d = domain_add(fl, GD_UNIT_ENVIRONMENT);
	if (d) {
		snprintf(d->name, sizeof(d->name), "application environment");
		snprintf(d->evidence, sizeof(d->evidence),
			 "%zu of %zu "
			 "executions bad on %d of %zu servers and %d of %d "
			 "rails; e.g. %s: %s",
			 bad, t, hosts, fl->n_hosts, rails, fl->rails, ex->id,
			 ex->slow ? ex->slow_why : ex->error);
		snprintf(d->action, sizeof(d->action),
			 "fix the environment "
			 "the jobs run in (image, driver and peer-memory "
			 "modules, memlock limit, launcher) on one pair and "
			 "retest that pair before the fleet");
		/* every host: every bad run that names one */
		for (i = 0; i < fl->n_runs; i++)
			if ((fl->runs[i].a >= 0 || fl->runs[i].b >= 0) &&
			    open_bad(&fl->runs[i]))
				fl->runs[i].explained = true;
	}
out:
	free(hb);
	free(rb);
	return 0;
}

struct rail_tally {
	int t, failed;
	const struct gd_fleet_run *ex; /* the first failed */
	bool marked;
};

static void rail_domain(struct gd_fleet *fl, struct gd_fleet_domain *d,
			int rail, const struct rail_tally *rt)
{
	snprintf(d->name, sizeof(d->name), "rail %d", rail);
	snprintf(
		d->evidence, sizeof(d->evidence),
		fl->rail_slow[rail]
			? "the rail's median is an outlier against the other "
			  "rails' medians (median and MAD across rails) at most "
			  "judged sizes, on every pair tested on it"
			: "%d of %d executions on the rail failed, e.g. %s: %s",
		rt->failed, rt->t, rt->ex ? rt->ex->id : "-",
		rt->ex ? rt->ex->error : "");
	snprintf(d->action, sizeof(d->action),
		 "quarantine only rail %d "
		 "(its switches, cables and optics) and retest it",
		 rail);
}

/* A run has one rail: each rail's tallies are taken in one pass, before
 * any rail's runs are explained, as rail by rail would find them. */
static int classify_rails(struct gd_fleet *fl)
{
	struct rail_tally *rt = calloc(fl->rails + 1, sizeof(*rt));
	struct gd_fleet_domain *d;
	size_t i;
	int rail;

	if (!rt)
		return -ENOMEM;
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (r->rail < 0 || r->rail >= fl->rails || !tested(r) ||
		    r->explained)
			continue;
		rt[r->rail].t++;
		if (!r->ok && !rt[r->rail].failed++)
			rt[r->rail].ex = r;
	}
	for (rail = 0; rail < fl->rails; rail++) {
		if (!fl->rail_slow[rail] &&
		    (rt[rail].failed < 2 || rt[rail].failed * 2 < rt[rail].t))
			continue;
		d = domain_add(fl, GD_UNIT_RAIL);
		if (!d)
			break;
		rail_domain(fl, d, rail, &rt[rail]);
		rt[rail].marked = true;
	}
	for (i = 0; i < fl->n_runs; i++)
		if (fl->runs[i].rail >= 0 && fl->runs[i].rail < fl->rails &&
		    rt[fl->runs[i].rail].marked &&
		    gd_fleet_run_bad(&fl->runs[i]))
			fl->runs[i].explained = true;
	free(rt);
	return 0;
}

int gd_fleet_classify(struct gd_fleet *fl)
{
	int ret = classify_env(fl);

	if (!fl->ix)
		return gd_err(-EINVAL, "failure domains asked before the "
				       "analysis; call gd_fleet_analyze first");
	if (fl->n_domains)
		return ret;
	ret = classify_rails(fl);
	if (!ret)
		ret = classify_units(fl, false);
	if (!ret)
		ret = classify_units(fl, true);
	return ret ? gd_err(ret, "out of memory classifying failure domains")
		   : 0;
}
