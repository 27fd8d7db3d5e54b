/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reading evidence: the plan (gdperf.plan/1, what was intended), every
 * gdperf.run/1, /2 or /3 document under a directory (merged per execution by
 * its "exec" label) and gd_doctor envelopes (inventory and GPU/NIC map).
 * Locality (round 4) executions end up apart, in fl->loc_runs.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tools/cluster/fleet_index.h"
#include "tools/cluster/fleet_read.h"
#include "util/error.h"
#include "util/json_get.h"

/* GPUs per server and rails: gd_plan's limits bound what is read too. */
#define GD_FLEET_INDEX_MAX 1024

/* Bounded copy that always terminates; long paths are cut, not lost. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int jint(struct json_object *o, const char *key, int dflt)
{
	struct json_object *v = jget(o, key);

	if (!v)
		return dflt;
	if (json_object_is_type(v, json_type_string))
		return atoi(json_object_get_string(v));
	return json_object_get_int(v);
}

static bool same_host(const void *ctx, uint32_t idx, const void *key)
{
	const struct gd_fleet *fl = ctx;

	return !strcmp(fl->hosts[idx].name, key);
}

int gd_fleet_host_index(struct gd_fleet *fl, const char *name, bool add)
{
	uint32_t hv;
	long i;
	struct gd_fleet_host *grown, *h;

	if (!name)
		return -1;
	hv = gd_fleet_hash_bytes(name, strlen(name), 0);
	i = gd_fleet_hash_find(&fl->host_names, hv, same_host, fl, name);
	if (i >= 0 || !add)
		return (int)i;
	if (fl->n_hosts >= INT_MAX)
		return -1;
	grown = gd_fleet_grow(fl->hosts, &fl->hosts_cap, fl->n_hosts,
			      sizeof(*grown));
	if (!grown)
		return -1;
	fl->hosts = grown;
	h = &fl->hosts[fl->n_hosts];
	memset(h, 0, sizeof(*h));
	h->name = gd_fleet_pool_str(&fl->pool, name);
	if (!h->name ||
	    gd_fleet_hash_add(&fl->host_names, hv, (uint32_t)fl->n_hosts))
		return -1;
	return (int)fl->n_hosts++;
}

static bool same_run(const void *ctx, uint32_t idx, const void *key)
{
	const struct gd_fleet *fl = ctx;

	return !strcmp(fl->runs[idx].id, key);
}

/* The execution named @id (added when @add); NULL and *@err -ENOMEM when
 * it cannot be added, NULL alone when it is not known. */
static struct gd_fleet_run *run_find(struct gd_fleet *fl, const char *id,
				     bool add, int *err)
{
	uint32_t hv = gd_fleet_hash_bytes(id, strlen(id), 1);
	long i = gd_fleet_hash_find(&fl->run_ids, hv, same_run, fl, id);
	struct gd_fleet_run *grown, *r;

	*err = 0;
	if (i >= 0)
		return &fl->runs[i];
	if (!add)
		return NULL;
	*err = -ENOMEM;
	grown = gd_fleet_grow(fl->runs, &fl->runs_cap, fl->n_runs,
			      sizeof(*grown));
	if (!grown)
		return NULL;
	fl->runs = grown;
	r = &fl->runs[fl->n_runs];
	memset(r, 0, sizeof(*r));
	r->id = gd_fleet_pool_str(&fl->pool, id);
	if (!r->id || gd_fleet_hash_add(&fl->run_ids, hv, (uint32_t)fl->n_runs))
		return NULL;
	r->file = r->error = "";
	r->a = r->b = -1;
	*err = 0;
	fl->n_runs++;
	return r;
}

static int round_number(const char *s)
{
	if (!s)
		return 0;
	if (!strcmp(s, "coverage") || !strcmp(s, "1"))
		return 1;
	if (!strcmp(s, "diversity") || !strcmp(s, "2"))
		return 2;
	if (!strcmp(s, "concurrency") || !strcmp(s, "3"))
		return 3;
	if (!strcmp(s, "locality") || !strcmp(s, "4"))
		return GD_FLEET_ROUND_LOCALITY;
	/* unknown: read like rounds 1-2, never counted as coverage */
	return 0;
}

/* Fill the identity of an execution from plan fields or run labels (the
 * same keys in both). */
static int run_identity(struct gd_fleet *fl, struct gd_fleet_run *r,
			struct json_object *o)
{
	struct json_object *round = jget(o, "round");
	const char *dir = gd_json_str(o, "direction");

	r->round = round && json_object_is_type(round, json_type_int)
			   ? json_object_get_int(round)
			   : round_number(gd_json_str(o, "round"));
	r->step = jint(o, "step", 0);
	r->repeat = jint(o, "repeat", 1);
	r->gpu = jint(o, "gpu", 0);
	r->rail = jint(o, "rail", 0);
	r->b_to_a = dir && !strcmp(dir, "b_to_a");
	r->a = gd_fleet_host_index(fl, gd_json_str(o, "server_a"),
				   !fl->have_plan);
	r->b = gd_fleet_host_index(fl, gd_json_str(o, "server_b"),
				   !fl->have_plan);
	/* GPU and rail index per-GPU and per-rail tables: out of range, the
	 * run is as unidentified as one without its hosts. */
	if (r->gpu < 0 || r->gpu >= GD_FLEET_INDEX_MAX || r->rail < 0 ||
	    r->rail >= GD_FLEET_INDEX_MAX) {
		r->gpu = r->rail = 0;
		r->a = r->b = -1;
		return -ERANGE;
	}
	return r->a < 0 || r->b < 0 ? -ENOENT : 0;
}

static int plan_hosts(struct gd_fleet *fl, struct json_object *hosts)
{
	size_t i, n = gd_json_len(hosts);
	int g;

	for (i = 0; i < n; i++) {
		struct json_object *h = gd_json_idx(hosts, i);
		struct json_object *as = jget(h, "associations");
		int idx = gd_fleet_host_index(fl, gd_json_str(h, "name"), true);

		if (idx < 0)
			return -ENOMEM;
		/* A host listed twice: its last entry counts. */
		free(fl->hosts[idx].gpu_rail);
		fl->hosts[idx].gpu_rail =
			calloc(fl->gpus_per_server, sizeof(int));
		if (!fl->hosts[idx].gpu_rail)
			return -ENOMEM;
		for (g = 0; g < fl->gpus_per_server && as; g++)
			fl->hosts[idx].gpu_rail[g] =
				jint(gd_json_idx(as, g), "rail", 0);
	}
	return 0;
}

struct plan_ctx {
	struct gd_fleet *fl;
	const char *path;
};

static int plan_exec(void *ctx, struct json_object *e)
{
	struct plan_ctx *c = ctx;
	struct gd_fleet_run *r;
	int ret;

	r = run_find(c->fl, gd_json_str(e, "id") ? gd_json_str(e, "id") : "",
		     true, &ret);
	if (!r)
		return -ENOMEM;
	if (run_identity(c->fl, r, e))
		return gd_err(-EINVAL,
			      "--plan: '%s' execution %s names "
			      "a host missing from its host list "
			      "or a GPU or rail out of range",
			      c->path, r->id);
	r->planned = true;
	return 0;
}

/* The plan's executions are read one at a time (fleet_read.c): a plan of
 * 100k GPUs is half a million of them, gigabytes as json-c objects. */
int gd_fleet_load_plan(struct gd_fleet *fl, const char *path)
{
	struct gd_fleet_plan_text pt;
	struct plan_ctx ctx = { .fl = fl, .path = path };
	struct json_object *root, *cfg;
	const char *schema;
	int ret;

	gd_fleet_read_plan(path, &pt);
	root = pt.root;
	schema = gd_json_str(root, "schema");
	if (!root && access(path, R_OK))
		return gd_err(-errno,
			      "--plan: cannot read '%s': %s; give the file "
			      "gd_plan --json wrote",
			      path, strerror(errno));
	if (!root || !schema || strcmp(schema, "gdperf.plan/1")) {
		gd_fleet_plan_text_free(&pt);
		return gd_err(-EINVAL,
			      "--plan: '%s' is not a gd_plan JSON "
			      "document (schema gdperf.plan/1); write one with "
			      "gd_plan --json",
			      path);
	}
	cfg = jget(root, "config");
	fl->gpus_per_server = jint(cfg, "gpus_per_server", 1);
	fl->rails = jint(cfg, "rails", 1);
	if (fl->gpus_per_server < 1 ||
	    fl->gpus_per_server > GD_FLEET_INDEX_MAX || fl->rails < 1 ||
	    fl->rails > GD_FLEET_INDEX_MAX) {
		gd_fleet_plan_text_free(&pt);
		return gd_err(-EINVAL,
			      "--plan: '%s' gives %d GPUs per server and %d "
			      "rails; gd_plan writes 1..%d of each",
			      path, fl->gpus_per_server, fl->rails,
			      GD_FLEET_INDEX_MAX);
	}
	ret = plan_hosts(fl, jget(root, "hosts"));
	fl->have_plan = true;
	if (!ret)
		ret = gd_fleet_plan_each(&pt, plan_exec, &ctx);
	gd_fleet_plan_text_free(&pt);
	return ret ? gd_err(ret, "--plan: cannot load '%s'", path) : 0;
}

/* A repeat number beyond this is not a round of a run (the run's own
 * reading stops there too, report/compare.c). */
#define GD_FLEET_ROUNDS_MAX 64

/* The rounds of @row (its "samples", --repeat) into @out by their
 * "repeat" number, NAN where missing; the last round's number, 0 when
 * the row has none. */
static int row_rounds(struct json_object *row, const char *key, double *out)
{
	struct json_object *s = jget(row, "samples");
	size_t i, n = s && json_object_is_type(s, json_type_array)
			      ? gd_json_len(s)
			      : 0;
	int last = 0;

	for (i = 0; i < GD_FLEET_ROUNDS_MAX; i++)
		out[i] = NAN;
	for (i = 0; i < n; i++) {
		struct json_object *e = gd_json_idx(s, i);
		double rep = (double)i + 1, x;

		gd_json_num(e, "repeat", &rep);
		if (!gd_json_num(e, key, &x) || !(rep >= 1) ||
		    rep > GD_FLEET_ROUNDS_MAX)
			continue;
		out[(int)rep - 1] = x;
		last = (int)rep > last ? (int)rep : last;
	}
	return last;
}

/* With --expect-ratio, each size's rounds into p->round_value. */
static int phase_rounds(struct gd_fleet *fl, struct gd_fleet_phase *p,
			struct json_object *res, const char *key)
{
	double(*r)[GD_FLEET_ROUNDS_MAX];
	size_t i, n = res ? gd_json_len(res) : 0;
	int k = 0, most = 0, z;
	double *keep;

	r = calloc(GD_FLEET_SIZES_MAX, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < n && k < p->n; i++) {
		struct json_object *row = gd_json_idx(res, i);
		int last;

		if (!jget(row, key) || !jget(row, "size_bytes"))
			continue;
		last = row_rounds(row, key, r[k++]);
		most = last > most ? last : most;
	}
	if (most) {
		keep = gd_fleet_pool_alloc(&fl->pool, (size_t)p->n * most *
							      sizeof(double));
		for (z = 0; keep && z < p->n; z++)
			memcpy(keep + (size_t)z * most, r[z],
			       most * sizeof(double));
		p->round_value = keep;
		p->rounds = keep ? most : 0;
	}
	free(r);
	return most && !p->round_value ? -ENOMEM : 0;
}

static int phase_load(struct gd_fleet *fl, struct gd_fleet_phase *p,
		      struct json_object *ph, bool lat)
{
	struct json_object *res = jget(ph, "results");
	const char *status = gd_json_str(ph, "status");
	const char *key = lat ? "lat_typical_us" : "bw_avg_MiBps";
	size_t i, n = res ? gd_json_len(res) : 0;
	double size[GD_FLEET_SIZES_MAX], value[GD_FLEET_SIZES_MAX];
	double *keep;

	snprintf(p->name, sizeof(p->name), "%s",
		 gd_json_str(ph, "name") ? gd_json_str(ph, "name") : "?");
	p->ok = status && !strcmp(status, "ok");
	for (i = 0; i < n && p->n < GD_FLEET_SIZES_MAX; i++) {
		struct json_object *row = gd_json_idx(res, i);
		struct json_object *v = jget(row, key);

		if (!v || !jget(row, "size_bytes"))
			continue;
		size[p->n] = json_object_get_double(jget(row, "size_bytes"));
		value[p->n++] = json_object_get_double(v);
	}
	keep = gd_fleet_pool_alloc(&fl->pool, 2 * p->n * sizeof(double));
	if (!keep)
		return -ENOMEM;
	memcpy(keep, size, p->n * sizeof(double));
	memcpy(keep + p->n, value, p->n * sizeof(double));
	p->size_bytes = keep;
	p->value = keep + p->n;
	return fl->opt.expect_ratio > 0 && !lat ? phase_rounds(fl, p, res, key)
						: 0;
}

/* The document's failure as "@who: message" into @dst, which is left as
 * it was when the document reports none. */
static void error_text(struct json_object *doc, char *dst, size_t len,
		       const char *who)
{
	struct json_object *err = jget(doc, "error");
	const char *msg = gd_json_str(err, "message");
	int status = jint(doc, "exit_status", -1);

	if (msg)
		snprintf(dst, len, "%s: %s", who, msg);
	else if (status)
		snprintf(dst, len, "%s: exit status %d", who, status);
}

/* The run's error text from @doc, cut where the fixed-size text of
 * earlier versions was, so that reports stay the same. */
static int run_error(struct gd_fleet *fl, struct gd_fleet_run *r,
		     struct json_object *doc, const char *who)
{
	char buf[GD_FLEET_TEXT_MAX];

	copy_str(buf, sizeof(buf), r->error);
	error_text(doc, buf, sizeof(buf), who);
	if (!strcmp(buf, r->error))
		return 0;
	r->error = gd_fleet_pool_str(&fl->pool, buf);
	return r->error ? 0 : -ENOMEM;
}

static int run_phases(struct gd_fleet *fl, struct gd_fleet_run *r,
		      struct json_object *ph)
{
	size_t i, n = ph ? gd_json_len(ph) : 0;
	int ret = 0;

	if (n > GD_FLEET_PHASES_MAX)
		n = GD_FLEET_PHASES_MAX;
	/* A second client document of the same execution replaces the
	 * first's curves; the pool keeps the old ones until the end. */
	r->n_phases = 0;
	r->phases = gd_fleet_pool_alloc(&fl->pool,
					(n ? n : 1) * sizeof(*r->phases));
	if (!r->phases)
		return -ENOMEM;
	for (i = 0; !ret && i < n; i++) {
		struct gd_fleet_phase *p = &r->phases[r->n_phases++];

		ret = phase_load(fl, p, gd_json_idx(ph, i), r->lat);
		if (!p->ok)
			r->ok = false;
	}
	return ret;
}

static int run_measure(struct gd_fleet *fl, struct gd_fleet_run *r,
		       struct json_object *doc, const char *file)
{
	struct json_object *test = jget(doc, "test"), *ph = jget(doc, "phases");
	const char *measure = gd_json_str(test, "measure");
	char buf[GD_FLEET_TEXT_MAX];
	int ret;

	r->have_measure = true;
	r->lat = measure && !strcmp(measure, "lat");
	copy_str(buf, sizeof(buf), file);
	r->file = gd_fleet_pool_str(&fl->pool, buf);
	if (!r->file)
		return -ENOMEM;
	r->ok = jint(doc, "exit_status", 1) == 0 &&
		!gd_json_str(jget(doc, "error"), "message");
	r->looks = jint(jget(doc, "precision"), "looks", 1);
	r->looks = r->looks >= 1 ? r->looks : 1;
	ret = run_phases(fl, r, ph);
	if (!ret && r->round == GD_FLEET_ROUND_LOCALITY)
		ret = gd_fleet_locality_read(fl, r, doc);
	if (ret)
		return ret;
	if (!(ph ? gd_json_len(ph) : 0))
		r->ok = false;
	r->error = "";
	if (!r->ok)
		ret = run_error(fl, r, doc, "client");
	if (!r->ok && !r->error[0])
		r->error = "a phase failed or no phase reported";
	return ret;
}

static void ingest_envelope(struct gd_fleet *fl, struct json_object *doc)
{
	struct json_object *env =
		jget(doc, "envelope") ? jget(doc, "envelope") : doc;
	struct json_object *find = jget(env, "findings"), *map;
	const char *host = gd_json_str(doc, "hostname");
	size_t i, n = find ? gd_json_len(find) : 0;
	int idx;

	if (!host)
		host = gd_json_str(jget(env, "host"), "hostname");
	idx = gd_fleet_host_index(fl, host, !fl->have_plan);
	if (idx < 0)
		return;
	fl->hosts[idx].envelope = true;
	/* where gd_doctor writes it: one row per GPU (envelope/map.c) */
	map = jget(jget(env, "topology"), "map");
	if (map && json_object_is_type(map, json_type_array) &&
	    gd_json_len(map))
		fl->hosts[idx].map = true;
	for (i = 0; i < n; i++) {
		const char *sev = gd_json_str(gd_json_idx(find, i), "severity");

		if (sev && !strcmp(sev, "error"))
			fl->hosts[idx].envelope_errors++;
	}
}

static void ingest_check(struct gd_fleet *fl, struct json_object *doc,
			 const char *item, const char *file)
{
	struct gd_fleet_check_doc *grown;

	grown = gd_fleet_grow(fl->checks, &fl->checks_cap, fl->n_checks,
			      sizeof(*grown));
	if (!grown)
		return;
	fl->checks = grown;
	grown = &fl->checks[fl->n_checks++];
	copy_str(grown->item, sizeof(grown->item), item);
	copy_str(grown->file, sizeof(grown->file), file);
	grown->ok = jint(doc, "exit_status", 1) == 0;
}

static int ingest_run(struct gd_fleet *fl, struct json_object *doc,
		      const char *file)
{
	struct json_object *labels = jget(doc, "labels");
	const char *id = gd_json_str(labels, "exec"),
		   *role = gd_json_str(doc, "role");
	struct gd_fleet_run *r;
	int ret;

	fl->n_run_docs++;
	if (gd_json_str(labels, "check"))
		ingest_check(fl, doc, gd_json_str(labels, "check"), file);
	if (!id) {
		fl->n_unlabelled += !gd_json_str(labels, "check");
		return 0;
	}
	/* A locality document is read even when the plan has no round 4:
	 * it is reported apart and can never stand for a planned run. */
	r = run_find(fl, id,
		     !fl->have_plan ||
			     round_number(gd_json_str(labels, "round")) ==
				     GD_FLEET_ROUND_LOCALITY,
		     &ret);
	if (!r) {
		fl->n_unlabelled += !ret;
		return ret;
	}
	if (!r->planned && run_identity(fl, r, labels))
		return 0;
	if (role && !strcmp(role, "server")) {
		r->have_server = true;
		return r->have_measure ? 0 : run_error(fl, r, doc, "server");
	}
	return run_measure(fl, r, doc, file);
}

/* @path is not read: counted, and named with @why while there is room. */
static int skip_file(struct gd_fleet *fl, const char *path, const char *why)
{
	struct gd_fleet_skip *s;

	fl->n_skipped++;
	if (fl->n_skips >= GD_FLEET_SKIPS_MAX)
		return 0;
	s = gd_fleet_grow(fl->skips, &fl->skips_cap, fl->n_skips, sizeof(*s));
	if (!s)
		return -ENOMEM;
	fl->skips = s;
	s += fl->n_skips;
	s->path = gd_fleet_pool_str(&fl->pool, path);
	if (!s->path)
		return -ENOMEM;
	snprintf(s->reason, sizeof(s->reason), "%s", why);
	fl->n_skips++;
	return 0;
}

/*
 * The documents gd_report reads: run documents (/2 only added keys, /3
 * renamed those of "options" and /4 those of "test" other than "measure",
 * keys gd_report does not read, so one reader reads all four; older
 * campaigns' results still count) and gd_doctor's. Another version of either is
 * refused rather than misread; any other JSON in the directory (the plan, a
 * fleet report) is skipped.
 */
static const char *const run_schemas[] = { "gdperf.run/1", "gdperf.run/2",
					   "gdperf.run/3", "gdperf.run/4" };
#define DOCTOR_SCHEMA "gdperf.doctor/1"
#define ACCEPTED "gdperf.run/1, /2, /3, /4 and " DOCTOR_SCHEMA

enum doc_kind { DOC_OTHER, DOC_RUN, DOC_DOCTOR, DOC_UNKNOWN };

static enum doc_kind doc_kind(const char *schema)
{
	size_t i;

	if (!schema)
		return DOC_OTHER;
	for (i = 0; i < sizeof(run_schemas) / sizeof(run_schemas[0]); i++)
		if (!strcmp(schema, run_schemas[i]))
			return DOC_RUN;
	if (!strcmp(schema, DOCTOR_SCHEMA))
		return DOC_DOCTOR;
	if (!strncmp(schema, "gdperf.run/", 11) ||
	    !strncmp(schema, "gdperf.doctor/", 14))
		return DOC_UNKNOWN;
	return DOC_OTHER;
}

/* Not JSON: probably damage (a run killed while writing), so said at once
 * as well. */
static int skip_unreadable(struct gd_fleet *fl, const char *path,
			   const char *why)
{
	fprintf(stderr, "gd_report: warning: skipped '%s': %s\n", path, why);
	fl->n_unreadable++;
	return skip_file(fl, path, why);
}

/* JSON of another kind (a plan, a fleet report): expected, only listed. */
static int skip_other(struct gd_fleet *fl, const char *path, const char *schema)
{
	char why[160];

	if (schema)
		snprintf(why, sizeof(why),
			 "schema '%s' is not a run or gd_doctor document",
			 schema);
	else
		snprintf(why, sizeof(why),
			 "no \"schema\" key: not a run or gd_doctor document");
	return skip_file(fl, path, why);
}

static int ingest_file(struct gd_fleet *fl, struct gd_fleet_reader *rd,
		       const char *path)
{
	char why[160];
	struct json_object *doc = gd_fleet_read_doc(rd, path, why, sizeof(why));
	const char *schema = gd_json_str(doc, "schema"),
		   *tool = gd_json_str(doc, "tool");
	enum doc_kind kind = doc_kind(schema);
	int ret = 0;

	fl->n_docs++;
	if (!doc)
		ret = skip_unreadable(fl, path, why);
	else if (kind == DOC_UNKNOWN)
		ret = gd_err(-EINVAL,
			     "%s: schema '%s' is not one this gd_report reads "
			     "(%s); report it with the gdperf release that "
			     "wrote it, or move it out of the directory",
			     path, schema, ACCEPTED);
	else if (kind == DOC_OTHER)
		ret = skip_other(fl, path, schema);
	else if (kind == DOC_DOCTOR || (tool && !strcmp(tool, "gd_doctor")) ||
		 (jget(doc, "envelope") && !jget(doc, "phases")))
		ingest_envelope(fl, doc);
	else
		ret = ingest_run(fl, doc, path);
	json_object_put(doc);
	if (ret && kind != DOC_UNKNOWN)
		return gd_err(ret,
			      "out of memory reading '%s' after %zu documents "
			      "and %zu executions; run gd_report with more "
			      "memory or on part of the directory",
			      path, fl->n_docs, fl->n_runs);
	return ret;
}

/* Directory, regular file or neither: the entry's type when the file
 * system gives it (no stat per document), else what stat says of the path
 * (links followed). */
static int entry_kind(const struct dirent *e, const char *path)
{
	struct stat st;

	if (e->d_type == DT_DIR || e->d_type == DT_REG)
		return e->d_type;
	if (stat(path, &st))
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode)   ? DT_DIR
	       : S_ISREG(st.st_mode) ? DT_REG
				     : DT_UNKNOWN;
}

static int ingest_walk(struct gd_fleet *fl, struct gd_fleet_reader *rd,
		       const char *dir, int depth)
{
	struct dirent **ents;
	int i, n = scandir(dir, &ents, NULL, alphasort), ret = 0;

	if (n < 0)
		return gd_err(-errno, "cannot read directory '%s': %s", dir,
			      strerror(errno));
	for (i = 0; i < n; i++) {
		char path[4096];
		size_t len = strlen(ents[i]->d_name);
		int kind;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		kind = ret || ents[i]->d_name[0] == '.'
			       ? DT_UNKNOWN
			       : entry_kind(ents[i], path);
		if (kind == DT_DIR && depth < 4)
			ret = ingest_walk(fl, rd, path, depth + 1);
		else if (kind == DT_REG && len > 5 &&
			 !strcmp(ents[i]->d_name + len - 5, ".json"))
			ret = ingest_file(fl, rd, path);
		free(ents[i]);
	}
	free(ents);
	return ret;
}

/* Locality executions out of fl->runs into fl->loc_runs, the others kept
 * in their order and the id hash rebuilt for them: from here on nothing
 * that judges coverage, outliers, domains or gates sees round 4. */
static int split_locality(struct gd_fleet *fl)
{
	size_t i, k = 0, n = 0;
	struct gd_fleet_run *loc;

	for (i = 0; i < fl->n_runs; i++)
		n += fl->runs[i].round == GD_FLEET_ROUND_LOCALITY;
	if (!n)
		return 0;
	loc = realloc(fl->loc_runs, (fl->n_loc_runs + n) * sizeof(*loc));
	if (!loc)
		return -ENOMEM;
	fl->loc_runs = loc;
	gd_fleet_hash_free(&fl->run_ids);
	for (i = 0; i < fl->n_runs; i++) {
		struct gd_fleet_run *r = &fl->runs[i];

		if (r->round == GD_FLEET_ROUND_LOCALITY) {
			fl->loc_runs[fl->n_loc_runs++] = *r;
			continue;
		}
		fl->runs[k] = *r;
		if (gd_fleet_hash_add(
			    &fl->run_ids,
			    gd_fleet_hash_bytes(r->id, strlen(r->id), 1),
			    (uint32_t)k))
			return -ENOMEM;
		k++;
	}
	fl->n_runs = k;
	return 0;
}

int gd_fleet_ingest_dir(struct gd_fleet *fl, const char *dir)
{
	struct gd_fleet_reader rd;
	size_t i;
	int ret = gd_fleet_reader_init(&rd);

	fl->dir = dir;
	if (!ret)
		ret = ingest_walk(fl, &rd, dir, 0);
	gd_fleet_reader_free(&rd);
	if (ret == -ENOMEM && !gd_err_is_set())
		return gd_err(ret, "out of memory reading '%s'", dir);
	for (i = 0; i < fl->n_runs; i++) {
		struct gd_fleet_run *r = &fl->runs[i];

		if (!r->have_measure && (r->have_server || !r->planned)) {
			r->ok = false;
			if (!r->error[0])
				r->error = "server side ran but no client "
					   "document";
		}
		if (!fl->have_plan && r->rail + 1 > fl->rails)
			fl->rails = r->rail + 1;
		if (!fl->have_plan && r->gpu + 1 > fl->gpus_per_server)
			fl->gpus_per_server = r->gpu + 1;
	}
	if (!ret && split_locality(fl))
		ret = gd_err(-ENOMEM,
			     "out of memory setting the locality executions "
			     "apart from the other %zu; run gd_report with "
			     "more memory",
			     fl->n_runs);
	return ret;
}

void gd_fleet_free(struct gd_fleet *fl)
{
	size_t i;

	for (i = 0; i < fl->n_hosts; i++)
		free(fl->hosts[i].gpu_rail);
	free(fl->hosts);
	free(fl->runs);
	free(fl->loc_runs);
	free(fl->skips);
	gd_fleet_hash_free(&fl->run_ids);
	gd_fleet_hash_free(&fl->host_names);
	gd_fleet_index_free(fl->ix);
	gd_fleet_pool_free(&fl->pool);
	free(fl->checks);
	free(fl->domains);
	free(fl->judged);
	free(fl->series_recs);
	free(fl->rail_slow);
	memset(fl, 0, sizeof(*fl));
}
