/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the report says outside its tables: notices and error lines (one
 * write a line, remembered for the --loopback client half), status lines,
 * and the JSON document written once, atomically, when the run ends (a full
 * disk keeps it on stdout).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "util/error.h"
#include "util/output.h"
#include "report/progress.h"
#include "report/report.h"
#include "report/junit.h"
#include "report/metrics.h"
#include "report/report_priv.h"

static const char *gd_str0(const char *s)
{
	return s ? s : "";
}

static int gd_write_all(int fd, const char *buf, size_t len);

/* Where notices go (-1: stderr) and the last ones printed, which the
 * --loopback client half checks its server half's lines against. */
#define GD_REPORT_NOTICE_MEMORY 32
static int gd_notice_fd = -1;
static char *gd_notice_seen[GD_REPORT_NOTICE_MEMORY];
static unsigned int gd_notice_next;

void gd_report_notices_to(int fd)
{
	gd_notice_fd = fd;
}

bool gd_report_notice_covers(const char *text)
{
	for (unsigned int i = 0; i < GD_REPORT_NOTICE_MEMORY; i++)
		if (gd_notice_seen[i] && strstr(gd_notice_seen[i], text))
			return true;
	return false;
}

static void gd_notice_remember(const char *line)
{
	unsigned int i = gd_notice_next++ % GD_REPORT_NOTICE_MEMORY;

	free(gd_notice_seen[i]);
	gd_notice_seen[i] = strdup(line);
}

void gd_report_notice(const char *fmt, ...)
{
	char line[4096];
	size_t len;
	va_list ap;

	gd_progress_clear();
	va_start(ap, fmt);
	len = (size_t)vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len > sizeof(line) - 2)
		len = sizeof(line) - 2;
	/* One write per line: a loopback run's two processes share stderr. */
	if (gd_notice_fd >= 0) {
		line[len] = '\n';
		if (gd_write_all(gd_notice_fd, line, len + 1) == 0)
			return;
		line[len] = '\0';
	}
	fprintf(stderr, "%s\n", line);
	gd_notice_remember(line);
}

static void gd_status_to(FILE *f, const char *fmt, va_list ap)
{
	gd_progress_clear();
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	/* a script waiting for the line reads a pipe, which stdio buffers */
	fflush(f);
}

void gd_report_status(struct gd_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (!rep || !rep->text)
		return;
	va_start(ap, fmt);
	gd_status_to(rep->text, fmt, ap);
	va_end(ap);
}

void gd_report_status_line(bool json_to_stdout, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gd_status_to(json_to_stdout ? stderr : stdout, fmt, ap);
	va_end(ap);
}

void gd_report_error(struct gd_report *rep, const char *who, int err,
		     const char *msg)
{
	gd_report_notice("%s: error: %s", who, gd_str0(msg));
	gd_report_set_error(rep, err, msg);
}

static int gd_write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int gd_report_write_fail(const char *path, const char *tmp, int ret,
				const char *step)
{
	if (tmp)
		unlink(tmp);
	return gd_err(
		ret,
		"cannot write the JSON report %s: %s failed: %s; check that the directory exists and is writable and that the disk is not full",
		path, step, strerror(-ret));
}

/* tmp + fsync + rename: a reader never sees a half-written document. A
 * path that is not a regular file (/dev/null, /dev/stdout, a FIFO) is
 * written in place: a rename would replace the device node itself. */
static int gd_report_write_atomic(const char *path, const char *doc)
{
	char tmp[PATH_MAX];
	struct stat st;
	int fd, ret;

	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return gd_out_file("--out_json_file", path, doc);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path,
			     (long)getpid()) >= sizeof(tmp))
		return gd_report_write_fail(path, NULL, -ENAMETOOLONG, "open");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return gd_report_write_fail(path, NULL, -errno, "open");
	ret = gd_write_all(fd, doc, strlen(doc));
	if (ret) {
		close(fd);
		return gd_report_write_fail(path, tmp, ret, "write");
	}
	if (fsync(fd)) {
		ret = -errno;
		close(fd);
		return gd_report_write_fail(path, tmp, ret, "fsync");
	}
	if (close(fd))
		return gd_report_write_fail(path, tmp, -errno, "close");
	if (rename(tmp, path))
		return gd_report_write_fail(path, tmp, -errno, "rename");
	return 0;
}

static int gd_report_write_stdout(const char *doc)
{
	return gd_out_put(stdout, doc, "--json", "-");
}

/*
 * The file could not be written: the results must not be lost with it, so
 * the document goes to stdout (after the table, which is already there),
 * saying why and with the exit status the run will now have.
 */
static void gd_report_rescue(struct gd_report *rep, int exit_status,
			     unsigned int flags)
{
	char why[GD_ERR_MSG_MAX];
	const char *json;
	int code = gd_err_code();

	snprintf(why, sizeof(why), "%s", gd_err_msg());
	json_object_object_add(rep->root,
			       rep->error_set ? "output_error" : "error",
			       gd_report_error_obj(code, why));
	if (!exit_status)
		json_object_object_add(rep->root, "exit_status",
				       json_object_new_int(1));
	json = json_object_to_json_string_ext(rep->root, (int)flags);
	if (json && gd_report_write_stdout(json) == 0 &&
	    gd_report_write_stdout("\n") == 0)
		gd_err_replace(code,
			       "%s; the JSON document went to standard output "
			       "instead",
			       why);
}

/* The files made from the finished document: gauges and the JUnit
 * suite. Each is tried; the first failure is kept (and returned). */
static int gd_report_finish_extra(struct gd_report *rep)
{
	int ret = 0, r;

	if (rep->cfg.metrics_path)
		ret = gd_metrics_run_write(rep->cfg.metrics_path, rep->root,
					   rep->cfg.metrics_sizes);
	if (rep->cfg.junit_path) {
		r = gd_junit_run_write(rep->cfg.junit_path, rep->root,
				       rep->cfg.json_path);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

int gd_report_finish(struct gd_report *rep, int exit_status)
{
	unsigned int flags = JSON_C_TO_STRING_PRETTY;
	const char *json;
	char *doc;
	int ret, extra;

	gd_progress_clear();
	if (!rep)
		return -EINVAL;
	if (rep->text) {
		if (rep->table_open)
			fprintf(rep->text, "%s\n", GD_REPORT_RULE);
		rep->table_open = false;
		fflush(rep->text);
	}
	if (rep->only_out)
		fflush(rep->only_out);
	/* A failed run without an explicit error still carries the diagnosis.
	 */
	if (!rep->error_set && exit_status && gd_err_is_set())
		gd_report_set_error(rep, gd_err_code(), gd_err_msg());
	if (!rep->error_set)
		json_object_object_add(rep->root, "error", NULL);
	json_object_object_add(rep->root, "exit_status",
			       json_object_new_int(exit_status));
	extra = gd_report_finish_extra(rep);
	if (!rep->cfg.json_path)
		return extra;

#ifdef JSON_C_TO_STRING_NOSLASHESCAPE
	flags |= JSON_C_TO_STRING_NOSLASHESCAPE;
#endif
	json = json_object_to_json_string_ext(rep->root, (int)flags);
	if (!json || asprintf(&doc, "%s\n", json) < 0)
		return gd_err(
			-ENOMEM,
			"out of memory serialising the JSON report %s; check the process memory limit",
			rep->cfg.json_path);
	if (!strcmp(rep->cfg.json_path, "-"))
		ret = gd_report_write_stdout(doc);
	else
		ret = gd_report_write_atomic(rep->cfg.json_path, doc);
	free(doc);
	if (ret && strcmp(rep->cfg.json_path, "-"))
		gd_report_rescue(rep, exit_status, flags);
	return ret ? ret : extra;
}
