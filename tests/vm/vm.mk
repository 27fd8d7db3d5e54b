# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Soft-RoCE guest harness: device tests run by make check in a qemu/TCG guest
# (tests/vm/gd-vm). The cases directory is distributed whole, so a new
# tests/vm/cases/*.sh needs no edit here. The image cache in the build tree
# survives "make clean"; "make vm-clean" removes it.
# "make check GD_CLUSTER_TESTS=" leaves the two-node cluster out and
# "make check GD_DEVICE_TESTS=" the single guest's cases: .ci/run runs the
# cases once, in the sanitizer build, and the cluster in the plain one.
# "make check-fast" leaves both out and fuzzes briefly (the local loop).
GD_DEVICE_TESTS = tests/vm/device-tests.tap
GD_CLUSTER_TESTS = tests/vm/cluster/cluster-tests.tap
TESTS += $(GD_DEVICE_TESTS) $(GD_CLUSTER_TESTS)
# Two more guests (tests/vm/cluster) only after the single guest is done:
# three TCG guests at once on a 2-core machine starve each other.
tests/vm/cluster/cluster-tests.log: $(GD_DEVICE_TESTS:.tap=.log)
EXTRA_DIST += \
	tests/vm/README \
	tests/vm/gd-vm \
	tests/vm/guest-init \
	tests/vm/guest-lib.sh \
	tests/vm/run-cases.sh \
	tests/vm/ci-formats-cases.sh \
	tests/vm/device-tests.tap \
	tests/vm/cases \
	tests/vm/cluster \
	contrib/quickstart \
	contrib/bench-vs-perftest \
	contrib/bench-guest.sh \
	contrib/bench-aa \
	contrib/bench-aa-guest.sh \
	contrib/bench-four-curves \
	contrib/bench-four-curves-guest.sh \
	.ci/run

# Directories go into the tarball whole: in an in-tree build that would
# include the cluster test's own log and result files.
dist-hook:
	rm -f $(distdir)/tests/vm/cluster/*.log $(distdir)/tests/vm/cluster/*.trs

GD_VM = $(abs_top_srcdir)/tests/vm/gd-vm
GD_VM_ENV = GD_TOP_SRCDIR='$(abs_top_srcdir)' GD_TOP_BUILDDIR='$(abs_top_builddir)' QEMU='$(QEMU)'

# Build (or reuse) the guest image without running anything.
vm-image:
	$(GD_VM_ENV) $(GD_VM) build

# Only the device tests, with their log on the terminal.
vm-check: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/vm/device-tests.tap; \
	st=$$?; cat tests/vm/device-tests.log; exit $$st

# Only the two-node cluster test (tests/vm/cluster), log printed.
vm-cluster-check: all
	$(GD_VM_ENV) GD_VM_TESTS='$(GD_VM_TESTS)' GD_VM_WHY='$(GD_VM_WHY)' \
		GD_VM_REQUIRE=$${GD_VM_REQUIRE:-$(GD_VM_REQUIRED)} \
		$(abs_top_srcdir)/tests/vm/cluster/cluster-tests.tap

# The two-node cluster test GD_CLUSTER_REPEAT times (5) in a row beside
# GD_CLUSTER_BUSY busy loops (1): passes and failures per part, any guest
# oops (tests/vm/cluster/repeat.sh).
vm-cluster-repeat: all
	$(GD_VM_ENV) GD_VM_TESTS='$(GD_VM_TESTS)' GD_VM_WHY='$(GD_VM_WHY)' \
		GD_VM_REQUIRE=$${GD_VM_REQUIRE:-$(GD_VM_REQUIRED)} \
		$(abs_top_srcdir)/tests/vm/cluster/repeat.sh

# The local loop: unit, script and fuzz-smoke tests, no guest (HACKING).
GD_FAST_FUZZ_SECONDS = 5
check-fast:
	GD_FUZZ_SECONDS=$(GD_FAST_FUZZ_SECONDS) \
		$(MAKE) $(AM_MAKEFLAGS) check GD_DEVICE_TESTS= GD_CLUSTER_TESTS=

# The fast suite with every CPU kept busy, to prove that no test needs a
# quiet machine (HACKING, "Timing in the tests"): one plain busy loop per
# CPU (GD_LOAD_CPUS), started here and killed here whatever the outcome,
# around GD_LOAD_REPEAT (1) runs of check-fast; each run's result and the
# load average, then "N of M runs passed". Exit 0 only when all passed.
GD_LOAD_REPEAT = 1
check-under-load: all
	@$(abs_top_srcdir)/tests/under-load.sh $(GD_LOAD_REPEAT) \
		$(MAKE) $(AM_MAKEFLAGS) check-fast

vm-clean:
	$(GD_VM_ENV) $(GD_VM) clean

.PHONY: vm-image vm-check vm-cluster-check vm-cluster-repeat vm-clean check-fast \
	check-under-load

# The cache outlives "make clean" (it is a download cache) but not distclean.
distclean-local:
	rm -rf tests/vm/cache
