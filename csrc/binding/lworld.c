/* SPDX-License-Identifier: MIT
 * lworld.c - the World type: its lifetime (the core world's allocator, creation,
 * destroy and __gc, a world detached under a running call), block types, blocks,
 * static colliders and counters; the World method table, whose other methods live
 * with their concern (lentity.c, lstep.c, lquery.c).
 */

/***
 * Worlds: blocks, block types, static colliders; made by `bp.World`.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "lbp.h"

/* ----------------------------------------------------------------- lifetime */

/* The core world's allocator: Lua's. `ud` is the world's userdata block, which
 * outlives the core world (freed at the latest by its __gc). A growth may be made to
 * fail on purpose (World:_fail_alloc); a free never fails. */
static void *l_alloc_bridge(void *ud, void *ptr, size_t osize, size_t nsize)
{
	LWorld *lw = ud;
	if (nsize > (ptr ? osize : 0) && lw->fail_alloc > 0 && --lw->fail_alloc == 0)
		return NULL;
	void *aud;
	lua_Alloc f = LBP_ALLOCF(lw, &aud);
	return f(aud, ptr, osize, nsize);
}

/* The registry key of the Lua state's count of worlds made, whose low bits tag each
 * world's collider handles (deterministic: the same script gives the same handles). */
static const char world_count_key = 0;

static uint32_t next_handle_tag(lua_State *L)
{
	lua_rawgetp(L, LUA_REGISTRYINDEX, &world_count_key);
	uint32_t tag = (uint32_t)(lua_tointeger(L, -1) & LBP_HANDLE_TAG_MAX); /* nil: 0 */
	lua_pop(L, 1);
	lua_pushinteger(L, (lua_Integer)((tag + 1) & LBP_HANDLE_TAG_MAX));
	lua_rawsetp(L, LUA_REGISTRYINDEX, &world_count_key);
	return tag;
}

/* The registry key of a table with weak values: the world userdata of every live world,
 * keyed by its block (light userdata). The collector clears a world's entry before it
 * calls the world's __gc, so a __gc that finds its entry was called directly
 * (debug.getmetatable(w).__gc(w)) while the world may still be in use. */
static const char live_worlds_key = 0;

/***
 * A new empty world: every block is air (id 0), no colliders, no entities. Its memory
 * comes from the Lua allocator. Lifetime: until world:destroy(), `__close` or
 * garbage collection; entities keep their world alive. Source: our own (docs/architecture.md
 * section 2, "Memory model").
 * @function World
 * @treturn World
 * @raise "not enough memory".
 */
int lbp_world_new(lua_State *L)
{
	const uint32_t tag = next_handle_tag(L);
	LWorld *lw = lua_newuserdatauv(L, sizeof *lw, 2);
	lw->w = NULL; /* closed until the core world exists (liolib newprefile) */
	lw->pending = NULL;
	lw->undo = 0;
	lw->fail_alloc = 0;
	lw->tick_rate = 20;
	lw->max_ticks = 10;
	lw->pending_ticks = 0;
	lw->dropped_seconds = 0;
	lw->borrowed = 0;
	luaL_setmetatable(L, WORLD_MT);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 1);
	lua_newtable(L);
	lua_setiuservalue(L, -2, 2);
	/* The allocator bridge reaches Lua's allocator through what outlives the world:
	 * the main thread (lcompat.h). */
	LBP_ALLOC_INIT(L, lw);
	lw->w = bp_world_create(l_alloc_bridge, lw);
	if (!lw->w)
		return luaL_error(L, "not enough memory");
	bp_world_set_handle_tag(lw->w, tag);
	bp_world_set_sleeping(lw->w, 1); /* world.sleeping: on for Lua worlds */
	lua_rawgetp(L, LUA_REGISTRYINDEX, &live_worlds_key);
	lua_pushvalue(L, -2);
	lua_rawsetp(L, -2, lw);
	lua_pop(L, 1);
	return 1;
}

#if LUA_VERSION_NUM < 504 /* see in_finalizer */
/* The registry key of the set (a table with weak keys) of the module's own C
 * functions: every function value of its metatables, of its module table and of their
 * tables one and two levels down (method tables, the Entity field table). */
static const char own_functions_key = 0;

/* Adds the C functions among the values of the table at index t to the set at index
 * set, and those of its tables (and of their metatables) `depth` levels down. */
static void note_functions(lua_State *L, int set, int t, int depth)
{
	t = lua_absindex(L, t);
	luaL_checkstack(L, 4, NULL);
	if (depth > 0 && lua_getmetatable(L, t)) { /* the World methods' hidden ones */
		note_functions(L, set, -1, depth - 1);
		lua_pop(L, 1);
	}
	lua_pushnil(L);
	while (lua_next(L, t)) {
		if (lua_iscfunction(L, -1)) {
			lua_pushvalue(L, -1);
			lua_pushboolean(L, 1);
			lua_rawset(L, set);
		} else if (depth > 0 && lua_istable(L, -1)) {
			note_functions(L, set, -1, depth - 1);
		}
		lua_pop(L, 1);
	}
}

/* Notes the module's C functions (the module table at index module, complete) in the
 * set that own_call_below looks for on the stack. */
void lbp_note_own_functions(lua_State *L, int module)
{
	static const char *const types[] = {WORLD_MT, ENTITY_MT, COLLIDER_MT, RULESVIEW_MT,
	                                    RULES_MT};
	module = lua_absindex(L, module);
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &own_functions_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L); /* weak keys: a module opened again leaves its old closures */
		lua_createtable(L, 0, 1);
		lua_pushliteral(L, "k");
		lua_setfield(L, -2, "__mode");
		lua_setmetatable(L, -2);
		lua_pushvalue(L, -1);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &own_functions_key);
	}
	const int set = lua_gettop(L);
	for (int i = 0; i < 5; i++) {
		luaL_getmetatable(L, types[i]);
		note_functions(L, set, -1, 2);
		lua_pop(L, 1);
	}
	note_functions(L, set, module, 2);
	lua_pop(L, 1);
}

/* Whether one of the module's C functions runs on this thread below the function
 * that asks (stack level 0); past 256 levels, yes (unsure: the walk stays short). */
static int own_call_below(lua_State *L)
{
	lua_Debug ar;
	int found = 0;
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &own_functions_key) != LUA_TTABLE) {
		lua_pop(L, 1);
		return 1;
	}
	for (int level = 1; !found && lua_getstack(L, level, &ar); level++) {
		if (level > 256) {
			found = 1;
			break;
		}
		lua_getinfo(L, "f", &ar);
		found = lua_iscfunction(L, -1) && lua_rawget(L, -2) != LUA_TNIL;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return found;
}
#else
void lbp_note_own_functions(lua_State *L, int module)
{
	(void)L, (void)module; /* Lua 5.4 tells a finalizer exactly */
}
#endif

/* True when freeing the core world now could pull it from under a running call: while
 * a finalizer (__gc) may run (LBP_IN_FINALIZER: exact on Lua 5.4, else also at times
 * when no finalizer runs, which only defers the free to __gc), since a finalizer may
 * run at any allocation inside a method of this very world, which still holds pointers
 * into it. Before 5.4 the collector's state can lie: a finalizer that runs
 * collectgarbage() (LuaJIT: also "step"; 5.2, 5.3 and LuaJIT: "restart") leaves the
 * collector running for the rest of it, and world:destroy() there freed the world
 * under the method the finalizer interrupted. So there the stack answers too: yes
 * while one of the module's C functions runs below (the free then waits for __gc). */
static int in_finalizer(lua_State *L)
{
#if LUA_VERSION_NUM >= 504
	return LBP_IN_FINALIZER(L);
#else
	return LBP_IN_FINALIZER(L) || own_call_below(L);
#endif
}

/***
 * Free the world now (also `__close`). Idempotent. Afterwards every World method and
 * every entity of it raises "... (world has been destroyed)" / "(entity belongs to a
 * destroyed world)"; e:valid() returns false. Source: our own.
 * @function World:destroy
 * @raise "destroy: world is locked: cannot destroy it inside world:step (from a rules hook or
 *   filter)" (or "inside e:move (from an entity filter)", e:move_swept likewise);
 *   "destroy: the world belongs to the C host, which destroys it" for a world a C
 *   program handed to Lua (docs/embedding.md).
 */
/* From a finalizer (before Lua 5.4: also under any running call of the module, see
 * in_finalizer) the core world is only detached (the world is destroyed for Lua at
 * once) and freed by __gc: the interrupted method may still read it. */
static int l_world_destroy(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	if (lw->w && lw->borrowed)
		return luaL_error(L, "destroy: the world belongs to the C host, which destroys it");
	if (lw->w && bp_world_lock(lw->w))
		return luaL_error(L, "destroy: world is locked: cannot destroy it inside %s",
		                  lbp_lock_holder(lw->w));
	if (lw->w && in_finalizer(L))
		lw->pending = lw->w; /* lw->w set: nothing pending yet */
	else
		bp_world_destroy(lw->w);
	lw->w = NULL;
	return 0;
}

/***
 * `__gc`: frees the core world if world:destroy() did not. Called by the collector,
 * nothing can use the world any more. Called directly from Lua (through
 * debug.getmetatable), it destroys the world for Lua at once, as destroy does, but never
 * raises: inside world:step, e:move or a finalizer the core world is only detached, and
 * freed when the call holding it returns (see lbp_free_detached) or by the collector.
 * Source: our own.
 * @function World:__gc
 */
static int l_world_gc(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	if (lw->borrowed) { /* the host's world: never freed here (lbridge.c) */
		lw->w = NULL;
		return 0;
	}
	lua_Debug caller;
	lua_rawgetp(L, LUA_REGISTRYINDEX, &live_worlds_key);
	/* lua_close runs the finalizers of reachable objects too, with no caller */
	const int direct = lua_rawgetp(L, -1, lw) != LUA_TNIL && lua_getstack(L, 1, &caller);
	lua_pop(L, 2);
	if (direct && lw->w && (bp_world_lock(lw->w) || in_finalizer(L))) {
		lw->pending = lw->w;
		lw->w = NULL;
		return 0;
	}
	if (!direct) /* a direct call leaves a world detached for a call that runs */
		bp_world_destroy(lw->pending), lw->pending = NULL;
	bp_world_destroy(lw->w);
	lw->w = NULL;
	return 0;
}

/* After the outermost world:step or e:move on the core world w returns (locked no
 * more): if its __gc was called directly meanwhile, it was detached; free it now,
 * unless a finalizer runs (it may have interrupted another method that still reads
 * w: the collector frees it then). */
void lbp_free_detached(lua_State *L, LWorld *lw, bp_World *w)
{
	if (lw->pending == w && !bp_world_lock(w) && !in_finalizer(L)) {
		lw->pending = NULL;
		bp_world_destroy(w);
	}
}

/***
 * `tostring(world)`: "blockphys.World (N entities, M blocks)" (M = stored non-air
 * blocks), or "blockphys.World (destroyed)". Never raises for a destroyed world. Source:
 * our own.
 * @function World:__tostring
 * @treturn string
 */
static int l_world_tostring(lua_State *L)
{
	LWorld *lw = luaL_checkudata(L, 1, WORLD_MT);
	if (!lw->w)
		lua_pushliteral(L, "blockphys.World (destroyed)");
	else {
		const bp_WorldStats st = bp_world_stats(lw->w);
		lua_pushfstring(L, "blockphys.World (%d entities, %s blocks)", (int)st.entities,
		                lbp_int_text((lua_Integer)st.blocks).s);
	}
	return 1;
}

/* -------------------------------------------------------------- block types */

/* A block id or name that is defined in w. */
static uint16_t check_block(lua_State *L, bp_World *w, int i)
{
	if (lua_type(L, i) == LUA_TSTRING) {
		int32_t id = bp_world_find_type(w, lua_tostring(L, i));
		if (id < 0)
			luaL_argerror(L, i, lua_pushfstring(L, "unknown block '%s'", lua_tostring(L, i)));
		return (uint16_t)id;
	}
	lua_Integer id;
	if (lua_type(L, i) != LUA_TNUMBER)
		luaL_typeerror(L, i, "block id or name");
	id = luaL_checkinteger(L, i);
	if (id < 0 || id > (lua_Integer)UINT32_MAX || !bp_world_block_type(w, (uint32_t)id))
		luaL_argerror(L, i, lua_pushfstring(L, "unknown block id %s", lbp_int_text(id).s));
	return (uint16_t)id;
}

/* The names of the BP_FACE_* faces, in their order (index = face). */
static const char *const FACE_NAMES[] = {"", "east", "west", "up", "down", "south", "north"};

/* The field one_way of the table at stack index t: BP_FACE_NONE when nil, else the
 * face it names; raises "<fn>: field 'one_way' must be ..." for anything else. */
static int check_one_way(lua_State *L, int t, const char *fn)
{
	const int type = lua_getfield(L, t, "one_way");
	const char *s = type == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
	int face = type == LUA_TNIL ? BP_FACE_NONE : -1;
	for (int f = BP_FACE_EAST; s && f <= BP_FACE_NORTH; f++) {
		if (strcmp(s, FACE_NAMES[f]) == 0)
			face = f;
	}
	lua_pop(L, 1);
	if (face < 0)
		luaL_error(L, "%s: field 'one_way' must be \"up\", \"down\", \"north\", \"south\", "
		              "\"east\" or \"west\"", fn);
	return face;
}

/* Read the boxes list of a block definition at stack index i (the field `field`:
 * "boxes" or "outline", for the messages). */
static int read_boxes(lua_State *L, int i, bp_AABB *boxes, const char *field)
{
	lua_len(L, i); /* __len may answer anything: luaL_len's own error names no function */
	int ok;
	const lua_Integer len = lua_tointegerx(L, -1, &ok);
	lua_pop(L, 1);
	if (!ok || len < 0)
		luaL_error(L, "define_block: the length of %s must be a non-negative integer", field);
	if (len > BP_MAX_TYPE_BOXES)
		luaL_error(L, "define_block: too many %s (at most %d)",
		           field[0] == 'b' ? "boxes" : "outline boxes", BP_MAX_TYPE_BOXES);
	const int n = (int)len;
	for (int b = 0; b < n; b++) {
		if (lua_geti(L, i, b + 1) != LUA_TTABLE)
			luaL_error(L, "define_block: %s[%d] must be a table {x1,y1,z1,x2,y2,z2}", field, b + 1);
		double v[6];
		for (int k = 0; k < 6; k++) {
			if (lua_geti(L, -1, k + 1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
				luaL_error(L, "define_block: %s[%d][%d] must be a finite number", field, b + 1, k + 1);
			v[k] = lua_tonumber(L, -1);
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
		boxes[b] = bp_aabb_make(v[0], v[1], v[2], v[3], v[4], v[5]);
	}
	return n;
}

/***
 * Define a block type. Source: our own (Beta Block.slipperiness for the friction,
 * docs/beta173.md sections 2 and 8 for liquids and ladders, section 2
 * "Soul sand" and "Cobweb" for velocity_factor and web, section 5 and the decompile's
 * BlockFluid and Material for level, solid and ice).
 * @function World:define_block
 * @tparam table def `{name = string (non-empty, unique), boxes = {{x1,y1,z1,x2,y2,z2},
 *   ...} (block-local blocks: x, z in [0, 1], y in [0, 2]; at most 64; default a full
 *   cube, or none for a liquid; `{}` none), slipperiness = number in [0, 1.5] (default
 *   0.6F; ice 0.98F), liquid = "water"|"lava"|nil|false, climbable = boolean (default
 *   false; so are web and spawn's solid: other values raise), velocity_factor = number
 *   in [0, 1] (default 1: a Beta tick that ends touching the block multiplies the X/Z
 *   velocity by it, once per touched cell; soul sand 0.4), web = boolean (a Beta tick
 *   that ends touching it slows the next move, as a cobweb), level = integer in
 *   [0, 15] (default 0, only with liquid: Beta's liquid metadata, 0 source, 1..7
 *   flowing, 8..15 falling), solid = boolean (Beta Material.isSolid; default: some box
 *   and not a liquid), ice = boolean (Beta Material.ice; default false): the last three
 *   feed the water current, beta173_flow.c; normal_cube = boolean (Beta World.isBlockNormalCube:
 *   a full opaque cube, which pushOutOfBlocks pushes out of; default: the unit cube and
 *   solid), outline = {{x1,y1,z1,x2,y2,z2}, ...} (the shape a cursor selects:
 *   World:raycast with `shape = "outline"`; block-local, checked as boxes are; default
 *   the collision boxes; `{}` none), one_way = "up"|"down"|"north"|"south"|"east"|"west"
 *   (default none: the boxes stop only the moves that reach them through that face from
 *   outside, as docs/mechanics.md details; north is -Z, east +X)}`
 * @treturn integer the new id (1..65535)
 * @raise "define_block: ..." naming the problem: "unknown field 'k'", "field 'name' must
 *   be a string", "name must be a non-empty string", "too many boxes (at most 64)",
 *   "the length of boxes must be a non-negative integer" (from __len),
 *   "boxes[i] must be a table {x1,y1,z1,x2,y2,z2}", "boxes[i][k] must be a finite
 *   number", "box has min > max (or NaN)", "box leaves its cell on X or Z ...", "box Y
 *   must be in [0, 2] ...", the same for 'outline' ("field 'outline' must be a table of
 *   boxes", "outline[i][k] must be ...", "outline box has min > max (or NaN)", ...),
 *   "field 'slipperiness' must be a number", "slipperiness must
 *   be in [0, 1.5]", "field 'velocity_factor' must be a number", "velocity_factor must
 *   be in [0, 1]", "field 'liquid' must be \"water\" or \"lava\"", "field 'level' must be
 *   an integer", "level must be an integer in [0, 15]", "level needs liquid = ...",
 *   "field 'solid' must be a boolean" (also 'climbable', 'web', 'ice', 'normal_cube'),
 *   "field 'one_way' must be \"up\", \"down\", \"north\", \"south\", \"east\" or
 *   \"west\"",
 *   "block 'n' is
 *   already defined", "too many block types (at most 65535)"; "define_block: world is locked: ..."
 *   inside world:step; "not enough memory". Nothing is defined when it raises.
 */
static int l_world_define_block(lua_State *L)
{
	static const char *const keys[] = {"name", "boxes", "slipperiness", "liquid",
	                                   "climbable", "velocity_factor", "web", "level",
	                                   "solid", "ice", "normal_cube", "outline", "one_way",
	                                   NULL};
	bp_World *w = lbp_world_of(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lbp_check_unlocked(L, w, "define_block");
	lbp_reject_unknown_keys(L, 2, "define_block", keys);
	bp_BlockDef def = bp_default_block_def();
	bp_AABB boxes[BP_MAX_TYPE_BOXES];
	if (lua_getfield(L, 2, "name") != LUA_TSTRING)
		return luaL_error(L, "define_block: field 'name' must be a string");
	def.name = lua_tostring(L, -1);
	if (lua_getfield(L, 2, "boxes") == LUA_TTABLE) {
		def.boxes = boxes;
		def.nboxes = read_boxes(L, lua_gettop(L), boxes, "boxes");
	} else if (!lua_isnil(L, -1)) {
		return luaL_error(L, "define_block: field 'boxes' must be a table of boxes");
	}
	bp_AABB outline[BP_MAX_TYPE_BOXES];
	if (lua_getfield(L, 2, "outline") == LUA_TTABLE) {
		def.outline = outline;
		def.noutline = read_boxes(L, lua_gettop(L), outline, "outline");
	} else if (!lua_isnil(L, -1)) {
		return luaL_error(L, "define_block: field 'outline' must be a table of boxes");
	}
	if (lua_getfield(L, 2, "slipperiness") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER) /* a table field: no string conversion */
			return luaL_error(L, "define_block: field 'slipperiness' must be a number");
		def.slipperiness = lua_tonumber(L, -1);
	}
	lua_getfield(L, 2, "liquid");
	if (lua_type(L, -1) == LUA_TSTRING) {
		const char *l = lua_tostring(L, -1);
		def.liquid = strcmp(l, "water") == 0 ? BP_LIQUID_WATER
		             : strcmp(l, "lava") == 0 ? BP_LIQUID_LAVA : -1;
	} else if (lua_toboolean(L, -1)) {
		def.liquid = -1;
	}
	if (def.liquid < 0)
		return luaL_error(L, "define_block: field 'liquid' must be \"water\" or \"lava\"");
	if (def.liquid != BP_LIQUID_NONE && !def.boxes)
		def.nboxes = 0; /* liquids default to no boxes: one swims in them, as in the game */
	def.climbable = lbp_opt_flag(L, 2, "climbable", "define_block");
	if (lua_getfield(L, 2, "velocity_factor") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER) /* a table field: no string conversion */
			return luaL_error(L, "define_block: field 'velocity_factor' must be a number");
		def.velocity_factor = lua_tonumber(L, -1);
	}
	def.web = lbp_opt_flag(L, 2, "web", "define_block");
	if (lua_getfield(L, 2, "level") != LUA_TNIL) {
		int ok;
		lua_Integer level = lua_tointegerx(L, -1, &ok);
		if (!ok || lua_type(L, -1) != LUA_TNUMBER)
			return luaL_error(L, "define_block: field 'level' must be an integer");
		def.level = level < 0 || level > 15 ? -1 : (int)level; /* -1: range error below */
	}
	def.solid = lbp_opt_tristate(L, 2, "solid", "define_block"); /* nil: derived */
	def.ice = lbp_opt_flag(L, 2, "ice", "define_block");
	def.normal_cube = lbp_opt_tristate(L, 2, "normal_cube", "define_block");
	def.one_way = check_one_way(L, 2, "define_block");
	/* The fields' metamethods may have run any code, destroying the world too. */
	w = lbp_world_of(L, 1);
	const char *err = bp_block_def_error(&def);
	if (err)
		return luaL_error(L, "define_block: %s", err);
	uint16_t id;
	bp_Status st = bp_world_define_block(w, &def, &id);
	if (st == BP_EEXIST)
		return luaL_error(L, "define_block: block '%s' is already defined", def.name);
	if (st == BP_ELIMIT)
		return luaL_error(L, "define_block: too many block types (at most 65535)");
	if (st != BP_OK)
		lbp_raise_status(L, st);
	lua_pushinteger(L, id);
	return 1;
}

/***
 * The id of a block type by name. Source: our own.
 * @function World:block_id
 * @tparam string name
 * @treturn[1] integer id (0 for "air")
 * @treturn[2] nil no such type (not an error)
 * @raise "bad argument #1 to 'block_id' (string expected, got T)".
 */
static int l_world_block_id(lua_State *L)
{
	lbp_world_of(L, 1);
	const char *name = luaL_checkstring(L, 2); /* may allocate (a number): finalizers */
	bp_World *w = lbp_world_of(L, 1);
	int32_t id = bp_world_find_type(w, name);
	if (id < 0)
		luaL_pushfail(L);
	else
		lua_pushinteger(L, id);
	return 1;
}

/* A table describing block type `id`, from its definition as the world keeps it
 * (bp_world_block_def: a copy, whose name and boxes stay put while the world lives, so
 * that a finalizer run by an allocation may define blocks meanwhile). */
/* A list of block-local boxes, as define_block reads them, pushed. */
static void push_boxes(lua_State *L, const bp_AABB *boxes, int n)
{
	lua_createtable(L, n, 0);
	for (int i = 0; i < n; i++) {
		lua_createtable(L, 6, 0);
		for (int k = 0; k < 6; k++) {
			lua_pushnumber(L, k < 3 ? boxes[i].lo[k] : boxes[i].hi[k - 3]);
			lua_rawseti(L, -2, k + 1);
		}
		lua_rawseti(L, -2, i + 1);
	}
}

static void push_block_info(lua_State *L, const bp_BlockDef *t, uint16_t id)
{
	lua_createtable(L, 0, 13);
	lua_pushinteger(L, id);
	lua_setfield(L, -2, "id");
	lua_pushstring(L, t->name);
	lua_setfield(L, -2, "name");
	push_boxes(L, t->boxes, t->nboxes);
	lua_setfield(L, -2, "boxes");
	if (t->one_way) {
		lua_pushstring(L, FACE_NAMES[t->one_way]);
		lua_setfield(L, -2, "one_way");
	}
	push_boxes(L, t->outline, t->noutline);
	lua_setfield(L, -2, "outline");
	lua_pushnumber(L, t->slipperiness);
	lua_setfield(L, -2, "slipperiness");
	if (t->liquid) {
		lua_pushstring(L, t->liquid == BP_LIQUID_WATER ? "water" : "lava");
		lua_setfield(L, -2, "liquid");
	}
	lua_pushboolean(L, t->climbable);
	lua_setfield(L, -2, "climbable");
	lua_pushnumber(L, t->velocity_factor);
	lua_setfield(L, -2, "velocity_factor");
	lua_pushboolean(L, t->web);
	lua_setfield(L, -2, "web");
	lua_pushinteger(L, t->level);
	lua_setfield(L, -2, "level");
	lua_pushboolean(L, t->solid);
	lua_setfield(L, -2, "solid");
	lua_pushboolean(L, t->ice);
	lua_setfield(L, -2, "ice");
	lua_pushboolean(L, t->normal_cube);
	lua_setfield(L, -2, "normal_cube");
}

/***
 * A fresh table describing a block type (copies: changing it changes nothing). Source:
 * our own.
 * @function World:block_info
 * @tparam integer|string block id or name
 * @treturn table `{id, name, boxes = {{x1,y1,z1,x2,y2,z2}, ...} (block-local),
 *   slipperiness, liquid = "water"|"lava"|nil, climbable = boolean, velocity_factor,
 *   web = boolean, level = integer, solid = boolean, ice = boolean, normal_cube =
 *   boolean, outline = {{x1,y1,z1,x2,y2,z2}, ...} (block-local; the boxes when the
 *   definition gave none), one_way = face name or nil}`
 * @raise "bad argument #1 to 'block_info' (unknown block 'n')", "(unknown block id n)",
 *   "(block id or name expected, got T)", or "(number has no integer representation)".
 */
static int l_world_block_info(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	uint16_t id = check_block(L, w, 2);
	/* Filled by bp_world_block_def (id is defined: checked above); the defaults first
	 * so that no path leaves a field unset (LTO's maybe-uninitialized). */
	bp_BlockDef def = bp_default_block_def();
	bp_world_block_def(w, id, &def);
	push_block_info(L, &def, id);
	return 1;
}

/* ------------------------------------------------------------------- blocks */

/* A block coordinate: an integral number in the int32 range. */
static int32_t check_coord(lua_State *L, int i)
{
	double v = luaL_checknumber(L, i);
	if (!(v == floor(v) && v >= (double)INT32_MIN && v <= (double)INT32_MAX))
		luaL_argerror(L, i, "block coordinate must be an integer in the int32 range");
	return (int32_t)v;
}

/***
 * Set one block. Source: our own (block coordinates: docs/architecture.md section 1).
 * @function World:set_block
 * @tparam integer x block coordinates (int32)
 * @tparam integer y block coordinates (int32)
 * @tparam integer z block coordinates (int32)
 * @tparam integer|string block id or name of a defined type (0 or "air" clears)
 * @raise "bad argument #n to 'set_block' (block coordinate must be an integer in the
 *   int32 range)", "(unknown block ...)"; "set_block: world is locked: ..." inside world:step;
 *   "not enough memory" or "size limit exceeded" (the chunk table would pass its size
 *   limit); either way the block is unchanged.
 */
static int l_world_set_block(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	int32_t x = check_coord(L, 2), y = check_coord(L, 3), z = check_coord(L, 4);
	uint16_t id = check_block(L, w, 5);
	lbp_check_unlocked(L, w, "set_block");
	bp_Status st = bp_world_set_block(w, x, y, z, id);
	if (st == BP_EUNLOADED)
		return luaL_error(L, "set_block: block (%d, %d, %d) lies in unloaded space (load its "
		                     "chunk first)", (int)x, (int)y, (int)z);
	if (st == BP_EINVAL)
		return luaL_error(L, "set_block: the unloaded block type is placed only by unload_chunk");
	if (st != BP_OK)
		lbp_raise_status(L, st);
	return 0;
}

/***
 * The block id at a block coordinate (0 = air; every unset block is air). Source: our
 * own.
 * @function World:get_block
 * @tparam integer x block coordinates (int32)
 * @tparam integer y block coordinates (int32)
 * @tparam integer z block coordinates (int32)
 * @treturn integer id
 * @raise "bad argument #n to 'get_block' (block coordinate must be an integer in the
 *   int32 range)".
 */
static int l_world_get_block(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	int32_t x = check_coord(L, 2), y = check_coord(L, 3), z = check_coord(L, 4);
	lua_pushinteger(L, bp_world_get_block(w, x, y, z));
	return 1;
}

static double chunk_span(int32_t a, int32_t b)
{
	return floor((double)b / 16) - floor((double)a / 16) + 1;
}

/* Chunks that [a, b] covers whole on one axis. */
static double whole_chunk_span(int32_t a, int32_t b)
{
	return fmax(0, floor(((double)b + 1) / 16) - ceil((double)a / 16));
}

/***
 * Set every block of an inclusive box. Whole 16^3 chunks inside it are stored as one id
 * (no per-block work). Work is bounded by the chunk count. Source: our own.
 * @function World:fill
 * @tparam integer x1 one corner (int32)
 * @tparam integer y1 one corner (int32)
 * @tparam integer z1 one corner (int32)
 * @tparam integer x2 the other corner, in any order
 * @tparam integer y2 the other corner, in any order
 * @tparam integer z2 the other corner, in any order
 * @tparam integer|string block id or name
 * @raise block coordinate and unknown block errors as World:set_block; "fill: region too
 *   large (N chunks of 16^3 blocks; at most 1048576)" (limits.max_fill_chunks); "fill:
 *   region cuts N chunks of 16^3 blocks (at most 65536, ...)" (limits.max_fill_cut_chunks);
 *   "fill: world is locked: ..." inside world:step; "not enough memory" or "size limit
 *   exceeded" (the chunk table would pass its size limit): every allocation happens
 *   before the first block changes, so the blocks stay as they were.
 */
static int l_world_fill(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	int32_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		int32_t p = check_coord(L, 2 + a), q = check_coord(L, 5 + a);
		lo[a] = p < q ? p : q; /* corners in any order */
		hi[a] = p < q ? q : p;
	}
	uint16_t id = check_block(L, w, 8);
	lbp_check_unlocked(L, w, "fill");
	double chunks = chunk_span(lo[0], hi[0]) * chunk_span(lo[1], hi[1]) * chunk_span(lo[2], hi[2]);
	if (chunks > BP_MAX_FILL_CHUNKS)
		return luaL_error(L, "fill: region too large (%s chunks of 16^3 blocks; at most %s)",
		                  lbp_num_text(chunks).s, lbp_num_text(BP_MAX_FILL_CHUNKS).s);
	/* A chunk the region cuts may need an 8 KB id array: bound the memory of one call. */
	double cut = chunks - whole_chunk_span(lo[0], hi[0]) * whole_chunk_span(lo[1], hi[1]) *
	                          whole_chunk_span(lo[2], hi[2]);
	if (cut > MAX_FILL_CUT_CHUNKS)
		return luaL_error(L, "fill: region cuts %s chunks of 16^3 blocks (at most %s, which "
		                     "may need 8 KB each; fill in parts)",
		                  lbp_num_text(cut).s, lbp_num_text(MAX_FILL_CUT_CHUNKS).s);
	bp_Status st = bp_world_fill(w, lo, hi, id);
	if (st == BP_EUNLOADED)
		return luaL_error(L, "fill: the region reaches into unloaded space (load its chunks "
		                     "first)");
	if (st == BP_EINVAL)
		return luaL_error(L, "fill: the unloaded block type is placed only by unload_chunk");
	if (st != BP_OK)
		lbp_raise_status(L, st);
	return 0;
}

/* --------------------------------------------------- colliders and counters */

/***
 * Add a free-standing static box (world space, blocks) that blocks moves, sweeps and
 * raycasts like a block shape. The box is copied. Source: our own (docs/architecture.md).
 * @function World:add_collider
 * @tparam Collider box
 * @tparam[opt] table options `{one_way = "up"|"down"|"north"|"south"|"east"|"west"}`:
 *   a one-way collider stops only the moves that reach it through that face from
 *   outside, as a one-way block (World:define_block; docs/mechanics.md)
 * @treturn integer handle in [1, 2^63): the slot in the low 24 bits, the slot's
 *   generation in the next 24 and a tag of the world in the top 15 (the Lua state's
 *   count of worlds made, mod 2^15), so that a removed collider's handle and another
 *   world's name nothing (a world made 32,768 worlds later could reuse the tag).
 * @raise "bad argument #1 to 'add_collider' (blockphys.Collider expected, got T)";
 *   "bad argument #2 to 'add_collider' (table expected, got T)", "add_collider: unknown
 *   field 'k'", "add_collider: field 'one_way' must be ...";
 *   "add_collider: world is locked: ..." inside world:step; "not enough memory" or "size limit
 *   exceeded" (more than 16,777,215 colliders, or the collider table would pass its
 *   size limit). Nothing is added when it raises.
 */
static int l_world_add_collider(lua_State *L)
{
	static const char *const keys[] = {"one_way", NULL};
	lbp_world_of(L, 1);
	const bp_AABB box = *lbp_check_collider(L, 2);
	int face = BP_FACE_NONE;
	if (!lua_isnoneornil(L, 3)) {
		luaL_checktype(L, 3, LUA_TTABLE);
		lbp_reject_unknown_keys(L, 3, "add_collider", keys);
		face = check_one_way(L, 3, "add_collider");
	}
	/* The options' metamethods may have run any code, destroying the world too. */
	bp_World *w = lbp_world_of(L, 1);
	lbp_check_unlocked(L, w, "add_collider");
	uint64_t handle = 0; /* lbp_raise_status does not return; the compiler cannot know */
	bp_Status st = bp_world_add_collider(w, &box, &handle);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	if (face)
		bp_world_set_collider_one_way(w, bp_world_collider_slot(w, handle), face);
	lua_pushinteger(L, (lua_Integer)handle); /* < 2^63 */
	return 1;
}

/***
 * Remove a static collider. Source: our own.
 * @function World:remove_collider
 * @tparam integer handle from World:add_collider
 * @raise "bad argument #1 to 'remove_collider' (no such collider (removed, never
 *   added, or another world's))", "(number has no integer representation)";
 *   "remove_collider: world is locked: ..." inside world:step.
 */
static int l_world_remove_collider(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	lua_Integer h = luaL_checkinteger(L, 2);
	lbp_check_unlocked(L, w, "remove_collider");
	const uint32_t index1 = bp_world_collider_slot(w, (uint64_t)h); /* h < 0: no tag */
	if (!index1)
		return luaL_argerror(L, 2, NO_SUCH_COLLIDER);
	bp_world_remove_collider(w, index1);
	return 0;
}

/***
 * Counters of the world (a fresh table). Source: our own.
 * @function World:stats
 * @treturn table `{blocks` (stored non-air blocks), `chunks` (16^3 chunks stored),
 *   `bytes` (memory held by the core world, excluding Lua objects), `block_types`
 *   (defined types including air), `entities` (live), `colliders` (live static)`}`
 * @raise "calling 'stats' on bad self (world has been destroyed)".
 */
static int l_world_stats(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	lua_createtable(L, 0, 6);
	const bp_WorldStats st = bp_world_stats(w);
	lua_pushinteger(L, (lua_Integer)st.blocks);
	lua_setfield(L, -2, "blocks");
	lua_pushinteger(L, st.chunks);
	lua_setfield(L, -2, "chunks");
	lua_pushinteger(L, (lua_Integer)st.bytes);
	lua_setfield(L, -2, "bytes");
	lua_pushinteger(L, st.block_types);
	lua_setfield(L, -2, "block_types");
	lua_pushinteger(L, st.entities);
	lua_setfield(L, -2, "entities");
	lua_pushinteger(L, st.colliders);
	lua_setfield(L, -2, "colliders");
	return 1;
}

/* Every World method (the internal ones: ltesting.c). */
static const luaL_Reg world_methods[] = {
	{"define_block", l_world_define_block}, {"block_id", l_world_block_id},
	{"block_info", l_world_block_info}, {"set_block", l_world_set_block},
	{"get_block", l_world_get_block}, {"fill", l_world_fill},
	{"add_collider", l_world_add_collider}, {"remove_collider", l_world_remove_collider},
	{"stats", l_world_stats}, {"destroy", l_world_destroy}, {NULL, NULL}};

static const luaL_Reg world_meta[] = {
	{"__gc", l_world_gc}, {"__close", l_world_destroy},
	{"__tostring", l_world_tostring}, {"__index", NULL}, {NULL, NULL}};

/* Register the World metatable with this file's methods (the other files' World
 * methods join it in luaopen_blockphys_core: lbp_add_methods), and the registry's
 * table of live worlds (see live_worlds_key; kept when the module is opened again). */
void lbp_open_world(lua_State *L)
{
	if (lua_rawgetp(L, LUA_REGISTRYINDEX, &live_worlds_key) == LUA_TNIL) {
		lua_newtable(L); /* see live_worlds_key */
		lua_pushliteral(L, "v");
		lua_setfield(L, -2, "__mode");
		lua_pushvalue(L, -1);
		lua_setmetatable(L, -2);
		lua_rawsetp(L, LUA_REGISTRYINDEX, &live_worlds_key);
	}
	lua_pop(L, 1);
	lbp_create_meta(L, WORLD_MT, world_meta, world_methods);
}
