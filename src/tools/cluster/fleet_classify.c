/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Failure-domain classification: the smallest unit the evidence proves,
 * tried from widest to narrowest (application environment, rail, server,
 * GPU/NIC association). A server or association is proven only when it is
 * bad with two partners, or with one partner that is good elsewhere;
 * otherwise both candidates are named and a retest with new partners asked.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet.h"
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

	grown = realloc(fl->domains, (fl->n_domains + 1) * sizeof(*grown));
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
	return r->have_measure || r->have_server;
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

/* Partners with which the unit's runs are mostly bad (unexplained). */
static int bad_partners(const struct gd_fleet *fl, int host, int gpu,
			int *first, int *lanes)
{
	int q, n = 0;
	size_t i;
	unsigned long long lane_bits = 0;

	*first = -1;
	for (q = 0; q < (int)fl->n_hosts; q++) {
		int t = 0, bad = 0;

		for (i = 0; i < fl->n_runs; i++) {
			const struct gd_fleet_run *r = &fl->runs[i];

			if (!touches(r, host, gpu) || partner(r, host) != q ||
			    !tested(r) || (gd_fleet_run_bad(r) && r->explained))
				continue;
			t++;
			if (open_bad(r)) {
				bad++;
				lane_bits |= 1ULL << (r->gpu & 63);
			}
		}
		if (t && bad * 2 >= t) {
			if (*first < 0)
				*first = q;
			n++;
		}
	}
	*lanes = __builtin_popcountll(lane_bits);
	return n;
}

/* Partner q of the unit is exonerated when it has a good run elsewhere. */
static bool good_elsewhere(const struct gd_fleet *fl, int q, int gpu, int not )
{
	size_t i;

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (touches(r, q, gpu) && partner(r, q) != not &&tested(r) &&
		    !gd_fleet_run_bad(r))
			return true;
	}
	return false;
}

static void explain(struct gd_fleet *fl, int host, int gpu)
{
	size_t i;

	for (i = 0; i < fl->n_runs; i++)
		if (touches(&fl->runs[i], host, gpu) && open_bad(&fl->runs[i]))
			fl->runs[i].explained = true;
}

/* Evidence: counts, partners and the first bad run's reason; plus which
 * memory path the pattern points at. */
static void unit_evidence(const struct gd_fleet *fl, int host, int gpu,
			  char *dst, size_t len)
{
	int bad = 0, t = 0, host_slow = 0, gpu_slow = 0;
	const struct gd_fleet_run *ex = NULL;
	size_t i;

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

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
		t, ex ? ex->id : "-",
		ex ? (ex->slow ? ex->slow_why : ex->error) : "",
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

/* Prove what can be proven over hosts (gpu_each false) or associations,
 * re-evaluating after each proof (a proven unit explains its partners'
 * bad runs); what stays ambiguous is named as a pair. */
static int classify_units(struct gd_fleet *fl, bool gpu_each)
{
	int h, g, q, lanes, n, ret = 0;
	int g_n = gpu_each ? fl->gpus_per_server : 1;
	bool proven = true, pairs = false;

	while (!ret && (proven || !pairs)) {
		pairs = !proven;
		proven = false;
		for (h = 0; !ret && h < (int)fl->n_hosts; h++) {
			for (g = 0; !ret && g < g_n; g++) {
				int gpu = gpu_each ? g : -1;

				n = bad_partners(fl, h, gpu, &q, &lanes);
				if (!n || (!gpu_each &&
					   lanes < unit_lanes_needed(fl)))
					continue;
				if (n >= 2 || good_elsewhere(fl, q, gpu, h)) {
					ret = domain_unit(
						fl, h, gpu, q,
						gpu_each ? GD_UNIT_ASSOCIATION
							 : GD_UNIT_SERVER);
					proven = true;
				} else if (pairs) {
					ret = domain_unit(fl, h, gpu, q,
							  GD_UNIT_PAIR);
				}
			}
		}
	}
	return ret;
}

static int classify_env(struct gd_fleet *fl)
{
	size_t i, bad = 0, t = 0;
	int hosts = 0, rails = 0, h;
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
		for (h = 0; h < (int)fl->n_hosts; h++)
			explain(fl, h, -1);
	}
out:
	free(hb);
	free(rb);
	return 0;
}

static void classify_rails(struct gd_fleet *fl)
{
	int rail;
	size_t i;

	for (rail = 0; rail < fl->rails; rail++) {
		int t = 0, failed = 0;
		struct gd_fleet_domain *d;
		const struct gd_fleet_run *ex = NULL;

		for (i = 0; i < fl->n_runs; i++) {
			const struct gd_fleet_run *r = &fl->runs[i];

			if (r->rail != rail || !tested(r) || r->explained)
				continue;
			t++;
			if (!r->ok) {
				failed++;
				ex = ex ? ex : r;
			}
		}
		if (!fl->rail_slow[rail] && (failed < 2 || failed * 2 < t))
			continue;
		d = domain_add(fl, GD_UNIT_RAIL);
		if (!d)
			return;
		snprintf(d->name, sizeof(d->name), "rail %d", rail);
		snprintf(
			d->evidence, sizeof(d->evidence),
			fl->rail_slow[rail]
				? "the rail's median is an outlier against the other "
				  "rails' medians (median and MAD across rails) at most "
				  "judged sizes, on every pair tested on it"
				: "%d of %d executions on the rail failed, e.g. %s: %s",
			failed, t, ex ? ex->id : "-", ex ? ex->error : "");
		snprintf(d->action, sizeof(d->action),
			 "quarantine only rail %d "
			 "(its switches, cables and optics) and retest it",
			 rail);
		for (i = 0; i < fl->n_runs; i++)
			if (fl->runs[i].rail == rail &&
			    gd_fleet_run_bad(&fl->runs[i]))
				fl->runs[i].explained = true;
	}
}

int gd_fleet_classify(struct gd_fleet *fl)
{
	int ret = classify_env(fl);

	if (fl->n_domains)
		return ret;
	classify_rails(fl);
	ret = classify_units(fl, false);
	if (!ret)
		ret = classify_units(fl, true);
	return ret ? gd_err(ret, "out of memory classifying failure domains")
		   : 0;
}
