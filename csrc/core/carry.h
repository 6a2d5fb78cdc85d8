/* SPDX-License-Identifier: MIT
 * carry.h - carrying platforms (carry.c).
 */
#ifndef BP_CORE_CARRY_H
#define BP_CORE_CARRY_H

#include "bp_world.h"

/** Move a carrying platform (carry and solid) by d like bp_move_by, and its riders (the
 *  entities whose ground it is, and theirs) with it, each through its resolver, their
 *  own state kept (see the top of carry.c for the order). Source: our own
 *  (docs/mechanics.md). */
bp_Status bp_carry_move(bp_World *w, bp_Entity *platform, int swept, const double d[3],
                        double out[3]);

/** After the tick of the entity in `slot`: a ride before its tick moves its previous
 *  position back by the ride, so that drawing between ticks shows it. Source: our own. */
void bp_carry_tick_end(bp_World *w, uint32_t slot);

#endif
