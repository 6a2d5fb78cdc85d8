/* SPDX-License-Identifier: MIT
 * solid.c - what blocks a moving entity: block shapes, static colliders and the
 * boxes of solid entities (boats, minecarts: docs/beta173.md section 4).
 */
#include "solid.h"
#include "blockphys.h"
#include "broadphase.h"
#include "entity.h"
#include "query.h"

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

double bp_clip(bp_World *w, const bp_Entity *self, const bp_AABB *m, int axis, double d,
               const bp_AABB *within)
{
	d = bp_world_clip_axis(w, m, axis, d, within);
	if (w->nsolid && d != 0) {
		bp_AABB region = bp_axis_region(m, axis, d);
		bp_ClipCtx c = {m, within, axis, d};
		visit_solids(w, self, &region, bp_clip_one, &c);
		d = c.d;
	}
	return d;
}

int bp_blocked(bp_World *w, const bp_Entity *self, const bp_AABB *region)
{
	if (bp_world_any_box(w, region))
		return 1;
	return w->nsolid && visit_solids(w, self, region, bp_stop_at_first, NULL);
}

int bp_visit_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                      bp_BoxVisitor fn, void *ctx)
{
	int stop = bp_world_visit(w, region, fn, ctx);
	if (!stop && w->nsolid)
		stop = visit_solids(w, self, region, fn, ctx);
	return stop;
}

int bp_collect_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                        bp_AABB *out, int cap, double max_cells, bp_GatherCache *cache)
{
	int n = bp_world_collect(w, region, out, cap, max_cells, cache);
	if (n < 0 || !w->nsolid)
		return n;
	bp_Collect c = {out, cap, n};
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
