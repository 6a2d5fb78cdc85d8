/* SPDX-License-Identifier: MIT
 * beta173.c - one tick of the Beta 1.7.3 rules for one entity: input, jump,
 * heading, water / lava / ground-or-air branches, ladders, gravity, drag, friction
 * (docs/beta173.md sections 0, 1, 2, 5, 8). Where the game computes in
 * Java float (friction factor, acceleration, moveFlying) we compute in float too,
 * so that velocities match the game's; everything else is double.
 */
#include "beta173.h"
#include "move.h"
#include "bp_world.h"
#include "beta173_flow.h"
#include "beta173_push_out.h"
#include "chunk.h"
#include "liquid.h"
#include "move_limits.h"
#include "push.h"
#include "query.h"
#include "solid.h"

#include <math.h>

#define TWO_PI 6.283185307179586

/* MathHelper's 65,536-entry float sine table, indexed as the game does. */
static float table_sin(double yaw, float phase)
{
	float rad = (float)yaw * 3.1415927f / 180.0f;
	float t = rad * 10430.378f + phase;
	int32_t i;
	if (!(t > -2147483648.0f)) /* Java saturates; C would be undefined */
		i = INT32_MIN;
	else if (t >= 2147483648.0f)
		i = INT32_MAX;
	else
		i = (int32_t)t;
	uint32_t idx = (uint32_t)i & 0xFFFFu;
	return (float)sin((double)idx * TWO_PI / 65536.0);
}

/* Table sine and cosine of the entity's yaw, cached until the yaw changes. */
static void yaw_trig(bp_Entity *e, double yaw, float *s, float *c)
{
	if (!e->trig_valid || e->trig_yaw != yaw) {
		e->trig_sin = table_sin(yaw, 0.0f);
		e->trig_cos = table_sin(yaw, 16384.0f);
		e->trig_yaw = yaw;
		e->trig_valid = 1;
	}
	*s = e->trig_sin;
	*c = e->trig_cos;
}

void bp_heading_beta173(bp_Entity *e, double yaw, float strafe, float forward, float k,
                        double dv[2])
{
	float len = sqrtf(strafe * strafe + forward * forward);
	dv[0] = dv[1] = 0;
	if (len < 0.01f)
		return;
	if (len < 1.0f)
		len = 1.0f;
	len = k / len;
	strafe *= len;
	forward *= len;
	float s, c;
	yaw_trig(e, yaw, &s, &c);
	dv[0] = (double)(strafe * c - forward * s);
	dv[1] = (double)(forward * c + strafe * s);
}

/* Run the heading stage (native or the Lua hook) and add it to the velocity. */
static int apply_heading(bp_World *w, uint32_t index, float strafe, float forward, float k,
                         const bp_Hooks *hooks)
{
	bp_Entity *e = &w->entities.items[index];
	double dv[2];
	if (e->rules.hook_heading && hooks && hooks->heading) {
		if (hooks->heading(hooks->ctx, w, index, strafe, forward, k, dv) ||
		    bp_heading_over_limit(w, index, dv[0], dv[1]))
			return 1;
		e = &w->entities.items[index];
	} else {
		bp_heading_beta173(e, w->entities.input[index].yaw, strafe, forward, k, dv);
	}
	e->vel[0] += dv[0];
	e->vel[2] += dv[1];
	return 0;
}

/* Beta's handleWaterMovement (liquid.h): any water in its test box's range puts the
 * entity in water, and the current of that water (flow.c) adds water_current along
 * its direction to the velocity (section 5). */
static int water_test(bp_World *w, bp_Entity *e)
{
	if (!bp_in_water(w, e))
		return 0;
	double flow[3];
	const bp_AABB t = bp_water_test_box(&e->box, &e->rules);
	if (e->rules.water_current != 0 && bp_world_water_flow(w, &t, flow)) {
		for (int a = 0; a < 3; a++)
			e->vel[a] += flow[a] * e->rules.water_current;
	}
	return 1;
}

/* Friction factor f: slipperiness of the block under floor(minY) - 1 times 0.91F
 * on the ground, 0.91F in the air (float products, as in the game). */
static float friction_factor(bp_World *w, const bp_Entity *e)
{
	const bp_Rules *r = &e->rules;
	if (!e->on_ground)
		return (float)r->air_friction;
	double pos[3];
	bp_entity_position(e, pos);
	const bp_BlockType *t =
	    bp_world_type_at_cached(w, &e->gather, pos[0], floor(e->box.lo[1]) - 1, pos[2]);
	float slip = (float)(t == &w->types[0] ? r->default_slipperiness : t->slipperiness);
	return slip * (float)r->air_friction;
}

/* The start of moveEntity after touching a web (section 2, Cobweb): the displacement
 * scaled, all motion zeroed, the flag cleared. */
static void web_slow(bp_Entity *e, const double v[3], double d[3])
{
	const bp_Rules *r = &e->rules;
	d[0] = v[0] * r->web_factor_xz;
	d[1] = v[1] * r->web_factor_y;
	d[2] = v[2] * r->web_factor_xz;
	e->vel[0] = e->vel[1] = e->vel[2] = 0;
	e->in_web = 0;
}

/* Cells [lo, hi] of the box shrunk by 0.001 on every side (Beta's floor(min + 0.001)
 * .. floor(max - 0.001)), clamped to int32 (beyond it all is air). 0 if none (or a NaN
 * box). Casts where the box lies within +-2^30 (every box in practice): libm's floor
 * costs more on baseline x86-64. */
static int touch_cells(const bp_AABB *b, int32_t lo[3], int32_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		const double l = b->lo[a] + 0.001, h = b->hi[a] - 0.001;
		if (l > -0x1p30 && h < 0x1p30) {
			lo[a] = (int32_t)l;
			lo[a] -= (double)lo[a] > l;
			hi[a] = (int32_t)h;
			hi[a] -= (double)hi[a] > h;
		} else {
			const double fl = floor(l), fh = floor(h);
			if (!(fl <= fh) || fh < INT32_MIN || fl > INT32_MAX)
				return 0;
			lo[a] = (int32_t)fmax(fl, INT32_MIN);
			hi[a] = (int32_t)fmin(fh, INT32_MAX);
		}
		if (lo[a] > hi[a])
			return 0;
	}
	return 1;
}

/* The end of moveEntity (section 3e): onEntityCollidedWithBlock for each cell of the
 * box shrunk by 0.001 on every side, X then Y then Z as the game loops. Soul sand
 * scales the X/Z velocity (per cell touched: the factors multiply), a web sets the
 * flag for the next move. The cells are read only when neither the move's gather
 * cache nor the chunks they lie in rule such blocks out. */
static void touch_blocks(bp_World *w, bp_Entity *e)
{
	int32_t lo[3], hi[3];
	if (bp_gather_touch_free(w, &e->gather, &e->box) || !touch_cells(&e->box, lo, hi) ||
	    !bp_world_touch_near(w, lo, hi))
		return;
	for (int64_t x = lo[0]; x <= hi[0]; x++)
		for (int64_t y = lo[1]; y <= hi[1]; y++)
			for (int64_t z = lo[2]; z <= hi[2]; z++) {
				const bp_BlockType *t = &w->types[bp_world_get_block(
				    w, (int32_t)x, (int32_t)y, (int32_t)z)];
				if (t->velocity_factor != 1) {
					e->vel[0] *= t->velocity_factor;
					e->vel[2] *= t->velocity_factor;
				}
				e->in_web |= t->web;
			}
}

/* The resolver chosen by the rules, within the limit (bp_tick_displacement). */
static void move(bp_World *w, bp_Entity *e, const double v[3])
{
	double d[3], out[3];
	/* A copy: v is often e->vel, which the move zeroes on the stopped axes. */
	if (!(fabs(v[0]) <= BP_MAX_MOVE && fabs(v[1]) <= BP_MAX_MOVE && fabs(v[2]) <= BP_MAX_MOVE)) {
		bp_tick_displacement(v, d); /* rare: clamp to the limit */
	} else {
		d[0] = v[0];
		d[1] = v[1];
		d[2] = v[2];
	}
	bp_move(w, e, d, out);
}

/* moveEntity where a web or a touched block may act: the move inside the web
 * slowdown and the touched blocks' effects (kept out of the common path). */
static void move_touching(bp_World *w, bp_Entity *e, const double v[3])
{
	double d[3];
	if (e->in_web) {
		web_slow(e, v, d); /* v may be e->vel, which this zeroes: d holds the move */
		v = d;
	}
	move(w, e, v);
	if (w->has_touch)
		touch_blocks(w, e);
}

/* moveEntity (docs/beta173.md section 3) for the Beta tick. */
static void resolve(bp_World *w, bp_Entity *e, const double v[3])
{
	if (e->in_web | w->has_touch)
		move_touching(w, e, v);
	else
		move(w, e, v);
}

/* Water and lava branch (section 2): accelerate, move, drag, gravity, breach.
 * ys0: ySize at the end of the last move (before this tick's sneak raise). The
 * breach probe uses the game's posY = minY - ySize (yOffset 0), set by each move,
 * so a change of ySize (sneak dip, step) shifts the probe as in the game. */
static int liquid_move(bp_World *w, uint32_t index, float strafe, float forward,
                       const bp_Hooks *hooks, int lava, double ys0)
{
	bp_Entity *e = &w->entities.items[index];
	const double y0 = e->box.lo[1] - ys0;
	const double accel = lava ? e->rules.lava_accel : e->rules.water_accel;
	if (apply_heading(w, index, strafe, forward, (float)accel, hooks))
		return 1;
	e = &w->entities.items[index];
	const bp_Rules *r = &e->rules;
	resolve(w, e, e->vel);
	const double drag = lava ? r->lava_drag : r->water_drag;
	for (int a = 0; a < 3; a++)
		e->vel[a] *= drag;
	e->vel[1] -= lava ? r->lava_gravity : r->water_gravity;
	/* ((motionY + 0.6F) - posY) + posY_before, in the game's order */
	double rise = e->vel[1] + r->breach_height - (e->box.lo[1] - e->y_size) + y0;
	if (e->coll_h && bp_offset_free(w, e, e->vel[0], rise, e->vel[2]))
		e->vel[1] = r->breach_impulse;
	return 0;
}

/* Ground or air branch with ladders (section 2 and 8). */
static int land_move(bp_World *w, uint32_t index, float strafe, float forward,
                     const bp_Hooks *hooks)
{
	bp_Entity *e = &w->entities.items[index];
	const bp_Rules *r = &e->rules;
	float f = friction_factor(w, e);
	float k = (float)r->accel_factor / (f * f * f);
	float accel = e->on_ground ? (float)r->ground_accel * k : (float)r->air_accel;
	/* A friction factor whose cube is 0 in float (a slipperiness or air_friction of 0,
	 * which the game's constants never are) would divide by zero: no acceleration. */
	if (!isfinite(accel))
		accel = 0;
	/* f2: computed before the move too, so the jump tick uses ground friction. */
	const float f2 = f;
	if (apply_heading(w, index, strafe, forward, accel, hooks))
		return 1;
	e = &w->entities.items[index];
	r = &e->rules;
	if (bp_on_ladder(w, e)) {
		/* The game's two compares, not fmin/fmax: with ladder_speed 0 those would pick
		 * between -0 and +0 as each build likes (C leaves it unspecified), and the
		 * compares keep the velocity's own zero, as the game does. */
		for (int a = 0; a < 3; a += 2) {
			if (e->vel[a] < -r->ladder_speed)
				e->vel[a] = -r->ladder_speed;
			if (e->vel[a] > r->ladder_speed)
				e->vel[a] = r->ladder_speed;
		}
		e->fall_distance = 0;
		if (e->vel[1] < -r->ladder_descent)
			e->vel[1] = -r->ladder_descent;
		if (w->entities.input[index].sneaking && e->vel[1] < 0)
			e->vel[1] = 0;
	}
	resolve(w, e, e->vel);
	if (e->coll_h && bp_on_ladder(w, e))
		e->vel[1] = r->ladder_climb;
	e->vel[1] -= r->gravity;
	e->vel[1] *= r->vertical_drag;
	e->vel[0] *= (double)f2;
	e->vel[2] *= (double)f2;
	return 0;
}

void bp_jump_beta173(bp_Entity *e)
{
	if (e->in_water || e->in_lava)
		e->vel[1] += e->rules.liquid_jump;
	else if (e->on_ground)
		e->vel[1] = e->rules.jump_impulse;
}

bp_Status bp_knockback_beta173(bp_Entity *e, double dx, double dz)
{
	const float len = (float)sqrt(dx * dx + dz * dz); /* MathHelper.sqrt_double */
	if (!(len > 0 && isfinite(len)))
		return BP_EINVAL;
	const bp_Rules *r = &e->rules;
	for (int a = 0; a < 3; a++)
		e->vel[a] /= 2;
	e->vel[0] += dx / (double)len * r->knockback;
	e->vel[1] += r->knockback;
	e->vel[2] += dz / (double)len * r->knockback;
	if (e->vel[1] > r->knockback_max_vy)
		e->vel[1] = r->knockback_max_vy;
	return BP_OK;
}

int bp_tick_beta173(bp_World *w, uint32_t index, const bp_Hooks *hooks)
{
	bp_Entity *e = &w->entities.items[index];
	const bp_Rules *r = &e->rules;
	bp_entity_position(e, e->prev);
	/* Camera smoothing after a swept step assist (resolver = "swept"; per tick). */
	if (e->step_offset < 0)
		e->step_offset = fmin(0.0, e->step_offset + r->camera_rise);
	/* onEntityUpdate: water flag (and fall reset) before any input. */
	e->in_water = (uint8_t)water_test(w, e);
	if (e->in_water)
		e->fall_distance = 0;
	const bp_EntityInput *in = &w->entities.input[index];
	float strafe = (float)in->strafe, forward = (float)in->forward;
	const double ys0 = e->y_size; /* posY still carries this until the move */
	if (in->sneaking) {
		strafe = (float)(strafe * r->sneak_factor);
		forward = (float)(forward * r->sneak_factor);
		if (e->y_size < r->sneak_camera)
			e->y_size = r->sneak_camera;
	}
	if (r->push_out_of_blocks)
		bp_push_out_of_blocks(w, e);
	e->in_lava = (uint8_t)bp_in_lava(w, e);
	if (bp_input_jump(in)) {
		if (r->hook_jump && hooks && hooks->jump) {
			if (hooks->jump(hooks->ctx, w, index))
				return 1;
			e = &w->entities.items[index];
			r = &e->rules;
		} else {
			bp_jump_beta173(e);
		}
	}
	strafe *= (float)r->input_damping;
	forward *= (float)r->input_damping;
	int rc;
	if (e->in_water)
		rc = liquid_move(w, index, strafe, forward, hooks, 0, ys0);
	else if (bp_in_lava(w, e))
		rc = liquid_move(w, index, strafe, forward, hooks, 1, ys0);
	else
		rc = land_move(w, index, strafe, forward, hooks);
	if (rc)
		return rc;
	e = &w->entities.items[index];
	if (e->rules.push == BP_PUSH_BETA173)
		bp_push_beta173(w, index);
	return 0;
}
