/* SPDX-License-Identifier: MIT
 * lfields.c - entity fields: Entity's __index and __newindex, the hottest binding code
 * (scripts read and write fields every tick): one hash lookup of the key in a table
 * held as an upvalue finds a field code or a method, and plain fields are read and
 * written through their offset in bp_Entity or bp_EntityInput. Also the limit on
 * velocities that Lua code writes inside world:step.
 */

/***
 * Entity fields.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "bp_world.h" /* the layouts: an allowed file (tools/check_structure.lua) */
#include "lbp.h"

/* ------------------------------------------------- velocities inside a step */

/* Inside world:step (after its pre-check), a velocity component that Lua code writes
 * must keep the entity's tick displacement within BP_MAX_MOVE (v x dt for per-second
 * rules): a larger one raises in the hook or filter, which fails the step and undoes it,
 * instead of being clamped without a word. `model` is the rules' model the velocity
 * will be read under (a rules write may change it). */
static double tick_move(const bp_World *w, int model, double v)
{
	return fabs(v) * (model == BP_MODEL_MCCPP ? bp_world_step_dt(w) : 1.0);
}

static void check_step_velocity(lua_State *L, const bp_World *w, int model, double v,
                                const char *what, const char *key)
{
	const double m = tick_move(w, model, v);
	if (!(m <= BP_MAX_MOVE))
		luaL_error(L, "%s '%s' would move the entity %s blocks in one tick "
		              "(at most 1024 per axis inside world:step)", what, key,
		           lbp_num_text_digits(m, 17).s);
}

/* After a method changed the velocity of entity e (slot index1 - 1) inside world:step:
 * the same limit as a velocity write, on the axes it changed, restoring the velocity
 * `before` when it raises. */
void lbp_check_changed_velocity(lua_State *L, const bp_World *w, bp_Entity *e,
                                uint32_t index1, const double before[3], const char *what)
{
	static const char *const key[] = {"vx", "vy", "vz"};
	if (bp_world_lock(w) != 1 || bp_world_ticking(w) == index1)
		return; /* outside a step the next step's pre-check raises; the entity whose
		         * tick runs is clamped after it, as its native stages are */
	for (int a = 0; a < 3; a++) {
		if (e->vel[a] == before[a] || tick_move(w, e->rules.model, e->vel[a]) <= BP_MAX_MOVE)
			continue; /* an axis the call left alone may be over until its tick ends */
		const double v = e->vel[a];
		memcpy(e->vel, before, sizeof e->vel);
		check_step_velocity(L, w, e->rules.model, v, what, key[a]);
	}
}

/* ------------------------------------------------------------------- fields */

/* The plain entity fields: a number (double) or a boolean (uint8_t) at an offset in
 * bp_Entity, or with `input` in the entity's bp_EntityInput. */
typedef struct PlainField {
	const char *name;
	size_t offset;
	uint8_t boolean;  /* a uint8_t read as a boolean, else a double */
	uint8_t writable; /* 0 read-only, 1 any finite number or a boolean, 2 in [-1, 1] */
	uint8_t input;
	uint8_t velocity; /* a velocity component (bounded inside a step) */
} PlainField;

#define ENTITY_NUM(name, member, w) {name, offsetof(bp_Entity, member), 0, w, 0, 0}
#define ENTITY_VEL(name, a) {name, offsetof(bp_Entity, vel) + (a) * sizeof(double), 0, 1, 0, 1}
#define ENTITY_BOOL(name, member, w) {name, offsetof(bp_Entity, member), 1, w, 0, 0}
#define INPUT_NUM(name, w) {#name, offsetof(bp_EntityInput, name), 0, w, 1, 0}
#define INPUT_BOOL(name) {#name, offsetof(bp_EntityInput, name), 1, 1, 1, 0}

static const PlainField plain_fields[] = {
	ENTITY_VEL("vx", 0), ENTITY_VEL("vy", 1), ENTITY_VEL("vz", 2),
	INPUT_NUM(forward, 2), INPUT_NUM(strafe, 2), INPUT_NUM(yaw, 1),
	ENTITY_NUM("fall_distance", fall_distance, 1),
	ENTITY_NUM("landing_fall", out_landing, 0),
	ENTITY_NUM("width", width, 0), ENTITY_NUM("height", height, 0),
	ENTITY_NUM("y_size", y_size, 0), ENTITY_NUM("step_offset", step_offset, 0),
	ENTITY_BOOL("on_ground", on_ground, 0),
	ENTITY_BOOL("collided_horizontally", out_coll_h, 0),
	ENTITY_BOOL("collided_vertically", out_coll_v, 0),
	ENTITY_BOOL("in_water", in_water, 0), ENTITY_BOOL("in_lava", in_lava, 0),
	ENTITY_BOOL("in_web", in_web, 0),
	INPUT_BOOL(jumping), INPUT_BOOL(sneaking), INPUT_BOOL(flying),
	ENTITY_BOOL("solid", solid, 1), ENTITY_BOOL("stable", stable, 0),
	ENTITY_BOOL("sensor", sensor, 0), ENTITY_BOOL("carry", carry, 1),
	ENTITY_BOOL("frozen", frozen, 0),
	{NULL, 0, 0, 0, 0, 0}};

/* Where a field lives: in the entity, or in its inputs (bp_EntityInput). */
static char *field_base(bp_World *w, bp_Entity *e, int input)
{
	return input ? (char *)bp_entity_input(w, e) : (char *)e;
}

/* Entity field codes: the value of each field name in the table that __index and
 * __newindex hold as upvalue 1, so that a field access is one hash lookup of the
 * (interned) key instead of a string search. Methods map to their functions. */
enum {
	FIELD_PLAIN = 0x100, /* + index in plain_fields */
	FIELD_POS = 0x300,  /* + axis: x, y, z */
	FIELD_GROUND_V = 0x500, /* + axis: ground_vx, ground_vy, ground_vz */
	FIELD_RULES = 0x400,
	FIELD_GROUP,
	FIELD_MASK,
	FIELD_WORLD,
	FIELD_FILTER,
	FIELD_SLEEPING
};

/* Push the field table: every field name to its code, every method to its function. */
static void push_entity_fields(lua_State *L, const luaL_Reg *methods)
{
	lua_newtable(L);
	luaL_setfuncs(L, methods, 0);
	for (int i = 0; plain_fields[i].name; i++) {
		lua_pushinteger(L, FIELD_PLAIN + i);
		lua_setfield(L, -2, plain_fields[i].name);
	}
	static const char *const other[] = {"x", "y", "z", "rules", "group", "mask", "world",
	                                    "filter", "ground_vx", "ground_vy", "ground_vz",
	                                    "sleeping"};
	static const int code[] = {FIELD_POS, FIELD_POS + 1, FIELD_POS + 2, FIELD_RULES,
	                           FIELD_GROUP, FIELD_MASK, FIELD_WORLD, FIELD_FILTER,
	                           FIELD_GROUND_V, FIELD_GROUND_V + 1, FIELD_GROUND_V + 2,
	                           FIELD_SLEEPING};
	for (int i = 0; i < 12; i++) {
		lua_pushinteger(L, code[i]);
		lua_setfield(L, -2, other[i]);
	}
}

/* The code of the key at index k (0 if it names no field; methods leave their
 * function on the stack top and return -1). The looked-up value stays on the stack
 * (callers index absolutely or push what they return; popping costs more). */
static int field_code(lua_State *L, int k)
{
	lua_pushvalue(L, k);
	int t = lua_rawget(L, lua_upvalueindex(1));
	if (t == LUA_TFUNCTION)
		return -1;
	return t == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : 0;
}

/* Entity __index for a key that names no field: a method added to the methods table
 * later, or nil. */
static int method_or_nil(lua_State *L)
{
	if (lua_type(L, 2) != LUA_TSTRING)
		return 0;
	if (luaL_getmetafield(L, 1, "methods") != LUA_TTABLE)
		return 0; /* a script replaced the metatable's methods table: no method */
	lua_pushvalue(L, 2);
	lua_rawget(L, -2);
	return 1;
}

/* lbp_entity_problem for a field access (the entity at index 1) whose key at index 2 names
 * a field (so is a string). Raises "entity field 'k': <problem>". */
static bp_Entity *field_entity(lua_State *L, const LEntity *le, bp_World **wout)
{
	bp_Entity *e = NULL;
	const char *problem = lbp_entity_problem(le, &e, wout);
	if (problem)
		luaL_error(L, "entity field '%s': %s", lua_tostring(L, 2), problem);
	return e;
}

/***
 * Field access (reads). Methods are found first, so `e:valid()` works on a dead entity;
 * any field of a dead entity raises "entity field 'k': entity has been removed" (or
 * "...: entity belongs to a destroyed world"). Unknown keys give nil.
 * Units: blocks; velocities blocks/tick (Beta rules) or blocks/s (MC-CPP rules).
 * Source: docs/beta173.md sections 0-3, 5 and 7 (inputs, flags, fall
 * distance, in_web, liquids, y_size) and section 4 (solid),
 * MC-CPP's entity physics document (docs/sources.md) (step_offset, flying),
 * the N64 quick-collisions article (docs/sources.md) (stable); groups, masks, filter: our own.
 *
 * - `x, y, z` number: feet position (read-only; see Entity:teleport)
 * - `vx, vy, vz` number: velocity (writable, finite)
 * - `forward, strafe` number: input in [-1, 1] (writable; strafe > 0 is left)
 * - `yaw` number: degrees, 0 faces +Z, clockwise from above (writable, finite)
 * - `fall_distance` number: blocks fallen since last on the ground (writable, finite)
 * - `landing_fall` number: the fall distance the last step (or e:move) landed with,
 *   as Beta passes it to fall() (fall damage: ceil(landing_fall - 3) half-hearts for a
 *   Beta player), in whichever move of a split MC-CPP step it landed; 0 when it did not
 *   land the entity; MC-CPP rules: the same, in double (read-only)
 * - `width, height` number: box size (read-only)
 * - `y_size` number: Beta camera lag (read-only); `step_offset` number: MC-CPP camera
 *   smoothing after a step assist, <= 0 (read-only)
 * - `collided_horizontally, collided_vertically` boolean: some move of the last step
 *   (or the last e:move) was stopped on X or Z, on Y (read-only)
 * - `on_ground, in_water, in_lava, stable` boolean: at the end of the last step or move
 *   (read-only)
 * - `ground_vx, ground_vy, ground_vz` number: the velocity of what it stands on (an
 *   entity's displacement over its last step, per tick for Beta rules, per second for
 *   MC-CPP's; 0 on blocks, colliders and in the air) (read-only)
 * - `in_web` boolean: the last Beta tick ended touching a web block, so the next move
 *   is slowed (read-only)
 * - `jumping, sneaking, flying, solid` boolean: inputs and state (writable, kept)
 * - `group, mask` integer in [0, 2^32): collision filtering (writable)
 * - `filter` function|nil: `filter(self, other) -> truthy` (writable)
 * - `rules` RulesView: a live view of this entity's rules (assign a rules table or
 *   another entity's `rules` to replace them: copied and validated)
 * - `world` World: the entity's world (read-only)
 * - `sleeping` boolean: its tick is a fixed point and nothing that could change it
 *   happened since, so steps skip it until something wakes it (read-only; our own,
 *   docs/entities.md "Sleeping")
 * @function Entity:__index
 * @tparam string k
 * @return the field's value, a method, or nil
 */
static int l_entity_index(lua_State *L)
{
	/* Methods first: e:valid() must answer for a removed entity, and the other
	 * methods check the entity themselves. */
	const LEntity *le = lbp_check_entity_ud(L, 1);
	int code = field_code(L, 2);
	if (code < 0)
		return 1;
	if (code == 0) /* names no field: no entity check (a removed entity's too) */
		return method_or_nil(L);
	bp_World *w;
	bp_Entity *e = field_entity(L, le, &w);
	double p[3];
	switch (code & ~0xFF) {
	case FIELD_PLAIN: {
		const PlainField *f = &plain_fields[code & 0xFF];
		const char *at = field_base(w, e, f->input) + f->offset;
		if (f->boolean)
			lua_pushboolean(L, *(const uint8_t *)at);
		else
			lua_pushnumber(L, *(const double *)at);
		return 1;
	}
	case FIELD_POS:
		bp_entity_position(e, p);
		lua_pushnumber(L, p[code & 0xFF]);
		return 1;
	case FIELD_GROUND_V:
		bp_entity_ground_velocity(w, ((const LEntity *)lua_touserdata(L, 1))->id.index1 - 1, p);
		lua_pushnumber(L, p[code & 0xFF]);
		return 1;
	default:
		break;
	}
	switch (code) {
	case FIELD_RULES:
		lbp_push_rules_view(L, 1);
		return 1;
	case FIELD_GROUP:
	case FIELD_MASK:
		lua_pushinteger(L, code == FIELD_GROUP ? e->group : e->mask);
		return 1;
	case FIELD_WORLD:
		lua_getiuservalue(L, 1, 1);
		return 1;
	case FIELD_SLEEPING:
		lua_pushboolean(L, bp_entity_sleeping(w, e));
		return 1;
	case FIELD_FILTER:
		lua_getiuservalue(L, 1, 1);
		lbp_push_hooks(L, lua_gettop(L), ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1);
		lua_getfield(L, -1, "filter");
		return 1;
	default:
		return method_or_nil(L);
	}
}

/* Apply the rules table at index t to the entity at index 1 (validated first). */
static void assign_rules(lua_State *L, int t, const char *fn)
{
	bp_Rules r;
	lbp_read_rules(L, t, &r, fn);
	lbp_push_new_hooks(L, t);
	/* The rules' metamethods may have removed the entity or destroyed the world:
	 * "entity field 'rules': <problem>", as any field access says it. */
	const LEntity *self = lua_touserdata(L, 1);
	bp_World *w;
	bp_Entity *e = field_entity(L, self, &w);
	if (bp_world_lock(w) == 1 && r.model != e->rules.model &&
	    bp_world_ticking(w) == self->id.index1)
		luaL_error(L, "%s: cannot switch entity %d from %s to %s rules during its own tick "
		              "(the rest of the tick would read the other model's constants); "
		              "switch them outside world:step, or while another entity ticks",
		           fn, (int)self->id.index1, lbp_model_names[e->rules.model],
		           lbp_model_names[r.model]);
	if (bp_world_lock(w) == 1 && r.model != e->rules.model) { /* the velocity in other units */
		static const char *const key[] = {"vx", "vy", "vz"};
		for (int a = 0; a < 3; a++)
			check_step_velocity(L, w, r.model, e->vel[a], "entity.rules: the velocity",
			                    key[a]);
	}
	lua_getiuservalue(L, 1, 1);
	lua_insert(L, -2);
	lbp_install_hooks(L, lua_gettop(L) - 1, self->id.index1 - 1);
	lua_pop(L, 1);
	bp_entity_set_rules(w, e, &r);
}

/***
 * Field assignment (see Entity:__index for the fields, units and which are writable).
 * Nothing changes when it raises. Source: our own.
 * @function Entity:__newindex
 * @tparam string k
 * @param v
 * @raise "entity field 'k' is read-only" (x, y, z: "... (use e:teleport(x, y, z))"),
 *   "entity field 'k' must be in [-1, 1]", "entity field 'k' must be a boolean",
 *   "entity field 'k' must be an integer in [0, 2^32)", "entity field 'filter' must be a
 *   function or nil", "entity has no field 'k'", "entity field 'k'
 *   must be a finite number", "entity field 'vx' would move the entity X blocks in one
 *   tick (at most 1024 per axis inside world:step)" (vx, vy, vz written from a hook or
 *   filter), "entity.rules: ..." (rules errors as make_rules; from a hook or filter
 *   also "entity.rules: the velocity 'vx' would move the entity X blocks in one tick
 *   (...)" when the new rules' model reads the velocity beyond the limit, and
 *   "entity.rules: cannot switch entity N from M1 to M2 rules during its own tick
 *   (...)" for the entity whose tick runs); for a
 *   removed entity "entity field 'k': entity has been removed" (or "...: entity belongs
 *   to a destroyed world").
 */
static int l_entity_newindex(lua_State *L)
{
	const LEntity *le = lbp_check_entity_ud(L, 1);
	int code = field_code(L, 2);
	/* The key for the messages, read only when raising: a key that is not a string
	 * names no field, and luaL_checkstring then raises its own error. */
#define KEY luaL_checkstring(L, 2)
	if (code <= 0)
		return luaL_error(L, "entity has no field '%s'", KEY);
	bp_World *w;
	bp_Entity *e = field_entity(L, le, &w);
	/* A write wakes it (sleep.c), and the sleepers near it that it may act on; an
	 * input wakes it only if it changes (below). */
	if ((code & ~0xFF) != FIELD_PLAIN || !plain_fields[code & 0xFF].input)
		bp_entity_touch(w, e);
	const bp_EntityInput before = *bp_entity_input(w, e);
	if ((code & ~0xFF) == FIELD_PLAIN) {
		const PlainField *f = &plain_fields[code & 0xFF];
		if (!f->writable)
			return luaL_error(L, "entity field '%s' is read-only", KEY);
		char *at = field_base(w, e, f->input) + f->offset;
		if (!f->boolean) {
			int ok;
			double v = lua_tonumberx(L, 3, &ok);
			if (!ok || !isfinite(v))
				return luaL_error(L, "entity field '%s' must be a finite number", KEY);
			if (f->writable == 2 && !(v >= -1 && v <= 1))
				return luaL_error(L, "entity field '%s' must be in [-1, 1]", KEY);
			if (f->velocity && bp_world_lock(w) == 1) /* inside a step, past its pre-check */
				check_step_velocity(L, w, e->rules.model, v, "entity field", KEY);
			*(double *)at = v;
			bp_entity_input_changed(w, e, &before);
			return 0;
		}
		if (!lua_isboolean(L, 3))
			return luaL_error(L, "entity field '%s' must be a boolean", KEY);
		if (at == (char *)&e->solid) /* counted by the world */
			bp_entity_set_solid(w, e, lua_toboolean(L, 3));
		else if (at == (char *)&bp_entity_input(w, e)->jumping) /* a press latches */
			bp_input_set_jumping(bp_entity_input(w, e), lua_toboolean(L, 3));
		else
			*(uint8_t *)at = (uint8_t)lua_toboolean(L, 3);
		bp_entity_input_changed(w, e, &before);
		return 0;
	}
	switch (code) {
	case FIELD_RULES:
		lbp_view_to_table(L, 3);
		assign_rules(L, 3, "entity.rules");
		return 0;
	case FIELD_GROUP:
	case FIELD_MASK: {
		int ok;
		lua_Integer v = lua_tointegerx(L, 3, &ok);
		if (!ok || v < 0 || v > (lua_Integer)UINT32_MAX)
			return luaL_error(L, "entity field '%s' must be an integer in [0, 2^32)", KEY);
		*(code == FIELD_GROUP ? &e->group : &e->mask) = (uint32_t)v;
		return 0;
	}
	case FIELD_FILTER:
		if (!lua_isnil(L, 3) && !lua_isfunction(L, 3))
			return luaL_error(L, "entity field 'filter' must be a function or nil");
		lua_getiuservalue(L, 1, 1);
		lua_pushvalue(L, 3);
		lbp_set_filter(L, lua_gettop(L) - 1, ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1, e);
		return 0;
	case FIELD_POS:
	case FIELD_POS + 1:
	case FIELD_POS + 2:
		return luaL_error(L, "entity field '%s' is read-only (use e:teleport(x, y, z))", KEY);
	case FIELD_WORLD:
	case FIELD_SLEEPING:
	case FIELD_GROUND_V:
	case FIELD_GROUND_V + 1:
	case FIELD_GROUND_V + 2:
		return luaL_error(L, "entity field '%s' is read-only", KEY);
	default:
		return luaL_error(L, "entity has no field '%s'", KEY);
	}
#undef KEY
}

/* ------------------------------------------------ the LuaJIT FFI fast path */

/* The fast path's field accessors (lffi.c), plain C over the Entity block le: they call
 * no Lua function, so LuaJIT may call them through its FFI. Each does what __index or
 * __newindex does for a plain or position field of a live entity, and answers -1
 * wherever only the classic metamethod can (another field, a dead entity, a value it
 * refuses, a velocity written inside world:step): the caller then calls it, which
 * gives the result or raises the error. */

/* Field `code` (its value in the field table): 0 with a number in *out, 1 with a
 * boolean in *out (0 or 1), or -1. */
int lbp_ffi_field_get(const LEntity *le, int code, double *out)
{
	bp_Entity *e;
	bp_World *w;
	if (lbp_entity_problem(le, &e, &w))
		return -1;
	if ((code & ~0xFF) == FIELD_PLAIN &&
	    (size_t)(code & 0xFF) < sizeof plain_fields / sizeof *plain_fields - 1) {
		const PlainField *f = &plain_fields[code & 0xFF];
		const char *at = field_base(w, e, f->input) + f->offset;
		*out = f->boolean ? *(const uint8_t *)at : *(const double *)at;
		return f->boolean;
	}
	if (code >= FIELD_POS && code <= FIELD_POS + 2) {
		double p[3];
		bp_entity_position(e, p);
		*out = p[code & 0xFF];
		return 0;
	}
	return -1;
}

/* Write field `code`: a number v, or with `boolean` a boolean (v 0 or 1). 0 when
 * written, else -1 (nothing written). */
int lbp_ffi_field_set(const LEntity *le, int code, double v, int boolean)
{
	bp_Entity *e;
	bp_World *w;
	if ((code & ~0xFF) != FIELD_PLAIN ||
	    (size_t)(code & 0xFF) >= sizeof plain_fields / sizeof *plain_fields - 1 ||
	    lbp_entity_problem(le, &e, &w))
		return -1;
	const PlainField *f = &plain_fields[code & 0xFF];
	if (!f->writable || !f->boolean != !boolean)
		return -1;
	if (!f->input) /* a write wakes it, and the sleepers near it that it may act on */
		bp_entity_touch(w, e);
	const bp_EntityInput before = *bp_entity_input(w, e); /* an input: if it changes */
	char *at = field_base(w, e, f->input) + f->offset;
	if (boolean) {
		if (at == (char *)&e->solid)
			bp_entity_set_solid(w, e, v != 0);
		else if (at == (char *)&bp_entity_input(w, e)->jumping)
			bp_input_set_jumping(bp_entity_input(w, e), v != 0);
		else
			*(uint8_t *)at = (uint8_t)(v != 0);
		bp_entity_input_changed(w, e, &before);
		return 0;
	}
	if (!isfinite(v) || (f->writable == 2 && !(v >= -1 && v <= 1)) ||
	    (f->velocity && bp_world_lock(w) == 1))
		return -1;
	*(double *)at = v;
	bp_entity_input_changed(w, e, &before);
	return 0;
}

/* Give the Entity metatable (made by lbp_open_entity) its field metamethods: closures
 * over the field table (every field name to its code, every method to its function)
 * and the metatable itself (see lbp_check_entity_ud). */
void lbp_open_entity_fields(lua_State *L, const luaL_Reg *methods)
{
	luaL_getmetatable(L, ENTITY_MT);
	push_entity_fields(L, methods);
	lua_pushvalue(L, -1);
	lua_pushvalue(L, -3);
	lua_pushcclosure(L, l_entity_index, 2);
	lua_setfield(L, -3, "__index");
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, l_entity_newindex, 2); /* upvalues: the fields, the metatable */
	lua_setfield(L, -2, "__newindex");
	lua_pop(L, 1);
}
