/* SPDX-License-Identifier: MIT
 * lsnapshot.c - Snapshot: world:snapshot(), world:restore(snap), snap:encode(),
 * blockphys.decode_snapshot(bytes) and world:hash() (e:export and world:import:
 * lhandoff.c). The core copies and codes the state (snapshot.c, snapcode.c);
 * this file keeps what lives on the Lua side, by reference, in the Snapshot's user value:
 * the hook tables of the entities (when some entity had hooks), the trigger tags and the
 * userdata of removed entities that pending events name. Entity userdata are matched by
 * id after a restore: the world's own cache, then the last userdata removed from each
 * slot (the weak table "removed" of the entity table), else a new one.
 * Reaches the core only through blockphys.h's functions.
 */
#include "lbp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SNAPSHOT_MT "blockphys.Snapshot"

/* The host values of a snapshot (bp_snapshot_host): the binding's clock. */
enum { HOST_SET, HOST_TICK_RATE, HOST_MAX_TICKS, HOST_PENDING, HOST_DROPPED };

typedef struct LSnapshot {
	bp_Snapshot *s; /* NULL until taken or decoded */
	LBP_ALLOC_KEEP  /* Lua's allocator, which the snapshot's arrays come from */
} LSnapshot;

/* The snapshot's allocator: Lua's, as the worlds' (chunk arrays are shared). */
static void *snap_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	LSnapshot *ls = ud;
	void *aud;
	lua_Alloc f = LBP_ALLOCF(ls, &aud);
	return f(aud, ptr, osize, nsize);
}

static LSnapshot *push_new_snapshot(lua_State *L)
{
	LSnapshot *ls = lua_newuserdatauv(L, sizeof *ls, 1);
	ls->s = NULL;
	LBP_ALLOC_INIT(L, ls);
	luaL_setmetatable(L, SNAPSHOT_MT);
	return ls;
}

/* A new snapshot's arrays come from Lua's allocator without Lua's count of them (the
 * collector sees a small userdata): a collector step as large as they are keeps a
 * script that drops a snapshot every tick from piling up unseen garbage. */
static void note_new_memory(lua_State *L, const bp_Snapshot *s)
{
	const size_t kb = bp_snapshot_bytes(s) / 1024;
	lua_gc(L, LUA_GCSTEP, kb > INT32_MAX ? INT32_MAX : (int)kb);
}

static LSnapshot *check_snapshot(lua_State *L, int i)
{
	LSnapshot *ls = luaL_checkudata(L, i, SNAPSHOT_MT);
	if (!ls->s)
		luaL_argerror(L, i, "snapshot is empty");
	return ls;
}

/* The LWorld at index 1, live, not a C host's (whose allocator may not be Lua's). */
static LWorld *check_own_world(lua_State *L, const char *fn)
{
	lbp_world_of(L, 1);
	LWorld *lw = lua_touserdata(L, 1);
	if (lw->borrowed)
		luaL_error(L, "%s: the world belongs to a C host (use bp_world_take_snapshot and "
		              "bp_world_restore_snapshot in C)", fn);
	return lw;
}

/* ---------------------------------------------------------------- capturing */

/* A copy of table t (index) with its integer handle keys without the world's tag.
 * Stored with lua_rawseti, as ltrigger.c stores them (Lua 5.1's takes an int key). */
static void copy_untagged(lua_State *L, int t)
{
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_Integer h = lua_tointeger(L, -2);
		lua_rawseti(L, -3, (lua_Integer)bp_handle_untag((uint64_t)h));
	}
}

/* A shallow copy of the table at index t. */
static void copy_table(lua_State *L, int t)
{
	t = lua_absindex(L, t);
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pushvalue(L, -2);
		lua_insert(L, -2);
		lua_rawset(L, -4);
	}
}

static const char *const HOOKS[] = {"heading", "jump", "filter"};

/* The Lua side the snapshot keeps (user value 1): {hooks = {slot1 = hook table copy}
 * (only when some entity has hooks), tags, departed_tags = {untagged handle = tag},
 * departed = {key = Entity}}. The world is at index 1. */
static void capture(lua_State *L, bp_World *w)
{
	lua_createtable(L, 0, 4);
	const int cap = lua_gettop(L);
	if (bp_world_any_hooks(w)) {
		lua_newtable(L);
		lua_getiuservalue(L, 1, 2);
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			if (lua_type(L, -2) == LUA_TNUMBER && lua_istable(L, -1)) {
				lua_pushvalue(L, -2);
				copy_table(L, -2);
				lua_rawset(L, -6);
			}
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		lua_setfield(L, cap, "hooks");
	}
	static const char *const tagged[][2] = {{"trigger_tags", "tags"},
	                                        {"departed_tags", "departed_tags"}};
	for (int i = 0; i < 2; i++) {
		lbp_push_world_table(L, 1, tagged[i][0], 0);
		if (lua_istable(L, -1)) {
			copy_untagged(L, lua_gettop(L));
			lua_setfield(L, cap, tagged[i][1]);
		}
		lua_pop(L, 1);
	}
	lbp_push_world_table(L, 1, "departed", 0);
	if (lua_istable(L, -1)) {
		copy_table(L, -1);
		lua_setfield(L, cap, "departed");
	}
	lua_pop(L, 1);
}

/***
 * Take a snapshot of the world: its whole state, to be put back later with
 * world:restore, into this world or another one (a fresh `bp.World()` included), or
 * encoded to bytes (snap:encode). It holds every entity (position and box, velocity,
 * inputs with latched jumps, flags, fall and camera state, rules, groups and masks,
 * handles and creation order), the block types, the blocks, colliders and triggers,
 * world.tick and advance's clock (pending time, tick_rate, max_ticks), and the
 * pending events. Lua values are held by reference: the hook and filter functions and
 * trigger tags, as they are now (a snapshot taken when no entity has hooks holds no
 * hook table). The blocks are shared with the world copy-on-write by chunk, so a
 * snapshot of unchanged terrain costs the entities only. Given an older snapshot, it
 * takes the state into that object, reusing its memory (a ring of rollback frames
 * then allocates nothing tick after tick). Source: our own (docs/rollback.md).
 * @function World:snapshot
 * @tparam[opt] Snapshot into a snapshot to overwrite (of this world or another)
 * @treturn Snapshot the new snapshot, or `into`
 * @raise "snapshot: world is locked: ..." inside a step or a move's filters; "not
 *   enough memory"; a C host's world (lbridge.c) is refused.
 */
static int l_world_snapshot(lua_State *L)
{
	LWorld *lw = check_own_world(L, "snapshot");
	bp_World *w = lw->w;
	LSnapshot *into = lua_isnoneornil(L, 2) ? NULL : luaL_checkudata(L, 2, SNAPSHOT_MT);
	lbp_check_unlocked(L, w, "snapshot");
	lua_settop(L, 2);
	LSnapshot *ls = into;
	bp_Status st;
	if (into && into->s) {
		st = bp_world_retake_snapshot(w, into->s);
	} else {
		if (!into) {
			lua_pop(L, 1);
			ls = push_new_snapshot(L); /* 2 */
		}
		st = bp_world_take_snapshot(w, snap_alloc, ls, &ls->s);
		if (st == BP_OK)
			note_new_memory(L, ls->s);
	}
	if (st != BP_OK)
		lbp_raise_status(L, st);
	double *h = bp_snapshot_host(ls->s);
	h[HOST_SET] = 1;
	h[HOST_TICK_RATE] = lw->tick_rate;
	h[HOST_MAX_TICKS] = (double)lw->max_ticks;
	h[HOST_PENDING] = lw->pending_ticks;
	h[HOST_DROPPED] = lw->dropped_seconds;
	capture(L, w);
	lua_setiuservalue(L, 2, 1);
	return 1;
}

/* ---------------------------------------------------------------- restoring */

/* Whether the Entity userdata at index i names live entity `id` of the world at 1. */
static int names(lua_State *L, int i, bp_EntityId id)
{
	const LEntity *le = lua_touserdata(L, i);
	if (!le || !luaL_testudata(L, i, ENTITY_MT) || le->id.index1 != id.index1 ||
	    le->id.generation != id.generation)
		return 0;
	lua_getiuservalue(L, i, 1);
	int same = lua_rawequal(L, -1, 1);
	lua_pop(L, 1);
	return same;
}

/* Remove the integer keys of table t whose slot holds no live entity now. */
static void drop_dead_slots(lua_State *L, bp_World *w, int t)
{
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TNUMBER)
			continue;
		lua_Integer k = lua_tointeger(L, -1);
		if (k >= 1 && k <= (lua_Integer)UINT32_MAX &&
		    bp_world_slot_id(w, (uint32_t)(k - 1)).index1 != 0)
			continue;
		lua_pushvalue(L, -1);
		lua_pushnil(L);
		lua_rawset(L, t); /* clearing a field during lua_next is allowed */
	}
}

/* The entity cache (user value 1) after a restore: each live slot's userdata names
 * its entity (kept, the one removed from the slot, or new); the others go. */
static void restore_entity_cache(lua_State *L, bp_World *w)
{
	lua_getiuservalue(L, 1, 1);
	const int cache = lua_gettop(L);
	drop_dead_slots(L, w, cache);
	lua_getfield(L, cache, "removed");
	const int removed = lua_gettop(L);
	const LWorld *lw = lua_touserdata(L, 1);
	for (uint32_t i = 0; i < bp_world_entity_count(w); i++) {
		const uint32_t slot = bp_world_entity_slot(w, i);
		const bp_EntityId id = bp_world_slot_id(w, slot);
		lua_rawgeti(L, cache, (lua_Integer)slot + 1);
		int ok = names(L, -1, id);
		lua_pop(L, 1);
		if (ok)
			continue;
		if (lua_istable(L, removed)) {
			lua_rawgeti(L, removed, (lua_Integer)slot + 1);
			if (names(L, -1, id)) {
				lua_rawseti(L, cache, (lua_Integer)slot + 1);
				continue;
			}
			lua_pop(L, 1);
		}
		LEntity *le = lua_newuserdatauv(L, sizeof *le, 1);
		le->id = id;
		le->lw = lw;
		luaL_setmetatable(L, ENTITY_MT);
		lua_pushvalue(L, 1);
		lua_setiuservalue(L, -2, 1);
		lua_rawseti(L, cache, (lua_Integer)slot + 1);
	}
	lua_settop(L, cache - 1);
}

/* The hook tables (user value 2) after a restore: the snapshot's (cap at index cap,
 * or none), a table for each live slot, none for the others. */
static void restore_hooks(lua_State *L, bp_World *w, int cap)
{
	lua_getiuservalue(L, 1, 2);
	const int ht = lua_gettop(L);
	drop_dead_slots(L, w, ht);
	if (lua_istable(L, cap))
		lua_getfield(L, cap, "hooks");
	else
		lua_pushnil(L);
	const int hooks = lua_gettop(L);
	for (uint32_t i = 0; i < bp_world_entity_count(w); i++) {
		const lua_Integer slot1 = (lua_Integer)bp_world_entity_slot(w, i) + 1;
		if (lua_istable(L, hooks) && lua_rawgeti(L, hooks, slot1) == LUA_TTABLE) {
			copy_table(L, -1); /* hook tables change in place (lhooks.c) */
			lua_rawseti(L, ht, slot1);
			lua_pop(L, 1);
			continue;
		}
		if (lua_istable(L, hooks))
			lua_pop(L, 1);
		/* No hooks in the snapshot for it: an empty table, unless it has one already */
		int keep = lua_rawgeti(L, ht, slot1) == LUA_TTABLE;
		for (int k = 0; keep && k < 3; k++) {
			keep = lua_getfield(L, -1, HOOKS[k]) == LUA_TNIL;
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		if (!keep) {
			lua_createtable(L, 0, 3);
			lua_rawseti(L, ht, slot1);
		}
	}
	lua_settop(L, ht - 1);
}

/* A copy of the captured table `field` (untagged handle keys) with this world's tags,
 * as the entity table's `name` (or no such table). */
static void restore_tags(lua_State *L, bp_World *w, int cap, const char *field, const char *name)
{
	lua_getiuservalue(L, 1, 1);
	if (lua_istable(L, cap) && lua_getfield(L, cap, field) == LUA_TTABLE) {
		lua_newtable(L);
		lua_pushnil(L);
		while (lua_next(L, -3)) {
			uint64_t h = (uint64_t)lua_tointeger(L, -2);
			lua_rawseti(L, -3, (lua_Integer)bp_world_retag_handle(w, h));
		}
		lua_remove(L, -2);
	} else {
		if (lua_istable(L, cap))
			lua_pop(L, 1);
		lua_pushnil(L);
	}
	lua_setfield(L, -2, name);
	lua_pop(L, 1);
}

/* The departed userdata the snapshot's events may name: those of this world. */
static void restore_departed(lua_State *L, int cap)
{
	lua_getiuservalue(L, 1, 1);
	lua_newtable(L);
	if (lua_istable(L, cap) && lua_getfield(L, cap, "departed") == LUA_TTABLE) {
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			lua_getiuservalue(L, -1, 1);
			int ours = lua_rawequal(L, -1, 1);
			lua_pop(L, 1);
			if (ours) {
				lua_pushvalue(L, -2);
				lua_insert(L, -2);
				lua_rawset(L, -5);
			} else {
				lua_pop(L, 1);
			}
		}
	}
	if (lua_istable(L, cap))
		lua_pop(L, 1);
	lua_setfield(L, -2, "departed");
	lua_pop(L, 1);
}

/* The snapshot's clock, checked as world.tick_rate and world.max_ticks check theirs. */
static int clock_ok(const double *h)
{
	return h[HOST_TICK_RATE] >= 1 && h[HOST_TICK_RATE] <= 1000 && h[HOST_MAX_TICKS] >= 1 &&
	       h[HOST_MAX_TICKS] <= 1000 && floor(h[HOST_MAX_TICKS]) == h[HOST_MAX_TICKS] &&
	       h[HOST_PENDING] >= 0 && h[HOST_PENDING] <= 1001 && h[HOST_DROPPED] >= 0 &&
	       h[HOST_DROPPED] <= 1e300;
}

/***
 * Put the world back to a snapshot's state exactly: afterwards, stepping with the same
 * inputs gives bit-identical results to the run the snapshot was taken in. Works on
 * any world whose block types are the snapshot's first ones (same definitions, same
 * order): a fresh `bp.World()` gets the snapshot's types defined. Entities of the
 * snapshot come back with their ids; an Entity userdata held by the script stays valid
 * when its entity is in the snapshot and reports removal (`e:valid()` false) when it
 * is not. Hook and filter functions and trigger tags come back as the snapshot holds
 * them (by reference); a decoded snapshot holds none: its entities come back without
 * hooks or filters, its triggers without tags (set them again). Source: our own
 * (docs/rollback.md).
 * @function World:restore
 * @tparam Snapshot snap from world:snapshot or blockphys.decode_snapshot
 * @raise "restore: world is locked: ..." inside a step; "restore: the world's block
 *   types differ from the snapshot's" (or "the world has block types the snapshot does
 *   not"): nothing changed; "restore: the snapshot's clock is out of range"; "not enough
 *   memory" (block types defined so far stay).
 */
static int l_world_restore(lua_State *L)
{
	LWorld *lw = check_own_world(L, "restore");
	bp_World *w = lw->w;
	LSnapshot *ls = check_snapshot(L, 2);
	lbp_check_unlocked(L, w, "restore");
	lua_settop(L, 2);
	lua_getiuservalue(L, 2, 1); /* 3: what the Lua side kept, or nil (decoded) */
	const double *h = bp_snapshot_host(ls->s);
	if (h[HOST_SET] != 0 && !clock_ok(h))
		return luaL_error(L, "restore: the snapshot's clock is out of range");
	/* The Lua side needs work only where it can differ: other ids live, hooks. */
	const int same_ids = bp_world_same_ids(w, ls->s);
	int hooks = !same_ids || bp_world_any_hooks(w);
	if (!hooks && lua_istable(L, 3)) {
		hooks = lua_getfield(L, 3, "hooks") != LUA_TNIL;
		lua_pop(L, 1);
	}
	const char *why = NULL;
	bp_Status st = bp_world_restore_snapshot(w, ls->s, lua_istable(L, 3) ? 0 : BP_RESTORE_DROP_HOOKS,
	                                         &why);
	if (st == BP_ENOMEM)
		lbp_raise_status(L, st);
	if (st != BP_OK)
		return luaL_error(L, "restore: %s", why ? why : "failed");
	if (h[HOST_SET] != 0) {
		lw->tick_rate = h[HOST_TICK_RATE];
		lw->max_ticks = (lua_Integer)h[HOST_MAX_TICKS];
		lw->pending_ticks = h[HOST_PENDING];
		lw->dropped_seconds = h[HOST_DROPPED];
	}
	if (!same_ids)
		restore_entity_cache(L, w);
	if (hooks)
		restore_hooks(L, w, 3);
	restore_tags(L, w, 3, "tags", "trigger_tags");
	restore_tags(L, w, 3, "departed_tags", "departed_tags");
	restore_departed(L, 3);
	return 0;
}

/* Called by World:remove before the slot's cache entry goes: the userdata is kept
 * (weakly) so that a restore to a state where the entity lives gives it back. */
void lbp_note_removed(lua_State *L, int wi, int ei, uint32_t index1)
{
	lua_getiuservalue(L, wi, 1);
	if (lua_getfield(L, -1, "removed") != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		lua_pushvalue(L, -1);
		lua_setfield(L, -3, "removed");
	}
	lua_pushvalue(L, ei);
	lua_rawseti(L, -2, (lua_Integer)index1);
	lua_pop(L, 2);
}

/* ---------------------------------------------------------------- bytes */

/***
 * The snapshot as a byte string: versioned, little-endian, identical on every build
 * and interpreter, ending in a 64-bit checksum; blockphys.decode_snapshot reads it
 * back. Lua values (hooks, filters, trigger tags) are not in it. Source: our own
 * (docs/rollback.md, "The byte format").
 * @function Snapshot:encode
 * @treturn string
 * @raise "not enough memory".
 */
static int l_snapshot_encode(lua_State *L)
{
	LSnapshot *ls = check_snapshot(L, 1);
	const size_t n = bp_snapshot_encode(ls->s, NULL, 0);
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, n);
	bp_snapshot_encode(ls->s, p, n);
	luaL_pushresultsize(&b, n);
	return 1;
}

/***
 * Decode a byte string from snap:encode. Never raises on the bytes: anything
 * truncated, corrupted (checked by the checksum and by every count and value) or of an
 * unknown version gives nil and a message. Allocates at most about 215 times the
 * string's length plus 64 KB (a free entity slot is 5 bytes in the string and a
 * whole slot, about 1 KB, in memory; a real snapshot decodes into about its own
 * size). Source: our own (docs/rollback.md).
 * @function decode_snapshot
 * @tparam string bytes
 * @treturn[1] Snapshot
 * @treturn[2] nil
 * @treturn[2] string message: "decode_snapshot: truncated", "decode_snapshot:
 *   corrupted: ...", "decode_snapshot: unknown snapshot version", ...
 * @raise "bad argument #1 to 'decode_snapshot' (string expected, got ...)", "not
 *   enough memory".
 */
int lbp_decode_snapshot(lua_State *L)
{
	size_t n;
	const char *p = luaL_checklstring(L, 1, &n);
	LSnapshot *ls = push_new_snapshot(L);
	const char *why = NULL;
	bp_Status st = bp_snapshot_decode(snap_alloc, ls, p, n, &ls->s, &why);
	if (st == BP_ENOMEM)
		lbp_raise_status(L, st);
	if (st != BP_OK) {
		lua_pushnil(L);
		lua_pushfstring(L, "decode_snapshot: %s", why ? why : "bad input");
		return 2;
	}
	note_new_memory(L, ls->s);
	return 1;
}

/* 16 lower-case hex digits of a 64-bit value. */
static void push_hex(lua_State *L, uint64_t v)
{
	char s[17];
	snprintf(s, sizeof s, "%016llx", (unsigned long long)v);
	lua_pushstring(L, s);
}

/***
 * A 64-bit digest of the world's simulation state, as 16 hex digits: equal on two
 * peers whose states are bit-identical (whatever the build or interpreter), different
 * (but for a 2^-64 chance) after any change of it. It covers what a snapshot holds but
 * advance's clock and the Lua side (hooks' functions, trigger tags): every live
 * entity's fields, inputs, rules (hook flags included), ids and creation order, free
 * slots' generations, the block types, the blocks, colliders, triggers and their
 * overlaps, world.tick and the pending events. Chunks' digests are cached until they
 * change, so its cost is linear in the entity slots. Source: our own.
 * @function World:hash
 * @treturn string 16 hex digits
 */
static int l_world_hash(lua_State *L)
{
	push_hex(L, bp_world_hash(lbp_world_of(L, 1)));
	return 1;
}

/***
 * The digest world:hash gives for the snapshot's state (in a world restored from it).
 * Source: our own.
 * @function Snapshot:hash
 * @treturn string 16 hex digits
 */
static int l_snapshot_hash(lua_State *L)
{
	push_hex(L, bp_snapshot_hash(check_snapshot(L, 1)->s));
	return 1;
}

/***
 * The world.tick the snapshot was taken at. Source: our own.
 * @function Snapshot:tick
 * @treturn integer
 */
static int l_snapshot_tick(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)bp_snapshot_tick(check_snapshot(L, 1)->s));
	return 1;
}

/***
 * Bytes the snapshot holds (chunks it shares with worlds counted whole). Source: our own.
 * @function Snapshot:bytes
 * @treturn integer
 */
static int l_snapshot_bytes(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)bp_snapshot_bytes(check_snapshot(L, 1)->s));
	return 1;
}

/***
 * How many of the snapshot's 16^3 chunk arrays are shared with a world or another
 * snapshot (copy-on-write: a block change in the world copies its chunk's array,
 * which then counts no more). Chunks of one block id throughout hold no array.
 * Source: our own.
 * @function Snapshot:shared_chunks
 * @treturn integer
 */
static int l_snapshot_shared_chunks(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)bp_snapshot_shared_chunks(check_snapshot(L, 1)->s));
	return 1;
}

static int l_snapshot_gc(lua_State *L)
{
	LSnapshot *ls = luaL_checkudata(L, 1, SNAPSHOT_MT);
	bp_snapshot_free(ls->s);
	ls->s = NULL;
	return 0;
}

static int l_snapshot_tostring(lua_State *L)
{
	LSnapshot *ls = luaL_checkudata(L, 1, SNAPSHOT_MT);
	if (ls->s)
		lua_pushfstring(L, "blockphys.Snapshot(tick %s)",
		                lbp_num_text((double)bp_snapshot_tick(ls->s)).s);
	else
		lua_pushliteral(L, "blockphys.Snapshot(empty)");
	return 1;
}

/***
 * Internal, for the fuzzers: the bytes of a snapshot or exported entity (changed)
 * with their length and checksum made right again, so that decoding meets the change.
 * Source: our own.
 * @function World:_reseal
 * @tparam string bytes
 * @treturn string
 * @local
 */
int lbp_world_reseal(lua_State *L)
{
	size_t n;
	const char *p = luaL_checklstring(L, 2, &n);
	luaL_Buffer b;
	char *q = luaL_buffinitsize(L, &b, n);
	memcpy(q, p, n);
	bp_image_reseal(q, n);
	luaL_pushresultsize(&b, n);
	return 1;
}

/* ---------------------------------------------------------------- the type */

static const luaL_Reg snapshot_methods[] = {
	{"encode", l_snapshot_encode}, {"hash", l_snapshot_hash}, {"tick", l_snapshot_tick},
	{"bytes", l_snapshot_bytes}, {"shared_chunks", l_snapshot_shared_chunks}, {NULL, NULL}};

/* No "__index" entry: lbp_create_meta makes the methods table __index (a NULL entry
 * would become a closure of NULL under compat-5.3's luaL_setfuncs on Lua 5.1). */
static const luaL_Reg snapshot_meta[] = {
	{"__gc", l_snapshot_gc}, {"__tostring", l_snapshot_tostring}, {NULL, NULL}};

const luaL_Reg lbp_snapshot_world_methods[] = {
	{"snapshot", l_world_snapshot}, {"restore", l_world_restore}, {"hash", l_world_hash},
	{NULL, NULL}};

void lbp_open_snapshot(lua_State *L)
{
	lbp_create_meta(L, SNAPSHOT_MT, snapshot_meta, snapshot_methods);
}
