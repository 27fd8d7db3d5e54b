/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_read_lat: RDMA read latency. The engine does the rest. */
#include <config.h>

#include "engine/test.h"

static const struct gd_test gd_this_test = {
	.name = "gd_read_lat",
	.verb = GD_VERB_READ,
	.measure = GD_MEASURE_LAT,
	.conn_mask = GD_CONN_BIT(GD_CONN_RC),
	.default_size_bytes = 2,
	.default_iters = 1000,
};

int main(int argc, char **argv)
{
	return gd_main(&gd_this_test, argc, argv);
}
