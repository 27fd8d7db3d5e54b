/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * First-error store. Thread-local so a loopback peer running as a thread
 * keeps its own diagnosis.
 */
#include <config.h>

#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"

static _Thread_local int gd_err_code_val;
static _Thread_local char gd_err_text[GD_ERR_MSG_MAX];

static int gd_err_vset(int err, const char *fmt, va_list ap)
{
	gd_err_code_val = err ? err : -1;
	vsnprintf(gd_err_text, sizeof(gd_err_text), fmt, ap);
	return err;
}

int gd_err(int err, const char *fmt, ...)
{
	va_list ap;

	if (gd_err_code_val)
		return err;
	va_start(ap, fmt);
	gd_err_vset(err, fmt, ap);
	va_end(ap);
	return err;
}

int gd_err_replace(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gd_err_vset(err, fmt, ap);
	va_end(ap);
	return err;
}

bool gd_err_is_set(void)
{
	return gd_err_code_val != 0;
}

int gd_err_code(void)
{
	return gd_err_code_val;
}

const char *gd_err_msg(void)
{
	return gd_err_code_val ? gd_err_text : "";
}

void gd_err_print(const char *prog)
{
	const char *m = gd_err_is_set() ? gd_err_msg() : "failed";
	char line[GD_ERR_MSG_MAX + 128];
	int len = snprintf(line, sizeof(line) - 1, "%s: error: %s", prog, m);

	if (len < 0)
		return;
	if ((size_t)len > sizeof(line) - 2)
		len = (int)sizeof(line) - 2;
	/* a library's line break would split the one line scripts read */
	for (char *c = line; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	line[len] = '\n';
	line[len + 1] = '\0';
	/* the whole line at once: stderr is unbuffered, and a byte at a time
	 * lets another process's line land inside it */
	fputs(line, stderr);
}

void gd_err_clear(void)
{
	gd_err_code_val = 0;
	gd_err_text[0] = '\0';
}

struct gd_errno_entry {
	int err;
	const char *name;
};

/* Aliases (EWOULDBLOCK, ENOTSUP on Linux) follow their primary name. */
static const struct gd_errno_entry gd_errno_names[] = {
	{ EPERM, "EPERM" },
	{ ENOENT, "ENOENT" },
	{ ESRCH, "ESRCH" },
	{ EINTR, "EINTR" },
	{ EIO, "EIO" },
	{ ENXIO, "ENXIO" },
	{ E2BIG, "E2BIG" },
	{ EBADF, "EBADF" },
	{ EAGAIN, "EAGAIN" },
	{ EWOULDBLOCK, "EWOULDBLOCK" },
	{ ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" },
	{ EFAULT, "EFAULT" },
	{ EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" },
	{ ENODEV, "ENODEV" },
	{ ENOTDIR, "ENOTDIR" },
	{ EISDIR, "EISDIR" },
	{ EINVAL, "EINVAL" },
	{ ENFILE, "ENFILE" },
	{ EMFILE, "EMFILE" },
	{ EFBIG, "EFBIG" },
	{ ENOSPC, "ENOSPC" },
	{ EROFS, "EROFS" },
	{ EPIPE, "EPIPE" },
	{ EDOM, "EDOM" },
	{ ERANGE, "ERANGE" },
	{ EDEADLK, "EDEADLK" },
	{ ENAMETOOLONG, "ENAMETOOLONG" },
	{ ENOSYS, "ENOSYS" },
	{ ENODATA, "ENODATA" },
	{ ETIME, "ETIME" },
	{ EPROTO, "EPROTO" },
	{ EBADMSG, "EBADMSG" },
	{ EOVERFLOW, "EOVERFLOW" },
	{ EILSEQ, "EILSEQ" },
	{ ENOTSOCK, "ENOTSOCK" },
	{ EDESTADDRREQ, "EDESTADDRREQ" },
	{ EMSGSIZE, "EMSGSIZE" },
	{ EPROTOTYPE, "EPROTOTYPE" },
	{ ENOPROTOOPT, "ENOPROTOOPT" },
	{ EPROTONOSUPPORT, "EPROTONOSUPPORT" },
	{ EOPNOTSUPP, "EOPNOTSUPP" },
	{ ENOTSUP, "ENOTSUP" },
	{ EAFNOSUPPORT, "EAFNOSUPPORT" },
	{ EADDRINUSE, "EADDRINUSE" },
	{ EADDRNOTAVAIL, "EADDRNOTAVAIL" },
	{ ENETDOWN, "ENETDOWN" },
	{ ENETUNREACH, "ENETUNREACH" },
	{ ECONNABORTED, "ECONNABORTED" },
	{ ECONNRESET, "ECONNRESET" },
	{ ENOBUFS, "ENOBUFS" },
	{ EISCONN, "EISCONN" },
	{ ENOTCONN, "ENOTCONN" },
	{ ETIMEDOUT, "ETIMEDOUT" },
	{ ECONNREFUSED, "ECONNREFUSED" },
	{ EHOSTDOWN, "EHOSTDOWN" },
	{ EHOSTUNREACH, "EHOSTUNREACH" },
	{ EALREADY, "EALREADY" },
	{ EINPROGRESS, "EINPROGRESS" },
	{ ECANCELED, "ECANCELED" },
	{ EREMOTEIO, "EREMOTEIO" },
	{ GD_ENOTSUPP, "ENOTSUPP" },
};

void gd_err_take(bool was_set, int ret, char *msg, size_t len)
{
	if (!was_set && gd_err_is_set()) {
		snprintf(msg, len, "%s", gd_err_msg());
		gd_err_clear();
	} else {
		snprintf(msg, len, "%s", strerror(ret < 0 ? -ret : ret));
	}
}

const char *gd_errno_name(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(gd_errno_names) / sizeof(gd_errno_names[0]); i++)
		if (gd_errno_names[i].err == err)
			return gd_errno_names[i].name;
	return "UNKNOWN";
}
