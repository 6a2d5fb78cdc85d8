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
 * it or act on it, beyond the other's push radius: a sleeper's own reach (its resting
 * move of at most 0.25 with a step-up of at most 0.6, its push radius of at most 0.5,
 * the guard probe and depenetration of at most 1: bp_sleep_candidate) fits. */
#define ENTITY_REACH 1.25

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

/* A write (not the entity's own tick) changes it: it wakes, and, inside a step, does
 * not fall asleep at the step's end. */
void bp_entity_wake(bp_World *w, bp_Entity *e)
{
	bp_sleep_disturb(w, (uint32_t)(e - w->entities.items));
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
	const uint32_t slot = (uint32_t)(e - w->entities.items);
	bp_sleep_disturb(w, slot);
	wake_around(w, slot, &w->entities.items[slot].box, 1); /* it may become solid */
}

void bp_entity_input_changed(bp_World *w, bp_Entity *e, const bp_EntityInput *before)
{
	const bp_EntityInput *in = &w->entities.input[e - w->entities.items];
	if (w->sleep_on &&
	    (memcmp(&in->forward, &before->forward, sizeof in->forward) ||
	     memcmp(&in->strafe, &before->strafe, sizeof in->strafe) ||
	     memcmp(&in->yaw, &before->yaw, sizeof in->yaw) || in->jumping != before->jumping ||
	     in->sneaking != before->sneaking || in->flying != before->flying ||
	     in->jump_latch != before->jump_latch))
		bp_sleep_disturb(w, (uint32_t)(e - w->entities.items));
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

/* The flags a tick may change, in one array (compared with memcmp). */
static void snap_flags(const bp_Entity *e, uint8_t f[13])
{
	const uint8_t v[13] = {e->on_ground, e->coll_h,      e->coll_v,     e->in_water,
	                       e->in_lava,   e->in_web,      e->stable,     e->out_coll_h,
	                       e->out_coll_v, e->move_stops, e->stops,      e->prev_stops,
	                       (uint8_t)(e->carried | e->frozen << 1)};
	memcpy(f, v, sizeof v);
}

/* Every field a tick may change (its rules, size, solidity and filtering change only
 * by writes, which mark it; caches left out: the gather cache, the yaw's sine, the
 * frozen test's memory, which change no result). */
static void snap(const bp_Entity *e, bp_SleepSnap *s)
{
	s->box = e->box;
	memcpy(s->vel, e->vel, sizeof s->vel);
	memcpy(s->prev, e->prev, sizeof s->prev);
	memcpy(s->carried_d, e->carried_d, sizeof s->carried_d);
	s->fall_distance = e->fall_distance;
	s->landing_fall = e->landing_fall;
	s->y_size = e->y_size;
	s->step_offset = e->step_offset;
	s->stop_reach = e->stop_reach;
	s->out_landing = e->out_landing;
	snap_flags(e, s->flags);
}

#define SAME(f) (!memcmp(&a->f, &b->f, sizeof a->f))

/* Bit for bit (memcmp: -0 and 0 differ, a NaN equals itself). */
static int same_state(const bp_SleepSnap *a, const bp_SleepSnap *b)
{
	return SAME(box) && SAME(vel) && SAME(prev) && SAME(carried_d) &&
	       SAME(fall_distance) && SAME(landing_fall) && SAME(y_size) &&
	       SAME(step_offset) && SAME(stop_reach) && SAME(out_landing) && SAME(flags);
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
		if (!(fabs(e->vel[a]) * scale <= 0.25))
			return 0;
	}
	if (!(r->step_height <= 0.6 && r->push_radius <= 0.5 && r->guard_probe <= 1 &&
	      (!r->depenetrate || r->depenetrate_distance <= 1)))
		return 0;
	snap(e, s);
	s->events = w->events.count;
	s->dropped = w->events.dropped;
	return 1;
}

void bp_sleep_after_tick(bp_World *w, uint32_t slot, const bp_SleepSnap *s)
{
	bp_Entity *e = &w->entities.items[slot];
	bp_SleepSnap now;
	snap(e, &now);
	if (same_state(s, &now) && w->events.count == s->events &&
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
		if (e->sleep_wait) { /* a neighbour kept it awake lately: look again later */
			e->sleep_wait--;
			continue;
		}
		/* A query of its surroundings, once per entity falling asleep; one kept awake
		 * by a changing neighbour waits 7 quiet steps before the next (falling asleep
		 * later is always safe). */
		Settle c = {w, slot, interactive(e)};
		const double m = ENTITY_REACH + fmax(0, e->rules.push_radius);
		const bp_AABB r = bp_aabb_expand(&e->box, m, ENTITY_REACH, m);
		if (bp_broadphase_visit(w, &r, restless, &c)) {
			e->sleep_wait = 7;
			continue;
		}
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
