/* SPDX-License-Identifier: MIT
 * move_swept.c - the swept-AABB resolver of MC-CPP (docs/mccpp.md,
 * "Collision Resolution" and "Step Assist"; per-box test: docs/mccpp.md,
 * bp_aabb_sweep). Up to rules.passes passes; each finds the earliest hit along the
 * remaining displacement, moves there less rules.back_off (in time units of the
 * pass), and zeroes the hit axis of both the velocity and the remaining displacement.
 *
 * Decisions (docs/mccpp.md, "The swept resolver"):
 * - A pass moves the box along the whole remaining displacement up to the hit (all
 *   axes), not only along the hit axis as the printed code does. Both give the same
 *   totals (the other axes get the rest later), but moving one axis alone may cross
 *   the corner of a box that the diagonal path misses.
 * - Ties in time between a face contact and an edge contact (a box exactly on a seam
 *   between two floor or wall blocks) take the face's axis: no snag on seams.
 * - Safety: a pass whose end box would overlap a box that its start box did not
 *   overlap (rounding) falls back to the per-axis clip for that pass; when the passes
 *   run out with motion left, the rest is clipped per axis too (the printed code
 *   applies it blindly, which can tunnel).
 * - Boxes are visited along the path in segments of at most one entity size (at
 *   least one block) per axis, so the work grows with the distance, not its cube.
 */
#include "bp_world.h"
#include "entity.h"
#include "solid.h"

#include <float.h>
#include <math.h>

/* Earliest contact found so far over the boxes of a pass. */
typedef struct Hit {
	double t;  /* entry time in [0, 1); 1 = no hit */
	int face;  /* axes (1 << axis) of single-axis contacts at t */
	int edge;  /* axes of edge or corner contacts (several axes tie) at t */
} Hit;

typedef struct SweepCtx {
	const bp_AABB *m;
	const double *v;
	Hit hit;
} SweepCtx;

static int sweep_one(void *ctx, const bp_AABB *box)
{
	SweepCtx *c = ctx;
	bp_Sweep s = bp_aabb_sweep(c->m, box, c->v);
	/* As the specification's loop, only entries before the end (t < 1) count; equal
	 * times are kept too, to choose between a face and an edge. */
	if (!s.axes || s.t >= 1.0 || s.t > c->hit.t)
		return 0;
	if (s.t < c->hit.t) {
		c->hit.t = s.t;
		c->hit.face = c->hit.edge = 0;
	}
	if ((s.axes & (s.axes - 1)) == 0)
		c->hit.face |= s.axes;
	else
		c->hit.edge |= s.axes;
	return 0;
}

/* The axis a pass stops: a face contact before an edge one, then X, Y, Z. */
static int hit_axis(const Hit *h)
{
	int mask = h->face ? h->face : h->edge;
	return (mask & 1) ? BP_X : (mask & 2) ? BP_Y : BP_Z;
}

/* Smallest box holding both boxes, grown by `margin` on every side. */
static bp_AABB hull(const bp_AABB *a, const bp_AABB *b, double margin)
{
	bp_AABB r;
	for (int i = 0; i < 3; i++) {
		r.lo[i] = fmin(a->lo[i], b->lo[i]) - margin;
		r.hi[i] = fmax(a->hi[i], b->hi[i]) + margin;
	}
	return r;
}

/* Region margin (blocks): keeps consecutive segments overlapping despite rounding.
 * Extra boxes only cost a test; a missing one could be tunnelled through. */
#define SEGMENT_MARGIN 1e-6

/* Earliest hit of box m moving by v against every blocking box, visiting the path
 * segment by segment and stopping after the segment that holds a hit. */
static Hit earliest_hit(bp_World *w, const bp_Entity *e, const bp_AABB *m,
                        const double v[3])
{
	const double span = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
	const double seg = fmax(1.0, fmin(e->width, e->height));
	const int n = span > seg ? (int)ceil(span / seg) : 1; /* <= 1024: |v| bounded */
	SweepCtx c = {m, v, {1.0, 0, 0}};
	bp_AABB from = *m;
	for (int k = 1; k <= n; k++) {
		const double t1 = (double)k / n;
		bp_AABB to = bp_aabb_offset(m, v[0] * t1, v[1] * t1, v[2] * t1);
		bp_AABB region = hull(&from, &to, SEGMENT_MARGIN);
		bp_visit_blocking(w, e, &region, sweep_one, &c);
		if (c.hit.t < t1)
			break; /* boxes of later segments are entered at t1 or later */
		from = to;
	}
	return c.hit;
}

typedef struct NewOverlap {
	const bp_AABB *from;
} NewOverlap;

/* Visitor over the boxes overlapping the end box: stop at one the start missed. */
static int overlaps_new(void *ctx, const bp_AABB *box)
{
	const NewOverlap *c = ctx;
	return !bp_aabb_overlaps(box, c->from);
}

/* The displacement d along axis a, shortened until box + d overlaps no box that box
 * did not: a clip to a touching position can round one ulp into the obstacle
 * (hi + (o.lo - hi) != o.lo in floating point). Steps grow from the ulp of the
 * coordinate; gives up with 0 (the box stays where it is on that axis). */
static double settle(bp_World *w, const bp_Entity *e, const bp_AABB *box, int a, double d)
{
	double step = DBL_EPSILON * fmax(1.0, fmax(fabs(box->lo[a]), fabs(box->hi[a])));
	for (int i = 0; i < 16 && d != 0; i++) {
		double off[3] = {0, 0, 0};
		off[a] = d;
		bp_AABB to = bp_aabb_offset(box, off[0], off[1], off[2]);
		NewOverlap c = {box};
		if (!bp_visit_blocking(w, e, &to, overlaps_new, &c))
			return d;
		if (fabs(d) <= step)
			break;
		d -= copysign(step, d);
		step *= 2;
	}
	return 0;
}

/* Per-axis clip of d (Y, X, Z, the Beta order); returns the axes it shortened. */
static int clip_move(bp_World *w, const bp_Entity *e, bp_AABB *box, const double d[3],
                     double got[3])
{
	static const int order[3] = {BP_Y, BP_X, BP_Z};
	int clipped = 0;
	for (int i = 0; i < 3; i++) {
		const int a = order[i];
		double off[3] = {0, 0, 0};
		got[a] = settle(w, e, box, a, bp_clip(w, e, box, a, d[a], NULL));
		if (got[a] != d[a])
			clipped |= 1 << a;
		off[a] = got[a];
		*box = bp_aabb_offset(box, off[0], off[1], off[2]);
	}
	return clipped;
}

/* Move box by d if the end box overlaps nothing new, else clip per axis. Returns
 * the axes the fallback shortened; got = the displacement made. */
static int advance(bp_World *w, const bp_Entity *e, bp_AABB *box, const double d[3],
                   double got[3])
{
	bp_AABB to = bp_aabb_offset(box, d[0], d[1], d[2]);
	NewOverlap c = {box};
	if (!bp_visit_blocking(w, e, &to, overlaps_new, &c)) {
		for (int a = 0; a < 3; a++)
			got[a] = d[a];
		*box = to;
		return 0;
	}
	return clip_move(w, e, box, d, got);
}

/* Step assist (the specification's "Step Assist"): raise the box by step_height if
 * the column above it and the raised box moved by the remaining horizontal
 * displacement are free. Camera smoothing: step_offset goes down by the height
 * (the tick raises it back) and prev[1] goes up so that lerp does not jump. */
static int try_step(bp_World *w, bp_Entity *e, bp_AABB *box, const double rem[3])
{
	const double h = e->rules.step_height;
	bp_AABB column = bp_aabb_extend(box, 0, h, 0);
	if (bp_blocked(w, e, &column))
		return 0;
	bp_AABB raised = bp_aabb_offset(box, 0, h, 0);
	bp_AABB dest = bp_aabb_offset(&raised, rem[0], 0, rem[2]);
	if (bp_blocked(w, e, &dest))
		return 0;
	*box = raised;
	e->step_offset -= h;
	e->prev[1] += h;
	return 1;
}

static int moving(const double v[3])
{
	return v[0] != 0 || v[1] != 0 || v[2] != 0;
}

/* Flags, fall distance and velocity zeroing from the stopped axes (the meaning of
 * the per-axis resolver: on_ground = downward motion was stopped). */
static void write_back(bp_Entity *e, const double d[3], const double out[3], int stopped)
{
	e->coll_h = (stopped & (1 << BP_X | 1 << BP_Z)) != 0;
	e->coll_v = (stopped & 1 << BP_Y) != 0;
	e->on_ground = e->coll_v && d[1] < 0;
	bp_update_fall(e, out[1]);
	e->move_stops = 0;
	for (int a = 0; a < 3; a++) {
		if (stopped & 1 << a) {
			e->vel[a] = 0;
			if (d[a] != 0)
				e->move_stops |= (uint8_t)(1u << (2 * a + (d[a] > 0)));
		}
	}
}

bp_Status bp_move_swept(bp_World *w, bp_Entity *e, const double d[3], double out[3])
{
	for (int a = 0; a < 3; a++) {
		if (!(fabs(d[a]) <= BP_MAX_MOVE))
			return BP_ELIMIT;
		out[a] = 0;
	}
	if (!moving(d)) {
		/* Nothing moves, and nothing was hit: the flags clear (MC-CPP's update sets
		 * grounded = false before moving; the per-axis resolver does the same). */
		write_back(e, d, out, 0);
		return BP_OK;
	}
	const bp_Rules *r = &e->rules;
	const bp_AABB start = e->box;
	bp_AABB box = start;
	double rem[3] = {d[0], d[1], d[2]}, got[3];
	int stopped = 0, stepped = 0, exhausted = 0;
	/* Grounded for the step assist: standing at the start (and not rising), or a
	 * floor hit earlier in this move. */
	const int was_grounded = e->on_ground && d[1] <= 0;
	/* Flight is MC-CPP's (no step assist while flying); Beta rules have none. */
	const int flying = r->model == BP_MODEL_MCCPP && bp_entity_input(w, e)->flying;
	for (int pass = 0; moving(rem); pass++) {
		if (pass == r->passes) {
			exhausted = 1;
			break;
		}
		Hit h = earliest_hit(w, e, &box, rem);
		if (h.t >= 1.0)
			break;
		const int axis = hit_axis(&h);
		const int grounded = was_grounded || ((stopped & 1 << BP_Y) && d[1] < 0);
		if (axis != BP_Y && grounded && !stepped && !flying && r->step_height > 0 &&
		    try_step(w, e, &box, rem)) {
			stepped = 1; /* the collision is cancelled; the motion goes on up there */
			continue;
		}
		const double t = fmax(0.0, h.t - r->back_off);
		const double part[3] = {rem[0] * t, rem[1] * t, rem[2] * t};
		int clipped = advance(w, e, &box, part, got);
		for (int a = 0; a < 3; a++)
			rem[a] = clipped & 1 << a ? 0 : rem[a] - got[a];
		rem[axis] = 0;
		stopped |= clipped | 1 << axis;
	}
	if (moving(rem))
		stopped |= exhausted ? clip_move(w, e, &box, rem, got) : advance(w, e, &box, rem, got);
	for (int a = 0; a < 3; a++)
		out[a] = box.lo[a] - start.lo[a];
	e->box = box;
	write_back(e, d, out, stopped);
	return BP_OK;
}
