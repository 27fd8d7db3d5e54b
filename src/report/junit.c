// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * JUnit XML's elements as the Jenkins junit plugin reads them (testsuites,
 * testsuite with its counts, properties, testcase, failure, error), with
 * the escaping XML 1.0 needs. What goes in them is the callers' concern.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "report/junit.h"

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
	if (!kind) {
		fputs("/>\n", f);
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

void gd_junit_suite(FILE *f, const char *name, const char *timestamp,
		    double time_s, int tests, int failures, int errors,
		    int skipped, const char *properties, const char *cases)
{
	char ts[20] = "";

	fputs("  <testsuite name=\"", f);
	gd_junit_escape(f, name);
	fprintf(f,
		"\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"",
		tests, failures, errors, skipped, time_s < 0 ? 0 : time_s);
	/* the plugin's timestamp has no zone: UTC's 'Z' is cut */
	if (timestamp && strlen(timestamp) >= 19) {
		memcpy(ts, timestamp, 19);
		fputs(" timestamp=\"", f);
		gd_junit_escape(f, ts);
		fputc('"', f);
	}
	fputs(">\n", f);
	if (properties && *properties)
		fprintf(f, "    <properties>\n%s    </properties>\n",
			properties);
	fputs(cases ? cases : "", f);
	fputs("  </testsuite>\n", f);
}
