/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Unit tests for gd_doctor's pure parts: ACS decoding, PCIe link parsing,
 * PCI address comparison, path classes on the fixture hwloc XML, the rails
 * file, that collecting an envelope never touches a run's first error, and
 * the NIC function's relaxed-ordering bit on lspci -xxx fixtures.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "envelope/doctor.h"
#include "envelope/rails.h"
#include "envelope/topology.h"
#include "envelope/envelope.h"
#include "util/error.h"

static char fixtures[4096];

static const char *fx(const char *name)
{
	static char path[8192];

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	return path;
}

static bool jbool(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_boolean(v);
}

static void test_acs_decode(void **state)
{
	/* 0x001d = SrcValid + ReqRedir + CmpltRedir + UpstreamFwd, as
	 * lspci prints "ACSCtl: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+
	 * UpstreamFwd+ EgressCtrl- DirectTrans-". */
	struct json_object *o = gd_doctor_acs_decode(0x001d), *v;

	assert_true(json_object_object_get_ex(o, "acs_ctl", &v));
	assert_string_equal(json_object_get_string(v), "0x001d");
	assert_true(jbool(o, "source_validation"));
	assert_false(jbool(o, "translation_blocking"));
	assert_true(jbool(o, "p2p_request_redirect"));
	assert_true(jbool(o, "p2p_completion_redirect"));
	assert_true(jbool(o, "upstream_forwarding"));
	assert_false(jbool(o, "p2p_egress_control"));
	assert_false(jbool(o, "direct_translated_p2p"));
	assert_true(jbool(o, "redirects_peer_traffic"));
	json_object_put(o);
	/* Upstream forwarding and direct translated P2P do not redirect. */
	assert_false(gd_doctor_acs_redirects(0x0050));
	assert_true(gd_doctor_acs_redirects(0x0020));
	assert_false(gd_doctor_acs_redirects(0));
}

static void test_link_and_bdf(void **state)
{
	assert_true(gd_doctor_link_gts("16.0 GT/s PCIe") == 16.0);
	assert_true(gd_doctor_link_gts("8 GT/s") == 8.0);
	assert_true(gd_doctor_link_gts("2.5 GT/s PCIe") == 2.5);
	assert_true(gd_doctor_link_gts("Unknown") == 0);
	assert_true(gd_bdf_equal("0000:17:00.0", "00000000:17:00.0"));
	assert_true(gd_bdf_equal("0000:1C:00.0", "0000:1c:00.0"));
	assert_false(gd_bdf_equal("0000:17:00.0", "0000:17:00.1"));
	assert_false(gd_bdf_equal("0000:17:00.0", NULL));
}

static hwloc_obj_t pcidev(hwloc_topology_t t, unsigned int bus)
{
	hwloc_obj_t o = hwloc_get_pcidev_by_busid(t, 0, bus, 0, 0);

	assert_non_null(o);
	return o;
}

static void test_path_classes(void **state)
{
	struct gd_topo_path path;
	struct gd_topo_devs devs;
	hwloc_topology_t t;

	assert_int_equal(gd_topo_load(fx("dual-socket-8gpu.xml"), &t), 0);
	gd_topo_devices(t, &devs);
	assert_int_equal(devs.ngpus, 8);
	assert_int_equal(devs.nnics, 8);
	assert_string_equal(devs.nic_names[6], "mlx5_6");
	/* Same second-level switch: GPU, downstream, upstream, downstream, NIC.
	 */
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0x17), pcidev(t, 0x18), &path),
		GD_PATH_PIX);
	assert_int_equal(path.nbridges, 3);
	/* Through both second-level switches and the first-level one. */
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0x17), pcidev(t, 0x1d), &path),
		GD_PATH_PXB);
	assert_int_equal(path.nbridges, 7);
	/* Other host bridge, same package: NODE; other package: SYS. */
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0x17), pcidev(t, 0x36), &path),
		GD_PATH_NODE);
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0x17), pcidev(t, 0x96), &path),
		GD_PATH_SYS);
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0x95), pcidev(t, 0x36), &path),
		GD_PATH_SYS);
	/* Two root ports of one host bridge: PHB; each with its own switch:
	 * PIX. */
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0xb3), pcidev(t, 0xb8), &path),
		GD_PATH_PHB);
	assert_int_equal(
		gd_topo_classify(t, pcidev(t, 0xb3), pcidev(t, 0xb4), &path),
		GD_PATH_PIX);
	assert_int_equal(gd_topo_numa(t, pcidev(t, 0x17)), 0);
	assert_int_equal(gd_topo_numa(t, pcidev(t, 0xb7)), 1);
	assert_string_equal(gd_path_name(GD_PATH_NODE), "NODE");
	hwloc_topology_destroy(t);
}

static void test_rails(void **state)
{
	struct gd_rails *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	assert_int_equal(gd_rails_load(fx("rails.txt"), r), 0);
	assert_int_equal(r->n, 10);
	assert_string_equal(gd_rails_find(r, "mlx5_3"), "rail3");
	assert_string_equal(gd_rails_find(r, "0000:B7:00.0"), "rail6");
	assert_null(gd_rails_find(r, "mlx5_9"));
	assert_int_equal(gd_rails_load("/nonexistent/rails", r), -ENOENT);
	assert_non_null(strstr(gd_err_msg(), "/nonexistent/rails"));
	gd_err_clear();
	free(r);
}

/* A gd_* run that already failed must keep its diagnosis after the
 * envelope probes a missing CUDA driver. */
static void test_envelope_keeps_first_error(void **state)
{
	struct gd_envelope_opts o = { .root = fx("root") };
	struct json_object *env, *v;

	setenv("GD_CUDA_LIBRARY", "/nonexistent/libcuda.so.1", 1);
	gd_err_clear();
	gd_err(-EPERM, "the run's own error");
	o.flags = GD_ENVELOPE_NO_TOPOLOGY;
	assert_int_equal(gd_envelope_collect(&o, &env), 0);
	assert_string_equal(gd_err_msg(), "the run's own error");
	assert_true(json_object_object_get_ex(env, "topology_probed", &v));
	assert_false(json_object_get_boolean(v));
	assert_int_equal(gd_envelope_worst(env), GD_SEV_ERROR);
	json_object_put(env);

	/* Without an earlier error the probe leaves none behind either. */
	gd_err_clear();
	o.flags = GD_ENVELOPE_QUICK | GD_ENVELOPE_NO_GPU;
	assert_int_equal(gd_envelope_collect(&o, &env), 0);
	assert_false(gd_err_is_set());
	json_object_put(env);
}

/* An lspci -xxx fixture as the first @limit bytes of a sysfs config file
 * of 0000:3b:00.0 under @root, mlx5_0's parent; rxe0 has no parent. */
static void make_ro_root(const char *root, const char *fixture, size_t limit)
{
	static const char *const dirs[] = {
		"/sys",
		"/sys/bus",
		"/sys/bus/pci",
		"/sys/bus/pci/devices",
		"/sys/bus/pci/devices/0000:3b:00.0",
		"/sys/class",
		"/sys/class/infiniband",
		"/sys/class/infiniband/mlx5_0",
		"/sys/class/infiniband/rxe0",
	};
	unsigned char cfg[256] = { 0 };
	unsigned int row, b[16];
	char path[512], line[256];
	FILE *in = fopen(fx(fixture), "r"), *out;

	assert_non_null(in);
	while (fgets(line, sizeof(line), in))
		if (sscanf(line,
			   "%x: %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x",
			   &row, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
			   &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12],
			   &b[13], &b[14], &b[15]) == 17 &&
		    row + 16 <= sizeof(cfg))
			for (int i = 0; i < 16; i++)
				cfg[row + i] = (unsigned char)b[i];
	fclose(in);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		assert_true(!mkdir(path, 0755) || errno == EEXIST);
	}
	snprintf(path, sizeof(path),
		 "%s/sys/bus/pci/devices/0000:3b:00.0/config", root);
	out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(fwrite(cfg, 1, limit, out), limit);
	assert_int_equal(fclose(out), 0);
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/mlx5_0/device",
		 root);
	unlink(path);
	assert_int_equal(symlink("../../../bus/pci/devices/0000:3b:00.0", path),
			 0);
}

/* The NIC function's Device Control bit, or unknown with the reason. */
static void test_pcie_ro(void **state)
{
	char root[] = "/tmp/gd_doctor_unit_ro.XXXXXX", cmd[64];
	struct gd_pcie_ro ro;

	(void)state;
	assert_non_null(mkdtemp(root));
	make_ro_root(root, "pcie-ro/cx7-ro-on.txt", 256);
	assert_int_equal(gd_envelope_pcie_ro(root, "mlx5_0", &ro), 0);
	assert_int_equal(ro.state, GD_PCIE_RO_ENABLED);
	assert_int_equal(ro.devctl, 0x593f);
	assert_string_equal(ro.bdf, "0000:3b:00.0");
	assert_string_equal(
		ro.text,
		"enabled (0000:3b:00.0 DevCtl 0x593f: Enable Relaxed Ordering set)");

	make_ro_root(root, "pcie-ro/cx7-ro-off.txt", 256);
	assert_int_equal(gd_envelope_pcie_ro(root, "mlx5_0", &ro), 0);
	assert_int_equal(ro.state, GD_PCIE_RO_DISABLED);
	assert_int_equal(ro.devctl, 0x592f);
	assert_non_null(strstr(ro.text, "disabled (0000:3b:00.0 DevCtl 0x592f: "
					"Enable Relaxed Ordering clear"));

	/* what an unprivileged read of sysfs gives: the first 64 bytes */
	make_ro_root(root, "pcie-ro/cx7-ro-on.txt", 64);
	assert_int_equal(gd_envelope_pcie_ro(root, "mlx5_0", &ro), -EACCES);
	assert_int_equal(ro.state, GD_PCIE_RO_UNKNOWN);
	assert_non_null(strstr(ro.text, "unknown (mlx5_0's PCI function "
					"0000:3b:00.0: config space past 64 "
					"bytes is not readable"));
	assert_non_null(strstr(ro.text, "needs CAP_SYS_ADMIN"));

	make_ro_root(root, "pcie-ro/no-pcie.txt", 256);
	assert_int_equal(gd_envelope_pcie_ro(root, "mlx5_0", &ro), -ENOENT);
	assert_non_null(strstr(ro.text, "has no PCI Express capability"));

	assert_int_equal(gd_envelope_pcie_ro(root, "rxe0", &ro), -ENODEV);
	assert_non_null(strstr(ro.text, "unknown (rxe0 has no parent device"));
	assert_non_null(strstr(ro.text, "software device such as rxe"));
	assert_int_equal(gd_envelope_pcie_ro(root, "mlx5_9", &ro), -ENODEV);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acs_decode),
		cmocka_unit_test(test_link_and_bdf),
		cmocka_unit_test(test_path_classes),
		cmocka_unit_test(test_rails),
		cmocka_unit_test(test_envelope_keeps_first_error),
		cmocka_unit_test(test_pcie_ro),
	};
	const char *src = getenv("GD_TOP_SRCDIR");

	snprintf(fixtures, sizeof(fixtures), "%s/tests/doctor/fixtures",
		 src ? src : ".");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
