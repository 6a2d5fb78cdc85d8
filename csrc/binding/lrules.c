/* SPDX-License-Identifier: MIT
 * lrules.c - rules: the tables bp.rules.beta173/mccpp make (read into a bp_Rules, every
 * key checked), their metatable (blockphys.Rules), and RulesView, the live view
 * `e.rules` of one entity's rules.
 */

/***
 * Rules tables and an entity's rules view.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "lbp.h"

/* ------------------------------------------------------------- rules tables */

/* Model and resolver names, by BP_MODEL_* and resolver index. */
const char *const lbp_model_names[] = {"beta173", "mccpp", NULL};
static const char *const RESOLVER_NAMES[] = {"axis", "swept", NULL};
static const char *const INTEGRATOR_NAMES[] = {"exact", "mccpp", NULL}; /* MC-CPP only */

static void push_push_model(lua_State *L, int p)
{
	if (p == BP_PUSH_NONE)
		lua_pushboolean(L, 0);
	else
		lua_pushstring(L, p == BP_PUSH_BETA173 ? "beta173" : "separate");
}

static const bp_RuleField *find_field(const char *name)
{
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (strcmp(f->name, name) == 0)
			return f;
	}
	return NULL;
}

static void push_field(lua_State *L, const bp_Rules *r, const bp_RuleField *f)
{
	const char *p = (const char *)r + f->offset;
	switch (f->kind) {
	case BP_FIELD_BOOL:
		lua_pushboolean(L, *(const int *)p);
		break;
	case BP_FIELD_INT:
		lua_pushinteger(L, *(const int *)p);
		break;
	case BP_FIELD_VEC3: {
		const double *v = (const double *)p;
		lua_createtable(L, 3, 0);
		for (int k = 0; k < 3; k++) {
			lua_pushnumber(L, v[k]);
			lua_rawseti(L, -2, k + 1);
		}
		break;
	}
	default:
		lua_pushnumber(L, *(const double *)p);
	}
}

static double range_checked(lua_State *L, const bp_RuleField *f, double v, const char *fn)
{
	if (!(v >= f->min && v <= f->max))
		luaL_error(L, "%s: rule '%s' must be a number in [%s, %s]", fn, f->name,
		           lbp_num_text(f->min).s, lbp_num_text(f->max).s);
	/* -0 is stored as 0: a rule's zero then never meets a zero of the other sign in
	 * fmin/fmax, whose choice between them C leaves to each build. */
	return v + 0.0;
}

/* Store the value on top of the stack into field f of r (validated). */
static void set_field(lua_State *L, bp_Rules *r, const bp_RuleField *f, const char *fn)
{
	char *p = (char *)r + f->offset;
	int t = lua_type(L, -1);
	if (f->kind == BP_FIELD_BOOL) {
		if (t != LUA_TBOOLEAN)
			luaL_error(L, "%s: rule '%s' must be a boolean", fn, f->name);
		*(int *)p = lua_toboolean(L, -1);
	} else if (f->kind == BP_FIELD_VEC3) {
		double v[3];
		if (t != LUA_TTABLE)
			luaL_error(L, "%s: rule '%s' must be a table of 3 numbers", fn, f->name);
		for (int k = 0; k < 3; k++) {
			if (lua_geti(L, -1, k + 1) != LUA_TNUMBER)
				luaL_error(L, "%s: rule '%s' must be a table of 3 numbers", fn, f->name);
			v[k] = range_checked(L, f, lua_tonumber(L, -1), fn);
			lua_pop(L, 1);
		}
		memcpy(p, v, sizeof v);
	} else {
		if (t != LUA_TNUMBER)
			luaL_error(L, "%s: rule '%s' must be a number", fn, f->name);
		double v = range_checked(L, f, lua_tonumber(L, -1), fn);
		if (f->kind == BP_FIELD_INT) {
			if (v != floor(v))
				luaL_error(L, "%s: rule '%s' must be an integer", fn, f->name);
			*(int *)p = (int)v;
		} else {
			*(double *)p = v;
		}
	}
}

static int option_index(lua_State *L, const char *const *names, const char *fn,
                        const char *what)
{
	const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
	for (int i = 0; s && names[i]; i++) {
		if (strcmp(s, names[i]) == 0)
			return i;
	}
	return luaL_error(L, "%s: rule '%s' must be one of %s", fn, what,
	                  names == lbp_model_names    ? "\"beta173\", \"mccpp\""
	                  : names == INTEGRATOR_NAMES ? "\"exact\", \"mccpp\""
	                                              : "\"axis\", \"swept\"");
}

static int read_push(lua_State *L, const char *fn)
{
	if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1))
		return BP_PUSH_NONE;
	const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
	if (strcmp(s, "beta173") == 0)
		return BP_PUSH_BETA173;
	if (strcmp(s, "separate") == 0)
		return BP_PUSH_SEPARATE;
	return luaL_error(L, "%s: rule 'push' must be \"beta173\", \"separate\" or false", fn);
}

/* Set one named rule from the value on top of the stack. Hooks are handled by the
 * callers (they live on the Lua side). Returns 0 if the name is unknown. */
static int set_rule(lua_State *L, bp_Rules *r, const char *name, const char *fn)
{
	if (strcmp(name, "resolver") == 0) {
		r->resolver = option_index(L, RESOLVER_NAMES, fn, "resolver");
	} else if (strcmp(name, "push") == 0) {
		r->push = read_push(L, fn);
	} else if (strcmp(name, "integrator") == 0 && r->model == BP_MODEL_MCCPP) {
		r->integrator = option_index(L, INTEGRATOR_NAMES, fn, "integrator");
	} else if (strcmp(name, "model") == 0) {
		if (option_index(L, lbp_model_names, fn, "model") != r->model)
			luaL_error(L, "%s: rule 'model' cannot change (make new rules with bp.rules.%s)",
			           fn, lua_tostring(L, -1));
	} else {
		const bp_RuleField *f = find_field(name);
		if (!f || !(f->models & (1 << r->model)))
			return 0;
		set_field(L, r, f, fn);
	}
	return 1;
}

/* Raise "fn: unknown rule 'k' for model m", or, for the other model's rule, name both
 * models (the likely cause: one preset's table whose plain 'model' field was set to
 * the other). fn may be NULL (no prefix). */
static int unknown_rule(lua_State *L, const char *fn, const char *k, int model)
{
	const char *sep = fn ? ": " : "";
	if (fn == NULL)
		fn = "";
	if (find_field(k) || strcmp(k, "integrator") == 0)
		return luaL_error(L, "%s%srule '%s' belongs to model %s, not %s", fn, sep, k,
		                  lbp_model_names[!model], lbp_model_names[model]);
	return luaL_error(L, "%s%sunknown rule '%s' for model %s", fn, sep, k,
	                  lbp_model_names[model]);
}

static int is_hook_name(const char *k)
{
	return strcmp(k, "heading") == 0 || strcmp(k, "jump") == 0;
}

/* The rules that are not bp_rule_fields: named options, read first (set_rule). */
static const char *const RULE_OPTIONS[] = {"model", "resolver", "push", "integrator"};
#define NRULE_OPTIONS (sizeof RULE_OPTIONS / sizeof *RULE_OPTIONS)

/* Whether k names an option of `model` ("integrator" is MC-CPP's only). */
static int is_option_name(const char *k, int model)
{
	for (size_t i = 0; i < NRULE_OPTIONS; i++) {
		if (strcmp(k, RULE_OPTIONS[i]) == 0)
			return model == BP_MODEL_MCCPP || strcmp(k, "integrator") != 0;
	}
	return 0;
}

/* The registry key of the table from each rule field's name to its index + 1 in
 * bp_rule_fields (lbp_open_rules): check_rule_names looks each key of a rules table up
 * there, one hash lookup and one strcmp instead of a strcmp per field (a spawn with
 * rules took about 50,000 instructions in strcmp alone). */
static const char FIELD_INDEX[] = "blockphys.rule_field_index";

/* The field that the string at stack index k names, through the name table at index
 * `names` (0: none made, as in a state that did not open the module: by strcmp), of
 * nfields fields; NULL if none. What the table answers is checked (a script can reach
 * the registry through the debug library). */
static const bp_RuleField *field_of_key(lua_State *L, int names, size_t nfields, int k)
{
	const char *name = lua_tostring(L, k);
	if (!names)
		return find_field(name);
	lua_pushvalue(L, k);
	lua_rawget(L, names);
	lua_Integer i = lua_tointeger(L, -1); /* 0: not a field name */
	lua_pop(L, 1);
	if (!i)
		return NULL;
	if (i < 0 || (lua_Unsigned)i > nfields || strcmp(bp_rule_fields[i - 1].name, name) != 0)
		return find_field(name); /* (a table changed by a script) */
	return &bp_rule_fields[i - 1];
}

/* Every key of rules table t must be a string naming a rule of `model` or a hook.
 * The other model's rules are reported first, in field order; then the smallest
 * unknown name (strcmp), so that the message is the same in every run. */
static void check_rule_names(lua_State *L, int t, int model, const char *fn)
{
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (f->models & (1 << model))
			continue;
		int present = lbp_raw_field(L, t, f->name) != LUA_TNIL;
		lua_pop(L, 1);
		if (present)
			unknown_rule(L, fn, f->name, model);
	}
	const char *bad = NULL; /* points into a key of t, alive while t is unchanged */
	const int names = lua_getfield(L, LUA_REGISTRYINDEX, FIELD_INDEX) == LUA_TTABLE
	                      ? lua_gettop(L)
	                      : 0;
	size_t nfields = 0;
	while (bp_rule_fields[nfields].name)
		nfields++;
	lua_pushnil(L);
	while (lua_next(L, t)) {
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "%s: rule names must be strings", fn);
		const char *k = lua_tostring(L, -1);
		const bp_RuleField *f = field_of_key(L, names, nfields, -1);
		int known = (f && (f->models & (1 << model))) || is_hook_name(k) || is_option_name(k, model);
		if (!known && (!bad || strcmp(k, bad) < 0))
			bad = k;
	}
	lua_pop(L, 1); /* the name table */
	if (bad)
		unknown_rule(L, fn, bad, model);
}

/* Hook `name` of rules table t: 1 for a function, 0 for nil or false. */
static int read_hook(lua_State *L, int t, const char *name, const char *fn)
{
	lbp_raw_field(L, t, name);
	if (!lua_isnil(L, -1) && !lua_isfunction(L, -1) &&
	    !(lua_isboolean(L, -1) && !lua_toboolean(L, -1)))
		luaL_error(L, "%s: hook '%s' must be a function or nil", fn, name);
	int set = lua_isfunction(L, -1);
	lua_pop(L, 1);
	return set;
}

/* Parse the rules table at index t into *r: start from the preset its 'model' names,
 * then every key must be a known rule or hook. The hook presence flags are set. */
void lbp_read_rules(lua_State *L, int t, bp_Rules *r, const char *fn)
{
	t = lua_absindex(L, t);
	if (!lua_istable(L, t))
		luaL_error(L, "%s: rules must be a table (from bp.rules.beta173 or bp.rules.mccpp)", fn);
	int model = BP_MODEL_BETA173;
	if (lbp_raw_field(L, t, "model") != LUA_TNIL) /* read raw, as every rule below */
		model = option_index(L, lbp_model_names, fn, "model");
	lua_pop(L, 1);
	*r = model == BP_MODEL_MCCPP ? bp_rules_mccpp() : bp_rules_beta173();
	/* Errors must not depend on the table's hash order (Lua seeds it per state), so
	 * names are checked first, then values are read in a fixed order. */
	check_rule_names(L, t, model, fn);
	for (size_t i = 0; i < NRULE_OPTIONS; i++) {
		if (lbp_raw_field(L, t, RULE_OPTIONS[i]) != LUA_TNIL)
			set_rule(L, r, RULE_OPTIONS[i], fn);
		lua_pop(L, 1);
	}
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (!(f->models & (1 << model)))
			continue; /* absent: check_rule_names refused it */
		if (lbp_raw_field(L, t, f->name) != LUA_TNIL)
			set_field(L, r, f, fn);
		lua_pop(L, 1);
	}
	r->hook_heading = read_hook(L, t, "heading", fn);
	r->hook_jump = read_hook(L, t, "jump", fn);
}

/* Push a full rules table for r (hooks from the hook table entry at index h, or none). */
static void push_rules_table(lua_State *L, const bp_Rules *r, int h)
{
	lua_newtable(L);
	lua_pushstring(L, lbp_model_names[r->model]);
	lua_setfield(L, -2, "model");
	lua_pushstring(L, RESOLVER_NAMES[r->resolver]);
	lua_setfield(L, -2, "resolver");
	push_push_model(L, r->push);
	lua_setfield(L, -2, "push");
	if (r->model == BP_MODEL_MCCPP) {
		lua_pushstring(L, INTEGRATOR_NAMES[r->integrator]);
		lua_setfield(L, -2, "integrator");
	}
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (!(f->models & (1 << r->model)))
			continue;
		push_field(L, r, f);
		lua_setfield(L, -2, f->name);
	}
	if (h) { /* raw, as lbp_read_rules read the hook flags */
		lbp_raw_field(L, h, "heading");
		lua_setfield(L, -2, "heading");
		lbp_raw_field(L, h, "jump");
		lua_setfield(L, -2, "jump");
	}
	luaL_setmetatable(L, RULES_MT);
}

/***
 * A complete rules table of a preset with overrides (what bp.rules.beta173/mccpp call).
 * Every constant of the model is a named field; the table rejects keys that name no
 * rule of its model (Rules:__newindex). Sources:
 * docs/beta173.md (beta173), MC-CPP's entity physics document (docs/sources.md) (mccpp).
 * @function make_rules
 * @tparam string model "beta173" or "mccpp"
 * @tparam[opt] table overrides named rules (numbers in each field's range, booleans,
 *   `{x, y, z}` vectors, `resolver = "axis"|"swept"`, `push = "beta173"|"separate"|false`,
 *   MC-CPP's `integrator = "exact"|"mccpp"`)
 *   and hooks (`heading`, `jump`: function or nil)
 * @treturn table rules
 * @raise "bp.rules.<model>: ..." naming the problem: "unknown rule 'k' for model m",
 *   "rule 'k' belongs to model m2, not m" (the other model's rules, in field order),
 *   "rule 'k' must be a number in [min, max]", "rule 'k' must be a number/boolean/an
 *   integer/a table of 3 numbers", "rule 'model' must be one of ...", "rule 'model'
 *   cannot change (...)", "hook 'k' must be a function or nil", "rule names must be strings".
 */
int lbp_make_rules(lua_State *L)
{
	const char *model = luaL_checkstring(L, 1);
	lua_settop(L, 2); /* a missing overrides table becomes nil at 2, below fn */
	const char *fn = lua_pushfstring(L, "bp.rules.%s", model);
	int fn_idx = lua_gettop(L);
	if (lua_istable(L, 2)) {
		/* An override 'model' must name this preset: raise as assigning it would,
		 * rather than silently handing back the other model's rules. */
		lua_pushliteral(L, "model");
		if (lua_rawget(L, 2) != LUA_TNIL) {
			bp_Rules preset = bp_rules_beta173();
			lua_pushvalue(L, 1);
			preset.model = option_index(L, lbp_model_names, fn, "model");
			lua_pop(L, 1);
			set_rule(L, &preset, "model", fn);
		}
	}
	lua_settop(L, fn_idx);
	lua_newtable(L); /* the table lbp_read_rules will parse: model + overrides */
	lua_pushvalue(L, 1);
	lua_setfield(L, -2, "model");
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		lua_pushnil(L);
		while (lua_next(L, 2)) {
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_settable(L, -4);
		}
	}
	bp_Rules r;
	lbp_read_rules(L, -1, &r, fn);
	int src = lua_gettop(L);
	push_rules_table(L, &r, src);
	return 1;
}

/***
 * The preset of a model as a complete rules table (no overrides, no hooks). Sources:
 * docs/beta173.md (beta173), MC-CPP's entity physics document (docs/sources.md) (mccpp).
 * @function rules_defaults
 * @tparam string model "beta173" or "mccpp"
 * @treturn table rules
 * @raise "bad argument #1 to 'rules_defaults' (invalid option 'x')".
 */
int lbp_rules_defaults(lua_State *L)
{
	int model = luaL_checkoption(L, 1, NULL, lbp_model_names);
	bp_Rules r = model == BP_MODEL_MCCPP ? bp_rules_mccpp() : bp_rules_beta173();
	push_rules_table(L, &r, 0);
	return 1;
}

/* Whether key k names a rule of the rules table t's model (its raw `model`, beta173
 * when it has none): a field of that model, an option or a hook. */
static int is_rule_of(lua_State *L, int t, int k)
{
	if (lua_type(L, k) != LUA_TSTRING)
		return 0;
	const char *name = lua_tostring(L, k);
	lbp_raw_field(L, t, "model");
	const int model = lua_type(L, -1) == LUA_TSTRING &&
	                  strcmp(lua_tostring(L, -1), lbp_model_names[BP_MODEL_MCCPP]) == 0
	                      ? BP_MODEL_MCCPP
	                      : BP_MODEL_BETA173;
	lua_pop(L, 1);
	if (is_option_name(name, model) || is_hook_name(name))
		return 1;
	const bp_RuleField *f = find_field(name);
	return f && (f->models & (1 << model));
}

/***
 * `__newindex` of rules tables: assigning a key that is not a rule of the table's
 * model raises (typos fail early). Rules are plain fields, also one that was set to
 * nil (a hook is absent until set): their values are checked when the table is used
 * (World:spawn, `e.rules = t`). Source: our own.
 * @function Rules:__newindex
 * @raise "unknown rule 'k'"; "bad argument #1 to '__newindex' (table expected, got T)" when
 *   called directly with another value (Lua names it '__newindex').
 */
static int l_rules_newindex(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE); /* the metatable is open to scripts */
	if (is_rule_of(L, 1, 2)) {
		lua_settop(L, 3);
		lua_rawset(L, 1);
		return 0;
	}
	return luaL_error(L, "unknown rule '%s'", lbp_key_text(L, 2));
}

/* ---------------------------------------------------------------- RulesView */

/* Push a new RulesView of the Entity at stack index ei (its user value). */
void lbp_push_rules_view(lua_State *L, int ei)
{
	lua_newuserdatauv(L, 1, 1);
	lua_pushvalue(L, ei);
	lua_setiuservalue(L, -2, 1);
	luaL_setmetatable(L, RULESVIEW_MT);
}

/* The live entity of the user value (pushed, at *ei) of the RulesView at index 1; its
 * world to *wout when given. Raises "entity.rules: entity has been removed" (or "...:
 * entity belongs to a destroyed world"): the view is not an argument the user passed. */
static bp_Entity *view_entity(lua_State *L, int *ei, bp_World **wout)
{
	luaL_checkudata(L, 1, RULESVIEW_MT); /* the metamethods may be called directly */
	lua_getiuservalue(L, 1, 1);
	*ei = lua_gettop(L);
	bp_Entity *e = NULL;
	bp_World *w = NULL;
	const char *problem = lbp_entity_problem(lua_touserdata(L, *ei), &e, &w);
	if (problem)
		luaL_error(L, "entity.rules: %s", problem);
	if (wout)
		*wout = w;
	return e;
}

/***
 * `e.rules.k`: read one rule of the entity (live: reflects later writes). `model`,
 * `resolver`, `push` (string or false), the hooks `heading`, `jump` (function or nil),
 * or a named constant of the entity's model (units: the rules tables of docs/beta173.md and docs/mccpp.md). A vector rule
 * (`friction`, `drag_*`) returns a new table: assign a whole table to change it.
 * Source: our own.
 * @function RulesView:__index
 * @tparam string k
 * @return the rule's value: number, boolean, string, false (`push`), a new `{x, y, z}`
 *   table (vector rules), a function or nil (hooks)
 * @raise "unknown rule 'k' for model m", "rule 'k' belongs to model m2, not m"; dead
 *   entity errors.
 */
static int l_view_index(lua_State *L)
{
	/* The key first: converting a number key allocates, and a finalizer run then may
	 * spawn and so move the entity pool under e. */
	const char *k = luaL_checkstring(L, 2);
	int ei;
	bp_Entity *e = view_entity(L, &ei, NULL);
	if (strcmp(k, "model") == 0) {
		lua_pushstring(L, lbp_model_names[bp_entity_rules(e)->model]);
	} else if (strcmp(k, "resolver") == 0) {
		lua_pushstring(L, RESOLVER_NAMES[bp_entity_rules(e)->resolver]);
	} else if (strcmp(k, "push") == 0) {
		push_push_model(L, bp_entity_rules(e)->push);
	} else if (strcmp(k, "integrator") == 0 && bp_entity_rules(e)->model == BP_MODEL_MCCPP) {
		lua_pushstring(L, INTEGRATOR_NAMES[bp_entity_rules(e)->integrator]);
	} else if (is_hook_name(k)) {
		lua_getiuservalue(L, ei, 1);
		lbp_push_hooks(L, lua_gettop(L), ((LEntity *)lua_touserdata(L, ei))->id.index1 - 1);
		if (lua_istable(L, -1))
			lua_getfield(L, -1, k);
		else
			lua_pushnil(L);
	} else {
		const bp_RuleField *f = find_field(k);
		if (!f || !(f->models & (1 << bp_entity_rules(e)->model)))
			return unknown_rule(L, NULL, k, bp_entity_rules(e)->model);
		const bp_Rules r = *bp_entity_rules(e); /* a table may be allocated: copy first */
		push_field(L, &r, f);
	}
	return 1;
}

/***
 * `e.rules.k = v`: change one rule of this entity only, validated first (nothing
 * half-written). Allowed inside hooks. Source: our own.
 * @function RulesView:__newindex
 * @tparam string k
 * @param v number in the rule's range, boolean, `{x, y, z}`, resolver/push name, or a
 *   hook function (nil removes it)
 * @raise "entity.rules: unknown rule 'k' for model m", "entity.rules: rule 'k' belongs
 *   to model m2, not m", "entity.rules: rule 'k' must be a number in [min, max]" (and the other forms of make_rules), "entity.rules: rule
 *   'model' cannot change (...)", "entity.rules: hook 'k' must be a function or nil";
 *   dead entity errors.
 */
static int l_view_newindex(lua_State *L)
{
	/* The key first: converting a number key allocates, and a finalizer run then may
	 * spawn and so move the entity pool under e. */
	const char *k = luaL_checkstring(L, 2);
	int ei;
	bp_Entity *e = view_entity(L, &ei, NULL);
	if (is_hook_name(k)) {
		if (!lua_isnil(L, 3) && !lua_isfunction(L, 3))
			return luaL_error(L, "entity.rules: hook '%s' must be a function or nil", k);
		LEntity *le = lua_touserdata(L, ei);
		lua_getiuservalue(L, ei, 1);
		int wi = lua_gettop(L);
		lua_getiuservalue(L, wi, 2);
		lbp_note_hooks_undo(L, wi, -1, le->id.index1 - 1);
		lua_pop(L, 1);
		lbp_push_hooks(L, wi, le->id.index1 - 1);
		if (!lua_istable(L, -1))
			return luaL_error(L, "internal error: missing hook table");
		lua_pushvalue(L, 3);
		lua_setfield(L, -2, k);
		/* The calls above may allocate and so run finalizers that spawn (the pool
		 * moves): find the entity again. */
		e = view_entity(L, &ei, NULL);
		bp_entity_touch(lbp_world_of(L, wi), e); /* a hooked entity never sleeps */
		if (k[0] == 'h')
			bp_entity_set_hook(e, 0, lua_isfunction(L, 3));
		else
			bp_entity_set_hook(e, 1, lua_isfunction(L, 3));
		return 0;
	}
	if (lua_type(L, 3) == LUA_TTABLE) {
		/* A vector's metamethods may change this entity's rules (a hook, say): run
		 * them now, reading a plain copy, before the rules are copied below. */
		lua_createtable(L, 3, 0);
		for (int i = 1; i <= 3; i++) {
			lua_geti(L, 3, i);
			lua_rawseti(L, -2, i);
		}
		lua_replace(L, 3);
		e = view_entity(L, &ei, NULL);
	}
	bp_Rules r = *bp_entity_rules(e); /* validate on a copy: nothing half-written */
	lua_pushvalue(L, 3);
	if (!set_rule(L, &r, k, "entity.rules"))
		return unknown_rule(L, "entity.rules", k, r.model);
	bp_World *w;
	e = view_entity(L, &ei, &w);
	bp_entity_touch(w, e); /* it and the sleepers near it wake */
	bp_entity_set_rules(w, e, &r);
	return 0;
}

/***
 * A rules table (what bp.rules.beta173/mccpp return) copied from an entity's live view,
 * or from a rules table (a plain table is read as overrides of the preset its `model`
 * names, as `e.rules = t` reads it); includes the hooks (bp.rules.copy). Also what
 * `pairs(e.rules)` iterates and what `e2.rules = e1.rules` assigns. Source: our own.
 * @function rules_copy
 * @tparam RulesView|table rules `e.rules`, or a rules table
 * @treturn table rules
 * @raise "bp.rules.copy: bad argument #1 (e.rules or a rules table expected, got T)";
 *   "bp.rules.copy: ..." as bp.rules.beta173 for a table's bad rules; "entity.rules:
 *   entity has been removed" (or "...: entity belongs to a destroyed world").
 */
int lbp_rules_copy(lua_State *L)
{
	if (lua_type(L, 1) == LUA_TTABLE) {
		bp_Rules r;
		lbp_read_rules(L, 1, &r, "bp.rules.copy");
		push_rules_table(L, &r, 1);
		return 1;
	}
	if (!luaL_testudata(L, 1, RULESVIEW_MT))
		return luaL_error(L, "bp.rules.copy: bad argument #1 (e.rules or a rules table "
		                     "expected, got %s)", luaL_typename(L, 1));
	int ei;
	const bp_Rules r = *bp_entity_rules(view_entity(L, &ei, NULL)); /* copied before any allocation
	                                                      * (finalizers) */
	LEntity *le = lua_touserdata(L, ei);
	lua_getiuservalue(L, ei, 1);
	lbp_push_hooks(L, lua_gettop(L), le->id.index1 - 1);
	int h = lua_istable(L, -1) ? lua_gettop(L) : 0;
	push_rules_table(L, &r, h);
	return 1;
}

/* Replace a RulesView at stack index i by a rules table copied from its entity (so
 * that `e2.rules = e1.rules` copies); any other value is left as it is. */
void lbp_view_to_table(lua_State *L, int i)
{
	if (!luaL_testudata(L, i, RULESVIEW_MT))
		return;
	lua_pushcfunction(L, lbp_rules_copy);
	lua_pushvalue(L, i);
	lua_call(L, 1, 1);
	lua_replace(L, i);
}

/***
 * `pairs(e.rules)`: iterates a snapshot copy (rules_copy), not the live view. Source:
 * our own.
 * @function RulesView:__pairs
 * @treturn function next
 * @treturn table the copy (a rules table, as bp.rules.copy(e.rules) returns)
 * @treturn nil the first key
 * @raise "entity.rules: entity has been removed" (or its world destroyed).
 */
static int l_view_pairs(lua_State *L)
{
	lbp_rules_copy(L);
	lua_getglobal(L, "next");
	lua_insert(L, -2);
	lua_pushnil(L);
	return 3;
}

/***
 * `tostring(e.rules)`: "blockphys.RulesView". Source: our own.
 * @function RulesView:__tostring
 */
static int l_view_tostring(lua_State *L)
{
	lua_pushliteral(L, "blockphys.RulesView");
	return 1;
}

static const luaL_Reg rulesview_meta[] = {
	{"__index", l_view_index}, {"__newindex", l_view_newindex},
	{"__pairs", l_view_pairs}, {"__tostring", l_view_tostring}, {NULL, NULL}};

static const luaL_Reg rules_meta[] = {{"__newindex", l_rules_newindex}, {NULL, NULL}};

/* Register the RulesView and Rules metatables. */
void lbp_open_rules(lua_State *L)
{
	lbp_create_meta(L, RULESVIEW_MT, rulesview_meta, NULL);
	lbp_create_meta(L, RULES_MT, rules_meta, NULL);
	lua_newtable(L);
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		lua_pushinteger(L, (lua_Integer)(f - bp_rule_fields) + 1);
		lua_setfield(L, -2, f->name);
	}
	lua_setfield(L, LUA_REGISTRYINDEX, FIELD_INDEX);
}
