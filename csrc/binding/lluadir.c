/* SPDX-License-Identifier: MIT
 * lluadir.c - where `make install-lib` put the Lua layer (lua/blockphys), for
 * bp_lua_preload (lbridge.c). Its own file because it is the one object built twice:
 * libblockphys-lua's copy knows the PREFIX (-DBP_LUA_LUADIR), the module's knows none
 * (the module is found through package.cpath, next to the Lua layer).
 */
#include "lbp.h"

const char *lbp_installed_luadir(void)
{
#ifdef BP_LUA_LUADIR
	return BP_LUA_LUADIR;
#else
	return NULL;
#endif
}
