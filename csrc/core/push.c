/* SPDX-License-Identifier: MIT
 * push.c - entity-entity pushing, two models chosen per entity by rules.push:
 *   "beta173"  the Beta velocity push (docs/beta173.md section 6), run by
 *              each entity at the end of its own tick, so a pair gets two impulses;
 *   "separate" positional separation after all moves (docs/entities.md ("separate")):
 *              overlapping entities move apart by half the overlap each, and stable
 *              ones also gain the push as velocity, capped; while an overlap above
 *              rules.separate_tolerance remains, up to separate_iterations - 1 more
 *              passes move positions only.
 * Neighbours come from the broadphase in creation order (deterministic).
 */
#include "push.h"
#include "bp_world.h"
#include "broadphase.h"
#include "move_limits.h"
#include "solid.h"
#include "alloc.h"
#include "sleep.h"

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
	if (o->push_model == BP_PUSH_NONE)
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
	if (!o->frozen) { /* touching unloaded space: left alone until it loads (stream.c) */
		bp_sleep_disturb(c->w, index); /* a sleeper pushed wakes */
		o = &items[index];
		o->vel[0] -= dx;
		o->vel[2] -= dz;
	}
	self->vel[0] += dx;
	self->vel[2] += dz;
	/* self is clamped after its tick, which this ends */
	bp_clamp_velocity(c->w->vel_limit[o->model], o->vel);
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

/* bp_Entity.pushed: bit 0 the pass touched it; PUSH_BLOCKED a block, collider or
 * solid entity cut one of its pushes short this step. A pair both of whose members
 * are blocked is left to later steps by the extra passes: they would move it little
 * (each pass can only nudge it along what holds it), and a crowd that the first pass
 * separates wherever it can then ends exactly as with one pass. */
#define PUSH_BLOCKED 2
/* In an extra pass: the entity was moved by the pass before (it is visited). */
#define PUSH_PREV 4

typedef struct SepPair {
	bp_World *w;
	uint32_t self;
	int pass; /* 2, 3, ...: the extra passes (sep_more) */
	int over; /* an extra pass found an overlap above both members' tolerance */
	uint32_t *next, nnext; /* the entities this extra pass moves (slots) */
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
	if (o->push_model != BP_PUSH_SEPARATE || o->serial <= e->serial)
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
	bp_sleep_disturb(c->w, index); /* (a sleeper never overlaps: a move near it woke it) */
	/* Stability is contagious: touching a newcomer makes both position-only. */
	e->stable = o->stable = (uint8_t)(e->stable & o->stable);
	c->w->unstable |= !e->stable;
	return 0;
}

/* A small fixed turn of a pair's push direction in the extra passes, from the two
 * serials and the pass: a row pressed against a wall has offsets exactly along the
 * wall, and pushes along it alone can never make a second row (the row stays jammed
 * however many passes run). Up to 0.25 rad either way; cos 0.25 = 0.97 of the push
 * still separates. */
static void turn_dir(uint32_t a, uint32_t b, int pass, double n[2])
{
	uint32_t h = (a * 0x85EBCA77u) ^ (b * 0xC2B2AE3Du) ^ ((uint32_t)pass * 0x27D4EB2Fu);
	h ^= h >> 15;
	h *= 0x2C1B3C6Du;
	h ^= h >> 12;
	double t = ((double)h * (1.0 / 4294967296.0) - 0.5) * 0.5;
	double c = cos(t), s = sin(t);
	double x = n[0] * c - n[1] * s, z = n[0] * s + n[1] * c;
	n[0] = x;
	n[1] = z;
}

/* One pair in an extra pass: as sep_one, positions only (stability untouched), the
 * direction turned (turn_dir), and only for members whose separate_iterations reach
 * this pass. Notes whether the overlap exceeds both members' tolerance. */
static int sep_more(void *ctx, uint32_t index)
{
	SepPair *c = ctx;
	bp_Entity *items = c->w->entities.items;
	bp_Entity *e = &items[c->self], *o = &items[index];
	if (index == c->self || o->push_model != BP_PUSH_SEPARATE ||
	    o->rules.separate_iterations < c->pass)
		return 0;
	if ((o->pushed & PUSH_PREV) && o->serial < e->serial)
		return 0; /* both visited: the pair is handled from its earlier member */
	double ep[3], op[3];
	bp_entity_position(e, ep);
	bp_entity_position(o, op);
	double dx = ep[0] - op[0], dz = ep[2] - op[2];
	double radius = (e->width + o->width) / 2;
	double d2 = dx * dx + dz * dz;
	if (!(d2 < radius * radius))
		return 0;
	if ((e->pushed & o->pushed & PUSH_BLOCKED) || !bp_pair_interacts(c->w, e, o))
		return 0;
	double dist = sqrt(d2), n[2];
	if (dist > 0) {
		n[0] = dx / dist;
		n[1] = dz / dist;
	} else {
		coincident_dir(e->serial, o->serial, n);
	}
	/* the same turn from either member: the earlier serial first */
	const uint32_t s1 = e->serial < o->serial ? e->serial : o->serial;
	const uint32_t s2 = e->serial < o->serial ? o->serial : e->serial;
	turn_dir(s1, s2, c->pass, n);
	double overlap = radius - dist, half = 0.5 * overlap;
	double tolerance = fmin(e->rules.separate_tolerance, o->rules.separate_tolerance);
	/* A pair in line along X or Z (a row pressed against a wall) gets a quarter of
	 * the tolerance: the first pass pushes it along the row only, so no later step
	 * would open it. */
	const bp_EntityInput *ie = &c->w->entities.input[c->self], *io = &c->w->entities.input[index];
	if (fabs(dx) <= 1e-9 * dist || fabs(dz) <= 1e-9 * dist ||
	    (ie->forward == 0 && ie->strafe == 0 && io->forward == 0 && io->strafe == 0))
		tolerance *= 0.25;
	if (!(overlap > tolerance))
		return 0; /* within the tolerance: left to the next steps' first passes */
	c->over = 1;
	bp_Entity *both[2] = {e, o};
	const uint32_t slots[2] = {c->self, index};
	for (int k = 0; k < 2; k++) {
		if (!(both[k]->pushed & 1)) { /* first touched in this pass */
			both[k]->adj[0] = both[k]->adj[2] = 0;
			both[k]->pushed |= 1;
			if (c->next)
				c->next[c->nnext++] = slots[k];
		}
	}
	e->adj[0] += n[0] * half;
	e->adj[2] += n[1] * half;
	o->adj[0] -= n[0] * half;
	o->adj[2] -= n[1] * half;
	return 0;
}

static void sep_apply(bp_World *w, uint32_t index, double dt, int velocity);

/* Sift slot a[i] down the max-heap a[0..n) ordered by place in the creation order
 * (pos[slot], bp_EntityPool.pos: the same order as by serial, read from a small array
 * rather than from the entities, which at 100,000 entities is a miss per compare). */
static void sift(const uint32_t *pos, uint32_t *a, uint32_t i, uint32_t n)
{
	for (;;) {
		uint32_t big = i, l = 2 * i + 1, r = l + 1;
		if (l < n && pos[a[l]] > pos[a[big]])
			big = l;
		if (r < n && pos[a[r]] > pos[a[big]])
			big = r;
		if (big == i)
			return;
		uint32_t t = a[i];
		a[i] = a[big];
		a[big] = t;
		i = big;
	}
}

/* Slots into creation order (places are unique; the order list rises in serial, which
 * the snapshot decoder checks): a heapsort, in place, no memory. */
static void sort_by_creation(const uint32_t *pos, uint32_t *a, uint32_t n)
{
	for (uint32_t i = n / 2; i-- > 0;)
		sift(pos, a, i, n);
	for (uint32_t end = n; end > 1; end--) {
		uint32_t t = a[0];
		a[0] = a[end - 1];
		a[end - 1] = t;
		sift(pos, a, 0, end - 1);
	}
}

/* The extra passes (pass 2 up to max_passes): each visits only the entities the pass
 * before moved (bit 0 of pushed), with all their neighbours: a pair of entities that
 * did not move has not changed since it was last separated. A pass whose pairs all
 * overlap by at most their tolerance changes nothing (so a crowd the first pass
 * separates ends as with one pass), and ends the step's separation. `list` holds the
 * slots the first pass moved (n, creation order) and has room for twice norder; NULL
 * (no memory for it) gives the same passes through scans of every entity. */
static void extra_passes(bp_World *w, double dt, int max_passes, uint32_t *list, uint32_t n,
                         const uint32_t *order, uint32_t norder)
{
	bp_EntityPool *p = &w->entities;
	uint32_t *next = list ? list + p->norder : NULL;
	for (int pass = 2; pass <= max_passes && !w->hook_failed; pass++) {
		const uint32_t count = list ? n : norder;
		int any = 0;
		for (uint32_t i = 0; i < count; i++) {
			bp_Entity *e = &p->items[list ? list[i] : order[i]];
			if (e->pushed & 1) {
				e->pushed = (uint8_t)((e->pushed & PUSH_BLOCKED) | PUSH_PREV);
				any = 1;
			}
		}
		if (!any)
			return;
		SepPair c = {w, 0, pass, 0, next, 0};
		for (uint32_t i = 0; i < count && !w->hook_failed; i++) {
			bp_look_ahead(w, list ? list : order, i, count, BP_PUSH_SEPARATE, 0);
			const uint32_t slot = list ? list[i] : order[i];
			const bp_Entity *e = &p->items[slot];
			if (!(e->pushed & PUSH_PREV) || e->rules.push != BP_PUSH_SEPARATE ||
			    e->rules.separate_iterations < pass)
				continue;
			c.self = slot;
			bp_broadphase_visit_first(w, &e->box, 0, (uint32_t)e->rules.max_pushes + 1,
			                          sep_more, &c);
		}
		for (uint32_t i = 0; i < count; i++)
			p->items[list ? list[i] : order[i]].pushed &= (uint8_t)~PUSH_PREV;
		if (!c.over || w->hook_failed)
			return;
		if (list) {
			sort_by_creation(p->pos, next, c.nnext);
			for (uint32_t i = 0; i < c.nnext && !w->hook_failed; i++) {
				bp_look_ahead(w, next, i, c.nnext, BP_PUSH_NONE,
				              BP_AHEAD_WHOLE | BP_AHEAD_LISTINGS);
				sep_apply(w, next[i], dt, 0);
			}
			uint32_t *t = list;
			list = next;
			next = t;
			n = c.nnext;
		} else {
			for (uint32_t i = 0; i < norder && !w->hook_failed; i++) {
				if (p->items[order[i]].pushed & 1)
					sep_apply(w, order[i], dt, 0);
			}
		}
	}
}

/* Move e by its accumulated push through the per-axis clip (X then Z), so that no
 * push enters a block, collider or solid entity; stable entities also gain the
 * actual displacement / dt as velocity, and the push never lifts the horizontal
 * speed above max(max_push_speed, the speed before the push). */
static void sep_apply(bp_World *w, uint32_t index, double dt, int velocity)
{
	bp_sleep_disturb(w, index); /* pushed: not asleep at this step's end */
	bp_Entity *e = &w->entities.items[index];
	if (e->frozen)
		return; /* touching unloaded space: not moved until it loads (its partner moves) */
	const bp_AABB box_before = e->box;
	double d[3] = {0, 0, 0};
	for (int a = 0; a < 3; a += 2) {
		double want = fmax(-BP_MAX_MOVE, fmin(BP_MAX_MOVE, e->adj[a]));
		d[a] = bp_clip(w, e, &e->box, a, want, NULL);
		if (fabs(want - d[a]) > 1e-6) /* not a rounding's worth along a wall */
			e->pushed |= PUSH_BLOCKED;
		e->box.lo[a] += d[a];
		e->box.hi[a] += d[a];
		/* After each axis: the Z clip may ask a filter, whose world:query must see
		 * the box where it is now. */
		bp_broadphase_moved(w, index);
	}
	bp_sleep_moved(w, index, &box_before); /* sleepers near where it went wake */
	e = &w->entities.items[index];
	if (!velocity || !e->stable)
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
void bp_push_separate(bp_World *w, double dt, const uint32_t *order, uint32_t norder)
{
	bp_EntityPool *p = &w->entities;
	int any = 0, max_passes = 1;
	for (uint32_t i = 0; i < norder; i++) {
		bp_Entity *e = &p->items[order[i]];
		e->adj[0] = e->adj[1] = e->adj[2] = 0;
		e->pushed = 0;
		if (e->push_model == BP_PUSH_SEPARATE) { /* (the copy: a line fewer per entity) */
			any = 1;
			if (e->rules.separate_iterations > max_passes)
				max_passes = e->rules.separate_iterations;
		}
	}
	if (!any)
		return;
	for (uint32_t i = 0; i < norder && !w->hook_failed; i++) {
		uint32_t index = order[i];
		bp_look_ahead(w, order, i, norder, BP_PUSH_SEPARATE, 0);
		const bp_Entity *e = &p->items[index];
		if (e->rules.push != BP_PUSH_SEPARATE)
			continue;
		SepPair c = {w, index, 1, 0, NULL, 0};
		/* Pairs are handled from their earlier member: only later serials, and only
		 * the first max_pushes of them (a pile then costs O(n x max_pushes)). */
		bp_broadphase_visit_first(w, &e->box, e->serial + 1, (uint32_t)e->rules.max_pushes,
		                          sep_one, &c);
	}
	if (w->hook_failed)
		return;
	/* The extra passes keep two lists of up to norder slots; without the memory for
	 * them they scan every entity instead, with the same results. */
	uint32_t *list = NULL, n = 0;
	if (max_passes > 1 && p->norder <= UINT32_MAX / 2 &&
	    bp_grow(&w->mem, (void **)&w->sep_list, &w->sep_cap, 2 * p->norder,
	            sizeof(uint32_t)) == BP_OK)
		list = w->sep_list;
	for (uint32_t i = 0; i < norder; i++) {
		bp_look_ahead(w, order, i, norder, BP_PUSH_NONE, BP_AHEAD_WHOLE | BP_AHEAD_LISTINGS);
		if (!p->items[order[i]].pushed)
			continue;
		sep_apply(w, order[i], dt, 1); /* bit 0 stays: moved by this pass */
		if (list)
			list[n++] = order[i];
	}
	if (max_passes > 1)
		extra_passes(w, dt, max_passes, list, n, order, norder);
}
