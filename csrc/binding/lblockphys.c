/* SPDX-License-Identifier: MIT
 * lblockphys.c - the Lua 5.4 binding (module blockphys.core): userdata World,
 * Entity, Collider and RulesView; argument checks; Lua hooks called from the step.
 * The only file that includes Lua headers. Layout follows liolib/LPeg (STYLE.md).
 *
 * Lifetimes: a World userdata owns the core world; user value 1 caches one Entity
 * userdata per live entity slot (so entities compare and index as table keys), user
 * value 2 holds the Lua hook functions per slot. An Entity userdata holds only
 * (index1, generation) and keeps its World alive through its user value.
 */

/***
 * The C core of blockphys as a Lua module (`require "blockphys.core"`; games use it
 * through `require "blockphys"`). Units: blocks (1 block = 1 m); velocities in
 * blocks/tick under Beta rules, blocks/s under MC-CPP rules; yaw in degrees. Bad
 * arguments raise a Lua error naming the function and the problem, and a call that
 * raises changes nothing (World:fill included: it allocates before it changes a block);
 * after "not enough memory" or "size limit exceeded", the capacity the call reserved
 * (grown tables) may stay, which only World:stats' `bytes` shows (spec/oom_spec.lua). Lock rule: inside
 * world:step (hooks, filters) the world is locked and structural changes raise
 * "<call>: world is locked: ...". Module fields: `_VERSION`, `limits` {max_move, max_coord,
 * max_width, max_height, max_fill_chunks, max_fill_cut_chunks, max_query_cells,
 * max_query_boxes, max_ray, min_dt, max_dt}, `World_methods`
 * (the World method table, for methods written in Lua).
 * @module blockphys.core
 */
#include <lauxlib.h>
#include <lua.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blockphys.h"

#if LUA_VERSION_NUM < 504
#error "blockphys needs Lua 5.4"
#endif

#define WORLD_MT "blockphys.World"
#define ENTITY_MT "blockphys.Entity"
#define COLLIDER_MT "blockphys.Collider"
#define RULESVIEW_MT "blockphys.RulesView"
#define RULES_MT "blockphys.Rules"

/* Largest region a boxes_in / query call may scan, in cells. */
#define MAX_QUERY_CELLS 16777216.0
/* Chunks one fill may cut (fill but partly): each may need an id array of 8 KB, so one
 * call allocates at most 512 MB. */
#define MAX_FILL_CUT_CHUNKS 65536.0
/* world:step's dt bounds, seconds (see l_world_step). */
#define MIN_DT 1e-6
#define MAX_DT 3600.0
/* Boxes one boxes_in may return: a region of max_query_cells cells can hold 64 boxes
 * per cell, and each box becomes a Collider of about 100 bytes. */
#define MAX_QUERY_BOXES 1048576

typedef struct LWorld {
	bp_World *w;       /* NULL once destroyed */
	bp_World *pending; /* destroyed from a finalizer: freed by __gc (see l_world_destroy) */
	int undo;          /* during a step or move that can fail: hook changes are noted
	                    * (note_hooks_undo) so that the failure can put them back;
	                    * 0 off, 1 on, 2 on and something noted */
	lua_State *main;   /* the allocator bridge's state: the main thread, which lives as
	                    * long as the world */
	lua_Integer fail_alloc; /* World:_fail_alloc: the core's allocation that fails
	                         * (counting down; 0 off) */
} LWorld;

typedef struct LEntity {
	bp_EntityId id;
	/* The world's userdata block, which the entity's user value keeps alive: never
	 * dangles (its bp_World is checked through it: NULL once destroyed). Saves the
	 * user value lookup in the field metamethods. */
	const LWorld *lw;
} LEntity;

/* ------------------------------------------------------------------ checks */

/* An optional boolean field of the table at t, read once: -1 when absent, else it must
 * be a boolean (a string "no" or a 0 would read as true under Lua's truth rule). */
static int opt_tristate(lua_State *L, int t, const char *key, const char *fn)
{
	int type = lua_getfield(L, t, key);
	int v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	if (type != LUA_TNIL && type != LUA_TBOOLEAN)
		luaL_error(L, "%s: field '%s' must be a boolean", fn, key);
	return type == LUA_TNIL ? -1 : v;
}

/* The same, 0 when absent. */
static int opt_flag(lua_State *L, int t, const char *key, const char *fn)
{
	return opt_tristate(L, t, key, fn) > 0;
}

/* A number for a message, without the ".0" that lua_pushfstring's %f gives integral
 * values (limits read "1024", not "1024.0"): 14 significant digits for limits and
 * ranges (0.1 reads "0.1"), 17 for a measured value that must not round to a limit. */
typedef struct NumText {
	char s[32];
} NumText;

static NumText num_text_digits(double v, int digits)
{
	NumText t;
	snprintf(t.s, sizeof t.s, "%.*g", digits, v);
	return t;
}

static NumText num_text(double v)
{
	return num_text_digits(v, 14);
}

static double check_finite(lua_State *L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!isfinite(v))
		luaL_argerror(L, i, "number must be finite");
	return v;
}

static double opt_finite(lua_State *L, int i, double def)
{
	return lua_isnoneornil(L, i) ? def : check_finite(L, i);
}

/* A block coordinate: an integral number in the int32 range. */
static int32_t check_coord(lua_State *L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!(v == floor(v) && v >= (double)INT32_MIN && v <= (double)INT32_MAX))
		luaL_argerror(L, i, "block coordinate must be an integer in the int32 range");
	return (int32_t)v;
}

static bp_World *world_of(lua_State *L, int i)
{
	LWorld *lw = luaL_checkudata(L, i, WORLD_MT);
	if (!lw->w)
		luaL_argerror(L, i, "world has been destroyed");
	return lw->w;
}

/* w->locked while e:move / e:move_swept runs its entity filters (world:step sets 1). */
enum { LOCK_MOVE = 2, LOCK_MOVE_SWEPT = 3 };

/* What holds the lock, for the messages. */
static const char *lock_holder(const bp_World *w)
{
	return w->locked == LOCK_MOVE         ? "e:move (from an entity filter)"
	       : w->locked == LOCK_MOVE_SWEPT ? "e:move_swept (from an entity filter)"
	                                      : "world:step (from a rules hook or filter)";
}

/* fn: the refused call, named first in the message (a paste or a script wrapping
 * several calls then tells which one met the lock). */
static void check_unlocked(lua_State *L, bp_World *w, const char *fn)
{
	if (w->locked)
		luaL_error(L, "%s: world is locked: blocks, entities and colliders cannot be "
		              "added or removed inside %s", fn, lock_holder(w));
}

/* A block id or name that is defined in w. */
static uint16_t check_block(lua_State *L, bp_World *w, int i)
{
	if (lua_type(L, i) == LUA_TSTRING) {
		int32_t id = bp_world_find_type(w, lua_tostring(L, i));
		if (id < 0)
			luaL_argerror(L, i, lua_pushfstring(L, "unknown block '%s'", lua_tostring(L, i)));
		return (uint16_t)id;
	}
	lua_Integer id;
	if (lua_type(L, i) != LUA_TNUMBER)
		luaL_typeerror(L, i, "block id or name");
	id = luaL_checkinteger(L, i);
	if (id < 0 || id >= (lua_Integer)w->ntypes)
		luaL_argerror(L, i, lua_pushfstring(L, "unknown block id %I", id));
	return (uint16_t)id;
}

static int l_tolstring(lua_State *L)
{
	luaL_tolstring(L, 1, NULL);
	return 1;
}

/* Push a text for the value at idx and return it. Unlike luaL_tolstring it never
 * raises: a __tostring that fails or returns a non-string gives "(a table value)". */
static const char *safe_tostring(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) == LUA_TSTRING) { /* no call: at the C stack's limit a pcall fails */
		lua_pushvalue(L, idx);
		return lua_tostring(L, -1);
	}
	lua_pushcfunction(L, l_tolstring);
	lua_pushvalue(L, idx);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_type(L, -1) != LUA_TSTRING) {
		lua_pop(L, 1);
		return lua_pushfstring(L, "(a %s value)", luaL_typename(L, idx));
	}
	return lua_tostring(L, -1);
}

/* Whether tostring of the value at idx shows no address (nil, booleans, numbers and
 * strings; tables, functions, userdata and threads print "table: 0x...", which differs
 * from run to run, so messages name those by their type). */
static int prints_plainly(lua_State *L, int idx)
{
	const int t = lua_type(L, idx);
	return t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING;
}

/* The text of a table key in a message, pushed: as tostring writes it, or "(a T key)". */
static const char *key_text(lua_State *L, int idx)
{
	if (prints_plainly(L, idx))
		return safe_tostring(L, idx);
	return lua_pushfstring(L, "(a %s key)", luaL_typename(L, idx));
}

/* The text of an error value in a message, pushed: as tostring writes it, through its
 * __tostring when it has one, or "(a T value)". */
static const char *error_text(lua_State *L, int idx)
{
	if (prints_plainly(L, idx))
		return safe_tostring(L, idx);
	if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
		lua_pop(L, 1);
		return safe_tostring(L, idx);
	}
	return lua_pushfstring(L, "(a %s value)", luaL_typename(L, idx));
}

static void raise_status(lua_State *L, bp_Status st)
{
	switch (st) {
	case BP_ENOMEM:
		luaL_error(L, "not enough memory");
		break;
	case BP_ELIMIT:
		luaL_error(L, "size limit exceeded");
		break;
	default:
		luaL_error(L, "internal error %d", (int)st);
	}
}

/* ---------------------------------------------------------------- Collider */

static bp_AABB *check_collider(lua_State *L, int i)
{
	return luaL_checkudata(L, i, COLLIDER_MT);
}

/* b is copied before the allocation: a finalizer run by it may move what b points to. */
static bp_AABB *push_collider(lua_State *L, const bp_AABB *b)
{
	const bp_AABB box = *b;
	bp_AABB *c = lua_newuserdatauv(L, sizeof *c, 0);
	*c = box;
	luaL_setmetatable(L, COLLIDER_MT);
	return c;
}

/* Raise for a box made by an operation whose corners overflowed to infinity (as
 * bp.Collider refuses them): argument first + axis names the cause, or `first` alone
 * when per_axis is 0. */
static void check_result(lua_State *L, const bp_AABB *r, int first, int per_axis)
{
	for (int a = 0; a < 3; a++) {
		if (!(isfinite(r->lo[a]) && isfinite(r->hi[a])))
			luaL_argerror(L, first + (per_axis ? a : 0), "the resulting box is not finite");
	}
}

/***
 * Axis-aligned box from its min and max corners (blocks). A Collider is an immutable
 * value: the operations below return new ones. Source: sources/mccpp-collider.txt.
 * @function Collider
 * @tparam number x1 @tparam number y1 @tparam number z1 min corner (finite)
 * @tparam number x2 @tparam number y2 @tparam number z2 max corner (finite, >= min)
 * @treturn Collider
 * @raise "bad argument #n to 'Collider' (number must be finite)", or
 *   "(max corner must not be below the min corner)"; a non-number: "(number expected, got T)".
 */
static int l_collider_new(lua_State *L)
{
	bp_AABB b;
	for (int a = 0; a < 3; a++) {
		b.lo[a] = check_finite(L, 1 + a);
		b.hi[a] = check_finite(L, 4 + a);
	}
	for (int a = 0; a < 3; a++) {
		if (b.lo[a] > b.hi[a])
			luaL_argerror(L, 4 + a, "max corner must not be below the min corner");
	}
	push_collider(L, &b);
	return 1;
}

/***
 * The six corner coordinates (blocks). Fields `c.x1, c.y1, c.z1, c.x2, c.y2, c.z2` read
 * the same values (read-only: `c.x1 = 5` raises "blockphys.Collider is read-only (field
 * 'x1')", see Collider:__newindex). Source: sources/mccpp-collider.txt (the fields x1 ..
 * z2); read-only values: our own.
 * @function Collider:unpack
 * @treturn number x1, y1, z1, x2, y2, z2
 * @raise "bad argument #1 (blockphys.Collider expected, got T)" for a non-Collider self.
 */
static int l_collider_unpack(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, c->lo[a]);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, c->hi[a]);
	return 6;
}

/***
 * The box translated by (dx, dy, dz) blocks.
 * @function Collider:offset
 * @tparam number dx @tparam number dy @tparam number dz finite
 * @treturn Collider a new box
 * @raise "bad argument #n to 'offset' (number must be finite)", "(the resulting box is
 *   not finite)". Source: our own.
 */
static int l_collider_offset(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	bp_AABB r = bp_aabb_offset(c, check_finite(L, 2), check_finite(L, 3), check_finite(L, 4));
	check_result(L, &r, 2, 1);
	push_collider(L, &r);
	return 1;
}

/***
 * `c + {dx, dy, dz}`: the box translated (as Collider:offset).
 * @function Collider:__add
 * @tparam table d `{dx, dy, dz}`, three finite numbers (blocks)
 * @treturn Collider
 * @raise "bad argument #2 to 'add' (offset must be a table of three finite numbers)",
 *   "(the resulting box is not finite)" or "(table expected, got T)". Source:
 *   sources/mccpp-collider.txt (operator+).
 */
static int l_collider_add(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	double d[3];
	for (int a = 0; a < 3; a++) {
		if (lua_geti(L, 2, a + 1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
			luaL_argerror(L, 2, "offset must be a table of three finite numbers");
		d[a] = lua_tonumber(L, -1);
		lua_pop(L, 1);
	}
	bp_AABB r = bp_aabb_offset(c, d[0], d[1], d[2]);
	check_result(L, &r, 2, 0);
	push_collider(L, &r);
	return 1;
}

/***
 * True if the interiors overlap on all three axes; touching faces do not count.
 * Also the `c & d` operator (__band). Source: sources/mccpp-collider.txt (operator&),
 * Beta intersectsWith.
 * @function Collider:overlaps
 * @tparam Collider d
 * @treturn boolean
 * @raise "bad argument #n (blockphys.Collider expected, got T)".
 */
static int l_collider_overlaps(lua_State *L)
{
	lua_pushboolean(L, bp_aabb_overlaps(check_collider(L, 1), check_collider(L, 2)));
	return 1;
}

/***
 * The box grown toward a displacement: a negative component lowers the min corner, a
 * positive one raises the max corner (Beta addCoord; the region a move sweeps).
 * Source: sources/b173-entity-movement-and-physics.txt (BoundingBox::extend).
 * @function Collider:extend
 * @tparam number dx @tparam number dy @tparam number dz displacement (blocks, finite)
 * @treturn Collider
 * @raise "bad argument #n to 'extend' (number must be finite)", "(the resulting box is
 *   not finite)".
 */
static int l_collider_extend(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	bp_AABB r = bp_aabb_extend(c, check_finite(L, 2), check_finite(L, 3), check_finite(L, 4));
	check_result(L, &r, 2, 1);
	push_collider(L, &r);
	return 1;
}

/***
 * The box grown by (ex, ey, ez) blocks on both sides of each axis; negative shrinks.
 * Source: Beta AxisAlignedBB.expand (reference/b173-movement.md).
 * @function Collider:expand
 * @tparam number ex @tparam number ey @tparam number ez half-growth (blocks, finite)
 * @treturn Collider
 * @raise "bad argument #n to 'expand' (number must be finite)" or
 *   "(shrinks the box below zero size)" when a min would pass its max (zero size is
 *   allowed), "(the resulting box is not finite)".
 */
static int l_collider_expand(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	bp_AABB r = bp_aabb_expand(c, check_finite(L, 2), check_finite(L, 3), check_finite(L, 4));
	for (int a = 0; a < 3; a++) {
		if (r.lo[a] > r.hi[a])
			luaL_argerror(L, 2 + a, "shrinks the box below zero size");
	}
	check_result(L, &r, 2, 1);
	push_collider(L, &r);
	return 1;
}

static int clip(lua_State *L, int axis)
{
	bp_AABB *c = check_collider(L, 1);
	bp_AABB *o = check_collider(L, 2);
	lua_pushnumber(L, bp_aabb_clip(c, o, axis, check_finite(L, 3)));
	return 1;
}

/***
 * Displacement d of this (moving) box along X, Y or Z, shortened so that it stops at
 * obstacle `o`. Only an obstacle that overlaps strictly on the two other axes and lies
 * wholly on the far side (touching counts) shortens d; an overlapping one is ignored.
 * Never ends one ulp inside `o` (unlike Beta). Source: reference/b173-movement.md
 * section 3 (calculateX/Y/ZOffset).
 * @function Collider:clip_x
 * @tparam Collider o the obstacle
 * @tparam number d displacement along the axis (blocks, finite)
 * @treturn number the allowed displacement, same sign as d, |result| <= |d|
 * @raise "bad argument #n (blockphys.Collider expected, got T)" or "(number must be finite)".
 * @see Collider:clip_y, Collider:clip_z (same contract on Y and Z)
 */
static int l_collider_clip_x(lua_State *L) { return clip(L, BP_X); }

/***
 * Collider:clip_x along Y: d (blocks, finite) shortened so that this box stops at `o`;
 * an `o` that does not overlap strictly on X and Z leaves d unchanged. Source: reference/b173-movement.md section 3
 * (calculateYOffset).
 * @function Collider:clip_y
 * @tparam Collider o the obstacle
 * @tparam number d displacement along Y (blocks, finite)
 * @treturn number the allowed displacement, same sign as d, |result| <= |d|
 * @raise as Collider:clip_x.
 */
static int l_collider_clip_y(lua_State *L) { return clip(L, BP_Y); }

/***
 * Collider:clip_x along Z: d (blocks, finite) shortened so that this box stops at `o`;
 * an `o` that does not overlap strictly on X and Y leaves d unchanged. Source: reference/b173-movement.md section 3
 * (calculateZOffset).
 * @function Collider:clip_z
 * @tparam Collider o the obstacle
 * @tparam number d displacement along Z (blocks, finite)
 * @treturn number the allowed displacement, same sign as d, |result| <= |d|
 * @raise as Collider:clip_x.
 */
static int l_collider_clip_z(lua_State *L) { return clip(L, BP_Z); }

/***
 * Swept AABB test: this box moving by (vx, vy, vz) (blocks per frame) against the
 * static box `s`. Source: sources/mccpp-collider.txt (collide); our decisions (README
 * "The swept resolver"): touching on a still axis never hits, touching and moving
 * into `s` hits at t = 0, already overlapping boxes give no hit. A box that ends the
 * frame exactly touching `s` gives t = 1 with the normal of the face it touches (as
 * `collide` does); the swept resolver counts only t < 1 as a hit.
 * @function Collider:sweep
 * @tparam Collider s the static box
 * @tparam number vx @tparam number vy @tparam number vz displacement (finite)
 * @treturn number t entry time in [0, 1]; 1 when there is no hit this frame (normal 0)
 * @treturn integer nx @treturn integer ny @treturn integer nz face normal of `s`
 *   (one of them +-1; all 0 without a hit). Edge/corner ties: X before Y before Z.
 * @raise "bad argument #n (blockphys.Collider expected, got T)" or "(number must be finite)".
 */
static int l_collider_sweep(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	bp_AABB *s = check_collider(L, 2);
	double v[3] = {check_finite(L, 3), check_finite(L, 4), check_finite(L, 5)};
	bp_Sweep h = bp_aabb_sweep(c, s, v);
	lua_pushnumber(L, h.t);
	for (int a = 0; a < 3; a++)
		lua_pushinteger(L, h.normal[a]);
	return 4;
}

/***
 * `c == d`: same six coordinates (both Colliders). Lua calls __eq only when both
 * operands are full userdata (`c == 5`, `c == {}` are false without a call), so a
 * Collider compared with another userdata (an Entity, a World, a file) is false,
 * whichever side it is on, like the Entity's __eq. Source: our own.
 * @function Collider:__eq
 * @tparam Collider d
 * @treturn boolean
 */
static int l_collider_eq(lua_State *L)
{
	const bp_AABB *a = luaL_testudata(L, 1, COLLIDER_MT);
	const bp_AABB *b = luaL_testudata(L, 2, COLLIDER_MT);
	int eq = a && b;
	for (int k = 0; eq && k < 3; k++)
		eq = a->lo[k] == b->lo[k] && a->hi[k] == b->hi[k];
	lua_pushboolean(L, eq);
	return 1;
}

/***
 * `tostring(c)`: "blockphys.Collider(x1, y1, z1, x2, y2, z2)". Source: our own.
 * @function Collider:__tostring
 * @treturn string
 */
static int l_collider_tostring(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	lua_pushfstring(L, "blockphys.Collider(%f, %f, %f, %f, %f, %f)", c->lo[0], c->lo[1],
	                c->lo[2], c->hi[0], c->hi[1], c->hi[2]);
	return 1;
}

/***
 * Field access: `x1, y1, z1` (min corner) and `x2, y2, z2` (max corner), numbers in
 * blocks, read-only; any other key looks up the methods (nil if none). Source:
 * sources/mccpp-collider.txt (the field names); the rest: our own.
 * @function Collider:__index
 * @tparam string k
 * @treturn number|function|nil
 */
static int l_collider_index(lua_State *L)
{
	bp_AABB *c = check_collider(L, 1);
	const char *k = lua_tostring(L, 2);
	static const char *const names[] = {"x1", "y1", "z1", "x2", "y2", "z2"};
	if (k) {
		for (int i = 0; i < 6; i++) {
			if (strcmp(k, names[i]) == 0) {
				lua_pushnumber(L, i < 3 ? c->lo[i] : c->hi[i - 3]);
				return 1;
			}
		}
	}
	if (luaL_getmetafield(L, 1, "methods") != LUA_TTABLE)
		return 0; /* a script replaced the metatable's methods table: no method */
	lua_pushvalue(L, 2);
	lua_rawget(L, -2);
	return 1;
}

/***
 * Colliders are values: every assignment raises (make a new one with `bp.Collider`,
 * `c:offset` or `c:extend`). Source: our own.
 * @function Collider:__newindex
 * @raise "blockphys.Collider is read-only (field 'k')" (for a key that is neither a
 *   string nor a number: "(a T key)").
 */
static int l_collider_newindex(lua_State *L)
{
	check_collider(L, 1);
	/* Only strings and numbers are shown: a key's __tostring may raise. */
	const int t = lua_type(L, 2);
	if (t == LUA_TSTRING || t == LUA_TNUMBER)
		return luaL_error(L, "blockphys.Collider is read-only (field '%s')", lua_tostring(L, 2));
	return luaL_error(L, "blockphys.Collider is read-only (a %s key)", luaL_typename(L, 2));
}

static const luaL_Reg collider_methods[] = {
	{"unpack", l_collider_unpack}, {"offset", l_collider_offset},
	{"extend", l_collider_extend}, {"expand", l_collider_expand},
	{"overlaps", l_collider_overlaps}, {"clip_x", l_collider_clip_x},
	{"clip_y", l_collider_clip_y}, {"clip_z", l_collider_clip_z},
	{"sweep", l_collider_sweep}, {NULL, NULL}};

static const luaL_Reg collider_meta[] = {
	{"__add", l_collider_add}, {"__band", l_collider_overlaps},
	{"__eq", l_collider_eq}, {"__tostring", l_collider_tostring},
	{"__index", l_collider_index}, {"__newindex", l_collider_newindex}, {NULL, NULL}};

/* ------------------------------------------------------------------- World */

/* The core world's allocator: Lua's. `ud` is the world's userdata block, which
 * outlives the core world (freed at the latest by its __gc). A growth may be made to
 * fail on purpose (World:_fail_alloc); a free never fails. */
static void *l_alloc_bridge(void *ud, void *ptr, size_t osize, size_t nsize)
{
	LWorld *lw = ud;
	if (nsize > (ptr ? osize : 0) && lw->fail_alloc > 0 && --lw->fail_alloc == 0)
		return NULL;
	void *aud;
	lua_Alloc f = lua_getallocf(lw->main, &aud);
	return f(aud, ptr, osize, nsize);
}

/* The registry key of the Lua state's count of worlds made, whose low bits tag each
 * world's collider handles (deterministic: the same script gives the same handles). */
static const char world_count_key = 0;

static uint32_t next_handle_tag(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &world_count_key);
	uint32_t tag = (uint32_t)(lua_tointeger(L, -1) & BP_HANDLE_TAG_MAX); /* nil: 0 */
	lua_pop(L, 1);
	lua_pushinteger(L, (lua_Integer)((tag + 1) & BP_HANDLE_TAG_MAX));
	lua_rawsetp(L, LUA_REGISTRYINDEX, &world_count_key);
	return tag;
}

/* The registry key of a table with weak values: the world userdata of every live world,
 * keyed by its block (light userdata). The collector clears a world's entry before it
 * calls the world's __gc, so a __gc that finds its entry was called directly
 * (debug.getmetatable(w).__gc(w)) while the world may still be in use. */
static const char live_worlds_key = 0;

/***
 * A new empty world: every block is air (id 0), no colliders, no entities. Its memory
 * comes from the Lua allocator. Lifetime: until world:destroy(), `__close` or
 * garbage collection; entities keep their world alive. Source: our own (DESIGN.md
 * section 2, "Memory model").
 * @function World
 * @treturn World
 * @raise "not enough memory".
 */
static int l_world_new(lua_State *L)
{
	const uint32_t tag = next_handle_tag(L);
	LWorld *lw = lua_newuserdatauv(L, sizeof *lw, 2);
	lw->w = NULL; /* closed until the core world exists (liolib newprefile) */
	lw->pending = NULL;
	lw->undo = 0;
	lw->fail_alloc = 0;
	luaL_setmetatable(L, WORLD_MT);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 1);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 2);
	/* The allocator bridge needs a state that lives as long as the world: the
	 * main thread does. */
	lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
	lw->main = lua_tothread(L, -1);
	lua_pop(L, 1);
	lw->w = bp_world_create(l_alloc_bridge, lw);
	if (!lw->w)
		return luaL_error(L, "not enough memory");
	lw->w->handle_tag = tag;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &live_worlds_key);
	lua_pushvalue(L, -2);
	lua_rawsetp(L, -2, lw);
	lua_pop(L, 1);
	return 1;
}

/* True while a finalizer (__gc) runs: Lua 5.4 then refuses every lua_gc option. A
 * finalizer may run at any allocation inside a method of this very world, which
 * still holds pointers into it. */
static int in_finalizer(lua_State *L)
{
	return lua_gc(L, LUA_GCISRUNNING) < 0;
}

/***
 * Free the world now (also `__close`). Idempotent. Afterwards every World method and
 * every entity of it raises "... (world has been destroyed)" / "(entity belongs to a
 * destroyed world)"; e:valid() returns false. Source: our own.
 * @function World:destroy
 * @raise "destroy: world is locked: cannot destroy it inside world:step (from a rules hook or
 *   filter)" (or "inside e:move (from an entity filter)", e:move_swept likewise).
 */
/* From a finalizer the core world is only detached (the world is destroyed for Lua at
 * once) and freed by __gc: the interrupted method may still read it. */
static int l_world_destroy(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	if (lw->w && lw->w->locked)
		return luaL_error(L, "destroy: world is locked: cannot destroy it inside %s",
		                  lock_holder(lw->w));
	if (lw->w && in_finalizer(L))
		lw->pending = lw->w; /* lw->w set: nothing pending yet */
	else
		bp_world_destroy(lw->w);
	lw->w = NULL;
	return 0;
}

/***
 * `__gc`: frees the core world if world:destroy() did not. Called by the collector,
 * nothing can use the world any more. Called directly from Lua (through
 * debug.getmetatable), it destroys the world for Lua at once, as destroy does, but never
 * raises: inside world:step, e:move or a finalizer the core world is only detached, and
 * freed when the call holding it returns (see free_detached) or by the collector.
 * Source: our own.
 * @function World:__gc
 */
static int l_world_gc(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	lua_Debug caller;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &live_worlds_key);
	/* lua_close runs the finalizers of reachable objects too, with no caller */
	const int direct = lua_rawgetp(L, -1, lw) != LUA_TNIL && lua_getstack(L, 1, &caller);
	lua_pop(L, 2);
	if (direct && lw->w && (lw->w->locked || in_finalizer(L))) {
		lw->pending = lw->w;
		lw->w = NULL;
		return 0;
	}
	if (!direct) /* a direct call leaves a world detached for a call that runs */
		bp_world_destroy(lw->pending), lw->pending = NULL;
	bp_world_destroy(lw->w);
	lw->w = NULL;
	return 0;
}

/* After the outermost world:step or e:move on the core world w returns (locked no
 * more): if its __gc was called directly meanwhile, it was detached; free it now,
 * unless a finalizer runs (it may have interrupted another method that still reads
 * w: the collector frees it then). */
static void free_detached(lua_State *L, LWorld *lw, bp_World *w)
{
	if (lw->pending == w && !w->locked && !in_finalizer(L)) {
		lw->pending = NULL;
		bp_world_destroy(w);
	}
}

/***
 * `tostring(world)`: "blockphys.World (N entities, M blocks)" (M = stored non-air
 * blocks), or "blockphys.World (destroyed)". Never raises for a destroyed world. Source:
 * our own.
 * @function World:__tostring
 * @treturn string
 */
static int l_world_tostring(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	if (!lw->w)
		lua_pushliteral(L, "blockphys.World (destroyed)");
	else
		lua_pushfstring(L, "blockphys.World (%d entities, %I blocks)",
		                (int)lw->w->entities.norder, (lua_Integer)lw->w->stored_blocks);
	return 1;
}

/* Read the boxes list of a block definition at stack index i. */
static int read_boxes(lua_State *L, int i, bp_AABB *boxes)
{
	lua_len(L, i); /* __len may answer anything: luaL_len's own error names no function */
	int ok;
	const lua_Integer len = lua_tointegerx(L, -1, &ok);
	lua_pop(L, 1);
	if (!ok || len < 0)
		luaL_error(L, "define_block: the length of boxes must be a non-negative integer");
	if (len > BP_MAX_TYPE_BOXES)
		luaL_error(L, "define_block: too many boxes (at most %d)", BP_MAX_TYPE_BOXES);
	const int n = (int)len;
	for (int b = 0; b < n; b++) {
		if (lua_geti(L, i, b + 1) != LUA_TTABLE)
			luaL_error(L, "define_block: boxes[%d] must be a table {x1,y1,z1,x2,y2,z2}", b + 1);
		double v[6];
		for (int k = 0; k < 6; k++) {
			if (lua_geti(L, -1, k + 1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
				luaL_error(L, "define_block: boxes[%d][%d] must be a finite number", b + 1, k + 1);
			v[k] = lua_tonumber(L, -1);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		boxes[b] = bp_aabb_make(v[0], v[1], v[2], v[3], v[4], v[5]);
	}
	return n;
}

static int is_key(lua_State *L, const char *const *keys)
{
	const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
	for (; k && *keys; keys++) {
		if (strcmp(k, *keys) == 0)
			return 1;
	}
	return 0;
}

/* Raise for a key of table `t` that is not in `keys`: of several, the one whose text
 * sorts first, so that the message does not depend on the table's hash order. */
static void reject_unknown_keys(lua_State *L, int t, const char *fn, const char *const *keys)
{
	t = lua_absindex(L, t);
	lua_pushnil(L); /* the smallest unknown key's text so far */
	int best = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, t)) {
		if (!is_key(L, keys)) {
			const char *k = key_text(L, -2);
			if (lua_isnil(L, best) || strcmp(k, lua_tostring(L, best)) < 0)
				lua_replace(L, best);
			else
				lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	if (!lua_isnil(L, best))
		luaL_error(L, "%s: unknown field '%s'", fn, lua_tostring(L, best));
	lua_pop(L, 1);
}

/***
 * Define a block type. Source: our own (Beta Block.slipperiness for the friction,
 * reference/b173-movement.md sections 2 and 8 for liquids and ladders, section 2
 * "Soul sand" and "Cobweb" for velocity_factor and web, section 5 and the decompile's
 * BlockFluid and Material for level, solid and ice).
 * @function World:define_block
 * @tparam table def `{name = string (non-empty, unique), boxes = {{x1,y1,z1,x2,y2,z2},
 *   ...} (block-local blocks: x, z in [0, 1], y in [0, 2]; at most 64; default a full
 *   cube, or none for a liquid; `{}` none), slipperiness = number in [0, 1.5] (default
 *   0.6F; ice 0.98F), liquid = "water"|"lava"|nil|false, climbable = boolean (default
 *   false; so are web and spawn's solid: other values raise), velocity_factor = number
 *   in [0, 1] (default 1: a Beta tick that ends touching the block multiplies the X/Z
 *   velocity by it, once per touched cell; soul sand 0.4), web = boolean (a Beta tick
 *   that ends touching it slows the next move, as a cobweb), level = integer in
 *   [0, 15] (default 0, only with liquid: Beta's liquid metadata, 0 source, 1..7
 *   flowing, 8..15 falling), solid = boolean (Beta Material.isSolid; default: some box
 *   and not a liquid), ice = boolean (Beta Material.ice; default false): the last three
 *   feed the water current, beta173_flow.c; normal_cube = boolean (Beta World.isBlockNormalCube:
 *   a full opaque cube, which pushOutOfBlocks pushes out of; default: the unit cube and
 *   solid)}`
 * @treturn integer the new id (1..65535)
 * @raise "define_block: ..." naming the problem: "unknown field 'k'", "field 'name' must
 *   be a string", "name must be a non-empty string", "too many boxes (at most 64)",
 *   "the length of boxes must be a non-negative integer" (from __len),
 *   "boxes[i] must be a table {x1,y1,z1,x2,y2,z2}", "boxes[i][k] must be a finite
 *   number", "box has min > max (or NaN)", "box leaves its cell on X or Z ...", "box Y
 *   must be in [0, 2] ...", "field 'slipperiness' must be a number", "slipperiness must
 *   be in [0, 1.5]", "field 'velocity_factor' must be a number", "velocity_factor must
 *   be in [0, 1]", "field 'liquid' must be \"water\" or \"lava\"", "field 'level' must be
 *   an integer", "level must be an integer in [0, 15]", "level needs liquid = ...",
 *   "field 'solid' must be a boolean" (also 'climbable', 'web', 'ice', 'normal_cube'),
 *   "block 'n' is
 *   already defined", "too many block types (at most 65535)"; "define_block: world is locked: ..."
 *   inside world:step; "not enough memory". Nothing is defined when it raises.
 */
static int l_world_define_block(lua_State *L)
{
	static const char *const keys[] = {"name", "boxes", "slipperiness", "liquid",
	                                   "climbable", "velocity_factor", "web", "level",
	                                   "solid", "ice", "normal_cube", NULL};
	bp_World *w = world_of(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	check_unlocked(L, w, "define_block");
	reject_unknown_keys(L, 2, "define_block", keys);
	bp_BlockDef def = bp_default_block_def();
	bp_AABB boxes[BP_MAX_TYPE_BOXES];
	if (lua_getfield(L, 2, "name") != LUA_TSTRING)
		return luaL_error(L, "define_block: field 'name' must be a string");
	def.name = lua_tostring(L, -1);
	if (lua_getfield(L, 2, "boxes") == LUA_TTABLE) {
		def.boxes = boxes;
		def.nboxes = read_boxes(L, lua_gettop(L), boxes);
	} else if (!lua_isnil(L, -1)) {
		return luaL_error(L, "define_block: field 'boxes' must be a table of boxes");
	}
	if (lua_getfield(L, 2, "slipperiness") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER) /* a table field: no string conversion */
			return luaL_error(L, "define_block: field 'slipperiness' must be a number");
		def.slipperiness = lua_tonumber(L, -1);
	}
	lua_getfield(L, 2, "liquid");
	if (lua_type(L, -1) == LUA_TSTRING) {
		const char *l = lua_tostring(L, -1);
		def.liquid = strcmp(l, "water") == 0 ? BP_LIQUID_WATER
		             : strcmp(l, "lava") == 0 ? BP_LIQUID_LAVA : -1;
	} else if (lua_toboolean(L, -1)) {
		def.liquid = -1;
	}
	if (def.liquid < 0)
		return luaL_error(L, "define_block: field 'liquid' must be \"water\" or \"lava\"");
	if (def.liquid != BP_LIQUID_NONE && !def.boxes)
		def.nboxes = 0; /* liquids default to no boxes: one swims in them, as in the game */
	def.climbable = opt_flag(L, 2, "climbable", "define_block");
	if (lua_getfield(L, 2, "velocity_factor") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER) /* a table field: no string conversion */
			return luaL_error(L, "define_block: field 'velocity_factor' must be a number");
		def.velocity_factor = lua_tonumber(L, -1);
	}
	def.web = opt_flag(L, 2, "web", "define_block");
	if (lua_getfield(L, 2, "level") != LUA_TNIL) {
		int ok;
		lua_Integer level = lua_tointegerx(L, -1, &ok);
		if (!ok || lua_type(L, -1) != LUA_TNUMBER)
			return luaL_error(L, "define_block: field 'level' must be an integer");
		def.level = level < 0 || level > 15 ? -1 : (int)level; /* -1: range error below */
	}
	def.solid = opt_tristate(L, 2, "solid", "define_block"); /* nil: derived */
	def.ice = opt_flag(L, 2, "ice", "define_block");
	def.normal_cube = opt_tristate(L, 2, "normal_cube", "define_block");
	/* The fields' metamethods may have run any code, destroying the world too. */
	w = world_of(L, 1);
	const char *err = bp_block_def_error(&def);
	if (err)
		return luaL_error(L, "define_block: %s", err);
	uint16_t id;
	bp_Status st = bp_world_define_block(w, &def, &id);
	if (st == BP_EEXIST)
		return luaL_error(L, "define_block: block '%s' is already defined", def.name);
	if (st == BP_ELIMIT)
		return luaL_error(L, "define_block: too many block types (at most 65535)");
	if (st != BP_OK)
		raise_status(L, st);
	lua_pushinteger(L, id);
	return 1;
}

/***
 * The id of a block type by name. Source: our own.
 * @function World:block_id
 * @tparam string name
 * @treturn[1] integer id (0 for "air")
 * @treturn[2] nil no such type (not an error)
 * @raise "bad argument #1 to 'block_id' (string expected, got T)".
 */
static int l_world_block_id(lua_State *L)
{
	world_of(L, 1);
	const char *name = luaL_checkstring(L, 2); /* may allocate (a number): finalizers */
	bp_World *w = world_of(L, 1);
	int32_t id = bp_world_find_type(w, name);
	if (id < 0)
		luaL_pushfail(L);
	else
		lua_pushinteger(L, id);
	return 1;
}

/* A table describing block type `id`. The type is copied first: a finalizer run by an
 * allocation may define blocks (moving w->types); its name and boxes stay put. */
static void push_block_info(lua_State *L, const bp_BlockType *type, uint16_t id)
{
	const bp_BlockType copy = *type, *t = &copy;
	lua_createtable(L, 0, 12);
	lua_pushinteger(L, id);
	lua_setfield(L, -2, "id");
	lua_pushstring(L, t->name);
	lua_setfield(L, -2, "name");
	lua_createtable(L, t->nboxes, 0);
	for (int i = 0; i < t->nboxes; i++) {
		lua_createtable(L, 6, 0);
		for (int k = 0; k < 6; k++) {
			lua_pushnumber(L, k < 3 ? t->boxes[i].lo[k] : t->boxes[i].hi[k - 3]);
			lua_rawseti(L, -2, k + 1);
		}
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "boxes");
	lua_pushnumber(L, t->slipperiness);
	lua_setfield(L, -2, "slipperiness");
	if (t->liquid) {
		lua_pushstring(L, t->liquid == BP_LIQUID_WATER ? "water" : "lava");
		lua_setfield(L, -2, "liquid");
	}
	lua_pushboolean(L, t->climbable);
	lua_setfield(L, -2, "climbable");
	lua_pushnumber(L, t->velocity_factor);
	lua_setfield(L, -2, "velocity_factor");
	lua_pushboolean(L, t->web);
	lua_setfield(L, -2, "web");
	lua_pushinteger(L, t->level);
	lua_setfield(L, -2, "level");
	lua_pushboolean(L, t->solid);
	lua_setfield(L, -2, "solid");
	lua_pushboolean(L, t->ice);
	lua_setfield(L, -2, "ice");
	lua_pushboolean(L, t->normal_cube);
	lua_setfield(L, -2, "normal_cube");
}

/***
 * A fresh table describing a block type (copies: changing it changes nothing). Source:
 * our own.
 * @function World:block_info
 * @tparam integer|string block id or name
 * @treturn table `{id, name, boxes = {{x1,y1,z1,x2,y2,z2}, ...} (block-local),
 *   slipperiness, liquid = "water"|"lava"|nil, climbable = boolean, velocity_factor,
 *   web = boolean, level = integer, solid = boolean, ice = boolean, normal_cube =
 *   boolean}`
 * @raise "bad argument #1 to 'block_info' (unknown block 'n')", "(unknown block id n)",
 *   "(block id or name expected, got T)", or "(number has no integer representation)".
 */
static int l_world_block_info(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	uint16_t id = check_block(L, w, 2);
	push_block_info(L, &w->types[id], id);
	return 1;
}

/***
 * Set one block. Source: our own (block coordinates: DESIGN.md section 1).
 * @function World:set_block
 * @tparam integer x @tparam integer y @tparam integer z block coordinates (int32)
 * @tparam integer|string block id or name of a defined type (0 or "air" clears)
 * @raise "bad argument #n to 'set_block' (block coordinate must be an integer in the
 *   int32 range)", "(unknown block ...)"; "set_block: world is locked: ..." inside world:step;
 *   "not enough memory" or "size limit exceeded" (the chunk table would pass its size
 *   limit); either way the block is unchanged.
 */
static int l_world_set_block(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	int32_t x = check_coord(L, 2), y = check_coord(L, 3), z = check_coord(L, 4);
	uint16_t id = check_block(L, w, 5);
	check_unlocked(L, w, "set_block");
	bp_Status st = bp_world_set_block(w, x, y, z, id);
	if (st != BP_OK)
		raise_status(L, st);
	return 0;
}

/***
 * The block id at a block coordinate (0 = air; every unset block is air). Source: our
 * own.
 * @function World:get_block
 * @tparam integer x @tparam integer y @tparam integer z block coordinates (int32)
 * @treturn integer id
 * @raise "bad argument #n to 'get_block' (block coordinate must be an integer in the
 *   int32 range)".
 */
static int l_world_get_block(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	int32_t x = check_coord(L, 2), y = check_coord(L, 3), z = check_coord(L, 4);
	lua_pushinteger(L, bp_world_get_block(w, x, y, z));
	return 1;
}

static double chunk_span(int32_t a, int32_t b)
{
	return floor((double)b / 16) - floor((double)a / 16) + 1;
}

/* Chunks that [a, b] covers whole on one axis. */
static double whole_chunk_span(int32_t a, int32_t b)
{
	return fmax(0, floor(((double)b + 1) / 16) - ceil((double)a / 16));
}

/***
 * Set every block of an inclusive box. Whole 16^3 chunks inside it are stored as one id
 * (no per-block work). Work is bounded by the chunk count. Source: our own.
 * @function World:fill
 * @tparam integer x1 @tparam integer y1 @tparam integer z1 one corner (int32)
 * @tparam integer x2 @tparam integer y2 @tparam integer z2 the other corner, in any order
 * @tparam integer|string block id or name
 * @raise block coordinate and unknown block errors as World:set_block; "fill: region too
 *   large (N chunks of 16^3 blocks; at most 1048576)" (limits.max_fill_chunks); "fill:
 *   region cuts N chunks of 16^3 blocks (at most 65536, ...)" (limits.max_fill_cut_chunks);
 *   "fill: world is locked: ..." inside world:step; "not enough memory" or "size limit
 *   exceeded" (the chunk table would pass its size limit): every allocation happens
 *   before the first block changes, so the blocks stay as they were.
 */
static int l_world_fill(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	int32_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		int32_t p = check_coord(L, 2 + a), q = check_coord(L, 5 + a);
		lo[a] = p < q ? p : q; /* corners in any order */
		hi[a] = p < q ? q : p;
	}
	uint16_t id = check_block(L, w, 8);
	check_unlocked(L, w, "fill");
	double chunks = chunk_span(lo[0], hi[0]) * chunk_span(lo[1], hi[1]) * chunk_span(lo[2], hi[2]);
	if (chunks > BP_MAX_FILL_CHUNKS)
		return luaL_error(L, "fill: region too large (%s chunks of 16^3 blocks; at most %s)",
		                  num_text(chunks).s, num_text(BP_MAX_FILL_CHUNKS).s);
	/* A chunk the region cuts may need an 8 KB id array: bound the memory of one call. */
	double cut = chunks - whole_chunk_span(lo[0], hi[0]) * whole_chunk_span(lo[1], hi[1]) *
	                          whole_chunk_span(lo[2], hi[2]);
	if (cut > MAX_FILL_CUT_CHUNKS)
		return luaL_error(L, "fill: region cuts %s chunks of 16^3 blocks (at most %s, which "
		                     "may need 8 KB each; fill in parts)",
		                  num_text(cut).s, num_text(MAX_FILL_CUT_CHUNKS).s);
	bp_Status st = bp_world_fill(w, lo, hi, id);
	if (st != BP_OK)
		raise_status(L, st);
	return 0;
}

static void check_query_region(lua_State *L, bp_World *w, const bp_AABB *r, const char *fn)
{
	if (bp_world_region_cells(w, r) > MAX_QUERY_CELLS)
		luaL_error(L, "%s: region too large (more than %s cells)", fn,
		           num_text(MAX_QUERY_CELLS).s);
}

/* boxes_in's result table from the n boxes at light userdata 1 (n at 2); run under
 * lua_pcall so that its caller can free that copy if an allocation raises. */
static int push_box_table(lua_State *L)
{
	const bp_AABB *boxes = lua_touserdata(L, 1);
	const lua_Integer n = lua_tointeger(L, 2);
	lua_createtable(L, (int)n, 0);
	for (lua_Integer i = 0; i < n; i++) {
		push_collider(L, &boxes[i]);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

/***
 * Every box that overlaps a region strictly (touching does not count): block shapes in
 * world space (chunk by chunk, y, z, x within each; the same order on every call) then
 * static colliders. Entities are not included (see World:query). Source:
 * reference/b173-movement.md section 4 (the block part of getCollidingBoundingBoxes);
 * the order and static colliders: our own.
 * @function World:boxes_in
 * @tparam Collider region
 * @treturn {Collider,...} new Colliders
 * @raise "bad argument #1 to 'boxes_in' (blockphys.Collider expected, got T)";
 *   "boxes_in: region too large (more than 16777216 cells)" (limits.max_query_cells);
 *   "boxes_in: region holds more than 1048576 boxes (limits.max_query_boxes)";
 *   "not enough memory".
 */
static int l_world_boxes_in(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	bp_AABB r = *check_collider(L, 2);
	check_query_region(L, w, &r, "boxes_in");
	bp_Status st = bp_world_gather(w, &r, MAX_QUERY_BOXES);
	if (st == BP_ELIMIT)
		return luaL_error(L, "boxes_in: region holds more than %d boxes "
		                     "(limits.max_query_boxes)", MAX_QUERY_BOXES);
	if (st != BP_OK)
		raise_status(L, st);
	/* Any Lua allocation below may run a finalizer that queries this world again and
	 * so refills its one scratch list: copy the boxes first, with the raw allocator,
	 * which runs no collector and so no finalizer. */
	const size_t n = w->scratch.count, bytes = n * sizeof(bp_AABB);
	void *ud;
	lua_Alloc alloc = lua_getallocf(L, &ud);
	bp_AABB *copy = n ? alloc(ud, NULL, 0, bytes) : NULL;
	if (n && !copy)
		return luaL_error(L, "not enough memory");
	if (n)
		memcpy(copy, w->scratch.items, bytes);
	lua_pushcfunction(L, push_box_table);
	lua_pushlightuserdata(L, copy);
	lua_pushinteger(L, (lua_Integer)n);
	const int status = lua_pcall(L, 2, 1, 0);
	if (copy)
		alloc(ud, copy, bytes, 0);
	return status == LUA_OK ? 1 : lua_error(L);
}

/***
 * Add a free-standing static box (world space, blocks) that blocks moves, sweeps and
 * raycasts like a block shape. The box is copied. Source: our own (DESIGN.md).
 * @function World:add_collider
 * @tparam Collider box
 * @treturn integer handle in [1, 2^63): the slot in the low 24 bits, the slot's
 *   generation in the next 24 and a tag of the world in the top 15 (the Lua state's
 *   count of worlds made, mod 2^15), so that a removed collider's handle and another
 *   world's name nothing (a world made 32,768 worlds later could reuse the tag).
 * @raise "bad argument #1 to 'add_collider' (blockphys.Collider expected, got T)";
 *   "add_collider: world is locked: ..." inside world:step; "not enough memory" or "size limit
 *   exceeded" (more than 16,777,215 colliders, or the collider table would pass its
 *   size limit). Nothing is added when it raises.
 */
static int l_world_add_collider(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	bp_AABB *c = check_collider(L, 2);
	check_unlocked(L, w, "add_collider");
	uint64_t handle = 0; /* raise_status does not return; the compiler cannot know */
	bp_Status st = bp_world_add_collider(w, c, &handle);
	if (st != BP_OK)
		raise_status(L, st);
	lua_pushinteger(L, (lua_Integer)handle); /* < 2^63 */
	return 1;
}

/***
 * Remove a static collider. Source: our own.
 * @function World:remove_collider
 * @tparam integer handle from World:add_collider
 * @raise "bad argument #1 to 'remove_collider' (no such collider (removed, never
 *   added, or another world's))", "(number has no integer representation)";
 *   "remove_collider: world is locked: ..." inside world:step.
 */
/* A handle that names no live collider of this world (bp_world_collider_slot gave 0). */
#define NO_SUCH_COLLIDER "no such collider (removed, never added, or another world's)"

static int l_world_remove_collider(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	lua_Integer h = luaL_checkinteger(L, 2);
	check_unlocked(L, w, "remove_collider");
	const uint32_t index1 = bp_world_collider_slot(w, (uint64_t)h); /* h < 0: no tag */
	if (!index1)
		return luaL_argerror(L, 2, NO_SUCH_COLLIDER);
	bp_world_remove_collider(w, index1);
	return 0;
}

/***
 * Counters of the world (a fresh table). Source: our own.
 * @function World:stats
 * @treturn table `{blocks` (stored non-air blocks), `chunks` (16^3 chunks stored),
 *   `bytes` (memory held by the core world, excluding Lua objects), `block_types`
 *   (defined types including air), `entities` (live), `colliders` (live static)`}`
 * @raise "calling 'stats' on bad self (world has been destroyed)".
 */
static int l_world_stats(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	lua_createtable(L, 0, 6);
	lua_pushinteger(L, (lua_Integer)w->stored_blocks);
	lua_setfield(L, -2, "blocks");
	lua_pushinteger(L, w->nchunks);
	lua_setfield(L, -2, "chunks");
	lua_pushinteger(L, (lua_Integer)w->mem.bytes);
	lua_setfield(L, -2, "bytes");
	lua_pushinteger(L, w->ntypes);
	lua_setfield(L, -2, "block_types");
	lua_pushinteger(L, w->entities.norder);
	lua_setfield(L, -2, "entities");
	lua_pushinteger(L, w->live_colliders);
	lua_setfield(L, -2, "colliders");
	return 1;
}

/***
 * Internal, for the specs: make the n-th next allocation of this world's core fail
 * (its memory grows through Lua's allocator), as if memory had run out; 0 turns it
 * off. A call that then fails must change nothing but the capacity it reserved.
 * Source: our own.
 * @function World:_fail_alloc
 * @tparam integer n 1 = the next allocation, 0 = none
 * @treturn integer what was left of the previous count (0: that failure happened)
 * @raise "bad argument #1 to '_fail_alloc' (must be >= 0)" (n, counted after self), or
 *   "(number has no integer representation)".
 * @local
 */
static int l_world_fail_alloc(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	lua_Integer n = luaL_checkinteger(L, 2);
	luaL_argcheck(L, n >= 0, 2, "must be >= 0");
	lua_pushinteger(L, lw->fail_alloc); /* 0 once the failure has happened */
	lw->fail_alloc = n;
	return 1;
}

/***
 * Internal, for `paste`: raise the lock error a change of blocks would meet now, as
 * "<fn>: world is locked: ..." (inside a rules hook or filter), before paste reads its
 * cells: a paste with nothing to define or place would otherwise succeed where any
 * other one raises. Source: our own.
 * @function World:_check_unlocked
 * @tparam string fn the refused call's name, first in the message
 * @raise "<fn>: world is locked: ..."; "calling '_check_unlocked' on bad self (world
 *   has been destroyed)".
 * @local
 */
static int l_world_check_unlocked(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	check_unlocked(L, w, luaL_checkstring(L, 2));
	return 0;
}

/***
 * Internal, for the specs: remove and add again the collider `handle` names, n times
 * (the same box), as a script churning one collider would; a slot whose generations
 * run out is retired and the collider moves to another slot. Source: our own.
 * @function World:_reuse_collider
 * @tparam integer handle a live collider's handle
 * @tparam integer n cycles, >= 0
 * @treturn integer the collider's handle after the last cycle
 * @raise as remove_collider for the handle, "bad argument #2 to '_reuse_collider'
 *   (must be >= 0)", "_reuse_collider: world is locked: ...", "not enough memory".
 * @local
 */
static int l_world_reuse_collider(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	const uint32_t slot = bp_world_collider_slot(w, (uint64_t)luaL_checkinteger(L, 2));
	const lua_Integer n = luaL_checkinteger(L, 3);
	luaL_argcheck(L, slot != 0, 2, NO_SUCH_COLLIDER);
	luaL_argcheck(L, n >= 0, 3, "must be >= 0");
	check_unlocked(L, w, "_reuse_collider");
	const bp_AABB box = w->colliders[slot - 1].box;
	uint64_t handle = bp_world_collider_handle(w, slot);
	for (lua_Integer i = 0; i < n; i++) {
		bp_world_remove_collider(w, bp_world_collider_slot(w, handle));
		bp_Status st = bp_world_add_collider(w, &box, &handle);
		if (st != BP_OK)
			raise_status(L, st); /* the collider is gone: only for tests */
	}
	lua_pushinteger(L, (lua_Integer)handle);
	return 1;
}

/* ------------------------------------------------------------------- rules */

static const char *const MODEL_NAMES[] = {"beta173", "mccpp", NULL};
static const char *const RESOLVER_NAMES[] = {"axis", "swept", NULL};
static const char *const INTEGRATOR_NAMES[] = {"exact", "mccpp", NULL}; /* MC-CPP only */

static void push_push_model(lua_State *L, int p)
{
	if (p == BP_PUSH_NONE)
		lua_pushboolean(L, 0);
	else
		lua_pushstring(L, p == BP_PUSH_BETA173 ? "beta173" : "separate");
}

static const bp_RuleField *find_field(const char *name)
{
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (strcmp(f->name, name) == 0)
			return f;
	}
	return NULL;
}

static void push_field(lua_State *L, const bp_Rules *r, const bp_RuleField *f)
{
	const char *p = (const char *)r + f->offset;
	switch (f->kind) {
	case BP_FIELD_BOOL:
		lua_pushboolean(L, *(const int *)p);
		break;
	case BP_FIELD_INT:
		lua_pushinteger(L, *(const int *)p);
		break;
	case BP_FIELD_VEC3: {
		const double *v = (const double *)p;
		lua_createtable(L, 3, 0);
		for (int k = 0; k < 3; k++) {
			lua_pushnumber(L, v[k]);
			lua_rawseti(L, -2, k + 1);
		}
		break;
	}
	default:
		lua_pushnumber(L, *(const double *)p);
	}
}

static double range_checked(lua_State *L, const bp_RuleField *f, double v, const char *fn)
{
	if (!(v >= f->min && v <= f->max))
		luaL_error(L, "%s: rule '%s' must be a number in [%s, %s]", fn, f->name,
		           num_text(f->min).s, num_text(f->max).s);
	/* -0 is stored as 0: a rule's zero then never meets a zero of the other sign in
	 * fmin/fmax, whose choice between them C leaves to each build. */
	return v + 0.0;
}

/* Store the value on top of the stack into field f of r (validated). */
static void set_field(lua_State *L, bp_Rules *r, const bp_RuleField *f, const char *fn)
{
	char *p = (char *)r + f->offset;
	int t = lua_type(L, -1);
	if (f->kind == BP_FIELD_BOOL) {
		if (t != LUA_TBOOLEAN)
			luaL_error(L, "%s: rule '%s' must be a boolean", fn, f->name);
		*(int *)p = lua_toboolean(L, -1);
	} else if (f->kind == BP_FIELD_VEC3) {
		double v[3];
		if (t != LUA_TTABLE)
			luaL_error(L, "%s: rule '%s' must be a table of 3 numbers", fn, f->name);
		for (int k = 0; k < 3; k++) {
			if (lua_geti(L, -1, k + 1) != LUA_TNUMBER)
				luaL_error(L, "%s: rule '%s' must be a table of 3 numbers", fn, f->name);
			v[k] = range_checked(L, f, lua_tonumber(L, -1), fn);
			lua_pop(L, 1);
		}
		memcpy(p, v, sizeof v);
	} else {
		if (t != LUA_TNUMBER)
			luaL_error(L, "%s: rule '%s' must be a number", fn, f->name);
		double v = range_checked(L, f, lua_tonumber(L, -1), fn);
		if (f->kind == BP_FIELD_INT) {
			if (v != floor(v))
				luaL_error(L, "%s: rule '%s' must be an integer", fn, f->name);
			*(int *)p = (int)v;
		} else {
			*(double *)p = v;
		}
	}
}

static int option_index(lua_State *L, const char *const *names, const char *fn,
                        const char *what)
{
	const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
	for (int i = 0; s && names[i]; i++) {
		if (strcmp(s, names[i]) == 0)
			return i;
	}
	return luaL_error(L, "%s: rule '%s' must be one of %s", fn, what,
	                  names == MODEL_NAMES        ? "\"beta173\", \"mccpp\""
	                  : names == INTEGRATOR_NAMES ? "\"exact\", \"mccpp\""
	                                              : "\"axis\", \"swept\"");
}

static int read_push(lua_State *L, const char *fn)
{
	if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1))
		return BP_PUSH_NONE;
	const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
	if (strcmp(s, "beta173") == 0)
		return BP_PUSH_BETA173;
	if (strcmp(s, "separate") == 0)
		return BP_PUSH_SEPARATE;
	return luaL_error(L, "%s: rule 'push' must be \"beta173\", \"separate\" or false", fn);
}

/* Set one named rule from the value on top of the stack. Hooks are handled by the
 * callers (they live on the Lua side). Returns 0 if the name is unknown. */
static int set_rule(lua_State *L, bp_Rules *r, const char *name, const char *fn)
{
	if (strcmp(name, "resolver") == 0) {
		r->resolver = option_index(L, RESOLVER_NAMES, fn, "resolver");
	} else if (strcmp(name, "push") == 0) {
		r->push = read_push(L, fn);
	} else if (strcmp(name, "integrator") == 0 && r->model == BP_MODEL_MCCPP) {
		r->integrator = option_index(L, INTEGRATOR_NAMES, fn, "integrator");
	} else if (strcmp(name, "model") == 0) {
		if (option_index(L, MODEL_NAMES, fn, "model") != r->model)
			luaL_error(L, "%s: rule 'model' cannot change (make new rules with bp.rules.%s)",
			           fn, lua_tostring(L, -1));
	} else {
		const bp_RuleField *f = find_field(name);
		if (!f || !(f->models & (1 << r->model)))
			return 0;
		set_field(L, r, f, fn);
	}
	return 1;
}

/* Raise "fn: unknown rule 'k' for model m", or, for the other model's rule, name both
 * models (the likely cause: one preset's table whose plain 'model' field was set to
 * the other). fn may be NULL (no prefix). */
static int unknown_rule(lua_State *L, const char *fn, const char *k, int model)
{
	const char *sep = fn ? ": " : "";
	if (fn == NULL)
		fn = "";
	if (find_field(k) || strcmp(k, "integrator") == 0)
		return luaL_error(L, "%s%srule '%s' belongs to model %s, not %s", fn, sep, k,
		                  MODEL_NAMES[!model], MODEL_NAMES[model]);
	return luaL_error(L, "%s%sunknown rule '%s' for model %s", fn, sep, k, MODEL_NAMES[model]);
}

static int is_hook_name(const char *k)
{
	return strcmp(k, "heading") == 0 || strcmp(k, "jump") == 0;
}

/* The rules that are not bp_rule_fields: named options, read first (set_rule). */
static const char *const RULE_OPTIONS[] = {"model", "resolver", "push", "integrator"};
#define NRULE_OPTIONS (sizeof RULE_OPTIONS / sizeof *RULE_OPTIONS)

/* Whether k names an option of `model` ("integrator" is MC-CPP's only). */
static int is_option_name(const char *k, int model)
{
	for (size_t i = 0; i < NRULE_OPTIONS; i++) {
		if (strcmp(k, RULE_OPTIONS[i]) == 0)
			return model == BP_MODEL_MCCPP || strcmp(k, "integrator") != 0;
	}
	return 0;
}

/* Push t[name] read raw (no metamethod runs); returns its type. */
static int raw_field(lua_State *L, int t, const char *name)
{
	lua_pushstring(L, name);
	return lua_rawget(L, t);
}

/* Every key of rules table t must be a string naming a rule of `model` or a hook.
 * The other model's rules are reported first, in field order; then the smallest
 * unknown name (strcmp), so that the message is the same in every run. */
static void check_rule_names(lua_State *L, int t, int model, const char *fn)
{
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (f->models & (1 << model))
			continue;
		int present = raw_field(L, t, f->name) != LUA_TNIL;
		lua_pop(L, 1);
		if (present)
			unknown_rule(L, fn, f->name, model);
	}
	const char *bad = NULL; /* points into a key of t, alive while t is unchanged */
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "%s: rule names must be strings", fn);
		const char *k = lua_tostring(L, -1);
		const bp_RuleField *f = find_field(k);
		int known = is_hook_name(k) || is_option_name(k, model) || (f && (f->models & (1 << model)));
		if (!known && (!bad || strcmp(k, bad) < 0))
			bad = k;
	}
	if (bad)
		unknown_rule(L, fn, bad, model);
}

/* Hook `name` of rules table t: 1 for a function, 0 for nil or false. */
static int read_hook(lua_State *L, int t, const char *name, const char *fn)
{
	raw_field(L, t, name);
	if (!lua_isnil(L, -1) && !lua_isfunction(L, -1) &&
	    !(lua_isboolean(L, -1) && !lua_toboolean(L, -1)))
		luaL_error(L, "%s: hook '%s' must be a function or nil", fn, name);
	int set = lua_isfunction(L, -1);
	lua_pop(L, 1);
	return set;
}

/* Parse the rules table at index t into *r: start from the preset its 'model' names,
 * then every key must be a known rule or hook. The hook presence flags are set. */
static void read_rules(lua_State *L, int t, bp_Rules *r, const char *fn)
{
	t = lua_absindex(L, t);
	if (!lua_istable(L, t))
		luaL_error(L, "%s: rules must be a table (from bp.rules.beta173 or bp.rules.mccpp)", fn);
	int model = BP_MODEL_BETA173;
	if (raw_field(L, t, "model") != LUA_TNIL) /* read raw, as every rule below */
		model = option_index(L, MODEL_NAMES, fn, "model");
	lua_pop(L, 1);
	*r = model == BP_MODEL_MCCPP ? bp_rules_mccpp() : bp_rules_beta173();
	/* Errors must not depend on the table's hash order (Lua seeds it per state), so
	 * names are checked first, then values are read in a fixed order. */
	check_rule_names(L, t, model, fn);
	for (size_t i = 0; i < NRULE_OPTIONS; i++) {
		if (raw_field(L, t, RULE_OPTIONS[i]) != LUA_TNIL)
			set_rule(L, r, RULE_OPTIONS[i], fn);
		lua_pop(L, 1);
	}
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (!(f->models & (1 << model)))
			continue; /* absent: check_rule_names refused it */
		if (raw_field(L, t, f->name) != LUA_TNIL)
			set_field(L, r, f, fn);
		lua_pop(L, 1);
	}
	r->hook_heading = read_hook(L, t, "heading", fn);
	r->hook_jump = read_hook(L, t, "jump", fn);
}

/* Push a full rules table for r (hooks from the hook table entry at index h, or none). */
static void push_rules_table(lua_State *L, const bp_Rules *r, int h)
{
	lua_newtable(L);
	lua_pushstring(L, MODEL_NAMES[r->model]);
	lua_setfield(L, -2, "model");
	lua_pushstring(L, RESOLVER_NAMES[r->resolver]);
	lua_setfield(L, -2, "resolver");
	push_push_model(L, r->push);
	lua_setfield(L, -2, "push");
	if (r->model == BP_MODEL_MCCPP) {
		lua_pushstring(L, INTEGRATOR_NAMES[r->integrator]);
		lua_setfield(L, -2, "integrator");
	}
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (!(f->models & (1 << r->model)))
			continue;
		push_field(L, r, f);
		lua_setfield(L, -2, f->name);
	}
	if (h) { /* raw, as read_rules read the hook flags */
		raw_field(L, h, "heading");
		lua_setfield(L, -2, "heading");
		raw_field(L, h, "jump");
		lua_setfield(L, -2, "jump");
	}
	luaL_setmetatable(L, RULES_MT);
}

/***
 * A complete rules table of a preset with overrides (what bp.rules.beta173/mccpp call).
 * Every constant of the model is a named field; the table rejects keys that name no
 * rule of its model (Rules:__newindex). Sources:
 * reference/b173-movement.md (beta173), sources/mccpp-entity-physics.txt (mccpp).
 * @function make_rules
 * @tparam string model "beta173" or "mccpp"
 * @tparam[opt] table overrides named rules (numbers in each field's range, booleans,
 *   `{x, y, z}` vectors, `resolver = "axis"|"swept"`, `push = "beta173"|"separate"|false`,
 *   MC-CPP's `integrator = "exact"|"mccpp"`)
 *   and hooks (`heading`, `jump`: function or nil)
 * @treturn table rules
 * @raise "bp.rules.<model>: ..." naming the problem: "unknown rule 'k' for model m",
 *   "rule 'k' belongs to model m2, not m" (the other model's rules, in field order),
 *   "rule 'k' must be a number in [min, max]", "rule 'k' must be a number/boolean/an
 *   integer/a table of 3 numbers", "rule 'model' must be one of ...", "rule 'model'
 *   cannot change (...)", "hook 'k' must be a function or nil", "rule names must be strings".
 */
static int l_make_rules(lua_State *L)
{
	const char *model = luaL_checkstring(L, 1);
	lua_settop(L, 2); /* a missing overrides table becomes nil at 2, below fn */
	const char *fn = lua_pushfstring(L, "bp.rules.%s", model);
	int fn_idx = lua_gettop(L);
	if (lua_istable(L, 2)) {
		/* An override 'model' must name this preset: raise as assigning it would,
		 * rather than silently handing back the other model's rules. */
		lua_pushliteral(L, "model");
		if (lua_rawget(L, 2) != LUA_TNIL) {
			bp_Rules preset = bp_rules_beta173();
			lua_pushvalue(L, 1);
			preset.model = option_index(L, MODEL_NAMES, fn, "model");
			lua_pop(L, 1);
			set_rule(L, &preset, "model", fn);
		}
	}
	lua_settop(L, fn_idx);
	lua_newtable(L); /* the table read_rules will parse: model + overrides */
	lua_pushvalue(L, 1);
	lua_setfield(L, -2, "model");
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		lua_pushnil(L);
		while (lua_next(L, 2)) {
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_settable(L, -4);
		}
	}
	bp_Rules r;
	read_rules(L, -1, &r, fn);
	int src = lua_gettop(L);
	push_rules_table(L, &r, src);
	return 1;
}

/* Whether key k names a rule of the rules table t's model (its raw `model`, beta173
 * when it has none): a field of that model, an option or a hook. */
static int is_rule_of(lua_State *L, int t, int k)
{
	if (lua_type(L, k) != LUA_TSTRING)
		return 0;
	const char *name = lua_tostring(L, k);
	raw_field(L, t, "model");
	const int model = lua_type(L, -1) == LUA_TSTRING &&
	                  strcmp(lua_tostring(L, -1), MODEL_NAMES[BP_MODEL_MCCPP]) == 0
	                      ? BP_MODEL_MCCPP
	                      : BP_MODEL_BETA173;
	lua_pop(L, 1);
	if (is_option_name(name, model) || is_hook_name(name))
		return 1;
	const bp_RuleField *f = find_field(name);
	return f && (f->models & (1 << model));
}

/***
 * `__newindex` of rules tables: assigning a key that is not a rule of the table's
 * model raises (typos fail early). Rules are plain fields, also one that was set to
 * nil (a hook is absent until set): their values are checked when the table is used
 * (World:spawn, `e.rules = t`). Source: our own.
 * @function Rules:__newindex
 * @raise "unknown rule 'k'"; "bad argument #1 to '__newindex' (table expected, got T)" when
 *   called directly with another value (Lua names it '__newindex').
 */
static int l_rules_newindex(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE); /* the metatable is open to scripts */
	if (is_rule_of(L, 1, 2)) {
		lua_settop(L, 3);
		lua_rawset(L, 1);
		return 0;
	}
	return luaL_error(L, "unknown rule '%s'", key_text(L, 2));
}

/* -------------------------------------------------------------- Entity */

/* The Entity userdata at index i, raising luaL_checkudata's own error if it is not.
 * Entity __index and __newindex (run every tick per entity) hold the metatable as
 * upvalue 2, and comparing with it is much cheaper than luaL_checkudata's lookup by
 * name; elsewhere upvalue 2 is none and the comparison fails over to the lookup. */
static LEntity *check_entity_ud(lua_State *L, int i)
{
	void *p = lua_touserdata(L, i);
	if (p && lua_getmetatable(L, i)) {
		int ok = lua_rawequal(L, -1, lua_upvalueindex(2));
		lua_pop(L, 1);
		if (ok)
			return p;
	}
	return luaL_checkudata(L, i, ENTITY_MT);
}

/* The live entity of the Entity userdata le, its world to *wout, through le->lw (the
 * world's userdata block, which the entity's user value keeps alive). NULL if live,
 * else the problem: "entity belongs to a destroyed world" or "entity has been removed". */
static const char *entity_problem(const LEntity *le, bp_Entity **eout, bp_World **wout)
{
	const LWorld *lw = le->lw;
	*eout = NULL; /* set on every path: callers raise through luaL_error, which */
	*wout = NULL; /* the compiler does not know never returns */
	if (!lw || !lw->w)
		return "entity belongs to a destroyed world";
	*eout = bp_world_entity(lw->w, le->id);
	*wout = lw->w;
	return *eout ? NULL : "entity has been removed";
}

/* entity_problem for a field access (the entity at index 1) whose key at index 2 names
 * a field (so is a string). Raises "entity field 'k': <problem>". */
static bp_Entity *field_entity(lua_State *L, const LEntity *le, bp_World **wout)
{
	bp_Entity *e = NULL;
	const char *problem = entity_problem(le, &e, wout);
	if (problem)
		luaL_error(L, "entity field '%s': %s", lua_tostring(L, 2), problem);
	return e;
}

/* The live entity at stack index i, its world to *wout when given. Raises "bad
 * argument #i (<problem>)" (see entity_problem). */
static bp_Entity *check_entity_w(lua_State *L, int i, bp_World **wout)
{
	bp_Entity *e = NULL;
	bp_World *w = NULL;
	const char *problem = entity_problem(check_entity_ud(L, i), &e, &w);
	if (problem)
		luaL_argerror(L, i, problem);
	if (wout)
		*wout = w;
	return e;
}

static bp_Entity *check_entity(lua_State *L, int i)
{
	return check_entity_w(L, i, NULL);
}

/* Push the cached Entity userdata of slot `index` of the world at stack index wi. */
static void push_entity(lua_State *L, int wi, uint32_t index)
{
	lua_getiuservalue(L, wi, 1);
	lua_rawgeti(L, -1, (lua_Integer)index + 1);
	lua_remove(L, -2);
}

/***
 * The feet position: centre of the bottom face of the box (blocks). Same as e.x, e.y, e.z.
 * Source: DESIGN.md section 1.
 * @function Entity:position
 * @treturn number x, y, z
 * @raise "... (entity has been removed)" or "(entity belongs to a destroyed world)"
 *   (every Entity method but valid raises these for a dead entity).
 */
static int l_entity_position(lua_State *L)
{
	double p[3];
	bp_entity_position(check_entity(L, 1), p);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, p[a]);
	return 3;
}

/***
 * The velocity: blocks/tick under Beta rules, blocks/s under MC-CPP rules. Source:
 * DESIGN.md section 1 (units).
 * @function Entity:velocity
 * @treturn number vx, vy, vz
 * @raise as Entity:position for a dead entity.
 */
static int l_entity_velocity(lua_State *L)
{
	bp_Entity *e = check_entity(L, 1);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, e->vel[a]);
	return 3;
}

/***
 * A copy of the entity's box (world space, blocks): the ground truth of its position.
 * Source: sources/minecraft-style-collision.txt (the box as ground truth), DESIGN.md
 * section 1.
 * @function Entity:box
 * @treturn Collider
 * @raise as Entity:position for a dead entity.
 */
static int l_entity_box(lua_State *L)
{
	push_collider(L, &check_entity(L, 1)->box);
	return 1;
}

/* A nested move's failure that a filter or hook caught: its message, kept in the
 * world's hook table (user value 2) under this key, so that the step or move that
 * fails because of it can say what failed. Cleared when a step or outermost move
 * starts. */
static const char caught_key = 0;

static void forget_caught(lua_State *L, int wi)
{
	lua_getiuservalue(L, wi, 2);
	lua_pushnil(L);
	lua_rawsetp(L, -2, &caught_key); /* removing a key never allocates */
	lua_pop(L, 1);
}

/* Note the message on the stack top (kept there) as the first caught failure. */
static void note_caught(lua_State *L, int wi)
{
	lua_getiuservalue(L, wi, 2);
	if (lua_rawgetp(L, -1, &caught_key) == LUA_TNIL) {
		lua_pushvalue(L, -3);
		lua_rawsetp(L, -3, &caught_key);
	}
	lua_pop(L, 2);
}

/* Push `what` followed by the first caught failure's message, if one was noted. */
static void push_caught(lua_State *L, int wi, const char *what)
{
	lua_pushstring(L, what);
	lua_getiuservalue(L, wi, 2);
	if (lua_rawgetp(L, -1, &caught_key) == LUA_TSTRING) {
		lua_remove(L, -2);
		lua_pushliteral(L, " (the first: ");
		lua_rotate(L, -2, 1);
		lua_pushliteral(L, ")");
		lua_concat(L, 4);
	} else {
		lua_pop(L, 2);
	}
}

static void view_to_table(lua_State *L, int i);
static void sync_hook_flags(lua_State *L, int wi, bp_World *w, uint32_t index);

/* Entity filters called from C (defined with the step, below). */
static bp_Status move_filtered(lua_State *L, bp_World *w, uint32_t index, int swept,
                               const double d[3], double out[3]);
static void undo_hooks(lua_State *L, int wi, int restore);
static void start_undo(lua_State *L, int wi, int on);
static void restored(lua_State *L, int wi, bp_World *w);

static int do_move(lua_State *L, int swept)
{
	bp_World *w;
	bp_Entity *e = check_entity_w(L, 1, &w);
	double d[3], out[3];
	for (int a = 0; a < 3; a++) {
		d[a] = check_finite(L, 2 + a);
		if (fabs(d[a]) > BP_MAX_MOVE)
			luaL_argerror(L, 2 + a, "displacement too large (at most 1024 blocks per axis)");
	}
	uint32_t index = ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1;
	const bp_Entity saved = *e;
	const bp_EntityInput saved_in = w->entities.input[index];
	/* Inside a step or another move, a filter may already have failed (the outer call
	 * then aborts); unlocked, nothing has. */
	const int locked = w->locked, failed_before = locked && w->hook_failed;
	/* The world (the filters' context); a failing filter then leaves its message. */
	lua_getiuservalue(L, 1, 1);
	const int base = lua_gettop(L);
	if (!locked) { /* a filter's hook changes can be undone (inside a step: the step's) */
		forget_caught(L, base);
		start_undo(L, base, 1);
	}
	bp_Status st = move_filtered(L, w, index, swept, d, out);
	if (w->hook_failed && !failed_before) {
		const int caught = lua_gettop(L) == base; /* a filter caught a nested move's error */
		w->entities.items[index] = saved; /* undo the move, its input included */
		w->entities.input[index] = saved_in;
		if (!locked) {
			w->hook_failed = 0;
			undo_hooks(L, base, index + 1);
			restored(L, base, w);
		} else { /* inside a step or move, which fails too (and undoes the hooks) */
			sync_hook_flags(L, base, w, index);
			bp_broadphase_moved(w, index);
		}
		if (caught)
			push_caught(L, base, swept ? "move_swept: a filter failed inside a filter that "
			                             "caught its error"
			                           : "move: a filter failed inside a filter that caught "
			                             "its error");
		else if (locked) /* raised to a filter or hook, which may catch it */
			note_caught(L, base);
		free_detached(L, lua_touserdata(L, base), w);
		return lua_error(L);
	}
	if (!locked)
		undo_hooks(L, base, 0);
	free_detached(L, lua_touserdata(L, base), w);
	if (st != BP_OK)
		raise_status(L, st);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, out[a]);
	return 3;
}

/***
 * Run the per-axis resolver alone, no rules: sneak edge guard, clip Y then X then Z,
 * step-up, flags, fall distance, velocity zeroing on blocked axes. Entity filters apply;
 * the world is locked meanwhile. Allowed inside a hook (in the step's lock). Source:
 * reference/b173-movement.md section 3 (Beta moveEntity).
 * @function Entity:move
 * @tparam number dx @tparam number dy @tparam number dz displacement (blocks, finite,
 *   |d| <= limits.max_move = 1024 per axis)
 * @treturn number dx, dy, dz the actual displacement
 * @raise "bad argument #n to 'move' (displacement too large (at most 1024 blocks per
 *   axis))", "(number must be finite)"; "move: filter of entity N failed: msg" (the
 *   entity is restored; inside world:step the step aborts); "move: a filter failed
 *   inside a filter that caught its error (the first: msg)"; "not enough memory".
 */
static int l_entity_move(lua_State *L) { return do_move(L, 0); }
/***
 * Run the swept resolver alone (as Entity:move otherwise): up to rules.passes earliest-
 * hit passes with back_off, step assist, per-axis fallback. Source:
 * sources/mccpp-entity-physics.txt and mccpp-collider.txt; decisions in README "The
 * swept resolver".
 * @function Entity:move_swept
 * @tparam number dx @tparam number dy @tparam number dz displacement (blocks, finite,
 *   |d| <= 1024 per axis)
 * @treturn number dx, dy, dz the actual displacement
 * @raise as Entity:move, with "move_swept" in the messages.
 */
static int l_entity_move_swept(lua_State *L) { return do_move(L, 1); }

static void check_position(lua_State *L, int i, double p[3])
{
	for (int a = 0; a < 3; a++) {
		p[a] = check_finite(L, i + a);
		if (fabs(p[a]) > BP_MAX_COORD)
			luaL_argerror(L, i + a, "position outside the world (|coordinate| > 2147482000)");
	}
}

/***
 * Put the feet at (x, y, z) without collision. Also sets the previous position (no lerp
 * jump), clears on_ground, fall_distance and landing_fall; velocity is kept. Allowed inside a hook.
 * Source: our own.
 * @function Entity:teleport
 * @tparam number x @tparam number y @tparam number z blocks, finite, |v| <= limits.max_coord
 * @raise "bad argument #n to 'teleport' (position outside the world (|coordinate| >
 *   2147482000))", "(number must be finite)"; dead entity errors.
 */
static int l_entity_teleport(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = check_entity_w(L, 1, &w);
	double p[3];
	check_position(L, 2, p);
	bp_entity_place(e, p);
	memcpy(e->prev, p, sizeof p);
	e->on_ground = 0;
	e->fall_distance = 0;
	e->landing_fall = 0;
	bp_broadphase_moved(w, ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1);
	return 0;
}

/* Inside world:step (after its pre-check), a velocity component that Lua code writes
 * must keep the entity's tick displacement within BP_MAX_MOVE (v x dt for per-second
 * rules): a larger one raises in the hook or filter, which fails the step and undoes it,
 * instead of being clamped without a word. `model` is the rules' model the velocity
 * will be read under (a rules write may change it). */
static double tick_move(const bp_World *w, int model, double v)
{
	return fabs(v) * (model == BP_MODEL_MCCPP ? w->step_dt : 1.0);
}

static void check_step_velocity(lua_State *L, const bp_World *w, int model, double v,
                                const char *what, const char *key)
{
	const double m = tick_move(w, model, v);
	if (!(m <= BP_MAX_MOVE))
		luaL_error(L, "%s '%s' would move the entity %s blocks in one tick "
		              "(at most 1024 per axis inside world:step)", what, key,
		           num_text_digits(m, 17).s);
}

/* After a method changed another entity's velocity inside world:step: the same limit
 * as a velocity write, on the axes it changed, restoring the velocity `before` when it
 * raises. */
static void check_changed_velocity(lua_State *L, const bp_World *w, bp_Entity *e,
                                   const double before[3], const char *what)
{
	static const char *const key[] = {"vx", "vy", "vz"};
	if (w->locked != 1 || w->ticking == (uint32_t)(e - w->entities.items) + 1)
		return; /* outside a step the next step's pre-check raises; the entity whose
		         * tick runs is clamped after it, as its native stages are */
	for (int a = 0; a < 3; a++) {
		if (e->vel[a] == before[a] || tick_move(w, e->rules.model, e->vel[a]) <= BP_MAX_MOVE)
			continue; /* an axis the call left alone may be over until its tick ends */
		const double v = e->vel[a];
		memcpy(e->vel, before, sizeof e->vel);
		check_step_velocity(L, w, e->rules.model, v, what, key[a]);
	}
}

/***
 * Knock the entity back, as Beta's EntityLiving.knockBack: all velocity halved, then
 * the X/Z velocity pushed by `rules.knockback` (0.4F b/t) along (dx, dz) (divided by
 * its length as a Java float, as the game does), vy raised by `rules.knockback` and
 * capped at `rules.knockback_max_vy` (0.4F). Allowed inside a hook. Source:
 * reference/b173-movement.md section 2 ("Knockback").
 * @function Entity:knockback
 * @tparam number dx @tparam number dz the direction of the push (away from the
 *   attacker; any length), finite
 * @raise "bad argument #n to 'knockback' (number must be finite)", "knockback: the
 *   direction (dx, dz) must have a length between about 1e-45 and 3.4e38",
 *   "knockback: needs Beta rules (model beta173), not mccpp"; inside world:step
 *   "knockback: the velocity 'vx' would move the entity X blocks in one tick (at most
 *   1024 per axis inside world:step)" (the velocity stays as it was); dead entity errors.
 */
static int l_entity_knockback(lua_State *L)
{
	const double dx = check_finite(L, 2), dz = check_finite(L, 3);
	bp_World *w;
	bp_Entity *e = check_entity_w(L, 1, &w);
	if (e->rules.model != BP_MODEL_BETA173)
		return luaL_error(L, "knockback: needs Beta rules (model beta173), not %s",
		                  MODEL_NAMES[e->rules.model]);
	double before[3];
	memcpy(before, e->vel, sizeof before);
	if (bp_knockback_beta173(e, dx, dz) != BP_OK)
		return luaL_error(L, "knockback: the direction (dx, dz) must have a length "
		                     "between about 1e-45 and 3.4e38");
	check_changed_velocity(L, w, e, before, "knockback: the velocity");
	return 0;
}

/* A finite number that a float can hold (|v| <= FLT_MAX: the conversion of a larger
 * double to float is undefined in C), for a Beta stage that computes in float. */
static float check_float(lua_State *L, int i)
{
	double v = check_finite(L, i);
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
 * reference/b173-movement.md section 1; sources/mccpp-entity-physics.txt.
 * @function Entity:native_heading
 * @tparam number strafe @tparam number forward @tparam number k finite (Beta rules:
 *   within the float range)
 * @treturn number dvx, dvz
 * @raise "bad argument #n to 'native_heading' (number expected, got T)", "(number must
 *   be finite)", "(number must be within the float range (|v| <= 3.4e38))"; dead entity
 *   errors.
 */
static int l_entity_native_heading(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = check_entity_w(L, 1, &w);
	double dv[2];
	if (e->rules.model == BP_MODEL_BETA173) {
		const float s = check_float(L, 2), f = check_float(L, 3), k = check_float(L, 4);
		bp_heading_beta173(e, bp_entity_input(w, e)->yaw, s, f, k, dv);
	} else {
		const double s = check_finite(L, 2), f = check_finite(L, 3), k = check_finite(L, 4);
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
 * reference/b173-movement.md section 0; sources/mccpp-entity-physics.txt.
 * @function Entity:native_jump
 * @raise inside world:step "native_jump: the velocity 'vy' would move the entity X
 *   blocks in one tick (at most 1024 per axis inside world:step)" (vy stays as it
 *   was); dead entity errors.
 */
static int l_entity_native_jump(lua_State *L)
{
	bp_World *w;
	bp_Entity *e = check_entity_w(L, 1, &w);
	double before[3];
	memcpy(before, e->vel, sizeof before);
	if (e->rules.model == BP_MODEL_BETA173)
		bp_jump_beta173(e);
	else
		bp_jump_mccpp(e);
	check_changed_velocity(L, w, e, before, "native_jump: the velocity");
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
	bp_Entity *e = check_entity(L, 1);
	double t = check_finite(L, 2), p[3], r[3];
	bp_entity_position(e, p);
	for (int a = 0; a < 3; a++) {
		r[a] = t == 1 ? p[a] : e->prev[a] + (p[a] - e->prev[a]) * t;
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
	LEntity *le = check_entity_ud(L, 1);
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
	LEntity *le = check_entity_ud(L, 1);
	lua_getiuservalue(L, 1, 1);
	LWorld *lw = lua_touserdata(L, -1);
	bp_Entity *e = lw && lw->w ? bp_world_entity(lw->w, le->id) : NULL;
	if (!e) {
		lua_pushliteral(L, "blockphys.Entity (removed)");
		return 1;
	}
	double p[3];
	bp_entity_position(e, p);
	lua_pushfstring(L, "blockphys.Entity %d:%d (%f, %f, %f)", (int)le->id.index1,
	                (int)le->id.generation, p[0], p[1], p[2]);
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

/* Hook table entry (user value 2 of the world) for slot index: pushes it or nil. */
static void push_hooks(lua_State *L, int wi, uint32_t index)
{
	lua_getiuservalue(L, wi, 2);
	lua_rawgeti(L, -1, (lua_Integer)index + 1);
	lua_remove(L, -2);
}

/* Push a new hook table with the hook functions of rules table t (reading t may run
 * its metamethods: call this before taking pointers into the world). */
static void push_new_hooks(lua_State *L, int t)
{
	t = lua_absindex(L, t);
	lua_createtable(L, 0, 3);
	raw_field(L, t, "heading"); /* raw, as read_rules reads the flags */
	lua_setfield(L, -2, "heading");
	raw_field(L, t, "jump");
	lua_setfield(L, -2, "jump");
}

/* The hooks a slot can hold (its rules' hooks and its entity filter). */
static const char *const HOOK_KEYS[] = {"heading", "jump", "filter"};

/* Before a change to the hooks of slot index, whose world is at wi and its hook table at
 * ht: while a step or move that can fail runs (LWorld.undo), note the slot's hooks as
 * they were before their first change, in the table ht.undo (made on first use), so that
 * the failure can put them back (undo_hooks): the entity snapshot restores only the C
 * side. Runs no Lua code. */
static void note_hooks_undo(lua_State *L, int wi, int ht, uint32_t index)
{
	LWorld *lw = lua_touserdata(L, wi);
	if (!lw->undo)
		return;
	lw->undo = 2;
	ht = lua_absindex(L, ht);
	lua_pushliteral(L, "undo");
	if (lua_rawget(L, ht) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushliteral(L, "undo");
		lua_pushvalue(L, -2);
		lua_rawset(L, ht);
	}
	if (lua_rawgeti(L, -1, (lua_Integer)index + 1) == LUA_TNIL) {
		lua_pop(L, 1);
		lua_createtable(L, 0, 3); /* a copy: the slot's table is changed in place */
		lua_rawgeti(L, ht, (lua_Integer)index + 1);
		if (lua_istable(L, -1)) {
			for (int i = 0; i < 3; i++) {
				lua_pushstring(L, HOOK_KEYS[i]);
				lua_rawget(L, -2);
				lua_setfield(L, -3, HOOK_KEYS[i]);
			}
		}
		lua_pop(L, 1);
		lua_rawseti(L, -2, (lua_Integer)index + 1);
		lua_pushnil(L);
	}
	lua_pop(L, 2);
}

/* End the noting of hook changes for the world at wi, and put noted hooks back:
 * `restore` < 0 all of them (a failed step, which restores every entity), k > 0 only
 * those of slot k - 1 (a failed e:move restores only the moving entity: another
 * entity's hooks then stay with the rules its C side keeps), 0 none. Call
 * sync_hook_flags after, for each slot restored. */
static void undo_hooks(lua_State *L, int wi, int restore)
{
	LWorld *lw = lua_touserdata(L, wi);
	const int noted = lw->undo == 2;
	lw->undo = 0;
	if (!noted)
		return;
	lua_getiuservalue(L, wi, 2);
	int ht = lua_gettop(L);
	lua_pushliteral(L, "undo");
	if (lua_rawget(L, ht) == LUA_TTABLE && restore) {
		lua_pushnil(L);
		while (lua_next(L, -2)) { /* slot + 1 -> its hooks before the step */
			if (restore < 0 || lua_tointeger(L, -2) == restore) {
				lua_pushvalue(L, -2);
				lua_insert(L, -2);
				lua_rawset(L, ht);
			} else {
				lua_pop(L, 1);
			}
		}
	}
	lua_pushliteral(L, "undo");
	lua_pushnil(L);
	lua_rawset(L, ht);
	lua_settop(L, ht - 1);
}

/* Start a step or unlocked move on the world at wi: discard notes a call that ended by
 * an escaping error may have left (defensive), then note hook changes when `on` (the
 * call can fail and undo them). */
static void start_undo(lua_State *L, int wi, int on)
{
	if (((LWorld *)lua_touserdata(L, wi))->undo)
		undo_hooks(L, wi, 0);
	((LWorld *)lua_touserdata(L, wi))->undo = on;
}

/* Install the hook table on the stack top (popped) for slot index of the world at wi,
 * keeping the slot's entity filter (not a rule). Runs no Lua code. */
static void install_hooks(lua_State *L, int wi, uint32_t index)
{
	int h = lua_gettop(L);
	lua_getiuservalue(L, wi, 2);
	note_hooks_undo(L, wi, -1, index);
	lua_rawgeti(L, -1, (lua_Integer)index + 1);
	if (lua_istable(L, -1)) {
		lua_pushliteral(L, "filter");
		lua_rawget(L, -2);
		lua_pushliteral(L, "filter");
		lua_insert(L, -2);
		lua_rawset(L, h);
	}
	lua_pop(L, 1);
	lua_pushvalue(L, h);
	lua_rawseti(L, -2, (lua_Integer)index + 1);
	lua_settop(L, h - 1);
}

/* Store the function (or nil) on the stack top as the filter of slot index of the
 * world at wi, and pop it. */
static void set_filter(lua_State *L, int wi, uint32_t index, bp_Entity *e)
{
	lua_getiuservalue(L, wi, 2);
	note_hooks_undo(L, wi, -1, index);
	lua_pop(L, 1);
	push_hooks(L, wi, index);
	lua_insert(L, -2);
	e->has_filter = (uint8_t)lua_isfunction(L, -1);
	lua_setfield(L, -2, "filter");
	lua_pop(L, 1);
}

/* The plain entity fields: a number (double) or a boolean (uint8_t) at an offset in
 * bp_Entity, or with `input` in the entity's bp_EntityInput. */
typedef struct PlainField {
	const char *name;
	size_t offset;
	uint8_t boolean;  /* a uint8_t read as a boolean, else a double */
	uint8_t writable; /* 0 read-only, 1 any finite number or a boolean, 2 in [-1, 1] */
	uint8_t input;
	uint8_t velocity; /* a velocity component (bounded inside a step) */
} PlainField;

#define ENTITY_NUM(name, member, w) {name, offsetof(bp_Entity, member), 0, w, 0, 0}
#define ENTITY_VEL(name, a) {name, offsetof(bp_Entity, vel) + (a) * sizeof(double), 0, 1, 0, 1}
#define ENTITY_BOOL(name, member, w) {name, offsetof(bp_Entity, member), 1, w, 0, 0}
#define INPUT_NUM(name, w) {#name, offsetof(bp_EntityInput, name), 0, w, 1, 0}
#define INPUT_BOOL(name) {#name, offsetof(bp_EntityInput, name), 1, 1, 1, 0}

static const PlainField plain_fields[] = {
	ENTITY_VEL("vx", 0), ENTITY_VEL("vy", 1), ENTITY_VEL("vz", 2),
	INPUT_NUM(forward, 2), INPUT_NUM(strafe, 2), INPUT_NUM(yaw, 1),
	ENTITY_NUM("fall_distance", fall_distance, 1),
	ENTITY_NUM("landing_fall", landing_fall, 0),
	ENTITY_NUM("width", width, 0), ENTITY_NUM("height", height, 0),
	ENTITY_NUM("y_size", y_size, 0), ENTITY_NUM("step_offset", step_offset, 0),
	ENTITY_BOOL("on_ground", on_ground, 0),
	ENTITY_BOOL("collided_horizontally", coll_h, 0),
	ENTITY_BOOL("collided_vertically", coll_v, 0),
	ENTITY_BOOL("in_water", in_water, 0), ENTITY_BOOL("in_lava", in_lava, 0),
	ENTITY_BOOL("in_web", in_web, 0),
	INPUT_BOOL(jumping), INPUT_BOOL(sneaking), INPUT_BOOL(flying),
	ENTITY_BOOL("solid", solid, 1), ENTITY_BOOL("stable", stable, 0),
	{NULL, 0, 0, 0, 0, 0}};

/* Where a field lives: in the entity, or in its inputs (bp_EntityInput). */
static char *field_base(bp_World *w, bp_Entity *e, int input)
{
	return input ? (char *)bp_entity_input(w, e) : (char *)e;
}

/* Entity field codes: the value of each field name in the table that __index and
 * __newindex hold as upvalue 1, so that a field access is one hash lookup of the
 * (interned) key instead of a string search. Methods map to their functions. */
enum {
	FIELD_PLAIN = 0x100, /* + index in plain_fields */
	FIELD_POS = 0x300,  /* + axis: x, y, z */
	FIELD_RULES = 0x400,
	FIELD_GROUP,
	FIELD_MASK,
	FIELD_WORLD,
	FIELD_FILTER
};

/* Push the field table: every field name to its code, every method to its function. */
static void push_entity_fields(lua_State *L, const luaL_Reg *methods)
{
	lua_newtable(L);
	luaL_setfuncs(L, methods, 0);
	for (int i = 0; plain_fields[i].name; i++) {
		lua_pushinteger(L, FIELD_PLAIN + i);
		lua_setfield(L, -2, plain_fields[i].name);
	}
	static const char *const other[] = {"x", "y", "z", "rules", "group", "mask", "world",
	                                    "filter"};
	static const int code[] = {FIELD_POS, FIELD_POS + 1, FIELD_POS + 2, FIELD_RULES,
	                           FIELD_GROUP, FIELD_MASK, FIELD_WORLD, FIELD_FILTER};
	for (int i = 0; i < 8; i++) {
		lua_pushinteger(L, code[i]);
		lua_setfield(L, -2, other[i]);
	}
}

/* The code of the key at index k (0 if it names no field; methods leave their
 * function on the stack top and return -1). The looked-up value stays on the stack
 * (callers index absolutely or push what they return; popping costs more). */
static int field_code(lua_State *L, int k)
{
	lua_pushvalue(L, k);
	int t = lua_rawget(L, lua_upvalueindex(1));
	if (t == LUA_TFUNCTION)
		return -1;
	return t == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : 0;
}

/* Entity __index for a key that names no field: a method added to the methods table
 * later, or nil. */
static int method_or_nil(lua_State *L)
{
	if (lua_type(L, 2) != LUA_TSTRING)
		return 0;
	if (luaL_getmetafield(L, 1, "methods") != LUA_TTABLE)
		return 0; /* a script replaced the metatable's methods table: no method */
	lua_pushvalue(L, 2);
	lua_rawget(L, -2);
	return 1;
}

static void push_rules_view(lua_State *L, int ei)
{
	lua_newuserdatauv(L, 1, 1);
	lua_pushvalue(L, ei);
	lua_setiuservalue(L, -2, 1);
	luaL_setmetatable(L, RULESVIEW_MT);
}

/***
 * Field access (reads). Methods are found first, so `e:valid()` works on a dead entity;
 * any field of a dead entity raises "entity field 'k': entity has been removed" (or
 * "...: entity belongs to a destroyed world"). Unknown keys give nil.
 * Units: blocks; velocities blocks/tick (Beta rules) or blocks/s (MC-CPP rules).
 * Source: reference/b173-movement.md sections 0-3, 5 and 7 (inputs, flags, fall
 * distance, in_web, liquids, y_size) and section 4 (solid),
 * sources/mccpp-entity-physics.txt (step_offset, flying),
 * sources/n64-quick-collisions.txt (stable); groups, masks, filter: our own.
 *
 * - `x, y, z` number: feet position (read-only; see Entity:teleport)
 * - `vx, vy, vz` number: velocity (writable, finite)
 * - `forward, strafe` number: input in [-1, 1] (writable; strafe > 0 is left)
 * - `yaw` number: degrees, 0 faces +Z, clockwise from above (writable, finite)
 * - `fall_distance` number: blocks fallen since last on the ground (writable, finite)
 * - `landing_fall` number: the fall distance the last move landed with, as Beta passes
 *   it to fall() (fall damage: ceil(landing_fall - 3) half-hearts for a Beta player);
 *   0 when that move did not land the entity; MC-CPP rules: the same, in double
 *   (read-only)
 * - `width, height` number: box size (read-only)
 * - `y_size` number: Beta camera lag (read-only); `step_offset` number: MC-CPP camera
 *   smoothing after a step assist, <= 0 (read-only)
 * - `on_ground, collided_horizontally, collided_vertically, in_water, in_lava, stable`
 *   boolean: results of the last move / step (read-only)
 * - `in_web` boolean: the last Beta tick ended touching a web block, so the next move
 *   is slowed (read-only)
 * - `jumping, sneaking, flying, solid` boolean: inputs and state (writable, kept)
 * - `group, mask` integer in [0, 2^32): collision filtering (writable)
 * - `filter` function|nil: `filter(self, other) -> truthy` (writable)
 * - `rules` RulesView: a live view of this entity's rules (assign a rules table or
 *   another entity's `rules` to replace them: copied and validated)
 * - `world` World: the entity's world (read-only)
 * @function Entity:__index
 * @tparam string k
 * @return the field's value, a method, or nil
 */
static int l_entity_index(lua_State *L)
{
	/* Methods first: e:valid() must answer for a removed entity, and the other
	 * methods check the entity themselves. */
	const LEntity *le = check_entity_ud(L, 1);
	int code = field_code(L, 2);
	if (code < 0)
		return 1;
	if (code == 0) /* names no field: no entity check (a removed entity's too) */
		return method_or_nil(L);
	bp_World *w;
	bp_Entity *e = field_entity(L, le, &w);
	double p[3];
	switch (code & ~0xFF) {
	case FIELD_PLAIN: {
		const PlainField *f = &plain_fields[code & 0xFF];
		const char *at = field_base(w, e, f->input) + f->offset;
		if (f->boolean)
			lua_pushboolean(L, *(const uint8_t *)at);
		else
			lua_pushnumber(L, *(const double *)at);
		return 1;
	}
	case FIELD_POS:
		bp_entity_position(e, p);
		lua_pushnumber(L, p[code & 0xFF]);
		return 1;
	default:
		break;
	}
	switch (code) {
	case FIELD_RULES:
		push_rules_view(L, 1);
		return 1;
	case FIELD_GROUP:
	case FIELD_MASK:
		lua_pushinteger(L, code == FIELD_GROUP ? e->group : e->mask);
		return 1;
	case FIELD_WORLD:
		lua_getiuservalue(L, 1, 1);
		return 1;
	case FIELD_FILTER:
		lua_getiuservalue(L, 1, 1);
		push_hooks(L, lua_gettop(L), ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1);
		lua_getfield(L, -1, "filter");
		return 1;
	default:
		return method_or_nil(L);
	}
}

/* Apply the rules table at index t to the entity at index 1 (validated first). */
static void assign_rules(lua_State *L, int t, const char *fn)
{
	bp_Rules r;
	read_rules(L, t, &r, fn);
	push_new_hooks(L, t);
	/* The rules' metamethods may have removed the entity or destroyed the world:
	 * "entity field 'rules': <problem>", as any field access says it. */
	const LEntity *self = lua_touserdata(L, 1);
	bp_World *w;
	bp_Entity *e = field_entity(L, self, &w);
	if (w->locked == 1 && r.model != e->rules.model && w->ticking == self->id.index1)
		luaL_error(L, "%s: cannot switch entity %d from %s to %s rules during its own tick "
		              "(the rest of the tick would read the other model's constants); "
		              "switch them outside world:step, or while another entity ticks",
		           fn, (int)self->id.index1, MODEL_NAMES[e->rules.model],
		           MODEL_NAMES[r.model]);
	if (w->locked == 1 && r.model != e->rules.model) { /* the velocity in other units */
		static const char *const key[] = {"vx", "vy", "vz"};
		for (int a = 0; a < 3; a++)
			check_step_velocity(L, w, r.model, e->vel[a], "entity.rules: the velocity",
			                    key[a]);
	}
	lua_getiuservalue(L, 1, 1);
	lua_insert(L, -2);
	install_hooks(L, lua_gettop(L) - 1, self->id.index1 - 1);
	lua_pop(L, 1);
	bp_entity_set_rules(w, e, &r);
}

/***
 * Field assignment (see Entity:__index for the fields, units and which are writable).
 * Nothing changes when it raises. Source: our own.
 * @function Entity:__newindex
 * @tparam string k
 * @param v
 * @raise "entity field 'k' is read-only" (x, y, z: "... (use e:teleport(x, y, z))"),
 *   "entity field 'k' must be in [-1, 1]", "entity field 'k' must be a boolean",
 *   "entity field 'k' must be an integer in [0, 2^32)", "entity field 'filter' must be a
 *   function or nil", "entity has no field 'k'", "entity field 'k'
 *   must be a finite number", "entity field 'vx' would move the entity X blocks in one
 *   tick (at most 1024 per axis inside world:step)" (vx, vy, vz written from a hook or
 *   filter), "entity.rules: ..." (rules errors as make_rules; from a hook or filter
 *   also "entity.rules: the velocity 'vx' would move the entity X blocks in one tick
 *   (...)" when the new rules' model reads the velocity beyond the limit, and
 *   "entity.rules: cannot switch entity N from M1 to M2 rules during its own tick
 *   (...)" for the entity whose tick runs); for a
 *   removed entity "entity field 'k': entity has been removed" (or "...: entity belongs
 *   to a destroyed world").
 */
static int l_entity_newindex(lua_State *L)
{
	const LEntity *le = check_entity_ud(L, 1);
	int code = field_code(L, 2);
	/* The key for the messages, read only when raising: a key that is not a string
	 * names no field, and luaL_checkstring then raises its own error. */
#define KEY luaL_checkstring(L, 2)
	if (code <= 0)
		return luaL_error(L, "entity has no field '%s'", KEY);
	bp_World *w;
	bp_Entity *e = field_entity(L, le, &w);
	if ((code & ~0xFF) == FIELD_PLAIN) {
		const PlainField *f = &plain_fields[code & 0xFF];
		if (!f->writable)
			return luaL_error(L, "entity field '%s' is read-only", KEY);
		char *at = field_base(w, e, f->input) + f->offset;
		if (!f->boolean) {
			int ok;
			double v = lua_tonumberx(L, 3, &ok);
			if (!ok || !isfinite(v))
				return luaL_error(L, "entity field '%s' must be a finite number", KEY);
			if (f->writable == 2 && !(v >= -1 && v <= 1))
				return luaL_error(L, "entity field '%s' must be in [-1, 1]", KEY);
			if (f->velocity && w->locked == 1) /* inside a step, past its pre-check */
				check_step_velocity(L, w, e->rules.model, v, "entity field", KEY);
			*(double *)at = v;
			return 0;
		}
		if (!lua_isboolean(L, 3))
			return luaL_error(L, "entity field '%s' must be a boolean", KEY);
		uint8_t v = (uint8_t)lua_toboolean(L, 3);
		if (at == (char *)&e->solid && v != e->solid)
			w->nsolid += v ? 1 : (uint32_t)-1;
		*(uint8_t *)at = v;
		return 0;
	}
	switch (code) {
	case FIELD_RULES:
		view_to_table(L, 3);
		assign_rules(L, 3, "entity.rules");
		return 0;
	case FIELD_GROUP:
	case FIELD_MASK: {
		int ok;
		lua_Integer v = lua_tointegerx(L, 3, &ok);
		if (!ok || v < 0 || v > (lua_Integer)UINT32_MAX)
			return luaL_error(L, "entity field '%s' must be an integer in [0, 2^32)", KEY);
		*(code == FIELD_GROUP ? &e->group : &e->mask) = (uint32_t)v;
		return 0;
	}
	case FIELD_FILTER:
		if (!lua_isnil(L, 3) && !lua_isfunction(L, 3))
			return luaL_error(L, "entity field 'filter' must be a function or nil");
		lua_getiuservalue(L, 1, 1);
		lua_pushvalue(L, 3);
		set_filter(L, lua_gettop(L) - 1, ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1, e);
		return 0;
	case FIELD_POS:
	case FIELD_POS + 1:
	case FIELD_POS + 2:
		return luaL_error(L, "entity field '%s' is read-only (use e:teleport(x, y, z))", KEY);
	case FIELD_WORLD:
		return luaL_error(L, "entity field 'world' is read-only");
	default:
		return luaL_error(L, "entity has no field '%s'", KEY);
	}
#undef KEY
}

static const luaL_Reg entity_methods[] = {
	{"position", l_entity_position}, {"velocity", l_entity_velocity},
	{"box", l_entity_box}, {"move", l_entity_move}, {"move_swept", l_entity_move_swept},
	{"teleport", l_entity_teleport}, {"lerp", l_entity_lerp}, {"valid", l_entity_valid},
	{"knockback", l_entity_knockback}, {"native_heading", l_entity_native_heading},
	{"native_jump", l_entity_native_jump},
	{NULL, NULL}};

static const luaL_Reg entity_meta[] = {
	{"__index", NULL}, {"__newindex", NULL}, /* closures: see luaopen */
	{"__eq", l_entity_eq}, {"__tostring", l_entity_tostring}, {NULL, NULL}};

/* ------------------------------------------------------------- RulesView */

/* The live entity of the user value (pushed, at *ei) of the RulesView at index 1; its
 * world to *wout when given. Raises "entity.rules: entity has been removed" (or "...:
 * entity belongs to a destroyed world"): the view is not an argument the user passed. */
static bp_Entity *view_entity(lua_State *L, int *ei, bp_World **wout)
{
	luaL_checkudata(L, 1, RULESVIEW_MT); /* the metamethods may be called directly */
	lua_getiuservalue(L, 1, 1);
	*ei = lua_gettop(L);
	bp_Entity *e = NULL;
	bp_World *w = NULL;
	const char *problem = entity_problem(lua_touserdata(L, *ei), &e, &w);
	if (problem)
		luaL_error(L, "entity.rules: %s", problem);
	if (wout)
		*wout = w;
	return e;
}

/***
 * `e.rules.k`: read one rule of the entity (live: reflects later writes). `model`,
 * `resolver`, `push` (string or false), the hooks `heading`, `jump` (function or nil),
 * or a named constant of the entity's model (units: README rules tables). A vector rule
 * (`friction`, `drag_*`) returns a new table: assign a whole table to change it.
 * Source: our own.
 * @function RulesView:__index
 * @tparam string k
 * @return the rule's value: number, boolean, string, false (`push`), a new `{x, y, z}`
 *   table (vector rules), a function or nil (hooks)
 * @raise "unknown rule 'k' for model m", "rule 'k' belongs to model m2, not m"; dead
 *   entity errors.
 */
static int l_view_index(lua_State *L)
{
	/* The key first: converting a number key allocates, and a finalizer run then may
	 * spawn and so move the entity pool under e. */
	const char *k = luaL_checkstring(L, 2);
	int ei;
	bp_Entity *e = view_entity(L, &ei, NULL);
	if (strcmp(k, "model") == 0) {
		lua_pushstring(L, MODEL_NAMES[e->rules.model]);
	} else if (strcmp(k, "resolver") == 0) {
		lua_pushstring(L, RESOLVER_NAMES[e->rules.resolver]);
	} else if (strcmp(k, "push") == 0) {
		push_push_model(L, e->rules.push);
	} else if (strcmp(k, "integrator") == 0 && e->rules.model == BP_MODEL_MCCPP) {
		lua_pushstring(L, INTEGRATOR_NAMES[e->rules.integrator]);
	} else if (is_hook_name(k)) {
		lua_getiuservalue(L, ei, 1);
		push_hooks(L, lua_gettop(L), ((LEntity *)lua_touserdata(L, ei))->id.index1 - 1);
		if (lua_istable(L, -1))
			lua_getfield(L, -1, k);
		else
			lua_pushnil(L);
	} else {
		const bp_RuleField *f = find_field(k);
		if (!f || !(f->models & (1 << e->rules.model)))
			return unknown_rule(L, NULL, k, e->rules.model);
		const bp_Rules r = e->rules; /* a table may be allocated: copy first */
		push_field(L, &r, f);
	}
	return 1;
}

/***
 * `e.rules.k = v`: change one rule of this entity only, validated first (nothing
 * half-written). Allowed inside hooks. Source: our own.
 * @function RulesView:__newindex
 * @tparam string k
 * @param v number in the rule's range, boolean, `{x, y, z}`, resolver/push name, or a
 *   hook function (nil removes it)
 * @raise "entity.rules: unknown rule 'k' for model m", "entity.rules: rule 'k' belongs
 *   to model m2, not m", "entity.rules: rule 'k' must be a number in [min, max]" (and the other forms of make_rules), "entity.rules: rule
 *   'model' cannot change (...)", "entity.rules: hook 'k' must be a function or nil";
 *   dead entity errors.
 */
static int l_view_newindex(lua_State *L)
{
	/* The key first: converting a number key allocates, and a finalizer run then may
	 * spawn and so move the entity pool under e. */
	const char *k = luaL_checkstring(L, 2);
	int ei;
	bp_Entity *e = view_entity(L, &ei, NULL);
	if (is_hook_name(k)) {
		if (!lua_isnil(L, 3) && !lua_isfunction(L, 3))
			return luaL_error(L, "entity.rules: hook '%s' must be a function or nil", k);
		LEntity *le = lua_touserdata(L, ei);
		lua_getiuservalue(L, ei, 1);
		int wi = lua_gettop(L);
		lua_getiuservalue(L, wi, 2);
		note_hooks_undo(L, wi, -1, le->id.index1 - 1);
		lua_pop(L, 1);
		push_hooks(L, wi, le->id.index1 - 1);
		if (!lua_istable(L, -1))
			return luaL_error(L, "internal error: missing hook table");
		lua_pushvalue(L, 3);
		lua_setfield(L, -2, k);
		/* The calls above may allocate and so run finalizers that spawn (the pool
		 * moves): find the entity again. */
		e = view_entity(L, &ei, NULL);
		if (k[0] == 'h')
			e->rules.hook_heading = lua_isfunction(L, 3);
		else
			e->rules.hook_jump = lua_isfunction(L, 3);
		return 0;
	}
	if (lua_type(L, 3) == LUA_TTABLE) {
		/* A vector's metamethods may change this entity's rules (a hook, say): run
		 * them now, reading a plain copy, before the rules are copied below. */
		lua_createtable(L, 3, 0);
		for (int i = 1; i <= 3; i++) {
			lua_geti(L, 3, i);
			lua_rawseti(L, -2, i);
		}
		lua_replace(L, 3);
		e = view_entity(L, &ei, NULL);
	}
	bp_Rules r = e->rules; /* validate on a copy: nothing half-written */
	lua_pushvalue(L, 3);
	if (!set_rule(L, &r, k, "entity.rules"))
		return unknown_rule(L, "entity.rules", k, r.model);
	bp_World *w;
	e = view_entity(L, &ei, &w);
	bp_entity_set_rules(w, e, &r);
	return 0;
}

/***
 * A rules table (what bp.rules.beta173/mccpp return) copied from an entity's live view,
 * or from a rules table (a plain table is read as overrides of the preset its `model`
 * names, as `e.rules = t` reads it); includes the hooks (bp.rules.copy). Also what
 * `pairs(e.rules)` iterates and what `e2.rules = e1.rules` assigns. Source: our own.
 * @function rules_copy
 * @tparam RulesView|table rules `e.rules`, or a rules table
 * @treturn table rules
 * @raise "bp.rules.copy: bad argument #1 (e.rules or a rules table expected, got T)";
 *   "bp.rules.copy: ..." as bp.rules.beta173 for a table's bad rules; "entity.rules:
 *   entity has been removed" (or "...: entity belongs to a destroyed world").
 */
static int l_view_copy(lua_State *L)
{
	if (lua_type(L, 1) == LUA_TTABLE) {
		bp_Rules r;
		read_rules(L, 1, &r, "bp.rules.copy");
		push_rules_table(L, &r, 1);
		return 1;
	}
	if (!luaL_testudata(L, 1, RULESVIEW_MT))
		return luaL_error(L, "bp.rules.copy: bad argument #1 (e.rules or a rules table "
		                     "expected, got %s)", luaL_typename(L, 1));
	int ei;
	const bp_Rules r = view_entity(L, &ei, NULL)->rules; /* copied before any allocation
	                                                      * (finalizers) */
	LEntity *le = lua_touserdata(L, ei);
	lua_getiuservalue(L, ei, 1);
	push_hooks(L, lua_gettop(L), le->id.index1 - 1);
	int h = lua_istable(L, -1) ? lua_gettop(L) : 0;
	push_rules_table(L, &r, h);
	return 1;
}

/* Replace a RulesView at stack index i by a rules table copied from its entity (so
 * that `e2.rules = e1.rules` copies); any other value is left as it is. */
static void view_to_table(lua_State *L, int i)
{
	if (!luaL_testudata(L, i, RULESVIEW_MT))
		return;
	lua_pushcfunction(L, l_view_copy);
	lua_pushvalue(L, i);
	lua_call(L, 1, 1);
	lua_replace(L, i);
}

/***
 * `pairs(e.rules)`: iterates a snapshot copy (rules_copy), not the live view. Source:
 * our own.
 * @function RulesView:__pairs
 * @treturn function next
 * @treturn table the copy (a rules table, as bp.rules.copy(e.rules) returns)
 * @treturn nil the first key
 * @raise "entity.rules: entity has been removed" (or its world destroyed).
 */
static int l_view_pairs(lua_State *L)
{
	l_view_copy(L);
	lua_getglobal(L, "next");
	lua_insert(L, -2);
	lua_pushnil(L);
	return 3;
}

/***
 * `tostring(e.rules)`: "blockphys.RulesView". Source: our own.
 * @function RulesView:__tostring
 */
static int l_view_tostring(lua_State *L)
{
	lua_pushliteral(L, "blockphys.RulesView");
	return 1;
}

/* ------------------------------------------------------ World: entities */

static void read_entity_def(lua_State *L, int t, bp_EntityDef *d)
{
	static const char *const keys[] = {"x", "y", "z", "width", "height", "rules", "solid",
	                                   "group", "mask", "yaw", "vx", "vy", "vz", "filter",
	                                   NULL};
	reject_unknown_keys(L, t, "spawn", keys);
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
	d->solid = (uint8_t)opt_flag(L, t, "solid", "spawn");
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
 * tick, as in Beta). Source: reference/b173-movement.md (defaults: the Beta player).
 * @function World:spawn
 * @tparam table def `{x, y, z}` feet position (blocks, finite, |v| <= limits.max_coord,
 *   required); optional `width` in (0, 16] (0.6F), `height` in (0, 32] (1.8F), `rules`
 *   (a rules table or an entity's `rules`; default bp.rules.beta173()), `solid`
 *   (false), `group` (1), `mask` (2^32-1), `yaw` (degrees, 0), `vx, vy, vz` (0;
 *   blocks/tick or blocks/s per the rules), `filter` (function or nil)
 * @treturn Entity
 * @raise "spawn: unknown field 'k'", "spawn: field 'k' must be a finite number",
 *   "spawn: field 'k' is outside the world (|coordinate| > 2147482000)", "spawn: field
 *   'width' must be a number in (0, 16]" (height: (0, 32]), "spawn: field 'k' must be
 *   an integer in [0, 2^32)", "spawn: field 'filter' must be a function or nil",
 *   "spawn: ..." rules errors (as make_rules); "spawn: world is locked: ..." inside
 *   world:step; "not enough memory" or "size limit exceeded" (the entity pool would
 *   pass its size limit). Nothing is spawned when it raises.
 */
static int l_world_spawn(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	check_unlocked(L, w, "spawn");
	bp_EntityDef def = bp_default_entity_def();
	read_entity_def(L, 2, &def);
	double motion[4];
	int given[4];
	read_entity_motion(L, 2, motion, given);
	int has_rules = lua_getfield(L, 2, "rules") != LUA_TNIL;
	if (has_rules) {
		view_to_table(L, 3);
		read_rules(L, 3, &def.rules, "spawn");
	}
	/* Everything that reads Lua values (metamethods may run any code) or allocates
	 * (finalizers may run) happens before the core entity exists: the hook table,
	 * then the Entity userdata. */
	lua_settop(L, 3);
	lua_createtable(L, 0, 3); /* 4: hooks */
	if (has_rules) { /* raw, as read_rules read the hook flags */
		raw_field(L, 3, "heading");
		lua_setfield(L, 4, "heading");
		raw_field(L, 3, "jump");
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
	w = world_of(L, 1);
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
		raise_status(L, st);
	}
	/* From here on no Lua call may raise or run code: the entity must end whole. */
	bp_Entity *e = bp_world_entity(w, le->id);
	double *dst[4] = {&bp_entity_input(w, e)->yaw, &e->vel[0], &e->vel[1], &e->vel[2]};
	for (int i = 0; i < 4; i++) {
		if (given[i])
			*dst[i] = motion[i];
	}
	w->nsolid += e->solid;
	e->has_filter = (uint8_t)has_filter;
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
	bp_World *w = world_of(L, 1);
	LEntity *le = luaL_checkudata(L, 2, ENTITY_MT);
	lua_getiuservalue(L, 2, 1);
	if (!lua_rawequal(L, -1, 1))
		return luaL_argerror(L, 2, "entity belongs to another world");
	bp_Entity *e = check_entity(L, 2);
	check_unlocked(L, w, "remove");
	uint8_t solid = e->solid;
	bp_Status st = bp_world_remove(w, le->id);
	if (st != BP_OK)
		raise_status(L, st);
	w->nsolid -= solid;
	for (int uv = 1; uv <= 2; uv++) {
		lua_getiuservalue(L, 1, uv);
		lua_pushnil(L);
		lua_rawseti(L, -2, (lua_Integer)le->id.index1);
		lua_pop(L, 1);
	}
	return 0;
}

typedef struct QueryCtx {
	lua_State *L;
	int cache, out; /* stack indices: entity userdata cache, result table */
	lua_Integer n;
} QueryCtx;

static int query_count(void *ctx, uint32_t index)
{
	(void)index;
	((QueryCtx *)ctx)->n++;
	return 0;
}

/* Raises no Lua error: rawgeti pushes a cached value, rawseti fills a slot of the
 * preallocated array part (so no longjmp crosses the broadphase's visit). */
static int query_store(void *ctx, uint32_t index)
{
	QueryCtx *q = ctx;
	lua_rawgeti(q->L, q->cache, (lua_Integer)index + 1);
	lua_rawseti(q->L, q->out, ++q->n);
	return 0;
}

/***
 * The entities whose boxes overlap a box (touching is not overlap), in creation order.
 * Groups, masks and filters do not apply: this is a spatial query (the broadphase grid;
 * any region size: a huge one is scanned linearly). Allowed inside hooks and filters.
 * Source: our own (README "The broadphase").
 * @function World:query
 * @tparam Collider collider region (blocks)
 * @treturn {Entity,...} a new array
 * @raise "bad argument #1 to 'query' (blockphys.Collider expected, got ...)"
 */
static int l_world_query(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	bp_AABB r = *check_collider(L, 2);
	lua_settop(L, 2);
	QueryCtx q = {L, 3, 4, 0};
	bp_broadphase_visit(w, &r, query_count, &q);
	lua_getiuservalue(L, 1, 1);
	lua_createtable(L, q.n > INT32_MAX ? INT32_MAX : (int)q.n, 0);
	q.n = 0;
	bp_broadphase_visit(w, &r, query_store, &q);
	return 1;
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
	bp_World *w = world_of(L, 1);
	const bp_EntityPool *p = &w->entities;
	lua_getiuservalue(L, 1, 1);
	lua_createtable(L, (int)p->norder, 0);
	for (uint32_t i = 0; i < p->norder; i++) {
		lua_rawgeti(L, -2, (lua_Integer)p->order[i] + 1);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* ------------------------------------------------------------ World:step */

typedef struct StepCtx {
	lua_State *L;
	int wi;      /* stack index of the World userdata */
	int failed;  /* a hook raised: its message is on the stack top */
	const char *fn; /* for messages: "world:step", "move", "move_swept" */
} StepCtx;

/* What failed, for l_fail_message. */
typedef struct FailMsg {
	const char *fn;   /* "world:step", "move", "move_swept" */
	const char *what; /* "rules hook 'jump'", "filter", ...; NULL: a heading hook's results */
	int entity;       /* slot + 1 */
} FailMsg;

/* The message for a failed hook or filter. Stack: 1 FailMsg (light userdata), 2 the
 * error value. */
static int l_fail_message(lua_State *L)
{
	const FailMsg *f = lua_touserdata(L, 1);
	if (!f->what)
		lua_pushfstring(L, "%s: rules hook 'heading' of entity %d must return two finite "
		                   "numbers (dvx, dvz)", f->fn, f->entity);
	else { /* the error text as it is: %s would stop at a NUL byte in it */
		error_text(L, 2);
		lua_pushfstring(L, "%s: %s of entity %d failed: ", f->fn, f->what, f->entity);
		lua_rotate(L, -2, 1);
		lua_concat(L, 2);
	}
	return 1;
}

/* Mark the step or move failed, replacing the error value on the stack top by its
 * message. Built under pcall, as is all the binding's work while the world is locked:
 * an allocation failure then leaves Lua's preallocated "not enough memory" as the error
 * instead of escaping with the world locked and half-stepped. */
static int fail(StepCtx *c, const char *what, uint32_t index)
{
	lua_State *L = c->L;
	FailMsg f = {c->fn, what, (int)index + 1};
	lua_pushcfunction(L, l_fail_message);
	lua_insert(L, -2);
	lua_pushlightuserdata(L, &f);
	lua_insert(L, -2);
	lua_pcall(L, 2, 1, 0); /* on failure its error is the message */
	c->failed = 1;
	return 1;
}

/* Call hook `name` of slot index with nargs arguments already pushed above the
 * function slot. Leaves nres results on success; on error leaves the message. */
static int call_hook(StepCtx *c, uint32_t index, const char *what, int nargs, int nres)
{
	if (lua_pcall(c->L, nargs + 1, nres, 0) != LUA_OK)
		return fail(c, what, index);
	return 0;
}

/* Push hook function `name` of slot index and its entity argument. */
static void push_hook_call(StepCtx *c, uint32_t index, const char *name)
{
	lua_State *L = c->L;
	push_hooks(L, c->wi, index);
	lua_getfield(L, -1, name);
	lua_remove(L, -2);
	push_entity(L, c->wi, index);
}

static int hook_heading(void *ctx, bp_World *w, uint32_t index, double strafe,
                        double forward, double k, double dv[2])
{
	(void)w;
	StepCtx *c = ctx;
	lua_State *L = c->L;
	push_hook_call(c, index, "heading");
	lua_pushnumber(L, strafe);
	lua_pushnumber(L, forward);
	lua_pushnumber(L, k);
	if (call_hook(c, index, "rules hook 'heading'", 3, 2))
		return 1;
	for (int i = 0; i < 2; i++) {
		int ok;
		dv[i] = lua_tonumberx(L, -2 + i, &ok);
		if (!ok || !isfinite(dv[i])) {
			lua_pop(L, 1); /* the other result stands for the error value */
			return fail(c, NULL, index);
		}
	}
	lua_pop(L, 2);
	return 0;
}

static int hook_jump(void *ctx, bp_World *w, uint32_t index)
{
	(void)w;
	StepCtx *c = ctx;
	push_hook_call(c, index, "jump");
	return call_hook(c, index, "rules hook 'jump'", 0, 0);
}

/* The entity filter of slot `self`: filter(self, other) -> truthy to interact. */
static int hook_filter(void *ctx, bp_World *w, uint32_t self, uint32_t other, int *allow)
{
	(void)w;
	StepCtx *c = ctx;
	lua_State *L = c->L;
	push_hooks(L, c->wi, self);
	lua_getfield(L, -1, "filter");
	lua_remove(L, -2);
	push_entity(L, c->wi, self);
	push_entity(L, c->wi, other);
	if (lua_pcall(L, 2, 1, 0) != LUA_OK)
		return fail(c, "filter", self);
	*allow = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return 0;
}

/* Run a resolver for e:move with the entity filters reachable, the world on the stack
 * top as the filters' context. The world is locked meanwhile so that a filter cannot spawn or
 * remove under the resolver. Called while locked (a hook or a filter calling e:move),
 * it keeps the lock and puts its own filter context in place for the move: the outer
 * one names stack slots of another C call. On a filter failure w->hook_failed is set
 * and the message is on the stack top. */
static bp_Status move_filtered(lua_State *L, bp_World *w, uint32_t index, int swept,
                               const double d[3], double out[3])
{
	StepCtx c = {L, lua_gettop(L), 0, swept ? "move_swept" : "move"};
	const bp_Hooks *outer = w->hooks;
	bp_Hooks hooks = {&c, NULL, NULL, hook_filter};
	const int locked = w->locked;
	if (!locked) {
		w->locked = swept ? LOCK_MOVE_SWEPT : LOCK_MOVE;
		w->hook_failed = 0;
	}
	w->hooks = &hooks;
	bp_Status st = swept ? bp_move_swept(w, &w->entities.items[index], d, out)
	                     : bp_move_axis(w, &w->entities.items[index], d, out);
	w->locked = locked;
	w->hooks = outer;
	bp_broadphase_moved(w, index);
	return st;
}

/* Entities whose rules carry hooks, or with a filter, need a snapshot so that a
 * failing hook leaves the world as it was before the step. */
static int any_hooks(const bp_World *w)
{
	const bp_EntityPool *p = &w->entities;
	for (uint32_t i = 0; i < p->norder; i++) {
		const bp_Entity *e = &p->items[p->order[i]];
		if (e->rules.hook_heading || e->rules.hook_jump || e->has_filter)
			return 1;
	}
	return 0;
}

/* The hook flags of slot index from its Lua hook table (world at wi): a hook that
 * failed may have set or cleared hooks after the snapshot that is copied back. */
static void sync_hook_flags(lua_State *L, int wi, bp_World *w, uint32_t index)
{
	bp_Entity *e = &w->entities.items[index];
	push_hooks(L, wi, index);
	if (!lua_istable(L, -1)) {
		lua_pop(L, 1);
		return;
	}
	e->rules.hook_heading = lua_getfield(L, -1, "heading") == LUA_TFUNCTION;
	e->rules.hook_jump = lua_getfield(L, -2, "jump") == LUA_TFUNCTION;
	e->has_filter = lua_getfield(L, -3, "filter") == LUA_TFUNCTION;
	lua_pop(L, 4);
}

/* After a snapshot is copied back: the grid and the solid count follow the boxes,
 * the hook flags follow the hook tables. */
static void restored(lua_State *L, int wi, bp_World *w)
{
	const bp_EntityPool *p = &w->entities;
	bp_broadphase_invalidate(w);
	w->nsolid = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		w->nsolid += p->items[p->order[i]].solid;
		sync_hook_flags(L, wi, w, p->order[i]);
	}
}

/***
 * Advance every entity, in creation order, by one tick (Beta rules) or dt seconds
 * (MC-CPP rules): rules (input, jump, movement branch) -> resolver -> Beta push, then
 * the separation push; then every entity is stable. The world is locked meanwhile.
 * Sources: reference/b173-movement.md sections 0-2, 5, 6, 8 (beta173);
 * sources/mccpp-entity-physics.txt (mccpp); sources/n64-quick-collisions.txt (separate).
 * @function World:step
 * @tparam[opt=0.05] number dt seconds, in [1e-06, 3600] (limits.min_dt, max_dt; used
 *   by per-second rules only)
 * @raise "bad argument #1 to 'step' (dt must be positive)", "(dt must be in [1e-06,
 *   3600] seconds)" or "(number must be finite)"; "world:step: already stepping (called from a rules hook or filter)";
 *   "world:step: cannot step inside e:move (from an entity filter)" (or e:move_swept); "world:step:
 *   entity N would move X blocks in one step (at most 1024 per axis)" (checked before
 *   anything moves); "world:step: rules hook 'k' of entity N failed: msg", "world:step:
 *   rules hook 'heading' of entity N must return two finite numbers (dvx, dvz)",
 *   "world:step: filter of entity N failed: msg", "world:step: rules hook 'heading' of
 *   entity N would move it X blocks in one tick (at most 1024 per axis)", "world:step:
 *   a filter failed inside a rules hook or filter that caught its error (the first:
 *   msg)": then every entity is restored to its state before the step, with the hooks
 *   and filters that Lua code changed in it (N = the entity's slot + 1).
 */
static int l_world_step(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	double dt = opt_finite(L, 2, 0.05);
	if (!(dt > 0))
		return luaL_argerror(L, 2, "dt must be positive");
	/* Bounds that keep every per-second product finite (velocity x dt, d / dt). */
	if (!(dt >= MIN_DT && dt <= MAX_DT))
		return luaL_argerror(L, 2, "dt must be in [1e-06, 3600] seconds");
	if (w->locked == 1)
		return luaL_error(L, "world:step: already stepping (called from a rules hook or "
		                     "filter)");
	if (w->locked) /* no step runs: a filter of e:move or e:move_swept called step */
		return luaL_error(L, "world:step: cannot step inside %s", lock_holder(w));
	lua_settop(L, 1);
	forget_caught(L, 1);
	StepCtx c = {L, 1, 0, "world:step"};
	bp_Hooks hooks = {&c, hook_heading, hook_jump, hook_filter};
	char *snap = NULL;
	size_t snap_bytes = 0, items_bytes = 0;
	/* The snapshot (the entities, then their inputs: a hook may change both) is
	 * allocated where finalizers may run and change the world: allocate until its size
	 * holds, and check the world only after. */
	while (any_hooks(w)) {
		items_bytes = (size_t)w->entities.count * sizeof(bp_Entity);
		snap_bytes = items_bytes + (size_t)w->entities.count * sizeof(bp_EntityInput);
		snap = lua_newuserdatauv(L, snap_bytes ? snap_bytes : 1, 0);
		w = world_of(L, 1);
		if (items_bytes == (size_t)w->entities.count * sizeof(bp_Entity))
			break;
		lua_pop(L, 1);
		snap = NULL;
	}
	uint32_t fastest;
	double m = bp_world_max_displacement(w, dt, &fastest);
	if (m > BP_MAX_MOVE)
		return luaL_error(L, "world:step: entity %d would move %s blocks in one step "
		                     "(at most 1024 per axis)", (int)fastest + 1,
		                  num_text_digits(m, 17).s);
	start_undo(L, 1, snap != NULL); /* with a snapshot, hook changes can be undone */
	if (snap) {
		memcpy(snap, w->entities.items, items_bytes);
		memcpy(snap + items_bytes, w->entities.input, snap_bytes - items_bytes);
	}
	int base = lua_gettop(L);
	if (bp_world_step(w, dt, &hooks)) {
		/* Restore first: building a message may raise (out of memory). */
		const int caught = lua_gettop(L) == base; /* a hook caught its e:move's error */
		if (snap) {
			memcpy(w->entities.items, snap, items_bytes);
			memcpy(w->entities.input, snap + items_bytes, snap_bytes - items_bytes);
			undo_hooks(L, 1, -1);
			restored(L, 1, w);
		}
		if (w->over_limit) {
			lua_settop(L, base);
			lua_pushfstring(L, "world:step: rules hook 'heading' of entity %d would move it "
			                   "%s blocks in one tick (at most 1024 per axis)",
			                (int)w->over_limit, num_text_digits(w->over_by, 17).s);
		} else if (caught) {
			push_caught(L, 1, "world:step: a filter failed inside a rules hook or filter "
			                  "that caught its error");
		}
		free_detached(L, lua_touserdata(L, 1), w);
		return lua_error(L);
	}
	if (snap)
		undo_hooks(L, 1, 0);
	free_detached(L, lua_touserdata(L, 1), w);
	return 0;
}

/* ------------------------------------------------ queries (raycast.c) */

/* Ray arguments at stack 2..8: origin, direction, max_distance. */
static void check_ray(lua_State *L, double o[3], double d[3], double *max)
{
	for (int a = 0; a < 3; a++) {
		o[a] = check_finite(L, 2 + a);
		if (!(fabs(o[a]) <= BP_MAX_COORD))
			luaL_argerror(L, 2 + a, "origin must be within limits.max_coord of 0");
	}
	for (int a = 0; a < 3; a++)
		d[a] = check_finite(L, 5 + a);
	double unit[3];
	if (bp_ray_normalize(d, unit) != BP_OK)
		luaL_argerror(L, 5, "direction must not be zero");
	*max = check_finite(L, 8);
	if (!(*max > 0 && *max <= BP_MAX_RAY))
		luaL_argerror(L, 8, lua_pushfstring(L, "max_distance must be > 0 and <= %d",
		                                    (int)BP_MAX_RAY));
}

static void set_int_field(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static void set_num_field(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

/* nx, ny, nz, hx, hy, hz, distance of a hit, into the table on the stack top. */
static void set_hit_fields(lua_State *L, const int n[3], const double p[3], double dist)
{
	static const char *const nk[] = {"nx", "ny", "nz"}, *const pk[] = {"hx", "hy", "hz"};
	for (int a = 0; a < 3; a++) {
		set_int_field(L, nk[a], n[a]);
		set_num_field(L, pk[a], p[a]);
	}
	set_num_field(L, "distance", dist);
}

/* A static collider's Lua handle (see l_world_add_collider) from its 1-based slot. */
static lua_Integer collider_handle(const bp_World *w, uint32_t index1)
{
	return (lua_Integer)bp_world_collider_handle(w, index1);
}

/* The handle of the collider a ray or sweep met (kind BP_HIT_COLLIDER), else 0. Taken
 * before the result is allocated: a finalizer run then may remove the collider and
 * give its slot to another. */
static lua_Integer hit_handle(const bp_World *w, int kind, uint32_t collider)
{
	return kind == BP_HIT_COLLIDER ? collider_handle(w, collider) : 0;
}

/* What a ray or sweep met, into the table on the stack top: a block's x, y, z and id,
 * or collider = true and the collider's handle (from hit_handle). */
static void set_target_fields(lua_State *L, int kind, const int32_t cell[3], uint16_t id,
                              lua_Integer handle)
{
	if (kind == BP_HIT_BLOCK) {
		set_int_field(L, "x", cell[0]);
		set_int_field(L, "y", cell[1]);
		set_int_field(L, "z", cell[2]);
		set_int_field(L, "id", id);
	} else {
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, "collider");
		set_int_field(L, "handle", handle);
	}
}

/***
 * Nearest block shape (not cell) or static collider on a ray. A ray starting inside a
 * box hits it at distance 0; ties go to blocks before colliders. Source: our own
 * implementation of the grid walk of Amanatides and Woo, "A Fast Voxel Traversal
 * Algorithm for Ray Tracing" (1987); slab test per box: our own.
 * @function World:raycast
 * @tparam number ox @tparam number oy @tparam number oz origin (blocks, |v| <= limits.max_coord)
 * @tparam number dx @tparam number dy @tparam number dz direction (any nonzero length)
 * @tparam number max_distance in (0, limits.max_ray = 4096] blocks
 * @treturn[1] table `{x, y, z, id, nx, ny, nz, hx, hy, hz, distance}`: block cell and
 *   id, face normal (integers, one +-1), hit point and distance (blocks); for a static
 *   collider `x, y, z, id` are nil and `collider = true`, `handle` = its handle
 * @treturn[2] nil nothing hit
 * @raise "bad argument #n to 'raycast' (origin must be within limits.max_coord of 0)",
 *   "(direction must not be zero)", "(max_distance must be > 0 and <= 4096)",
 *   "(number must be finite)".
 */
static int l_world_raycast(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	double o[3], d[3], max;
	check_ray(L, o, d, &max);
	bp_RayHit h;
	bp_Status st = bp_world_raycast(w, o, d, max, &h);
	if (st != BP_OK)
		raise_status(L, st);
	if (h.kind == BP_HIT_NONE) {
		lua_pushnil(L);
		return 1;
	}
	const lua_Integer handle = hit_handle(w, h.kind, h.collider);
	lua_createtable(L, 0, 12);
	set_target_fields(L, h.kind, h.cell, h.id, handle);
	set_hit_fields(L, h.normal, h.point, h.distance);
	return 1;
}

/***
 * Nearest entity box on a ray (linear over the live entities; ties keep the one
 * created first). Groups, masks and filters do not apply. Source: our own.
 * @function World:raycast_entities
 * @tparam number ox @tparam number oy @tparam number oz origin (as World:raycast)
 * @tparam number dx @tparam number dy @tparam number dz direction (nonzero)
 * @tparam number max_distance in (0, limits.max_ray] blocks
 * @tparam[opt] Entity ignore_entity a live entity of this world the ray passes through
 * @treturn[1] table `{entity, nx, ny, nz, hx, hy, hz, distance}`
 * @treturn[2] nil nothing hit
 * @raise the ray errors of World:raycast (naming 'raycast_entities'); "bad argument #8
 *   to 'raycast_entities' (blockphys.Entity expected, got T)", "(entity belongs to
 *   another world)", "(entity has been removed)".
 */
static int l_world_raycast_entities(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	double o[3], d[3], max;
	check_ray(L, o, d, &max);
	bp_EntityId ignore = {0, 0};
	if (!lua_isnoneornil(L, 9)) {
		LEntity *le = luaL_checkudata(L, 9, ENTITY_MT);
		lua_getiuservalue(L, 9, 1);
		if (!lua_rawequal(L, -1, 1))
			return luaL_argerror(L, 9, "entity belongs to another world");
		lua_pop(L, 1);
		check_entity(L, 9);
		ignore = le->id;
	}
	bp_EntityRayHit h;
	bp_Status st = bp_world_raycast_entities(w, o, d, max, ignore, &h);
	if (st != BP_OK)
		raise_status(L, st);
	if (!h.index1) {
		lua_pushnil(L);
		return 1;
	}
	/* The entity's userdata first (reading it allocates nothing): a finalizer run by
	 * the allocations below may remove it and give its slot to another entity. */
	push_entity(L, 1, h.index1 - 1);
	lua_createtable(L, 0, 8);
	lua_insert(L, -2);
	lua_setfield(L, -2, "entity");
	set_hit_fields(L, h.normal, h.point, h.distance);
	return 1;
}

/***
 * How far a box can move along a displacement before it touches a block shape or a
 * static collider (swept AABB, MC-CPP collide). Moves nothing.
 * @function World:sweep
 * @tparam Collider collider the moving box
 * @tparam number dx @tparam number dy @tparam number dz displacement (|d| <= 1024 per axis)
 * @treturn number t fraction of the displacement in [0, 1]
 * @treturn number ax @treturn number ay @treturn number az allowed displacement t * d
 *   (blocks); on any axis where t * d would round past a face (of the box met, or of
 *   another met at the same time), shortened by a few ulps, so that the moved box never
 *   ends inside a box it did not start in. A box wholly beyond the int32 grid sweeps
 *   through air, however wide.
 * @treturn table|nil first box met: `{x, y, z, id, nx, ny, nz}`, or for a static
 *   collider `{collider = true, handle, nx, ny, nz}`. Boxes the collider already
 *   overlaps are ignored; a box met exactly at the end gives t = 1 and a hit.
 *   Source: sources/mccpp-collider.txt (collide); entities are not tested.
 * @raise "bad argument #1 to 'sweep' (blockphys.Collider expected, got T)", "bad argument
 *   #n to 'sweep' (displacement must be at most 1024 blocks per axis)", "(number must be
 *   finite)"; "sweep: region too large (more than 16777216 cells)".
 */
static int l_world_sweep(lua_State *L)
{
	bp_World *w = world_of(L, 1);
	bp_AABB m = *check_collider(L, 2);
	double v[3];
	for (int a = 0; a < 3; a++) {
		v[a] = check_finite(L, 3 + a);
		if (!(fabs(v[a]) <= BP_MAX_MOVE))
			luaL_argerror(L, 3 + a, "displacement must be at most 1024 blocks per axis");
	}
	if (bp_world_sweep_cells(w, &m, v) > MAX_QUERY_CELLS)
		return luaL_error(L, "sweep: region too large (more than %d cells)",
		                  (int)MAX_QUERY_CELLS);
	bp_SweepHit h;
	bp_Status st = bp_world_sweep(w, &m, v, &h);
	if (st != BP_OK)
		raise_status(L, st);
	const lua_Integer handle = hit_handle(w, h.kind, h.collider);
	lua_pushnumber(L, h.t);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, h.move[a]);
	if (h.kind == BP_HIT_NONE) {
		lua_pushnil(L);
		return 5;
	}
	lua_createtable(L, 0, 7);
	set_target_fields(L, h.kind, h.cell, h.id, handle);
	set_int_field(L, "nx", h.normal[0]);
	set_int_field(L, "ny", h.normal[1]);
	set_int_field(L, "nz", h.normal[2]);
	return 5;
}

static const luaL_Reg world_methods[] = {
	{"define_block", l_world_define_block}, {"block_id", l_world_block_id},
	{"block_info", l_world_block_info}, {"set_block", l_world_set_block},
	{"get_block", l_world_get_block}, {"fill", l_world_fill},
	{"boxes_in", l_world_boxes_in}, {"add_collider", l_world_add_collider},
	{"remove_collider", l_world_remove_collider}, {"stats", l_world_stats},
	{"_fail_alloc", l_world_fail_alloc}, {"_reuse_collider", l_world_reuse_collider},
	{"_check_unlocked", l_world_check_unlocked},
	{"spawn", l_world_spawn}, {"remove", l_world_remove},
	{"entities", l_world_entities}, {"step", l_world_step}, {"query", l_world_query},
	{"destroy", l_world_destroy}, {"raycast", l_world_raycast},
	{"raycast_entities", l_world_raycast_entities}, {"sweep", l_world_sweep},
	{NULL, NULL}};

static const luaL_Reg world_meta[] = {
	{"__gc", l_world_gc}, {"__close", l_world_destroy},
	{"__tostring", l_world_tostring}, {"__index", NULL}, {NULL, NULL}};

/* ------------------------------------------------------------------ module */

/* Build a metatable with a separate methods table (liolib createmeta). The methods
 * table is both __index (when the slot is NULL) and the "methods" field. */
static void create_meta(lua_State *L, const char *name, const luaL_Reg *meta,
                        const luaL_Reg *methods)
{
	luaL_newmetatable(L, name);
	luaL_setfuncs(L, meta, 0);
	/* getmetatable(v) gives the type's name: Lua code cannot reach the metamethods
	 * (a __gc called by hand) or change them. */
	lua_pushstring(L, name);
	lua_setfield(L, -2, "__metatable");
	if (methods) {
		lua_newtable(L);
		luaL_setfuncs(L, methods, 0);
		lua_pushvalue(L, -1);
		lua_setfield(L, -3, "methods");
		lua_getfield(L, -2, "__index");
		if (!lua_toboolean(L, -1)) { /* absent, or the NULL placeholder (false) */
			lua_pop(L, 1);
			lua_setfield(L, -2, "__index");
		} else {
			lua_pop(L, 2);
		}
	}
	lua_pop(L, 1);
}

/***
 * The preset of a model as a complete rules table (no overrides, no hooks). Sources:
 * reference/b173-movement.md (beta173), sources/mccpp-entity-physics.txt (mccpp).
 * @function rules_defaults
 * @tparam string model "beta173" or "mccpp"
 * @treturn table rules
 * @raise "bad argument #1 to 'rules_defaults' (invalid option 'x')".
 */
static int l_rules_defaults(lua_State *L)
{
	int model = luaL_checkoption(L, 1, NULL, MODEL_NAMES);
	bp_Rules r = model == BP_MODEL_MCCPP ? bp_rules_mccpp() : bp_rules_beta173();
	push_rules_table(L, &r, 0);
	return 1;
}

static const luaL_Reg rulesview_meta[] = {
	{"__index", l_view_index}, {"__newindex", l_view_newindex},
	{"__pairs", l_view_pairs}, {"__tostring", l_view_tostring}, {NULL, NULL}};

static const luaL_Reg rules_meta[] = {{"__newindex", l_rules_newindex}, {NULL, NULL}};

static const luaL_Reg module_funcs[] = {
	{"make_rules", l_make_rules}, {"rules_defaults", l_rules_defaults},
	{"rules_copy", l_view_copy}, {NULL, NULL}};

#if defined(__GNUC__)
#define BP_EXPORT __attribute__((visibility("default")))
#else
#define BP_EXPORT
#endif

BP_EXPORT int luaopen_blockphys_core(lua_State *L);

BP_EXPORT int luaopen_blockphys_core(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &live_worlds_key) == LUA_TNIL) {
		lua_newtable(L); /* see live_worlds_key */
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_pushvalue(L, -1);
		lua_setmetatable(L, -2);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &live_worlds_key);
	}
	lua_pop(L, 1);
	create_meta(L, COLLIDER_MT, collider_meta, collider_methods);
	create_meta(L, WORLD_MT, world_meta, world_methods);
	create_meta(L, ENTITY_MT, entity_meta, entity_methods);
	/* __index and __newindex hold the field table (see field_code). */
	luaL_getmetatable(L, ENTITY_MT);
	push_entity_fields(L, entity_methods);
	lua_pushvalue(L, -1);
	lua_pushvalue(L, -3);
	lua_pushcclosure(L, l_entity_index, 2);
	lua_setfield(L, -3, "__index");
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, l_entity_newindex, 2); /* upvalues: the fields, the metatable */
	lua_setfield(L, -2, "__newindex");
	lua_pop(L, 1);
	create_meta(L, RULESVIEW_MT, rulesview_meta, NULL);
	create_meta(L, RULES_MT, rules_meta, NULL);
	luaL_newlib(L, module_funcs);
	/* The constructors sit one level down: Lua names a C function called without a
	 * name of its own (through pcall) by the first place it finds it two levels deep
	 * in package.loaded, and with World and Collider also in blockphys.core that place
	 * would depend on hash order. The blockphys module exports them. */
	static const luaL_Reg constructors[] = {
		{"World", l_world_new}, {"Collider", l_collider_new}, {NULL, NULL}};
	luaL_newlib(L, constructors);
	lua_setfield(L, -2, "constructors");
	lua_pushliteral(L, "blockphys 0.1.0");
	lua_setfield(L, -2, "_VERSION");
	lua_createtable(L, 0, 12);
	lua_pushinteger(L, (lua_Integer)BP_MAX_MOVE);
	lua_setfield(L, -2, "max_move");
	lua_pushinteger(L, (lua_Integer)BP_MAX_COORD);
	lua_setfield(L, -2, "max_coord");
	lua_pushinteger(L, (lua_Integer)BP_MAX_ENTITY_WIDTH);
	lua_setfield(L, -2, "max_width");
	lua_pushinteger(L, (lua_Integer)BP_MAX_ENTITY_HEIGHT);
	lua_setfield(L, -2, "max_height");
	lua_pushinteger(L, (lua_Integer)BP_MAX_FILL_CHUNKS);
	lua_setfield(L, -2, "max_fill_chunks");
	lua_pushinteger(L, (lua_Integer)MAX_QUERY_CELLS);
	lua_setfield(L, -2, "max_query_cells");
	lua_pushinteger(L, MAX_QUERY_BOXES);
	lua_setfield(L, -2, "max_query_boxes");
	lua_pushinteger(L, (lua_Integer)MAX_FILL_CUT_CHUNKS);
	lua_setfield(L, -2, "max_fill_cut_chunks");
	lua_pushinteger(L, (lua_Integer)BP_MAX_RAY);
	lua_setfield(L, -2, "max_ray");
	lua_pushnumber(L, MIN_DT);
	lua_setfield(L, -2, "min_dt");
	lua_pushinteger(L, (lua_Integer)MAX_DT);
	lua_setfield(L, -2, "max_dt");
	lua_setfield(L, -2, "limits");
	luaL_getmetatable(L, WORLD_MT); /* the methods table, for Lua-side World methods */
	lua_getfield(L, -1, "methods");
	lua_setfield(L, -3, "World_methods");
	lua_pop(L, 1);
	return 1;
}
