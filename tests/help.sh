#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# --help of every gd_* benchmark: every line fits 80 columns (plain and
# --help=all), the comparison's options come first in their order, the
# options that have no effect and perftest's refused options appear only
# under --help=all, and --help=WORD other than all is a usage error that
# says what it takes. contrib/quickstart --help says what it would install,
# build and run, exit 0, and runs none of it; an unknown argument exits 2.
set -u

top_src=${GD_TOP_SRCDIR:-.}
top_build=${GD_TOP_BUILDDIR:-.}
bins=$(sed -n 's/^[[:space:]]*\.name = "\(gd_[a-z0-9_]*\)",$/\1/p' "$top_src/src/engine/test.c")
[ -n "$bins" ] || { echo "FAIL: no gd_tests[] entries found in src/engine/test.c"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gd-help.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
n=0
lead="--mem --phases --reverse --repeat --expect-ratio --json"

fail() {
	echo "FAIL: $*"
	status=1
}

# Long option names of the option lines of a --help text, in order.
options() {
	grep -E -- '^ {2,8}(-[A-Za-z0-9], )?--[A-Za-z]' "$1" |
		sed -E 's/^ +(-[A-Za-z0-9], )?(--[A-Za-z][A-Za-z0-9_-]*).*/\2/'
}

# Long names in the block of @2 from its title line @1 to a blank line.
block() {
	sed -n "/^$1/,/^\$/p" "$2" | grep -E -- '^ {2,8}(-[A-Za-z0-9], )?--' |
		sed -E 's/^ +(-[A-Za-z0-9], )?(--[A-Za-z][A-Za-z0-9_-]*).*/\2/'
}

for bin in $bins; do
	exe="$top_build/$bin"
	[ -x "$exe" ] || { fail "$exe not built"; continue; }
	"$exe" --help >"$tmp/plain" 2>&1 || fail "$bin --help exited with status $?"
	"$exe" --help=all >"$tmp/all" 2>&1 || fail "$bin --help=all exited with status $?"
	for f in plain all; do
		wide=$(awk 'length > 80 { print NR ": " length " columns" }' "$tmp/$f")
		[ -z "$wide" ] || fail "$bin --help ($f) has lines wider than 80 columns: $wide"
		n=$((n + 1))
	done

	first=$(options "$tmp/plain" | head -6 | tr '\n' ' ')
	[ "$first" = "$lead " ] ||
		fail "$bin --help: the first options are '$first', not the comparison's '$lead'"
	n=$((n + 1))

	# The options that have no effect: their description says so.
	sed -E 's/^ +(-[A-Za-z0-9], )?(--[A-Za-z][A-Za-z0-9_-]*)[^ ]* +/\2 /' "$tmp/all" |
		awk '$1 ~ /^--/ && $2 == "no" && $3 == "effect:" { print $1 }' >"$tmp/noop"
	[ -s "$tmp/noop" ] || fail "$bin --help=all lists no option that has no effect"
	block "perftest's options gdperf refuses" "$tmp/all" >"$tmp/refused"
	[ -s "$tmp/refused" ] || fail "$bin --help=all lists no refused perftest option"
	options "$tmp/plain" >"$tmp/plain-opts"
	options "$tmp/all" >"$tmp/all-opts"
	for o in $(cat "$tmp/noop" "$tmp/refused"); do
		grep -qxF -- "$o" "$tmp/plain-opts" && fail "$bin --help lists $o (only --help=all should)"
		grep -qxF -- "$o" "$tmp/all-opts" || fail "$bin --help=all does not list $o"
		n=$((n + 1))
	done
	# Everything else plain --help shows, --help=all shows too.
	sort -u "$tmp/all-opts" >"$tmp/all-sorted"
	missing=$(sort -u "$tmp/plain-opts" | comm -23 - "$tmp/all-sorted" | tr '\n' ' ')
	[ -z "$missing" ] || fail "$bin --help=all lacks what --help lists: $missing"
	grep -q -- '--help=all' "$tmp/plain" || fail "$bin --help does not point to --help=all"

	"$exe" --help=bogus >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$bin --help=bogus exited with status $rc, not 2 (usage)"
	grep -q -- "--help=bogus: the only value is 'all'" "$tmp/err" ||
		fail "$bin --help=bogus: no clear error: $(head -1 "$tmp/err")"
	[ -s "$tmp/out" ] && fail "$bin --help=bogus printed help on stdout"
	n=$((n + 3))
done
# contrib/quickstart --help says what it installs, builds and runs, and
# does none of it; an unknown argument is refused before any step. Every
# command a step would run is a stub here that records its call.
qs=$top_src/contrib/quickstart
mkdir -p "$tmp/stub"
for c in apt-get sudo dpkg-query make qemu-system-x86_64 ibv_devices; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$c" "$tmp/called" >"$tmp/stub/$c"
	chmod +x "$tmp/stub/$c"
done
PATH="$tmp/stub:$PATH" GD_BUILD_DIR="$tmp/qs-build" bash "$qs" --help >"$tmp/qs.out" 2>"$tmp/qs.err"
rc=$?
[ $rc -eq 0 ] || fail "quickstart --help exited $rc: $(cat "$tmp/qs.err")"
for want in '^Usage: contrib/quickstart \[--help\]' 'libibverbs-dev' 'qemu-system-x86' \
	"^     $tmp/qs-build (GD_BUILD_DIR" 'gd_write_bw --loopback -a --until-decided' '-d DEV'; do
	grep -q -- "$want" "$tmp/qs.out" || fail "quickstart --help lacks '$want': $(cat "$tmp/qs.out")"
done
awk 'length > 80 { print "quickstart --help line " NR " is " length " columns"; bad = 1 } END { exit bad }' "$tmp/qs.out" || status=1
for bad in --frobnicate run '--help extra'; do
	# shellcheck disable=SC2086 # '--help extra' is two words on purpose
	PATH="$tmp/stub:$PATH" GD_BUILD_DIR="$tmp/qs-build" bash "$qs" $bad >"$tmp/qs.out" 2>"$tmp/qs.err"
	rc=$?
	[ $rc -eq 2 ] || fail "quickstart $bad exited $rc, not 2"
	grep -q "^quickstart: error: unknown argument '${bad#--help }'; it takes none but --help" "$tmp/qs.err" ||
		fail "quickstart $bad: $(cat "$tmp/qs.err")"
	[ -s "$tmp/qs.out" ] && fail "quickstart $bad printed on stdout"
done
[ -e "$tmp/called" ] && fail "quickstart ran a step: $(cat "$tmp/called")"
[ -e "$tmp/qs-build" ] && fail "quickstart made its build folder"
n=$((n + 4))

[ $status -eq 0 ] && echo "PASS: $n checks of --help and --help=all of $(echo $bins | wc -w) binaries"
exit $status
