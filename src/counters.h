/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * NIC port counters from sysfs: snapshot every file under
 * DEV/ports/N/counters/ and hw_counters/, take deltas, convert units
 * (port_xmit_data/port_rcv_data count 4-byte words: reported as bytes),
 * exclude settings (lifespan), flag error counters that moved.
 * The root defaults to /sys/class/infiniband; --counters-root or the
 * GD_COUNTERS_ROOT environment variable point it at a fixture tree.
 */
#ifndef GD_COUNTERS_H
#define GD_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;
struct gd_counter_snap;

/* Root directory in use: option, else $GD_COUNTERS_ROOT, else sysfs. */
const char *gd_counters_root(const char *option_value);

/* Snapshot the port's counters. A missing counters/ or hw_counters/ is
 * normal (rxe has only hw_counters/); both missing gives an empty snapshot,
 * not an error. */
int gd_counters_snapshot(const char *root, const char *device, int port,
			 struct gd_counter_snap **out);
void gd_counters_free(struct gd_counter_snap *snap);

/*
 * Delta after - before as JSON:
 * {"counters": [{"name": "port_xmit_data", "group": "counters",
 *                "delta": N, "unit": "bytes", "error": false}, ...],
 *  "errors_moved": ["rnr_nak_retry_err", ...],
 *  "tx_bytes": N|null, "rx_bytes": N|null, "tx_packets": N|null,
 *  "rx_packets": N|null}
 * Counters that did not move are kept (delta 0) so tables line up.
 */
int gd_counters_delta(const struct gd_counter_snap *before,
		      const struct gd_counter_snap *after,
		      struct json_object **out);

/* Is this counter name an error counter (highlighted when it moves)? */
bool gd_counter_is_error(const char *name);

#endif
