/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A run's assessments decided together (assess.h, gd_assess_run): each
 * one's correlation model read again from the sums of all of them, its
 * "slower" tests again where that changes the model (assess.c), then Holm
 * across them (assess_run.c). Apart from both so that neither calls the
 * other back.
 */
#include <config.h>

#include <string.h>

#include "util/assess.h"
#include "util/assess_priv.h"

/* Does "not below" of @a weigh a size's own correlation alike with @p's
 * weights? They are read only from GD_ASSESS_CORR_MIN_ROUNDS and at an
 * adaptive look (assess.c); elsewhere they change nothing. */
static bool gd_post_same(const struct gd_assessment *a,
			 const struct gd_assess_corr *p)
{
	if (a->looks <= 1 && a->corr.sums.rounds < GD_ASSESS_CORR_MIN_ROUNDS)
		return true;
	return !memcmp(p->post, a->corr.post, sizeof(p->post));
}

void gd_assess_run(struct gd_assessment *a, unsigned int n)
{
	if (n > GD_ASSESS_MAX_SIZES)
		n = GD_ASSESS_MAX_SIZES;
	/* a retest keeps the sums the pool is read from: the order is free */
	for (unsigned int i = 0; n > 1 && i < n; i++) {
		struct gd_assess_corr pooled;
		bool same;

		if (!a[i].sizes)
			continue;
		gd_assess_corr_pool(a, n, i, &pooled);
		same = gd_assess_corr_same(&pooled, &a[i].corr) &&
		       gd_post_same(&a[i], &pooled);
		a[i].corr = pooled;
		if (!same)
			gd_assess_retest(&a[i]);
	}
	gd_assess_run_holm(a, n);
}
