/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The words of the one exit-status table (exit.h), which every program's
 * --help prints from here so that none can describe another table.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "util/exit.h"

static const char *const gd_exit_table[] = {
	[GD_EXIT_OK] = "all passed",
	[GD_EXIT_FAIL] = "a runtime or output error",
	[GD_EXIT_USAGE] = "usage or unreadable input",
	[GD_EXIT_GATE_FAILED] = "a gate failed",
	[GD_EXIT_GATE_UNDECIDED] = "a gate undecided",
};

#define GD_EXIT_N (sizeof(gd_exit_table) / sizeof(gd_exit_table[0]))
#define GD_EXIT_HELP_COLS 79

const char *gd_exit_words(int status)
{
	return status >= 0 && (size_t)status < GD_EXIT_N ? gd_exit_table[status]
							 : NULL;
}

/* @word after the line so far in @buf (@col its last line's width): on
 * this line when it fits, else on the next. */
static void gd_exit_put(char *buf, size_t len, size_t *col, const char *word)
{
	size_t used = strlen(buf), n = strlen(word);

	if (*col + 1 + n > GD_EXIT_HELP_COLS) {
		snprintf(buf + used, len - used, "\n%s", word);
		*col = n;
	} else {
		snprintf(buf + used, len - used, " %s", word);
		*col += 1 + n;
	}
}

void gd_exit_help(unsigned int set, char *buf, size_t len)
{
	char item[64];
	size_t col, last = 0;

	for (size_t s = 0; s < GD_EXIT_N; s++)
		if (set & GD_EXIT_BIT(s))
			last = s;
	snprintf(buf, len, "Exit status:");
	col = strlen(buf);
	for (size_t s = 0; s < GD_EXIT_N; s++) {
		if (!(set & GD_EXIT_BIT(s)))
			continue;
		snprintf(item, sizeof(item), "%zu %s%s", s, gd_exit_table[s],
			 s == last ? "." : ",");
		gd_exit_put(buf, len, &col, item);
	}
}
