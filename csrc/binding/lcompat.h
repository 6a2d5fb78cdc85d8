/* SPDX-License-Identifier: MIT
 * lcompat.h - every difference between the Lua versions the binding builds for
 * (Lua 5.1, 5.2, 5.3, 5.4 and LuaJIT 2.1, whose C API is 5.1's), bridged in this one
 * place, so that the rest of the binding is written against Lua 5.4's API.
 *
 * Lua 5.1, 5.2 and LuaJIT get the 5.3 API from compat-5.3 (Debian: lua-compat53-dev;
 * github.com/lunarmodules/lua-compat-5.3): compat-5.3.h here, its functions compiled
 * once into the module by lcompat.c under the prefix lbp_compat53_ (not exported: the
 * module hides everything but luaopen_blockphys_core). What compat-5.3 does not
 * bridge, and Lua 5.3 lacks too, is below, each as small as it can be:
 *
 * - user values. Lua 5.4 gives a userdata several (lua_newuserdatauv): a World has 2
 *   (its entity cache and its hook tables), an Entity and a RulesView 1. Older Luas
 *   have one user value (5.1 and LuaJIT: the environment table): there it is a table
 *   that holds the values at [1], [2], ..., made with the userdata.
 * - argument errors, worded as 5.4 words them on every version: luaL_argerror (5.1
 *   and LuaJIT do not name a function called through pcall by its place in
 *   package.loaded, "bad argument #1 to 'blockphys.Collider'"; 5.2, 5.3 and LuaJIT
 *   name a metamethod "__add", 5.4 "add"), luaL_typeerror (5.4 only; 5.3 and 5.4 name a
 *   value by its metatable's __name, "got blockphys.World", 5.1 and 5.2 by its type,
 *   "got userdata") and the luaL_check* the binding uses over them, luaL_checkinteger
 *   included (5.1 and 5.2 truncate: "number has no integer representation" in 5.3+).
 *   Lua 5.1 alone cannot name a function that a metamethod call runs ("to '?'").
 * - integers. 5.1, 5.2 and LuaJIT have no integer subtype: a number is an integer when
 *   its value is integral and in range (lua_tointegerx, lua_isinteger; compat-5.3's
 *   own cast an out-of-range double, which C leaves undefined). Integers pushed are
 *   doubles there, exact up to 2^53: collider handles keep to 53 bits
 *   (LBP_HANDLE_TAG_MAX), and lua_pushfstring has no %I (LBP_INT_TEXT).
 * - luaL_pushfail (5.4): nil.
 * - __close (5.4): the World registers it everywhere; only 5.4 calls it.
 * - the core world's allocator (lworld.c): Lua's, fetched per call from the main
 *   thread (LUA_RIDX_MAINTHREAD, 5.2+). 5.1 and LuaJIT cannot name the main thread:
 *   there the world keeps the allocator it was made with (lua_getallocf's answer,
 *   which lua_setallocf alone changes).
 * - LBP_IN_FINALIZER: whether a finalizer (__gc) may be running, which World:destroy
 *   asks because a finalizer may interrupt a method of the same world at any
 *   allocation (lworld.c). Answering yes when unsure is safe: the world is then only
 *   detached and __gc frees it. Lua 5.4 answers exactly (every lua_gc option returns
 *   -1 inside a finalizer). Lua 5.2, 5.3 and LuaJIT stop their collector while a
 *   finalizer runs, so LUA_GCISRUNNING reads 0: yes inside a finalizer, and also while
 *   collectgarbage("stop") holds (then destroy frees the world at its __gc). Lua 5.1
 *   has no such query and answers -1: always yes, so destroy detaches and __gc frees
 *   (the same test, so a module built for LuaJIT stays safe under Lua 5.1, which
 *   shares its install paths, and the other way round).
 */
#ifndef LCOMPAT_H
#define LCOMPAT_H

#include <lauxlib.h>
#include <lua.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#if !defined(LUA_VERSION_NUM) || LUA_VERSION_NUM < 501 || LUA_VERSION_NUM > 504
#error "blockphys needs Lua 5.1, 5.2, 5.3, 5.4 or LuaJIT 2.1"
#endif

#if LUA_VERSION_NUM < 503
#define COMPAT53_PREFIX lbp_compat53
#include "compat-5.3.h"
#endif

/* ------------------------------------------------------ integers (5.1, 5.2) */

#if LUA_VERSION_NUM < 503
/* The integer value of the number (or numeric string) at i, when it has one. */
static inline lua_Integer lbp_tointegerx(lua_State *L, int i, int *isnum)
{
	int ok = 0;
	const lua_Number n = lua_tonumberx(L, i, &ok);
	ok = ok && n == floor(n) && n >= -9223372036854775808.0 && n < 9223372036854775808.0;
	if (isnum)
		*isnum = ok;
	return ok ? (lua_Integer)n : 0;
}
static inline int lbp_isinteger(lua_State *L, int i)
{
	int ok;
	return lua_type(L, i) == LUA_TNUMBER && (lbp_tointegerx(L, i, &ok), ok);
}
#undef lua_tointegerx
#define lua_tointegerx lbp_tointegerx
#undef lua_isinteger
#define lua_isinteger lbp_isinteger
#endif

/* Collider handles: 24 bits of slot, 24 of generation, then the world's tag (lworld.c):
 * 15 bits where integers have 64, 5 where numbers are doubles (exact to 2^53). */
#if LUA_VERSION_NUM < 503
#define LBP_HANDLE_TAG_MAX 31u
#else
#define LBP_HANDLE_TAG_MAX BP_HANDLE_TAG_MAX
#endif

/* A lua_Integer for lua_pushfstring's %s (5.1 and 5.2 have no %I). */
typedef struct LbpIntText {
	char s[24];
} LbpIntText;
static inline LbpIntText lbp_int_text(lua_Integer v)
{
	LbpIntText t;
	snprintf(t.s, sizeof t.s, "%lld", (long long)v);
	return t;
}

/* ----------------------------------------------------- 5.4's errors for 5.1 to 5.3 */

#if LUA_VERSION_NUM < 504
/* 5.4's luaL_argerror. 5.1 and LuaJIT lack a function's name when it has none where
 * it is called (called through pcall): the first field two levels deep in
 * package.loaded that holds it, as in "bad argument #1 to 'blockphys.Collider'". A
 * metamethod is named by its event, "add" (5.2, 5.3 and LuaJIT say "__add"; Lua 5.1
 * cannot name it at all: "bad argument #2 to '?'"). */
static inline int lbp_findfield(lua_State *L, int objidx, int level)
{
	if (level == 0 || !lua_istable(L, -1))
		return 0;
	lua_pushnil(L);
	while (lua_next(L, -2)) {
		if (lua_type(L, -2) == LUA_TSTRING) {
			if (lua_rawequal(L, objidx, -1)) {
				lua_pop(L, 1);
				return 1;
			} else if (lbp_findfield(L, objidx, level - 1)) {
				lua_remove(L, -2); /* the table */
				lua_pushliteral(L, ".");
				lua_insert(L, -2);
				lua_concat(L, 3);
				return 1;
			}
		}
		lua_pop(L, 1);
	}
	return 0;
}

static inline int lbp_pushglobalfuncname(lua_State *L, lua_Debug *ar)
{
	const int top = lua_gettop(L);
	lua_getinfo(L, "f", ar);
	lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
	luaL_checkstack(L, 6, "not enough stack");
	if (lbp_findfield(L, top + 1, 2)) {
		const char *name = lua_tostring(L, -1);
		if (strncmp(name, "_G.", 3) == 0) {
			lua_pushstring(L, name + 3);
			lua_remove(L, -2);
		}
		lua_replace(L, top + 1);
		lua_settop(L, top + 1);
		return 1;
	}
	lua_settop(L, top);
	return 0;
}

static inline int lbp_argerror(lua_State *L, int arg, const char *extramsg)
{
	lua_Debug ar;
	if (!lua_getstack(L, 0, &ar))
		return luaL_error(L, "bad argument #%d (%s)", arg, extramsg);
	lua_getinfo(L, "n", &ar);
	if (ar.namewhat && strcmp(ar.namewhat, "method") == 0) {
		arg--;
		if (arg == 0)
			return luaL_error(L, "calling '%s' on bad self (%s)", ar.name, extramsg);
	}
	if (ar.name == NULL)
		ar.name = lbp_pushglobalfuncname(L, &ar) ? lua_tostring(L, -1) : "?";
	else if (ar.namewhat && strcmp(ar.namewhat, "metamethod") == 0 && strncmp(ar.name, "__", 2) == 0)
		ar.name += 2; /* "__add": Lua 5.4.4 says "add" */
	return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, ar.name, extramsg);
}
#undef luaL_argerror
#define luaL_argerror lbp_argerror
#endif

#if LUA_VERSION_NUM < 504
#define luaL_pushfail(L) lua_pushnil(L)

/* 5.4's luaL_typeerror (5.3's lauxlib has it, static). */
static inline int lbp_typeerror(lua_State *L, int arg, const char *tname)
{
	const char *typearg;
	if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
		typearg = lua_tostring(L, -1);
	else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
		typearg = "light userdata";
	else
		typearg = luaL_typename(L, arg);
	return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", tname, typearg));
}
#define luaL_typeerror lbp_typeerror
#endif

/* ----------------------------------------- the checks, as 5.4 words them */

/* Over 5.4's typeerror and argerror above (5.1 and 5.2 name a value by its type, 5.3
 * names a metamethod "__add"). */
#if LUA_VERSION_NUM < 504
static inline void *lbp_checkudata(lua_State *L, int i, const char *tname)
{
	void *p = luaL_testudata(L, i, tname);
	if (!p)
		lbp_typeerror(L, i, tname);
	return p;
}

static inline void lbp_checktype(lua_State *L, int i, int t)
{
	if (lua_type(L, i) != t)
		lbp_typeerror(L, i, lua_typename(L, t));
}

static inline lua_Number lbp_checknumber(lua_State *L, int i)
{
	int ok;
	const lua_Number n = lua_tonumberx(L, i, &ok);
	if (!ok)
		lbp_typeerror(L, i, "number");
	return n;
}

static inline lua_Integer lbp_checkinteger(lua_State *L, int i)
{
	int ok;
	const lua_Integer v = lua_tointegerx(L, i, &ok);
	if (!ok) {
		if (lua_isnumber(L, i))
			luaL_argerror(L, i, "number has no integer representation");
		else
			lbp_typeerror(L, i, "number");
	}
	return v;
}

static inline const char *lbp_checklstring(lua_State *L, int i, size_t *len)
{
	const char *s = lua_tolstring(L, i, len);
	if (!s)
		lbp_typeerror(L, i, "string");
	return s;
}

#undef luaL_checkudata
#define luaL_checkudata lbp_checkudata
#undef luaL_checktype
#define luaL_checktype lbp_checktype
#undef luaL_checknumber
#define luaL_checknumber lbp_checknumber
#undef luaL_checkinteger
#define luaL_checkinteger lbp_checkinteger
#undef luaL_checklstring
#define luaL_checklstring lbp_checklstring
#undef luaL_checkstring
#define luaL_checkstring(L, i) lbp_checklstring((L), (i), NULL)
#endif

/* ---------------------------------------------------- user values (5.1 to 5.3) */

#if LUA_VERSION_NUM < 504
/* A userdata with nuv user values, in a table (its one user value). 5.1 and LuaJIT
 * give every userdata an environment (the running function's): replaced here. */
static inline void *lbp_newuserdatauv(lua_State *L, size_t size, int nuv)
{
	void *p = lua_newuserdata(L, size);
	if (nuv > 0) {
		lua_createtable(L, nuv, 0);
		lua_setuservalue(L, -2);
	}
	return p;
}

static inline int lbp_getiuservalue(lua_State *L, int idx, int n)
{
	lua_getuservalue(L, idx);
	if (!lua_istable(L, -1)) { /* made with no user values */
		lua_pop(L, 1);
		lua_pushnil(L);
		return LUA_TNONE;
	}
	const int t = lua_rawgeti(L, -1, n);
	lua_remove(L, -2);
	return t;
}

/* Pops a value and makes it user value n of the userdata at idx. */
static inline int lbp_setiuservalue(lua_State *L, int idx, int n)
{
	idx = lua_absindex(L, idx);
	lua_getuservalue(L, idx);
	if (!lua_istable(L, -1)) {
		lua_pop(L, 2);
		return 0;
	}
	lua_insert(L, -2);
	lua_rawseti(L, -2, n);
	lua_pop(L, 1);
	return 1;
}

#define lua_newuserdatauv lbp_newuserdatauv
#define lua_getiuservalue lbp_getiuservalue
#define lua_setiuservalue lbp_setiuservalue

#endif

/* ------------------------------------------------------------- the allocator */

/* What a World keeps to reach Lua's allocator (LBP_ALLOC_KEEP, declared in LWorld),
 * set when it is made (LBP_ALLOC_INIT) and fetched per allocation (LBP_ALLOCF). */
#if LUA_VERSION_NUM >= 502
#define LBP_ALLOC_KEEP lua_State *main; /* the main thread: lives as long as the world */
#define LBP_ALLOC_INIT(L, lw)                                                          \
	(lua_rawgeti((L), LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD),                          \
	 (lw)->main = lua_tothread((L), -1), lua_pop((L), 1))
#define LBP_ALLOCF(lw, ud) lua_getallocf((lw)->main, (ud))
#else
#define LBP_ALLOC_KEEP                                                                  \
	lua_Alloc allocf;                                                                    \
	void *alloc_ud;
#define LBP_ALLOC_INIT(L, lw) ((lw)->allocf = lua_getallocf((L), &(lw)->alloc_ud))
#define LBP_ALLOCF(lw, ud) (*(ud) = (lw)->alloc_ud, (lw)->allocf)
#endif

/* ------------------------------------------------------------- finalizers */

#if LUA_VERSION_NUM >= 504
#define LBP_IN_FINALIZER(L) (lua_gc((L), LUA_GCISRUNNING) < 0)
#else
#ifndef LUA_GCISRUNNING
#define LUA_GCISRUNNING 9 /* 5.2's, 5.3's and LuaJIT's; Lua 5.1 answers -1 (no such option) */
#endif
#define LBP_IN_FINALIZER(L) (lua_gc((L), LUA_GCISRUNNING, 0) <= 0)
#endif

#endif
