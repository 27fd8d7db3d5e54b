/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What a gd_* binary declares about itself: the operation, bandwidth or
 * latency, and which connection types and options apply. Each binary is a
 * static const struct gd_test handed to gd_main().
 */
#ifndef GD_TEST_H
#define GD_TEST_H

#include <stdint.h>

#include "transport/conn.h"

enum gd_verb { GD_VERB_WRITE, GD_VERB_READ, GD_VERB_SEND, GD_VERB_ATOMIC };
enum gd_measure { GD_MEASURE_BW, GD_MEASURE_LAT };

#define GD_CONN_BIT(c) (1u << (c))

struct gd_test {
	const char *name; /* "gd_write_bw" */
	enum gd_verb verb;
	enum gd_measure measure;
	unsigned int conn_mask; /* GD_CONN_BIT(GD_CONN_RC) | ... */
	uint64_t default_size_bytes;
	uint64_t default_iters;
};

const char *gd_verb_name(enum gd_verb verb);	/* "write" */
const char *gd_measure_name(enum gd_measure m); /* "bw" | "lat" */

int gd_main(const struct gd_test *test, int argc, char **argv);

#endif
