/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --version for every program in one format. The protocol line is there
 * because a client and server of different releases interoperate only when
 * it matches, and --version is where a user looks first.
 */
#include <config.h>

#include "util/version.h"

void gd_version_print(FILE *out, const char *prog, bool has_peer)
{
	fprintf(out, "%s (gdperf) %s\n", prog, PACKAGE_VERSION);
	if (has_peer)
		fprintf(out, "side-channel protocol: %d\n", GD_OOB_VERSION);
}
