/* SPDX-License-Identifier: MIT
 * lentity.c - the Entity type: its methods (e:move and e:move_swept are in lstep.c,
 * the fields in lfields.c) and the World methods that make, remove and list entities.
 */

/***
 * Entities, made by World:spawn.
 * @module blockphys.core
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "lbp.h"

/* ------------------------------------------------------------------ methods */

/***
 * The feet position: centre of the bottom face of the box (blocks). Same as e.x, e.y, e.z.
 * Source: docs/architecture.md section 1.
 * @function Entity:position
 * @treturn number x, y, z
 * @raise "... (entity has been removed)" or "(entity belongs to a destroyed world)"
 *   (every Entity method but valid raises these for a dead entity).
 */
static int l_entity_position(lua_State *L)
{
	double p[3];
	bp_entity_position(lbp_check_entity(L, 1), p);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, p[a]);
	return 3;
}

/***
 * The velocity: blocks/tick under Beta rules, blocks/s under MC-CPP rules. Source:
 * docs/architecture.md section 1 (units).
 * @function Entity:velocity
 * @treturn number vx, vy, vz
 * @raise as Entity:position for a dead entity.
 */
static int l_entity_velocity(lua_State *L)
{
	bp_Entity *e = lbp_check_entity(L, 1);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, bp_entity_vel(e)[a]);
	return 3;
}

/***
 * A copy of the entity's box (world space, blocks): the ground truth of its position.
 * Source: "Minecraft-style collision" (docs/sources.md) (the box as ground truth), docs/architecture.md
 * section 1.
 * @function Entity:box
 * @treturn Collider
 * @raise as Entity:position for a dead entity.
 */
static int l_entity_box(lua_State *L)
{
	lbp_push_collider(L, bp_entity_box(lbp_check_entity(L, 1)));
	return 1;
}

static void check_position(lua_State *L, int i, double p[3])
{
	for (int a = 0; a < 3; a++) {
		p[a] = lbp_check_finite(L, i + a);
		if (fabs(p[a]) > BP_MAX_COORD)
			luaL_argerror(L, i + a, "position outside the world (|coordinate| > 2147482000)");
	}
}

/***
 * Put the feet at (x, y, z) without collision. Also sets the previous position (no lerp
 * jump), clears on_ground, fall_distance and landing_fall; velocity is kept. Allowed inside a hook.
 * Source: our own.
 * @function Entity:teleport
 * @tparam number x blocks, finite, |v| <= limits.max_coord
 * @tparam number y blocks, finite, |v| <= limits.max_coord
 * @tparam number z blocks, finite, |v| <= limits.max_coord
 * @raise "bad argument #n to 'teleport' (position outside the world (|coordinate| >
 *   2147482000))", "(number must be finite)"; dead entity errors.
 */
static int l_entity_teleport(lua_State *L)
{
	bp_World *w;
	lbp_check_entity_w(L, 1, &w);
	double p[3];
	check_position(L, 2, p);
	/* the previous position too, on_ground, fall and contacts cleared (api.c) */
	bp_entity_teleport(w, ((LEntity *)lua_touserdata(L, 1))->id, p);
	return 0;
}

/* An input axis at stack index i: a finite number in [-1, 1]. */
static double check_input_axis(lua_State *L, int i, const char *name)
{
	const double v = lbp_check_finite(L, i);
	if (!(v >= -1 && v <= 1))
		luaL_argerror(L, i, lua_pushfstring(L, "%s must be in [-1, 1]", name));
	return v;
}

/* An input flag at stack index i: a boolean, or nil for false. */
static uint8_t check_input_flag(lua_State *L, int i)
{
	if (!lua_isnoneornil(L, i) && !lua_isboolean(L, i))
		luaL_typeerror(L, i, "boolean or nil");
	return (uint8_t)lua_toboolean(L, i);
}

/***
 * Set the five inputs of a tick in one call, as the fields forward, strafe, yaw,
 * jumping and sneaking (kept until changed): for an input loop over many entities.
 * Every argument is checked before any input changes. Allowed inside a hook. Source:
 * our own.
 * @function Entity:set_input
 * @tparam number forward in [-1, 1] (toward the yaw's facing)
 * @tparam number strafe in [-1, 1] (> 0 is left)
 * @tparam number yaw degrees (0 faces +Z), finite
 * @tparam[opt] boolean jumping nil for false
 * @tparam[opt] boolean sneaking nil for false
 * @raise "bad argument #1 to 'set_input' (forward must be in [-1, 1])" (strafe #2),
 *   "(number must be finite)", "(number expected, got T)", "bad argument #4 to
 *   'set_input' (boolean or nil expected, got T)" (sneaking #5); dead entity errors.
 */
static int l_entity_set_input(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = lbp_check_entity_w(L, 1, &w);
	const double forward = check_input_axis(L, 2, "forward");
	const double strafe = check_input_axis(L, 3, "strafe");
	const double yaw = lbp_check_finite(L, 4);
	const uint8_t jumping = check_input_flag(L, 5), sneaking = check_input_flag(L, 6);
	bp_EntityInput *in = bp_entity_input(w, e);
	const bp_EntityInput before = *in;
	in->forward = forward;
	in->strafe = strafe;
	in->yaw = yaw;
	bp_input_set_jumping(in, jumping);
	in->sneaking = sneaking;
	bp_entity_input_changed(w, e, &before); /* a sleeper wakes if they changed */
	return 0;
}

/* An optional max_distance at stack index i for depenetration (blocks). */
static double check_depenetrate_distance(lua_State *L, int i)
{
	const double max = lbp_opt_finite(L, i, 1.0);
	if (!(max >= 0 && max <= BP_MAX_DEPENETRATE))
		luaL_argerror(L, i, "max_distance must be in [0, 16] blocks");
	return max;
}

/* Raise the failure of a depenetration (fn: the method's name). */
static void raise_depenetrate(lua_State *L, bp_Status st, const char *fn)
{
	if (st == BP_ELIMIT)
		luaL_error(L, "%s: more than %d candidate positions within max_distance", fn,
		           BP_MAX_DEPENETRATE_TRIES);
	lbp_raise_status(L, st);
}

/***
 * Move the entity out of whatever its box overlaps (block shapes, static colliders,
 * solid entities it interacts with by group and mask; filter functions are not
 * called), by the shortest translation within max_distance, and return it. Touching
 * is allowed. Ties in length: up before down (positive first on each axis), then Y
 * before X before Z. The previous position moves along, so lerp does not slide.
 * Allowed inside a hook. Source: our own (docs/entities.md, "Depenetration").
 * @function Entity:depenetrate
 * @tparam[opt=1] number max_distance blocks, in [0, 16]
 * @treturn[1] number dx, dy, dz the translation (0, 0, 0 when nothing overlaps)
 * @return[2] nil when no free position lies within max_distance (nothing moves)
 * @raise "bad argument #1 to 'depenetrate' (max_distance must be in [0, 16] blocks)",
 *   "(number must be finite)"; "depenetrate: more than 65536 candidate positions within
 *   max_distance"; "not enough memory"; dead entity errors.
 */
static int l_entity_depenetrate(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = lbp_check_entity_w(L, 1, &w);
	const double max = check_depenetrate_distance(L, 2);
	double d[3];
	int found;
	bp_entity_touch(w, e); /* it and the sleepers near it wake, before and after */
	bp_Status st = bp_entity_depenetrate(w, ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1,
	                                     max, d, &found);
	bp_entity_touch(w, bp_world_slot_entity(w, ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1));
	if (st != BP_OK)
		raise_depenetrate(L, st, "depenetrate");
	if (!found) {
		lua_pushnil(L);
		return 1;
	}
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, d[a] + 0.0); /* no -0 */
	return 3;
}

/***
 * The nearest free place for a box of the given size (as an entity's: the feet at
 * the centre of its bottom face) to the feet position (x, y, z): where it overlaps no
 * block shape, static collider or solid entity (touching allowed), within
 * max_distance. As Entity:depenetrate for a spawn point. Moves nothing. Source: our
 * own (docs/entities.md, "Depenetration").
 * @function World:free_position
 * @tparam number x the feet position (blocks)
 * @tparam number y the feet position (blocks)
 * @tparam number z the feet position (blocks)
 * @tparam number width blocks, in (0, 16]
 * @tparam number height blocks, in (0, 32]
 * @tparam[opt=1] number max_distance blocks, in [0, 16]
 * @treturn[1] number x, y, z the free feet position (the same when already free)
 * @return[2] nil when none lies within max_distance
 * @raise "bad argument #n to 'free_position' (position outside the world (|coordinate|
 *   > 2147482000))", "(width must be in (0, 16] blocks)", "(height must be in (0, 32]
 *   blocks)", "(max_distance must be in [0, 16] blocks)", "(number must be finite)";
 *   "free_position: more than 65536 candidate positions within max_distance"; "not
 *   enough memory".
 */
static int l_world_free_position(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	double p[3];
	check_position(L, 2, p);
	const double width = lbp_check_finite(L, 5), height = lbp_check_finite(L, 6);
	if (!(width > 0 && width <= BP_MAX_ENTITY_WIDTH))
		luaL_argerror(L, 5, "width must be in (0, 16] blocks");
	if (!(height > 0 && height <= BP_MAX_ENTITY_HEIGHT))
		luaL_argerror(L, 6, "height must be in (0, 32] blocks");
	const double max = check_depenetrate_distance(L, 7);
	const double h = width / 2;
	const bp_AABB box = bp_aabb_make(p[0] - h, p[1], p[2] - h, p[0] + h, p[1] + height, p[2] + h);
	double d[3];
	int found;
	bp_Status st = bp_world_depenetrate(w, NULL, &box, max, d, &found);
	if (st != BP_OK)
		raise_depenetrate(L, st, "free_position");
	if (!found) {
		lua_pushnil(L);
		return 1;
	}
	const bp_AABB to = bp_aabb_offset(&box, d[0], d[1], d[2]);
	lua_pushnumber(L, (to.lo[0] + to.hi[0]) / 2);
	lua_pushnumber(L, to.lo[1]);
	lua_pushnumber(L, (to.lo[2] + to.hi[2]) / 2);
	return 3;
}

/***
 * Knock the entity back, as Beta's EntityLiving.knockBack: all velocity halved, then
 * the X/Z velocity pushed by `rules.knockback` (0.4F b/t) along (dx, dz) (divided by
 * its length as a Java float, as the game does), vy raised by `rules.knockback` and
 * capped at `rules.knockback_max_vy` (0.4F). Allowed inside a hook. Source:
 * docs/beta173.md section 2 ("Knockback").
 * @function Entity:knockback
 * @tparam number dx the direction of the push (away from the
 * @tparam number dz the direction of the push (away from the
 *   attacker; any length), finite
 * @raise "bad argument #n to 'knockback' (number must be finite)", "knockback: the
 *   direction (dx, dz) must have a length between about 1e-45 and 3.4e38",
 *   "knockback: needs Beta rules (model beta173), not mccpp"; inside world:step
 *   "knockback: the velocity 'vx' would move the entity X blocks in one tick (at most
 *   1024 per axis inside world:step)" (the velocity stays as it was); dead entity errors.
 */
static int l_entity_knockback(lua_State *L)
{
	const double dx = lbp_check_finite(L, 2), dz = lbp_check_finite(L, 3);
	bp_World *w;
	bp_Entity *e = lbp_check_entity_w(L, 1, &w);
	if (bp_entity_rules(e)->model != BP_MODEL_BETA173)
		return luaL_error(L, "knockback: needs Beta rules (model beta173), not %s",
		                  lbp_model_names[bp_entity_rules(e)->model]);
	double before[3];
	memcpy(before, bp_entity_vel(e), sizeof before);
	bp_entity_wake(w, e);
	if (bp_knockback_beta173(e, dx, dz) != BP_OK)
		return luaL_error(L, "knockback: the direction (dx, dz) must have a length "
		                     "between about 1e-45 and 3.4e38");
	lbp_check_changed_velocity(L, w, e, ((LEntity *)lua_touserdata(L, 1))->id.index1, before,
	                       "knockback: the velocity");
	return 0;
}

/* A finite number that a float can hold (|v| <= FLT_MAX: the conversion of a larger
 * double to float is undefined in C), for a Beta stage that computes in float. */
static float check_float(lua_State *L, int i)
{
	double v = lbp_check_finite(L, i);
	if (!(fabs(v) <= FLT_MAX))
		luaL_argerror(L, i, "number must be within the float range (|v| <= 3.4e38)");
	return (float)v;
}

/***
 * The native heading stage of the entity's model for one input, changing nothing: what
 * world:step computes when the rules have no `heading` hook. A hook can call it to wrap
 * the stage (`local dx, dz = e:native_heading(strafe, forward, k)` then change them).
 * Beta rules: moveFlying in float with the game's sine table at e.yaw (strafe, forward
 * and k are rounded to float, as the hook receives them: the same numbers give the
 * same result as the native stage); a velocity change in b/t. MC-CPP rules: the input
 * acceleration in b/s^2 (k = walk_speed in the tick). Source:
 * docs/beta173.md section 1; MC-CPP's entity physics document (docs/sources.md).
 * @function Entity:native_heading
 * @tparam number strafe finite (Beta rules:
 * @tparam number forward finite (Beta rules:
 * @tparam number k finite (Beta rules:
 *   within the float range)
 * @treturn number dvx, dvz
 * @raise "bad argument #n to 'native_heading' (number expected, got T)", "(number must
 *   be finite)", "(number must be within the float range (|v| <= 3.4e38))"; dead entity
 *   errors.
 */
static int l_entity_native_heading(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = lbp_check_entity_w(L, 1, &w);
	double dv[2];
	if (bp_entity_rules(e)->model == BP_MODEL_BETA173) {
		const float s = check_float(L, 2), f = check_float(L, 3), k = check_float(L, 4);
		bp_heading_beta173(e, bp_entity_input(w, e)->yaw, s, f, k, dv);
	} else {
		const double s = lbp_check_finite(L, 2), f = lbp_check_finite(L, 3),
		             k = lbp_check_finite(L, 4);
		bp_heading_mccpp(bp_entity_input(w, e)->yaw, s, f, k, dv);
	}
	lua_pushnumber(L, dv[0]);
	lua_pushnumber(L, dv[1]);
	return 2;
}

/***
 * The native jump stage of the entity's model, as world:step runs it on a tick with
 * jump held when the rules have no `jump` hook; a hook can call it to wrap the stage.
 * Beta rules: in water or lava (e.in_water, e.in_lava: inside a step, this tick's)
 * vy += liquid_jump, else on the ground vy = jump_impulse. MC-CPP rules: on the ground
 * vy = sqrt(2 jump_height gravity). Otherwise nothing. Source:
 * docs/beta173.md section 0; MC-CPP's entity physics document (docs/sources.md).
 * @function Entity:native_jump
 * @raise inside world:step "native_jump: the velocity 'vy' would move the entity X
 *   blocks in one tick (at most 1024 per axis inside world:step)" (vy stays as it
 *   was); dead entity errors.
 */
static int l_entity_native_jump(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = lbp_check_entity_w(L, 1, &w);
	double before[3];
	memcpy(before, bp_entity_vel(e), sizeof before);
	if (bp_entity_rules(e)->model == BP_MODEL_BETA173)
		bp_jump_beta173(e);
	else
		bp_jump_mccpp(e);
	lbp_check_changed_velocity(L, w, e, ((LEntity *)lua_touserdata(L, 1))->id.index1, before,
	                       "native_jump: the velocity");
	return 0;
}

/***
 * Interpolated position for drawing: prev + (current - prev) * alpha, where prev is the
 * position at the start of the last step; alpha = 1 gives the current position exactly
 * (the formula can round it by an ulp). Alpha is not clamped (outside [0, 1]
 * extrapolates). Source: our own.
 * @function Entity:lerp
 * @tparam number alpha finite, usually in [0, 1]
 * @treturn number x, y, z (blocks)
 * @raise "bad argument #1 to 'lerp' (number must be finite)", "(alpha extrapolates past
 *   the finite numbers)" when a coordinate would overflow; dead entity errors.
 */
static int l_entity_lerp(lua_State *L)
{
	bp_Entity *e = lbp_check_entity(L, 1);
	double t = lbp_check_finite(L, 2), p[3], r[3];
	bp_entity_position(e, p);
	for (int a = 0; a < 3; a++) {
		r[a] = t == 1 ? p[a] : bp_entity_prev(e)[a] + (p[a] - bp_entity_prev(e)[a]) * t;
		if (!isfinite(r[a])) /* a huge alpha extrapolates past the doubles */
			return luaL_argerror(L, 2, "alpha extrapolates past the finite numbers");
	}
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, r[a]);
	return 3;
}

/***
 * Whether the entity is alive (not removed, world not destroyed). Never raises for a
 * dead entity. Source: our own.
 * @function Entity:valid
 * @treturn boolean
 */
static int l_entity_valid(lua_State *L)
{
	LEntity *le = lbp_check_entity_ud(L, 1);
	lua_getiuservalue(L, 1, 1);
	LWorld *lw = lua_touserdata(L, -1);
	lua_pushboolean(L, lw && lw->w && bp_world_entity(lw->w, le->id) != NULL);
	return 1;
}

/***
 * `tostring(e)`: "blockphys.Entity slot:generation (x, y, z)" with the slot counted
 * from 1 (the first entity of a world prints "1:1"), or
 * "blockphys.Entity (removed)". Source: our own.
 * @function Entity:__tostring
 * @treturn string
 */
static int l_entity_tostring(lua_State *L)
{
	LEntity *le = lbp_check_entity_ud(L, 1);
	lua_getiuservalue(L, 1, 1);
	LWorld *lw = lua_touserdata(L, -1);
	bp_Entity *e = lw && lw->w ? bp_world_entity(lw->w, le->id) : NULL;
	if (!e) {
		lua_pushliteral(L, "blockphys.Entity (removed)");
		return 1;
	}
	double p[3];
	bp_entity_position(e, p);
	lua_pushfstring(L, "blockphys.Entity %d:%d (%s, %s, %s)", (int)le->id.index1,
	                (int)le->id.generation, lbp_float_text(p[0]).s, lbp_float_text(p[1]).s,
	                lbp_float_text(p[2]).s);
	return 1;
}

/***
 * `e1 == e2`: same handle in the same world. World:entities returns the same userdata
 * for an entity every time, so entities also work as table keys. Source: our own.
 * @function Entity:__eq
 * @tparam Entity e1
 * @tparam Entity e2
 * @treturn boolean
 */
static int l_entity_eq(lua_State *L)
{
	LEntity *a = luaL_testudata(L, 1, ENTITY_MT), *b = luaL_testudata(L, 2, ENTITY_MT);
	int eq = a && b && a->id.index1 == b->id.index1 && a->id.generation == b->id.generation;
	if (eq) {
		lua_getiuservalue(L, 1, 1);
		lua_getiuservalue(L, 2, 1);
		eq = lua_rawequal(L, -1, -2);
	}
	lua_pushboolean(L, eq);
	return 1;
}

/* ------------------------------------------- World: spawn, remove, entities */

static void read_entity_def(lua_State *L, int t, bp_EntityDef *d)
{
	static const char *const keys[] = {"x", "y", "z", "width", "height", "rules", "solid",
	                                   "group", "mask", "yaw", "vx", "vy", "vz", "filter",
	                                   "sensor", "carry", NULL};
	lbp_reject_unknown_keys(L, t, "spawn", keys);
	static const char *const xyz[] = {"x", "y", "z"};
	double *pos[3] = {&d->x, &d->y, &d->z};
	for (int a = 0; a < 3; a++) {
		if (lua_getfield(L, t, xyz[a]) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
			luaL_error(L, "spawn: field '%s' must be a finite number", xyz[a]);
		*pos[a] = lua_tonumber(L, -1);
		if (fabs(*pos[a]) > BP_MAX_COORD)
			luaL_error(L, "spawn: field '%s' is outside the world (|coordinate| > 2147482000)",
			           xyz[a]);
		lua_pop(L, 1);
	}
	if (lua_getfield(L, t, "width") != LUA_TNIL) {
		d->width = lua_tonumber(L, -1);
		if (lua_type(L, -1) != LUA_TNUMBER ||
		    !(d->width > 0 && d->width <= BP_MAX_ENTITY_WIDTH))
			luaL_error(L, "spawn: field 'width' must be a number in (0, 16]");
	}
	if (lua_getfield(L, t, "height") != LUA_TNIL) {
		d->height = lua_tonumber(L, -1);
		if (lua_type(L, -1) != LUA_TNUMBER ||
		    !(d->height > 0 && d->height <= BP_MAX_ENTITY_HEIGHT))
			luaL_error(L, "spawn: field 'height' must be a number in (0, 32]");
	}
	d->solid = (uint8_t)lbp_opt_flag(L, t, "solid", "spawn");
	d->sensor = lbp_opt_flag(L, t, "sensor", "spawn");
	d->carry = lbp_opt_flag(L, t, "carry", "spawn");
	if (d->sensor && d->solid)
		luaL_error(L, "spawn: a sensor cannot be solid (it blocks nothing)");
	static const char *const gm[] = {"group", "mask"};
	uint32_t *gmv[2] = {&d->group, &d->mask};
	for (int i = 0; i < 2; i++) {
		if (lua_getfield(L, t, gm[i]) == LUA_TNIL)
			continue;
		lua_Integer v = lua_tointeger(L, -1);
		if (!lua_isinteger(L, -1) || v < 0 || v > (lua_Integer)UINT32_MAX)
			luaL_error(L, "spawn: field '%s' must be an integer in [0, 2^32)", gm[i]);
		*gmv[i] = (uint32_t)v;
	}
	int ft = lua_getfield(L, t, "filter");
	if (ft != LUA_TNIL && ft != LUA_TFUNCTION)
		luaL_error(L, "spawn: field 'filter' must be a function or nil");
	lua_settop(L, t);
}

/* yaw, vx, vy, vz of a spawn table (validated), and which of them were given. */
static void read_entity_motion(lua_State *L, int t, double v[4], int given[4])
{
	static const char *const keys[] = {"yaw", "vx", "vy", "vz"};
	for (int i = 0; i < 4; i++) {
		lua_getfield(L, t, keys[i]);
		given[i] = !lua_isnil(L, -1);
		v[i] = lua_tonumber(L, -1);
		if (given[i] && (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v[i])))
			luaL_error(L, "spawn: field '%s' must be a finite number", keys[i]);
		lua_pop(L, 1);
	}
}

/***
 * Spawn an entity. It starts not on the ground and unstable (its first tick is an air
 * tick, as in Beta). Source: docs/beta173.md (defaults: the Beta player).
 * @function World:spawn
 * @tparam table def `{x, y, z}` feet position (blocks, finite, |v| <= limits.max_coord,
 *   required); optional `width` in (0, 16] (0.6F), `height` in (0, 32] (1.8F), `rules`
 *   (a rules table or an entity's `rules`; default bp.rules.beta173()), `solid`
 *   (false), `group` (1), `mask` (2^32-1), `yaw` (degrees, 0), `vx, vy, vz` (0;
 *   blocks/tick or blocks/s per the rules), `filter` (function or nil), `sensor`
 *   (false: an entity that blocks, pushes and is pushed by nothing, and reports the
 *   entities it overlaps as "enter" and "leave" events), `carry` (false: a solid
 *   platform that moves the entities standing on it; docs/mechanics.md)
 * @treturn Entity
 * @raise "spawn: unknown field 'k'", "spawn: field 'k' must be a finite number",
 *   "spawn: field 'k' is outside the world (|coordinate| > 2147482000)", "spawn: field
 *   'width' must be a number in (0, 16]" (height: (0, 32]), "spawn: field 'k' must be
 *   an integer in [0, 2^32)", "spawn: field 'filter' must be a function or nil",
 *   "spawn: a sensor cannot be solid (it blocks nothing)",
 *   "spawn: ..." rules errors (as make_rules); "spawn: world is locked: ..." inside
 *   world:step; "not enough memory" or "size limit exceeded" (the entity pool would
 *   pass its size limit). Nothing is spawned when it raises.
 */
static int l_world_spawn(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lbp_check_unlocked(L, w, "spawn");
	bp_EntityDef def = bp_default_entity_def();
	read_entity_def(L, 2, &def);
	double motion[4];
	int given[4];
	read_entity_motion(L, 2, motion, given);
	int has_rules = lua_getfield(L, 2, "rules") != LUA_TNIL;
	if (has_rules) {
		lbp_view_to_table(L, 3);
		lbp_read_rules(L, 3, &def.rules, "spawn");
	}
	/* Everything that reads Lua values (metamethods may run any code) or allocates
	 * (finalizers may run) happens before the core entity exists: the hook table,
	 * then the Entity userdata. */
	lua_settop(L, 3);
	lua_createtable(L, 0, 3); /* 4: hooks */
	if (has_rules) { /* raw, as lbp_read_rules read the hook flags */
		lbp_raw_field(L, 3, "heading");
		lua_setfield(L, 4, "heading");
		lbp_raw_field(L, 3, "jump");
		lua_setfield(L, 4, "jump");
	}
	/* Read again (a metamethod may answer differently): check what is stored. */
	const int ft = lua_getfield(L, 2, "filter");
	if (ft != LUA_TNIL && ft != LUA_TFUNCTION)
		return luaL_error(L, "spawn: field 'filter' must be a function or nil");
	const int has_filter = ft == LUA_TFUNCTION;
	lua_setfield(L, 4, "filter");
	LEntity *le = lua_newuserdatauv(L, sizeof *le, 1); /* 5 */
	le->id.index1 = 0;
	le->lw = lua_touserdata(L, 1);
	luaL_setmetatable(L, ENTITY_MT);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, 5, 1);
	lua_getiuservalue(L, 1, 1); /* 6: entity cache */
	lua_getiuservalue(L, 1, 2); /* 7: hook tables */
	/* That code may also have destroyed the world (from a metamethod). */
	w = lbp_world_of(L, 1);
	/* Reserve the slot in both tables first: a store that grows a table may fail for
	 * memory, and the entity must not exist then. A raw store runs no Lua code (an
	 * emergency collection calls no finalizer), so the slot cannot change meanwhile; a
	 * leftover value at a free slot is never read. */
	const lua_Integer slot1 = (lua_Integer)bp_world_next_slot(w);
	lua_pushvalue(L, 5);
	lua_rawseti(L, 6, slot1);
	lua_pushvalue(L, 4);
	lua_rawseti(L, 7, slot1);
	bp_Status st = bp_world_spawn(w, &def, &le->id);
	if (st != BP_OK) {
		for (int t = 6; t <= 7; t++) { /* storing nil at an existing key allocates nothing */
			lua_pushnil(L);
			lua_rawseti(L, t, slot1);
		}
		lbp_raise_status(L, st);
	}
	/* From here on no Lua call may raise or run code: the entity must end whole. */
	bp_Entity *e = bp_world_entity(w, le->id);
	double *dst[4] = {&bp_entity_input(w, e)->yaw, &bp_entity_vel(e)[0], &bp_entity_vel(e)[1],
	                  &bp_entity_vel(e)[2]};
	for (int i = 0; i < 4; i++) {
		if (given[i])
			*dst[i] = motion[i];
	}
	bp_entity_set_has_filter(e, has_filter);
	lua_pushvalue(L, 5);
	return 1;
}

/***
 * Remove an entity: its handle and every copy of it become invalid (any use raises
 * "entity has been removed"; e:valid() is false). Its slot may be reused. Source: our
 * own.
 * @function World:remove
 * @tparam Entity e a live entity of this world
 * @raise "bad argument #1 to 'remove' (entity belongs to another world)", "(entity has
 *   been removed)"; "remove: world is locked: ..." inside world:step; "not enough memory" (the
 *   entity stays).
 */
static int l_world_remove(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	LEntity *le = luaL_checkudata(L, 2, ENTITY_MT);
	lua_getiuservalue(L, 2, 1);
	if (!lua_rawequal(L, -1, 1))
		return luaL_argerror(L, 2, "entity belongs to another world");
	lbp_check_entity(L, 2);
	lbp_check_unlocked(L, w, "remove");
	bp_Status st = bp_world_remove(w, le->id);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	/* an event names it (its leave events too): the same userdata */
	if (bp_entity_in_events(bp_world_slot_entity(w, le->id.index1 - 1)))
		lbp_keep_departed(L, 1, 2, le->id);
	lbp_note_removed(L, 1, 2, le->id.index1); /* world:restore may bring it back */
	for (int uv = 1; uv <= 2; uv++) {
		lua_getiuservalue(L, 1, uv);
		lua_pushnil(L);
		lua_rawseti(L, -2, (lua_Integer)le->id.index1);
		lua_pop(L, 1);
	}
	return 0;
}

/***
 * The live entities in creation order (the step order), as a new array. Source: our
 * own.
 * @function World:entities
 * @treturn {Entity,...}
 * @raise "calling 'entities' on bad self (world has been destroyed)".
 */
static int l_world_entities(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	lua_getiuservalue(L, 1, 1);
	lua_createtable(L, (int)bp_world_entity_count(w), 0);
	for (uint32_t i = 0; i < bp_world_entity_count(w); i++) {
		lua_rawgeti(L, -2, (lua_Integer)bp_world_entity_slot(w, i) + 1);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* ---------------------------------------------------------------- the type */

static const luaL_Reg entity_methods[] = {
	{"position", l_entity_position}, {"velocity", l_entity_velocity},
	{"box", l_entity_box}, {"move", lbp_entity_move}, {"move_swept", lbp_entity_move_swept},
	{"teleport", l_entity_teleport}, {"lerp", l_entity_lerp}, {"valid", l_entity_valid},
	{"depenetrate", l_entity_depenetrate}, {"set_input", l_entity_set_input},
	{"knockback", l_entity_knockback}, {"native_heading", l_entity_native_heading},
	{"native_jump", l_entity_native_jump}, {"contacts", lbp_entity_contacts},
	{"ground", lbp_entity_ground}, {NULL, NULL}};

static const luaL_Reg entity_meta[] = {
	{"__index", NULL}, {"__newindex", NULL}, /* closures: lfields.c */
	{"__eq", l_entity_eq}, {"__tostring", l_entity_tostring}, {NULL, NULL}};

/* Register the Entity metatable, its field metamethods included. */
void lbp_open_entity(lua_State *L)
{
	lbp_create_meta(L, ENTITY_MT, entity_meta, entity_methods);
	lbp_open_entity_fields(L, entity_methods);
}

/* World methods of this file (added to World's in luaopen_blockphys_core). */
const luaL_Reg lbp_entity_world_methods[] = {
	{"spawn", l_world_spawn}, {"remove", l_world_remove}, {"entities", l_world_entities},
	{"free_position", l_world_free_position}, {NULL, NULL}};
