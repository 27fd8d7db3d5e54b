/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A run's device memories as the session sets them up: --mem lists (D1,
 * D2) and --mem=cuda:near / cuda:far resolved from the GPU-to-NIC map of
 * the run's envelope (the 8 GPU / 8 NIC fixture, the fake CUDA driver, a
 * TEST DOUBLE, reporting the fixture's bus ids), the header saying which
 * GPU each got and why; a NIC the map lacks fails only its phases.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "envelope/envelope.h"
#include "cli/options.h"
#include "engine/session.h"
#include "mem/cuda_api.h"
#include "util/error.h"
#include "fake_verbs.h"

static char fixtures[4096];
/* ibv_reg_dmabuf_mr's errno in the next setup (0: succeeds). */
static int next_dmabuf_errno;

static const char *const bus_ids =
	"0000:17:00.0,0000:1c:00.0,0000:35:00.0,0000:3a:00.0,"
	"0000:95:00.0,0000:9a:00.0,0000:b3:00.0,0000:b7:00.0";

/* The session of gd_write_bw @mem on NIC @nic, buffers set up, with the
 * fixture's envelope in its report as the engine puts it there. */
static int setup(const char *mem, const char *nic, struct gd_opts *o,
		 struct gd_session *s)
{
	const struct gd_test *t = &gd_tests[GD_TEST_WRITE_BW];
	char arg[96], root[4200], xml[4200];
	char *argv[] = { "gd_write_bw", arg, NULL };
	struct gd_envelope_opts eo = { .root = root, .topology_xml = xml };
	struct gd_report_cfg cfg = { .tool = t->name, .version = "test" };
	struct json_object *env;

	snprintf(arg, sizeof(arg), "--mem=%s", mem);
	snprintf(root, sizeof(root), "%s/root", fixtures);
	snprintf(xml, sizeof(xml), "%s/dual-socket-8gpu.xml", fixtures);
	gd_err_clear();
	assert_int_equal(gd_opts_parse(t, 2, argv, o, stdout), 0);
	*s = (struct gd_session){ .test = t, .o = o, .slot_bytes = 8192 };
	s->rep = gd_report_new(&cfg, 2, argv);
	assert_non_null(s->rep);
	gd_cuda_unload();
	assert_int_equal(gd_envelope_collect(&eo, &env), 0);
	gd_report_set_section(s->rep, "envelope", env);
	snprintf(s->v.port.dev_name, sizeof(s->v.port.dev_name), "%s", nic);
	s->v.pd = &fake_pd;
	memset(&fv, 0, sizeof(fv));
	fv.dmabuf_errno = next_dmabuf_errno;
	return gd_session_setup_memory(s);
}

static void teardown_session(struct gd_opts *o, struct gd_session *s)
{
	for (unsigned int p = 0; p < GD_PLACE_COUNT; p++)
		gd_mem_free(&s->local[p].mem);
	gd_report_free(s->rep);
	gd_opts_free(o);
}

static void test_near_and_far(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(
		setup("cuda:near:peermem,cuda:far:peermem", "mlx5_0", &o, &s),
		0);
	assert_int_equal(o.num_mem, 2);
	assert_true(s.local[1].ok && s.local[2].ok);
	assert_true(s.picked[1] && s.picked[2]);
	assert_int_equal(s.pick[1].index, 0);
	assert_string_equal(s.pick[1].path_class, "PIX");
	assert_int_equal(s.pick[2].index, 4);
	assert_string_equal(s.pick[2].path_class, "SYS");
	assert_non_null(strstr(s.pick[2].why, "least local"));
	/* the buffers are on the GPUs chosen */
	assert_int_equal(s.local[1].mem.spec.gpu_index, 0);
	assert_int_equal(s.local[2].mem.spec.gpu_index, 4);
	teardown_session(&o, &s);
}

/* rxe0 is in no map: the device placement fails, its phases will say why,
 * and host memory is still there. */
static void test_nic_not_in_map(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(setup("cuda:near", "rxe0", &o, &s), 0);
	assert_true(s.local[0].ok);
	assert_false(s.local[1].ok);
	assert_non_null(strstr(s.local[1].why_absent, "rxe0"));
	assert_non_null(strstr(s.local[1].why_absent, "GPU-to-NIC map"));
	teardown_session(&o, &s);
}

/* A registration that fails keeps its route record: the header's reason
 * (route_why) is the same words the route decision wrote, beside the
 * error, and teardown frees it with the buffer. */
static void test_failed_registration_keeps_route(void **state)
{
	struct json_object *why;
	struct gd_session s;
	struct gd_opts o;

	(void)state;
#ifndef HAVE_IBV_REG_DMABUF_MR
	skip();
#endif
	next_dmabuf_errno = EINVAL;
	assert_int_equal(setup("cuda:0:dmabuf", "mlx5_0", &o, &s), 0);
	next_dmabuf_errno = 0;
	assert_true(s.local[0].ok);
	assert_false(s.local[1].ok);
	assert_non_null(strstr(s.local[1].why_absent, "errno 22"));
	assert_null(s.local[1].mem.addr);
	assert_non_null(s.local[1].mem.evidence);
	assert_true(json_object_object_get_ex(s.local[1].mem.evidence, "why",
					      &why));
	print_message("route why: %s\n", json_object_get_string(why));
	assert_non_null(
		strstr(json_object_get_string(why), "requested (:dmabuf)"));
	teardown_session(&o, &s);
	assert_null(s.local[1].mem.evidence);
}

/* A list of two named memories: D1 and D2 allocated, D3 absent with the
 * reason a phase naming it will show. */
static void test_list(void **state)
{
	struct gd_session s;
	struct gd_opts o;

	(void)state;
	assert_int_equal(setup("host,cuda:1:peermem", "mlx5_0", &o, &s), 0);
	assert_true(s.local[1].ok && s.local[2].ok && !s.local[3].ok);
	assert_string_equal(gd_mem_kind_name(s.local[1].mem.spec.kind), "host");
	assert_int_equal(s.local[2].mem.spec.gpu_index, 1);
	assert_non_null(strstr(s.local[3].why_absent, "no D3"));
	teardown_session(&o, &s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_near_and_far),
		cmocka_unit_test(test_nic_not_in_map),
		cmocka_unit_test(test_failed_registration_keeps_route),
		cmocka_unit_test(test_list),
	};
	const char *src = getenv("GD_TOP_SRCDIR");
	const char *build = getenv("GD_TOP_BUILDDIR");
	char fake[4096];

	snprintf(fixtures, sizeof(fixtures), "%s/tests/doctor/fixtures",
		 src ? src : ".");
	snprintf(fake, sizeof(fake), "%s/tests/fake_cuda/libfakecuda.so",
		 build ? build : ".");
	setenv("GD_CUDA_LIBRARY", fake, 1);
	setenv("GD_FAKE_CUDA_GPU_COUNT", "8", 1);
	setenv("GD_FAKE_CUDA_BUS_IDS", bus_ids, 1);
	/* the fixture has no peer-memory module loaded and DMA-BUF is on, so
	 * every GPU has a route */
	setenv("GD_FAKE_CUDA_DMABUF_ATTR", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
