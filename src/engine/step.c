/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One step (phase x size) walked by both sides in lockstep over the side
 * channel: the client announces it, the server checks it against its own
 * plan and prepares, the client prepares and says go, the initiator runs
 * the measured loop, both take counter deltas, the server sends its half.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "transport/counters.h"
#include "util/error.h"
#include "util/json_get.h"
#include "util/stop.h"
#include "engine/sweep.h"
#include "report/perftest_modes.h"

struct gd_step_ctx {
	struct gd_step st;
	struct gd_counter_snap *before;
	const struct gd_phase *ph;
	uint32_t seed;
	uint64_t traffic_end_ns; /* when this side's transfer returned */
	bool verify_here;	 /* this side checks its buffer */
};

static struct json_object *gd_obj(void)
{
	return json_object_new_object();
}

static bool gd_initiates(const struct gd_session *s, const struct gd_phase *ph)
{
	return ph->dir == GD_DIR_BIDIR ||
	       (ph->dir == GD_DIR_FORWARD) != s->is_server;
}

static bool gd_targets(const struct gd_session *s, const struct gd_phase *ph)
{
	return ph->dir == GD_DIR_BIDIR || !gd_initiates(s, ph);
}

/* Why this side cannot run the phase, or NULL; with where it failed
 * ("register", or "config" when never configured) and its -errno. */
static const char *gd_step_unavailable(struct gd_session *s,
				       const struct gd_phase *ph,
				       const char **stage, int *err)
{
	unsigned int mine = s->is_server ? ph->server_place : ph->client_place;
	unsigned int theirs =
		s->is_server ? ph->client_place : ph->server_place;
	const struct gd_local_buf *lb = &s->local[mine];
	const struct gd_remote_buf *rb = &s->remote[theirs];

	if (!lb->ok) {
		*stage = lb->stage[0] ? "register" : "config";
		*err = lb->err;
		return lb->why_absent;
	}
	if (!rb->present) {
		*stage = rb->stage[0] ? "register" : "config";
		*err = rb->err;
		return rb->why_absent;
	}
	*stage = "peer";
	*err = 0;
	return NULL;
}

static bool gd_verify_applies(const struct gd_session *s)
{
	return s->o->verify && s->test->verb->verifiable &&
	       !(s->test->measure == GD_MEASURE_LAT && gd_lat_is_pingpong(s));
}

/* Fill the data source with the step's pattern and the destination with
 * its complement, so stale data can never pass the check. */
static int gd_step_prepare(struct gd_step_ctx *c)
{
	struct gd_step *st = &c->st;
	struct gd_session *s = st->s;
	bool source =
		s->test->verb->target_is_source ? st->target : st->initiator;
	size_t half = s->slot_bytes / 2;
	int ret = 0;

	if (gd_verify_applies(s)) {
		c->verify_here = !source && c->ph->dir != GD_DIR_BIDIR;
		for (unsigned int q = 0; q < s->v.num_qps && !ret; q++)
			ret = gd_mem_fill_pattern(
				&st->lb->mem, q * s->slot_bytes,
				st->size_bytes + GD_UD_GRH_BYTES,
				source ? c->seed : ~c->seed);
	}
	if (!ret && s->test->measure == GD_MEASURE_LAT && gd_step_polls_byte(s))
		memset((uint8_t *)st->lb->mem.addr + half, 0, st->size_bytes);
	if (!ret && st->target && gd_step_needs_recv(s))
		ret = gd_step_post_recvs(st);
	if (!ret && s->test->measure == GD_MEASURE_LAT &&
	    gd_lat_is_pingpong(s) && gd_step_needs_recv(s) && !st->target)
		ret = gd_step_post_recvs(st);
	if (!ret)
		ret = gd_counters_snapshot(
			gd_counters_root(s->o->counters_root),
			s->v.port.dev_name, s->v.port.port, &c->before);
	return ret;
}

static struct json_object *gd_step_verify(struct gd_step_ctx *c)
{
	struct gd_step *st = &c->st;
	struct gd_session *s = st->s;
	struct json_object *v;
	size_t off = s->v.conn == GD_CONN_UD ? GD_UD_GRH_BYTES : 0;
	int ret = 0;

	if (!c->verify_here)
		return NULL;
	v = gd_obj();
	/* UD receives land after the 40-byte GRH; UD senders send from the
	 * same offset so pattern indexes line up. */
	for (unsigned int q = 0; q < s->v.num_qps && !ret; q++)
		ret = gd_mem_check_pattern(&st->lb->mem,
					   q * s->slot_bytes + off,
					   st->size_bytes, c->seed);
	json_object_object_add(v, "checked_bytes",
			       json_object_new_int64((int64_t)(st->size_bytes *
							       s->v.num_qps)));
	json_object_object_add(v, "ok", json_object_new_boolean(!ret));
	if (ret) {
		json_object_object_add(v, "error",
				       json_object_new_string(gd_err_msg()));
		gd_err_clear();
	}
	return v;
}

static int gd_sync_send(struct gd_session *s, struct json_object *m)
{
	int ret = gd_oob_send(&s->oob, GD_FRAME_SYNC, m);

	json_object_put(m);
	return ret;
}

static int gd_sync_recv(struct gd_session *s, struct json_object **m)
{
	return gd_oob_recv(&s->oob, GD_FRAME_SYNC, m);
}

/* Client: announce the step; server: check it against its own plan.
 * Returns 1 when the step is skipped (reason in out->error). */
static int gd_step_agree(struct gd_session *s, unsigned int no,
			 const struct gd_phase *ph, uint64_t size,
			 struct gd_step_outcome *out)
{
	const char *stage, *peer_why;
	int err;
	const char *why = gd_step_unavailable(s, ph, &stage, &err);
	struct json_object *m = NULL;
	int ret;

	if (!s->is_server) {
		m = gd_obj();
		json_object_object_add(m, "step", json_object_new_int64(no));
		json_object_object_add(m, "phase",
				       json_object_new_string(ph->name));
		json_object_object_add(m, "size",
				       json_object_new_int64((int64_t)size));
		if (why)
			json_object_object_add(m, "skip",
					       json_object_new_string(why));
		ret = gd_sync_send(s, m);
		if (ret || why)
			goto skip;
		ret = gd_sync_recv(s, &m);
		if (ret)
			return ret;
		peer_why = gd_json_str(m, "skip");
		if (peer_why)
			snprintf(out->error, sizeof(out->error), "server: %s",
				 peer_why);
		json_object_put(m);
		return peer_why ? 1 : 0;
	}
	if (s->announced) {
		m = s->announced;
		s->announced = NULL;
	} else {
		ret = gd_sync_recv(s, &m);
		if (ret)
			return ret;
	}
	if (gd_json_int(m, "step", -1) != no || !gd_json_str(m, "phase") ||
	    strcmp(gd_json_str(m, "phase"), ph->name) ||
	    gd_json_int(m, "size", -1) != (int64_t)size) {
		json_object_put(m);
		return gd_err(
			-EPROTO,
			"peer %s announced a step that is not step %u (%s, %" PRIu64
			" bytes) of this side's plan; are both ends the same gdperf version?",
			s->oob.peer_name, no, ph->name, size);
	}
	peer_why = gd_json_str(m, "skip");
	if (peer_why)
		snprintf(out->error, sizeof(out->error), "client: %s",
			 peer_why);
	json_object_put(m);
	if (peer_why)
		return 1;
	m = gd_obj();
	if (why)
		json_object_object_add(m, "skip", json_object_new_string(why));
	ret = gd_sync_send(s, m);
	if (ret || !why)
		return ret;
skip:
	if (ret)
		return ret;
	snprintf(out->error, sizeof(out->error), "%s: %s",
		 s->is_server ? "server" : "client", why);
	return 1;
}

int gd_step_follow(struct gd_session *s, unsigned int step_no,
		   const struct gd_phase **ph, uint64_t *size_bytes)
{
	struct json_object *m = NULL, *end;
	const char *name;
	int64_t size;
	int ret = gd_sync_recv(s, &m);

	if (ret)
		return ret;
	if (json_object_object_get_ex(m, "end", &end) &&
	    json_object_get_boolean(end)) {
		json_object_put(m);
		return 1;
	}
	*size_bytes = 0;
	name = gd_json_str(m, "phase");
	size = gd_json_int(m, "size", -1);
	*ph = NULL;
	for (unsigned int p = 0; name && p < s->num_phases; p++)
		if (!strcmp(s->phases[p].name, name))
			*ph = &s->phases[p];
	for (unsigned int z = 0; z < s->num_sizes; z++)
		if ((int64_t)s->sizes[z] == size)
			*size_bytes = s->sizes[z];
	if (!*ph || *size_bytes != (uint64_t)size) {
		json_object_put(m);
		return gd_err(
			-EPROTO,
			"peer %s announced step %u as phase '%s' at %" PRId64
			" bytes, which this side's plan does not have; are both ends the same gdperf version with the same --phases and sizes?",
			s->oob.peer_name, step_no, name ? name : "?", size);
	}
	s->announced = m;
	return 0;
}

int gd_step_end(struct gd_session *s)
{
	struct json_object *m = gd_obj();

	json_object_object_add(m, "end", json_object_new_boolean(1));
	return gd_sync_send(s, m);
}

/* Neither side starts before both are prepared: the client says "ready"
 * once its buffers are filled, the server answers "go" once its own are.
 * A one-way "go" from the client let it write into a buffer the server was
 * still filling: a lost first ping in write latency (both ends then wait
 * for a write that came too early) and a --verify mismatch showing the
 * server's own fill pattern. */
static int gd_step_go(struct gd_session *s)
{
	const char *say = s->is_server ? "go" : "ready";
	struct json_object *m = NULL;
	int ret;

	if (s->is_server) {
		ret = gd_sync_recv(s, &m);
		json_object_put(m);
		if (ret)
			return ret;
	}
	m = gd_obj();
	json_object_object_add(m, say, json_object_new_boolean(1));
	ret = gd_sync_send(s, m);
	if (ret || s->is_server)
		return ret;
	m = NULL;
	ret = gd_sync_recv(s, &m);
	json_object_put(m);
	return ret;
}

/*
 * The initiator's last word on a step. Interrupted by SIGINT/SIGTERM, it
 * sends none: the sweep tells the peer with an interruption frame instead,
 * which the target reads in place of "done" and so knows the step ended
 * by a signal, not by a failure of this side.
 */
static int gd_send_done(struct gd_session *s, uint64_t sent, int err)
{
	struct json_object *m;

	if (err && gd_stop_signal())
		return 0;
	m = gd_obj();
	json_object_object_add(m, "done", json_object_new_boolean(1));
	json_object_object_add(m, "sent", json_object_new_int64((int64_t)sent));
	if (err)
		json_object_object_add(m, "error",
				       json_object_new_string(gd_err_msg()));
	return gd_sync_send(s, m);
}

/*
 * A server's wait within its --max-time: the side channel's silence limit
 * restarts on every heartbeat of a live client, so the deadline is checked
 * here, at least every GD_OOB_STOP_POLL_MS (a frame ends the wait at once).
 */
static int gd_wait_frame_by(struct gd_session *s, uint64_t silence_ms,
			    struct json_object **m)
{
	for (;;) {
		struct pollfd pfd = { .fd = s->oob.fd, .events = POLLIN };
		uint64_t now = gd_now_ns();
		int ret = gd_oob_try_recv(&s->oob, GD_FRAME_SYNC, m);

		if (ret)
			return ret < 0 ? ret : 0;
		if (now >= s->limit_deadline_ns)
			return gd_step_over_time(s);
		if (gd_oob_now_ms() - s->oob.heard_ms > (int64_t)silence_ms)
			return gd_err(
				-ETIMEDOUT,
				"no word from peer %s for %" PRIu64
				" ms while it ran the step; is it still running?",
				s->oob.peer_name, silence_ms);
		gd_oob_alive(&s->oob);
		(void)poll(&pfd, 1, GD_OOB_STOP_POLL_MS);
	}
}

/* The target waits for the initiator's done frame as long as the
 * initiator itself would wait for a completion. */
static int gd_wait_done(struct gd_step *st, uint64_t *sent)
{
	struct gd_session *s = st->s;
	uint64_t silence_ms = gd_step_silence_ns(st) / 1000000;
	struct json_object *m = NULL;
	bool done = false;
	int ret = s->limit_deadline_ns
			  ? gd_wait_frame_by(s, silence_ms, &m)
			  : gd_oob_recv_within(&s->oob, GD_FRAME_SYNC, &m,
					       silence_ms < INT_MAX
						       ? (int)silence_ms
						       : INT_MAX);

	if (!ret)
		ret = gd_step_done_frame(s, m, &done, sent);
	json_object_put(m);
	return ret;
}

/* Bidirectional send (or write-with-immediate): this side receives in a
 * second thread while the first one sends. gd_err is per thread, so the
 * receiver's message is carried back by hand. */
struct gd_recv_thread {
	struct gd_step *st;
	uint64_t received, peer_sent;
	bool done_seen;
	int ret;
	char msg[GD_ERR_MSG_MAX];
};

static void *gd_recv_thread_main(void *arg)
{
	struct gd_recv_thread *t = arg;

	t->ret = gd_bw_receive(t->st, &t->received, &t->done_seen,
			       &t->peer_sent);
	if (t->ret)
		snprintf(t->msg, sizeof(t->msg), "%s", gd_err_msg());
	return NULL;
}

static int gd_step_bidir_recv(struct gd_step_ctx *c, struct gd_step_result *r,
			      uint64_t *received)
{
	struct gd_step *st = &c->st;
	struct gd_recv_thread t = { .st = st };
	uint64_t peer_sent = 0;
	pthread_t tid;
	int ret;

	st->oob_elsewhere = true;
	ret = pthread_create(&tid, NULL, gd_recv_thread_main, &t);
	if (ret) {
		st->oob_elsewhere = false;
		return gd_err(-ret, "cannot start the receive thread: %s",
			      strerror(ret));
	}
	ret = gd_bw_initiate(st, r);
	if (gd_send_done(st->s, r->msgs_done, ret) && !ret)
		ret = gd_err_code();
	pthread_join(tid, NULL);
	st->oob_elsewhere = false;
	*received = t.received;
	if (!ret && t.ret)
		ret = gd_err(t.ret, "%s", t.msg);
	if (!ret && !t.done_seen)
		ret = gd_wait_done(st, &peer_sent);
	return ret;
}

/* The measured part. Returns -errno when the QPs are no longer usable. */
static int gd_step_measure(struct gd_step_ctx *c, struct gd_step_result *r,
			   uint64_t *received)
{
	struct gd_step *st = &c->st;
	struct gd_session *s = st->s;
	uint64_t peer_sent = 0;
	bool done_seen = false;
	int ret = 0;

	if (s->test->measure == GD_MEASURE_LAT && gd_lat_is_pingpong(s))
		return gd_lat_run(st, r);
	if (c->ph->dir == GD_DIR_BIDIR && gd_step_needs_recv(s))
		return gd_step_bidir_recv(c, r, received);
	if (st->initiator) {
		struct gd_cpu_sample c0, c1;
		bool cpu = s->o->cpu_util && !gd_cpu_sample(&c0);

		ret = s->test->measure == GD_MEASURE_LAT
			      ? gd_lat_run(st, r)
			      : gd_bw_initiate(st, r);
		r->cpu_util_pct = cpu && !gd_cpu_sample(&c1)
					  ? gd_cpu_util_pct(&c0, &c1)
					  : -1;
		if (gd_send_done(s, r->msgs_done, ret) && !ret)
			ret = gd_err_code();
		if (ret)
			return ret;
	}
	if (!st->target)
		return 0;
	if (gd_step_needs_recv(s) && s->test->measure == GD_MEASURE_BW) {
		ret = gd_bw_receive(st, received, &done_seen, &peer_sent);
		if (!ret && !done_seen)
			ret = gd_wait_done(st, &peer_sent);
		return ret;
	}
	return gd_wait_done(st, &peer_sent);
}

/*
 * sysfs hw_counters/ is a copy that any reader refreshes and that lives
 * for "lifespan" ms: our own opening read, or a monitoring agent's
 * (node_exporter, DCGM, a script polling sent_pkts). Read from it, a
 * closing snapshot sooner than a lifespan after the traffic can hold values
 * from before its last packets (seen: 127 of 85056 sent packets missing,
 * with a harness polling the counters every 200 ms). So when the opening
 * snapshot had to read the files (RDMA netlink, which asks the driver
 * each time, was refused), wait until a lifespan and a few ticks have
 * passed since this side's transfer ended: whoever refreshed the copy did
 * so after the traffic.
 */
static void gd_counters_settle(struct gd_step_ctx *c)
{
	unsigned int life_ms = c->st.s->counters_lifespan_ms;
	/* the copy expires on jiffies: allow a few ticks beyond it */
	uint64_t need_ns = (life_ms + 10) * 1000000ULL, elapsed;
	struct timespec ts;

	if (!life_ms || gd_counters_fresh(c->before))
		return;
	elapsed = gd_now_ns() - c->traffic_end_ns;
	if (elapsed >= need_ns)
		return;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(need_ns - elapsed);
	nanosleep(&ts, NULL);
}

static struct json_object *gd_step_counters(struct gd_step_ctx *c)
{
	struct gd_session *s = c->st.s;
	struct gd_counter_snap *after = NULL;
	struct json_object *d = NULL;

	gd_counters_settle(c);
	if (!c->before ||
	    gd_counters_snapshot(gd_counters_root(s->o->counters_root),
				 s->v.port.dev_name, s->v.port.port, &after) ||
	    gd_counters_delta(c->before, after, &d)) {
		/* Counters are evidence, not the measurement: note and go on.
		 */
		d = gd_obj();
		json_object_object_add(d, "error",
				       json_object_new_string(gd_err_msg()));
		gd_err_clear();
	}
	gd_counters_free(after);
	gd_counters_free(c->before);
	c->before = NULL;
	return d;
}

/* What the peer sends is copied, never trusted: the document's readers
 * (comparison, verdicts, gd_report) index arrays and read strings where
 * the counters module writes them, and json-c asserts on a wrong type. */
static struct json_object *gd_peer_str_array(struct json_object *a,
					     unsigned int *dropped)
{
	struct json_object *out = json_object_new_array(), *e;

	for (size_t i = 0; i < gd_json_len(a); i++) {
		e = json_object_array_get_idx(a, i);
		if (json_object_is_type(e, json_type_string))
			json_object_array_add(out, json_object_get(e));
		else
			(*dropped)++;
	}
	return out;
}

/* A count: a non-negative integer, or null where the side had none. */
static bool gd_peer_count(struct json_object *from, const char *key,
			  struct json_object *to)
{
	struct json_object *v;

	if (!json_object_object_get_ex(from, key, &v))
		return true;
	if (v && (!json_object_is_type(v, json_type_int) ||
		  json_object_get_int64(v) < 0))
		return false;
	json_object_object_add(to, key, json_object_get(v));
	return true;
}

static struct json_object *gd_peer_counter(struct json_object *e)
{
	static const char *const strs[] = { "name", "group", "unit", "class" };
	struct json_object *c, *v;

	if (!gd_json_str(e, "name"))
		return NULL;
	c = json_object_new_object();
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (gd_json_str(e, strs[i]))
			json_object_object_add(
				c, strs[i],
				json_object_new_string(
					gd_json_str(e, strs[i])));
	if (!gd_peer_count(e, "delta", c)) {
		json_object_put(c);
		return NULL;
	}
	if (json_object_object_get_ex(e, "error", &v) &&
	    json_object_is_type(v, json_type_boolean))
		json_object_object_add(c, "error", json_object_get(v));
	return c;
}

/* "hw_counters_via": one of the two words, or null; false otherwise. */
static bool gd_peer_via(struct json_object *from, struct json_object *to)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(from, "hw_counters_via", &v))
		return true;
	s = v && json_object_is_type(v, json_type_string)
		    ? json_object_get_string(v)
		    : NULL;
	if (v && (!s || (strcmp(s, "netlink") && strcmp(s, "sysfs"))))
		return false;
	json_object_object_add(to, "hw_counters_via", json_object_get(v));
	return true;
}

static struct json_object *gd_peer_counters(struct json_object *x)
{
	static const char *const lists[] = { "errors_moved", "retries_moved",
					     "congestion_moved", "notes" };
	static const char *const counts[] = { "tx_bytes", "rx_bytes",
					      "tx_packets", "rx_packets" };
	struct json_object *d = json_object_new_object(), *v, *list, *e;
	unsigned int dropped = 0;
	char note[96];

	if (!json_object_is_type(x, json_type_object)) {
		json_object_object_add(
			d, "error",
			json_object_new_string(
				"the peer sent counters that are not a JSON object"));
		return d;
	}
	if (gd_json_str(x, "error"))
		json_object_object_add(
			d, "error",
			json_object_new_string(gd_json_str(x, "error")));
	if (json_object_object_get_ex(x, "counters", &v)) {
		list = json_object_new_array();
		dropped += !json_object_is_type(v, json_type_array);
		for (size_t i = 0; i < gd_json_len(v); i++) {
			e = gd_peer_counter(json_object_array_get_idx(v, i));
			if (e)
				json_object_array_add(list, e);
			else
				dropped++;
		}
		json_object_object_add(d, "counters", list);
	}
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (json_object_object_get_ex(x, lists[i], &v)) {
			dropped += !json_object_is_type(v, json_type_array);
			json_object_object_add(d, lists[i],
					       gd_peer_str_array(v, &dropped));
		}
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		dropped += !gd_peer_count(x, counts[i], d);
	dropped += !gd_peer_via(x, d);
	if (dropped) {
		if (!json_object_object_get_ex(d, "notes", &v)) {
			v = json_object_new_array();
			json_object_object_add(d, "notes", v);
		}
		snprintf(note, sizeof(note),
			 "%u malformed entries from the peer left out",
			 dropped);
		json_object_array_add(v, json_object_new_string(note));
	}
	return d;
}

/* The target's verification: ok and what it checked, or a failure when
 * the peer's word is not one. null means the peer did not verify. */
static struct json_object *gd_peer_verify(struct json_object *x)
{
	struct json_object *v = json_object_new_object(), *ok;
	const char *err = gd_json_str(x, "error");
	int64_t checked = gd_json_int(x, "checked_bytes", -1);
	bool good = json_object_object_get_ex(x, "ok", &ok) &&
		    json_object_is_type(ok, json_type_boolean);

	if (checked >= 0)
		json_object_object_add(v, "checked_bytes",
				       json_object_new_int64(checked));
	json_object_object_add(
		v, "ok",
		json_object_new_boolean(good && json_object_get_boolean(ok)));
	if (!good || err)
		json_object_object_add(
			v, "error",
			json_object_new_string(
				good ? err
				     : "the peer sent a malformed verification result"));
	return v;
}

/* A count the peer must send as a non-negative integer (0 when absent). */
static int gd_peer_u64(const struct gd_session *s, struct json_object *m,
		       const char *key, uint64_t *out)
{
	struct json_object *v;

	*out = 0;
	if (!json_object_object_get_ex(m, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return gd_err(-EPROTO,
			      "peer %s sent a RESULT whose '%s' is not a count",
			      s->oob.peer_name, key);
	*out = (uint64_t)json_object_get_int64(v);
	return 0;
}

/* The initiator's figures for this very step: its size, no more messages
 * than bytes can count. */
static int gd_peer_bw(const struct gd_session *s, struct json_object *x,
		      uint64_t size_bytes, struct gd_bw_summary *bw)
{
	if (gd_bw_summary_from_json(x, bw))
		return gd_err_code();
	if (bw->size_bytes != size_bytes || bw->iters > UINT64_MAX / size_bytes)
		return gd_err(-EPROTO,
			      "peer %s sent a result for %" PRIu64
			      " bytes x %" PRIu64 " where the step is %" PRIu64
			      " bytes",
			      s->oob.peer_name, bw->size_bytes, bw->iters,
			      size_bytes);
	return 0;
}

int gd_step_take_result(const struct gd_session *s, const struct gd_phase *ph,
			const struct gd_step *st, uint64_t received,
			struct json_object *m, struct gd_step_outcome *out)
{
	struct json_object *x;
	uint64_t peer_received, sent;
	bool bw = s->test->measure == GD_MEASURE_BW;
	int ret;

	if (!json_object_is_type(m, json_type_object))
		return gd_err(-EPROTO,
			      "peer %s sent a RESULT that is no object",
			      s->oob.peer_name);
	ret = gd_peer_u64(s, m, "received", &peer_received);
	if (!ret)
		ret = gd_peer_u64(s, m, "sent", &sent);
	if (ret)
		return ret;
	out->target_received = st->target ? received : peer_received;
	if (json_object_object_get_ex(m, "counters", &x) && x) {
		json_object_put(out->counters_remote);
		out->counters_remote = gd_peer_counters(x);
	}
	if (json_object_object_get_ex(m, "verify", &x) && x) {
		json_object_put(out->verify);
		out->verify = gd_peer_verify(x);
	}
	if (!json_object_object_get_ex(m, "result", &x) || !x)
		return 0;
	if (ph->dir == GD_DIR_BIDIR && bw) {
		ret = gd_peer_bw(s, x, st->size_bytes, &out->peer_bw);
		out->has_peer_bw = !ret;
	} else if (!st->initiator) {
		out->res.is_bw = bw;
		ret = bw ? gd_peer_bw(s, x, st->size_bytes, &out->res.bw)
			 : gd_lat_summary_from_json(x, &out->res.lat);
		out->res.app_bytes =
			bw && !ret ? out->res.bw.iters * out->res.bw.size_bytes
				   : 0;
		out->res.msgs_done = sent;
	}
	return ret;
}

static struct json_object *gd_result_json(const struct gd_step_result *r)
{
	return r->is_bw ? gd_bw_summary_json(&r->bw)
			: gd_lat_summary_json(&r->lat);
}

/* Server sends its half; client takes it and the initiator's figures. */
static int gd_step_exchange(struct gd_step_ctx *c, struct gd_step_outcome *out,
			    uint64_t received)
{
	struct gd_session *s = c->st.s;
	struct json_object *m = NULL;
	int ret;

	if (s->is_server) {
		m = gd_obj();
		json_object_object_add(m, "counters", out->counters_local);
		json_object_object_add(m, "verify", out->verify);
		json_object_object_add(
			m, "received",
			json_object_new_int64((int64_t)received));
		if (c->st.initiator) {
			json_object_object_add(m, "result",
					       gd_result_json(&out->res));
			json_object_object_add(
				m, "sent",
				json_object_new_int64(
					(int64_t)out->res.msgs_done));
		}
		out->counters_local = NULL;
		out->verify = NULL;
		ret = gd_oob_send(&s->oob, GD_FRAME_RESULT, m);
		json_object_put(m);
		return ret;
	}
	ret = gd_oob_recv(&s->oob, GD_FRAME_RESULT, &m);
	if (ret)
		return ret;
	ret = gd_step_take_result(s, c->ph, &c->st, received, m, out);
	json_object_put(m);
	return ret;
}

/*
 * Warm-up messages at @size_bytes: --warmup, but no more than it takes to
 * pass GD_WARMUP_CAP_BYTES through each QP (at least one message). The
 * warm-up touches the buffer region the window then uses and fills the
 * queues, and one message of the step's size already does both; past
 * that it is only time. With an 8 MiB cap, -n 100 -a spent 3.2 s of a
 * 117 s four-phase sweep in warm-ups (Soft-RoCE guest, time account),
 * most of it in the steps from 1 MiB up; with 1 MiB each of those steps
 * warms up with one message. Both ends compute it from the travelled
 * options, so their counts agree.
 */
#define GD_WARMUP_CAP_BYTES (1ULL << 20)
uint64_t gd_step_warmup_msgs(const struct gd_opts *o, uint64_t size_bytes)
{
	uint64_t cap =
		size_bytes ? (GD_WARMUP_CAP_BYTES + size_bytes - 1) / size_bytes
			   : o->warmup_iters;

	return o->warmup_iters < cap ? o->warmup_iters : cap;
}

/* Seconds since *@t, which moves on to now: one part of the step. */
static double gd_step_lap(double *t)
{
	double now = gd_acct_now_s(), d = now - *t;

	*t = now;
	return d;
}

/* The measured window inside @transfer_s: a bandwidth step's first post
 * to last completion, or the sum of a latency step's timed samples (a
 * ping-pong's figures are half round trips); the initiator's only. */
static double gd_step_window_s(const struct gd_session *s,
			       const struct gd_step_result *r,
			       double transfer_s)
{
	double w = r->is_bw ? r->bw.elapsed_s
			    : (double)r->lat.samples * r->lat.avg_us / 1e6 *
				      (gd_lat_is_pingpong(s) ? 2 : 1);

	return w > 0 && w <= transfer_s ? w : 0;
}

int gd_step_run(struct gd_session *s, unsigned int step_no,
		const struct gd_phase *ph, uint64_t size_bytes,
		struct gd_step_outcome *out)
{
	unsigned int mine = s->is_server ? ph->server_place : ph->client_place;
	unsigned int theirs =
		s->is_server ? ph->client_place : ph->server_place;
	struct gd_step_ctx c = {
		.st = { .s = s,
			.lb = &s->local[mine],
			.rb = &s->remote[theirs],
			.size_bytes = size_bytes,
			.iters = s->o->duration_s ? 0 : s->o->iters,
			.warmup = gd_step_warmup_msgs(s->o, size_bytes),
			.initiator = gd_initiates(s, ph),
			.target = gd_targets(s, ph),
			.phase = ph->name },
		.ph = ph,
		.seed = 0x9e3779b9u * (step_no + 1),
	};
	struct gd_step_times *tm = &out->times;
	uint64_t received = 0;
	struct json_object *v;
	double t = gd_acct_now_s();
	int ret;

	memset(out, 0, sizeof(*out));
	ret = gd_step_agree(s, step_no, ph, size_bytes, out);
	tm->agree_s = gd_step_lap(&t);
	if (ret > 0)
		gd_step_unavailable(s, ph, &out->stage, &out->err);
	if (ret)
		return ret > 0 ? 0 : (out->stage = "oob", ret);
	out->ran = true;
	ret = gd_step_prepare(&c);
	tm->prepare_s = gd_step_lap(&t);
	if (!ret)
		ret = gd_step_go(s);
	tm->start_s = gd_step_lap(&t);
	if (!ret)
		ret = gd_step_measure(&c, &out->res, &received);
	c.traffic_end_ns = gd_now_ns();
	tm->transfer_s = gd_step_lap(&t);
	if (ret) {
		out->stage = "transfer";
		out->err = ret;
		snprintf(out->error, sizeof(out->error), "%s", gd_err_msg());
		/* the failed step's own counter window is its evidence (a
		 * link that went down, the retries before it); reading it must
		 * not cost the error that ended the step */
		out->counters_local = gd_step_counters(&c);
		tm->counters_s = gd_step_lap(&t);
		if (!gd_err_is_set())
			gd_err(ret, "%s", out->error);
		return ret;
	}
	out->counters_local = gd_step_counters(&c);
	tm->counters_s = gd_step_lap(&t);
	out->verify = gd_step_verify(&c);
	tm->verify_s = gd_step_lap(&t);
	/* -W: the server before its half leaves, the client with both */
	if (s->is_server)
		gd_report_counters_named(s->rep, ph->name, size_bytes,
					 s->o->report_counters,
					 out->counters_local, NULL);
	ret = gd_step_exchange(&c, out, received);
	if (!ret && !s->is_server)
		gd_report_counters_named(
			s->rep, ph->name, size_bytes, s->o->report_counters,
			out->counters_local, out->counters_remote);
	tm->exchange_s = gd_step_lap(&t);
	/* the initiator's figures: this side's, or the peer's once exchanged
	 * (a reversed phase's client) */
	tm->window_s = gd_step_window_s(s, &out->res, tm->transfer_s);
	if (ret) {
		out->stage = "oob";
		out->err = ret;
		snprintf(out->error, sizeof(out->error), "%s", gd_err_msg());
		return ret;
	}
	out->ok = true;
	if (out->verify && json_object_object_get_ex(out->verify, "ok", &v) &&
	    !json_object_get_boolean(v)) {
		out->ok = false;
		out->stage = "verify";
		out->err = -EILSEQ;
		json_object_object_get_ex(out->verify, "error", &v);
		snprintf(out->error, sizeof(out->error),
			 "data verification failed: %s",
			 v ? json_object_get_string(v) : "mismatch");
	}
	return 0;
}
