/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Output errors: every program's files and stdout are checked where they end,
 * with one wording, so that a full disk or /dev/full is never a silent
 * success.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/output.h"

/* gd_out_close() recorded stdout's failure: main says it once. */
static bool gd_out_stdout_said;

/* The reason of a failed flush or close, or of an earlier failed write whose
 * errno is gone by now. */
static const char *gd_out_reason(int err)
{
	return err ? strerror(err) : "an earlier write failed";
}

/* @err: the errno of a write that failed before, or 0 */
static int gd_out_end(FILE *f, const char *opt, const char *path, int err)
{
	int failed = err != 0;

	if (fflush(f) && !err)
		err = errno;
	failed |= err || ferror(f);
	if (f != stdout && f != stderr && fclose(f) && !err) {
		failed = 1;
		err = errno;
	}
	if (!failed)
		return 0;
	if (f == stdout)
		gd_out_stdout_said = true;
	return gd_err(err ? -err : -EIO, "%s%serror writing '%s': %s; check %s",
		      opt ? opt : "", opt ? ": " : "", path, gd_out_reason(err),
		      f == stdout ? "free space and the file or pipe stdout "
				    "goes to"
				  : "free space and quota where it goes");
}

int gd_out_close(FILE *f, const char *opt, const char *path)
{
	return gd_out_end(f, opt, path, 0);
}

int gd_out_put(FILE *f, const char *text, const char *opt, const char *path)
{
	return gd_out_end(f, opt, path, fputs(text, f) == EOF ? errno : 0);
}

int gd_out_file(const char *opt, const char *path, const char *text)
{
	FILE *f;

	if (!text)
		return gd_err(-ENOMEM, "%s: out of memory writing '%s'", opt,
			      path);
	f = fopen(path, "w");
	if (!f)
		return gd_err(-errno,
			      "%s: cannot write '%s': %s; check that its "
			      "directory exists and is writable",
			      opt, path, strerror(errno));
	return gd_out_put(f, text, opt, path);
}

int gd_out_file_atomic(const char *opt, const char *path, const char *text)
{
	char tmp[PATH_MAX];
	struct stat st;
	FILE *f;
	int ret;

	if (!text || (!stat(path, &st) && !S_ISREG(st.st_mode)))
		return gd_out_file(opt, path, text);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path,
			     (long)getpid()) >= sizeof(tmp))
		return gd_err(-ENAMETOOLONG, "%s: cannot write '%s': %s", opt,
			      path, strerror(ENAMETOOLONG));
	f = fopen(tmp, "w");
	if (!f)
		return gd_err(-errno,
			      "%s: cannot write '%s': %s; check that its "
			      "directory exists and is writable",
			      opt, tmp, strerror(errno));
	errno = 0;
	if (fputs(text, f) == EOF || fflush(f) || fsync(fileno(f))) {
		ret = gd_out_end(f, opt, tmp, errno ? errno : EIO);
		unlink(tmp);
		return ret;
	}
	ret = gd_out_close(f, opt, tmp);
	if (!ret && rename(tmp, path))
		ret = gd_err(-errno,
			     "%s: cannot rename '%s' to '%s': %s; check that "
			     "the directory is writable",
			     opt, tmp, path, strerror(errno));
	if (ret)
		unlink(tmp);
	return ret;
}

const char *gd_out_numbered(const char *path, unsigned int n, char *buf,
			    size_t len)
{
	const char *base = strrchr(path, '/'), *dot;
	int used;

	if (!strcmp(path, "-"))
		return path;
	base = base ? base + 1 : path;
	/* a leading dot is a hidden file's name, not an extension */
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = path + strlen(path);
	used = snprintf(buf, len, "%.*s-%04u%s", (int)(dot - path), path, n,
			dot);
	return used < 0 || (size_t)used >= len ? path : buf;
}

int gd_out_exit(const char *prog, int status)
{
	int err = 0, failed;

	errno = 0;
	failed = fflush(stdout) != 0;
	if (failed)
		err = errno;
	failed |= ferror(stdout) != 0;
	if (!failed)
		return status;
	if (!gd_out_stdout_said)
		fprintf(stderr,
			"%s: error writing '-' (stdout): %s; check free space "
			"and the file or pipe stdout goes to\n",
			prog, gd_out_reason(err));
	gd_out_stdout_said = true;
	return status == 2 ? 2 : 1;
}
