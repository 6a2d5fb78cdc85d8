/* SPDX-License-Identifier: MIT
 * lbridge.c - the C host's bridge (bp_lua.h, installed as <blockphys/lua.h>): a world
 * made in C handed to a Lua state as a blockphys.World, and the C values behind Lua's
 * World, Entity and rules. Built into the module too (unused there) and exported by
 * libblockphys-lua.
 */
#include <string.h>

#include "bp_lua.h"
#include "lbp.h"

/* The registry keys: a table with weak values, bp_World pointer (light userdata) ->
 * its World userdata, for every world the bridge has seen in this state (hosts' and
 * Lua-made ones passed to bp_lua_check_world); and a plain table holding the World
 * userdata of each host's world until bp_lua_release_world (Lua keeps them whatever
 * scripts drop: their hooks and entities live there). */
static const char worlds_key = 0;
static const char held_key = 0;

/* Push the table at registry key `key`, made on first use (weak values if `weak`). */
static void push_table(lua_State *L, const char *key, int weak)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE)
		return;
	lua_pop(L, 1);
	lua_newtable(L);
	if (weak) {
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
	}
	lua_pushvalue(L, -1);
	lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* Push the World userdata L has for w and return its block, or push nothing and
 * return NULL. An entry whose World no longer holds w (destroyed, its address reused
 * by another world) counts as none. */
static LWorld *push_known(lua_State *L, const bp_World *w)
{
	push_table(L, &worlds_key, 1);
	lua_rawgetp(L, -1, w);
	lua_remove(L, -2);
	LWorld *lw = luaL_testudata(L, -1, WORLD_MT);
	if (lw && lw->w == w)
		return lw;
	lua_pop(L, 1);
	return NULL;
}

/* Note the World userdata at the stack top as w's. */
static void note_world(lua_State *L, const bp_World *w)
{
	push_table(L, &worlds_key, 1);
	lua_pushvalue(L, -2);
	lua_rawsetp(L, -2, w);
	lua_pop(L, 1);
}

/* Make the cache entry (Entity userdata, empty hook table) of live slot `slot` of the
 * world at stack index wi match its entity, or clear it when the slot is not live. */
static void sync_slot(lua_State *L, int wi, bp_World *w, uint32_t slot)
{
	const LWorld *lw = lua_touserdata(L, wi);
	lua_getiuservalue(L, wi, 1);
	lua_rawgeti(L, -1, (lua_Integer)slot + 1);
	const LEntity *le = lua_touserdata(L, -1);
	const bp_EntityId id = bp_world_slot_id(w, slot);
	const int fresh = le && le->id.index1 == id.index1 && le->id.generation == id.generation;
	lua_pop(L, 2);
	if (fresh)
		return;
	lua_createtable(L, 0, 3); /* the hooks of an entity C spawned: none */
	LEntity *ne = lua_newuserdatauv(L, sizeof *ne, 1);
	ne->id = id;
	ne->lw = lw;
	luaL_setmetatable(L, ENTITY_MT);
	lua_pushvalue(L, wi);
	lua_setiuservalue(L, -2, 1);
	lua_getiuservalue(L, wi, 1);
	lua_insert(L, -2);
	lua_rawseti(L, -2, (lua_Integer)slot + 1);
	lua_pop(L, 1);
	lua_getiuservalue(L, wi, 2);
	lua_insert(L, -2);
	lua_rawseti(L, -2, (lua_Integer)slot + 1);
	lua_pop(L, 1);
}

/* bp_lua_sync_world on the World userdata at wi. */
static void sync_world(lua_State *L, int wi, bp_World *w)
{
	wi = lua_absindex(L, wi);
	/* Entries of slots no longer live (removed in C): their entity userdata go, so
	 * that Lua's copies of them raise "entity has been removed". */
	lua_getiuservalue(L, wi, 1);
	lua_getiuservalue(L, wi, 2);
	const int cache = lua_gettop(L) - 1, hooks = cache + 1;
	lua_pushnil(L);
	while (lua_next(L, cache)) {
		const LEntity *le = luaL_testudata(L, -1, ENTITY_MT);
		lua_pop(L, 1);
		if (!le || !bp_world_entity(w, le->id)) {
			lua_pushvalue(L, -1);
			lua_pushnil(L); /* clearing an existing field during next is allowed */
			lua_rawset(L, cache);
			lua_pushvalue(L, -1);
			lua_pushnil(L);
			lua_rawset(L, hooks);
		}
	}
	lua_pop(L, 2);
	/* The count is read again each time: the allocations of sync_slot may run a
	 * finalizer, which may spawn or remove (a stale entry it leaves is harmless: its
	 * Entity raises "entity has been removed", and the next sync replaces it). */
	for (uint32_t i = 0; i < bp_world_entity_count(w); i++)
		sync_slot(L, wi, w, bp_world_entity_slot(w, i));
}

void bp_lua_preload(lua_State *L)
{
	luaL_checkstack(L, 4, NULL);
	lua_getglobal(L, "package");
	if (!lua_istable(L, -1)) {
		lua_pop(L, 1);
		luaL_error(L, "bp_lua_preload: the package library is not open");
	}
	lua_getfield(L, -1, "preload");
	if (lua_istable(L, -1)) {
		lua_pushcfunction(L, luaopen_blockphys_core);
		lua_setfield(L, -2, "blockphys.core");
	}
	lua_pop(L, 1);
	const char *dir = lbp_installed_luadir();
	if (dir) {
		lua_getfield(L, -1, "path");
		const char *path = lua_tostring(L, -1);
		lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", dir, dir);
		if (!path || !strstr(path, lua_tostring(L, -1))) {
			lua_pushstring(L, path ? path : "");
			lua_concat(L, 2);
			lua_setfield(L, -3, "path");
		} else
			lua_pop(L, 1);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

void bp_lua_push_world(lua_State *L, bp_World *w)
{
	luaL_checkstack(L, 8, NULL);
	if (!w)
		luaL_error(L, "bp_lua_push_world: no world (NULL)");
	if (push_known(L, w))
		return;
	luaL_getmetatable(L, WORLD_MT);
	const int opened = !lua_isnil(L, -1);
	lua_pop(L, 1);
	if (!opened) { /* nothing opened blockphys.core in L yet */
		luaL_requiref(L, "blockphys.core", luaopen_blockphys_core, 0);
		lua_pop(L, 1);
	}
	LWorld *lw = lua_newuserdatauv(L, sizeof *lw, 2);
	memset(lw, 0, sizeof *lw);
	lw->tick_rate = 20; /* World's defaults (lworld.c) */
	lw->max_ticks = 10;
	lw->borrowed = 1;
	luaL_setmetatable(L, WORLD_MT);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 1);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 2);
	push_table(L, &held_key, 0);
	lua_pushvalue(L, -2);
	lua_pushboolean(L, 1);
	lua_rawset(L, -3);
	lua_pop(L, 1);
	note_world(L, w);
	lw->w = w; /* last: an error above leaves no World claiming w */
	sync_world(L, -1, w);
}

bp_World *bp_lua_check_world(lua_State *L, int idx)
{
	bp_World *w = lbp_world_of(L, idx);
	luaL_checkstack(L, 4, NULL);
	if (!push_known(L, w)) {
		lua_pushvalue(L, idx);
		note_world(L, w);
	}
	lua_pop(L, 1);
	return w;
}

/* Raises nothing: registry lookups of existing keys and stores of nil allocate
 * nothing. */
int bp_lua_release_world(lua_State *L, bp_World *w)
{
	if (!lua_checkstack(L, 4))
		return 0;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &worlds_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		return 0;
	}
	lua_rawgetp(L, -1, w);
	LWorld *lw = luaL_testudata(L, -1, WORLD_MT);
	if (!lw || lw->w != w) {
		lua_pop(L, 2);
		return 0;
	}
	if (bp_world_lock(w)) {
		lua_pop(L, 2);
		return -1;
	}
	lw->w = NULL;
	lua_pushnil(L);
	lua_rawsetp(L, -3, w);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &held_key) == LUA_TTABLE) {
		lua_pushvalue(L, -2);
		lua_pushnil(L);
		lua_rawset(L, -3);
	}
	lua_pop(L, 3);
	return 1;
}

void bp_lua_sync_world(lua_State *L, bp_World *w)
{
	luaL_checkstack(L, 8, NULL);
	if (!push_known(L, w))
		return;
	sync_world(L, -1, w);
	lua_pop(L, 1);
}

int bp_lua_push_entity(lua_State *L, bp_World *w, bp_EntityId id)
{
	luaL_checkstack(L, 8, NULL);
	if (!push_known(L, w))
		bp_lua_push_world(L, w);
	if (!bp_world_entity(w, id)) {
		lua_pop(L, 1);
		lua_pushnil(L);
		return 0;
	}
	sync_slot(L, lua_gettop(L), w, id.index1 - 1);
	lbp_push_entity(L, lua_gettop(L), id.index1 - 1);
	lua_remove(L, -2);
	return 1;
}

/* Not lbp_check_entity_w: its fast path reads an upvalue of the running C function,
 * and a host may call this with none running (Lua 5.1 to 5.3 then read garbage). */
bp_EntityId bp_lua_check_entity(lua_State *L, int idx, bp_World **w)
{
	const LEntity *le = luaL_checkudata(L, idx, ENTITY_MT);
	bp_Entity *e = NULL;
	bp_World *ew = NULL;
	const char *problem = lbp_entity_problem(le, &e, &ew);
	if (problem)
		luaL_argerror(L, idx, problem);
	if (w)
		*w = ew;
	return le->id;
}

void bp_lua_check_rules(lua_State *L, int idx, bp_Rules *out, const char *fn)
{
	luaL_checkstack(L, 8, NULL);
	lua_pushvalue(L, idx);
	const int t = lua_gettop(L);
	lbp_view_to_table(L, t);
	luaL_checktype(L, t, LUA_TTABLE);
	bp_Rules r;
	lbp_read_rules(L, t, &r, fn);
	if (r.hook_heading || r.hook_jump)
		luaL_error(L, "%s: heading and jump hooks are Lua functions: set them on the "
		              "entity from Lua", fn);
	lua_settop(L, t - 1);
	*out = r;
}

/* The pcall'd part of bp_lua_step: world:step(dt) through its method (Lua-side
 * wrappers included), after the sync. */
static int step_call(lua_State *L)
{
	bp_World *w = lua_touserdata(L, 1);
	const double dt = lua_tonumber(L, 2);
	if (!push_known(L, w))
		bp_lua_push_world(L, w);
	const int wi = lua_gettop(L);
	sync_world(L, wi, w);
	lua_getfield(L, wi, "step");
	lua_pushvalue(L, wi);
	lua_pushnumber(L, dt);
	lua_call(L, 2, 0);
	return 0;
}

int bp_lua_step(lua_State *L, bp_World *w, double dt)
{
	if (!lua_checkstack(L, 4))
		return LUA_ERRMEM; /* nothing pushed: there is no room */
	lua_pushcfunction(L, step_call);
	lua_pushlightuserdata(L, w);
	lua_pushnumber(L, dt);
	return lua_pcall(L, 2, 0, 0);
}
