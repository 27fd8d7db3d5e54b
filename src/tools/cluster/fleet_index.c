/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Building gd_report's indexes (fleet_index.h) in a few passes over the
 * runs: each figure of an ok measured run goes to its comparison group,
 * each run to its series and to the lists of the hosts at its ends. The
 * groups keep the first phase of a name and the first figure of a size of
 * each run, as the per-run lookups they replace did.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cluster/fleet_index.h"
#include "util/error.h"

static bool same_name(const void *ctx, uint32_t idx, const void *key)
{
	const struct gd_fleet_index *ix = ctx;

	return !strcmp(ix->names[idx], key);
}

static bool same_size(const void *ctx, uint32_t idx, const void *key)
{
	const struct gd_fleet_index *ix = ctx;

	return ix->sizes[idx] == *(const double *)key;
}

static bool same_group(const void *ctx, uint32_t idx, const void *key)
{
	const struct gd_fleet_index *ix = ctx;
	const struct gd_fleet_group *g = &ix->groups[idx], *k = key;

	return g->cls == k->cls && g->rail == k->rail && g->name == k->name &&
	       g->size == k->size;
}

static uint32_t hash_name(const char *name)
{
	return gd_fleet_hash_bytes(name, strlen(name), 2);
}

/* -0 and 0 are one size, as == says. */
static uint32_t hash_size(double size)
{
	double s = size == 0 ? 0 : size;

	return gd_fleet_hash_bytes(&s, sizeof(s), 3);
}

static uint32_t hash_group(const struct gd_fleet_group *k)
{
	int key[4] = { k->cls, k->rail, (int)k->name, (int)k->size };

	return gd_fleet_hash_bytes(key, sizeof(key), 4);
}

static long intern_name(struct gd_fleet_index *ix, const char *name)
{
	uint32_t hv = hash_name(name);
	long i = gd_fleet_hash_find(&ix->name_h, hv, same_name, ix, name);
	char(*grown)[8];

	if (i >= 0)
		return i;
	grown = gd_fleet_grow(ix->names, &ix->names_cap, ix->n_names,
			      sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ix->names = grown;
	snprintf(ix->names[ix->n_names], sizeof(*grown), "%s", name);
	if (gd_fleet_hash_add(&ix->name_h, hv, (uint32_t)ix->n_names))
		return -ENOMEM;
	return (long)ix->n_names++;
}

static long intern_size(struct gd_fleet_index *ix, double size)
{
	uint32_t hv = hash_size(size);
	long i = gd_fleet_hash_find(&ix->size_h, hv, same_size, ix, &size);
	double *grown;

	if (i >= 0)
		return i;
	grown = gd_fleet_grow(ix->sizes, &ix->sizes_cap, ix->n_sizes,
			      sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ix->sizes = grown;
	ix->sizes[ix->n_sizes] = size;
	if (gd_fleet_hash_add(&ix->size_h, hv, (uint32_t)ix->n_sizes))
		return -ENOMEM;
	return (long)ix->n_sizes++;
}

static long intern_group(struct gd_fleet_index *ix,
			 const struct gd_fleet_group *k)
{
	uint32_t hv = hash_group(k);
	long i = gd_fleet_hash_find(&ix->group_h, hv, same_group, ix, k);
	struct gd_fleet_group *grown;

	if (i >= 0)
		return i;
	grown = gd_fleet_grow(ix->groups, &ix->groups_cap, ix->n_groups,
			      sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	ix->groups = grown;
	ix->groups[ix->n_groups] = *k;
	ix->groups[ix->n_groups].n = 0;
	if (gd_fleet_hash_add(&ix->group_h, hv, (uint32_t)ix->n_groups))
		return -ENOMEM;
	return (long)ix->n_groups++;
}

/* Every figure of every ok measured run, with its group. */
struct points {
	uint32_t *group;
	double *value;
	size_t n, cap_g, cap_v;
};

static int point_add(struct points *pt, uint32_t group, double value)
{
	uint32_t *g = gd_fleet_grow(pt->group, &pt->cap_g, pt->n, sizeof(*g));
	double *v;

	if (!g)
		return -ENOMEM;
	pt->group = g;
	v = gd_fleet_grow(pt->value, &pt->cap_v, pt->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	pt->value = v;
	pt->group[pt->n] = group;
	pt->value[pt->n++] = value;
	return 0;
}

static bool increasing(const struct gd_fleet_phase *p)
{
	int i;

	for (i = 1; i < p->n; i++)
		if (!(p->size_bytes[i - 1] < p->size_bytes[i]))
			return false;
	return true;
}

/* Size index @i is the first of its size in @p (what a lookup by size
 * finds); NaN is no size. */
static bool first_of_size(const struct gd_fleet_phase *p, int i, bool inc)
{
	int j;

	if (isnan(p->size_bytes[i]))
		return false;
	for (j = 0; !inc && j < i; j++)
		if (p->size_bytes[j] == p->size_bytes[i])
			return false;
	return true;
}

static int phase_points(struct gd_fleet_index *ix, struct points *pt,
			const struct gd_fleet_run *r,
			const struct gd_fleet_phase *p)
{
	struct gd_fleet_group k = { .cls = gd_fleet_run_class(r),
				    .rail = r->rail };
	long name = intern_name(ix, p->name), size, g;
	bool inc = increasing(p);
	int i;

	if (name < 0)
		return (int)name;
	k.name = (uint32_t)name;
	for (i = 0; i < p->n; i++) {
		if (isnan(p->value[i]) || !first_of_size(p, i, inc))
			continue;
		size = intern_size(ix, p->size_bytes[i]);
		if (size < 0)
			return (int)size;
		k.size = (uint32_t)size;
		g = intern_group(ix, &k);
		if (g < 0 || point_add(pt, (uint32_t)g, p->value[i]))
			return -ENOMEM;
		ix->groups[g].n++;
	}
	return 0;
}

static int collect_points(const struct gd_fleet *fl, struct gd_fleet_index *ix,
			  struct points *pt)
{
	size_t i;
	int k, j, ret = 0;

	for (i = 0; !ret && i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (!r->have_measure || !r->ok)
			continue;
		for (k = 0; !ret && k < r->n_phases; k++) {
			for (j = 0; j < k; j++)
				if (!strcmp(r->phases[j].name,
					    r->phases[k].name))
					break;
			if (j == k)
				ret = phase_points(ix, pt, r, &r->phases[k]);
		}
	}
	return ret;
}

/* Each group's figures in run order, then its median and MAD. */
static int group_stats(struct gd_fleet_index *ix, const struct points *pt)
{
	size_t *at = calloc(ix->n_groups + 1, sizeof(*at)), i, g;
	double *v = malloc((pt->n ? pt->n : 1) * sizeof(*v));

	if (!at || !v) {
		free(at);
		free(v);
		return -ENOMEM;
	}
	for (g = 0; g < ix->n_groups; g++)
		at[g + 1] = at[g] + ix->groups[g].n;
	for (i = 0; i < pt->n; i++)
		v[at[pt->group[i]]++] = pt->value[i];
	for (g = 0, i = 0; g < ix->n_groups; i += ix->groups[g++].n) {
		ix->groups[g].median = gd_fleet_median(v + i, ix->groups[g].n);
		ix->groups[g].mad = gd_fleet_mad(v + i, ix->groups[g].n);
	}
	free(at);
	free(v);
	return 0;
}

static int index_groups(const struct gd_fleet *fl, struct gd_fleet_index *ix)
{
	struct points pt = { 0 };
	int ret = collect_points(fl, ix, &pt);

	if (!ret)
		ret = group_stats(ix, &pt);
	free(pt.group);
	free(pt.value);
	return ret;
}

/* Compressed lists: @count[k] entries for key k, then @start the offsets
 * (n_keys + 1 of them) and @list allocated for the entries. */
static int lists_alloc(size_t *count, size_t n_keys, size_t n, size_t **start,
		       uint32_t **list)
{
	size_t k;

	*start = malloc((n_keys + 1) * sizeof(**start));
	*list = malloc((n ? n : 1) * sizeof(**list));
	if (!*start || !*list)
		return -ENOMEM;
	(*start)[0] = 0;
	for (k = 0; k < n_keys; k++) {
		(*start)[k + 1] = (*start)[k] + count[k];
		count[k] = (*start)[k];
	}
	return 0;
}

static int index_hosts(const struct gd_fleet *fl, struct gd_fleet_index *ix)
{
	size_t *at = calloc(fl->n_hosts + 1, sizeof(*at)), i, n = 0;
	int ret;

	if (!at)
		return -ENOMEM;
	for (i = 0; i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (r->a >= 0) {
			at[r->a]++;
			n++;
		}
		if (r->b >= 0 && r->b != r->a) {
			at[r->b]++;
			n++;
		}
	}
	ix->n_hosts = fl->n_hosts;
	ret = lists_alloc(at, fl->n_hosts, n, &ix->host_start, &ix->host_runs);
	for (i = 0; !ret && i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (r->a >= 0)
			ix->host_runs[at[r->a]++] = (uint32_t)i;
		if (r->b >= 0 && r->b != r->a)
			ix->host_runs[at[r->b]++] = (uint32_t)i;
	}
	free(at);
	return ret;
}

struct series_ctx {
	const struct gd_fleet *fl;
	uint32_t *first; /* per series, its first run */
	size_t cap;
};

static bool same_series(const struct gd_fleet_run *x,
			const struct gd_fleet_run *y)
{
	return x->round == y->round && x->step == y->step && x->a == y->a &&
	       x->b == y->b && x->gpu == y->gpu && x->b_to_a == y->b_to_a;
}

static bool same_series_of(const void *ctx, uint32_t idx, const void *key)
{
	const struct series_ctx *c = ctx;

	return same_series(&c->fl->runs[c->first[idx]], key);
}

static uint32_t hash_series(const struct gd_fleet_run *r)
{
	int key[6] = { r->round, r->step, r->a, r->b, r->gpu, r->b_to_a };

	return gd_fleet_hash_bytes(key, sizeof(key), 5);
}

/* Series number of every run, numbered by first appearance. */
static int series_number(const struct gd_fleet *fl, struct gd_fleet_index *ix,
			 uint32_t *of)
{
	struct series_ctx c = { .fl = fl };
	struct gd_fleet_hash h = { 0 };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];
		uint32_t hv = hash_series(r), *grown;
		long s = gd_fleet_hash_find(&h, hv, same_series_of, &c, r);

		if (s >= 0) {
			of[i] = (uint32_t)s;
			continue;
		}
		grown = gd_fleet_grow(c.first, &c.cap, ix->n_series,
				      sizeof(*grown));
		if (!grown)
			ret = -ENOMEM;
		else
			c.first = grown;
		if (!ret) {
			c.first[ix->n_series] = (uint32_t)i;
			of[i] = (uint32_t)ix->n_series;
			ret = gd_fleet_hash_add(&h, hv,
						(uint32_t)ix->n_series++);
		}
	}
	gd_fleet_hash_free(&h);
	free(c.first);
	return ret;
}

static int index_series(const struct gd_fleet *fl, struct gd_fleet_index *ix)
{
	uint32_t *of = malloc((fl->n_runs ? fl->n_runs : 1) * sizeof(*of));
	size_t *at = NULL, i;
	int ret = of ? series_number(fl, ix, of) : -ENOMEM;

	if (!ret) {
		at = calloc(ix->n_series + 1, sizeof(*at));
		ret = at ? 0 : -ENOMEM;
	}
	for (i = 0; !ret && i < fl->n_runs; i++)
		at[of[i]]++;
	if (!ret)
		ret = lists_alloc(at, ix->n_series, fl->n_runs,
				  &ix->series_start, &ix->series_runs);
	for (i = 0; !ret && i < fl->n_runs; i++)
		ix->series_runs[at[of[i]]++] = (uint32_t)i;
	free(at);
	free(of);
	return ret;
}

int gd_fleet_index_build(struct gd_fleet *fl)
{
	struct gd_fleet_index *ix = calloc(1, sizeof(*ix));
	int ret;

	gd_fleet_index_free(fl->ix);
	fl->ix = ix;
	if (!ix)
		return -ENOMEM;
	ret = index_groups(fl, ix);
	if (!ret)
		ret = index_hosts(fl, ix);
	if (!ret)
		ret = index_series(fl, ix);
	return ret;
}

static bool same_cov(const void *ctx, uint32_t idx, const void *key)
{
	const struct gd_fleet_cov *c = &((const struct gd_fleet_index *)ctx)
						->cov[idx],
				  *k = key;

	return c->round == k->round && c->host == k->host && c->gpu == k->gpu;
}

static uint32_t hash_cov(int round, int host, int gpu)
{
	int key[3] = { round, host, gpu };

	return gd_fleet_hash_bytes(key, sizeof(key), 6);
}

static struct gd_fleet_cov *cov_entry(struct gd_fleet_index *ix, int round,
				      int host, int gpu)
{
	struct gd_fleet_cov k = { .round = round, .host = host, .gpu = gpu };
	uint32_t hv = hash_cov(round, host, gpu);
	long i = gd_fleet_hash_find(&ix->cov_h, hv, same_cov, ix, &k);
	struct gd_fleet_cov *grown;

	if (i >= 0)
		return &ix->cov[i];
	grown = gd_fleet_grow(ix->cov, &ix->cov_cap, ix->n_cov, sizeof(*grown));
	if (!grown)
		return NULL;
	ix->cov = grown;
	if (gd_fleet_hash_add(&ix->cov_h, hv, (uint32_t)ix->n_cov))
		return NULL;
	ix->cov[ix->n_cov] = k;
	return &ix->cov[ix->n_cov++];
}

static int cov_add(struct gd_fleet_index *ix, const struct gd_fleet_run *r,
		   int host)
{
	struct gd_fleet_cov *c = cov_entry(ix, r->round, host, r->gpu);
	bool tested = gd_fleet_run_tested(r), bad = gd_fleet_run_bad(r);

	if (!c)
		return -ENOMEM;
	c->planned++;
	c->tested += tested;
	c->bad += bad;
	c->passed += tested && !bad;
	return 0;
}

int gd_fleet_index_coverage(struct gd_fleet *fl)
{
	struct gd_fleet_index *ix = fl->ix;
	size_t i;
	int ret = 0;

	for (i = 0; ix && !ret && i < fl->n_runs; i++) {
		const struct gd_fleet_run *r = &fl->runs[i];

		if (r->round < 1 || r->round > GD_FLEET_ROUNDS)
			continue;
		if (r->a >= 0)
			ret = cov_add(ix, r, r->a);
		if (!ret && r->b >= 0 && r->b != r->a)
			ret = cov_add(ix, r, r->b);
	}
	return ret;
}

const struct gd_fleet_group *
gd_fleet_index_group(const struct gd_fleet_index *ix, int cls, int rail,
		     const char *phase, double size)
{
	struct gd_fleet_group k = { .cls = cls, .rail = rail };
	long name, sz, g;

	if (!ix || isnan(size))
		return NULL;
	name = gd_fleet_hash_find(&ix->name_h, hash_name(phase), same_name, ix,
				  phase);
	sz = gd_fleet_hash_find(&ix->size_h, hash_size(size), same_size, ix,
				&size);
	if (name < 0 || sz < 0)
		return NULL;
	k.name = (uint32_t)name;
	k.size = (uint32_t)sz;
	g = gd_fleet_hash_find(&ix->group_h, hash_group(&k), same_group, ix,
			       &k);
	return g < 0 ? NULL : &ix->groups[g];
}

size_t gd_fleet_index_series(const struct gd_fleet_index *ix, size_t series,
			     const uint32_t **runs)
{
	*runs = ix->series_runs + ix->series_start[series];
	return ix->series_start[series + 1] - ix->series_start[series];
}

size_t gd_fleet_index_host(const struct gd_fleet_index *ix, int host,
			   const uint32_t **runs)
{
	*runs = ix->host_runs;
	if (!ix->host_start || host < 0 || (size_t)host >= ix->n_hosts)
		return 0;
	*runs = ix->host_runs + ix->host_start[host];
	return ix->host_start[host + 1] - ix->host_start[host];
}

const struct gd_fleet_cov *gd_fleet_index_cov(const struct gd_fleet_index *ix,
					      int round, int host, int gpu)
{
	struct gd_fleet_cov k = { .round = round, .host = host, .gpu = gpu };
	long i;

	if (!ix)
		return NULL;
	i = gd_fleet_hash_find(&ix->cov_h, hash_cov(round, host, gpu), same_cov,
			       ix, &k);
	return i < 0 ? NULL : &ix->cov[i];
}

void gd_fleet_index_free(struct gd_fleet_index *ix)
{
	if (!ix)
		return;
	free(ix->names);
	free(ix->sizes);
	free(ix->groups);
	gd_fleet_hash_free(&ix->name_h);
	gd_fleet_hash_free(&ix->size_h);
	gd_fleet_hash_free(&ix->group_h);
	free(ix->series_start);
	free(ix->series_runs);
	free(ix->host_start);
	free(ix->host_runs);
	free(ix->cov);
	gd_fleet_hash_free(&ix->cov_h);
	free(ix);
}
