/* SPDX-License-Identifier: MIT
 * lbp.h - what the binding's files share (module blockphys.core): the userdata
 * structs and metatable names, the limits of one call, and the functions each file
 * offers the others (prefix lbp_; everything else is static). Only lblockphys.c's
 * luaopen_blockphys_core is exported from the module.
 *
 * Lifetimes: a World userdata (LWorld) owns the core world; user value 1 caches one
 * Entity userdata per live entity slot (so entities compare and index as table keys),
 * user value 2 holds the Lua hook functions per slot (lhooks.c). An Entity userdata
 * (LEntity) holds only (index1, generation) and keeps its World alive through its user
 * value. The files (one per Lua type or concern, as liolib.c and luv's src/tcp.c):
 * laux.c shared checks and messages; lcollider.c Collider; lworld.c World's lifetime,
 * blocks, block types, colliders and counters; lentity.c Entity methods and spawning;
 * lfields.c entity fields; lrules.c rules tables and RulesView; lhooks.c the per-slot
 * hooks and their undo journal; lstep.c world:step and e:move (their transactions,
 * the hooks and filters they call); lquery.c queries; lloop.c the game loop
 * (advance, positions, lerp_positions, set_inputs); lsnapshot.c Snapshot (world:snapshot,
 * restore, hash); lhandoff.c e:export and world:import; lcompat.c compat-5.3 for Lua
 * 5.1, 5.2 and LuaJIT; lffi.c the C functions of LuaJIT's FFI path; ltesting.c
 * internal methods kept out of sight; lblockphys.c the module. Each file's LDoc comments (the API
 * reference's source) follow a `@module blockphys.core` block: LDoc merges them into
 * one module (merge = true, or ldoc -M), whose description is lblockphys.c's.
 */
#ifndef LBP_H
#define LBP_H

#include <stdint.h>

#include "bp_internal.h"
#include "lcompat.h" /* lua.h and lauxlib.h, with 5.4's API on every version (but no %I
                     * in lua_pushfstring: lbp_int_text) */

#define WORLD_MT "blockphys.World"
#define ENTITY_MT "blockphys.Entity"
#define COLLIDER_MT "blockphys.Collider"
#define RULESVIEW_MT "blockphys.RulesView"
#define RULES_MT "blockphys.Rules"

/* Largest region a boxes_in / query call may scan, in cells. */
#define MAX_QUERY_CELLS 16777216.0
/* Chunks one fill may cut (fill but partly): each may need an id array of 8 KB, so one
 * call allocates at most 512 MB. */
#define MAX_FILL_CUT_CHUNKS 65536.0
/* world:step's dt bounds, seconds (lstep.c): up to one second, so that a step's work
 * stays bounded (MC-CPP substeps) and a dt in milliseconds is refused. */
#define MIN_DT 1e-6
#define MAX_DT 1.0
/* How deeply world:step, e:move and e:move_swept may nest (called from hooks and
 * filters), on one thread (laux.c, lbp_nest_check). */
#define LBP_MAX_NESTING 100
/* Boxes one boxes_in may return or one sweep may test (the core's bound): a region of
 * max_query_cells cells can hold 64 boxes per cell, and each box returned becomes a
 * Collider of about 100 bytes. */
#define MAX_QUERY_BOXES BP_MAX_QUERY_BOXES

/* The message for a collider handle that names no live collider of this world
 * (bp_world_collider_slot gave 0): remove_collider and _reuse_collider. */
#define NO_SUCH_COLLIDER "no such collider (removed, never added, or another world's)"

typedef struct LWorld {
	bp_World *w;       /* NULL once destroyed */
	bp_World *pending; /* destroyed from a finalizer: freed by __gc (see World:destroy,
	                    * lworld.c) */
	int undo;          /* during a step or move that can fail: hook changes are noted
	                    * (lbp_note_hooks_undo) so that the failure can put them back;
	                    * 0 off, 1 on, 2 on and something noted */
	LBP_ALLOC_KEEP     /* how the allocator bridge reaches Lua's allocator (lcompat.h) */
	lua_Integer fail_alloc; /* World:_fail_alloc: the core's allocation that fails
	                         * (counting down; 0 off) */
	double tick_rate;  /* world.tick_rate: ticks per second of world:advance (lloop.c) */
	lua_Integer max_ticks; /* world.max_ticks: the most ticks one advance runs */
	double pending_ticks;  /* time advanced but not yet run, in ticks (< 1 between calls) */
	double dropped_seconds; /* dropped by tick_rate rescales since the last advance */
	int borrowed;      /* the core world belongs to a C host (bp_lua_push_world,
	                    * lbridge.c): Lua never frees it; World:destroy refuses */
} LWorld;

typedef struct LEntity {
	bp_EntityId id;
	/* The world's userdata block, which the entity's user value keeps alive: never
	 * dangles (its bp_World is checked through it: NULL once destroyed). Saves the
	 * user value lookup in the field metamethods. */
	const LWorld *lw;
} LEntity;

/* A number for a message, without the ".0" that Lua 5.4's lua_pushfstring %f gives
 * integral values (limits read "1024", not "1024.0"): 14 significant digits for limits
 * and ranges (0.1 reads "0.1"), 17 for a measured value that must not round to a
 * limit; lbp_float_text writes 5.4's %f on every Lua version. */
typedef struct NumText {
	char s[32];
} NumText;

/* The world's lock (bp_world_lock) while e:move / e:move_swept runs its entity filters
 * (world:step sets 1). */
enum { LOCK_MOVE = 2, LOCK_MOVE_SWEPT = 3 };

/* ------------------------------------------------------------- entity lookups */

/* Inline: the entity field metamethods (lfields.c) run them for every access. */

/* The Entity userdata at index i, raising luaL_checkudata's own error if it is not.
 * Entity __index and __newindex (run every tick per entity) hold the metatable as
 * upvalue 2, and comparing with it is much cheaper than luaL_checkudata's lookup by
 * name; elsewhere upvalue 2 is none and the comparison fails over to the lookup. */
static inline LEntity *lbp_check_entity_ud(lua_State *L, int i)
{
	void *p = lua_touserdata(L, i);
	if (p && lua_getmetatable(L, i)) {
		int ok = lua_rawequal(L, -1, lua_upvalueindex(2));
		lua_pop(L, 1);
		if (ok)
			return p;
	}
	return luaL_checkudata(L, i, ENTITY_MT);
}

/* The live entity of the Entity userdata le, its world to *wout, through le->lw (the
 * world's userdata block, which the entity's user value keeps alive). NULL if live,
 * else the problem: "entity belongs to a destroyed world" or "entity has been removed". */
static inline const char *lbp_entity_problem(const LEntity *le, bp_Entity **eout,
                                             bp_World **wout)
{
	const LWorld *lw = le->lw;
	*eout = NULL; /* set on every path: callers raise through luaL_error, which */
	*wout = NULL; /* the compiler does not know never returns */
	if (!lw || !lw->w)
		return "entity belongs to a destroyed world";
	*eout = bp_world_entity(lw->w, le->id);
	*wout = lw->w;
	return *eout ? NULL : "entity has been removed";
}

/* ------------------------------------------------------------------- laux.c */

int lbp_opt_tristate(lua_State *L, int t, const char *key, const char *fn);
int lbp_opt_flag(lua_State *L, int t, const char *key, const char *fn);
NumText lbp_num_text_digits(double v, int digits);
NumText lbp_num_text(double v);
NumText lbp_float_text(double v);
double lbp_check_finite(lua_State *L, int i);
double lbp_opt_finite(lua_State *L, int i, double def);
bp_World *lbp_world_of(lua_State *L, int i);
const char *lbp_lock_holder(const bp_World *w);
void lbp_check_unlocked(lua_State *L, bp_World *w, const char *fn);
void lbp_nest_check(lua_State *L, const char *fn);
void lbp_nest(int by);
const char *lbp_key_text(lua_State *L, int idx);
const char *lbp_error_text(lua_State *L, int idx);
void lbp_raise_status(lua_State *L, bp_Status st);
int lbp_raw_field(lua_State *L, int t, const char *name);
void lbp_reject_unknown_keys(lua_State *L, int t, const char *fn, const char *const *keys);
bp_Entity *lbp_check_entity_w(lua_State *L, int i, bp_World **wout);
bp_Entity *lbp_check_entity(lua_State *L, int i);
void lbp_push_entity(lua_State *L, int wi, uint32_t index);
void lbp_create_meta(lua_State *L, const char *name, const luaL_Reg *meta,
                     const luaL_Reg *methods);
void lbp_add_methods(lua_State *L, const char *name, const luaL_Reg *methods);

/* -------------------------------------------------------------- lcollider.c */

bp_AABB *lbp_check_collider(lua_State *L, int i);
bp_AABB *lbp_push_collider(lua_State *L, const bp_AABB *b);
int lbp_collider_new(lua_State *L);
void lbp_open_collider(lua_State *L);

/* ----------------------------------------------------------------- lworld.c */

int lbp_world_new(lua_State *L);
void lbp_free_detached(lua_State *L, LWorld *lw, bp_World *w);
void lbp_note_own_functions(lua_State *L, int module);
void lbp_open_world(lua_State *L);

/* ---------------------------------------------------------------- lentity.c */

extern const luaL_Reg lbp_entity_world_methods[]; /* spawn, remove, entities */
void lbp_open_entity(lua_State *L);

/* ---------------------------------------------------------------- lfields.c */

void lbp_check_changed_velocity(lua_State *L, const bp_World *w, bp_Entity *e,
                                uint32_t index1, const double before[3], const char *what);
void lbp_open_entity_fields(lua_State *L, const luaL_Reg *methods);
int lbp_ffi_field_get(const LEntity *le, int code, double *out);
int lbp_ffi_field_set(const LEntity *le, int code, double v, int boolean);

/* ----------------------------------------------------------------- lrules.c */

extern const char *const lbp_model_names[];
void lbp_read_rules(lua_State *L, int t, bp_Rules *r, const char *fn);
void lbp_view_to_table(lua_State *L, int i);
void lbp_push_rules_view(lua_State *L, int ei);
int lbp_make_rules(lua_State *L);
int lbp_rules_defaults(lua_State *L);
int lbp_rules_copy(lua_State *L);
void lbp_open_rules(lua_State *L);

/* ----------------------------------------------------------------- lhooks.c */

void lbp_forget_caught(lua_State *L, int wi);
void lbp_note_caught(lua_State *L, int wi);
void lbp_push_caught(lua_State *L, int wi, const char *what);
void lbp_push_hooks(lua_State *L, int wi, uint32_t index);
void lbp_push_new_hooks(lua_State *L, int t);
void lbp_note_hooks_undo(lua_State *L, int wi, int ht, uint32_t index);
void lbp_undo_hooks(lua_State *L, int wi, int restore);
void lbp_start_undo(lua_State *L, int wi, int on);
void lbp_install_hooks(lua_State *L, int wi, uint32_t index);
void lbp_set_filter(lua_State *L, int wi, uint32_t index, bp_Entity *e);

/* ------------------------------------------------------------------ lstep.c */

int lbp_entity_move(lua_State *L);
int lbp_entity_move_swept(lua_State *L);
int lbp_step(lua_State *L);
extern const luaL_Reg lbp_step_world_methods[]; /* step */

/* ----------------------------------------------------------------- lquery.c */

extern const luaL_Reg lbp_query_world_methods[]; /* boxes_in, query, raycast, ... */

/* ------------------------------------------------------------------ lloop.c */

extern const luaL_Reg lbp_loop_world_methods[]; /* advance, positions, lerp_positions */
void lbp_open_loop(lua_State *L);

/* ---------------------------------------------------------------- levents.c */

extern const luaL_Reg lbp_events_world_methods[]; /* events */
int lbp_entity_contacts(lua_State *L);
int lbp_entity_ground(lua_State *L);
void lbp_keep_departed(lua_State *L, int wi, int ei, bp_EntityId id);
int lbp_events_index(lua_State *L, const char *k);
int lbp_events_newindex(lua_State *L, const char *k);

/* --------------------------------------------------------------- ltrigger.c */

extern const luaL_Reg lbp_trigger_world_methods[]; /* add_trigger, remove_trigger */
void lbp_push_world_table(lua_State *L, int wi, const char *name, int make);
void lbp_push_trigger_tag(lua_State *L, int wi, uint64_t handle);
/* ---------------------------------------------------------------- lstream.c */

extern const luaL_Reg lbp_stream_world_methods[]; /* load_chunk, unload_chunk, chunk_data */
int lbp_stream_index(lua_State *L, const char *k);
int lbp_stream_newindex(lua_State *L, const char *k);

/* -------------------------------------------------------------- lsnapshot.c */

extern const luaL_Reg lbp_snapshot_world_methods[]; /* snapshot, restore, hash */
int lbp_decode_snapshot(lua_State *L);
int lbp_world_reseal(lua_State *L);
void lbp_note_removed(lua_State *L, int wi, int ei, uint32_t index1);
void lbp_open_snapshot(lua_State *L);

/* --------------------------------------------------------------- lhandoff.c */

extern const luaL_Reg lbp_handoff_world_methods[];  /* import */
extern const luaL_Reg lbp_handoff_entity_methods[]; /* export */

/* ------------------------------------------------------------------- lffi.c */

void lbp_open_ffi(lua_State *L);

/* ---------------------------------------------------------------- lluadir.c */

const char *lbp_installed_luadir(void);

/* --------------------------------------------------------------- ltesting.c */

void lbp_open_testing(lua_State *L);

#endif
