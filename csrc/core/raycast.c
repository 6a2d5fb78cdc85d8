/* SPDX-License-Identifier: MIT
 * raycast.c - world queries that move nothing: a ray against block shapes and
 * static colliders (grid walk), a ray against entity boxes, and a box sweep
 * (how far a box can move before touching a blocking box).
 *
 * Hit rule shared by the rays: a ray hits a box when some point of the ray at a
 * distance in (0, max] lies in the box's open interior; the hit is where it first
 * reaches the box's closure. So a ray gliding along a face, or through the edge
 * between two blocks, hits nothing there (touching is not overlap, as for moves),
 * and a face exactly at max_distance counts.
 */
#include "blockphys.h"
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

/* floor clamped to the int32 grid (outside it every block is air). */
static int64_t clamp_floor(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v > (double)INT32_MAX)
		return INT32_MAX;
	return ray_cell(v);
}

static int64_t clamp_ceil(double v)
{
	int64_t f = clamp_floor(v);
	return (double)f < v && f < INT32_MAX ? f + 1 : f;
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

/* Test the boxes of one cell; keep a strictly nearer hit. */
static void ray_cell_boxes(bp_World *w, const double o[3], const double d[3], double max,
                           int64_t x, int64_t y, int64_t z, bp_RayHit *best)
{
	if (!in_int32(x) || !in_int32(y) || !in_int32(z))
		return; /* outside the int32 grid everything is air */
	uint16_t id = bp_world_get_block(w, (int32_t)x, (int32_t)y, (int32_t)z);
	if (!id)
		return;
	const bp_BlockType *t = &w->types[id];
	for (int i = 0; i < t->nboxes; i++) {
		bp_AABB b = bp_aabb_offset(&t->boxes[i], (double)x, (double)y, (double)z);
		double dist;
		int n[3];
		if (ray_box(o, d, max, &b, &dist, n) && (best->kind == BP_HIT_NONE || dist < best->distance)) {
			best->kind = BP_HIT_BLOCK;
			best->cell[0] = (int32_t)x;
			best->cell[1] = (int32_t)y;
			best->cell[2] = (int32_t)z;
			best->id = id;
			best->collider = 0;
			best->distance = dist;
			for (int a = 0; a < 3; a++)
				best->normal[a] = n[a];
			hit_point(best, o, d, &b);
		}
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
	double d[3];
	hit->kind = BP_HIT_NONE;
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
	const int below = w->tall_shapes != 0;
	for (;;) {
		ray_cell_boxes(w, o, d, max, cell[0], cell[1], cell[2], hit);
		/* A shape may rise into this cell from the one below (fences). */
		if (below)
			ray_cell_boxes(w, o, d, max, cell[0], cell[1] - 1, cell[2], hit);
		int a = next[0] <= next[1] ? (next[0] <= next[2] ? 0 : 2) : (next[1] <= next[2] ? 1 : 2);
		/* Every box a later cell could give is entered at or after next[a]. */
		if (next[a] > max || (hit->kind != BP_HIT_NONE && next[a] > hit->distance))
			break;
		cell[a] += step[a];
		next[a] = boundary(cell[a], step[a], o[a], d[a]);
	}
	ray_colliders(w, o, d, max, hit);
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

/* --- box sweep --- */

typedef struct SweepBest {
	const bp_World *w;
	const bp_AABB *m;
	const double *v;
	bp_SweepHit *hit;
	int rank;    /* the hit's rank at its time (sweep_rank) */
	bp_AABB box; /* the box of the hit */
	uint32_t tested; /* block boxes tested: past BP_MAX_QUERY_BOXES the sweep stops */
} SweepBest;

/* The displacement to a hit: t * v (+ 0.0: no -0 when t = 0), and on the axis of the
 * face met, the gap to that face settled as the resolvers do, so that m moved by it
 * touches the face and never ends an ulp inside (a second sweep would then ignore the
 * box it overlaps and pass through). */
static void settle_move(const bp_AABB *m, const double v[3], bp_SweepHit *hit)
{
	for (int a = 0; a < 3; a++) {
		hit->move[a] = hit->t * v[a] + 0.0;
		if (hit->normal[a] < 0) /* moving up the axis onto a min face */
			hit->move[a] = bp_settle(m->hi[a], hit->move[a], hit->face, 1.0);
		else if (hit->normal[a] > 0)
			hit->move[a] = bp_settle(m->lo[a], hit->move[a], hit->face, -1.0);
	}
}

/* If m moved by `move` overlaps b where m did not, it crossed one of b's faces by
 * rounding (t x v lands an ulp past a face that another box's hit time, tied or a
 * hair earlier, should have stopped it at): settle that axis back onto the face, of
 * the axes m was separated from b on, the one needing the smallest change. */
static void settle_against(const bp_AABB *m, double move[3], const bp_AABB *b)
{
	const bp_AABB end = bp_aabb_offset(m, move[0], move[1], move[2]);
	if (bp_aabb_overlaps(m, b) || !bp_aabb_overlaps(&end, b))
		return;
	int best = -1;
	double best_d = 0, best_change = INFINITY;
	for (int a = 0; a < 3; a++) {
		double d;
		if (move[a] > 0 && m->hi[a] <= b->lo[a])
			d = bp_settle(m->hi[a], move[a], b->lo[a], 1.0);
		else if (move[a] < 0 && m->lo[a] >= b->hi[a])
			d = bp_settle(m->lo[a], move[a], b->hi[a], -1.0);
		else
			continue;
		if (fabs(move[a] - d) < best_change) {
			best = a;
			best_d = d;
			best_change = fabs(move[a] - d);
		}
	}
	if (best >= 0)
		move[best] = best_d;
}

typedef struct Settle {
	const bp_World *w;
	const bp_AABB *m;
	double *move;
} Settle;

static int settle_cell(void *ctx, uint16_t id, int32_t x, int32_t y, int32_t z)
{
	const Settle *s = ctx;
	const bp_BlockType *t = &s->w->types[id];
	for (int i = 0; i < t->nboxes; i++) {
		const bp_AABB box = bp_aabb_offset(&t->boxes[i], (double)x, (double)y, (double)z);
		settle_against(s->m, s->move, &box);
	}
	return 0;
}

/* Among hits at the same time: a face contact (one axis enters then) before an edge or
 * corner contact (several do), then by the normal's axis X, Y, Z, as the swept
 * resolver chooses (move_swept.c): a slide written on world:sweep then never snags on
 * a seam, whatever the order the boxes are visited in. */
static int sweep_rank(const bp_Sweep *r)
{
	const int axis = r->normal[0] ? 0 : r->normal[1] ? 1 : 2;
	return ((r->axes & (r->axes - 1)) ? 3 : 0) + axis;
}

/* Whether box a comes before box b: the smaller min corner (x, then y, then z), then
 * max corner, so that a tie between two colliders does not depend on which was added
 * first. */
static int box_before(const bp_AABB *a, const bp_AABB *b)
{
	for (int i = 0; i < 3; i++) {
		if (a->lo[i] != b->lo[i])
			return a->lo[i] < b->lo[i];
	}
	for (int i = 0; i < 3; i++) {
		if (a->hi[i] != b->hi[i])
			return a->hi[i] < b->hi[i];
	}
	return 0;
}

/* Keep a better hit of the moving box against b: an earlier one, or at the same time
 * a better rank (sweep_rank); at the same rank, blocks (visited first, in cell order)
 * before colliders, and colliders by box_before. */
static int sweep_one(SweepBest *s, const bp_AABB *b, int collider)
{
	bp_Sweep r = bp_aabb_sweep(s->m, b, s->v);
	if (!(r.normal[0] || r.normal[1] || r.normal[2]))
		return 0;
	const int rank = sweep_rank(&r);
	if (s->hit->kind != BP_HIT_NONE) {
		if (r.t > s->hit->t)
			return 0;
		if (r.t == s->hit->t) {
			if (rank > s->rank)
				return 0;
			if (rank == s->rank && !(collider && s->hit->kind == BP_HIT_COLLIDER &&
			                         box_before(b, &s->box)))
				return 0;
		}
	}
	s->hit->t = r.t;
	s->rank = rank;
	s->box = *b;
	for (int a = 0; a < 3; a++) {
		s->hit->normal[a] = r.normal[a];
		if (r.normal[a])
			s->hit->face = r.normal[a] < 0 ? b->lo[a] : b->hi[a];
	}
	return 1;
}

/* How far a swept region's computed bounds may fall short of a face that the entry
 * time still meets at t = 1, on one axis: the bound m + v is rounded, the entry time
 * (face - m) / v is not rounded the same way (m.hi = -0.586..., v = 2 - m.hi gives
 * m.hi + v one ulp below 2 but an entry time of exactly 1). A few ulps of the larger
 * of |m| and |v|, which |lo| + |hi| bounds; extra cells only cost a visit, since
 * bp_aabb_sweep rejects what the path misses. */
static double sweep_margin(const bp_AABB *region, int a)
{
	return (fabs(region->lo[a]) + fabs(region->hi[a])) * (8 * DBL_EPSILON) + DBL_MIN;
}

/* The cells [lo, hi] that can hold a box touching `region` (closed, so that a box
 * met exactly at the end of the displacement counts, at t = 1), one block lower on
 * Y when some shape rises above its cell; with `margin`, also those within
 * sweep_margin (to visit; the cell limit counts without it). 0 if empty. */
static int sweep_range(const bp_World *w, const bp_AABB *region, int margin, int64_t lo[3],
                       int64_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		/* Wholly beyond the grid (a tall shape reaches one block higher): no cells.
		 * Clamping such a range to the edge rows would count cells it cannot touch. */
		const double top = (double)INT32_MAX + ((a == 1 && w->tall_shapes) ? 3.0 : 2.0);
		if (!(region->lo[a] <= top && region->hi[a] >= (double)INT32_MIN))
			return 0;
		const double m = margin ? sweep_margin(region, a) : 0;
		lo[a] = clamp_ceil(region->lo[a] - m) - 1;
		lo[a] = lo[a] < INT32_MIN ? INT32_MIN : lo[a];
		hi[a] = clamp_floor(region->hi[a] + m);
	}
	if (w->tall_shapes && lo[1] > INT32_MIN)
		lo[1] -= 1;
	return hi[0] >= lo[0] && hi[1] >= lo[1] && hi[2] >= lo[2];
}

double bp_world_sweep_cells(const bp_World *w, const bp_AABB *m, const double v[3])
{
	if (v[0] == 0 && v[1] == 0 && v[2] == 0)
		return 0; /* bp_world_sweep scans nothing for a still box */
	bp_AABB region = bp_aabb_extend(m, v[0], v[1], v[2]);
	int64_t lo[3], hi[3];
	if (!sweep_range(w, &region, 0, lo, hi))
		return 0;
	return (double)(hi[0] - lo[0] + 1) * (double)(hi[1] - lo[1] + 1) * (double)(hi[2] - lo[2] + 1);
}

/* Sweep against the boxes of one cell, remembering the block of a new earliest hit. */
static int sweep_cell(void *ctx, uint16_t id, int32_t x, int32_t y, int32_t z)
{
	SweepBest *s = ctx;
	const bp_BlockType *t = &s->w->types[id];
	if ((s->tested += (uint32_t)t->nboxes) > BP_MAX_QUERY_BOXES)
		return 1; /* the work bound: the caller reports it */
	for (int i = 0; i < t->nboxes; i++) {
		bp_AABB box = bp_aabb_offset(&t->boxes[i], (double)x, (double)y, (double)z);
		if (!sweep_one(s, &box, 0))
			continue;
		s->hit->kind = BP_HIT_BLOCK;
		s->hit->cell[0] = x;
		s->hit->cell[1] = y;
		s->hit->cell[2] = z;
		s->hit->id = id;
		s->hit->collider = 0;
	}
	return 0;
}

/* Sweep against the boxes of the cells the region can touch (query.c's chunk walk,
 * which, unlike bp_world_gather, keeps which block each box belongs to);
 * bp_aabb_sweep rejects the boxes the path misses. */
static void sweep_cells(bp_World *w, const bp_AABB *region, SweepBest *s)
{
	int64_t lo[3], hi[3];
	if (sweep_range(w, region, 1, lo, hi))
		bp_world_visit_cells(w, lo, hi, sweep_cell, s);
}

bp_Status bp_world_sweep(bp_World *w, const bp_AABB *m, const double v[3], bp_SweepHit *hit)
{
	hit->kind = BP_HIT_NONE;
	hit->t = 1;
	for (int a = 0; a < 3; a++) {
		hit->move[a] = v[a] + 0.0; /* no -0 */
		if (!(fabs(v[a]) <= BP_MAX_MOVE))
			return BP_ELIMIT;
	}
	if (v[0] == 0 && v[1] == 0 && v[2] == 0)
		return BP_OK; /* nothing to sweep: bp_aabb_sweep never hits a still box */
	bp_AABB region = bp_aabb_extend(m, v[0], v[1], v[2]);
	SweepBest s = {w, m, v, hit, 0, {{0, 0, 0}, {0, 0, 0}}, 0};
	sweep_cells(w, &region, &s);
	if (s.tested > BP_MAX_QUERY_BOXES) {
		hit->kind = BP_HIT_NONE;
		hit->t = 1;
		return BP_ELIMIT;
	}
	for (uint32_t i = 0; i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		if (!c->alive || !sweep_one(&s, &c->box, 1))
			continue;
		hit->kind = BP_HIT_COLLIDER;
		hit->id = 0;
		hit->collider = i + 1;
	}
	if (hit->kind != BP_HIT_NONE)
		settle_move(m, v, hit);
	/* The moved box must not end inside a box it did not start in: settle the axes
	 * that rounding carried past a face. Only boxes near where the box ends can be
	 * such boxes, so only the cells that can touch the end box are visited again (the
	 * range keeps a cell of margin: each settle shortens an axis by ulps only, back
	 * toward where m started). */
	Settle st = {w, m, hit->move};
	const bp_AABB end = bp_aabb_offset(m, hit->move[0], hit->move[1], hit->move[2]);
	int64_t lo[3], hi[3];
	if (sweep_range(w, &end, 1, lo, hi))
		bp_world_visit_cells(w, lo, hi, settle_cell, &st);
	for (uint32_t i = 0; i < w->ncolliders; i++) {
		if (w->colliders[i].alive)
			settle_against(m, hit->move, &w->colliders[i].box);
	}
	return BP_OK;
}
