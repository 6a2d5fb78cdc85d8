/* SPDX-License-Identifier: MIT
 * lua_oom_host.c - a Lua host (built for each interpreter: lua5.1 .. lua5.4, LuaJIT) for spec/lua_oom_spec.lua: its allocator can be told
 * to fail, so that a script can make any of Lua's own allocations inside a blockphys
 * call fail (world:_fail_alloc reaches only the C core's allocations).
 *
 * Usage: lua_oom_host script.lua. The script gets one global,
 * fail_after(n, f, ...): calls f(...) with only n allocations allowed (then every
 * allocation fails until f returns) and returns pcall's results.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef LUA_OK /* Lua 5.1 */
#define LUA_OK 0
#endif

static long budget = -1; /* allocations left before they fail; -1: no limit */

/* A new block (ptr NULL: osize then names the object's kind) or a growing one counts;
 * frees and shrinks always succeed, as Lua requires. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	if (budget >= 0 && (ptr == NULL || nsize > osize)) {
		if (budget == 0)
			return NULL;
		budget--;
	}
	return realloc(ptr, nsize);
}

static int fail_after(lua_State *L)
{
	lua_Integer n = luaL_checkinteger(L, 1);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	luaL_argcheck(L, n >= 0, 1, "must be >= 0");
	lua_remove(L, 1);
	budget = (long)n;
	int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
	budget = -1;
	lua_pushboolean(L, status == LUA_OK);
	lua_insert(L, 1);
	return lua_gettop(L);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s script.lua\n", argv[0]);
		return 2;
	}
	lua_State *L = lua_newstate(limited_alloc, NULL);
	if (!L)
		return 2;
	luaL_openlibs(L);
	lua_register(L, "fail_after", fail_after);
	int rc = 0;
	if (luaL_dofile(L, argv[1]) != LUA_OK) {
		fprintf(stderr, "%s\n", lua_tostring(L, -1));
		rc = 1;
	}
	lua_close(L);
	return rc;
}
