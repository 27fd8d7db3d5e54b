/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_read_bw: RDMA read bandwidth. The engine does the rest. */
#include <config.h>

#include "engine/test.h"

static const struct gd_test gd_this_test = {
	.name = "gd_read_bw",
	.verb = GD_VERB_READ,
	.measure = GD_MEASURE_BW,
	.conn_mask = GD_CONN_BIT(GD_CONN_RC),
	.default_size_bytes = 65536,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return gd_main(&gd_this_test, argc, argv);
}
