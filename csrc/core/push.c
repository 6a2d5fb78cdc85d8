/* SPDX-License-Identifier: MIT
 * push.c - entity-entity pushing, two models chosen per entity by rules.push:
 *   "beta173"  the Beta velocity push (docs/beta173.md section 6), run by
 *              each entity at the end of its own tick, so a pair gets two impulses;
 *   "separate" positional separation after all moves (docs/entities.md ("separate")):
 *              overlapping entities move apart by half the overlap each, and stable
 *              ones also gain the push as velocity, capped.
 * Neighbours come from the broadphase in creation order (deterministic).
 */
#include "push.h"
#include "bp_world.h"
#include "broadphase.h"
#include "move_limits.h"
#include "solid.h"

#include <math.h>

/* --------------------------------------------------------------- beta173 */

typedef struct BetaPush {
	bp_World *w;
	uint32_t self;
	int left; /* neighbours still to consider (rules.max_pushes) */
} BetaPush;

/* o.applyEntityCollision(self), restated: constants from self's rules. */
static int beta_one(void *ctx, uint32_t index)
{
	BetaPush *c = ctx;
	bp_Entity *items = c->w->entities.items;
	bp_Entity *self = &items[c->self], *o = &items[index];
	if (index == c->self)
		return 0;
	if (c->left-- <= 0)
		return 1; /* max_pushes neighbours considered: stop */
	if (o->rules.push == BP_PUSH_NONE)
		return 0; /* canBePushed: any entity with a push model */
	if (!bp_pair_interacts(c->w, self, o))
		return 0;
	const bp_Rules *r = &self->rules;
	double sp[3], op[3];
	bp_entity_position(self, sp);
	bp_entity_position(o, op);
	double dx = sp[0] - op[0], dz = sp[2] - op[2];
	double m = fmax(fabs(dx), fabs(dz)); /* Chebyshev: MathHelper.abs_max */
	if (!(m >= r->push_threshold))
		return 0;
	m = (double)(float)sqrt(m); /* MathHelper.sqrt_double returns float */
	if (m == 0)
		return 0; /* same X/Z (push_threshold 0): the game would divide by zero */
	dx /= m;
	dz /= m;
	double s = 1.0 / m;
	if (s > 1.0)
		s = 1.0;
	dx *= s;
	dz *= s;
	dx *= r->push_strength;
	dz *= r->push_strength;
	o->vel[0] -= dx;
	o->vel[2] -= dz;
	self->vel[0] += dx;
	self->vel[2] += dz;
	/* self is clamped after its tick, which this ends */
	bp_clamp_velocity(c->w->vel_limit[o->rules.model], o->vel);
	return 0;
}

/** Beta velocity push of entity `index` (after its move): every other entity with a
 *  push model whose box overlaps index's box grown by rules.push_radius on X and Z
 *  (0.2F) gets -d and index gets +d, d = push_strength (0.05F) x (dx, dz) / m scaled
 *  by min(1, 1/m), with (dx, dz) = own position - other's and m = (float)sqrt of the
 *  larger |component|; nothing below push_threshold (0.01F). Units: blocks/tick.
 *  Only the first rules.max_pushes overlapping others (creation order) are considered,
 *  whatever their push model or filters: a pile of n entities costs O(n x max_pushes),
 *  not O(n^2) (our own; Beta has no cap). Source: docs/beta173.md
 *  section 6. */
void bp_push_beta173(bp_World *w, uint32_t index)
{
	bp_broadphase_moved(w, index); /* its own move: a filter may query the world */
	const bp_Entity *e = &w->entities.items[index];
	const double r = e->rules.push_radius;
	bp_AABB region = bp_aabb_expand(&e->box, r, 0, r);
	BetaPush c = {w, index, e->rules.max_pushes};
	/* One more than the cap: the entity itself may be among the first. */
	bp_broadphase_visit_first(w, &region, 0, (uint32_t)e->rules.max_pushes + 1, beta_one, &c);
}

/* -------------------------------------------------------------- separate */

typedef struct SepPair {
	bp_World *w;
	uint32_t self;
} SepPair;

/* Unit direction for two entities at the same X/Z: any fixed direction would line
 * a pile up along one axis, so it is spread by a hash of the two serials. */
static void coincident_dir(uint32_t a, uint32_t b, double n[2])
{
	uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
	h ^= h >> 16;
	h *= 0x2C1B3C6Du;
	h ^= h >> 15;
	double angle = (double)h * (6.283185307179586 / 4294967296.0);
	n[0] = cos(angle);
	n[1] = sin(angle);
}

/* One pair (self earlier in creation order than o): circles of radius width/2 in
 * X/Z whose boxes also overlap (so on Y too). Each gets half the overlap. */
static int sep_one(void *ctx, uint32_t index)
{
	SepPair *c = ctx;
	bp_Entity *items = c->w->entities.items;
	bp_Entity *e = &items[c->self], *o = &items[index];
	if (o->rules.push != BP_PUSH_SEPARATE || o->serial <= e->serial)
		return 0; /* each pair once, from its earlier member */
	double ep[3], op[3];
	bp_entity_position(e, ep);
	bp_entity_position(o, op);
	double dx = ep[0] - op[0], dz = ep[2] - op[2];
	double radius = (e->width + o->width) / 2;
	double d2 = dx * dx + dz * dz;
	if (!(d2 < radius * radius))
		return 0;
	if (!bp_pair_interacts(c->w, e, o))
		return 0;
	double dist = sqrt(d2), n[2];
	if (dist > 0) {
		n[0] = dx / dist;
		n[1] = dz / dist;
	} else {
		coincident_dir(e->serial, o->serial, n);
	}
	double half = 0.5 * (radius - dist);
	e->adj[0] += n[0] * half;
	e->adj[2] += n[1] * half;
	o->adj[0] -= n[0] * half;
	o->adj[2] -= n[1] * half;
	e->pushed = o->pushed = 1;
	/* Stability is contagious: touching a newcomer makes both position-only. */
	e->stable = o->stable = (uint8_t)(e->stable & o->stable);
	c->w->unstable |= !e->stable;
	return 0;
}

/* Move e by its accumulated push through the per-axis clip (X then Z), so that no
 * push enters a block, collider or solid entity; stable entities also gain the
 * actual displacement / dt as velocity, and the push never lifts the horizontal
 * speed above max(max_push_speed, the speed before the push). */
static void sep_apply(bp_World *w, uint32_t index, double dt)
{
	bp_Entity *e = &w->entities.items[index];
	double d[3] = {0, 0, 0};
	for (int a = 0; a < 3; a += 2) {
		double want = fmax(-BP_MAX_MOVE, fmin(BP_MAX_MOVE, e->adj[a]));
		d[a] = bp_clip(w, e, &e->box, a, want, NULL);
		e->box.lo[a] += d[a];
		e->box.hi[a] += d[a];
		/* After each axis: the Z clip may ask a filter, whose world:query must see
		 * the box where it is now. */
		bp_broadphase_moved(w, index);
	}
	if (!e->stable)
		return;
	/* Beta rules count velocity per tick: their dt is one tick. */
	const double unit = e->rules.model == BP_MODEL_MCCPP ? dt : 1.0;
	const double before = hypot(e->vel[0], e->vel[2]);
	e->vel[0] += d[0] / unit;
	e->vel[2] += d[2] / unit;
	const double cap = fmax(e->rules.max_push_speed, before);
	const double after = hypot(e->vel[0], e->vel[2]);
	if (after > cap) {
		e->vel[0] *= cap / after;
		e->vel[2] *= cap / after;
	}
	bp_clamp_velocity(w->vel_limit[e->rules.model], e->vel);
}

/** Positional separation of every "separate" entity after the moves (N64 article):
 *  pairs are found in creation order (each pair once), pushes accumulate in adj and
 *  are applied after all pairs. dt: seconds for MC-CPP entities (velocity in b/s);
 *  Beta entities use one tick (b/t). Stops early if a filter failed
 *  (w->hook_failed). */
void bp_push_separate(bp_World *w, double dt)
{
	bp_EntityPool *p = &w->entities;
	int any = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		bp_Entity *e = &p->items[p->order[i]];
		e->adj[0] = e->adj[1] = e->adj[2] = 0;
		e->pushed = 0;
		any |= e->rules.push == BP_PUSH_SEPARATE;
	}
	if (!any)
		return;
	for (uint32_t i = 0; i < p->norder && !w->hook_failed; i++) {
		uint32_t index = p->order[i];
		const bp_Entity *e = &p->items[index];
		if (e->rules.push != BP_PUSH_SEPARATE)
			continue;
		SepPair c = {w, index};
		/* Pairs are handled from their earlier member: only later serials, and only
		 * the first max_pushes of them (a pile then costs O(n x max_pushes)). */
		bp_broadphase_visit_first(w, &e->box, e->serial + 1, (uint32_t)e->rules.max_pushes,
		                          sep_one, &c);
	}
	if (w->hook_failed)
		return;
	for (uint32_t i = 0; i < p->norder; i++) {
		if (p->items[p->order[i]].pushed)
			sep_apply(w, p->order[i], dt);
	}
}
