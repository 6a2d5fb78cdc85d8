/* SPDX-License-Identifier: MIT
 * solid.c - what blocks a moving entity: block shapes, static colliders and the
 * boxes of solid entities (boats, minecarts: docs/beta173.md section 4).
 */
#include "solid.h"
#include "bp_world.h"
#include "broadphase.h"
#include "entity.h"
#include "query.h"

#include <math.h>

/* True if entity a may be blocked by b (group/mask filter, both ways). */
int bp_entities_interact(const bp_Entity *a, const bp_Entity *b)
{
	/* A sensor blocks, pushes and is pushed by nothing (sensor.c reports it). */
	return (a->mask & b->group) && (b->mask & a->group) && !(a->sensor | b->sensor);
}

/* Ask one entity's Lua filter; a failure is remembered and refuses the pair. */
static int ask_filter(bp_World *w, const bp_Entity *self, const bp_Entity *other)
{
	const bp_Entity *items = w->entities.items;
	int allow = 1;
	if (w->hooks->filter(w->hooks->ctx, w, (uint32_t)(self - items),
	                     (uint32_t)(other - items), &allow)) {
		w->hook_failed = 1;
		return 0;
	}
	return allow;
}

int bp_pair_interacts(bp_World *w, const bp_Entity *a, const bp_Entity *b)
{
	if (!bp_entities_interact(a, b))
		return 0;
	if (!(a->has_filter || b->has_filter) || !w->hooks || !w->hooks->filter)
		return 1; /* bits only: no filter, or no Lua state to call it (C callers) */
	if (w->hook_failed)
		return 0; /* the step is being aborted: call no more Lua */
	if (a->has_filter && !ask_filter(w, a, b))
		return 0;
	return !b->has_filter || ask_filter(w, b, a);
}

/* Beta gathers entities from the region grown by 0.25 on every axis, then keeps the
 * boxes that overlap the region itself (docs/beta173.md section 4). */
#define SOLID_QUERY_MARGIN 0.25

typedef struct SolidVisit {
	bp_World *w;
	const bp_Entity *self;
	const bp_AABB *region;
	bp_BoxVisitor fn;
	void *ctx;
} SolidVisit;

/* One candidate: a solid entity blocks everyone it interacts with; a solid mover
 * (boat, minecart) is also blocked by every entity it interacts with (Beta's
 * getCollisionBox(other) returns other's box for boats and minecarts). */
static int solid_one(void *ctx, uint32_t index)
{
	SolidVisit *v = ctx;
	const bp_Entity *o = &v->w->entities.items[index];
	const bp_Entity *self = v->self;
	if (o == self || o->sensor || !(o->solid || (self && self->solid)))
		return 0;
	if (!bp_aabb_overlaps(&o->box, v->region))
		return 0;
	if (self && !bp_pair_interacts(v->w, self, o))
		return 0;
	return v->fn(v->ctx, &o->box);
}

/* The most entities one query for blocking boxes considers: the first ones by creation
 * order among those near the region, solid or not, before the filters (as max_pushes
 * bounds a push, push.c). A pile of n solid entities on one spot then costs
 * O(n x SOLID_VISIT_LIMIT) per step instead of O(n^2); in a crowd no query region
 * (an entity's box, the move and 0.25 around it) comes near this many. Counting the
 * solid ones only would leave a pile of non-solid entities O(n^2) in a world with one
 * boat (every query would read the whole pile to find none). Our own. */
#define SOLID_VISIT_LIMIT 24

/* Calls fn for every entity box that blocks self inside region, in creation order
 * (self may be NULL: every solid entity blocks), among the first SOLID_VISIT_LIMIT
 * entities near it: in a denser pile the younger ones do not block this query. */
static int visit_solids(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                        bp_BoxVisitor fn, void *ctx)
{
	bp_AABB q = bp_aabb_expand(region, SOLID_QUERY_MARGIN, SOLID_QUERY_MARGIN,
	                           SOLID_QUERY_MARGIN);
	SolidVisit v = {w, self, region, fn, ctx};
	return bp_broadphase_visit_first(w, &q, 0, SOLID_VISIT_LIMIT, solid_one, &v);
}

/* --- one-way boxes (docs/mechanics.md, "One-way blocks") ---
 * The one place that decides whether a one-way box blocks a mover. Gathers never see
 * one-way boxes (a one-way block type has no gathered boxes, a one-way collider is not
 * BP_COLLIDER_LIVE); the four functions below add the ones that block `self`, so both
 * resolvers, their step-up, the sneak edge guard, pushes and depenetration all follow
 * one rule: a one-way box blocks self's whole move, as any box, when self's box at the
 * start of the move (e->box: the resolvers write it back only at the end) lies wholly
 * on the open side of its face (touching the face counts), and is nothing to it
 * otherwise. A mover that starts inside the box or on its other side passes through;
 * one that starts beyond the face meets the box where its path does. */

/* Whether one-way box `box`, open through `face` (BP_FACE_*), blocks self's move. A
 * sneaking entity whose rules have drop_through_sneaking passes an "up" face. */
static int one_way_blocks(bp_World *w, const bp_Entity *self, int face, const bp_AABB *box)
{
	const int a = (face - 1) / 2;
	const int beyond = (face - 1) % 2 == 0 ? self->box.lo[a] >= box->hi[a]
	                                       : self->box.hi[a] <= box->lo[a];
	if (!beyond)
		return 0;
	return !(face == BP_FACE_UP && self->rules.drop_through_sneaking &&
	         bp_entity_input(w, self)->sneaking);
}

typedef struct OneWayVisit {
	bp_World *w;
	const bp_Entity *self;
	const bp_AABB *region;
	bp_BoxVisitor fn;
	void *ctx;
} OneWayVisit;

/* The boxes of one cell of a one-way type that block the mover. */
static int one_way_cell(void *ctx, uint16_t id, int32_t x, int32_t y, int32_t z)
{
	const OneWayVisit *v = ctx;
	const bp_BlockType *t = &v->w->types[id];
	if (!t->one_way)
		return 0;
	for (int i = 0; i < t->nshape; i++) {
		bp_AABB b = bp_aabb_offset(&t->shape[i], (double)x, (double)y, (double)z);
		int stop;
		if (bp_aabb_overlaps(&b, v->region) && one_way_blocks(v->w, v->self, t->one_way, &b) &&
		    (stop = v->fn(v->ctx, &b)))
			return stop;
	}
	return 0;
}

/* A coordinate's cell clamped to the int32 grid; `end`: the last cell of a range that
 * ends at v (ceil - 1). */
static int64_t one_way_cell_of(double v, int end)
{
	if (!(v > (double)INT32_MIN))
		return INT32_MIN;
	if (!(v < (double)INT32_MAX))
		return INT32_MAX;
	return (int64_t)(end ? ceil(v) - 1 : floor(v));
}

/* Kept out of line: worlds without one-way boxes pay only the test of w->one_way. */
#if defined(__GNUC__)
#define ONE_WAY_COLD __attribute__((noinline, cold))
#else
#define ONE_WAY_COLD
#endif

/* Calls fn for every one-way box (blocks, in cell order, then colliders) overlapping
 * region that blocks self's move (self NULL: none do). Only when w->one_way. */
static ONE_WAY_COLD int visit_one_way(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                         bp_BoxVisitor fn, void *ctx)
{
	if (!self)
		return 0;
	OneWayVisit v = {w, self, region, fn, ctx};
	int64_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		lo[a] = one_way_cell_of(region->lo[a], 0);
		hi[a] = one_way_cell_of(region->hi[a], 1);
	}
	if (w->tall_shapes && lo[1] > INT32_MIN)
		lo[1]--; /* a shape may rise into the region from the cell below */
	int stop = bp_world_visit_cells(w, lo, hi, one_way_cell, &v);
	for (uint32_t i = 0; !stop && i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		if (c->alive == BP_COLLIDER_ONE_WAY && bp_aabb_overlaps(&c->box, region) &&
		    one_way_blocks(w, self, c->one_way, &c->box))
			stop = fn(ctx, &c->box);
	}
	return stop;
}

/* The boxes of solid entities, then the one-way boxes for self (w->one_way set):
 * apart from the calls below, so that a world without one-way boxes takes the calls'
 * old paths, which pay one test of w->one_way. */
static ONE_WAY_COLD int visit_extra(bp_World *w, const bp_Entity *self,
                                    const bp_AABB *region, bp_BoxVisitor fn, void *ctx)
{
	int stop = w->nsolid ? visit_solids(w, self, region, fn, ctx) : 0;
	return stop ? stop : visit_one_way(w, self, region, fn, ctx);
}

double bp_clip(bp_World *w, const bp_Entity *self, const bp_AABB *m, int axis, double d,
               const bp_AABB *within)
{
	d = bp_world_clip_axis(w, m, axis, d, within);
	if ((w->nsolid || w->one_way) && d != 0) {
		bp_AABB region = bp_axis_region(m, axis, d);
		bp_ClipCtx c = {m, within, axis, d};
		if (w->one_way)
			visit_extra(w, self, &region, bp_clip_one, &c);
		else
			visit_solids(w, self, &region, bp_clip_one, &c);
		d = c.d;
	}
	return d;
}

int bp_blocked(bp_World *w, const bp_Entity *self, const bp_AABB *region)
{
	if (bp_world_any_box(w, region))
		return 1;
	if (w->one_way)
		return visit_extra(w, self, region, bp_stop_at_first, NULL);
	return w->nsolid && visit_solids(w, self, region, bp_stop_at_first, NULL);
}

int bp_visit_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                      bp_BoxVisitor fn, void *ctx)
{
	int stop = bp_world_visit(w, region, fn, ctx);
	if (!stop && w->one_way)
		return visit_extra(w, self, region, fn, ctx);
	if (!stop && w->nsolid)
		stop = visit_solids(w, self, region, fn, ctx);
	return stop;
}

int bp_collect_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                        bp_AABB *out, int cap, double max_cells, bp_GatherCache *cache)
{
	int n = bp_world_collect(w, region, out, cap, max_cells, cache);
	if (n < 0 || !(w->nsolid || w->one_way))
		return n;
	bp_Collect c = {out, cap, n};
	if (w->one_way)
		return visit_extra(w, self, region, bp_collect_one, &c) ? -1 : c.n;
	return visit_solids(w, self, region, bp_collect_one, &c) ? -1 : c.n;
}

void bp_world_entities_restored(bp_World *w)
{
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	bp_broadphase_invalidate(w);
	w->nsolid = 0;
	for (uint32_t i = 0; i < p->norder; i++)
		w->nsolid += p->items[p->order[i]].solid;
}
