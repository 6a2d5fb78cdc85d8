/* SPDX-License-Identifier: MIT
 * solid.c - what blocks a moving entity: block shapes, static colliders and the
 * boxes of solid entities (boats, minecarts: reference/b173-movement.md section 4).
 */
#include "blockphys.h"

/* True if entity a may be blocked by b (group/mask filter, both ways). */
int bp_entities_interact(const bp_Entity *a, const bp_Entity *b)
{
	return (a->mask & b->group) && (b->mask & a->group);
}

/* Calls fn for every solid entity other than self whose box overlaps region. */
static int visit_solids(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                        bp_BoxVisitor fn, void *ctx)
{
	bp_EntityPool *p = &w->entities;
	for (uint32_t i = 0; i < p->norder; i++) {
		const bp_Entity *o = &p->items[p->order[i]];
		if (o == self || !o->solid || !bp_entities_interact(self, o))
			continue;
		int stop;
		if (bp_aabb_overlaps(&o->box, region) && (stop = fn(ctx, &o->box)))
			return stop;
	}
	return 0;
}

typedef struct SolidClip {
	const bp_AABB *m, *within;
	int axis;
	double d;
} SolidClip;

static int solid_clip_one(void *ctx, const bp_AABB *box)
{
	SolidClip *c = ctx;
	if (!c->within || bp_aabb_overlaps(box, c->within))
		c->d = bp_aabb_clip(c->m, box, c->axis, c->d);
	return 0;
}

double bp_clip(bp_World *w, const bp_Entity *self, const bp_AABB *m, int axis, double d,
               const bp_AABB *within)
{
	d = bp_world_clip_axis(w, m, axis, d, within);
	if (w->nsolid && d != 0) {
		bp_AABB region = bp_axis_region(m, axis, d);
		SolidClip c = {m, within, axis, d};
		visit_solids(w, self, &region, solid_clip_one, &c);
		d = c.d;
	}
	return d;
}

static int stop_at_first(void *ctx, const bp_AABB *box)
{
	(void)ctx;
	(void)box;
	return 1;
}

int bp_blocked(bp_World *w, const bp_Entity *self, const bp_AABB *region)
{
	if (bp_world_any_box(w, region))
		return 1;
	return w->nsolid && visit_solids(w, self, region, stop_at_first, NULL);
}

int bp_visit_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                      bp_BoxVisitor fn, void *ctx)
{
	int stop = bp_world_visit(w, region, fn, ctx);
	if (!stop && w->nsolid)
		stop = visit_solids(w, self, region, fn, ctx);
	return stop;
}
