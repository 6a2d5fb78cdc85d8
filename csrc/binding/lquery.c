/* SPDX-License-Identifier: MIT
 * lquery.c - World methods that ask and change nothing: boxes_in (block shapes and
 * colliders in a region), query (entities in a region), raycast, raycast_entities,
 * sweep and sweep_all.
 */

/***
 * World queries.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "lbp.h"

/* ----------------------------------------------------------------- boxes_in */

static void check_query_region(lua_State *L, bp_World *w, const bp_AABB *r, const char *fn)
{
	if (bp_world_region_cells(w, r) > MAX_QUERY_CELLS)
		luaL_error(L, "%s: region too large (more than %s cells)", fn,
		           lbp_num_text(MAX_QUERY_CELLS).s);
}

/* boxes_in's result table from the n boxes at light userdata 1 (n at 2); run under
 * lua_pcall so that its caller can free that copy if an allocation raises. */
static int push_box_table(lua_State *L)
{
	const bp_AABB *boxes = lua_touserdata(L, 1);
	const lua_Integer n = lua_tointeger(L, 2);
	lua_createtable(L, (int)n, 0);
	for (lua_Integer i = 0; i < n; i++) {
		lbp_push_collider(L, &boxes[i]);
		lua_rawseti(L, -2, i + 1);
	}
	return 1;
}

/***
 * Every box that overlaps a region strictly (touching does not count): block shapes in
 * world space (chunk by chunk, y, z, x within each; the same order on every call) then
 * static colliders. Entities are not included (see World:query). Source:
 * docs/beta173.md section 4 (the block part of getCollidingBoundingBoxes);
 * the order and static colliders: our own.
 * @function World:boxes_in
 * @tparam Collider region
 * @treturn {Collider,...} new Colliders
 * @raise "bad argument #1 to 'boxes_in' (blockphys.Collider expected, got T)";
 *   "boxes_in: region too large (more than 16777216 cells)" (limits.max_query_cells);
 *   "boxes_in: region holds more than 1048576 boxes (limits.max_query_boxes)";
 *   "not enough memory".
 */
static int l_world_boxes_in(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	bp_AABB r = *lbp_check_collider(L, 2);
	check_query_region(L, w, &r, "boxes_in");
	bp_Status st = bp_world_gather(w, &r, MAX_QUERY_BOXES);
	if (st == BP_ELIMIT)
		return luaL_error(L, "boxes_in: region holds more than %d boxes "
		                     "(limits.max_query_boxes)", MAX_QUERY_BOXES);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	/* Any Lua allocation below may run a finalizer that queries this world again and
	 * so refills its one scratch list: copy the boxes first, with the raw allocator,
	 * which runs no collector and so no finalizer. */
	size_t n;
	const bp_AABB *boxes = bp_world_gathered(w, &n);
	const size_t bytes = n * sizeof(bp_AABB);
	void *ud;
	lua_Alloc alloc = lua_getallocf(L, &ud);
	bp_AABB *copy = n ? alloc(ud, NULL, 0, bytes) : NULL;
	if (n && !copy)
		return luaL_error(L, "not enough memory");
	if (n)
		memcpy(copy, boxes, bytes);
	lua_pushcfunction(L, push_box_table);
	lua_pushlightuserdata(L, copy);
	lua_pushinteger(L, (lua_Integer)n);
	const int status = lua_pcall(L, 2, 1, 0);
	if (copy)
		alloc(ud, copy, bytes, 0);
	return status == LUA_OK ? 1 : lua_error(L);
}

/* -------------------------------------------------------------------- query */

typedef struct QueryCtx {
	lua_State *L;
	int cache, out; /* stack indices: entity userdata cache, result table */
	lua_Integer n;
} QueryCtx;

static int query_count(void *ctx, uint32_t index)
{
	(void)index;
	((QueryCtx *)ctx)->n++;
	return 0;
}

/* Raises no Lua error: rawgeti pushes a cached value, rawseti fills a slot of the
 * preallocated array part (so no longjmp crosses the broadphase's visit). */
static int query_store(void *ctx, uint32_t index)
{
	QueryCtx *q = ctx;
	lua_rawgeti(q->L, q->cache, (lua_Integer)index + 1);
	lua_rawseti(q->L, q->out, ++q->n);
	return 0;
}

/***
 * The entities whose boxes overlap a box (touching is not overlap), in creation order.
 * Groups, masks and filters do not apply: this is a spatial query (the broadphase grid;
 * any region size: a huge one is scanned linearly). Allowed inside hooks and filters.
 * Source: our own (docs/entities.md, "The broadphase").
 * @function World:query
 * @tparam Collider collider region (blocks)
 * @treturn {Entity,...} a new array
 * @raise "bad argument #1 to 'query' (blockphys.Collider expected, got ...)"
 */
static int l_world_query(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	bp_AABB r = *lbp_check_collider(L, 2);
	lua_settop(L, 2);
	QueryCtx q = {L, 3, 4, 0};
	bp_broadphase_visit(w, &r, query_count, &q);
	lua_getiuservalue(L, 1, 1);
	lua_createtable(L, q.n > INT32_MAX ? INT32_MAX : (int)q.n, 0);
	q.n = 0;
	bp_broadphase_visit(w, &r, query_store, &q);
	return 1;
}

/* ---------------------------------------------------------- rays and sweeps */

/* Ray arguments at stack 2..8: origin, direction, max_distance. */
static void check_ray(lua_State *L, double o[3], double d[3], double *max)
{
	for (int a = 0; a < 3; a++) {
		o[a] = lbp_check_finite(L, 2 + a);
		if (!(fabs(o[a]) <= BP_MAX_COORD))
			luaL_argerror(L, 2 + a, "origin must be within limits.max_coord of 0");
	}
	for (int a = 0; a < 3; a++)
		d[a] = lbp_check_finite(L, 5 + a);
	double unit[3];
	if (bp_ray_normalize(d, unit) != BP_OK)
		luaL_argerror(L, 5, "direction must not be zero");
	*max = lbp_check_finite(L, 8);
	if (!(*max > 0 && *max <= BP_MAX_RAY))
		luaL_argerror(L, 8, lua_pushfstring(L, "max_distance must be > 0 and <= %d",
		                                    (int)BP_MAX_RAY));
}

static void set_int_field(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static void set_num_field(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

/* nx, ny, nz, hx, hy, hz, distance of a hit, into the table on the stack top. */
static void set_hit_fields(lua_State *L, const int n[3], const double p[3], double dist)
{
	static const char *const nk[] = {"nx", "ny", "nz"}, *const pk[] = {"hx", "hy", "hz"};
	for (int a = 0; a < 3; a++) {
		set_int_field(L, nk[a], n[a]);
		set_num_field(L, pk[a], p[a]);
	}
	set_num_field(L, "distance", dist);
}

/* A static collider's Lua handle (see l_world_add_collider) from its 1-based slot. */
static lua_Integer collider_handle(const bp_World *w, uint32_t index1)
{
	return (lua_Integer)bp_world_collider_handle(w, index1);
}

/* The handle of the collider a ray or sweep met (kind BP_HIT_COLLIDER), else 0. Taken
 * before the result is allocated: a finalizer run then may remove the collider and
 * give its slot to another. */
static lua_Integer hit_handle(const bp_World *w, int kind, uint32_t collider)
{
	return kind == BP_HIT_COLLIDER ? collider_handle(w, collider) : 0;
}

/* What a ray or sweep met, into the table on the stack top: a block's x, y, z and id,
 * or collider = true and the collider's handle (from hit_handle). */
static void set_target_fields(lua_State *L, int kind, const int32_t cell[3], uint16_t id,
                              lua_Integer handle)
{
	if (kind == BP_HIT_BLOCK) {
		set_int_field(L, "x", cell[0]);
		set_int_field(L, "y", cell[1]);
		set_int_field(L, "z", cell[2]);
		set_int_field(L, "id", id);
		if (id != 0 && id == bp_world_unloaded_id(lbp_world_of(L, 1))) {
			lua_pushboolean(L, 1); /* unloaded space (World:unload_chunk) */
			lua_setfield(L, -2, "unloaded");
		}
	} else {
		lua_pushboolean(L, 1);
		lua_setfield(L, -2, "collider");
		set_int_field(L, "handle", handle);
	}
}

/* The raycast's options table at stack index i (nil: none) as BP_RAY_* flags. */
static unsigned ray_flags(lua_State *L, int i)
{
	static const char *const keys[] = {"shape", "liquids", NULL};
	if (lua_isnoneornil(L, i))
		return 0;
	luaL_checktype(L, i, LUA_TTABLE);
	lbp_reject_unknown_keys(L, i, "raycast", keys);
	unsigned flags = 0;
	const int t = lua_getfield(L, i, "shape");
	const char *shape = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
	if (shape && strcmp(shape, "outline") == 0)
		flags |= BP_RAY_OUTLINE;
	else if (t != LUA_TNIL && !(shape && strcmp(shape, "collision") == 0))
		luaL_error(L, "raycast: field 'shape' must be \"collision\" or \"outline\"");
	lua_pop(L, 1);
	if (lbp_opt_flag(L, i, "liquids", "raycast"))
		flags |= BP_RAY_LIQUIDS;
	return flags;
}

/***
 * Nearest block shape (not cell) or static collider on a ray. A ray starting inside a
 * box hits it at distance 0; ties go to blocks before colliders. Source: our own
 * implementation of the grid walk of Amanatides and Woo, "A Fast Voxel Traversal
 * Algorithm for Ray Tracing" (1987); slab test per box: our own; outline shapes: our
 * own, after the game's outline (selection) shapes; the liquid surface: today's game's
 * fluid height, restated.
 * @function World:raycast
 * @tparam number ox origin (blocks, |v| <= limits.max_coord)
 * @tparam number oy origin (blocks, |v| <= limits.max_coord)
 * @tparam number oz origin (blocks, |v| <= limits.max_coord)
 * @tparam number dx direction (any nonzero length)
 * @tparam number dy direction (any nonzero length)
 * @tparam number dz direction (any nonzero length)
 * @tparam number max_distance in (0, limits.max_ray = 4096] blocks
 * @tparam[opt] table options `{shape = "collision"|"outline", liquids = boolean}`:
 *   `shape = "outline"` tests each block's outline (define_block's `outline`, the
 *   shape a cursor selects) instead of its collision boxes (default "collision");
 *   `liquids = true` also selects liquid blocks: the cell up to the liquid's surface
 *   (a full block under the same liquid, else 8/9 for a source or falling liquid,
 *   (8 - level)/9 for a flowing one). Static colliders count either way.
 * @treturn[1] table `{x, y, z, id, nx, ny, nz, hx, hy, hz, distance}`: block cell and
 *   id, face normal (integers, one +-1), hit point and distance (blocks); for a static
 *   collider `x, y, z, id` are nil and `collider = true`, `handle` = its handle
 * @treturn[2] nil nothing hit
 * @raise "bad argument #n to 'raycast' (origin must be within limits.max_coord of 0)",
 *   "(direction must not be zero)", "(max_distance must be > 0 and <= 4096)",
 *   "(number must be finite)"; "bad argument #8 to 'raycast' (table expected, got T)",
 *   "raycast: unknown field 'k'", "raycast: field 'shape' must be \"collision\" or
 *   \"outline\"", "raycast: field 'liquids' must be a boolean".
 */
static int l_world_raycast(lua_State *L)
{
	lbp_world_of(L, 1);
	double o[3], d[3], max;
	check_ray(L, o, d, &max);
	const unsigned flags = ray_flags(L, 9);
	/* The options' metamethods may have run any code, destroying the world too. */
	bp_World *w = lbp_world_of(L, 1);
	bp_RayHit h;
	bp_Status st = bp_world_raycast_with(w, o, d, max, flags, &h);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	if (h.kind == BP_HIT_NONE) {
		lua_pushnil(L);
		return 1;
	}
	const lua_Integer handle = hit_handle(w, h.kind, h.collider);
	lua_createtable(L, 0, 12);
	set_target_fields(L, h.kind, h.cell, h.id, handle);
	set_hit_fields(L, h.normal, h.point, h.distance);
	return 1;
}

/***
 * Nearest entity box on a ray (linear over the live entities; ties keep the one
 * created first). Groups, masks and filters do not apply. Source: our own.
 * @function World:raycast_entities
 * @tparam number ox origin (as World:raycast)
 * @tparam number oy origin (as World:raycast)
 * @tparam number oz origin (as World:raycast)
 * @tparam number dx direction (nonzero)
 * @tparam number dy direction (nonzero)
 * @tparam number dz direction (nonzero)
 * @tparam number max_distance in (0, limits.max_ray] blocks
 * @tparam[opt] Entity ignore_entity a live entity of this world the ray passes through
 * @treturn[1] table `{entity, nx, ny, nz, hx, hy, hz, distance}`
 * @treturn[2] nil nothing hit
 * @raise the ray errors of World:raycast (naming 'raycast_entities'); "bad argument #8
 *   to 'raycast_entities' (blockphys.Entity expected, got T)", "(entity belongs to
 *   another world)", "(entity has been removed)".
 */
static int l_world_raycast_entities(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	double o[3], d[3], max;
	check_ray(L, o, d, &max);
	bp_EntityId ignore = {0, 0};
	if (!lua_isnoneornil(L, 9)) {
		LEntity *le = luaL_checkudata(L, 9, ENTITY_MT);
		lua_getiuservalue(L, 9, 1);
		if (!lua_rawequal(L, -1, 1))
			return luaL_argerror(L, 9, "entity belongs to another world");
		lua_pop(L, 1);
		lbp_check_entity(L, 9);
		ignore = le->id;
	}
	bp_EntityRayHit h;
	bp_Status st = bp_world_raycast_entities(w, o, d, max, ignore, &h);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	if (!h.index1) {
		lua_pushnil(L);
		return 1;
	}
	/* The entity's userdata first (reading it allocates nothing): a finalizer run by
	 * the allocations below may remove it and give its slot to another entity. */
	lbp_push_entity(L, 1, h.index1 - 1);
	lua_createtable(L, 0, 8);
	lua_insert(L, -2);
	lua_setfield(L, -2, "entity");
	set_hit_fields(L, h.normal, h.point, h.distance);
	return 1;
}

/***
 * How far a box can move along a displacement before it touches a block shape or a
 * static collider (swept AABB, MC-CPP collide). Moves nothing.
 * @function World:sweep
 * @tparam Collider collider the moving box
 * @tparam number dx displacement (|d| <= 1024 per axis)
 * @tparam number dy displacement (|d| <= 1024 per axis)
 * @tparam number dz displacement (|d| <= 1024 per axis)
 * @treturn number t fraction of the displacement in [0, 1]
 * @treturn number ax: the allowed displacement t * d, x
 * @treturn number ay: y
 * @treturn number az: z
 *   (blocks); on any axis where t * d would round past a face (of the box met, or of
 *   another met at the same time), shortened by a few ulps, so that the moved box never
 *   ends inside a box it did not start in. A box wholly beyond the int32 grid sweeps
 *   through air, however wide.
 * @treturn table|nil first box met: `{x, y, z, id, nx, ny, nz}`, or for a static
 *   collider `{collider = true, handle, nx, ny, nz}`. Boxes the collider already
 *   overlaps are ignored; a box met exactly at the end gives t = 1 and a hit; a box
 *   only touched at one instant (an edge grazed, or touching and moving apart) is no
 *   hit. Ties at one time: a face contact before an edge or corner contact, then the
 *   normal's axis X, Y, Z, then blocks (in cell order) before colliders (by their
 *   box): never the order of insertion or visit.
 *   Source: MC-CPP's collider document (docs/sources.md) (collide), with the departures of
 *   docs/mccpp.md; entities are not tested.
 * @raise "bad argument #1 to 'sweep' (blockphys.Collider expected, got T)", "bad argument
 *   #n to 'sweep' (displacement must be at most 1024 blocks per axis)", "(number must be
 *   finite)"; "sweep: region too large (more than 16777216 cells)"; "sweep: the path
 *   holds more than 1048576 block boxes (limits.max_query_boxes)".
 */
static int l_world_sweep(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	bp_AABB m = *lbp_check_collider(L, 2);
	double v[3];
	for (int a = 0; a < 3; a++) {
		v[a] = lbp_check_finite(L, 3 + a);
		if (!(fabs(v[a]) <= BP_MAX_MOVE))
			luaL_argerror(L, 3 + a, "displacement must be at most 1024 blocks per axis");
	}
	if (bp_world_sweep_cells(w, &m, v) > MAX_QUERY_CELLS)
		return luaL_error(L, "sweep: region too large (more than %d cells)",
		                  (int)MAX_QUERY_CELLS);
	bp_SweepHit h;
	bp_Status st = bp_world_sweep(w, &m, v, &h);
	if (st == BP_ELIMIT) /* |v| is checked above: the boxes on the path */
		return luaL_error(L, "sweep: the path holds more than %d block boxes "
		                     "(limits.max_query_boxes)", MAX_QUERY_BOXES);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	const lua_Integer handle = hit_handle(w, h.kind, h.collider);
	lua_pushnumber(L, h.t);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, h.move[a]);
	if (h.kind == BP_HIT_NONE) {
		lua_pushnil(L);
		return 5;
	}
	lua_createtable(L, 0, 7);
	set_target_fields(L, h.kind, h.cell, h.id, handle);
	set_int_field(L, "nx", h.normal[0]);
	set_int_field(L, "ny", h.normal[1]);
	set_int_field(L, "nz", h.normal[2]);
	return 5;
}

/* The kinds of box world:sweep_all reports, by bp_SweepCross.kind. */
static const char *const CROSS_KINDS[] = {"none", "block", "collider", "entity"};

/* The crossings of m moving by v into a userdata on the stack top: computed again
 * with room for all when the first guess was short (the world may change in between:
 * the allocation can run finalizers). Returns the array and its count. */
static bp_SweepCross *crossings(lua_State *L, const bp_AABB *m, const double v[3],
                                uint32_t *n)
{
	uint32_t cap = 64;
	for (;;) {
		bp_SweepCross *buf = lua_newuserdatauv(L, (size_t)cap * sizeof *buf, 0);
		bp_Status st = bp_world_sweep_all(lbp_world_of(L, 1), m, v, buf, cap, n);
		if (st == BP_ELIMIT)
			luaL_error(L, "sweep_all: the path holds more than %d block boxes, or "
			              "crosses more than %d boxes (limits.max_query_boxes)",
			           MAX_QUERY_BOXES, MAX_QUERY_BOXES);
		if (st != BP_OK)
			lbp_raise_status(L, st);
		if (*n <= cap)
			return buf;
		lua_pop(L, 1);
		cap = *n;
	}
}

/* The table of crossing x (on the stack top), or nothing pushed (returns 0) for an
 * entity that a finalizer removed meanwhile. */
static int push_crossing(lua_State *L, const bp_SweepCross *x)
{
	if (x->kind == BP_HIT_ENTITY) {
		/* The entity's userdata first (reading it allocates nothing), if the slot
		 * still holds the entity crossed: a finalizer run by an earlier allocation may
		 * have removed it, and a spawn taken its slot. */
		bp_World *w = lbp_world_of(L, 1);
		if (!bp_world_slot_holds(w, x->entity, x->serial))
			return 0;
		lbp_push_entity(L, 1, x->entity);
	}
	lua_createtable(L, 0, 12);
	if (x->kind == BP_HIT_ENTITY) {
		lua_insert(L, -2);
		lua_setfield(L, -2, "entity");
	} else {
		set_target_fields(L, x->kind, x->cell, x->id, (lua_Integer)x->handle);
	}
	lua_pushstring(L, CROSS_KINDS[x->kind]);
	lua_setfield(L, -2, "kind");
	set_num_field(L, "entry", x->entry);
	set_num_field(L, "exit", x->exit);
	set_int_field(L, "nx", x->normal[0]);
	set_int_field(L, "ny", x->normal[1]);
	set_int_field(L, "nz", x->normal[2]);
	lbp_push_collider(L, &x->box);
	lua_setfield(L, -2, "box");
	return 1;
}

/* Raise the error value on the stack top as a sweep_all filter's failure, named as the
 * step's and move's filters name theirs (its text as it is: %s would stop at a NUL). */
static int filter_failed(lua_State *L)
{
	lbp_error_text(L, -1);
	lua_pushliteral(L, "sweep_all: filter failed: ");
	lua_rotate(L, -2, 1);
	lua_concat(L, 2);
	return lua_error(L);
}

/***
 * Every block box, static collider and entity box that a box crosses as it moves
 * along a displacement, in order: for bullets, lasers and sensors. A box is crossed
 * when the interiors overlap at some point of the move (touching is not crossing);
 * boxes the moving one starts inside come first, with entry 0 and a zero normal. At the
 * same entry: a face contact before an edge or corner contact, then the normal's axis
 * X, Y, Z, then blocks (by cell x, y, z, then box), colliders (by box), entities
 * (creation order): never the order of insertion. Moves nothing. Source: our own,
 * after bump.lua's World:querySegmentWithCoords (for boxes).
 * @function World:sweep_all
 * @tparam Collider collider the moving box
 * @tparam number dx displacement (blocks, |d| <= 1024 per axis; all three given)
 * @tparam number dy
 * @tparam number dz
 * @tparam[opt] function filter called with each crossing's table; only those it
 *   returns a truthy value for are kept
 * @treturn table an array of crossings: `{kind = "block"|"collider"|"entity", entry,
 *   exit, nx, ny, nz, box}` with `entry`, `exit` the fractions of the displacement
 *   between which the interiors overlap (entry in [0, 1); exit above 1 when still
 *   overlapping at the end; with a zero displacement, the boxes overlapped: entry 0,
 *   exit math.huge), the normal of the face crossed at entry, `box` a Collider of the
 *   box crossed; and `x, y, z, id` (a block), `collider = true, handle` (a static
 *   collider) or `entity` (an Entity). At most limits.max_query_boxes crossings: the
 *   call's memory is at most that many tables (about 700 bytes each with their box)
 *   and 136 bytes per crossing while it runs.
 * @raise "bad argument #1 to 'sweep_all' (blockphys.Collider expected, got T)", "bad
 *   argument #n to 'sweep_all' (displacement must be at most 1024 blocks per axis)",
 *   "(number must be finite)", "bad argument #5 to 'sweep_all' (function expected, got
 *   T)"; "sweep_all: region too large (more than 16777216 cells)" (the cells that touch
 *   the swept region; a still box counts its own: limits.max_query_cells),
 *   "sweep_all: the path holds more than 1048576 block boxes, or crosses more than
 *   1048576 boxes (limits.max_query_boxes)" (block boxes tested; crossings of every
 *   kind, colliders and entities included); "sweep_all: filter
 *   failed: msg" (msg the filter's error, through tostring or "(a T value)").
 */
static int l_world_sweep_all(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	const bp_AABB m = *lbp_check_collider(L, 2);
	double v[3];
	for (int a = 0; a < 3; a++) {
		v[a] = lbp_check_finite(L, 3 + a);
		if (!(fabs(v[a]) <= BP_MAX_MOVE))
			luaL_argerror(L, 3 + a, "displacement must be at most 1024 blocks per axis");
	}
	if (!lua_isnoneornil(L, 6))
		luaL_checktype(L, 6, LUA_TFUNCTION);
	if (bp_world_sweep_all_cells(w, &m, v) > MAX_QUERY_CELLS)
		return luaL_error(L, "sweep_all: region too large (more than %d cells)",
		                  (int)MAX_QUERY_CELLS);
	lua_settop(L, 6);
	uint32_t n;
	const bp_SweepCross *list = crossings(L, &m, v, &n);
	lua_createtable(L, (int)(n < 1u << 20 ? n : 0), 0);
	lua_Integer kept = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!push_crossing(L, &list[i]))
			continue;
		if (!lua_isnil(L, 6)) {
			lua_pushvalue(L, 6);
			lua_pushvalue(L, -2);
			if (lua_pcall(L, 1, 1, 0) != LUA_OK)
				filter_failed(L);
			const int keep = lua_toboolean(L, -1);
			lua_pop(L, 1);
			if (!keep) {
				lua_pop(L, 1);
				continue;
			}
		}
		lua_rawseti(L, -2, ++kept);
	}
	return 1;
}

/* World methods of this file (added to World's in luaopen_blockphys_core). */
const luaL_Reg lbp_query_world_methods[] = {
	{"boxes_in", l_world_boxes_in}, {"query", l_world_query}, {"raycast", l_world_raycast},
	{"raycast_entities", l_world_raycast_entities}, {"sweep", l_world_sweep},
	{"sweep_all", l_world_sweep_all}, {NULL, NULL}};
