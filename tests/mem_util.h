/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Shared by the memory-backend tests: message assertions and the reset of
 * the fake CUDA driver's knobs (the fake is a test double, never a GPU).
 * Include after <cmocka.h>; the includer defines fake_cuda_path and the
 * sysfs root it wants as GD_MEM_TEST_ROOT.
 */
#ifndef GD_TESTS_MEM_UTIL_H
#define GD_TESTS_MEM_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "mem/cuda_api.h"
#include "mem/route.h"
#include "util/error.h"

static void assert_has(const char *text, const char *fragment)
{
	if (!text || !strstr(text, fragment)) {
		print_error("text:     %s\nmissing:  %s\n",
			    text ? text : "(null)", fragment);
		fail();
	}
}

static void assert_msg_has(const char *fragment)
{
	assert_true(gd_err_is_set());
	assert_has(gd_err_msg(), fragment);
}

static const char *const fake_knobs[] = {
	"GD_FAKE_CUDA_NO_DEVICE",	"GD_FAKE_CUDA_GPU_COUNT",
	"GD_FAKE_CUDA_DMABUF_ATTR",	"GD_FAKE_CUDA_ALLOC_FAIL",
	"GD_FAKE_CUDA_EXPORT_FAIL",	"GD_FAKE_CUDA_PCIE_FLAG_REFUSE",
	"GD_FAKE_CUDA_MANAGED",		"GD_FAKE_CUDA_DRIVER_VERSION",
	"GD_FAKE_CUDA_WRITES_ORDERING", "GD_FAKE_CUDA_FLUSH_OPTIONS",
	"GD_FAKE_CUDA_BAR1_BYTES",	"GD_FAKE_CUDA_INIT_ERROR",
	"GD_FAKE_CUDA_FREE_FAIL",	"GD_FAKE_CUDA_RELEASE_FAIL",
	"GD_FAKE_CUDA_LENIENT",		"GD_FAKE_CUDA_HOST_ATOMIC",
};

static int reset(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fake_knobs) / sizeof(fake_knobs[0]); i++)
		unsetenv(fake_knobs[i]);
	setenv("GD_CUDA_LIBRARY", fake_cuda_path, 1);
	setenv("GD_SYSFS_ROOT", GD_MEM_TEST_ROOT, 1);
	gd_route_forget();
	gd_cuda_unload();
	gd_err_clear();
	return 0;
}

#endif
