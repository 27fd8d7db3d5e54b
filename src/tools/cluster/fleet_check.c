/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The acceptance checklist and the CI gates. Every item is open until a
 * result document or gd_doctor envelope satisfies it; the plan's worksheet
 * is never evidence. Application, isolation, recovery and handover are
 * satisfied only by documents labelled check=ITEM that exited 0.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "tools/cluster/fleet.h"

static void list_host(char *dst, size_t len, const char *name, int *n)
{
	size_t l = strlen(dst);

	if (*n < 6 && l < len)
		snprintf(dst + l, len - l, "%s%s", *n ? ", " : "", name);
	else if (*n == 6 && l < len)
		snprintf(dst + l, len - l, ", ...");
	(*n)++;
}

static void item_envelopes(const struct gd_fleet *fl, struct gd_fleet_item *it,
			   bool need_map)
{
	char missing[GD_FLEET_TEXT_MAX] = "";
	int n = 0;
	size_t h;

	for (h = 0; h < fl->n_hosts; h++) {
		const struct gd_fleet_host *x = &fl->hosts[h];

		if (!x->envelope ||
		    (need_map && (!x->map || x->envelope_errors)))
			list_host(missing, sizeof(missing), x->name, &n);
	}
	it->satisfied = fl->n_hosts && !n;
	if (it->satisfied)
		snprintf(
			it->evidence, sizeof(it->evidence),
			need_map
				? "a GPU/NIC map without error findings in the gd_doctor "
				  "envelope of all %zu servers"
				: "a gd_doctor envelope "
				  "for all %zu servers",
			fl->n_hosts);
	else
		snprintf(
			it->evidence, sizeof(it->evidence),
			need_map
				? "no map, or error findings, for %d of %zu servers (%s); "
				  "run gd_doctor --json inside the job environment"
				: "no gd_doctor envelope for %d of %zu servers (%s)",
			n, fl->n_hosts, missing);
}

static bool any_phase_ok(const struct gd_fleet_run *r, bool device)
{
	int i;

	for (i = 0; i < r->n_phases; i++)
		if (r->phases[i].ok &&
		    (device ? strchr(r->phases[i].name, 'D') != NULL
			    : !strcmp(r->phases[i].name, "HH")))
			return true;
	return false;
}

/* Every round-1 pair (connectivity) or association (registration) has a
 * run whose host (or device) phase moved data. */
static void item_phase(const struct gd_fleet *fl, struct gd_fleet_item *it,
		       bool device)
{
	size_t i, k, units = 0, good = 0;

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];
		bool first = true, ok = false;

		if (r->round != 1)
			continue;
		for (k = 0; k < fl->n_runs; k++) {
			const struct gd_fleet_run *o = &fl->runs[k];

			if (o->round != 1 || o->a != r->a || o->b != r->b ||
			    (device && o->gpu != r->gpu))
				continue;
			if (k < i)
				first = false;
			ok = ok || any_phase_ok(o, device);
		}
		units += first;
		good += first && ok;
	}
	it->satisfied = units && good == units;
	snprintf(
		it->evidence, sizeof(it->evidence),
		device ? "%zu of %zu round-1 pair associations registered GPU memory "
			 "and moved data in a D phase"
		       : "%zu of %zu round-1 pairs "
			 "moved data over host memory (HH phase ok)",
		good, units);
}

static void item_coverage(const struct gd_fleet *fl, struct gd_fleet_item *it,
			  int round)
{
	int planned, passed, g, assoc = 0, ok = 0;
	size_t h;

	for (h = 0; h < fl->n_hosts; h++)
		for (g = 0; g < fl->gpus_per_server; g++) {
			enum gd_cov c = gd_fleet_coverage(fl, round, (int)h, g,
							  &planned, &passed);

			if (!planned)
				continue;
			assoc++;
			ok += c == GD_COV_PASS;
		}
	it->satisfied = fl->have_plan && assoc && ok == assoc;
	snprintf(it->evidence, sizeof(it->evidence),
		 "%d of %d associations "
		 "passed every planned round-%d execution%s",
		 ok, assoc, round,
		 fl->have_plan ? ""
			       : " (no --plan: what was intended is "
				 "unknown)");
}

static void item_labelled(const struct gd_fleet *fl, struct gd_fleet_item *it)
{
	size_t i, n = 0, ok = 0;
	const char *file = NULL, *bad = NULL;

	for (i = 0; i < fl->n_checks; i++) {
		if (strcmp(fl->checks[i].item, it->name))
			continue;
		n++;
		ok += fl->checks[i].ok;
		if (fl->checks[i].ok)
			file = file ? file : fl->checks[i].file;
		else
			bad = bad ? bad : fl->checks[i].file;
	}
	it->satisfied = n && ok == n;
	if (it->satisfied)
		snprintf(it->evidence, sizeof(it->evidence),
			 "%zu document(s) "
			 "labelled check=%s exited 0, e.g. %s",
			 n, it->name, file);
	else if (n)
		snprintf(it->evidence, sizeof(it->evidence),
			 "%zu of %zu "
			 "documents labelled check=%s failed, e.g. %s",
			 n - ok, n, it->name, bad);
	else
		snprintf(it->evidence, sizeof(it->evidence),
			 "no result "
			 "document labelled check=%s; microbenchmarks alone "
			 "cannot satisfy it",
			 it->name);
}

void gd_fleet_checklist(const struct gd_fleet *fl,
			struct gd_fleet_item items[GD_FLEET_CHECK_ITEMS])
{
	static const char *const names[GD_FLEET_CHECK_ITEMS] = {
		"inventory",	 "mapping",	"connectivity", "registration",
		"pair coverage", "concurrency", "application",	"isolation",
		"recovery",	 "handover",
	};
	int i;

	for (i = 0; i < GD_FLEET_CHECK_ITEMS; i++) {
		memset(&items[i], 0, sizeof(items[i]));
		items[i].name = names[i];
	}
	item_envelopes(fl, &items[0], false);
	item_envelopes(fl, &items[1], true);
	item_phase(fl, &items[2], false);
	item_phase(fl, &items[3], true);
	item_coverage(fl, &items[4], 1);
	item_coverage(fl, &items[5], 3);
	for (i = 6; i < GD_FLEET_CHECK_ITEMS; i++)
		item_labelled(fl, &items[i]);
}

static void gate_coverage(const struct gd_fleet *fl, struct gd_fleet_gate *g)
{
	size_t i, planned = 0, tested = 0;
	const char *first = NULL;

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (!r->planned)
			continue;
		planned++;
		if (r->have_measure || r->have_server)
			tested++;
		else
			first = first ? first : r->id;
	}
	g->pass = fl->have_plan && planned && tested == planned;
	if (!fl->have_plan)
		snprintf(g->detail, sizeof(g->detail),
			 "no --plan given: what "
			 "was intended is unknown, so coverage cannot pass");
	else
		snprintf(g->detail, sizeof(g->detail),
			 "%zu of %zu planned "
			 "executions have result documents%s%s",
			 tested, planned, first ? "; first missing: " : "",
			 first ? first : "");
}

bool gd_fleet_gates(const struct gd_fleet *fl,
		    struct gd_fleet_gate gates[GD_FLEET_GATES])
{
	size_t i, bad = 0, t = 0;
	const char *first = NULL;
	bool all = true;

	memset(gates, 0, GD_FLEET_GATES * sizeof(*gates));
	gates[0].name = "coverage";
	gate_coverage(fl, &gates[0]);
	for (i = 0; i < fl->n_runs; i++) {
		t += fl->runs[i].have_measure || fl->runs[i].have_server;
		if (gd_fleet_run_bad(&fl->runs[i])) {
			bad++;
			first = first ? first : fl->runs[i].id;
		}
	}
	gates[1].name = "executions";
	gates[1].pass = t && !bad && !fl->n_domains;
	snprintf(gates[1].detail, sizeof(gates[1].detail),
		 "%zu of %zu tested "
		 "executions failed or are outliers%s%s; %zu failure domain(s)",
		 bad, t, first ? ", first: " : "", first ? first : "",
		 fl->n_domains);
	gates[2].name = "repeatability";
	gates[2].pass = fl->worst_cv <= fl->opt.max_cv;
	snprintf(gates[2].detail, sizeof(gates[2].detail),
		 "worst coefficient "
		 "of variation %.3f (limit %.3f)%s%s",
		 fl->worst_cv, fl->opt.max_cv,
		 fl->worst_cv_where[0] ? ": " : "", fl->worst_cv_where);
	gates[3].name = "ratio";
	gates[3].pass = fl->opt.expect_ratio <= 0 || !fl->ratio_failures;
	snprintf(gates[3].detail, sizeof(gates[3].detail),
		 fl->opt.expect_ratio <= 0 ? "--expect-ratio not set"
					   : "%zu size(s) below DD/HH %.2f%s%s",
		 fl->ratio_failures, fl->opt.expect_ratio,
		 fl->ratio_failures ? ", first: " : "", fl->ratio_where);
	for (i = 0; i < GD_FLEET_GATES; i++)
		all = all && gates[i].pass;
	return all;
}
