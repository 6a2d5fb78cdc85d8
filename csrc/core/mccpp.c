/* SPDX-License-Identifier: MIT
 * mccpp.c - one MC-CPP update of dt seconds for one entity. With integrator "exact"
 * (the default) mccpp_exact.c runs it; with integrator "mccpp" the documents' own
 * (docs/mccpp.md, "Physics Update Loop") runs here: save the previous
 * position, camera smoothing, input acceleration scaled by the friction / drag
 * vector of the state, jump, the move by the entity's resolver, gravity, and the
 * clamped velocity decay with the friction / drag vector of the new state.
 * The documents have no water, lava or ladders: with "mccpp" liquid blocks have no
 * boxes, so these entities pass through them and in_water / in_lava stay false
 * (docs/mccpp.md). The native heading and jump stages: mccpp_stages.c.
 */
#include "mccpp.h"
#include "bp_world.h"
#include "move.h"
#include "move_limits.h"
#include "push.h"

#include <math.h>

/* get_friction_vector: flying, grounded, rising or falling. */
static const double *friction_vector(const bp_Entity *e, const bp_EntityInput *in)
{
	const bp_Rules *r = &e->rules;
	if (in->flying)
		return r->drag_fly;
	if (e->on_ground)
		return r->friction;
	return e->vel[1] > 0 ? r->drag_jump : r->drag_fall;
}

/* Velocity decay of one axis, clamped so that it never crosses zero. */
static double decay(double v, double f, double dt)
{
	double d = v * f * dt;
	return fabs(d) > fabs(v) ? 0.0 : v - d;
}

/* The resolver of the rules, within the limit (bp_tick_displacement; the step's
 * pre-check bounds vel * dt before the acceleration and the jump). */
static void resolve(bp_World *w, bp_Entity *e, double dt)
{
	double v[3], d[3], out[3];
	for (int a = 0; a < 3; a++)
		v[a] = e->vel[a] * dt;
	bp_tick_displacement(v, d);
	w->move_seconds = dt;
	bp_move(w, e, d, out);
}

/* Steps 3 and the jump: acceleration (native or the heading hook) times the state's
 * friction vector times dt, then the jump (native or the jump hook). */
static int input(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks)
{
	bp_Entity *e = &w->entities.items[index];
	const bp_EntityInput *in = &w->entities.input[index];
	double acc[2];
	const int hooked = e->rules.hook_heading && hooks && hooks->heading;
	if (hooked) {
		if (hooks->heading(hooks->ctx, w, index, in->strafe, in->forward, e->rules.walk_speed,
		                   acc))
			return 1;
		e = &w->entities.items[index];
	} else {
		bp_heading_mccpp(in->yaw, in->strafe, in->forward, e->rules.walk_speed, acc);
	}
	const double *f = friction_vector(e, in);
	if (hooked && bp_heading_over_limit(w, index, acc[0] * f[0] * dt * dt,
	                                    acc[1] * f[2] * dt * dt))
		return 1;
	e->vel[0] += acc[0] * f[0] * dt;
	e->vel[2] += acc[1] * f[2] * dt;
	if (!bp_input_jump(in))
		return 0;
	if (e->rules.hook_jump && hooks && hooks->jump)
		return hooks->jump(hooks->ctx, w, index);
	bp_jump_mccpp(e);
	return 0;
}

int bp_tick_mccpp(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks)
{
	bp_Entity *e = &w->entities.items[index];
	if (e->rules.integrator != BP_INTEGRATOR_MCCPP)
		return bp_tick_mccpp_exact(w, index, dt, hooks);
	bp_entity_position(e, e->prev);
	if (e->step_offset < 0)
		e->step_offset = fmin(0.0, e->step_offset + dt * e->rules.camera_rise);
	e->in_water = e->in_lava = 0;
	if (input(w, index, dt, hooks))
		return 1;
	e = &w->entities.items[index];
	resolve(w, e, dt);
	const bp_Rules *r = &e->rules;
	const bp_EntityInput *in = &w->entities.input[index];
	if (!in->flying)
		e->vel[1] -= r->gravity * dt;
	const double *f = friction_vector(e, in);
	for (int a = 0; a < 3; a++)
		e->vel[a] = decay(e->vel[a], f[a], dt);
	if (r->push == BP_PUSH_BETA173)
		bp_push_beta173(w, index);
	return 0;
}
