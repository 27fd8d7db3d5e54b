/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verbs and the eight tests built on them. A new test is an entry here,
 * a src/bin file that picks it, and its man stub.
 */
#include <config.h>

#include "engine/test.h"

const struct gd_verb_desc gd_verbs[GD_VERB_COUNT] = {
	[GD_VERB_WRITE] = {
		.name = "write",
		.opcode = IBV_WR_RDMA_WRITE,
		.opcode_imm = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm = true,
		.verifiable = true,
		.inline_ok = true,
		.pingpong = true,
	},
	[GD_VERB_READ] = {
		.name = "read",
		.opcode = IBV_WR_RDMA_READ,
		.opcode_imm = IBV_WR_RDMA_READ,
		.target_is_source = true,
		.verifiable = true,
	},
	[GD_VERB_SEND] = {
		.name = "send",
		.opcode = IBV_WR_SEND,
		.opcode_imm = IBV_WR_SEND,
		.target_recv = true,
		.verifiable = true,
		.inline_ok = true,
		.pingpong = true,
	},
	/* fetch-and-add of 1 on one 8-byte word: nothing to verify */
	[GD_VERB_ATOMIC] = {
		.name = "atomic",
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.opcode_imm = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.fixed_size_bytes = 8,
	},
};

/* Latency keeps one request in flight; bandwidth keeps the queue full. */
const struct gd_test gd_tests[GD_TEST_COUNT] = {
	[GD_TEST_WRITE_BW] = {
		.name = "gd_write_bw",
		.verb = &gd_verbs[GD_VERB_WRITE],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC),
		.default_size_bytes = 65536,
		.default_iters = 5000,
		.default_tx_depth = 128,
	},
	[GD_TEST_WRITE_LAT] = {
		.name = "gd_write_lat",
		.verb = &gd_verbs[GD_VERB_WRITE],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC),
		.default_size_bytes = 2,
		.default_iters = 1000,
		.default_tx_depth = 1,
	},
	[GD_TEST_READ_BW] = {
		.name = "gd_read_bw",
		.verb = &gd_verbs[GD_VERB_READ],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 65536,
		.default_iters = 1000,
		.default_tx_depth = 128,
	},
	[GD_TEST_READ_LAT] = {
		.name = "gd_read_lat",
		.verb = &gd_verbs[GD_VERB_READ],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 2,
		.default_iters = 1000,
		.default_tx_depth = 1,
	},
	[GD_TEST_SEND_BW] = {
		.name = "gd_send_bw",
		.verb = &gd_verbs[GD_VERB_SEND],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC) | GD_CONN_BIT(GD_CONN_UD),
		.default_size_bytes = 65536,
		.default_iters = 1000,
		.default_tx_depth = 128,
	},
	[GD_TEST_SEND_LAT] = {
		.name = "gd_send_lat",
		.verb = &gd_verbs[GD_VERB_SEND],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC) | GD_CONN_BIT(GD_CONN_UD),
		.default_size_bytes = 2,
		.default_iters = 1000,
		.default_tx_depth = 1,
	},
	[GD_TEST_ATOMIC_BW] = {
		.name = "gd_atomic_bw",
		.verb = &gd_verbs[GD_VERB_ATOMIC],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 8,
		.default_iters = 1000,
		.default_tx_depth = 128,
	},
	[GD_TEST_ATOMIC_LAT] = {
		.name = "gd_atomic_lat",
		.verb = &gd_verbs[GD_VERB_ATOMIC],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 8,
		.default_iters = 1000,
		.default_tx_depth = 1,
	},
};

const char *gd_measure_name(enum gd_measure m)
{
	return m == GD_MEASURE_BW ? "bw" : "lat";
}
