/* SPDX-License-Identifier: MIT
 * bp_aabb.h - axis-aligned boxes: offset, extend, overlap, per-axis clip, swept entry.
 *
 * A box is [lo, hi] on each axis (blocks, doubles). Axis 0 = X, 1 = Y, 2 = Z.
 * No Lua here; see docs/architecture.md.
 */
#ifndef BP_AABB_H
#define BP_AABB_H

#if defined(__GNUC__) /* public: exported by libblockphys (see blockphys.h) */
#pragma GCC visibility push(default)
#endif

#include <float.h>
#include <math.h>
#include <stdbool.h>

enum { BP_X = 0, BP_Y = 1, BP_Z = 2 };

/** An axis-aligned bounding box in blocks: lo = min corner, hi = max corner. */
typedef struct bp_AABB {
	double lo[3];
	double hi[3];
} bp_AABB;

/** Result of a swept test: entry time t in [0, 1] and the face normal (all zero: no hit).
 *  `axes` is a bit mask (1 << axis) of the moving axes whose entry time equals t: one
 *  bit for a face hit, two or three for an edge or corner hit, where the normal is
 *  only the specification's tie-break (X before Y before Z). Resolvers use it to
 *  prefer an unambiguous face over an edge on a seam (move_swept.c). */
typedef struct bp_Sweep {
	double t;
	int normal[3];
	int axes;
} bp_Sweep;

/** Swept AABB test of box `m` moving by `v` (blocks: one frame's displacement) against
 *  static box `s`, exactly as the algorithm in docs/mccpp.md (collide):
 *  per-axis entry/exit times, still axes give -inf/+inf, the two early rejections,
 *  latest entry vs earliest exit, normal from the axis of latest entry (ties: X before
 *  Y before Z). Our decisions, documented in docs/mccpp.md: boxes that only touch on a still
 *  axis do not hit (a still axis uses strict overlap), a box touching the obstacle and
 *  moving into it hits at t = 0, and boxes that already overlap report no hit (t = 1). */
bp_Sweep bp_aabb_sweep(const bp_AABB *m, const bp_AABB *s, const double v[3]);

/** The times t at which the interiors of m moved by t v (blocks) and s overlap: the
 *  open interval (entry, exit), empty when entry >= exit (a box only touched at one
 *  instant is not crossed); per axis as bp_aabb_sweep (a still axis: always or never,
 *  by strict overlap). Unlike bp_aabb_sweep nothing is rejected: boxes that overlap at
 *  t = 0 give an entry below 0 (or -inf). *at gets t = entry, and when a face of s is
 *  crossed at entry in [0, exit), its normal (the axis of the latest entry; X, Y, Z on
 *  a tie) and the axes entering then; else a zero normal. Source: our own (for
 *  world:sweep_all, after bump's querySegmentWithCoords). */
void bp_aabb_interval(const bp_AABB *m, const bp_AABB *s, const double v[3], double *entry,
                      double *exit, bp_Sweep *at);

/* The small operations are inline: they run per box in every gather. */

/** Box from min and max corners (blocks; no validation: callers check lo <= hi).
 *  Source: our own. */
static inline bp_AABB bp_aabb_make(double x1, double y1, double z1, double x2, double y2, double z2)
{
	bp_AABB b = {{x1, y1, z1}, {x2, y2, z2}};
	return b;
}

/** The box translated by (dx, dy, dz) blocks. Source: docs/mccpp.md
 *  (operator+). */
static inline bp_AABB bp_aabb_offset(const bp_AABB *b, double dx, double dy, double dz)
{
	return bp_aabb_make(b->lo[0] + dx, b->lo[1] + dy, b->lo[2] + dz,
	                    b->hi[0] + dx, b->hi[1] + dy, b->hi[2] + dz);
}

/** Move the box by d (blocks) along one axis (BP_X/Y/Z), in place: the other axes are
 *  left as they are (bp_aabb_offset with zeros would add 0.0 to them; the same values
 *  but for the sign of a zero coordinate, and six more additions per move in the
 *  resolvers). Source: our own. */
static inline void bp_aabb_shift(bp_AABB *b, int axis, double d)
{
	b->lo[axis] += d;
	b->hi[axis] += d;
}

/** The box grown toward a displacement (dx, dy, dz) in blocks: negative components
 *  lower lo, positive raise hi. Source: docs/beta173.md,
 *  BoundingBox::extend (Beta addCoord). */
static inline bp_AABB bp_aabb_extend(const bp_AABB *b, double dx, double dy, double dz)
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

/** The box grown by (ex, ey, ez) blocks on both sides of each axis (negative shrinks).
 *  Source: Beta's AxisAlignedBB.expand (docs/beta173.md sections 5 and 6). */
static inline bp_AABB bp_aabb_expand(const bp_AABB *b, double ex, double ey, double ez)
{
	return bp_aabb_make(b->lo[0] - ex, b->lo[1] - ey, b->lo[2] - ez,
	                    b->hi[0] + ex, b->hi[1] + ey, b->hi[2] + ez);
}

/** True if the open intervals overlap on all three axes: touching faces do not count.
 *  Source: Beta intersectsWith (docs/beta173.md). It differs from MC-CPP's
 *  operator& (docs/mccpp.md) only for a box of zero thickness lying inside
 *  another: true here, false there (MC-CPP asks for a positive overlap volume). */
static inline bool bp_aabb_overlaps(const bp_AABB *a, const bp_AABB *b)
{
	return a->hi[0] > b->lo[0] && a->lo[0] < b->hi[0] &&
	       a->hi[1] > b->lo[1] && a->lo[1] < b->hi[1] &&
	       a->hi[2] > b->lo[2] && a->lo[2] < b->hi[2];
}

/** The gap d from face f to a face at `to`, shortened so that f + d never rounds past
 *  `to` (sign +1: moving up, f + d <= to; -1: moving down, f + d >= to). Beta clips
 *  with plain doubles and can end one ulp inside the obstacle, after which the obstacle
 *  is ignored; we do not (docs/beta173.md, "Differences from the game"). The correction starts
 *  at the ulp of the larger coordinate (not of 1: a gap of 1e-18 would change sign)
 *  and doubles, so it ends in a few steps; it never turns d against the request (f
 *  itself is not past `to`, so 0 always settles). */
static inline double bp_settle(double f, double d, double to, double sign)
{
	if (!(sign * (f + d) > sign * to))
		return d; /* the common case: f + d lands on `to` (or short of it) */
	double step = fmax(DBL_EPSILON * fmax(fabs(f), fabs(to)), DBL_TRUE_MIN);
	for (int i = 0; i < 64 && sign * (f + d) > sign * to; i++) {
		d -= sign * step;
		step *= 2;
	}
	if (sign * d < 0)
		d = 0;
	return d;
}

/** Displacement `d` (blocks) of moving box `m` along `axis`, shortened so that `m` stops
 *  at obstacle `o`. Only obstacles overlapping `m` strictly on the two other axes and
 *  lying entirely on the far side (touching counts) shorten it; overlapping obstacles
 *  are ignored. Source: docs/beta173.md section 3 (calculateX/Y/ZOffset). */
static inline double bp_aabb_clip(const bp_AABB *m, const bp_AABB *o, int axis, double d)
{
	const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
	/* The obstacle must overlap strictly on both other axes (Beta's early returns). */
	if (m->hi[a1] <= o->lo[a1] || m->lo[a1] >= o->hi[a1])
		return d;
	if (m->hi[a2] <= o->lo[a2] || m->lo[a2] >= o->hi[a2])
		return d;
	/* A displacement equal to the gap is settled too: it is the one other d for which
	 * the face can round past the obstacle (a d below the rounded gap lies below the
	 * exact gap as well). */
	if (d > 0 && m->hi[axis] <= o->lo[axis]) {
		double gap = o->lo[axis] - m->hi[axis];
		if (gap <= d)
			d = bp_settle(m->hi[axis], gap, o->lo[axis], 1.0);
	} else if (d < 0 && m->lo[axis] >= o->hi[axis]) {
		double gap = o->hi[axis] - m->lo[axis];
		if (gap >= d)
			d = bp_settle(m->lo[axis], gap, o->hi[axis], -1.0);
	}
	return d;
}

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
