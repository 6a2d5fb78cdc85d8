/* SPDX-License-Identifier: MIT
 * ltesting.c - World methods that are not the API: test hooks for the specs
 * (_fail_alloc, _reuse_collider, _detached) and _check_unlocked for the Lua layer's paste. They
 * answer `w:_name(...)` as before, but sit in a table of their own, the __index of the
 * World method table's metatable, so that pairs over the methods (bp.core.World_methods)
 * never shows them.
 */

/***
 * Internal World methods (not listed by pairs over the World methods).
 * @module blockphys.core
 */
#include "lbp.h"

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
	bp_World *w = lbp_world_of(L, 1);
	lbp_check_unlocked(L, w, luaL_checkstring(L, 2));
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
	bp_World *w = lbp_world_of(L, 1);
	const uint32_t slot = bp_world_collider_slot(w, (uint64_t)luaL_checkinteger(L, 2));
	const lua_Integer n = luaL_checkinteger(L, 3);
	luaL_argcheck(L, slot != 0, 2, NO_SUCH_COLLIDER);
	luaL_argcheck(L, n >= 0, 3, "must be >= 0");
	lbp_check_unlocked(L, w, "_reuse_collider");
	const bp_AABB box = *bp_world_collider_box(w, slot);
	uint64_t handle = bp_world_collider_handle(w, slot);
	for (lua_Integer i = 0; i < n; i++) {
		bp_world_remove_collider(w, bp_world_collider_slot(w, handle));
		bp_Status st = bp_world_add_collider(w, &box, &handle);
		if (st != BP_OK)
			lbp_raise_status(L, st); /* the collider is gone: only for tests */
	}
	lua_pushinteger(L, (lua_Integer)handle);
	return 1;
}

/***
 * Internal, for the specs: whether the world, destroyed for Lua, keeps its core world
 * for a call that may still read it (destroyed from a finalizer or under a running
 * call: freed when that call returns, or by __gc). Source: our own.
 * @function World:_detached
 * @treturn boolean
 * @local
 */
static int l_world_detached(lua_State *L)
{
	const LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	lua_pushboolean(L, lw->pending != NULL);
	return 1;
}

/***
 * Internal, for the specs: set how many awake entities a step must have before its
 * loops load ahead (prefetch hints; 32,768 by default), so that a small crowd can be
 * stepped both ways and its results compared: they must be the same. Source: our own.
 * @function World:_prefetch_crowd
 * @tparam integer n entities, >= 0 (0 and 1: always)
 * @treturn integer the previous value
 * @raise "bad argument #1 to '_prefetch_crowd' (must be in [0, 4294967295])".
 * @local
 */
static int l_world_prefetch_crowd(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	lua_Integer n = luaL_checkinteger(L, 2);
	luaL_argcheck(L, n >= 0 && n <= (lua_Integer)UINT32_MAX, 2, "must be in [0, 4294967295]");
	lua_pushinteger(L, (lua_Integer)bp_world_set_prefetch_crowd(w, (uint32_t)n));
	return 1;
}

static const luaL_Reg testing_methods[] = {
	{"_prefetch_crowd", l_world_prefetch_crowd},
	{"_detached", l_world_detached}, {"_fail_alloc", l_world_fail_alloc}, {"_reuse_collider", l_world_reuse_collider},
	{"_check_unlocked", l_world_check_unlocked}, {"_reseal", lbp_world_reseal}, {NULL, NULL}};

/* After lbp_open_world: give the World method table a metatable whose __index is a
 * table of the functions above (made anew, as the method table, each time the module
 * is opened). */
void lbp_open_testing(lua_State *L)
{
	luaL_getmetatable(L, WORLD_MT);
	lua_getfield(L, -1, "methods");
	lua_createtable(L, 0, 1); /* the method table's metatable */
	luaL_newlibtable(L, testing_methods);
	luaL_setfuncs(L, testing_methods, 0);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	lua_pop(L, 2);
}
