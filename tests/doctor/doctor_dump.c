/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Test helper: parse a gd_doctor --json document back with json-c and print
 * the parts the golden files pin down (map rows, findings, inventory), one
 * canonical line each, or one value by dotted path ("get").
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* Dotted path; a numeric component indexes an array. */
static struct json_object *get(struct json_object *o, const char *path)
{
	char key[128];
	size_t n;

	while (o && *path) {
		n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)atoi(key));
		else if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

static const char *s(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	return v ? json_object_get_string(v) : "null";
}

static size_t len(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_array)
		       ? json_object_array_length(v)
		       : 0;
}

static void dump_map(struct json_object *env)
{
	struct json_object *nics = get(env, "topology.nics");
	size_t i, j, k;
	char p[160];

	for (i = 0; i < len(env, "topology.map"); i++) {
		struct json_object *r =
			json_object_array_get_idx(get(env, "topology.map"), i);

		printf("%s cuda=%s numa=%s class=%s nearest=",
		       s(r, "pci_bus_id"), s(r, "cuda_index"),
		       s(r, "numa_node"), s(r, "path_class"));
		for (k = 0; k < len(r, "nearest"); k++) {
			snprintf(p, sizeof(p), "nearest.%zu", k);
			printf("%s%s:%s", k ? "," : "", s(get(r, p), "device"),
			       s(get(r, p), "port"));
		}
		printf(" rail=%s acs_bridges=%zu paths=", s(r, "rail"),
		       len(r, "acs_path"));
		for (j = 0; j < json_object_array_length(nics); j++) {
			snprintf(p, sizeof(p), "paths.%s",
				 s(json_object_array_get_idx(nics, j),
				   "device"));
			printf("%s%s", j ? "," : "", s(r, p));
		}
		printf("\n");
	}
}

static void dump_findings(struct json_object *env)
{
	struct json_object *f = get(env, "findings");
	size_t i;

	for (i = 0; i < len(env, "findings"); i++) {
		struct json_object *x = json_object_array_get_idx(f, i);

		printf("%s %s %s\n", s(x, "severity"), s(x, "id"),
		       s(x, "subject"));
	}
}

static void dump_inventory(struct json_object *env)
{
	static const char *const paths[] = {
		"host.hostname",
		"host.kernel.release",
		"host.distribution.id",
		"host.distribution.version_id",
		"host.container.detected",
		"host.cgroup.version",
		"host.cgroup.memory_limit_bytes",
		"host.cgroup.cpu_limit_cpus",
		"host.memlock.need_bytes",
		"host.memlock.covers_need",
		"rdma.providers",
		"rdma.devices.0.name",
		"rdma.devices.0.fw_ver",
		"rdma.devices.0.node_guid",
		"rdma.devices.0.pci_bus_id",
		"rdma.devices.0.numa_node",
		"rdma.devices.0.pcie.current_speed_GTps",
		"rdma.devices.0.pcie.current_width",
		"rdma.devices.0.pcie.max_speed_GTps",
		"rdma.devices.0.pcie.max_width",
		"rdma.devices.0.pcie.downgraded",
		"rdma.devices.0.ports.0.state",
		"rdma.devices.0.ports.0.phys_state",
		"rdma.devices.0.ports.0.rate_Gbps",
		"rdma.devices.0.ports.0.width",
		"rdma.devices.0.ports.0.link_layer",
		"rdma.devices.0.ports.0.gids",
		"rdma.devices.1.name",
		"rdma.devices.1.pcie.downgraded",
		"rdma.devices.1.ports.0.state",
		"rdma.devices.1.ports.0.link_layer",
		"rdma.devices.1.ports.0.gids.1.gid",
		"rdma.devices.1.ports.0.gids.1.type",
		"rdma.devices.1.ports.0.gids.1.netdev",
		"gpu.kernel_module.version",
		"gpu.kernel_module.flavour",
		"gpu.peer_memory.nvidia_peermem",
		"gpu.peer_memory.nv_peer_mem",
		"platform.iommu.enabled",
		"platform.iommu.units",
		"platform.iommu.cmdline",
		"platform.iommu.devices.0.mode",
		"platform.iommu.devices.1.mode",
		"topology.source",
		NULL,
	};
	int i;

	for (i = 0; paths[i]; i++)
		printf("%s=%s\n", paths[i],
		       json_object_to_json_string_ext(
			       get(env, paths[i]),
			       JSON_C_TO_STRING_PLAIN |
				       JSON_C_TO_STRING_NOSLASHESCAPE));
}

int main(int argc, char **argv)
{
	struct json_object *doc, *env;

	if (argc < 3 || (!strcmp(argv[1], "get") && argc != 4)) {
		fprintf(stderr,
			"usage: doctor_dump map|findings|inventory FILE | get FILE PATH\n");
		return 2;
	}
	doc = json_object_from_file(argv[2]);
	if (!doc) {
		fprintf(stderr, "doctor_dump: cannot parse %s: %s\n", argv[2],
			json_util_get_last_err());
		return 1;
	}
	if (!json_object_object_get_ex(doc, "envelope", &env))
		env = doc;
	if (!strcmp(argv[1], "map"))
		dump_map(env);
	else if (!strcmp(argv[1], "findings"))
		dump_findings(env);
	else if (!strcmp(argv[1], "inventory"))
		dump_inventory(env);
	else if (!strcmp(argv[1], "get"))
		printf("%s\n", s(doc, argv[3]));
	json_object_put(doc);
	return 0;
}
