# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# gd_doctor, the program around the envelope library, and its offline
# tests: fixture sysfs tree + hwloc XML, golden map and findings.
bin_PROGRAMS += gd_doctor
gd_doctor_SOURCES = src/tools/doctor/main.c src/tools/doctor/text.c src/tools/doctor/diff.c \
	src/tools/doctor/output.h
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
# --peer: the bootstrap check against loopback listeners.
check_PROGRAMS += tests/doctor/bootstrap_test
tests_doctor_bootstrap_test_SOURCES = tests/doctor/bootstrap_test.c
tests_doctor_bootstrap_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_doctor_bootstrap_test_LDADD = $(gd_common_ldadd) $(HWLOC_LIBS) $(LIBPCI_LIBS) $(CMOCKA_LIBS)
TESTS += tests/doctor/bootstrap_test
# --mem=cuda:near/far: the choice on the 8 GPU / 8 NIC fixture.
check_PROGRAMS += tests/doctor/locality_test
tests_doctor_locality_test_SOURCES = tests/doctor/locality_test.c
tests_doctor_locality_test_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_doctor_locality_test_LDADD = $(gd_common_ldadd) $(HWLOC_LIBS) $(LIBPCI_LIBS) $(CMOCKA_LIBS)
TESTS += tests/doctor/locality_test
endif
