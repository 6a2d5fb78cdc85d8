/* SPDX-License-Identifier: MIT
 * levents.c - what a tick tells the game: world:events() and the world's event fields
 * (tick, max_events, events_dropped, hit_speed), e:contacts() and e:ground(). The core
 * fills the queue during steps (contact.c, events.c); this file turns it into tables.
 * An event may name an entity removed since: World:remove keeps such an entity's
 * userdata (lbp_keep_departed, in the field "departed" of the world's entity table)
 * until the next read, so that it is the same object the script holds.
 */
#include "lbp.h"

#include <stdio.h>
#include <string.h>

static const char *const KINDS[] = {"none", "block", "collider", "entity"};
static const char *const TYPES[] = {"none", "hit", "land", "enter", "leave"};

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static void set_num(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

/* The key of a departed entity in the world's departed table. */
static void push_departed_key(lua_State *L, bp_EntityId id)
{
	char key[32];
	snprintf(key, sizeof key, "%lu:%lu", (unsigned long)id.index1,
	         (unsigned long)id.generation);
	lua_pushstring(L, key);
}

/* The departed table: the field "departed" of the world's entity table (user value 1),
 * apart from the live entities' integer slots; made when `make`, else nil pushed. */
static void push_departed(lua_State *L, int wi, int make)
{
	lua_getiuservalue(L, wi, 1);
	if (lua_getfield(L, -1, "departed") == LUA_TNIL && make) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, -3, "departed");
	}
	lua_remove(L, -2);
}

void lbp_keep_departed(lua_State *L, int wi, int ei, bp_EntityId id)
{
	push_departed(L, wi, 1);
	push_departed_key(L, id);
	lua_pushvalue(L, ei);
	lua_rawset(L, -3);
	lua_pop(L, 1);
}

/* The Entity userdata of id (the world at wi): the live one, or the departed one kept
 * for the queue, or nil. */
static void push_entity_id(lua_State *L, int wi, bp_World *w, bp_EntityId id)
{
	if (bp_world_entity(w, id)) {
		lbp_push_entity(L, wi, id.index1 - 1);
		return;
	}
	push_departed(L, wi, 0);
	if (lua_isnil(L, -1))
		return;
	push_departed_key(L, id);
	lua_rawget(L, -2);
	lua_remove(L, -2);
}

/* What a contact names, into the table on the stack top: kind, and a block's x, y, z
 * and id, a collider's handle (as `collider` and `handle`), or the entity (under
 * `entity_key`: "entity" for contacts, "other" in events). */
static void set_what(lua_State *L, int wi, bp_World *w, const bp_Contact *c,
                     const char *entity_key)
{
	lua_pushstring(L, KINDS[c->kind]);
	lua_setfield(L, -2, "kind");
	if (c->kind == BP_HIT_BLOCK) {
		set_int(L, "x", c->cell[0]);
		set_int(L, "y", c->cell[1]);
		set_int(L, "z", c->cell[2]);
		set_int(L, "id", c->id);
	} else if (c->kind == BP_HIT_COLLIDER) {
		set_int(L, "collider", (lua_Integer)c->collider);
		set_int(L, "handle", (lua_Integer)c->collider);
	} else if (c->kind == BP_HIT_ENTITY) {
		push_entity_id(L, wi, w, c->entity);
		lua_setfield(L, -2, entity_key);
	}
}

static void set_normal(lua_State *L, const int n[3])
{
	set_int(L, "nx", n[0]);
	set_int(L, "ny", n[1]);
	set_int(L, "nz", n[2]);
}

/***
 * Every event since the previous call (or since the world was made), oldest first,
 * and the queue emptied: ticks in order; within a tick, entities in update (creation)
 * order; within one move of an entity, its hits by face (X, Y, Z; the move toward
 * -axis first), then its landing; trigger and sensor events after every entity moved.
 * Each is a table with `type`, `tick` (world.tick when it happened) and `entity`:
 *
 * - `type = "land"`: `fall`, the fall distance landed with (blocks; Beta's fall damage
 *   is `math.ceil(fall - 3)` half-hearts), and what it landed on as Entity:ground
 *   gives it: `kind = "block"` with `x, y, z, id`; `"collider"` with `collider`
 *   (the handle); `"entity"` with `other`; `"none"` if nothing was found.
 * - `type = "enter"` / `"leave"`: the entity began / stopped overlapping a trigger
 *   (`trigger`, its handle, and `tag`) or a sensor entity (`sensor`); a removed entity
 *   or trigger leaves at once.
 * - `type = "hit"`: a contact that begins: a face of the entity's box stopped by a
 *   move that did not stop it earlier in the tick or in the tick before. `kind` and
 *   the box met as for "land", its normal `nx, ny, nz` (toward the entity: a floor's
 *   is 0, 1, 0) and `speed`, the approach speed along the normal (blocks/s, Beta
 *   velocities times 20), at least world.hit_speed. With several boxes on the face,
 *   the one the face's centre is over (as Entity:ground chooses).
 *
 * At most `world.max_events` are kept between two calls; later ones are counted in
 * `world.events_dropped`. A failed world:step or e:move takes its events back.
 * Source: our own (Box2D v3's contact events are read after the step the same way).
 * @function World:events
 * @treturn {table,...} the events
 * @raise "calling 'events' on bad self (world has been destroyed)".
 */
static int l_world_events(lua_State *L)
{
	bp_World *w = lbp_world_of(L, 1);
	uint32_t n;
	const bp_Event *queued = bp_world_events(w, &n);
	/* A copy, and the queue emptied, before any table is made: a finalizer that a
	 * table's allocation runs may read or add events. */
	bp_Event *evs = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *evs, 0); /* 2 */
	if (n) /* a queue that never held an event has no array (NULL) */
		memcpy(evs, queued, (size_t)n * sizeof *evs);
	bp_world_events_clear(w);
	lua_createtable(L, (int)n, 0);
	for (uint32_t i = 0; i < n; i++) {
		const bp_Event *ev = &evs[i];
		lua_createtable(L, 0, 12);
		lua_pushstring(L, TYPES[ev->type]);
		lua_setfield(L, -2, "type");
		set_int(L, "tick", (lua_Integer)ev->tick);
		push_entity_id(L, 1, w, ev->entity);
		lua_setfield(L, -2, "entity");
		if (ev->type == BP_EVENT_LAND || ev->type == BP_EVENT_HIT)
			set_what(L, 1, w, &ev->what, "other");
		if (ev->type == BP_EVENT_LAND) {
			set_num(L, "fall", ev->fall);
		} else if (ev->type == BP_EVENT_HIT) {
			set_normal(L, ev->what.normal);
			set_num(L, "speed", ev->speed);
		} else if (ev->trigger) { /* enter, leave of a trigger */
			set_int(L, "trigger", (lua_Integer)ev->trigger);
			lbp_push_trigger_tag(L, 1, ev->trigger);
			lua_setfield(L, -2, "tag");
		} else { /* of a sensor entity */
			push_entity_id(L, 1, w, ev->sensor);
			lua_setfield(L, -2, "sensor");
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	/* The departed entities the queue named are no longer needed. */
	lua_getiuservalue(L, 1, 1);
	lua_pushnil(L);
	lua_setfield(L, -2, "departed");
	lua_pushnil(L);
	lua_setfield(L, -2, "departed_tags");
	lua_pop(L, 1);
	return 1;
}

/***
 * The boxes that stopped the entity's last step (or e:move): on each face of its box
 * where a move was stopped, the block boxes, static colliders and blocking entity
 * boxes nearest beyond it, one entry per box:
 * `{kind = "block" | "collider" | "entity", x, y, z, id | collider | entity, nx, ny, nz}`
 * (`collider`: the handle; the normal points toward the entity). Sorted by face
 * (normal +X, -X, +Y, -Y, +Z, -Z), then blocks, colliders, entities, then by cell
 * (x, y, z), handle or creation order. Found from the world as it is now (a block
 * removed since is gone). Source: our own.
 * @function Entity:contacts
 * @treturn {table,...} the contacts (empty in the air with nothing touched)
 * @raise dead entity errors.
 */
int lbp_entity_contacts(lua_State *L)
{
	bp_World *w;
	lbp_check_entity_w(L, 1, &w);
	const uint32_t slot = ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1;
	lua_getiuservalue(L, 1, 1); /* the world: 2 */
	bp_Contact some[16];
	uint32_t n;
	bp_entity_contacts(w, slot, some, 16, &n);
	bp_Contact *c = some;
	if (n > 16) { /* a wide entity on many blocks: room for all, then again */
		c = lua_newuserdatauv(L, (size_t)n * sizeof *c, 0);
		uint32_t cap = n;
		bp_entity_contacts(w, slot, c, cap, &n);
		if (n > cap)
			n = cap;
	}
	lua_createtable(L, (int)n, 0);
	for (uint32_t i = 0; i < n; i++) {
		lua_createtable(L, 0, 8);
		set_what(L, 2, w, &c[i], "entity");
		set_normal(L, c[i].normal);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/***
 * What the entity stands on: `"block", x, y, z, id`; `"collider", handle`;
 * `"entity", e2`; or nil in the air. With several supports, the one the centre of the
 * box's bottom is over (edges included), else the one nearest to that point; ties go
 * to blocks, then colliders, then entities, then the lowest x, y, z (or handle, or
 * creation order). Source: our own (Beta reads the block under the centre for its
 * slipperiness).
 * @function Entity:ground
 * @return kind and what it names, or nil
 * @raise dead entity errors.
 */
int lbp_entity_ground(lua_State *L)
{
	bp_World *w;
	lbp_check_entity_w(L, 1, &w);
	const uint32_t slot = ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1;
	bp_Contact c;
	if (!bp_entity_ground(w, slot, &c))
		return 0;
	lua_pushstring(L, KINDS[c.kind]);
	switch (c.kind) {
	case BP_HIT_BLOCK:
		lua_pushinteger(L, c.cell[0]);
		lua_pushinteger(L, c.cell[1]);
		lua_pushinteger(L, c.cell[2]);
		lua_pushinteger(L, c.id);
		return 5;
	case BP_HIT_COLLIDER:
		lua_pushinteger(L, (lua_Integer)c.collider);
		return 2;
	default:
		lua_getiuservalue(L, 1, 1);
		push_entity_id(L, lua_gettop(L), w, c.entity);
		lua_remove(L, -2);
		return 2;
	}
}

/* World fields of the events (lloop.c's __index asks here first): 1 if k is one,
 * with its value pushed. */
int lbp_events_index(lua_State *L, const char *k)
{
	LWorld *lw = lua_touserdata(L, 1);
	if (strcmp(k, "tick") == 0 || strcmp(k, "max_events") == 0 ||
	    strcmp(k, "events_dropped") == 0 || strcmp(k, "hit_speed") == 0) {
		if (!lw->w)
			return luaL_error(L, "world field '%s': world has been destroyed", k);
		if (k[0] == 't')
			lua_pushinteger(L, (lua_Integer)bp_world_tick(lw->w));
		else if (k[0] == 'm')
			lua_pushinteger(L, (lua_Integer)bp_world_max_events(lw->w));
		else if (k[0] == 'e')
			lua_pushnumber(L, (double)bp_world_events_dropped(lw->w));
		else
			lua_pushnumber(L, bp_world_hit_speed(lw->w));
		return 1;
	}
	return 0;
}

/* Set a World field of the events: 1 if k is one (set, or raised). */
int lbp_events_newindex(lua_State *L, const char *k)
{
	LWorld *lw = lua_touserdata(L, 1);
	int ok;
	if (strcmp(k, "max_events") == 0) {
		const lua_Integer v = lua_tointegerx(L, 3, &ok);
		if (!ok || v < 0 || v > BP_MAX_EVENTS)
			return luaL_error(L, "world field 'max_events' must be an integer in [0, %d]",
			                  BP_MAX_EVENTS);
		if (!lw->w)
			return luaL_error(L, "world field 'max_events': world has been destroyed");
		bp_world_set_max_events(lw->w, (uint32_t)v);
		return 1;
	}
	if (strcmp(k, "hit_speed") == 0) {
		const double v = lua_tonumberx(L, 3, &ok);
		if (!ok || !(v >= 0 && v <= 1e300))
			return luaL_error(L, "world field 'hit_speed' must be a finite number >= 0");
		if (!lw->w)
			return luaL_error(L, "world field 'hit_speed': world has been destroyed");
		bp_world_set_hit_speed(lw->w, v);
		return 1;
	}
	if (strcmp(k, "tick") == 0 || strcmp(k, "events_dropped") == 0)
		return luaL_error(L, "world field '%s' is read-only", k);
	return 0;
}

/* World methods of this file (added to World's in luaopen_blockphys_core). */
const luaL_Reg lbp_events_world_methods[] = {{"events", l_world_events}, {NULL, NULL}};
