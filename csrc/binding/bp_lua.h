/* SPDX-License-Identifier: MIT
 * bp_lua.h - the bridge between a C host and Lua scripts, installed as
 * <blockphys/lua.h> (make install-lib; link with `pkg-config --libs blockphys-lua`).
 * The host creates and steps a bp_World in C; scripts in a Lua state it owns see the
 * same world as a `blockphys.World` and define blocks, spawn, tune rules and set hooks
 * through the ordinary Lua API (docs/api.md). docs/embedding.md walks through it.
 *
 * Ownership: a world handed to Lua with bp_lua_push_world stays the host's. Lua never
 * frees it (World:destroy refuses, the collector leaves it); the state holds its Lua
 * side (the World userdata, its entity userdata and hooks) until the host calls
 * bp_lua_release_world, which it must do, in every state it handed the world to,
 * before bp_world_destroy. From then on every Lua call on that World or its entities
 * raises "... (world has been destroyed)" / "(entity belongs to a destroyed world)".
 *
 * Which world: `w` below is the host's own world, or a world a script made that L
 * has shown the host through bp_lua_check_world (the bridge knows it then). A
 * script's world the bridge has not seen would be taken for a host's one.
 *
 * Threads: a Lua state and the worlds it sees belong to one thread at a time. Every
 * function here may raise a Lua error (as the Lua API's own functions do: call them
 * under lua_pcall, or where the state's panic function is acceptable), except where
 * stated. None may be called from a hook or filter of a step running on the same world
 * unless stated. Source of all of it: our own.
 */
#ifndef BLOCKPHYS_LUA_H
#define BLOCKPHYS_LUA_H

#include <lua.h>

#include "blockphys.h"

#ifndef LUA_OK /* Lua 5.1 and LuaJIT name no status 0 (bp_lua_step returns it) */
#define LUA_OK 0
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/** The module's opener (what `require "blockphys.core"` runs), built into
 *  libblockphys-lua. */
int luaopen_blockphys_core(lua_State *L);

/** Make `require "blockphys"` work in L from the installed files alone: sets
 *  package.preload["blockphys.core"] to the opener above (no core.so needed) and puts
 *  the Lua layer's installed directory (PREFIX/share/lua/VERSION, fixed when
 *  make install-lib built the library) in front of package.path, unless it is there.
 *  L must have the package library open (luaL_openlibs). Raises only for lack of
 *  memory. */
void bp_lua_preload(lua_State *L);

/** Push `w` (the host's world) as a blockphys.World: the same userdata every time for
 *  the same w in one state (so it works as a table key and compares equal). The first
 *  push opens blockphys.core's types if nothing did yet (call `require "blockphys"`
 *  first for the Lua-side World methods). Entities the world holds become visible to
 *  Lua (as bp_lua_sync_world). w must be a live world (NULL raises
 *  "bp_lua_push_world: no world (NULL)"). */
void bp_lua_push_world(lua_State *L, bp_World *w);

/** The bp_World of the blockphys.World at stack index idx (a Lua-made world or a
 *  host's). Raises "bad argument #idx (blockphys.World expected, got ...)" or "(world
 *  has been destroyed)". For a Lua-made world the pointer is valid while that World is
 *  alive and not destroyed: keep a reference to it (e.g. in the registry). */
bp_World *bp_lua_check_world(lua_State *L, int idx);

/** Tell L that the host is about to destroy w: its World and entities there become
 *  destroyed for Lua (calls raise), and the state drops its hold on them. Call it
 *  before bp_world_destroy, outside any step of w. Returns 1 if L knew w, else 0 (no
 *  change). Raises no error; does nothing but return -1 while w is locked (inside
 *  its step or a move). */
int bp_lua_release_world(lua_State *L, bp_World *w);

/** Give L the entities the host spawned or removed in C since w was pushed or last
 *  synced: each live one gets its blockphys.Entity (with no hooks), each removed one
 *  loses its own (its copies in Lua then raise "entity has been removed"). O(entities
 *  + slots). Call it after spawning or removing in C and before Lua code runs on the
 *  world again (bp_lua_step does it). Does nothing if L does not know w. Not while w
 *  is locked. */
void bp_lua_sync_world(lua_State *L, bp_World *w);

/** Push the blockphys.Entity of entity `id` of w (syncing that slot first), and return
 *  1; if id names no live entity of w, push nil and return 0. Pushes w first if L did
 *  not know it (and pops it again). */
int bp_lua_push_entity(lua_State *L, bp_World *w, bp_EntityId id);

/** The handle of the live blockphys.Entity at stack index idx, its world to *w (may
 *  be NULL). Raises "bad argument #idx (blockphys.Entity expected, got ...)", "(entity
 *  has been removed)" or "(entity belongs to a destroyed world)". */
bp_EntityId bp_lua_check_entity(lua_State *L, int idx, bp_World **w);

/** Read a rules table or RulesView at stack index idx (as spawn's `rules` field reads
 *  it: a preset from bp.rules.*, tuned, or a plain table with `model`) into *out, for
 *  bp_EntityDef.rules (bp_entity_get_rules reads an entity's back). Raises the same errors as
 *  World:spawn's rules ("<fn>: ..."), and "<fn>: heading and jump hooks are Lua
 *  functions: set them on the entity from Lua" when the rules carry hooks. */
void bp_lua_check_rules(lua_State *L, int idx, bp_Rules *out, const char *fn);

/** Step w by dt seconds as world:step does from Lua (entities' Lua hooks and filters
 *  run; a failing step changes nothing), after bp_lua_sync_world. Never raises:
 *  returns LUA_OK, or the error code of lua_pcall with the message on the stack top
 *  (pop it), or LUA_ERRMEM with nothing pushed when L's stack cannot grow. A host
 *  whose entities carry no Lua hooks or filters may call bp_world_step(w, dt)
 *  directly instead (then bp_lua_sync_world before scripts run again). */
int bp_lua_step(lua_State *L, bp_World *w, double dt);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
