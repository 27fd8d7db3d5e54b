/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libFuzzer target for gd_doctor --diff: the input is two envelopes (or
 * gd_* documents carrying one) separated by a NUL byte, written to two
 * files and compared exactly as the command line does.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>

#include "tools/doctor/output.h"
#include "util/error.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null_out;
	struct gd_fuzz_chunk c[2];
	char a[512], b[512];
	int ndiff;

	if (!null_out)
		null_out = fopen("/dev/null", "w");
	if (!null_out)
		return 0;
	if (gd_fuzz_split(data, size, c, 2) < 2)
		c[1] = c[0];
	gd_fuzz_write("a.json", &c[0], a, sizeof(a));
	gd_fuzz_write("b.json", &c[1], b, sizeof(b));
	gd_err_clear();
	gd_doctor_diff(a, b, null_out, &ndiff);
	return 0;
}
