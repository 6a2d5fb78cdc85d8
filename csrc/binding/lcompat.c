/* SPDX-License-Identifier: MIT
 * lcompat.c - compat-5.3's functions (lcompat.h), compiled once into the module for
 * Lua 5.1, 5.2 and LuaJIT under the prefix lbp_compat53_, hidden like every symbol of
 * the module but luaopen_blockphys_core. compat-5.3.c comes with compat-5.3.h (Debian:
 * lua-compat53-dev, in Lua 5.1's and 5.2's include directories). Lua 5.3 and 5.4 need
 * nothing from it.
 */
#include <lua.h>

#if LUA_VERSION_NUM < 503
#define COMPAT53_PREFIX lbp_compat53
#define COMPAT53_HAVE_STRERROR_R 0 /* strerror_r is POSIX, not C11 */
#include "compat-5.3.c"
#else
typedef int lbp_compat_nothing; /* ISO C: a file declares something */
#endif
