/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The rules between options (gd_opt_rules[], beside the option table)
 * applied, and what the options alone show a run cannot do: a phase this
 * side has no memory for, a gate over no size of the sweep.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "cli/options_priv.h"
#include "engine/placement.h"
#include "report/report.h"
#include "util/assess.h"
#include "util/error.h"

/* The table entry of long name @name (the rules name them exactly). */
static const struct gd_opt_def *gd_rule_opt(const char *name, size_t *idx)
{
	for (*idx = 0; *idx < GD_NOPTS; (*idx)++)
		if (!strcmp(gd_opt_table[*idx].long_name, name))
			return &gd_opt_table[*idx];
	return NULL;
}

static bool gd_rule_given(const struct gd_opts *o, size_t idx)
{
	return o->given_mask[idx / 64] & (1ULL << (idx % 64));
}

/* Is the option named @name on: given, or (a flag or a string) set, by
 * this entry or another spelling of its field (--source_ip)? Set counts
 * for the server, whose adopted fields were not given on its command line. */
static bool gd_opt_on(const struct gd_opts *o, const char *name)
{
	size_t idx;
	const struct gd_opt_def *d = gd_rule_opt(name, &idx);
	const char *field;

	if (!d)
		return false;
	field = (const char *)o + d->offset;
	for (size_t i = 0; i < GD_NOPTS; i++)
		if (gd_opt_table[i].offset == d->offset && gd_rule_given(o, i))
			return true;
	if (d->type == GD_T_FLAG)
		return *(const bool *)field;
	if (d->type == GD_T_STR)
		return *(char *const *)field != NULL;
	return false;
}

int gd_opts_rules_check(const struct gd_test *test, const struct gd_opts *o)
{
	for (size_t i = 0; i < gd_opt_rule_count; i++) {
		const struct gd_opt_rule *r = &gd_opt_rules[i];
		bool a = gd_opt_on(o, r->a), b = gd_opt_on(o, r->b);

		if (!a || b != (r->kind == GD_RULE_EXCLUDES))
			continue;
		if (r->kind != GD_RULE_NEEDS_WARN)
			return gd_err(-EINVAL, "%s", r->msg);
		gd_report_notice("%s: warning: %s", test->name, r->msg);
	}
	return 0;
}

/* Why this side has no memory at @place, in the words the run's notice
 * used (engine/session.c, where a server's own absence is found). */
static void gd_place_absent(const struct gd_opts *o, unsigned int place,
			    char *buf, size_t len)
{
	if (!o->num_mem)
		snprintf(
			buf, len,
			"this side has no device memory configured (no --mem)");
	else
		snprintf(
			buf, len,
			"this side has no D%u: its --mem lists %u device memor%s",
			place, o->num_mem, o->num_mem == 1 ? "y" : "ies");
}

/*
 * A --phases entry whose client place (with --loopback, either place: both
 * halves are this side) names a device memory this side's --mem lacks
 * cannot run, whatever the peer: refused before anything opens. A server's
 * own lack is known only in the handshake (engine/sweep.c says it there).
 */
int gd_opts_phases_here_check(const struct gd_opts *o)
{
	const char *p = o->phases;
	char why[96], name[12];

	if (!p || !(o->server_host || o->loopback))
		return 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		unsigned int c, v, miss;

		if (gd_placement_parse(p, n, &c, &v))
			return gd_err_code();
		miss = c > o->num_mem		       ? c
		       : o->loopback && v > o->num_mem ? v
						       : 0;
		if (miss) {
			gd_place_absent(o, miss, why, sizeof(why));
			gd_placement_name(c, v,
					  gd_placement_numbered(o->phases),
					  name, sizeof(name));
			return gd_err(
				-EINVAL,
				"--phases: phase %s cannot run: %s%s; add --mem here, or choose --phases that match",
				name,
				o->loopback
					? "--loopback runs both halves here and "
					: "",
				why);
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/*
 * --min-bw and --max-lat judge the sizes from --gate-from up, and so does
 * --expect-ratio when --gate-from is given: a gate whose sizes the sweep
 * never reaches would judge nothing, found only at the end of the run.
 */
int gd_opts_gate_sizes_check(const struct gd_opts *o)
{
	bool abs_gate = o->min_bw_MiBps > 0 || o->max_lat_us > 0;
	size_t from_idx;
	bool from_given = gd_rule_opt("gate-from", &from_idx) &&
			  gd_rule_given(o, from_idx);
	bool ratio_gate = o->expect_ratio > 0 && from_given;
	uint64_t top = gd_opts_max_size(o);
	char from[32], largest[32];

	if (!(abs_gate || ratio_gate) || !(o->server_host || o->loopback) ||
	    top >= o->gate_from_bytes)
		return 0;
	gd_assess_bytes_str((double)o->gate_from_bytes, from, sizeof(from));
	gd_assess_bytes_str((double)top, largest, sizeof(largest));
	return gd_err(
		-EINVAL,
		"%s judges sizes from --gate-from=%s%s up, and the largest size of this sweep is %s: the gate would judge no size; lower --gate-from, or add sizes from %s up",
		abs_gate ? (o->min_bw_MiBps > 0 ? "--min-bw" : "--max-lat")
			 : "--expect-ratio",
		from, from_given ? "" : " (its default)", largest, from);
}
