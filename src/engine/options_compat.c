/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's options that gdperf does not implement, each with the reason.
 * A perftest user's script then stops with what to do instead, never with
 * "unknown option". The list is perftest 6.29's long_options table (commit
 * 00b55b6) less what gd_opt_table implements; tests/perftest-options.txt
 * holds the whole list and a unit test checks the two together.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "util/error.h"
#include "engine/options.h"
#include "engine/options_priv.h"

struct gd_perftest_opt {
	const char *name;
	int short_name;
	const char *what; /* its meaning in perftest, in a few words */
	const char *why;  /* why gdperf refuses it, and what to do instead */
};

#define RAW                                                                    \
	"perftest's raw_ethernet tests only; gdperf has no raw Ethernet test"
#define NOT_YET "not implemented in gdperf yet"
#define MLX5DV                                                                 \
	"a vendor extension (mlx5dv); gdperf uses only the generic verbs API, so runs compare across NICs"
#define OTHER_HW(x)                                                            \
	"gdperf has no " x                                                     \
	" backend; its memories are host, hugepage and cuda (see --mem)"

static const struct gd_perftest_opt gd_perftest_refused[] = {
	{ "vector", 'X', "completion vector", NOT_YET },
	{ "outs", 'o', "outstanding reads/atomics", NOT_YET },
	{ "mcg", 'g', "multicast group (UD send)", NOT_YET },
	{ "MGID", 'M', "multicast GID (UD send)", NOT_YET },
	{ "comm_rdma_cm", 'z', "rdma_cm for the side channel",
	  "gdperf's side channel is always TCP; -R connects the QPs with rdma_cm" },
	{ "hop_limit", 'L', "GRH hop limit", NOT_YET },
	{ "noPeak", 'N', "no peak bandwidth", NOT_YET },
	{ "report-cycles", 'C', "latency in CPU cycles",
	  NOT_YET "; latencies are in usec, on the clock the header names" },
	{ "report-histogrm", 'H', "latency histogram", NOT_YET },
	{ "report-unsorted", 'U', "unsorted latencies", NOT_YET },
	{ "atomic_type", 'A', "CMP_AND_SWAP or FETCH_AND_ADD",
	  NOT_YET "; the atomic tests use FETCH_AND_ADD" },
	{ "dualport", 'O', "both ports of the device", NOT_YET },
	{ "margin", 'f', "margin for -w/-y", NOT_YET },
	{ "limit_bw", 'w', "bandwidth pass limit",
	  NOT_YET "; --min-bw is gdperf's bandwidth gate (exit status 3)" },
	{ "limit_msgrate", 'y', "message-rate pass limit", NOT_YET },
	{ "report-counters", 'W', "counters to report",
	  "gdperf always reports the port and hw counter deltas of both ends" },
	{ "source_mac", 'B', "source MAC", RAW },
	{ "dest_mac", 'E', "destination MAC", RAW },
	{ "dest_ip", 'J', "destination IP", RAW },
	{ "source_ip", 'j', "source IP", RAW },
	{ "dest_port", 'K', "destination UDP port", RAW },
	{ "source_port", 'k', "source UDP port", RAW },
	{ "ethertype", 'Y', "Ethernet type", RAW },
	{ "server", 'Z', "raw Ethernet server role", RAW },
	{ "client", 'P', "raw Ethernet client role", RAW },
	{ "mac_fwd", 'v', "MAC forwarding", RAW },
	{ "use_rss", 'G', "receive-side scaling", RAW },
	{ "force-link", 0, "link layer IB or Ethernet", NOT_YET },
	{ "remote_mac", 0, "remote MAC", RAW },
	{ "local_mac", 0, "local MAC", RAW },
	{ "remote_ip", 0, "remote IP", RAW },
	{ "local_ip", 0, "local IP", RAW },
	{ "remote_port", 0, "remote UDP port", RAW },
	{ "local_port", 0, "local UDP port", RAW },
	{ "tcp", 0, "TCP packets", RAW },
	{ "promiscuous", 0, "promiscuous receive", RAW },
	{ "sniffer", 0, "sniffer flow", RAW },
	{ "raw_mcast", 0, "raw multicast", RAW },
	{ "raw_ipv6", 0, "raw IPv6 packets", RAW },
	{ "flows", 0, "number of flows", RAW },
	{ "flows_burst", 0, "packets per flow burst", RAW },
	{ "reply_every", 0, "server replies every N", RAW },
	{ "vlan_en", 0, "VLAN tag", RAW },
	{ "vlan_pcp", 0, "VLAN priority", RAW },
	{ "use-srq", 0, "shared receive queue", NOT_YET },
	{ "no_lock", 0, "thread domain without locks", MLX5DV },
	{ "use-null-mr", 0, "the null MR", NOT_YET },
	{ "report-both", 0, "both directions of -b", NOT_YET },
	{ "reversed", 0, "server sends",
	  NOT_YET "; --reverse adds each phase with roles reversed" },
	{ "pkey_index", 0, "partition key index", NOT_YET },
	{ "burst_size", 0, "rate-limiter burst", NOT_YET },
	{ "typical_pkt_size", 0, "rate-limiter packet size", NOT_YET },
	{ "rate_limit", 0, "rate limit", NOT_YET },
	{ "rate_limit_type", 0, "rate limiter kind", NOT_YET },
	{ "rate_units", 0, "rate limit units", NOT_YET },
	{ "flow_label", 0, "IPv6 flow label", NOT_YET },
	{ "payload_file_path", 0, "payload from a file", NOT_YET },
	{ "use_data_direct", 0, "mlx5 data-direct DMA", MLX5DV },
	{ "cuda_mem_type", 0, "CUDA allocation kind",
	  NOT_YET "; GPU buffers come from cuMemAlloc" },
	{ "use_musa", 0, "Moore Threads GPU", OTHER_HW("MUSA") },
	{ "use_musa_bus_id", 0, "Moore Threads GPU", OTHER_HW("MUSA") },
	{ "use_musa_dmabuf", 0, "Moore Threads DMA-BUF", OTHER_HW("MUSA") },
	{ "use_musa_pcie_mapping", 0, "Moore Threads PCIe mapping",
	  OTHER_HW("MUSA") },
	{ "use_rocm", 0, "AMD GPU", OTHER_HW("ROCm") },
	{ "use_rocm_dmabuf", 0, "AMD GPU DMA-BUF", OTHER_HW("ROCm") },
	{ "use_neuron", 0, "AWS Neuron device", OTHER_HW("Neuron") },
	{ "use_neuron_dmabuf", 0, "AWS Neuron DMA-BUF", OTHER_HW("Neuron") },
	{ "use_hl", 0, "Habana Gaudi device", OTHER_HW("Habana") },
	{ "use_mlu", 0, "Cambricon MLU", OTHER_HW("MLU") },
	{ "use_mlu_dmabuf", 0, "Cambricon MLU DMA-BUF", OTHER_HW("MLU") },
	{ "use_opencl", 0, "OpenCL device", OTHER_HW("OpenCL") },
	{ "opencl_platform_id", 0, "OpenCL platform", OTHER_HW("OpenCL") },
	{ "use_ib_dm_dmabuf", 0, "NIC device memory through DMA-BUF", NOT_YET },
	{ "gpu_touch", 0, "GPU touches the buffer", NOT_YET },
	{ "mmap", 0, "buffer from an mmap'ed file", NOT_YET },
	{ "mmap-offset", 0, "offset in the --mmap file", NOT_YET },
	{ "ipv6", 0, "IPv6 side channel", NOT_YET },
	{ "ipv6-addr", 0, "IPv6 GID", NOT_YET },
	{ "report-per-port", 0, "per-port results of -O", NOT_YET },
	{ "odp", 0, "on-demand paging", NOT_YET },
	{ "use_old_post_send", 0, "ibv_post_send instead of ibv_wr_*",
	  "gdperf always posts with ibv_post_send" },
	{ "mr_per_qp", 0, "one MR per QP", NOT_YET },
	{ "dlid", 0, "destination LID", NOT_YET },
	{ "tclass", 0, "GRH traffic class", NOT_YET "; -T sets the ToS" },
	{ "wait_destroy", 0, "wait before destroying resources", NOT_YET },
	{ "perform_warm_up", 0, "warm-up before the measurement",
	  "gdperf always warms up; --warmup sets how many iterations" },
	{ "recv_post_list", 0, "receives per post", NOT_YET },
	{ "aes_xts", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "encrypt_on_tx", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "sig_before", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "aes_block_size", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "kek_path", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "credentials_path", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "data_enc_keys_number", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "data_enc_key_app_path", 0, "mlx5 AES-XTS crypto", MLX5DV },
	{ "log_dci_streams", 0, "DC transport streams", MLX5DV },
	{ "log_active_dci_streams", 0, "DC transport streams", MLX5DV },
	{ "use_ooo", 0, "out-of-order receive", MLX5DV },
	{ "congest_type", 0, "congestion control (hns)",
	  "a vendor extension (hnsdv); gdperf uses only the generic verbs API" },
	{ "send_with_imm", 0, "send with immediate", NOT_YET },
	{ "no_enhanced_reorder", 0, "EFA receive reordering",
	  "a vendor extension (efadv); gdperf uses only the generic verbs API" },
	{ "unsolicited_write", 0, "EFA unsolicited write",
	  "a vendor extension (efadv); gdperf uses only the generic verbs API" },
	{ "connectionless", 0, "EFA SRD without connection",
	  "a vendor extension (efadv); gdperf uses only the generic verbs API" },
	{ "cqe_poll", 0, "completions per poll", NOT_YET },
	{ "tph_mem", 0, "PCIe TPH steering", NOT_YET },
	{ "cpu_id", 0, "PCIe TPH target CPU", NOT_YET },
	{ "ph", 0, "PCIe TPH processing hint", NOT_YET },
	{ "disable_dynamic_polling", 0, "fixed CQ polling", NOT_YET },
	{ "sig_offload", 0, "mlx5 signature offload", MLX5DV },
	{ "data_validation", 0, "check the data",
	  "gdperf's spelling is --verify" },
	{ "data_validation_debug", 0, "print data mismatches",
	  "--verify reports the first mismatching byte" },
	{ "pin_cores", 0, "pin to a list of cores",
	  NOT_YET "; --cpu=N pins to one CPU" },
	{ "numa_node", 0, "NUMA node of the buffers", NOT_YET },
	{ "disable_numa", 0, "no NUMA binding", NOT_YET },
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

int gd_perftest_refusal(const struct gd_test *test, const char *name,
			size_t name_len, int short_name)
{
	const struct gd_perftest_opt *p =
		gd_perftest_find(name, name_len, short_name);

	if (!p)
		return -ENOENT;
	return gd_err(
		-EINVAL,
		"%s%c%s%s (perftest: %s) is not available in %s: %s; see PERFTEST COMPATIBILITY in gdperf(7)",
		p->short_name ? "-" : "", p->short_name ? p->short_name : '-',
		p->short_name ? "/--" : "-", p->name, p->what, test->name,
		p->why);
}

bool gd_opts_perftest_refused(const char *name)
{
	return gd_perftest_find(name, strlen(name), 0) != NULL;
}

size_t gd_opts_perftest_refused_count(void)
{
	return GD_NREFUSED;
}
