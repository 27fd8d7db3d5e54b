/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Run report: each call updates the perftest-style text table and the JSON
 * document together, so the two can never disagree. The JSON file is written
 * once, atomically (temporary file, fsync, rename), when the run finishes.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "util/error.h"
#include "report/compare.h"
#include "report/report.h"
#include "report/progress.h"
#include "report/report_priv.h"
#include "util/infer.h"

#define GD_REPORT_SCHEMA "gdperf.run/4"
#define GD_REPORT_LABEL_W 15
#define GD_LAT_COLUMNS                                                           \
	" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    " \
	"t_avg[usec]    t_stdev[usec]   99% percentile[usec]   "                 \
	"99.9% percentile[usec] "

static const char *gd_str0(const char *s)
{
	return s ? s : "";
}

/* json-c 0.13 lacks new_uint64; counts and sizes stay far below 2^63. */
static struct json_object *gd_json_u64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static const char *gd_bw_unit_text(const struct gd_report *rep)
{
	return rep->cfg.report_gbits ? "Gb/sec" : "MiB/sec";
}

static void gd_report_started_at(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static struct json_object *gd_report_units(const struct gd_report *rep)
{
	struct json_object *u = json_object_new_object();

	json_object_object_add(u, "size", json_object_new_string("bytes"));
	json_object_object_add(u, "bw",
			       json_object_new_string(rep->cfg.report_gbits
							      ? "Gb/s"
							      : "MiB/s"));
	json_object_object_add(u, "msg_rate", json_object_new_string("Mpps"));
	json_object_object_add(u, "lat", json_object_new_string("usec"));
	return u;
}

static void gd_report_init_root(struct gd_report *rep, int argc, char **argv)
{
	struct json_object *root = rep->root, *cmd;
	char host[HOST_NAME_MAX + 1] = "";
	char when[32];
	int i;

	json_object_object_add(root, "schema",
			       json_object_new_string(GD_REPORT_SCHEMA));
	json_object_object_add(root, "tool",
			       json_object_new_string(gd_str0(rep->cfg.tool)));
	json_object_object_add(
		root, "version",
		json_object_new_string(gd_str0(rep->cfg.version)));
	cmd = json_object_new_array();
	for (i = 0; i < argc && argv && argv[i]; i++)
		json_object_array_add(cmd, json_object_new_string(argv[i]));
	json_object_object_add(root, "command_line", cmd);
	gd_report_started_at(when, sizeof(when));
	json_object_object_add(root, "started_at",
			       json_object_new_string(when));
	gethostname(host, sizeof(host) - 1);
	json_object_object_add(root, "hostname", json_object_new_string(host));
	json_object_object_add(root, "header", json_object_get(rep->header));
	json_object_object_add(root, "units", gd_report_units(rep));
	json_object_object_add(root, "phases", json_object_get(rep->phases));
}

struct gd_report *gd_report_new(const struct gd_report_cfg *cfg, int argc,
				char **argv)
{
	struct gd_report *rep;

	if (!cfg) {
		gd_err(-EINVAL,
		       "internal: report created without a configuration");
		return NULL;
	}
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		goto err_nomem;
	rep->cfg = *cfg;
	rep->text = cfg->text;
	/* JSON on stdout must stay parseable: the table moves to stderr. */
	if (cfg->json_path && !strcmp(cfg->json_path, "-") &&
	    rep->text == stdout)
		rep->text = stderr;
	if (cfg->only != GD_OUTPUT_ALL) {
		rep->only_out = rep->text;
		rep->text = NULL;
	}
	rep->root = json_object_new_object();
	rep->header = json_object_new_object();
	rep->phases = json_object_new_array();
	if (!rep->root || !rep->header || !rep->phases)
		goto err_free;
	gd_report_init_root(rep, argc, argv);
	return rep;

err_free:
	gd_report_free(rep);
err_nomem:
	gd_err(-ENOMEM,
	       "out of memory creating the run report; check the process memory limit (ulimit -v)");
	return NULL;
}

void gd_report_free(struct gd_report *rep)
{
	size_t i;

	if (!rep)
		return;
	for (i = 0; i < rep->n_hdr; i++) {
		free(rep->hdr[i].label);
		free(rep->hdr[i].value);
	}
	free(rep->hdr);
	json_object_put(rep->phases);
	json_object_put(rep->header);
	json_object_put(rep->root);
	free(rep);
}

static void gd_report_hdr_text(struct gd_report *rep, const char *label,
			       const char *value)
{
	struct gd_report_hdr_line *n;
	size_t cap;

	if (!rep->text || !label)
		return;
	if (rep->n_hdr == rep->cap_hdr) {
		cap = rep->cap_hdr ? 2 * rep->cap_hdr : 16;
		n = realloc(rep->hdr, cap * sizeof(*n));
		if (!n)
			return;
		rep->hdr = n;
		rep->cap_hdr = cap;
	}
	n = &rep->hdr[rep->n_hdr];
	n->label = strdup(label);
	n->value = strdup(gd_str0(value));
	if (!n->label || !n->value) {
		free(n->label);
		free(n->value);
		return;
	}
	rep->n_hdr++;
}

void gd_report_header_str(struct gd_report *rep, const char *key,
			  const char *label, const char *value)
{
	if (!rep)
		return;
	if (key)
		json_object_object_add(rep->header, key,
				       value ? json_object_new_string(value)
					     : NULL);
	gd_report_hdr_text(rep, label, value);
}

void gd_report_header_int(struct gd_report *rep, const char *key,
			  const char *label, long long value)
{
	char buf[32];

	if (!rep)
		return;
	if (key)
		json_object_object_add(rep->header, key,
				       json_object_new_int64(value));
	snprintf(buf, sizeof(buf), "%lld", value);
	gd_report_hdr_text(rep, label, buf);
}

static const char *gd_hdr_value(const struct gd_report *rep, const char *label)
{
	for (size_t i = 0; i < rep->n_hdr; i++)
		if (!strcmp(rep->hdr[i].label, label))
			return rep->hdr[i].value;
	return NULL;
}

/* --brief: what ran where, and the memory's route, in two lines. */
static void gd_report_brief_header(struct gd_report *rep)
{
	const char *v;
	size_t used;
	char line[512];

	v = gd_hdr_value(rep, "Peer");
	fprintf(rep->text, " %s on %s port %s (%s)%s%s, phases %s\n",
		gd_hdr_value(rep, "Test") ?: rep->cfg.tool,
		gd_hdr_value(rep, "Device") ?: "?",
		gd_hdr_value(rep, "Port") ?: "?",
		gd_hdr_value(rep, "Link type") ?: "?", v && *v ? ", peer " : "",
		v && *v ? v : "", gd_hdr_value(rep, "Phases") ?: "HH");
	used = (size_t)snprintf(line, sizeof(line), " Device memory %s",
				gd_hdr_value(rep, "Device memory") ?: "none");
	for (size_t i = 0; i < rep->n_hdr && used < sizeof(line); i++)
		if (!strncmp(rep->hdr[i].label, "Route", 5))
			used += (size_t)snprintf(
				line + used, sizeof(line) - used, "; %s %s",
				rep->hdr[i].label, rep->hdr[i].value);
	fprintf(rep->text, "%s\n", line);
}

void gd_report_header_done(struct gd_report *rep)
{
	size_t i;

	if (!rep || !rep->text)
		return;
	gd_progress_clear();
	if (rep->cfg.brief) {
		gd_report_brief_header(rep);
		return;
	}
	fprintf(rep->text, "%s\n", GD_REPORT_RULE);
	for (i = 0; i < rep->n_hdr; i++)
		fprintf(rep->text, " %-*s: %s\n", GD_REPORT_LABEL_W,
			rep->hdr[i].label, rep->hdr[i].value);
	fprintf(rep->text, "%s\n", GD_REPORT_RULE);
}

void gd_report_set_section(struct gd_report *rep, const char *key,
			   struct json_object *val)
{
	if (!rep || !key) {
		json_object_put(val);
		return;
	}
	json_object_object_add(rep->root, key, val);
}

void gd_report_section_text(struct gd_report *rep, const char *key,
			    struct json_object *val, const char *text)
{
	gd_report_set_section(rep, key, val);
	if (!rep->text || !text || rep->cfg.brief)
		return;
	/* -W and -H lines come during the sweep, under the progress line */
	gd_progress_clear();
	fprintf(rep->text, "%s\n", text);
}

struct json_object *gd_report_root(struct gd_report *rep)
{
	return rep ? rep->root : NULL;
}

void gd_report_columns(struct gd_report *rep)
{
	const char *u = gd_bw_unit_text(rep);
	bool rep_cols = rep->cfg.repeats > 1;

	if (rep->cfg.measure == GD_MEASURE_LAT)
		fprintf(rep->text, "%s%s\n", GD_LAT_COLUMNS,
			rep_cols ? "CV[%]    t_typical min..max[usec]" : "");
	else if (rep_cols)
		fprintf(rep->text,
			" #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]   CV[%%]    BW average min..max[%s]\n",
			u, u, u);
	else
		fprintf(rep->text,
			" #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n",
			u, u);
	if (rep_cols && rep->cfg.repeats_vary)
		fprintf(rep->text,
			" (each row: the median of its rounds, at least %u, more where --precision asked; CV: their coefficient of variation, ! above %.0f%%)\n",
			rep->cfg.repeats, GD_SPREAD_HIGH_PCT);
	else if (rep_cols)
		fprintf(rep->text,
			" (each row: the median of %u repeats; CV: their coefficient of variation, ! above %.0f%%)\n",
			rep->cfg.repeats, GD_SPREAD_HIGH_PCT);
}

void gd_report_next_spread(struct gd_report *rep, const struct gd_spread *sp)
{
	if (!rep || !sp)
		return;
	rep->spread = *sp;
	rep->spread_pending = true;
}

/* "  4.1%    1020.11..1101.95": the spread columns, then the line's end. */
static void gd_report_spread_text(struct gd_report *rep, double scale)
{
	const struct gd_spread *sp = &rep->spread;
	char cv[24], range[64];

	if (!rep->spread_pending) {
		fputc('\n', rep->text);
		return;
	}
	snprintf(cv, sizeof(cv), "%.1f%s", sp->cv_pct,
		 sp->cv_pct > GD_SPREAD_HIGH_PCT ? " !" : "");
	snprintf(range, sizeof(range), "%.2f..%.2f", sp->min * scale,
		 sp->max * scale);
	fprintf(rep->text, " %-8s %s\n", cv, range);
	rep->spread_pending = false;
}

int gd_report_phase_begin(struct gd_report *rep, const char *name,
			  const char *placement, const char *direction,
			  struct json_object *memory)
{
	struct json_object *ph;

	if (!rep) {
		json_object_put(memory);
		return -EINVAL;
	}
	ph = json_object_new_object();
	if (!ph) {
		json_object_put(memory);
		return gd_err(
			-ENOMEM,
			"out of memory adding phase %s to the report; check the process memory limit",
			gd_str0(name));
	}
	json_object_object_add(ph, "name",
			       json_object_new_string(gd_str0(name)));
	json_object_object_add(ph, "placement",
			       json_object_new_string(gd_str0(placement)));
	json_object_object_add(ph, "direction",
			       json_object_new_string(gd_str0(direction)));
	json_object_object_add(ph, "status", json_object_new_string("ok"));
	json_object_object_add(ph, "error", NULL);
	if (memory)
		json_object_object_add(ph, "memory", memory);
	json_object_object_add(ph, "results", json_object_new_array());
	json_object_array_add(rep->phases, ph);

	if (rep->text && !rep->cfg.live) {
		if (rep->table_open)
			fprintf(rep->text, "%s\n", GD_REPORT_RULE);
		if (name && *name) {
			if (direction && *direction)
				fprintf(rep->text, " Phase %s (%s)\n", name,
					direction);
			else
				fprintf(rep->text, " Phase %s\n", name);
		}
		gd_report_columns(rep);
		rep->table_open = true;
	}
	return (int)json_object_array_length(rep->phases) - 1;
}

static struct json_object *gd_report_phase(struct gd_report *rep, int phase)
{
	if (!rep || phase < 0 ||
	    (size_t)phase >= json_object_array_length(rep->phases))
		return NULL;
	return json_object_array_get_idx(rep->phases, phase);
}

static void gd_report_add_result(struct json_object *ph,
				 struct json_object *row)
{
	struct json_object *results;

	if (!json_object_object_get_ex(ph, "results", &results)) {
		results = json_object_new_array();
		json_object_object_add(ph, "results", results);
	}
	json_object_array_add(results, row);
}

void gd_report_bw_text(struct gd_report *rep, const struct gd_bw_summary *bw)
{
	double peak = bw->peak_MiBps, avg = bw->avg_MiBps;
	int unit_len = (int)strlen(gd_bw_unit_text(rep));

	if (rep->cfg.report_gbits) {
		peak = gd_MiBps_to_Gbps(peak);
		avg = gd_MiBps_to_Gbps(avg);
	}
	if (rep->only_out) {
		if (rep->cfg.only == GD_OUTPUT_BANDWIDTH)
			fprintf(rep->only_out, "%.2f\n", avg);
		else if (rep->cfg.only == GD_OUTPUT_MESSAGE_RATE)
			fprintf(rep->only_out, "%.6f\n", bw->msg_rate_Mpps);
		return;
	}
	if (gd_report_rows_quiet(rep))
		return;
	/* Each value starts under its column name; the width of a column is
	 * its name plus the gap to the next one, minus one separating blank. */
	if (rep->cfg.repeats <= 1) {
		fprintf(rep->text,
			" %-10" PRIu64 " %-14" PRIu64 " %-*.2f %-*.2f %.6f\n",
			bw->size_bytes, bw->iters, 12 + unit_len, peak,
			14 + unit_len, avg, bw->msg_rate_Mpps);
		return;
	}
	fprintf(rep->text,
		" %-10" PRIu64 " %-14" PRIu64 " %-*.2f %-*.2f %-15.6f",
		bw->size_bytes, bw->iters, 12 + unit_len, peak, 14 + unit_len,
		avg, bw->msg_rate_Mpps);
	gd_report_spread_text(rep, rep->cfg.report_gbits ? gd_MiBps_to_Gbps(1.0)
							 : 1.0);
}

struct json_object *gd_report_bw_row(struct gd_report *rep, int phase,
				     const struct gd_bw_summary *bw)
{
	struct json_object *ph = gd_report_phase(rep, phase), *row;

	if (!ph || !bw)
		return NULL;
	row = gd_bw_summary_json(bw);
	gd_report_add_result(ph, row);
	gd_report_bw_text(rep, bw);
	return row;
}

void gd_report_lat_text(struct gd_report *rep, const struct gd_lat_summary *lat,
			uint64_t size_bytes, uint64_t iters)
{
	if (rep->only_out) {
		if (rep->cfg.only == GD_OUTPUT_LATENCY)
			fprintf(rep->only_out, "%.2f\n", lat->typical_us);
		return;
	}
	if (gd_report_rows_quiet(rep))
		return;
	if (rep->cfg.repeats <= 1) {
		fprintf(rep->text,
			" %-6" PRIu64 " %-14" PRIu64
			" %-14.2f %-12.2f %-18.2f %-14.2f %-15.2f %-22.2f %.2f\n",
			size_bytes, iters, lat->min_us, lat->max_us,
			lat->typical_us, lat->avg_us, lat->stdev_us,
			lat->p99_us, lat->p999_us);
		return;
	}
	fprintf(rep->text,
		" %-6" PRIu64 " %-14" PRIu64
		" %-14.2f %-12.2f %-18.2f %-14.2f %-15.2f %-22.2f %-22.2f",
		size_bytes, iters, lat->min_us, lat->max_us, lat->typical_us,
		lat->avg_us, lat->stdev_us, lat->p99_us, lat->p999_us);
	gd_report_spread_text(rep, 1.0);
}

struct json_object *gd_report_lat_row(struct gd_report *rep, int phase,
				      const struct gd_lat_summary *lat,
				      uint64_t size_bytes, uint64_t iters)
{
	struct json_object *ph = gd_report_phase(rep, phase), *row;

	if (!ph || !lat)
		return NULL;
	row = gd_lat_summary_json(lat);
	json_object_object_add(row, "size_bytes", gd_json_u64(size_bytes));
	json_object_object_add(row, "iterations", gd_json_u64(iters));
	gd_report_add_result(ph, row);
	gd_report_lat_text(rep, lat, size_bytes, iters);
	return row;
}

void gd_report_phase_set(struct gd_report *rep, int phase, const char *key,
			 struct json_object *val)
{
	struct json_object *ph = gd_report_phase(rep, phase);

	if (!ph || !key) {
		json_object_put(val);
		return;
	}
	json_object_object_add(ph, key, val);
}

static double gd_jdouble(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v)
						     : 0.0;
}

void gd_report_bidir_line(struct gd_report *rep, uint64_t size_bytes,
			  double c2s_MiBps, double s2c_MiBps, double sum_MiBps)
{
	fprintf(rep->text,
		" bidirectional %" PRIu64
		" B: client->server %.2f + server->client %.2f = sum %.2f MiB/s\n",
		size_bytes, c2s_MiBps, s2c_MiBps, sum_MiBps);
}

/* Formatted from the row just added, so the line and the document carry the
 * same figures; a missing server half reads as 0. */
static void gd_report_bidir_text(struct gd_report *rep, struct json_object *row)
{
	struct json_object *dirs = NULL, *c2s = NULL, *s2c = NULL, *size = NULL;

	if (gd_report_rows_quiet(rep))
		return;
	json_object_object_get_ex(row, "directions", &dirs);
	json_object_object_get_ex(dirs, "client_to_server", &c2s);
	json_object_object_get_ex(dirs, "server_to_client", &s2c);
	json_object_object_get_ex(c2s, "size_bytes", &size);
	gd_report_bidir_line(rep, (uint64_t)json_object_get_int64(size),
			     gd_jdouble(c2s, "bw_avg_MiBps"),
			     gd_jdouble(s2c, "bw_avg_MiBps"),
			     gd_jdouble(row, "bw_avg_MiBps"));
}

struct json_object *gd_report_bidir_row(struct gd_report *rep, int phase,
					const struct gd_bw_summary *c2s,
					const struct gd_bw_summary *s2c)
{
	struct gd_bw_summary sum;
	struct json_object *row, *dirs;

	if (!c2s)
		return NULL;
	sum = *c2s;
	if (s2c) {
		sum.iters += s2c->iters;
		sum.peak_MiBps += s2c->peak_MiBps;
		sum.avg_MiBps += s2c->avg_MiBps;
		sum.msg_rate_Mpps += s2c->msg_rate_Mpps;
	}
	row = gd_report_bw_row(rep, phase, &sum);
	if (!row)
		return NULL;
	dirs = json_object_new_object();
	json_object_object_add(dirs, "client_to_server",
			       gd_bw_summary_json(c2s));
	json_object_object_add(dirs, "server_to_client",
			       s2c ? gd_bw_summary_json(s2c) : NULL);
	json_object_object_add(row, "sum_of_directions",
			       json_object_new_boolean(1));
	json_object_object_add(row, "directions", dirs);
	gd_report_bidir_text(rep, row);
	return row;
}

void gd_report_cpu_util(struct gd_report *rep, uint64_t size_bytes, double pct)
{
	if (rep && rep->text && (!rep->cfg.live || rep->in_live_row))
		fprintf(rep->text,
			" CPU utilisation during %" PRIu64 " B: %.1f%%\n",
			size_bytes, pct);
}

void gd_report_comparison(struct gd_report *rep, struct json_object *cmp,
			  struct json_object *verd)
{
	if (!rep) {
		json_object_put(cmp);
		json_object_put(verd);
		return;
	}
	gd_report_set_section(rep, "comparison", cmp);
	gd_report_set_section(rep, "verdicts", verd);
	if (rep->text && rep->cfg.brief)
		gd_compare_print_brief(rep->text, rep->root, cmp, verd);
	else if (rep->text)
		gd_compare_print(rep->text, rep->root, cmp, verd);
}

struct json_object *gd_report_error_obj(int err, const char *msg)
{
	struct json_object *e = json_object_new_object();

	/* Always -errno in JSON, whichever sign the caller passed. */
	if (err > 0)
		err = -err;
	json_object_object_add(e, "code", json_object_new_int(err));
	json_object_object_add(e, "errno_name",
			       json_object_new_string(gd_errno_name(err)));
	json_object_object_add(e, "message",
			       json_object_new_string(gd_str0(msg)));
	return e;
}

void gd_report_phase_fail(struct gd_report *rep, int phase, int err,
			  const char *msg, const char *stage)
{
	struct json_object *ph = gd_report_phase(rep, phase), *e;
	const char *name = "";
	struct json_object *n;

	if (!ph)
		return;
	json_object_object_add(ph, "status", json_object_new_string("failed"));
	e = gd_report_error_obj(err, msg);
	if (stage)
		json_object_object_add(e, "stage",
				       json_object_new_string(stage));
	json_object_object_add(ph, "error", e);
	if (json_object_object_get_ex(ph, "name", &n))
		name = json_object_get_string(n);
	if (rep->text)
		fprintf(rep->text, " Phase %s failed (%s): %s\n", name,
			gd_errno_name(err), gd_str0(msg));
}

void gd_report_set_error(struct gd_report *rep, int err, const char *msg)
{
	if (!rep)
		return;
	json_object_object_add(rep->root, "error",
			       gd_report_error_obj(err, msg));
	rep->error_set = true;
}
