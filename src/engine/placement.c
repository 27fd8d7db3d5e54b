/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Placement words of --phases (placement.h): parsed and named in one place
 * for the option check, the sweep and the report.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "engine/placement.h"

/* One side: "H", "D" or "D1".."D4"; its length, or 0. */
static size_t gd_place_word(const char *p, size_t len, unsigned int *place)
{
	if (len >= 1 && p[0] == 'H') {
		*place = GD_PLACE_HOST;
		return 1;
	}
	if (len < 1 || p[0] != 'D')
		return 0;
	if (len >= 2 && p[1] >= '1' && p[1] <= '0' + GD_MAX_DEVMEM) {
		*place = (unsigned int)(p[1] - '0');
		return 2;
	}
	if (len >= 2 && p[1] >= '0' && p[1] <= '9')
		return 0; /* D0, D5..D9 */
	*place = GD_PLACE_DEV;
	return 1;
}

int gd_placement_parse(const char *tok, size_t len, unsigned int *client,
		       unsigned int *server)
{
	size_t a = gd_place_word(tok, len, client);
	size_t b = a ? gd_place_word(tok + a, len - a, server) : 0;

	if (!a || !b || a + b != len)
		return gd_err(
			-EINVAL,
			"--phases: '%.*s' is not a placement; use HH, DD, HD or DH (client side first), or with several --mem memories D1..D%d (D1D1, HD2, D2H)",
			(int)len, tok, GD_MAX_DEVMEM);
	return 0;
}

bool gd_placement_numbered(const char *list)
{
	for (const char *p = list ? strchr(list, 'D') : NULL; p;
	     p = strchr(p + 1, 'D'))
		if (p[1] >= '1' && p[1] <= '9')
			return true;
	return false;
}

static void gd_place_text(unsigned int place, bool numbered, char *buf,
			  size_t len)
{
	if (place == GD_PLACE_HOST)
		snprintf(buf, len, "H");
	else if (numbered)
		snprintf(buf, len, "D%u", place);
	else
		snprintf(buf, len, "D");
}

void gd_placement_name(unsigned int client, unsigned int server, bool numbered,
		       char *buf, size_t len)
{
	char c[12], s[12];

	gd_place_text(client, numbered, c, sizeof(c));
	gd_place_text(server, numbered, s, sizeof(s));
	snprintf(buf, len, "%s%s", c, s);
}

void gd_placement_default(unsigned int n, char *buf, size_t len)
{
	size_t used;

	if (n < 2) {
		snprintf(buf, len, n ? "HH,DD" : "HH");
		return;
	}
	used = (size_t)snprintf(buf, len, "HH");
	for (unsigned int k = 1; k <= n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, ",D%uD%u", k,
					 k);
}
