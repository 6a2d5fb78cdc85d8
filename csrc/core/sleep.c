/* SPDX-License-Identifier: MIT
 * sleep.c - sleeping entities (our own). An entity whose tick left every field of
 * its state bit for bit as it was, reported nothing and touched no other entity, and
 * none of whose neighbours within reach is changing, is a fixed point: its next tick
 * would do the same, so the step stops running it until something that could change
 * that tick wakes it (a write to it, a block or collider edit near it, another
 * entity moving near it or pushing it, a platform carrying it, a change of dt). Waking
 * is always safe; only falling asleep needs the proof, so every doubtful case wakes.
 * The awake entities are kept in creation order: updates keep their order, and
 * results are the same bit for bit with sleeping on and off.
 */
#include "sleep.h"
#include "alloc.h"

#include <math.h>
#include <string.h>

/* Margin (blocks) around an entity's box within which another entity's tick may see
 * it or act on it, beyond the other's push radius: a sleeper's own reach (resting
 * move, step-up, guard probe, push radius, each bounded by bp_sleep_candidate) fits. */
#define ENTITY_REACH 2.0

static int interactive(const bp_Entity *e)
{
	return e->solid || e->rules.push != BP_PUSH_NONE || e->carry || e->has_filter;
}

const uint32_t *bp_sleep_list(bp_World *w, uint32_t *n)
{
	bp_EntityPool *p = &w->entities;
	if (!w->sleep_on || !w->nsleeping) {
		*n = p->norder;
		return p->order;
	}
	if (w->awake_dirty) { /* awake_cap >= norder: reserved by every spawn */
		uint32_t k = 0;
		for (uint32_t i = 0; i < p->norder; i++) {
			const uint32_t slot = p->order[i];
			if (!p->asleep[slot])
				w->awake[k++] = slot;
		}
		w->nawake = k;
		w->awake_dirty = 0;
	}
	*n = w->nawake;
	return w->awake;
}

/* Wake one sleeper. Inside a step's entity loop, one whose turn is still to come
 * joins the late list (serial order) so that it runs in this step as it would have. */
static void wake(bp_World *w, uint32_t slot)
{
	bp_EntityPool *p = &w->entities;
	if (slot >= p->asleep_cap || !p->asleep[slot])
		return;
	bp_Entity *e = &p->items[slot];
	p->asleep[slot] = 0;
	w->nsleeping--;
	w->sleep_interactive -= (uint32_t)interactive(e);
	bp_sleep_map_add(w, &e->box, -1);
	if (!w->nsleeping)
		bp_sleep_map_free(w);
	w->awake_dirty = 1;
	e->quiet = 0;
	if (w->tick_serial && e->serial >= w->tick_serial && w->nlate < w->late_cap) {
		uint32_t i = w->nlate++;
		while (i > w->late_next && p->items[w->late[i - 1]].serial > e->serial) {
			w->late[i] = w->late[i - 1];
			i--;
		}
		w->late[i] = slot;
	}
}

void bp_entity_wake(bp_World *w, bp_Entity *e)
{
	if (w->nsleeping)
		wake(w, (uint32_t)(e - w->entities.items));
}

typedef struct Near {
	bp_World *w;
	uint32_t self;
	int all; /* wake every sleeper met, else only interactive ones */
} Near;

static int wake_one(void *ctx, uint32_t index)
{
	Near *c = ctx;
	if (index != c->self && c->w->entities.asleep[index] &&
	    (c->all || interactive(&c->w->entities.items[index])))
		wake(c->w, index);
	return 0;
}

/* Wake the sleepers whose boxes overlap r (all, or only interactive ones). */
static void wake_in(bp_World *w, const bp_AABB *r, uint32_t self, int all)
{
	if (!bp_sleep_map_any(w, r))
		return; /* no sleeper near: no query */
	Near c = {w, self, all};
	bp_broadphase_visit(w, r, wake_one, &c);
}

/* Wake the sleepers near entity slot's box that it may act on or be seen by (all of
 * them with `all`: a write may make it act on any of them). */
static void wake_around(bp_World *w, uint32_t slot, const bp_AABB *box, int all)
{
	const bp_Entity *e = &w->entities.items[slot];
	all |= interactive(e);
	if (!w->nsleeping || (!all && !w->sleep_interactive))
		return;
	const double m = ENTITY_REACH + fmax(0, fmin(e->rules.push_radius, 1e6));
	const bp_AABB r = bp_aabb_expand(box, m, ENTITY_REACH, m);
	wake_in(w, &r, slot, all);
}

void bp_entity_touch(bp_World *w, bp_Entity *e)
{
	if (!w->nsleeping)
		return;
	const uint32_t slot = (uint32_t)(e - w->entities.items);
	wake(w, slot);
	wake_around(w, slot, &e->box, 1); /* before the write: it may become solid */
}

void bp_entity_input_changed(bp_World *w, bp_Entity *e, const bp_EntityInput *before)
{
	const bp_EntityInput *in = &w->entities.input[e - w->entities.items];
	if (w->nsleeping &&
	    (memcmp(&in->forward, &before->forward, sizeof in->forward) ||
	     memcmp(&in->strafe, &before->strafe, sizeof in->strafe) ||
	     memcmp(&in->yaw, &before->yaw, sizeof in->yaw) || in->jumping != before->jumping ||
	     in->sneaking != before->sneaking || in->flying != before->flying ||
	     in->jump_latch != before->jump_latch))
		wake(w, (uint32_t)(e - w->entities.items));
}

void bp_sleep_moved(bp_World *w, uint32_t slot, const bp_AABB *before)
{
	if (!w->nsleeping)
		return;
	const bp_Entity *e = &w->entities.items[slot];
	if (!memcmp(before, &e->box, sizeof *before))
		return;
	bp_AABB u = *before;
	for (int a = 0; a < 3; a++) {
		u.lo[a] = fmin(u.lo[a], e->box.lo[a]);
		u.hi[a] = fmax(u.hi[a], e->box.hi[a]);
	}
	wake_around(w, slot, &u, 0);
}

void bp_sleep_spawned(bp_World *w)
{
	const bp_EntityPool *p = &w->entities;
	/* New entities are at the end of the creation order (compacted by the caller). */
	for (uint32_t i = p->norder; w->nsleeping && i-- > 0;) {
		const uint32_t slot = p->order[i];
		if (p->items[slot].serial < w->spawn_seen)
			break;
		wake_around(w, slot, &p->items[slot].box, 0);
	}
	w->spawn_seen = p->next_serial;
}

void bp_sleep_disturb(bp_World *w, uint32_t slot)
{
	bp_Entity *e = &w->entities.items[slot];
	if (!w->sleep_on)
		return;
	if (!e->disturbed && w->ndisturbed < w->disturbed_cap) /* (room for every entity) */
		w->disturbed_list[w->ndisturbed++] = slot;
	e->disturbed = 1;
	if (w->nsleeping)
		wake(w, slot);
}

void bp_sleep_region_changed(bp_World *w, const bp_AABB *region)
{
	if (!w->nsleeping)
		return;
	const double m = BP_SLEEP_BLOCK_REACH;
	const bp_AABB r = bp_aabb_expand(region, m, m, m);
	wake_in(w, &r, UINT32_MAX, 1);
}

void bp_sleep_cells_changed(bp_World *w, const int32_t lo[3], const int32_t hi[3])
{
	if (!w->nsleeping)
		return;
	/* Cells rise at most one block above themselves (tall shapes): one more on Y. */
	const bp_AABB r = bp_aabb_make(lo[0], lo[1], lo[2], (double)hi[0] + 1,
	                               (double)hi[1] + 2, (double)hi[2] + 1);
	bp_sleep_region_changed(w, &r);
}

void bp_sleep_wake_all(bp_World *w)
{
	bp_EntityPool *p = &w->entities;
	if (!w->nsleeping)
		return;
	for (uint32_t slot = 0; slot < p->count && slot < p->asleep_cap; slot++)
		wake(w, slot);
	w->nsleeping = 0; /* (removed sleepers were woken by their removal) */
	w->sleep_interactive = 0;
}

int bp_sleep_candidate(bp_World *w, uint32_t slot, bp_SleepSnap *s)
{
	const bp_EntityPool *p = &w->entities;
	const bp_Entity *e = &p->items[slot];
	const bp_EntityInput *in = &p->input[slot];
	const bp_Rules *r = &e->rules;
	if (!w->sleep_on || in->forward != 0 || in->strafe != 0 || in->jumping ||
	    in->jump_latch || r->hook_heading || r->hook_jump || e->has_filter || e->carried || !e->stable || e->in_water || e->in_lava || e->in_web || e->frozen)
		return 0;
	/* Reaches the wake margins assume (ENTITY_REACH, BP_SLEEP_BLOCK_REACH). */
	const double scale = r->model == BP_MODEL_MCCPP ? w->step_dt : 1.0;
	for (int a = 0; a < 3; a++) {
		if (!(fabs(e->vel[a]) * scale <= 0.5))
			return 0;
	}
	if (!(r->step_height <= 1 && r->push_radius <= 1 && r->guard_probe <= 1 &&
	      (!r->depenetrate || r->depenetrate_distance <= 1)))
		return 0;
	s->e = *e;
	s->events = w->events.count;
	s->dropped = w->events.dropped;
	return 1;
}

#define SAME(f) (!memcmp(&a->f, &b->f, sizeof a->f))

/* Every field a tick may change, bit for bit (caches left out: the gather cache, the
 * yaw's sine, the frozen test's memory, which change no result). */
static int same_state(const bp_Entity *a, const bp_Entity *b)
{
	return SAME(box) && SAME(vel) && SAME(prev) && SAME(fall_distance) &&
	       SAME(landing_fall) && SAME(y_size) && SAME(step_offset) && SAME(on_ground) &&
	       SAME(coll_h) && SAME(coll_v) && SAME(in_water) && SAME(in_lava) &&
	       SAME(in_web) && SAME(stable) && SAME(out_coll_h) && SAME(out_coll_v) &&
	       SAME(move_stops) && SAME(stops) && SAME(prev_stops) && SAME(carried) &&
	       SAME(carried_d) && SAME(stop_reach) && SAME(out_landing) && SAME(frozen) &&
	       SAME(rules) && SAME(solid) && SAME(width) && SAME(height) && SAME(group) &&
	       SAME(mask);
}

void bp_sleep_after_tick(bp_World *w, uint32_t slot, const bp_SleepSnap *s)
{
	bp_Entity *e = &w->entities.items[slot];
	if (same_state(&s->e, e) && w->events.count == s->events &&
	    w->events.dropped == s->dropped && !e->quiet && w->nquiet < w->quiet_cap) {
		e->quiet = 1;
		w->quiet_list[w->nquiet++] = slot;
	}
}

typedef struct Settle {
	bp_World *w;
	uint32_t self;
	int inter; /* self is interactive: every neighbour counts */
} Settle;

/* A neighbour that keeps self awake: one that is changing (awake and not quiet, or
 * disturbed, or frozen) and could act on self or be seen by its tick. */
static int restless(void *ctx, uint32_t index)
{
	Settle *c = ctx;
	const bp_EntityPool *p = &c->w->entities;
	if (index == c->self || p->asleep[index])
		return 0;
	const bp_Entity *o = &p->items[index];
	if (!c->inter && !interactive(o))
		return 0; /* neither can act on the other */
	return !o->quiet || o->disturbed || o->frozen || o->has_filter;
}

/* Clear the step's quiet and disturbed marks (their lists name every entity marked). */
static void clear_marks(bp_World *w)
{
	bp_Entity *items = w->entities.items;
	for (uint32_t i = 0; i < w->nquiet; i++)
		items[w->quiet_list[i]].quiet = 0;
	for (uint32_t i = 0; i < w->ndisturbed; i++)
		items[w->disturbed_list[i]].disturbed = 0;
	w->nquiet = w->ndisturbed = 0;
}

void bp_sleep_begin(bp_World *w)
{
	clear_marks(w); /* a failed step may have left some */
}

void bp_sleep_settle(bp_World *w)
{
	bp_EntityPool *p = &w->entities;
	uint32_t fell = 0;
	/* Only the entities whose tick was a fixed point are looked at: no pass over
	 * every awake entity. */
	for (uint32_t i = 0; i < w->nquiet; i++) {
		const uint32_t slot = w->quiet_list[i];
		bp_Entity *e = &p->items[slot];
		if (!e->quiet || e->disturbed || p->asleep[slot] || !e->alive)
			continue;
		/* Once per entity falling asleep: a query of its surroundings. */
		Settle c = {w, slot, interactive(e)};
		const double m = ENTITY_REACH + fmax(0, e->rules.push_radius);
		const bp_AABB r = bp_aabb_expand(&e->box, m, ENTITY_REACH, m);
		if (bp_broadphase_visit(w, &r, restless, &c))
			continue;
		p->asleep[slot] = 2; /* decided; asleep once every decision is made */
		fell++;
	}
	for (uint32_t i = 0; fell && i < w->nquiet; i++) {
		const uint32_t slot = w->quiet_list[i];
		if (p->asleep[slot] != 2)
			continue;
		bp_Entity *e = &p->items[slot];
		p->asleep[slot] = 1;
		w->nsleeping++;
		w->sleep_interactive += (uint32_t)interactive(e);
		bp_sleep_map_add(w, &e->box, 1);
	}
	clear_marks(w);
	if (fell)
		w->awake_dirty = 1; /* the awake list drops them on its next use */
}

void bp_world_set_sleeping(bp_World *w, int on)
{
	w->sleep_on = on != 0;
	if (!w->sleep_on)
		bp_sleep_wake_all(w);
}

int bp_world_sleeping(const bp_World *w)
{
	return w->sleep_on;
}

int bp_entity_sleeping(const bp_World *w, const bp_Entity *e)
{
	const uint32_t slot = (uint32_t)(e - w->entities.items);
	return slot < w->entities.asleep_cap && w->entities.asleep[slot] == 1;
}

void bp_sleep_free(bp_World *w)
{
	bp_sleep_map_free(w);
	bp_free(&w->mem, w->awake, (size_t)w->awake_cap * sizeof(uint32_t));
	bp_free(&w->mem, w->late, (size_t)w->late_cap * sizeof(uint32_t));
	bp_free(&w->mem, w->quiet_list, (size_t)w->quiet_cap * sizeof(uint32_t));
	bp_free(&w->mem, w->disturbed_list, (size_t)w->disturbed_cap * sizeof(uint32_t));
}
