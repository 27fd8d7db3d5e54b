# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Cluster scale: gd_plan (worksheet, schedules, launch files) and gd_report
# (fleet aggregation, failure domains, acceptance report), with their tests.
noinst_LTLIBRARIES += libgdcluster.la
libgdcluster_la_SOURCES = src/tools/cluster/plan.h src/tools/cluster/plan.c \
	src/tools/cluster/schedule.c src/tools/cluster/plan_out.c \
	src/tools/cluster/plan_seconds.c src/tools/cluster/plan_check.c \
	src/tools/cluster/plan_launch.c src/tools/cluster/plan_slurm.c \
	src/tools/cluster/fleet.h src/tools/cluster/fleet_index.h \
	src/tools/cluster/fleet_pool.c src/tools/cluster/fleet_hash.c \
	src/tools/cluster/fleet_run.c src/tools/cluster/fleet_index.c \
	src/tools/cluster/fleet_repeats.c src/tools/cluster/fleet_locality.c \
	src/tools/cluster/fleet_stats.c src/tools/cluster/fleet_ingest.c \
	src/tools/cluster/fleet_analyze.c src/tools/cluster/fleet_classify.c \
	src/tools/cluster/fleet_check.c src/tools/cluster/fleet_write.c \
	src/tools/cluster/fleet_markdown.c src/tools/cluster/fleet_plot.c \
	src/tools/cluster/fleet_tails.c src/tools/cluster/fleet_tails.h \
	src/tools/cluster/fleet_json.c src/tools/cluster/fleet_json.h \
	src/tools/cluster/fleet_read.c src/tools/cluster/fleet_read.h \
	src/tools/cluster/fleet_decide.c src/tools/cluster/fleet_decide.h
libgdcluster_la_LIBADD = $(JSONC_LIBS) -lm

bin_PROGRAMS += gd_plan gd_report
gd_plan_SOURCES = src/tools/cluster/gd_plan.c
gd_plan_LDADD = libgdcluster.la $(gd_common_ldadd) -lm
gd_report_SOURCES = src/tools/cluster/gd_report.c \
	src/tools/cluster/fleet_ci.c src/tools/cluster/fleet_ci.h
gd_report_LDADD = libgdcluster.la $(gd_common_ldadd) -lm

dist_man_MANS += man/gd_plan.1 man/gd_report.1

# Unit tests: statistics and schedule properties (cmocka).
if HAVE_CMOCKA
check_PROGRAMS += tests/cluster/test_cluster
tests_cluster_test_cluster_SOURCES = tests/cluster/test_cluster.c tests/synth_util.h
tests_cluster_test_cluster_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_cluster_test_cluster_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cluster_test_cluster_LDADD = libgdcluster.la $(gd_common_ldadd) \
	$(CMOCKA_LIBS) -lm
TESTS += tests/cluster/test_cluster
# The campaign decision's error rates (gdperf(7)'s campaign table).
check_PROGRAMS += tests/cluster/campaign_sim_test
tests_cluster_campaign_sim_test_SOURCES = tests/cluster/campaign_sim_test.c \
	tests/synth_util.h
tests_cluster_campaign_sim_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_cluster_campaign_sim_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_cluster_campaign_sim_test_LDADD = libgdcluster.la $(gd_common_ldadd) \
	$(CMOCKA_LIBS) -lm
TESTS += tests/cluster/campaign_sim_test
endif

# Script tests: golden worksheets, plan properties over the JSON, every
# launch file through sh/bash -n and shellcheck, the labelled synthetic
# corpus classified by gd_report, and the locality round reported apart.
TESTS += tests/cluster/plan_golden.sh tests/cluster/plan_props.sh \
	tests/cluster/launch_lint.sh tests/cluster/report_corpus.sh \
	tests/cluster/report_locality.sh tests/cluster/report_messages.sh \
	tests/cluster/report_golden.sh tests/cluster/report_decide.sh
EXTRA_DIST += tests/cluster/report_messages.sh tests/cluster/report_golden.sh \
	tests/cluster/report_decide.sh tests/cluster/make_rounds.py \
	tests/cluster/golden/report-planned.err \
	tests/cluster/golden/report-planned.json \
	tests/cluster/golden/report-planned.md \
	tests/cluster/golden/report-planned.plots \
	tests/cluster/golden/report-planned.prom \
	tests/cluster/golden/report-planned.xml \
	tests/cluster/golden/report-unplanned.err \
	tests/cluster/golden/report-unplanned.json \
	tests/cluster/golden/report-unplanned.md \
	tests/cluster/golden/report-unplanned.plots \
	tests/cluster/golden/report-unplanned.prom \
	tests/cluster/golden/report-unplanned.xml
EXTRA_DIST += tests/cluster/plan_golden.sh tests/cluster/plan_props.sh \
	tests/cluster/launch_lint.sh tests/cluster/report_locality.sh \
	tests/cluster/plan_props.py tests/cluster/report_corpus.sh \
	tests/cluster/make_corpus.py tests/cluster/check_report.py \
	tests/cluster/golden/plan-32x8x8.txt tests/cluster/golden/plan-5x4x2.txt
EXTRA_DIST += tests/vm/cases/70-cluster.sh
# The scaling benchmarks of gd_report and gd_plan: by hand, never in make
# check.
EXTRA_DIST += contrib/bench-gd-report contrib/bench-gd-plan
