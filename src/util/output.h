/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The end of a program's output: a file or stdout whose writing failed
 * (a full disk, /dev/full, a closed pipe) is said once, naming the output
 * ('-' for stdout), and turns the exit status into 1.
 */
#ifndef GD_OUTPUT_H
#define GD_OUTPUT_H

#include <stdio.h>

/*
 * Flush @f, the output of @opt ("--json"; NULL for a program's own output)
 * going to @path ('-': stdout), and close it unless it is stdout. A failure
 * now or in an earlier write to @f is recorded with gd_err() as "@opt:
 * error writing '@path': reason; check ..." and returned as a -errno.
 */
int gd_out_close(FILE *f, const char *opt, const char *path);
/* @text written to @f, then gd_out_close(): a failed write keeps its
 * reason. */
int gd_out_put(FILE *f, const char *text, const char *opt, const char *path);

/*
 * @text as the whole of the file @path, the output of @opt: one that cannot
 * be opened, or whose writing fails, is recorded in the words above (a
 * NULL @text, json-c out of memory, as such).
 */
int gd_out_file(const char *opt, const char *path, const char *text);

/*
 * @text as the whole of @path, replaced at once: written to a temporary
 * beside it ("@path.tmp.PID", in the same folder, so the rename cannot cross
 * file systems), synced, then renamed over @path, so that a reader (the
 * node_exporter textfile collector, a CI system) never sees half a file. A
 * @path that exists and is not a regular file (/dev/null, a FIFO) is
 * written in place. Errors in the words of gd_out_file().
 */
int gd_out_file_atomic(const char *opt, const char *path, const char *text);

/*
 * @path with @n before its extension, zero-padded to 4 digits so that the
 * files sort in order ("out/run.json", 3: "out/run-0003.json"; "run":
 * "run-0003"), written to @buf; '-' (stdout) stays '-'. Returns @buf, or
 * @path itself when it is '-' or does not fit.
 */
const char *gd_out_numbered(const char *path, unsigned int n, char *buf,
			    size_t len);

/*
 * main's last call: stdout flushed. When that or an earlier write to stdout
 * failed, "@prog: error writing '-': reason" goes to stderr (unless
 * gd_out_close() already recorded it) and the result is 1, or @status when
 * it is 2, a usage error, which stays the first thing said.
 */
int gd_out_exit(const char *prog, int status);

#endif
