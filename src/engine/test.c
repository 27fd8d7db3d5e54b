/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Names of the test description enums, as printed and as in JSON. */
#include <config.h>

#include "engine/test.h"

const char *gd_verb_name(enum gd_verb verb)
{
	static const char *const names[] = { "write", "read", "send",
					     "atomic" };

	return verb <= GD_VERB_ATOMIC ? names[verb] : "?";
}

const char *gd_measure_name(enum gd_measure m)
{
	return m == GD_MEASURE_BW ? "bw" : "lat";
}
