/* SPDX-License-Identifier: MIT
 * lhooks.c - the Lua side of each entity slot's hooks: its table in the world's user
 * value 2 ({heading, jump, filter}), installed by spawn, `e.rules = t`, `e.filter = f`
 * and `e.rules.heading = f`; the undo journal that lets a failed step or move put
 * changed hook tables back (the core's snapshot restores only the C side); and the
 * first caught failure of a nested move, for the message of the call that fails.
 */
#include "lbp.h"

/* ---------------------------------------------------------- caught failures */

/* A nested move's failure that a filter or hook caught: its message, kept in the
 * world's hook table (user value 2) under this key, so that the step or move that
 * fails because of it can say what failed. Cleared when a step or outermost move
 * starts. */
static const char caught_key = 0;

/* Forget the caught failure of the world at wi (a step or outermost move starts). */
void lbp_forget_caught(lua_State *L, int wi)
{
	lua_getiuservalue(L, wi, 2);
	lua_pushnil(L);
	lua_rawsetp(L, -2, &caught_key); /* removing a key never allocates */
	lua_pop(L, 1);
}

/* Note the message on the stack top (kept there) as the first caught failure. */
void lbp_note_caught(lua_State *L, int wi)
{
	lua_getiuservalue(L, wi, 2);
	if (lua_rawgetp(L, -1, &caught_key) == LUA_TNIL) {
		lua_pushvalue(L, -3);
		lua_rawsetp(L, -3, &caught_key);
	}
	lua_pop(L, 2);
}

/* Push `what` followed by the first caught failure's message, if one was noted. */
void lbp_push_caught(lua_State *L, int wi, const char *what)
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

/* -------------------------------------------------------------- hook tables */

/* Hook table entry (user value 2 of the world) for slot index: pushes it or nil. */
void lbp_push_hooks(lua_State *L, int wi, uint32_t index)
{
	lua_getiuservalue(L, wi, 2);
	lua_rawgeti(L, -1, (lua_Integer)index + 1);
	lua_remove(L, -2);
}

/* Push a new hook table with the hook functions of rules table t (reading t may run
 * its metamethods: call this before taking pointers into the world). */
void lbp_push_new_hooks(lua_State *L, int t)
{
	t = lua_absindex(L, t);
	lua_createtable(L, 0, 3);
	lbp_raw_field(L, t, "heading"); /* raw, as lbp_read_rules reads the flags */
	lua_setfield(L, -2, "heading");
	lbp_raw_field(L, t, "jump");
	lua_setfield(L, -2, "jump");
}

/* The hooks a slot can hold (its rules' hooks and its entity filter). */
static const char *const HOOK_KEYS[] = {"heading", "jump", "filter"};

/* --------------------------------------------------------- the undo journal */

/* Before a change to the hooks of slot index, whose world is at wi and its hook table at
 * ht: while a step or move that can fail runs (LWorld.undo), note the slot's hooks as
 * they were before their first change, in the table ht.undo (made on first use), so that
 * the failure can put them back (lbp_undo_hooks): the entity snapshot restores only the C
 * side. Runs no Lua code. */
void lbp_note_hooks_undo(lua_State *L, int wi, int ht, uint32_t index)
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
void lbp_undo_hooks(lua_State *L, int wi, int restore)
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
void lbp_start_undo(lua_State *L, int wi, int on)
{
	if (((LWorld *)lua_touserdata(L, wi))->undo)
		lbp_undo_hooks(L, wi, 0);
	((LWorld *)lua_touserdata(L, wi))->undo = on;
}

/* ------------------------------------------------------------------ changes */

/* Install the hook table on the stack top (popped) for slot index of the world at wi,
 * keeping the slot's entity filter (not a rule). Runs no Lua code. */
void lbp_install_hooks(lua_State *L, int wi, uint32_t index)
{
	int h = lua_gettop(L);
	lua_getiuservalue(L, wi, 2);
	lbp_note_hooks_undo(L, wi, -1, index);
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
void lbp_set_filter(lua_State *L, int wi, uint32_t index, bp_Entity *e)
{
	lua_getiuservalue(L, wi, 2);
	lbp_note_hooks_undo(L, wi, -1, index);
	lua_pop(L, 1);
	lbp_push_hooks(L, wi, index);
	lua_insert(L, -2);
	bp_entity_set_has_filter(e, lua_isfunction(L, -1));
	lua_setfield(L, -2, "filter");
	lua_pop(L, 1);
}
