/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --mem=cuda:near / cuda:far on the dual-socket 8 GPU / 8 NIC fixture with
 * the fake CUDA driver (a test double) reporting the fixture's bus ids:
 * the nearest GPU to a NIC, the least local one with a route, and the
 * refusals (no map, no route, nothing less local).
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

#include "envelope/envelope.h"
#include "envelope/locality.h"
#include "mem/cuda_api.h"
#include "util/error.h"

static char fixtures[4096], fake[4096];

static const char *const bus_ids =
	"0000:17:00.0,0000:1c:00.0,0000:35:00.0,0000:3a:00.0,"
	"0000:95:00.0,0000:9a:00.0,0000:b3:00.0,0000:b7:00.0";

static struct json_object *envelope(bool topology)
{
	char root[4200], xml[4200];
	struct gd_envelope_opts o = { .root = root, .topology_xml = xml };
	struct json_object *env;

	snprintf(root, sizeof(root), "%s/root", fixtures);
	snprintf(xml, sizeof(xml), "%s/dual-socket-8gpu.xml", fixtures);
	o.flags = topology ? 0 : GD_ENVELOPE_NO_TOPOLOGY;
	gd_cuda_unload();
	gd_err_clear();
	assert_int_equal(gd_envelope_collect(&o, &env), 0);
	return env;
}

static void pick(struct json_object *env, const char *nic,
		 enum gd_locality which, int index, const char *bdf,
		 const char *cls)
{
	struct gd_device_pick p;

	gd_err_clear();
	assert_int_equal(
		gd_envelope_pick_device(env, "cuda_index", nic, which, &p), 0);
	if (p.index != index)
		print_error("%s %s: got GPU %d (%s), want %d\n", nic,
			    which == GD_LOCALITY_NEAR ? "near" : "far", p.index,
			    p.why, index);
	assert_int_equal(p.index, index);
	assert_string_equal(p.pci_bus_id, bdf);
	assert_string_equal(p.path_class, cls);
	assert_non_null(strstr(p.why, cls));
	assert_non_null(strstr(p.why, nic));
}

static void test_near_and_far(void **state)
{
	struct json_object *env;

	(void)state;
	setenv("GD_FAKE_CUDA_GPU_COUNT", "8", 1);
	setenv("GD_FAKE_CUDA_BUS_IDS", bus_ids, 1);
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "1", 1);
	env = envelope(true);
	pick(env, "mlx5_0", GD_LOCALITY_NEAR, 0, "0000:17:00.0", "PIX");
	pick(env, "mlx5_0", GD_LOCALITY_FAR, 4, "0000:95:00.0", "SYS");
	pick(env, "mlx5_6", GD_LOCALITY_NEAR, 6, "0000:b3:00.0", "PIX");
	pick(env, "mlx5_6", GD_LOCALITY_FAR, 0, "0000:17:00.0", "SYS");
	json_object_put(env);
}

static void test_refusals(void **state)
{
	struct json_object *env;
	struct gd_device_pick p;

	(void)state;
	setenv("GD_FAKE_CUDA_GPU_COUNT", "8", 1);
	setenv("GD_FAKE_CUDA_BUS_IDS", bus_ids, 1);
	/* no topology probed: no map to choose from */
	env = envelope(false);
	assert_int_equal(gd_envelope_pick_device(env, "cuda_index", "mlx5_0",
						 GD_LOCALITY_NEAR, &p),
			 -ENODATA);
	assert_non_null(strstr(gd_err_msg(), "GPU-to-NIC map"));
	json_object_put(env);
	/* a NIC that is not in the map */
	env = envelope(true);
	gd_err_clear();
	assert_int_equal(gd_envelope_pick_device(env, "cuda_index", "rxe9",
						 GD_LOCALITY_FAR, &p),
			 -ENODEV);
	assert_non_null(strstr(gd_err_msg(), "rxe9"));
	json_object_put(env);
	/* one GPU: nothing less local than the nearest */
	setenv("GD_FAKE_CUDA_GPU_COUNT", "1", 1);
	env = envelope(true);
	gd_err_clear();
	assert_int_equal(gd_envelope_pick_device(env, "cuda_index", "mlx5_0",
						 GD_LOCALITY_FAR, &p),
			 -ENODEV);
	assert_non_null(strstr(gd_err_msg(), "none is less local"));
	json_object_put(env);
	/* no route on any GPU (DMA-BUF off, the fixture's peer-memory
	 * modules conflict): nothing may be chosen */
	setenv("GD_FAKE_CUDA_GPU_COUNT", "8", 1);
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "0", 1);
	env = envelope(true);
	gd_err_clear();
	assert_int_equal(gd_envelope_pick_device(env, "cuda_index", "mlx5_0",
						 GD_LOCALITY_NEAR, &p),
			 -ENODEV);
	assert_non_null(strstr(gd_err_msg(), "8 without a registration route"));
	json_object_put(env);
	unsetenv("GD_FAKE_CUDA_DMABUF_ATTR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_near_and_far),
		cmocka_unit_test(test_refusals),
	};
	const char *src = getenv("GD_TOP_SRCDIR");
	const char *build = getenv("GD_TOP_BUILDDIR");

	snprintf(fixtures, sizeof(fixtures), "%s/tests/doctor/fixtures",
		 src ? src : ".");
	snprintf(fake, sizeof(fake), "%s/tests/fake_cuda/libfakecuda.so",
		 build ? build : ".");
	setenv("GD_CUDA_LIBRARY", fake, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
