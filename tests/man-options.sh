#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Keeps man/gdperf.7, man/options.in and the gd_* binaries of gd_tests[]
# honest with each other:
# - every long option in each binary's --help is in the OPTIONS of
#   man/options.in (each option described once, there: gdperf.7's OPTIONS
#   has no entries), every option it names exists in some --help, and each
#   entry says the range --help gives and, where every test has the same
#   one, the default;
# - each binary has its section under TESTS: the options it lacks are exactly
#   those other binaries' --help has and its own does not, its defaults are
#   those of its --help, its examples are its --help's;
# - gdperf-perftest(7) has one entry for every option of
#   tests/perftest-options.txt, whose status (implemented, alias, no-op,
#   refused and the kind of reason) and tests are what the binaries do;
# - the exit statuses --help announces are the page's, in the same words;
# - each binary's own page is what man/mkpages.sh writes from gdperf.7,
#   options.in and its --help=all (regenerate with make man-pages), every page in man/
#   renders without a groff warning, every verdict code of
#   src/report/compare.h is documented.
set -u

top_src=${GD_TOP_SRCDIR:-.}
top_build=${GD_TOP_BUILDDIR:-.}
page="$top_src/man/gdperf.7"
optpage="$top_src/man/options.in"
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
[ -r "$optpage" ] || { echo "FAIL: $optpage not readable"; exit 1; }
[ -n "$bins" ] || { echo "FAIL: no gd_tests[] entries found in src/engine/test.c"; exit 1; }
nbins=$(echo $bins | wc -w)

# groff source to plain text for matching: drop font escapes (\fB, \f(CW,
# \f[...]), then every remaining backslash, so "\-\-ib\-dev" reads "--ib-dev".
plain() {
	sed -e 's/\\f\[[^]]*\]//g' -e 's/\\f([A-Za-z][A-Za-z]//g' \
	    -e 's/\\f[A-Za-z1-4]//g' -e 's/\\(em/--/g' -e 's/\\//g' "$@"
}

# Long option names in text on stdin, one per line, sorted and unique.
long_names() {
	grep -o -- '--[A-Za-z][A-Za-z0-9_-]*' | sed 's/^--//' | sort -u
}

# The section .SH $1 of page $2 (default gdperf.7), groff source, without
# the next .SH line.
section() {
	sed -n "/^\.SH $1\$/,/^\.SH /p" "${2:-$page}" | sed '$d'
}

# The entries of a tagged list on stdin (groff source): one line per long
# option of each .TP tag, "NAME<TAB>the entry's text", in plain text.
entries() {
	awk '
	function flush() { if (tag != "") print tag "\t" body; tag = ""; body = "" }
	/^\.TP/ { flush(); want = 1; next }
	want { tag = $0; want = 0; next }
	/^\.(SS|SH|PP)/ { flush(); next }
	tag != "" { body = body " " $0 }
	END { flush() }' | plain | awk -F '\t' '{
		t = $1
		while (match(t, /--[A-Za-z][A-Za-z0-9_-]*/)) {
			print substr(t, RSTART + 2, RLENGTH - 2) "\t" $2
			t = substr(t, RSTART + RLENGTH)
		}
	}'
}

sed -n '/^\.SH OPTIONS$/,$p' "$optpage" >"$tmp/options.src"
[ -s "$tmp/options.src" ] || fail "$optpage has no OPTIONS section"
# gdperf(7) keeps the concepts: its OPTIONS points to the programs' pages
# and describes no option itself
section OPTIONS | grep -q '^\.\(TP\|SS\)' &&
	fail "man/gdperf.7's OPTIONS has entries: options are described once, in man/options.in"
plain "$tmp/options.src" >"$tmp/options.txt"
entries <"$tmp/options.src" >"$tmp/option-entries"
cut -f1 "$tmp/option-entries" | sort -u >"$tmp/man-options"
long_names <"$tmp/options.txt" >"$tmp/man-mentioned"
plain "$page" >"$tmp/page.txt"
section TESTS >"$tmp/tests.src"
[ -s "$tmp/tests.src" ] || fail "$page has no TESTS section"

# "NAME<TAB>RANGE<TAB>DEFAULT" of each option line of --help on stdin.
help_facts() {
	grep -E -- '^ +(-[A-Za-z0-9], )?--[A-Za-z]' |
		sed -E 's/^ +(-[A-Za-z0-9], )?--([A-Za-z][A-Za-z0-9_-]*)[^ ]* +(.*)$/\2\t\3/' |
		awk -F '\t' '{
			r = ""; d = ""
			if (match($2, /\(([0-9]+\.\.[0-9]+[KMG]?)(; default ([^;)]*))?\)$/)) {
				tail = substr($2, RSTART + 1, RLENGTH - 2)
				split(tail, a, "; default ")
				r = a[1]; d = a[2]
			} else if (match($2, /\(default [^;()]*\)$/)) {
				d = substr($2, RSTART + 9, RLENGTH - 10)
			}
			print $1 "\t" r "\t" d
		}'
}

# --help wraps at 80 columns: a description goes on in lines indented 20
# columns or more; joined back, each option is one line again.
unwrap() {
	awk '/^                    +[^ ]/ && prev != "" {
			sub(/^ +/, ""); prev = prev " " $0; next
		}
		{ if (NR > 1) print prev; prev = $0 }
		END { if (NR) print prev }'
}

sh "$top_src/man/mkpages.sh" "$top_src" "$top_build" "$tmp/pages" >"$tmp/mkpages.err" 2>&1 ||
	fail "man/mkpages.sh failed: $(head -3 "$tmp/mkpages.err" | tr '\n' ' ')"
# Every page renders: groff's own warnings (-ww) are failures.
if command -v groff >/dev/null 2>&1; then
	for p in "$top_src"/man/*.[157]; do
		LC_ALL=C groff -man -Tutf8 -ww -z "$p" >"$tmp/groff.err" 2>&1
		[ -s "$tmp/groff.err" ] && fail "${p#"$top_src"/}: groff warns: $(head -2 "$tmp/groff.err" | tr '\n' ' ')"
		grep -q '^\.so ' "$p" && fail "${p#"$top_src"/} is a .so stub: man -l cannot follow it from the source tree"
	done
else
	echo "NOTE: no groff: the pages' rendering is not checked here"
fi
: >"$tmp/all-help"
: >"$tmp/all-facts"
for bin in $bins; do
	exe="$top_build/$bin"
	if [ ! -x "$exe" ]; then
		fail "$exe not built"
		continue
	fi
	# --help=all: plain --help leaves out the options that have no effect
	if ! "$exe" --help=all >"$tmp/help-$bin.wrapped" 2>&1; then
		fail "$bin --help=all exited with status $?"
		continue
	fi
	unwrap <"$tmp/help-$bin.wrapped" >"$tmp/help-$bin.txt"
	# the refused perftest options are checked below, from their refusals
	sed "/^perftest's options gdperf refuses/,/^\$/d" "$tmp/help-$bin.txt" |
		help_facts >"$tmp/facts-$bin"
	cut -f1 "$tmp/facts-$bin" | sort -u >"$tmp/help-$bin"
	sed "s/^/$bin\t/" "$tmp/facts-$bin" >>"$tmp/all-facts"
	n=$(wc -l <"$tmp/help-$bin")
	[ "$n" -ge 20 ] || fail "$bin --help lists only $n long options; parsing broke?"
	missing=$(comm -23 "$tmp/help-$bin" "$tmp/man-options" | sed 's/^/--/' | tr '\n' ' ')
	[ -z "$missing" ] || fail "$bin --help has options missing from man/options.in: $missing"
	cat "$tmp/help-$bin" >>"$tmp/all-help"
	if [ ! -s "$tmp/pages/$bin.1" ]; then
		fail "man/mkpages.sh wrote no page for $bin"
	elif ! cmp -s "$tmp/pages/$bin.1" "$top_src/man/$bin.1"; then
		fail "man/$bin.1 is not what man/mkpages.sh writes from man/gdperf.7, man/options.in and $bin --help=all: run make man-pages and commit ($(diff "$top_src/man/$bin.1" "$tmp/pages/$bin.1" | grep -c '^[<>]') lines differ)"
	fi
	grep -q "$bin" "$tmp/page.txt" || fail "man/gdperf.7 never names $bin"
done
sort -u "$tmp/all-help" -o "$tmp/all-help"

# Reverse: every option man/options.in names must exist in --help.
if [ -s "$tmp/all-help" ]; then
	extra=$(comm -13 "$tmp/all-help" "$tmp/man-mentioned" | sed 's/^/--/' | tr '\n' ' ')
	[ -z "$extra" ] || fail "man/options.in documents options no binary's --help has: $extra"
fi
[ "$(wc -l <"$tmp/man-options")" -ge 20 ] ||
	fail "man/options.in has fewer than 20 option tags; parsing broke?"

# Ranges and defaults: each OPTIONS entry says its option's range, and the
# default when every test has the same numeric one (per-test defaults are
# under TESTS).
nfacts=0
for name in $(cat "$tmp/all-help"); do
	body=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' "$tmp/option-entries")
	ranges=$(awk -F '\t' -v n="$name" '$2 == n && $3 != "" { print $3 }' "$tmp/all-facts" | sort -u)
	for r in $ranges; do
		nfacts=$((nfacts + 1))
		case $body in *"$r"*) ;; *) fail "--$name: --help's range $r is not in its OPTIONS entry" ;; esac
	done
	dflts=$(awk -F '\t' -v n="$name" '$2 == n { print "[" $4 "]" }' "$tmp/all-facts" | sort -u)
	case $dflts in
	*"
"*) ;; # differs between the tests: TESTS says it
	"[]") ;;
	*)
		d=${dflts#[}
		d=${d%]}
		case $d in
		*[!0-9.]*) ;; # words, not a number
		*)
			nfacts=$((nfacts + 1))
			echo "$body" | grep -Eq "default:? $d([^0-9.]|\$)" ||
				fail "--$name: --help's default $d is not in its OPTIONS entry"
			;;
		esac
		;;
	esac
done

# TESTS: one section per binary.
for bin in $bins; do
	sed -n "/^\.SS $bin\$/,/^\.S[SH] /p" "$tmp/tests.src" | sed '$d' >"$tmp/sec-$bin.src"
	if [ ! -s "$tmp/sec-$bin.src" ]; then
		fail "TESTS has no section .SS $bin"
		continue
	fi
	plain "$tmp/sec-$bin.src" >"$tmp/sec-$bin.txt"
	grep '^Not in this test:' "$tmp/sec-$bin.txt" | long_names >"$tmp/lacks-man-$bin"
	comm -23 "$tmp/all-help" "$tmp/help-$bin" >"$tmp/lacks-help-$bin"
	d=$(diff "$tmp/lacks-help-$bin" "$tmp/lacks-man-$bin" | grep '^[<>]' | tr '\n' ' ')
	[ -z "$d" ] || fail "TESTS $bin: 'Not in this test' differs from the options its --help lacks (< --help, > page): $d"
	for pair in s:size n:iters t:tx-depth I:inline_size -gate-from:gate-from; do
		letter=${pair%%:*}
		name=${pair#*:}
		want=$(awk -F '\t' -v n="$name" '$1 == n { print $3 }' "$tmp/facts-$bin")
		[ -n "$want" ] || continue
		nfacts=$((nfacts + 1))
		grep '^Defaults:' "$tmp/sec-$bin.txt" | grep -Eq -- "(^|[ ,])-$letter $want[,.]" ||
			fail "TESTS $bin: --help's default of --$name is $want, not what its Defaults line says"
	done
	sed -n '/^Examples:$/,/^$/p' "$tmp/help-$bin.txt" | sed -n 's/^  \([^ ].*\)$/\1/p' >"$tmp/ex-$bin"
	[ "$(wc -l <"$tmp/ex-$bin")" -ge 2 ] || fail "$bin --help has fewer than two examples"
	while IFS= read -r ex; do
		grep -qxF -- "$ex" "$tmp/sec-$bin.txt" || fail "TESTS $bin lacks --help's example '$ex'"
	done <"$tmp/ex-$bin"
done

# Every verdict code the engine can emit has an entry in the page.
codes=$(grep -o '"GD_[A-Z_]*"' "$top_src/src/report/compare.h" | tr -d '"' | sort -u)
[ -n "$codes" ] || fail "no verdict codes found in src/report/compare.h"
for code in $codes; do
	grep -qx "\.B $code" "$page" || fail "verdict code $code is not documented (.B $code) in man/gdperf.7"
done

# The exit statuses --help announces, each in the page's words.
for bin in $bins; do
	sed -n '/^Exit status: /,$p' "$tmp/help-$bin.txt" | tr '\n' ' ' |
		sed 's/^Exit status: //; s/ *$//'
	echo
done | sort -u >"$tmp/exit-lines"
[ "$(wc -l <"$tmp/exit-lines")" = 1 ] || fail "the binaries announce different exit statuses"
section 'EXIT STATUS' | awk '/^\.B [0-9]/ { n = $2; getline; print n "\t" $0 }' | plain >"$tmp/exit-man"
tr ',' '\n' <"$tmp/exit-lines" | sed 's/^ *//; s/\.$//' | while read -r st words; do
	got=$(awk -F '\t' -v n="$st" '$1 == n { print $2 }' "$tmp/exit-man")
	case $got in
	"$words"*) ;;
	*) echo "FAIL: exit status $st: --help says '$words', man/gdperf.7 EXIT STATUS '$got'" ;;
	esac
done >"$tmp/exit-fail"
[ -s "$tmp/exit-fail" ] && { cat "$tmp/exit-fail"; status=1; }
nexit=$(tr ',' '\n' <"$tmp/exit-lines" | grep -c '[0-9]')

# PERFTEST COMPATIBILITY: every perftest option, with what the binaries do.
section DESCRIPTION "$top_src/man/gdperf-perftest.7" | entries >"$tmp/compat"
words_of() {
	# the gdperf tests whose --help has option $1, in the page's words
	have=""
	for b in $bins; do
		grep -qx -- "$1" "$tmp/help-$b" && have="$have $b"
	done
	have=${have# }
	all=$(echo $bins)
	bw=$(echo $bins | tr ' ' '\n' | grep '_bw$' | tr '\n' ' ')
	lat=$(echo $bins | tr ' ' '\n' | grep '_lat$' | tr '\n' ' ')
	if [ "$have" = "$all" ]; then echo "every test"
	elif [ "$have " = "$bw" ]; then echo "the bandwidth tests"
	elif [ "$have " = "$lat" ]; then echo "the latency tests"
	else echo "$have" | sed 's/ /, /g'
	fi
}
npt=0
nref=0
while read -r name arg _; do
	case $name in '#'*|'') continue ;; esac
	npt=$((npt + 1))
	entry=$(awk -F '\t' -v n="$name" '$1 == n { print $2 }' "$tmp/compat")
	case $(awk -F '\t' -v n="$name" '$1 == n' "$tmp/compat" | wc -l) in
	1) ;;
	0) fail "--$name has no entry in man/gdperf-perftest.7"; continue ;;
	*) fail "--$name has more than one entry in man/gdperf-perftest.7"; continue ;;
	esac
	entry=${entry# }
	word="--$name"
	[ "$arg" = 1 ] && word="$word=1"
	"$top_build/gd_write_bw" "$word" --help >"$tmp/pt.out" 2>"$tmp/pt.err"
	if grep -q '(perftest: ' "$tmp/pt.err"; then
		nref=$((nref + 1))
		if grep -q 'not implemented in gdperf: ' "$tmp/pt.err"; then kind="not implemented"
		elif grep -q "raw_ethernet_\* tests, which gdperf does not have" "$tmp/pt.err"; then kind="raw Ethernet"
		elif grep -q 'a vendor extension (' "$tmp/pt.err"; then kind="vendor extension"
		elif grep -q 'gdperf has no .* backend' "$tmp/pt.err"; then kind="no backend"
		else kind="by design"
		fi
		want="refused ($kind): "
	elif grep -q 'unknown option\|needs an argument' "$tmp/pt.err"; then
		fail "--$name: $(head -1 "$tmp/pt.err")"
		continue
	else
		line=$(cat "$tmp"/help-gd_*.txt | grep -E -- "^ +(-[A-Za-z0-9], )?--$name[= []" | head -1 |
			sed -E 's/^ +(-[A-Za-z0-9], )?--[^ ]+ +//')
		case $line in
		"no effect:"*) st="no-op" ;;
		"same as "* | "perftest spelling of "*) st="alias" ;;
		*) st="implemented" ;;
		esac
		want="$st ($(words_of "$name")): "
	fi
	case $entry in
	"$want"*) ;;
	*) fail "--$name: gdperf-perftest(7) says '$(echo "$entry" | cut -c1-60)...', the binaries '$want'" ;;
	esac
done <"$top_src/tests/perftest-options.txt"
[ "$npt" -ge 100 ] || fail "only $npt perftest options read from tests/perftest-options.txt"

# Each gd_*(1) page names gdperf(7) with a section it lacks (SIGNALS,
# STATISTICS, ...), names no perftest page that no package ships
# (ib_atomic_*), and says the hardware counters come over RDMA netlink.
sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$page" >"$tmp/g-sections"
nxref=0
for bin in $bins; do
	p1="$top_src/man/$bin.1"
	sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$p1" >"$tmp/own"
	while read -r sec; do
		grep -qxF -- "$sec" "$tmp/own" && continue
		# ".BR SEC" or '.BR "SEC"' right after "section", and "see SEC"
		# only as "see gdperf(7), section SEC"
		bad=$(awk -v s="$sec" '
			($0 == ".BR " s || index($0, ".BR " s " ") == 1 ||
			 index($0, ".BR \"" s "\"") == 1) && prev != "section" { print NR }
			{ prev = $0 }' "$p1" | head -n 1)
		[ -z "$bad" ] || fail "man/$bin.1 line $bad: section $sec is gdperf(7)'s; name gdperf(7)"
		grep -n -- "see $sec" "$p1" | grep -v "see gdperf(7), section $sec" | head -n 1 |
			grep . >/dev/null && fail "man/$bin.1: 'see $sec' without gdperf(7)"
		nxref=$((nxref + $(grep -c -- "$sec" "$p1")))
	done <"$tmp/g-sections"
	sed -n '/^\.SH SEE ALSO$/,$p' "$p1" | grep -q 'ib_atomic' &&
		fail "man/$bin.1 SEE ALSO names a perftest atomic page, which no perftest package ships"
	section FILES "$p1" | grep -q 'RDMA netlink' ||
		fail "man/$bin.1 FILES does not say the hardware counters come over RDMA netlink"
done
[ "$nxref" -ge 60 ] || fail "only $nxref references to gdperf(7)'s sections found in the gd_*(1) pages"

# EXIT STATUS's claims that the binaries can prove here: -D with a ping-pong
# test is a usage error (2), not a runtime one; perftest 6.x's --source_ip
# (-j) is --bind_source_ip, one of the two.
"$top_build/gd_write_lat" -D 1 >/dev/null 2>&1
st=$?
[ $st -eq 2 ] || fail "gd_write_lat -D 1 exited $st, expected 2 (usage)"
section 'EXIT STATUS' | awk '/^\.B 1$/,/^\.B 2$/' | grep -q 'ping.*pong' &&
	fail "man/gdperf.7 EXIT STATUS still lists -D with a ping-pong test under status 1"
section 'EXIT STATUS' | awk '/^\.B 2$/,/^\.B 3$/' | grep -q 'D\\fR with a ping.*pong latency test among' ||
	fail "man/gdperf.7 EXIT STATUS does not list -D with a ping-pong test under status 2"
for opt in --source_ip=10.0.0.7 "-j 10.0.0.7"; do
	# shellcheck disable=SC2086
	"$top_build/gd_write_bw" $opt --help >/dev/null 2>"$tmp/sip.err" ||
		fail "gd_write_bw $opt --help: $(head -n 1 "$tmp/sip.err")"
done
"$top_build/gd_write_bw" --source_ip=10.0.0.7 --bind_source_ip=10.0.0.7 >/dev/null 2>"$tmp/sip.err"
st=$?
[ $st -eq 2 ] && grep -q 'give one' "$tmp/sip.err" ||
	fail "--source_ip with --bind_source_ip: exit $st, $(head -n 1 "$tmp/sip.err")"

if [ $status -eq 0 ]; then
	echo "PASS: $npt perftest options each with one gdperf-perftest(7) entry whose status the binaries confirm ($nref refused)"
	echo "PASS: $(wc -l <"$tmp/all-help") long options of $nbins binaries match man/options.in both ways, $nfacts ranges and defaults agree, each test's TESTS section matches its --help"
	echo "PASS: $(echo "$codes" | wc -l) verdict codes and exit statuses 0-$((nexit - 1)) documented in --help's words"
fi
exit $status
