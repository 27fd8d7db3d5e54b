/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_plan inputs: strict parsing of every option (also from a config file),
 * the host list with racks and GPU/NIC associations, and the worksheet
 * arithmetic. Every rejection names the option and says what is expected.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "tools/cluster/plan.h"
#include "util/error.h"
#include "util/keyval.h"

void gd_plan_cfg_defaults(struct gd_plan_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->repeats = 3;
	cfg->tool_repeat = 3;
	cfg->run_limit_s = -1;
	cfg->seconds = 30;
	cfg->gid_index = -1;
	cfg->base_port = 18515;
	cfg->launcher = GD_LAUNCH_SSH;
	strcpy(cfg->name, "plan");
	strcpy(cfg->host_prefix, "node");
	strcpy(cfg->nic_prefix, "mlx5_");
	strcpy(cfg->tool, "gd_write_bw");
	/* the device backend gd_* runs default to (the GPU one) */
	snprintf(cfg->gpu_mem, sizeof(cfg->gpu_mem), "%s",
		 gd_mem_device_backend(NULL) ? gd_mem_device_backend(NULL)->name
					     : "none");
	strcpy(cfg->results_dir, "results");
}

static int parse_long(const char *opt, const char *s, long min, long max,
		      long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno)
		return gd_err(-EINVAL,
			      "--%s: '%s' is not a whole number; give "
			      "a value from %ld to %ld",
			      opt, s, min, max);
	if (v < min || v > max)
		return gd_err(-EINVAL,
			      "--%s: %ld is out of range; give a value "
			      "from %ld to %ld",
			      opt, v, min, max);
	*out = v;
	return 0;
}

static int parse_double(const char *opt, const char *s, double min, double max,
			double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v))
		return gd_err(-EINVAL, "--%s: '%s' is not a number", opt, s);
	if (v < min || v > max)
		return gd_err(-EINVAL,
			      "--%s: %g is out of range; give a value "
			      "from %g to %g",
			      opt, v, min, max);
	*out = v;
	return 0;
}

/* Names end up in file names, shell lines and labels: keep them plain. */
static int parse_name(const char *opt, const char *s, const char *extra,
		      char *dst, size_t len)
{
	const char *p;

	if (strlen(s) >= len)
		return gd_err(-EINVAL,
			      "--%s: '%s' is longer than %zu characters", opt,
			      s, len - 1);
	for (p = s; *p; p++) {
		if (isalnum((unsigned char)*p) || strchr("._-", *p) ||
		    (extra && strchr(extra, *p)))
			continue;
		return gd_err(-EINVAL,
			      "--%s: '%s' contains '%c'; use letters, "
			      "digits and . _ -%s%s only",
			      opt, s, *p, extra ? " " : "", extra ? extra : "");
	}
	strcpy(dst, s);
	return 0;
}

static int parse_launcher(const char *s, enum gd_plan_launcher *out)
{
	static const char *const names[] = { "ssh", "pdsh", "clush", "local" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum gd_plan_launcher)i;
			return 0;
		}
	}
	return gd_err(-EINVAL,
		      "--launcher: '%s' is not one of ssh, pdsh, "
		      "clush, local",
		      s);
}

/* Switches in a config file: exactly yes or no. */
static int parse_switch(const char *opt, const char *s, bool *out)
{
	if (strcmp(s, "yes") && strcmp(s, "no"))
		return gd_err(-EINVAL, "--%s: '%s' is not yes or no", opt, s);
	*out = !strcmp(s, "yes");
	return 0;
}

int gd_plan_cfg_set(struct gd_plan_cfg *c, const char *key, const char *v)
{
	if (!strcmp(key, "servers"))
		return parse_long(key, v, 2, 100000, &c->servers);
	if (!strcmp(key, "gpus-per-server"))
		return parse_long(key, v, 1, 1024, &c->gpus_per_server);
	if (!strcmp(key, "rails"))
		return parse_long(key, v, 1, 1024, &c->rails);
	/* "repeats": the old name, kept as an alias */
	if (!strcmp(key, "campaign-repeats") || !strcmp(key, "repeats")) {
		c->repeats_alias |= !strcmp(key, "repeats");
		return parse_long(key, v, 1, 1000, &c->repeats);
	}
	/* The engine's own range for --repeat. */
	if (!strcmp(key, "repeat"))
		return parse_long(key, v, 1, 64, &c->tool_repeat);
	if (!strcmp(key, "run-limit"))
		return parse_long(key, v, 0, 7 * 86400, &c->run_limit_s);
	if (!strcmp(key, "gid-index"))
		return parse_long(key, v, 0, 255, &c->gid_index);
	if (!strcmp(key, "base-port"))
		return parse_long(key, v, 1024, 60000, &c->base_port);
	if (!strcmp(key, "nic-gbps"))
		return parse_double(key, v, 0.001, 1e6, &c->nic_Gbps);
	if (!strcmp(key, "seconds")) {
		c->seconds_from[0] = '\0';
		c->seconds_given = true;
		return parse_double(key, v, 0.001, 86400, &c->seconds);
	}
	if (!strcmp(key, "seconds-from"))
		return gd_plan_seconds_from(c, v);
	if (!strcmp(key, "name"))
		return parse_name(key, v, NULL, c->name, sizeof(c->name));
	if (!strcmp(key, "host-prefix"))
		return parse_name(key, v, NULL, c->host_prefix,
				  sizeof(c->host_prefix));
	if (!strcmp(key, "nic-prefix"))
		return parse_name(key, v, NULL, c->nic_prefix,
				  sizeof(c->nic_prefix));
	if (!strcmp(key, "tool"))
		return parse_name(key, v, "/", c->tool, sizeof(c->tool));
	if (!strcmp(key, "gpu-mem"))
		return parse_name(key, v, ":", c->gpu_mem, sizeof(c->gpu_mem));
	if (!strcmp(key, "tool-args"))
		return parse_name(key, v, " =,:/+", c->tool_args,
				  sizeof(c->tool_args));
	if (!strcmp(key, "results-dir"))
		return parse_name(key, v, "/", c->results_dir,
				  sizeof(c->results_dir));
	if (!strcmp(key, "auth-key")) {
		if (v[0] != '/')
			return gd_err(
				-EINVAL,
				"--auth-key: '%s' is not an absolute path; every node reads the key file at that path, wherever its run starts",
				v);
		return parse_name(key, v, "/", c->auth_key,
				  sizeof(c->auth_key));
	}
	if (!strcmp(key, "loopback-host"))
		return parse_name(key, v, NULL, c->loopback_host,
				  sizeof(c->loopback_host));
	if (!strcmp(key, "launcher"))
		return parse_launcher(v, &c->launcher);
	if (!strcmp(key, "locality-round"))
		return parse_switch(key, v, &c->locality_round);
	return gd_err(-EINVAL, "unknown setting '%s'; see gd_plan --help", key);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int gd_plan_cfg_line(void *ctx, const char *key, const char *value,
			    int lineno)
{
	(void)lineno;
	return gd_plan_cfg_set(ctx, key, value);
}

/* "key = value" lines, '#' comments (util/keyval.c, the reader the
 * benchmarks' --config uses too); keys are the long option names. */
int gd_plan_cfg_load(struct gd_plan_cfg *cfg, const char *path)
{
	return gd_keyval_load(path, "--config", gd_plan_cfg_line, cfg, NULL);
}

/*
 * What the plan writes into every run's command line, per execution or
 * for all: a second value in --tool-args would either lose to the plan's
 * or override it (-p 9999 puts every server of a step on one port). Each
 * with the benchmark's long name, its letter, and what sets it in gd_plan.
 */
static const struct {
	const char *name;
	char letter;
	const char *opt, *why;
} plan_sets[] = {
	{ "port", 'p', "--base-port", " (each execution its own port)" },
	{ "ib-dev", 'd', "--hosts associations",
	  " (GPU:NIC:RAIL, or --nic-prefix: each GPU its NIC)" },
	{ "gid-index", 'x', "--gid-index", "" },
	{ "mem", 0, "--gpu-mem", " (each execution its GPU)" },
	{ "phases", 0, "--gpu-mem", " (--phases=HH,DD) or --locality-round" },
	{ "out_json_file", 0, "--results-dir", " (each execution its file)" },
	{ "json", 0, "--results-dir", " (each execution its file)" },
	{ "label", 0, "--name", " (the plan label; the others name the run)" },
	{ "repeat", 0, "--repeat", " (--repeat=N in every run)" },
	{ "auth-key", 0, "--auth-key", " (--auth-key=PATH in every run)" },
};

/* The benchmarks' one-letter options that take no value (cli/options.c's
 * table; tests/cluster/plan_golden.sh checks every letter of it): in a
 * cluster "-ap", p is an option; after any other letter the rest of the
 * word, or the next word, is that letter's value. */
static const char gd_plan_tool_flag_letters[] = "abeghFNRUCHV";

/* '-' and '_' alike, as the benchmarks' parser takes them */
static bool tool_name_eq(const char *a, const char *b, size_t b_len)
{
	size_t i = 0;

	for (; i < b_len && a[i]; i++)
		if (a[i] != b[i] && !((a[i] == '-' || a[i] == '_') &&
				      (b[i] == '-' || b[i] == '_')))
			return false;
	return i == b_len && !a[i];
}

static int tool_arg_refuse(const struct gd_plan_cfg *c, size_t k)
{
	char letter[8] = "";

	if (plan_sets[k].letter)
		snprintf(letter, sizeof(letter), "-%c, ", plan_sets[k].letter);
	return gd_err(-EINVAL,
		      "--tool-args: '%s' gives %s--%s, which the plan sets in "
		      "every run: give gd_plan %s instead%s",
		      c->tool_args, letter, plan_sets[k].name, plan_sets[k].opt,
		      plan_sets[k].why);
}

/* One word of --tool-args: the index in plan_sets[] of the option it
 * gives (--name, --name=value, -n, -nVALUE, a cluster -an), or -1.
 * *@value_next: the next word is this one's value. */
static int tool_arg_word(const char *w, bool *value_next)
{
	*value_next = false;
	if (w[0] != '-' || !w[1])
		return -1;
	if (w[1] == '-') {
		size_t len = strcspn(w + 2, "=");

		for (size_t k = 0; k < sizeof(plan_sets) / sizeof(plan_sets[0]);
		     k++)
			if (tool_name_eq(plan_sets[k].name, w + 2, len))
				return (int)k;
		return -1;
	}
	for (const char *p = w + 1; *p; p++) {
		for (size_t k = 0; k < sizeof(plan_sets) / sizeof(plan_sets[0]);
		     k++)
			if (plan_sets[k].letter == *p)
				return (int)k;
		if (!strchr(gd_plan_tool_flag_letters, *p)) {
			*value_next = !p[1];
			return -1;
		}
		/* -h takes its value attached (-hall) */
		if (*p == 'h')
			return -1;
	}
	return -1;
}

/* --tool-args may give what the plan leaves to the user, never what it
 * sets; "--" ends the options, as in the benchmarks' parser. */
static int tool_args_check(const struct gd_plan_cfg *c)
{
	char words[sizeof(c->tool_args)], *save = NULL;
	bool skip = false, value_next;

	snprintf(words, sizeof(words), "%s", c->tool_args);
	for (char *w = strtok_r(words, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		int k;

		if (!strcmp(w, "--"))
			break;
		k = skip ? -1 : tool_arg_word(w, &value_next);
		if (k >= 0)
			return tool_arg_refuse(c, (size_t)k);
		skip = !skip && value_next;
	}
	if (c->tool_repeat > 1 && strstr(c->tool_args, "--run_infinitely"))
		return gd_err(-EINVAL,
			      "--tool-args: --run_infinitely cannot run with "
			      "--repeat=%ld; give gd_plan --repeat 1",
			      c->tool_repeat);
	return 0;
}

/* Round 4's near and far are GPUs chosen from the GPU-to-NIC map: they
 * need a device backend to name them. */
static int locality_check(const struct gd_plan_cfg *c)
{
	const struct gd_mem_ops *dev = gd_mem_device_backend(NULL);

	if (!gd_mem_spec_is_device(c->gpu_mem))
		return gd_err(-EINVAL,
			      "--locality-round: --gpu-mem '%s' is not device "
			      "memory; round 4 compares the GPU nearest the "
			      "NIC with a less local one%s%s",
			      c->gpu_mem,
			      dev ? ", so give a device backend, for example "
				    "--gpu-mem "
				  : ", and this build has no device memory "
				    "backend",
			      dev ? dev->name : "");
	return tool_args_check(c);
}

int gd_plan_cfg_check(const struct gd_plan_cfg *c)
{
	if (c->servers < 2)
		return gd_err(-EINVAL, "--servers: missing; give at least 2 "
				       "servers (or a --hosts list)");
	if (c->gpus_per_server < 1)
		return gd_err(-EINVAL, "--gpus-per-server: missing; give the "
				       "number of GPUs in each server");
	if (c->rails < 1)
		return gd_err(-EINVAL, "--rails: missing; give the number of "
				       "rails (NICs per server), at least 1");
	if (c->gpus_per_server % c->rails)
		return gd_err(-EINVAL,
			      "--rails: %ld rails do not divide %ld "
			      "GPUs per server evenly; every rail needs the "
			      "same number of GPUs",
			      c->rails, c->gpus_per_server);
	if (c->nic_Gbps <= 0)
		return gd_err(-EINVAL, "--nic-gbps: missing; give the NIC line "
				       "rate in Gb/s, for example 400");
	return c->locality_round ? locality_check(c) : tool_args_check(c);
}

/* Seconds after which a launch line stops its run (timeout(1)); the
 * default leaves a slow run ten times its planned length. */
long gd_plan_run_limit(const struct gd_plan_cfg *c)
{
	if (c->run_limit_s >= 0)
		return c->run_limit_s;
	return 300 + (long)ceil(10 * c->seconds);
}

static int host_alloc(struct gd_plan *plan)
{
	long i;

	plan->hosts = calloc(plan->cfg.servers, sizeof(*plan->hosts));
	if (!plan->hosts)
		return gd_err(-ENOMEM, "out of memory for %ld hosts",
			      plan->cfg.servers);
	for (i = 0; i < plan->cfg.servers; i++) {
		plan->hosts[i].assoc = calloc(plan->cfg.gpus_per_server,
					      sizeof(struct gd_plan_assoc));
		if (!plan->hosts[i].assoc)
			return gd_err(-ENOMEM,
				      "out of memory for associations");
	}
	return 0;
}

/* GPU g uses rail g / (GPUs per rail): rail-optimised servers put
 * consecutive GPUs behind the same NIC when there are fewer NICs. */
static void assoc_default(const struct gd_plan_cfg *c, struct gd_plan_host *h)
{
	long per_rail = c->gpus_per_server / c->rails;
	long g;

	for (g = 0; g < c->gpus_per_server; g++) {
		h->assoc[g].rail = (int)(g / per_rail);
		snprintf(h->assoc[g].nic, sizeof(h->assoc[g].nic), "%.50s%d",
			 c->nic_prefix, h->assoc[g].rail);
	}
}

int gd_plan_hosts_default(struct gd_plan *plan)
{
	int width = snprintf(NULL, 0, "%ld", plan->cfg.servers);
	long i;
	int ret;

	if (width < 2)
		width = 2;
	ret = host_alloc(plan);
	if (ret)
		return ret;
	plan->hosts_generated = true;
	for (i = 0; i < plan->cfg.servers; i++) {
		snprintf(plan->hosts[i].name, GD_PLAN_NAME_MAX, "%.40s%0*ld",
			 plan->cfg.host_prefix, width, i + 1);
		assoc_default(&plan->cfg, &plan->hosts[i]);
	}
	return 0;
}

/* "G:NIC:RAIL" overrides the association of GPU G on this host. */
static int host_assoc_token(struct gd_plan *plan, struct gd_plan_host *h,
			    char *tok, const char *path, int lineno)
{
	char *nic = strchr(tok, ':'), *rail;
	long g, r;

	if (!nic || !(rail = strchr(nic + 1, ':')))
		goto bad;
	*nic++ = '\0';
	*rail++ = '\0';
	if (parse_long("hosts", tok, 0, plan->cfg.gpus_per_server - 1, &g) ||
	    parse_long("hosts", rail, 0, plan->cfg.rails - 1, &r)) {
		gd_err_clear();
		goto bad;
	}
	if (parse_name("hosts", nic, NULL, h->assoc[g].nic, GD_PLAN_NAME_MAX))
		return -EINVAL;
	h->assoc[g].rail = (int)r;
	return 0;
bad:
	return gd_err(-EINVAL,
		      "--hosts: %s line %d: '%s' is not "
		      "GPU:NIC:RAIL with GPU below %ld and RAIL below %ld",
		      path, lineno, tok, plan->cfg.gpus_per_server,
		      plan->cfg.rails);
}

static int host_line(struct gd_plan *plan, struct gd_plan_host *h, char *s,
		     const char *path, int lineno)
{
	char *save = NULL, *tok = strtok_r(s, " \t", &save);
	int ret = parse_name("hosts", tok, NULL, h->name, sizeof(h->name));

	assoc_default(&plan->cfg, h);
	while (!ret && (tok = strtok_r(NULL, " \t", &save))) {
		if (!strncmp(tok, "rack=", 5)) {
			ret = parse_name("hosts", tok + 5, NULL, h->rack,
					 sizeof(h->rack));
			plan->have_racks = true;
		} else {
			ret = host_assoc_token(plan, h, tok, path, lineno);
		}
	}
	return ret;
}

static int hosts_count(const char *path, long *n)
{
	char line[2048];
	FILE *f = fopen(path, "r");

	if (!f)
		return gd_err(-errno, "--hosts: cannot open '%s': %s", path,
			      strerror(errno));
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		if (*trim(line))
			(*n)++;
	}
	fclose(f);
	return 0;
}

/* One host per line: "NAME [rack=RACK] [GPU:NIC:RAIL ...]". */
int gd_plan_hosts_load(struct gd_plan *plan, const char *path)
{
	char line[2048];
	long n = 0, i = 0;
	int lineno = 0, ret = hosts_count(path, &n);
	FILE *f;

	if (ret)
		return ret;
	if (plan->cfg.servers && plan->cfg.servers != n)
		return gd_err(-EINVAL,
			      "--servers: %ld given but --hosts '%s' "
			      "lists %ld hosts",
			      plan->cfg.servers, path, n);
	plan->cfg.servers = n;
	ret = gd_plan_cfg_check(&plan->cfg);
	if (!ret)
		ret = host_alloc(plan);
	f = ret ? NULL : fopen(path, "r");
	if (!f)
		return ret ? ret
			   : gd_err(-errno, "--hosts: cannot reopen '%s'",
				    path);
	while (!ret && fgets(line, sizeof(line), f)) {
		char *s = line;

		lineno++;
		if (strchr(s, '#'))
			*strchr(s, '#') = '\0';
		s = trim(s);
		if (*s)
			ret = host_line(plan, &plan->hosts[i++], s, path,
					lineno);
	}
	fclose(f);
	return ret;
}

/*
 * Round 1 has one step of disjoint pairs (two when a bye leaves a server
 * out: its pair runs in a second step). Inside a pair the lanes, directions
 * and repeats run one after another, all pairs of a step at once.
 */
void gd_plan_worksheet(const struct gd_plan_cfg *c, struct gd_worksheet *ws)
{
	bool odd = c->servers % 2;

	memset(ws, 0, sizeof(*ws));
	ws->gpus = c->servers * c->gpus_per_server;
	ws->associations = ws->gpus;
	ws->pairs_per_step = c->servers / 2;
	ws->pair_slots = ws->pairs_per_step + (odd ? 1 : 0);
	ws->round1_steps = odd ? 2 : 1;
	ws->lanes_per_pair = c->gpus_per_server;
	ws->executions = ws->pair_slots * ws->lanes_per_pair * 2 * c->repeats;
	ws->serial_hours = ws->executions * c->seconds / 3600.0;
	ws->concurrent_minutes = ws->round1_steps * ws->lanes_per_pair * 2 *
				 c->repeats * c->seconds / 60.0;
	ws->port_GBps = c->nic_Gbps / 8.0;
	ws->server_GBps = ws->port_GBps * c->rails;
	ws->endpoint_TBps = ws->server_GBps * c->servers / 1000.0;
}

void gd_plan_generated_note(const struct gd_plan *plan, char *buf, size_t len)
{
	long n = plan->cfg.servers;

	buf[0] = '\0';
	if (!plan->hosts_generated || plan->cfg.loopback_host[0] || n < 1)
		return;
	snprintf(buf, len,
		 "host names %s..%s are generated (--host-prefix %s, "
		 "--nic-prefix %s): no --hosts list was given; give --hosts "
		 "FILE with the cluster's names and GPU:NIC:RAIL associations",
		 plan->hosts[0].name, plan->hosts[n - 1].name,
		 plan->cfg.host_prefix, plan->cfg.nic_prefix);
}

void gd_plan_fmt_num(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.6g", v);
}

const char *gd_plan_round_name(int round)
{
	switch (round) {
	case GD_ROUND_COVERAGE:
		return "coverage";
	case GD_ROUND_DIVERSITY:
		return "diversity";
	case GD_ROUND_CONCURRENCY:
		return "concurrency";
	case GD_ROUND_LOCALITY:
		return "locality";
	}
	return "unknown";
}

void gd_plan_free(struct gd_plan *plan)
{
	size_t i;

	if (plan->hosts)
		for (i = 0; i < (size_t)plan->cfg.servers; i++)
			free(plan->hosts[i].assoc);
	free(plan->hosts);
	for (i = 0; i < plan->n_steps; i++)
		free(plan->steps[i].pairs);
	free(plan->steps);
	free(plan->execs);
	plan->hosts = NULL;
	plan->steps = NULL;
	plan->execs = NULL;
}
