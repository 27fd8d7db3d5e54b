/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What a server lets a client ask of it (limits.c): the buffer memory, the
 * run time, the QPs and the memories of a request, each against a limit
 * of the server's, and the refusal that names the limit and its option.
 * Pure functions: the session fills a request and asks.
 */
#ifndef GD_LIMITS_H
#define GD_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Defaults: enough for every documented example and for -a with 16 QPs
 * (-a: 2 * 8 MiB per QP; 16 QPs: 256 MiB, with one device memory 512). */
#define GD_LIMIT_MEM_DEFAULT (512ULL << 20)
#define GD_LIMIT_TIME_DEFAULT 3600
#define GD_LIMIT_QPS_DEFAULT 16
#define GD_LIMIT_MEMORIES_DEFAULT 5
/* A step's fixed cost beside its transfer (agree, prepare, start, counter
 * snapshots, result exchange): the time account's parts on a slow link. */
#define GD_LIMIT_STEP_COST_S 0.05
/* The transfer of an iteration-bound step: at least 1 us per message, and
 * the bytes at 100 Gb/s. */
#define GD_LIMIT_MSG_COST_S 1e-6
#define GD_LIMIT_LINK_BYTES_S 12.5e9

struct gd_limits {
	uint64_t mem_bytes; /* --max-memory: buffer bytes of this side */
	uint64_t time_s;    /* --max-time: estimated, then enforced; 0: none */
	uint64_t qps;	    /* --max-qps */
	uint64_t memories;  /* --max-memories: buffers, host and devices */
};

/* What a request makes the server do. */
struct gd_request {
	uint64_t mem_bytes;
	/* of mem_bytes: the latency samples the server keeps when it
	 * measures a phase (--reverse, --reversed); 0 otherwise */
	uint64_t samples_bytes;
	unsigned int memories;
	uint64_t qps;
	double time_s; /* estimate; negative: no end (--run_infinitely) */
};

/* The shape a run time is estimated from. */
struct gd_request_shape {
	unsigned int steps;  /* sizes x phases x rounds */
	uint64_t duration_s; /* -D per step, 0: iteration-bound */
	uint64_t iters, warmup_iters, qps;
	const uint64_t *sizes; /* the steps' sizes, num_sizes of them */
	unsigned int num_sizes;
	bool forever; /* --run_infinitely */
};

/* One QP's region of a buffer: two page-aligned halves, outgoing data and
 * the region the peer writes into, each of @max_size bytes and, for UD
 * (@ud), the GRH in front. */
uint64_t gd_limits_slot_bytes(uint64_t max_size, bool ud);
/* Buffer bytes of one side: a slot for each of @qps QPs in each of
 * @memories buffers. */
uint64_t gd_limits_buffer_bytes(uint64_t max_size, bool ud, uint64_t qps,
				unsigned int memories);
/* Latency samples an end that measures keeps: -n plus the warm-up, or
 * GD_LAT_MAX_SAMPLES under -D (8 bytes each). */
#define GD_LAT_MAX_SAMPLES (50ULL * 1000 * 1000)
struct gd_opts;
uint64_t gd_limits_lat_samples(const struct gd_opts *o);
/* Estimated seconds of a run of @shape; negative when it has no end. */
double gd_limits_estimate_s(const struct gd_request_shape *shape);
/* Every limit of @l at least what @r asks (the server's own options). */
void gd_limits_raise(struct gd_limits *l, const struct gd_request *r);
/*
 * 0 when @r is within @l, else -E2BIG with one line in @msg naming what
 * was asked, the limit, the option that raises it, and what the client can
 * change; @field gets the limit's option name.
 */
struct gd_opts;
/* @l from the server's options. */
void gd_limits_from_opts(const struct gd_opts *o, struct gd_limits *l);
/* What the options @o ask of a server: buffers, QPs, the run time. 0 or
 * -errno (message recorded) when the sizes or phases do not parse. */
int gd_limits_request(const struct gd_opts *o, struct gd_request *r);
/* A server's accept loop: after a handshake that ended with @ret (the stop
 * signal @sig), close the connection and wait for the next client? */
bool gd_limits_next_client(int ret, int sig);
int gd_limits_check(const struct gd_limits *l, const struct gd_request *r,
		    char *field, size_t field_len, char *msg, size_t msg_len);
/* The limit @field (gd_limits_check's) and what @r asked of it, as text
 * for the REJECT frame's two values. */
void gd_limits_values(const struct gd_limits *l, const struct gd_request *r,
		      const char *field, char *limit, char *asked, size_t len);

#endif
