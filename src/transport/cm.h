/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The rdma_cm connection path (-R): the connection manager's state and the
 * calls that open the device through it and connect the QPs. It fills a
 * struct gd_verbs (context, QPs) that verbs.c then uses as any other.
 */
#ifndef GD_CM_H
#define GD_CM_H

#include <stdint.h>

#include "transport/verbs.h"

struct rdma_event_channel;
struct rdma_cm_id;

struct gd_cm {
	struct gd_verbs *v; /* what the connection manager fills */
	struct rdma_event_channel *channel;
	struct rdma_cm_id *listen;
	struct rdma_cm_id *id[GD_MAX_QPS];
};

/* Use rdma_cm's own context for device @name (-R); @v gets it. */
int gd_cm_open(struct gd_cm *cm, struct gd_verbs *v, const char *name,
	       unsigned int port, int gid_index);
/* Server listens on the IPv4 address @bind_ip; both sides end with the
 * QPs created on rdma_cm ids and in RTS. */
int gd_cm_listen(struct gd_cm *cm, const char *bind_ip, uint16_t port);
int gd_cm_accept(struct gd_cm *cm, const struct gd_qp_cfg *c, int access);
int gd_cm_connect(struct gd_cm *cm, const struct gd_qp_cfg *c,
		  const char *server_ip, uint16_t port, int access);
/* Destroys the QPs it made (and clears them in the verbs), the ids and the
 * event channel. Call before gd_verbs_close; harmless when never opened. */
void gd_cm_close(struct gd_cm *cm);

#endif
