/* SPDX-License-Identifier: MIT
 * mccpp.h - one update of the MC-CPP rules (mccpp.c).
 */
#ifndef BP_CORE_MCCPP_H
#define BP_CORE_MCCPP_H

#include "bp_world.h"

/** One MC-CPP update of dt seconds (> 0, finite: checked by the caller) for entity
 *  slot `index` (sources/mccpp-entity-physics.txt, "Physics Update Loop"): prev,
 *  step_offset rise, input acceleration x friction vector x dt (heading hook: k =
 *  walk_speed, result in b/s^2), jump (or the jump hook), move by rules.resolver,
 *  gravity, clamped decay, then the Beta push when rules.push is "beta173". Returns
 *  nonzero if a hook aborted or a heading hook's change passed BP_MAX_MOVE
 *  (bp_heading_over_limit). No liquids. */
int bp_tick_mccpp(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks);

#endif
