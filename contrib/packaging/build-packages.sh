#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Builds the Debian or RPM package from the release tarball of a configured
# build tree, taking the packaging from inside the tarball (so a tarball that
# does not carry it fails here). deb: dpkg-buildpackage, lintian, install with
# apt-get and run the installed programs. rpm: rpmbuild -bb, list the result.
set -euo pipefail

prog=build-packages
usage="usage: $0 deb|rpm BUILDDIR
  BUILDDIR: a configured build tree of gdperf (make dist is run there).
  Environment: GD_PKG_SCRATCH (work dir, default a new /tmp/gdperf-pkg.*),
  GD_PKG_JOBS (parallel jobs, default 2), GD_PKG_NOCHECK=1 (leave out the
  package's own make check: DEB_BUILD_OPTIONS=nocheck, rpmbuild --nocheck;
  CI sets it, its suites ran already)."

say() { echo "$prog: $*"; }
die() {
	echo "$prog: FAILED: $*" >&2
	exit 1
}

[ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
kind=$1
case "$kind" in
deb | rpm) ;;
*) echo "$usage" >&2; exit 2 ;;
esac
[ -f "$2/Makefile" ] || die "$2 is not a configured build tree (no Makefile): run configure there first"
builddir=$(cd "$2" && pwd)
jobs=${GD_PKG_JOBS:-2}
nocheck=${GD_PKG_NOCHECK:-0}

mkvar() { sed -n "s/^$1 = //p" "$builddir/Makefile" | sed -n 1p; }
name=$(mkvar PACKAGE_TARNAME)
version=$(mkvar PACKAGE_VERSION)
if [ -z "$name" ] || [ -z "$version" ]; then
	die "no PACKAGE_TARNAME/PACKAGE_VERSION in $builddir/Makefile"
fi

scratch=${GD_PKG_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/gdperf-pkg.XXXXXX")}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
t0=$SECONDS

# The release tarball, exactly what a distribution starts from.
make_dist() {
	tarball="$builddir/$name-$version.tar.gz"
	say "make dist in $builddir..."
	rm -f "$tarball"
	make -C "$builddir" -s dist >"$scratch/dist.log" 2>&1 ||
		{ tail -n 40 "$scratch/dist.log" >&2; die "make dist in $builddir (log: $scratch/dist.log)"; }
	[ -f "$tarball" ] || die "make dist did not produce $tarball"
	say "tarball $tarball ($(du -k "$tarball" | cut -f1) KiB) in $((SECONDS - t0)) s"
}

# Where a package build fails in its test step, the test log says why.
show_build_failure() {
	local log=$1 dir=$2 f n=60
	while read -r f; do
		grep -Eq '^# (FAIL|XPASS|ERROR): +[1-9]' "$f" || continue
		echo "==== $f" >&2
		cat "$f" >&2
		n=8
	done < <(find "$dir" -name test-suite.log 2>/dev/null)
	echo "==== last $n lines of $log" >&2
	tail -n $n "$log" >&2
}

build_deb() {
	local src="$scratch/$name-$version" changes deb first lintian_rc=0 p
	command -v dpkg-buildpackage >/dev/null || die "no dpkg-buildpackage (apt-get install dpkg-dev)"
	command -v lintian >/dev/null || die "no lintian (apt-get install lintian)"
	rm -rf "$src"
	cp "$tarball" "$scratch/${name}_$version.orig.tar.gz"
	tar -xzf "$tarball" -C "$scratch"
	[ -d "$src/contrib/packaging/debian" ] ||
		die "the tarball does not carry contrib/packaging/debian (EXTRA_DIST in contrib/packaging/packaging.mk)"
	cp -a "$src/contrib/packaging/debian" "$src/debian"

	local debver upstream
	debver=$(cd "$src" && dpkg-parsechangelog -S Version)
	upstream=${debver#*:}
	upstream=${upstream%-*}
	[ "$upstream" = "$version" ] ||
		die "debian/changelog is at $debver but the tarball is $version: add a changelog entry (dch -v $version-1)"
	# nocheck: the option and the build profile of the same name (the
	# test-only build dependencies are marked <!nocheck> in debian/control).
	local profiles=()
	[ "$nocheck" != 1 ] || profiles=(-Pnocheck)
	(cd "$src" && dpkg-checkbuilddeps "${profiles[@]}") ||
		die "build dependencies missing (listed above): apt-get install them"

	local t1=$SECONDS
	local opts="parallel=$jobs"
	[ "$nocheck" != 1 ] || opts="$opts nocheck"
	say "dpkg-buildpackage -us -uc ($debver, $opts; log: $scratch/dpkg-buildpackage.log)..."
	(cd "$src" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }$opts" \
		dpkg-buildpackage -us -uc "${profiles[@]}") >"$scratch/dpkg-buildpackage.log" 2>&1 ||
		{ show_build_failure "$scratch/dpkg-buildpackage.log" "$src"; die "dpkg-buildpackage (log: $scratch/dpkg-buildpackage.log)"; }
	changes="$scratch/${name}_${debver}_$(dpkg-architecture -qDEB_HOST_ARCH).changes"
	deb=$(find "$scratch" -maxdepth 1 -name "${name}_${debver}_*.deb" | sed -n 1p)
	if [ ! -f "$changes" ] || [ -z "$deb" ]; then
		die "dpkg-buildpackage left no $(basename "$changes") or .deb in $scratch"
	fi
	say "built $(basename "$deb") in $((SECONDS - t1)) s"

	# E: and W: tags fail; I: (info), P: (pedantic), X: (experimental) and
	# O: (overridden, each with its reason as N:) are shown for the reader.
	# The tags are read from the output: lintian 2.116 exits 2 when
	# --show-overrides meets --fail-on, overridden or not.
	say "lintian -E --pedantic -I --show-overrides $(basename "$changes")"
	lintian -E --pedantic -I --show-overrides --fail-on none "$changes" \
		>"$scratch/lintian.log" 2>&1 || lintian_rc=$?
	if [ -s "$scratch/lintian.log" ]; then
		sed 's/^/  /' "$scratch/lintian.log"
	else
		echo "  (no tags)"
	fi
	[ $lintian_rc -eq 0 ] || die "lintian itself failed (exit status $lintian_rc), output above"
	if grep -Eq '^[EW]: ' "$scratch/lintian.log"; then
		die "lintian: $(grep -Ec '^[EW]: ' "$scratch/lintian.log") E:/W: tags, shown above"
	fi

	say "contents of $(basename "$deb"):"
	# listed once into a file: grep -q on dpkg-deb's pipe would stop
	# reading early, and under pipefail dpkg-deb's SIGPIPE fails the check
	dpkg-deb -c "$deb" >"$scratch/deb-contents"
	awk '$1 !~ /^d/ { print "  " $6 ($7 == "->" ? " -> " $8 : "") }' "$scratch/deb-contents"
	# the JSON Schemas are data a user's validator points at: in the package
	for sch in run fleet plan compare doctor; do
		grep -q "/usr/share/$name/schemas/gdperf.$sch.schema.json\$" "$scratch/deb-contents" ||
			die "$(basename "$deb") lacks /usr/share/$name/schemas/gdperf.$sch.schema.json (schemas/schemas.mk)"
	done
	say "$(dpkg-deb -c "$deb" | grep -vc '^d') files, installed size $(dpkg-deb -f "$deb" Installed-Size) KiB, Depends: $(dpkg-deb -f "$deb" Depends)"

	[ "$(id -u)" -eq 0 ] || die "installing the package needs root (run as root, or stop here: the .deb is $deb)"
	say "apt-get install -y ./$(basename "$deb")..."
	(cd "$scratch" && apt-get install -y "./$(basename "$deb")") >"$scratch/apt-install.log" 2>&1 ||
		{ tail -n 30 "$scratch/apt-install.log" >&2; die "apt-get install ./$(basename "$deb") (log: $scratch/apt-install.log)"; }
	for p in gd_write_bw gd_doctor; do
		first=$(/usr/bin/$p --version | sed -n 1p) || die "/usr/bin/$p --version failed"
		[ "$first" = "$p ($name) $version" ] ||
			die "/usr/bin/$p --version printed '$first', expected '$p ($name) $version'"
		say "installed /usr/bin/$p --version: $first"
	done
	say "deb done in $((SECONDS - t0)) s: $deb (left installed; apt-get remove $name undoes it)"
}

build_rpm() {
	local top="$scratch/rpmbuild" spec rpm n=0
	command -v rpmbuild >/dev/null || die "no rpmbuild (apt-get install rpm)"
	rm -rf "$top"
	mkdir -p "$top"/{BUILD,BUILDROOT,RPMS,SOURCES,SPECS,SRPMS}
	cp "$tarball" "$top/SOURCES/"
	spec="$top/SPECS/$name.spec"
	tar -xzOf "$tarball" "$name-$version/contrib/packaging/rpm/$name.spec" >"$spec" 2>/dev/null ||
		die "the tarball does not carry contrib/packaging/rpm/$name.spec (EXTRA_DIST in contrib/packaging/packaging.mk)"
	grep -q "^Version: *$version\$" "$spec" ||
		die "$name.spec has $(grep '^Version:' "$spec") but the tarball is $version: update Version and %changelog"

	# --nodeps: on Debian there is no RPM database to satisfy BuildRequires
	# against; dpkg-checkbuilddeps does that job for the deb.
	local check=()
	[ "$nocheck" != 1 ] || check=(--nocheck)
	say "rpmbuild -bb --nodeps ${check[*]} (_topdir $top; log: $scratch/rpmbuild.log)..."
	local t1=$SECONDS
	rpmbuild -bb --nodeps "${check[@]}" \
		--define "_topdir $top" \
		--define "_smp_ncpus_max $jobs" \
		"$spec" >"$scratch/rpmbuild.log" 2>&1 ||
		{ show_build_failure "$scratch/rpmbuild.log" "$top/BUILD"; die "rpmbuild -bb (log: $scratch/rpmbuild.log)"; }
	for rpm in $(find "$top/RPMS" -name '*.rpm' | sort); do
		n=$((n + 1))
		say "built $(basename "$rpm") in $((SECONDS - t1)) s: rpm -qlp:"
		rpm -qlp "$rpm" 2>/dev/null >"$top/rpm-contents" || true
		sed 's/^/  /' "$top/rpm-contents"
		case $(basename "$rpm") in *debug*) continue ;; esac
		for sch in run fleet plan compare doctor; do
			grep -q "^/usr/share/$name/schemas/gdperf.$sch.schema.json\$" "$top/rpm-contents" ||
				die "$(basename "$rpm") lacks /usr/share/$name/schemas/gdperf.$sch.schema.json (%files in $name.spec)"
		done
		say "$(rpm -qlp "$rpm" 2>/dev/null | wc -l) paths; requires: $(rpm -qp --requires "$rpm" 2>/dev/null | grep -v '^rpmlib(' | sed 's/(.*//' | sort -u | tr '\n' ' ')"
	done
	[ $n -gt 0 ] || die "rpmbuild left no RPM under $top/RPMS"
	say "rpm done in $((SECONDS - t0)) s"
}

make_dist
"build_$kind"
