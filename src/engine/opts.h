/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the engine runs on: the parsed options of one invocation (struct
 * gd_opts) and the few questions the engine asks about them. The option
 * table that fills them in, --help and the wire codec live above the
 * engine, in src/cli; the engine reaches them only through gd_opts_ops.
 */
#ifndef GD_OPTS_H
#define GD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/test.h"
#include "engine/placement.h"
#include "report/report.h"

struct json_object;
struct gd_opts;

/*
 * The table-driven work the engine needs done on options: src/cli owns
 * the table, so it hands the engine these (in gd_opts.ops) and the engine
 * calls down into nothing above it. The contracts are those of the
 * gd_opts_* functions of the same names in cli/options.h.
 */
struct gd_opts_ops {
	/* the travelling fields as a JSON object (client -> server) */
	struct json_object *(*to_wire)(const struct gd_test *test,
				       const struct gd_opts *o);
	/* server: check and adopt the client's fields; -EINVAL with
	 * field/ours/theirs filled for the REJECT frame */
	int (*from_wire)(const struct gd_test *test, struct gd_opts *o,
			 struct json_object *wire, char *field,
			 size_t field_len, char *ours, char *theirs,
			 size_t val_len);
	/* server: a deep copy of its own options, each client's request
	 * built from a fresh one; release frees what copy made */
	int (*copy)(struct gd_opts *dst, const struct gd_opts *src);
	void (*release)(struct gd_opts *o);
	/* every option's effective value by long name */
	struct json_object *(*effective)(const struct gd_opts *o);
	/* the test description object of the JSON document */
	struct json_object *(*describe)(const struct gd_test *test,
					const struct gd_opts *o);
};

#define GD_MAX_LABELS 16
#define GD_CONFIG_MAX_OVERRIDDEN 16
#define GD_MAX_REPEAT 64 /* rounds per phase and size at most */
#define GD_SWEEP_MIN_BYTES 2ULL
#define GD_SWEEP_MAX_BYTES (8ULL << 20)
#define GD_MAX_SIZE_LIST 40 /* --sizes: at most; the sweep's GD_MAX_SIZES */
/* --cqe_poll: completions per ibv_poll_cq in the bandwidth loops (perftest
 * polls 16, adapting the batch unless --disable_dynamic_polling) */
#define GD_CQE_POLL_DEFAULT 32
#define GD_RECV_LIST_MAX 1024 /* --recv_post_list: at most */
#define GD_FLOW_LABEL_MAX 256 /* --flow_label: labels at most (one per QP) */
#define GD_FLOW_LABEL_LIMIT 0xfffffu /* the GRH flow label is 20 bits */

/* -A: the atomic operation of the atomic tests (perftest's names). */
enum gd_atomic_op { GD_ATOMIC_FETCH_AND_ADD, GD_ATOMIC_CMP_AND_SWAP };

/* --rate_units: perftest's letters g (Gbit/s, 1e9), M (MiB/s), p (msgs/s) */
enum gd_rate_unit { GD_RATE_GBPS, GD_RATE_MIBPS, GD_RATE_PPS };

struct gd_opts {
	/* endpoint */
	char *ib_dev;
	uint64_t ib_port;
	int64_t gid_index; /* -1: first RoCE v2 IPv4 GID, else 0 */
	uint64_t tcp_port;
	char *server_host; /* NULL: server role */
	char *bind_addr;   /* --bind_source_ip: side channel's address */
	bool loopback;
	bool rdma_cm;
	uint64_t oob_timeout_ms;
	/* server: a connection's hello and test within this, else the next */
	uint64_t handshake_timeout_s;
	/* --auth-key: the shared key's file, both ends (transport/auth.h) */
	char *auth_key;
	/* server: what a client may ask for (engine/limits.h) */
	uint64_t max_memory_bytes, max_time_s, max_qps, max_memories;
	/* server: one client after another until a signal, or --max-clients
	 * of them (0: no end) */
	bool persist;
	uint64_t max_clients;
	/* test shape (travels) */
	enum gd_conn conn;
	uint64_t size_bytes;
	bool all_sizes;
	uint64_t min_size_bytes, max_size_bytes;
	char *sizes; /* --sizes=LIST as given (travels) */
	uint64_t size_list[GD_MAX_SIZE_LIST]; /* --sizes, parsed, ascending */
	unsigned int num_size_list;
	uint64_t iters;
	uint64_t duration_s;
	uint64_t warmup_iters;
	uint64_t num_qps;
	uint64_t tx_depth, rx_depth;
	uint64_t cq_mod;
	uint64_t post_list;
	uint64_t recv_post_list; /* receives per ibv_post_recv */
	uint64_t cqe_poll;	 /* completions per ibv_poll_cq (bandwidth) */
	/* -o: outstanding reads/atomics per QP (travels); 0: 16 or the
	 * device's max_qp_rd_atom if lower */
	uint64_t outs;
	uint64_t inline_bytes;
	bool bidir;
	bool reversed;	  /* --reversed: the server initiates (perftest) */
	bool report_both; /* --report-both: accepted, -b always does */
	enum gd_atomic_op atomic_op; /* -A */
	bool no_peak;		     /* -N: no peak bandwidth (reported as 0) */
	uint64_t margin_s;  /* -f: -D's excluded start and end, seconds */
	uint64_t mtu_bytes; /* 0: the port's active MTU */
	int64_t sl, tos;
	uint64_t qp_timeout, retry_count;
	bool use_event;
	uint64_t comp_vector; /* -X: the CQs' completion vector (with -e) */
	bool write_with_imm;
	bool send_with_imm;   /* --send_with_imm (travels) */
	bool use_srq;	      /* --use-srq: receives on one SRQ (travels) */
	bool mr_per_qp;	      /* --mr_per_qp: an MR per QP's slot (this end) */
	bool ipv6_gid;	      /* --ipv6: the first RoCE v2 IPv6 GID */
	bool ipv6_addr;	      /* --ipv6-addr: the side channel over IPv6 */
	uint64_t pkey_index;  /* --pkey_index: the QPs' P_Key index */
	uint64_t dlid;	      /* --dlid: the peer's LID, 0: the one it sent */
	bool mcg;	      /* -g: UD to a multicast group (travels) */
	char *mgid;	      /* -M: the base group as given (travels) */
	uint8_t mgid_raw[16]; /* parsed (validation); with mgid only */
	char *flow_label;     /* --flow_label=LIST as given */
	uint32_t flow_labels[GD_FLOW_LABEL_MAX]; /* parsed; QP i: i % n */
	unsigned int num_flow_labels;
	char *payload_path; /* --payload_file_path */
	uint8_t *payload;   /* its bytes, loaded by the validation */
	size_t payload_bytes;
	char payload_sha256[65];
	uint64_t latency_gap_us;
	/* perftest's software rate limiter (the three travel): 0 is off */
	double rate_limit;
	char *rate_units;	     /* --rate_units as given: g, M or p */
	enum gd_rate_unit rate_unit; /* parsed (validation) */
	char *rate_limit_type;	     /* SW; HW and PP are refused */
	uint64_t burst_size;	     /* messages per burst, 0: -t's */
	bool run_infinitely;
	/* --wait_destroy: seconds to wait before the teardown (this end) */
	uint64_t wait_destroy_s;
	uint64_t repeat;      /* --repeat: rounds per phase and size, >= 1 */
	double precision_pct; /* --precision: target half-width, 0 off */
	uint64_t max_repeat;  /* --precision: rounds per size at most */
	uint64_t precision_time_s; /* --precision: no new round after this */
	bool until_decided;	   /* --until-decided: rounds until decided */
	bool verify;
	bool verify_debug;     /* --data_validation_debug: accepted */
	bool old_post_send;    /* --use_old_post_send: accepted */
	bool perform_warm_up;  /* --perform_warm_up: accepted */
	bool fixed_polling;    /* --disable_dynamic_polling: accepted */
	bool no_numa;	       /* --disable_numa: accepted */
	char *pin_cores;       /* --pin_cores: one CPU, then as --cpu */
	int64_t numa_node;     /* --numa_node, -1: not bound */
	char *report_counters; /* -W LIST, checked */
	/* -H, -U, -C: the latency samples as perftest prints them */
	bool lat_histogram, lat_unsorted, lat_cycles;
	char *config_path;	/* --config: settings file */
	char config_sha256[65]; /* its SHA-256, hex; "" without */
	/* its settings the command line overrode (names from the table) */
	const char *config_overridden[GD_CONFIG_MAX_OVERRIDDEN];
	unsigned int config_overridden_count;
	/* memory */
	char *mem_spec; /* --mem, as given */
	/* its entries: D1, D2, ... (filled by validation) */
	char *mem_list[GD_MAX_DEVMEM];
	unsigned int num_mem;
	int64_t use_cuda; /* --use_cuda=N, -1 unset */
	char *use_cuda_bus_id;
	bool use_cuda_dmabuf;
	bool use_cuda_pcie_mapping; /* DMA-BUF export with the PCIe flag */
	bool disable_pcie_relaxed;  /* no IBV_ACCESS_RELAXED_ORDERING */
	bool use_hugepages;
	char *mmap_path;	    /* --mmap=FILE: --mem=mmap:FILE */
	uint64_t mmap_offset_bytes; /* --mmap-offset */
	/* paired run */
	char *phases;
	bool reverse;
	bool no_interleave;
	char *counters_root;
	double expect_ratio;
	uint64_t gate_from_bytes;
	bool gate_from_given; /* --gate-from narrows the verdicts too */
	char *gate_undecided; /* --gate-undecided: NULL or "fail", "pass" */
	double min_bw_MiBps;
	double max_lat_us;
	double limit_bw;      /* -w, in the report's unit (perftest) */
	double limit_msgrate; /* -y, Mpps */
	bool max_lat_p99;
	char *plot_path;
	char *metrics_path; /* --openmetrics: node_exporter textfile */
	bool metrics_sizes; /* --openmetrics-sizes */
	char *junit_path;   /* --junit: the gates as JUnit XML */
	/* output */
	bool report_gbits;
	bool out_json;
	char *json_path;
	enum gd_output_only output;
	bool cpu_util;
	char *progress; /* --progress: NULL (auto), "none", "line", "auto" */
	bool brief;	/* --brief: the comparison, counters, verdicts */
	int64_t cpu;	/* --cpu, -1: not pinned */
	bool ignore_cpu_freq;
	bool dont_xchg_versions;
	char *labels[GD_MAX_LABELS];
	unsigned int num_labels;
	bool help, version;
	bool help_all; /* --help=all: also what has no effect or is refused */
	bool dry_run;  /* --dry-run: check, print the plan, run nothing */
	/* the CLI's table-driven hooks (set by gd_opts_parse) */
	const struct gd_opts_ops *ops;
	/* which options the user gave explicitly (bit per table entry) */
	uint64_t given_mask[3];
};

/* The sizes the sweep runs, ascending: --sizes, the -a sweep or -s; 0 or
 * -E2BIG (recorded) when more than @max. */
int gd_opts_sizes(const struct gd_opts *o, uint64_t *sizes, unsigned int max,
		  unsigned int *n);
/* The largest of those sizes, what the buffers must hold. */
uint64_t gd_opts_max_size(const struct gd_opts *o);

/* --precision or --until-decided: rounds are added, looking after each,
 * until the run's assessments are decided (sweep_precision.c). */
static inline bool gd_opts_adaptive(const struct gd_opts *o)
{
	return o->precision_pct > 0 || o->until_decided;
}

#endif
