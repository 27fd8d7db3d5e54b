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
 * Print the version of @prog to @out; @has_peer adds the side-channel
 * protocol version, for the gd_* benchmarks that talk to a peer.
 */
void gd_version_print(FILE *out, const char *prog, bool has_peer);

#endif
