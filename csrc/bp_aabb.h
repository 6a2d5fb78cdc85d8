/* SPDX-License-Identifier: MIT
 * bp_aabb.h - axis-aligned boxes: offset, extend, overlap, per-axis clip, swept entry.
 *
 * A box is [lo, hi] on each axis (blocks, doubles). Axis 0 = X, 1 = Y, 2 = Z.
 * No Lua here; see DESIGN.md section 2.
 */
#ifndef BP_AABB_H
#define BP_AABB_H

#include <stdbool.h>

enum { BP_X = 0, BP_Y = 1, BP_Z = 2 };

/** An axis-aligned bounding box in blocks: lo = min corner, hi = max corner. */
typedef struct bp_AABB {
	double lo[3];
	double hi[3];
} bp_AABB;

/** Box from min and max corners (no validation: callers check lo <= hi). */
bp_AABB bp_aabb_make(double x1, double y1, double z1, double x2, double y2, double z2);

/** The box translated by (dx, dy, dz). */
bp_AABB bp_aabb_offset(const bp_AABB *b, double dx, double dy, double dz);

/** The box grown toward a displacement: negative components lower lo, positive raise hi.
 *  Source: sources/b173-entity-movement-and-physics.txt, BoundingBox::extend (Beta addCoord). */
bp_AABB bp_aabb_extend(const bp_AABB *b, double dx, double dy, double dz);

/** The box grown by (ex, ey, ez) on both sides of each axis (negative shrinks).
 *  Beta's AxisAlignedBB.expand. */
bp_AABB bp_aabb_expand(const bp_AABB *b, double ex, double ey, double ez);

/** True if the interiors overlap on all three axes: touching faces do not count.
 *  Source: sources/mccpp-collider.txt operator&, Beta intersectsWith. */
bool bp_aabb_overlaps(const bp_AABB *a, const bp_AABB *b);

/** Displacement `d` of moving box `m` along `axis`, shortened so that `m` stops at
 *  obstacle `o`. Only obstacles overlapping `m` strictly on the two other axes and lying
 *  entirely on the far side (touching counts) shorten it; overlapping obstacles are
 *  ignored. Source: reference/b173-movement.md section 3 (calculateX/Y/ZOffset). */
double bp_aabb_clip(const bp_AABB *m, const bp_AABB *o, int axis, double d);

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

/** Swept AABB test of box `m` moving by `v` against static box `s`, exactly as the
 *  algorithm in sources/mccpp-collider.txt (collide): per-axis entry/exit times, still
 *  axes give -inf/+inf, the two early rejections, latest entry vs earliest exit, normal
 *  from the axis of latest entry (ties: X before Y before Z). Our decisions, documented
 *  in README: boxes that only touch on a still axis do not hit (a still axis uses
 *  strict overlap), a box touching the obstacle and moving into it hits at t = 0, and
 *  boxes that already overlap report no hit (t = 1). */
bp_Sweep bp_aabb_sweep(const bp_AABB *m, const bp_AABB *s, const double v[3]);

#endif
