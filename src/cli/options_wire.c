/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The options on the side channel: the travelling fields as a JSON object
 * (client), their strict validation and adoption (server), and the "test"
 * section of the JSON document with unit-bearing keys.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "util/error.h"
#include "cli/options_priv.h"
#include "engine/pace.h"

static struct json_object *gd_opt_value_json(const struct gd_opt_def *d,
					     const struct gd_opts *o)
{
	const char *base = (const char *)o + d->offset;

	switch (d->type) {
	case GD_T_FLAG:
		return json_object_new_boolean(*(const bool *)base);
	case GD_T_U64:
	case GD_T_SIZE:
		return json_object_new_uint64(*(const uint64_t *)base);
	case GD_T_I64:
		return json_object_new_int64(*(const int64_t *)base);
	case GD_T_DBL:
		return json_object_new_double(*(const double *)base);
	case GD_T_STR:
	case GD_T_JSONOPT: {
		const char *s = *(char *const *)base;

		return s ? json_object_new_string(s) : NULL;
	}
	case GD_T_CONN:
		return json_object_new_string(
			gd_conn_names[*(const enum gd_conn *)base]);
	case GD_T_ATOMIC:
		return json_object_new_string(
			gd_atomic_names[*(const enum gd_atomic_op *)base]);
	case GD_T_OUTPUT:
	case GD_T_LABEL:
	case GD_T_HELP: /* never travels, never in the document */
		break;
	}
	return NULL;
}

struct json_object *gd_opts_to_wire(const struct gd_test *test,
				    const struct gd_opts *o)
{
	struct json_object *w = json_object_new_object();

	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		if (d->flags & GD_F_TRAVELS)
			json_object_object_add(w, d->long_name,
					       gd_opt_value_json(d, o));
	}
	return w;
}

/* Render a value (ours or theirs) for a REJECT message. */
static void gd_json_text(struct json_object *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s",
		 v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN)
		   : "(unset)");
}

static int gd_wire_store(const struct gd_opt_def *d, struct gd_opts *o,
			 struct json_object *v)
{
	enum json_type t = v ? json_object_get_type(v) : json_type_null;
	char text[64];

	switch (d->type) {
	case GD_T_FLAG:
		if (t != json_type_boolean)
			return -EPROTO;
		*(bool *)((char *)o + d->offset) = json_object_get_boolean(v);
		return 0;
	case GD_T_STR:
		if (t == json_type_null) {
			free(*(char **)((char *)o + d->offset));
			*(char **)((char *)o + d->offset) = NULL;
			return 0;
		}
		if (t != json_type_string)
			return -EPROTO;
		return gd_opt_store(d, o, json_object_get_string(v));
	case GD_T_U64:
	case GD_T_SIZE:
	case GD_T_I64:
		if (t != json_type_int)
			return -EPROTO;
		if (json_object_get_int64(v) < 0 && d->type != GD_T_I64)
			return -EPROTO;
		/* 0 is how an unset optional number (-D) travels */
		if (json_object_get_int64(v) == 0 && d->min > 0 &&
		    *(uint64_t *)((char *)o + d->offset) == 0)
			return 0;
		snprintf(text, sizeof(text), "%" PRIu64,
			 json_object_get_uint64(v));
		return gd_opt_store(d, o, text);
	case GD_T_DBL:
		if (t != json_type_double && t != json_type_int)
			return -EPROTO;
		snprintf(text, sizeof(text), "%.17g",
			 json_object_get_double(v));
		return gd_opt_store(d, o, text);
	case GD_T_CONN:
	case GD_T_ATOMIC:
		if (t != json_type_string)
			return -EPROTO;
		return gd_opt_store(d, o, json_object_get_string(v));
	default:
		return -EPROTO;
	}
}

int gd_opts_from_wire(const struct gd_test *test, struct gd_opts *o,
		      struct json_object *wire, char *field, size_t field_len,
		      char *ours, char *theirs, size_t val_len)
{
	int count = 0;

	if (!json_object_is_type(wire, json_type_object))
		return gd_err(
			-EPROTO,
			"test description from the peer is not an object");
	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];
		struct json_object *v, *mine;
		int ret;

		if (!(d->flags & GD_F_TRAVELS))
			continue;
		count++;
		snprintf(field, field_len, "%s", d->long_name);
		if (!json_object_object_get_ex(wire, d->long_name, &v)) {
			snprintf(ours, val_len, "present");
			snprintf(theirs, val_len, "missing");
			return gd_err(
				-EPROTO,
				"peer's test description lacks field '%s'",
				d->long_name);
		}
		mine = gd_opt_value_json(d, o);
		gd_json_text(mine, ours, val_len);
		gd_json_text(v, theirs, val_len);
		json_object_put(mine);
		if (gd_is_given(o, i)) {
			if (strcmp(ours, theirs))
				return gd_err(
					-EINVAL,
					"option mismatch: --%s is %s here but %s on the peer; start both ends with the same value",
					d->long_name, ours, theirs);
			continue;
		}
		ret = gd_wire_store(d, o, v);
		if (ret)
			return gd_err(
				ret, "peer's value %s for --%s is invalid here",
				theirs, d->long_name);
	}
	if (json_object_object_length(wire) != count) {
		snprintf(field, field_len, "(fields)");
		snprintf(ours, val_len, "%d", count);
		snprintf(theirs, val_len, "%d",
			 json_object_object_length(wire));
		return gd_err(
			-EPROTO,
			"peer's test description has %d fields, expected %d: unknown fields (different gdperf version?)",
			json_object_object_length(wire), count);
	}
	field[0] = '\0';
	return gd_opts_validate(test, o);
}

/* Entry @i is the first string option of its field, the one that owns
 * its string (gd_opts_free frees it once). */
static bool gd_wire_str_owner(size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (gd_opt_table[k].type == GD_T_STR &&
		    gd_opt_table[k].offset == gd_opt_table[i].offset)
			return false;
	return true;
}

static bool gd_copy_str(char **s)
{
	return !*s || (*s = strdup(*s));
}

int gd_opts_copy(struct gd_opts *dst, const struct gd_opts *src)
{
	bool ok = true;

	*dst = *src;
	/* nothing shared: every string and buffer dst owns is its own */
	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		if (d->type == GD_T_STR && gd_wire_str_owner(i))
			ok = gd_copy_str((char **)((char *)dst + d->offset)) &&
			     ok;
	}
	for (unsigned int i = 0; i < dst->num_labels; i++)
		ok = gd_copy_str(&dst->labels[i]) && ok;
	for (unsigned int k = 0; k < dst->num_mem; k++)
		ok = gd_copy_str(&dst->mem_list[k]) && ok;
	ok = gd_copy_str(&dst->server_host) && ok;
	if (src->payload) {
		dst->payload =
			malloc(src->payload_bytes ? src->payload_bytes : 1);
		if (dst->payload)
			memcpy(dst->payload, src->payload, src->payload_bytes);
		ok = dst->payload && ok;
	}
	if (ok)
		return 0;
	/* a failed strdup left NULL there: free the rest */
	gd_opts_free(dst);
	return gd_err(-ENOMEM, "out of memory copying the options");
}

/*
 * The document's key for an option: one style, snake_case, whatever
 * perftest spelled the option ("ib-dev" -> "ib_dev", "noPeak" -> "no_peak",
 * "MGID" -> "mgid", "CPU-freq" -> "cpu_freq"); the command line keeps the
 * perftest names: "options" since gdperf.run/3 (/2 used the option names),
 * "test" since gdperf.run/4 (/3 kept the option names there).
 */
static void gd_opt_json_key(const char *name, char *key, size_t len)
{
	size_t n = 0;

	for (const char *p = name; *p && n + 2 < len; p++) {
		unsigned char c = (unsigned char)*p;

		if (isupper(c) && p > name && islower((unsigned char)p[-1]))
			key[n++] = '_';
		key[n++] = c == '-' ? '_' : (char)tolower(c);
	}
	key[n] = '\0';
}

/* JSON document keys carry their unit; the wire keeps option names. */
static const char *const gd_describe_keys[][2] = {
	{ "size", "size_bytes" },
	{ "iters", "iterations" },
	{ "duration", "duration_s" },
	{ "min-size", "min_size_bytes" },
	{ "max-size", "max_size_bytes" },
	{ "warmup", "warmup_iterations" },
	{ "qp", "qps" },
	{ "mtu", "mtu_bytes" },
	{ "latency_gap", "latency_gap_us" },
};

/* "rate_limit": the limiter as it runs, or null; replaces the three
 * travelling fields it is made of. */
static void gd_rate_describe(const struct gd_opts *o, struct json_object *d)
{
	struct json_object *r = NULL;

	json_object_object_del(d, "rate_units");
	json_object_object_del(d, "burst_size");
	if (o->rate_limit > 0) {
		r = json_object_new_object();
		json_object_object_add(r, "type", json_object_new_string("SW"));
		json_object_object_add(r, "rate",
				       json_object_new_double(o->rate_limit));
		json_object_object_add(r, "units",
				       json_object_new_string(gd_rate_unit_name(
					       o->rate_unit)));
		json_object_object_add(
			r, "burst_msgs",
			json_object_new_uint64(gd_pace_burst_msgs(o)));
	}
	json_object_object_add(d, "rate_limit", r);
}

/* @d with every key in the document's style (gd_opt_json_key), in order;
 * @d is released. */
static struct json_object *gd_describe_snake(struct json_object *d)
{
	struct json_object *out = json_object_new_object();
	char key[64];

	json_object_object_foreach(d, name, v)
	{
		gd_opt_json_key(name, key, sizeof(key));
		json_object_object_add(out, key, json_object_get(v));
	}
	json_object_put(d);
	return out;
}

struct json_object *gd_opts_describe(const struct gd_test *test,
				     const struct gd_opts *o)
{
	struct json_object *d = gd_opts_to_wire(test, o), *v;

	for (size_t i = 0;
	     i < sizeof(gd_describe_keys) / sizeof(gd_describe_keys[0]); i++) {
		if (!json_object_object_get_ex(d, gd_describe_keys[i][0], &v))
			continue;
		json_object_object_add(d, gd_describe_keys[i][1],
				       json_object_get(v));
		json_object_object_del(d, gd_describe_keys[i][0]);
	}

	json_object_object_add(d, "verb",
			       json_object_new_string(test->verb->name));
	json_object_object_add(
		d, "measure",
		json_object_new_string(gd_measure_name(test->measure)));
	json_object_object_add(d, "tx_depth",
			       json_object_new_uint64(o->tx_depth));
	json_object_object_add(d, "rx_depth",
			       json_object_new_uint64(o->rx_depth));
	json_object_object_add(d, "cq_mod", json_object_new_uint64(o->cq_mod));
	json_object_object_add(d, "post_list",
			       json_object_new_uint64(o->post_list));
	json_object_object_add(d, "recv_post_list",
			       json_object_new_uint64(o->recv_post_list));
	json_object_object_add(d, "cqe_poll",
			       json_object_new_uint64(o->cqe_poll));
	json_object_object_add(d, "inline_bytes",
			       json_object_new_uint64(o->inline_bytes));
	json_object_object_add(d, "wait_destroy_s",
			       json_object_new_uint64(o->wait_destroy_s));
	gd_rate_describe(o, d);
	if (o->payload) {
		struct json_object *pl = json_object_new_object();

		json_object_object_add(pl, "file",
				       json_object_new_string(o->payload_path));
		json_object_object_add(
			pl, "bytes", json_object_new_uint64(o->payload_bytes));
		json_object_object_add(
			pl, "sha256",
			json_object_new_string(o->payload_sha256));
		json_object_object_add(d, "payload", pl);
	}
	return gd_describe_snake(d);
}

struct json_object *gd_opts_effective(const struct gd_opts *o)
{
	struct json_object *all = json_object_new_object(), *cfg;
	char key[64];

	for (size_t i = 0; i < GD_NOPTS; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];

		if (d->type == GD_T_LABEL || d->type == GD_T_OUTPUT ||
		    !strcmp(d->long_name, "help") ||
		    !strcmp(d->long_name, "version"))
			continue;
		gd_opt_json_key(d->long_name, key, sizeof(key));
		json_object_object_add(all, key, gd_opt_value_json(d, o));
	}
	if (!o->config_path)
		return all;
	cfg = json_object_new_object();
	json_object_object_add(cfg, "file",
			       json_object_new_string(o->config_path));
	json_object_object_add(cfg, "sha256",
			       json_object_new_string(o->config_sha256));
	json_object_object_add(cfg, "overridden", json_object_new_array());
	for (unsigned int i = 0; i < o->config_overridden_count; i++)
		json_object_array_add(
			json_object_object_get(cfg, "overridden"),
			json_object_new_string(o->config_overridden[i]));
	json_object_object_add(all, "config", cfg);
	return all;
}

const struct gd_opts_ops gd_cli_opts_ops = {
	.to_wire = gd_opts_to_wire,
	.from_wire = gd_opts_from_wire,
	.copy = gd_opts_copy,
	.release = gd_opts_free,
	.effective = gd_opts_effective,
	.describe = gd_opts_describe,
};
