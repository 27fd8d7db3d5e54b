/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reading evidence: the plan (gdperf.plan/1, what was intended), every
 * gdperf.run/1 document under a directory (merged per execution by its
 * "exec" label) and gd_doctor envelopes (inventory and GPU/NIC map).
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
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

int gd_fleet_host_index(struct gd_fleet *fl, const char *name, bool add)
{
	struct gd_fleet_host *grown;
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < fl->n_hosts; i++)
		if (!strcmp(fl->hosts[i].name, name))
			return (int)i;
	if (!add)
		return -1;
	grown = realloc(fl->hosts, (fl->n_hosts + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	fl->hosts = grown;
	memset(&fl->hosts[fl->n_hosts], 0, sizeof(*grown));
	copy_str(fl->hosts[fl->n_hosts].name, GD_FLEET_NAME_MAX, name);
	return (int)fl->n_hosts++;
}

static struct gd_fleet_run *run_find(struct gd_fleet *fl, const char *id,
				     bool add)
{
	struct gd_fleet_run *grown, *r;
	size_t i;

	for (i = 0; i < fl->n_runs; i++)
		if (!strcmp(fl->runs[i].id, id))
			return &fl->runs[i];
	if (!add)
		return NULL;
	grown = realloc(fl->runs, (fl->n_runs + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	fl->runs = grown;
	r = &fl->runs[fl->n_runs++];
	memset(r, 0, sizeof(*r));
	copy_str(r->id, sizeof(r->id), id);
	r->a = r->b = -1;
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

int gd_fleet_load_plan(struct gd_fleet *fl, const char *path)
{
	struct json_object *root = json_object_from_file(path), *ex, *cfg;
	const char *schema = gd_json_str(root, "schema");
	size_t i, n;
	int ret;

	if (!root || !schema || strcmp(schema, "gdperf.plan/1")) {
		json_object_put(root);
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
		json_object_put(root);
		return gd_err(-EINVAL,
			      "--plan: '%s' gives %d GPUs per server and %d "
			      "rails; gd_plan writes 1..%d of each",
			      path, fl->gpus_per_server, fl->rails,
			      GD_FLEET_INDEX_MAX);
	}
	ret = plan_hosts(fl, jget(root, "hosts"));
	fl->have_plan = true;
	ex = jget(root, "executions");
	n = ex ? gd_json_len(ex) : 0;
	for (i = 0; !ret && i < n; i++) {
		struct json_object *e = gd_json_idx(ex, i);
		struct gd_fleet_run *r = run_find(
			fl, gd_json_str(e, "id") ? gd_json_str(e, "id") : "",
			true);

		if (!r)
			ret = -ENOMEM;
		else if (run_identity(fl, r, e))
			ret = gd_err(-EINVAL,
				     "--plan: '%s' execution %s names "
				     "a host missing from its host list "
				     "or a GPU or rail out of range",
				     path, r->id);
		else
			r->planned = true;
	}
	json_object_put(root);
	return ret ? gd_err(ret, "--plan: cannot load '%s'", path) : 0;
}

static void phase_load(struct gd_fleet_phase *p, struct json_object *ph,
		       bool lat)
{
	struct json_object *res = jget(ph, "results");
	const char *status = gd_json_str(ph, "status");
	size_t i, n = res ? gd_json_len(res) : 0;

	snprintf(p->name, sizeof(p->name), "%s",
		 gd_json_str(ph, "name") ? gd_json_str(ph, "name") : "?");
	p->ok = status && !strcmp(status, "ok");
	for (i = 0; i < n && p->n < GD_FLEET_SIZES_MAX; i++) {
		struct json_object *row = gd_json_idx(res, i);
		struct json_object *v =
			jget(row, lat ? "lat_typical_us" : "bw_avg_MiBps");

		if (!v || !jget(row, "size_bytes"))
			continue;
		p->size_bytes[p->n] =
			json_object_get_double(jget(row, "size_bytes"));
		p->value[p->n++] = json_object_get_double(v);
	}
}

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

static void run_measure(struct gd_fleet_run *r, struct json_object *doc,
			const char *file)
{
	struct json_object *test = jget(doc, "test"), *ph = jget(doc, "phases");
	const char *measure = gd_json_str(test, "measure");
	size_t i, n = ph ? gd_json_len(ph) : 0;

	r->have_measure = true;
	r->lat = measure && !strcmp(measure, "lat");
	copy_str(r->file, sizeof(r->file), file);
	r->ok = jint(doc, "exit_status", 1) == 0 &&
		!gd_json_str(jget(doc, "error"), "message");
	r->n_phases = 0;
	for (i = 0; i < n && r->n_phases < GD_FLEET_PHASES_MAX; i++) {
		struct gd_fleet_phase *p = &r->phases[r->n_phases++];

		memset(p, 0, sizeof(*p));
		phase_load(p, gd_json_idx(ph, i), r->lat);
		if (!p->ok)
			r->ok = false;
	}
	if (!n)
		r->ok = false;
	r->error[0] = '\0';
	if (!r->ok)
		error_text(doc, r->error, sizeof(r->error), "client");
	if (!r->ok && !r->error[0])
		snprintf(r->error, sizeof(r->error),
			 "a phase failed or no "
			 "phase reported");
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
	map = jget(env, "gpu_nic_map") ? jget(env, "gpu_nic_map")
				       : jget(env, "map");
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

	grown = realloc(fl->checks, (fl->n_checks + 1) * sizeof(*grown));
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

	if (gd_json_str(labels, "check"))
		ingest_check(fl, doc, gd_json_str(labels, "check"), file);
	if (!id) {
		fl->n_unlabelled += !gd_json_str(labels, "check");
		return 0;
	}
	r = run_find(fl, id, !fl->have_plan);
	if (!r) {
		fl->n_unlabelled++;
		return 0;
	}
	if (!r->planned && run_identity(fl, r, labels))
		return 0;
	if (role && !strcmp(role, "server")) {
		r->have_server = true;
		if (!r->have_measure)
			error_text(doc, r->error, sizeof(r->error), "server");
		return 0;
	}
	run_measure(r, doc, file);
	return 0;
}

static int ingest_file(struct gd_fleet *fl, const char *path)
{
	struct json_object *doc = json_object_from_file(path);
	const char *schema = gd_json_str(doc, "schema"),
		   *tool = gd_json_str(doc, "tool");
	int ret = 0;

	fl->n_docs++;
	if (!schema || strncmp(schema, "gdperf.run/", 11))
		fl->n_skipped++;
	else if ((tool && !strcmp(tool, "gd_doctor")) ||
		 (jget(doc, "envelope") && !jget(doc, "phases")))
		ingest_envelope(fl, doc);
	else
		ret = ingest_run(fl, doc, path);
	json_object_put(doc);
	return ret;
}

static int ingest_walk(struct gd_fleet *fl, const char *dir, int depth)
{
	struct dirent **ents;
	int i, n = scandir(dir, &ents, NULL, alphasort), ret = 0;

	if (n < 0)
		return gd_err(-errno, "cannot read directory '%s': %s", dir,
			      strerror(errno));
	for (i = 0; i < n; i++) {
		char path[4096];
		size_t len = strlen(ents[i]->d_name);
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (!ret && ents[i]->d_name[0] != '.' && !stat(path, &st)) {
			if (S_ISDIR(st.st_mode) && depth < 4)
				ret = ingest_walk(fl, path, depth + 1);
			else if (S_ISREG(st.st_mode) && len > 5 &&
				 !strcmp(ents[i]->d_name + len - 5, ".json"))
				ret = ingest_file(fl, path);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int gd_fleet_ingest_dir(struct gd_fleet *fl, const char *dir)
{
	size_t i;
	int ret = ingest_walk(fl, dir, 0);

	for (i = 0; i < fl->n_runs; i++) {
		struct gd_fleet_run *r = &fl->runs[i];

		if (!r->have_measure && (r->have_server || !r->planned)) {
			r->ok = false;
			if (!r->error[0])
				snprintf(r->error, sizeof(r->error),
					 "server "
					 "side ran but no client document");
		}
		if (!fl->have_plan && r->rail + 1 > fl->rails)
			fl->rails = r->rail + 1;
		if (!fl->have_plan && r->gpu + 1 > fl->gpus_per_server)
			fl->gpus_per_server = r->gpu + 1;
	}
	return ret;
}

void gd_fleet_free(struct gd_fleet *fl)
{
	size_t i;

	for (i = 0; i < fl->n_hosts; i++)
		free(fl->hosts[i].gpu_rail);
	free(fl->hosts);
	free(fl->runs);
	free(fl->checks);
	free(fl->domains);
	free(fl->rail_slow);
	memset(fl, 0, sizeof(*fl));
}
