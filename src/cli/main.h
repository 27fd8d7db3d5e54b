/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The entry point every gd_* binary calls with its gd_tests[] entry: the
 * command line in, the exit status out.
 */
#ifndef GD_CLI_MAIN_H
#define GD_CLI_MAIN_H

#include "engine/test.h"

int gd_main(const struct gd_test *test, int argc, char **argv);

#endif
