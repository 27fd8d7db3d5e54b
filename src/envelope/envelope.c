/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_envelope_collect(): runs the collectors in dependency order (the map
 * needs the RDMA and device inventories) and assembles the envelope object
 * that gd_doctor prints and every gd_* result embeds.
 */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "envelope/doctor.h"
#include "envelope/envelope.h"
#include "util/error.h"

static struct json_object *gd_env_section(struct json_object *env,
					  const char *key, bool array)
{
	struct json_object *o =
		array ? json_object_new_array() : json_object_new_object();

	json_object_object_add(env, key, o);
	return o;
}

static void gd_env_header(struct json_object *env,
			  const struct gd_doctor_ctx *ctx)
{
	char when[32] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(env, "schema",
			       json_object_new_string(GD_ENVELOPE_SCHEMA));
	json_object_object_add(env, "gdperf_version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(env, "collected_at",
			       json_object_new_string(when));
	json_object_object_add(env, "root", json_object_new_string(ctx->root));
	json_object_object_add(env, "gpu_probed",
			       json_object_new_boolean(!(ctx->opts->flags &
							 GD_ENVELOPE_NO_GPU)));
	json_object_object_add(
		env, "topology_probed",
		json_object_new_boolean(
			!(ctx->opts->flags & GD_ENVELOPE_NO_TOPOLOGY)));
}

int gd_envelope_collect(const struct gd_envelope_opts *opts,
			struct json_object **out)
{
	struct gd_doctor_ctx ctx = { .opts = opts };
	struct json_object *env, *host, *rdma, *platform, *topo, *route;
	const struct gd_mem_envelope_ops *dev;
	int ret;

	ctx.root = opts->root && *opts->root ? opts->root : "/";
	ctx.live = !strcmp(ctx.root, "/");
	env = json_object_new_object();
	ctx.findings = json_object_new_array();
	if (!env || !ctx.findings) {
		json_object_put(env);
		json_object_put(ctx.findings);
		return gd_err(-ENOMEM,
			      "out of memory collecting the test envelope");
	}
	gd_env_header(env, &ctx);
	host = gd_env_section(env, "host", false);
	rdma = gd_env_section(env, "rdma", false);
	while (ctx.ndevices < GD_MEM_KIND_COUNT &&
	       (dev = gd_mem_envelope(ctx.ndevices))) {
		ctx.devices[ctx.ndevices].ops = dev;
		ctx.devices[ctx.ndevices++].section =
			gd_env_section(env, dev->section, false);
	}
	platform = gd_env_section(env, "platform", false);
	topo = gd_env_section(env, "topology", false);
	route = gd_env_section(env, "registration_route", true);
	json_object_object_add(env, "findings", ctx.findings);

	ret = gd_doctor_host(&ctx, host);
	if (!ret)
		ret = gd_doctor_rdma(&ctx, rdma);
	if (!ret)
		ret = gd_doctor_devices(&ctx);
	if (!ret)
		ret = gd_doctor_platform(&ctx, platform);
	if (!ret && !(opts->flags & GD_ENVELOPE_NO_TOPOLOGY))
		ret = gd_doctor_topology(&ctx, topo);
	else if (!ret)
		json_object_object_add(topo, "source",
				       json_object_new_string("skipped"));
	if (!ret)
		ret = gd_doctor_route(&ctx, route);
	if (!ret && opts->peer)
		ret = gd_doctor_bootstrap(&ctx, opts->peer,
					  opts->peer_timeout_ms > 0
						  ? opts->peer_timeout_ms
						  : 3000,
					  env);
	if (ret) {
		json_object_put(env);
		return ret;
	}
	*out = env;
	return 0;
}
