/* SPDX-License-Identifier: MIT
 * aabb.c - box arithmetic shared by both resolvers. See bp_aabb.h for the contract.
 */
#include "bp_aabb.h"

#include <math.h>

bp_AABB bp_aabb_make(double x1, double y1, double z1, double x2, double y2, double z2)
{
	bp_AABB b = {{x1, y1, z1}, {x2, y2, z2}};
	return b;
}

bp_AABB bp_aabb_offset(const bp_AABB *b, double dx, double dy, double dz)
{
	return bp_aabb_make(b->lo[0] + dx, b->lo[1] + dy, b->lo[2] + dz,
	                    b->hi[0] + dx, b->hi[1] + dy, b->hi[2] + dz);
}

bp_AABB bp_aabb_extend(const bp_AABB *b, double dx, double dy, double dz)
{
	bp_AABB r = *b;
	const double d[3] = {dx, dy, dz};
	for (int a = 0; a < 3; a++) {
		if (d[a] < 0)
			r.lo[a] += d[a];
		if (d[a] > 0)
			r.hi[a] += d[a];
	}
	return r;
}

bp_AABB bp_aabb_expand(const bp_AABB *b, double ex, double ey, double ez)
{
	return bp_aabb_make(b->lo[0] - ex, b->lo[1] - ey, b->lo[2] - ez,
	                    b->hi[0] + ex, b->hi[1] + ey, b->hi[2] + ez);
}

bool bp_aabb_overlaps(const bp_AABB *a, const bp_AABB *b)
{
	return a->hi[0] > b->lo[0] && a->lo[0] < b->hi[0] &&
	       a->hi[1] > b->lo[1] && a->lo[1] < b->hi[1] &&
	       a->hi[2] > b->lo[2] && a->lo[2] < b->hi[2];
}

double bp_aabb_clip(const bp_AABB *m, const bp_AABB *o, int axis, double d)
{
	const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
	/* The obstacle must overlap strictly on both other axes (Beta's early returns). */
	if (m->hi[a1] <= o->lo[a1] || m->lo[a1] >= o->hi[a1])
		return d;
	if (m->hi[a2] <= o->lo[a2] || m->lo[a2] >= o->hi[a2])
		return d;
	if (d > 0 && m->hi[axis] <= o->lo[axis]) {
		double gap = o->lo[axis] - m->hi[axis];
		if (gap < d)
			d = gap;
	} else if (d < 0 && m->lo[axis] >= o->hi[axis]) {
		double gap = o->hi[axis] - m->lo[axis];
		if (gap > d)
			d = gap;
	}
	return d;
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
		*entry = (s->lo[a] - m->hi[a]) / v;
		*exit = (s->hi[a] - m->lo[a]) / v;
	} else {
		*entry = (s->hi[a] - m->lo[a]) / v;
		*exit = (s->lo[a] - m->hi[a]) / v;
	}
}

bp_Sweep bp_aabb_sweep(const bp_AABB *m, const bp_AABB *s, const double v[3])
{
	bp_Sweep none = {1.0, {0, 0, 0}, 0};
	double en[3], ex[3];
	for (int a = 0; a < 3; a++)
		axis_times(m, s, a, v[a], &en[a], &ex[a]);
	/* Early rejections of the specification: all entries behind us (already
	 * overlapping), or any entry beyond this frame. */
	if (en[0] < 0 && en[1] < 0 && en[2] < 0)
		return none;
	if (en[0] > 1 || en[1] > 1 || en[2] > 1)
		return none;
	double entry = fmax(en[0], fmax(en[1], en[2]));
	double exit = fmin(ex[0], fmin(ex[1], ex[2]));
	if (entry > exit)
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
