/* SPDX-License-Identifier: MIT
 * lcollider.c - the Collider type: an immutable axis-aligned box (a userdata holding a
 * bp_AABB), its operations and metamethods.
 */

/***
 * Colliders: immutable axis-aligned boxes (blocks), made by `bp.Collider`.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "lbp.h"

/* The Collider at stack index i (luaL_checkudata's error for anything else). */
bp_AABB *lbp_check_collider(lua_State *L, int i)
{
	return luaL_checkudata(L, i, COLLIDER_MT);
}

/* b is copied before the allocation: a finalizer run by it may move what b points to. */
bp_AABB *lbp_push_collider(lua_State *L, const bp_AABB *b)
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
 * value: the operations below return new ones. Source: MC-CPP's collider document (docs/sources.md).
 * @function Collider
 * @tparam number x1 min corner (finite)
 * @tparam number y1 min corner (finite)
 * @tparam number z1 min corner (finite)
 * @tparam number x2 max corner (finite, >= min)
 * @tparam number y2 max corner (finite, >= min)
 * @tparam number z2 max corner (finite, >= min)
 * @treturn Collider
 * @raise "bad argument #n to 'Collider' (number must be finite)", or
 *   "(max corner must not be below the min corner)"; a non-number: "(number expected, got T)".
 */
int lbp_collider_new(lua_State *L)
{
	bp_AABB b;
	for (int a = 0; a < 3; a++) {
		b.lo[a] = lbp_check_finite(L, 1 + a);
		b.hi[a] = lbp_check_finite(L, 4 + a);
	}
	for (int a = 0; a < 3; a++) {
		if (b.lo[a] > b.hi[a])
			luaL_argerror(L, 4 + a, "max corner must not be below the min corner");
	}
	lbp_push_collider(L, &b);
	return 1;
}

/***
 * The six corner coordinates (blocks). Fields `c.x1, c.y1, c.z1, c.x2, c.y2, c.z2` read
 * the same values (read-only: `c.x1 = 5` raises "blockphys.Collider is read-only (field
 * 'x1')", see Collider:__newindex). Source: MC-CPP's collider document (docs/sources.md) (the fields x1 ..
 * z2); read-only values: our own.
 * @function Collider:unpack
 * @treturn number x1, y1, z1, x2, y2, z2
 * @raise "bad argument #1 (blockphys.Collider expected, got T)" for a non-Collider self.
 */
static int l_collider_unpack(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, c->lo[a]);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, c->hi[a]);
	return 6;
}

/***
 * The box translated by (dx, dy, dz) blocks.
 * @function Collider:offset
 * @tparam number dx finite
 * @tparam number dy finite
 * @tparam number dz finite
 * @treturn Collider a new box
 * @raise "bad argument #n to 'offset' (number must be finite)", "(the resulting box is
 *   not finite)". Source: our own.
 */
static int l_collider_offset(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
	bp_AABB r = bp_aabb_offset(c, lbp_check_finite(L, 2), lbp_check_finite(L, 3),
	                           lbp_check_finite(L, 4));
	check_result(L, &r, 2, 1);
	lbp_push_collider(L, &r);
	return 1;
}

/***
 * `c + {dx, dy, dz}`: the box translated (as Collider:offset).
 * @function Collider:__add
 * @tparam table d `{dx, dy, dz}`, three finite numbers (blocks)
 * @treturn Collider
 * @raise "bad argument #2 to 'add' (offset must be a table of three finite numbers)",
 *   "(the resulting box is not finite)" or "(table expected, got T)". Source:
 *   MC-CPP's collider document (docs/sources.md) (operator+).
 */
static int l_collider_add(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
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
	lbp_push_collider(L, &r);
	return 1;
}

/***
 * True if the interiors overlap on all three axes; touching faces do not count.
 * Also the `c & d` operator (__band). Source: MC-CPP's collider document (docs/sources.md) (operator&),
 * Beta intersectsWith.
 * @function Collider:overlaps
 * @tparam Collider d
 * @treturn boolean
 * @raise "bad argument #n (blockphys.Collider expected, got T)".
 */
static int l_collider_overlaps(lua_State *L)
{
	lua_pushboolean(L, bp_aabb_overlaps(lbp_check_collider(L, 1), lbp_check_collider(L, 2)));
	return 1;
}

/***
 * The box grown toward a displacement: a negative component lowers the min corner, a
 * positive one raises the max corner (Beta addCoord; the region a move sweeps).
 * Source: docs/beta173.md (BoundingBox::extend).
 * @function Collider:extend
 * @tparam number dx displacement (blocks, finite)
 * @tparam number dy displacement (blocks, finite)
 * @tparam number dz displacement (blocks, finite)
 * @treturn Collider
 * @raise "bad argument #n to 'extend' (number must be finite)", "(the resulting box is
 *   not finite)".
 */
static int l_collider_extend(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
	bp_AABB r = bp_aabb_extend(c, lbp_check_finite(L, 2), lbp_check_finite(L, 3),
	                           lbp_check_finite(L, 4));
	check_result(L, &r, 2, 1);
	lbp_push_collider(L, &r);
	return 1;
}

/***
 * The box grown by (ex, ey, ez) blocks on both sides of each axis; negative shrinks.
 * Source: Beta AxisAlignedBB.expand (docs/beta173.md).
 * @function Collider:expand
 * @tparam number ex half-growth (blocks, finite)
 * @tparam number ey half-growth (blocks, finite)
 * @tparam number ez half-growth (blocks, finite)
 * @treturn Collider
 * @raise "bad argument #n to 'expand' (number must be finite)" or
 *   "(shrinks the box below zero size)" when a min would pass its max (zero size is
 *   allowed), "(the resulting box is not finite)".
 */
static int l_collider_expand(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
	bp_AABB r = bp_aabb_expand(c, lbp_check_finite(L, 2), lbp_check_finite(L, 3),
	                           lbp_check_finite(L, 4));
	for (int a = 0; a < 3; a++) {
		if (r.lo[a] > r.hi[a])
			luaL_argerror(L, 2 + a, "shrinks the box below zero size");
	}
	check_result(L, &r, 2, 1);
	lbp_push_collider(L, &r);
	return 1;
}

static int clip(lua_State *L, int axis)
{
	bp_AABB *c = lbp_check_collider(L, 1);
	bp_AABB *o = lbp_check_collider(L, 2);
	lua_pushnumber(L, bp_aabb_clip(c, o, axis, lbp_check_finite(L, 3)));
	return 1;
}

/***
 * Displacement d of this (moving) box along X, Y or Z, shortened so that it stops at
 * obstacle `o`. Only an obstacle that overlaps strictly on the two other axes and lies
 * wholly on the far side (touching counts) shortens d; an overlapping one is ignored.
 * Never ends one ulp inside `o` (unlike Beta). Collider:clip_y and Collider:clip_z have
 * the same contract on Y and Z. Source: docs/beta173.md section 3
 * (calculateX/Y/ZOffset).
 * @function Collider:clip_x
 * @tparam Collider o the obstacle
 * @tparam number d displacement along the axis (blocks, finite)
 * @treturn number the allowed displacement, same sign as d, |result| <= |d|
 * @raise "bad argument #n (blockphys.Collider expected, got T)" or "(number must be finite)".
 * @see Collider:clip_y
 * @see Collider:clip_z
 */
static int l_collider_clip_x(lua_State *L) { return clip(L, BP_X); }

/***
 * Collider:clip_x along Y: d (blocks, finite) shortened so that this box stops at `o`;
 * an `o` that does not overlap strictly on X and Z leaves d unchanged. Source: docs/beta173.md section 3
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
 * an `o` that does not overlap strictly on X and Y leaves d unchanged. Source: docs/beta173.md section 3
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
 * static box `s`. Source: MC-CPP's collider document, collide (docs/sources.md); our
 * decisions (docs/mccpp.md, "The swept resolver"): touching on a still axis never hits, touching and moving
 * into `s` hits at t = 0, already overlapping boxes give no hit. A box that ends the
 * frame exactly touching `s` gives t = 1 with the normal of the face it touches (as
 * `collide` does); the swept resolver counts only t < 1 as a hit.
 * @function Collider:sweep
 * @tparam Collider s the static box
 * @tparam number vx displacement (finite)
 * @tparam number vy displacement (finite)
 * @tparam number vz displacement (finite)
 * @treturn number t entry time in [0, 1]; 1 when there is no hit this frame (normal 0)
 * @treturn integer nx: the face normal of `s`, x
 * @treturn integer ny: y
 * @treturn integer nz: z
 *   (one of them +-1; all 0 without a hit). Edge/corner ties: X before Y before Z.
 * @raise "bad argument #n (blockphys.Collider expected, got T)" or "(number must be finite)".
 */
static int l_collider_sweep(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
	bp_AABB *s = lbp_check_collider(L, 2);
	double v[3] = {lbp_check_finite(L, 3), lbp_check_finite(L, 4), lbp_check_finite(L, 5)};
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
	bp_AABB *c = lbp_check_collider(L, 1);
	lua_pushfstring(L, "blockphys.Collider(%s, %s, %s, %s, %s, %s)",
	                lbp_float_text(c->lo[0]).s, lbp_float_text(c->lo[1]).s,
	                lbp_float_text(c->lo[2]).s, lbp_float_text(c->hi[0]).s,
	                lbp_float_text(c->hi[1]).s, lbp_float_text(c->hi[2]).s);
	return 1;
}

/***
 * Field access: `x1, y1, z1` (min corner) and `x2, y2, z2` (max corner), numbers in
 * blocks, read-only; any other key looks up the methods (nil if none). Source:
 * MC-CPP's collider document (docs/sources.md) (the field names); the rest: our own.
 * @function Collider:__index
 * @tparam string k
 * @treturn number|function|nil
 */
static int l_collider_index(lua_State *L)
{
	bp_AABB *c = lbp_check_collider(L, 1);
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
	lbp_check_collider(L, 1);
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

/* Register the Collider metatable (the constructor is in the module's constructors). */
void lbp_open_collider(lua_State *L)
{
	lbp_create_meta(L, COLLIDER_MT, collider_meta, collider_methods);
}
