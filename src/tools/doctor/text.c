/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor's human report: sections (host, RDMA, GPUs, platform, map,
 * registration route) and the findings, printed from the envelope object
 * so the text says exactly what the JSON says.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/doctor/output.h"

/* Value at a dotted path, NULL when missing or JSON null. */
static struct json_object *gd_jget(struct json_object *o, const char *path)
{
	char key[64];
	size_t n;

	while (o && *path) {
		n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

static const char *gd_js(struct json_object *o, const char *path)
{
	struct json_object *v = gd_jget(o, path);

	return v ? json_object_get_string(v) : "-";
}

static const char *gd_jyn(struct json_object *o, const char *path)
{
	struct json_object *v = gd_jget(o, path);

	return !v ? "unknown" : json_object_get_boolean(v) ? "yes" : "no";
}

/* A JSON array of strings as "a, b, c" ("-" when empty). */
static const char *gd_jlist(struct json_object *o, const char *path, char *buf,
			    size_t len)
{
	struct json_object *arr = gd_jget(o, path);
	size_t i, used = 0, n = arr ? json_object_array_length(arr) : 0;

	snprintf(buf, len, "-");
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(
			buf + used, len - used, "%s%s", i ? ", " : "",
			json_object_get_string(
				json_object_array_get_idx(arr, i)));
	return buf;
}

/* "1234 bytes" or @none when the value is null (no limit). */
static const char *gd_jbytes(struct json_object *o, const char *path,
			     const char *none, char *buf, size_t len)
{
	if (!gd_jget(o, path))
		return none;
	snprintf(buf, len, "%s bytes", gd_js(o, path));
	return buf;
}

#define GD_TEXT_WIDTH 80

/*
 * @head, then @text's words, each after a space, wrapped so that lines fit
 * GD_TEXT_WIDTH columns, continuation lines indented by @indent; a word
 * longer than a line (a path) stays whole on a line of its own.
 */
static void gd_text_wrap(FILE *out, const char *head, const char *text,
			 int indent)
{
	int col = fprintf(out, "%s", head);
	bool fresh = false; /* at a continuation line's indent */

	text += strspn(text, " ");
	while (*text) {
		int len = (int)strcspn(text, " ");

		if (col + 1 + len > GD_TEXT_WIDTH) {
			col = fprintf(out, "\n%*s", indent, "") - 1;
			fresh = true;
		}
		if (!fresh) {
			putc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", len, text);
		fresh = false;
		text += len;
		text += strspn(text, " ");
	}
	putc('\n', out);
}

static void gd_text_host(FILE *out, struct json_object *h)
{
	char b1[64], b2[64], line[256];
	int n;

	fprintf(out, "Host\n");
	fprintf(out, "  hostname      %s\n", gd_js(h, "hostname"));
	fprintf(out, "  kernel        %s\n", gd_js(h, "kernel.release"));
	fprintf(out, "  distribution  %s\n",
		gd_js(h, "distribution.pretty_name"));
	fprintf(out, "  container     %s%s%s\n",
		gd_jyn(h, "container.detected"),
		gd_jget(h, "container.how") ? ": " : "",
		gd_jget(h, "container.how") ? gd_js(h, "container.how") : "");
	fprintf(out, "  cgroup        v%s, memory limit %s, CPU limit %s\n",
		gd_js(h, "cgroup.version"),
		gd_jbytes(h, "cgroup.memory_limit_bytes", "none", b1,
			  sizeof(b1)),
		gd_jget(h, "cgroup.cpu_limit_cpus")
			? gd_js(h, "cgroup.cpu_limit_cpus")
			: "none");
	n = snprintf(
		line, sizeof(line), "soft %s, hard %s",
		gd_jbytes(h, "memlock.soft_bytes", "unlimited", b1, sizeof(b1)),
		gd_jbytes(h, "memlock.hard_bytes", "unlimited", b2,
			  sizeof(b2)));
	if (gd_jget(h, "memlock.need_bytes") && n > 0 &&
	    (size_t)n < sizeof(line))
		snprintf(line + n, sizeof(line) - (size_t)n,
			 "; need %s bytes: %s", gd_js(h, "memlock.need_bytes"),
			 json_object_get_boolean(
				 gd_jget(h, "memlock.covers_need"))
				 ? "covered"
				 : "NOT covered");
	gd_text_wrap(out, "  memlock      ", line, 16);
	fputc('\n', out);
}

static void gd_text_port(FILE *out, struct json_object *p)
{
	struct json_object *gids = gd_jget(p, "gids");
	size_t i, n = gids ? json_object_array_length(gids) : 0;

	fprintf(out, "    port %s  %s/%s  %s  %s  active MTU %s\n",
		gd_js(p, "port"), gd_js(p, "state"), gd_js(p, "phys_state"),
		gd_js(p, "rate"), gd_js(p, "link_layer"),
		gd_js(p, "active_mtu_bytes"));
	for (i = 0; i < n; i++) {
		struct json_object *g = json_object_array_get_idx(gids, i);

		fprintf(out, "      gid %-3s %s  %s%s%s\n", gd_js(g, "index"),
			gd_js(g, "gid"), gd_js(g, "type"),
			gd_jget(g, "netdev") ? "  " : "",
			gd_jget(g, "netdev") ? gd_js(g, "netdev") : "");
	}
}

static void gd_text_rdma(FILE *out, struct json_object *r)
{
	struct json_object *devs = gd_jget(r, "devices"), *ports;
	size_t i, j, n = devs ? json_object_array_length(devs) : 0;

	char list[512];

	fprintf(out, "RDMA (rdma-core %s, providers %s)\n",
		gd_js(r, "rdma_core_version"),
		gd_jlist(r, "providers", list, sizeof(list)));
	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);
		bool down =
			gd_jget(d, "pcie.downgraded") &&
			json_object_get_boolean(gd_jget(d, "pcie.downgraded"));

		fprintf(out, "  %s  fw %s  guid %s  pci %s  NUMA %s\n",
			gd_js(d, "name"), gd_js(d, "fw_ver"),
			gd_js(d, "node_guid"), gd_js(d, "pci_bus_id"),
			gd_js(d, "numa_node"));
		if (gd_jget(d, "pcie"))
			fprintf(out,
				"    PCIe %s GT/s x%s (max %s GT/s x%s)%s\n",
				gd_js(d, "pcie.current_speed_GTps"),
				gd_js(d, "pcie.current_width"),
				gd_js(d, "pcie.max_speed_GTps"),
				gd_js(d, "pcie.max_width"),
				down ? "  DOWNGRADED" : "");
		ports = gd_jget(d, "ports");
		for (j = 0; ports && j < json_object_array_length(ports); j++)
			gd_text_port(out, json_object_array_get_idx(ports, j));
	}
	if (!n)
		fprintf(out, "  (no RDMA device)\n");
	fprintf(out, "\n");
}

static void gd_text_gpu(FILE *out, struct json_object *g)
{
	struct json_object *gpus = gd_jget(g, "gpus");
	size_t i, n = gpus ? json_object_array_length(gpus) : 0;

	fprintf(out, "GPUs\n");
	if (json_object_get_boolean(gd_jget(g, "driver.loaded")))
		fprintf(out, "  CUDA driver   loaded, version %s\n",
			gd_js(g, "driver.cuda_driver_version"));
	else
		gd_text_wrap(out, "  CUDA driver   not loaded:",
			     gd_js(g, "driver.error"), 16);
	fprintf(out, "  kernel module %s (%s)\n",
		gd_js(g, "kernel_module.version"),
		gd_js(g, "kernel_module.flavour"));
	fprintf(out, "  peer memory   nvidia_peermem %s, nv_peer_mem %s\n",
		gd_jyn(g, "peer_memory.nvidia_peermem"),
		gd_jyn(g, "peer_memory.nv_peer_mem"));
	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(gpus, i);

		fprintf(out,
			"  GPU%s  %s  %s  pci %s  cc %s  DMA-BUF %s  GPUDirect RDMA %s\n",
			gd_js(d, "index"), gd_js(d, "name"), gd_js(d, "uuid"),
			gd_js(d, "pci_bus_id"), gd_js(d, "compute_capability"),
			gd_jyn(d, "dmabuf_supported"),
			gd_jyn(d, "gpudirect_rdma_supported"));
	}
	fprintf(out, "\n");
}

/* The peer-access cell of row @from, column @to: "OK", "-" or "?". */
static const char *gd_text_p2p_cell(struct json_object *pairs, int from, int to)
{
	for (size_t i = 0; i < json_object_array_length(pairs); i++) {
		struct json_object *q = json_object_array_get_idx(pairs, i);
		struct json_object *can = gd_jget(q, "can_access_peer");

		if (json_object_get_int(gd_jget(q, "from")) != from ||
		    json_object_get_int(gd_jget(q, "to")) != to)
			continue;
		if (!can)
			return "?";
		return json_object_get_boolean(can) ? "OK" : "-";
	}
	return "?";
}

/* GPU-to-GPU peer access inside the server: its own path, apart from the
 * GPU-to-NIC map. Rows reach columns. */
static void gd_text_peer_access(FILE *out, struct json_object *g)
{
	struct json_object *pa = gd_jget(g, "peer_access");
	struct json_object *pairs = gd_jget(pa, "pairs");
	struct json_object *gpus = gd_jget(g, "gpus");
	size_t n = gpus ? json_object_array_length(gpus) : 0;

	if (!pa)
		return;
	fprintf(out,
		"GPU peer access (GPU-to-GPU inside this server; rows reach columns: OK direct, - through host memory, ? unknown)\n");
	if (gd_jget(pa, "error"))
		fprintf(out, "  not known: %s\n", gd_js(pa, "error"));
	fprintf(out, "        ");
	for (size_t j = 0; j < n; j++)
		fprintf(out, " GPU%-3s",
			gd_js(json_object_array_get_idx(gpus, j), "index"));
	fprintf(out, "\n");
	for (size_t i = 0; i < n; i++) {
		int from = json_object_get_int(
			gd_jget(json_object_array_get_idx(gpus, i), "index"));

		fprintf(out, "  GPU%-3d", from);
		for (size_t j = 0; j < n; j++) {
			int to = json_object_get_int(gd_jget(
				json_object_array_get_idx(gpus, j), "index"));

			fprintf(out, " %-6s",
				i == j ? "X"
				       : gd_text_p2p_cell(pairs, from, to));
		}
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
}

static void gd_text_platform(FILE *out, struct json_object *p)
{
	struct json_object *devs = gd_jget(p, "iommu.devices");
	size_t i, n = devs ? json_object_array_length(devs) : 0;
	char list[512];

	fprintf(out,
		"Platform\n  IOMMU         %s (%s units, %s groups), cmdline %s\n",
		json_object_get_boolean(gd_jget(p, "iommu.enabled"))
			? "enabled"
			: "disabled",
		gd_js(p, "iommu.units"), gd_js(p, "iommu.groups"),
		gd_jlist(p, "iommu.cmdline", list, sizeof(list)));
	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		fprintf(out, "  %-13s %s (group type %s)\n", gd_js(d, "device"),
			gd_js(d, "mode"), gd_js(d, "group_type"));
	}
	fprintf(out, "\n");
}

/* "ok", "redirect", or the reason ACS could not be read. */
static const char *gd_text_acs(struct json_object *row)
{
	struct json_object *path = gd_jget(row, "acs_path"), *b, *r;
	size_t i, n = path ? json_object_array_length(path) : 0;
	const char *unknown = NULL;

	for (i = 0; i < n; i++) {
		b = json_object_array_get_idx(path, i);
		r = gd_jget(b, "redirects_peer_traffic");
		if (r && json_object_get_boolean(r))
			return "redirect";
		if (!r)
			unknown = gd_js(b, "state");
	}
	return n ? unknown ? unknown : "ok" : "-";
}

static void gd_text_map(FILE *out, struct json_object *t)
{
	struct json_object *nics = gd_jget(t, "nics"),
			   *rows = gd_jget(t, "map");
	size_t i, j, nn = nics ? json_object_array_length(nics) : 0;
	size_t nr = rows ? json_object_array_length(rows) : 0;

	fprintf(out, "GPU-to-NIC map (topology %s%s%s)\n", gd_js(t, "source"),
		gd_jget(t, "xml") ? " " : "",
		gd_jget(t, "xml") ? gd_js(t, "xml") : "");
	if (!nr) {
		fprintf(out, "  (no GPU in the topology)\n\n");
		return;
	}
	fprintf(out, "  %-14s", "GPU");
	for (j = 0; j < nn; j++)
		fprintf(out, " %-7s",
			gd_js(json_object_array_get_idx(nics, j), "device"));
	fprintf(out, "  nearest      NUMA  rail    ACS\n");
	for (i = 0; i < nr; i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		struct json_object *near = gd_jget(r, "nearest");
		char nearest[64] = "-";

		if (near && json_object_array_length(near))
			snprintf(nearest, sizeof(nearest), "%s:%s",
				 gd_js(json_object_array_get_idx(near, 0),
				       "device"),
				 gd_js(json_object_array_get_idx(near, 0),
				       "port"));
		fprintf(out, "  %-14s", gd_js(r, "pci_bus_id"));
		for (j = 0; j < nn; j++) {
			char key[80];

			snprintf(key, sizeof(key), "paths.%s",
				 gd_js(json_object_array_get_idx(nics, j),
				       "device"));
			fprintf(out, " %-7s", gd_js(r, key));
		}
		fprintf(out, "  %-12s %-5s %-7s %s\n", nearest,
			gd_js(r, "numa_node"), gd_js(r, "rail"),
			gd_text_acs(r));
	}
	fprintf(out, "\n");
}

static void gd_text_route(FILE *out, struct json_object *routes)
{
	size_t i, n = routes ? json_object_array_length(routes) : 0;

	fprintf(out, "Registration route\n");
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(routes, i);
		bool ok = json_object_get_boolean(gd_jget(r, "possible"));

		if (gd_jget(r, "gpu"))
			fprintf(out, "  GPU %s (%s): %s\n", gd_js(r, "gpu"),
				gd_js(r, "pci_bus_id"),
				ok ? gd_js(r, "intended")
				   : "no supported route");
		else
			fprintf(out, "  no GPU: no supported route\n");
		gd_text_wrap(out, ok ? "    why: " : "    stop:",
			     ok ? gd_js(r, "why") : gd_js(r, "stop_condition"),
			     10);
	}
	fprintf(out, "\n");
}

/* gd_doctor --peer: the bootstrap path to one host. */
static void gd_text_bootstrap(FILE *out, struct json_object *b)
{
	if (!b)
		return;
	fprintf(out, "Bootstrap to %s port %s\n", gd_js(b, "peer"),
		gd_js(b, "port"));
	fprintf(out, "  address       %s\n", gd_js(b, "address"));
	fprintf(out, "  route         from %s on %s\n",
		gd_js(b, "local_address"), gd_js(b, "local_interface"));
	fprintf(out, "  TCP           %s%s%s (%s ms)\n\n", gd_js(b, "tcp"),
		gd_jget(b, "error") ? ": " : "",
		gd_jget(b, "error") ? gd_js(b, "error") : "",
		gd_js(b, "elapsed_ms"));
}

static void gd_text_findings(FILE *out, struct json_object *list)
{
	size_t i, n = list ? json_object_array_length(list) : 0;

	fprintf(out, "Findings (%zu)\n", n);
	for (i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(list, i);

		char head[256];

		snprintf(head, sizeof(head),
			 "  %-7s %s [%s]:", gd_js(f, "severity"),
			 gd_js(f, "id"), gd_js(f, "subject"));
		gd_text_wrap(out, head, gd_js(f, "message"), 10);
		if (gd_jget(f, "next_check"))
			gd_text_wrap(out,
				     "          next:", gd_js(f, "next_check"),
				     16);
	}
}

void gd_doctor_print_text(FILE *out, struct json_object *env)
{
	fprintf(out, "gd_doctor %s: envelope collected %s (root %s)\n\n",
		gd_js(env, "gdperf_version"), gd_js(env, "collected_at"),
		gd_js(env, "root"));
	gd_text_host(out, gd_jget(env, "host"));
	gd_text_rdma(out, gd_jget(env, "rdma"));
	gd_text_gpu(out, gd_jget(env, "gpu"));
	gd_text_peer_access(out, gd_jget(env, "gpu"));
	gd_text_platform(out, gd_jget(env, "platform"));
	gd_text_map(out, gd_jget(env, "topology"));
	gd_text_route(out, gd_jget(env, "registration_route"));
	gd_text_bootstrap(out, gd_jget(env, "bootstrap"));
	gd_text_findings(out, gd_jget(env, "findings"));
}
