/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Server-side limits on a client's request: the arithmetic of the buffer
 * bytes and the run time estimate, and the check with its refusal line.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/limits.h"
#include "engine/opts.h"
#include "engine/placement.h"
#include "transport/verbs.h"

uint64_t gd_limits_slot_bytes(uint64_t max_size, bool ud)
{
	return 2 * ((max_size + (ud ? GD_UD_GRH_BYTES : 0) + 4095) & ~4095ULL);
}

uint64_t gd_limits_buffer_bytes(uint64_t max_size, bool ud, uint64_t qps,
				unsigned int memories)
{
	return gd_limits_slot_bytes(max_size, ud) * qps * memories;
}

double gd_limits_estimate_s(const struct gd_request_shape *sh)
{
	double per_round = 0;

	if (sh->forever)
		return -1;
	if (sh->duration_s)
		return sh->steps *
		       (GD_LIMIT_STEP_COST_S + (double)sh->duration_s);
	for (unsigned int i = 0; i < sh->num_sizes; i++) {
		double msgs = (double)(sh->iters + sh->warmup_iters) *
			      (double)sh->qps;
		double by_bytes =
			msgs * (double)sh->sizes[i] / GD_LIMIT_LINK_BYTES_S;
		double by_msgs = msgs * GD_LIMIT_MSG_COST_S;

		per_round += GD_LIMIT_STEP_COST_S +
			     (by_bytes > by_msgs ? by_bytes : by_msgs);
	}
	/* steps counts every size of every phase and round */
	return sh->num_sizes ? per_round * sh->steps / sh->num_sizes : 0;
}

void gd_limits_raise(struct gd_limits *l, const struct gd_request *r)
{
	if (l->mem_bytes < r->mem_bytes)
		l->mem_bytes = r->mem_bytes;
	if (l->memories < r->memories)
		l->memories = r->memories;
	if (l->qps < r->qps)
		l->qps = r->qps;
	if (l->time_s && r->time_s < 0)
		l->time_s = 0;
	else if (l->time_s && (double)l->time_s < r->time_s)
		l->time_s = (uint64_t)r->time_s + 1;
}

static double gd_mib(uint64_t bytes)
{
	return (double)bytes / (1 << 20);
}

int gd_limits_check(const struct gd_limits *l, const struct gd_request *r,
		    char *field, size_t field_len, char *msg, size_t msg_len)
{
	const char *opt = NULL;

	if (r->qps > l->qps) {
		opt = "max-qps";
		snprintf(
			msg, msg_len,
			"the request asks for %" PRIu64
			" QPs, over this server's limit of %" PRIu64
			" (--max-qps); ask for fewer with -q, or start the server with --max-qps=%" PRIu64,
			r->qps, l->qps, r->qps);
	} else if (r->memories > l->memories) {
		opt = "max-memories";
		snprintf(
			msg, msg_len,
			"the request needs %u buffers on the server, over its limit of %" PRIu64
			" (--max-memories); ask for fewer phases with --phases, or start the server with --max-memories=%u",
			r->memories, l->memories, r->memories);
	} else if (r->mem_bytes > l->mem_bytes) {
		/* Latency samples are named apart: they grow with -n, which
		 * the buffers alone do not, so the advice differs. */
		char samples[96] = "";
		bool has_samples = r->samples_bytes != 0;

		if (has_samples)
			snprintf(
				samples, sizeof(samples),
				" (%.1f MiB of them latency samples, as it measures the reversed phases)",
				gd_mib(r->samples_bytes));
		opt = "max-memory";
		snprintf(
			msg, msg_len,
			"the request needs %.1f MiB of %smemory on the server%s, over its limit of %.1f MiB (--max-memory); ask for %s, or start the server with --max-memory=%" PRIu64
			"M",
			gd_mib(r->mem_bytes), has_samples ? "" : "buffer ",
			samples, gd_mib(l->mem_bytes),
			has_samples ? "fewer -n, a smaller -s or fewer -q"
				    : "a smaller -s/--max-size or fewer -q",
			(r->mem_bytes + (1 << 20) - 1) >> 20);
	} else if (l->time_s && r->time_s < 0) {
		opt = "max-time";
		snprintf(
			msg, msg_len,
			"--run_infinitely has no end, over this server's run-time limit of %" PRIu64
			" s (--max-time); give -D, or start the server with --max-time=0 (no limit)",
			l->time_s);
	} else if (l->time_s && r->time_s > (double)l->time_s) {
		opt = "max-time";
		snprintf(
			msg, msg_len,
			"the request would run about %.0f s, over this server's limit of %" PRIu64
			" s (--max-time); ask for a shorter -D, fewer -n or sizes, or start the server with --max-time=%.0f",
			r->time_s, l->time_s, r->time_s + 1);
	}
	if (!opt) {
		if (field_len)
			field[0] = '\0';
		return 0;
	}
	snprintf(field, field_len, "%s", opt);
	return -E2BIG;
}

void gd_limits_from_opts(const struct gd_opts *o, struct gd_limits *l)
{
	*l = (struct gd_limits){
		.mem_bytes = o->max_memory_bytes,
		.time_s = o->max_time_s,
		.qps = o->max_qps,
		.memories = o->max_memories,
	};
}

/* Phases and server-side places of --phases (client's default: HH). */
static int gd_limits_phases(const struct gd_opts *o, unsigned int *phases,
			    unsigned int *places)
{
	const char *p = o->phases && *o->phases ? o->phases : "HH";
	unsigned int used = 1; /* the host buffer is always there */

	*phases = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t word = strcspn(p, ",:");
		unsigned int c, sv;

		if (word > len)
			word = len;
		if (gd_placement_parse(p, word, &c, &sv))
			return -EINVAL;
		if (sv < 32)
			used |= 1U << sv;
		(*phases)++;
		p += len + (p[len] == ',');
	}
	*places = (unsigned int)__builtin_popcount(used);
	if (o->reverse)
		*phases *= 2;
	return 0;
}

uint64_t gd_limits_lat_samples(const struct gd_opts *o)
{
	return o->duration_s ? GD_LAT_MAX_SAMPLES : o->iters + o->warmup_iters;
}

int gd_limits_request(const struct gd_opts *o, struct gd_request *r)
{
	uint64_t sizes[GD_MAX_SIZE_LIST];
	struct gd_request_shape sh = {
		.duration_s = o->duration_s,
		.iters = o->iters,
		.warmup_iters = o->warmup_iters,
		.qps = o->num_qps,
		.sizes = sizes,
		.forever = o->run_infinitely,
	};
	unsigned int phases, places;
	uint64_t rounds = gd_opts_adaptive(o) ? o->max_repeat : o->repeat;
	int ret = gd_opts_sizes(o, sizes, GD_MAX_SIZE_LIST, &sh.num_sizes);

	if (!ret)
		ret = gd_limits_phases(o, &phases, &places);
	if (ret)
		return ret;
	sh.steps = sh.num_sizes * phases * (unsigned int)(rounds ? rounds : 1);
	r->qps = o->num_qps;
	r->samples_bytes = 0;
	r->memories = places;
	/* the server allocates its host buffer and each of its --mem */
	r->mem_bytes = gd_limits_buffer_bytes(gd_opts_max_size(o),
					      o->conn == GD_CONN_UD, o->num_qps,
					      1 + o->num_mem);
	r->time_s = gd_limits_estimate_s(&sh);
	return 0;
}

bool gd_limits_next_client(int ret, int sig)
{
	if (!ret || sig)
		return false;
	switch (ret) {
	case -ENOMEM: /* this side's own failure, not the client's */
	case -EMFILE:
	case -ENFILE:
		return false;
	default:
		return true;
	}
}

void gd_limits_values(const struct gd_limits *l, const struct gd_request *r,
		      const char *field, char *limit, char *asked, size_t len)
{
	if (!strcmp(field, "max-qps")) {
		snprintf(limit, len, "%" PRIu64, l->qps);
		snprintf(asked, len, "%" PRIu64, r->qps);
	} else if (!strcmp(field, "max-memories")) {
		snprintf(limit, len, "%" PRIu64, l->memories);
		snprintf(asked, len, "%u", r->memories);
	} else if (!strcmp(field, "max-memory")) {
		snprintf(limit, len, "%" PRIu64 " bytes", l->mem_bytes);
		snprintf(asked, len, "%" PRIu64 " bytes", r->mem_bytes);
	} else {
		snprintf(limit, len, "%" PRIu64 " s", l->time_s);
		if (r->time_s < 0)
			snprintf(asked, len, "no end");
		else
			snprintf(asked, len, "%.0f s", r->time_s);
	}
}
