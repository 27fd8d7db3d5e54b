#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# A build against an rdma-core older than 34 (no ibv_reg_dmabuf_mr) must
# still compile: every source file that tests HAVE_IBV_REG_DMABUF_MR is
# compiled again, with this build's flags and warnings as errors, against a
# copy of config.h without that macro (found first on the include path).
# The behaviour of such a build ("no DMA-BUF in this build", peer memory in
# auto mode) is tested in mem_test and mem_gpu_path_test with the flag the
# macro sets; this test proves that the other branch of each #ifdef builds.
set -u

B=${GD_TOP_BUILDDIR:-.}
S=${GD_TOP_SRCDIR:-.}
[ -n "${GD_CC:-}" ] || { echo "FAIL: GD_CC is empty; run through make check"; exit 1; }
grep -q '^#define HAVE_IBV_REG_DMABUF_MR 1' "$B/config.h" || {
	echo "SKIP: this build already lacks ibv_reg_dmabuf_mr (config.h); it compiled that branch itself" >&2
	exit 77
}
T=$(mktemp -d "${TMPDIR:-/tmp}/gd-nodmabuf.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
sed '/^#define HAVE_IBV_REG_DMABUF_MR 1$/d' "$B/config.h" >"$T/config.h"
status=0
n=0
for f in $(cd "$S" && grep -rl 'HAVE_IBV_REG_DMABUF_MR' src --include='*.c' | LC_ALL=C sort); do
	n=$((n + 1))
	# GD_CC_FLAGS holds -I$(top_builddir); -I$T comes before it.
	if $GD_CC -I"$T" $GD_CC_FLAGS -Werror -fsyntax-only "$S/$f" 2>"$T/err"; then
		echo "ok $n - $f compiles without HAVE_IBV_REG_DMABUF_MR"
	else
		sed 's/^/# /' "$T/err" | head -n 20
		echo "not ok $n - $f does not compile without HAVE_IBV_REG_DMABUF_MR (errors above)"
		status=1
	fi
done
[ $n -gt 0 ] || { echo "FAIL: no source file tests HAVE_IBV_REG_DMABUF_MR: the test looks in the wrong place ($S/src)"; exit 1; }
echo "$n file(s) compiled without ibv_reg_dmabuf_mr"
exit $status
