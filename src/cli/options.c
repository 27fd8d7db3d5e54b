/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The options' defaults, strict number parsing into the fields, which test
 * an option applies to, and the cross-option checks. The table itself is in
 * options_table.c, the command line is read in options_parse.c, --help in
 * options_help.c, what travels to the server in options_wire.c.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "mem/mem.h"
#include "engine/limits.h"
#include "cli/options.h"
#include "cli/options_priv.h"
#include "engine/numa.h"
#include "engine/placement.h"
#include "util/version.h"
#include "util/assess.h"
#include "report/progress.h"
#include "report/report.h"

static int gd_parse_i64(const char *text, const char *what, int64_t min,
			int64_t max, int64_t *out)
{
	uint64_t v;
	int ret = gd_parse_u64(text, what, false, (uint64_t)min, (uint64_t)max,
			       &v);

	if (ret)
		return ret;
	*out = (int64_t)v;
	return 0;
}

static int gd_parse_dbl(const char *text, const char *what, double min,
			double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || *end || errno)
		return gd_err(-EINVAL, "%s: '%s' is not a number", what, text);
	if (!(v >= min && v <= max))
		return gd_err(-ERANGE, "%s: %g is out of range %g..%g", what, v,
			      min, max);
	*out = v;
	return 0;
}

const char *const gd_conn_names[] = { "RC", "UC", "UD" };
const char *const gd_atomic_names[] = { "FETCH_AND_ADD", "CMP_AND_SWAP" };
static const char *const gd_output_names[] = { "", "bandwidth", "message_rate",
					       "latency" };

static int gd_parse_enum(const char *text, const char *what,
			 const char *const *names, int count, int *out)
{
	for (int i = 0; i < count; i++) {
		if (names[i][0] && !strcmp(text, names[i])) {
			*out = i;
			return 0;
		}
	}
	return gd_err(-EINVAL, "%s: '%s' is not one of the accepted values%s",
		      what, text,
		      names == gd_conn_names ? " RC, UC, UD"
		      : names == gd_atomic_names
			      ? " FETCH_AND_ADD, CMP_AND_SWAP"
			      : " bandwidth, message_rate, latency");
}

/* --help alone, or --help=all: the one word it takes. */
static int gd_help_store(struct gd_opts *o, const char *arg)
{
	if (arg && strcmp(arg, "all"))
		return gd_err(
			-EINVAL,
			"--help=%s: the only value is 'all' (--help=all also lists the options that have no effect and perftest's options gdperf refuses); or give --help alone",
			arg);
	o->help = true;
	o->help_all = arg != NULL;
	return 0;
}

int gd_opt_store(const struct gd_opt_def *d, struct gd_opts *o, const char *arg)
{
	char *base = (char *)o + d->offset;
	char what[64];
	int ival = 0, ret = 0;

	snprintf(what, sizeof(what), "--%s", d->long_name);
	switch (d->type) {
	case GD_T_FLAG:
		*(bool *)base = true;
		break;
	case GD_T_U64:
	case GD_T_SIZE:
		ret = gd_parse_u64(arg, what, d->type == GD_T_SIZE,
				   (uint64_t)d->min, (uint64_t)d->max,
				   (uint64_t *)base);
		break;
	case GD_T_I64:
		ret = gd_parse_i64(arg, what, d->min, d->max, (int64_t *)base);
		break;
	case GD_T_DBL:
		ret = gd_parse_dbl(arg, what, (double)d->min, (double)d->max,
				   (double *)base);
		break;
	case GD_T_STR:
	case GD_T_JSONOPT:
		free(*(char **)base);
		*(char **)base = strdup(arg ? arg : "-");
		if (d->type == GD_T_JSONOPT)
			o->out_json = true;
		break;
	case GD_T_CONN:
		ret = gd_parse_enum(arg, what, gd_conn_names, 3, &ival);
		if (!ret)
			*(enum gd_conn *)base = (enum gd_conn)ival;
		break;
	case GD_T_ATOMIC:
		ret = gd_parse_enum(arg, what, gd_atomic_names, 2, &ival);
		if (!ret)
			*(enum gd_atomic_op *)base = (enum gd_atomic_op)ival;
		break;
	case GD_T_OUTPUT:
		ret = gd_parse_enum(arg, what, gd_output_names, 4, &ival);
		if (!ret)
			*(enum gd_output_only *)base =
				(enum gd_output_only)ival;
		break;
	case GD_T_HELP:
		ret = gd_help_store(o, arg);
		break;
	case GD_T_LABEL:
		if (!strchr(arg, '=') || arg[0] == '=')
			return gd_err(-EINVAL, "--label: '%s' is not KEY=VALUE",
				      arg);
		if (o->num_labels >= GD_MAX_LABELS)
			return gd_err(-E2BIG, "--label: at most %d labels",
				      GD_MAX_LABELS);
		o->labels[o->num_labels++] = strdup(arg);
		break;
	}
	return ret;
}

void gd_opts_defaults(const struct gd_test *test, struct gd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ib_port = 1;
	o->gid_index = -1;
	o->tcp_port = 18515;
	o->oob_timeout_ms = 10000;
	o->handshake_timeout_s = 5;
	o->max_memory_bytes = GD_LIMIT_MEM_DEFAULT;
	o->max_time_s = GD_LIMIT_TIME_DEFAULT;
	o->max_qps = GD_LIMIT_QPS_DEFAULT;
	o->max_memories = GD_LIMIT_MEMORIES_DEFAULT;
	o->conn = GD_CONN_RC;
	o->size_bytes = test->default_size_bytes;
	o->min_size_bytes = GD_SWEEP_MIN_BYTES;
	o->max_size_bytes = GD_SWEEP_MAX_BYTES;
	o->iters = test->default_iters;
	o->num_qps = 1;
	o->tx_depth = test->default_tx_depth;
	o->rx_depth = 512;
	o->cq_mod = 100;
	o->post_list = 1;
	o->recv_post_list = 1;
	o->cqe_poll = GD_CQE_POLL_DEFAULT;
	o->inline_bytes = test->measure == GD_MEASURE_LAT ? 64 : 0;
	o->sl = 0;
	o->tos = -1;
	o->qp_timeout = 14;
	o->retry_count = 7;
	o->use_cuda = -1;
	o->cpu = -1;
	o->numa_node = -1;
	o->atomic_op = GD_ATOMIC_FETCH_AND_ADD;
	o->repeat = 1;
	o->max_repeat = 20;
	o->precision_time_s = 600;
	/* latency tests run small sizes: gate them all by default */
	o->gate_from_bytes = test->measure == GD_MEASURE_LAT ? 0 : 65536;
}

void gd_opt_mark_given(struct gd_opts *o, size_t idx)
{
	o->given_mask[idx / 64] |= 1ULL << (idx % 64);
}

bool gd_is_given(const struct gd_opts *o, size_t idx)
{
	return o->given_mask[idx / 64] & (1ULL << (idx % 64));
}

bool gd_opt_applies(const struct gd_test *test, const struct gd_opt_def *d)
{
	ptrdiff_t id = test - gd_tests;

	/* a test outside the table (none today) takes every option */
	return id < 0 || id >= GD_TEST_COUNT || (d->applies & GD_AP_TEST(id));
}

int gd_opt_check_applies(const struct gd_test *test, const struct gd_opt_def *d)
{
	char tests[256];

	if (gd_opt_applies(test, d))
		return 0;
	gd_tests_text(d->applies, "gd_", tests, sizeof(tests));
	return gd_err(
		-EINVAL,
		"%s%c%s%s does not apply to %s: it applies to %s; see %s --help",
		d->short_name ? "-" : "", d->short_name ? d->short_name : '-',
		d->short_name ? "/--" : "-", d->long_name, test->name, tests,
		test->name);
}

bool gd_opts_given(const struct gd_opts *o, const char *long_name)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		if (!strcmp(gd_opt_table[i].long_name, long_name))
			return gd_is_given(o, i);
	return false;
}

/* --phases syntax: comma-separated placements (placement.c), each once. */
static int gd_phases_check(const char *list)
{
	bool numbered = gd_placement_numbered(list);
	bool seen[GD_PLACE_COUNT][GD_PLACE_COUNT] = { { false } };
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ",");
		unsigned int c, v;
		char name[12];

		if (gd_placement_parse(p, n, &c, &v))
			return gd_err_code();
		gd_placement_name(c, v, numbered, name, sizeof(name));
		if (seen[c][v])
			return gd_err(-EINVAL, "--phases: '%s' is listed twice",
				      name);
		seen[c][v] = true;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Checked when the command line is parsed rather than when pinning, so
 * that a forked --loopback server and the client do not each fail on their
 * own; not again on the server's adopted options, where the --loopback
 * server half is already pinned to N+1. */
int gd_opts_check_cpu(const struct gd_opts *o)
{
	cpu_set_t set;

	if (o->numa_node >= 0 && gd_numa_node_cpus("/", o->numa_node, &set))
		return gd_err_code();
	if (o->cpu < 0 || sched_getaffinity(0, sizeof(set), &set))
		return 0; /* unknown: pinning reports it */
	for (int64_t c = o->cpu; c <= o->cpu + (o->loopback ? 1 : 0); c++)
		if (c >= CPU_SETSIZE || !CPU_ISSET((int)c, &set))
			return gd_err(
				-EINVAL,
				"--cpu %" PRId64 ": CPU %" PRId64
				"%s is not one this process may use (%d allowed); check taskset -p $$ or the cgroup cpuset",
				o->cpu, c,
				c > o->cpu ? " (the --loopback server's, N+1)"
					   : "",
				CPU_COUNT(&set));
	return 0;
}

/* --precision and --until-decided add rounds, so they need rounds and
 * sizes in the interleaved order; their two limits mean nothing without
 * them. */
static int gd_opts_precision_check(const struct gd_opts *o)
{
	if (!gd_opts_adaptive(o)) {
		if (gd_opts_given(o, "max-repeat") ||
		    gd_opts_given(o, "precision-time"))
			return gd_err(
				-EINVAL,
				"--max-repeat and --precision-time limit --precision and --until-decided; add one of them or drop the limits");
		return 0;
	}
	if (o->run_infinitely)
		return gd_err(
			-EINVAL,
			"--precision adds rounds until the intervals are narrow and --run_infinitely repeats until interrupted; give one");
	if (o->no_interleave)
		return gd_err(
			-EINVAL,
			"--precision adds rounds size by size and needs the interleaved order; drop --no-interleave");
	if (o->max_repeat < o->repeat || o->max_repeat < 3)
		return gd_err(
			-EINVAL,
			"--max-repeat=%" PRIu64
			" must be at least 3 and at least --repeat=%" PRIu64,
			o->max_repeat, o->repeat);
	return 0;
}

/* --gate-undecided takes a policy word, exactly. */
static int gd_opts_gate_undecided_check(const struct gd_opts *o)
{
	if (o->gate_undecided && strcmp(o->gate_undecided, "fail") &&
	    strcmp(o->gate_undecided, "pass"))
		return gd_err(
			-EINVAL,
			"--gate-undecided: '%s' is not one of the accepted values fail, pass",
			o->gate_undecided);
	return 0;
}

/* --progress takes a mode word, exactly (report/progress.c owns them). */
static int gd_opts_progress_check(const struct gd_opts *o)
{
	enum gd_progress_mode mode;

	return gd_progress_mode_parse(o->progress, &mode);
}

/* -W: "counters/NAME" or "hw_counters/NAME", comma-separated, as
 * perftest takes it; a name the port lacks shows as absent. */
static int gd_counter_list_check(const char *list)
{
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ",");
		size_t g = strncmp(p, "counters/", 9) ? 12 : 9;
		size_t name =
			n > g ? strspn(p + g,
				       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
			      : 0;

		if ((strncmp(p, "counters/", 9) &&
		     strncmp(p, "hw_counters/", 12)) ||
		    !name || g + name != n)
			return gd_err(
				-EINVAL,
				"-W: '%.*s' is not counters/NAME or hw_counters/NAME (e.g. -W hw_counters/rcvd_pkts,counters/port_xmit_data)",
				(int)n, p);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* --sizes: strict, each a size -s would take, ascending, no repeats. */
static int gd_sizes_parse(struct gd_opts *o)
{
	const char *p = o->sizes;
	char word[32];

	o->num_size_list = 0;
	for (;;) {
		size_t n = strcspn(p, ",");
		uint64_t v;

		if (!n || n >= sizeof(word))
			return gd_err(
				-EINVAL,
				"--sizes: '%s' has an empty or overlong entry; give sizes like 4K,64K,1M, comma-separated",
				o->sizes);
		memcpy(word, p, n);
		word[n] = '\0';
		if (gd_parse_u64(word, "--sizes", true, 1, 1ULL << 32, &v))
			return gd_err_code();
		if (o->num_size_list && v <= o->size_list[o->num_size_list - 1])
			return gd_err(-EINVAL,
				      "--sizes: %s %s %" PRIu64
				      "; list each size once, ascending",
				      word,
				      v == o->size_list[o->num_size_list - 1]
					      ? "repeats"
					      : "comes after",
				      o->size_list[o->num_size_list - 1]);
		if (o->num_size_list == GD_MAX_SIZE_LIST)
			return gd_err(-E2BIG, "--sizes: at most %d sizes",
				      GD_MAX_SIZE_LIST);
		o->size_list[o->num_size_list++] = v;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* The sizes to run: --sizes excludes -s and -a (and its limits). */
static int gd_opts_sizes_check(const struct gd_test *test, struct gd_opts *o)
{
	if (!o->sizes) {
		o->num_size_list = 0; /* no list of an earlier value stays */
		return 0;
	}
	if (o->all_sizes || gd_opts_given(o, "size"))
		return gd_err(-EINVAL,
			      "--sizes names every size to run; drop %s",
			      o->all_sizes ? "-a" : "-s");
	if (gd_opts_given(o, "min-size") || gd_opts_given(o, "max-size"))
		return gd_err(
			-EINVAL,
			"--min-size and --max-size bound the -a sweep; --sizes lists the sizes itself");
	if (gd_sizes_parse(o))
		return gd_err_code();
	(void)test;
	return 0;
}

/* perftest's duration margin: inside -D, both margins and a window. */
static int gd_opts_margin_check(struct gd_opts *o)
{
	if (!o->margin_s)
		return 0;
	if (!o->duration_s)
		return gd_err(
			-EINVAL,
			"-f %" PRIu64
			": the margin applies to -D runs (their first and last SEC seconds are left out); add -D",
			o->margin_s);
	if (2 * o->margin_s >= o->duration_s)
		return gd_err(-EINVAL,
			      "-f %" PRIu64 " leaves nothing of -D %" PRIu64
			      " to measure; -D must be more than twice -f",
			      o->margin_s, o->duration_s);
	if (gd_opts_given(o, "warmup"))
		return gd_err(
			-EINVAL,
			"-f warms up for its first SEC seconds and --warmup for N iterations; give one");
	o->warmup_iters = 0;
	return 0;
}

/* -T, --tclass, --source_ip, --pin_cores and -W: perftest's spellings and
 * lists. */
static int gd_opts_perftest_check(struct gd_opts *o)
{
	uint64_t cpu;

	if (gd_opts_given(o, "tos") && gd_opts_given(o, "tclass"))
		return gd_err(
			-EINVAL,
			"-T and --tclass both set the GRH traffic class; give one");
	if (gd_opts_given(o, "bind_source_ip") && gd_opts_given(o, "source_ip"))
		return gd_err(
			-EINVAL,
			"--bind_source_ip and -j/--source_ip both set the side channel's local address; give one");
	if (o->tos >= 0 && o->rdma_cm)
		return gd_err(
			-EINVAL,
			"-T/--tclass with -R: gdperf does not set the rdma_cm ToS (RDMA_OPTION_ID_TOS) yet; without -R the value is the QPs' GRH traffic class");
	if (o->reversed && (o->reverse || o->bidir))
		return gd_err(
			-EINVAL,
			"--reversed runs every phase from the server only; %s",
			o->bidir
				? "-b runs both directions at once: give one"
				: "--reverse adds the reversed phases to the forward ones: give one");
	if (o->pin_cores && gd_opts_given(o, "cpu"))
		return gd_err(-EINVAL,
			      "--pin_cores and --cpu both pin; give one");
	if (o->numa_node >= 0 && (o->pin_cores || gd_opts_given(o, "cpu")))
		return gd_err(
			-EINVAL,
			"--numa_node runs on all of a node's CPUs and %s pins to one; give one (perftest: --numa_node and --pin_cores cannot be used together)",
			o->pin_cores ? "--pin_cores" : "--cpu");
	if (o->pin_cores) {
		if (strpbrk(o->pin_cores, ",-"))
			return gd_err(
				-EINVAL,
				"--pin_cores=%s: gdperf pins to one CPU, so that every phase runs on the same one; give one CPU number (--pin_cores=N is --cpu=N)",
				o->pin_cores);
		if (gd_parse_u64(o->pin_cores, "--pin_cores", false, 0, 4095,
				 &cpu))
			return gd_err_code();
		o->cpu = (int64_t)cpu;
	}
	return o->report_counters ? gd_counter_list_check(o->report_counters)
				  : 0;
}

/*
 * An --expect-ratio gate that this design cannot decide (too few sizes in
 * a band for one round) would only ever be undecided: said at parse time,
 * with the least --repeat that can decide it (util/assess.h).
 */
static void gd_opts_design_warn(const struct gd_test *test,
				const struct gd_opts *o)
{
	uint64_t sz[GD_MAX_SIZE_LIST * 2];
	double b[GD_MAX_SIZE_LIST * 2];
	unsigned int n = 0, need;
	char lo[32], hi[32];

	if (!(o->expect_ratio > 0) || gd_opts_adaptive(o))
		return;
	if (gd_opts_sizes(o, sz, GD_MAX_SIZE_LIST * 2, &n)) {
		gd_err_clear(); /* a warning only: the sweep reports it */
		return;
	}
	for (unsigned int i = 0; i < n; i++)
		b[i] = (double)sz[i];
	need = gd_assess_rounds_needed(b, n);
	if (!n || o->repeat >= need)
		return;
	gd_assess_bytes_str(b[0], lo, sizeof(lo));
	gd_assess_bytes_str(b[n - 1], hi, sizeof(hi));
	gd_report_notice(
		"%s: warning: --expect-ratio=%g cannot be shown not below with %u size(s) (%s%s%s) and %" PRIu64
		" round(s): each size needs an interval of its own, over its rounds; add --repeat=%u",
		test->name, o->expect_ratio, n, lo, n > 1 ? ".." : "",
		n > 1 ? hi : "", o->repeat, need);
}

/* The test's connection types, and what only some tests do. */
static int gd_opts_test_check(const struct gd_test *test, struct gd_opts *o)
{
	const char *verb = test->verb->name;
	bool lat = test->measure == GD_MEASURE_LAT;

	if (!(test->conn_mask & GD_CONN_BIT(o->conn)))
		return gd_err(
			-EINVAL,
			"%s does not support connection type %s (%s supports: %s%s%s); check -c",
			test->name, gd_conn_name(o->conn), verb,
			test->conn_mask & GD_CONN_BIT(GD_CONN_RC) ? "RC" : "",
			test->conn_mask & GD_CONN_BIT(GD_CONN_UC) ? " UC" : "",
			test->conn_mask & GD_CONN_BIT(GD_CONN_UD) ? " UD" : "");
	if (test->verb->fixed_size_bytes) {
		uint64_t fixed = test->verb->fixed_size_bytes;

		if (gd_opts_given(o, "size") && o->size_bytes != fixed)
			return gd_err(-EINVAL,
				      "%s operations move %" PRIu64
				      " bytes; drop -s %" PRIu64,
				      verb, fixed, o->size_bytes);
		if (o->all_sizes)
			return gd_err(-EINVAL,
				      "%s operations have one size (%" PRIu64
				      " bytes); drop -a",
				      verb, fixed);
		o->size_bytes = fixed;
	}
	if (o->bidir && lat)
		return gd_err(-EINVAL, "-b applies to bandwidth tests only");
	if (o->run_infinitely && lat)
		return gd_err(
			-EINVAL,
			"--run_infinitely applies to bandwidth tests only");
	if (o->duration_s && lat && test->verb->pingpong)
		return gd_err(
			-EINVAL,
			"-D with %s (a ping-pong test) is not supported; use -n",
			test->name);
	if (o->write_with_imm && !test->verb->imm)
		return gd_err(-EINVAL,
			      "--write_with_imm applies to write tests only");
	if (o->output != GD_OUTPUT_ALL &&
	    (o->output == GD_OUTPUT_LATENCY) != lat)
		return gd_err(
			-EINVAL, "--output=%s: %s reports %s; give --output=%s",
			gd_output_names[o->output], test->name,
			lat ? "latency" : "bandwidth",
			lat ? "latency" : "bandwidth or --output=message_rate");
	return 0;
}

/* What compares one option's value with another's, or with the host. */
static int gd_opts_values_check(struct gd_opts *o)
{
	if (o->loopback && o->server_host)
		return gd_err(
			-EINVAL,
			"--loopback runs both ends itself; drop the host argument '%s'",
			o->server_host);
	if (o->persist && o->server_host)
		return gd_err(
			-EINVAL,
			"--persist is for a server, which serves one client after another; drop it on the client");
	if (o->min_size_bytes > o->max_size_bytes)
		return gd_err(-EINVAL,
			      "--min-size %" PRIu64
			      " is above --max-size %" PRIu64,
			      o->min_size_bytes, o->max_size_bytes);
	if (o->conn == GD_CONN_UD && o->rdma_cm)
		return gd_err(
			-EINVAL,
			"-R with -c UD is not supported by gdperf; use -c UD without -R");
	if (o->run_infinitely && o->repeat > 1)
		return gd_err(
			-EINVAL,
			"--run_infinitely repeats until interrupted and --repeat=%" PRIu64
			" a fixed number of rounds; give one",
			o->repeat);
	if (o->post_list > o->tx_depth)
		return gd_err(-EINVAL,
			      "-l %" PRIu64 " exceeds -t %" PRIu64
			      " (the send queue depth)",
			      o->post_list, o->tx_depth);
	if (o->recv_post_list > o->rx_depth)
		return gd_err(
			-EINVAL,
			"--recv_post_list %" PRIu64 " exceeds -r %" PRIu64
			" (the receive queue depth); lower it or raise -r",
			o->recv_post_list, o->rx_depth);
	return 0;
}

/*
 * After parsing (or adopting a client's test): the rules between options
 * (gd_opt_rules[], beside the table), then the checks that compute, then
 * the derived values. A run and --dry-run both come through here, so a
 * line one refuses the other refuses in the same words.
 */
int gd_opts_validate(const struct gd_test *test, struct gd_opts *o)
{
	if (gd_opts_test_check(test, o) || gd_opts_gate_undecided_check(o) ||
	    gd_opts_progress_check(o) || gd_opts_rules_check(test, o) ||
	    gd_opts_values_check(o) || gd_opts_precision_check(o) ||
	    gd_opts_sizes_check(test, o) || gd_opts_margin_check(o) ||
	    gd_opts_perftest_check(o) ||
	    gd_opts_verbs_check(o, gd_opts_given(o, "vector"),
				gd_opts_given(o, "connection")) ||
	    gd_opts_rate_check(o, gd_opts_given(o, "rate_limit"),
			       gd_opts_max_size(o)) ||
	    gd_opts_gate_sizes_check(o))
		return gd_err_code();
	gd_opts_design_warn(test, o);
	if (o->phases && gd_phases_check(o->phases))
		return gd_err_code();
	if (o->out_json && !o->json_path)
		o->json_path = strdup("gdperf_out.json");
	o->gate_from_given = gd_opts_given(o, "gate-from");
	/* bandwidth: a signal within every send queue's worth; latency keeps
	 * -Q for its unsignalled ping-pong sends (the SQ is sized for it) */
	if (o->cq_mod > o->tx_depth && test->measure == GD_MEASURE_BW)
		o->cq_mod = o->tx_depth;
	return gd_opts_mem_validate(o, gd_opts_given(o, "mem"),
				    gd_opts_given(o, "inline_size"),
				    gd_opts_given(o, "mmap-offset"));
}

int gd_opt_find(const char *name, size_t len)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		if (gd_opt_name_eq(gd_opt_table[i].long_name, name, len))
			return (int)i;
	return -1;
}

/* Entry @i is the first string option of its field: a perftest spelling
 * (--source_ip) shares --bind_source_ip's string, freed once. */
static bool gd_opt_field_owner(size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (gd_opt_table[k].type == GD_T_STR &&
		    gd_opt_table[k].offset == gd_opt_table[i].offset)
			return false;
	return true;
}

void gd_opts_free(struct gd_opts *o)
{
	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		if (d->type == GD_T_STR && gd_opt_field_owner(i))
			free(*(char **)((char *)o + d->offset));
	}
	for (unsigned int i = 0; i < o->num_labels; i++)
		free(o->labels[i]);
	for (unsigned int k = 0; k < o->num_mem; k++)
		free(o->mem_list[k]);
	free(o->payload);
	free(o->server_host);
	memset(o, 0, sizeof(*o));
}
