/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The transport types (RC, UC, UD): named by the transport, allowed per
 * test by the engine (GD_CONN_BIT), chosen by -c.
 */
#ifndef GD_CONN_H
#define GD_CONN_H

enum gd_conn { GD_CONN_RC, GD_CONN_UC, GD_CONN_UD };

/* "RC", "UC", "UD"; defined in verbs.c. */
const char *gd_conn_name(enum gd_conn conn);

#endif
