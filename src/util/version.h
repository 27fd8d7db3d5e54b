/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The one --version format of every gdperf program, so packagers, scripts
 * and bug reports can rely on it: "PROG (gdperf) VERSION" (GNU's first
 * line), then one "name: value" line per interface a peer has to match.
 */
#ifndef GD_VERSION_H
#define GD_VERSION_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The side-channel protocol (transport/frame.c speaks it, oob.h documents
 * the frames); here because --version prints it and util is below
 * transport. 2: GD_FRAME_BEAT, heartbeats from a thread, accepted between
 * any frames.
 */
#define GD_OOB_VERSION 2

/*
 * Print the version of @prog to @out; @has_peer adds the side-channel
 * protocol version, for the gd_* benchmarks that talk to a peer.
 */
void gd_version_print(FILE *out, const char *prog, bool has_peer);

#endif
