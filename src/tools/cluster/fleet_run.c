/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What every part of gd_report asks of one execution: its phase by name,
 * a phase's figure at a size, whether it was tested, whether it is bad,
 * which class of round it belongs to and which of its sizes are judged.
 * Kept apart so that the indexes and the analysis share them without
 * calling each other.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "tools/cluster/fleet.h"

const struct gd_fleet_phase *gd_fleet_phase_of(const struct gd_fleet_run *r,
					       const char *name)
{
	int i;

	for (i = 0; i < r->n_phases; i++)
		if (!strcmp(r->phases[i].name, name))
			return &r->phases[i];
	return NULL;
}

double gd_fleet_phase_at(const struct gd_fleet_phase *p, double size)
{
	int i;

	for (i = 0; p && i < p->n; i++)
		if (p->size_bytes[i] == size)
			return p->value[i];
	return NAN;
}

bool gd_fleet_run_tested(const struct gd_fleet_run *r)
{
	return r->have_measure || r->have_server;
}

bool gd_fleet_run_bad(const struct gd_fleet_run *r)
{
	return gd_fleet_run_tested(r) && (!r->ok || r->slow);
}

const char *gd_fleet_run_why(const struct gd_fleet_run *r)
{
	return !r->ok ? r->error : r->slow && r->slow_why ? r->slow_why : "";
}

/* Isolated rounds (1, 2) and the concurrency round are judged apart: a
 * rail shared by all pairs at once is a different condition. */
int gd_fleet_run_class(const struct gd_fleet_run *r)
{
	return r->round == 3;
}

/* Sizes at or above gate_from are judged; a curve that stops below it is
 * judged at its largest size. */
bool gd_fleet_size_judged(const struct gd_fleet *fl,
			  const struct gd_fleet_phase *p, int i)
{
	return p->size_bytes[i] >= fl->opt.gate_from_bytes ||
	       (i == p->n - 1 && p->size_bytes[i] < fl->opt.gate_from_bytes);
}
