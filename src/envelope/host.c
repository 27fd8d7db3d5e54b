/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host inventory: hostname, kernel, distribution, container detection,
 * cgroup memory/CPU limits, and this process's locked-memory limit against
 * the buffer size that will be registered.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "envelope/doctor.h"

static void gd_host_kernel(struct gd_doctor_ctx *ctx, struct json_object *host)
{
	struct json_object *k = json_object_new_object();
	char release[256], version[256], name[256];
	struct utsname u;

	gd_doctor_read(ctx, name, sizeof(name), "/proc/sys/kernel/hostname");
	gd_doctor_read(ctx, release, sizeof(release),
		       "/proc/sys/kernel/osrelease");
	gd_doctor_read(ctx, version, sizeof(version),
		       "/proc/sys/kernel/version");
	/* procfs may be missing in odd containers; uname answers for the
	 * live system only. */
	if (ctx->live && uname(&u) == 0) {
		if (!*name)
			snprintf(name, sizeof(name), "%s", u.nodename);
		if (!*release)
			snprintf(release, sizeof(release), "%s", u.release);
		if (!*version)
			snprintf(version, sizeof(version), "%s", u.version);
	}
	json_object_object_add(host, "hostname", gd_json_str_or_null(name));
	json_object_object_add(k, "release", gd_json_str_or_null(release));
	json_object_object_add(k, "version", gd_json_str_or_null(version));
	json_object_object_add(host, "kernel", k);
}

/* One os-release value, unquoted. */
static void gd_host_os_release(const char *line, const char *key,
			       struct json_object *dist, const char *json_key)
{
	size_t klen = strlen(key);
	char val[256];
	size_t n;

	if (strncmp(line, key, klen) || line[klen] != '=')
		return;
	snprintf(val, sizeof(val), "%s",
		 line + klen + 1 + (line[klen + 1] == '"'));
	n = strcspn(val, "\"\n");
	val[n] = '\0';
	json_object_object_add(dist, json_key, gd_json_str_or_null(val));
}

static void gd_host_distribution(struct gd_doctor_ctx *ctx,
				 struct json_object *host)
{
	struct json_object *dist = json_object_new_object();
	char path[4096], line[512];
	FILE *f = NULL;

	json_object_object_add(dist, "id", NULL);
	json_object_object_add(dist, "version_id", NULL);
	json_object_object_add(dist, "pretty_name", NULL);
	if (!gd_doctor_path(ctx, path, sizeof(path), "/etc/os-release"))
		f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		gd_host_os_release(line, "ID", dist, "id");
		gd_host_os_release(line, "VERSION_ID", dist, "version_id");
		gd_host_os_release(line, "PRETTY_NAME", dist, "pretty_name");
	}
	if (f)
		fclose(f);
	json_object_object_add(host, "distribution", dist);
}

static bool gd_file_contains(struct gd_doctor_ctx *ctx, const char *rel,
			     const char *const *needles, const char **hit)
{
	char path[4096], line[1024];
	bool found = false;
	FILE *f;
	int i;

	if (gd_doctor_path(ctx, path, sizeof(path), "%s", rel))
		return false;
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		for (i = 0; needles[i] && !found; i++)
			if (strstr(line, needles[i])) {
				*hit = needles[i];
				found = true;
			}
	if (f)
		fclose(f);
	return found;
}

/* Container detection, first match wins; "how" is the evidence. */
static void gd_host_container(struct gd_doctor_ctx *ctx,
			      struct json_object *host)
{
	static const char *const cg_words[] = { "docker",     "kubepods",
						"containerd", "libpod",
						"lxc",	      NULL };
	struct json_object *c = json_object_new_object();
	const char *env = ctx->live ? getenv("container") : NULL;
	const char *word = NULL;
	char how[160] = "";

	if (gd_doctor_exists(ctx, "/.dockerenv"))
		snprintf(how, sizeof(how), "/.dockerenv exists");
	else if (gd_doctor_exists(ctx, "/run/.containerenv"))
		snprintf(how, sizeof(how), "/run/.containerenv exists");
	else if (env && *env)
		snprintf(how, sizeof(how), "environment container=%s", env);
	else if (ctx->live && getenv("KUBERNETES_SERVICE_HOST"))
		snprintf(how, sizeof(how), "KUBERNETES_SERVICE_HOST is set");
	else if (gd_file_contains(ctx, "/proc/1/cgroup", cg_words, &word))
		snprintf(how, sizeof(how), "/proc/1/cgroup names %s", word);
	json_object_object_add(c, "detected", json_object_new_boolean(*how));
	json_object_object_add(c, "how", gd_json_str_or_null(how));
	json_object_object_add(host, "container", c);
	if (*how)
		gd_doctor_finding(
			ctx, GD_SEV_INFO, "container", "host",
			"the memlock and cgroup limits in this report are the container's, not the host's",
			"running inside a container (%s)", how);
}

/* The cgroup path of this process for @controller ("" = v2 unified). */
static bool gd_cgroup_path(struct gd_doctor_ctx *ctx, const char *controller,
			   char *out, size_t len)
{
	char path[4096], line[1024];
	bool found = false;
	FILE *f;

	if (gd_doctor_path(ctx, path, sizeof(path), "/proc/self/cgroup"))
		return false;
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *p;

		if (!ctrl)
			continue;
		p = strchr(++ctrl, ':');
		if (!p)
			continue;
		*p++ = '\0';
		p[strcspn(p, "\n")] = '\0';
		if (*controller ? strstr(ctrl, controller) != NULL : !*ctrl) {
			snprintf(out, len, "%s", strcmp(p, "/") ? p : "");
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* Read @file of the process's cgroup, falling back to the cgroupfs root
 * (inside a container namespace the path shown is not the mount's). */
static int gd_cgroup_read(struct gd_doctor_ctx *ctx, const char *mount,
			  const char *cgpath, const char *file, char *buf,
			  size_t len)
{
	if (gd_doctor_read(ctx, buf, len, "/sys/fs/cgroup%s%s/%s", mount,
			   cgpath, file) > 0)
		return 0;
	return gd_doctor_read(ctx, buf, len, "/sys/fs/cgroup%s/%s", mount,
			      file) > 0
		       ? 0
		       : -ENOENT;
}

static void gd_host_cgroup(struct gd_doctor_ctx *ctx, struct json_object *host)
{
	struct json_object *cg = json_object_new_object();
	struct json_object *mem = NULL, *cpus = NULL;
	char p[1024] = "", val[128];
	bool v2 = gd_doctor_exists(ctx, "/sys/fs/cgroup/cgroup.controllers");
	unsigned long long a, b;

	if (v2 && gd_cgroup_path(ctx, "", p, sizeof(p))) {
		if (!gd_cgroup_read(ctx, "", p, "memory.max", val,
				    sizeof(val)) &&
		    sscanf(val, "%llu", &a) == 1)
			mem = json_object_new_int64((int64_t)a);
		if (!gd_cgroup_read(ctx, "", p, "cpu.max", val, sizeof(val)) &&
		    sscanf(val, "%llu %llu", &a, &b) == 2 && b)
			cpus = json_object_new_double((double)a / (double)b);
	} else if (!v2) {
		long long q;

		/* v1 reports "no limit" as a page-rounded LLONG_MAX. */
		if (gd_cgroup_path(ctx, "memory", p, sizeof(p)) &&
		    !gd_cgroup_read(ctx, "/memory", p, "memory.limit_in_bytes",
				    val, sizeof(val)) &&
		    sscanf(val, "%llu", &a) == 1 && a < (1ULL << 62))
			mem = json_object_new_int64((int64_t)a);
		if (gd_cgroup_path(ctx, "cpu", p, sizeof(p)) &&
		    !gd_cgroup_read(ctx, "/cpu", p, "cpu.cfs_quota_us", val,
				    sizeof(val)) &&
		    sscanf(val, "%lld", &q) == 1 && q > 0 &&
		    !gd_cgroup_read(ctx, "/cpu", p, "cpu.cfs_period_us", val,
				    sizeof(val)) &&
		    sscanf(val, "%llu", &b) == 1 && b)
			cpus = json_object_new_double((double)q / (double)b);
	}
	json_object_object_add(cg, "version", json_object_new_int(v2 ? 2 : 1));
	json_object_object_add(cg, "memory_limit_bytes", mem);
	json_object_object_add(cg, "cpu_limit_cpus", cpus);
	json_object_object_add(host, "cgroup", cg);
}

static struct json_object *gd_rlim_json(rlim_t v)
{
	return v == RLIM_INFINITY ? NULL : json_object_new_int64((int64_t)v);
}

static void gd_host_memlock(struct gd_doctor_ctx *ctx, struct json_object *host)
{
	uint64_t need = ctx->opts->memlock_need_bytes;
	struct json_object *ml = json_object_new_object();
	struct rlimit rl;
	bool covers;

	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		json_object_object_add(host, "memlock", NULL);
		json_object_put(ml);
		return;
	}
	covers = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need;
	json_object_object_add(ml, "soft_bytes", gd_rlim_json(rl.rlim_cur));
	json_object_object_add(ml, "hard_bytes", gd_rlim_json(rl.rlim_max));
	json_object_object_add(
		ml, "soft_unlimited",
		json_object_new_boolean(rl.rlim_cur == RLIM_INFINITY));
	json_object_object_add(
		ml, "hard_unlimited",
		json_object_new_boolean(rl.rlim_max == RLIM_INFINITY));
	json_object_object_add(ml, "need_bytes",
			       need ? json_object_new_int64((int64_t)need)
				    : NULL);
	json_object_object_add(ml, "covers_need",
			       need ? json_object_new_boolean(covers) : NULL);
	json_object_object_add(host, "memlock", ml);
	if (covers)
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need)
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "memlock-too-low", "process",
			"raise the soft limit with 'ulimit -l' (the hard limit allows it); limits.conf does not reach running services, schedulers or containers",
			"locked-memory limit %" PRIu64
			" KiB is below the %" PRIu64
			" KiB to be registered; ibv_reg_mr will fail with ENOMEM",
			(uint64_t)rl.rlim_cur >> 10, need >> 10);
	else
		gd_doctor_finding(
			ctx, GD_SEV_ERROR, "memlock-too-low", "process",
			"raise the hard limit where this process is started: systemd LimitMEMLOCK=, docker --ulimit memlock=-1, Slurm PropagateResourceLimits or limits.conf for logins",
			"locked-memory limits (soft %" PRIu64
			" KiB, hard %" PRIu64 " KiB) are below the %" PRIu64
			" KiB to be registered; ibv_reg_mr will fail with ENOMEM",
			(uint64_t)rl.rlim_cur >> 10,
			(uint64_t)rl.rlim_max >> 10, need >> 10);
}

int gd_doctor_host(struct gd_doctor_ctx *ctx, struct json_object *host)
{
	gd_host_kernel(ctx, host);
	gd_host_distribution(ctx, host);
	gd_host_container(ctx, host);
	gd_host_cgroup(ctx, host);
	gd_host_memlock(ctx, host);
	return 0;
}
