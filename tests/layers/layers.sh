#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# make check entry for layers.py: the call graph of src/ on the built objects.
[ -z "${GD_PYTHON_WHY:-}" ] || { echo "SKIP: Python checks: $GD_PYTHON_WHY" >&2; exit 77; }
py=${PYTHON3:-python3}
command -v "$py" >/dev/null 2>&1 || { echo "SKIP: python3 not found" >&2; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found (binutils)" >&2; exit 77; }
exec "$py" "${GD_TOP_SRCDIR:-.}/tests/layers/layers.py" "${GD_TOP_BUILDDIR:-.}"
