/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's options that shape the verbs objects and the side channel,
 * as parsed: -X, --send_with_imm, --use-srq, --flow_label, --ipv6,
 * --ipv6-addr, --mmap, --mmap-offset, --payload_file_path (its file
 * form too) and -g/-M (the groups too). What only a device answers runs in the
 * guest (case 36).
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/error.h"
#include "cli/options.h"
#include "engine/payload.h"
#include "engine/numa.h"
#include "transport/mcast.h"
#include "opts_util.h"

#define PAYLOAD_FILE "/tmp/gd-options-verbs-payload.txt"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* -X: with -e only, read/send/atomic only, 0..65535. */
static void test_vector(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_send_bw, &o, "-e", "-X", "3"), 0);
	assert_int_equal(o.comp_vector, 3);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_read_lat, &o, "--vector=0", "-e"), 0);
	gd_opts_free(&o);
	REJECT(&t_read_bw, -EINVAL, "add -e", "-X", "1");
	REJECT(&t_write_bw, -EINVAL, "does not apply to gd_write_bw", "-e",
	       "-X", "1");
	REJECT(&t_atomic_bw, -ERANGE,
	       "--vector: 65536 is out of range 0..65535", "-e", "-X", "65536");
}

/* --send_with_imm and --use-srq: send tests; both travel. */
static void test_send_options(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_send_lat, &o, "--send_with_imm"), 0);
	assert_true(o.send_with_imm);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--use-srq", "-q", "4"), 0);
	assert_true(o.use_srq);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--use_srq", "--verify"), 0);
	gd_opts_free(&o);
	REJECT(&t_send_bw, -EINVAL, "use -q 1 or drop --verify", "--use-srq",
	       "--verify", "-q", "2");
	REJECT(&t_write_bw, -EINVAL, "does not apply to gd_write_bw",
	       "--send_with_imm");
	REJECT(&t_read_lat, -EINVAL, "does not apply to gd_read_lat",
	       "--use-srq");
}

/* -g/-M: send tests, UD (set or given), one QP, one direction. */
static void test_mcg(void **state)
{
	static const uint8_t v4[16] = { 0, 0, 0,    0,	  0,   0, 0, 0,
					0, 0, 0xff, 0xff, 239, 1, 2, 3 };
	struct gd_opts o;
	struct gd_port_info port = { .gid_index = 1 };
	union ibv_gid g;
	uint8_t raw[16];

	(void)state;
	assert_int_equal(PARSE(&t_send_bw, &o, "-g", "-s", "512"), 0);
	assert_true(o.mcg);
	assert_int_equal(o.conn, GD_CONN_UD);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_lat, &o, "-g", "-c", "UD", "-M",
			       "0:0:0:0:0:0:0:0:0:0:255:255:239:1:2:3"),
			 0);
	assert_memory_equal(o.mgid_raw, v4, 16);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--mcg",
			       "--MGID=::ffff:239.1.2.3", "--reverse"),
			 0);
	assert_memory_equal(o.mgid_raw, v4, 16);
	gd_opts_free(&o);
	REJECT(&t_send_bw, -EINVAL, "add -g", "-M", "ff0e::1");
	REJECT(&t_send_bw, -EINVAL, "give -c UD or drop -c", "-g", "-c", "RC");
	REJECT(&t_send_bw, -EINVAL, "only 1 QP supported", "-g", "-q", "2");
	REJECT(&t_send_bw, -EINVAL, "bidirectional mode not supported", "-g",
	       "-b");
	REJECT(&t_send_bw, -EINVAL, "no multicast with rdma_cm", "-g", "-R");
	REJECT(&t_send_bw, -EINVAL, "16 bytes separated by ':'", "-g", "-M",
	       "1:2:3");
	REJECT(&t_send_bw, -EINVAL, "16 bytes separated by ':'", "-g", "-M",
	       "0:0:0:0:0:0:0:0:0:0:255:255:239:1:2:256");
	REJECT(&t_send_bw, -EINVAL, "is no multicast group", "-g", "-M",
	       "::ffff:10.0.0.1");
	REJECT(&t_send_bw, -EINVAL, "is no multicast group", "-g", "-M",
	       "fe80::1");
	REJECT(&t_write_bw, -EINVAL, "does not apply to gd_write_bw", "-g");
	/* the group of each end: the base, the client's last byte + 1 */
	assert_int_equal(gd_mgid_parse("ff0e::ff", raw), 0);
	gd_mcast_group(&port, raw, true, &g);
	assert_int_equal(g.raw[0], 0xff);
	assert_int_equal(g.raw[15], 0);
	assert_int_equal(g.raw[14], 0);
	/* defaults by the GID's kind */
	port.gid.raw[10] = port.gid.raw[11] = 0xff;
	gd_mcast_group(&port, NULL, false, &g);
	assert_int_equal(g.raw[12], 239);
	assert_int_equal(g.raw[15], 100);
	gd_mcast_group(&port, NULL, true, &g);
	assert_int_equal(g.raw[15], 101);
	memset(&port.gid, 0, sizeof(port.gid));
	port.gid.raw[0] = 0xfe;
	port.gid.raw[1] = 0x80;
	gd_mcast_group(&port, NULL, false, &g);
	assert_int_equal(g.raw[0], 0xff);
	assert_int_equal(g.raw[1], 0x0e);
}

static void test_flow_label(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(
		PARSE(&t_write_bw, &o, "--flow_label=7,0x12345,0", "-q", "4"),
		0);
	assert_int_equal(o.num_flow_labels, 3);
	assert_int_equal(o.flow_labels[0], 7);
	assert_int_equal(o.flow_labels[1], 0x12345);
	assert_int_equal(o.flow_labels[2], 0);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_read_lat, &o, "--flow_label=1048575"), 0);
	assert_int_equal(o.flow_labels[0], 0xfffff);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "the GRH field is 20 bits",
	       "--flow_label=1048576");
	REJECT(&t_write_bw, -EINVAL, "'' is not a flow label",
	       "--flow_label=1,,2");
	REJECT(&t_write_bw, -EINVAL, "'-1' is not a flow label",
	       "--flow_label=-1");
	REJECT(&t_write_bw, -EINVAL, "'x' is not a flow label",
	       "--flow_label=x");
	REJECT(&t_write_bw, -EINVAL, "--flow_label with -R", "-R",
	       "--flow_label=1");
}

static void test_ipv6(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_lat, &o, "--ipv6", "--ipv6-addr"), 0);
	assert_true(o.ipv6_gid);
	assert_true(o.ipv6_addr);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_lat, &o, "--ipv6_addr", "-R"), 0);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "-x 1 names one", "--ipv6", "-x", "1");
	REJECT(&t_write_bw, -EINVAL, "--ipv6 with -R", "--ipv6", "-R");
}

static void test_mmap(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--mmap=/dev/shm/buf",
			       "--mmap-offset=8K"),
			 0);
	assert_string_equal(o.mem_spec, "mmap:/dev/shm/buf");
	assert_int_equal(o.num_mem, 1);
	assert_int_equal(o.mmap_offset_bytes, 8192);
	gd_opts_free(&o);
	assert_int_equal(
		PARSE(&t_read_lat, &o, "--mem=mmap:/x", "--mmap-offset=4096"),
		0);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL,
	       "give one (--mmap=FILE is --mem=mmap:FILE)", "--mmap=/x",
	       "--mem=host");
	REJECT(&t_write_bw, -EINVAL, "add --mmap=FILE", "--mmap-offset=4096");
	REJECT(&t_write_bw, -EINVAL, "name the file without one",
	       "--mmap=/a,b");
	REJECT(&t_write_bw, -EINVAL, "name the file to map", "--mem=mmap:");
	REJECT(&t_write_bw, -EINVAL, "both halves would map the same range",
	       "--loopback", "--mmap=/x");
}

/* perftest's form: each word's bytes least significant first. */
static void test_payload_parse(void **state)
{
	uint8_t out[16];
	size_t n;
	static const uint8_t want[] = { 0x04, 0x03, 0x02, 0x01,
					0xd0, 0xc0, 0xb0, 0xa0 };

	(void)state;
	assert_int_equal(gd_payload_parse("f", "0x01020304,0xA0B0C0D0\n", out,
					  sizeof(out), &n),
			 0);
	assert_int_equal(n, 8);
	assert_memory_equal(out, want, sizeof(want));
	assert_int_equal(gd_payload_parse("f", " 0x01020304\n0xa0b0c0d0,\n\n",
					  out, sizeof(out), &n),
			 0);
	assert_int_equal(n, 8);
	assert_memory_equal(out, want, sizeof(want));
	gd_err_clear();
	assert_int_equal(
		gd_payload_parse("f", "0x01020304,0x123", out, sizeof(out), &n),
		-EINVAL);
	assert_msg_has("word 1 '0x123' is not 0x and eight hex digits");
	gd_err_clear();
	assert_int_equal(
		gd_payload_parse("f", "0x0102030g", out, sizeof(out), &n),
		-EINVAL);
	assert_msg_has("word 0 '0x0102030g' has a character");
	gd_err_clear();
	assert_int_equal(gd_payload_parse("f", "\n ,\n", out, sizeof(out), &n),
			 -EINVAL);
	assert_msg_has("no payload word");
	assert_int_equal(
		gd_payload_parse("f", "0x00000001,0x00000002", out, 4, &n),
		-E2BIG);
}

static void test_payload_option(void **state)
{
	struct gd_opts o;

	(void)state;
	write_file(PAYLOAD_FILE, "0xdeadbeef,0x00000001\n");
	assert_int_equal(
		PARSE(&t_send_bw, &o, "--payload_file_path=" PAYLOAD_FILE), 0);
	assert_int_equal(o.payload_bytes, 8);
	assert_int_equal(o.payload[0], 0xef);
	assert_int_equal(o.payload[4], 0x01);
	assert_int_equal(strlen(o.payload_sha256), 64);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -EINVAL, "give one",
	       "--payload_file_path=" PAYLOAD_FILE, "--verify");
	REJECT(&t_write_lat, -EINVAL, "does not apply to gd_write_lat",
	       "--payload_file_path=" PAYLOAD_FILE);
	REJECT(&t_write_bw, -ENOENT, "cannot read it",
	       "--payload_file_path=/nonexistent/payload");
	write_file(PAYLOAD_FILE, "0xdeadbeef,beef\n");
	REJECT(&t_write_bw, -EINVAL, "word 1 'beef'",
	       "--payload_file_path=" PAYLOAD_FILE);
	remove(PAYLOAD_FILE);
}

/* --pkey_index and --dlid: parsed here, checked against the port (and
 * refused on RoCE for --dlid) when the device opens (case 36). */
static void test_pkey_dlid(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_send_bw, &o, "--pkey_index=3", "--dlid=7"),
			 0);
	assert_int_equal(o.pkey_index, 3);
	assert_int_equal(o.dlid, 7);
	gd_opts_free(&o);
	REJECT(&t_write_bw, -ERANGE, "--dlid", "--dlid=0");
	REJECT(&t_write_bw, -EINVAL, "--pkey_index with -R", "-R",
	       "--pkey_index=1");
	REJECT(&t_write_bw, -EINVAL, "--dlid with -R", "-R", "--dlid=1");
}

/* --numa_node: a fixture's nodes, and the command line's checks. */
static void test_numa_node(void **state)
{
	char root[] = "/tmp/gd-numa-test.XXXXXX", dir[128];
	cpu_set_t cpus;
	struct gd_opts o;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/sys", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/system", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	gd_err_clear();
	assert_int_equal(gd_numa_node_cpus(root, 0, &cpus), -ENOENT);
	assert_msg_has("describes no NUMA nodes");
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/node0", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/node1", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/online", root);
	write_file(dir, "0-1\n");
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/node0/cpulist",
		 root);
	write_file(dir, "0-2,5\n");
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/node1/cpulist",
		 root);
	write_file(dir, "\n");
	assert_int_equal(gd_numa_node_cpus(root, 0, &cpus), 0);
	assert_int_equal(CPU_COUNT(&cpus), 4);
	assert_true(CPU_ISSET(5, &cpus));
	assert_false(CPU_ISSET(3, &cpus));
	gd_err_clear();
	assert_int_equal(gd_numa_node_cpus(root, 1, &cpus), -EINVAL);
	assert_msg_has("the node has no CPUs");
	gd_err_clear();
	assert_int_equal(gd_numa_node_cpus(root, 2, &cpus), -ENOENT);
	assert_msg_has("no such NUMA node (online nodes: 0-1)");
	/* what hwloc's list parser must not take: an open range, junk */
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/node3", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sys/devices/system/node/node3/cpulist",
		 root);
	for (const char *const *bad = (const char *const[]){ "3-\n", "0-2,x\n",
							     "99999\n", NULL };
	     *bad; bad++) {
		write_file(dir, *bad);
		gd_err_clear();
		assert_int_equal(gd_numa_node_cpus(root, 3, &cpus), -EINVAL);
		assert_msg_has("cannot read the CPU list");
	}
	snprintf(dir, sizeof(dir), "rm -rf %s", root);
	assert_int_equal(system(dir), 0);

	REJECT(&t_write_bw, -EINVAL, "give one", "--numa_node=0", "--cpu=0");
	REJECT(&t_write_bw, -EINVAL, "give one", "--numa_node=0",
	       "--pin_cores=0");
	REJECT(&t_write_bw, -ENOENT, "--numa_node 1023", "--numa_node=1023");
	REJECT(&t_write_bw, -ERANGE, "--numa_node", "--numa_node=1024");
	if (!access("/sys/devices/system/node/node0/cpulist", R_OK)) {
		assert_int_equal(PARSE(&t_write_bw, &o, "--numa_node=0"), 0);
		assert_int_equal(o.numa_node, 0);
		gd_opts_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector),
		cmocka_unit_test(test_send_options),
		cmocka_unit_test(test_mcg),
		cmocka_unit_test(test_flow_label),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_payload_parse),
		cmocka_unit_test(test_payload_option),
		cmocka_unit_test(test_numa_node),
		cmocka_unit_test(test_pkey_dlid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
