/* SPDX-License-Identifier: MIT
 * entity.h - the entity pool's internals and the fall state shared by both resolvers
 * (entity.c); spawning, lookups and removal are public (blockphys.h).
 */
#ifndef BP_CORE_ENTITY_H
#define BP_CORE_ENTITY_H

#include "bp_world.h"

/** Close the holes that removals leave in the creation order (bp_EntityPool.order):
 *  every reader of p->order[0 .. norder) calls it first. O(1) without holes, O(n)
 *  with; removal and spawn call it too when holes pile up, so memory stays O(live).
 *  Source: our own. */
void bp_entities_compact(bp_World *w);

/** bp_world_remove's part in the pool (world.c adds the leave events of its trigger
 *  and sensor overlaps). Same results. Source: our own. */
bp_Status bp_entities_remove(bp_World *w, bp_EntityId id);

/** Free the entity pool's arrays (bp_world_destroy). Source: our own. */
void bp_entities_free(bp_World *w);

/** After any write of e->rules: copy its push model and model to the front of the
 *  entity, where a neighbour's push reads them (bp_Entity). Source: our own. */
static inline void bp_entity_rules_copied(bp_Entity *e)
{
	e->push_model = (uint8_t)e->rules.push;
	e->model = (uint8_t)e->rules.model;
}

/** The fall distance after a drop of `drop` blocks. Beta's fallDistance is a Java
 *  float, so for Beta-rules entities each sum is rounded to float (values beyond float
 *  range stay unrounded); other models keep doubles. Used by both resolvers.
 *  Source: docs/beta173.md section 3e (updateFallState). */
double bp_fall_add(const bp_Entity *e, double drop);

/** After a move whose on_ground the resolver has set: Beta's updateFallState, shared
 *  by both resolvers. Landing with a fall distance above 0 reports it in landing_fall
 *  (what the game passes to fall()) and resets it; a distance a script set to 0 or
 *  below stays; in the air a drop `dy` < 0 (blocks) adds to it (bp_fall_add).
 *  Source: docs/beta173.md section 3e (updateFallState). */
static inline void bp_update_fall(bp_Entity *e, double dy)
{
	e->landing_fall = e->on_ground && e->fall_distance > 0 ? e->fall_distance : 0;
	if (e->landing_fall > 0)
		e->fall_distance = 0;
	else if (!e->on_ground && dy < 0)
		e->fall_distance = bp_fall_add(e, -dy);
}

#endif
