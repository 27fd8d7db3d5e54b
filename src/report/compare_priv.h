/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the comparison, verdict and printing files share beyond the
 * document readers (doc_read.h): the verdicts' entry point.
 */
#ifndef GD_COMPARE_PRIV_H
#define GD_COMPARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/compare.h"
#include "report/doc_read.h"
#include "util/json_get.h"

struct json_object;

/* Verdicts from phases and the comparison rows; @gate_evidence holds one
 * string per failing gate (may be empty). Returns a new array. */
struct json_object *gd_verdicts_build(struct json_object *doc,
				      struct json_object *comparison,
				      const struct gd_gate_cfg *gates,
				      struct json_object *gate_evidence);

#endif
