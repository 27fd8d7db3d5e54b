/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The option table: defaults, strict number parsing into the fields, and
 * the cross-option checks. The command line is read in options_parse.c,
 * --help in options_help.c, what travels to the server in options_wire.c.
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
#include "engine/options.h"
#include "engine/options_priv.h"
#include "util/version.h"

#define OFF(f) offsetof(struct gd_opts, f)

const struct gd_opt_def gd_opt_table[] = {
	{ "ib-dev", 'd', GD_T_STR, OFF(ib_dev), 0, 0, "DEV",
	  "RDMA device to use (default: the first one found)", 0 },
	{ "ib-port", 'i', GD_T_U64, OFF(ib_port), 1, 255, "PORT",
	  "port of the RDMA device (default 1)", 0 },
	{ "gid-index", 'x', GD_T_I64, OFF(gid_index), 0, 65535, "IDX",
	  "GID index (default: first RoCE v2 IPv4-mapped GID on Ethernet, 0 on InfiniBand)",
	  0 },
	{ "port", 'p', GD_T_U64, OFF(tcp_port), 1, 65535, "PORT",
	  "TCP port of the side channel (default 18515)", 0 },
	{ "bind_source_ip", 0, GD_T_STR, OFF(bind_addr), 0, 0, "ADDR",
	  "side channel on this local address only: the server listens there, the client connects from it (default: any)",
	  0 },
	{ "connection", 'c', GD_T_CONN, OFF(conn), 0, 0, "RC|UC|UD",
	  "connection type (default RC)", GD_F_TRAVELS },
	{ "size", 's', GD_T_SIZE, OFF(size_bytes), 1, 1LL << 32, "BYTES",
	  "message size in bytes, K/M/G suffixes (default 65536 for bandwidth, 2 for latency)",
	  GD_F_TRAVELS },
	{ "all", 'a', GD_T_FLAG, OFF(all_sizes), 0, 0, NULL,
	  "sweep sizes 2 B .. 8 MiB in powers of two", GD_F_TRAVELS },
	{ "min-size", 0, GD_T_SIZE, OFF(min_size_bytes), 1, 1LL << 32, "BYTES",
	  "smallest size of the -a sweep (default 2)", GD_F_TRAVELS },
	{ "max-size", 0, GD_T_SIZE, OFF(max_size_bytes), 1, 1LL << 32, "BYTES",
	  "largest size of the -a sweep (default 8M)", GD_F_TRAVELS },
	{ "iters", 'n', GD_T_SIZE, OFF(iters), 1, 1LL << 40, "N",
	  "iterations per size (default 1000, 5000 for write bandwidth)",
	  GD_F_TRAVELS },
	{ "duration", 'D', GD_T_U64, OFF(duration_s), 1, 86400, "SEC",
	  "run each size for SEC seconds instead of -n iterations",
	  GD_F_TRAVELS },
	{ "warmup", 0, GD_T_U64, OFF(warmup_iters), 0, 1000000, "N",
	  "warm-up iterations excluded from the results (default min(100, n/10))",
	  GD_F_TRAVELS },
	{ "qp", 'q', GD_T_U64, OFF(num_qps), 1, 256, "N",
	  "number of QPs (default 1)", GD_F_TRAVELS },
	{ "tx-depth", 't', GD_T_U64, OFF(tx_depth), 1, 16384, "N",
	  "send queue depth (default 128, 1 for latency)", 0 },
	{ "rx-depth", 'r', GD_T_U64, OFF(rx_depth), 1, 16384, "N",
	  "receive queue depth for send tests (default 512)", 0 },
	{ "cq-mod", 'Q', GD_T_U64, OFF(cq_mod), 1, 1024, "N",
	  "signal one completion every N work requests (default 100)", 0 },
	{ "post_list", 'l', GD_T_U64, OFF(post_list), 1, 1024, "N",
	  "post N work requests per ibv_post_send call (default 1)", 0 },
	{ "inline_size", 'I', GD_T_U64, OFF(inline_bytes), 0, 1024, "BYTES",
	  "largest message sent inline (default: 0 for bandwidth, 64 for latency, capped by what the device grants)",
	  0 },
	{ "bidirectional", 'b', GD_T_FLAG, OFF(bidir), 0, 0, NULL,
	  "both ends initiate at once; each direction reported separately plus a labelled sum",
	  GD_F_TRAVELS },
	{ "rdma_cm", 'R', GD_T_FLAG, OFF(rdma_cm), 0, 0, NULL,
	  "connect the QPs through rdma_cm instead of exchanging QP numbers",
	  GD_F_TRAVELS },
	{ "sl", 'S', GD_T_I64, OFF(sl), 0, 15, "SL",
	  "service level (default 0)", 0 },
	{ "tos", 'T', GD_T_I64, OFF(tos), 0, 255, "TOS",
	  "IP type of service / traffic class (RoCE)", 0 },
	{ "CPU-freq", 'F', GD_T_FLAG, OFF(ignore_cpu_freq), 0, 0, NULL,
	  "accepted for perftest compatibility: gdperf never fails on CPU frequency scaling",
	  0 },
	{ "mtu", 'm', GD_T_U64, OFF(mtu_bytes), 256, 4096, "BYTES",
	  "path MTU 256..4096 (default: the port's active MTU)", GD_F_TRAVELS },
	{ "qp-timeout", 'u', GD_T_U64, OFF(qp_timeout), 0, 31, "N",
	  "QP ACK timeout exponent, 4.096 us * 2^N (default 14)", 0 },
	{ "events", 'e', GD_T_FLAG, OFF(use_event), 0, 0, NULL,
	  "sleep on completion events instead of busy polling", 0 },
	{ "help", 'h', GD_T_FLAG, OFF(help), 0, 0, NULL,
	  "show this help and exit", 0 },
	{ "version", 'V', GD_T_FLAG, OFF(version), 0, 0, NULL,
	  "show the version and exit", 0 },
	{ "report_gbits", 0, GD_T_FLAG, OFF(report_gbits), 0, 0, NULL,
	  "report bandwidth in Gb/s (10^9 bits) instead of MiB/s", 0 },
	{ "out_json", 0, GD_T_FLAG, OFF(out_json), 0, 0, NULL,
	  "write the JSON document (to gdperf_out.json unless --out_json_file)",
	  0 },
	{ "out_json_file", 0, GD_T_STR, OFF(json_path), 0, 0, "FILE",
	  "write the JSON document to FILE (atomically)", 0 },
	{ "json", 0, GD_T_JSONOPT, OFF(json_path), 0, 0, "FILE",
	  "same as --out_json_file; without FILE, print the document on stdout",
	  GD_F_OPTARG },
	{ "output", 0, GD_T_OUTPUT, OFF(output), 0, 0, "WHAT",
	  "print only bandwidth, message_rate or latency", 0 },
	{ "cpu_util", 0, GD_T_FLAG, OFF(cpu_util), 0, 0, NULL,
	  "report CPU utilisation during the measured window", 0 },
	{ "cpu", 0, GD_T_I64, OFF(cpu), 0, 4095, "N",
	  "pin this process to CPU N for the whole run (--loopback: the server half to N+1)",
	  0 },
	{ "run_infinitely", 0, GD_T_FLAG, OFF(run_infinitely), 0, 0, NULL,
	  "repeat the test until interrupted, one result per pass",
	  GD_F_TRAVELS },
	{ "repeat", 0, GD_T_U64, OFF(repeat), 1, GD_MAX_REPEAT, "N",
	  "measure every phase and size N times in rounds, phase order alternating (default 1); reports the median, the spread and the ratio's interval",
	  GD_F_TRAVELS },
	{ "precision", 0, GD_T_DBL, OFF(precision_pct), 0, 100, "PCT",
	  "add rounds at each gated size until every device/HH ratio's 95% interval is within +/-PCT percent, or --max-repeat, or --precision-time (default 0: off)",
	  GD_F_TRAVELS },
	{ "max-repeat", 0, GD_T_U64, OFF(max_repeat), 2, GD_MAX_REPEAT, "N",
	  "--precision: at most N rounds per size (default 20)", 0 },
	{ "precision-time", 0, GD_T_U64, OFF(precision_time_s), 1, 86400, "SEC",
	  "--precision: add no round after SEC seconds of the sweep (default 600)",
	  0 },
	{ "use_hugepages", 0, GD_T_FLAG, OFF(use_hugepages), 0, 0, NULL,
	  "host buffers from huge pages (same as --mem=hugepage for host phases)",
	  0 },
	{ "write_with_imm", 0, GD_T_FLAG, OFF(write_with_imm), 0, 0, NULL,
	  "write tests use RDMA write with immediate; the target polls its receive completions",
	  GD_F_TRAVELS },
	{ "latency_gap", 0, GD_T_U64, OFF(latency_gap_us), 0, 10000000, "USEC",
	  "pause between latency iterations, in microseconds", GD_F_TRAVELS },
	{ "retry_count", 0, GD_T_U64, OFF(retry_count), 0, 7, "N",
	  "QP transport retry count (default 7)", 0 },
	{ "dont_xchg_versions", 0, GD_T_FLAG, OFF(dont_xchg_versions), 0, 0,
	  NULL,
	  "accepted for perftest compatibility and has no effect: gdperf always checks the peer's protocol version",
	  0 },
	{ "loopback", 0, GD_T_FLAG, OFF(loopback), 0, 0, NULL,
	  "run server and client in one invocation on the same device", 0 },
	{ "timeout", 0, GD_T_U64, OFF(oob_timeout_ms), 100, 3600000, "MS",
	  "side-channel connect and silence timeout in milliseconds (default 10000)",
	  0 },
	{ "mem", 0, GD_T_STR, OFF(mem_spec), 0, 0, "SPEC",
	  "device memory of this side: host, hugepage, cuda:N[:dmabuf|:peermem], cuda:BDF[:...]",
	  0 },
	{ "use_cuda", 0, GD_T_I64, OFF(use_cuda), 0, 1024, "N",
	  "perftest spelling of --mem=cuda:N", 0 },
	{ "use_cuda_bus_id", 0, GD_T_STR, OFF(use_cuda_bus_id), 0, 0, "BDF",
	  "perftest spelling of --mem=cuda:BDF", 0 },
	{ "use_cuda_dmabuf", 0, GD_T_FLAG, OFF(use_cuda_dmabuf), 0, 0, NULL,
	  "register GPU memory through DMA-BUF (any order with --use_cuda)",
	  0 },
	{ "use_cuda_pcie_mapping", 0, GD_T_FLAG, OFF(use_cuda_pcie_mapping), 0,
	  0, NULL,
	  "export GPU memory for DMA-BUF with the PCIe (BAR1) mapping flag, CUDA driver >= 12.8 (default: the driver's default path)",
	  0 },
	{ "disable_pcie_relaxed", 0, GD_T_FLAG, OFF(disable_pcie_relaxed), 0, 0,
	  NULL,
	  "register memory without IBV_ACCESS_RELAXED_ORDERING (on by default, as in perftest)",
	  0 },
	{ "verify", 0, GD_T_FLAG, OFF(verify), 0, 0, NULL,
	  "check the received data after each size (outside the timed window)",
	  GD_F_TRAVELS },
	{ "phases", 0, GD_T_STR, OFF(phases), 0, 0, "LIST",
	  "placements to run, e.g. HH,DD,HD,DH (default HH,DD with --mem on the client, else HH)",
	  GD_F_TRAVELS },
	{ "reverse", 0, GD_T_FLAG, OFF(reverse), 0, 0, NULL,
	  "add each phase with roles reversed (the server initiates)",
	  GD_F_TRAVELS },
	{ "no-interleave", 0, GD_T_FLAG, OFF(no_interleave), 0, 0, NULL,
	  "run each phase's sweep in one block instead of A B A B per size",
	  GD_F_TRAVELS },
	{ "counters-root", 0, GD_T_STR, OFF(counters_root), 0, 0, "DIR",
	  "read port counters below DIR instead of /sys/class/infiniband", 0 },
	{ "expect-ratio", 0, GD_T_DBL, OFF(expect_ratio), 0, 1000, "R",
	  "gate: each device phase's bandwidth at least R times HH's", 0 },
	{ "gate-from", 0, GD_T_SIZE, OFF(gate_from_bytes), 0, 1LL << 32,
	  "BYTES",
	  "apply the gates from this size up (default 65536 for bandwidth, 0 for latency)",
	  0 },
	{ "min-bw", 0, GD_T_DBL, OFF(min_bw_MiBps), 0, 1e9, "MIBPS",
	  "gate: minimum average bandwidth in MiB/s", 0 },
	{ "max-lat", 0, GD_T_DBL, OFF(max_lat_us), 0, 1e9, "USEC",
	  "gate: maximum typical latency in usec", 0 },
	{ "max-lat-p99", 0, GD_T_FLAG, OFF(max_lat_p99), 0, 0, NULL,
	  "apply --max-lat to the 99th percentile instead of the typical value",
	  0 },
	{ "plot", 0, GD_T_STR, OFF(plot_path), 0, 0, "FILE.svg",
	  "draw every phase's curve with gnuplot", 0 },
	{ "config", 0, GD_T_STR, OFF(config_path), 0, 0, "FILE",
	  "read options from FILE first, 'key = value' lines with long option names; the command line wins",
	  0 },
	{ "label", 0, GD_T_LABEL, OFF(labels), 0, 0, "KEY=VALUE",
	  "attach a label to the JSON document (repeatable; gd_plan uses them)",
	  0 },
};

const size_t gd_opt_count = sizeof(gd_opt_table) / sizeof(gd_opt_table[0]);

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
		      names == gd_conn_names
			      ? " RC, UC, UD"
			      : " bandwidth, message_rate, latency");
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
	case GD_T_OUTPUT:
		ret = gd_parse_enum(arg, what, gd_output_names, 4, &ival);
		if (!ret)
			*(enum gd_output_only *)base =
				(enum gd_output_only)ival;
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
	o->inline_bytes = test->measure == GD_MEASURE_LAT ? 64 : 0;
	o->sl = 0;
	o->tos = -1;
	o->qp_timeout = 14;
	o->retry_count = 7;
	o->use_cuda = -1;
	o->cpu = -1;
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

bool gd_opts_given(const struct gd_opts *o, const char *long_name)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		if (!strcmp(gd_opt_table[i].long_name, long_name))
			return gd_is_given(o, i);
	return false;
}

/* perftest's --use_cuda family is an alias of --mem: the memory backend
 * that answers to it writes the spec. */
static int gd_opts_merge_mem(struct gd_opts *o)
{
	char buf[96], index[24];
	const char *ref = o->use_cuda_bus_id;
	int ret;

	if (o->use_cuda_dmabuf && o->use_cuda < 0 && !o->use_cuda_bus_id &&
	    !o->mem_spec)
		return gd_err(
			-EINVAL,
			"--use_cuda_dmabuf needs a GPU: add --use_cuda=N or --use_cuda_bus_id=BDF (any order)");
	if (o->use_cuda < 0 && !o->use_cuda_bus_id)
		return 0;
	if (o->mem_spec && !gd_opts_given(o, "mem"))
		return 0; /* merged already (validate runs again on the server)
			   */
	if (o->mem_spec)
		return gd_err(
			-EINVAL,
			"--mem and --use_cuda/--use_cuda_bus_id both name the device memory; give one");
	if (o->use_cuda >= 0 && o->use_cuda_bus_id)
		return gd_err(
			-EINVAL,
			"--use_cuda and --use_cuda_bus_id both select a GPU; give one");
	if (!ref) {
		snprintf(index, sizeof(index), "%lld", (long long)o->use_cuda);
		ref = index;
	}
	ret = gd_mem_spec_alias("use_cuda", ref,
				o->use_cuda_dmabuf ? GD_ROUTE_DMABUF
						   : GD_ROUTE_AUTO,
				buf, sizeof(buf));
	if (ret)
		return ret;
	o->mem_spec = strdup(buf);
	return 0;
}

/* --phases syntax: comma-separated HH, DD, HD or DH, each once. */
static int gd_phases_check(const char *list)
{
	const char *p = list;
	char seen[4] = { 0 };

	for (;;) {
		size_t n = strcspn(p, ",");
		int idx;

		if (n != 2 || (p[0] != 'H' && p[0] != 'D') ||
		    (p[1] != 'H' && p[1] != 'D'))
			return gd_err(
				-EINVAL,
				"--phases: '%.*s' is not a placement; use HH, DD, HD or DH (client side first), comma-separated",
				(int)n, p);
		idx = (p[0] == 'D') * 2 + (p[1] == 'D');
		if (seen[idx]++)
			return gd_err(-EINVAL,
				      "--phases: '%.2s' is listed twice", p);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Checked here rather than when pinning, so that a forked --loopback
 * server and the client do not each fail on their own. */
static int gd_cpu_check(const struct gd_opts *o)
{
	cpu_set_t set;

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

/* --precision adds rounds per size, so it needs rounds and sizes in the
 * interleaved order; its two limits mean nothing without it. */
static int gd_opts_precision_check(const struct gd_opts *o)
{
	if (!(o->precision_pct > 0)) {
		if (gd_opts_given(o, "max-repeat") ||
		    gd_opts_given(o, "precision-time"))
			return gd_err(
				-EINVAL,
				"--max-repeat and --precision-time limit --precision; add --precision=PCT or drop them");
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

/* A mistyped --mem fails now, with every backend's forms, not when the
 * device is opened after the connection. */
static int gd_mem_check(const struct gd_opts *o)
{
	struct gd_mem_spec spec;

	return o->mem_spec ? gd_mem_spec_parse(o->mem_spec, &spec) : 0;
}

int gd_opts_validate(const struct gd_test *test, struct gd_opts *o)
{
	const char *verb = test->verb->name;

	if (!(test->conn_mask & GD_CONN_BIT(o->conn)))
		return gd_err(
			-EINVAL,
			"%s does not support connection type %s (%s supports: %s%s%s); check -c",
			test->name, gd_conn_name(o->conn), verb,
			test->conn_mask & GD_CONN_BIT(GD_CONN_RC) ? "RC" : "",
			test->conn_mask & GD_CONN_BIT(GD_CONN_UC) ? " UC" : "",
			test->conn_mask & GD_CONN_BIT(GD_CONN_UD) ? " UD" : "");
	if (o->loopback && o->server_host)
		return gd_err(
			-EINVAL,
			"--loopback runs both ends itself; drop the host argument '%s'",
			o->server_host);
	if (o->bind_addr && o->loopback)
		return gd_err(
			-EINVAL,
			"--bind_source_ip does not apply to --loopback: both ends talk over 127.0.0.1");
	if (o->all_sizes && gd_opts_given(o, "size"))
		return gd_err(-EINVAL, "-a sweeps sizes; drop -s or -a");
	if (gd_opts_given(o, "duration") && gd_opts_given(o, "iters"))
		return gd_err(
			-EINVAL,
			"-D (duration) and -n (iterations) exclude each other; give one");
	if (o->min_size_bytes > o->max_size_bytes)
		return gd_err(-EINVAL,
			      "--min-size %" PRIu64
			      " is above --max-size %" PRIu64,
			      o->min_size_bytes, o->max_size_bytes);
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
	if (o->conn == GD_CONN_UD && o->rdma_cm)
		return gd_err(
			-EINVAL,
			"-R with -c UD is not supported by gdperf; use -c UD without -R");
	if (o->bidir && test->measure == GD_MEASURE_LAT)
		return gd_err(-EINVAL, "-b applies to bandwidth tests only");
	if (o->run_infinitely && test->measure == GD_MEASURE_LAT)
		return gd_err(
			-EINVAL,
			"--run_infinitely applies to bandwidth tests only");
	if (o->run_infinitely && o->repeat > 1)
		return gd_err(
			-EINVAL,
			"--run_infinitely repeats until interrupted and --repeat=%" PRIu64
			" a fixed number of rounds; give one",
			o->repeat);
	if (gd_opts_precision_check(o))
		return gd_err_code();
	if (o->run_infinitely && o->all_sizes)
		return gd_err(-EINVAL,
			      "--run_infinitely and -a exclude each other");
	if (o->duration_s && test->measure == GD_MEASURE_LAT &&
	    test->verb->pingpong)
		return gd_err(
			-EINVAL,
			"-D with %s (a ping-pong test) is not supported; use -n",
			test->name);
	if (o->phases && gd_phases_check(o->phases))
		return gd_err_code();
	if (o->write_with_imm && !test->verb->imm)
		return gd_err(-EINVAL,
			      "--write_with_imm applies to write tests only");
	if (o->out_json && !o->json_path)
		o->json_path = strdup("gdperf_out.json");
	/* bandwidth: a signal within every send queue's worth; latency keeps
	 * -Q for its unsignalled ping-pong sends (the SQ is sized for it) */
	if (o->cq_mod > o->tx_depth && test->measure == GD_MEASURE_BW)
		o->cq_mod = o->tx_depth;
	if (o->post_list > o->tx_depth)
		return gd_err(-EINVAL,
			      "-l %" PRIu64 " exceeds -t %" PRIu64
			      " (the send queue depth)",
			      o->post_list, o->tx_depth);
	if (o->use_hugepages && o->mem_spec &&
	    !strncmp(o->mem_spec, "hugepage", 8))
		return gd_err(
			-EINVAL,
			"--use_hugepages and --mem=hugepage say the same; give one");
	if (gd_opts_merge_mem(o) || gd_mem_check(o) || gd_cpu_check(o))
		return gd_err_code();
	if (o->inline_bytes && gd_opts_given(o, "inline_size") &&
	    gd_mem_spec_is_device(o->mem_spec))
		return gd_err(
			-EINVAL,
			"-I %" PRIu64
			": inline data is copied by the CPU and cannot come from GPU memory (--mem %s); drop -I",
			o->inline_bytes, o->mem_spec);
	if (o->use_cuda_pcie_mapping &&
	    !gd_mem_spec_may_export_dmabuf(o->mem_spec))
		return gd_err(
			-EINVAL,
			"--use_cuda_pcie_mapping applies to DMA-BUF exports of GPU memory: add --mem=cuda:N (auto or :dmabuf route) or --use_cuda=N");
	return 0;
}

int gd_opt_find(const char *name, size_t len)
{
	for (size_t i = 0; i < GD_NOPTS; i++)
		if (gd_opt_name_eq(gd_opt_table[i].long_name, name, len))
			return (int)i;
	return -1;
}

void gd_opts_free(struct gd_opts *o)
{
	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		if (d->type == GD_T_STR)
			free(*(char **)((char *)o + d->offset));
	}
	for (unsigned int i = 0; i < o->num_labels; i++)
		free(o->labels[i]);
	free(o->server_host);
	memset(o, 0, sizeof(*o));
}
