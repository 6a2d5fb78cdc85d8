/* SPDX-License-Identifier: MIT
 * sweep.c - box sweeps, which move nothing: how far a box can move before it touches
 * a block shape or static collider (world:sweep), and every box it crosses on the way
 * (world:sweep_all). Per box, the swept AABB test of bp_aabb_sweep.
 */
#include "bp_world.h"
#include "alloc.h"
#include "broadphase.h"
#include "entity.h"
#include "query.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* floor of a coordinate as a cell index, clamped to the int32 grid (outside it every
 * block is air); callers keep |v| within BP_MAX_COORD + a few thousand. */
static int64_t clamp_floor(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v > (double)INT32_MAX)
		return INT32_MAX;
	int64_t i = (int64_t)v;
	return (double)i > v ? i - 1 : i;
}

static int64_t clamp_ceil(double v)
{
	int64_t f = clamp_floor(v);
	return (double)f < v && f < INT32_MAX ? f + 1 : f;
}

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

/* The cells of the region swept by m moving by v, counted as the work limit counts
 * them (the cells that touch it, no margin). */
static double region_cells(const bp_World *w, const bp_AABB *m, const double v[3])
{
	bp_AABB region = bp_aabb_extend(m, v[0], v[1], v[2]);
	int64_t lo[3], hi[3];
	if (!sweep_range(w, &region, 0, lo, hi))
		return 0;
	return (double)(hi[0] - lo[0] + 1) * (double)(hi[1] - lo[1] + 1) * (double)(hi[2] - lo[2] + 1);
}

double bp_world_sweep_cells(const bp_World *w, const bp_AABB *m, const double v[3])
{
	if (v[0] == 0 && v[1] == 0 && v[2] == 0)
		return 0; /* bp_world_sweep scans nothing for a still box */
	return region_cells(w, m, v);
}

double bp_world_sweep_all_cells(const bp_World *w, const bp_AABB *m, const double v[3])
{
	return region_cells(w, m, v); /* a still box too: it lists what it starts inside */
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
	hit->collider_id = 0;
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
		if (c->alive != BP_COLLIDER_LIVE || !sweep_one(&s, &c->box, 1))
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
		if (w->colliders[i].alive == BP_COLLIDER_LIVE)
			settle_against(m, hit->move, &w->colliders[i].box);
	}
	if (hit->kind == BP_HIT_COLLIDER) /* the public name of what the slot holds */
		hit->collider_id = bp_world_collider_handle(w, hit->collider);
	return BP_OK;
}

/* --- every box crossed (world:sweep_all) --- */

typedef struct Crossing {
	bp_World *w;
	const bp_AABB *m;
	const double *v;
	bp_SweepCross *list;
	uint32_t n, cap;
	uint32_t tested; /* block boxes tested (the work bound) */
	bp_Status st;
} Crossing;

/* Keep b if m crosses it (the fields other than the box's kind and place are set
 * here). Returns nonzero to stop: out of memory. */
static int cross_one(Crossing *c, const bp_AABB *b, const bp_SweepCross *what)
{
	double entry, exit;
	bp_Sweep at;
	bp_aabb_interval(c->m, b, c->v, &entry, &exit, &at);
	if (!(entry < exit && entry < 1 && exit > 0))
		return 0;
	if (c->n >= BP_MAX_QUERY_BOXES) { /* the list's bound, whatever the kinds */
		c->st = BP_ELIMIT;
		return 1;
	}
	if (bp_grow(&c->w->mem, (void **)&c->list, &c->cap, c->n + 1, sizeof(bp_SweepCross)) !=
	    BP_OK) {
		c->st = BP_ENOMEM;
		return 1;
	}
	bp_SweepCross *x = &c->list[c->n++];
	*x = *what;
	x->box = *b;
	x->inside = entry < 0 || bp_aabb_overlaps(c->m, b);
	x->entry = x->inside ? 0.0 : entry + 0.0;
	x->exit = exit;
	memcpy(x->normal, at.normal, sizeof at.normal);
	x->rank = x->inside ? -1 : sweep_rank(&at);
	return 0;
}

static int cross_cell(void *ctx, uint16_t id, int32_t x, int32_t y, int32_t z)
{
	Crossing *c = ctx;
	const bp_BlockType *t = &c->w->types[id];
	if ((c->tested += (uint32_t)t->nboxes) > BP_MAX_QUERY_BOXES) {
		c->st = BP_ELIMIT;
		return 1;
	}
	bp_SweepCross what;
	memset(&what, 0, sizeof what);
	what.kind = BP_HIT_BLOCK;
	what.cell[0] = x, what.cell[1] = y, what.cell[2] = z;
	what.id = id;
	for (int i = 0; i < t->nboxes; i++) {
		const bp_AABB box = bp_aabb_offset(&t->boxes[i], (double)x, (double)y, (double)z);
		if (cross_one(c, &box, &what))
			return 1;
	}
	return 0;
}

static int cross_entity(void *ctx, uint32_t index)
{
	Crossing *c = ctx;
	const bp_Entity *e = &c->w->entities.items[index];
	bp_SweepCross what;
	memset(&what, 0, sizeof what);
	what.kind = BP_HIT_ENTITY;
	what.entity = index;
	what.serial = e->serial;
	return cross_one(c, &e->box, &what);
}

static int cmp_int(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* The order of bp_world_sweep_all (see blockphys.h). */
static int cmp_cross(const void *pa, const void *pb)
{
	const bp_SweepCross *a = pa, *b = pb;
	if (a->entry != b->entry)
		return a->entry < b->entry ? -1 : 1;
	if (a->rank != b->rank)
		return cmp_int(a->rank, b->rank);
	if (a->kind != b->kind)
		return cmp_int(a->kind, b->kind);
	if (a->kind == BP_HIT_ENTITY)
		return cmp_int(a->serial, b->serial);
	for (int i = 0; a->kind == BP_HIT_BLOCK && i < 3; i++) {
		if (a->cell[i] != b->cell[i])
			return cmp_int(a->cell[i], b->cell[i]);
	}
	return box_before(&a->box, &b->box) ? -1 : box_before(&b->box, &a->box) ? 1 : 0;
}

bp_Status bp_world_sweep_all(bp_World *w, const bp_AABB *m, const double v[3],
                             bp_SweepCross *out, uint32_t cap, uint32_t *n)
{
	*n = 0;
	for (int a = 0; a < 3; a++) {
		if (!(fabs(v[a]) <= BP_MAX_MOVE))
			return BP_ELIMIT;
	}
	Crossing c = {w, m, v, NULL, 0, 0, 0, BP_OK};
	const bp_AABB region = bp_aabb_extend(m, v[0], v[1], v[2]);
	int64_t lo[3], hi[3];
	if (sweep_range(w, &region, 1, lo, hi))
		bp_world_visit_cells(w, lo, hi, cross_cell, &c);
	for (uint32_t i = 0; c.st == BP_OK && i < w->ncolliders; i++) {
		const bp_StaticCollider *col = &w->colliders[i];
		if (col->alive != BP_COLLIDER_LIVE)
			continue;
		bp_SweepCross what;
		memset(&what, 0, sizeof what);
		what.kind = BP_HIT_COLLIDER;
		what.collider = i + 1;
		what.handle = bp_world_collider_handle(w, i + 1);
		if (cross_one(&c, &col->box, &what))
			break;
	}
	if (c.st == BP_OK) /* every entity whose box touches the swept region */
		bp_broadphase_visit(w, &region, cross_entity, &c);
	if (c.st == BP_OK && c.n > 1)
		qsort(c.list, c.n, sizeof *c.list, cmp_cross);
	if (c.st == BP_OK) {
		*n = c.n;
		if (c.n && cap) /* c.list is NULL without crossings */
			memcpy(out, c.list, (size_t)(c.n < cap ? c.n : cap) * sizeof *out);
	}
	bp_free(&w->mem, c.list, (size_t)c.cap * sizeof *c.list);
	return c.st;
}
