/* SPDX-License-Identifier: MIT
 * move.h - the move seam (move.c): the one place that picks a resolver for an entity's
 * move and notes what the move did.
 */
#ifndef BP_CORE_MOVE_H
#define BP_CORE_MOVE_H

#include "blockphys.h"

/** Start an entity's step outcome: the faces stopped so far become the step before's,
 *  and the step's flags and landing clear (each tick, and each script move outside a
 *  step, starts one). Source: our own. */
void bp_outcome_begin(bp_Entity *e);

/** Move e by d (blocks) with the swept (swept != 0) or the per-axis resolver, then note
 *  its outcome (bp_contact_note: the step's flags, landings, hit and land events).
 *  Returns the resolver's status; nothing is noted unless BP_OK. Source: our own. */
bp_Status bp_move_by(bp_World *w, bp_Entity *e, int swept, const double d[3], double out[3]);

/** bp_move_by with the resolver of the entity's rules. Source: our own. */
bp_Status bp_move(bp_World *w, bp_Entity *e, const double d[3], double out[3]);

#endif
