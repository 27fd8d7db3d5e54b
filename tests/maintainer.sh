#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# One maintainer address everywhere a packager or a bug reporter reads it:
# AUTHORS, debian/control's Maintainer, debian/copyright's Upstream-Contact,
# the newest debian/changelog and rpm %changelog entries. It is the address
# the project's commits carry; a copy that drifts (a release script editing
# one file) would send mail and bug reports to two places.
set -u

top_src=${GD_TOP_SRCDIR:-.}
pkg=$top_src/contrib/packaging
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

# addr_of WHAT TEXT: the one <local@domain> in TEXT, or a failure naming WHAT
addr_of() {
	a=$(printf '%s\n' "$2" | grep -o '<[^<>@ ]*@[^<>@ ]*\.[a-z][a-z]*>' | head -n 1)
	[ -n "$a" ] || fail "$1: no <user@domain> address in '$2'"
	printf '%s' "$a"
}

authors=$(addr_of AUTHORS "$(grep -m 1 '<' "$top_src/AUTHORS")")
control=$(addr_of debian/control "$(grep -m 1 '^Maintainer:' "$pkg/debian/control")")
copyright=$(addr_of debian/copyright "$(grep -m 1 '^Upstream-Contact:' "$pkg/debian/copyright")")
changelog=$(addr_of debian/changelog "$(grep -m 1 '^ -- ' "$pkg/debian/changelog")")
spec=$(addr_of rpm/gdperf.spec "$(sed -n '/^%changelog/,$p' "$pkg/rpm/gdperf.spec" | grep -m 1 '^\* ')")

for pair in "debian/control $control" "debian/copyright $copyright" \
	"debian/changelog $changelog" "rpm/gdperf.spec $spec"; do
	set -- $pair
	[ "$2" = "$authors" ] ||
		fail "$1 names $2 but AUTHORS names $authors; make them one address (contrib/packaging/README, Maintainer)"
done
# Debian Policy 5.6.2: "Name <address>", a name that is not empty
grep -q '^Maintainer: [^<]*[A-Za-z][^<]* <' "$pkg/debian/control" ||
	fail "debian/control: Maintainer is not 'Name <address>'"
[ $status -eq 0 ] && echo "PASS: AUTHORS, debian/control, debian/copyright, debian/changelog and the rpm %changelog all name $authors"
exit $status
