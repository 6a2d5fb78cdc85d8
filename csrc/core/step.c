/* SPDX-License-Identifier: MIT
 * step.c - one step of the whole world: every entity in creation order runs its
 * rules and resolver (the Beta velocity push ends each Beta tick), then the
 * positional separation push, then every entity becomes stable. Structural changes
 * are refused while the world is locked. Entities touching unloaded space are
 * skipped (frozen). The broadphase is told of each move. Also
 * one entity's move under the world's lock, a script's e:move (bp_world_move_entity).
 */
#include "bp_world.h"
#include "beta173.h"
#include "broadphase.h"
#include "carry.h"
#include "entity.h"
#include "events.h"
#include "move.h"
#include "move_limits.h"
#include "mccpp.h"
#include "solid.h"
#include "push.h"
#include "sensor.h"
#include "sleep.h"

#include <assert.h>
#include <math.h>

double bp_world_max_displacement(bp_World *w, double dt, uint32_t *slot)
{
	/* Sleepers rest at |velocity| x scale <= 0.5 (bp_sleep_candidate): never the
	 * largest past the limit, so the awake ones answer. */
	bp_entities_compact(w);
	uint32_t n;
	const uint32_t *list = bp_sleep_list(w, &n);
	const bp_EntityPool *p = &w->entities;
	double m = 0;
	*slot = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		const bp_Entity *e = &p->items[list[i]];
		/* (model and vel share the entity's first lines: one pass over 100,000
		 * entities reads 6 MB, not the 13 MB that rules.model would add) */
		double scale = e->model == BP_MODEL_MCCPP ? dt : 1.0;
		for (int a = 0; a < 3; a++) {
			double d = fabs(e->vel[a]) * scale;
			if (d > m || *slot == UINT32_MAX) {
				m = d;
				*slot = list[i];
			}
		}
	}
	return m;
}

static int step_end(bp_World *w, int rc, bp_EventMark mark)
{
	if (rc) { /* undone by the caller: not a step run, and its events never happened */
		w->tick--;
		bp_events_rewind(w, mark);
	}
	w->locked = 0;
	w->ticking = 0;
	w->tick_serial = 0;
	w->looking_ahead = 0;
	w->hooks = NULL;
	w->hook_failed = 0; /* reported through rc: a later e:move must not see it */
	return rc;
}

/* rules.depenetrate: an entity whose box overlaps something (a block placed into it,
 * a teleport into a wall) moves out by the shortest way within
 * rules.depenetrate_distance, before its tick. Left where it is when there is none, or
 * when the search fails (out of memory, too many boxes): a whole no-op either way. */
static void depenetrate(bp_World *w, uint32_t index)
{
	const bp_Entity *e = &w->entities.items[index];
	if (!bp_blocked(w, e, &e->box))
		return;
	double d[3];
	int found;
	bp_entity_depenetrate(w, index, e->rules.depenetrate_distance, d, &found);
}

int bp_world_step_hooks(bp_World *w, double dt, const bp_Hooks *hooks)
{
	bp_entities_compact(w); /* no spawn or remove while locked: no hole appears in it */
	bp_EntityPool *p = &w->entities;
	w->locked = 1;
	w->hooks = hooks;
	w->hook_failed = 0;
	w->over_limit = 0;
	w->step_dt = dt;
	w->vel_limit[BP_MODEL_BETA173] = BP_MAX_MOVE; /* per tick */
	w->vel_limit[BP_MODEL_MCCPP] = bp_velocity_limit(dt);
	w->broad.nresults = 0; /* no query is in flight between steps */
	w->tick++; /* events of this step carry its number */
	const bp_EventMark mark = bp_events_mark(w);
	/* Whether the separation push has work is noted while each entity is at hand: at
	 * N = 10,000 another pass over every entity costs cache misses. A hook that
	 * changed some rules mid-step makes the push look for itself. */
	const uint32_t writes = w->rules_writes;
	int separate = 0;
	/* Streaming: an entity whose box touches unloaded space is frozen (not ticked)
	 * until that space is loaded (stream.c). */
	const int streaming = w->unset_unloaded || w->unloaded_chunks;
	/* Sleeping (sleep.c): a change of dt changes an MC-CPP tick; the step walks the
	 * awake entities, and those woken during it whose turn is to come (late). */
	if (w->nsleeping && dt != w->sleep_dt)
		bp_sleep_wake_all(w);
	bp_sleep_begin(w);
	bp_sleep_spawned(w);
	w->sleep_dt = dt;
	uint32_t n;
	const uint32_t *list = bp_sleep_list(w, &n);
	/* Past w->prefetch_crowd awake entities their state outgrows the cache: each turn
	 * asks ahead for the whole entity, its grid cells and lists (its move rewrites
	 * its listings) and its Beta push neighbourhood (broadphase.h). */
	w->looking_ahead = n >= w->prefetch_crowd;
	w->nlate = w->late_next = 0;
	for (uint32_t i = 0;;) {
		uint32_t index;
		if (w->late_next < w->nlate &&
		    (i == n || p->items[w->late[w->late_next]].serial < p->items[list[i]].serial))
			index = w->late[w->late_next++];
		else if (i < n)
			index = list[i++];
		else
			break;
		bp_look_ahead(w, list, i, n, BP_PUSH_BETA173, BP_AHEAD_WHOLE);
		p->items[index].quiet = 0; /* (a failed step may have left it set) */
		if (streaming || p->items[index].frozen) {
			bp_Entity *f = &p->items[index];
			f->frozen = (uint8_t)(streaming && bp_entity_frozen(w, f));
			if (f->frozen) {
				separate |= f->rules.push == BP_PUSH_SEPARATE;
				continue;
			}
		}
		w->ticking = index + 1;
		w->tick_serial = p->items[index].serial + 1;
		bp_SleepSnap snap;
		const int candidate = bp_sleep_candidate(w, index, &snap);
		const bp_AABB before = p->items[index].box;
		bp_outcome_begin(&p->items[index]);
		if (p->items[index].rules.depenetrate)
			depenetrate(w, index);
		int rc = p->items[index].rules.model == BP_MODEL_MCCPP
		             ? bp_tick_mccpp(w, index, dt, hooks)
		             : bp_tick_beta173(w, index, hooks);
		p->input[index].jump_latch = 0; /* a tap jumps in one tick */
		if (p->items[index].carried) /* a platform moved it before its tick */
			bp_carry_tick_end(w, index);
		separate |= p->items[index].rules.push == BP_PUSH_SEPARATE;
		bp_Entity *e = &p->items[index];
		assert(e->push_model == e->rules.push && e->model == e->rules.model);
		bp_clamp_velocity(w->vel_limit[e->rules.model], e->vel); /* the next step can start */
		bp_broadphase_moved(w, index);
		if (rc || w->hook_failed)
			return step_end(w, 1, mark);
		if (candidate)
			bp_sleep_after_tick(w, index, &snap);
		bp_sleep_moved(w, index, &before);
	}
	w->tick_serial = 0;
	w->ticking = 0;
	if (separate || w->rules_writes != writes) {
		list = bp_sleep_list(w, &n); /* with the entities woken during the loop */
		bp_push_separate(w, dt, list, n);
	}
	if (w->hook_failed)
		return step_end(w, 1, mark);
	bp_sensing_update(w); /* enter and leave of triggers and sensors, after every move */
	list = bp_sleep_list(w, &n);
	if (w->unstable) { /* only spawns and the separation push make entities unstable;
	                    * a sleeper is stable (bp_sleep_candidate) */
		for (uint32_t i = 0; i < n; i++)
			p->items[list[i]].stable = 1;
		w->unstable = 0;
	}
	bp_sleep_settle(w);
	return step_end(w, 0, mark);
}

uint32_t bp_world_step_over_limit(const bp_World *w, double *by)
{
	if (w->over_limit)
		*by = w->over_by;
	return w->over_limit;
}

bp_Status bp_world_move_entity(bp_World *w, uint32_t slot, int swept, int lock,
                               const bp_Hooks *hooks, const double d[3], double out[3])
{
	const bp_Hooks *outer = w->hooks;
	const int locked = w->locked;
	/* Inside a step or another move, a filter may already have failed (that call then
	 * fails); unlocked, nothing has. */
	const int failed_before = locked && w->hook_failed;
	if (!locked) {
		w->locked = lock;
		w->hook_failed = 0;
	}
	w->hooks = hooks;
	const bp_EventMark mark = bp_events_mark(w);
	const double seconds = w->move_seconds;
	w->move_seconds = 0.05; /* a script's move counts as one 20 Hz tick for hit speeds */
	bp_Entity *e = &w->entities.items[slot];
	bp_entity_touch(w, e); /* a script's move: it and the sleepers near it wake */
	const bp_AABB before = e->box;
	if (!locked || !w->ticking)
		bp_outcome_begin(e); /* a move of its own; inside a tick, part of the step's */
	bp_Status st = bp_move_by(w, e, swept, d, out);
	w->move_seconds = seconds;
	w->locked = locked;
	w->hooks = outer;
	bp_broadphase_moved(w, slot);
	bp_sleep_moved(w, slot, &before);
	if (w->hook_failed && !failed_before) {
		if (!locked)
			w->hook_failed = 0; /* reported by the status: a later move must not see it */
		bp_events_rewind(w, mark); /* the caller undoes the move */
		return BP_EHOOK;
	}
	return st;
}
