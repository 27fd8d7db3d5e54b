/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A comparison's text fitted to a terminal's width: rules cut to it,
 * trailing blanks dropped, a table's blank gutters squeezed to two
 * columns (one, or the table cut in parts that repeat its first column,
 * where it is wider still), and prose wrapped on blanks with a hanging
 * indent.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

/* Blank columns kept between two table columns. */
#define GD_FIT_GUTTER 2
/* How far in a wrapped line goes on without a label to hang under. */
#define GD_FIT_HANG 8
/* A label that a wrapped line hangs under ("evidence: ") is this short. */
#define GD_FIT_LABEL_MAX 12

struct gd_fit_line {
	const char *s;
	size_t n;
};

static bool gd_fit_is_rule(struct gd_fit_line l)
{
	return l.n && strspn(l.s, "-") >= l.n;
}

/* A table: the " #bytes" heading, then rows that start with a size; or
 * the counters' " counter " heading, then rows that start with a
 * counter's name and have columns. */
static bool gd_fit_is_head(struct gd_fit_line l)
{
	return (l.n >= 7 && !strncmp(l.s, " #bytes", 7)) ||
	       (l.n >= 9 && !strncmp(l.s, " counter ", 9));
}

static bool gd_fit_is_row(struct gd_fit_line head, struct gd_fit_line l)
{
	if (l.n < 2 || l.s[0] != ' ')
		return false;
	if (head.s[1] == '#')
		return l.s[1] >= '0' && l.s[1] <= '9';
	return ((l.s[1] >= 'a' && l.s[1] <= 'z') || l.s[1] == '_') &&
	       memmem(l.s, l.n, "  ", 2);
}

/* Where a wrapped line goes on: under the text after a short label
 * ("      evidence: " -> 16), else GD_FIT_HANG columns in from the
 * line's own indent: deeper than any line that starts an item, so that a
 * reader (or a script) tells a continuation from the next item. */
static size_t gd_fit_hang(struct gd_fit_line l, size_t width)
{
	size_t lead = strspn(l.s, " "), k;

	lead = lead < l.n ? lead : 0;
	for (k = lead; k < l.n && k - lead < GD_FIT_LABEL_MAX; k++) {
		char c = l.s[k];

		if (c == ':' && k + 1 < l.n && l.s[k + 1] == ' ')
			return k + 2 < width / 2 ? k + 2 : lead + GD_FIT_HANG;
		if (!(c >= 'a' && c <= 'z') && c != '_')
			break;
	}
	return lead + GD_FIT_HANG;
}

/* A size's unit after its number ("4 KiB") stays on the number's line:
 * the length to add to the word that ends at @e, 0 for none. */
static size_t gd_fit_unit(struct gd_fit_line l, size_t e)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	size_t n;

	if (!e || e + 1 >= l.n || l.s[e] != ' ' || l.s[e - 1] < '0' ||
	    l.s[e - 1] > '9')
		return 0;
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		n = strlen(units[u]);
		if (e + 1 + n <= l.n && !strncmp(l.s + e + 1, units[u], n)) {
			while (e + 1 + n < l.n && l.s[e + 1 + n] != ' ')
				n++;
			return n + 1;
		}
	}
	return 0;
}

/* Prose: the line's own indent, then its words with the blanks between
 * them, each line at most @width unless one word is wider. */
static void gd_fit_wrap(FILE *out, struct gd_fit_line l, size_t width)
{
	size_t hang = gd_fit_hang(l, width), i = strspn(l.s, " "), col;
	bool first = true;

	i = i < l.n ? i : l.n;
	fwrite(l.s, 1, i, out);
	col = i;
	while (i < l.n) {
		size_t w = 0, gap = 0;

		while (i < l.n && l.s[i] == ' ') {
			i++;
			gap++;
		}
		while (i + w < l.n && l.s[i + w] != ' ')
			w++;
		if (!w)
			break;
		w += gd_fit_unit(l, i + w);
		if (!first && col + gap + w > width) {
			fprintf(out, "\n%*s", (int)hang, "");
			col = hang;
			first = true;
		}
		/* the line's own spacing between words that stay together */
		if (!first) {
			fprintf(out, "%*s", (int)gap, "");
			col += gap;
		}
		fwrite(l.s + i, 1, w, out);
		col += w;
		i += w;
		first = false;
	}
	fputc('\n', out);
}

/* A table's column: the text columns [from, to) of every line. */
struct gd_fit_span {
	size_t from, to;
};

/* The table's columns: runs of text columns between the gutters (two or
 * more text columns blank in every line). *ns spans, or NULL. */
static struct gd_fit_span *gd_fit_spans(const struct gd_fit_line *t, size_t nt,
					size_t *ns)
{
	size_t wmax = 0, run = 0;
	struct gd_fit_span *sp;

	for (size_t i = 0; i < nt; i++)
		wmax = t[i].n > wmax ? t[i].n : wmax;
	sp = calloc(wmax / 2 + 1, sizeof(*sp));
	*ns = 0;
	for (size_t c = 0; sp && c < wmax; c++) {
		bool blank = true;

		for (size_t i = 0; i < nt && blank; i++)
			blank = c >= t[i].n || t[i].s[c] == ' ';
		/* one blank is inside a heading ("DD-HH p99[usec]"), not
		 * between columns */
		if (!blank && (!*ns || run > 1))
			sp[(*ns)++].from = c;
		if (!blank)
			sp[*ns - 1].to = c + 1;
		run = blank ? run + 1 : 0;
	}
	return sp;
}

/* The blanks between span @a and the next kept one @b: the gap they had,
 * cut to @gutter. */
static size_t gd_fit_gap(const struct gd_fit_span *a,
			 const struct gd_fit_span *b, size_t gutter)
{
	size_t had = b->from - a->to;

	return had < gutter ? had : gutter;
}

/* The table's width with the spans [@a, @b) after the first, each gap
 * cut to @gutter. */
static size_t gd_fit_width(const struct gd_fit_span *sp, size_t a, size_t b,
			   size_t gutter)
{
	size_t w = sp[0].to;

	for (size_t k = a; k < b; k++)
		w += gd_fit_gap(k == a ? &sp[0] : &sp[k - 1], &sp[k], gutter) +
		     sp[k].to - sp[k].from;
	return w;
}

/* The table's lines with its first span (the indent, "#bytes" or
 * "counter") and spans [@a, @b), trailing blanks dropped. */
static void gd_fit_print(FILE *out, const struct gd_fit_line *t, size_t nt,
			 const struct gd_fit_span *sp, size_t a, size_t b,
			 size_t gutter)
{
	for (size_t i = 0; i < nt; i++) {
		char *line = malloc(gd_fit_width(sp, a, b, gutter) + 1);
		size_t n = 0;

		if (!line)
			return;
		for (size_t c = 0; c < sp[0].to; c++)
			line[n++] = c < t[i].n ? t[i].s[c] : ' ';
		for (size_t k = a; k < b; k++) {
			size_t gap = gd_fit_gap(k == a ? &sp[0] : &sp[k - 1],
						&sp[k], gutter);

			while (gap--)
				line[n++] = ' ';
			for (size_t c = sp[k].from; c < sp[k].to; c++)
				line[n++] = c < t[i].n ? t[i].s[c] : ' ';
		}
		while (n && line[n - 1] == ' ')
			n--;
		fprintf(out, "%.*s\n", (int)n, line);
		free(line);
	}
}

/* A table's lines: a text column blank in every line is a gutter; a run
 * of them longer than GD_FIT_GUTTER is cut to it, or to one blank where
 * two would leave the table wider than @width. A table wider still is
 * cut into parts that each fit, each repeating the first column (the
 * size or the counter) that its rows are read by. */
static void gd_fit_table(FILE *out, const struct gd_fit_line *t, size_t nt,
			 size_t width)
{
	size_t ns = 0, gutter = GD_FIT_GUTTER;
	struct gd_fit_span *sp = gd_fit_spans(t, nt, &ns);

	if (!sp || ns < 2) {
		for (size_t i = 0; i < nt; i++)
			fprintf(out, "%.*s\n", (int)t[i].n, t[i].s);
		free(sp);
		return;
	}
	if (gd_fit_width(sp, 1, ns, gutter) > width)
		gutter = 1;
	if (gd_fit_width(sp, 1, ns, gutter) <= width) {
		gd_fit_print(out, t, nt, sp, 1, ns, gutter);
		free(sp);
		return;
	}
	gutter = GD_FIT_GUTTER;
	for (size_t a = 1, b; a < ns; a = b) {
		/* at least one span a part, however wide */
		for (b = a + 1;
		     b < ns && gd_fit_width(sp, a, b + 1, gutter) <= width; b++)
			;
		if (a > 1)
			fputc('\n', out);
		gd_fit_print(out, t, nt, sp, a, b, gutter);
	}
	free(sp);
}

/* @text cut into lines without their trailing blanks; *n lines. */
static struct gd_fit_line *gd_fit_lines(const char *text, size_t *n)
{
	size_t cap = 1;
	struct gd_fit_line *v;

	for (const char *p = text; *p; p++)
		cap += *p == '\n';
	v = calloc(cap, sizeof(*v));
	*n = 0;
	for (const char *p = text; v && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		v[*n].s = p;
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\r'))
			len--;
		v[(*n)++].n = len;
		p += e ? (size_t)(e - p) + 1 : strlen(p);
	}
	return v;
}

void gd_compare_fit(FILE *out, const char *text, unsigned int width)
{
	size_t n = 0, w = width ? width : GD_COMPARE_TEXT_WIDTH;
	struct gd_fit_line *v;

	if (!out || !text)
		return;
	v = gd_fit_lines(text, &n);
	if (!v) {
		fputs(text, out);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		size_t e = i + 1;

		if (gd_fit_is_rule(v[i])) {
			fprintf(out, "%.*s\n", (int)(v[i].n < w ? v[i].n : w),
				v[i].s);
		} else if (gd_fit_is_head(v[i])) {
			while (e < n && gd_fit_is_row(v[i], v[e]))
				e++;
			gd_fit_table(out, v + i, e - i, w);
			i = e - 1;
		} else if (v[i].n > w) {
			gd_fit_wrap(out, v[i], w);
		} else {
			fprintf(out, "%.*s\n", (int)v[i].n, v[i].s);
		}
	}
	free(v);
}
