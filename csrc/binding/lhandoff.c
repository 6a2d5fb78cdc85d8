/* SPDX-License-Identifier: MIT
 * lhandoff.c - one entity handed to another world: e:export() and world:import(bytes
 * [, x, y, z]) (the core's export.c). Reaches the core only through blockphys.h's
 * functions.
 */
#include "lbp.h"

/***
 * The entity's whole state as a byte string, for world:import in another world (a
 * region hand-off, another dimension): box and position, velocity, inputs (latched
 * ones too), flags, fall and camera state, rules, size, solid, sensor and carry flags,
 * groups and masks. Not in it: its id and serial (the importing world gives new ones),
 * its hook and filter functions (Lua values: install them again), its overlaps.
 * Versioned, little-endian, with a checksum. Source: our own (docs/rollback.md).
 * @function Entity:export
 * @treturn string
 * @raise "bad argument #1 to 'export' (entity has been removed)".
 */
static int l_entity_export(lua_State *L)
{
	bp_World *w;
	lbp_check_entity_w(L, 1, &w);
	const bp_EntityId id = ((LEntity *)lua_touserdata(L, 1))->id;
	const size_t n = bp_entity_export(w, id, NULL, 0);
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, n);
	bp_entity_export(w, id, p, n);
	luaL_pushresultsize(&b, n);
	return 1;
}

/***
 * Make a new entity from e:export's bytes, with the exported state intact (rules,
 * velocity, inputs, flags), at its own position or at (x, y, z) (feet, blocks; the box
 * and the last position move with it). It is created last in creation order, with a
 * new id; no hooks or filter. Source: our own (docs/rollback.md).
 * @function World:import
 * @tparam string bytes from e:export
 * @tparam[opt] number x with y and z: the new position (blocks)
 * @tparam[opt] number y
 * @tparam[opt] number z
 * @treturn[1] Entity
 * @treturn[2] nil
 * @treturn[2] string message, for bytes that are not an exported entity ("import:
 *   truncated", "import: corrupted: ...", "import: unknown entity version") or a
 *   position out of range
 * @raise "import: world is locked: ..." inside a step; "not enough memory"; bad x, y, z.
 */
static int l_world_import(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	size_t n;
	const char *p = luaL_checklstring(L, 2, &n);
	double pos[3];
	const int at = !lua_isnoneornil(L, 3);
	for (int k = 0; at && k < 3; k++)
		pos[k] = lbp_check_finite(L, 3 + k);
	lbp_check_unlocked(L, w, "import");
	lua_settop(L, 5);
	LEntity *le = lua_newuserdatauv(L, sizeof *le, 1); /* 6 */
	le->id.index1 = 0;
	le->id.generation = 0;
	le->lw = lua_touserdata(L, 1);
	luaL_setmetatable(L, ENTITY_MT);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, 6, 1);
	lua_getiuservalue(L, 1, 1); /* 7: entity cache */
	lua_getiuservalue(L, 1, 2); /* 8: hook tables */
	/* The slot's entries first, as spawn does: storing may fail for memory. */
	const lua_Integer slot1 = (lua_Integer)bp_world_next_slot(w);
	lua_pushvalue(L, 6);
	lua_rawseti(L, 7, slot1);
	lua_createtable(L, 0, 3);
	lua_rawseti(L, 8, slot1);
	const char *why = NULL;
	bp_EntityId id;
	bp_Status st = bp_world_import(w, p, n, at ? pos : NULL, &id, &why);
	if (st != BP_OK) {
		for (int t = 7; t <= 8; t++) {
			lua_pushnil(L);
			lua_rawseti(L, t, slot1);
		}
		if (st == BP_ENOMEM)
			lbp_raise_status(L, st);
		lua_pushnil(L);
		lua_pushfstring(L, "import: %s", why ? why : "failed");
		return 2;
	}
	le->id = id;
	lua_pushvalue(L, 6);
	return 1;
}

const luaL_Reg lbp_handoff_world_methods[] = {{"import", l_world_import}, {NULL, NULL}};

const luaL_Reg lbp_handoff_entity_methods[] = {{"export", l_entity_export}, {NULL, NULL}};
