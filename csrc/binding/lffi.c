/* SPDX-License-Identifier: MIT
 * lffi.c - the C half of LuaJIT's fast path (lua/blockphys/ffi.lua). LuaJIT calls C
 * through its FFI far faster than through the classic API, and compiles such calls
 * into its traces; but a function called through the FFI must not call back into Lua.
 * So the hot calls a game makes every tick have plain C forms here, which call no Lua
 * function and answer -1 wherever the classic function would raise or run Lua code:
 * ffi.lua then calls the classic function, which gives the same result or the same
 * error. The module hands the functions out as one table of pointers
 * (blockphys.core._ffi.api, a light userdata: no exported symbol, no second dlopen),
 * with its version and size for ffi.lua's check against its own declaration.
 */
#include <math.h>

#include "bp_world.h" /* the layouts: an allowed file (tools/check_structure.lua) */
#include "lbp.h"

/* Bump with any change of LbpFfiApi (ffi.lua declares the same struct). */
#define LBP_FFI_VERSION 2

typedef struct LbpFfiApi {
	int version;
	int size; /* sizeof(LbpFfiApi) */
	int (*field_get)(const void *entity, int code, double *out);
	int (*field_set)(const void *entity, int code, double v, int boolean);
	int (*set_input)(const void *entity, double forward, double strafe, double yaw,
	                 int jumping, int sneaking);
	int (*positions)(const void *world, double *out, int cap);
	int (*position)(const void *entity, double *out);
	int (*entity_count)(const void *world);
	int (*set_inputs)(const void *world, const double *in, int n);
} LbpFfiApi;

static int ffi_field_get(const void *entity, int code, double *out)
{
	return lbp_ffi_field_get(entity, code, out);
}

static int ffi_field_set(const void *entity, int code, double v, int boolean)
{
	return lbp_ffi_field_set(entity, code, v, boolean);
}

/* e:set_input with its five arguments checked by the caller's types (numbers and
 * booleans, nil read as false): the ranges are checked here. */
static int ffi_set_input(const void *entity, double forward, double strafe, double yaw,
                         int jumping, int sneaking)
{
	bp_Entity *e;
	bp_World *w;
	if (lbp_entity_problem(entity, &e, &w) || !(forward >= -1 && forward <= 1) ||
	    !(strafe >= -1 && strafe <= 1) || !isfinite(yaw))
		return -1;
	bp_EntityInput *in = bp_entity_input(w, e);
	const bp_EntityInput before = *in;
	in->forward = forward;
	in->strafe = strafe;
	in->yaw = yaw;
	bp_input_set_jumping(in, jumping);
	in->sneaking = (uint8_t)(sneaking != 0);
	bp_entity_input_changed(w, e, &before); /* a sleeper wakes if they changed */
	return 0;
}

/* world:positions' numbers: the entity count n, with the 3n coordinates in out when
 * they fit in cap doubles (else the caller asks again with room); -1 for a destroyed
 * world. */
static int ffi_positions(const void *world, double *out, int cap)
{
	bp_World *w = ((const LWorld *)world)->w;
	if (!w)
		return -1;
	const uint32_t n = bp_world_entity_count(w);
	if (n > (uint32_t)INT32_MAX / 3)
		return -1;
	if ((int)(3 * n) <= cap) {
		for (uint32_t i = 0; i < n; i++)
			bp_entity_position(bp_world_slot_entity(w, bp_world_entity_slot(w, i)), out + 3 * i);
	}
	return (int)n;
}

/* e:position(): the feet position in out[0..2]; -1 for a dead entity. */
static int ffi_position(const void *entity, double *out)
{
	bp_Entity *e;
	bp_World *w;
	if (lbp_entity_problem(entity, &e, &w))
		return -1;
	bp_entity_position(e, out);
	return 0;
}

/* The world's live entity count (world:set_inputs' length check); -1 for a destroyed
 * world or a count past what an int of 5 values per entity holds. */
static int ffi_entity_count(const void *world)
{
	const bp_World *w = ((const LWorld *)world)->w;
	if (!w)
		return -1;
	const uint32_t n = bp_world_entity_count(w);
	return n > (uint32_t)INT32_MAX / 5 ? -1 : (int)n;
}

/* world:set_inputs from 5n doubles in World:entities() order (forward, strafe, yaw,
 * jumping, sneaking; the two flags 0 or 1, their types checked by the caller): every
 * value is checked before any input changes, as the classic function does, and -1
 * (nothing changed) when one is wrong or n is not the entity count, for the classic
 * function to raise its message. */
static int ffi_set_inputs(const void *world, const double *in, int n)
{
	bp_World *w = ((const LWorld *)world)->w;
	if (!w || n < 0 || (uint32_t)n != bp_world_entity_count(w))
		return -1;
	for (int i = 0; i < n; i++) {
		const double *v = in + 5 * (size_t)i;
		if (!(v[0] >= -1 && v[0] <= 1) || !(v[1] >= -1 && v[1] <= 1) || !isfinite(v[2]))
			return -1;
	}
	for (int i = 0; i < n; i++) {
		const double *v = in + 5 * (size_t)i;
		bp_Entity *e = bp_world_slot_entity(w, bp_world_entity_slot(w, (uint32_t)i));
		bp_EntityInput *e_in = bp_entity_input(w, e);
		const bp_EntityInput before = *e_in;
		e_in->forward = v[0];
		e_in->strafe = v[1];
		e_in->yaw = v[2];
		bp_input_set_jumping(e_in, v[3] != 0);
		e_in->sneaking = (uint8_t)(v[4] != 0);
		bp_entity_input_changed(w, e, &before); /* a sleeper wakes if they changed */
	}
	return 0;
}

static const LbpFfiApi ffi_api = {
    LBP_FFI_VERSION, (int)sizeof(LbpFfiApi), ffi_field_get,    ffi_field_set,   ffi_set_input,
    ffi_positions,   ffi_position,           ffi_entity_count, ffi_set_inputs};

/* The module's `_ffi` table (at the stack top's module table): `api`, the light
 * userdata of the pointer table, and `fields`, the Entity field table (every field
 * name to its code, every method to its function: the field metamethods' upvalue). */
void lbp_open_ffi(lua_State *L)
{
	lua_createtable(L, 0, 2);
	lua_pushlightuserdata(L, (void *)&ffi_api);
	lua_setfield(L, -2, "api");
	luaL_getmetatable(L, ENTITY_MT);
	lua_getfield(L, -1, "__index");
	lua_getupvalue(L, -1, 1);
	lua_setfield(L, -4, "fields");
	lua_pop(L, 2);
	lua_setfield(L, -2, "_ffi");
}
