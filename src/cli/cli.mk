# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The command line, above the engine: the option table that drives the
# parser (util/opt.h), --help, --config, the validation and the wire codec
# (the engine calls the last through gd_opts.ops), and gd_main, which the
# gd_* binaries call.
libgdperf_la_SOURCES += \
	src/cli/options.c src/cli/options_parse.c src/cli/options_help.c \
	src/cli/options_mem.c src/cli/options_wire.c src/cli/options_compat.c \
	src/cli/options_file.c src/cli/options_caps.c src/cli/options_table.c \
	src/cli/options_verbs.c src/cli/options_rate.c src/cli/options_rules.c \
	src/cli/options.h src/cli/options_priv.h \
	src/cli/main.c src/cli/main.h
