/* SPDX-License-Identifier: MIT
 * move_limits.h - the velocity limits that keep every step's work bounded
 * (move_limits.c, a leaf shared by the step, the ticks and the pushes). Plain values
 * in and out, so that it needs no world; bp_heading_over_limit notes its result in
 * the world inline.
 */
#ifndef BP_CORE_MOVE_LIMITS_H
#define BP_CORE_MOVE_LIMITS_H

#include <stdint.h>

#include "bp_world.h"

/** The displacement d (blocks) that a tick's move makes for the wanted v: v clamped to
 *  BP_MAX_MOVE per axis. The step's pre-check bounds each velocity, the binding bounds
 *  what Lua code writes during the step, and a heading hook's change is bounded where it
 *  is added (bp_over_limit); what the rules' own acceleration adds on top (MC-CPP
 *  over a large dt) is clamped here. Source: our own (docs/api.md, "Stepping"). */
void bp_tick_displacement(const double v[3], double d[3]);

/** The largest |v| with |v| x scale <= BP_MAX_MOVE: the step's pre-check for a step
 *  of `scale` (dt seconds for per-second rules, 1 for per-tick ones). BP_MAX_MOVE /
 *  scale may round so that multiplied by scale again it exceeds BP_MAX_MOVE. Source:
 *  our own. */
double bp_velocity_limit(double scale);

/** Clamps each component of the velocity v to [-limit, limit], limit being the
 *  step's bp_velocity_limit for the entity's model (bp_World.vel_limit). Applied after
 *  each tick and each push, so that what the rules, a heading hook or a push add on top
 *  of legal values never stops the next step of the same dt. Units: blocks/tick (Beta)
 *  or blocks/s (MC-CPP). Source: our own (docs/api.md, "Stepping"). */
void bp_clamp_velocity(double limit, double v[3]);

/** Whether a heading hook's change of the tick displacement, (c0, c2) blocks, passes
 *  BP_MAX_MOVE on either axis: then 1 with the larger |component| in *by (the step
 *  fails), else 0. Source: our own. */
int bp_over_limit(double c0, double c2, double *by);

/** bp_over_limit for the heading hook of entity slot `index`: when over, notes it in
 *  w->over_limit (slot + 1) and w->over_by for the step's message and returns 1.
 *  Source: our own. */
static inline int bp_heading_over_limit(bp_World *w, uint32_t index, double c0, double c2)
{
	double by;
	if (!bp_over_limit(c0, c2, &by))
		return 0;
	w->over_limit = index + 1;
	w->over_by = by;
	return 1;
}

#endif
