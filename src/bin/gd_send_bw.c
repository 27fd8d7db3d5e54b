/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_send_bw: send/receive bandwidth. The engine does the rest;
 * the test is its gd_tests[] entry. */
#include <config.h>

#include "cli/main.h"

int main(int argc, char **argv)
{
	return gd_main(&gd_tests[GD_TEST_SEND_BW], argc, argv);
}
