/* SPDX-License-Identifier: MIT
 * ltrigger.c - triggers: World:add_trigger and World:remove_trigger. The core keeps the
 * boxes and their overlaps (sensor.c); a trigger's tag, any Lua value, lives here in
 * the field "trigger_tags" of the world's entity table (user value 1), keyed by handle,
 * and moves to "departed_tags" when the trigger is removed, so that the leave events
 * of its removal still carry it until world:events() reads them (levents.c).
 */
#include "lbp.h"

/* Push the table `name` of the world's entity table (made when `make`), or nil. */
void lbp_push_world_table(lua_State *L, int wi, const char *name, int make)
{
	lua_getiuservalue(L, wi, 1);
	if (lua_getfield(L, -1, name) == LUA_TNIL && make) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, -3, name);
	}
	lua_remove(L, -2);
}

/* The tag of trigger `handle` (live, or removed since the last read), or nil. */
void lbp_push_trigger_tag(lua_State *L, int wi, uint64_t handle)
{
	static const char *const tables[] = {"trigger_tags", "departed_tags"};
	for (int i = 0; i < 2; i++) {
		lbp_push_world_table(L, wi, tables[i], 0);
		if (!lua_isnil(L, -1)) {
			lua_rawgeti(L, -1, (lua_Integer)handle);
			lua_remove(L, -2);
			if (!lua_isnil(L, -1))
				return;
		}
		lua_pop(L, 1);
	}
	lua_pushnil(L);
}

/* An optional integer field in [0, 2^32) of the options table at index t. */
static uint32_t opt_bits(lua_State *L, int t, const char *key, uint32_t dflt)
{
	if (lua_getfield(L, t, key) == LUA_TNIL) {
		lua_pop(L, 1);
		return dflt;
	}
	lua_Integer v = lua_tointeger(L, -1);
	if (!lua_isinteger(L, -1) || v < 0 || v > (lua_Integer)UINT32_MAX)
		luaL_error(L, "add_trigger: option '%s' must be an integer in [0, 2^32)", key);
	lua_pop(L, 1);
	return (uint32_t)v;
}

/***
 * Add a trigger: a box of the world that blocks nothing and reports the entities
 * entering and leaving it. After each step, an entity whose box has come to overlap
 * the trigger's (touching is not overlap) gives an event `{type = "enter", entity,
 * trigger = handle, tag = tag}` in world:events(), and one that stopped overlapping it
 * (or was removed) `{type = "leave", ...}`. Groups and masks apply as between entities:
 * an entity counts when `mask` has a bit of its group and its mask a bit of `group`.
 * Overlaps at the time of the call are reported by the next step. Cost: a broadphase
 * query of the box per step. Source: our own (Box2D v3's sensor events).
 * @function World:add_trigger
 * @tparam Collider box the trigger's box (world space, blocks; copied)
 * @param[opt] tag any value, given back in the trigger's events (default nil)
 * @tparam[opt] table options `{group = 1, mask = 2^32 - 1}` (integers in [0, 2^32))
 * @treturn integer the trigger's handle
 * @raise "bad argument #1 to 'add_trigger' (blockphys.Collider expected, got ...)",
 *   "add_trigger: option 'group' must be an integer in [0, 2^32)" (mask too),
 *   "add_trigger: unknown option 'k'"; "add_trigger: world is locked: ..." inside
 *   world:step; "not enough memory".
 */
static int l_world_add_trigger(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	bp_AABB *box = lbp_check_collider(L, 2);
	uint32_t group = 1, mask = UINT32_MAX;
	if (!lua_isnoneornil(L, 4)) {
		luaL_checktype(L, 4, LUA_TTABLE);
		static const char *const keys[] = {"group", "mask", NULL};
		lbp_reject_unknown_keys(L, 4, "add_trigger", keys);
		group = opt_bits(L, 4, "group", 1);
		mask = opt_bits(L, 4, "mask", UINT32_MAX);
	}
	lbp_check_unlocked(L, w, "add_trigger");
	lua_settop(L, 3);
	lbp_push_world_table(L, 1, "trigger_tags", 1); /* 4: allocated before the core's add */
	uint64_t handle = 0;
	bp_Status st = bp_world_add_trigger(w, box, group, mask, &handle);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	lua_pushvalue(L, 3);
	lua_rawseti(L, 4, (lua_Integer)handle);
	lua_pushinteger(L, (lua_Integer)handle);
	return 1;
}

/***
 * Remove a trigger. The entities overlapping it leave at once: their leave events are
 * queued now, with the trigger's tag. Source: our own.
 * @function World:remove_trigger
 * @tparam integer handle from World:add_trigger
 * @raise "bad argument #1 to 'remove_trigger' (no such trigger (removed, never added,
 *   or another world's))"; "remove_trigger: world is locked: ..." inside world:step.
 */
static int l_world_remove_trigger(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	lua_Integer h = luaL_checkinteger(L, 2);
	lbp_check_unlocked(L, w, "remove_trigger");
	const uint32_t index1 = bp_world_trigger_slot(w, (uint64_t)h);
	if (!index1)
		return luaL_argerror(L, 2, "no such trigger (removed, never added, or another world's)");
	lbp_push_world_table(L, 1, "departed_tags", 1); /* 3 */
	lbp_push_world_table(L, 1, "trigger_tags", 1);  /* 4 */
	const uint32_t queued = bp_world_event_count(w);
	bp_world_remove_trigger(w, index1);
	if (bp_world_event_count(w) > queued) { /* its leave events name it: keep the tag */
		lua_rawgeti(L, 4, h);
		lua_rawseti(L, 3, h);
	}
	lua_pushnil(L);
	lua_rawseti(L, 4, h);
	return 0;
}

/* World methods of this file (added to World's in luaopen_blockphys_core). */
const luaL_Reg lbp_trigger_world_methods[] = {
	{"add_trigger", l_world_add_trigger}, {"remove_trigger", l_world_remove_trigger},
	{NULL, NULL}};
