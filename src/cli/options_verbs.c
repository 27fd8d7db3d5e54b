/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Checks of perftest's options that shape the verbs objects and the side
 * channel: -X, --use-srq, --send_with_imm, --flow_label, --ipv6,
 * --ipv6-addr, --payload_file_path and -g/-M. Each refusal names the option
 * that conflicts and what to give instead; what only the device can answer
 * (-X against num_comp_vectors, the SRQ's size) is checked when it opens.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "cli/options.h"
#include "cli/options_priv.h"
#include "engine/payload.h"
#include "transport/mcast.h"

/* One label: decimal or 0x hexadecimal, the whole token, 20 bits. */
static int gd_flow_label_one(const char *list, const char *tok, size_t len,
			     uint32_t *out)
{
	char buf[24], *end;
	unsigned long long v;

	if (!len || len >= sizeof(buf))
		return gd_err(
			-EINVAL,
			"--flow_label=%s: '%.*s' is not a flow label (0..%u, decimal or 0x hex, comma-separated)",
			list, (int)len, tok, GD_FLOW_LABEL_LIMIT);
	memcpy(buf, tok, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || *end || buf[0] == '-' || buf[0] == '+' ||
	    v > GD_FLOW_LABEL_LIMIT)
		return gd_err(
			-EINVAL,
			"--flow_label=%s: '%s' is not a flow label (0..%u: the GRH field is 20 bits; decimal or 0x hex)",
			list, buf, GD_FLOW_LABEL_LIMIT);
	*out = (uint32_t)v;
	return 0;
}

static int gd_flow_label_parse(struct gd_opts *o)
{
	const char *p = o->flow_label;

	o->num_flow_labels = 0;
	if (!p)
		return 0;
	for (;;) {
		size_t n = strcspn(p, ",");

		if (o->num_flow_labels == GD_FLOW_LABEL_MAX)
			return gd_err(
				-E2BIG,
				"--flow_label: at most %d labels (one per QP, -q is at most that)",
				GD_FLOW_LABEL_MAX);
		if (gd_flow_label_one(o->flow_label, p, n,
				      &o->flow_labels[o->num_flow_labels++]))
			return gd_err_code();
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* -g and -M as perftest takes them: UD, one QP, one direction at a time. */
static int gd_mcg_check(struct gd_opts *o, bool conn_given)
{
	if (o->mgid && !o->mcg)
		return gd_err(-EINVAL,
			      "-M %s names -g's multicast group: add -g",
			      o->mgid);
	if (!o->mcg)
		return 0;
	if (conn_given && o->conn != GD_CONN_UD)
		return gd_err(
			-EINVAL,
			"-g sends UD datagrams to a multicast group: give -c UD or drop -c (perftest: multicast runs on UD)");
	o->conn = GD_CONN_UD;
	if (o->num_qps > 1)
		return gd_err(
			-EINVAL,
			"-g with -q %" PRIu64
			": one QP per end joins the group (perftest: only 1 QP supported in multicast)",
			o->num_qps);
	if (o->bidir)
		return gd_err(
			-EINVAL,
			"-g with -b: multicast runs one direction at a time (perftest: bidirectional mode not supported in multicast); --reverse runs both, one after the other");
	if (o->rdma_cm)
		return gd_err(
			-EINVAL,
			"-g with -R: gdperf's groups are attached with ibv_attach_mcast, not joined through rdma_cm (perftest: no multicast with rdma_cm); drop -R");
	return o->mgid ? gd_mgid_parse(o->mgid, o->mgid_raw) : 0;
}

int gd_opts_verbs_check(struct gd_opts *o, bool vector_given, bool conn_given)
{
	if (gd_mcg_check(o, conn_given))
		return gd_err_code();
	if (vector_given && !o->use_event)
		return gd_err(
			-EINVAL,
			"-X %" PRIu64
			" selects the completion vector of -e's events: add -e (perftest: events must be enabled to select a completion vector)",
			o->comp_vector);
	if (o->use_srq && o->verify && o->num_qps > 1)
		return gd_err(
			-EINVAL,
			"--use-srq with --verify and -q %" PRIu64
			": a message lands in whichever shared receive it takes, so the QPs' data cannot be told apart; use -q 1 or drop --verify",
			o->num_qps);
	if (o->flow_label && o->rdma_cm)
		return gd_err(
			-EINVAL,
			"--flow_label with -R: rdma_cm builds the path and gdperf does not set its flow label; without -R the labels go into the QPs' GRH");
	if (o->rdma_cm && (o->pkey_index || o->dlid))
		return gd_err(
			-EINVAL,
			"%s with -R: rdma_cm takes the partition and the path from the route it resolves; drop -R or %s",
			o->dlid ? "--dlid" : "--pkey_index",
			o->dlid ? "--dlid" : "--pkey_index");
	if (gd_flow_label_parse(o))
		return gd_err_code();
	if (o->ipv6_gid && o->gid_index >= 0)
		return gd_err(
			-EINVAL,
			"--ipv6 picks a GID when -x does not name one; -x %" PRId64
			" names one: give one of them",
			o->gid_index);
	if (o->ipv6_gid && o->rdma_cm)
		return gd_err(
			-EINVAL,
			"--ipv6 with -R: gdperf's rdma_cm path resolves IPv4 addresses only; drop -R (the QPs then use the IPv6 GID) or --ipv6");
	if (o->payload_path && o->verify)
		return gd_err(
			-EINVAL,
			"--payload_file_path replaces the pattern that --verify checks on the other end; give one");
	/* validation runs again when the server adopts the client's test */
	free(o->payload);
	o->payload = NULL;
	o->payload_bytes = 0;
	o->payload_sha256[0] = '\0';
	return o->payload_path
		       ? gd_payload_load(o->payload_path, &o->payload,
					 &o->payload_bytes, o->payload_sha256)
		       : 0;
}
