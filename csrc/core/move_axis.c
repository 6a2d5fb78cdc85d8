/* SPDX-License-Identifier: MIT
 * move_axis.c - the per-axis resolver: Beta 1.7.3 Entity.moveEntity restated in
 * docs/beta173.md section 3. Like Beta, a short move gathers the boxes of
 * its whole swept region once (a small list on the stack); a long move (or a region
 * with more boxes than the list holds) gathers per axis pass instead (the slab swept
 * along that axis): a box outside a pass's slab cannot change that pass's clip, so
 * the results are the same while the work grows with the distance, not with the
 * region's volume (docs/architecture.md).
 */
#include "bp_world.h"
#include "entity.h"
#include "query.h"
#include "solid.h"

#include <math.h>

/* Swept regions up to this many cells are gathered once into a list. */
#define SMALL_REGION_CELLS 64.0
#define LIST_CAP 96

/* The boxes of one move: a gathered list (n >= 0) or, when the region spans more
 * than SMALL_REGION_CELLS cells or holds more than LIST_CAP boxes, per-axis gathers
 * from the world (n < 0). */
typedef struct Boxes {
	int n;
	bp_AABB b[LIST_CAP];
} Boxes;

static void boxes_gather(bp_World *w, const bp_Entity *e, const bp_AABB *region, Boxes *s,
                         bp_GatherCache *cache)
{
	/* Without solid entities the world's boxes are all (and the call is direct); with
	 * one-way boxes, solid.c adds those that block e (see solid.c). */
	s->n = w->nsolid || w->one_way
	           ? bp_collect_blocking(w, e, region, s->b, LIST_CAP, SMALL_REGION_CELLS, cache)
	           : bp_world_collect(w, region, s->b, LIST_CAP, SMALL_REGION_CELLS, cache);
}

/* One per-axis pass: d of box m clipped by the boxes (only those overlapping
 * `within`, when given). */
static BP_ALWAYS_INLINE double pass(bp_World *w, const bp_Entity *e, const Boxes *s,
                                    const bp_AABB *m, int axis, double d,
                                    const bp_AABB *within)
{
	if (s->n < 0)
		return bp_clip(w, e, m, axis, d, within);
	for (int i = 0; i < s->n; i++) {
		if (!within || bp_aabb_overlaps(&s->b[i], within))
			d = bp_aabb_clip(m, &s->b[i], axis, d);
	}
	return d;
}

/* Sneak edge guard on one axis (section 3a): shorten d in guard_step steps until
 * the box moved by d and pushed down guard_probe still overlaps some box. */
static double guard_axis(bp_World *w, const bp_Entity *e, int axis, double d)
{
	const double step = e->rules.guard_step;
	while (d != 0) {
		double off[3] = {0, -e->rules.guard_probe, 0};
		off[axis] = d;
		bp_AABB probe = bp_aabb_offset(&e->box, off[0], off[1], off[2]);
		if (bp_blocked(w, e, &probe))
			break;
		if (d < step && d >= -step)
			d = 0;
		else if (d > 0)
			d -= step;
		else
			d += step;
	}
	return d;
}

typedef struct StepResult {
	bp_AABB box;
	double d[3];
} StepResult;

/* The step attempt (section 3d): from the original box, up by step_height, then X,
 * then Z with the requested displacement, then down by step_height. Beta gathers
 * one list over start extended by (ox, step, oz); the down-probe may only see boxes
 * of that region (the sink quirk, section 9.2) unless step_sink_fix is set. */
static StepResult step_attempt(bp_World *w, const bp_Entity *e, const bp_AABB *start,
                               double ox, double oz, const Boxes *pre)
{
	const double h = e->rules.step_height;
	const bp_AABB region = bp_aabb_extend(start, ox, h, oz);
	/* One list over the step region and the down-probe below it, unless the move
	 * already gathered one that covers both (pre). */
	Boxes own;
	const Boxes *sp = pre;
	if (!pre) {
		const bp_AABB all = bp_aabb_extend(&region, 0, -h, 0);
		boxes_gather(w, e, &all, &own, NULL); /* rare: keep the move's cache */
		sp = &own;
	}
	StepResult r;
	r.box = *start;
	r.d[1] = pass(w, e, sp, &r.box, BP_Y, h, NULL);
	bp_aabb_shift(&r.box, BP_Y, r.d[1]);
	r.d[0] = pass(w, e, sp, &r.box, BP_X, ox, NULL);
	bp_aabb_shift(&r.box, BP_X, r.d[0]);
	r.d[2] = pass(w, e, sp, &r.box, BP_Z, oz, NULL);
	bp_aabb_shift(&r.box, BP_Z, r.d[2]);
	r.d[1] = pass(w, e, sp, &r.box, BP_Y, -h, e->rules.step_sink_fix ? NULL : &region);
	bp_aabb_shift(&r.box, BP_Y, r.d[1]);
	return r;
}

/* Flags, fall distance and velocity zeroing from requested (o) and clipped (d)
 * displacements (section 3e). */
static void write_back(bp_Entity *e, const double o[3], const double d[3])
{
	e->coll_h = o[0] != d[0] || o[2] != d[2];
	e->coll_v = o[1] != d[1];
	e->on_ground = o[1] != d[1] && o[1] < 0;
	bp_update_fall(e, d[1]);
	e->move_stops = 0;
	for (int a = 0; a < 3; a++) {
		if (o[a] != d[a]) {
			e->vel[a] = 0;
			e->move_stops |= (uint8_t)(1u << (2 * a + (o[a] > 0)));
		}
	}
}

bp_Status bp_move_axis(bp_World *w, bp_Entity *e, const double din[3], double out[3])
{
	for (int a = 0; a < 3; a++) {
		if (!(fabs(din[a]) <= BP_MAX_MOVE))
			return BP_ELIMIT;
	}
	const bp_Rules *r = &e->rules;
	e->y_size = (double)(float)(e->y_size * r->camera_decay); /* a float field in Beta */
	double d[3] = {din[0], din[1], din[2]};
	const int guard = e->on_ground && bp_entity_input(w, e)->sneaking && r->sneak_guard;
	if (guard) {
		/* The guard rewrites the requested X/Z: a guarded stop is no collision. */
		d[0] = guard_axis(w, e, BP_X, d[0]);
		d[2] = guard_axis(w, e, BP_Z, d[2]);
	}
	const double o[3] = {d[0], d[1], d[2]};
	const bp_AABB start = e->box;
	bp_AABB b = e->box;
	/* A grounded entity may step: gather once over the move and the step regions
	 * (extra boxes beyond a pass's slab never change its clip). */
	const double h = r->step_height;
	const int may_step = h > 0 && e->on_ground && (guard || e->y_size < r->step_cooldown);
	bp_AABB region = bp_aabb_extend(&start, d[0], d[1], d[2]);
	if (may_step) {
		const double low = start.lo[1] - h, high = start.hi[1] + h;
		region.lo[1] = region.lo[1] < low ? region.lo[1] : low;
		region.hi[1] = region.hi[1] > high ? region.hi[1] : high;
	}
	Boxes s;
	boxes_gather(w, e, &region, &s, &e->gather);
	d[1] = pass(w, e, &s, &b, BP_Y, d[1], NULL);
	bp_aabb_shift(&b, BP_Y, d[1]);
	const int can_step = e->on_ground || (o[1] != d[1] && o[1] < 0);
	d[0] = pass(w, e, &s, &b, BP_X, d[0], NULL);
	bp_aabb_shift(&b, BP_X, d[0]);
	d[2] = pass(w, e, &s, &b, BP_Z, d[2], NULL);
	bp_aabb_shift(&b, BP_Z, d[2]);

	if (r->step_height > 0 && can_step && (guard || e->y_size < r->step_cooldown) &&
	    (o[0] != d[0] || o[2] != d[2])) {
		StepResult st = step_attempt(w, e, &start, o[0], o[2],
		                             may_step && s.n >= 0 ? &s : NULL);
		/* Kept only if strictly farther horizontally; ties keep the plain move. */
		if (d[0] * d[0] + d[2] * d[2] < st.d[0] * st.d[0] + st.d[2] * st.d[2]) {
			b = st.box;
			d[0] = st.d[0];
			d[1] = st.d[1]; /* only the down-probe result, as in Beta */
			d[2] = st.d[2];
			double frac = b.lo[1] - trunc(b.lo[1]); /* Java (int) truncates */
			if (frac > 0)
				/* ySize += frac + 0.01D: the sum first, then a float field */
				e->y_size = (double)(float)(e->y_size + (frac + 0.01));
		}
	}
	for (int a = 0; a < 3; a++)
		out[a] = b.lo[a] - start.lo[a];
	e->box = b;
	write_back(e, o, d);
	return BP_OK;
}
