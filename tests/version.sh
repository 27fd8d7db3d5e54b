#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every installed program answers -V and --version the same way, in the one
# format of src/util/version.c: "PROG (gdperf) VERSION", then only "name: value"
# lines, on stdout, with exit status 0. Packaging and bug reports rely on it.
set -u

top_build=${GD_TOP_BUILDDIR:-.}
progs=${GD_PROGRAMS:-}
[ -n "$progs" ] || { echo "FAIL: GD_PROGRAMS is empty; run through make check"; exit 1; }
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_build/config.h")
[ -n "$version" ] || { echo "FAIL: no PACKAGE_VERSION in $top_build/config.h"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gd-version.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
n=0

fail() {
	echo "FAIL: $*"
	status=1
}

for prog in $progs; do
	exe="$top_build/$prog"
	name=${prog%.exe}
	[ -x "$exe" ] || { fail "$exe not built"; continue; }
	for opt in -V --version; do
		"$exe" $opt >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] || fail "$name $opt exited with status $rc"
		[ ! -s "$tmp/err" ] || fail "$name $opt wrote to stderr: $(head -n 1 "$tmp/err")"
		first=$(head -n 1 "$tmp/out")
		[ "$first" = "$name (gdperf) $version" ] ||
			fail "$name $opt: first line '$first', expected '$name (gdperf) $version'"
		bad=$(sed 1d "$tmp/out" | grep -v -E '^[a-z][a-z -]*: [^ ]+$' | head -n 1)
		[ -z "$bad" ] || fail "$name $opt: line '$bad' is not 'name: value'"
	done
	# One format means one output, whichever spelling was asked for.
	"$exe" -V >"$tmp/short" 2>&1
	"$exe" --version >"$tmp/long" 2>&1
	cmp -s "$tmp/short" "$tmp/long" || fail "$name: -V and --version print different text"
	n=$((n + 1))
done

[ "$n" -ge 11 ] || fail "only $n programs checked; GD_PROGRAMS='$progs'"
[ $status -eq 0 ] && echo "PASS: -V and --version of $n programs print '<prog> (gdperf) $version' and exit 0"
exit $status
