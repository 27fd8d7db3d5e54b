/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the tolerant readers of a run document
 * (report/doc_read.c): the input is one JSON document; every phase is read
 * as the comparison and the verdicts read it, and the bounded evidence
 * builder is fed the strings it holds until it overflows.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/doc_read.h"
#include "util/json_get.h"

static void gd_fuzz_phase(struct json_object *ph, struct gd_sbuf *sb)
{
	const char *pl = gd_phase_placement(ph), *dir = gd_phase_direction(ph);

	if (!pl || !dir)
		abort();
	gd_sb_add(sb, "%s%s %s %d%d; ", pl,
		  strcmp(dir, "forward") ? ":rev" : "", dir, gd_phase_ok(ph),
		  gd_phase_has_device(ph));
	if (sb->len >= sizeof(sb->buf) || strlen(sb->buf) != sb->len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gd_sbuf sb = { .len = 0 };
	struct json_object *doc, *phases;
	struct json_tokener *tok;
	size_t i, n;

	tok = json_tokener_new();
	if (!tok || size > INT32_MAX)
		goto out;
	doc = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	if (!doc)
		goto out;
	gd_doc_is_lat(doc);
	phases = gd_json_path(doc, "phases", NULL);
	n = json_object_is_type(phases, json_type_array)
		    ? json_object_array_length(phases)
		    : 0;
	/* Each phase twice: the builder must stay bounded once full. */
	for (i = 0; i < 2 * n; i++)
		gd_fuzz_phase(json_object_array_get_idx(phases, i % n), &sb);
	/* A phase may also be any other JSON value. */
	gd_fuzz_phase(doc, &sb);
	json_object_put(doc);
out:
	json_tokener_free(tok);
	return 0;
}
