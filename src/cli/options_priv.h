/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Private to the options_*.c files: the option table's shape, the
 * table itself (options_table.c) and the helpers they share.
 */
#ifndef GD_OPTIONS_PRIV_H
#define GD_OPTIONS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/options.h"

enum gd_opt_type {
	GD_T_FLAG, /* bool, no argument */
	GD_T_U64,  /* unsigned, no suffix */
	GD_T_SIZE, /* unsigned, K/M/G suffix */
	GD_T_I64,  /* signed (for -1 "unset" fields) */
	GD_T_DBL,
	GD_T_STR,
	GD_T_CONN,
	GD_T_OUTPUT,
	GD_T_LABEL,
	GD_T_JSONOPT, /* --json[=F] */
	GD_T_ATOMIC,  /* -A FETCH_AND_ADD|CMP_AND_SWAP */
	GD_T_HELP,    /* --help[=all] */
};

/* flags */
#define GD_F_TRAVELS 0x1 /* sent to the server, must match if given there */
#define GD_F_OPTARG 0x2	 /* optional argument (--json[=F]) */
/* perftest's option, accepted for its scripts, that changes nothing here:
 * gdperf already does what it asks (the help text says so). */
#define GD_F_NOOP 0x4

/* --help lists an option under its group, in this order. */
enum gd_opt_group {
	GD_G_PERFTEST, /* perftest's letters and meanings */
	GD_G_SHAPE,    /* gdperf's own run shape and side channel */
	GD_G_MEMORY,   /* memory and GPU */
	GD_G_PAIRED,   /* paired runs: phases, repeats, statistics */
	GD_G_GATES,    /* pass/fail limits, exit status 3 */
	GD_G_OUTPUT,   /* what is printed and written */
	GD_G_COUNT
};

/*
 * Which tests an option applies to: a bit per entry of gd_tests[], as the
 * union of these. A binary's --help lists only its options, and an option
 * given to a test it does not apply to is refused with the tests it does
 * apply to. The names are tokens tests/ and contrib/ read from this file.
 */
#define GD_AP_TEST(id) (1u << (id))
#define GD_AP_WRITE_BW GD_AP_TEST(GD_TEST_WRITE_BW)
#define GD_AP_WRITE_LAT GD_AP_TEST(GD_TEST_WRITE_LAT)
#define GD_AP_READ_BW GD_AP_TEST(GD_TEST_READ_BW)
#define GD_AP_READ_LAT GD_AP_TEST(GD_TEST_READ_LAT)
#define GD_AP_SEND_BW GD_AP_TEST(GD_TEST_SEND_BW)
#define GD_AP_SEND_LAT GD_AP_TEST(GD_TEST_SEND_LAT)
#define GD_AP_ATOMIC_BW GD_AP_TEST(GD_TEST_ATOMIC_BW)
#define GD_AP_ATOMIC_LAT GD_AP_TEST(GD_TEST_ATOMIC_LAT)
#define GD_AP_WRITE (GD_AP_WRITE_BW | GD_AP_WRITE_LAT)
#define GD_AP_READ (GD_AP_READ_BW | GD_AP_READ_LAT)
#define GD_AP_SEND (GD_AP_SEND_BW | GD_AP_SEND_LAT)
#define GD_AP_ATOMIC (GD_AP_ATOMIC_BW | GD_AP_ATOMIC_LAT)
#define GD_AP_BW                                                               \
	(GD_AP_WRITE_BW | GD_AP_READ_BW | GD_AP_SEND_BW | GD_AP_ATOMIC_BW)
#define GD_AP_LAT                                                              \
	(GD_AP_WRITE_LAT | GD_AP_READ_LAT | GD_AP_SEND_LAT | GD_AP_ATOMIC_LAT)
#define GD_AP_ALL (GD_AP_BW | GD_AP_LAT)

struct gd_opt_def {
	const char *long_name;
	int short_name; /* 0: long only */
	enum gd_opt_type type;
	size_t offset;
	int64_t min, max;
	const char *arg;
	const char *help;
	unsigned int flags;
	enum gd_opt_group group;
	unsigned int applies; /* GD_AP_* */
	/* the default as --help words it; NULL: the number gd_opts_defaults
	 * gives the test (none for flags and strings); "": say nothing */
	const char *dflt;
};

extern const struct gd_opt_def gd_opt_table[];
extern const size_t gd_opt_count;
#define GD_NOPTS gd_opt_count
extern const char *const gd_conn_names[];

/*
 * A rule between two options (long names), in a table beside the option
 * table: @a with @b (GD_RULE_EXCLUDES), or @a without @b (GD_RULE_NEEDS;
 * GD_RULE_NEEDS_WARN only warns), is refused with @msg.
 */
enum gd_rule_kind { GD_RULE_EXCLUDES, GD_RULE_NEEDS, GD_RULE_NEEDS_WARN };
struct gd_opt_rule {
	const char *a, *b;
	enum gd_rule_kind kind;
	const char *msg;
};
extern const struct gd_opt_rule gd_opt_rules[];
extern const size_t gd_opt_rule_count;
/* Apply gd_opt_rules[] to @o: -EINVAL (message recorded) at the first
 * broken rule, a warning printed for @test's NEEDS_WARN ones, else 0. */
int gd_opts_rules_check(const struct gd_test *test, const struct gd_opts *o);
/* A --min-bw, --max-lat or --expect-ratio gate over no size of the
 * sweep: -EINVAL (message recorded), else 0. */
int gd_opts_gate_sizes_check(const struct gd_opts *o);

/* Parse @arg for option @d into @o (range-checked, message recorded). */
int gd_opt_store(const struct gd_opt_def *d, struct gd_opts *o,
		 const char *arg);
/* Was table entry @idx given on the command line? */
bool gd_is_given(const struct gd_opts *o, size_t idx);
/* options_mem.c: --mem and what depends on it (after the other checks);
 * @mem_given and @inline_given: were --mem and -I given by the user. */
int gd_opts_mem_validate(struct gd_opts *o, bool mem_given, bool inline_given,
			 bool mmap_offset_given);
/* Does @pred hold for one of this side's device memories? */
bool gd_opts_mem_any(const struct gd_opts *o, bool (*pred)(const char *));

/* options_wire.c: the table-driven hooks the engine calls (gd_opts.ops,
 * set by gd_opts_parse). */
extern const struct gd_opts_ops gd_cli_opts_ops;

/* Every field at the test's default. */
void gd_opts_defaults(const struct gd_test *test, struct gd_opts *o);
/* Cross-option checks and derived values, after parsing or adopting. */
int gd_opts_validate(const struct gd_test *test, struct gd_opts *o);
/* --cpu (or --pin_cores): CPUs this process may use, and N+1 for the
 * --loopback server half; on the command line only. */
int gd_opts_check_cpu(const struct gd_opts *o);

/* options_help.c: the default of option @d for @test as --help words it
 * ("" when it says none). */
void gd_opt_default_text(const struct gd_test *test, const struct gd_opt_def *d,
			 char *buf, size_t len);
/* Does option @d apply to @test? */
bool gd_opt_applies(const struct gd_test *test, const struct gd_opt_def *d);
/* Refuse option @d for @test when it does not apply: -EINVAL (recorded,
 * naming the tests it applies to), else 0. */
int gd_opt_check_applies(const struct gd_test *test,
			 const struct gd_opt_def *d);
extern const char *const gd_atomic_names[];

/* Index in gd_opt_table of the option named by the @len bytes of @name
 * ('-' and '_' alike), or -1. */
int gd_opt_find(const char *name, size_t len);
/* Record that option @idx was given (by the command line or --config). */
void gd_opt_mark_given(struct gd_opts *o, size_t idx);

/* options_verbs.c: -X, --use-srq, --flow_label (parsed into the list),
 * --ipv6, --payload_file_path against the other options. */
int gd_opts_verbs_check(struct gd_opts *o, bool vector_given, bool conn_given);
/* options_rate.c: --rate_limit, --rate_units, --rate_limit_type and
 * --burst_size (@rate_given: --rate_limit was given by the user;
 * @max_size_bytes: the sweep's largest size, where bursts are furthest
 * apart). */
int gd_opts_rate_check(struct gd_opts *o, bool rate_given,
		       uint64_t max_size_bytes);

/* options_file.c: apply the --config file named in @argv, if any, but
 * none of what @cl (the command line alone) gives or excludes. */
int gd_opts_load_config(const struct gd_test *test, int argc, char **argv,
			struct gd_opts *o, const struct gd_opts *cl);
/* options_parse.c: the command line's options into @o (given marked);
 * the arguments after them from argv[*@first] on. */
int gd_opts_getopt(const struct gd_test *test, int argc, char **argv,
		   struct gd_opts *o, int *first);

/* options_caps.c: the device's answer about a capability, one line for a
 * refusal ("rxe0 does not support on-demand paging (...)"); @dev NULL asks
 * the first device. Never fails: no device or no answer is said so. */
enum gd_cap {
	GD_CAP_NONE,
	GD_CAP_ODP,	   /* odp_caps */
	GD_CAP_XRC,	   /* IBV_DEVICE_XRC */
	GD_CAP_NULL_MR,	   /* ibv_alloc_null_mr */
	GD_CAP_DM,	   /* max_dm_size */
	GD_CAP_PORTS,	   /* phys_port_cnt */
	GD_CAP_RATE_LIMIT, /* packet_pacing_caps */
	GD_CAP_COUNT
};
void gd_caps_describe(const char *dev, enum gd_cap cap, char *buf, size_t len);

/* options_compat.c */
/* Are @a (NUL-terminated) and the @b_len bytes of @b the same option name,
 * with '-' and '_' taken as one letter? */
bool gd_opt_name_eq(const char *a, const char *b, size_t b_len);
/* A perftest option gdperf does not implement, named by long name (@name,
 * @name_len bytes) or, with @name NULL, by letter: records why, naming
 * @test and the perftest tests that have it, with the answer of device
 * @dev (NULL: the first) where a capability is the question; returns
 * -EINVAL, or -ENOENT when perftest has no such option. */
int gd_perftest_refusal(const struct gd_test *test, const char *name,
			size_t name_len, int short_name, const char *dev);
/* Refused perftest option @i (below gd_opts_perftest_refused_count()),
 * when @test's perftest counterpart has it: its names and its meaning in
 * perftest, for --help=all. False when @test's counterpart lacks it. */
bool gd_perftest_refused_entry(const struct gd_test *test, size_t i,
			       const char **name, int *short_name,
			       const char **what);
/* -c with one of perftest's connection types gdperf lacks (XRC, DC, SRD):
 * -EINVAL with the reason (and @dev's answer), else -ENOENT. */
int gd_perftest_conn_refusal(const char *value, const char *dev);

#endif
