/* SPDX-License-Identifier: MIT
 * aabb.c - box arithmetic shared by both resolvers. See bp_aabb.h for the contract.
 */
#include "bp_aabb.h"

#include <float.h>
#include <math.h>

/* Time g / v to cover gap g at velocity v, never rounded to zero from a nonzero gap:
 * a subnormal gap over a large |v| underflows to +-0, and a time of -0 would no longer
 * say "already behind us" (nor +0 "just ahead"); the smallest time of the same sign
 * keeps that. */
static double gap_time(double g, double v)
{
	const double t = g / v;
	if (t == 0 && g != 0)
		return (g < 0) != (v < 0) ? -DBL_TRUE_MIN : DBL_TRUE_MIN;
	return t;
}

/* Entry and exit time on one axis. A still axis is "always overlapping" (-inf, +inf)
 * when the open intervals overlap and "never" (+inf, -inf) otherwise: we use strict
 * overlap so that touching boxes on a still axis never hit (no snag on seams). */
static void axis_times(const bp_AABB *m, const bp_AABB *s, int a, double v,
                       double *entry, double *exit)
{
	if (v == 0) {
		bool over = m->hi[a] > s->lo[a] && m->lo[a] < s->hi[a];
		*entry = over ? -INFINITY : INFINITY;
		*exit = over ? INFINITY : -INFINITY;
	} else if (v > 0) {
		*entry = gap_time(s->lo[a] - m->hi[a], v);
		*exit = gap_time(s->hi[a] - m->lo[a], v);
	} else {
		*entry = gap_time(s->hi[a] - m->lo[a], v);
		*exit = gap_time(s->lo[a] - m->hi[a], v);
	}
}

bp_Sweep bp_aabb_sweep(const bp_AABB *m, const bp_AABB *s, const double v[3])
{
	bp_Sweep none = {1.0, {0, 0, 0}, 0};
	double en[3], ex[3];
	for (int a = 0; a < 3; a++)
		axis_times(m, s, a, v[a], &en[a], &ex[a]);
	/* Early rejections of the specification: all entries behind us (already
	 * overlapping), or any entry beyond this frame. The overlap is also tested on
	 * the boxes themselves (a box of zero thickness inside the other, which the
	 * times do not show). */
	if ((en[0] < 0 && en[1] < 0 && en[2] < 0) || bp_aabb_overlaps(m, s))
		return none;
	if (en[0] > 1 || en[1] > 1 || en[2] > 1)
		return none;
	double entry = fmax(en[0], fmax(en[1], en[2]));
	double exit = fmin(ex[0], fmin(ex[1], ex[2]));
	/* entry == exit: the boxes only touch at that instant and move apart (an edge or
	 * a corner grazed, or a face left as it is reached): no hit, where the
	 * specification's `entry > exit` test reports one (a snag on seams). */
	if (entry >= exit)
		return none;
	bp_Sweep hit = {entry + 0.0, {0, 0, 0}, 0}; /* + 0.0 turns -0 into 0 */
	int axis = entry == en[0] ? 0 : entry == en[1] ? 1 : 2;
	hit.normal[axis] = v[axis] > 0 ? -1 : 1;
	for (int a = 0; a < 3; a++) {
		if (en[a] == entry)
			hit.axes |= 1 << a;
	}
	return hit;
}

void bp_aabb_interval(const bp_AABB *m, const bp_AABB *s, const double v[3], double *entry,
                      double *exit, bp_Sweep *at)
{
	double en[3], ex[3];
	for (int a = 0; a < 3; a++)
		axis_times(m, s, a, v[a], &en[a], &ex[a]);
	*entry = fmax(en[0], fmax(en[1], en[2]));
	*exit = fmin(ex[0], fmin(ex[1], ex[2]));
	at->t = *entry;
	at->normal[0] = at->normal[1] = at->normal[2] = 0;
	at->axes = 0;
	if (!(*entry < *exit) || *entry < 0 || bp_aabb_overlaps(m, s))
		return; /* no crossing, or inside at the start: no face is crossed */
	int axis = *entry == en[0] ? 0 : *entry == en[1] ? 1 : 2;
	at->normal[axis] = v[axis] > 0 ? -1 : 1;
	for (int a = 0; a < 3; a++) {
		if (en[a] == *entry)
			at->axes |= 1 << a;
	}
}
