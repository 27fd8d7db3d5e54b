# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_doctor and the test envelope. The envelope collectors live in their own
# convenience library so hwloc/libpci flags stay with the files that use
# them; it is merged into libgdperf.la, so every gd_* run can embed it.
noinst_LTLIBRARIES += libgddoctor.la
libgddoctor_la_SOURCES = src/envelope.h src/doctor/doctor.h \
	src/doctor/envelope.c src/doctor/sysfs.c src/doctor/findings.c \
	src/doctor/host.c src/doctor/rdma.c src/doctor/gpu.c \
	src/doctor/platform.c src/doctor/acs.c src/doctor/topology.c \
	src/doctor/topology.h src/doctor/map.c src/doctor/rails.c \
	src/doctor/rails.h src/doctor/route_record.c
libgddoctor_la_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(LIBPCI_CFLAGS)
libgddoctor_la_LIBADD = $(HWLOC_LIBS) $(LIBPCI_LIBS)
libgdperf_la_LIBADD += libgddoctor.la

bin_PROGRAMS += gd_doctor
gd_doctor_SOURCES = src/doctor/main.c src/doctor/text.c src/doctor/diff.c \
	src/doctor/output.h
gd_doctor_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(LIBPCI_CFLAGS)
gd_doctor_LDADD = $(gd_common_ldadd) $(HWLOC_LIBS) $(LIBPCI_LIBS)
dist_man_MANS += man/gd_doctor.1

# Offline tests: fixture sysfs tree + hwloc XML, golden map and findings.
check_PROGRAMS += tests/doctor/doctor_dump
tests_doctor_doctor_dump_SOURCES = tests/doctor/doctor_dump.c
tests_doctor_doctor_dump_LDADD = $(JSONC_LIBS)
TESTS += tests/doctor/doctor-fixture.sh tests/doctor/doctor-cli.sh
EXTRA_DIST += tests/doctor/doctor-fixture.sh tests/doctor/doctor-cli.sh \
	tests/doctor/fixtures tests/doctor/golden
# The Soft-RoCE guest case (run by tests/vm/device-tests.tap with the others).
EXTRA_DIST += tests/vm/cases/60-doctor.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/doctor/doctor_unit
tests_doctor_doctor_unit_SOURCES = tests/doctor/doctor_unit.c
tests_doctor_doctor_unit_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(LIBPCI_CFLAGS) $(CMOCKA_CFLAGS)
tests_doctor_doctor_unit_LDADD = $(gd_common_ldadd) $(HWLOC_LIBS) $(LIBPCI_LIBS) $(CMOCKA_LIBS)
TESTS += tests/doctor/doctor_unit
endif
