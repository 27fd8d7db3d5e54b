/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_report's files into json-c objects (fleet_read.h): the keep-lists of
 * what the ingest (fleet_ingest.c) and the locality round
 * (fleet_locality.c) read, and json-c's own reading where the pruning
 * reader refuses the text, so that every document reads as before.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tools/cluster/fleet.h"
#include "tools/cluster/fleet_json.h"
#include "tools/cluster/fleet_read.h"

/* A member kept whole, and one kept in part. */
#define WHOLE(key)                                                             \
	{                                                                      \
		key, NULL                                                      \
	}
#define PART(key, sub)                                                         \
	{                                                                      \
		key, sub                                                       \
	}

/* The labels and plan keys of an execution (fleet_ingest.c run_identity,
 * ingest_run). */
#define IDENTITY                                                               \
	WHOLE("round"), WHOLE("step"), WHOLE("repeat"), WHOLE("gpu"),          \
		WHOLE("rail"), WHOLE("direction"), WHOLE("server_a"),          \
		WHOLE("server_b")

static const struct gd_fleet_keep labels_keep[] = {
	WHOLE("exec"),
	WHOLE("check"),
	IDENTITY,
	WHOLE(NULL),
};
/* A round of a row (--repeat): its number and figure. */
static const struct gd_fleet_keep sample_keep[] = {
	WHOLE("repeat"),
	WHOLE("bw_avg_MiBps"),
	WHOLE("lat_typical_us"),
	WHOLE(NULL),
};
static const struct gd_fleet_keep row_keep[] = {
	WHOLE("size_bytes"),
	WHOLE("bw_avg_MiBps"),
	WHOLE("lat_typical_us"),
	PART("samples", sample_keep),
	WHOLE(NULL),
};
static const struct gd_fleet_keep precision_keep[] = {
	WHOLE("looks"),
	WHOLE(NULL),
};
static const struct gd_fleet_keep phase_keep[] = {
	WHOLE("name"),	WHOLE("status"),
	WHOLE("error"), PART("results", row_keep),
	WHOLE(NULL),
};
static const struct gd_fleet_keep test_keep[] = {
	WHOLE("measure"),
	WHOLE(NULL),
};
static const struct gd_fleet_keep header_keep[] = {
	WHOLE("device"),
	WHOLE("memory_choice"),
	WHOLE("d2_memory_choice"),
	WHOLE(NULL),
};
/* A run document; a gd_doctor document's envelope (at the top level or
 * under "envelope", ingest_envelope) is kept whole. */
static const struct gd_fleet_keep doc_keep[] = {
	WHOLE("schema"),
	WHOLE("tool"),
	WHOLE("role"),
	WHOLE("exit_status"),
	WHOLE("error"),
	PART("labels", labels_keep),
	PART("test", test_keep),
	PART("phases", phase_keep),
	PART("header", header_keep),
	WHOLE("statistics"),
	PART("precision", precision_keep),
	WHOLE("hostname"),
	WHOLE("envelope"),
	WHOLE("findings"),
	WHOLE("topology"),
	WHOLE("host"),
	WHOLE(NULL),
};

static const struct gd_fleet_keep assoc_keep[] = {
	WHOLE("rail"),
	WHOLE(NULL),
};
static const struct gd_fleet_keep host_keep[] = {
	WHOLE("name"),
	PART("associations", assoc_keep),
	WHOLE(NULL),
};
static const struct gd_fleet_keep config_keep[] = {
	WHOLE("gpus_per_server"),
	WHOLE("rails"),
	WHOLE(NULL),
};
/* A plan but its executions, read one at a time by gd_fleet_plan_each. */
static const struct gd_fleet_keep plan_keep[] = {
	WHOLE("schema"),
	PART("config", config_keep),
	PART("hosts", host_keep),
	WHOLE(NULL),
};
static const struct gd_fleet_keep exec_keep[] = {
	WHOLE("id"),
	IDENTITY,
	WHOLE(NULL),
};

int gd_fleet_reader_init(struct gd_fleet_reader *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->tok = json_tokener_new();
	return rd->tok ? 0 : -ENOMEM;
}

void gd_fleet_reader_free(struct gd_fleet_reader *rd)
{
	if (rd->tok)
		json_tokener_free(rd->tok);
	free(rd->buf);
	memset(rd, 0, sizeof(*rd));
}

/* The whole file into rd->buf, its length into *@len. */
static int read_all(struct gd_fleet_reader *rd, int fd, size_t *len)
{
	ssize_t n;
	char *grown;

	*len = 0;
	for (;;) {
		if (*len == rd->cap) {
			grown = gd_fleet_grow(rd->buf, &rd->cap, *len, 1);
			if (!grown)
				return -ENOMEM;
			rd->buf = grown;
		}
		n = read(fd, rd->buf + *len, rd->cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		*len += (size_t)n;
	}
}

/* What json-c makes of the text: the document, or why not. */
static struct json_object *parse_whole(struct gd_fleet_reader *rd, size_t len,
				       char *why, size_t why_len)
{
	struct json_object *doc;
	enum json_tokener_error jerr;

	json_tokener_reset(rd->tok);
	doc = json_tokener_parse_ex(rd->tok, rd->buf, (int)len);
	jerr = json_tokener_get_error(rd->tok);
	if (doc && jerr == json_tokener_success)
		return doc;
	json_object_put(doc);
	if (jerr == json_tokener_continue || jerr == json_tokener_success)
		snprintf(why, why_len,
			 "not valid JSON: it ends early, after %zu bytes "
			 "(truncated? was the run killed while writing it?)",
			 len);
	else
		snprintf(why, why_len, "not valid JSON: %s at byte %zu",
			 json_tokener_error_desc(jerr),
			 json_tokener_get_parse_end(rd->tok));
	return NULL;
}

struct json_object *gd_fleet_read_doc(struct gd_fleet_reader *rd,
				      const char *path, char *why,
				      size_t why_len)
{
	/* no access time written back per document where the file is ours */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOATIME), ret;
	struct json_object *doc;
	size_t len;

	if (fd < 0 && errno == EPERM)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, why_len, "cannot open it: %s", strerror(errno));
		return NULL;
	}
	ret = read_all(rd, fd, &len);
	close(fd);
	if (ret || len > INT_MAX) {
		snprintf(why, why_len, "cannot read it: %s",
			 len > INT_MAX ? "larger than 2 GiB" : strerror(-ret));
		return NULL;
	}
	if (!gd_fleet_json_read(rd->buf, len, doc_keep, &doc))
		return doc;
	return parse_whole(rd, len, why, why_len);
}

/* The plan's text mapped and read but for its executions; json-c's
 * json_object_from_file() where that fails. */
int gd_fleet_read_plan(const char *path, struct gd_fleet_plan_text *pt)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	memset(pt, 0, sizeof(*pt));
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uintmax_t)st.st_size <= SIZE_MAX) {
		pt->len = (size_t)st.st_size;
		pt->map = mmap(NULL, pt->len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (pt->map == MAP_FAILED)
			pt->map = NULL;
	}
	if (fd >= 0)
		close(fd);
	if (pt->map &&
	    !gd_fleet_json_read(pt->map, pt->len, plan_keep, &pt->root))
		return 0;
	gd_fleet_plan_text_free(pt);
	pt->root = json_object_from_file(path);
	return pt->root ? 0 : -EINVAL;
}

int gd_fleet_plan_each(const struct gd_fleet_plan_text *pt,
		       int (*fn)(void *ctx, struct json_object *exec),
		       void *ctx)
{
	struct json_object *ex;
	size_t i, n;
	int ret = 0;

	if (pt->map)
		return gd_fleet_json_each(pt->map, pt->len, "executions",
					  exec_keep, fn, ctx);
	if (!json_object_object_get_ex(pt->root, "executions", &ex) ||
	    !json_object_is_type(ex, json_type_array))
		return 0;
	n = json_object_array_length(ex);
	for (i = 0; !ret && i < n; i++)
		ret = fn(ctx, json_object_array_get_idx(ex, i));
	return ret;
}

void gd_fleet_plan_text_free(struct gd_fleet_plan_text *pt)
{
	if (pt->map)
		munmap(pt->map, pt->len);
	json_object_put(pt->root);
	memset(pt, 0, sizeof(*pt));
}
