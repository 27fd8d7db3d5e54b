/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's options that gdperf does not implement, each with the perftest
 * tests it belongs to and the specific reason, and for a device capability
 * the device's own answer. A perftest user's script then stops with what to
 * do instead, never with "unknown option". The list is perftest 6.29's
 * long_options table (commit 00b55b6) less what gd_opt_table implements;
 * tests/perftest-options.txt holds the whole list and tests check the two.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "cli/options.h"
#include "cli/options_priv.h"

/* Why an option is refused: the words every refusal of the kind starts
 * with (gdperf-perftest(7) groups them the same way). */
enum gd_refusal {
	GD_R_NOT_IMPL, /* not implemented in gdperf: why */
	GD_R_RAW,      /* perftest's raw_ethernet tests only */
	GD_R_VENDOR,   /* a vendor's direct-verbs extension */
	GD_R_BACKEND,  /* another accelerator's memory */
	GD_R_DESIGN,   /* gdperf does it another way on purpose */
};

/* perftest's tests beyond the eight verbs tests of gd_tests[] */
#define GD_PT_RAW (1u << GD_TEST_COUNT)

struct gd_perftest_opt {
	const char *name;
	int short_name;
	const char *what;   /* its meaning in perftest, in a few words */
	unsigned int tests; /* the perftest tests that have it: GD_AP_*, RAW */
	enum gd_refusal kind;
	const char *why; /* the specific reason, and what to do instead */
	enum gd_cap cap; /* the device capability it needs, or none */
};

#define RAW(n, c, w)                                                           \
	{                                                                      \
		n, c, w, GD_PT_RAW, GD_R_RAW, NULL, GD_CAP_NONE                \
	}
#define MLX5DV(n, w)                                                           \
	{                                                                      \
		n, 0, w, GD_AP_ALL, GD_R_VENDOR, "mlx5dv", GD_CAP_NONE         \
	}
#define EFADV(n, t, w)                                                         \
	{                                                                      \
		n, 0, w, t, GD_R_VENDOR, "efadv", GD_CAP_NONE                  \
	}
#define BACKEND(n, w, b)                                                       \
	{                                                                      \
		n, 0, w, GD_AP_ALL, GD_R_BACKEND, b, GD_CAP_NONE               \
	}
#define CRYPTO "mlx5 AES-XTS crypto"
#define DCI "mlx5 DC initiator streams"
#define TPH                                                                    \
	"PCIe TPH steering hints need ibv_reg_mr_ex with a DMA handle; gdperf registers with ibv_reg_mr and ibv_reg_dmabuf_mr"

static const struct gd_perftest_opt gd_perftest_refused[] = {
	{ "comm_rdma_cm", 'z', "rdma_cm for the side channel", GD_AP_ALL,
	  GD_R_DESIGN,
	  "gdperf's side channel is always TCP (versioned, length-prefixed frames with timeouts); -R connects the QPs through rdma_cm",
	  GD_CAP_NONE },
	{ "hop_limit", 'L', "GRH hop limit / IPv4 TTL", GD_AP_ALL | GD_PT_RAW,
	  GD_R_DESIGN,
	  "perftest itself takes -L only with raw Ethernet QPs (its verbs tests exit with 'Hop limit only valid for RawEth QP'); gdperf's GRH hop limit is 64",
	  GD_CAP_NONE },
	{ "dualport", 'O', "both ports of the device", GD_AP_BW, GD_R_NOT_IMPL,
	  "gdperf runs on one port (-i); measure each port in its own run, or with gd_plan",
	  GD_CAP_PORTS },
	{ "report-per-port", 0, "per-port results of -O", GD_AP_BW,
	  GD_R_NOT_IMPL, "it reports -O's two ports, which gdperf does not run",
	  GD_CAP_NONE },
	RAW("source_mac", 'B', "source MAC"),
	RAW("dest_mac", 'E', "destination MAC"),
	RAW("dest_ip", 'J', "destination IP"),
	RAW("dest_port", 'K', "destination UDP port"),
	RAW("source_port", 'k', "source UDP port"),
	RAW("ethertype", 'Y', "Ethernet type"),
	RAW("server", 'Z', "raw Ethernet server role"),
	RAW("client", 'P', "raw Ethernet client role"),
	RAW("mac_fwd", 'v', "MAC forwarding"),
	RAW("use_rss", 'G', "receive-side scaling"),
	RAW("remote_mac", 0, "remote MAC"),
	RAW("local_mac", 0, "local MAC"),
	RAW("remote_ip", 0, "remote IP"),
	RAW("local_ip", 0, "local IP"),
	RAW("remote_port", 0, "remote UDP port"),
	RAW("local_port", 0, "local UDP port"),
	RAW("tcp", 0, "TCP packets"),
	RAW("promiscuous", 0, "promiscuous receive"),
	RAW("sniffer", 0, "sniffer flow"),
	RAW("raw_mcast", 0, "raw multicast"),
	RAW("raw_ipv6", 0, "raw IPv6 packets"),
	RAW("flows", 0, "number of flows"),
	RAW("flows_burst", 0, "packets per flow burst"),
	RAW("reply_every", 0, "server replies every N"),
	RAW("vlan_en", 0, "VLAN tag"),
	RAW("vlan_pcp", 0, "VLAN priority"),
	{ "force-link", 0, "link layer IB or Ethernet", GD_AP_ALL | GD_PT_RAW,
	  GD_R_DESIGN,
	  "gdperf takes the port's link layer as the device reports it (ibv_query_port); forcing another would only mislabel it",
	  GD_CAP_NONE },
	{ "no_lock", 0, "thread domain without locks", GD_AP_ALL, GD_R_NOT_IMPL,
	  "gdperf allocates no thread domain (ibv_alloc_td, implemented by mlx5 only); its loops post and poll from one thread per direction",
	  GD_CAP_NONE },
	{ "use-null-mr", 0, "the null MR (writes land nowhere)",
	  GD_AP_WRITE | GD_AP_READ, GD_R_NOT_IMPL,
	  "gdperf registers and measures the buffers it names (--mem); a null MR would measure no memory path",
	  GD_CAP_NULL_MR },
	/* perftest takes it only with PP pacing, which is raw Ethernet only */
	RAW("typical_pkt_size", 0, "packet-pacing (PP) packet size"),
	{ "use_data_direct", 0, "mlx5 data-direct DMA-BUF", GD_AP_ALL,
	  GD_R_VENDOR, "mlx5dv", GD_CAP_NONE },
	{ "cuda_mem_type", 0, "CUDA allocation kind", GD_AP_ALL, GD_R_NOT_IMPL,
	  "GPU buffers are device memory from cuMemAlloc (perftest's 0); managed memory measures a CPU path and is refused, and host memory is --mem=host",
	  GD_CAP_NONE },
	BACKEND("use_musa", "Moore Threads GPU", "MUSA"),
	BACKEND("use_musa_bus_id", "Moore Threads GPU by PCI address", "MUSA"),
	BACKEND("use_musa_dmabuf", "Moore Threads DMA-BUF", "MUSA"),
	BACKEND("use_musa_pcie_mapping", "Moore Threads PCIe mapping", "MUSA"),
	BACKEND("use_rocm", "AMD GPU", "ROCm"),
	BACKEND("use_rocm_dmabuf", "AMD GPU DMA-BUF", "ROCm"),
	BACKEND("use_neuron", "AWS Neuron device", "Neuron"),
	BACKEND("use_neuron_dmabuf", "AWS Neuron DMA-BUF", "Neuron"),
	BACKEND("use_hl", "Habana Gaudi device", "Habana (hl)"),
	BACKEND("use_mlu", "Cambricon MLU", "Cambricon MLU"),
	BACKEND("use_mlu_dmabuf", "Cambricon MLU DMA-BUF", "Cambricon MLU"),
	BACKEND("use_opencl", "OpenCL device", "OpenCL"),
	BACKEND("opencl_platform_id", "OpenCL platform", "OpenCL"),
	{ "use_ib_dm_dmabuf", 0, "NIC device memory through DMA-BUF", GD_AP_ALL,
	  GD_R_NOT_IMPL,
	  "NIC device memory (ibv_alloc_dm) is not one of gdperf's memories (host, hugepage, cuda, mmap)",
	  GD_CAP_DM },
	{ "gpu_touch", 0, "GPU touches the buffer during the test", GD_AP_ALL,
	  GD_R_NOT_IMPL,
	  "gdperf's CUDA backend allocates, fills and checks GPU buffers but runs no kernel on them during a test",
	  GD_CAP_NONE },
	{ "odp", 0, "on-demand paging", GD_AP_ALL, GD_R_NOT_IMPL,
	  "gdperf registers and pins its buffers before the run; ODP registration (IBV_ACCESS_ON_DEMAND) is not used",
	  GD_CAP_ODP },
	MLX5DV("aes_xts", CRYPTO),
	MLX5DV("encrypt_on_tx", CRYPTO),
	MLX5DV("sig_before", CRYPTO),
	MLX5DV("aes_block_size", CRYPTO),
	MLX5DV("kek_path", CRYPTO),
	MLX5DV("credentials_path", CRYPTO),
	MLX5DV("data_enc_keys_number", CRYPTO),
	MLX5DV("data_enc_key_app_path", CRYPTO),
	MLX5DV("log_dci_streams", DCI),
	MLX5DV("log_active_dci_streams", DCI),
	MLX5DV("use_ooo", "out-of-order data placement"),
	MLX5DV("sig_offload", "mlx5 T10-DIF signature offload"),
	{ "congest_type", 0, "congestion control algorithm (hns)", GD_AP_ALL,
	  GD_R_VENDOR, "hnsdv", GD_CAP_NONE },
	EFADV("no_enhanced_reorder", GD_AP_ALL, "EFA receive reordering"),
	EFADV("unsolicited_write", GD_AP_WRITE, "EFA unsolicited write"),
	EFADV("connectionless", GD_AP_SEND_BW, "EFA SRD multicast server"),
	{ "tph_mem", 0, "PCIe TPH memory type", GD_AP_ALL, GD_R_NOT_IMPL, TPH,
	  GD_CAP_NONE },
	{ "cpu_id", 0, "PCIe TPH target CPU", GD_AP_ALL, GD_R_NOT_IMPL, TPH,
	  GD_CAP_NONE },
	{ "ph", 0, "PCIe TPH processing hint", GD_AP_ALL, GD_R_NOT_IMPL, TPH,
	  GD_CAP_NONE },
};

#define GD_NREFUSED                                                            \
	(sizeof(gd_perftest_refused) / sizeof(gd_perftest_refused[0]))

/* '-' and '_' are one letter: perftest spells its options both ways. */
bool gd_opt_name_eq(const char *a, const char *b, size_t b_len)
{
	size_t i;

	for (i = 0; i < b_len && a[i]; i++)
		if (a[i] != b[i] && !((a[i] == '-' || a[i] == '_') &&
				      (b[i] == '-' || b[i] == '_')))
			return false;
	return i == b_len && !a[i];
}

static const struct gd_perftest_opt *gd_perftest_find(const char *name,
						      size_t name_len, int c)
{
	for (size_t i = 0; i < GD_NREFUSED; i++) {
		const struct gd_perftest_opt *p = &gd_perftest_refused[i];

		if (name ? gd_opt_name_eq(p->name, name, name_len)
			 : p->short_name && p->short_name == c)
			return p;
	}
	return NULL;
}

/* The reason in the words of its kind. */
static void gd_refusal_why(const struct gd_perftest_opt *p, char *buf,
			   size_t len)
{
	switch (p->kind) {
	case GD_R_RAW:
		snprintf(
			buf, len,
			"it applies to perftest's raw_ethernet_* tests, which gdperf does not have");
		return;
	case GD_R_VENDOR:
		snprintf(
			buf, len,
			"a vendor extension (%s); gdperf uses only the generic verbs API, so that runs compare across NICs",
			p->why);
		return;
	case GD_R_BACKEND:
		snprintf(
			buf, len,
			"gdperf has no %s backend; its memories are host, hugepage, cuda and mmap (see --mem)",
			p->why);
		return;
	case GD_R_DESIGN:
		snprintf(buf, len, "%s", p->why);
		return;
	case GD_R_NOT_IMPL:
		snprintf(buf, len, "not implemented in gdperf: %s", p->why);
		return;
	}
}

int gd_perftest_refusal(const struct gd_test *test, const char *name,
			size_t name_len, int short_name, const char *dev)
{
	const struct gd_perftest_opt *p =
		gd_perftest_find(name, name_len, short_name);
	char tests[256], why[512], cap[320] = "";

	if (!p)
		return -ENOENT;
	gd_tests_text(p->tests & GD_AP_ALL, "ib_", tests, sizeof(tests));
	gd_refusal_why(p, why, sizeof(why));
	if (p->cap != GD_CAP_NONE) {
		cap[0] = ';';
		cap[1] = ' ';
		gd_caps_describe(dev, p->cap, cap + 2, sizeof(cap) - 2);
	}
	return gd_err(
		-EINVAL,
		"%s%c%s%s (perftest: %s; in %s%s) is not available in %s: %s%s; see gdperf-perftest(7)",
		p->short_name ? "-" : "", p->short_name ? p->short_name : '-',
		p->short_name ? "/--" : "-", p->name, p->what,
		p->tests & GD_AP_ALL ? tests : "raw_ethernet_* tests",
		(p->tests & GD_PT_RAW) && (p->tests & GD_AP_ALL)
			? " and raw_ethernet_*"
			: "",
		test->name, why, cap);
}

/* perftest's -c values beyond RC, UC and UD. */
static const struct {
	const char *name;
	const char *why;
	enum gd_cap cap;
} gd_perftest_conns[] = {
	{ "XRC",
	  "not implemented in gdperf: XRC needs an XRC domain, SRQs and XRC QPs on both ends",
	  GD_CAP_XRC },
	{ "DC",
	  "a vendor extension (mlx5dv DC transport); gdperf uses only the generic verbs API",
	  GD_CAP_NONE },
	{ "SRD",
	  "a vendor extension (efadv SRD transport); gdperf uses only the generic verbs API",
	  GD_CAP_NONE },
	{ "RawEth",
	  "it applies to perftest's raw_ethernet_* tests, which gdperf does not have",
	  GD_CAP_NONE },
};

int gd_perftest_conn_refusal(const char *value, const char *dev)
{
	char cap[320] = "";

	for (size_t i = 0;
	     i < sizeof(gd_perftest_conns) / sizeof(gd_perftest_conns[0]);
	     i++) {
		if (strcmp(value, gd_perftest_conns[i].name))
			continue;
		if (gd_perftest_conns[i].cap != GD_CAP_NONE) {
			cap[0] = ';';
			cap[1] = ' ';
			gd_caps_describe(dev, gd_perftest_conns[i].cap, cap + 2,
					 sizeof(cap) - 2);
		}
		return gd_err(
			-EINVAL,
			"-c %s (perftest: connection type %s) is not available in gdperf: %s%s; gdperf has RC, UC and UD (see gdperf-perftest(7))",
			value, value, gd_perftest_conns[i].why, cap);
	}
	return -ENOENT;
}

bool gd_opts_perftest_refused(const char *name)
{
	return gd_perftest_find(name, strlen(name), 0) != NULL;
}

size_t gd_opts_perftest_refused_count(void)
{
	return GD_NREFUSED;
}

bool gd_perftest_refused_entry(const struct gd_test *test, size_t i,
			       const char **name, int *short_name,
			       const char **what)
{
	ptrdiff_t id = test - gd_tests;
	const struct gd_perftest_opt *p;

	if (i >= GD_NREFUSED || id < 0 || id >= GD_TEST_COUNT)
		return false;
	p = &gd_perftest_refused[i];
	if (!(p->tests & GD_AP_TEST(id)))
		return false;
	*name = p->name;
	*short_name = p->short_name;
	*what = p->what;
	return true;
}
