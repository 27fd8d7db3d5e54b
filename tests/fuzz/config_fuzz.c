/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for the benchmarks' --config file (util/keyval.c and
 * cli/options_file.c): the file, then optionally a NUL byte and a
 * command line (words separated by blanks, at most GD_FUZZ_MAX_WORDS) that
 * the file must give way to, parsed by gd_opts_parse exactly as a gd_*
 * binary does, the test chosen by the input's length; then the effective
 * options the run records.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/options.h"
#include "engine/test.h"
#include "util/error.h"
#include "fuzz_util.h"

#define GD_FUZZ_MAX_WORDS 16
#define GD_FUZZ_WORD_MAX 256

struct gd_fuzz_argv {
	char *argv[GD_FUZZ_MAX_WORDS + 3];
	char store[GD_FUZZ_MAX_WORDS + 2][GD_FUZZ_WORD_MAX];
	int argc;
};

static void gd_fuzz_word(struct gd_fuzz_argv *a, const char *w, size_t len)
{
	if (a->argc >= GD_FUZZ_MAX_WORDS + 2)
		return;
	if (len >= GD_FUZZ_WORD_MAX)
		len = GD_FUZZ_WORD_MAX - 1;
	memcpy(a->store[a->argc], w, len);
	a->store[a->argc][len] = '\0';
	a->argv[a->argc] = a->store[a->argc];
	a->argc++;
}

/* A fresh argv each run: getopt permutes it. */
static void gd_fuzz_command_line(struct gd_fuzz_argv *a, const char *tool,
				 const char *cfg_path,
				 const struct gd_fuzz_chunk *words)
{
	char opt[600];
	size_t i = 0, start;

	a->argc = 0;
	gd_fuzz_word(a, tool, strlen(tool));
	snprintf(opt, sizeof(opt), "--config=%s", cfg_path);
	gd_fuzz_word(a, opt, strlen(opt));
	while (words && i < words->len) {
		while (i < words->len &&
		       (words->data[i] == ' ' || words->data[i] == '\n' ||
			words->data[i] == '\t'))
			i++;
		start = i;
		while (i < words->len && words->data[i] != ' ' &&
		       words->data[i] != '\n' && words->data[i] != '\t')
			i++;
		if (i > start)
			gd_fuzz_word(a, (const char *)words->data + start,
				     i - start);
	}
	a->argv[a->argc] = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* --help and --version in the file or the words print there */
	return freopen("/dev/null", "w", stdout) ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct gd_test *t = &gd_tests[size % GD_TEST_COUNT];
	static struct gd_fuzz_argv a;
	struct gd_fuzz_chunk c[2];
	size_t n = gd_fuzz_split(data, size, c, 2);
	struct json_object *eff;
	char path[512];
	struct gd_opts o;
	int ret;

	gd_err_clear();
	gd_fuzz_write("run.conf", &c[0], path, sizeof(path));
	gd_fuzz_command_line(&a, t->name, path, n == 2 ? &c[1] : NULL);
	ret = gd_opts_parse(t, a.argc, a.argv, &o, stdout);
	if (ret < 0 && !gd_err_is_set())
		abort(); /* every refusal says why */
	if (!ret) {
		/* a file that parsed is recorded with its hash */
		if (strlen(o.config_sha256) != 64)
			abort();
		eff = gd_opts_effective(&o);
		if (!json_object_to_json_string(eff))
			abort();
		json_object_put(eff);
	}
	gd_opts_free(&o);
	return 0;
}
