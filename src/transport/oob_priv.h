/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Deadline helpers the side channel's files share (defined in oob_io.c).
 */
#ifndef GD_OOB_PRIV_H
#define GD_OOB_PRIV_H

#include <stdint.h>

/* Milliseconds left until @deadline_ms (gd_oob_now_ms), 0 when past. */
int gd_oob_ms_left(int64_t deadline_ms);
/* 0 when @fd is ready for @events, -ETIMEDOUT at the deadline, or -errno. */
int gd_oob_wait_fd(int fd, short events, int64_t deadline_ms);

/* The frame MAC off, its key wiped (a closed connection). */
struct gd_oob;
void gd_oob_mac_stop(struct gd_oob *oob);

#endif
