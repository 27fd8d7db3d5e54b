# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The test envelope every run collects (and gd_doctor prints). Its own
# convenience library so hwloc/libpci flags stay with the files that use
# them; it is merged into libgdperf.la, so every gd_* run can embed it.
noinst_LTLIBRARIES += libgddoctor.la
libgddoctor_la_SOURCES = src/envelope/envelope.h src/envelope/doctor.h \
	src/envelope/envelope.c src/envelope/sysfs.c src/envelope/findings.c \
	src/envelope/host.c src/envelope/rdma.c src/envelope/devices.c \
	src/envelope/platform.c src/envelope/acs.c src/envelope/topology.c \
	src/envelope/topology.h src/envelope/map.c src/envelope/rails.c \
	src/envelope/rails.h src/envelope/route_record.c src/envelope/bootstrap.c \
	src/envelope/locality.c src/envelope/locality.h src/envelope/pcie_ro.c
libgddoctor_la_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS) $(LIBPCI_CFLAGS)
libgddoctor_la_LIBADD = $(HWLOC_LIBS) $(LIBPCI_LIBS)
libgdperf_la_LIBADD += libgddoctor.la
