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

#define GD_COUNTERS_DEFAULT_ROOT "/sys/class/infiniband"

/* Root directory in use: option, else $GD_COUNTERS_ROOT, else sysfs.
 * An empty option or environment value counts as unset. */
const char *gd_counters_root(const char *option_value);

/* Snapshot the port's counters. A missing counters/ or hw_counters/ is
 * normal (rxe has only hw_counters/); both missing gives an empty snapshot,
 * not an error. A file that cannot be read or does not hold one unsigned
 * decimal number is skipped with a note, and so is a missing port
 * directory: counters are evidence beside the measurement, never a reason
 * to abandon it. -EINVAL (recorded) for a device name with '/' or a port
 * below 1; -ENOMEM. */
int gd_counters_snapshot(const char *root, const char *device, int port,
			 struct gd_counter_snap **out);
void gd_counters_free(struct gd_counter_snap *snap);
/*
 * sysfs hw_counters/ values are a copy the kernel keeps for "lifespan" ms
 * (rxe and mlx5 default 10), refreshed by whichever reader comes after it
 * expired. A snapshot therefore reads hw_counters over RDMA netlink, which
 * asks the driver each time (counters_nl.h), and falls back to the files
 * with a note. gd_counters_fresh: true when @snap's hw_counters came over
 * netlink; false when they came from sysfs (or there were none), where a
 * closing snapshot must wait a lifespan after the traffic.
 * gd_counters_lifespan_ms: that lifespan, 0 when the file is absent.
 */
bool gd_counters_fresh(const struct gd_counter_snap *snap);
unsigned int gd_counters_lifespan_ms(const char *root, const char *device,
				     int port);
/* Number of counters held (settings such as lifespan are never held). */
unsigned int gd_counters_count(const struct gd_counter_snap *snap);

/*
 * Delta after - before as JSON:
 * {"counters": [{"name": "port_xmit_data", "group": "counters",
 *                "delta": N, "unit": "bytes", "error": false,
 *                "class": "traffic"|"error"|"retry"|"congestion"|"other"},
 *               ...],
 *  "errors_moved": ["rnr_nak_retry_err", ...],
 *  "retries_moved": [...], "congestion_moved": [...],
 *  "tx_bytes": N|null, "rx_bytes": N|null, "tx_packets": N|null,
 *  "rx_packets": N|null, "hw_counters_via": "netlink"|"sysfs"|null,
 *  "notes": ["..."]}
 * Counters that did not move are kept (delta 0) so tables line up. A
 * counter that went backwards (reset during the window) gets delta null
 * and a note. Order: counters/ first, then hw_counters/, each by name.
 */
int gd_counters_delta(const struct gd_counter_snap *before,
		      const struct gd_counter_snap *after,
		      struct json_object **out);

/* counters_merge.c: add the delta @add (the shape above) into *@acc (NULL:
 * a copy of @add); the moved lists become their union. */
void gd_counters_merge(struct json_object **acc, struct json_object *add);

enum gd_counter_class {
	GD_COUNTER_OTHER,
	GD_COUNTER_TRAFFIC,    /* bytes/packets moved */
	GD_COUNTER_ERROR,      /* link/fabric or transport failure */
	GD_COUNTER_RETRY,      /* recovered retransmission: reported only */
	GD_COUNTER_CONGESTION, /* CNP/ECN: congestion control engaged */
};

enum gd_counter_class gd_counter_classify(const char *name);
const char *gd_counter_class_name(enum gd_counter_class cls);
/* Is this counter name an error counter (highlighted when it moves)? */
bool gd_counter_is_error(const char *name);
/* Unit of the reported delta: "bytes", "packets" or "count". */
const char *gd_counter_unit(const char *name);

/* Strict parse of a sysfs value: decimal digits, one optional trailing
 * newline, no sign, no blanks, no overflow. 0 or -EINVAL/-ERANGE. */
int gd_counters_parse_u64(const char *text, uint64_t *out);

#endif
