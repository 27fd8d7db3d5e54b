/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Port counter snapshots from a sysfs-like tree and their deltas as JSON.
 * Reading is forgiving (a file that cannot be read becomes a note) because
 * counters are evidence next to a measurement, not a precondition for it.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "transport/counters.h"
#include "transport/counters_nl.h"
#include "util/error.h"

#define GD_COUNTER_NAME_MAX 64
#define GD_COUNTER_NOTES_MAX 16
#define GD_COUNTER_NOTE_LEN 192
/* sysfs counter files hold one number; anything longer is not a counter. */
#define GD_COUNTER_FILE_MAX 64

enum gd_counter_group { GD_GROUP_COUNTERS, GD_GROUP_HW };

static const char *const gd_group_dir[] = {
	[GD_GROUP_COUNTERS] = "counters",
	[GD_GROUP_HW] = "hw_counters",
};

struct gd_counter_val {
	enum gd_counter_group group;
	char name[GD_COUNTER_NAME_MAX];
	uint64_t value;
};

struct gd_counter_snap {
	struct gd_counter_val *vals;
	unsigned int n, cap;
	unsigned int n_notes;
	char notes[GD_COUNTER_NOTES_MAX][GD_COUNTER_NOTE_LEN];
	bool hw_fresh; /* hw_counters read over netlink, not sysfs's copy */
};

/* Files in hw_counters/ that are settings, not counters. */
static const char *const gd_counter_settings[] = { "lifespan" };

static const char *const gd_counter_errors[] = {
	"symbol_error",
	"port_rcv_errors",
	"link_downed",
	"link_error_recovery",
	"local_link_integrity_errors",
	"excessive_buffer_overrun_errors",
	"port_xmit_discards",
	"port_rcv_remote_physical_errors",
	"port_rcv_switch_relay_errors",
	"port_xmit_constraint_errors",
	"port_rcv_constraint_errors",
	"out_of_buffer",
	"out_of_sequence",
};

/*
 * rxe counts every recovered retransmission in these; under emulation they
 * move on a clean loopback, so they are shown but are not link faults.
 */
static const char *const gd_counter_retries[] = {
	"completer_retry_err", "duplicate_request", "out_of_seq_request",
	"rcvd_rnr_err",	       "rcvd_seq_err",	    "send_rnr_err",
	"ack_deferred",
};

static const char *const gd_counter_congestion[] = {
	"np_cnp_sent",
	"rp_cnp_handled",
	"rp_cnp_ignored",
	"np_ecn_marked_roce_packets",
};

static bool gd_name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

#define GD_NAME_IN(name, list)                                                 \
	gd_name_in(name, list, sizeof(list) / sizeof((list)[0]))

static bool gd_has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static bool gd_is_word_counter(const char *name)
{
	return !strcmp(name, "port_xmit_data") ||
	       !strcmp(name, "port_rcv_data");
}

enum gd_counter_class gd_counter_classify(const char *name)
{
	if (GD_NAME_IN(name, gd_counter_retries))
		return GD_COUNTER_RETRY;
	if (GD_NAME_IN(name, gd_counter_congestion))
		return GD_COUNTER_CONGESTION;
	if (GD_NAME_IN(name, gd_counter_errors) || gd_has_suffix(name, "_err"))
		return GD_COUNTER_ERROR;
	if (gd_is_word_counter(name) || strstr(name, "packets") ||
	    strstr(name, "pkts"))
		return GD_COUNTER_TRAFFIC;
	return GD_COUNTER_OTHER;
}

const char *gd_counter_class_name(enum gd_counter_class cls)
{
	switch (cls) {
	case GD_COUNTER_TRAFFIC:
		return "traffic";
	case GD_COUNTER_ERROR:
		return "error";
	case GD_COUNTER_RETRY:
		return "retry";
	case GD_COUNTER_CONGESTION:
		return "congestion";
	default:
		return "other";
	}
}

bool gd_counter_is_error(const char *name)
{
	return gd_counter_classify(name) == GD_COUNTER_ERROR;
}

const char *gd_counter_unit(const char *name)
{
	if (gd_is_word_counter(name))
		return "bytes";
	if (strstr(name, "packets") || strstr(name, "pkts"))
		return "packets";
	return "count";
}

const char *gd_counters_root(const char *option_value)
{
	const char *env;

	if (option_value && option_value[0])
		return option_value;
	env = getenv("GD_COUNTERS_ROOT");
	if (env && env[0])
		return env;
	return GD_COUNTERS_DEFAULT_ROOT;
}

int gd_counters_parse_u64(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = text;

	if (!*p || *p == '\n')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

static void gd_snap_note(struct gd_counter_snap *snap, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void gd_snap_note(struct gd_counter_snap *snap, const char *fmt, ...)
{
	va_list ap;

	if (snap->n_notes >= GD_COUNTER_NOTES_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(snap->notes[snap->n_notes++], GD_COUNTER_NOTE_LEN, fmt, ap);
	va_end(ap);
}

static int gd_snap_add(struct gd_counter_snap *snap, enum gd_counter_group g,
		       const char *name, uint64_t value)
{
	struct gd_counter_val *v;

	if (snap->n == snap->cap) {
		unsigned int cap = snap->cap ? snap->cap * 2 : 64;

		v = realloc(snap->vals, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		snap->vals = v;
		snap->cap = cap;
	}
	v = &snap->vals[snap->n++];
	v->group = g;
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->value = value;
	return 0;
}

/* Read one counter file; on any problem leave a note and return false. */
static bool gd_read_counter(struct gd_counter_snap *snap, int dirfd,
			    const char *dir, const char *name, uint64_t *value)
{
	char buf[GD_COUNTER_FILE_MAX + 1];
	ssize_t len;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		gd_snap_note(snap, "%s/%s: not read (%s)", dir, name,
			     strerror(errno));
		return false;
	}
	len = read(fd, buf, GD_COUNTER_FILE_MAX);
	ret = len < 0 ? -errno : 0;
	close(fd);
	if (ret) {
		gd_snap_note(snap, "%s/%s: not read (%s)", dir, name,
			     strerror(-ret));
		return false;
	}
	buf[len] = '\0';
	ret = gd_counters_parse_u64(buf, value);
	if (ret)
		gd_snap_note(snap,
			     "%s/%s: not an unsigned decimal counter, skipped",
			     dir, name);
	return ret == 0;
}

static int gd_snap_read_dir(struct gd_counter_snap *snap, const char *port_dir,
			    enum gd_counter_group g)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	uint64_t value;
	int ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", port_dir, gd_group_dir[g]);
	d = opendir(path);
	if (!d) {
		/* rxe has no counters/: absence is normal, other failures noted
		 */
		if (errno != ENOENT)
			gd_snap_note(snap, "%s: not readable (%s)", path,
				     strerror(errno));
		return 0;
	}
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= GD_COUNTER_NAME_MAX ||
		    GD_NAME_IN(de->d_name, gd_counter_settings))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, 0) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (gd_read_counter(snap, dirfd(d), gd_group_dir[g], de->d_name,
				    &value))
			ret = gd_snap_add(snap, g, de->d_name, value);
	}
	closedir(d);
	return ret;
}

static int gd_snap_nl_add(const char *name, uint64_t value, void *arg)
{
	struct gd_counter_snap *snap = arg;

	if (strlen(name) >= GD_COUNTER_NAME_MAX ||
	    GD_NAME_IN(name, gd_counter_settings))
		return 0;
	return gd_snap_add(snap, GD_GROUP_HW, name, value)
		       ? gd_err(-ENOMEM, "out of memory")
		       : 0;
}

/* Netlink for the real sysfs only: a fixture tree (--counters-root,
 * GD_COUNTERS_ROOT) is read as files, and GD_COUNTERS_NETLINK=0 opts out. */
static bool gd_counters_use_nl(const char *root)
{
	const char *env = getenv("GD_COUNTERS_NETLINK");

	return !strcmp(root, GD_COUNTERS_DEFAULT_ROOT) &&
	       !(env && !strcmp(env, "0"));
}

/* hw_counters/: over netlink where that works (current values), else the
 * files (a copy up to "lifespan" ms old; the step waits for it). Only a
 * port that has the directory is asked, so a device without hw counters
 * costs no note. */
static int gd_snap_read_hw(struct gd_counter_snap *snap, const char *root,
			   const char *device, int port, const char *port_dir)
{
	unsigned int n0 = snap->n;
	char path[4096];
	struct stat st;
	int ret;

	if (gd_counters_use_nl(root) &&
	    snprintf(path, sizeof(path), "%s/%s", port_dir,
		     gd_group_dir[GD_GROUP_HW]) < (int)sizeof(path) &&
	    !stat(path, &st) && S_ISDIR(st.st_mode)) {
		ret = gd_counters_nl_read(device, port, gd_snap_nl_add, snap);
		if (!ret) {
			snap->hw_fresh = true;
			return 0;
		}
		if (ret == -ENOMEM)
			return ret;
		snap->n = n0;
		gd_snap_note(
			snap,
			"hw_counters over RDMA netlink: %s; read from sysfs instead, whose copy can be up to its lifespan old (the step waits for it)",
			gd_err_msg());
		gd_err_clear();
	}
	return gd_snap_read_dir(snap, port_dir, GD_GROUP_HW);
}

static int gd_counter_val_cmp(const void *a, const void *b)
{
	const struct gd_counter_val *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

int gd_counters_snapshot(const char *root, const char *device, int port,
			 struct gd_counter_snap **out)
{
	struct gd_counter_snap *snap;
	char port_dir[4096];
	struct stat st;
	int ret;

	*out = NULL;
	if (!root || !device || !device[0] || strchr(device, '/') ||
	    !strcmp(device, "..") || port < 1)
		return gd_err(
			-EINVAL,
			"counters: invalid device '%s' or port %d: give an RDMA device name (ibv_devices) and a port from 1",
			device ? device : "(null)", port);
	snap = calloc(1, sizeof(*snap));
	if (!snap)
		return gd_err(-ENOMEM, "counters: out of memory for %s port %d",
			      device, port);
	snprintf(port_dir, sizeof(port_dir), "%s/%s/ports/%d", root, device,
		 port);
	if (stat(port_dir, &st) || !S_ISDIR(st.st_mode)) {
		gd_snap_note(
			snap,
			"%s: no such port directory; check the device name, port and --counters-root",
			port_dir);
		*out = snap;
		return 0;
	}
	ret = gd_snap_read_dir(snap, port_dir, GD_GROUP_COUNTERS);
	if (!ret)
		ret = gd_snap_read_hw(snap, root, device, port, port_dir);
	if (ret) {
		gd_counters_free(snap);
		return gd_err(ret, "counters: out of memory reading %s",
			      port_dir);
	}
	if (snap->n)
		qsort(snap->vals, snap->n, sizeof(*snap->vals),
		      gd_counter_val_cmp);
	*out = snap;
	return 0;
}

void gd_counters_free(struct gd_counter_snap *snap)
{
	if (!snap)
		return;
	free(snap->vals);
	free(snap);
}

bool gd_counters_fresh(const struct gd_counter_snap *snap)
{
	return snap && snap->hw_fresh;
}

unsigned int gd_counters_count(const struct gd_counter_snap *snap)
{
	return snap ? snap->n : 0;
}

static const struct gd_counter_val *
gd_snap_find(const struct gd_counter_snap *snap,
	     const struct gd_counter_val *key)
{
	if (!snap->n)
		return NULL;
	return bsearch(key, snap->vals, snap->n, sizeof(*snap->vals),
		       gd_counter_val_cmp);
}

/* Normalised traffic fields: mlx5-style counters/ first, rxe names next. */
struct gd_traffic {
	bool has_tx_words, has_rx_words, has_tx_pkts, has_rx_pkts;
	uint64_t tx_bytes, rx_bytes, tx_pkts, rx_pkts;
};

static void gd_traffic_note(struct gd_traffic *t, const char *name,
			    uint64_t delta)
{
	if (!strcmp(name, "port_xmit_data")) {
		t->has_tx_words = true;
		t->tx_bytes = delta * 4;
	} else if (!strcmp(name, "port_rcv_data")) {
		t->has_rx_words = true;
		t->rx_bytes = delta * 4;
	} else if (!strcmp(name, "port_xmit_packets") ||
		   (!strcmp(name, "sent_pkts") && !t->has_tx_pkts)) {
		t->has_tx_pkts = true;
		t->tx_pkts = delta;
	} else if (!strcmp(name, "port_rcv_packets") ||
		   (!strcmp(name, "rcvd_pkts") && !t->has_rx_pkts)) {
		t->has_rx_pkts = true;
		t->rx_pkts = delta;
	}
}

static struct json_object *gd_u64_or_null(bool has, uint64_t v)
{
	/* int64 keeps json-c 0.13 compatible; no real delta reaches 2^63 */
	return has ? json_object_new_int64(v > INT64_MAX ? INT64_MAX
							 : (int64_t)v)
		   : NULL;
}

static struct json_object *gd_counter_entry(const struct gd_counter_val *v,
					    bool has_delta, uint64_t delta)
{
	struct json_object *e = json_object_new_object();
	enum gd_counter_class cls = gd_counter_classify(v->name);

	json_object_object_add(e, "name", json_object_new_string(v->name));
	json_object_object_add(e, "group",
			       json_object_new_string(gd_group_dir[v->group]));
	/* the unit says bytes, so the 4-byte word count is converted here */
	if (gd_is_word_counter(v->name))
		delta *= 4;
	json_object_object_add(e, "delta", gd_u64_or_null(has_delta, delta));
	json_object_object_add(
		e, "unit", json_object_new_string(gd_counter_unit(v->name)));
	json_object_object_add(
		e, "error", json_object_new_boolean(cls == GD_COUNTER_ERROR));
	json_object_object_add(
		e, "class", json_object_new_string(gd_counter_class_name(cls)));
	return e;
}

static void gd_delta_notes(struct json_object *notes,
			   const struct gd_counter_snap *s)
{
	for (unsigned int i = 0; i < s->n_notes; i++)
		json_object_array_add(notes,
				      json_object_new_string(s->notes[i]));
}

static void gd_json_note(struct json_object *notes,
			 const struct gd_counter_val *v, const char *what)
{
	char buf[GD_COUNTER_NOTE_LEN];

	snprintf(buf, sizeof(buf), "%s/%s: %s", gd_group_dir[v->group], v->name,
		 what);
	json_object_array_add(notes, json_object_new_string(buf));
}

static void gd_delta_moved(struct json_object *out, const char *name,
			   uint64_t delta)
{
	const char *key;

	if (!delta)
		return;
	switch (gd_counter_classify(name)) {
	case GD_COUNTER_ERROR:
		key = "errors_moved";
		break;
	case GD_COUNTER_RETRY:
		key = "retries_moved";
		break;
	case GD_COUNTER_CONGESTION:
		key = "congestion_moved";
		break;
	default:
		return;
	}
	json_object_array_add(json_object_object_get(out, key),
			      json_object_new_string(name));
}

static void gd_delta_traffic(struct json_object *out,
			     const struct gd_traffic *t)
{
	json_object_object_add(out, "tx_bytes",
			       gd_u64_or_null(t->has_tx_words, t->tx_bytes));
	json_object_object_add(out, "rx_bytes",
			       gd_u64_or_null(t->has_rx_words, t->rx_bytes));
	json_object_object_add(out, "tx_packets",
			       gd_u64_or_null(t->has_tx_pkts, t->tx_pkts));
	json_object_object_add(out, "rx_packets",
			       gd_u64_or_null(t->has_rx_pkts, t->rx_pkts));
}

/* How the window's hw_counters were read: "netlink" (current values at
 * both ends), "sysfs" (the kernel's copy at one end at least), or null
 * (the port has none). */
static struct json_object *gd_hw_via(const struct gd_counter_snap *before,
				     const struct gd_counter_snap *after)
{
	bool any = false;

	for (unsigned int i = 0; i < after->n && !any; i++)
		any = after->vals[i].group == GD_GROUP_HW;
	if (!any)
		return NULL;
	return json_object_new_string(
		before->hw_fresh && after->hw_fresh ? "netlink" : "sysfs");
}

int gd_counters_delta(const struct gd_counter_snap *before,
		      const struct gd_counter_snap *after,
		      struct json_object **out)
{
	struct json_object *doc, *list, *notes;
	struct gd_traffic t = { 0 };

	*out = NULL;
	if (!before || !after)
		return gd_err(-EINVAL, "counters: delta needs two snapshots");
	doc = json_object_new_object();
	list = json_object_new_array();
	notes = json_object_new_array();
	json_object_object_add(doc, "counters", list);
	json_object_object_add(doc, "errors_moved", json_object_new_array());
	json_object_object_add(doc, "retries_moved", json_object_new_array());
	json_object_object_add(doc, "congestion_moved",
			       json_object_new_array());
	gd_delta_notes(notes, before);
	gd_delta_notes(notes, after);
	for (unsigned int i = 0; i < after->n; i++) {
		const struct gd_counter_val *a = &after->vals[i];
		const struct gd_counter_val *b = gd_snap_find(before, a);
		uint64_t delta = 0;
		bool ok;

		if (!b) {
			gd_json_note(notes, a,
				     "absent before the window, skipped");
			continue;
		}
		ok = a->value >= b->value;
		if (!ok)
			gd_json_note(
				notes, a,
				"went backwards (reset during the window?), delta null");
		if (ok) {
			delta = a->value - b->value;
			gd_traffic_note(&t, a->name, delta);
			gd_delta_moved(doc, a->name, delta);
		}
		json_object_array_add(list, gd_counter_entry(a, ok, delta));
	}
	gd_delta_traffic(doc, &t);
	json_object_object_add(doc, "hw_counters_via",
			       gd_hw_via(before, after));
	json_object_object_add(doc, "notes", notes);
	*out = doc;
	return 0;
}

unsigned int gd_counters_lifespan_ms(const char *root, const char *device,
				     int port)
{
	char path[512], text[32];
	uint64_t ms = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/ports/%d/hw_counters/lifespan",
		 root, device, port);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(text, sizeof(text), f)) {
		text[strcspn(text, "\n")] = '\0';
		if (gd_counters_parse_u64(text, &ms) || ms > 10000)
			ms = 0;
	}
	fclose(f);
	return (unsigned int)ms;
}
