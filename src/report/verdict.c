/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Triage of a paired run: the pattern of phases that passed and failed,
 * ratios against HH and moved counters map to stable reason codes and the
 * next controlled check (the usual host-versus-GPU troubleshooting matrix).
 * A verdict states only what its evidence shows.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report/compare.h"
#include "report/compare_priv.h"

enum gd_fail_reason { GD_FAIL_OTHER, GD_FAIL_REG, GD_FAIL_OOB, GD_FAIL_CONFIG };

/* Evidence collected per reason code before the verdicts are emitted. */
enum gd_vslot {
	GD_VS_OOB,
	GD_VS_BOTH,
	GD_VS_HOST,
	GD_VS_REG,
	GD_VS_PATH,
	GD_VS_ONEDIR,
	GD_VS_CONFIG,
	GD_VS_COUNT
};

struct gd_vctx {
	struct json_object *doc, *phases, *comparison, *assess;
	const struct gd_gate_cfg *gates;
	struct json_object *ev[GD_VS_COUNT];
	struct json_object *out[3]; /* error, warning, info */
	struct gd_sbuf mixed; /* which endpoint the mixed placements blame */
};

enum { GD_SEV_ERROR, GD_SEV_WARNING, GD_SEV_INFO };
static const char *const gd_sev_name[] = { "error", "warning", "info" };

static const char *const gd_oob_errnos[] = {
	"ECONNREFUSED", "ETIMEDOUT",	"EHOSTUNREACH", "ENETUNREACH",
	"ECONNRESET",	"ECONNABORTED", "EPIPE",	"EADDRNOTAVAIL",
};

static enum gd_fail_reason gd_error_reason(struct json_object *err)
{
	const char *stage = gd_json_str(err, "stage");
	const char *msg = gd_json_str(err, "message");
	const char *name = gd_json_str(err, "errno_name");

	if (stage)
		return !strcmp(stage, "register") ? GD_FAIL_REG
		       : !strcmp(stage, "oob")	  ? GD_FAIL_OOB
		       : !strcmp(stage, "config") ? GD_FAIL_CONFIG
						  : GD_FAIL_OTHER;
	if (msg && (strcasestr(msg, "ibv_reg") || strcasestr(msg, "regist")))
		return GD_FAIL_REG;
	if (msg &&
	    (strcasestr(msg, "side channel") || strcasestr(msg, "bootstrap")))
		return GD_FAIL_OOB;
	for (size_t i = 0;
	     name && i < sizeof(gd_oob_errnos) / sizeof(gd_oob_errnos[0]); i++)
		if (!strcmp(name, gd_oob_errnos[i]))
			return GD_FAIL_OOB;
	return GD_FAIL_OTHER;
}

static bool gd_phase_failed(struct json_object *ph)
{
	const char *s = gd_json_str(ph, "status");

	return s && !strcmp(s, "failed");
}

static void gd_ev(struct gd_vctx *v, enum gd_vslot slot, const char *text)
{
	if (!v->ev[slot])
		v->ev[slot] = json_object_new_array();
	json_object_array_add(v->ev[slot], json_object_new_string(text));
}

static void gd_ev_phase(struct gd_vctx *v, enum gd_vslot slot,
			struct json_object *ph, const char *prefix)
{
	struct json_object *err = gd_json_path(ph, "error", NULL);
	struct gd_sbuf sb = { .len = 0 };

	gd_sb_add(&sb, "%s%s %s %s", prefix, gd_phase_placement(ph),
		  gd_phase_direction(ph), gd_json_str(ph, "status") ?: "?");
	if (gd_json_str(err, "errno_name"))
		gd_sb_add(&sb, ": %s", gd_json_str(err, "errno_name"));
	if (gd_json_str(err, "message"))
		gd_sb_add(&sb, ": %s", gd_json_str(err, "message"));
	gd_ev(v, slot, sb.buf);
}

static void gd_emit(struct gd_vctx *v, int sev, const char *code,
		    const char *summary, struct json_object *evidence,
		    const char *next)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "code", json_object_new_string(code));
	json_object_object_add(o, "severity",
			       json_object_new_string(gd_sev_name[sev]));
	json_object_object_add(o, "summary", json_object_new_string(summary));
	json_object_object_add(o, "evidence",
			       evidence ? evidence : json_object_new_array());
	json_object_object_add(o, "next_check", json_object_new_string(next));
	json_object_array_add(v->out[sev], o);
}

static struct json_object *gd_find_phase(struct gd_vctx *v, const char *pl,
					 const char *dir)
{
	for (size_t i = 0; i < gd_json_len(v->phases); i++) {
		struct json_object *ph = gd_json_idx(v->phases, i);

		if (!strcmp(gd_phase_placement(ph), pl) &&
		    !strcmp(gd_phase_direction(ph), dir))
			return ph;
	}
	return NULL;
}

/* HD puts device memory only on the server, DH only on the client. */
static void gd_mixed_hint(struct gd_vctx *v, const char *dir)
{
	struct json_object *hd = gd_find_phase(v, "HD", dir);
	struct json_object *dh = gd_find_phase(v, "DH", dir);

	if (v->mixed.len)
		return;
	if (hd && dh && gd_phase_ok(hd) && gd_phase_failed(dh))
		gd_sb_add(
			&v->mixed,
			"DH failed and HD passed (%s): the client's (local) GPU path is at fault",
			dir);
	else if (hd && dh && gd_phase_ok(dh) && gd_phase_failed(hd))
		gd_sb_add(
			&v->mixed,
			"HD failed and DH passed (%s): the server's (remote) GPU path is at fault",
			dir);
	else if (hd && dh && gd_phase_failed(hd) && gd_phase_failed(dh))
		gd_sb_add(
			&v->mixed,
			"HD and DH both failed (%s): both endpoints' GPU paths, or something they share",
			dir);
}

static const char *gd_opposite(const char *dir)
{
	if (!strcmp(dir, "forward"))
		return "reverse";
	if (!strcmp(dir, "reverse"))
		return "forward";
	return NULL;
}

/* Classify one failed device-memory phase whose host baseline held. */
static void gd_judge_device_failure(struct gd_vctx *v, struct json_object *ph)
{
	struct json_object *err = gd_json_path(ph, "error", NULL);
	const char *dir = gd_phase_direction(ph), *opp = gd_opposite(dir);
	struct json_object *twin =
		opp ? gd_find_phase(v, gd_phase_placement(ph), opp) : NULL;

	if (gd_error_reason(err) == GD_FAIL_REG) {
		gd_ev_phase(v, GD_VS_REG, ph, "");
		return;
	}
	if (gd_error_reason(err) == GD_FAIL_CONFIG) {
		gd_ev_phase(v, GD_VS_CONFIG, ph, "");
		return;
	}
	gd_mixed_hint(v, dir);
	if (twin && gd_phase_ok(twin)) {
		char buf[96];

		snprintf(buf, sizeof(buf), "%s %s passed",
			 gd_phase_placement(twin), opp);
		gd_ev(v, GD_VS_ONEDIR, buf);
		gd_ev_phase(v, GD_VS_ONEDIR, ph, "");
	} else {
		gd_ev_phase(v, GD_VS_PATH, ph, "");
	}
}

static void gd_judge_failures(struct gd_vctx *v)
{
	struct json_object *doc_err = gd_json_path(v->doc, "error", NULL);
	size_t np = gd_json_len(v->phases);

	if (doc_err && gd_error_reason(doc_err) == GD_FAIL_OOB)
		gd_ev(v, GD_VS_OOB,
		      gd_json_str(doc_err, "message") ?: "run error");
	for (size_t i = 0; i < np; i++) {
		struct json_object *ph = gd_json_idx(v->phases, i);
		const char *dir = gd_phase_direction(ph);
		struct json_object *hh = gd_find_phase(v, "HH", dir);
		bool hh_failed =
			hh && gd_phase_failed(hh) &&
			gd_error_reason(gd_json_path(hh, "error", NULL)) !=
				GD_FAIL_OOB;

		if (!gd_phase_failed(ph))
			continue;
		if (gd_error_reason(gd_json_path(ph, "error", NULL)) ==
		    GD_FAIL_OOB)
			gd_ev_phase(v, GD_VS_OOB, ph, "");
		else if (!gd_phase_has_device(ph))
			gd_ev_phase(v, GD_VS_HOST, ph, "");
		else if (hh_failed)
			gd_ev_phase(v, GD_VS_BOTH, ph, "");
		else
			gd_judge_device_failure(v, ph);
	}
	/* a failed HH alongside failed device phases is one "both fail" case */
	if (v->ev[GD_VS_BOTH] && v->ev[GD_VS_HOST]) {
		for (size_t i = 0; i < gd_json_len(v->ev[GD_VS_HOST]); i++)
			gd_ev(v, GD_VS_BOTH,
			      json_object_get_string(
				      gd_json_idx(v->ev[GD_VS_HOST], i)));
		json_object_put(v->ev[GD_VS_HOST]);
		v->ev[GD_VS_HOST] = NULL;
	}
}

static const char *gd_next_with_mixed(struct gd_vctx *v, struct gd_sbuf *sb,
				      const char *base)
{
	gd_sb_add(sb, "%s", base);
	if (v->mixed.len)
		gd_sb_add(sb, " Mixed placements: %s.", v->mixed.buf);
	else
		gd_sb_add(
			sb,
			" Run --phases=HH,DD,HD,DH (HD: device memory on the server only; DH: on the client only) to tell which endpoint.");
	return sb->buf;
}

/* Registration and configuration failures of device memory: next checks
 * in its backend's words (the gates' device words). */
static void gd_emit_device_failures(struct gd_vctx *v)
{
	const struct gd_device_words *dw = &v->gates->device;
	struct gd_sbuf sb = { .len = 0 };

	if (v->ev[GD_VS_REG]) {
		gd_sb_add(
			&sb,
			"Check the registration route (%s), that this process sees the GPU (%s), and the locked-memory limit of this process (ulimit -l); gd_doctor records all three.",
			dw->route_check ?: "DMA-BUF or peer-memory support",
			dw->visibility ?: "device nodes, container assignment");
		gd_emit(v, GD_SEV_ERROR, GD_V_GPU_REG_FAIL,
			"host memory passes but device (D) memory registration fails",
			v->ev[GD_VS_REG], sb.buf);
	}
	if (!v->ev[GD_VS_CONFIG])
		return;
	sb.len = 0;
	gd_sb_add(&sb, "Give --mem");
	if (dw->alias)
		gd_sb_add(&sb, " (or --%s)", dw->alias);
	gd_sb_add(
		&sb,
		" on the side the placement needs (client first, server second in HD/DH/DD), or choose --phases that match what each side has.");
	gd_emit(v, GD_SEV_ERROR, GD_V_CONFIG,
		"a device (D) memory phase could not run: one side has no device memory configured",
		v->ev[GD_VS_CONFIG], sb.buf);
}

static void gd_emit_failures(struct gd_vctx *v)
{
	struct gd_sbuf sb = { .len = 0 };

	if (v->ev[GD_VS_OOB])
		gd_emit(v, GD_SEV_ERROR, GD_V_OOB_FAIL,
			"side channel (TCP bootstrap) failed: this says nothing about the RDMA path",
			v->ev[GD_VS_OOB],
			"Check the bootstrap interface and TCP reachability: the server is started and listening on that port (ECONNREFUSED), the address routes through the intended interface and no firewall drops it (ETIMEDOUT, EHOSTUNREACH).");
	if (v->ev[GD_VS_BOTH])
		gd_emit(v, GD_SEV_ERROR, GD_V_BOTH_FAIL,
			"host and device (D) memory phases both fail: the fault is below memory placement",
			v->ev[GD_VS_BOTH],
			"Check the port state on both ends (ibv_devinfo: PORT_ACTIVE, link layer), bootstrap reachability, and that both ends run matching options (device -d, port -i, GID index -x, connection -c, QPs -q, MTU, sizes).");
	if (v->ev[GD_VS_HOST])
		gd_emit(v, GD_SEV_ERROR, GD_V_HOST_FAIL,
			"host-memory phase fails: the fault is not specific to device (D) memory",
			v->ev[GD_VS_HOST],
			"Check the port state on both ends (ibv_devinfo), bootstrap reachability, matching options on both ends, and the locked-memory limit (ulimit -l) for host buffers.");
	gd_emit_device_failures(v);
	if (v->ev[GD_VS_ONEDIR])
		gd_emit(v, GD_SEV_ERROR, GD_V_ONE_DIR_FAIL,
			"only one direction fails with device (D) memory: suspect the device memory path of the endpoint that changed role",
			v->ev[GD_VS_ONEDIR],
			gd_next_with_mixed(
				v, &sb,
				"Check the other endpoint's GPU path (its GPU/NIC locality, registration and peer access)."));
	sb.len = 0;
	if (v->ev[GD_VS_PATH])
		gd_emit(v, GD_SEV_ERROR, GD_V_GPU_PATH_FAIL,
			"host memory passes but a device (D) memory phase fails after registration",
			v->ev[GD_VS_PATH],
			gd_next_with_mixed(
				v, &sb,
				"Check the GPU data path (peer access through the PCI hierarchy, ACS redirect, data verification)."));
	for (int s = 0; s < GD_VS_COUNT; s++)
		v->ev[s] = NULL; /* ownership moved into the verdicts */
}

/* The assessments' evidence lines whose decision is @dec. */
static struct json_object *gd_assess_lines(struct gd_vctx *v, const char *dec)
{
	struct json_object *ev = NULL;

	for (size_t i = 0; i < gd_json_len(v->assess); i++) {
		struct json_object *a = gd_json_idx(v->assess, i);

		if (strcmp(gd_json_str(a, "decision") ?: "", dec))
			continue;
		if (!ev)
			ev = json_object_new_array();
		json_object_array_add(
			ev, json_object_new_string(gd_json_str(a, "evidence")
							   ?: ""));
	}
	return ev;
}

/* Which memory is slower than which, and by how much: "device (D)
 * memory ... than host memory" when every finding is against HH, else the
 * comparisons by name ("D2D2/D1D1 forward 0.61"). */
static const char *gd_slower_summary(struct gd_vctx *v, bool lat, char *buf,
				     size_t len)
{
	struct gd_sbuf sb = { .len = 0 };
	bool only_hh = true;

	for (size_t i = 0; i < gd_json_len(v->assess); i++) {
		struct json_object *a = gd_json_idx(v->assess, i);
		const char *label = gd_json_str(a, "comparison") ?: "";
		double r = 0;

		if (strcmp(gd_json_str(a, "decision") ?: "", "slower"))
			continue;
		only_hh &= strstr(label, "/HH") != NULL;
		gd_json_num(a, "ratio", &r);
		gd_sb_add(&sb, "%s%s %s %.2f", sb.len ? ", " : "", label,
			  gd_json_str(a, "direction") ?: "", r);
	}
	snprintf(
		buf, len,
		"%s beyond the expected ratio (the evidence below says how strong): %s",
		only_hh ? (lat ? "device (D) memory has higher latency than host memory"
			       : "device (D) memory is slower than host memory")
			: (lat ? "a memory has higher latency than the one it is compared with"
			       : "a memory is slower than the one it is compared with"),
		sb.buf);
	return buf;
}

/* Behind "not below the expected ratio": each assessment that showed its
 * device phase not below the floor, in words that name what decided it,
 * the weakest judged size and its lower bound (evidence.c), then the
 * overall ratio and the sizes and rounds judged. */
static void gd_ok_evidence(struct gd_vctx *v, struct json_object *ev)
{
	struct json_object *same = gd_assess_lines(v, "not_below");

	for (size_t i = 0; same && i < gd_json_len(same); i++)
		json_object_array_add(ev,
				      json_object_get(gd_json_idx(same, i)));
	json_object_put(same);
}

/* Only host memory passed: how to bring device memory into the test, in
 * its backend's words. */
static void gd_emit_host_only(struct gd_vctx *v, struct json_object *ev)
{
	const char *example = v->gates->device.example;
	struct gd_sbuf sb = { .len = 0 };

	gd_sb_add(
		&sb,
		"Configure device memory (--mem%s%s; phases HH,DD by default) to test the GPU path.",
		example ? "=" : "", example ?: "");
	gd_emit(v, GD_SEV_INFO, GD_V_OK_HOST_ONLY,
		"host-memory path only: says nothing about GPU memory", ev,
		sb.buf);
}

/*
 * "D slower" only where the assessment found evidence (evidence.c): a
 * band's or a size's interval below the floor at the run's Holm-adjusted
 * level. Where it could not tell, say so, with what would settle it.
 */
static void gd_judge_speed(struct gd_vctx *v)
{
	bool lat = gd_doc_is_lat(v->doc);
	struct json_object *slow = gd_assess_lines(v, "slower");
	struct json_object *unsure = gd_assess_lines(v, "inconclusive");
	unsigned int need = 0;
	char next[320], summary[GD_SBUF_LEN + 160];

	if (slow)
		gd_emit(v, GD_SEV_WARNING, GD_V_GPU_SLOWER,
			gd_slower_summary(v, lat, summary, sizeof(summary)),
			slow,
			"Check GPU/NIC locality and the path class between them (PIX/PXB expected; PHB, NODE or SYS cost bandwidth: gd_doctor's map), the PCI hierarchy and PCIe link width/speed, and ACS redirect on the bridges in between.");
	if (!unsure)
		return;
	for (size_t i = 0; i < gd_json_len(v->assess); i++) {
		struct json_object *a = gd_json_idx(v->assess, i);
		double n = 0;

		if (!strcmp(gd_json_str(a, "decision") ?: "", "inconclusive") &&
		    gd_json_num(a, "repeats_needed", &n) && n > need)
			need = (unsigned int)n;
	}
	snprintf(
		next, sizeof(next),
		"Rerun with more repeats (--repeat=%u%s) or more iterations per size (-n); on a shared or emulated machine, also on a quieter one.",
		need > 3 ? need : 3, need >= 100 ? " or more" : "");
	/* the directions that were settled are said too, so that every
	 * assessment reaches the reader once */
	gd_ok_evidence(v, unsure);
	gd_emit(v, GD_SEV_INFO, GD_V_INCONCLUSIVE,
		"this run cannot tell whether device (D) memory is slower than the expected ratio: an interval reaches below it, or a band has none (not enough evidence)",
		unsure, next);
}

/* A verdict on moved counters, carrying their record: which phases, sides,
 * sizes and counts, and the HH/device pairs. */
static void gd_emit_moved(struct gd_vctx *v, int sev, const char *code,
			  const char *summary, struct gd_moved *m,
			  const char *next)
{
	struct json_object *o;

	gd_emit(v, sev, code, summary, json_object_get(m->evidence), next);
	o = gd_json_idx(v->out[sev], gd_json_len(v->out[sev]) - 1);
	json_object_object_add(o, "moved", json_object_get(m->moved));
	json_object_object_add(o, "pairs", json_object_get(m->pairs));
	json_object_object_add(o, "against_device_path",
			       json_object_new_boolean(m->against_device));
}

/* The summary, and where the device phase moved more than HH, the words
 * that say so. */
static const char *gd_moved_summary(const struct gd_moved *m, const char *base,
				    char *buf, size_t len)
{
	snprintf(
		buf, len, "%s%s", base,
		m->against_device
			? "; more in a device (D) phase than in HH per byte sent: evidence against the device path"
		: m->pairs
			? "; alike in HH and the device (D) phase, or more in HH: not the device path"
			: "");
	return buf;
}

static const char gd_moved_device_next[] =
	" They moved more with device memory: rerun --phases=HH,DD with --repeat=3 at the sizes named to see whether they follow device memory, then check GPU/NIC locality (gd_doctor's map) and ACS redirect on the bridges in between.";

/* One kind of moved counter and the verdict it makes. */
struct gd_moved_kind {
	const char *key; /* "errors_moved", ... in each phase's record */
	int sev;
	const char *code, *summary, *next;
};

/* The verdict for one kind of counter, when any moved: the summary with
 * the HH/device comparison, and the next check, with the device path's
 * when they moved more with device memory. */
static void gd_judge_moved(struct gd_vctx *v, const struct gd_moved_kind *k)
{
	struct gd_moved m;
	char sum[512], next[768];

	gd_moved_collect(v->phases, k->key, &m);
	if (m.evidence) {
		snprintf(next, sizeof(next), "%s%s", k->next,
			 m.against_device ? gd_moved_device_next : "");
		gd_emit_moved(
			v, k->sev, k->code,
			gd_moved_summary(&m, k->summary, sum, sizeof(sum)), &m,
			next);
	}
	gd_moved_free(&m);
}

static const struct gd_moved_kind gd_moved_errors = {
	"errors_moved", GD_SEV_ERROR, GD_V_ERROR_COUNTERS,
	"error counters moved during the measured windows: suspect the link or fabric, and treat the figures as suspect",
	"Check the link and fabric: cable/transceiver, the switch port's own error counters, link speed/width, and on RoCE pause/PFC and discard counters (ethtool -S); rerun to see whether the named counters keep moving."
};
static const struct gd_moved_kind gd_moved_congestion = {
	"congestion_moved", GD_SEV_WARNING, GD_V_CONGESTION,
	"congestion notification (CNP/ECN) counters moved: congestion control shaped these figures",
	"Check for competing traffic on the ports and the fabric's ECN/CNP settings; rerun on an idle fabric before comparing."
};
static const struct gd_moved_kind gd_moved_retries = {
	"retries_moved", GD_SEV_WARNING, GD_V_RETRANSMISSIONS,
	"the transport retransmitted during the measured windows (retry counters moved): the data arrived, and the figures include the resends (the port check's packets_ratio counts them)",
	"On a fabric, look for loss or reordering on the path (switch port discards, link errors, ECN/PFC settings) and rerun; a few retries under Soft-RoCE emulation are normal."
};

static void gd_judge_counters(struct gd_vctx *v)
{
	gd_judge_moved(v, &gd_moved_errors);
	gd_judge_moved(v, &gd_moved_congestion);
}

/* Retries of the transport (duplicate requests, sequence errors, retry
 * timeouts): not an error, since the data arrived, but the figures paid
 * for the resends. A warning that changes no exit status; said after the
 * scope, so it never hides a GD_OK. */
static void gd_judge_retries(struct gd_vctx *v)
{
	gd_judge_moved(v, &gd_moved_retries);
}

/* Expect-ratio gates the evidence could not decide and whose policy
 * fails them (--gate-undecided=fail): exit status 4, not 3. */
static void gd_judge_undecided(struct gd_vctx *v)
{
	struct json_object *gates = gd_json_path(v->doc, "gates", NULL);
	struct json_object *ev = NULL;
	char buf[160];

	for (size_t i = 0; i < gd_json_len(gates); i++) {
		struct json_object *r = gd_json_idx(gates, i);
		struct gd_sbuf sb = { .len = 0 };
		const char *label = gd_json_str(r, "comparison") ?: "";
		const char *dir = gd_json_str(r, "direction") ?: "";

		if (!json_object_get_boolean(
			    json_object_object_get(r, "undecided")) ||
		    json_object_get_boolean(
			    json_object_object_get(r, "passed")))
			continue;
		gd_sb_add(&sb, "expect_ratio %s %s undecided: ", label, dir);
		for (size_t k = 0; k < gd_json_len(v->assess); k++) {
			struct json_object *a = gd_json_idx(v->assess, k);

			if (!strcmp(gd_json_str(a, "comparison") ?: "",
				    label) &&
			    !strcmp(gd_json_str(a, "direction") ?: "", dir))
				gd_sb_add(&sb, "%s",
					  gd_json_str(a, "evidence") ?: "");
		}
		if (gd_json_str(r, "reason"))
			gd_sb_add(&sb, "%s", gd_json_str(r, "reason"));
		if (!ev)
			ev = json_object_new_array();
		json_object_array_add(ev, json_object_new_string(sb.buf));
	}
	if (!ev)
		return;
	snprintf(
		buf, sizeof(buf),
		"%zu expect-ratio gate(s) undecided: not enough evidence to clear or fail the ratio (exit status 4)",
		gd_json_len(ev));
	gd_emit(v, GD_SEV_ERROR, GD_V_GATE_UNDECIDED, buf, ev,
		"Give the run the design it needs: more rounds (--repeat) or more sizes (-a, --gate-from), or more iterations per size (-n) on a quieter machine; --gate-undecided=pass lets an undecided gate pass.");
}

static void gd_judge_gates(struct gd_vctx *v, struct json_object *gate_ev)
{
	size_t n = gd_json_len(gate_ev);
	struct json_object *ev;
	char buf[128];

	if (n) {
		ev = json_object_new_array();
		for (size_t i = 0; i < n; i++)
			json_object_array_add(
				ev, json_object_get(gd_json_idx(gate_ev, i)));
		snprintf(buf, sizeof(buf),
			 "%zu gate check(s) failed (exit status 3)", n);
		gd_emit(v, GD_SEV_ERROR, GD_V_GATE_FAIL, buf, ev,
			"Read the failing sizes against the HH figures and the other verdicts; a gate above what this path delivers fails by design.");
	}
	gd_judge_undecided(v);
}

/* Paced runs (--rate_limit) prove the path up to the rate, no further:
 * equal bandwidth there is the limiter's, not the paths'. */
static void gd_rate_limit_scope(struct gd_vctx *v, struct gd_sbuf *sum)
{
	struct json_object *r = gd_json_path(v->doc, "test", "rate_limit");
	double rate = 0;

	if (!json_object_is_type(r, json_type_object) ||
	    !gd_json_num(r, "rate", &rate))
		return;
	gd_sb_add(
		sum,
		"; paced to %g %s per initiator (--rate_limit): bandwidth equal to that is the limiter's, not a measure of either path",
		rate, gd_json_str(r, "units") ?: "");
}

/* What the passing phases prove, and nothing more. */
static void gd_judge_scope(struct gd_vctx *v)
{
	struct gd_sbuf sum = { .len = 0 };
	unsigned int ok_hh = 0, ok_dev = 0, n_rev = 0;
	struct json_object *ev = json_object_new_array();

	for (size_t i = 0; i < gd_json_len(v->phases); i++) {
		struct json_object *ph = gd_json_idx(v->phases, i);
		char buf[96];

		snprintf(buf, sizeof(buf), "%s %s %s", gd_phase_placement(ph),
			 gd_phase_direction(ph),
			 gd_json_str(ph, "status") ?: "?");
		json_object_array_add(ev, json_object_new_string(buf));
		if (!gd_phase_ok(ph))
			continue;
		n_rev += strcmp(gd_phase_direction(ph), "forward") != 0;
		if (gd_phase_has_device(ph))
			ok_dev++;
		else
			ok_hh++;
	}
	if (gd_json_len(v->out[GD_SEV_ERROR]) || (!ok_dev && !ok_hh)) {
		if (!ok_dev && !ok_hh && !gd_json_len(v->out[GD_SEV_ERROR]))
			gd_emit(v, GD_SEV_WARNING, GD_V_NO_EVIDENCE,
				"no phase produced a result", ev,
				"Run at least the HH phase; check why the phases were skipped.");
		else
			json_object_put(ev);
		return;
	}
	if (!ok_dev) {
		gd_emit_host_only(v, ev);
		return;
	}
	if (gd_json_len(v->out[GD_SEV_WARNING]) ||
	    gd_json_len(v->out[GD_SEV_INFO])) {
		json_object_put(ev);
		return;
	}
	gd_ok_evidence(v, ev);
	gd_sb_add(
		&sum,
		"all phases passed and device (D) memory is not below the expected ratio of HH");
	if (!ok_hh)
		gd_sb_add(
			&sum,
			"; no host baseline was run, so no ratio was checked");
	if (!n_rev)
		gd_sb_add(
			&sum,
			"; forward direction only (--reverse tests the other)");
	gd_rate_limit_scope(v, &sum);
	gd_emit(v, GD_SEV_INFO, GD_V_OK, sum.buf, ev,
		"None needed; keep this document as the baseline for this GPU/NIC pair and hold later runs against it with gd_compare.");
}

struct json_object *gd_verdicts_build(struct json_object *doc,
				      struct json_object *comparison,
				      const struct gd_gate_cfg *gates,
				      struct json_object *gate_evidence,
				      struct json_object *assess)
{
	struct gd_vctx v = { .doc = doc,
			     .comparison = comparison,
			     .assess = assess,
			     .gates = gates };
	struct json_object *all = json_object_new_array();

	v.phases = gd_json_path(doc, "phases", NULL);
	for (int s = 0; s < 3; s++)
		v.out[s] = json_object_new_array();
	gd_judge_failures(&v);
	gd_emit_failures(&v);
	gd_judge_counters(&v);
	gd_judge_gates(&v, gate_evidence);
	gd_judge_speed(&v);
	gd_judge_scope(&v);
	gd_judge_retries(&v);
	for (int s = 0; s < 3; s++) {
		for (size_t i = 0; i < gd_json_len(v.out[s]); i++)
			json_object_array_add(
				all, json_object_get(gd_json_idx(v.out[s], i)));
		json_object_put(v.out[s]);
	}
	return all;
}
