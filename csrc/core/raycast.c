/* SPDX-License-Identifier: MIT
 * raycast.c - rays, which move nothing: a ray against block shapes and static
 * colliders (grid walk), and a ray against entity boxes. Box sweeps: sweep.c.
 *
 * Hit rule shared by the rays: a ray hits a box when some point of the ray at a
 * distance in (0, max] lies in the box's open interior; the hit is where it first
 * reaches the box's closure. So a ray gliding along a face, or through the edge
 * between two blocks, hits nothing there (touching is not overlap, as for moves),
 * and a face exactly at max_distance counts.
 */
#include "bp_world.h"
#include "entity.h"
#include "query.h"

#include <float.h>
#include <math.h>

/* floor of a coordinate as a cell index; callers keep |v| within BP_MAX_COORD + a
 * few thousand, so the int64 cast is always defined. */
static int64_t ray_cell(double v)
{
	int64_t i = (int64_t)v;
	return (double)i > v ? i - 1 : i;
}

static int in_int32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

bp_Status bp_ray_normalize(const double d[3], double unit[3])
{
	double m = 0;
	for (int a = 0; a < 3; a++) {
		if (!isfinite(d[a]))
			return BP_EINVAL;
		m = fmax(m, fabs(d[a]));
	}
	if (m == 0)
		return BP_EINVAL;
	/* Scale by the largest component first: no overflow for huge components and
	 * no underflow to zero for tiny ones. */
	double s[3] = {d[0] / m, d[1] / m, d[2] / m};
	double len = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
	for (int a = 0; a < 3; a++)
		unit[a] = s[a] / len;
	return BP_OK;
}

/* The ray (origin o, unit direction d, length max) against box b: 1 and the entry
 * distance and normal on a hit. Per axis, the open interval of distances inside the
 * box's open slab; a still axis is "always" or "never" inside (strict bounds). */
static int ray_box(const double o[3], const double d[3], double max, const bp_AABB *b,
                   double *t, int normal[3])
{
	double enter = -INFINITY, leave = INFINITY;
	int axis = -1;
	for (int a = 0; a < 3; a++) {
		double t0, t1;
		if (d[a] == 0) {
			if (!(o[a] > b->lo[a] && o[a] < b->hi[a]))
				return 0;
			continue;
		} else if (d[a] > 0) {
			t0 = (b->lo[a] - o[a]) / d[a];
			t1 = (b->hi[a] - o[a]) / d[a];
		} else {
			t0 = (b->hi[a] - o[a]) / d[a];
			t1 = (b->lo[a] - o[a]) / d[a];
		}
		if (t0 > enter) { /* strict: ties keep the earlier axis (X, Y, Z) */
			enter = t0;
			axis = a;
		}
		leave = fmin(leave, t1);
	}
	double start = enter > 0 ? enter : 0;
	if (!(start < leave && start <= max))
		return 0;
	normal[0] = normal[1] = normal[2] = 0;
	if (enter >= 0) {
		normal[axis] = d[axis] > 0 ? -1 : 1;
	} else {
		/* Started inside: the normal faces back along the largest direction
		 * component (ties X, Y, Z), the face a ray from outside would have hit. */
		int k = 0;
		for (int a = 1; a < 3; a++) {
			if (fabs(d[a]) > fabs(d[k]))
				k = a;
		}
		normal[k] = d[k] > 0 ? -1 : 1;
	}
	*t = start;
	return 1;
}

/* Fill the hit point: o + t d, with the coordinate on the hit face's axis set to
 * the face plane itself, so a hit on a slab top reads exactly 0.5 above the cell. */
static void hit_point(bp_RayHit *h, const double o[3], const double d[3], const bp_AABB *b)
{
	for (int a = 0; a < 3; a++) {
		h->point[a] = o[a] + h->distance * d[a];
		if (h->distance > 0 && h->normal[a])
			h->point[a] = h->normal[a] > 0 ? b->hi[a] : b->lo[a];
	}
}

/* Keep box b of cell (x, y, z), block id, if the ray hits it strictly nearer. */
static void ray_block_box(const double o[3], const double d[3], double max, const bp_AABB *b,
                          int64_t x, int64_t y, int64_t z, uint16_t id, bp_RayHit *best)
{
	double dist;
	int n[3];
	if (!ray_box(o, d, max, b, &dist, n) || (best->kind != BP_HIT_NONE && !(dist < best->distance)))
		return;
	best->kind = BP_HIT_BLOCK;
	best->cell[0] = (int32_t)x;
	best->cell[1] = (int32_t)y;
	best->cell[2] = (int32_t)z;
	best->id = id;
	best->collider = 0;
	best->distance = dist;
	for (int a = 0; a < 3; a++)
		best->normal[a] = n[a];
	hit_point(best, o, d, b);
}

/* The height of a liquid's surface in its cell (blocks), when rays select liquids:
 * a full cell under the same liquid, else its amount of 8 over 9 (a source or a
 * falling liquid: 8, a flowing one of level 1..7: 8 - level). Source: today's game's
 * fluid shape (FlowingFluid.getHeight and getOwnHeight), restated; our own in double. */
static double liquid_height(bp_World *w, const bp_BlockType *t, int64_t x, int64_t y, int64_t z)
{
	if (y < INT32_MAX &&
	    w->types[bp_world_get_block(w, (int32_t)x, (int32_t)(y + 1), (int32_t)z)].liquid == t->liquid)
		return 1;
	const int amount = t->level >= 1 && t->level <= 7 ? 8 - t->level : 8;
	return amount / 9.0;
}

/* Test the boxes of one cell (its collision boxes, or with BP_RAY_OUTLINE its
 * outline; with BP_RAY_LIQUIDS a liquid's cell up to its surface too); keep a
 * strictly nearer hit. */
static void ray_cell_boxes(bp_World *w, const double o[3], const double d[3], double max,
                           unsigned flags, int64_t x, int64_t y, int64_t z, bp_RayHit *best)
{
	if (!in_int32(x) || !in_int32(y) || !in_int32(z))
		return; /* outside the int32 grid everything is air */
	uint16_t id = bp_world_get_block(w, (int32_t)x, (int32_t)y, (int32_t)z);
	if (!id)
		return;
	const bp_BlockType *t = &w->types[id];
	/* a one-way type's boxes too: a ray has no side to come from */
	const bp_AABB *boxes = flags & BP_RAY_OUTLINE ? t->outline : t->shape;
	const int n = flags & BP_RAY_OUTLINE ? t->noutline : t->nshape;
	const double fx = (double)x, fy = (double)y, fz = (double)z;
	for (int i = 0; i < n; i++) {
		bp_AABB b = bp_aabb_offset(&boxes[i], fx, fy, fz);
		ray_block_box(o, d, max, &b, x, y, z, id, best);
	}
	if ((flags & BP_RAY_LIQUIDS) && t->liquid) {
		bp_AABB b = bp_aabb_make(fx, fy, fz, fx + 1, fy + liquid_height(w, t, x, y, z), fz + 1);
		ray_block_box(o, d, max, &b, x, y, z, id, best);
	}
}

/* Distance along the ray to where it leaves cell c on one axis. Computed from the
 * boundary each time (not accumulated), with the very expression ray_box uses for
 * a face on that boundary: rounding is monotonic, so no box entered at distance t
 * lies in a cell the walk enters after t, and the stop tests below are exact. */
static double boundary(int64_t c, int step, double o, double d)
{
	if (step > 0)
		return ((double)c + 1 - o) / d;
	if (step < 0)
		return ((double)c - o) / d;
	return INFINITY;
}

/* Static colliders are few: each one is tested directly. Ties keep the block. */
static void ray_colliders(const bp_World *w, const double o[3], const double d[3],
                          double max, bp_RayHit *best)
{
	for (uint32_t i = 0; i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		double dist;
		int n[3];
		if (!c->alive || !ray_box(o, d, max, &c->box, &dist, n))
			continue;
		if (best->kind != BP_HIT_NONE && !(dist < best->distance))
			continue;
		best->kind = BP_HIT_COLLIDER;
		best->id = 0;
		best->collider = i + 1;
		best->distance = dist;
		for (int a = 0; a < 3; a++)
			best->normal[a] = n[a];
		hit_point(best, o, d, &c->box);
	}
}

bp_Status bp_world_raycast(bp_World *w, const double o[3], const double dir[3], double max,
                           bp_RayHit *hit)
{
	return bp_world_raycast_with(w, o, dir, max, 0, hit);
}

bp_Status bp_world_raycast_with(bp_World *w, const double o[3], const double dir[3],
                                double max, unsigned flags, bp_RayHit *hit)
{
	double d[3];
	hit->kind = BP_HIT_NONE;
	hit->collider_id = 0;
	if (bp_ray_normalize(dir, d) != BP_OK || !(max > 0 && max <= BP_MAX_RAY))
		return BP_EINVAL;
	for (int a = 0; a < 3; a++) {
		if (!(fabs(o[a]) <= BP_MAX_COORD))
			return BP_EINVAL;
	}
	/* Amanatides-Woo grid walk: the cell, the step direction, and the distance to
	 * the next cell boundary on each axis. */
	int64_t cell[3];
	int step[3];
	double next[3];
	for (int a = 0; a < 3; a++) {
		cell[a] = ray_cell(o[a]);
		step[a] = d[a] > 0 ? 1 : d[a] < 0 ? -1 : 0;
		next[a] = boundary(cell[a], step[a], o[a], d[a]);
	}
	const int below = (flags & BP_RAY_OUTLINE ? w->tall_outlines : w->tall_shapes) != 0;
	for (;;) {
		ray_cell_boxes(w, o, d, max, flags, cell[0], cell[1], cell[2], hit);
		/* A shape may rise into this cell from the one below (fences). */
		if (below)
			ray_cell_boxes(w, o, d, max, flags, cell[0], cell[1] - 1, cell[2], hit);
		int a = next[0] <= next[1] ? (next[0] <= next[2] ? 0 : 2) : (next[1] <= next[2] ? 1 : 2);
		/* Every box a later cell could give is entered at or after next[a]. */
		if (next[a] > max || (hit->kind != BP_HIT_NONE && next[a] > hit->distance))
			break;
		cell[a] += step[a];
		next[a] = boundary(cell[a], step[a], o[a], d[a]);
	}
	ray_colliders(w, o, d, max, hit);
	if (hit->kind == BP_HIT_COLLIDER) /* the public name of what the slot holds */
		hit->collider_id = bp_world_collider_handle(w, hit->collider);
	return BP_OK;
}

bp_Status bp_world_raycast_entities(bp_World *w, const double o[3], const double dir[3],
                                    double max, bp_EntityId ignore, bp_EntityRayHit *hit)
{
	double d[3];
	hit->index1 = 0;
	if (bp_ray_normalize(dir, d) != BP_OK || !(max > 0 && max <= BP_MAX_RAY))
		return BP_EINVAL;
	for (int a = 0; a < 3; a++) {
		if (!(fabs(o[a]) <= BP_MAX_COORD))
			return BP_EINVAL;
	}
	const bp_Entity *skip = bp_world_entity(w, ignore);
	/* Linear in the live entities, in creation order: ties keep the older one. */
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	for (uint32_t i = 0; i < p->norder; i++) {
		const bp_Entity *e = &p->items[p->order[i]];
		double dist;
		int n[3];
		if (e == skip || !ray_box(o, d, max, &e->box, &dist, n))
			continue;
		if (hit->index1 && !(dist < hit->distance))
			continue;
		hit->index1 = p->order[i] + 1;
		hit->distance = dist;
		for (int a = 0; a < 3; a++) {
			hit->normal[a] = n[a];
			hit->point[a] = o[a] + dist * d[a];
			if (dist > 0 && n[a])
				hit->point[a] = n[a] > 0 ? e->box.hi[a] : e->box.lo[a];
		}
	}
	return BP_OK;
}
