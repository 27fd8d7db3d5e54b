/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One phase's counter windows summed: every step's delta (one size and
 * round) added into the phase's, and the counters that moved at any step
 * named in the phase's moved lists, so that a retry at the last size
 * reaches the verdicts as surely as one at the first.
 */
#include <config.h>

#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "transport/counters.h"

/* The names in @add's list @key that @acc's lacks join it: a counter that
 * moved at any size moved in the phase (each name once; the phase's delta
 * says by how much). */
static void gd_moved_union(struct json_object *acc, struct json_object *add,
			   const char *key)
{
	struct json_object *al, *bl;

	if (!json_object_object_get_ex(add, key, &bl) ||
	    !json_object_is_type(bl, json_type_array))
		return;
	if (!json_object_object_get_ex(acc, key, &al) ||
	    !json_object_is_type(al, json_type_array)) {
		al = json_object_new_array();
		json_object_object_add(acc, key, al);
	}
	for (size_t i = 0; i < json_object_array_length(bl); i++) {
		struct json_object *b = json_object_array_get_idx(bl, i);
		bool have = false;

		if (!json_object_is_type(b, json_type_string))
			continue;
		for (size_t j = 0; j < json_object_array_length(al) && !have;
		     j++)
			have = !strcmp(
				json_object_get_string(
					json_object_array_get_idx(al, j)),
				json_object_get_string(b));
		if (!have)
			json_object_array_add(al, json_object_get(b));
	}
}

/* "hw_counters_via": the phase's is "sysfs" when any step's was, since
 * that step's closing values were the kernel's copy. */
static void gd_via_merge(struct json_object *acc, struct json_object *add)
{
	struct json_object *b;

	if (json_object_object_get_ex(add, "hw_counters_via", &b) &&
	    json_object_is_type(b, json_type_string) &&
	    !strcmp(json_object_get_string(b), "sysfs"))
		json_object_object_add(acc, "hw_counters_via",
				       json_object_new_string("sysfs"));
}

void gd_counters_merge(struct json_object **acc, struct json_object *add)
{
	struct json_object *ac, *bc;
	static const char *const sums[] = { "tx_bytes", "rx_bytes",
					    "tx_packets", "rx_packets" };
	static const char *const moved[] = { "errors_moved", "retries_moved",
					     "congestion_moved" };

	/* the remote half comes from the peer: anything but the shape the
	 * counters module writes is left out of the sums, never trusted */
	if (!add || !json_object_object_get_ex(add, "counters", &bc) ||
	    !json_object_is_type(bc, json_type_array))
		return;
	if (!*acc) {
		*acc = NULL;
		json_object_deep_copy(add, acc, NULL);
		return;
	}
	gd_via_merge(*acc, add);
	if (!json_object_object_get_ex(*acc, "counters", &ac) ||
	    !json_object_is_type(ac, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(bc); i++) {
		struct json_object *b = json_object_array_get_idx(bc, i), *bn,
				   *bd;

		json_object_object_get_ex(b, "name", &bn);
		json_object_object_get_ex(b, "delta", &bd);
		for (size_t j = 0; j < json_object_array_length(ac); j++) {
			struct json_object *a = json_object_array_get_idx(ac,
									  j),
					   *an, *ad;

			json_object_object_get_ex(a, "name", &an);
			if (!an || !bn ||
			    strcmp(json_object_get_string(an),
				   json_object_get_string(bn)))
				continue;
			json_object_object_get_ex(a, "delta", &ad);
			json_object_set_int64(
				ad, json_object_get_int64(ad) +
					    json_object_get_int64(bd));
		}
	}
	for (size_t i = 0; i < sizeof(sums) / sizeof(sums[0]); i++) {
		struct json_object *a, *b;

		if (json_object_object_get_ex(*acc, sums[i], &a) &&
		    json_object_object_get_ex(add, sums[i], &b) &&
		    json_object_is_type(a, json_type_int) &&
		    json_object_is_type(b, json_type_int))
			json_object_set_int64(a,
					      json_object_get_int64(a) +
						      json_object_get_int64(b));
	}
	for (size_t i = 0; i < sizeof(moved) / sizeof(moved[0]); i++)
		gd_moved_union(*acc, add, moved[i]);
}
