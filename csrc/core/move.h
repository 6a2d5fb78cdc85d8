/* SPDX-License-Identifier: MIT
 * move.h - the move seam: every resolver call of a tick or of a script's e:move goes
 * through bp_move_by, the one place that picks a resolver for an entity's move and
 * notes what the move did (contact.c), whichever rules and resolver run it. Inline:
 * it wraps every move of every tick.
 */
#ifndef BP_CORE_MOVE_H
#define BP_CORE_MOVE_H

#include "bp_world.h"
#include "carry.h"
#include "contact.h"

/** Start an entity's step outcome: the faces stopped so far become the step before's,
 *  and the step's flags and landing clear (each tick, and each script move outside a
 *  step, starts one). stop_reach is kept: contacts carried over a still move
 *  (bp_contact_note) are found with it. Source: our own. */
static inline void bp_outcome_begin(bp_Entity *e)
{
	e->prev_stops = e->stops;
	e->stops = 0;
	e->out_coll_h = 0;
	e->out_coll_v = 0;
	e->out_landing = 0;
}

/** Move e by d (blocks) with the swept (swept != 0) or the per-axis resolver, then note
 *  its outcome (bp_contact_note: the step's flags, landings, hit and land events).
 *  Returns the resolver's status; nothing is noted unless BP_OK. d must not be e->vel
 *  (the resolver zeroes it on the stopped axes, and the note reads the request). Inline:
 *  the seam of every move. Source: our own. */
static inline bp_Status bp_move_plain(bp_World *w, bp_Entity *e, int swept, const double d[3],
                                      double out[3])
{
	const bp_Status st = swept ? bp_move_swept(w, e, d, out) : bp_move_axis(w, e, d, out);
	if (st == BP_OK)
		bp_contact_note(w, e, d);
	return st;
}

/** bp_move_plain, or for a carrying platform bp_carry_move, which moves what stands on
 *  it too. Source: our own. */
static inline bp_Status bp_move_by(bp_World *w, bp_Entity *e, int swept, const double d[3],
                                   double out[3])
{
	if (e->carry && e->solid)
		return bp_carry_move(w, e, swept, d, out);
	return bp_move_plain(w, e, swept, d, out);
}

/** bp_move_by with the resolver of the entity's rules. Source: our own. */
static inline bp_Status bp_move(bp_World *w, bp_Entity *e, const double d[3], double out[3])
{
	return bp_move_by(w, e, e->rules.resolver == BP_RESOLVER_SWEPT, d, out);
}

#endif
