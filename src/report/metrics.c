// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The metrics files' writer: gauge families with their # HELP, # TYPE (and
 * for OpenMetrics # UNIT) lines once and their samples together, label
 * names sanitised and values escaped, the run's identity on every series,
 * the file replaced atomically so that node_exporter never reads half of it.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/metrics.h"
#include "util/error.h"
#include "util/exit.h"
#include "util/output.h"

/* gdperf_run_exit_status's HELP from the one exit-status table, so that
 * the gauges cannot describe another */
static void gd_metrics_exit_help(char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "the program's exit status:");

	for (int st = 0; gd_exit_words(st) && used < len; st++)
		used += (size_t)snprintf(buf + used, len - used, "%s %d %s",
					 st ? "," : "", st, gd_exit_words(st));
}

/* Label names gdperf's families use: a --label key among them is
 * prefixed "label_". */
static const char *const gd_metrics_own[] = {
	"tool",	      "run",	"device", "comparison",	 "direction",
	"band",	      "state",	"code",	  "gate",	 "phase",
	"size_bytes", "side",	"group",  "counter",	 "class",
	"stage",      "status", "kind",	  "requirement", "candidate",
	"baseline",   NULL,
};

/* Units a family name may end in, longest first. */
static const char *const gd_metrics_units[] = {
	"bytes_per_second", "seconds", "bytes", "packets",
	"events",	    "ratio",   NULL,
};

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

int gd_metrics_open(struct gd_metrics *m, enum gd_metrics_format format,
		    const char *tool, const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	const char *file = slash ? slash + 1 : path;
	const char *dot = file ? strrchr(file, '.') : NULL;
	char stem[256];

	memset(m, 0, sizeof(*m));
	m->format = format;
	gd_metrics_exit_help(m->exit_help, sizeof(m->exit_help));
	gd_metrics_base(m, "tool", tool);
	if (file && strcmp(file, "-")) {
		snprintf(stem, sizeof(stem), "%.*s",
			 (int)(dot && dot != file ? (size_t)(dot - file)
						  : strlen(file)),
			 file);
		gd_metrics_base(m, "run", stem);
	}
	return 0;
}

void gd_metrics_base(struct gd_metrics *m, const char *key, const char *value)
{
	size_t n = strlen(m->base);
	char *p = m->base + n;
	size_t room = sizeof(m->base) - n;
	size_t i = 0;

	if (!value || !*value || room < strlen(key) + 8)
		return;
	n = (size_t)snprintf(p, room, "%s%s=\"", n ? "," : "", key);
	/* escaped; a value too long for the room is cut, never split
	 * inside an escape */
	for (; n + 4 < room && value[i]; i++) {
		if (value[i] == '"' || value[i] == '\\' || value[i] == '\n') {
			p[n++] = '\\';
			p[n++] = value[i] == '\n' ? 'n' : value[i];
		} else {
			p[n++] = value[i];
		}
	}
	p[n++] = '"';
	p[n] = '\0';
}

/* @m's base labels already name @key */
static bool gd_metrics_has(const struct gd_metrics *m, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = m->base; (p = strstr(p, key)); p += n)
		if ((p == m->base || p[-1] == ',') && p[n] == '=')
			return true;
	return false;
}

static bool gd_metrics_is_own(const char *name)
{
	for (size_t i = 0; gd_metrics_own[i]; i++)
		if (!strcmp(name, gd_metrics_own[i]))
			return true;
	return false;
}

void gd_metrics_labels(struct gd_metrics *m, struct json_object *labels)
{
	char name[128], key[136];

	if (!labels || !json_object_is_type(labels, json_type_object))
		return;
	json_object_object_foreach(labels, k, v)
	{
		size_t i;

		/* [a-zA-Z_][a-zA-Z0-9_]*, and never the reserved "__" */
		for (i = 0; k[i] && i + 1 < sizeof(name); i++)
			name[i] = isalnum((unsigned char)k[i]) ? k[i] : '_';
		name[i] = '\0';
		if (!i)
			continue;
		snprintf(key, sizeof(key), "%s%s",
			 isdigit((unsigned char)name[0]) || name[0] == '_' ||
					 gd_metrics_is_own(name)
				 ? "label_"
				 : "",
			 name);
		/* two keys that sanitise alike ("a b", "a_b"): the first */
		if (!gd_metrics_has(m, key))
			gd_metrics_base(m, key, json_object_get_string(v));
	}
}

const char *gd_metrics_word(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len; i++)
		buf[i] = isalnum((unsigned char)s[i]) || strchr("_-./<>=", s[i])
				 ? s[i]
				 : '_';
	buf[i] = '\0';
	return buf;
}

void gd_metrics_family(struct gd_metrics *m, const char *name, const char *help)
{
	unsigned int i;

	for (i = 0; i < m->nfam; i++)
		if (!strcmp(m->fam[i].name, name)) {
			m->cur = &m->fam[i];
			return;
		}
	m->cur = NULL;
	if (m->nfam == GD_METRICS_FAMILIES) {
		m->oom = true;
		return;
	}
	m->cur = &m->fam[m->nfam++];
	m->cur->name = name;
	m->cur->help = help;
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
	struct gd_metrics_family *fa = m->cur;
	bool first = !m->base[0];
	const char *k, *v;
	va_list ap;

	if (!fa)
		return;
	if (!fa->f && !(fa->f = open_memstream(&fa->buf, &fa->len))) {
		m->oom = true;
		return;
	}
	fprintf(fa->f, "%s{%s", fa->name, m->base);
	va_start(ap, value);
	while ((k = va_arg(ap, const char *))) {
		v = va_arg(ap, const char *);
		/* an empty value is no label (Prometheus reads them alike) */
		if (!v || !*v)
			continue;
		fprintf(fa->f, "%s%s=\"", first ? "" : ",", k);
		gd_metrics_escape(fa->f, v);
		fputc('"', fa->f);
		first = false;
	}
	va_end(ap);
	fputs("} ", fa->f);
	gd_metrics_value(fa->f, value);
	fputc('\n', fa->f);
}

void gd_metrics_free(struct gd_metrics *m)
{
	for (unsigned int i = 0; i < m->nfam; i++) {
		if (m->fam[i].f)
			fclose(m->fam[i].f);
		free(m->fam[i].buf);
	}
	m->nfam = 0;
	m->cur = NULL;
}

/* The unit @name ends in, or NULL. */
static const char *gd_metrics_unit(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; gd_metrics_units[i]; i++) {
		size_t u = strlen(gd_metrics_units[i]);

		if (n > u + 1 && name[n - u - 1] == '_' &&
		    !strcmp(name + n - u, gd_metrics_units[i]))
			return gd_metrics_units[i];
	}
	return NULL;
}

/* HELP text: backslash and newline escaped (both formats) */
static void gd_metrics_help(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

int gd_metrics_finish(struct gd_metrics *m, const char *opt, const char *path)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int ret;

	for (unsigned int i = 0; f && !m->oom && i < m->nfam; i++) {
		struct gd_metrics_family *fa = &m->fam[i];
		const char *unit = gd_metrics_unit(fa->name);

		if (!fa->f)
			continue; /* no sample: no family */
		if (fflush(fa->f)) {
			m->oom = true;
			break;
		}
		fprintf(f, "# HELP %s ", fa->name);
		gd_metrics_help(f, fa->help);
		fprintf(f, "\n# TYPE %s gauge\n", fa->name);
		if (unit && m->format == GD_METRICS_OPENMETRICS)
			fprintf(f, "# UNIT %s %s\n", fa->name, unit);
		fwrite(fa->buf, 1, fa->len, f);
	}
	if (f && m->format == GD_METRICS_OPENMETRICS)
		fputs("# EOF\n", f);
	if (!f || fclose(f) || m->oom) {
		free(out);
		gd_metrics_free(m);
		return gd_err(-ENOMEM, "%s: out of memory building '%s'", opt,
			      path);
	}
	gd_metrics_free(m);
	ret = gd_out_file_atomic(opt, path, out ? out : "");
	free(out);
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
