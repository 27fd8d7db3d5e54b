/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor: collect the test envelope (inventory, GPU-to-NIC map, route
 * record, findings) and print it as a report and/or JSON, or compare two
 * nodes' envelopes with --diff.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "tools/doctor/output.h"
#include "envelope/envelope.h"
#include "util/error.h"
#include "util/exit.h"
#include "util/opt.h"
#include "util/output.h"
#include "util/parse.h"

struct gd_doctor_args {
	struct gd_envelope_opts env;
	const char *json_path; /* "-" = JSON on stdout instead of text */
	bool diff;
};

enum {
	O_ROOT = 256,
	O_XML,
	O_RAILS,
	O_MEMLOCK,
	O_JSON,
	O_DIFF,
	O_PEER,
	O_PEER_TIMEOUT
};

/* The options, in the table form of every program (util/opt.h). */
static const struct gd_opt gd_doctor_opts[] = {
	{ "root", 0, GD_OPT_ARG, "DIR",
	  "read sysfs/procfs below DIR (default /)", O_ROOT, 0 },
	{ "topology-xml", 0, GD_OPT_ARG, "FILE",
	  "hwloc XML topology instead of the live system", O_XML, 0 },
	{ "rails", 0, GD_OPT_ARG, "FILE",
	  "'DEVICE RAIL' lines mapping NICs/GPUs to rails", O_RAILS, 0 },
	{ "memlock-need", 0, GD_OPT_ARG, "SIZE",
	  "buffer size (K/M/G = KiB/MiB/GiB) that the locked-memory limit must cover",
	  O_MEMLOCK, 0 },
	{ "peer", 0, GD_OPT_ARG, "HOST[:PORT]",
	  "bootstrap check: the local interface and address that route to HOST, and whether TCP to the side-channel PORT (default 18515) connects",
	  O_PEER, 0 },
	{ "peer-timeout", 0, GD_OPT_ARG, "MS",
	  "limit of that TCP connect (default 3000)", O_PEER_TIMEOUT, 0 },
	{ "json", 0, GD_OPT_OPTARG, "FILE",
	  "JSON document to FILE, or alone: to stdout instead of the report",
	  O_JSON, 0 },
	{ "diff", 0, GD_OPT_NOARG, NULL,
	  "print what differs between two envelopes, the two JSON files given as arguments",
	  O_DIFF, 0 },
	{ "help", 'h', GD_OPT_NOARG, NULL, "this help", GD_OPT_ID_HELP, 0 },
	{ "version", 'V', GD_OPT_NOARG, NULL, "print the version",
	  GD_OPT_ID_VERSION, 0 },
};
#define GD_DOCTOR_NOPTS (sizeof(gd_doctor_opts) / sizeof(gd_doctor_opts[0]))

static const struct gd_opt_prog gd_doctor_prog = {
	.name = "gd_doctor",
	.usage =
		"Usage: gd_doctor [OPTION]...\n"
		"       gd_doctor --diff A.json B.json\n"
		"Collect the test envelope: host, RDMA devices, GPUs, platform checks,\n"
		"GPU-to-NIC map and registration route, with findings. Read only.",
	.opts = gd_doctor_opts,
	.n = GD_DOCTOR_NOPTS,
	.exits = GD_EXIT_ALL & ~GD_EXIT_BIT(GD_EXIT_GATE_UNDECIDED),
};

static int gd_doctor_opt(void *ctx, const struct gd_opt *opt, const char *arg)
{
	struct gd_doctor_args *a = ctx;
	uint64_t ms;

	switch (opt->id) {
	case O_ROOT:
		a->env.root = arg;
		return 0;
	case O_XML:
		a->env.topology_xml = arg;
		return 0;
	case O_RAILS:
		a->env.rails_path = arg;
		return 0;
	case O_MEMLOCK:
		return gd_parse_u64(arg, "--memlock-need", true, 1, UINT64_MAX,
				    &a->env.memlock_need_bytes);
	case O_JSON:
		a->json_path = arg ? arg : "-";
		return 0;
	case O_DIFF:
		a->diff = true;
		return 0;
	case O_PEER:
		a->env.peer = arg;
		return 0;
	default: /* O_PEER_TIMEOUT */
		if (gd_parse_u64(arg, "--peer-timeout", false, 1, 600000, &ms))
			return -EINVAL;
		a->env.peer_timeout_ms = (int)ms;
		return 0;
	}
}

/* 0, 1 after --help/--version, or -EINVAL; the arguments from *@first. */
static int gd_doctor_parse(int argc, char **argv, struct gd_doctor_args *a,
			   int *first)
{
	int ret = gd_opt_parse(&gd_doctor_prog, argc, argv, gd_doctor_opt, a,
			       first);

	if (ret)
		return ret;
	if (a->diff != (argc - *first == 2) || (!a->diff && *first != argc))
		return gd_err(
			-EINVAL,
			a->diff ? "option --diff needs exactly two JSON files"
				: "unexpected argument '%s'; see gd_doctor --help",
			argv[*first]);
	return 0;
}

static struct json_object *
gd_doctor_document(int argc, char **argv, struct json_object *env, int status)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *cmd = json_object_new_array();
	int i;

	for (i = 0; i < argc; i++)
		json_object_array_add(cmd, json_object_new_string(argv[i]));
	json_object_object_add(doc, "schema",
			       json_object_new_string("gdperf.doctor/1"));
	json_object_object_add(doc, "tool",
			       json_object_new_string("gd_doctor"));
	json_object_object_add(doc, "version",
			       json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(doc, "command_line", cmd);
	json_object_object_add(doc, "envelope", json_object_get(env));
	json_object_object_add(doc, "exit_status", json_object_new_int(status));
	return doc;
}

/* Written to a temporary name and renamed, so a reader never sees half;
 * in place when the path is not a regular file (/dev/null, a FIFO), whose
 * node a rename would replace. */
static int gd_doctor_write_json(const char *path, struct json_object *doc)
{
	int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE;
	char tmp[4096];
	struct stat st;

	if (!strcmp(path, "-")) {
		if (gd_out_put(stdout,
			       json_object_to_json_string_ext(doc, flags),
			       "--json", "-"))
			return -EIO;
		return gd_out_put(stdout, "\n", "--json", "-");
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return gd_out_file("--json", path,
				   json_object_to_json_string_ext(doc, flags));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (json_object_to_file_ext(tmp, doc, flags) || rename(tmp, path)) {
		remove(tmp);
		return gd_err(
			-EIO,
			"cannot write the JSON document to '%s'; check the directory exists and is writable",
			path);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct gd_doctor_args a = { .env.root = "/" };
	struct json_object *env, *doc;
	int ret, status, ndiff, first;

	ret = gd_doctor_parse(argc, argv, &a, &first);
	if (ret)
		goto out_usage;
	if (a.diff) {
		ret = gd_doctor_diff(argv[first], argv[first + 1], stdout,
				     &ndiff);
		if (ret)
			goto out_usage;
		return gd_out_exit("gd_doctor",
				   ndiff ? GD_EXIT_GATE_FAILED : GD_EXIT_OK);
	}
	ret = gd_envelope_collect(&a.env, &env);
	if (ret)
		goto out_usage;
	status = gd_envelope_worst(env) == GD_SEV_ERROR ? GD_EXIT_GATE_FAILED
							: GD_EXIT_OK;
	if (!a.json_path || strcmp(a.json_path, "-"))
		gd_doctor_print_text(stdout, env);
	doc = gd_doctor_document(argc, argv, env, status);
	/* an output that could not be written is 1, as in every program */
	if (a.json_path && gd_doctor_write_json(a.json_path, doc))
		status = GD_EXIT_FAIL;
	json_object_put(doc);
	json_object_put(env);
	if (gd_err_is_set())
		gd_err_print("gd_doctor");
	return gd_out_exit("gd_doctor", status);

out_usage:
	if (ret > 0)
		return gd_out_exit("gd_doctor", GD_EXIT_OK);
	if (!gd_err_is_set())
		gd_err(ret, "%s", strerror(-ret));
	gd_err_print("gd_doctor");
	return GD_EXIT_USAGE;
}
