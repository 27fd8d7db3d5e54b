/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --dry-run: what a run of these options would do, checked as the run
 * checks it (the client's plan, and the server's adoption of the test
 * against its limits through the session's own functions), and said
 * without opening a device, connecting or writing a file.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "engine/engine.h"
#include "engine/limits.h"
#include "engine/session.h"
#include "engine/sweep.h"
#include "util/error.h"

/* What one place of a phase holds on one side: "host", "cuda:0", or why
 * it has nothing there. */
static void gd_dry_place(const struct gd_opts *o, unsigned int place,
			 bool server_unknown, char *buf, size_t len)
{
	if (place == GD_PLACE_HOST)
		snprintf(buf, len, "%s",
			 o->use_hugepages ? "hugepage" : "host");
	else if (place <= o->num_mem)
		snprintf(buf, len, "%s", o->mem_list[place - 1]);
	else if (server_unknown)
		snprintf(buf, len, "D%u of the server's own --mem", place);
	else
		snprintf(buf, len,
			 "none: no D%u in --mem, the phase will not run",
			 place);
}

static void gd_dry_phases(struct gd_report *rep, const struct gd_session *c,
			  const struct gd_opts *server)
{
	char cl[96], sv[96];

	for (unsigned int p = 0; p < c->num_phases; p++) {
		const struct gd_phase *ph = &c->phases[p];

		gd_dry_place(c->o, ph->client_place, false, cl, sizeof(cl));
		gd_dry_place(server ? server : c->o, ph->server_place,
			     server && !server->num_mem, sv, sizeof(sv));
		gd_report_status(rep, " Phase %-7s: client %s, server %s",
				 ph->name, cl, sv);
	}
}

static void gd_dry_sizes(struct gd_report *rep, const struct gd_session *c)
{
	char list[256] = "";
	size_t used = 0;

	for (unsigned int z = 0; z < c->num_sizes && used < sizeof(list); z++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%" PRIu64, z ? "," : "",
					 c->sizes[z]);
	if (used >= sizeof(list))
		snprintf(list, sizeof(list), "%" PRIu64 " .. %" PRIu64,
			 c->sizes[0], c->sizes[c->num_sizes - 1]);
	gd_report_status(rep, " Sizes        : %u (%s bytes)", c->num_sizes,
			 list);
}

/* Rounds, steps and the time: the server's --max-time estimate, whose
 * fixed part per step is the time account's agree, prepare, start,
 * counter and exchange parts on a slow link. */
static void gd_dry_time(struct gd_report *rep, const struct gd_session *c,
			const struct gd_request *r)
{
	const struct gd_opts *o = c->o;
	bool precise = o->precision_pct > 0;
	uint64_t rounds = precise ? o->max_repeat : o->repeat;
	unsigned long steps =
		(unsigned long)c->num_phases * c->num_sizes * rounds;
	double fixed = (double)steps * GD_LIMIT_STEP_COST_S;

	if (precise)
		gd_report_status(
			rep,
			" Rounds       : %" PRIu64 " to %" PRIu64
			" per size (--precision=%g: until the intervals are that narrow)",
			(uint64_t)gd_precision_base(o), o->max_repeat,
			o->precision_pct);
	else
		gd_report_status(rep, " Rounds       : %" PRIu64 "%s", rounds,
				 o->no_interleave ? " (not interleaved)"
						  : " (interleaved)");
	gd_report_status(
		rep,
		" Steps        : %s%lu (%u phase(s) x %u size(s) x %" PRIu64
		" round(s)), each %s",
		precise ? "at most " : "", steps, c->num_phases, c->num_sizes,
		rounds, o->duration_s ? "for -D seconds" : "of -n iterations");
	if (o->duration_s)
		gd_report_status(rep,
				 " Per step     : -D %" PRIu64 " s, %" PRIu64
				 " QP(s)",
				 o->duration_s, o->num_qps);
	else
		gd_report_status(rep,
				 " Per step     : -n %" PRIu64
				 " iterations after %" PRIu64
				 " warm-up, %" PRIu64 " QP(s)",
				 o->iters, o->warmup_iters, o->num_qps);
	if (r->time_s < 0) {
		gd_report_status(
			rep,
			" Expected time: no end (--run_infinitely: passes until SIGINT or SIGTERM)");
		return;
	}
	gd_report_status(
		rep,
		" Expected time: %sabout %.1f s of steps: %.1f s measuring and moving data, %.1f s fixed (%.2f s a step: agree, prepare, start, counters, exchange), plus the setup%s",
		precise ? "at most " : "", r->time_s, r->time_s - fixed, fixed,
		GD_LIMIT_STEP_COST_S,
		precise && (double)o->precision_time_s < r->time_s
			? "; --precision-time stops adding rounds sooner"
			: "");
}

static void gd_dry_limits(struct gd_report *rep, const struct gd_session *sv,
			  const struct gd_request *r)
{
	struct gd_limits l;
	char time_s[64];

	gd_limits_from_opts(sv->o, &l);
	gd_limits_raise(&l, &sv->server_own);
	if (l.time_s)
		snprintf(time_s, sizeof(time_s), "%.0f of %" PRIu64 " s",
			 r->time_s, l.time_s);
	else
		snprintf(time_s, sizeof(time_s), "no limit");
	gd_report_status(
		rep,
		" Server limits: %.1f of %.1f MiB (--max-memory), %" PRIu64
		" of %" PRIu64 " QP(s) (--max-qps), %u of %" PRIu64
		" buffer(s) (--max-memories), %s (--max-time)",
		(double)r->mem_bytes / (1 << 20),
		(double)l.mem_bytes / (1 << 20), r->qps, l.qps, r->memories,
		l.memories, time_s);
}

/* The server's side of the handshake, without a connection: the test as
 * it would travel, checked and adopted into @server, held against its
 * limits. The refusal is the server's line, as the client would print it. */
static int gd_dry_server(const struct gd_test *test, struct gd_opts *o,
			 struct gd_session *sv, const char *who)
{
	struct json_object *w = o->ops->to_wire(test, o);
	char field[64] = "", ours[128], theirs[128], msg[GD_ERR_MSG_MAX];
	int quiet = open("/dev/null", O_WRONLY | O_CLOEXEC), ret;

	/* the server's own notices (a --expect-ratio warning) are the ones
	 * this side printed already */
	if (quiet >= 0)
		gd_report_notices_to(quiet);
	ret = gd_session_adopt(sv, w, field, sizeof(field), ours, theirs,
			       sizeof(ours));
	gd_report_notices_to(-1);
	if (quiet >= 0)
		close(quiet);
	json_object_put(w);
	if (!ret)
		return 0;
	/* the words of the client's line on a REJECT frame: its own value
	 * first (the server's "peer"), then the server's */
	snprintf(msg, sizeof(msg), "%s", gd_err_msg());
	if (field[0])
		return gd_err_replace(
			ret,
			"%s would reject the test: field '%s': ours=%s theirs=%s: %s",
			who, field, theirs, ours, msg);
	return gd_err_replace(ret, "%s would reject the test: %s", who, msg);
}

static int gd_dry_server_role(const struct gd_opts *o, struct gd_report *rep)
{
	struct gd_request own;
	char mem[320] = "host", clients[64] = "one client";
	size_t used = strlen(mem);

	for (unsigned int k = 0; k < o->num_mem && used < sizeof(mem); k++)
		used += (size_t)snprintf(mem + used, sizeof(mem) - used, ", %s",
					 o->mem_list[k]);
	/* what its own options ask for raises its limits: it must parse */
	if (gd_limits_request(o, &own))
		return gd_err_code();
	if (o->persist && o->max_clients)
		snprintf(clients, sizeof(clients),
			 "%" PRIu64 " clients one after another (--persist)",
			 o->max_clients);
	else if (o->persist)
		snprintf(clients, sizeof(clients),
			 "clients until a signal (--persist)");
	gd_report_status(rep,
			 " Role         : server on port %" PRIu64
			 ": the test comes from the client; %s",
			 o->tcp_port, clients);
	gd_report_status(rep, " Memories     : %s", mem);
	gd_report_status(
		rep,
		" Limits       : --max-memory %.1f MiB, --max-time %" PRIu64
		" s, --max-qps %" PRIu64 ", --max-memories %" PRIu64
		" (each at least what this command line's own options ask)",
		(double)o->max_memory_bytes / (1 << 20), o->max_time_s,
		o->max_qps, o->max_memories);
	return 0;
}

static int gd_dry_client(const struct gd_test *test, struct gd_opts *o,
			 struct gd_opts *server, const char *who,
			 struct gd_report *rep)
{
	struct gd_session c = { .test = test, .o = o };
	struct gd_session sv = { .test = test, .o = server, .is_server = true };
	if (!who)
		who = "the --loopback server half";
	struct gd_request r;
	int ret;

	gd_session_default_phases(o);
	/* the --loopback server half runs these same options: its limits are
	 * raised to them, so only the client's checks apply */
	ret = server ? gd_dry_server(test, o, &sv, who) : 0;
	/* then each side plans its sweep, the client's line first */
	if (!ret)
		ret = gd_sweep_plan(&c);
	if (!ret && server)
		ret = gd_sweep_plan(&sv);
	if (!ret)
		ret = gd_limits_request(o, &r);
	if (ret)
		goto out;
	if (o->loopback)
		gd_report_status(
			rep,
			" Role         : --loopback: server half and client half here");
	else
		gd_report_status(rep,
				 " Role         : client of %s port %" PRIu64
				 " (checked against %s)",
				 o->server_host, o->tcp_port, who);
	gd_dry_phases(rep, &c, server);
	gd_dry_sizes(rep, &c);
	gd_dry_time(rep, &c, &r);
	if (server)
		gd_dry_limits(rep, &sv, &r);
out:
	free(c.samples_ns);
	free(sv.samples_ns);
	return ret;
}

int gd_engine_dry_run(const struct gd_test *test, struct gd_opts *o,
		      struct gd_opts *server, const char *who)
{
	struct gd_report_cfg cfg = { .tool = test->name,
				     .version = PACKAGE_VERSION,
				     .measure = test->measure,
				     .text = stdout };
	struct gd_report *rep = gd_report_new(&cfg, 0, NULL);
	bool server_role = !o->loopback && !o->server_host;
	int ret;

	if (!rep) {
		gd_report_notice("%s: out of memory", test->name);
		return GD_EXIT_FAIL;
	}
	ret = server_role ? gd_dry_server_role(o, rep)
			  : gd_dry_client(test, o, server, who, rep);
	if (ret)
		gd_report_error(NULL, test->name, ret, gd_err_msg());
	else
		gd_report_status(
			rep,
			"%s --dry-run: the command line is valid; nothing was opened, sent or written",
			test->name);
	gd_report_free(rep);
	return ret ? GD_EXIT_USAGE : GD_EXIT_OK;
}
