/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The acceptance checklist and the CI gates. Every item is open until a
 * result document or gd_doctor envelope satisfies it; the plan's worksheet
 * is never evidence. Application, isolation, recovery and handover are
 * satisfied only by documents labelled check=ITEM that exited 0.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_decide.h"

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
	char missing[GD_FLEET_TEXT_MAX] = "", unmapped[GD_FLEET_TEXT_MAX] = "",
	     erring[GD_FLEET_TEXT_MAX] = "";
	int n = 0, n_unmapped = 0, n_erring = 0;
	size_t h;

	for (h = 0; h < fl->n_hosts; h++) {
		const struct gd_fleet_host *x = &fl->hosts[h];

		if (!x->envelope)
			list_host(missing, sizeof(missing), x->name, &n);
		else if (need_map && !x->map)
			list_host(unmapped, sizeof(unmapped), x->name,
				  &n_unmapped);
		else if (need_map && x->envelope_errors)
			list_host(erring, sizeof(erring), x->name, &n_erring);
	}
	it->satisfied = fl->n_hosts && !n && !n_unmapped && !n_erring;
	if (it->satisfied)
		snprintf(
			it->evidence, sizeof(it->evidence),
			need_map
				? "a GPU/NIC map without error findings in the gd_doctor "
				  "envelope of all %zu servers"
				: "a gd_doctor envelope "
				  "for all %zu servers",
			fl->n_hosts);
	else if (n)
		snprintf(it->evidence, sizeof(it->evidence),
			 "no gd_doctor envelope for %d of %zu servers (%s); "
			 "run gd_doctor --json inside the job environment",
			 n, fl->n_hosts, missing);
	else if (n_unmapped)
		/* gd_doctor writes rows only for the GPUs it found */
		snprintf(it->evidence, sizeof(it->evidence),
			 "no GPU in the GPU/NIC map (envelope.topology.map) of "
			 "%d of %zu servers (%s); check that gd_doctor sees "
			 "the GPUs there (driver loaded, hwloc topology)",
			 n_unmapped, fl->n_hosts, unmapped);
	else
		snprintf(it->evidence, sizeof(it->evidence),
			 "error findings in the gd_doctor envelope of %d of "
			 "%zu servers (%s); gd_doctor --json on each names "
			 "them and the fix",
			 n_erring, fl->n_hosts, erring);
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

/* A round-1 pair (connectivity) or pair association (registration). */
struct unit {
	int a, b, gpu;
	bool ok;
};

struct units {
	struct unit *u;
	size_t n, cap;
	struct gd_fleet_hash h;
};

static bool same_unit(const void *ctx, uint32_t idx, const void *key)
{
	const struct unit *x = &((const struct units *)ctx)->u[idx], *y = key;

	return x->a == y->a && x->b == y->b && x->gpu == y->gpu;
}

/* The unit of @k, added when new; NULL when out of memory. */
static struct unit *unit_of(struct units *us, const struct unit *k)
{
	int key[3] = { k->a, k->b, k->gpu };
	uint32_t hv = gd_fleet_hash_bytes(key, sizeof(key), 7);
	long i = gd_fleet_hash_find(&us->h, hv, same_unit, us, k);
	struct unit *grown;

	if (i >= 0)
		return &us->u[i];
	grown = gd_fleet_grow(us->u, &us->cap, us->n, sizeof(*grown));
	if (!grown)
		return NULL;
	us->u = grown;
	if (gd_fleet_hash_add(&us->h, hv, (uint32_t)us->n))
		return NULL;
	us->u[us->n] = *k;
	return &us->u[us->n++];
}

/* Every round-1 pair (connectivity) or association (registration) has a
 * run whose host (or device) phase moved data. */
static void item_phase(const struct gd_fleet *fl, struct gd_fleet_item *it,
		       bool device)
{
	struct units us = { 0 };
	size_t i, good = 0;
	bool nomem = false;

	for (i = 0; i < fl->n_runs && !nomem; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];
		struct unit k = { r->a, r->b, device ? r->gpu : 0, false }, *u;

		if (r->round != 1)
			continue;
		u = unit_of(&us, &k);
		nomem = !u;
		if (u)
			u->ok = u->ok || any_phase_ok(r, device);
	}
	for (i = 0; i < us.n; i++)
		good += us.u[i].ok;
	it->satisfied = !nomem && us.n && good == us.n;
	if (nomem)
		snprintf(it->evidence, sizeof(it->evidence),
			 "out of memory counting the round-1 pairs of %zu "
			 "executions; run gd_report with more memory",
			 fl->n_runs);
	else
		snprintf(
			it->evidence, sizeof(it->evidence),
			device ? "%zu of %zu round-1 pair associations registered GPU memory "
				 "and moved data in a D phase"
			       : "%zu of %zu round-1 pairs "
				 "moved data over host memory (HH phase ok)",
			good, us.n);
	free(us.u);
	gd_fleet_hash_free(&us.h);
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

/* The skipped file that was execution @id's document (gd_plan names them
 * ID.json and ID.server.json), or NULL: its execution is not missing, its
 * document is unreadable. */
static const struct gd_fleet_skip *skipped_doc_of(const struct gd_fleet *fl,
						  const char *id)
{
	size_t i, n = strlen(id);

	for (i = 0; i < fl->n_skips; i++) {
		const char *base = strrchr(fl->skips[i].path, '/');

		base = base ? base + 1 : fl->skips[i].path;
		if (!strncmp(base, id, n) &&
		    (!strcmp(base + n, ".json") ||
		     !strcmp(base + n, ".server.json")))
			return &fl->skips[i];
	}
	return NULL;
}

static void gate_coverage(const struct gd_fleet *fl, struct gd_fleet_gate *g)
{
	size_t i, planned = 0, tested = 0, unreadable = 0;
	const char *first = NULL;
	const struct gd_fleet_skip *bad = NULL, *s;
	char why[GD_FLEET_TEXT_MAX * 2] = "";

	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (!r->planned)
			continue;
		planned++;
		if (r->have_measure || r->have_server)
			tested++;
		else if ((s = skipped_doc_of(fl, r->id)) != NULL) {
			unreadable++;
			bad = bad ? bad : s;
		} else
			first = first ? first : r->id;
	}
	g->pass = fl->have_plan && planned && tested == planned;
	if (bad)
		snprintf(why, sizeof(why),
			 "; %zu with an unreadable document (first: %s: %s)",
			 unreadable, bad->path, bad->reason);
	if (!fl->have_plan)
		snprintf(g->detail, sizeof(g->detail),
			 "no --plan given: what "
			 "was intended is unknown, so coverage cannot pass");
	else
		snprintf(g->detail, sizeof(g->detail),
			 "%zu of %zu planned "
			 "executions have result documents%s%s%s",
			 tested, planned, why, first ? "; first missing: " : "",
			 first ? first : "");
}

/* The same dispersion figure as the run tool's: gd_spread_of's CV. */
static void gate_repeatability(const struct gd_fleet *fl,
			       struct gd_fleet_gate *g)
{
	const struct gd_fleet_repeats *rep = &fl->rep;

	g->name = "repeatability";
	g->pass = rep->worst_cv_pct <= fl->opt.max_cv * 100;
	snprintf(g->detail, sizeof(g->detail),
		 "worst coefficient of variation %.1f%% (limit %.1f%%) over "
		 "%zu series with two or more repeats%s%s",
		 rep->worst_cv_pct, fl->opt.max_cv * 100, rep->series,
		 rep->worst_cv_where[0] ? ": " : "", rep->worst_cv_where);
}

/* The undecided series, the first few by name with what would settle
 * each, at @dst + @n; the new length. */
static int ratio_undecided(const struct gd_fleet *fl, char *dst, size_t len,
			   int n)
{
	char one[GD_FLEET_TEXT_MAX];
	size_t i, named = 0, left = 0;

	for (i = 0; i < fl->n_judged; i++) {
		if (fl->judged[i].listed)
			continue;
		if (named == 4 || n < 0 || (size_t)n >= len) {
			left++;
			continue;
		}
		gd_fleet_undecided_text(&fl->judged[i], one, sizeof(one));
		n += snprintf(dst + n, len - n, "%s%s", named ? "; " : "", one);
		named++;
	}
	if (left && n >= 0 && (size_t)n < len)
		n += snprintf(dst + n, len - n, "; and %zu more", left);
	return n;
}

/* Passes when every series is "not below" (intersection-union); fails on
 * a series in the campaign's list of slow series; else undecided
 * (fleet_repeats.c, fleet_decide.h). */
static void gate_ratio(const struct gd_fleet *fl, struct gd_fleet_gate *g)
{
	const struct gd_fleet_ratio_counts *c = &fl->ratio;
	size_t len = sizeof(g->detail), i;
	int n;

	g->name = "ratio";
	if (fl->opt.expect_ratio <= 0) {
		g->state = GD_FLEET_PASS;
		snprintf(g->detail, len, "--expect-ratio not set");
		return;
	}
	g->state = c->listed			     ? GD_FLEET_FAIL
		   : !c->assessed		     ? GD_FLEET_UNDECIDED
		   : c->no_difference == c->assessed ? GD_FLEET_PASS
						     : GD_FLEET_UNDECIDED;
	n = snprintf(g->detail, len,
		     "%zu of %zu series slower than device/HH %.2f "
		     "(false discovery rate %.0f%%), %zu of %zu assessments "
		     "not below it, %zu undecided; %zu judged by their "
		     "repeats, %zu by one run's rounds, %zu by one round's "
		     "sizes",
		     c->listed_series, c->series, fl->opt.expect_ratio,
		     GD_FLEET_FDR_STATED * 100, c->no_difference, c->assessed,
		     c->inconclusive, c->by_repeats, c->by_rounds,
		     c->assessed - c->by_repeats - c->by_rounds);
	if (!c->assessed && n >= 0 && (size_t)n < len)
		n += snprintf(g->detail + n, len - n,
			      "; no series has a bandwidth device phase and "
			      "HH with a judged size");
	for (i = 0; c->listed && i < fl->n_judged && n >= 0 && (size_t)n < len;
	     i++)
		if (fl->judged[i].listed) {
			n += snprintf(g->detail + n, len - n, "; first: ");
			if (n >= 0 && (size_t)n < len)
				gd_fleet_judged_text(&fl->judged[i],
						     fl->opt.expect_ratio,
						     g->detail + n, len - n);
			return;
		}
	if (c->inconclusive && n >= 0 && (size_t)n < len) {
		n += snprintf(g->detail + n, len - n, "; undecided: ");
		ratio_undecided(fl, g->detail, len, n);
	}
}

/* Nothing was tested: say what was found instead of "0 of 0 failed". */
static void gate_untested(const struct gd_fleet *fl, struct gd_fleet_gate *g)
{
	const char *dir = fl->dir ? fl->dir : "the directory";

	if (!fl->n_run_docs)
		snprintf(g->detail, sizeof(g->detail),
			 "no run documents found under '%s' (%zu .json "
			 "file(s) read, %zu skipped); check the directory "
			 "the runs' --json wrote to",
			 dir, fl->n_docs, fl->n_skipped);
	else if (!fl->n_runs)
		snprintf(g->detail, sizeof(g->detail),
			 "none of the %zu run document(s) under '%s' names "
			 "an execution (%zu without --label exec=ID); run "
			 "them from gd_plan's launch files",
			 fl->n_run_docs, dir, fl->n_unlabelled);
	else
		snprintf(g->detail, sizeof(g->detail),
			 "none of the %zu execution(s) under '%s' has a run "
			 "document that measured or served; check the runs' "
			 "errors and --json paths",
			 fl->n_runs, dir);
}

const char *gd_fleet_state_name(enum gd_fleet_state s)
{
	return s == GD_FLEET_PASS   ? "passed"
	       : s == GD_FLEET_FAIL ? "failed"
				    : "undecided";
}

const char *gd_fleet_undecided_name(enum gd_fleet_undecided u)
{
	return u == GD_FLEET_UNDECIDED_PASS   ? "pass"
	       : u == GD_FLEET_UNDECIDED_KEEP ? "undecided"
					      : "fail";
}

int gd_fleet_gates(const struct gd_fleet *fl,
		   struct gd_fleet_gate gates[GD_FLEET_GATES])
{
	size_t i, bad = 0, t = 0;
	const char *first = NULL;
	bool failed = false, undecided = false;

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
	if (!t)
		gate_untested(fl, &gates[1]);
	else
		snprintf(gates[1].detail, sizeof(gates[1].detail),
			 "%zu of %zu tested executions failed or are "
			 "outliers%s%s; %zu failure domain(s)",
			 bad, t, first ? ", first: " : "", first ? first : "",
			 fl->n_domains);
	gate_repeatability(fl, &gates[2]);
	for (i = 0; i < 3; i++)
		gates[i].state = gates[i].pass ? GD_FLEET_PASS : GD_FLEET_FAIL;
	gate_ratio(fl, &gates[3]);
	gates[3].pass = gates[3].state == GD_FLEET_PASS ||
			(gates[3].state == GD_FLEET_UNDECIDED &&
			 fl->opt.undecided == GD_FLEET_UNDECIDED_PASS);
	for (i = 0; i < GD_FLEET_GATES; i++) {
		failed |= gates[i].state == GD_FLEET_FAIL;
		undecided |=
			!gates[i].pass && gates[i].state == GD_FLEET_UNDECIDED;
	}
	return failed ? 3 : undecided ? 4 : 0;
}
