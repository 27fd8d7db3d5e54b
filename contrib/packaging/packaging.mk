# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Debian and RPM packaging, distributed in the tarball (see contrib/packaging/README).
