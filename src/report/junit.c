// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * JUnit XML's elements as the Jenkins junit plugin reads them (testsuites,
 * testsuite with its counts, properties, testcase, failure, error), with
 * the escaping XML 1.0 needs. What goes in them is the callers' concern.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/junit.h"

/* When the program started: gd_report's and gd_compare's testsuites are
 * timed from here (a run's suite takes its document's own start and wall
 * time). */
static struct timespec gd_junit_t0;

__attribute__((constructor)) static void gd_junit_start(void)
{
	clock_gettime(CLOCK_REALTIME, &gd_junit_t0);
}

double gd_junit_since_start(char *ts, size_t len)
{
	struct timespec now;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	if (ts && len && gmtime_r(&gd_junit_t0.tv_sec, &tm))
		strftime(ts, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return (double)(now.tv_sec - gd_junit_t0.tv_sec) +
	       (double)(now.tv_nsec - gd_junit_t0.tv_nsec) / 1e9;
}

const char *gd_junit_hostname(char *buf, size_t len)
{
	if (gethostname(buf, len) || !buf[0])
		snprintf(buf, len, "(unknown)");
	buf[len - 1] = '\0';
	return buf;
}

void gd_junit_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\n')
			fputs("&#10;", f);
		else if (c == '\t')
			fputs("&#9;", f);
		else if (c >= 0x20)
			fputc(c, f);
	}
}

/* element text: newlines kept as they are */
static void gd_junit_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\n')
			fputc('\n', f);
		else {
			char one[2] = { *s, 0 };

			gd_junit_escape(f, one);
		}
	}
}

void gd_junit_case(FILE *f, const char *classname, const char *name,
		   const char *kind, const char *type, const char *message,
		   const char *detail)
{
	fputs("    <testcase classname=\"", f);
	gd_junit_escape(f, classname);
	fputs("\" name=\"", f);
	gd_junit_escape(f, name);
	fputs("\" time=\"0\"", f);
	if (!kind && !detail) {
		fputs("/>\n", f);
		return;
	}
	if (!kind) {
		/* passed, with a note (an undecided gate passed by policy) */
		fputs(">\n      <system-out>", f);
		gd_junit_text(f, detail);
		fputs("</system-out>\n    </testcase>\n", f);
		return;
	}
	fprintf(f, ">\n      <%s type=\"", kind);
	gd_junit_escape(f, type);
	fputs("\" message=\"", f);
	gd_junit_escape(f, message);
	fputs("\">", f);
	gd_junit_text(f, detail);
	fprintf(f, "</%s>\n    </testcase>\n", kind);
}

void gd_junit_property(FILE *f, const char *name, const char *value)
{
	if (!value)
		return;
	fputs("      <property name=\"", f);
	gd_junit_escape(f, name);
	fputs("\" value=\"", f);
	gd_junit_escape(f, value);
	fputs("\"/>\n", f);
}

void gd_junit_begin(FILE *f, const char *name)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"",
	      f);
	gd_junit_escape(f, name);
	fputs("\">\n", f);
}

void gd_junit_end(FILE *f)
{
	fputs("</testsuites>\n", f);
}

void gd_junit_suite(FILE *f, const struct gd_junit_suite_id *id, int tests,
		    int failures, int errors, int skipped,
		    const char *properties, const char *cases)
{
	const char *timestamp = id->timestamp;
	char ts[20] = "";
	char start[32] = "";

	fputs("  <testsuite name=\"", f);
	gd_junit_escape(f, id->name);
	fprintf(f,
		"\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"",
		tests, failures, errors, skipped,
		id->time_s > 0 ? id->time_s : 0.0);
	fputs(" hostname=\"", f);
	gd_junit_escape(f, id->hostname ? id->hostname : "(unknown)");
	fputc('"', f);
	/* the plugin's timestamp has no zone: UTC's 'Z' is cut; without the
	 * document's own, when this program started */
	if (!timestamp || strlen(timestamp) < 19) {
		gd_junit_since_start(start, sizeof(start));
		timestamp = start;
	}
	memcpy(ts, timestamp, 19);
	fputs(" timestamp=\"", f);
	gd_junit_escape(f, ts);
	fputc('"', f);
	fputs(">\n", f);
	if (properties && *properties)
		fprintf(f, "    <properties>\n%s    </properties>\n",
			properties);
	fputs(cases ? cases : "", f);
	fputs("  </testsuite>\n", f);
}
