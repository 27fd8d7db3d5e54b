/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Per-step outcomes the sweep collects before reporting them phase by
 * phase, and the one-step protocol (step.c) that produces them.
 */
#ifndef GD_SWEEP_H
#define GD_SWEEP_H

#include "engine/session.h"

struct json_object;

struct gd_step_outcome {
	bool ran;
	bool ok;
	int err;
	char error[512];
	const char *stage; /* register, oob, transfer, verify */
	struct gd_step_result res;
	struct gd_bw_summary peer_bw; /* bidir: the server's direction */
	bool has_peer_bw;
	uint64_t target_received; /* send tests: messages the target got */
	struct json_object *counters_local;
	struct json_object *counters_remote;
	struct json_object *verify;
};

/* Run step @phase x @size; fills @out. Returns 0 when the run may go on
 * (the step itself may have failed), -errno when the connection or the
 * QPs are no longer usable. */
int gd_step_run(struct gd_session *s, unsigned int step_no,
		const struct gd_phase *ph, uint64_t size_bytes,
		struct gd_step_outcome *out);

#endif
