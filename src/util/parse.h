/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Strict parsing of the numbers users type: whole string, range-checked,
 * K/M/G suffixes where sizes are meant.
 */
#ifndef GD_PARSE_H
#define GD_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Strict number parser: whole string, K/M/G (2^10..) suffixes when
 * @allow_suffix, range-checked. -EINVAL/-ERANGE with a message naming
 * @what. */
int gd_parse_u64(const char *text, const char *what, bool allow_suffix,
		 uint64_t min, uint64_t max, uint64_t *out);

#endif
