/* SPDX-License-Identifier: MIT
 * lloop.c - what a game loop calls every frame: the world's fixed-timestep clock
 * (world.tick_rate, world.max_ticks, world:advance) and the bulk reads of positions for
 * drawing (world:positions, world:lerp_positions). World's __index and __newindex
 * live here because its only fields are the clock's.
 */

/***
 * @module blockphys.core
 */
#include "bp_world.h" /* the layouts: an allowed file (tools/check_structure.lua) */
#include "lbp.h"

#include <math.h>
#include <string.h>

/* Most ticks one advance may run (world.max_ticks' upper bound) and the fastest
 * clock (world.tick_rate's): a stalled frame never costs more than this many steps. */
#define MAX_TICKS_LIMIT 1000
#define MAX_TICK_RATE 1000.0
/* The slowest clock: a tick is never longer than world:step's 1 s, whoever sets the rate
 * and when (a rules hook inside an advance included). */
#define MIN_TICK_RATE 1.0
/* The most pending time a rescale of tick_rate keeps, in ticks: more than one advance
 * can run (max_ticks <= 1000), so nothing is lost that would have run; the rest is
 * dropped, and the next advance reports it. Keeps the clock finite in any order of
 * writes. */
#define MAX_PENDING (MAX_TICKS_LIMIT + 1.0)
/* Seconds one advance may add: ten minutes, far above any frame (beyond it is an
 * argument in other units, or a clock bug). */
#define MAX_ADVANCE 600.0
/* A tick is due when the pending time is within this of a whole tick: frame times such
 * as 1/60 s add up to whole ticks with a rounding error of a few ulps, which must not
 * delay a tick to the next frame (a stutter). In ticks. */
#define TICK_SLACK 1e-9

/* One tick of the World at index 1: world:step(1 / tick_rate) under advance's name
 * (its errors and lock messages included). */
static void run_tick(lua_State *L, const LWorld *lw)
{
	lua_pushcfunction(L, lbp_step);
	lua_pushvalue(L, 1);
	lua_pushnumber(L, 1.0 / lw->tick_rate);
	lua_pushliteral(L, "world:advance");
	lua_call(L, 3, 0);
}

/* on_tick(world, tick) at index 3 after a tick: unlocked, counted as a nested call
 * (a hook calling advance again must not recurse without bound), and its error raised
 * as "world:advance: on_tick failed at tick N: ..." (the ticks run so far stay). */
static void call_on_tick(lua_State *L, const LWorld *lw)
{
	const lua_Integer tick = (lua_Integer)bp_world_tick(lw->w);
	lbp_nest_check(L, "world:advance");
	lua_pushvalue(L, 3);
	lua_pushvalue(L, 1);
	lua_pushinteger(L, tick);
	lbp_nest(1);
	const int rc = lua_pcall(L, 2, 0, 0);
	lbp_nest(-1);
	if (rc != LUA_OK) {
		const char *msg = lbp_error_text(L, -1);
		luaL_error(L, "world:advance: on_tick failed at tick %s: %s",
		           lbp_int_text(tick).s, msg);
	}
}

static LWorld *check_lworld(lua_State *L)
{
	lbp_world_of(L, 1);
	return lua_touserdata(L, 1);
}

/* Drop the whole ticks due beyond `keep` from the pending time; return their length in
 * seconds. No float-to-integer conversion: the pending time is finite (< MAX_PENDING
 * + 600,000 ticks), and its due ticks are counted in a double. */
static double drop_due_beyond(LWorld *lw, lua_Integer keep)
{
	const double due = floor(lw->pending_ticks + TICK_SLACK);
	if (!(due > (double)keep))
		return 0;
	const double excess = due - (double)keep;
	lw->pending_ticks -= excess;
	return excess / lw->tick_rate;
}

/***
 * Advance the world's clock by `seconds` of real time and run the whole ticks it now
 * holds, each one `world:step(1 / world.tick_rate)`: one Beta tick for Beta entities,
 * an MC-CPP step of 1 / tick_rate seconds for MC-CPP entities. The rest (less than a
 * tick) waits for the next call; `alpha` is that rest as a fraction of a tick, for
 * drawing with `e:lerp(alpha)` or `world:lerp_positions(alpha)`. At most
 * `world.max_ticks` ticks run; the time beyond them is dropped (returned), so that a
 * stalled frame never makes the next ones slower ("fix your timestep"). Source: our
 * own (the accumulator of G. Fiedler, "Fix Your Timestep!", 2004).
 *
 * With `on_tick`, `on_tick(world, tick)` runs after each tick (tick = world.tick, the
 * number of the tick just run), outside the step's lock: it may spawn, remove, set
 * blocks, write fields and read `world:events()`. The order is tick N's physics, then
 * on_tick(world, N), then tick N+1. It may not call world:advance again in a chain
 * deeper than the nesting bound.
 * @function World:advance
 * @tparam number seconds real time since the last call, in [0, 600]
 * @tparam[opt] function on_tick called after each tick with the world and the tick
 * @treturn number ticks the ticks run (0 .. max_ticks)
 * @treturn number alpha the time left, in ticks, in [0, 1)
 * @treturn number dropped seconds dropped (0 normally): by the max_ticks bound, and by
 *   rescales of tick_rate since the last call beyond MAX_PENDING (1001) ticks. A hook
 *   that changes tick_rate or max_ticks inside a tick changes the following ticks of the
 *   same call (each tick is 1 / tick_rate s, never longer than 1 s); whole ticks still
 *   due when max_ticks have run are dropped, so alpha is always in [0, 1).
 * @raise "bad argument #1 to 'advance' (seconds must be in [0, 600])", "(number must
 *   be finite)", "bad argument #2 to 'advance' (function expected, got ...)"; every
 *   error of World:step, named "world:advance: ..." (the ticks run before it stay; the
 *   failed tick's time stays pending); "world:advance: on_tick failed at tick N: ..."
 *   (the ticks run, N included, stay; the rest of the time stays pending).
 */
static int l_world_advance(lua_State *L)
{
	LWorld *lw = check_lworld(L);
	const double seconds = lbp_check_finite(L, 2);
	if (!(seconds >= 0 && seconds <= MAX_ADVANCE))
		return luaL_argerror(L, 2, "seconds must be in [0, 600]");
	const int hooked = !lua_isnoneornil(L, 3);
	if (hooked)
		luaL_checktype(L, 3, LUA_TFUNCTION);
	lua_settop(L, 3);
	if (bp_world_lock(lw->w))
		run_tick(L, lw); /* raises the step's lock message, before the clock changes */
	/* Every quantity stays finite: seconds <= 600 and tick_rate in [1, 1000] add at most
	 * 600,000 ticks to a pending time the setter keeps below MAX_PENDING ticks. */
	lw->pending_ticks += seconds * lw->tick_rate;
	double dropped = drop_due_beyond(lw, lw->max_ticks);
	/* The loop reads the clock afresh each tick: a hook may change tick_rate (which
	 * rescales the pending time) or max_ticks, or destroy the world, inside a tick. */
	lua_Integer ticks = 0;
	while (lw->w && ticks < lw->max_ticks && lw->pending_ticks + TICK_SLACK >= 1) {
		const double rate = lw->tick_rate;
		run_tick(L, lw);
		/* The tick's 1 / rate seconds, in the ticks of the rate now (exactly 1 when
		 * no hook changed it). */
		lw->pending_ticks -= lw->tick_rate / rate;
		ticks++;
		if (hooked && lw->w)
			call_on_tick(L, lw);
	}
	/* Whole ticks still due (the loop stopped at max_ticks after a hook raised the
	 * rate, or the world is gone) are dropped: alpha stays in [0, 1). */
	dropped += drop_due_beyond(lw, 0);
	if (lw->pending_ticks < 0)
		lw->pending_ticks = 0; /* a tick run within TICK_SLACK of due */
	dropped += lw->dropped_seconds; /* by rescales since the last call (the setter) */
	lw->dropped_seconds = 0;
	lua_pushinteger(L, ticks);
	lua_pushnumber(L, lw->pending_ticks);
	lua_pushnumber(L, dropped);
	return 3;
}

/* The table at index i (or a new one, pushed either way) filled with n positions from
 * fill (3 numbers each); entries past 3n that the table held are cleared, so that its
 * length is 3n. */
typedef void (*PositionFn)(const bp_Entity *e, double alpha, double out[3]);

static void entity_position(const bp_Entity *e, double alpha, double out[3])
{
	(void)alpha;
	bp_entity_position(e, out);
}

/* As Entity:lerp: alpha 1 is the position itself. */
static void entity_lerp(const bp_Entity *e, double alpha, double out[3])
{
	double p[3];
	bp_entity_position(e, p);
	for (int a = 0; a < 3; a++)
		out[a] = alpha == 1 ? p[a] : e->prev[a] + (p[a] - e->prev[a]) * alpha;
}

static int fill_positions(lua_State *L, int out_index, PositionFn fn, double alpha)
{
	bp_World *w = lbp_world_of(L, 1);
	const LWorld *lw = lua_touserdata(L, 1);
	const uint32_t n = bp_world_entity_count(w);
	if (lua_isnoneornil(L, out_index)) {
		lua_createtable(L, (int)(3 * (size_t)n < INT32_MAX ? 3 * n : 0), 0);
	} else {
		luaL_checktype(L, out_index, LUA_TTABLE);
		lua_pushvalue(L, out_index);
	}
	const int t = lua_gettop(L);
	/* Lua allocations below may run finalizers that change the world (spawn, remove,
	 * destroy): the count and each slot are read afresh. */
	lua_Integer k = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!lw->w) /* destroyed by a finalizer */
			lbp_world_of(L, 1);
		w = lw->w;
		if (i >= bp_world_entity_count(w))
			break;
		double p[3];
		fn(bp_world_slot_entity(w, bp_world_entity_slot(w, i)), alpha, p);
		for (int a = 0; a < 3; a++) {
			lua_pushnumber(L, p[a]);
			lua_rawseti(L, t, ++k);
		}
	}
	for (lua_Integer j = k + 1; lua_rawgeti(L, t, j) != LUA_TNIL; j++) {
		lua_pop(L, 1);
		lua_pushnil(L);
		lua_rawseti(L, t, j);
	}
	lua_pop(L, 1);
	return 1;
}

/***
 * Every entity's feet position, as one flat array `{x1, y1, z1, x2, ...}` in
 * World:entities() order (blocks): one call instead of three field reads per entity, for
 * a renderer. Source: our own.
 * @function World:positions
 * @tparam[opt] table out an array to fill (reused between frames: nothing is
 *   allocated but its growth); entries past the last position are cleared
 * @treturn table out, or a new table
 * @raise "bad argument #1 to 'positions' (table expected, got T)".
 */
static int l_world_positions(lua_State *L)
{
	return fill_positions(L, 2, entity_position, 1);
}

/***
 * As World:positions, the positions interpolated between the last two ticks as
 * Entity:lerp gives them: previous + (current - previous) x alpha, alpha 1 the current
 * position. Source: our own.
 * @function World:lerp_positions
 * @tparam number alpha the fraction of a tick (World:advance's second result), finite
 * @tparam[opt] table out an array to fill, as World:positions
 * @treturn table out, or a new table
 * @raise "bad argument #1 to 'lerp_positions' (number must be finite)", "(table
 *   expected, got T)".
 */
static int l_world_lerp_positions(lua_State *L)
{
	lbp_world_of(L, 1);
	const double alpha = lbp_check_finite(L, 2);
	return fill_positions(L, 3, entity_lerp, alpha);
}

/* The names of the five inputs of world:set_inputs, in their order. */
static const char *const INPUT_NAMES[5] = {"forward", "strafe", "yaw", "jumping", "sneaking"};

/* Check input k (0..4) at stack index i and store it into in, or return the problem. */
static const char *read_input(lua_State *L, int i, int k, bp_EntityInput *in)
{
	if (k < 3) {
		int ok;
		const double v = lua_tonumberx(L, i, &ok);
		if (!ok || !isfinite(v))
			return "a finite number";
		if (k < 2 && !(v >= -1 && v <= 1))
			return "a number in [-1, 1]";
		*(k == 0 ? &in->forward : k == 1 ? &in->strafe : &in->yaw) = v;
		return NULL;
	}
	const int type = lua_type(L, i);
	if (type != LUA_TNIL && type != LUA_TBOOLEAN)
		return "a boolean or nil";
	if (k == 3)
		bp_input_set_jumping(in, lua_toboolean(L, i));
	else
		in->sneaking = (uint8_t)lua_toboolean(L, i);
	return NULL;
}

/***
 * Set the inputs of every entity from one flat array, in World:entities() order:
 * `{forward1, strafe1, yaw1, jumping1, sneaking1, forward2, ...}` (as
 * Entity:set_input's arguments; jumping and sneaking may be nil for false): one call
 * for a whole input loop. Every value is checked; when one is wrong nothing changes.
 * Source: our own.
 * @function World:set_inputs
 * @tparam table inputs 5 values per live entity
 * @raise "bad argument #1 to 'set_inputs' (table expected, got T)"; "set_inputs:
 *   inputs[k] (the forward of entity i) must be a number in [-1, 1]" (strafe alike;
 *   yaw: "a finite number"; jumping, sneaking: "a boolean or nil").
 */
static int l_world_set_inputs(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	const uint32_t n = bp_world_entity_count(w);
	/* The inputs as they were, to put back when a value is wrong (allocated first:
	 * nothing below allocates, so no finalizer runs while inputs change). */
	bp_EntityInput *saved = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *saved, 0);
	w = lbp_world_of(L, 1);
	const uint32_t count = bp_world_entity_count(w) < n ? bp_world_entity_count(w) : n;
	const int top = lua_gettop(L);
	for (uint32_t i = 0; i < count; i++) {
		bp_EntityInput *in = bp_entity_input(w, bp_world_slot_entity(w, bp_world_entity_slot(w, i)));
		saved[i] = *in;
		for (int k = 0; k < 5; k++) /* the five values at top + 1 .. top + 5 */
			lua_rawgeti(L, 2, (lua_Integer)i * 5 + k + 1);
		for (int k = 0; k < 5; k++) {
			const char *problem = read_input(L, top + 1 + k, k, in);
			if (problem) {
				for (uint32_t j = 0; j <= i; j++)
					*bp_entity_input(w, bp_world_slot_entity(w, bp_world_entity_slot(w, j))) =
					    saved[j];
				return luaL_error(L, "set_inputs: inputs[%s] (the %s of entity %d) must be %s",
				                  lbp_int_text((lua_Integer)i * 5 + k + 1).s, INPUT_NAMES[k],
				                  (int)i + 1, problem);
			}
		}
		lua_settop(L, top);
	}
	/* A sleeper whose inputs changed wakes (the same idle inputs every tick do not). */
	for (uint32_t i = 0; i < count; i++)
		bp_entity_input_changed(w, bp_world_slot_entity(w, bp_world_entity_slot(w, i)), &saved[i]);
	return 0;
}

/***
 * The World's fields, beside its methods: `tick_rate`, World:advance's ticks per second
 * (default 20, the game's), and `max_ticks`, the most ticks one World:advance runs
 * (default 10). Unknown keys give the method of that name, or nil.
 * @function World:__index
 * @tparam string k
 */
static int l_world_index(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT); /* a destroyed world keeps its methods */
	const char *k = lua_tostring(L, 2);
	if (k && lua_type(L, 2) == LUA_TSTRING) {
		if (strcmp(k, "tick_rate") == 0) {
			lua_pushnumber(L, lw->tick_rate);
			return 1;
		}
		if (strcmp(k, "max_ticks") == 0) {
			lua_pushinteger(L, lw->max_ticks);
			return 1;
		}
		if (lbp_events_index(L, k)) /* tick, max_events, events_dropped, hit_speed */
			return 1;
		if (lbp_stream_index(L, k)) /* "unset" (lstream.c) */
			return 1;
		if (strcmp(k, "sleeping") == 0) {
			lua_pushboolean(L, bp_world_sleeping(lbp_world_of(L, 1)));
			return 1;
		}
	}
	lua_pushvalue(L, 2);
	lua_gettable(L, lua_upvalueindex(1)); /* the methods (and the hidden ones) */
	return 1;
}

/***
 * Set a World field: `tick_rate` (ticks per second, in [1, 1000], so a tick is never
 * longer than World:step's 1 s; the time already advanced but not run keeps its length
 * in seconds, up to 1001 ticks, the rest dropped and reported by the next
 * World:advance, which runs the whole ticks it now makes) or `max_ticks` (an integer
 * in [1, 1000]), or `sleeping` (boolean, default true: entities whose tick is a fixed
 * point are skipped until something wakes them; results are the same bit for bit
 * either way; false wakes every sleeper; docs/entities.md "Sleeping"). Source: our own.
 * @function World:__newindex
 * @raise "world field 'tick_rate' must be a number in [1, 1000]", "world field
 *   'max_ticks' must be an integer in [1, 1000]", "world field 'sleeping' must be a
 *   boolean", "sleeping: ..." while the world steps, "world has no field 'k'".
 */
static int l_world_newindex(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
	if (k && strcmp(k, "tick_rate") == 0) {
		int ok;
		const double v = lua_tonumberx(L, 3, &ok);
		if (!ok || !(v >= MIN_TICK_RATE && v <= MAX_TICK_RATE))
			return luaL_error(L, "world field 'tick_rate' must be a number in [1, 1000]");
		/* The pending time keeps its seconds (a ratio in [0.001, 1000]: finite), up to
		 * MAX_PENDING ticks; the rest is dropped and reported by the next advance. */
		lw->pending_ticks *= v / lw->tick_rate; /* run by the next advance if >= 1 */
		if (lw->pending_ticks > MAX_PENDING) {
			lw->dropped_seconds += (lw->pending_ticks - MAX_PENDING) / v;
			lw->pending_ticks = MAX_PENDING;
		}
		lw->tick_rate = v;
		return 0;
	}
	if (k && strcmp(k, "max_ticks") == 0) {
		int ok;
		const lua_Integer v = lua_tointegerx(L, 3, &ok);
		if (!ok || v < 1 || v > MAX_TICKS_LIMIT)
			return luaL_error(L, "world field 'max_ticks' must be an integer in [1, 1000]");
		lw->max_ticks = v;
		return 0;
	}
	if (k && lbp_events_newindex(L, k))
		return 0;
	if (k && lbp_stream_newindex(L, k)) /* "unset" (lstream.c) */
		return 0;
	if (k && strcmp(k, "sleeping") == 0) {
		if (!lua_isboolean(L, 3))
			return luaL_error(L, "world field 'sleeping' must be a boolean");
		bp_World *w = lbp_world_of(L, 1);
		lbp_check_unlocked(L, w, "sleeping");
		bp_world_set_sleeping(w, lua_toboolean(L, 3));
		return 0;
	}
	return luaL_error(L, "world has no field '%s'", lbp_key_text(L, 2));
}

/* The game loop's World methods (added in luaopen_blockphys_core). */
const luaL_Reg lbp_loop_world_methods[] = {
	{"advance", l_world_advance}, {"positions", l_world_positions},
	{"lerp_positions", l_world_lerp_positions}, {"set_inputs", l_world_set_inputs},
	{NULL, NULL}};

/* World's __index and __newindex (the clock's fields): after every World method is in
 * its table. */
void lbp_open_loop(lua_State *L)
{
	luaL_getmetatable(L, WORLD_MT);
	lua_getfield(L, -1, "methods");
	lua_pushcclosure(L, l_world_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, l_world_newindex);
	lua_setfield(L, -2, "__newindex");
	lua_pop(L, 1);
}
