/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Strict number parsing shared by the option table and the tools.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/parse.h"

int gd_parse_u64(const char *text, const char *what, bool allow_suffix,
		 uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!text || !*text || *text == '-' || *text == '+' || *text == ' ')
		return gd_err(-EINVAL, "%s: '%s' is not a non-negative number",
			      what, text ? text : "");
	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno == ERANGE)
		return gd_err(-ERANGE, "%s: '%s' is out of range", what, text);
	if (end == text)
		return gd_err(-EINVAL, "%s: '%s' is not a number", what, text);
	if (*end && allow_suffix && !end[1]) {
		switch (*end) {
		case 'k':
		case 'K':
			mult = 1ULL << 10;
			break;
		case 'm':
		case 'M':
			mult = 1ULL << 20;
			break;
		case 'g':
		case 'G':
			mult = 1ULL << 30;
			break;
		default:
			return gd_err(
				-EINVAL,
				"%s: unknown suffix in '%s' (use K, M or G: powers of 1024)",
				what, text);
		}
		end++;
	}
	if (*end)
		return gd_err(-EINVAL, "%s: trailing characters in '%s'%s",
			      what, text,
			      allow_suffix ? " (suffixes: K, M, G)" : "");
	if (v > UINT64_MAX / mult)
		return gd_err(-ERANGE, "%s: '%s' is out of range", what, text);
	v *= mult;
	if (v < min || v > max)
		return gd_err(-ERANGE,
			      "%s: %llu is out of range %" PRIu64 "..%" PRIu64,
			      what, v, min, max);
	*out = v;
	return 0;
}
