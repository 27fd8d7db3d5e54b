/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The --rails=FILE mapping from devices (NIC, GPU bus id or UUID) to rails. */
#ifndef GD_DOCTOR_RAILS_H
#define GD_DOCTOR_RAILS_H

#define GD_RAILS_MAX 256

struct gd_rails {
	char keys[GD_RAILS_MAX][64];
	char rails[GD_RAILS_MAX][32];
	int n;
};

/* NULL path = no mapping. -errno with gd_err on an unreadable/bad file. */
int gd_rails_load(const char *path, struct gd_rails *r);
/* Rail of @key (case-insensitive), or NULL. */
const char *gd_rails_find(const struct gd_rails *r, const char *key);

#endif
