/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The command-line manners of every program (see opt.h): name matching
 * with abbreviations, suggestions by edit distance, the one wording of
 * option errors, the companion tools' parser and the --help layout.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/exit.h"
#include "util/opt.h"
#include "util/version.h"

/* '-' and '_' are one letter in option names (perftest spells both). */
static char gd_opt_fold(char c)
{
	return c == '_' ? '-' : c;
}

enum gd_opt_match gd_opt_match(const char *typed, size_t len,
			       const char *const *names, size_t n, size_t *idx)
{
	size_t found = 0, first = 0;

	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		size_t k;

		if (!name)
			continue;
		for (k = 0; k < len && name[k] &&
			    gd_opt_fold(name[k]) == gd_opt_fold(typed[k]);
		     k++)
			;
		if (k < len)
			continue;
		if (!name[len]) {
			*idx = i;
			return GD_OPT_EXACT;
		}
		/* the same name twice (two spellings) is one */
		if (!found || strcmp(names[first], name))
			found++;
		if (found == 1)
			first = i;
	}
	*idx = first;
	return !found || !len ? GD_OPT_UNKNOWN
	       : found == 1   ? GD_OPT_PREFIX
			      : GD_OPT_AMBIGUOUS;
}

/* Edits (insert, delete, replace, swap two neighbours) from the @la bytes
 * of @a to @b, stopping above @cap. */
static size_t gd_opt_distance(const char *a, size_t la, const char *b,
			      size_t cap)
{
	size_t lb = strlen(b), d[40][40];

	if (la >= 40 || lb >= 40)
		return cap + 1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost =
				gd_opt_fold(a[i - 1]) != gd_opt_fold(b[j - 1]);
			size_t v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *gd_opt_suggest(const char *typed, size_t len,
			   const char *const *names, size_t n)
{
	/* a letter off in a short name, two in a longer one */
	size_t cap = len <= 4 ? 1 : 2, best = cap + 1;
	const char *pick = NULL;
	bool tie = false;

	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!names[i])
			continue;
		d = gd_opt_distance(typed, len, names[i], cap);
		if (d < best) {
			best = d;
			pick = names[i];
			tie = false;
		} else if (d == best && pick && strcmp(pick, names[i])) {
			tie = true;
		}
	}
	return best <= cap && !tie ? pick : NULL;
}

/* Is names[@i] one of names[0..@i) (a name listed twice)? */
static bool gd_opt_seen(const char *const *names, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (names[j] && !strcmp(names[j], names[i]))
			return true;
	return false;
}

int gd_opt_err_name(const char *prog, const char *typed, size_t len,
		    const char *const *names, size_t n)
{
	char list[256];
	size_t idx, used = 0, shown = 0;
	const char *near;

	if (gd_opt_match(typed, len, names, n, &idx) == GD_OPT_AMBIGUOUS) {
		list[0] = '\0';
		for (size_t i = idx; i < n; i++) {
			size_t k;

			if (!names[i])
				continue;
			for (k = 0; k < len && gd_opt_fold(names[i][k]) ==
						       gd_opt_fold(typed[k]);
			     k++)
				;
			if (k < len || gd_opt_seen(names, i))
				continue;
			if (++shown > 4)
				break;
			used += (size_t)snprintf(
				list + used, sizeof(list) - used, "%s--%s",
				shown > 1 ? ", " : "", names[i]);
			if (used >= sizeof(list))
				break;
		}
		return gd_err(-EINVAL,
			      "option --%.*s is ambiguous: %s%s; see %s --help",
			      (int)len, typed, list, shown > 4 ? ", ..." : "",
			      prog);
	}
	near = gd_opt_suggest(typed, len, names, n);
	if (near)
		return gd_err(-EINVAL,
			      "unknown option --%.*s; did you mean --%s? (see "
			      "%s --help)",
			      (int)len, typed, near, prog);
	return gd_err(-EINVAL, "unknown option --%.*s; see %s --help", (int)len,
		      typed, prog);
}

/* One parse: the program, its handler, the names of its options. */
struct gd_opt_state {
	const struct gd_opt_prog *prog;
	gd_opt_fn fn;
	void *ctx;
	const char **names; /* of prog->opts, headings as NULL */
	int argc;
	char **argv;
};

/* The handler, after --help and --version, which are the parser's. */
static int gd_opt_call(const struct gd_opt_state *st, const struct gd_opt *o,
		       const char *arg)
{
	if (o->id == GD_OPT_ID_HELP) {
		gd_opt_usage(st->prog, stdout);
		return 1;
	}
	if (o->id == GD_OPT_ID_VERSION) {
		gd_version_print(stdout, st->prog->name, false);
		return 1;
	}
	return st->fn(st->ctx, o, arg);
}

/* "--name[=value]" at argv[*i]; *i moves past a separate value. */
static int gd_opt_long(const struct gd_opt_state *st, int *i)
{
	const struct gd_opt_prog *p = st->prog;
	const char *typed = st->argv[*i] + 2, *eq = strchr(typed, '=');
	size_t len = eq ? (size_t)(eq - typed) : strlen(typed), idx;
	enum gd_opt_match m = gd_opt_match(typed, len, st->names, p->n, &idx);
	const struct gd_opt *o;
	const char *arg = eq ? eq + 1 : NULL;
	int ret;

	if (m != GD_OPT_EXACT && p->name_hook) {
		ret = p->name_hook(st->ctx, typed, len, 0, m);
		if (ret)
			return ret;
	}
	if (m != GD_OPT_EXACT && m != GD_OPT_PREFIX)
		return gd_opt_err_name(p->name, typed, len, st->names, p->n);
	o = &p->opts[idx];
	if (o->arg == GD_OPT_NOARG && eq)
		return gd_err(-EINVAL,
			      "option --%s takes no value; give it alone",
			      o->long_name);
	if (o->arg == GD_OPT_ARG && !eq) {
		if (*i + 1 >= st->argc)
			return gd_err(-EINVAL,
				      "option --%s needs an argument (%s)",
				      o->long_name, o->metavar);
		arg = st->argv[++*i];
	}
	return gd_opt_call(st, o, arg);
}

static const struct gd_opt *gd_opt_letter(const struct gd_opt_prog *p, int c)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->opts[i].long_name && p->opts[i].short_name == c)
			return &p->opts[i];
	return NULL;
}

/* "-abc" or "-pVALUE" or "-p VALUE" at argv[*i]: each letter handled. */
static int gd_opt_short(const struct gd_opt_state *st, int *i)
{
	const struct gd_opt_prog *p = st->prog;
	const char *w = st->argv[*i] + 1, *arg;
	const struct gd_opt *o;
	int ret;

	for (; *w; w++) {
		o = gd_opt_letter(p, *w);
		if (!o && p->name_hook) {
			ret = p->name_hook(st->ctx, NULL, 0, *w,
					   GD_OPT_UNKNOWN);
			if (ret)
				return ret;
		}
		if (!o)
			return gd_err(-EINVAL,
				      "unknown option -%c; see %s --help", *w,
				      p->name);
		arg = NULL;
		if (o->arg != GD_OPT_NOARG && w[1])
			arg = w + 1;
		else if (o->arg == GD_OPT_ARG && *i + 1 < st->argc)
			arg = st->argv[++*i];
		else if (o->arg == GD_OPT_ARG)
			return gd_err(-EINVAL,
				      "option -%c needs an argument (%s)", *w,
				      o->metavar);
		ret = gd_opt_call(st, o, arg);
		if (ret || arg)
			return ret;
	}
	return 0;
}

/* Each word of argv: an option, handled, or an argument, kept in @pos;
 * the option words (with their separate values) in @optw. */
static int gd_opt_words(const struct gd_opt_state *st, char **pos, int *npos,
			char **optw, int *nopt)
{
	int ret = 0, i, from;

	for (i = 1; i < st->argc && !ret; i++) {
		const char *w = st->argv[i];

		from = i;
		if (!strcmp(w, "--")) {
			optw[(*nopt)++] = st->argv[i++];
			break;
		}
		if (w[0] != '-' || !w[1]) {
			pos[(*npos)++] = st->argv[i];
			continue;
		}
		ret = w[1] == '-' ? gd_opt_long(st, &i) : gd_opt_short(st, &i);
		while (from <= i)
			optw[(*nopt)++] = st->argv[from++];
	}
	while (!ret && i < st->argc)
		pos[(*npos)++] = st->argv[i++];
	return ret;
}

int gd_opt_parse(const struct gd_opt_prog *p, int argc, char **argv,
		 gd_opt_fn fn, void *ctx, int *first)
{
	struct gd_opt_state st = { p, fn, ctx, NULL, argc, argv };
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	char **optw = calloc((size_t)argc + 1, sizeof(*optw));
	int npos = 0, nopt = 0, ret;

	*first = argc;
	st.names = calloc(p->n ? p->n : 1, sizeof(*st.names));
	if (!st.names || !pos || !optw) {
		ret = gd_err(-ENOMEM, "out of memory reading the command line");
		goto out;
	}
	for (size_t i = 0; i < p->n; i++)
		st.names[i] = p->opts[i].long_name;
	ret = gd_opt_words(&st, pos, &npos, optw, &nopt);
	if (ret)
		goto out;
	/* as getopt_long leaves them: the options, then the arguments */
	memcpy(argv + 1, optw, (size_t)nopt * sizeof(*argv));
	memcpy(argv + 1 + nopt, pos, (size_t)npos * sizeof(*argv));
	*first = 1 + nopt;
out:
	free(st.names);
	free(pos);
	free(optw);
	return ret;
}

void gd_opt_help_wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	bool first = true;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (!first && col + 1 + w > GD_OPT_HELP_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, w, out);
		col += w;
		first = false;
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void gd_opt_help_line(FILE *out, int short_name, const char *long_name,
		      enum gd_opt_arg arg, const char *metavar,
		      const char *text)
{
	int w = GD_OPT_HELP_COL - 4;
	char left[96];

	snprintf(left, sizeof(left), "%c%c%s--%s%s%s%s", short_name ? '-' : ' ',
		 short_name ? short_name : ' ', short_name ? ", " : "  ",
		 long_name,
		 arg == GD_OPT_OPTARG ? "[="
		 : arg == GD_OPT_ARG  ? "="
				      : "",
		 arg != GD_OPT_NOARG && metavar ? metavar : "",
		 arg == GD_OPT_OPTARG ? "]" : "");
	/* an option too wide for its column has its text on the next line:
	 * completion reads the column up to two blanks */
	if (strlen(left) > (size_t)w)
		fprintf(out, "  %s\n%*s", left, GD_OPT_HELP_COL, "");
	else
		fprintf(out, "  %-*s  ", w, left);
	gd_opt_help_wrap(out, text, GD_OPT_HELP_COL, GD_OPT_HELP_COL);
}

void gd_opt_help(FILE *out, const struct gd_opt *opts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct gd_opt *o = &opts[i];

		if (!o->long_name)
			fprintf(out, "%s%s:\n", i ? "\n" : "", o->help);
		else
			gd_opt_help_line(out, o->short_name, o->long_name,
					 o->arg, o->metavar, o->help);
	}
}

void gd_opt_usage(const struct gd_opt_prog *prog, FILE *out)
{
	char line[512];

	fprintf(out, "%s\n\n", prog->usage);
	gd_opt_help(out, prog->opts, prog->n);
	gd_exit_help(prog->exits, line, sizeof(line));
	fprintf(out, "\n%s\n", line);
}
