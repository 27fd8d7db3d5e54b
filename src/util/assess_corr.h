/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * How an assessment's rounds are correlated (assess_corr.c): a drift the
 * sizes of one round share, and a state neighbouring rounds share, for a
 * size's own noise and for the shared drift apart. Every interval of the
 * assessment (a size's for "slower" and for "not below", a band's, a
 * segment's) is widened by it; none is refused for it.
 */
#ifndef GD_ASSESS_CORR_H
#define GD_ASSESS_CORR_H

#include <stdbool.h>

struct gd_assessment;

/* Rounds from which the lag-1 correlation of neighbouring rounds is read:
 * fewer give a ratio too noisy to act on (it would widen at random). */
#define GD_ASSESS_CORR_MIN_ROUNDS 5
/* "Not below"'s prior where a size's own correlation is not read (no size
 * has every round): AR(1) with this lag-1 correlation from round to round
 * (what few rounds cannot see is not taken as independence). Below
 * GD_ASSESS_CORR_MIN_ROUNDS a fixed design applies it to three times the
 * share of a round's sizes' drift alone, at most in full (a drift
 * correlated from round to round hides much of its variance from a few
 * rounds' spread; assess.c): three rounds cannot tell a size's own AR(1)
 * 0.5 from independence, and widening for it there would cost two
 * identical paths their "not below" (tests/assess_sim_test.c and
 * gdperf(7) give the price). */
#define GD_ASSESS_CORR_PRIOR_RHO 0.4
/*
 * From GD_ASSESS_CORR_MIN_ROUNDS and at every adaptive look, "not below"
 * never widens a size's interval by less than its own correlation could
 * need as far as the rounds read it: a prior even over lag-1 correlations
 * 0 to GD_ASSESS_CORR_POST_MAX on GD_ASSESS_CORR_GRID points, each
 * weighed by the likelihood of the pooled lag-1 ratio of the sizes with
 * every round (read from three rounds; gd_assess_corr_post). Few rounds
 * and sizes read little and keep much of the prior; many rounds read
 * independence as such, so that an adaptive run is not held back by a
 * correlation its rounds rule out. 0.7, not 0.5: the weights of a true
 * 0.5 spread on both sides of it, and a prior that ends at 0.5 cuts off
 * the upper side (a size at the floor under AR(1) 0.5 passed in 6.4% of
 * runs at five rounds; tests/assess_sim_test.c).
 */
#define GD_ASSESS_CORR_POST_MAX 0.7
#define GD_ASSESS_CORR_GRID 11

/* The sums a model is read from, kept so that a run's assessments can
 * pool them (gd_assess_corr_pool): pair correlations within a round,
 * sizes' own lag-1 ratios, and the lag-0 and lag-1 covariances between
 * different sizes. */
struct gd_assess_corr_sums {
	unsigned int rounds;	   /* the rounds they were read over */
	double within_sum;	   /* pair correlations, summed */
	unsigned int within_pairs; /* their number */
	double own_sum;		   /* sizes' own lag-1 ratios, summed */
	unsigned int own_sizes;	   /* their number */
	double cross0, cross1;	   /* between sizes (from two): lag 0, 1 */
	/* sizes' own residual products summed over them, lag 1 and lag 0
	 * (their ratio is the pooled lag-1 ratio), from three rounds */
	double own_num, own_den;
};

struct gd_assess_corr {
	/* correlation of two sizes within a round, pooled over every pair,
	 * >= 0: the share of a size's variance that a round's sizes share */
	double within;
	/* lag-1 autocorrelation of neighbouring rounds, bias-corrected, of a
	 * size's own noise and of the shared drift; 0 where not shown */
	double rho_own, rho_shared;
	/* the factors by which each part's variance of a mean over the
	 * rounds exceeds what its spread over them says, >= 1 */
	double f_own, f_shared;
	/* "not below"'s weights of the lag-1 correlations
	 * i * GD_ASSESS_CORR_POST_MAX / (GD_ASSESS_CORR_GRID - 1), summing
	 * to 1, and their mean; all 0 where nothing was read */
	double post[GD_ASSESS_CORR_GRID];
	double rho_post;
	/* what it was read from, and over how many assessments */
	struct gd_assess_corr_sums sums;
	unsigned int pooled;
};

/* Read the model from @d (@rounds by @cols, gd_assess's matrix) over
 * @a's sizes with every round; a model of independence (every factor 1)
 * where there are too few rounds or sizes to read one. */
void gd_assess_corr(const double *d, unsigned int rounds, unsigned int cols,
		    const struct gd_assessment *a, struct gd_assess_corr *c);

/*
 * The model of @a[@i] read from the sums of every one of the @n
 * assessments (a run's phases and directions) read over as many rounds as
 * it: one run's phases share its rounds' times, and pooling them reads a
 * correlation that a few sizes of one phase cannot.
 */
void gd_assess_corr_pool(const struct gd_assessment *a, unsigned int n,
			 unsigned int i, struct gd_assess_corr *c);

/* Do @x and @y widen alike (the same correlations and factors)? */
bool gd_assess_corr_same(const struct gd_assess_corr *x,
			 const struct gd_assess_corr *y);

/*
 * The variance of a mean over @m sizes and the rounds, given @v, the sum
 * of the sizes' own variances of their means, and @sq, the sum of their
 * square roots: (1 - within) * f_own * v + within * f_shared * sq^2, over
 * m^2; without @rounds, the factors for neighbouring rounds left out (the
 * sizes' correlation within a round alone).
 */
double gd_assess_corr_var(const struct gd_assess_corr *c, double v, double sq,
			  double m, bool rounds);

/* The factor by which the variance of a mean over @rounds exceeds its
 * expected s^2 / n under AR(1) GD_ASSESS_CORR_PRIOR_RHO: "not below"'s
 * widening below GD_ASSESS_CORR_MIN_ROUNDS. */
double gd_assess_corr_prior(unsigned int rounds);

/*
 * The factor by which the variance of a size's mean over @rounds exceeds
 * its expected s^2 / n, averaged over @c's weights of its own lag-1
 * correlation (at least 1); where nothing was read, the prior's in full
 * (gd_assess_corr_prior).
 */
double gd_assess_corr_post(const struct gd_assess_corr *c, unsigned int rounds);

/*
 * Degrees of freedom of a spread pooled over @sizes sizes, @df in all,
 * whose figures of one round correlate by @within: their spreads move
 * together, so the pool counts as df / (1 + (sizes - 1) within^2) (the
 * effective number of independent spreads), at least @own (one size's);
 * all of a round's sizes moving alike leave the df of the rounds.
 */
unsigned int gd_assess_corr_pool_df(unsigned int df, unsigned int sizes,
				    double within, unsigned int own);

#endif
