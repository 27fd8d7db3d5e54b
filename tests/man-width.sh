#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Every manual page fits a terminal of 80 columns: rendered as man(1) does
# at MANWIDTH=80 (groff -man, line length 78n; ASCII, so a byte is a
# column), no line is wider than 80 characters (literal blocks are not
# filled, so a wide example or table would run past the edge); and mandoc
# -T lint, which BSD man and lintian's readers use, finds nothing at
# warning level or above (it could not parse a .TH date of "2026").
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
[ $status -eq 0 ] && echo "PASS: $pages pages fit 80 columns$linted"
exit $status
