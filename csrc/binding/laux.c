/* SPDX-License-Identifier: MIT
 * laux.c - what the binding's files share: argument checks, numbers and values in
 * messages, the world's lock, core errors as Lua errors, table keys, entity lookups and
 * the metatable builder. Raises through lauxlib, whose "bad argument #n to 'f'" framing
 * the messages here complete (STYLE.md, section 2).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lbp.h"

/* ---------------------------------------------------------------- arguments */

/* An optional boolean field of the table at t, read once: -1 when absent, else it must
 * be a boolean (a string "no" or a 0 would read as true under Lua's truth rule). */
int lbp_opt_tristate(lua_State *L, int t, const char *key, const char *fn)
{
	int type = lua_getfield(L, t, key);
	int v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	if (type != LUA_TNIL && type != LUA_TBOOLEAN)
		luaL_error(L, "%s: field '%s' must be a boolean", fn, key);
	return type == LUA_TNIL ? -1 : v;
}

/* The same, 0 when absent. */
int lbp_opt_flag(lua_State *L, int t, const char *key, const char *fn)
{
	return lbp_opt_tristate(L, t, key, fn) > 0;
}

/* A number for a message with `digits` significant digits (see NumText). */
NumText lbp_num_text_digits(double v, int digits)
{
	NumText t;
	snprintf(t.s, sizeof t.s, "%.*g", digits, v);
	return t;
}

/* A limit or range bound for a message: 14 significant digits. */
NumText lbp_num_text(double v)
{
	return lbp_num_text_digits(v, 14);
}

/* A float as Lua 5.4's lua_pushfstring("%f") and tostring write it: 14 significant
 * digits, and ".0" after an integral value ("1.0"), on every Lua version (the others
 * write "1"). */
NumText lbp_float_text(double v)
{
	NumText t = lbp_num_text_digits(v, 14);
	const size_t n = strlen(t.s);
	if (t.s[strspn(t.s, "-0123456789")] == '\0' && n + 2 < sizeof t.s)
		memcpy(t.s + n, ".0", 3);
	return t;
}

/* A finite number at stack index i. */
double lbp_check_finite(lua_State *L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!isfinite(v))
		luaL_argerror(L, i, "number must be finite");
	return v;
}

/* The same, `def` when none or nil. */
double lbp_opt_finite(lua_State *L, int i, double def)
{
	return lua_isnoneornil(L, i) ? def : lbp_check_finite(L, i);
}

/* The live core world of the World at stack index i. */
bp_World *lbp_world_of(lua_State *L, int i)
{
	LWorld *lw = luaL_checkudata(L, i, WORLD_MT);
	if (!lw->w)
		luaL_argerror(L, i, "world has been destroyed");
	return lw->w;
}

/* ----------------------------------------------------------------- the lock */

/* What holds the lock, for the messages. */
const char *lbp_lock_holder(const bp_World *w)
{
	const int lock = bp_world_lock(w);
	return lock == LOCK_MOVE         ? "e:move (from an entity filter)"
	       : lock == LOCK_MOVE_SWEPT ? "e:move_swept (from an entity filter)"
	                                 : "world:step (from a rules hook or filter)";
}

/* fn: the refused call, named first in the message (a paste or a script wrapping
 * several calls then tells which one met the lock). */
void lbp_check_unlocked(lua_State *L, bp_World *w, const char *fn)
{
	if (bp_world_lock(w))
		luaL_error(L, "%s: world is locked: blocks, entities and colliders cannot be "
		              "added or removed inside %s", fn, lbp_lock_holder(w));
}

/* ------------------------------------------------------------ nesting */

/* How deeply world:step, e:move and e:move_swept (the calls that run hooks and
 * filters) nest on this thread: a filter may call e:move, whose filters may call it
 * again, and each level takes kilobytes of C stack. Lua 5.1 to 5.4 stop such a
 * recursion at their C call limit ("C stack overflow"), but LuaJIT has none and the
 * process died of a stack overflow. Per thread (C11 _Thread_local): the C stack is. */
static _Thread_local int nesting = 0;

void lbp_nest_check(lua_State *L, const char *fn)
{
	if (nesting >= LBP_MAX_NESTING)
		luaL_error(L, "%s: too many nested calls (world:step, e:move and e:move_swept "
		              "called from hooks and filters: at most %d deep)",
		           fn, LBP_MAX_NESTING);
}

void lbp_nest(int by)
{
	nesting += by;
}

/* ------------------------------------------------------- values in messages */

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
const char *lbp_key_text(lua_State *L, int idx)
{
	if (prints_plainly(L, idx))
		return safe_tostring(L, idx);
	return lua_pushfstring(L, "(a %s key)", luaL_typename(L, idx));
}

/* The text of an error value in a message, pushed: as tostring writes it, through its
 * __tostring when it has one, or "(a T value)". */
const char *lbp_error_text(lua_State *L, int idx)
{
	if (prints_plainly(L, idx))
		return safe_tostring(L, idx);
	if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
		lua_pop(L, 1);
		return safe_tostring(L, idx);
	}
	return lua_pushfstring(L, "(a %s value)", luaL_typename(L, idx));
}

/* Raise a core call's failure (never returns; callers that need a value after it
 * initialise it first, as the compiler cannot know). */
void lbp_raise_status(lua_State *L, bp_Status st)
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

/* ------------------------------------------------------------------- tables */

/* Push t[name] read raw (no metamethod runs); returns its type. */
int lbp_raw_field(lua_State *L, int t, const char *name)
{
	lua_pushstring(L, name);
	return lua_rawget(L, t);
}

/* Whether the key below the stack top (a lua_next loop) is a string in `keys`. */
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
void lbp_reject_unknown_keys(lua_State *L, int t, const char *fn, const char *const *keys)
{
	t = lua_absindex(L, t);
	lua_pushnil(L); /* the smallest unknown key's text so far */
	int best = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, t)) {
		if (!is_key(L, keys)) {
			const char *k = lbp_key_text(L, -2);
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

/* ----------------------------------------------------------------- entities */

/* The live entity at stack index i, its world to *wout when given. Raises "bad
 * argument #i (<problem>)" (see lbp_entity_problem). */
bp_Entity *lbp_check_entity_w(lua_State *L, int i, bp_World **wout)
{
	bp_Entity *e = NULL;
	bp_World *w = NULL;
	const char *problem = lbp_entity_problem(lbp_check_entity_ud(L, i), &e, &w);
	if (problem)
		luaL_argerror(L, i, problem);
	if (wout)
		*wout = w;
	return e;
}

/* lbp_check_entity_w without the world. */
bp_Entity *lbp_check_entity(lua_State *L, int i)
{
	return lbp_check_entity_w(L, i, NULL);
}

/* Push the cached Entity userdata of slot `index` of the world at stack index wi. */
void lbp_push_entity(lua_State *L, int wi, uint32_t index)
{
	lua_getiuservalue(L, wi, 1);
	lua_rawgeti(L, -1, (lua_Integer)index + 1);
	lua_remove(L, -2);
}

/* --------------------------------------------------------------- metatables */

/* Build a metatable with a separate methods table (liolib createmeta). The methods
 * table is both __index (when the slot is NULL) and the "methods" field. */
void lbp_create_meta(lua_State *L, const char *name, const luaL_Reg *meta,
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

/* Add methods to the methods table of the metatable `name` (built by lbp_create_meta):
 * the World methods of the files that build on lworld.c. */
void lbp_add_methods(lua_State *L, const char *name, const luaL_Reg *methods)
{
	luaL_getmetatable(L, name);
	lua_getfield(L, -1, "methods");
	luaL_setfuncs(L, methods, 0);
	lua_pop(L, 2);
}
