/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The mmap memory backend (perftest's --mmap): a shared mapping of a file
 * or a device node, from --mmap-offset on, registered like host memory.
 * perftest meant it for peer-to-peer buffers exposed as a mappable file
 * (a PCIe BAR, device memory behind a character device); on a regular
 * file it is page-cache memory, and writes reach the file. A regular file
 * shorter than offset + buffer is refused before mapping: touching a
 * mapping past the end of its file would kill the process with SIGBUS.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "util/error.h"
#include "mem/mem.h"
#include "mem/mem_priv.h"

static int gd_mmap_parse(const char *text, const char *args,
			 struct gd_mem_spec *spec)
{
	size_t n = strlen(args);

	if (!n)
		return gd_err(-EINVAL,
			      "--mem %s: name the file to map (mmap:FILE)",
			      text);
	if (n >= sizeof(spec->path))
		return gd_err(
			-ENAMETOOLONG,
			"--mem mmap:...: the file name is %zu bytes, at most %zu; use a shorter path or a symbolic link",
			n, sizeof(spec->path) - 1);
	memcpy(spec->path, args, n + 1);
	return 0;
}

static void gd_mmap_format(const struct gd_mem_spec *spec, char *buf,
			   size_t len)
{
	snprintf(buf, len, "mmap:%s", spec->path);
}

/* perftest's --mmap-offset, per side. */
static void gd_mmap_apply_options(struct gd_mem_spec *spec,
				  struct json_object *options)
{
	struct json_object *v;

	if (json_object_object_get_ex(options, "mmap_offset", &v))
		spec->offset_bytes = json_object_get_uint64(v);
}

/* A regular file must hold offset + @len_bytes; a device node says
 * nothing of its size, and mmap answers for it. */
static int gd_mmap_check_file(const struct gd_mem_spec *spec, int fd,
			      size_t len_bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;

	if (page > 0 && spec->offset_bytes % (uint64_t)page)
		return gd_err(
			-EINVAL,
			"--mmap-offset %llu is not a multiple of the page size (%ld bytes), which mmap requires",
			(unsigned long long)spec->offset_bytes, page);
	if (fstat(fd, &st))
		return gd_err(-errno, "--mem mmap:%s: cannot stat it: %s",
			      spec->path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return gd_err(-EISDIR,
			      "--mem mmap:%s is a directory; name a file",
			      spec->path);
	if (S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < spec->offset_bytes + len_bytes)
		return gd_err(
			-ENOSPC,
			"--mem mmap:%s is %lld bytes, and the run maps %zu bytes from offset %llu: grow it (truncate -s %llu %s) or lower the largest size",
			spec->path, (long long)st.st_size, len_bytes,
			(unsigned long long)spec->offset_bytes,
			(unsigned long long)(spec->offset_bytes + len_bytes),
			spec->path);
	return 0;
}

static int gd_mmap_alloc(struct gd_mem_buf *buf, size_t len_bytes)
{
	const struct gd_mem_spec *spec = &buf->spec;
	int fd = open(spec->path, O_RDWR | O_CLOEXEC);
	void *p;
	int ret;

	if (fd < 0)
		return gd_err(
			-errno,
			"--mem mmap:%s: cannot open it for reading and writing: %s; check the path and its permissions",
			spec->path, strerror(errno));
	ret = gd_mmap_check_file(spec, fd, len_bytes);
	if (ret) {
		close(fd);
		return ret;
	}
	p = mmap(NULL, len_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)spec->offset_bytes);
	ret = -errno;
	close(fd); /* the mapping keeps the file */
	if (p == MAP_FAILED)
		return gd_err(
			ret,
			"--mem mmap:%s: cannot map %zu bytes from offset %llu (mmap MAP_SHARED): %s; the file or device must allow a shared read/write mapping of that range",
			spec->path, len_bytes,
			(unsigned long long)spec->offset_bytes, strerror(-ret));
	buf->addr = p;
	buf->len_bytes = len_bytes;
	buf->route_used = GD_ROUTE_PLAIN;
	return gd_mem_fill_pattern(buf, 0, len_bytes, GD_MEM_INIT_SEED);
}

static int gd_mmap_free(struct gd_mem_buf *buf)
{
	int ret = munmap(buf->addr, buf->len_bytes) ? -errno : 0;

	buf->addr = NULL;
	return ret ? gd_err(ret, "munmap of the mapping of %s failed: %s",
			    buf->spec.path, strerror(-ret))
		   : 0;
}

static void gd_mmap_describe(const struct gd_mem_buf *buf,
			     struct json_object *obj)
{
	json_object_object_add(obj, "file",
			       json_object_new_string(buf->spec.path));
	json_object_object_add(obj, "offset_bytes",
			       json_object_new_uint64(buf->spec.offset_bytes));
}

const struct gd_mem_ops gd_mem_mmap_ops = {
	.name = "mmap",
	.syntax = { "mmap:FILE" },
	.perftest_flag = "mmap",
	.cpu_accessible = true,
	.parse = gd_mmap_parse,
	.format = gd_mmap_format,
	.apply_options = gd_mmap_apply_options,
	.alloc = gd_mmap_alloc,
	.free = gd_mmap_free,
	.reg = gd_mem_reg_plain,
	.copy_in = gd_mem_cpu_copy_in,
	.copy_out = gd_mem_cpu_copy_out,
	.describe = gd_mmap_describe,
};
