/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * From p-values to the decision (assess.h): Holm within an assessment and
 * across a run's assessments, the detectable ratio at its power, what
 * would settle an undecided one, and the design a floor needs.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/assess.h"
#include "util/assess_priv.h"

/* Holm's step-down adjusted p-values of @p[0..n) into @adj, each times
 * @share (the part of the level the family gets); @rank (may be NULL)
 * receives each one's place, 0 for the smallest. */
static void gd_holm(const double *p, unsigned int n, double share, double *adj,
		    unsigned int *rank)
{
	unsigned int order[GD_ASSESS_MAX_SIZES];
	double run = 0;

	for (unsigned int i = 0; i < n; i++)
		order[i] = i;
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && p[order[j]] < p[order[j - 1]];
		     j--) {
			unsigned int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (unsigned int i = 0; i < n; i++) {
		double v = share * (n - i) * p[order[i]];

		run = v > run ? v : run;
		adj[order[i]] = run > 1 ? 1 : run;
		if (rank)
			rank[order[i]] = i;
	}
}

/* One-sided quantile of t: P(T <= q) = 1 - @p. */
static double gd_t_upper(double p, unsigned int df)
{
	return gd_t_quantile(1 - 2 * p, df);
}

/* The ratio a band flags with GD_ASSESS_POWER at the level @alpha_b. */
static double gd_detectable(const struct gd_assess_band *b, double floor,
			    double alpha_b)
{
	double q = gd_t_upper(alpha_b, b->ci.df) +
		   gd_t_upper(1 - GD_ASSESS_POWER, b->ci.df);

	return floor * exp(-q * b->se_log);
}

/* The sizes that neither clear the floor nor are flagged, each with the
 * rounds that would settle it; the most of those (at least 3, what a
 * size's own interval needs when there is one round). */
static unsigned int gd_needed(struct gd_assessment *a)
{
	unsigned int most = 3;

	a->nundecided = 0;
	for (unsigned int z = 0; z < a->sizes; z++) {
		struct gd_assess_size *s = &a->st[z];

		s->undecided =
			!s->slow &&
			!(s->df_nb && s->p_not_below <= a->alpha_not_below);
		if (!s->undecided)
			continue;
		a->nundecided++;
		most = s->need > most ? s->need : most;
	}
	return most;
}

/* Bands, sizes and the segment flagged at the run's level, with @mult the
 * assessment's Holm multiplier across the run and @share the sizes' (and
 * the segments') split within; none unless the assessment is "slower"
 * (@slower: its step-down p across the run within the level), so that the
 * flags follow the decision. */
static void gd_flag(struct gd_assessment *a, double mult, double share,
		    bool slower)
{
	double worst_band = INFINITY;

	a->nslow = 0;
	a->worst = a->slow_band = -1;
	gd_assess_segment_flag(a, share, mult, a->alpha_slower);
	a->seg.found &= slower;
	for (unsigned int n = 0; n < a->nseg_also; n++)
		a->seg_also[n].found &= slower;
	for (unsigned int b = 0; slower && b < GD_ASSESS_BANDS; b++)
		if (a->band[b].decided &&
		    a->band[b].holm_p * mult <= a->alpha_slower &&
		    a->band[b].ci.ratio < worst_band) {
			worst_band = a->band[b].ci.ratio;
			a->slow_band = (int)b;
		}
	for (unsigned int z = 0; z < a->sizes; z++) {
		struct gd_assess_size *s = &a->st[z];

		s->slow =
			slower && s->df && s->holm_p * mult <= a->alpha_slower;
		s->half = 0;
		if (!s->slow)
			continue;
		/* its upper bound at the first Holm step, for the record */
		s->half =
			gd_t_upper(a->alpha_slower / (share * a->tests * mult),
				   s->df) *
			s->sd_mod / sqrt((double)s->n);
		if (!a->nslow++ || exp(s->mean) < a->worst_ratio) {
			a->worst_ratio = exp(s->mean);
			a->worst_size = a->size_bytes[z];
			a->worst = (int)a->col[z];
		}
	}
}

/* The part of the "slower" level the bands get: a quarter beside the
 * sizes and segments (three eighths each), all of it alone. Bands find a
 * slowdown at every size with the most power, but they also feel most of
 * a drift that every size of a round shares, and one that stays through
 * every round of a run cannot be told from a slowdown: the quarter keeps
 * the rate at the floor within GD_ASSESS_ALPHA under round-shared AR(1)
 * 0.5 (tests/assess_sim_test.c). */
static double gd_part_bands(const struct gd_assessment *a)
{
	return !a->bands_decided ? 0 : a->tests ? 0.25 : 1;
}

static double gd_share(const struct gd_assessment *a)
{
	double part = gd_part_bands(a);

	return part > 0 ? 1 / part : 1;
}

static double gd_share_sizes(const struct gd_assessment *a)
{
	double rest = 1 - gd_part_bands(a);

	if (!(rest > 0))
		return 1;
	return (a->seg.tested ? 2 : 1) / rest;
}

static void gd_decide(struct gd_assessment *a, double mult)
{
	double share = gd_share(a);

	a->detectable_ratio = NAN;
	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++) {
		struct gd_assess_band *bd = &a->band[b];

		bd->detectable_ratio = NAN;
		if (!bd->decided || !(bd->se_log > 0))
			continue;
		bd->detectable_ratio = gd_detectable(
			bd, a->floor,
			a->alpha_slower / (share * a->bands_decided * mult));
		if (!(a->detectable_ratio >= bd->detectable_ratio))
			a->detectable_ratio = bd->detectable_ratio;
	}
	gd_flag(a, mult, gd_share_sizes(a), a->p_slower_run <= a->alpha_slower);
	a->repeats_needed = 0;
	if (a->p_slower_run <= a->alpha_slower) {
		a->decision = GD_DECISION_SLOWER;
		a->decision_name = "slower";
		a->reason = NULL;
		return;
	}
	if (a->can_clear) {
		a->decision = GD_DECISION_NOT_BELOW;
		a->decision_name = "not_below";
		a->reason = NULL;
		return;
	}
	a->decision = GD_DECISION_INCONCLUSIVE;
	a->decision_name = "inconclusive";
	a->repeats_needed = gd_needed(a);
	if (!a->reason && a->tests < a->sizes)
		a->reason = "a size's own interval needs two or more rounds";
	else if (!a->reason && a->looks > 1)
		a->reason = "a size's interval at this look's level (split "
			    "over the looks) reaches below the floor";
	else if (!a->reason)
		a->reason = "a size's 95% interval reaches below the floor";
}

void gd_assess_combine(struct gd_assessment *a)
{
	double pb[GD_ASSESS_BANDS], adj[GD_ASSESS_MAX_SIZES];
	double ps[GD_ASSESS_MAX_SIZES], share;
	unsigned int ib[GD_ASSESS_BANDS], is[GD_ASSESS_MAX_SIZES], k = 0;

	a->nbands = a->bands_decided = 0;
	a->can_clear = true;
	a->p_not_below = 0;
	for (unsigned int b = 0; b < GD_ASSESS_BANDS; b++) {
		const struct gd_assess_band *bd = &a->band[b];

		if (!bd->sizes)
			continue;
		a->nbands++;
		if (bd->decided) {
			ib[a->bands_decided] = b;
			pb[a->bands_decided++] = bd->p_slower;
		}
		if (!isnan(bd->rho) && !(a->rho >= bd->rho))
			a->rho = bd->rho;
	}
	for (unsigned int z = 0; z < a->sizes; z++) {
		if (!a->st[z].df_nb || a->st[z].p_not_below > a->p_not_below)
			a->p_not_below =
				a->st[z].df_nb ? a->st[z].p_not_below : 1;
		if (a->st[z].df) {
			is[k] = z;
			ps[k++] = a->st[z].p_slower;
		}
	}
	/* "not below" is a claim about every size, so each must show it by
	 * its own lower bound (an intersection-union test: no correction);
	 * the bands only summarise */
	a->can_clear = a->sizes && k == a->sizes &&
		       a->p_not_below <= a->alpha_not_below;
	share = gd_share(a);
	a->p_slower = 1;
	gd_holm(pb, a->bands_decided, share, adj, NULL);
	for (unsigned int i = 0; i < a->bands_decided; i++) {
		a->band[ib[i]].holm_p = adj[i];
		a->p_slower = adj[i] < a->p_slower ? adj[i] : a->p_slower;
	}
	gd_holm(ps, k, gd_share_sizes(a), adj, NULL);
	for (unsigned int i = 0; i < k; i++) {
		a->st[is[i]].holm_p = adj[i];
		a->p_slower = adj[i] < a->p_slower ? adj[i] : a->p_slower;
	}
	gd_assess_segment_flag(a, gd_share_sizes(a), 1, a->alpha_slower);
	if (a->seg.tested && a->seg.p_adj < a->p_slower)
		a->p_slower = a->seg.p_adj;
	a->p_slower_run = a->p_slower;
	a->family = 1;
	gd_decide(a, 1);
}

void gd_assess_run_holm(struct gd_assessment *a, unsigned int n)
{
	double p[GD_ASSESS_MAX_SIZES] = { 0 }, adj[GD_ASSESS_MAX_SIZES];
	unsigned int rank[GD_ASSESS_MAX_SIZES];

	for (unsigned int i = 0; i < n; i++)
		p[i] = a[i].p_slower;
	gd_holm(p, n, 1, adj, rank);
	for (unsigned int i = 0; i < n; i++) {
		a[i].p_slower_run = adj[i];
		a[i].family = n;
		gd_decide(&a[i], n - rank[i]);
	}
}

unsigned int gd_assess_looks(unsigned int first_round, unsigned int max_rounds)
{
	return max_rounds > first_round ? max_rounds - first_round + 1 : 1;
}

bool gd_assess_all_decided(const struct gd_assessment *a, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (a[i].decision == GD_DECISION_INCONCLUSIVE)
			return false;
	return n > 0;
}

bool gd_assess_seq_stop(const enum gd_decision *prev,
			const struct gd_assessment *a, unsigned int n)
{
	if (!gd_assess_all_decided(a, n))
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (a[i].decision == GD_DECISION_SLOWER &&
		    (!prev || prev[i] != GD_DECISION_SLOWER))
			return false;
	return true;
}

unsigned int gd_assess_band_of(double size_bytes)
{
	return size_bytes <= GD_ASSESS_SMALL_BYTES  ? 0
	       : size_bytes < GD_ASSESS_LARGE_BYTES ? 1
						    : 2;
}

unsigned int gd_assess_rounds_needed(const double *size_bytes,
				     unsigned int sizes)
{
	(void)size_bytes;
	/* "not below" needs each size's own interval, over its rounds, and
	 * two rounds (one degree of freedom each) rarely give one */
	return sizes ? 3 : 0;
}

const char *gd_assess_bytes_str(double bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;

	while (u < 3 && bytes >= 1024 && fmod(bytes, 1024) == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%.0f %s", bytes, unit[u]);
	return buf;
}
