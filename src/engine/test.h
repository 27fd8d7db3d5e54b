/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The tests as data. A verb descriptor says what the engine's loops, checks
 * and reports need to know about an operation; gd_tests[] pairs each verb
 * with bandwidth or latency, the connection types and the defaults. The
 * binaries, the unit tests and the man-page check all read that one table.
 */
#ifndef GD_TEST_H
#define GD_TEST_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "transport/conn.h"
#include "util/stats.h" /* enum gd_measure */

enum gd_verb {
	GD_VERB_WRITE,
	GD_VERB_READ,
	GD_VERB_SEND,
	GD_VERB_ATOMIC,
	GD_VERB_COUNT
};

#define GD_CONN_BIT(c) (1u << (c))

struct gd_verb_desc {
	const char *name; /* "write", as printed and in JSON */
	enum ibv_wr_opcode opcode;
	/* The opcode when the run completes through an immediate (--write_
	 * with_imm, or latency with device memory); opcode when !imm. */
	enum ibv_wr_opcode opcode_imm;
	bool imm;	       /* has a with-immediate form */
	bool target_recv;      /* the target posts a receive per message */
	bool target_is_source; /* data flows from target to initiator */
	bool verifiable;       /* the payload can be checked against -V */
	bool inline_ok;	       /* IBV_SEND_INLINE applies */
	/* Latency is a ping-pong (both sides send, one-way = RTT/2) rather
	 * than the completion time of one request. */
	bool pingpong;
	uint64_t fixed_size_bytes; /* the one size it moves; 0: any size */
	/* -A CMP_AND_SWAP: the other opcode of the verb (atomic), else
	 * opcode; perftest's names of the two in atomic_names. */
	enum ibv_wr_opcode opcode_cas;
	bool cas;
	/* What the latency of the verb is, for --help and the man page. */
	const char *lat_means;
};

#define GD_MAX_EXAMPLES 3

/* A command line of --help's examples and what it does. */
struct gd_example {
	const char *cmd;
	const char *what;
};

extern const struct gd_verb_desc gd_verbs[GD_VERB_COUNT];

struct gd_test {
	const char *name; /* "gd_write_bw" */
	const struct gd_verb_desc *verb;
	enum gd_measure measure;
	unsigned int conn_mask; /* GD_CONN_BIT(GD_CONN_RC) | ... */
	uint64_t default_size_bytes;
	uint64_t default_iters;
	uint64_t default_tx_depth;
	struct gd_example examples[GD_MAX_EXAMPLES];
};

/* The eight gd_* programs, in the order of gd_tests[]. */
enum gd_test_id {
	GD_TEST_WRITE_BW,
	GD_TEST_WRITE_LAT,
	GD_TEST_READ_BW,
	GD_TEST_READ_LAT,
	GD_TEST_SEND_BW,
	GD_TEST_SEND_LAT,
	GD_TEST_ATOMIC_BW,
	GD_TEST_ATOMIC_LAT,
	GD_TEST_COUNT
};

extern const struct gd_test gd_tests[GD_TEST_COUNT];

const char *gd_measure_name(enum gd_measure m); /* "bw" | "lat" */
/* The opcode to post: @op (the verb's, or its with-immediate form), or the
 * verb's compare-and-swap when @cas (-A CMP_AND_SWAP) and it has one. */
enum ibv_wr_opcode gd_verb_post_opcode(const struct gd_verb_desc *v,
				       enum ibv_wr_opcode op, bool cas);
/*
 * The tests of @mask (bit 1 << enum gd_test_id) in words, their names with
 * @prefix for "gd_" ("ib_" names perftest's): "the bandwidth tests (...)",
 * "ib_send_bw and ib_send_lat", ...
 */
void gd_tests_text(unsigned int mask, const char *prefix, char *buf,
		   size_t len);

#endif
