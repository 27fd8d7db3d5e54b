/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_plan's descriptive outputs: the worksheet (text, each row with its
 * meaning and the caveats), the plan as one JSON document ("gdperf.plan/1",
 * what gd_report --plan reads) and one CSV row per execution.
 */
#include <config.h>

#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "mem/mem.h"
#include "tools/cluster/plan.h"
#include "util/error.h"

struct ws_row {
	double value;
	const char *unit;
	const char *key;
	const char *meaning;
};

static size_t ws_rows(const struct gd_worksheet *ws, struct ws_row *r)
{
	const struct ws_row rows[] = {
		{ ws->gpus, "GPUs", "gpus", "servers x GPUs per server" },
		{ ws->associations, "associations", "associations",
		  "intended GPU/NIC associations, one per GPU" },
		{ ws->pairs_per_step, "pairs", "pairs_per_step",
		  "disjoint server pairs per step, floor(servers / 2)" },
		{ ws->executions, "executions", "executions",
		  "round-1 directed pair tests: pair slots x rails x GPUs per "
		  "rail x 2 directions x repeats" },
		{ ws->serial_hours, "serial hours", "serial_hours",
		  "executions x seconds, one execution at a time" },
		{ ws->concurrent_minutes, "ideal concurrent minutes",
		  "concurrent_minutes",
		  "all pairs of a step at once, a pair's executions one after "
		  "another; no start-up or retry time" },
		{ ws->port_GBps, "GB/s per port", "port_GBps",
		  "NIC line rate / 8, decimal (1 GB = 10^9 bytes)" },
		{ ws->server_GBps, "GB/s per server", "server_GBps",
		  "per-port GB/s x rails" },
		{ ws->endpoint_TBps, "TB/s endpoint sum", "endpoint_TBps",
		  "per-server GB/s x servers (1 TB = 10^12 bytes)" },
	};

	memcpy(r, rows, sizeof(rows));
	return sizeof(rows) / sizeof(rows[0]);
}

#define WS_ROWS_MAX 16

static const char *const ws_caveats[] = {
	"The bandwidth sums are theoretical line rates of the endpoints: not "
	"the fabric's bisection bandwidth, not a training-throughput forecast, "
	"and not what the disjoint-pair schedule itself drives (round 1 keeps "
	"one rail of a pair busy at a time).",
	"Times exclude start-up, connection set-up and retests; rounds 2 and 3 "
	"come on top (see the schedule below).",
	"No row here is evidence: gd_report never satisfies an acceptance item "
	"from this worksheet, only from result documents.",
};

static void print_schedule(const struct gd_plan *plan, FILE *f)
{
	const struct gd_mem_ops *dev = gd_mem_device_backend(plan->cfg.gpu_mem);
	int r;

	fprintf(f, "\nSchedule (each round is its own phase):\n");
	for (r = 1; r <= GD_PLAN_ROUNDS; r++) {
		size_t i, steps = 0, execs = 0;

		if (r == GD_ROUND_LOCALITY && !plan->cfg.locality_round)
			continue;
		for (i = 0; i < plan->n_steps; i++)
			steps += plan->steps[i].round == r;
		for (i = 0; i < plan->n_execs; i++)
			execs += plan->execs[i].round == r;
		fprintf(f, "  round %d %-12s %zu steps, %zu executions\n", r,
			gd_plan_round_name(r), steps, execs);
	}
	if (plan->cfg.locality_round && dev)
		fprintf(f,
			"  round 4: the round-1 pairs on the NIC of GPU 0, both "
			"directions; each run\n  picks %s:near and %s:far from "
			"its GPU-to-NIC map for that NIC\n",
			dev->name, dev->name);
	for (r = 0; r < (int)plan->n_steps; r++) {
		const struct gd_plan_step *s = &plan->steps[r];

		if (s->round == GD_ROUND_COVERAGE && s->bye >= 0)
			fprintf(f,
				"  bye: %ld servers is odd; %s rests in "
				"round 1 step %d and is paired in step %d\n",
				plan->cfg.servers, plan->hosts[s->bye].name,
				s->step, s->step + 1);
	}
}

/* Where the seconds per execution come from, so the hours can be
 * checked against the commands. */
static void print_seconds_src(const struct gd_plan_cfg *c, FILE *f)
{
	char steps[96];

	snprintf(steps, sizeof(steps),
		 "%ld steps: %ld size(s) x %ld phase(s) x %ld round(s)",
		 c->run_steps, c->run_sizes, c->run_phases, c->tool_repeat);
	switch (c->seconds_src) {
	case GD_SECONDS_DURATION:
		fprintf(f,
			"(seconds per execution: -D %ld in every run x %s)\n",
			c->run_duration_s, steps);
		break;
	case GD_SECONDS_TOOL_D:
		fprintf(f, "(seconds per execution: --tool-args' -D x %s)\n",
			steps);
		break;
	case GD_SECONDS_ITERS:
		fprintf(f, "(seconds per execution: --seconds, a guess: "
			   "--tool-args give -n, so the iterations set a run's "
			   "length; --seconds-from measures one)\n");
		break;
	case GD_SECONDS_NO_D:
		fprintf(f,
			"(seconds per execution: --seconds, a guess: %s has "
			"no -D; --seconds-from measures one run)\n",
			c->tool);
		break;
	case GD_SECONDS_FROM:
		fprintf(f,
			"(seconds per execution: the time account of %s, "
			"%.0f%% of it in measured windows)\n",
			c->seconds_from, 100 * c->seconds_from_window_share);
		break;
	}
}

int gd_plan_print_worksheet(const struct gd_plan *plan, FILE *f)
{
	const struct gd_plan_cfg *c = &plan->cfg;
	struct ws_row rows[WS_ROWS_MAX];
	size_t i, n = ws_rows(&plan->ws, rows);
	char num[32], note[512];

	gd_plan_fmt_num(num, sizeof(num), c->nic_Gbps);
	fprintf(f,
		"gd_plan worksheet '%s': %ld servers x %ld GPUs, %ld rails, "
		"%s Gb/s per NIC, %ld repeats, ",
		c->name, c->servers, c->gpus_per_server, c->rails, num,
		c->repeats);
	gd_plan_fmt_num(num, sizeof(num), c->seconds);
	fprintf(f, "%s s per execution, --repeat=%ld in every run\n", num,
		c->tool_repeat);
	print_seconds_src(c, f);
	gd_plan_generated_note(plan, note, sizeof(note));
	if (note[0])
		fprintf(f, "(%s)\n", note);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		gd_plan_fmt_num(num, sizeof(num), rows[i].value);
		fprintf(f, "%10s  %-25s %s\n", num, rows[i].unit,
			rows[i].meaning);
	}
	fprintf(f, "\nCaveats:\n");
	for (i = 0; i < sizeof(ws_caveats) / sizeof(ws_caveats[0]); i++)
		fprintf(f, "  - %s\n", ws_caveats[i]);
	print_schedule(plan, f);
	return ferror(f) ? -EIO : 0;
}

static struct json_object *cfg_json(const struct gd_plan_cfg *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(c->name));
	json_object_object_add(o, "servers", json_object_new_int64(c->servers));
	json_object_object_add(o, "gpus_per_server",
			       json_object_new_int64(c->gpus_per_server));
	json_object_object_add(o, "rails", json_object_new_int64(c->rails));
	json_object_object_add(o, "nic_Gbps",
			       json_object_new_double(c->nic_Gbps));
	json_object_object_add(o, "repeats", json_object_new_int64(c->repeats));
	json_object_object_add(o, "repeat_per_run",
			       json_object_new_int64(c->tool_repeat));
	json_object_object_add(o, "run_limit_s",
			       json_object_new_int64(gd_plan_run_limit(c)));
	json_object_object_add(o, "seconds_per_execution",
			       json_object_new_double(c->seconds));
	json_object_object_add(o, "seconds_source",
			       json_object_new_string(gd_plan_seconds_src_name(
				       c->seconds_src)));
	json_object_object_add(
		o, "run_duration_s",
		c->run_duration_s ? json_object_new_int64(c->run_duration_s)
				  : NULL);
	json_object_object_add(o, "run_steps",
			       json_object_new_int64(c->run_steps));
	json_object_object_add(o, "seconds_from",
			       c->seconds_from[0]
				       ? json_object_new_string(c->seconds_from)
				       : NULL);
	json_object_object_add(o, "tool", json_object_new_string(c->tool));
	json_object_object_add(o, "gpu_mem",
			       json_object_new_string(c->gpu_mem));
	json_object_object_add(o, "locality_round",
			       json_object_new_boolean(c->locality_round));
	json_object_object_add(
		o, "loopback_host",
		c->loopback_host[0] ? json_object_new_string(c->loopback_host)
				    : NULL);
	return o;
}

static struct json_object *worksheet_json(const struct gd_worksheet *ws)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rows = json_object_new_array();
	struct ws_row r[WS_ROWS_MAX];
	size_t i, n = ws_rows(ws, r);

	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_new_object();

		json_object_object_add(row, "value",
				       json_object_new_double(r[i].value));
		json_object_object_add(row, "unit",
				       json_object_new_string(r[i].unit));
		json_object_object_add(row, "meaning",
				       json_object_new_string(r[i].meaning));
		json_object_array_add(rows, row);
		json_object_object_add(o, r[i].key,
				       json_object_new_double(r[i].value));
	}
	json_object_object_add(o, "rows", rows);
	json_object_object_add(o, "theoretical", json_object_new_boolean(1));
	return o;
}

static struct json_object *hosts_json(const struct gd_plan *plan)
{
	struct json_object *arr = json_object_new_array();
	long i, g;

	for (i = 0; i < plan->cfg.servers; i++) {
		const struct gd_plan_host *h = &plan->hosts[i];
		struct json_object *o = json_object_new_object();
		struct json_object *as = json_object_new_array();

		json_object_object_add(o, "name",
				       json_object_new_string(h->name));
		json_object_object_add(
			o, "rack",
			h->rack[0] ? json_object_new_string(h->rack) : NULL);
		for (g = 0; g < plan->cfg.gpus_per_server; g++) {
			struct json_object *a = json_object_new_object();

			json_object_object_add(a, "gpu",
					       json_object_new_int(g));
			json_object_object_add(
				a, "nic",
				json_object_new_string(h->assoc[g].nic));
			json_object_object_add(
				a, "rail",
				json_object_new_int(h->assoc[g].rail));
			json_object_array_add(as, a);
		}
		json_object_object_add(o, "associations", as);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *steps_json(const struct gd_plan *plan)
{
	struct json_object *arr = json_object_new_array();
	size_t i;
	int j;

	for (i = 0; i < plan->n_steps; i++) {
		const struct gd_plan_step *s = &plan->steps[i];
		struct json_object *o = json_object_new_object();
		struct json_object *pairs = json_object_new_array();

		json_object_object_add(o, "round",
				       json_object_new_int(s->round));
		json_object_object_add(
			o, "round_name",
			json_object_new_string(gd_plan_round_name(s->round)));
		json_object_object_add(o, "step", json_object_new_int(s->step));
		for (j = 0; j < s->n_pairs; j++) {
			struct json_object *p = json_object_new_array();

			json_object_array_add(
				p, json_object_new_string(
					   plan->hosts[s->pairs[j][0]].name));
			json_object_array_add(
				p, json_object_new_string(
					   plan->hosts[s->pairs[j][1]].name));
			json_object_array_add(pairs, p);
		}
		json_object_object_add(o, "pairs", pairs);
		json_object_object_add(
			o, "bye",
			s->bye >= 0 ? json_object_new_string(
					      plan->hosts[s->bye].name)
				    : NULL);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *exec_json(const struct gd_plan *plan,
				     const struct gd_plan_exec *e)
{
	struct json_object *o = json_object_new_object();
	const struct gd_plan_host *a = &plan->hosts[e->a],
				  *b = &plan->hosts[e->b];

	json_object_object_add(o, "id", json_object_new_string(e->id));
	json_object_object_add(o, "round", json_object_new_int(e->round));
	json_object_object_add(
		o, "round_name",
		json_object_new_string(gd_plan_round_name(e->round)));
	json_object_object_add(o, "step", json_object_new_int(e->step));
	json_object_object_add(o, "server_a", json_object_new_string(a->name));
	json_object_object_add(o, "server_b", json_object_new_string(b->name));
	json_object_object_add(o, "gpu", json_object_new_int(e->gpu));
	json_object_object_add(o, "rail", json_object_new_int(e->rail));
	json_object_object_add(o, "nic_a",
			       json_object_new_string(a->assoc[e->gpu].nic));
	json_object_object_add(o, "nic_b",
			       json_object_new_string(b->assoc[e->gpu].nic));
	json_object_object_add(
		o, "direction",
		json_object_new_string(e->b_to_a ? "b_to_a" : "a_to_b"));
	json_object_object_add(o, "repeat", json_object_new_int(e->repeat));
	json_object_object_add(o, "port", json_object_new_int(e->port));
	return o;
}

/* Everything but the executions, the document's last member. */
static struct json_object *plan_head_json(const struct gd_plan *plan)
{
	struct json_object *root = json_object_new_object();

	json_object_object_add(root, "schema",
			       json_object_new_string("gdperf.plan/1"));
	json_object_object_add(root, "tool", json_object_new_string("gd_plan"));
	json_object_object_add(root, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(root, "config", cfg_json(&plan->cfg));
	json_object_object_add(root, "worksheet", worksheet_json(&plan->ws));
	json_object_object_add(root, "hosts", hosts_json(plan));
	json_object_object_add(root, "steps", steps_json(plan));
	return root;
}

struct json_object *gd_plan_to_json(const struct gd_plan *plan)
{
	struct json_object *root = plan_head_json(plan);
	struct json_object *ex = json_object_new_array();
	size_t i;

	for (i = 0; i < plan->n_execs; i++)
		json_object_array_add(ex, exec_json(plan, &plan->execs[i]));
	json_object_object_add(root, "executions", ex);
	return root;
}

/* A string as json-c writes it with JSON_C_TO_STRING_NOSLASHESCAPE. */
static void put_json_str(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	putc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '\b':
			fputs("\\b", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		default:
			if (c < ' ')
				fprintf(f, "\\u00%c%c", hex[c >> 4],
					hex[c & 0xf]);
			else
				putc(c, f);
		}
	}
	putc('"', f);
}

static void put_json_int(FILE *f, long v)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	*--p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	fputs(p, f);
}

#define EXEC_KEY(k) ",\n      \"" k "\":"

/* One execution, json-c's pretty layout at the executions array's depth:
 * what exec_json would print there, without building the object. */
static void put_exec(FILE *f, const struct gd_plan *plan,
		     const struct gd_plan_exec *e)
{
	const struct gd_plan_host *a = &plan->hosts[e->a],
				  *b = &plan->hosts[e->b];

	fputs("    {\n      \"id\":", f);
	put_json_str(f, e->id);
	fputs(EXEC_KEY("round"), f);
	put_json_int(f, e->round);
	fputs(EXEC_KEY("round_name"), f);
	put_json_str(f, gd_plan_round_name(e->round));
	fputs(EXEC_KEY("step"), f);
	put_json_int(f, e->step);
	fputs(EXEC_KEY("server_a"), f);
	put_json_str(f, a->name);
	fputs(EXEC_KEY("server_b"), f);
	put_json_str(f, b->name);
	fputs(EXEC_KEY("gpu"), f);
	put_json_int(f, e->gpu);
	fputs(EXEC_KEY("rail"), f);
	put_json_int(f, e->rail);
	fputs(EXEC_KEY("nic_a"), f);
	put_json_str(f, a->assoc[e->gpu].nic);
	fputs(EXEC_KEY("nic_b"), f);
	put_json_str(f, b->assoc[e->gpu].nic);
	fputs(EXEC_KEY("direction"), f);
	put_json_str(f, e->b_to_a ? "b_to_a" : "a_to_b");
	fputs(EXEC_KEY("repeat"), f);
	put_json_int(f, e->repeat);
	fputs(EXEC_KEY("port"), f);
	put_json_int(f, e->port);
	fputs("\n    }", f);
}

/*
 * The document json-c would write for gd_plan_to_json(), streamed: json-c
 * prints the head (hosts and steps included), the executions follow one
 * by one. A tree of every execution is most of the memory and time of a
 * 100,000-GPU plan.
 */
static int put_plan_json(FILE *f, const struct gd_plan *plan)
{
	struct json_object *head = plan_head_json(plan);
	const char *s = json_object_to_json_string_ext(
		head, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = s ? strlen(s) : 0, i;

	/* the head ends "\n}"; executions is its last member */
	if (len < 2 || strcmp(s + len - 2, "\n}")) {
		json_object_put(head);
		return -ENOMEM;
	}
	fwrite(s, 1, len - 2, f);
	json_object_put(head);
	fputs(",\n  \"executions\":[\n", f);
	for (i = 0; i < plan->n_execs; i++) {
		if (i)
			fputs(",\n", f);
		put_exec(f, plan, &plan->execs[i]);
	}
	fputs(plan->n_execs ? "\n  ]\n}" : "  ]\n}", f);
	return 0;
}

int gd_plan_write_json(const struct gd_plan *plan, const char *path)
{
	FILE *f = fopen(path, "w");
	int ret, err;

	if (!f)
		return gd_err(-errno, "--json: cannot write '%s': %s", path,
			      strerror(errno));
	ret = put_plan_json(f, plan);
	err = ferror(f);
	if (fclose(f) || err || ret)
		return gd_err(ret ? ret : -EIO, "--json: error writing '%s'%s",
			      path,
			      ret ? ": out of memory" : "; check free space");
	return 0;
}

int gd_plan_write_csv(const struct gd_plan *plan, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t i;
	int ret;

	if (!f)
		return gd_err(-errno, "--csv: cannot write '%s': %s", path,
			      strerror(errno));
	fprintf(f, "id,round,round_name,step,server_a,server_b,gpu,rail,nic_a,"
		   "nic_b,direction,repeat,port\n");
	for (i = 0; i < plan->n_execs; i++) {
		const struct gd_plan_exec *e = &plan->execs[i];

		fprintf(f, "%s,%d,%s,%d,%s,%s,%d,%d,%s,%s,%s,%d,%d\n", e->id,
			e->round, gd_plan_round_name(e->round), e->step,
			plan->hosts[e->a].name, plan->hosts[e->b].name, e->gpu,
			e->rail, plan->hosts[e->a].assoc[e->gpu].nic,
			plan->hosts[e->b].assoc[e->gpu].nic,
			e->b_to_a ? "b_to_a" : "a_to_b", e->repeat, e->port);
	}
	ret = ferror(f);
	if (fclose(f) || ret)
		return gd_err(-EIO, "--csv: error writing '%s'", path);
	return 0;
}
