/* SPDX-License-Identifier: MIT
 * lblockphys.c - the Lua 5.4 binding's module (blockphys.core): luaopen_blockphys_core
 * registers the metatables each file builds (lbp.h lists the files and their jobs) and
 * returns the module table: the rules functions, the constructors, _VERSION, the
 * limits and the World method table. The only symbol the module exports.
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
 * (the World method table, for methods written in Lua; pairs over it lists the API
 * only, not the internal `_`-prefixed methods).
 * @module blockphys.core
 */
#if defined(__unix__) || defined(__APPLE__)
#define _GNU_SOURCE /* dladdr: glibc declares it under _GNU_SOURCE (before any header) */
#include <dlfcn.h>
#endif

#include "lbp.h"

/* Under Lua 5.1, 5.2, 5.3 and LuaJIT the module stays mapped until the process ends.
 * The package library unloads a C module (dlclose) while the state closes, and
 * finalizers may run after that: under Lua 5.1 and LuaJIT a userdata made before
 * require "blockphys" (newproxy) is finalized after the module's handle, and under 5.2
 * and 5.3 a finalizer that runs the collector while the state closes can run the
 * handle's first. A finalizer that then calls a blockphys function (w:stats(), e.x, a
 * World's own __gc) jumped into unmapped code. One more reference to our own file,
 * never released (RTLD_NODELETE where the system has it), keeps the code in place;
 * found by its address (a static object of this file), as Lua 5.1 and LuaJIT do not
 * tell luaopen the file's path. Lua 5.4 needs none: it finalizes the handles last, and
 * a finalizer cannot run the collector. */
static void pin_module(void)
{
#if (defined(__unix__) || defined(__APPLE__)) && LUA_VERSION_NUM < 504
#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0
#endif
	static const char anchor = 0;
	static int pinned = 0;
	Dl_info info;
	if (!pinned && dladdr(&anchor, &info) && info.dli_fname)
		pinned = dlopen(info.dli_fname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) != NULL;
#endif
}

static const luaL_Reg module_funcs[] = {
	{"make_rules", lbp_make_rules}, {"rules_defaults", lbp_rules_defaults},
	{"rules_copy", lbp_rules_copy}, {NULL, NULL}};

#if defined(__GNUC__)
#define BP_EXPORT __attribute__((visibility("default")))
#else
#define BP_EXPORT
#endif

BP_EXPORT int luaopen_blockphys_core(lua_State *L);

/* Safe to call again in the same state (busted runs each spec file with a fresh
 * package.loaded): the metatables are filled anew, the registry's tables kept. */
BP_EXPORT int luaopen_blockphys_core(lua_State *L)
{
	pin_module();
	lbp_open_collider(L);
	lbp_open_world(L);
	lbp_add_methods(L, WORLD_MT, lbp_entity_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_step_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_query_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_loop_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_events_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_trigger_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_stream_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_snapshot_world_methods);
	lbp_add_methods(L, WORLD_MT, lbp_handoff_world_methods);
	lbp_open_snapshot(L);
	lbp_open_testing(L); /* after the World methods: hides World's internal methods */
	lbp_open_loop(L);    /* World's fields, over the complete methods */
	lbp_open_entity(L);
	lbp_add_methods(L, ENTITY_MT, lbp_handoff_entity_methods);
	lbp_open_rules(L);
	luaL_newlib(L, module_funcs);
	/* The constructors sit one level down: Lua names a C function called without a
	 * name of its own (through pcall) by the first place it finds it two levels deep
	 * in package.loaded, and with World and Collider also in blockphys.core that place
	 * would depend on hash order. The blockphys module exports them. */
	static const luaL_Reg constructors[] = {
		{"World", lbp_world_new}, {"Collider", lbp_collider_new},
		{"decode_snapshot", lbp_decode_snapshot}, {NULL, NULL}};
	luaL_newlib(L, constructors);
	lua_setfield(L, -2, "constructors");
	lua_pushliteral(L, "blockphys " BP_VERSION_STRING);
	lua_setfield(L, -2, "_VERSION");
	lbp_open_ffi(L); /* _ffi: LuaJIT's fast path (lua/blockphys/ffi.lua) */
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
	lbp_note_own_functions(L, -1); /* for World:destroy from a finalizer (lworld.c) */
	return 1;
}
