/* SPDX-License-Identifier: MIT
 * sleep.h - sleeping entities' internals (sleep.c): the awake list a step walks, the
 * fixed-point test around a tick, and the wakes that moves, pushes and edits cause.
 */
#ifndef BP_CORE_SLEEP_H
#define BP_CORE_SLEEP_H

#include "bp_world.h"

/** Margin (blocks) around an edited block region within which sleepers wake: what a
 *  sleeper's tick reads lies within it (its resting move, step-up, tall shapes one
 *  block below, the sneak guard's probe and depenetration, each at most 1 block). */
#define BP_SLEEP_BLOCK_REACH 3.0

/** What a step walks: the awake entities in creation order (the creation order
 *  itself with sleeping off). Rebuilds the list first when wakes or removals changed
 *  it. *n receives the count. The caller compacts the creation order first
 *  (bp_entities_compact). Source: our own. */
const uint32_t *bp_sleep_list(bp_World *w, uint32_t *n);

/** The dynamic state of an entity a tick may change, saved before a tick that may be
 *  a fixed point (bp_sleep_candidate). */
typedef struct bp_SleepSnap {
	bp_AABB box;
	double vel[3], prev[3], carried_d[3];
	double fall_distance, landing_fall, y_size, step_offset, stop_reach, out_landing;
	uint8_t flags[13]; /* on_ground .. frozen (sleep.c, snap_flags) */
	uint32_t events;
	uint64_t dropped;
} bp_SleepSnap;

/** Whether entity `slot`'s coming tick may leave it as it is (no input, no hooks, not
 *  in a liquid or web, ...): then it is saved into *s. Source: our own. */
int bp_sleep_candidate(bp_World *w, uint32_t slot, bp_SleepSnap *s);

/** After the tick of a candidate: note whether the tick left every field of its state
 *  bit for bit as saved and reported no event (bp_Entity.quiet). Source: our own. */
void bp_sleep_after_tick(bp_World *w, uint32_t slot, const bp_SleepSnap *s);

/** Another entity (a push, a platform) or a write changed entity slot's state: it
 *  wakes, and does not fall asleep at the end of the step it happened in (outside a
 *  step the mark is cleared when the next step begins). Source: our own. */
void bp_sleep_disturb(bp_World *w, uint32_t slot);

/** Entity slot's box moved from `before` during a step (its tick, a push, a ride):
 *  sleepers it may now act on, or whose ticks may now see it, wake. */
void bp_sleep_moved(bp_World *w, uint32_t slot, const bp_AABB *before);

/** At a step's start: the sleepers near entities spawned since the last step wake (the
 *  caller compacted the creation order). Source: our own. */
void bp_sleep_spawned(bp_World *w);

/** Blocks or colliders changed within `region` (blocks): sleepers within
 *  BP_SLEEP_BLOCK_REACH of it wake. Source: our own. */
void bp_sleep_region_changed(bp_World *w, const bp_AABB *region);

/** The cells lo..hi (inclusive) changed: bp_sleep_region_changed of their box. */
void bp_sleep_cells_changed(bp_World *w, const int32_t lo[3], const int32_t hi[3]);

/** Wake every sleeper (a change of block types, of dt, of unset space). */
void bp_sleep_wake_all(bp_World *w);

/** Start of a step: clear what a failed step left marked. Source: our own. */
void bp_sleep_begin(bp_World *w);

/** End of a successful step: every quiet entity none of whose neighbours is awake and
 *  changing falls asleep. Source: our own. */
void bp_sleep_settle(bp_World *w);

/** Count a sleeper's box in (delta 1) or out of (delta -1) the regions it overlaps
 *  (sleep_map.c). Source: our own. */
void bp_sleep_map_add(bp_World *w, const bp_AABB *box, int delta);

/** Whether some sleeper's box may overlap `region` (1 also when unknown). */
int bp_sleep_map_any(const bp_World *w, const bp_AABB *region);

/** Free the map (when nothing sleeps, and by bp_world_destroy). */
void bp_sleep_map_free(bp_World *w);

/** Free the sleeping lists (bp_world_destroy). */
void bp_sleep_free(bp_World *w);

#endif
