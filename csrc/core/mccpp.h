/* SPDX-License-Identifier: MIT
 * mccpp.h - one update of the MC-CPP rules (mccpp.c).
 */
#ifndef BP_CORE_MCCPP_H
#define BP_CORE_MCCPP_H

#include "bp_world.h"

/** One MC-CPP update of dt seconds (> 0, finite: checked by the caller) for entity
 *  slot `index`: bp_tick_mccpp_exact unless rules.integrator is "mccpp", which runs
 *  the documents' update (docs/mccpp.md, "Physics Update Loop"): prev,
 *  step_offset rise, input acceleration x friction vector x dt (heading hook: k =
 *  walk_speed, result in b/s^2), jump (or the jump hook), move by rules.resolver,
 *  gravity, clamped decay, then the Beta push when rules.push is "beta173". Returns
 *  nonzero if a hook aborted or a heading hook's change passed BP_MAX_MOVE
 *  (bp_heading_over_limit). No liquids, no ladders with "mccpp". */
int bp_tick_mccpp(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks);

/** One MC-CPP update of dt seconds with the "exact" integrator (mccpp_exact.c, the
 *  default): prev, step_offset rise, then ceil(dt / max_dt) equal substeps (at most
 *  1024), each ended early where the entity enters or leaves water, lava or a ladder,
 *  meets a wall in liquid or on a ladder, or lands or meets a ceiling (found by
 *  bisection; at most 2 + 2 times per substep). Each piece: Beta's water, lava and
 *  ladder tests (e->in_water, e->in_lava), the heading (native or the hook, with k =
 *  walk_speed, water_speed or lava_speed: its result is the target horizontal velocity
 *  in b/s), the jump (native or the hook) while jumping, the state's ODE per axis
 *  (flying, water, lava, ladder, grounded, rising, falling) solved exactly, the move by
 *  the displacement with rules.resolver, then the breach (liquid) or the ladder climb;
 *  the Beta push at the end when rules.push is "beta173". Hooks run once per piece.
 *  Units: blocks, seconds, b/s. Returns nonzero as bp_tick_mccpp. Sources: the constants from docs/mccpp.md at
 *  rules.reference_dt (rates -ln(1 - f tau) / tau, the walking speed, the 60-fps
 *  terminal fall speed and jump apex); liquids and ladders derived from Beta 1.7.3's
 *  per-tick constants at 20 ticks/s (docs/beta173.md sections 2, 5, 8); the
 *  substeps and the exact solution: our own. */
int bp_tick_mccpp_exact(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks);

/** The launch speed (b/s) of the "exact" integrator's jump: sqrt(2 g (jump_height +
 *  o)), o the documents' explicit-Euler apex overshoot at frame time rules.reference_dt
 *  (0.0753 blocks at 1/60 s), so that its exact parabola peaks where the documents' jump
 *  does at that frame rate (1.3253 blocks with the defaults: 9.2098 b/s); 0 unless
 *  2 jump_height gravity > 0. Source: derived from docs/mccpp.md
 *  (our own). */
double bp_jump_speed_mccpp(const bp_Rules *r);

#endif
