# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Debian and RPM packaging, distributed in the tarball (see contrib/packaging/README).
# build-packages.sh takes the packaging from the tarball, so a file missing
# here fails there.
EXTRA_DIST += contrib/packaging/README \
	contrib/packaging/build-packages.sh \
	contrib/packaging/debian/changelog \
	contrib/packaging/debian/control \
	contrib/packaging/debian/copyright \
	contrib/packaging/debian/gdperf.lintian-overrides \
	contrib/packaging/debian/rules \
	contrib/packaging/debian/source/format \
	contrib/packaging/debian/upstream/metadata \
	contrib/packaging/debian/watch \
	contrib/packaging/rpm/gdperf.spec
