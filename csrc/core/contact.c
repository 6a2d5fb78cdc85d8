/* SPDX-License-Identifier: MIT
 * contact.c - what stopped a move, and what an entity stands on. The resolvers note
 * only which faces of the box were stopped (bp_Entity.move_stops) and how far the move
 * reached; the boxes themselves are found when asked (e:contacts, e:ground) or when a
 * contact begins (a hit event): a slab beyond the stopped face, as deep as the move's
 * reach, holds them, and those nearest the face are the ones that stopped it. So the
 * step pays nothing for contacts nobody asks about.
 */
#include "contact.h"
#include "events.h"
#include "solid.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* The Beta game runs 20 ticks a second: a Beta velocity (blocks/tick) times this is
 * blocks/s. */
#define BETA_TICKS_PER_SECOND 20.0

/* One face of a box and the slab beyond it where the boxes that stopped it lie. */
typedef struct Face {
	bp_World *w;
	const bp_Entity *e;
	bp_AABB box;   /* the entity's box */
	int axis, pos; /* the face: pos 1 for the +axis face (a move toward +axis) */
	double f;      /* the face's coordinate */
	double reach;  /* how far beyond it the slab goes (blocks) */
	double eps;    /* rounding allowance: a resolver leaves the box at the face or ulps off */
	/* the walk's job */
	int mode;      /* MIN_GAP, COLLECT or BEST */
	double min_gap;
	bp_Contact *out;
	uint32_t cap, n;
	bp_Contact best;
	double best_dist;
	int have_best;
} Face;

enum { MIN_GAP, COLLECT, BEST };

static int64_t cell_of(double v)
{
	const double f = floor(v);
	return f < INT32_MIN ? INT32_MIN : f > INT32_MAX ? INT32_MAX : (int64_t)f;
}

/* The order of contacts: the face (normal +X, -X, +Y, -Y, +Z, -Z), the kind (blocks,
 * colliders, entities), then the cell (x, y, z), the collider's handle or the entity's
 * creation order, then the box. */
static int face_key(const bp_Contact *c)
{
	for (int k = 0; k < 3; k++) {
		if (c->normal[k])
			return 2 * k + (c->normal[k] < 0);
	}
	return 6;
}

static int contact_cmp(const bp_Contact *a, const bp_Contact *b)
{
	const int fa = face_key(a), fb = face_key(b);
	if (fa != fb)
		return fa < fb ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == BP_HIT_BLOCK) {
		for (int k = 0; k < 3; k++) {
			if (a->cell[k] != b->cell[k])
				return a->cell[k] < b->cell[k] ? -1 : 1;
		}
	} else if (a->kind == BP_HIT_COLLIDER) {
		if (a->collider != b->collider)
			return a->collider < b->collider ? -1 : 1;
	} else if (a->serial != b->serial) {
		return a->serial < b->serial ? -1 : 1;
	}
	for (int k = 0; k < 3; k++) {
		if (a->box.lo[k] != b->box.lo[k])
			return a->box.lo[k] < b->box.lo[k] ? -1 : 1;
		if (a->box.hi[k] != b->box.hi[k])
			return a->box.hi[k] < b->box.hi[k] ? -1 : 1;
	}
	return 0;
}

static int contact_qsort(const void *a, const void *b)
{
	return contact_cmp(a, b);
}

/* The distance (blocks) from the centre of the face to the box's cross-section on the
 * face's plane (0 when the centre is over it, edges included). */
static double centre_distance(const Face *f, const bp_AABB *b)
{
	double s = 0;
	for (int k = 0; k < 3; k++) {
		if (k == f->axis)
			continue;
		const double c = (f->box.lo[k] + f->box.hi[k]) / 2;
		const double d = c < b->lo[k] ? b->lo[k] - c : c > b->hi[k] ? c - b->hi[k] : 0;
		s += d * d;
	}
	return s;
}

/* One candidate box: kept when it overlaps the face's cross-section (not at an edge)
 * and its near side lies within the slab. */
static void consider(Face *f, bp_Contact *c)
{
	const bp_AABB *b = &c->box;
	for (int k = 0; k < 3; k++) {
		if (k != f->axis && !(b->lo[k] < f->box.hi[k] && b->hi[k] > f->box.lo[k]))
			return;
	}
	const double gap = f->pos ? b->lo[f->axis] - f->f : f->f - b->hi[f->axis];
	if (!(gap >= -f->eps && gap <= f->reach + f->eps))
		return;
	if (f->mode == MIN_GAP) {
		if (gap < f->min_gap)
			f->min_gap = gap;
		return;
	}
	if (gap > f->min_gap + f->eps)
		return; /* a farther box: the nearest ones stopped the move */
	c->normal[0] = c->normal[1] = c->normal[2] = 0;
	c->normal[f->axis] = f->pos ? -1 : 1;
	if (f->mode == COLLECT) {
		if (f->n < f->cap)
			f->out[f->n] = *c;
		f->n++;
		return;
	}
	const double dist = centre_distance(f, b);
	if (!f->have_best || dist < f->best_dist ||
	    (dist == f->best_dist && contact_cmp(c, &f->best) < 0)) {
		f->best = *c;
		f->best_dist = dist;
		f->have_best = 1;
	}
}

static int face_cell(void *ctx, uint16_t id, int32_t x, int32_t y, int32_t z)
{
	Face *f = ctx;
	const bp_BlockType *t = bp_world_block_type(f->w, id);
	bp_Contact c = {0};
	c.kind = BP_HIT_BLOCK;
	c.cell[0] = x;
	c.cell[1] = y;
	c.cell[2] = z;
	c.id = id;
	/* The type's whole shape: one-way boxes too (they stop what comes from their open
	 * side), which t->boxes leaves out (solid.c adds them to moves). */
	for (int i = 0; t && i < t->nshape; i++) {
		c.box = bp_aabb_offset(&t->shape[i], x, y, z);
		consider(f, &c);
	}
	return 0;
}

static int face_entity(void *ctx, uint32_t index)
{
	Face *f = ctx;
	const bp_Entity *o = &f->w->entities.items[index];
	if (o == f->e || !(o->solid || (f->e && f->e->solid)) ||
	    (f->e && !bp_pair_interacts(f->w, f->e, o)))
		return 0;
	bp_Contact c = {0};
	c.kind = BP_HIT_ENTITY;
	c.entity.index1 = index + 1;
	c.entity.generation = o->generation;
	c.serial = o->serial;
	c.box = o->box;
	consider(f, &c);
	return 0;
}

/* Every box beyond the face within the slab, blocks then colliders then entities. */
static void walk(Face *f)
{
	bp_AABB slab = f->box;
	const int a = f->axis;
	slab.lo[a] = f->pos ? f->f - f->eps : f->f - f->reach - f->eps;
	slab.hi[a] = f->pos ? f->f + f->reach + f->eps : f->f + f->eps;
	int64_t lo[3], hi[3];
	for (int k = 0; k < 3; k++) {
		lo[k] = cell_of(slab.lo[k]);
		hi[k] = cell_of(slab.hi[k]);
	}
	if (f->w->tall_shapes)
		lo[1] = lo[1] > INT32_MIN ? lo[1] - 1 : lo[1]; /* a shape rising from the cell below */
	bp_world_visit_cells(f->w, lo, hi, face_cell, f);
	for (uint32_t i = 0; i < f->w->ncolliders; i++) {
		const bp_StaticCollider *sc = &f->w->colliders[i];
		if (!sc->alive)
			continue;
		bp_Contact c = {0};
		c.kind = BP_HIT_COLLIDER;
		c.collider = bp_world_collider_handle(f->w, i + 1);
		c.box = sc->box;
		consider(f, &c);
	}
	if (f->w->nsolid || (f->e && f->e->solid))
		bp_broadphase_visit(f->w, &slab, face_entity, f);
}

/* The face `dir` of `box`, whose boxes block entity e (NULL: an entity removed since:
 * solid entities only, groups and filters not asked). */
static void face_init(Face *f, bp_World *w, const bp_Entity *e, const bp_AABB *box, int dir,
                      double reach)
{
	f->w = w;
	f->e = e;
	f->box = *box;
	f->axis = dir >> 1;
	f->pos = dir & 1;
	f->f = f->pos ? box->hi[f->axis] : box->lo[f->axis];
	f->reach = reach;
	f->eps = 1e-9 + fabs(f->f) * 8 * DBL_EPSILON;
	f->min_gap = INFINITY;
	f->out = NULL;
	f->cap = f->n = 0;
	f->have_best = 0;
	f->best_dist = 0;
	f->mode = MIN_GAP;
	walk(f);
}

/* The nearest box beyond face `dir` that the centre of the face is over (else the
 * nearest to it; ties in contact order) into *c: 1 if there is one. */
static int face_best(bp_World *w, const bp_Entity *e, const bp_AABB *box, int dir, double reach,
                     bp_Contact *c)
{
	Face f;
	face_init(&f, w, e, box, dir, reach);
	if (f.min_gap == INFINITY)
		return 0;
	f.mode = BEST;
	walk(&f);
	if (f.have_best)
		*c = f.best;
	return f.have_best;
}

bp_Status bp_entity_contacts(bp_World *w, uint32_t slot, bp_Contact *out, uint32_t cap,
                             uint32_t *n)
{
	const bp_Entity *e = &w->entities.items[slot];
	uint32_t total = 0;
	for (int dir = 0; dir < 6; dir++) {
		if (!(e->stops & 1u << dir))
			continue;
		Face f;
		face_init(&f, w, e, &e->box, dir, e->stop_reach);
		if (f.min_gap == INFINITY)
			continue;
		f.mode = COLLECT;
		f.out = total < cap ? out + total : NULL;
		f.cap = total < cap ? cap - total : 0;
		walk(&f);
		total += f.n;
	}
	*n = total;
	if (total <= cap)
		qsort(out, total, sizeof *out, contact_qsort);
	return BP_OK;
}

int bp_entity_ground(bp_World *w, uint32_t slot, bp_Contact *c)
{
	const bp_Entity *e = &w->entities.items[slot];
	/* Its last step stopped a downward move, or moved it not at all vertically after
	 * one (on_ground then reads false under MC-CPP's own integrator every other tick
	 * while it rests on the floor). */
	if (!(e->stops & 1u << 2))
		return 0;
	return face_best(w, e, &e->box, 2, e->stop_reach, c);
}

void bp_entity_ground_velocity(bp_World *w, uint32_t slot, double v[3])
{
	v[0] = v[1] = v[2] = 0;
	bp_Contact c;
	if (!bp_entity_ground(w, slot, &c) || c.kind != BP_HIT_ENTITY)
		return;
	const bp_Entity *e = &w->entities.items[slot];
	const bp_Entity *g = &w->entities.items[c.entity.index1 - 1];
	double pos[3];
	bp_entity_position(g, pos);
	/* What the platform moved in its last step: per tick for Beta rules, per second
	 * (over that step's dt) for MC-CPP's. */
	const double per = e->rules.model == BP_MODEL_MCCPP ? (w->step_dt > 0 ? w->step_dt : 0) : 1;
	for (int a = 0; a < 3; a++)
		v[a] = per > 0 ? (pos[a] - g->prev[a]) / per : 0;
}

/* An event about entity e's face `dir` (2 for a landing) as it is after this move: the
 * box it met is found when the queue is read (bp_world_events), so that a step pays
 * only for the record. */
static bp_Event *push_face_event(bp_World *w, bp_Entity *e, int type, int dir)
{
	bp_Event *ev = bp_event_push(w, type, (uint32_t)(e - w->entities.items));
	if (ev) {
		ev->face = (uint8_t)dir;
		ev->what.normal[dir >> 1] = dir & 1 ? -1 : 1;
		ev->box = e->box;
		ev->reach = e->stop_reach;
		ev->pending = 1;
	}
	return ev;
}

/* A hit for each face that began to stop the entity in this move of d, whose approach
 * speed is the move's own along the face's axis: d over the move's duration (a Beta
 * tick: 1/20 s; an MC-CPP move: w->move_seconds, set by its integrator). */
static void note_hits(bp_World *w, bp_Entity *e, uint8_t fresh, const double d[3])
{
	const double per_second = e->rules.model == BP_MODEL_MCCPP && w->move_seconds > 0
	                              ? 1.0 / w->move_seconds
	                              : BETA_TICKS_PER_SECOND;
	for (int dir = 0; dir < 6; dir++) {
		if (!(fresh & 1u << dir))
			continue;
		const int axis = dir >> 1;
		const double toward = dir & 1 ? d[axis] : -d[axis];
		const double speed = toward * per_second;
		if (!(toward > 0) || speed < w->events.hit_speed)
			continue;
		bp_Event *ev = push_face_event(w, e, BP_EVENT_HIT, dir);
		if (ev)
			ev->speed = speed;
	}
}

void bp_contact_fresh(bp_World *w, bp_Entity *e, uint8_t fresh, const double d[3])
{
	note_hits(w, e, fresh, d);
	/* A landing is the first downward stop after a step without one. Later ones of
	 * the same contact are not new: a swept move stops back_off short of the floor,
	 * and the next piece of a split MC-CPP step may sink into that gap and land again
	 * with a fall of a ten-thousandth of a block. */
	if (e->landing_fall > 0 && (fresh & 1u << 2)) {
		e->out_landing = e->landing_fall;
		bp_Event *ev = push_face_event(w, e, BP_EVENT_LAND, 2);
		if (ev)
			ev->fall = e->landing_fall;
	}
}

/* What a queued hit or landing met: the box nearest beyond its face from the entity's
 * box as it was then, in the world as it is now. */
static void resolve_event(bp_World *w, bp_Event *ev)
{
	if (!ev->pending)
		return;
	ev->pending = 0;
	const bp_Entity *e = bp_world_entity(w, ev->entity);
	if (!face_best(w, e, &ev->box, ev->face, ev->reach, &ev->what))
		ev->what.kind = BP_HIT_NONE;
}

bp_Event *bp_world_events(bp_World *w, uint32_t *count)
{
	for (uint32_t i = 0; i < w->events.count; i++)
		resolve_event(w, &w->events.items[i]);
	*count = w->events.count;
	return w->events.items;
}
