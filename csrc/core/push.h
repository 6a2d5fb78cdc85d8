/* SPDX-License-Identifier: MIT
 * push.h - entity pushing after the moves (push.c).
 */
#ifndef BP_CORE_PUSH_H
#define BP_CORE_PUSH_H

#include "bp_world.h"

/** Beta velocity push of entity slot `index` (after its move) against every neighbour
 *  whose box overlaps its box grown by rules.push_radius on X/Z: both velocities change
 *  by push_strength along the Chebyshev-normalised offset (blocks/tick), nothing below
 *  push_threshold. Filters apply (a failure sets w->hook_failed). Source:
 *  docs/beta173.md section 6. */
void bp_push_beta173(bp_World *w, uint32_t index);
/** Positional separation of all "separate" entities after the moves: circles of radius
 *  width/2 on X/Z, half the overlap each, applied through the per-axis clip; stable
 *  entities also gain displacement/dt as velocity, capped by max(max_push_speed, prior
 *  speed). Then, while a pair overlaps by more than rules.separate_tolerance (blocks),
 *  extra passes (up to rules.separate_iterations in all) move positions only, each
 *  pair's direction turned by a fixed hash angle (our own). dt: seconds for MC-CPP
 *  entities, one tick for Beta ones. order[0 .. norder): the entities it visits in
 *  creation order (the awake ones: a sleeper overlaps nothing). Stops early if a filter
 *  failed (w->hook_failed). Source: docs/entities.md ("separate", "Push models"). */
void bp_push_separate(bp_World *w, double dt, const uint32_t *order, uint32_t norder);

#endif
