/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The --rails=FILE mapping: one "DEVICE RAIL" pair per line, DEVICE being
 * an RDMA device name (mlx5_0), a GPU PCI address or a GPU UUID; '#' starts
 * a comment. Used to label map rows and to spot GPUs cabled off-rail.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "envelope/rails.h"
#include "util/error.h"

static int gd_rails_line(struct gd_rails *r, char *line, const char *path,
			 int lineno)
{
	char key[sizeof(r->keys[0])], rail[sizeof(r->rails[0])], extra[2];
	int n;

	line[strcspn(line, "#\n")] = '\0';
	n = sscanf(line, "%63s %31s %1s", key, rail, extra);
	if (n <= 0)
		return 0;
	if (n != 2)
		return gd_err(
			-EINVAL,
			"%s:%d: expected 'DEVICE RAIL' (e.g. 'mlx5_0 rail0')",
			path, lineno);
	if (r->n == GD_RAILS_MAX)
		return gd_err(-E2BIG, "%s:%d: more than %d entries", path,
			      lineno, GD_RAILS_MAX);
	snprintf(r->keys[r->n], sizeof(r->keys[0]), "%s", key);
	snprintf(r->rails[r->n], sizeof(r->rails[0]), "%s", rail);
	r->n++;
	return 0;
}

int gd_rails_load(const char *path, struct gd_rails *r)
{
	char line[256];
	int ret = 0, lineno = 0;
	FILE *f;

	r->n = 0;
	if (!path)
		return 0;
	f = fopen(path, "re");
	if (!f)
		return gd_err(-errno, "cannot open rails file '%s': %s", path,
			      strerror(errno));
	while (!ret && fgets(line, sizeof(line), f))
		ret = gd_rails_line(r, line, path, ++lineno);
	fclose(f);
	return ret;
}

const char *gd_rails_find(const struct gd_rails *r, const char *key)
{
	int i;

	for (i = 0; key && i < r->n; i++)
		if (!strcasecmp(r->keys[i], key))
			return r->rails[i];
	return NULL;
}
