/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Reading small sysfs/procfs files relative to the doctor's root directory,
 * so the same collectors run on the live system and on test fixtures.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "envelope/doctor.h"
#include "util/error.h"

static int __attribute__((format(printf, 4, 0)))
gd_doctor_vpath(const struct gd_doctor_ctx *ctx, char *out, size_t len,
		const char *fmt, va_list ap)
{
	size_t used;
	int n;

	/* A root of "/" must not turn "/sys" into "//sys" in messages. */
	n = snprintf(out, len, "%s", strcmp(ctx->root, "/") ? ctx->root : "");
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	used = (size_t)n;
	n = vsnprintf(out + used, len - used, fmt, ap);
	if (n < 0 || (size_t)n >= len - used)
		return -ENAMETOOLONG;
	return 0;
}

int gd_doctor_path(const struct gd_doctor_ctx *ctx, char *out, size_t len,
		   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = gd_doctor_vpath(ctx, out, len, fmt, ap);
	va_end(ap);
	return ret;
}

int gd_doctor_read(const struct gd_doctor_ctx *ctx, char *buf, size_t len,
		   const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	size_t n;
	FILE *f;
	int ret;

	buf[0] = '\0';
	va_start(ap, fmt);
	ret = gd_doctor_vpath(ctx, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		/* sysfs reports attribute errors (e.g. an empty GID's type)
		 * on read, not on open. */
		ret = ferror(f) ? -EIO : -ENODATA;
		buf[0] = '\0';
		fclose(f);
		return ret;
	}
	fclose(f);
	n = strlen(buf);
	while (n &&
	       (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return (int)n;
}

bool gd_doctor_exists(const struct gd_doctor_ctx *ctx, const char *fmt, ...)
{
	char path[4096];
	struct stat st;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = gd_doctor_vpath(ctx, path, sizeof(path), fmt, ap);
	va_end(ap);
	return !ret && stat(path, &st) == 0;
}

struct json_object *gd_json_str_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

double gd_doctor_link_gts(const char *text)
{
	double v;

	if (sscanf(text, "%lf GT/s", &v) != 1 || v <= 0)
		return 0;
	return v;
}

void gd_doctor_take_error(bool was_set, int ret, char *msg, size_t len)
{
	gd_err_take(was_set, ret, msg, len);
}

bool gd_bdf_equal(const char *a, const char *b)
{
	unsigned int d1, b1, s1, f1, d2, b2, s2, f2;

	if (!a || !b || sscanf(a, "%x:%x:%x.%x", &d1, &b1, &s1, &f1) != 4 ||
	    sscanf(b, "%x:%x:%x.%x", &d2, &b2, &s2, &f2) != 4)
		return false;
	return d1 == d2 && b1 == b2 && s1 == s2 && f1 == f2;
}
