// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * gd_compare --openmetrics and --prom-textfile: the gdperf.compare/1
 * document as the run's gauges, one set per comparison told apart by its
 * baseline and candidate files (and the candidate's device and --label
 * values), and gd_compare's own exit status.
 */
#include <config.h>

#include <json-c/json.h>
#include <string.h>

#include "report/metrics.h"
#include "tools/compare/compare_tool.h"
#include "util/json_get.h"

/* two runs' verdicts, in place of a run's (gdperf_verdict_state) */
static const char *const gd_cmp_codes[] = { GD_CMP_REGRESSION,
					    GD_CMP_NO_REGRESSION,
					    GD_CMP_UNDECIDED };

int gd_cmp_write_metrics(const char *path, enum gd_metrics_format format,
			 struct json_object *res)
{
	struct json_object *recs = gd_json_path(res, "comparisons", NULL);
	struct gd_metrics m;
	double v;
	size_t base;
	bool runs;
	int ret = gd_metrics_open(&m, format, "gd_compare", path);

	if (ret)
		return ret;
	base = strlen(m.base);
	for (size_t i = 0; i < gd_json_len(recs); i++) {
		struct json_object *rec = gd_json_idx(recs, i);
		struct json_object *cand = gd_json_path(rec, "candidate", NULL);

		m.base[base] = '\0';
		gd_metrics_base(&m, "baseline",
				gd_json_str(gd_json_path(rec, "baseline", NULL),
					    "file"));
		gd_metrics_base(&m, "candidate", gd_json_str(cand, "file"));
		gd_metrics_base(&m, "device", gd_json_str(cand, "device"));
		gd_metrics_labels(&m, gd_json_path(cand, "labels", NULL));
		runs = !strcmp(gd_json_str(rec, "mode") ?: "",
			       "candidate_vs_baseline");
		m.codes = runs ? gd_cmp_codes : NULL;
		m.ncodes = runs ? sizeof(gd_cmp_codes) / sizeof(gd_cmp_codes[0])
				: 0;
		gd_metrics_run(&m, rec, false);
	}
	/* gd_compare's own status, over every comparison and input */
	m.base[base] = '\0';
	gd_metrics_family(&m, "gdperf_run_exit_status", m.exit_help);
	if (gd_json_num(res, "exit_status", &v))
		gd_metrics_put(&m, v, NULL);
	gd_metrics_family(&m, "gdperf_compare_refused_inputs",
			  "inputs gd_compare could not load or compare");
	gd_metrics_put(&m,
		       (double)gd_json_len(gd_json_path(res, "errors", NULL)),
		       NULL);
	return gd_metrics_finish(&m,
				 format == GD_METRICS_PROM ? "--prom-textfile"
							   : "--openmetrics",
				 path);
}
