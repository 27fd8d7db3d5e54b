/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for gd_doctor --topology-xml (and --rails): the input is
 * an hwloc XML topology, optionally followed by a NUL byte and a rails
 * file. The envelope is collected from them as gd_doctor --root does, over
 * an empty root, so only the topology and its GPU-to-NIC map vary.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "envelope/envelope.h"
#include "util/error.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char root[512];
	struct gd_envelope_opts opts = { 0 };
	struct gd_fuzz_chunk c[2];
	char xml[512], rails[512];
	struct json_object *env = NULL;
	size_t n = gd_fuzz_split(data, size, c, 2);

	if (!root[0]) {
		snprintf(root, sizeof(root), "%s/root", gd_fuzz_scratch());
		if (mkdir(root, 0700))
			abort();
	}
	gd_fuzz_write("topo.xml", &c[0], xml, sizeof(xml));
	opts.root = root;
	opts.topology_xml = xml;
	if (n == 2) {
		gd_fuzz_write("rails.txt", &c[1], rails, sizeof(rails));
		opts.rails_path = rails;
	}
	gd_err_clear();
	if (!gd_envelope_collect(&opts, &env))
		gd_envelope_worst(env);
	json_object_put(env);
	return 0;
}
