/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_write_bw: RDMA write bandwidth, host vs device memory. The engine does the
 * rest. */
#include <config.h>

#include "engine/test.h"

static const struct gd_test gd_this_test = {
	.name = "gd_write_bw",
	.verb = GD_VERB_WRITE,
	.measure = GD_MEASURE_BW,
	.conn_mask = GD_CONN_BIT(GD_CONN_RC) | GD_CONN_BIT(GD_CONN_UC),
	.default_size_bytes = 65536,
	.default_iters = 5000,
};

int main(int argc, char **argv)
{
	return gd_main(&gd_this_test, argc, argv);
}
