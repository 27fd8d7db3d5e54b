#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every manual page fits a terminal of 80 columns: rendered as man(1) does
# at MANWIDTH=80 (groff -man, line length 78n; ASCII, so a byte is a
# column), no line is wider than 80 characters (literal blocks are not
# filled, so a wide example or table would run past the edge); and mandoc
# -T lint, which BSD man and lintian's readers use, finds nothing at
# warning level or above (it could not parse a .TH date of "2026"); and
# man -k gdperf and SEE ALSO lead from every page to gdperf(7) and back;
# and the README is at most 12 KiB.
# GD_REQUIRE_MANDOC=1 (.ci/run) makes a missing mandoc a failure.
S=${GD_TOP_SRCDIR:-.}
command -v groff >/dev/null 2>&1 || { echo "SKIP: groff not found (Debian: groff-base)" >&2; exit 77; }
status=0
pages=0

for page in "$S"/man/*.[1-8]; do
	pages=$((pages + 1))
	# -P-cbou: plain characters, no bold, overstrike or underline
	out=$(groff -t -man -Tascii -rLL=78n -P-cbou "$page" 2>&1 |
		awk -v p="${page##*/}" 'length($0) > 80 {
			printf "%s: %d columns: %s\n", p, length($0), $0 }')
	if [ -n "$out" ]; then
		printf 'FAIL: wider than 80 columns at MANWIDTH=80:\n%s\n' "$out"
		status=1
	fi
done

# `man -k gdperf` finds every page (its NAME line says gdperf, as
# lexgrog reads it for mandb's whatis), and SEE ALSO leads from gdperf(7)
# to every other page and back.
for page in "$S"/man/*.[1-8]; do
	base=${page##*/}
	name=${base%.*} sec=${base##*.}
	if command -v lexgrog >/dev/null 2>&1; then
		what=$(lexgrog "$page" 2>&1)
	else
		what=$(sed -n '/^\.SH NAME$/{n;p;}' "$page")
	fi
	case $what in
	*gdperf*) ;;
	*) echo "FAIL: $base: its NAME line does not say gdperf, so man -k gdperf misses it: $what"; status=1 ;;
	esac
	see=$(sed -n '/^\.SH SEE ALSO$/,/^\.SH /p' "$page")
	if [ "$base" = gdperf.7 ]; then
		continue
	fi
	printf '%s\n' "$see" | grep -q '^\.BR gdperf (7)' ||
		{ echo "FAIL: $base: SEE ALSO does not name gdperf(7)"; status=1; }
	sed -n '/^\.SH SEE ALSO$/,/^\.SH /p' "$S/man/gdperf.7" | grep -q "^\.BR $name ($sec)" ||
		{ echo "FAIL: gdperf.7: SEE ALSO does not name $name($sec)"; status=1; }
done

# The README stays a README (issue 50): what gdperf answers, the two
# commands, the examples, a sample, the exit statuses; the rest is in
# these pages and HACKING.
readme=$(wc -c <"$S/README")
[ "$readme" -le 12288 ] ||
	{ echo "FAIL: README is $readme bytes, more than 12288: move detail to gdperf(7) or HACKING"; status=1; }

if command -v mandoc >/dev/null 2>&1; then
	lint=$(mandoc -T lint -W warning "$S"/man/*.[1-8] 2>&1)
	if [ -n "$lint" ]; then
		printf 'FAIL: mandoc -T lint:\n%s\n' "$lint"
		status=1
	fi
	linted=", mandoc -T lint clean"
elif [ -n "${GD_REQUIRE_MANDOC:-}" ]; then
	echo "FAIL: mandoc not found (Debian: mandoc), and GD_REQUIRE_MANDOC is set"
	status=1
else
	linted=" (mandoc not found: lint not run; Debian: mandoc)"
fi
[ $status -eq 0 ] && echo "PASS: $pages pages fit 80 columns$linted, each says gdperf in its NAME line (man -k gdperf), gdperf(7) and each page name each other under SEE ALSO; README $readme bytes"
exit $status
