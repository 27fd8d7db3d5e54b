/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for src/options.c parsing: perftest's defaults, short and long
 * flags, strict numbers with K/M/G suffixes and ranges, the cross-option
 * rules, the perftest CUDA spellings, and --help/--version.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "transport/oob.h"
#include "cli/options.h"
#include "cli/options_priv.h"
#include "opts_util.h"

static void test_defaults_write_bw(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE0(&t_write_bw, &o), 0);
	assert_int_equal(o.size_bytes, 65536);
	assert_int_equal(o.iters, 5000);
	assert_int_equal(o.tx_depth, 128);
	assert_int_equal(o.rx_depth, 512);
	assert_int_equal(o.tcp_port, 18515);
	assert_int_equal(o.ib_port, 1);
	assert_int_equal(o.gid_index, -1);
	assert_int_equal(o.conn, GD_CONN_RC);
	assert_int_equal(o.num_qps, 1);
	assert_int_equal(o.oob_timeout_ms, 10000);
	assert_int_equal(o.inline_bytes, 0);
	assert_int_equal(o.use_cuda, -1);
	/* min(100, 5000 / 10) */
	assert_int_equal(o.warmup_iters, 100);
	assert_int_equal(o.duration_s, 0);
	assert_false(o.all_sizes);
	assert_null(o.server_host);
	assert_null(o.mem_spec);
	assert_null(o.json_path);
	assert_null(o.ib_dev);
	gd_opts_free(&o);
}

/* gd_tests[] is what the binaries, these tests and the man-page check read:
 * each entry's name must say its verb and measure, and its defaults must
 * fit its verb. */
static void test_table_consistent(void **state)
{
	char want[64];

	(void)state;
	for (size_t i = 0; i < GD_TEST_COUNT; i++) {
		const struct gd_test *t = &gd_tests[i];

		assert_non_null(t->name);
		assert_non_null(t->verb);
		snprintf(want, sizeof(want), "gd_%s_%s", t->verb->name,
			 gd_measure_name(t->measure));
		assert_string_equal(t->name, want);
		assert_true(t->conn_mask & GD_CONN_BIT(GD_CONN_RC));
		assert_true(t->default_iters > 0);
		assert_true(t->default_tx_depth > 0);
		if (t->verb->fixed_size_bytes)
			assert_int_equal(t->default_size_bytes,
					 t->verb->fixed_size_bytes);
		/* the immediate forms: write's, and send's (--send_with_imm) */
		if (!t->verb->imm && !t->verb->target_recv)
			assert_int_equal(t->verb->opcode_imm, t->verb->opcode);
		else
			assert_int_not_equal(t->verb->opcode_imm,
					     t->verb->opcode);
	}
}

static void test_defaults_latency(void **state)
{
	const struct gd_test *lat[] = { &t_write_lat, &t_read_lat };
	struct gd_opts o;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(PARSE0(lat[i], &o), 0);
		assert_int_equal(o.size_bytes, 2);
		assert_int_equal(o.iters, 1000);
		assert_int_equal(o.tx_depth, 1);
		/* latency keeps -Q 100: ping-pong sends are signalled 1 in 100
		 */
		assert_int_equal(o.cq_mod, 100);
		assert_int_equal(o.warmup_iters, 100);
		gd_opts_free(&o);
	}
	/* other bandwidth tests keep perftest's 1000 iterations */
	assert_int_equal(PARSE0(&t_read_bw, &o), 0);
	assert_int_equal(o.iters, 1000);
	assert_int_equal(o.size_bytes, 65536);
	gd_opts_free(&o);
}

static void test_sweep_bounds(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-a"), 0);
	assert_true(o.all_sizes);
	assert_int_equal(o.min_size_bytes, 2);
	assert_int_equal(o.max_size_bytes, 8388608);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "-a", "--min-size=4K",
			       "--max-size", "1M"),
			 0);
	assert_int_equal(o.min_size_bytes, 4096);
	assert_int_equal(o.max_size_bytes, 1048576);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "--min-size", "-a", "--min-size=1M",
	       "--max-size=4K");
}

static void test_short_flags(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-d", "rxe0", "-i", "2", "-x",
			       "3", "-p", "20000", "-c", "UC", "-s", "4096",
			       "-n", "300", "-q", "4", "-t", "64", "-r", "256",
			       "-Q", "8", "-l", "2", "-I", "32", "-b", "-S",
			       "3", "-T", "96", "-m", "1024", "-u", "20", "-e",
			       "-F", "server.example"),
			 0);
	assert_string_equal(o.ib_dev, "rxe0");
	assert_int_equal(o.ib_port, 2);
	assert_int_equal(o.gid_index, 3);
	assert_int_equal(o.tcp_port, 20000);
	assert_int_equal(o.conn, GD_CONN_UC);
	assert_int_equal(o.size_bytes, 4096);
	assert_int_equal(o.iters, 300);
	assert_int_equal(o.warmup_iters, 30);
	assert_int_equal(o.num_qps, 4);
	assert_int_equal(o.tx_depth, 64);
	assert_int_equal(o.rx_depth, 256);
	assert_int_equal(o.cq_mod, 8);
	assert_int_equal(o.post_list, 2);
	assert_int_equal(o.inline_bytes, 32);
	assert_true(o.bidir);
	assert_int_equal(o.sl, 3);
	assert_int_equal(o.tos, 96);
	assert_int_equal(o.mtu_bytes, 1024);
	assert_int_equal(o.qp_timeout, 20);
	assert_true(o.use_event);
	assert_true(o.ignore_cpu_freq);
	assert_string_equal(o.server_host, "server.example");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "-R", "-a", "-D", "3"), 0);
	assert_true(o.rdma_cm);
	assert_true(o.all_sizes);
	assert_int_equal(o.duration_s, 3);
	gd_opts_free(&o);
}

static void test_long_flags(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(
		PARSE(&t_write_bw, &o, "--ib-dev=mlx5_0", "--ib-port=2",
		      "--gid-index=5", "--port=19000", "--connection=UC",
		      "--size=1024", "--iters=77", "--qp=2", "--tx-depth=32",
		      "--rx-depth=64", "--cq-mod=4", "--post_list=2",
		      "--inline_size=16", "--mtu=2048", "--qp-timeout=10",
		      "--retry_count=3", "--timeout=500", "--warmup=7",
		      "--verify", "--reverse", "--no-interleave",
		      "--phases=HH,DD", "--write_with_imm", "--report_gbits",
		      "--cpu_util", "--counters-root=/tmp/x",
		      "--expect-ratio=0.8", "--gate-from=1M", "--min-bw=100.5",
		      "--plot=out.svg", "--use_hugepages",
		      "--dont_xchg_versions", "--run_infinitely"),
		0);
	assert_string_equal(o.ib_dev, "mlx5_0");
	assert_int_equal(o.ib_port, 2);
	assert_int_equal(o.gid_index, 5);
	assert_int_equal(o.tcp_port, 19000);
	assert_int_equal(o.conn, GD_CONN_UC);
	assert_int_equal(o.size_bytes, 1024);
	assert_int_equal(o.iters, 77);
	assert_int_equal(o.num_qps, 2);
	assert_int_equal(o.tx_depth, 32);
	assert_int_equal(o.rx_depth, 64);
	assert_int_equal(o.cq_mod, 4);
	assert_int_equal(o.post_list, 2);
	assert_int_equal(o.inline_bytes, 16);
	assert_int_equal(o.mtu_bytes, 2048);
	assert_int_equal(o.qp_timeout, 10);
	assert_int_equal(o.retry_count, 3);
	assert_int_equal(o.oob_timeout_ms, 500);
	/* given explicitly, so not derived from -n */
	assert_int_equal(o.warmup_iters, 7);
	assert_true(o.verify);
	assert_true(o.reverse);
	assert_true(o.no_interleave);
	assert_string_equal(o.phases, "HH,DD");
	assert_true(o.write_with_imm);
	assert_true(o.report_gbits);
	assert_true(o.cpu_util);
	assert_string_equal(o.counters_root, "/tmp/x");
	assert_true(o.expect_ratio > 0.7999 && o.expect_ratio < 0.8001);
	assert_int_equal(o.gate_from_bytes, 1048576);
	assert_true(o.min_bw_MiBps > 100.49 && o.min_bw_MiBps < 100.51);
	assert_string_equal(o.plot_path, "out.svg");
	assert_true(o.use_hugepages);
	assert_true(o.dont_xchg_versions);
	assert_true(o.run_infinitely);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_lat, &o, "--latency_gap=10",
			       "--max-lat=3.5", "--max-lat-p99"),
			 0);
	assert_int_equal(o.latency_gap_us, 10);
	assert_true(o.max_lat_us > 3.49 && o.max_lat_us < 3.51);
	assert_true(o.max_lat_p99);
	gd_opts_free(&o);
}

static void test_perftest_spellings(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--ib_dev=rxe1", "--ib_port=2",
			       "--gid_index=1", "--tx_depth=16",
			       "--rx_depth=32", "--cq_mod=2"),
			 0);
	assert_string_equal(o.ib_dev, "rxe1");
	assert_int_equal(o.ib_port, 2);
	assert_int_equal(o.gid_index, 1);
	assert_int_equal(o.tx_depth, 16);
	assert_int_equal(o.rx_depth, 32);
	assert_int_equal(o.cq_mod, 2);
	gd_opts_free(&o);
}

static void test_suffixes(void **state)
{
	static const struct {
		const char *text;
		uint64_t want;
	} ok[] = {
		{ "4K", 4096 },		 { "4k", 4096 },
		{ "1M", 1048576 },	 { "1m", 1048576 },
		{ "2G", 2147483648ULL }, { "0", 0 },
		{ "65536", 65536 },	 { "16383G", 16383ULL << 30 },
	};
	struct gd_opts o;
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 12345;
		gd_err_clear();
		assert_int_equal(gd_parse_u64(ok[i].text, "--size", true, 0,
					      UINT64_MAX, &v),
				 0);
		assert_true(v == ok[i].want);
	}
	/* suffixes only where the option takes a size */
	gd_err_clear();
	assert_int_equal(gd_parse_u64("4K", "--port", false, 1, 65535, &v),
			 -EINVAL);
	assert_msg_has("--port");
	assert_int_equal(PARSE(&t_write_bw, &o, "-s", "4K", "-n", "2K"), 0);
	assert_int_equal(o.size_bytes, 4096);
	assert_int_equal(o.iters, 2048);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "-s", "2G"), 0);
	assert_true(o.size_bytes == 2147483648ULL);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "-s", "4G"), 0);
	assert_true(o.size_bytes == 4294967296ULL);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "--port", "-p", "4K");
}

static void test_bad_numbers(void **state)
{
	static const struct {
		const char *text;
		int err;
	} bad[] = {
		{ "abc", -EINVAL },
		{ "12x", -EINVAL },
		{ "-5", -EINVAL },
		{ "", -EINVAL },
		{ "+5", -EINVAL },
		{ " 5", -EINVAL },
		{ "5 ", -EINVAL },
		{ "4KB", -EINVAL },
		{ "K", -EINVAL },
		{ "99999999999999999999", -ERANGE },
		/* 2^34 G is 2^64: overflows only after the suffix */
		{ "17179869184G", -ERANGE },
	};
	uint64_t v = 777;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret;

		gd_err_clear();
		ret = gd_parse_u64(bad[i].text, "--size", true, 0, UINT64_MAX,
				   &v);
		if (ret != bad[i].err)
			print_error("'%s': got %d, want %d\n", bad[i].text, ret,
				    bad[i].err);
		assert_int_equal(ret, bad[i].err);
		assert_msg_has("--size");
		/* a rejected value never reaches the output */
		assert_int_equal(v, 777);
	}
	gd_err_clear();
	assert_int_equal(gd_parse_u64(NULL, "--iters", true, 0, 10, &v),
			 -EINVAL);
	assert_msg_has("--iters");
	REJECT(&t_write_bw, -EINVAL, "--size", "-s", "abc");
	REJECT(&t_write_bw, -EINVAL, "--size", "-s", "12x");
	REJECT(&t_write_bw, -EINVAL, "--iters", "-n", "-5");
	REJECT(&t_write_bw, -EINVAL, "--size", "--size=");
	REJECT(&t_write_bw, -ERANGE, "--iters", "-n", "99999999999999999999");
	REJECT(&t_write_bw, -EINVAL, "--expect-ratio", "--expect-ratio=fast");
	REJECT(&t_write_bw, -ERANGE, "--expect-ratio", "--expect-ratio=-1");
}

static void test_ranges(void **state)
{
	uint64_t v;
	struct gd_opts o;

	(void)state;
	/* both bounds are inclusive */
	gd_err_clear();
	assert_int_equal(gd_parse_u64("1", "--qp", false, 1, 256, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(gd_parse_u64("256", "--qp", false, 1, 256, &v), 0);
	assert_int_equal(v, 256);
	assert_int_equal(gd_parse_u64("257", "--qp", false, 1, 256, &v),
			 -ERANGE);
	assert_msg_has("--qp");
	assert_msg_has("1..256");
	REJECT(&t_write_bw, -ERANGE, "--qp", "-q", "0");
	REJECT(&t_write_bw, -ERANGE, "--qp", "-q", "257");
	REJECT(&t_write_bw, -ERANGE, "--port", "-p", "70000");
	REJECT(&t_write_bw, -ERANGE, "--port", "-p", "0");
	REJECT(&t_write_bw, -ERANGE, "--gid-index", "-x", "65536");
	REJECT(&t_write_bw, -ERANGE, "--mtu", "-m", "100");
	REJECT(&t_write_bw, -ERANGE, "--mtu", "-m", "8192");
	REJECT(&t_write_bw, -ERANGE, "--size", "-s", "0");
	REJECT(&t_write_bw, -ERANGE, "--size", "-s", "4294967297");
	REJECT(&t_write_bw, -ERANGE, "--ib-port", "-i", "256");
	REJECT(&t_write_bw, -ERANGE, "--sl", "-S", "16");
	REJECT(&t_write_bw, -ERANGE, "--timeout", "--timeout=99");
	assert_int_equal(PARSE(&t_write_bw, &o, "-x", "65535", "-p", "65535",
			       "-m", "4096"),
			 0);
	assert_int_equal(o.gid_index, 65535);
	assert_int_equal(o.tcp_port, 65535);
	assert_int_equal(o.mtu_bytes, 4096);
	gd_opts_free(&o);
}

static void test_unknown_and_hosts(void **state)
{
	struct gd_opts o;

	(void)state;
	REJECT(&t_write_bw, -EINVAL, "--bogus", "--bogus");
	REJECT(&t_write_bw, -EINVAL, "gd_write_bw --help", "-0");
	/* -s needs a value */
	REJECT(&t_write_bw, -EINVAL, "-s", "-s");
	REJECT(&t_write_bw, -EINVAL, "host1", "host1", "host2");
	assert_msg_has("host2");
	assert_int_equal(PARSE(&t_write_bw, &o, "10.0.0.2", "-s", "8"), 0);
	assert_string_equal(o.server_host, "10.0.0.2");
	assert_int_equal(o.size_bytes, 8);
	gd_opts_free(&o);
}

static void test_connection_types(void **state)
{
	struct gd_opts o;

	(void)state;
	REJECT(&t_write_bw, -EINVAL, "gd_write_bw", "-c", "UD");
	assert_msg_has("UD");
	assert_msg_has("RC UC");
	REJECT(&t_read_bw, -EINVAL, "gd_read_bw", "-c", "UC");
	assert_msg_has("supports: RC");
	REJECT(&t_atomic_bw, -EINVAL, "gd_atomic_bw", "--connection=UD");
	/* enum values match exactly */
	REJECT(&t_send_bw, -EINVAL, "--connection", "-c", "rc");
	/* perftest's other transports: refused with the reason, and XRC
	 * with what the device says (no device here) */
	REJECT(&t_send_bw, -EINVAL, "perftest: connection type XRC", "-c",
	       "XRC");
	assert_msg_has("no RDMA device to ask");
	REJECT(&t_write_bw, -EINVAL, "mlx5dv DC", "--connection=DC");
	REJECT(&t_read_bw, -EINVAL, "efadv SRD", "-c", "SRD");
	assert_int_equal(PARSE(&t_send_bw, &o, "-c", "UD", "-s", "1024"), 0);
	assert_int_equal(o.conn, GD_CONN_UD);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "-c", "UC"), 0);
	assert_int_equal(o.conn, GD_CONN_UC);
	gd_opts_free(&o);
	REJECT(&t_send_bw, -EINVAL, "-R", "-c", "UD", "-R");
}

static void test_exclusions(void **state)
{
	struct gd_opts o;

	(void)state;
	REJECT(&t_write_bw, -EINVAL, "-a", "-a", "-s", "4096");
	REJECT(&t_write_bw, -EINVAL, "-D", "-D", "5", "-n", "100");
	REJECT(&t_atomic_bw, -EINVAL, "8 bytes", "-s", "16");
	REJECT(&t_atomic_bw, -EINVAL, "-a", "-a");
	REJECT(&t_write_bw, -EINVAL, "--loopback", "--loopback", "peer1");
	assert_msg_has("peer1");
	REJECT(&t_write_lat, -EINVAL, "-b", "-b");
	REJECT(&t_write_lat, -EINVAL, "--run_infinitely", "--run_infinitely");
	REJECT(&t_read_bw, -EINVAL, "--write_with_imm", "--write_with_imm");
	REJECT(&t_write_bw, -EINVAL, "-l 200", "-l", "200", "-t", "100");
	REJECT(&t_write_bw, -EINVAL, "--use_hugepages", "--use_hugepages",
	       "--mem=hugepage");
	assert_int_equal(PARSE(&t_atomic_bw, &o, "-s", "8"), 0);
	assert_int_equal(o.size_bytes, 8);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--loopback", "-D", "2"), 0);
	assert_true(o.loopback);
	assert_int_equal(o.duration_s, 2);
	assert_null(o.server_host);
	gd_opts_free(&o);
}

static void test_cuda_spellings(void **state)
{
	static const char *const dmabuf_orders[][2] = {
		{ "--use_cuda=1", "--use_cuda_dmabuf" },
		{ "--use_cuda_dmabuf", "--use_cuda=1" },
	};
	struct gd_opts o;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(PARSE(&t_write_bw, &o, dmabuf_orders[i][0],
				       dmabuf_orders[i][1]),
				 0);
		assert_string_equal(o.mem_spec, "cuda:1:dmabuf");
		gd_opts_free(&o);
	}
	/* perftest's routes: --use_cuda alone is peer memory. */
	assert_int_equal(PARSE(&t_write_bw, &o, "--use_cuda=0"), 0);
	assert_string_equal(o.mem_spec, "cuda:0:peermem");
	gd_opts_free(&o);
	assert_int_equal(
		PARSE(&t_write_bw, &o, "--use_cuda_bus_id=0000:17:00.0"), 0);
	assert_string_equal(o.mem_spec, "cuda:0000:17:00.0:peermem");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--use_cuda_dmabuf",
			       "--use_cuda_bus_id=0000:17:00.0"),
			 0);
	assert_string_equal(o.mem_spec, "cuda:0000:17:00.0:dmabuf");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--mem=cuda:0:peermem"), 0);
	assert_string_equal(o.mem_spec, "cuda:0:peermem");
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "--use_cuda", "--use_cuda_dmabuf");
	REJECT(&t_write_bw, -EINVAL, "--mem", "--mem=host", "--use_cuda=1");
	REJECT(&t_write_bw, -EINVAL, "--use_cuda_bus_id", "--use_cuda=0",
	       "--use_cuda_bus_id=0000:17:00.0");
	REJECT(&t_write_bw, -EINVAL, "--use_cuda", "--use_cuda=gpu0");
	/* perftest's GPU-path flags: both off unless given. */
	assert_int_equal(PARSE(&t_write_bw, &o, "--use_cuda=0",
			       "--use_cuda_dmabuf", "--use_cuda_pcie_mapping",
			       "--disable_pcie_relaxed"),
			 0);
	assert_true(o.use_cuda_pcie_mapping);
	assert_true(o.disable_pcie_relaxed);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--use_cuda=0"), 0);
	assert_false(o.use_cuda_pcie_mapping);
	assert_false(o.disable_pcie_relaxed);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL,
	       "--use_cuda_pcie_mapping applies to DMA-BUF",
	       "--use_cuda_pcie_mapping");
	REJECT(&t_write_bw, -EINVAL,
	       "--use_cuda_pcie_mapping applies to DMA-BUF",
	       "--mem=cuda:0:peermem", "--use_cuda_pcie_mapping");
	REJECT(&t_write_bw, -EINVAL, "with --use_cuda_dmabuf", "--use_cuda=0",
	       "--use_cuda_pcie_mapping");
}

static void test_json_and_labels(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--json"), 0);
	assert_true(o.out_json);
	assert_string_equal(o.json_path, "-");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--json=/tmp/r.json"), 0);
	assert_string_equal(o.json_path, "/tmp/r.json");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--out_json"), 0);
	assert_string_equal(o.json_path, "gdperf_out.json");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--out_json",
			       "--out_json_file=run.json"),
			 0);
	assert_string_equal(o.json_path, "run.json");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--label", "site=lab1",
			       "--label=rack=r07"),
			 0);
	assert_int_equal(o.num_labels, 2);
	assert_string_equal(o.labels[0], "site=lab1");
	assert_string_equal(o.labels[1], "rack=r07");
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "--label", "--label=novalue");
	REJECT(&t_write_bw, -EINVAL, "--label", "--label==x");
}

static void test_too_many_labels(void **state)
{
	const char *args[GD_MAX_LABELS + 2];
	char text[GD_MAX_LABELS + 1][24];

	(void)state;
	for (int i = 0; i <= GD_MAX_LABELS; i++) {
		snprintf(text[i], sizeof(text[i]), "--label=k%d=v", i);
		args[i] = text[i];
	}
	args[GD_MAX_LABELS + 1] = NULL;
	expect_reject(&t_write_bw, args, -E2BIG, "--label");
}

static void test_output_enum(void **state)
{
	static const struct {
		const char *arg;
		enum gd_output_only want;
	} ok[] = {
		{ "--output=latency", GD_OUTPUT_LATENCY },
		{ "--output=bandwidth", GD_OUTPUT_BANDWIDTH },
		{ "--output=message_rate", GD_OUTPUT_MESSAGE_RATE },
	};
	struct gd_opts o;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		const struct gd_test *t = ok[i].want == GD_OUTPUT_LATENCY
						  ? &t_write_lat
						  : &t_write_bw;

		assert_int_equal(PARSE(t, &o, ok[i].arg), 0);
		assert_int_equal(o.output, ok[i].want);
		gd_opts_free(&o);
	}
	REJECT(&t_write_bw, -EINVAL, "--output", "--output=foo");
	REJECT(&t_write_bw, -EINVAL, "--output", "--output=");
	REJECT(&t_write_bw, -EINVAL, "--output", "--output=Latency");
	/* each test prints its own kind of figure */
	REJECT(&t_write_bw, -EINVAL, "gd_write_bw reports bandwidth",
	       "--output=latency");
	REJECT(&t_read_lat, -EINVAL, "gd_read_lat reports latency",
	       "--output=message_rate");
}

/* --sizes: strict, ascending, each once, suffixes; the plan and the
 * buffers' size follow it. */
static void test_sizes_list(void **state)
{
	struct gd_opts o;
	uint64_t sizes[GD_MAX_SIZE_LIST];
	unsigned int n;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--sizes=4K,64K,1M,8M"), 0);
	assert_int_equal(o.num_size_list, 4);
	assert_int_equal(gd_opts_sizes(&o, sizes, GD_MAX_SIZE_LIST, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(sizes[0], 4096);
	assert_int_equal(sizes[3], 8388608);
	assert_int_equal(gd_opts_max_size(&o), 8388608);
	assert_int_equal(gd_opts_sizes(&o, sizes, 3, &n), -E2BIG);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_lat, &o, "--sizes", "2"), 0);
	assert_int_equal(o.num_size_list, 1);
	gd_opts_free(&o);
	/* the plan without --sizes: -s, or the -a sweep */
	assert_int_equal(
		PARSE(&t_read_bw, &o, "-a", "--min-size=1K", "--max-size=8K"),
		0);
	assert_int_equal(gd_opts_sizes(&o, sizes, GD_MAX_SIZE_LIST, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(sizes[3], 8192);
	assert_int_equal(gd_opts_max_size(&o), 8192);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_read_bw, &o, "-s", "3000"), 0);
	assert_int_equal(gd_opts_sizes(&o, sizes, GD_MAX_SIZE_LIST, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(gd_opts_max_size(&o), 3000);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "list each size once, ascending",
	       "--sizes=64K,4K");
	REJECT(&t_write_bw, -EINVAL, "4096 repeats 4096", "--sizes=4K,4096");
	REJECT(&t_write_bw, -EINVAL, "empty or overlong entry",
	       "--sizes=4K,,8K");
	REJECT(&t_write_bw, -EINVAL, "empty or overlong entry", "--sizes=");
	REJECT(&t_write_bw, -EINVAL, "--sizes", "--sizes=4Q");
	REJECT(&t_write_bw, -ERANGE, "--sizes", "--sizes=0");
	REJECT(&t_write_bw, -ERANGE, "--sizes", "--sizes=8G");
	REJECT(&t_write_bw, -EINVAL, "drop -a", "--sizes=4K", "-a");
	REJECT(&t_write_bw, -EINVAL, "drop -s", "--sizes=4K", "-s", "8");
	REJECT(&t_write_bw, -EINVAL, "bound the -a sweep", "--sizes=4K",
	       "--max-size=8K");
	REJECT(&t_write_bw, -E2BIG, "at most 40 sizes",
	       "--sizes=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
	       "21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41");
}

/* perftest's options with conditions: what they need and exclude. */
static void test_perftest_conditions(void **state)
{
	struct gd_opts o;

	(void)state;
	/* -f: perftest's margins inside -D, instead of warm-up iterations */
	assert_int_equal(PARSE(&t_send_bw, &o, "-D", "10", "-f", "2"), 0);
	assert_int_equal(o.margin_s, 2);
	assert_int_equal(o.warmup_iters, 0);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "add -D", "-f", "2");
	REJECT(&t_write_bw, -EINVAL, "more than twice -f", "-D", "4", "-f",
	       "2");
	REJECT(&t_write_bw, -EINVAL, "give one", "-D", "9", "-f", "2",
	       "--warmup=5");
	/* --reversed swaps the roles; --reverse adds reversed phases */
	assert_int_equal(PARSE(&t_read_bw, &o, "--reversed"), 0);
	assert_true(o.reversed && !o.reverse);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "--reverse adds the reversed phases",
	       "--reversed", "--reverse");
	REJECT(&t_write_bw, -EINVAL, "-b runs both directions", "--reversed",
	       "-b");
	/* -T and --tclass are one field; rdma_cm's ToS is not set */
	assert_int_equal(PARSE(&t_write_lat, &o, "--tclass=96"), 0);
	assert_int_equal(o.tos, 96);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "give one", "-T", "32", "--tclass=32");
	REJECT(&t_write_bw, -EINVAL, "does not set the rdma_cm ToS", "-R",
	       "--tclass=32");
	/* perftest 6.x's --source_ip (and -j) is --bind_source_ip */
	assert_int_equal(PARSE(&t_write_bw, &o, "--source_ip=10.0.0.7"), 0);
	assert_string_equal(o.bind_addr, "10.0.0.7");
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_lat, &o, "-j", "10.0.0.8"), 0);
	assert_string_equal(o.bind_addr, "10.0.0.8");
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "give one", "--source_ip=10.0.0.7",
	       "--bind_source_ip=10.0.0.7");
	/* --pin_cores: one CPU, as --cpu */
	assert_int_equal(PARSE(&t_write_bw, &o, "--pin_cores=0"), 0);
	assert_int_equal(o.cpu, 0);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "gdperf pins to one CPU",
	       "--pin_cores=0-3");
	REJECT(&t_write_bw, -EINVAL, "gdperf pins to one CPU",
	       "--pin_cores=0,2");
	REJECT(&t_write_bw, -EINVAL, "give one", "--pin_cores=0", "--cpu=0");
	REJECT(&t_write_bw, -EINVAL, "--pin_cores", "--pin_cores=x");
	/* -N, -H, -U, -C set their fields */
	assert_int_equal(PARSE(&t_send_bw, &o, "-N"), 0);
	assert_true(o.no_peak);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_lat, &o, "-H", "-U", "-C"), 0);
	assert_true(o.lat_histogram && o.lat_unsorted && o.lat_cycles);
	gd_opts_free(&o);
	/* -W: perftest's counter list syntax */
	assert_int_equal(PARSE(&t_read_lat, &o, "-W",
			       "counters/port_rcv_data,hw_counters/rcvd_pkts"),
			 0);
	assert_string_equal(o.report_counters,
			    "counters/port_rcv_data,hw_counters/rcvd_pkts");
	gd_opts_free(&o);
	REJECT(&t_read_lat, -EINVAL, "is not counters/NAME", "-W",
	       "sys/rcvd_pkts");
}

/* -o, --cqe_poll and --recv_post_list: perftest's queue options, their
 * defaults, ranges, tests and what they need. */
static void test_perftest_queues(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE0(&t_read_bw, &o), 0);
	assert_int_equal(o.outs, 0); /* the device's default, at open */
	assert_int_equal(o.cqe_poll, 32);
	assert_int_equal(o.recv_post_list, 1);
	gd_opts_free(&o);
	/* -o: 1..255 (a QP attribute is a byte), read and atomic tests */
	assert_int_equal(PARSE(&t_read_bw, &o, "-o", "1"), 0);
	assert_int_equal(o.outs, 1);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_atomic_lat, &o, "--outs=255"), 0);
	assert_int_equal(o.outs, 255);
	gd_opts_free(&o);
	REJECT(&t_read_lat, -ERANGE, "--outs", "-o", "0");
	REJECT(&t_atomic_bw, -ERANGE, "1..255", "-o", "256");
	REJECT(&t_write_bw, -EINVAL, "it applies to gd_read_bw, gd_read_lat",
	       "-o", "4");
	/* --cqe_poll: 1..65535 as in perftest, bandwidth tests */
	assert_int_equal(PARSE(&t_send_bw, &o, "--cqe_poll=4"), 0);
	assert_int_equal(o.cqe_poll, 4);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_atomic_bw, &o, "--cqe_poll=65535"), 0);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -ERANGE, "--cqe_poll", "--cqe_poll=0");
	REJECT(&t_write_bw, -ERANGE, "--cqe_poll", "--cqe_poll=65536");
	REJECT(&t_send_lat, -EINVAL, "does not apply to gd_send_lat",
	       "--cqe_poll=4");
	/* --recv_post_list: the tests that post receives, at most -r */
	assert_int_equal(PARSE(&t_send_bw, &o, "--recv_post_list=8"), 0);
	assert_int_equal(o.recv_post_list, 8);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--write_with_imm",
			       "--recv_post_list=16", "-r", "16"),
			 0);
	gd_opts_free(&o);
	REJECT(&t_send_bw, -EINVAL, "--recv_post_list 32 exceeds -r 16",
	       "--recv_post_list=32", "-r", "16");
	REJECT(&t_send_bw, -ERANGE, "--recv_post_list", "--recv_post_list=0");
	REJECT(&t_send_bw, -ERANGE, "1..1024", "--recv_post_list=1025");
	REJECT(&t_read_bw, -EINVAL, "it applies to gd_write_bw and gd_send_bw",
	       "--recv_post_list=8");
	REJECT(&t_send_lat, -EINVAL, "does not apply to gd_send_lat",
	       "--recv_post_list=8");
}

/* --wait_destroy: perftest's range (an unsigned 32-bit number of seconds,
 * 0 by default: no wait) and tests (the bandwidth ones); this end only. */
static void test_wait_destroy(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE0(&t_write_bw, &o), 0);
	assert_int_equal(o.wait_destroy_s, 0);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--wait_destroy=2"), 0);
	assert_int_equal(o.wait_destroy_s, 2);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_atomic_bw, &o, "--wait_destroy=4294967295"),
			 0);
	assert_int_equal(o.wait_destroy_s, 4294967295ULL);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--wait_destroy=0"), 0);
	gd_opts_free(&o);
	REJECT(&t_read_bw, -ERANGE, "--wait_destroy",
	       "--wait_destroy=4294967296");
	REJECT(&t_read_bw, -EINVAL, "not a non-negative number",
	       "--wait_destroy=-1");
	REJECT(&t_write_lat, -EINVAL, "does not apply to gd_write_lat",
	       "--wait_destroy=2");
}

/* --help wraps descriptions at 80 columns, going on in lines indented 20
 * columns or more: joined back, so an option's text is on its one line. */
static void unwrap(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		size_t blanks = *in == '\n' ? strspn(in + 1, " ") : 0;

		if (blanks >= 20 && in[1 + blanks] && in[1 + blanks] != '\n') {
			*out++ = ' ';
			in += 1 + blanks;
			continue;
		}
		*out++ = *in++;
	}
	*out = '\0';
}

/* @t's --help (@word: "--help" or "--help=all"), in a string the caller
 * frees, unwrapped. */
static char *help_of(const struct gd_test *t, const char *word)
{
	char *usage = NULL;
	size_t len = 0;
	FILE *uf = open_memstream(&usage, &len);
	struct gd_opts o;

	assert_non_null(uf);
	assert_int_equal(
		parse_list(t, &o, uf, (const char *const[]){ word, NULL }), 1);
	fclose(uf);
	gd_opts_free(&o);
	unwrap(usage);
	return usage;
}

/* The option line of --@name in @usage ("  -x, --name..." or
 * "      --name..."), or NULL; prose that names an option is not one. */
static const char *help_line(const char *usage, const char *name)
{
	char flag[80];
	const char *p = usage;
	size_t n;

	snprintf(flag, sizeof(flag), "--%s", name);
	n = strlen(flag);
	while ((p = strstr(p, flag))) {
		const char *bol = p;

		while (bol > usage && bol[-1] != '\n')
			bol--;
		/* both forms put the long name at column 6 */
		if ((p[n] == '=' || p[n] == ' ' || p[n] == '[') &&
		    p - bol == 6 && !strncmp(bol, "  ", 2))
			return p;
		p += n;
	}
	return NULL;
}

/* Each binary's --help=all lists exactly the options that apply to it,
 * each once, grouped, with two or three examples that parse. */
static void test_help_per_test(void **state)
{
	size_t total = 0;

	(void)state;
	for (int t = 0; t < GD_TEST_COUNT; t++) {
		char *usage = help_of(&gd_tests[t], "--help=all");
		size_t listed = 0;

		assert_non_null(strstr(usage, "Usage: "));
		assert_non_null(strstr(usage, gd_tests[t].name));
		assert_non_null(strstr(
			usage,
			"perftest's options (the letters and meanings of ib_"));
		assert_non_null(strstr(usage, "\nExamples:\n"));
		for (size_t i = 0; i < gd_opt_count; i++) {
			const struct gd_opt_def *d = &gd_opt_table[i];
			bool applies = gd_opt_applies(&gd_tests[t], d);

			if (applies !=
			    (help_line(usage, d->long_name) != NULL)) {
				print_error("%s --help %s --%s\n",
					    gd_tests[t].name,
					    applies ? "lacks" : "lists",
					    d->long_name);
				fail();
			}
			listed += applies;
		}
		assert_true(listed >= 40);
		total += listed;
		for (int e = 0; e < GD_MAX_EXAMPLES; e++) {
			const char *cmd = gd_tests[t].examples[e].cmd;
			char *copy, *argv[24], *save = NULL;
			int argc = 0;
			struct gd_opts o;

			assert_non_null(cmd);
			assert_non_null(strstr(usage, cmd));
			copy = strdup(cmd);
			for (char *w = strtok_r(copy, " ", &save);
			     w && argc < 23; w = strtok_r(NULL, " ", &save))
				argv[argc++] = strcmp(w, "HOST") ? w : "host1";
			argv[argc] = NULL;
			assert_string_equal(argv[0], gd_tests[t].name);
			if (parse_list(&gd_tests[t], &o, NULL,
				       (const char *const *)argv + 1)) {
				print_error("example '%s': %s\n", cmd,
					    gd_err_msg());
				fail();
			}
			gd_opts_free(&o);
			free(copy);
		}
		free(usage);
	}
	assert_true(total < GD_TEST_COUNT * gd_opt_count);
}

/* Plain --help: within 80 columns, the comparison's options first, the
 * options that have no effect only under --help=all; --help takes only
 * "all" (also as -hall). */
static void test_help_short(void **state)
{
	static const char *const lead[] = { "mem",    "phases",	      "reverse",
					    "repeat", "expect-ratio", "json" };
	struct gd_opts o;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	for (int t = 0; t < GD_TEST_COUNT; t++) {
		char *plain = help_of(&gd_tests[t], "--help");
		char *all = help_of(&gd_tests[t], "--help=all");
		const char *prev = plain;

		for (size_t k = 0; k < sizeof(lead) / sizeof(lead[0]); k++) {
			const char *at = help_line(plain, lead[k]);

			assert_non_null(at);
			assert_true(at > prev);
			prev = at;
		}
		/* the first option line of all is --mem's */
		assert_ptr_equal(strstr(plain, "\n      --"),
				 help_line(plain, "mem") - 7);
		for (size_t i = 0; i < gd_opt_count; i++) {
			const struct gd_opt_def *d = &gd_opt_table[i];

			if (!gd_opt_applies(&gd_tests[t], d))
				continue;
			assert_true((help_line(plain, d->long_name) != NULL) ==
				    !(d->flags & GD_F_NOOP));
			assert_non_null(help_line(all, d->long_name));
		}
		assert_null(help_line(plain, "comm_rdma_cm"));
		assert_non_null(help_line(all, "comm_rdma_cm"));
		free(plain);
		free(all);
	}
	REJECT(&t_write_bw, -EINVAL, "--help=bogus: the only value is 'all'",
	       "--help=bogus");
	/* a flag with a value was "needs an argument ((null))" */
	REJECT(&t_write_bw, -EINVAL, "option --reverse takes no value",
	       "--reverse=x");
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(parse_list(&t_write_bw, &o, out,
				    (const char *const[]){ "-hall", NULL }),
			 1);
	assert_true(o.help_all);
	gd_opts_free(&o);
	fclose(out);
	assert_non_null(strstr(text, "perftest's options gdperf refuses"));
	free(text);
}

/* What a perftest user of each test expects not to see. */
static void test_help_lacks(void **state)
{
	static const struct {
		const struct gd_test *t;
		const char *lacks[6];
		const char *has[4];
	} want[] = {
		{ &t_write_lat,
		  { "bidirectional", "duration", "post_list", "noPeak",
		    "min-bw", "atomic_type" },
		  { "report-histogrm", "write_with_imm", "max-lat", NULL } },
		{ &t_read_bw,
		  { "write_with_imm", "inline_size", "latency_gap",
		    "report-cycles", "max-lat", "atomic_type" },
		  { "bidirectional", "noPeak", "limit_bw", NULL } },
		{ &t_send_lat,
		  { "bidirectional", "duration", "limit_msgrate", "qp",
		    "reversed", "margin" },
		  { "rx-depth", "inline_size", "report-unsorted", NULL } },
		{ &t_atomic_bw,
		  { "all", "sizes", "inline_size", "verify", "write_with_imm",
		    "report-histogrm" },
		  { "atomic_type", "limit_msgrate", "qp", NULL } },
		{ &t_atomic_lat,
		  { "all", "bidirectional", "verify", "rx-depth", "noPeak",
		    "post_list" },
		  { "atomic_type", "duration", "report-cycles", NULL } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *usage = help_of(want[i].t, "--help");

		for (int k = 0; k < 6 && want[i].lacks[k]; k++)
			if (help_line(usage, want[i].lacks[k])) {
				print_error("%s --help lists --%s\n",
					    want[i].t->name, want[i].lacks[k]);
				fail();
			}
		for (int k = 0; k < 4 && want[i].has[k]; k++)
			if (!help_line(usage, want[i].has[k])) {
				print_error("%s --help lacks --%s\n",
					    want[i].t->name, want[i].has[k]);
				fail();
			}
		free(usage);
	}
}

/* The range and the test's own default come from the table. */
static void test_help_ranges_defaults(void **state)
{
	char *bw = help_of(&t_write_bw, "--help"),
	     *lat = help_of(&t_write_lat, "--help");

	(void)state;
	assert_non_null(
		strstr(help_line(bw, "size"), "(1..4G; default 65536)"));
	assert_non_null(strstr(help_line(lat, "size"), "(1..4G; default 2)"));
	assert_non_null(strstr(help_line(bw, "iters"), "default 5000)"));
	assert_non_null(strstr(help_line(lat, "inline_size"), "default 64)"));
	assert_non_null(strstr(help_line(bw, "qp"), "(1..256; default 1)"));
	assert_non_null(
		strstr(help_line(bw, "connection=RC|UC"), "default RC"));
	assert_non_null(strstr(help_line(bw, "gate-from"), "default 65536)"));
	assert_non_null(strstr(help_line(lat, "gate-from"), "default 0)"));
	free(bw);
	free(lat);
	bw = help_of(&t_send_bw, "--help");
	assert_non_null(help_line(bw, "connection=RC|UC|UD"));
	free(bw);
	bw = help_of(&t_atomic_bw, "--help");
	assert_non_null(
		help_line(bw, "atomic_type=FETCH_AND_ADD|CMP_AND_SWAP"));
	assert_non_null(help_line(bw, "connection=RC"));
	free(bw);
}

/* perftest's options gdperf takes without effect say so, and only they;
 * every entry has a group and applies to some test. */
static void test_table_flags(void **state)
{
	size_t noops = 0;

	(void)state;
	for (size_t i = 0; i < gd_opt_count; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];
		bool says = !strncmp(d->help, "no effect: ", 11);

		if (says != !!(d->flags & GD_F_NOOP))
			fail_msg("--%s: GD_F_NOOP and its help disagree",
				 d->long_name);
		if ((d->flags & GD_F_NOOP) && (d->flags & GD_F_TRAVELS))
			fail_msg("--%s: a no-op has nothing to send",
				 d->long_name);
		assert_true(d->group < GD_G_COUNT);
		assert_true(d->applies & GD_AP_ALL);
		assert_int_equal(d->applies & ~GD_AP_ALL, 0);
		noops += says;
	}
	assert_int_equal(noops, 7);
}

/* An option of another test is refused with the tests it applies to. */
static void test_not_applicable(void **state)
{
	(void)state;
	REJECT(&t_write_lat, -EINVAL,
	       "-b/--bidirectional does not apply to gd_write_lat: it applies to the bandwidth tests (gd_write_bw, gd_read_bw, gd_send_bw and gd_atomic_bw)",
	       "-b");
	REJECT(&t_read_bw, -EINVAL,
	       "--write_with_imm does not apply to gd_read_bw: it applies to gd_write_bw and gd_write_lat",
	       "--write_with_imm");
	REJECT(&t_write_lat, -EINVAL, "-D/--duration does not apply", "-D",
	       "5");
	REJECT(&t_write_bw, -EINVAL, "-H/--report-histogrm does not apply",
	       "-H");
	REJECT(&t_atomic_bw, -EINVAL, "--sizes does not apply", "--sizes=8");
	REJECT(&t_send_bw, -EINVAL,
	       "-A/--atomic_type does not apply to gd_send_bw: it applies to gd_atomic_bw and gd_atomic_lat",
	       "-A", "CMP_AND_SWAP");
}

static void test_short_help_and_version(void **state)
{
	char *buf = NULL, want[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct gd_opts o;

	(void)state;
	assert_int_equal(parse_list(&t_read_lat, &o, f,
				    (const char *const[]){ "-V", NULL }),
			 1);
	fclose(f);
	gd_opts_free(&o);
	snprintf(want, sizeof(want),
		 "gd_read_lat (gdperf) %s\nside-channel protocol: %d\n",
		 PACKAGE_VERSION, GD_OOB_VERSION);
	assert_string_equal(buf, want);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(parse_list(&t_read_lat, &o, f,
				    (const char *const[]){ "-h", NULL }),
			 1);
	fclose(f);
	gd_opts_free(&o);
	assert_non_null(strstr(buf, "Usage: gd_read_lat"));
	assert_non_null(strstr(buf, "read latency"));
	free(buf);
}

/*
 * An unknown flag inside a cluster of short flags ("-zb"): the message must
 * name it, and a later parse must not pick up the rest of the old cluster
 * (glibc's getopt keeps a pointer into it unless fully reset). Kept last in
 * main() so that a failure here cannot leave state behind for other cases.
 */
static void test_unknown_in_cluster_then_reparse(void **state)
{
	char msg[GD_ERR_MSG_MAX];
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "-zb"), -EINVAL);
	snprintf(msg, sizeof(msg), "%s", gd_err_msg());
	gd_opts_free(&o);
	assert_int_equal(PARSE0(&t_write_bw, &o), 0);
	assert_false(o.bidir);
	gd_opts_free(&o);
	if (!strstr(msg, "-z")) {
		print_error("'%s' does not name -z\n", msg);
		fail();
	}
}

/* A valid value for each option the rules name (flags take none). */
static const char *rule_value(const char *name)
{
	static const char *const v[][2] = {
		{ "bind_source_ip", "127.0.0.1" },
		{ "size", "4096" },
		{ "duration", "1" },
		{ "iters", "100" },
		{ "max-clients", "2" },
		{ "gate-undecided", "pass" },
		{ "expect-ratio", "0.8" },
		{ "max-lat", "10" },
		{ "openmetrics", "/tmp/gd-rules.prom" },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(v[i][0], name))
			return v[i][1];
	return NULL;
}

/* "--NAME" or "--NAME=VALUE" into @buf, as argv[@n]; returns n + 1. */
static int rule_arg(const char *name, char *buf, size_t len, const char **argv,
		    int n)
{
	const char *v = rule_value(name);
	int idx = gd_opt_find(name, strlen(name));

	assert_true(idx >= 0);
	assert_true(v || gd_opt_table[idx].type == GD_T_FLAG);
	snprintf(buf, len, "--%s%s%s", name, v ? "=" : "", v ? v : "");
	argv[n] = buf;
	return n + 1;
}

/*
 * Every rule of gd_opt_rules[] names two options of the table and holds,
 * on a test both apply to: "A excludes B" refuses both given and takes A
 * alone; "A needs B" refuses A alone with its words and takes both (a
 * NEEDS_WARN rule only warns). The host is left out where --loopback or
 * --persist (a server's) is named.
 */
static void test_rules_table(void **state)
{
	(void)state;
	assert_true(gd_opt_rule_count >= 9);
	for (size_t i = 0; i < gd_opt_rule_count; i++) {
		const struct gd_opt_rule *r = &gd_opt_rules[i];
		const struct gd_opt_def *a =
			&gd_opt_table[gd_opt_find(r->a, strlen(r->a))];
		const struct gd_opt_def *b =
			&gd_opt_table[gd_opt_find(r->b, strlen(r->b))];
		const struct gd_test *t = NULL;
		bool server =
			!strcmp(r->a, "persist") || !strcmp(r->b, "persist") ||
			!strcmp(r->a, "loopback") || !strcmp(r->b, "loopback");
		char wa[96], wb[96];
		const char *one[4] = { NULL }, *two[5] = { NULL };
		int n1 = rule_arg(r->a, wa, sizeof(wa), one, 0);
		int n2 = rule_arg(r->b, wb, sizeof(wb), two,
				  rule_arg(r->a, wa, sizeof(wa), two, 0));
		struct gd_opts o;
		int want_one = r->kind == GD_RULE_NEEDS ? -EINVAL : 0;
		int want_two = r->kind == GD_RULE_EXCLUDES ? -EINVAL : 0;

		assert_string_not_equal(r->msg, "");
		for (int k = 0; k < GD_TEST_COUNT && !t; k++)
			if (gd_opt_applies(&gd_tests[k], a) &&
			    gd_opt_applies(&gd_tests[k], b))
				t = &gd_tests[k];
		assert_non_null(t);
		if (!server) {
			one[n1] = "h";
			two[n2] = "h";
		}
		if (parse_list(t, &o, NULL, one) != want_one ||
		    (want_one && strcmp(gd_err_msg(), r->msg)))
			fail_msg("%s %s: '%s'", t->name, wa, gd_err_msg());
		gd_opts_free(&o);
		if (parse_list(t, &o, NULL, two) != want_two ||
		    (want_two && strcmp(gd_err_msg(), r->msg)))
			fail_msg("%s %s %s: '%s'", t->name, wa, wb,
				 gd_err_msg());
		gd_opts_free(&o);
	}
}

/* Parse @args, then the check gd_main applies after the parse: 0 or its
 * error, whose message must hold @needle. */
static void phases_here(const char *needle, const char *const *args)
{
	struct gd_opts o;
	int ret;

	assert_int_equal(parse_list(&t_write_bw, &o, NULL, args), 0);
	ret = gd_opts_phases_here_check(&o);
	if (needle) {
		assert_int_equal(ret, -EINVAL);
		assert_msg_has(needle);
	} else {
		assert_int_equal(ret, 0);
	}
	gd_opts_free(&o);
}

#define PHASES_HERE(needle, ...)                                               \
	phases_here((needle), (const char *const[]){ __VA_ARGS__, NULL })

/* What the options alone show a run cannot do is refused before it
 * starts, the run's and --dry-run's line alike: a phase this side has no
 * memory for (gd_main's check after the parse), a gate over no size of
 * the sweep (the parse's). */
static void test_cannot_run(void **state)
{
	struct gd_opts o;

	(void)state;
	PHASES_HERE(
		"--phases: phase DD cannot run: --loopback runs both halves here and this side has no device memory configured (no --mem); add --mem here",
		"--loopback", "--phases=DD");
	PHASES_HERE(
		"phase D2D2 cannot run: --loopback runs both halves here and this side has no D2: its --mem lists 1 device memory",
		"--loopback", "--mem=hugepage", "--phases=HH,D2D2");
	PHASES_HERE("phase DH cannot run: this side has no device memory",
		    "--phases=DH", "h");
	PHASES_HERE(NULL, "--loopback", "--mem=hugepage", "--phases=HH,DD");
	/* the server's half of a client's phase is the server's to say, and
	 * a server's own --phases is the client's to give */
	PHASES_HERE(NULL, "--phases=HD", "h");
	PHASES_HERE(NULL, "--phases=DD");
	REJECT(&t_write_bw, -EINVAL,
	       "--min-bw judges sizes from --gate-from=1 MiB up, and the largest size of this sweep is 64 KiB: the gate would judge no size",
	       "--min-bw=100", "--gate-from=1M", "--sizes=4K,64K", "h");
	REJECT(&t_write_bw, -EINVAL,
	       "--gate-from=64 KiB (its default) up, and the largest size of this sweep is 4 KiB",
	       "--min-bw=100", "-s", "4096", "h");
	REJECT(&t_write_bw, -EINVAL, "--expect-ratio judges sizes from",
	       "--expect-ratio=0.8", "--gate-from=1M", "-s", "4096", "h");
	/* without --gate-from, --expect-ratio judges every size */
	assert_int_equal(
		PARSE(&t_write_bw, &o, "--expect-ratio=0.8", "-s", "4096", "h"),
		0);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--min-bw=100",
			       "--gate-from=1M", "--sizes=4K,1M", "h"),
			 0);
	gd_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_write_bw),
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_defaults_latency),
		cmocka_unit_test(test_sweep_bounds),
		cmocka_unit_test(test_short_flags),
		cmocka_unit_test(test_long_flags),
		cmocka_unit_test(test_perftest_spellings),
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_unknown_and_hosts),
		cmocka_unit_test(test_connection_types),
		cmocka_unit_test(test_exclusions),
		cmocka_unit_test(test_cuda_spellings),
		cmocka_unit_test(test_json_and_labels),
		cmocka_unit_test(test_too_many_labels),
		cmocka_unit_test(test_output_enum),
		cmocka_unit_test(test_help_per_test),
		cmocka_unit_test(test_help_short),
		cmocka_unit_test(test_help_lacks),
		cmocka_unit_test(test_help_ranges_defaults),
		cmocka_unit_test(test_not_applicable),
		cmocka_unit_test(test_table_flags),
		cmocka_unit_test(test_sizes_list),
		cmocka_unit_test(test_perftest_conditions),
		cmocka_unit_test(test_perftest_queues),
		cmocka_unit_test(test_wait_destroy),
		cmocka_unit_test(test_short_help_and_version),
		cmocka_unit_test(test_unknown_in_cluster_then_reparse),
		cmocka_unit_test(test_rules_table),
		cmocka_unit_test(test_cannot_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
