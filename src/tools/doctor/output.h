/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor output: the text report and the envelope comparison. */
#ifndef GD_DOCTOR_OUTPUT_H
#define GD_DOCTOR_OUTPUT_H

#include <stdio.h>

struct json_object;

/* Print every difference between the envelopes in two JSON files;
 * *@ndiff gets the count. -errno (gd_err) if a file cannot be read. */
int gd_doctor_diff(const char *path_a, const char *path_b, FILE *out,
		   int *ndiff);
/* The human report, rendered from the envelope object itself so text and
 * JSON can never disagree. */
void gd_doctor_print_text(FILE *out, struct json_object *env);

#endif
