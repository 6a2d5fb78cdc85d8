/* SPDX-License-Identifier: MIT
 * carry.c - carrying platforms: a solid entity with `carry` moves the entities standing
 * on it (its riders: those whose ground, contact.c, is the platform), and what stands
 * on them, by the platform's own displacement, each through its resolver, so that a
 * rider never ends inside a block. Order of one move of the platform:
 *   rising: the riders first, top down, by the rise (so the platform does not lift into
 *   them); then the platform; then each rider, bottom up, by what the platform really
 *   moved less what it rose already;
 *   level or sinking: the platform first, then each rider, bottom up, by what it moved.
 * A carried move leaves the rider's own state alone (velocity, flags, fall distance,
 * contacts): it keeps on_ground and its ground velocity. A rider whose tick comes later
 * in the step has its previous position shifted too, so that drawing between ticks
 * includes the ride.
 */
#include "carry.h"
#include "contact.h"
#include "move.h"
#include "sleep.h"

#include <string.h>

/* Most riders one move carries (the platform's and theirs, all levels), and how deep
 * platforms on platforms may nest: one move's work stays bounded. Our own. */
#define MAX_RIDERS 64
#define MAX_DEPTH 4

typedef struct Riders {
	uint32_t slot[MAX_RIDERS];
	int n;
} Riders;

typedef struct Find {
	bp_World *w;
	uint32_t base;  /* slot of what they stand on */
	Riders *r;
} Find;

static int listed(const Riders *r, uint32_t slot)
{
	for (int i = 0; i < r->n; i++) {
		if (r->slot[i] == slot)
			return 1;
	}
	return 0;
}

static int find_one(void *ctx, uint32_t index)
{
	Find *f = ctx;
	const bp_Entity *base = &f->w->entities.items[f->base];
	const bp_Entity *o = &f->w->entities.items[index];
	if (index == f->base || o->sensor || !(o->stops & 1u << 2) || listed(f->r, index) ||
	    f->r->n == MAX_RIDERS)
		return f->r->n == MAX_RIDERS;
	bp_Contact c;
	if (!bp_entity_ground(f->w, index, &c) || c.kind != BP_HIT_ENTITY ||
	    c.entity.index1 != f->base + 1 || c.entity.generation != base->generation)
		return 0;
	f->r->slot[f->r->n++] = index;
	return 0;
}

/* The riders of the platform in slot `slot`, then theirs, level by level (creation
 * order within a level: the broadphase's). */
static void find_riders(bp_World *w, uint32_t slot, Riders *r)
{
	r->n = 0;
	int level = 0;
	uint32_t base = slot;
	for (int next = 0;; next++) {
		const bp_AABB *b = &w->entities.items[base].box;
		/* Whoever stands on it: feet within a block above its top. */
		bp_AABB slab = bp_aabb_make(b->lo[0], b->hi[1] - 1e-6, b->lo[2], b->hi[0], b->hi[1] + 1,
		                            b->hi[2]);
		Find f = {w, base, r};
		bp_broadphase_visit(w, &slab, find_one, &f);
		if (next >= r->n)
			break;
		base = r->slot[next];
		level++;
	}
	(void)level;
}

/* What a carried move leaves as it was. */
typedef struct Kept {
	double vel[3], fall_distance, landing_fall, out_landing, y_size, step_offset, stop_reach;
	uint8_t on_ground, coll_h, coll_v, out_coll_h, out_coll_v, move_stops, stops, prev_stops;
} Kept;

static void keep(const bp_Entity *e, Kept *k)
{
	memcpy(k->vel, e->vel, sizeof k->vel);
	k->fall_distance = e->fall_distance;
	k->landing_fall = e->landing_fall;
	k->out_landing = e->out_landing;
	k->y_size = e->y_size;
	k->step_offset = e->step_offset;
	k->stop_reach = e->stop_reach;
	k->on_ground = e->on_ground;
	k->coll_h = e->coll_h;
	k->coll_v = e->coll_v;
	k->out_coll_h = e->out_coll_h;
	k->out_coll_v = e->out_coll_v;
	k->move_stops = e->move_stops;
	k->stops = e->stops;
	k->prev_stops = e->prev_stops;
}

static void put_back(bp_Entity *e, const Kept *k)
{
	memcpy(e->vel, k->vel, sizeof e->vel);
	e->fall_distance = k->fall_distance;
	e->landing_fall = k->landing_fall;
	e->out_landing = k->out_landing;
	e->y_size = k->y_size;
	e->step_offset = k->step_offset;
	e->stop_reach = k->stop_reach;
	e->on_ground = k->on_ground;
	e->coll_h = k->coll_h;
	e->coll_v = k->coll_v;
	e->out_coll_h = k->out_coll_h;
	e->out_coll_v = k->out_coll_v;
	e->move_stops = k->move_stops;
	e->stops = k->stops;
	e->prev_stops = k->prev_stops;
}

/* Whether the entity in `slot` still has its tick to run in the step under way. */
static int ticks_later(const bp_World *w, uint32_t slot)
{
	if (!w->ticking)
		return 0;
	const bp_EntityPool *p = &w->entities;
	return p->pos[slot] > p->pos[w->ticking - 1];
}

/* Move rider `slot` by d through its resolver, its own state kept; returns what it
 * moved in *got. Its hit and land events are not reported (the ride is not its move). */
static void ride(bp_World *w, uint32_t slot, const double d[3], double got[3])
{
	bp_sleep_disturb(w, slot); /* a sleeper carried wakes */
	bp_Entity *e = &w->entities.items[slot];
	Kept k;
	keep(e, &k);
	const bp_AABB before = e->box;
	const uint32_t events = w->events.count;
	const uint64_t dropped = w->events.dropped;
	double out[3];
	if (bp_move_by(w, e, e->rules.resolver == BP_RESOLVER_SWEPT, d, out) != BP_OK)
		out[0] = out[1] = out[2] = 0;
	e = &w->entities.items[slot];
	w->events.count = events; /* the ride's own contacts are not the rider's events */
	w->events.dropped = dropped;
	put_back(e, &k);
	for (int a = 0; a < 3; a++)
		got[a] = e->box.lo[a] - before.lo[a];
	if (ticks_later(w, slot)) { /* its tick sets prev where the ride left it: noted */
		for (int a = 0; a < 3; a++)
			e->carried_d[a] += got[a];
		e->carried = 1;
	}
	bp_broadphase_moved(w, slot);
	bp_sleep_moved(w, slot, &before); /* and so do sleepers near where it went */
}

bp_Status bp_carry_move(bp_World *w, bp_Entity *platform, int swept, const double d[3],
                        double out[3])
{
	const uint32_t slot = (uint32_t)(platform - w->entities.items);
	if (w->carry_depth >= MAX_DEPTH) /* a platform on a platform on ...: not carried */
		return bp_move_plain(w, platform, swept, d, out);
	Riders r;
	find_riders(w, slot, &r);
	if (!r.n)
		return bp_move_plain(w, platform, swept, d, out);
	w->carry_depth++;
	double rose[MAX_RIDERS] = {0};
	if (d[1] > 0) {
		for (int i = r.n - 1; i >= 0; i--) { /* top down: room for the one below */
			const double up[3] = {0, d[1], 0};
			double got[3];
			ride(w, r.slot[i], up, got);
			rose[i] = got[1];
		}
	}
	bp_Status st = bp_move_plain(w, &w->entities.items[slot], swept, d, out);
	if (st == BP_OK) {
		for (int i = 0; i < r.n; i++) { /* bottom up: each onto the one below */
			const double rest[3] = {out[0], out[1] - rose[i], out[2]};
			double got[3];
			if (rest[0] != 0 || rest[1] != 0 || rest[2] != 0)
				ride(w, r.slot[i], rest, got);
		}
	}
	w->carry_depth--;
	return st;
}

void bp_carry_tick_end(bp_World *w, uint32_t slot)
{
	bp_Entity *e = &w->entities.items[slot];
	if (!e->carried)
		return;
	/* Its tick started where the ride left it: draw from before the ride. */
	for (int a = 0; a < 3; a++) {
		e->prev[a] -= e->carried_d[a];
		e->carried_d[a] = 0;
	}
	e->carried = 0;
}
