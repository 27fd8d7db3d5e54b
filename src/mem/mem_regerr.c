/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Registration failures decoded into next checks: the raw errno (number and
 * name) always stays in the message, followed by what it usually means for
 * this memory type and call, and the one thing to check or change next.
 * What is particular to a memory type is its backend's reg_advice.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

/* linux/capability.h's CAP_IPC_LOCK, without libcap. */
#define GD_CAP_IPC_LOCK_BIT 14

static void gd_fmt_limit(rlim_t v, char *out, size_t len)
{
	if (v == RLIM_INFINITY)
		snprintf(out, len, "unlimited");
	else
		snprintf(out, len, "%llu bytes", (unsigned long long)v);
}

/* Bytes this process has locked already (VmLck), -1 when unknown. */
static long long gd_locked_bytes(void)
{
	char line[128];
	long long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %lld kB", &kib) == 1)
			break;
	fclose(f);
	return kib < 0 ? -1 : kib * 1024;
}

int gd_mem_cap_ipc_lock(const char *root)
{
	unsigned long long caps;
	char path[512], line[128];
	int held = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/status",
		 root && strcmp(root, "/") ? root : "");
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			held = (caps >> GD_CAP_IPC_LOCK_BIT) & 1;
			break;
		}
	fclose(f);
	return held;
}

bool gd_mem_memlock_text(size_t need_bytes, char *out, size_t len)
{
	struct rlimit rl;
	char soft[32], hard[32];
	long long locked = gd_locked_bytes();

	if (getrlimit(RLIMIT_MEMLOCK, &rl)) {
		snprintf(
			out, len,
			"the locked-memory limit of this process could not be read; raise it with ulimit -l or LimitMEMLOCK= for services");
		return true;
	}
	gd_fmt_limit(rl.rlim_cur, soft, sizeof(soft));
	gd_fmt_limit(rl.rlim_max, hard, sizeof(hard));
	if (rl.rlim_cur == RLIM_INFINITY) {
		snprintf(
			out, len,
			"locked-memory limit (RLIMIT_MEMLOCK) of this process is soft %s, hard %s, so it is not the cause",
			soft, hard);
		return false;
	}
	snprintf(
		out, len,
		"locked-memory limit (RLIMIT_MEMLOCK) of this process is soft %s, hard %s; this registration needs %zu bytes more (already locked: %lld bytes); raise with ulimit -l or LimitMEMLOCK= for services (limits from a login configuration do not reach running services, schedulers or containers)",
		soft, hard, need_bytes, locked);
	return true;
}

/* $GD_SYSFS_ROOT stands in for / (tests read a fixture tree). */
static const char *gd_regerr_root(void)
{
	const char *root = getenv("GD_SYSFS_ROOT");

	return root && *root && strcmp(root, "/") ? root : "";
}

/* The first line of @root@path, its newline dropped; false when absent. */
static bool gd_read_line(const char *root, const char *path, char *out,
			 size_t len)
{
	char full[768];
	FILE *f;
	bool ok;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return false;
	ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok;
}

/* Where else host memory runs out: MemAvailable, and the memory.max of
 * this process's cgroup (v2) when one is set. */
static void gd_memory_room_text(char *out, size_t len)
{
	const char *root = gd_regerr_root();
	char line[256], cg[384] = "", path[512], max[64] = "";
	long long avail_kib = -1;
	char avail[48] = "unknown";
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemAvailable: %lld kB", &avail_kib) ==
			    1)
				break;
		fclose(f);
	}
	if (avail_kib >= 0)
		snprintf(avail, sizeof(avail), "%lld MiB", avail_kib / 1024);
	if (gd_read_line(root, "/proc/self/cgroup", cg, sizeof(cg)) &&
	    !strncmp(cg, "0::", 3)) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max",
			 cg + 3);
		if (!gd_read_line(root, path, max, sizeof(max)))
			max[0] = '\0';
	}
	snprintf(
		out, len,
		"free memory (MemAvailable %s in /proc/meminfo) and this process's cgroup limit (memory.max of its cgroup: %s)",
		avail, max[0] ? max : "none found");
}

static void gd_explain_enomem(const struct gd_mem_buf *buf, char *out,
			      size_t len)
{
	char memlock[448], room[320];

	gd_memory_room_text(room, sizeof(room));
	if (gd_mem_cap_ipc_lock(gd_regerr_root()) == 1) {
		snprintf(
			out, len,
			"this process has CAP_IPC_LOCK (root normally), for which the kernel does not apply the locked-memory limit, so that limit is not the cause; the memory itself ran out: check %s, and the device's MR resources (ibv_devinfo -v: max_mr, max_mr_size)",
			room);
		return;
	}
	if (gd_mem_memlock_text(buf ? buf->len_bytes : 0, memlock,
				sizeof(memlock))) {
		snprintf(out, len, "%s", memlock);
		return;
	}
	snprintf(
		out, len,
		"%s: check %s, and the device's MR resources (ibv_devinfo -v: max_mr, max_mr_size)",
		memlock, room);
}

static void gd_explain(int errnum, const struct gd_mem_buf *buf,
		       const char *dev, const char *call, char *out, size_t len)
{
	bool dmabuf_call = strstr(call, "dmabuf") != NULL;

	if (buf && buf->ops && buf->ops->reg_advice &&
	    buf->ops->reg_advice(buf, errnum, dev, call, out, len))
		return;
	if (errnum == ENOMEM) {
		gd_explain_enomem(buf, out, len);
	} else if (errnum == EOPNOTSUPP) {
		snprintf(
			out, len,
			"device %s does not support this registration; check the access flags against ibv_devinfo -v",
			dev);
	} else if (errnum == EPERM || errnum == EACCES) {
		snprintf(
			out, len,
			"permission denied: check access to /dev/infiniband/uverbs* for this user, and that the access flags (remote atomic, relaxed ordering, on-demand paging) are allowed on %s",
			dev);
	} else if (errnum == EFAULT) {
		snprintf(
			out, len,
			"the address range is not fully mapped in this process (a bug in the caller or a freed buffer)");
	} else if (errnum == EINVAL && dmabuf_call) {
		snprintf(
			out, len,
			"%s rejected the dma-buf (fd, offset or IOVA); check the driver log (dmesg) for the import error",
			dev);
	} else if (errnum == EINVAL) {
		snprintf(
			out, len,
			"%s rejected the arguments: check the access flags and the buffer size against max_mr_size (ibv_devinfo -v)",
			dev);
	} else {
		snprintf(
			out, len,
			"unexpected error; check the kernel log (dmesg) for the driver's reason");
	}
}

/* strerror, and words for the kernel-internal code libc does not know. */
static const char *gd_reg_strerror(int errnum)
{
	return errnum == GD_ENOTSUPP
		       ? "operation not supported (a kernel-internal code)"
		       : strerror(errnum);
}

int gd_mem_decode_reg_error(int err, const struct gd_mem_buf *buf,
			    const char *device_name, const char *call)
{
	int errnum = err < 0 ? -err : err;
	const char *dev = device_name ? device_name : "(unknown device)";
	char spec[GD_MEM_SPEC_MAX] = "unknown";
	char why[896];

	if (!errnum)
		errnum = EIO;
	if (buf)
		gd_mem_ops_format(buf->ops, &buf->spec, spec, sizeof(spec));
	gd_explain(errnum, buf, dev, call ? call : "registration", why,
		   sizeof(why));
	return gd_err(
		-errnum,
		"%s of %zu bytes of %s memory on %s failed: errno %d (%s: %s): %s",
		call ? call : "registration", buf ? buf->len_bytes : 0, spec,
		dev, errnum, gd_errno_name(errnum), gd_reg_strerror(errnum),
		why);
}
