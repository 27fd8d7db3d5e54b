# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# JSON Schemas (draft 2020-12) of the run, fleet, plan, compare and doctor
# documents, installed for users' own validators under
# $(pkgdatadir)/schemas (the compare schema refers to the run schema's
# $defs by its $id: keep them together), and the test that validates what
# the suites and the tools write against them.
schemasdir = $(pkgdatadir)/schemas
dist_schemas_DATA = schemas/gdperf.run.schema.json \
	schemas/gdperf.fleet.schema.json schemas/gdperf.plan.schema.json \
	schemas/gdperf.compare.schema.json schemas/gdperf.doctor.schema.json

TESTS += tests/schemas/validate.sh
EXTRA_DIST += tests/schemas/validate.sh tests/schemas/validate.py \
	tests/schemas/variants.py
