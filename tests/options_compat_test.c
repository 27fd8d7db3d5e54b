/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Every perftest option (tests/perftest-options.txt, perftest 6.29) against
 * every binary, by long name and by letter: implemented (parsed with a
 * valid value, the letter the same option as the name), not applicable to
 * this test (refused naming the tests it applies to), or refused with
 * perftest's meaning, the perftest tests that have it and the reason; never
 * "unknown option". Also the naming rule: '-' and '_' spell the same option,
 * and no prefix of a name is taken for the name.
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "util/error.h"
#include "cli/options.h"
#include "cli/options_priv.h"
#include "opts_util.h"

#define PT_MAX 256

struct pt_opt {
	char name[64];
	int has_arg;
	char short_name;
};

static struct pt_opt pt[PT_MAX];
static size_t pt_count;

/* --payload_file_path's and --mmap's file, written by load_list */
#define GD_COMPAT_PAYLOAD "/tmp/gd-compat-payload.txt"

static int load_list(void **state)
{
	const char *dir = getenv("srcdir");
	char path[4096], line[256], sh[8], cond[64];
	FILE *f = fopen(GD_COMPAT_PAYLOAD, "w");

	(void)state;
	if (!f || fputs("0x01020304,0xa0b0c0d0\n", f) < 0 || fclose(f)) {
		print_error("cannot write %s\n", GD_COMPAT_PAYLOAD);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/tests/perftest-options.txt",
		 dir ? dir : ".");
	f = fopen(path, "r");
	if (!f) {
		print_error(
			"cannot open %s (run from the build dir via make check)\n",
			path);
		return -1;
	}
	while (fgets(line, sizeof(line), f) && pt_count < PT_MAX) {
		struct pt_opt *p = &pt[pt_count];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %d %7s %63s", p->name, &p->has_arg, sh,
			   cond) != 4)
			continue;
		p->short_name = strcmp(sh, "-") ? sh[0] : 0;
		pt_count++;
	}
	fclose(f);
	return pt_count > 100 ? 0 : -1;
}

/* A value each option takes, and what else it needs on the line, so that an
 * implemented option is proved by a parse that succeeds, not by any error
 * that is not "unknown option". */
struct sample {
	const char *name;
	const char *value; /* NULL: "1" for options with an argument */
	const char *extra[3];
};

static const struct sample samples[] = {
	{ "ib-dev", "rxe0", { NULL } },
	{ "connection", "RC", { NULL } },
	{ "size", "8", { NULL } },
	{ "iters", "100", { NULL } },
	{ "duration", "5", { NULL } },
	{ "margin", "1", { "-D", "5", NULL } },
	{ "qp", "2", { NULL } },
	{ "tx-depth", "64", { NULL } },
	{ "rx-depth", "64", { NULL } },
	{ "cq-mod", "10", { NULL } },
	{ "inline_size", "16", { NULL } },
	{ "mtu", "1024", { NULL } },
	{ "qp-timeout", "12", { NULL } },
	{ "gid-index", "3", { NULL } },
	{ "port", "18600", { NULL } },
	{ "tos", "32", { NULL } },
	{ "tclass", "32", { NULL } },
	{ "sl", "2", { NULL } },
	{ "atomic_type", "CMP_AND_SWAP", { NULL } },
	{ "limit_bw", "100.5", { NULL } },
	{ "limit_msgrate", "0.5", { NULL } },
	{ "report-counters",
	  "hw_counters/rcvd_pkts,counters/port_xmit_data",
	  { NULL } },
	{ "pin_cores", "0", { NULL } },
	{ "bind_source_ip", "127.0.0.1", { NULL } },
	{ "source_ip", "127.0.0.1", { NULL } },
	{ "out_json_file", "/tmp/gd-compat-test.json", { NULL } },
	{ "json", "/tmp/gd-compat-test.json", { NULL } },
	{ "use_cuda", "0", { NULL } },
	{ "use_cuda_bus_id", "0000:3b:00.0", { NULL } },
	{ "use_cuda_dmabuf", NULL, { "--use_cuda=0", NULL } },
	{ "use_cuda_pcie_mapping",
	  NULL,
	  { "--use_cuda=0", "--use_cuda_dmabuf", NULL } },
	{ "mem", "host", { NULL } },
	{ "sizes", "4K,64K", { NULL } },
	{ "min-size", "64", { NULL } },
	{ "max-size", "64K", { NULL } },
	{ "warmup", "5", { NULL } },
	{ "timeout", "500", { NULL } },
	{ "max-memory", "1G", { NULL } },
	{ "max-clients", "2", { "--persist", NULL } },
	{ "cpu", "0", { NULL } },
	{ "phases", "HH", { NULL } },
	{ "repeat", "2", { NULL } },
	{ "precision", "5", { NULL } },
	{ "max-repeat", "5", { "--precision=5", NULL } },
	{ "precision-time", "60", { "--precision=5", NULL } },
	{ "expect-ratio", "0.8", { NULL } },
	{ "gate-from", "4K", { NULL } },
	{ "gate-undecided", "pass", { "--expect-ratio=0.8", NULL } },
	{ "max-lat-p99", NULL, { "--max-lat=10", NULL } },
	{ "min-bw", "10", { NULL } },
	{ "max-lat", "10", { NULL } },
	{ "plot", "/tmp/gd-compat-test.svg", { NULL } },
	{ "label", "lab=a", { NULL } },
	{ "counters-root", "/tmp", { NULL } },
	{ "latency_gap", "2", { NULL } },
	{ "retry_count", "5", { NULL } },
	{ "post_list", "2", { NULL } },
	{ "recv_post_list", "8", { NULL } },
	{ "cqe_poll", "4", { NULL } },
	{ "outs", "4", { NULL } },
	{ "wait_destroy", "2", { NULL } },
	{ "MGID", "ff0e::1", { "-g", NULL } },
	{ "rate_limit", "10", { NULL } },
	{ "rate_units", "M", { "--rate_limit=10", NULL } },
	{ "rate_limit_type", "SW", { "--rate_limit=10", NULL } },
	{ "burst_size", "8", { "--rate_limit=10", NULL } },
	{ "vector", "0", { "-e", NULL } },
	{ "flow_label", "1,0x2", { NULL } },
	/* load_list writes the file: the payload is read at parse time */
	{ "payload_file_path", GD_COMPAT_PAYLOAD, { NULL } },
	{ "mmap", GD_COMPAT_PAYLOAD, { NULL } },
	{ "mmap-offset", "4096", { "--mmap=" GD_COMPAT_PAYLOAD, NULL } },
	/* checked against sysfs at parse time: node 0 is there on Linux */
	{ "numa_node", "0", { NULL } },
	{ "ib-port", "1", { NULL } },
	{ "config", NULL, { NULL } }, /* needs a file: see test_config */
};

static const struct sample *sample_of(const char *name)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		if (gd_opt_name_eq(samples[i].name, name, strlen(name)))
			return &samples[i];
	return NULL;
}

static const struct gd_opt_def *opt_named(const char *name)
{
	int idx = gd_opt_find(name, strlen(name));

	return idx < 0 ? NULL : &gd_opt_table[idx];
}

/* --output's value is the test's own kind of figure. */
static const char *value_for(const struct gd_test *t, const char *name,
			     const struct sample *s)
{
	if (gd_opt_name_eq("output", name, strlen(name)))
		return t->measure == GD_MEASURE_BW ? "bandwidth" : "latency";
	return s && s->value ? s->value : "1";
}

/* Build "--NAME=V EXTRA..." (or "-c V EXTRA..." with @letter) in @argv. */
static void args_for(const struct gd_test *t, const char *name, int letter,
		     bool has_arg, char *word, size_t len, const char **argv)
{
	const struct sample *s = sample_of(name);
	const char *v = value_for(t, name, s);
	int n = 0;

	if (letter) {
		snprintf(word, len, "-%c", letter);
		argv[n++] = word;
		if (has_arg)
			argv[n++] = v;
	} else {
		snprintf(word, len, "--%s%s%s", name, has_arg ? "=" : "",
			 has_arg ? v : "");
		argv[n++] = word;
	}
	for (int i = 0; s && i < 3 && s->extra[i]; i++)
		argv[n++] = s->extra[i];
	argv[n] = NULL;
}

/* The effective options after a parse, as one JSON string (freed by the
 * caller), or NULL when the parse failed (message in gd_err_msg()). */
static char *parse_effective(const struct gd_test *t, const char *const *args)
{
	FILE *null = fopen("/dev/null", "w");
	struct gd_opts o;
	struct json_object *j;
	char *text = NULL;
	int ret;

	assert_non_null(null);
	/* 1: --help or --version, printed and done */
	ret = parse_list(t, &o, null, args);
	fclose(null);
	if (ret < 0) {
		gd_opts_free(&o);
		return NULL;
	}
	j = gd_opts_effective(&o);
	text = strdup(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	gd_opts_free(&o);
	return text;
}

static bool msg_has(const struct gd_test *t, const char *what,
		    const char *needle)
{
	if (strstr(gd_err_msg(), needle))
		return true;
	print_error("%s %s: message lacks '%s': '%s'\n", t->name, what, needle,
		    gd_err_msg());
	return false;
}

/* A refusal of perftest's: its meaning, its tests, this binary, a reason in
 * one of the documented kinds, and where to read more. */
static bool refusal_ok(const struct gd_test *t, const char *what)
{
	static const char *const kinds[] = {
		"not implemented in gdperf: ",
		"raw_ethernet_* tests, which gdperf does not have",
		"a vendor extension (",
		"gdperf has no ",
		"gdperf's side channel is always TCP",
		"perftest itself takes -L only",
		"gdperf takes the port's link layer",
	};
	char here[96];
	bool kind = false;

	snprintf(here, sizeof(here), "is not available in %s: ", t->name);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		kind |= strstr(gd_err_msg(), kinds[i]) != NULL;
	if (!kind)
		print_error("%s %s: reason of no known kind: '%s'\n", t->name,
			    what, gd_err_msg());
	return kind && msg_has(t, what, "(perftest: ") &&
	       msg_has(t, what, "; in ") && msg_has(t, what, here) &&
	       msg_has(t, what, "see gdperf-perftest(7)") &&
	       !strstr(gd_err_msg(), "unknown option") &&
	       !strstr(gd_err_msg(), "not implemented in gdperf yet");
}

/* One perftest option on one binary, by name and by letter. */
static bool judge(const struct gd_test *t, const struct pt_opt *p,
		  size_t *accepted, size_t *refused, size_t *other_test)
{
	const struct gd_opt_def *d = opt_named(p->name);
	const char *argv[8], *argv_l[8];
	char word[96], word_l[8], *long_eff, *short_eff;
	bool ok = true;

	args_for(t, p->name, 0, p->has_arg, word, sizeof(word), argv);
	long_eff = parse_effective(t, argv);
	if (gd_opts_perftest_refused(p->name)) {
		ok = !long_eff && refusal_ok(t, word);
		(*refused)++;
	} else if (!d) {
		print_error("%s %s: neither implemented nor refused: '%s'\n",
			    t->name, word, gd_err_msg());
		ok = false;
	} else if (gd_opt_applies(t, d)) {
		if (!long_eff)
			print_error("%s %s: refused: '%s'\n", t->name, word,
				    gd_err_msg());
		ok = long_eff != NULL;
		(*accepted)++;
	} else {
		ok = !long_eff && msg_has(t, word, "does not apply to") &&
		     msg_has(t, word, t->name) &&
		     msg_has(t, word, "it applies to");
		(*other_test)++;
	}
	if (!p->short_name) {
		free(long_eff);
		return ok;
	}
	/* the letter: the same option, the same outcome */
	args_for(t, p->name, p->short_name, p->has_arg, word_l, sizeof(word_l),
		 argv_l);
	short_eff = parse_effective(t, argv_l);
	if (!!short_eff != !!long_eff ||
	    (short_eff && strcmp(short_eff, long_eff))) {
		print_error("%s: -%c and --%s differ: %s vs %s ('%s')\n",
			    t->name, p->short_name, p->name,
			    short_eff ? short_eff : "refused",
			    long_eff ? long_eff : "refused", gd_err_msg());
		ok = false;
	} else if (!short_eff && gd_opts_perftest_refused(p->name)) {
		ok &= refusal_ok(t, word_l);
	}
	if (d && d->short_name != p->short_name) {
		print_error("--%s is -%c in perftest but -%c in gdperf\n",
			    p->name, p->short_name,
			    d->short_name ? d->short_name : '?');
		ok = false;
	}
	free(long_eff);
	free(short_eff);
	return ok;
}

static void test_every_perftest_option(void **state)
{
	size_t bad = 0, accepted = 0, refused = 0, other = 0;

	(void)state;
	for (size_t b = 0; b < GD_TEST_COUNT; b++)
		for (size_t i = 0; i < pt_count; i++)
			bad += !judge(&gd_tests[b], &pt[i], &accepted, &refused,
				      &other);
	print_message(
		"perftest 6.29: %zu options x %d binaries: %zu accepted, %zu not of that test, %zu refused with a reason, %zu wrong\n",
		pt_count, (int)GD_TEST_COUNT, accepted, other, refused, bad);
	assert_int_equal(bad, 0);
}

/* The refusal table names only perftest's options, each once, and none
 * that the option table implements. */
static void test_refusals_are_perftest_options(void **state)
{
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < pt_count; i++) {
		n += gd_opts_perftest_refused(pt[i].name);
		if (gd_opts_perftest_refused(pt[i].name) &&
		    opt_named(pt[i].name))
			fail_msg("--%s is both implemented and refused",
				 pt[i].name);
	}
	assert_int_equal(n, gd_opts_perftest_refused_count());
}

/* What an audit found: options gdperf does anyway are accepted, and -A
 * takes both of perftest's operations. */
static void test_accepted_no_ops(void **state)
{
	struct gd_opts o;

	(void)state;
	assert_int_equal(PARSE(&t_write_bw, &o, "--use_old_post_send",
			       "--perform_warm_up", "--disable_dynamic_polling",
			       "--disable_numa", "--report-both", "-b", "-F"),
			 0);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_read_bw, &o, "--data_validation"), 0);
	assert_true(o.verify);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_send_bw, &o, "--data_validation_debug"), 0);
	assert_true(o.verify);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_atomic_lat, &o, "-A", "FETCH_AND_ADD"), 0);
	assert_int_equal(o.atomic_op, GD_ATOMIC_FETCH_AND_ADD);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_atomic_bw, &o, "--atomic_type=CMP_AND_SWAP"),
			 0);
	assert_int_equal(o.atomic_op, GD_ATOMIC_CMP_AND_SWAP);
	gd_opts_free(&o);
	REJECT(&t_atomic_bw, -EINVAL, "FETCH_AND_ADD, CMP_AND_SWAP", "-A",
	       "cmp_and_swap");
	/* perftest's help spells -H so */
	assert_int_equal(PARSE(&t_read_lat, &o, "--report-histogram"), 0);
	assert_true(o.lat_histogram);
	gd_opts_free(&o);
}

/* Refusals whose question is a capability say what the device answers
 * (here: that there is none to ask; the guest asks rxe0). */
static void test_refusal_reasons(void **state)
{
	(void)state;
	REJECT(&t_write_bw, -EINVAL,
	       "(perftest: on-demand paging; in every verbs test (ib_write_bw, ",
	       "--odp");
	assert_msg_has("not implemented in gdperf: gdperf registers and pins");
	assert_msg_has(
		"; no RDMA device to ask (ibv_get_device_list found none)");
	REJECT(&t_read_lat, -EINVAL,
	       "in ib_write_bw, ib_write_lat, ib_read_bw and ib_read_lat)",
	       "--use-null-mr");
	assert_msg_has("no RDMA device to ask");
	REJECT(&t_send_bw, -EINVAL,
	       "(ib_write_bw, ib_read_bw, ib_send_bw and ib_atomic_bw))",
	       "--dualport");
	REJECT(&t_write_bw, -EINVAL, "gdperf has no ROCm backend",
	       "--use_rocm=0");
	REJECT(&t_write_bw, -EINVAL,
	       "raw_ethernet_* tests, which gdperf does not have",
	       "--source_mac=00:11:22:33:44:55");
	REJECT(&t_write_bw, -EINVAL,
	       "(perftest: source MAC; in raw_ethernet_* tests)", "-B", "x");
	REJECT(&t_write_bw, -EINVAL, "a vendor extension (mlx5dv)",
	       "--aes_xts");
	/* implemented for the bandwidth tests only, as in perftest */
	REJECT(&t_send_lat, -EINVAL, "does not apply to gd_send_lat",
	       "--mr_per_qp");
	REJECT(&t_read_bw, -EINVAL, "Hop limit only valid for RawEth QP", "-L",
	       "3");
	/* the device asked is the one -d names, wherever -d comes */
	REJECT(&t_write_bw, -EINVAL, "no RDMA device mlx5_9 to ask", "--odp",
	       "-d", "mlx5_9");
	REJECT(&t_write_bw, -EINVAL, "no RDMA device mlx5_9 to ask",
	       "--ib-dev=mlx5_9", "--odp");
}

static void swap_spelling(char *s)
{
	for (; *s; s++)
		*s = *s == '-' ? '_' : *s == '_' ? '-' : *s;
}

/* Each gdperf option under its other spelling is the same option: the same
 * effective options after a parse with a valid value, on a test it
 * applies to. */
static void test_both_spellings(void **state)
{
	size_t checked = 0;

	(void)state;
	for (size_t i = 0; i < gd_opt_count; i++) {
		const struct gd_opt_def *d = &gd_opt_table[i];
		const struct gd_test *t = NULL;
		char name[64], word[96], word2[96], *a, *b;
		const char *argv[8];
		bool has_arg = d->type != GD_T_FLAG;

		if (!strpbrk(d->long_name, "-_") ||
		    !strcmp(d->long_name, "config"))
			continue;
		for (int k = 0; k < GD_TEST_COUNT && !t; k++)
			if (gd_opt_applies(&gd_tests[k], d))
				t = &gd_tests[k];
		assert_non_null(t);
		args_for(t, d->long_name, 0, has_arg, word, sizeof(word), argv);
		a = parse_effective(t, argv);
		if (!a)
			fail_msg("%s %s: '%s'", t->name, word, gd_err_msg());
		snprintf(name, sizeof(name), "%s", d->long_name);
		swap_spelling(name);
		args_for(t, d->long_name, 0, has_arg, word2, sizeof(word2),
			 argv);
		/* the same value after the other spelling */
		snprintf(word2, sizeof(word2), "--%s%s", name,
			 strchr(word, '=') ? strchr(word, '=') : "");
		argv[0] = word2;
		b = parse_effective(t, argv);
		if (!b || strcmp(a, b))
			fail_msg("%s %s and %s differ: '%s'", t->name, word,
				 word2, b ? b : gd_err_msg());
		free(a);
		free(b);
		checked++;
	}
	assert_true(checked >= 40);
}

/* Unambiguous abbreviations, as perftest's getopt_long takes them, but
 * never one that could be perftest's option gdperf refuses. */
static void test_abbreviations(void **state)
{
	struct gd_opts o;

	(void)state;
	/* perftest's TPH hint, not a prefix of --phases */
	REJECT(&t_write_bw, -EINVAL, "PCIe TPH", "--ph=0");
	/* an abbreviation of perftest's --gpu_touch alone: its reason */
	REJECT(&t_write_bw, -EINVAL, "gpu_touch", "--gpu");
	REJECT(&t_write_bw, -EINVAL,
	       "option --min is ambiguous: --min-size, --min-bw", "--min=4");
	REJECT(&t_write_bw, -EINVAL,
	       "unknown option --sise; did you mean --size?", "--sise=4");
	REJECT(&t_write_bw, -EINVAL, "did you mean --expect-ratio?",
	       "--expect-ration=0.9");
	assert_int_equal(PARSE(&t_write_bw, &o, "--phase=HH"), 0);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--iter", "5"), 0);
	assert_int_equal(o.iters, 5);
	gd_opts_free(&o);
	assert_int_equal(PARSE(&t_write_bw, &o, "--max_size=5K"), 0);
	assert_int_equal(o.max_size_bytes, 5120);
	gd_opts_free(&o);
}

/* "--json out.json" once made out.json the server's host name. */
static void test_json_word(void **state)
{
	struct gd_opts o;

	(void)state;
	REJECT(&t_write_bw, -EINVAL, "--json=out.json", "--json", "out.json");
	assert_int_equal(PARSE(&t_write_bw, &o, "--json", "host1"), 0);
	assert_string_equal(o.server_host, "host1");
	gd_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_perftest_option),
		cmocka_unit_test(test_refusals_are_perftest_options),
		cmocka_unit_test(test_accepted_no_ops),
		cmocka_unit_test(test_refusal_reasons),
		cmocka_unit_test(test_both_spellings),
		cmocka_unit_test(test_abbreviations),
		cmocka_unit_test(test_json_word),
	};

	return cmocka_run_group_tests(tests, load_list, NULL);
}
