// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The textfile format's writer: gauge families with their # HELP and
 * # TYPE lines once, label values escaped, the file replaced atomically so
 * that node_exporter never reads half of it.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/metrics.h"
#include "util/error.h"
#include "util/output.h"

/* @v into @f as a label value: backslash, quote and newline escaped */
static void gd_metrics_escape(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

int gd_metrics_open(struct gd_metrics *m, const char *tool)
{
	memset(m, 0, sizeof(*m));
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		return gd_err(-ENOMEM, "out of memory building the metrics");
	gd_metrics_base(m, "tool", tool);
	return 0;
}

void gd_metrics_base(struct gd_metrics *m, const char *key, const char *value)
{
	size_t n = strlen(m->base);
	char *p = m->base + n;
	size_t room = sizeof(m->base) - n;
	size_t i = 0;

	if (!value || !*value || room < 8)
		return;
	n = (size_t)snprintf(p, room, "%s%s=\"", n ? "," : "", key);
	/* label values here are tool and device names: escape the rare
	 * quote, and cut rather than overflow */
	for (; n + 3 < room && value[i]; i++) {
		if (value[i] == '"' || value[i] == '\\' || value[i] == '\n')
			continue;
		p[n++] = value[i];
	}
	p[n++] = '"';
	p[n] = '\0';
}

void gd_metrics_family(struct gd_metrics *m, const char *name, const char *help)
{
	m->family = name;
	m->help = help;
	m->said = false;
}

static void gd_metrics_value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else
		fprintf(f, "%.10g", v);
}

void gd_metrics_put(struct gd_metrics *m, double value, ...)
{
	bool first = !m->base[0];
	const char *k, *v;
	va_list ap;

	if (!m->f || !m->family)
		return;
	if (!m->said)
		fprintf(m->f, "# HELP %s %s\n# TYPE %s gauge\n", m->family,
			m->help, m->family);
	m->said = true;
	fprintf(m->f, "%s{%s", m->family, m->base);
	va_start(ap, value);
	while ((k = va_arg(ap, const char *))) {
		v = va_arg(ap, const char *);
		fprintf(m->f, "%s%s=\"", first ? "" : ",", k);
		gd_metrics_escape(m->f, v ? v : "");
		fputc('"', m->f);
		first = false;
	}
	va_end(ap);
	fputs("} ", m->f);
	gd_metrics_value(m->f, value);
	fputc('\n', m->f);
}

void gd_metrics_free(struct gd_metrics *m)
{
	if (m->f)
		fclose(m->f);
	m->f = NULL;
	free(m->buf);
	m->buf = NULL;
}

int gd_metrics_finish(struct gd_metrics *m, const char *opt, const char *path)
{
	int ret;

	if (!m->f || fclose(m->f)) {
		m->f = NULL;
		gd_metrics_free(m);
		return gd_err(-ENOMEM, "%s: out of memory building '%s'", opt,
			      path);
	}
	m->f = NULL;
	ret = gd_out_file_atomic(opt, path, m->buf ? m->buf : "");
	gd_metrics_free(m);
	return ret;
}

const char *gd_metrics_band(double from_bytes, double to_bytes)
{
	if (to_bytes <= 4096)
		return "<=4KiB";
	if (from_bytes >= 65536)
		return ">=64KiB";
	return "4-64KiB";
}
