/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * perftest's rate limiter options: --rate_limit, --rate_units,
 * --rate_limit_type and --burst_size, checked against each other as
 * perftest checks them. gdperf implements the software limiter (SW); the
 * hardware ones are refused with the reason and the device's answer. The
 * pacing itself is in pace.c.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "util/error.h"
#include "cli/options.h"
#include "cli/options_priv.h"
#include "engine/pace.h"

/* perftest's letters, case as perftest compares them */
static int gd_rate_units_parse(struct gd_opts *o)
{
	static const struct {
		const char *letter;
		enum gd_rate_unit unit;
	} units[] = { { "g", GD_RATE_GBPS },
		      { "M", GD_RATE_MIBPS },
		      { "p", GD_RATE_PPS } };

	o->rate_unit = GD_RATE_GBPS;
	if (!o->rate_units)
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(o->rate_units, units[i].letter)) {
			o->rate_unit = units[i].unit;
			return 0;
		}
	return gd_err(
		-EINVAL,
		"--rate_units=%s: give g (Gbit/s), M (MiB/s) or p (messages per second), as perftest",
		o->rate_units);
}

static int gd_rate_type_check(const struct gd_opts *o)
{
	char cap[320];

	if (!o->rate_limit_type || !strcmp(o->rate_limit_type, "SW"))
		return 0;
	if (!strcmp(o->rate_limit_type, "HW")) {
		gd_caps_describe(o->ib_dev, GD_CAP_RATE_LIMIT, cap,
				 sizeof(cap));
		return gd_err(
			-EINVAL,
			"--rate_limit_type=HW (perftest: the QP's static rate, InfiniBand only; elsewhere perftest falls back to SW) is not available: not implemented in gdperf, which paces in software: give --rate_limit_type=SW or leave it out; %s; see gdperf-perftest(7)",
			cap);
	}
	if (!strcmp(o->rate_limit_type, "PP"))
		return gd_err(
			-EINVAL,
			"--rate_limit_type=PP (perftest: packet pacing) is not available: perftest takes it on raw Ethernet QPs only, and gdperf has no raw_ethernet_* tests; give --rate_limit_type=SW; see gdperf-perftest(7)");
	return gd_err(
		-EINVAL,
		"--rate_limit_type=%s: give SW (perftest's HW and PP are refused with their reason)",
		o->rate_limit_type);
}

int gd_opts_rate_check(struct gd_opts *o, bool rate_given,
		       uint64_t max_size_bytes)
{
	uint64_t size = max_size_bytes, gap_ns, limit_ns;

	if (gd_rate_units_parse(o) || gd_rate_type_check(o))
		return gd_err_code();
	if (rate_given && !(o->rate_limit > 0))
		return gd_err(
			-EINVAL,
			"--rate_limit must be above 0 (perftest: a positive number); leave it out for no limit");
	if (o->rate_limit > 0)
		goto limited;
	if (o->rate_limit_type || o->rate_units || o->burst_size)
		return gd_err(
			-EINVAL,
			"%s applies to the rate limiter, which is off: add --rate_limit=RATE (perftest: burst mode needs the rate limiter)",
			o->rate_limit_type ? "--rate_limit_type"
			: o->rate_units	   ? "--rate_units"
					   : "--burst_size");
	return 0;
limited:
	/* A pause between bursts longer than the silence limit would read
	 * as a dead peer on both ends: refuse it here, at the largest size. */
	gap_ns = gd_pace_gap_ns(o, size);
	limit_ns = o->oob_timeout_ms * 1000000ULL / 2;
	if (gap_ns > limit_ns)
		return gd_err(
			-EINVAL,
			"--rate_limit=%g %s: bursts of %" PRIu64
			" messages of %" PRIu64
			" bytes leave %.3f s apart, more than half the silence limit (--timeout=%" PRIu64
			" ms), so either end would take the pause for a dead peer; raise the rate or --timeout, or lower --burst_size",
			o->rate_limit, gd_rate_unit_name(o->rate_unit),
			gd_pace_burst_msgs(o), size, (double)gap_ns / 1e9,
			o->oob_timeout_ms);
	return 0;
}
