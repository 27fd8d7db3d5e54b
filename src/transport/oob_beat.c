/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Side-channel heartbeats from a thread of their own. The measuring thread
 * cannot be trusted to send them on time: under emulation one ibv_post_send
 * on rxe runs the protocol in the caller's context, and on busy CPUs it
 * simply waits its turn, so heartbeats from the loop left gaps longer than
 * a 500 ms silence limit in healthy runs. The thread only proves the
 * process is alive; it stops when the caller has shown no life for long
 * (see oob.h), so a stuck peer is still reported, just later.
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/error.h"
#include "transport/oob.h"

/* Beats at most this far apart, whatever the silence limit. */
#define GD_OOB_BEAT_MAX_MS 1000

struct gd_oob_beat {
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
};

static int gd_oob_beat_every_ms(const struct gd_oob *oob)
{
	int every_ms = oob->timeout_ms / 4;

	if (every_ms > GD_OOB_BEAT_MAX_MS)
		every_ms = GD_OOB_BEAT_MAX_MS;
	return every_ms > 0 ? every_ms : 1;
}

static int64_t gd_oob_stall_ms(const struct gd_oob *oob)
{
	int64_t four_limits_ms = 4 * (int64_t)oob->timeout_ms;

	return four_limits_ms > GD_OOB_STALL_MS ? four_limits_ms
						: GD_OOB_STALL_MS;
}

/* A beat only when the socket takes it at once: a peer that is not
 * reading (it is measuring) does not need one, and a beat must never
 * block the frames of the caller behind it. */
static bool gd_oob_beat_due(struct gd_oob *oob)
{
	struct pollfd pfd = { .fd = oob->fd, .events = POLLOUT };
	int64_t quiet_ms =
		gd_oob_now_ms() -
		atomic_load_explicit(&oob->alive_ms, memory_order_relaxed);

	if (quiet_ms > gd_oob_stall_ms(oob))
		return false;
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLOUT);
}

static void gd_oob_beat_wait(struct gd_oob_beat *b, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (!b->stop &&
	       pthread_cond_timedwait(&b->wake, &b->lock, &ts) != ETIMEDOUT)
		;
}

static void *gd_oob_beat_main(void *arg)
{
	struct gd_oob *oob = arg;
	struct gd_oob_beat *b = oob->beat;
	int every_ms = gd_oob_beat_every_ms(oob);
	bool failed = false;

	pthread_mutex_lock(&b->lock);
	while (!b->stop && !failed) {
		gd_oob_beat_wait(b, every_ms);
		if (b->stop || !gd_oob_beat_due(oob))
			continue;
		pthread_mutex_unlock(&b->lock);
		/* A broken channel is the caller's to report, from its own
		 * send or receive; this thread just stops. */
		failed = gd_oob_send_frame(oob, GD_FRAME_BEAT, NULL) != 0;
		pthread_mutex_lock(&b->lock);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

int gd_oob_beat_start(struct gd_oob *oob)
{
	struct gd_oob_beat *b;
	pthread_condattr_t ca;
	int ret;

	if (oob->beat || oob->fd < 0)
		return 0;
	b = calloc(1, sizeof(*b));
	if (!b)
		return gd_err(-ENOMEM, "cannot allocate the heartbeat state");
	pthread_mutex_init(&b->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&b->wake, &ca);
	pthread_condattr_destroy(&ca);
	gd_oob_alive(oob);
	oob->beat = b;
	oob->beats_refused = false;
	ret = pthread_create(&b->tid, NULL, gd_oob_beat_main, oob);
	if (ret) {
		oob->beat = NULL;
		pthread_cond_destroy(&b->wake);
		pthread_mutex_destroy(&b->lock);
		free(b);
		return gd_err(
			-ret,
			"cannot start the side-channel heartbeat thread: %s; check the process and thread limits (ulimit -u)",
			strerror(ret));
	}
	return 0;
}

void gd_oob_beat_stop(struct gd_oob *oob)
{
	struct gd_oob_beat *b = oob->beat;

	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	b->stop = true;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->lock);
	pthread_join(b->tid, NULL);
	pthread_cond_destroy(&b->wake);
	pthread_mutex_destroy(&b->lock);
	free(b);
	oob->beat = NULL;
}
