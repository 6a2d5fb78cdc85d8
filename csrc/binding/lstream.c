/* SPDX-License-Identifier: MIT
 * lstream.c - streamed worlds in Lua: World:load_chunk, World:unload_chunk,
 * World:chunk_data and the world field `unset` (read and written through lloop.c's
 * World __index and __newindex). The core side is csrc/core/stream.c.
 */

/***
 * Streamed chunks.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "lbp.h"

/* Chunk coordinates: the chunks of the int32 block grid, [-2^27, 2^27 - 1]. */
#define CHUNK_MIN (-(1 << 27))
#define CHUNK_MAX ((1 << 27) - 1)

static int32_t check_chunk_coord(lua_State *L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!(v == floor(v) && v >= CHUNK_MIN && v <= CHUNK_MAX))
		luaL_argerror(L, i, "chunk coordinate must be an integer in [-134217728, 134217727]");
	return (int32_t)v;
}

static void check_chunk(lua_State *L, int32_t c[3])
{
	for (int a = 0; a < 3; a++)
		c[a] = check_chunk_coord(L, 2 + a);
}

/* The streaming status of a call named fn, raised (BP_OK returns). */
static void raise_stream_status(lua_State *L, bp_Status st, const char *fn)
{
	if (st == BP_EEXIST)
		luaL_error(L, "%s: a block type named '" BP_UNLOADED_NAME "' exists (the name is "
		              "reserved for unloaded space)", fn);
	if (st != BP_OK)
		lbp_raise_status(L, st);
}

/***
 * Set a whole 16^3 chunk in one call, and mark it loaded. `data` holds 4096 block ids
 * as little-endian uint16 (8192 bytes), cell (x, y, z) of the chunk (each 0..15, the
 * block at cx*16 + x, cy*16 + y, cz*16 + z) at index y*256 + z*16 + x (bytes
 * 2i + 1 and 2i + 2 in Lua's 1-based string.byte), the layout World:chunk_data
 * returns. Every id is checked before anything changes. Cost: about a copy of the
 * 8 KB. Source: our own (docs/streaming.md).
 * @function World:load_chunk
 * @tparam integer cx chunk coordinate (blocks cx * 16 .. cx * 16 + 15)
 * @tparam integer cy chunk coordinate
 * @tparam integer cz chunk coordinate
 *   (block coordinate // 16), integers in [-2^27, 2^27 - 1]
 * @tparam string data 8192 bytes
 * @raise "bad argument #n to 'load_chunk' (chunk coordinate must be an integer in
 *   [-134217728, 134217727])"; "bad argument #5 to 'load_chunk' (string expected, got
 *   T)"; "load_chunk: data must be 8192 bytes (4096 little-endian uint16 ids), got N";
 *   "load_chunk: cell (x, y, z) (byte N) holds id K, which is not a defined block type";
 *   "load_chunk: cell ... holds the unloaded block type, which only unload_chunk
 *   places"; "load_chunk: world is locked: ..." inside world:step; "not enough memory".
 *   Nothing changes when it raises.
 */
static int l_world_load_chunk(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	int32_t c[3];
	check_chunk(L, c);
	size_t len;
	const char *data = luaL_checklstring(L, 5, &len);
	if (len != BP_CHUNK_BYTES)
		return luaL_error(L, "load_chunk: data must be %d bytes (4096 little-endian uint16 "
		                     "ids), got %s", BP_CHUNK_BYTES, lbp_num_text((double)len).s);
	lbp_check_unlocked(L, w, "load_chunk");
	uint32_t bad = 0;
	bp_Status st = bp_world_load_chunk(w, c[0], c[1], c[2], (const unsigned char *)data, &bad);
	if (st == BP_EINVAL) {
		const unsigned char *b = (const unsigned char *)data + 2 * bad;
		const unsigned id = (unsigned)b[0] | (unsigned)b[1] << 8;
		const int x = (int)(bad & 15), y = (int)(bad >> 8), z = (int)((bad >> 4) & 15);
		if (id != 0 && id == bp_world_unloaded_id(w))
			return luaL_error(L, "load_chunk: cell (%d, %d, %d) (byte %d) holds the unloaded "
			                     "block type, which only unload_chunk places",
			                  x, y, z, (int)(2 * bad + 1));
		return luaL_error(L, "load_chunk: cell (%d, %d, %d) (byte %d) holds id %d, which is "
		                     "not a defined block type", x, y, z, (int)(2 * bad + 1), (int)id);
	}
	raise_stream_status(L, st, "load_chunk");
	return 0;
}

/***
 * Free a chunk and make it unloaded space: it blocks moves like a solid block (its
 * cells read as the block type "blockphys:unloaded", a full cube, defined by the first
 * call), rays and sweeps report it (`unloaded = true` in their hit), and an entity whose
 * box touches it is not stepped (`e.frozen`) until the chunk is loaded. Unloading an
 * unloaded chunk does nothing. Source: our own (docs/streaming.md).
 * @function World:unload_chunk
 * @tparam integer cx chunk coordinate (blocks cx * 16 .. cx * 16 + 15)
 * @tparam integer cy chunk coordinate
 * @tparam integer cz chunk coordinate
 * @raise chunk coordinate errors as World:load_chunk; "unload_chunk: world is locked:
 *   ..." inside world:step; "unload_chunk: a block type named 'blockphys:unloaded'
 *   exists ..."; "not enough memory". Nothing changes when it raises.
 */
static int l_world_unload_chunk(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	int32_t c[3];
	check_chunk(L, c);
	lbp_check_unlocked(L, w, "unload_chunk");
	raise_stream_status(L, bp_world_unload_chunk(w, c[0], c[1], c[2]), "unload_chunk");
	return 0;
}

/***
 * A chunk's blocks in one string, the layout of World:load_chunk (8192 bytes; all
 * zeros where nothing is stored and unset space is air), or nil when the chunk is
 * unloaded. The bulk read of a region: about 1 ns a cell against get_block's
 * call per cell. Source: our own.
 * @function World:chunk_data
 * @tparam integer cx chunk coordinate (blocks cx * 16 .. cx * 16 + 15)
 * @tparam integer cy chunk coordinate
 * @tparam integer cz chunk coordinate
 * @treturn ?string data
 * @raise chunk coordinate errors as World:load_chunk.
 */
static int l_world_chunk_data(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	int32_t c[3];
	check_chunk(L, c);
	luaL_Buffer b;
	unsigned char *out = (unsigned char *)luaL_buffinitsize(L, &b, BP_CHUNK_BYTES);
	if (!bp_world_chunk_data(w, c[0], c[1], c[2], out)) {
		lua_pushnil(L);
		return 1;
	}
	luaL_pushresultsize(&b, BP_CHUNK_BYTES);
	return 1;
}

/* World __index for "unset" (lloop.c): pushes the value and returns 1, else 0. */
int lbp_stream_index(lua_State *L, const char *k)
{
	if (strcmp(k, "unset") != 0)
		return 0;
	bp_World *w = lbp_world_of(L, 1);
	lua_pushstring(L, bp_world_unset_unloaded(w) ? "unloaded" : "air");
	return 1;
}

/* World __newindex for "unset" (lloop.c): sets it and returns 1, else 0. */
int lbp_stream_newindex(lua_State *L, const char *k)
{
	if (strcmp(k, "unset") != 0)
		return 0;
	bp_World *w = lbp_world_of(L, 1);
	const char *v = lua_type(L, 3) == LUA_TSTRING ? lua_tostring(L, 3) : "";
	const int unloaded = strcmp(v, "unloaded") == 0;
	if (!unloaded && strcmp(v, "air") != 0)
		return luaL_error(L, "world field 'unset' must be \"air\" or \"unloaded\"");
	lbp_check_unlocked(L, w, "unset");
	raise_stream_status(L, bp_world_set_unset(w, unloaded), "unset");
	return 1;
}

/* World methods of this file (added to World's in luaopen_blockphys_core). */
const luaL_Reg lbp_stream_world_methods[] = {
	{"load_chunk", l_world_load_chunk}, {"unload_chunk", l_world_unload_chunk},
	{"chunk_data", l_world_chunk_data}, {NULL, NULL}};
