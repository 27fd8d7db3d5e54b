/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The segment scan of assess_segment.h: every contiguous run of judged
 * sizes is tested against the floor, and the one furthest below it is
 * kept with its interval and its corrected p-value. Prefix sums make the
 * scan O(sizes^2).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/assess.h"
#include "util/assess_segment.h"
#include "util/infer.h"

/* Below this standard error (log units, a 0.0001% change) figures are
 * taken as exact: identical copies of one document compared. */
#define GD_SEG_SE_MIN 1e-6

void gd_assess_segment_init(struct gd_assess_segment *s)
{
	memset(s, 0, sizeof(*s));
	s->from = s->to = -1;
	s->ratio = s->lo = s->hi = NAN;
	s->p = s->p_adj = s->p_run = 1;
	s->widen = 1;
}

struct gd_seg_sums {
	double mean[GD_ASSESS_MAX_SIZES + 1]; /* prefix sums */
	double v[GD_ASSESS_MAX_SIZES + 1];    /* variance of a size's mean */
	double sq[GD_ASSESS_MAX_SIZES + 1];   /* its square root */
	double v2df[GD_ASSESS_MAX_SIZES + 1]; /* v^2 / df (Satterthwaite) */
	unsigned int k, dfmax;
	const struct gd_assess_corr *corr;
	double lf;
};

struct gd_seg_cand {
	unsigned int i, j, df;
	double mean, se, t, p, widen;
};

/*
 * Segment [i, j] of the compacted sizes with rounds: its mean, and the
 * variance of it from its sizes' spreads and their correlation within a
 * round and across neighbouring rounds (assess_corr.h). Pooling lends a segment
 * many degrees of freedom, each resting on the sizes' noise being alike and
 * their rounds independent, which few rounds cannot check; so a segment keeps
 * at most rounds - 1 sizes' own (4 with three rounds, 16 with five), and its t
 * keeps tails heavy enough that the rate at the floor holds under a
 * round-to-round correlation that three rounds cannot show
 * (tests/assess_sim_test: AR(1) 0.3); more rounds show it, and the correlation
 * model acts on it.
 */
static void gd_seg_eval(const struct gd_seg_sums *s, unsigned int i,
			unsigned int j, struct gd_seg_cand *c)
{
	double m = j - i + 1, v = s->v[j + 1] - s->v[i];
	double sq = s->sq[j + 1] - s->sq[i], v2 = s->v2df[j + 1] - s->v2df[i];
	double var = gd_assess_corr_var(s->corr, v, sq, m, true);
	double plain = gd_assess_corr_var(s->corr, v, sq, m, false);
	double df = v2 > 0 ? v * v / v2 : s->dfmax;

	df = df > s->dfmax ? s->dfmax : df < 1 ? 1 : df;
	c->i = i;
	c->j = j;
	c->mean = (s->mean[j + 1] - s->mean[i]) / m;
	c->widen = plain > 0 && var > plain ? var / plain : 1;
	c->se = sqrt(var > 0 ? var : 0);
	if (c->se < GD_SEG_SE_MIN)
		c->se = GD_SEG_SE_MIN;
	c->df = (unsigned int)(df + 1e-9);
	c->t = (c->mean - s->lf) / c->se;
	c->p = gd_t_cdf(c->t, c->df);
}

/* Is @c further below the floor than @best? The smaller p-value (it
 * weighs a lucky small spread by its few degrees of freedom); with exact
 * figures (a document against a scaled copy of itself) or where both
 * vanish, the larger t, and where the t are nearly equal too, the longer
 * segment, so that a whole slow run is named. */
static bool gd_seg_better(const struct gd_seg_cand *c,
			  const struct gd_seg_cand *best)
{
	double tol = 1e-9 * fabs(best->t);

	bool exact = c->se <= GD_SEG_SE_MIN && best->se <= GD_SEG_SE_MIN;

	if (!isfinite(best->t))
		return true;
	if (!exact && (c->p > 1e-200 || best->p > 1e-200))
		return c->p < best->p;
	if (c->t < best->t - tol)
		return true;
	return c->t <= best->t + tol && c->j - c->i > best->j - best->i;
}

static void gd_seg_keep(struct gd_assessment *a, const unsigned int *idx,
			const struct gd_seg_cand *c,
			struct gd_assess_segment *s)
{
	double half = gd_t_quantile(GD_INFER_CONFIDENCE, c->df) * c->se;

	s->from = (int)idx[c->i];
	s->to = (int)idx[c->j];
	s->sizes = c->j - c->i + 1;
	s->lo_bytes = a->size_bytes[idx[c->i]];
	s->hi_bytes = a->size_bytes[idx[c->j]];
	s->ratio = exp(c->mean);
	s->lo = exp(c->mean - half);
	s->hi = exp(c->mean + half);
	s->t = c->t;
	s->df = c->df;
	s->p = c->p;
	s->widen = c->widen;
}

/* May sizes [i, j] (compacted) be named beside the segments kept in
 * @kept (@n of them)? Apart from each by a size whose mean is not below
 * the floor (@up: prefix counts of such sizes); read before the segment
 * is evaluated, which only then must lie below the floor. */
static bool gd_seg_apart(unsigned int i, unsigned int j,
			 const struct gd_seg_cand *kept, unsigned int n,
			 const unsigned int *up)
{
	for (unsigned int k = 0; k < n; k++) {
		unsigned int lo = j < kept[k].i ? j + 1 : kept[k].j + 1;
		unsigned int hi = j < kept[k].i ? kept[k].i : i;

		/* overlapping, or no size between that is not below */
		if (i <= kept[k].j && kept[k].i <= j)
			return false;
		if (up[hi] - up[lo] == 0)
			return false;
	}
	return true;
}

void gd_assess_segments(double lf, struct gd_assessment *a)
{
	struct gd_seg_sums s = { .lf = lf };
	unsigned int idx[GD_ASSESS_MAX_SIZES],
		up[GD_ASSESS_MAX_SIZES + 1] = { 0 };
	struct gd_seg_cand kept[1 + GD_ASSESS_SEG_ALSO], c;

	gd_assess_segment_init(&a->seg);
	a->nseg_also = 0;
	for (unsigned int z = 0; z < a->sizes; z++)
		if (a->st[z].n >= 2 && a->st[z].df_nb)
			idx[s.k++] = z;
	if (!s.k)
		return;
	s.corr = &a->corr;
	a->seg.rho = a->corr.within;
	for (unsigned int i = 0; i < s.k; i++) {
		const struct gd_assess_size *z = &a->st[idx[i]];
		double v = z->sd_nb * z->sd_nb / z->n;

		s.mean[i + 1] = s.mean[i] + z->mean;
		s.v[i + 1] = s.v[i] + v;
		s.sq[i + 1] = s.sq[i] + sqrt(v);
		s.v2df[i + 1] = s.v2df[i] + v * v / z->df_nb;
		s.dfmax = z->df_nb > s.dfmax ? z->df_nb : s.dfmax;
		if (s.dfmax > (z->n - 1) * (z->n - 1))
			s.dfmax = (z->n - 1) * (z->n - 1);
		up[i + 1] = up[i] + (z->mean >= lf);
	}
	a->seg.tested = s.k * (s.k + 1) / 2;
	for (unsigned int n = 0; n <= GD_ASSESS_SEG_ALSO; n++) {
		struct gd_seg_cand best = { .t = INFINITY };

		for (unsigned int i = 0; i < s.k; i++)
			for (unsigned int j = i; j < s.k; j++) {
				if (n && !gd_seg_apart(i, j, kept, n, up))
					continue;
				gd_seg_eval(&s, i, j, &c);
				if ((!n || c.t < 0) && gd_seg_better(&c, &best))
					best = c;
			}
		if (!n) {
			gd_seg_keep(a, idx, &best, &a->seg);
			/* the first is the furthest below (smallest p, or t
			 * with exact figures): when it is not below the
			 * floor, no other segment is */
			if (!(best.t < 0))
				break;
		} else {
			struct gd_assess_segment *o = &a->seg_also[n - 1];

			if (!isfinite(best.t))
				break;
			gd_assess_segment_init(o);
			o->tested = a->seg.tested;
			o->rho = a->seg.rho;
			gd_seg_keep(a, idx, &best, o);
			a->nseg_also = n;
		}
		kept[n] = best;
	}
}

static void gd_seg_flag(struct gd_assess_segment *s, double share, double mult,
			double alpha)
{
	s->p_adj = share * s->tested * s->p;
	s->p_adj = s->p_adj > 1 ? 1 : s->p_adj;
	s->p_run = s->p_adj * mult > 1 ? 1 : s->p_adj * mult;
	s->found = s->p_run <= alpha;
}

void gd_assess_segment_flag(struct gd_assessment *a, double share, double mult,
			    double alpha)
{
	if (!a->seg.tested)
		return;
	gd_seg_flag(&a->seg, share, mult, alpha);
	for (unsigned int n = 0; n < a->nseg_also; n++) {
		gd_seg_flag(&a->seg_also[n], share, mult, alpha);
		a->seg_also[n].found &= a->seg.found;
	}
}
