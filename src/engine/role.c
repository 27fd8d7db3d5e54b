/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One side's run (server or client): the session and the sweep, the
 * paired results judged, and one report: text, JSON, exit code.
 */
#include <config.h>

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "envelope/envelope.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/output.h"
#include "util/stop.h"
#include "report/plot.h"
#include "engine/engine.h"
#include "engine/role.h"
#include "report/progress.h"
#include "engine/preflight.h"
#include "engine/session.h"
#include "engine/sweep.h"
#include "engine/numa.h"
#include "engine/pace.h"

/* --cpu: one CPU for every phase, so placement is the only variable. */
static int gd_pin_cpu(const struct gd_opts *o, bool loopback_server)
{
	long cpu = (long)o->cpu + (loopback_server ? 1 : 0);
	cpu_set_t set;

	if (o->cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return gd_err(
			-errno,
			"cannot pin to CPU %ld: %s; check --cpu against the CPUs this process may use (taskset -p $$, cgroup cpuset)",
			cpu, strerror(errno));
	return 0;
}

/* The CPUs this process may run on, as "0-3,8" style text for the header. */
static void gd_affinity_text(char *buf, size_t len)
{
	cpu_set_t set;
	size_t off = 0;
	int start = -1;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(buf, len, "unknown");
		return;
	}
	for (int c = 0; c <= CPU_SETSIZE && off < len; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, &set);

		if (in && start < 0)
			start = c;
		if (!in && start >= 0) {
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? "," : "", start);
			if (c - 1 > start && off < len)
				off += (size_t)snprintf(buf + off, len - off,
							"-%d", c - 1);
			start = -1;
		}
	}
}

/* The registration route of this side's device memory and why, so the
 * text says which route was really used, not only the JSON. */
/* "hugepage", or with a list "D1 cuda:0, D2 cuda:4". */
static void gd_report_header_memory(struct gd_session *s)
{
	char buf[320];
	size_t used = 0;

	if (s->o->num_mem < 2) {
		gd_report_header_str(s->rep, "memory", "Device memory",
				     s->o->mem_spec ? s->o->mem_spec
						    : "none (host only)");
		return;
	}
	buf[0] = '\0';
	for (unsigned int k = 0; k < s->o->num_mem && used < sizeof(buf); k++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%sD%u %s", k ? ", " : "", k + 1,
					 s->o->mem_list[k]);
	gd_report_header_str(s->rep, "memory", "Device memory", buf);
}

/* One header line, keyed "route..." for D1 and "d<k>_route..." after. */
static void gd_header_dev(struct gd_session *s, unsigned int k, const char *key,
			  const char *label, const char *v)
{
	char kbuf[64], lbuf[48];

	if (k == GD_PLACE_DEV) {
		gd_report_header_str(s->rep, key, label, v);
		return;
	}
	snprintf(kbuf, sizeof(kbuf), "d%u_%s", k, key);
	snprintf(lbuf, sizeof(lbuf), "%s%s D%u", label[0] == ' ' ? "  " : "",
		 label[0] == ' ' ? label + 2 : label, k);
	gd_report_header_str(s->rep, kbuf, lbuf, v);
}

static void gd_report_header_route_of(struct gd_session *s, unsigned int k)
{
	const struct gd_local_buf *lb = &s->local[k];
	struct json_object *ev = lb->mem.evidence;
	const char *v;
	char buf[600];

	if (s->picked[k]) {
		snprintf(buf, sizeof(buf), "%s by the GPU-to-NIC map: %s",
			 s->pick[k].path_class, s->pick[k].why);
		gd_header_dev(s, k, "memory_choice", "  chosen", buf);
	}

	if (!lb->ok) {
		gd_header_dev(s, k, "route", "Route",
			      "none: device memory unavailable");
		/* The route record of the failed registration, when it got
		 * that far, is the reason; the error beside it. */
		v = gd_json_str(ev, "why");
		if (!v || !*v) {
			gd_header_dev(s, k, "route_why", "  why",
				      lb->why_absent);
			return;
		}
		gd_header_dev(s, k, "route_why", "  why", v);
		gd_header_dev(s, k, "route_error", "  error", lb->why_absent);
	} else {
		gd_header_dev(s, k, "route", "Route",
			      gd_mem_route_name(lb->mem.route_used));
		if ((v = gd_json_str(ev, "why")))
			gd_header_dev(s, k, "route_why", "  why", v);
	}
	if ((v = gd_json_str(gd_json_path(ev, "why_not", NULL), "dmabuf")))
		gd_header_dev(s, k, "route_why_not_dmabuf", "  not DMA-BUF", v);
	if ((v = gd_json_str(gd_json_path(ev, "why_not", NULL), "peermem")))
		gd_header_dev(s, k, "route_why_not_peermem", "  not peermem",
			      v);
	/* a refused PCIe mapping measures the default path: say so */
	if (gd_mem_effect(&lb->mem, "pcie_mapping", buf, sizeof(buf)))
		gd_header_dev(s, k, "route_pcie_mapping", "  PCIe mapping",
			      buf);
}

/* The registration route of each of this side's device memories and why,
 * so the text says which route was really used, not only the JSON. */
static void gd_report_header_route(struct gd_session *s)
{
	for (unsigned int k = GD_PLACE_DEV; k <= s->o->num_mem; k++)
		gd_report_header_route_of(s, k);
}

/* The flag only asks: the NIC function's Device Control bit decides.
 * GD_SYSFS_ROOT stands in for / (tests read a fixture tree). */
static void gd_report_header_nic_ro(struct gd_session *s)
{
	struct gd_pcie_ro ro;

	(void)gd_envelope_pcie_ro(getenv("GD_SYSFS_ROOT"), s->v.port.dev_name,
				  &ro);
	gd_report_header_str(s->rep, "pcie_relaxed_ordering_nic",
			     "RO on the NIC", ro.text);
}

/* The phases that run, as the sweep planned them (--reverse and -b add
 * theirs to --phases), not the list given. */
static void gd_report_header_phases(struct gd_session *s)
{
	char list[GD_MAX_PHASES * 26] = "";
	size_t len = 0;

	for (unsigned int p = 0; p < s->num_phases && len < sizeof(list); p++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					p ? "," : "", s->phases[p].name);
	gd_report_header_str(s->rep, "phases", "Phases",
			     s->num_phases ? list : "HH");
}

static void gd_report_header(struct gd_session *s)
{
	const struct gd_port_info *p = &s->v.port;
	struct gd_report *rep = s->rep;
	char buf[160];

	gd_report_header_str(rep, "test", "Test", s->test->name);
	gd_report_header_str(rep, "role", "Role",
			     s->o->loopback ? "loopback client"
			     : s->is_server ? "server"
					    : "client");
	gd_report_header_str(rep, "device", "Device", p->dev_name);
	gd_report_header_int(rep, "port", "Port", p->port);
	gd_report_header_str(rep, "link_layer", "Link type",
			     p->link_layer == IBV_LINK_LAYER_ETHERNET
				     ? "Ethernet"
				     : "InfiniBand");
	gd_report_header_int(rep, "active_mtu_bytes", "Active MTU",
			     p->active_mtu_bytes);
	snprintf(buf, sizeof(buf), "%d (%s, %s)", p->gid_index, p->gid_type,
		 p->gid_text);
	gd_report_header_str(rep, "gid", "GID index", buf);
	gd_report_header_str(rep, "qp_type", "Connection",
			     gd_conn_name(s->o->conn));
	gd_report_header_int(rep, "num_qps", "Number of QPs",
			     (long long)s->o->num_qps);
	/* -o: what the reads and atomics may have in flight per QP */
	if (s->test->verb == &gd_verbs[GD_VERB_READ] ||
	    s->test->verb == &gd_verbs[GD_VERB_ATOMIC])
		gd_report_header_int(rep, "outstanding_reads", "Outstand reads",
				     (long long)s->qp.rd_atom);
	gd_report_header_str(
		rep, "connect_via", "Connected by",
		s->o->rdma_cm ? "rdma_cm" : "QP numbers over the side channel");
	gd_report_header_memory(s);
	gd_report_header_route(s);
	gd_report_header_str(rep, "pcie_relaxed_ordering", "RO requested",
			     gd_session_relaxed_ordering(s));
	gd_report_header_nic_ro(s);
	if (s->scatter_to_cqe[0])
		gd_report_header_str(rep, "mlx5_scatter_to_cqe",
				     "MLX5_SCATTER_TO_CQE", s->scatter_to_cqe);
	gd_report_header_phases(s);
	gd_report_header_str(rep, "peer", "Peer", s->oob.peer_name);
	gd_report_header_str(rep, "clock", "Clock", gd_clock_describe());
	gd_affinity_text(buf, sizeof(buf));
	gd_report_header_str(rep, "cpu_affinity", "CPU affinity", buf);
	if (s->numa_bind[0])
		gd_report_header_str(rep, "numa_node", "NUMA node",
				     s->numa_bind);
	if (s->o->mcg)
		gd_report_header_str(rep, "multicast_group", "Multicast group",
				     s->mcast.group_text);
	if (s->o->rate_limit > 0) {
		/* perftest says the burst it chose; the unit as given */
		snprintf(buf, sizeof(buf),
			 "SW, %g %s per initiator, bursts of %llu messages",
			 s->o->rate_limit, gd_rate_unit_name(s->o->rate_unit),
			 (unsigned long long)gd_pace_burst_msgs(s->o));
		gd_report_header_str(rep, "rate_limit", "Rate limit", buf);
	}
	if (s->test->verb->imm && s->test->measure == GD_MEASURE_LAT)
		gd_report_header_str(
			rep, "completion", "Completion",
			s->use_imm ? "write-with-immediate (receive CQ polled)"
				   : "last byte polled");
	gd_report_header_done(rep);
}

static struct json_object *gd_labels_json(const struct gd_opts *o)
{
	struct json_object *l = json_object_new_object();

	for (unsigned int i = 0; i < o->num_labels; i++) {
		char *eq = strchr(o->labels[i], '=');

		*eq = '\0';
		json_object_object_add(l, o->labels[i],
				       json_object_new_string(eq + 1));
		*eq = '=';
	}
	return l;
}

/* Does one of this side's device memories name its place (cuda:near)? */
static bool gd_wants_locality(const struct gd_opts *o)
{
	struct gd_mem_spec spec;

	for (unsigned int k = 0; k < o->num_mem; k++)
		if (!gd_mem_spec_parse(o->mem_list[k], &spec) &&
		    spec.locality != GD_MEM_NAMED)
			return true;
	return false;
}

static void gd_add_envelope(struct gd_report *rep, const struct gd_opts *o)
{
	bool device = false;

	for (unsigned int k = 0; k < o->num_mem; k++)
		device |= gd_mem_spec_is_device(o->mem_list[k]);
	/* The envelope costs tens of ms; the GPU part only when device memory
	 * is in the test, since starting a GPU driver can take seconds on a
	 * busy node. GD_TOPOLOGY_XML stands in for the live topology as
	 * gd_doctor --topology-xml does (tests of cuda:near and cuda:far). */
	struct gd_envelope_opts eo = {
		.flags = device ? 0 : GD_ENVELOPE_NO_GPU,
		.topology_xml = getenv("GD_TOPOLOGY_XML"),
	};
	struct json_object *env = NULL;

	if (!gd_envelope_collect(&eo, &env))
		gd_report_set_section(rep, "envelope", env);
	else
		gd_err_clear();
}

/* A failed phase fails the run (exit 1) although every phase reports. */
static bool gd_any_phase_failed(struct json_object *doc)
{
	struct json_object *phases, *st;

	if (!json_object_object_get_ex(doc, "phases", &phases))
		return false;
	for (size_t i = 0; i < json_object_array_length(phases); i++)
		if (json_object_object_get_ex(
			    json_object_array_get_idx(phases, i), "status",
			    &st) &&
		    strcmp(json_object_get_string(st), "ok"))
			return true;
	return false;
}

/* The verdicts speak of device memory in the words of its backend: the
 * one --mem names, else the first that has device memory. */
static void gd_device_words(const struct gd_opts *o, struct gd_device_words *w)
{
	const struct gd_mem_ops *dev =
		gd_mem_device_backend(o->num_mem ? o->mem_list[0] : NULL);

	if (dev)
		*w = (struct gd_device_words){
			.example = dev->example,
			.alias = dev->perftest_flag,
			.route_check = dev->route_check,
			.visibility = dev->visibility,
		};
}

/* Comparison, gates, verdicts and the plot, from the finished document. */
static int gd_judge(struct gd_session *s)
{
	const struct gd_opts *o = s->o;
	struct gd_gate_cfg g = {
		.expect_ratio = o->expect_ratio,
		.gate_from_bytes = o->gate_from_bytes,
		/* every size unless --gate-from narrows it */
		.judge_from_bytes = o->gate_from_given ? o->gate_from_bytes : 0,
		.min_bw_MiBps = o->min_bw_MiBps,
		.max_lat_us = o->max_lat_us,
		.max_lat_is_p99 = o->max_lat_p99,
		.undecided_pass =
			o->gate_undecided && !strcmp(o->gate_undecided, "pass")
	};
	struct json_object *doc = gd_report_root(s->rep), *cmp = NULL,
			   *verd = NULL;
	bool gate_failed = false;
	char note[512] = "";

	gd_device_words(o, &g.device);
	if (gd_compare_run(doc, &g, &cmp, &verd, &gate_failed)) {
		gd_err_clear();
		return 0;
	}
	gd_report_comparison(s->rep, cmp, verd);
	if (o->plot_path) {
		int r = gd_plot_write(doc, o->plot_path, note, sizeof(note));

		if (r)
			gd_report_notice("%s: plot: %s", s->test->name,
					 r > 0 ? note : gd_err_msg());
		gd_err_clear();
	}
	if (gd_any_phase_failed(doc))
		return GD_EXIT_FAIL;
	/* a failed gate (3) before an undecided one (4) */
	return gd_compare_gate_status(doc, gate_failed);
}

/* What the set-up session knows: the test, labels, options, endpoints. */
static void gd_report_sections(struct gd_session *s)
{
	struct json_object *ep = json_object_new_object();

	gd_report_set_section(s->rep, "test", gd_sweep_describe(s));
	json_object_object_add(ep, "local", gd_verbs_describe(&s->v));
	if (s->o->mcg)
		json_object_object_add(json_object_object_get(ep, "local"),
				       "multicast",
				       gd_mcast_describe(&s->mcast));
	json_object_object_add(ep, "remote",
			       json_object_get(s->remote_endpoint));
	gd_report_set_section(s->rep, "endpoints", ep);
}

/*
 * SIGINT or SIGTERM ended the run early (@ret is -EINTR): on this side, or
 * on the peer's, which said so over the side channel. The document says
 * which and when; the status is 128 + the signal here, 1 when the peer's.
 */
static int gd_interrupted(struct gd_session *s, struct gd_role *r)
{
	bool here = gd_stop_signal() != 0;
	struct json_object *in;

	if (!here && !s->oob.peer_stop_signal[0])
		return GD_EXIT_FAIL;
	in = json_object_new_object();
	json_object_object_add(
		in, "signal",
		json_object_new_string(
			here ? gd_stop_signal_name(gd_stop_signal())
			     : s->oob.peer_stop_signal));
	json_object_object_add(
		in, "during",
		json_object_new_string(here ? gd_stop_during_text()
					    : s->oob.peer_stop_during));
	/* the server got it when it came here and this is the server, or
	 * came from the peer and this is the client */
	json_object_object_add(in, "received_by",
			       json_object_new_string(here == s->is_server
							      ? "server"
							      : "client"));
	gd_report_set_section(s->rep, "interrupted", in);
	r->peer_interrupted = !here;
	return here ? gd_stop_exit_status(gd_stop_signal()) : GD_EXIT_FAIL;
}

/* Every pass, until one fails or (--run_infinitely) a signal comes between
 * two passes: then the peer is told, as the sweep tells it within one. */
static int gd_run_passes(struct gd_session *s)
{
	const char *sig;
	int ret;

	do {
		ret = gd_sweep_run(s);
	} while (!ret && s->o->run_infinitely && !gd_stop_signal());
	if (ret || !gd_stop_signal())
		return ret;
	sig = gd_stop_signal_name(gd_stop_signal());
	gd_stop_during("the end of a --run_infinitely pass");
	gd_oob_send_interrupted(&s->oob, sig, gd_stop_during_text());
	return gd_err_replace(-EINTR,
			      "interrupted by %s at the end of a "
			      "--run_infinitely pass; every pass is reported",
			      sig);
}

/* Did any step of the sweep run? A run that failed before its first step
 * (the device, the peer, the setup) is its error line and next check,
 * with no empty tables or verdicts after it; its document still has
 * them. */
static bool gd_any_step_ran(struct gd_session *s)
{
	struct json_object *phases =
		gd_json_path(gd_report_root(s->rep), "phases", NULL);

	for (size_t p = 0; phases && p < gd_json_len(phases); p++)
		if (gd_json_len(gd_json_path(gd_json_idx(phases, p), "steps",
					     NULL)) > 0)
			return true;
	return false;
}

/* The time account's section and its one line, once the run is over. */
static void gd_report_time_account(struct gd_session *s)
{
	char line[512];
	struct json_object *j = gd_acct_json(&s->acct, line, sizeof(line));

	gd_report_section_text(s->rep, "time_account", j,
			       s->is_server || !gd_any_step_ran(s) ? NULL
								   : line);
}

/* Where a document goes: nowhere from the --loopback server half (the
 * client half writes the run's), and with --persist under each client's
 * number. */
static const char *gd_role_path(const char *path, const struct gd_role *r,
				const struct gd_opts *o, char *buf, size_t len)
{
	if (!path || (r->is_server && o->loopback))
		return NULL;
	return r->client_no ? gd_out_numbered(path, r->client_no, buf, len)
			    : path;
}

/* Where this role's document, metrics and JUnit files go (gd_role_path). */
struct gd_role_paths {
	char json[4096], metrics[4096], junit[4096];
};

/* The report's configuration for this role: what it prints, where its
 * files go, how many rounds its rows hold. */
static void gd_role_report_cfg(struct gd_report_cfg *cfg,
			       const struct gd_test *test,
			       const struct gd_opts *o, const struct gd_role *r,
			       struct gd_role_paths *p)
{
	enum gd_progress_mode pmode = GD_PROGRESS_AUTO;

	*cfg = (struct gd_report_cfg){
		.tool = test->name,
		.version = PACKAGE_VERSION,
		.measure = test->measure,
		.report_gbits = o->report_gbits,
		.only = o->output,
		.json_path = gd_role_path(o->json_path, r, o, p->json,
					  sizeof(p->json)),
		.text = r->quiet ? NULL : stdout,
		.repeats = gd_opts_adaptive(o) ? gd_precision_base(o)
					       : (unsigned int)o->repeat,
		.repeats_vary = gd_opts_adaptive(o),
		.live = true,
		.brief = o->brief,
		.metrics_path = gd_role_path(o->metrics_path, r, o, p->metrics,
					     sizeof(p->metrics)),
		.metrics_sizes = o->metrics_sizes,
		.junit_path = gd_role_path(o->junit_path, r, o, p->junit,
					   sizeof(p->junit)),
	};
	/* the client's sweep, on this side's stderr; the word was checked
	 * with the options */
	(void)gd_progress_mode_parse(o->progress, &pmode);
	cfg->progress = !r->is_server && !r->quiet &&
			gd_progress_enabled(pmode, isatty(STDERR_FILENO));
}

/* The sections every document has, also a run's that cannot connect,
 * then this side's set-up up to a session with its peer: 0 or -errno. */
static int gd_role_setup(struct gd_session *s, struct gd_opts *o)
{
	bool is_server = s->is_server;
	int ret;

	gd_report_set_section(s->rep, "role",
			      json_object_new_string(o->loopback ? "loopback"
						     : is_server ? "server"
								 : "client"));
	/* before setup: a run that cannot even connect still names its
	 * campaign execution, so gd_report can place the failure */
	gd_report_set_section(s->rep, "labels", gd_labels_json(o));
	gd_report_set_section(s->rep, "options", o->ops->effective(o));
	if (!is_server || gd_wants_locality(o))
		gd_add_envelope(s->rep, o);
	ret = gd_pin_cpu(o, is_server && o->loopback);
	if (!ret && o->numa_node >= 0)
		ret = gd_numa_bind(o->numa_node, s->numa_bind,
				   sizeof(s->numa_bind));
	/* Fail before waiting for (or reaching) the peer when this side's
	 * device or, on the server, one of its memories is missing. Not with
	 * --loopback: nobody waits there, the setup that follows at once
	 * reports the same failures, and a missing memory fails only its
	 * phases while host memory still reports. */
	if (!ret && !o->loopback)
		ret = gd_preflight(o, is_server, s->ready, sizeof(s->ready));
	gd_acct_mark(&s->acct, GD_ACCT_PREFLIGHT);
	if (!ret)
		ret = gd_session_setup(s);
	return ret;
}

/* A run that failed with *@ret: its error, printed and in the document;
 * the exit status it gives. *@ret becomes -EINTR when a signal came. */
static int gd_role_failed(struct gd_session *s, struct gd_role *r,
			  const char *who, int *ret)
{
	int status;

	/* whatever failed once the signal came failed because of it */
	if (*ret != -EINTR && gd_stop_signal())
		*ret = gd_err_replace(-EINTR,
				      "interrupted by %s during %s (%s)",
				      gd_stop_signal_name(gd_stop_signal()),
				      gd_stop_during_text(), gd_err_msg());
	gd_report_error(s->rep, who, *ret, gd_err_msg());
	status = *ret == -EINTR ? gd_interrupted(s, r) : GD_EXIT_FAIL;
	/* printed and in the document: what follows is news */
	gd_err_clear();
	return status;
}

/* The session's end: teardown, the time account, the document written;
 * the exit status, @status unless writing failed. */
static int gd_role_finish(struct gd_session *s, const struct gd_test *test,
			  int status)
{
	gd_session_teardown(s);
	gd_acct_mark(&s->acct, GD_ACCT_TEARDOWN);
	gd_report_time_account(s);
	if (gd_report_finish(s->rep, status)) {
		gd_report_error(NULL, test->name, gd_err_code(), gd_err_msg());
		if (status == GD_EXIT_OK)
			status = GD_EXIT_FAIL;
	}
	gd_report_free(s->rep);
	return status;
}

int gd_role_run(const struct gd_test *test, struct gd_opts *o, int argc,
		char **argv, struct gd_role *r)
{
	struct gd_role_paths paths;
	struct gd_report_cfg cfg;
	struct gd_session s = { .test = test,
				.o = o,
				.is_server = r->is_server,
				.listen_kept = r->listen_fd >= 0,
				.listen_fd = r->listen_fd };
	int ret, status = GD_EXIT_OK;
	char who[96];

	gd_role_report_cfg(&cfg, test, o, r, &paths);
	gd_acct_start(&s.acct);
	snprintf(who, sizeof(who), "%s%s", test->name,
		 r->is_server ? " (server)" : "");
	s.oob.fd = -1;
	s.rep = gd_report_new(&cfg, argc, argv);
	if (!s.rep) {
		gd_report_notice("%s: out of memory", test->name);
		return GD_EXIT_FAIL;
	}
	ret = gd_role_setup(&s, o);
	r->client_seen = s.client_seen;
	snprintf(r->peer, sizeof(r->peer), "%s", s.oob.peer_name);
	if (!ret) {
		gd_report_sections(&s);
		gd_report_header(&s);
		gd_sweep_announce(&s);
		gd_acct_mark(&s.acct, GD_ACCT_REPORT);
		ret = gd_run_passes(&s);
	}
	if (ret)
		status = gd_role_failed(&s, r, who, &ret);
	/* A sweep that failed midway is judged too: the phases it kept are
	 * evidence, and the failed one gets its verdict. Not an interrupted
	 * sweep: its cut phases would read as failed ones. */
	if (!r->is_server && ret != -EINTR && s.num_phases &&
	    (!ret || gd_any_step_ran(&s))) {
		int judged = gd_judge(&s);

		if (!ret)
			status = judged;
	}
	gd_acct_mark(&s.acct, GD_ACCT_REPORT);
	if (!ret && gd_session_wait_destroy(&s))
		r->wait_cut = true;
	return gd_role_finish(&s, test, status);
}
