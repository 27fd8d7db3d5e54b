#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Keeps man/gdperf.7 and the gd_* binaries of gd_tests[] honest with each other:
# every long option in each binary's --help is in the page's OPTIONS section,
# every option that section names exists in --help, each binary has its .so
# stub, and every verdict code in src/report/compare.h is documented.
set -u

top_src=${GD_TOP_SRCDIR:-.}
top_build=${GD_TOP_BUILDDIR:-.}
page="$top_src/man/gdperf.7"
# The binaries are the entries of gd_tests[], the table they run from.
bins=$(sed -n 's/^[[:space:]]*\.name = "\(gd_[a-z0-9_]*\)",$/\1/p' "$top_src/src/engine/test.c")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gd-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

[ -r "$page" ] || { echo "FAIL: $page not readable"; exit 1; }
[ -n "$bins" ] || { echo "FAIL: no gd_tests[] entries found in src/engine/test.c"; exit 1; }
nbins=$(echo $bins | wc -w)

# groff source to plain text for matching: drop font escapes (\fB, \f(CW,
# \f[...]), then every remaining backslash, so "\-\-ib\-dev" reads "--ib-dev".
plain() {
	sed -e 's/\\f\[[^]]*\]//g' -e 's/\\f([A-Za-z][A-Za-z]//g' \
	    -e 's/\\f[A-Za-z1-4]//g' -e 's/\\//g' "$@"
}

# Long option names in text on stdin, one per line, sorted and unique.
long_names() {
	grep -o -- '--[A-Za-z][A-Za-z0-9_-]*' | sed 's/^--//' | sort -u
}

# The OPTIONS section only: from ".SH OPTIONS" to the next ".SH".
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$page" | sed '$d' | plain >"$tmp/options.txt"
[ -s "$tmp/options.txt" ] || fail "$page has no OPTIONS section"
# Documented options: the tag line after each .TP (an option only mentioned
# in another's prose does not count); mentioned options: anywhere in it.
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$page" | awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 }' |
	plain | long_names >"$tmp/man-options"
long_names <"$tmp/options.txt" >"$tmp/man-mentioned"
plain "$page" >"$tmp/page.txt"

: >"$tmp/all-help"
for bin in $bins; do
	exe="$top_build/$bin"
	if [ ! -x "$exe" ]; then
		fail "$exe not built"
		continue
	fi
	if ! "$exe" --help >"$tmp/help.txt" 2>&1; then
		fail "$bin --help exited with status $?"
		continue
	fi
	# Option lines only ("  -d, --ib-dev=DEV ..." or "      --mem=SPEC ..."),
	# first long name on each: the help prose mentions options too.
	grep -E -- '^ +(-[A-Za-z0-9], )?--[A-Za-z]' "$tmp/help.txt" |
		sed -E 's/^ +(-[A-Za-z0-9], )?--([A-Za-z][A-Za-z0-9_-]*).*/\2/' |
		sort -u >"$tmp/help-$bin"
	n=$(wc -l <"$tmp/help-$bin")
	[ "$n" -ge 20 ] || fail "$bin --help lists only $n long options; parsing broke?"
	missing=$(comm -23 "$tmp/help-$bin" "$tmp/man-options" | sed 's/^/--/' | tr '\n' ' ')
	[ -z "$missing" ] || fail "$bin --help has options missing from the OPTIONS section of man/gdperf.7: $missing"
	cat "$tmp/help-$bin" >>"$tmp/all-help"
	stub="$top_src/man/$bin.1"
	if [ ! -r "$stub" ] || ! grep -qx '\.so man7/gdperf\.7' "$stub"; then
		fail "man/$bin.1 is not a '.so man7/gdperf.7' stub"
	fi
	grep -q "$bin" "$tmp/page.txt" || fail "man/gdperf.7 never names $bin"
done

# Reverse: every option the OPTIONS section names must exist in --help.
sort -u "$tmp/all-help" -o "$tmp/all-help"
if [ -s "$tmp/all-help" ]; then
	extra=$(comm -13 "$tmp/all-help" "$tmp/man-mentioned" | sed 's/^/--/' | tr '\n' ' ')
	[ -z "$extra" ] || fail "man/gdperf.7 OPTIONS documents options no binary's --help has: $extra"
fi

[ "$(wc -l <"$tmp/man-options")" -ge 20 ] ||
	fail "the OPTIONS section of man/gdperf.7 has fewer than 20 option tags; parsing broke?"

# Every verdict code the engine can emit has an entry in the page.
codes=$(grep -o '"GD_[A-Z_]*"' "$top_src/src/report/compare.h" | tr -d '"' | sort -u)
[ -n "$codes" ] || fail "no verdict codes found in src/report/compare.h"
for code in $codes; do
	grep -qx "\.B $code" "$page" || fail "verdict code $code is not documented (.B $code) in man/gdperf.7"
done

# The exit statuses --help announces are the ones the page documents.
for st in 0 1 2 3; do
	sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$page" | grep -qx "\.B $st" ||
		fail "exit status $st is not documented in man/gdperf.7"
done

# Every perftest option: refused ones (with perftest's meaning) are listed in
# the PERFTEST COMPATIBILITY section, accepted ones are in the page.
sed -n '/^\.SH PERFTEST COMPATIBILITY/,/^\.SH /p' "$page" | plain | long_names >"$tmp/compat"
npt=0
nref=0
while read -r name arg _; do
	case $name in '#'*|'') continue ;; esac
	npt=$((npt + 1))
	word="--$name"
	[ "$arg" = 1 ] && word="$word=1"
	"$top_build/gd_write_bw" "$word" --help >"$tmp/pt.out" 2>&1
	if grep -q '(perftest: ' "$tmp/pt.out"; then
		nref=$((nref + 1))
		grep -qx -- "$name" "$tmp/compat" ||
			fail "--$name is refused but not listed in PERFTEST COMPATIBILITY"
	elif grep -q 'unknown option\|needs an argument' "$tmp/pt.out"; then
		fail "--$name: $(head -1 "$tmp/pt.out")"
	else
		grep -q -- "--$name" "$tmp/page.txt" ||
			grep -q -- "--$(echo "$name" | tr '_-' '-_')" "$tmp/page.txt" ||
			fail "--$name is accepted but man/gdperf.7 does not name it"
	fi
done <"$top_src/tests/perftest-options.txt"

if [ $status -eq 0 ]; then
	echo "PASS: $npt perftest options: $nref refused, each listed in PERFTEST COMPATIBILITY, the rest documented"
	echo "PASS: $(wc -l <"$tmp/all-help") long options of $nbins binaries match man/gdperf.7 both ways; $(echo "$codes" | wc -l) verdict codes and exit statuses 0-3 documented"
fi
exit $status
