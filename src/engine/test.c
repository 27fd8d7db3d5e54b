/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verbs and the eight tests built on them. A new test is an entry here,
 * a src/bin file that picks it, and its man stub.
 */
#include <config.h>

#include <stdio.h>

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
		.opcode_cas = IBV_WR_RDMA_WRITE,
		.lat_means = "half the round trip of a ping-pong (each side writes when the other's write arrived)",
	},
	[GD_VERB_READ] = {
		.name = "read",
		.opcode = IBV_WR_RDMA_READ,
		.opcode_imm = IBV_WR_RDMA_READ,
		.target_is_source = true,
		.verifiable = true,
		.opcode_cas = IBV_WR_RDMA_READ,
		.lat_means = "the time from posting one read to its completion",
	},
	[GD_VERB_SEND] = {
		.name = "send",
		.opcode = IBV_WR_SEND,
		.opcode_imm = IBV_WR_SEND_WITH_IMM,
		.target_recv = true,
		.verifiable = true,
		.inline_ok = true,
		.pingpong = true,
		.opcode_cas = IBV_WR_SEND,
		.lat_means = "half the round trip of a ping-pong (each side sends when the other's message arrived)",
	},
	/* fetch-and-add of 1 (or, with -A CMP_AND_SWAP, compare-and-swap of 0
	 * with 0) on one 8-byte word: nothing to verify */
	[GD_VERB_ATOMIC] = {
		.name = "atomic",
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.opcode_imm = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.fixed_size_bytes = 8,
		.opcode_cas = IBV_WR_ATOMIC_CMP_AND_SWP,
		.cas = true,
		.lat_means = "the time from posting one atomic operation to its completion",
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
		.examples = {
			{ "gd_write_bw -d mlx5_0 --mem=cuda:0",
			  "server: its own GPU 0 for the phases that need it" },
			{ "gd_write_bw -d mlx5_0 -a --mem=cuda:0 HOST",
			  "client: every size 2 B..8 MiB in host and GPU memory (HH, DD)" },
			{ "gd_write_bw --loopback --sizes=4K,64K,1M -D 5 -f 1 -w 1000",
			  "both ends here: three sizes for 5 s each, fail (exit 3) below 1000 MiB/s" },
		},
	},
	[GD_TEST_WRITE_LAT] = {
		.name = "gd_write_lat",
		.verb = &gd_verbs[GD_VERB_WRITE],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC),
		.default_size_bytes = 2,
		.default_iters = 1000,
		.default_tx_depth = 1,
		.examples = {
			{ "gd_write_lat -d mlx5_0",
			  "server" },
			{ "gd_write_lat -d mlx5_0 -a HOST",
			  "client: latency of every size 2 B..8 MiB" },
			{ "gd_write_lat --loopback -n 10000 -H --json=lat.json",
			  "both ends here: 10000 ping-pongs, every sample printed and in lat.json" },
		},
	},
	[GD_TEST_READ_BW] = {
		.name = "gd_read_bw",
		.verb = &gd_verbs[GD_VERB_READ],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 65536,
		.default_iters = 1000,
		.default_tx_depth = 128,
		.examples = {
			{ "gd_read_bw -d mlx5_0",
			  "server" },
			{ "gd_read_bw -d mlx5_0 -s 1M -q 4 HOST",
			  "client: 1 MiB reads on 4 QPs" },
			{ "gd_read_bw --loopback --mem=cuda:0 --repeat=5 --expect-ratio=0.9",
			  "GPU reads at least 0.9 x host reads, over 5 rounds" },
		},
	},
	[GD_TEST_READ_LAT] = {
		.name = "gd_read_lat",
		.verb = &gd_verbs[GD_VERB_READ],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 2,
		.default_iters = 1000,
		.default_tx_depth = 1,
		.examples = {
			{ "gd_read_lat -d mlx5_0",
			  "server" },
			{ "gd_read_lat -d mlx5_0 -a HOST",
			  "client: read latency of every size" },
			{ "gd_read_lat --loopback -n 5000 -U -C",
			  "both ends here: every sample in the order measured, in TSC cycles" },
		},
	},
	[GD_TEST_SEND_BW] = {
		.name = "gd_send_bw",
		.verb = &gd_verbs[GD_VERB_SEND],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC) | GD_CONN_BIT(GD_CONN_UD),
		.default_size_bytes = 65536,
		.default_iters = 1000,
		.default_tx_depth = 128,
		.examples = {
			{ "gd_send_bw -d mlx5_0 -c UD -s 1K",
			  "server, UD with 1 KiB messages" },
			{ "gd_send_bw -d mlx5_0 -c UD -s 1K HOST",
			  "client: the loss is reported beside the bandwidth" },
			{ "gd_send_bw --loopback -b --report_gbits",
			  "both ends here: both directions at once, in Gb/s" },
		},
	},
	[GD_TEST_SEND_LAT] = {
		.name = "gd_send_lat",
		.verb = &gd_verbs[GD_VERB_SEND],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC) | GD_CONN_BIT(GD_CONN_UD),
		.default_size_bytes = 2,
		.default_iters = 1000,
		.default_tx_depth = 1,
		.examples = {
			{ "gd_send_lat -d mlx5_0",
			  "server" },
			{ "gd_send_lat -d mlx5_0 -a HOST",
			  "client: send/receive latency of every size" },
			{ "gd_send_lat --loopback -c UC -n 5000 --max-lat=20",
			  "both ends here over UC: fail (exit 3) above 20 usec" },
		},
	},
	[GD_TEST_ATOMIC_BW] = {
		.name = "gd_atomic_bw",
		.verb = &gd_verbs[GD_VERB_ATOMIC],
		.measure = GD_MEASURE_BW,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 8,
		.default_iters = 1000,
		.default_tx_depth = 128,
		.examples = {
			{ "gd_atomic_bw -d mlx5_0 -A CMP_AND_SWAP",
			  "server" },
			{ "gd_atomic_bw -d mlx5_0 -A CMP_AND_SWAP HOST",
			  "client: compare-and-swap operations per second" },
			{ "gd_atomic_bw --loopback -q 4 -y 1.5",
			  "both ends here: fetch-and-add on 4 QPs, fail (exit 3) below 1.5 Mpps" },
		},
	},
	[GD_TEST_ATOMIC_LAT] = {
		.name = "gd_atomic_lat",
		.verb = &gd_verbs[GD_VERB_ATOMIC],
		.measure = GD_MEASURE_LAT,
		.conn_mask = GD_CONN_BIT(GD_CONN_RC),
		.default_size_bytes = 8,
		.default_iters = 1000,
		.default_tx_depth = 1,
		.examples = {
			{ "gd_atomic_lat -d mlx5_0",
			  "server" },
			{ "gd_atomic_lat -d mlx5_0 HOST",
			  "client: fetch-and-add latency" },
			{ "gd_atomic_lat --loopback -A CMP_AND_SWAP -n 5000 -H",
			  "both ends here: compare-and-swap, every sample printed" },
		},
	},
};

/* "ib_write_bw" for prefix "ib_": the name with its "gd_" swapped. */
static size_t gd_test_name_as(const struct gd_test *t, const char *prefix,
			      char *buf, size_t len)
{
	return (size_t)snprintf(buf, len, "%s%s", prefix, t->name + 3);
}

void gd_tests_text(unsigned int mask, const char *prefix, char *buf, size_t len)
{
	unsigned int all = (1u << GD_TEST_COUNT) - 1, n = 0, k = 0;
	unsigned int bw = 0, lat = 0;
	size_t off = 0;

	for (int i = 0; i < GD_TEST_COUNT; i++) {
		if (gd_tests[i].measure == GD_MEASURE_BW)
			bw |= 1u << i;
		else
			lat |= 1u << i;
	}
	mask &= all;
	off = (size_t)snprintf(buf, len, "%s",
			       mask == all   ? "every verbs test ("
			       : mask == bw  ? "the bandwidth tests ("
			       : mask == lat ? "the latency tests ("
					     : "");
	for (int i = 0; i < GD_TEST_COUNT; i++)
		n += (mask >> i) & 1;
	for (int i = 0; i < GD_TEST_COUNT && off < len; i++) {
		if (!(mask & (1u << i)))
			continue;
		k++;
		off += (size_t)snprintf(buf + off, len - off, "%s",
					k == 1	? ""
					: k < n ? ", "
						: " and ");
		if (off < len)
			off += gd_test_name_as(&gd_tests[i], prefix, buf + off,
					       len - off);
	}
	if (off < len && (mask == all || mask == bw || mask == lat))
		snprintf(buf + off, len - off, ")");
	if (!n)
		snprintf(buf, len, "no verbs test");
}

enum ibv_wr_opcode gd_verb_post_opcode(const struct gd_verb_desc *v,
				       enum ibv_wr_opcode op, bool cas)
{
	return cas && v->cas && op == v->opcode ? v->opcode_cas : op;
}

const char *gd_measure_name(enum gd_measure m)
{
	return m == GD_MEASURE_BW ? "bw" : "lat";
}
