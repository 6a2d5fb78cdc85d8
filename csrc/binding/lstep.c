/* SPDX-License-Identifier: MIT
 * lstep.c - the calls that run Lua code under the world's lock, as transactions:
 * world:step (rules hooks and entity filters) and e:move / e:move_swept (entity
 * filters). The core calls the hooks and filters below through bp_Hooks, each under
 * lua_pcall; when one fails, the call puts back what it changed (the entities from the
 * core's snapshot, hook tables from lhooks.c's journal) and raises the failure's
 * message from its own frame.
 */

/***
 * Stepping and moving.
 * @module blockphys.core
 */
#include <math.h>
#include <string.h>

#include "bp_world.h" /* the layouts: an allowed file (tools/check_structure.lua) */
#include "lbp.h"

/* ----------------------------------- hooks and filters called from the core */

typedef struct StepCtx {
	lua_State *L;
	int wi;      /* stack index of the World userdata */
	int failed;  /* a hook raised: its message is on the stack top */
	const char *fn; /* for messages: "world:step", "move", "move_swept" */
} StepCtx;

/* What failed, for l_fail_message. */
typedef struct FailMsg {
	const char *fn;   /* "world:step", "move", "move_swept" */
	const char *what; /* "rules hook 'jump'", "filter", ...; NULL: a heading hook's results */
	int entity;       /* slot + 1 */
} FailMsg;

/* The message for a failed hook or filter. Stack: 1 FailMsg (light userdata), 2 the
 * error value. */
static int l_fail_message(lua_State *L)
{
	const FailMsg *f = lua_touserdata(L, 1);
	if (!f->what)
		lua_pushfstring(L, "%s: rules hook 'heading' of entity %d must return two finite "
		                   "numbers (dvx, dvz)", f->fn, f->entity);
	else { /* the error text as it is: %s would stop at a NUL byte in it */
		lbp_error_text(L, 2);
		lua_pushfstring(L, "%s: %s of entity %d failed: ", f->fn, f->what, f->entity);
		lua_rotate(L, -2, 1);
		lua_concat(L, 2);
	}
	return 1;
}

/* Mark the step or move failed, replacing the error value on the stack top by its
 * message. Built under pcall, as is all the binding's work while the world is locked:
 * an allocation failure then leaves Lua's preallocated "not enough memory" as the error
 * instead of escaping with the world locked and half-stepped. */
static int fail(StepCtx *c, const char *what, uint32_t index)
{
	lua_State *L = c->L;
	FailMsg f = {c->fn, what, (int)index + 1};
	lua_pushcfunction(L, l_fail_message);
	lua_insert(L, -2);
	lua_pushlightuserdata(L, &f);
	lua_insert(L, -2);
	lua_pcall(L, 2, 1, 0); /* on failure its error is the message */
	c->failed = 1;
	return 1;
}

/* Call hook `name` of slot index with nargs arguments already pushed above the
 * function slot. Leaves nres results on success; on error leaves the message. */
static int call_hook(StepCtx *c, uint32_t index, const char *what, int nargs, int nres)
{
	if (lua_pcall(c->L, nargs + 1, nres, 0) != LUA_OK)
		return fail(c, what, index);
	return 0;
}

/* Push hook function `name` of slot index and its entity argument. */
static void push_hook_call(StepCtx *c, uint32_t index, const char *name)
{
	lua_State *L = c->L;
	lbp_push_hooks(L, c->wi, index);
	lua_getfield(L, -1, name);
	lua_remove(L, -2);
	lbp_push_entity(L, c->wi, index);
}

static int hook_heading(void *ctx, bp_World *w, uint32_t index, double strafe,
                        double forward, double k, double dv[2])
{
	(void)w;
	StepCtx *c = ctx;
	lua_State *L = c->L;
	push_hook_call(c, index, "heading");
	lua_pushnumber(L, strafe);
	lua_pushnumber(L, forward);
	lua_pushnumber(L, k);
	if (call_hook(c, index, "rules hook 'heading'", 3, 2))
		return 1;
	for (int i = 0; i < 2; i++) {
		int ok;
		dv[i] = lua_tonumberx(L, -2 + i, &ok);
		if (!ok || !isfinite(dv[i])) {
			lua_pop(L, 1); /* the other result stands for the error value */
			return fail(c, NULL, index);
		}
	}
	lua_pop(L, 2);
	return 0;
}

static int hook_jump(void *ctx, bp_World *w, uint32_t index)
{
	(void)w;
	StepCtx *c = ctx;
	push_hook_call(c, index, "jump");
	return call_hook(c, index, "rules hook 'jump'", 0, 0);
}

/* The entity filter of slot `self`: filter(self, other) -> truthy to interact. */
static int hook_filter(void *ctx, bp_World *w, uint32_t self, uint32_t other, int *allow)
{
	(void)w;
	StepCtx *c = ctx;
	lua_State *L = c->L;
	lbp_push_hooks(L, c->wi, self);
	lua_getfield(L, -1, "filter");
	lua_remove(L, -2);
	lbp_push_entity(L, c->wi, self);
	lbp_push_entity(L, c->wi, other);
	if (lua_pcall(L, 2, 1, 0) != LUA_OK)
		return fail(c, "filter", self);
	*allow = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return 0;
}

/* ------------------------------------------------------------------ undoing */

/* The hook flags of slot index from its Lua hook table (world at wi): a hook that
 * failed may have set or cleared hooks after the snapshot that is copied back. */
static void sync_hook_flags(lua_State *L, int wi, bp_World *w, uint32_t index)
{
	bp_Entity *e = bp_world_slot_entity(w, index);
	lbp_push_hooks(L, wi, index);
	if (!lua_istable(L, -1)) {
		lua_pop(L, 1);
		return;
	}
	e->rules.hook_heading = lua_getfield(L, -1, "heading") == LUA_TFUNCTION;
	e->rules.hook_jump = lua_getfield(L, -2, "jump") == LUA_TFUNCTION;
	e->has_filter = lua_getfield(L, -3, "filter") == LUA_TFUNCTION;
	lua_pop(L, 4);
}

/* After a snapshot is copied back: the grid and the solid count follow the boxes,
 * the hook flags follow the hook tables. */
static void restored(lua_State *L, int wi, bp_World *w)
{
	bp_world_entities_restored(w);
	for (uint32_t i = 0; i < bp_world_entity_count(w); i++)
		sync_hook_flags(L, wi, w, bp_world_entity_slot(w, i));
}

/* ------------------------------------------------------------------- e:move */

/* Run a resolver for e:move with the entity filters reachable, the world on the stack
 * top as the filters' context. The world is locked meanwhile so that a filter cannot spawn or
 * remove under the resolver. Called while locked (a hook or a filter calling e:move),
 * it keeps the lock and puts its own filter context in place for the move: the outer
 * one names stack slots of another C call. On a filter failure in this move it returns
 * BP_EHOOK and the message is on the stack top. */
static bp_Status move_filtered(lua_State *L, bp_World *w, uint32_t index, int swept,
                               const double d[3], double out[3])
{
	StepCtx c = {L, lua_gettop(L), 0, swept ? "move_swept" : "move"};
	bp_Hooks hooks = {&c, NULL, NULL, hook_filter};
	return bp_world_move_entity(w, index, swept, swept ? LOCK_MOVE_SWEPT : LOCK_MOVE, &hooks,
	                            d, out);
}

/* e:move (swept 0) and e:move_swept: the move, undone with the hook changes of its
 * filters when one of them fails. */
static int do_move(lua_State *L, int swept)
{
	bp_World *w;
	lbp_check_entity_w(L, 1, &w);
	double d[3], out[3];
	for (int a = 0; a < 3; a++) {
		d[a] = lbp_check_finite(L, 2 + a);
		if (fabs(d[a]) > BP_MAX_MOVE)
			luaL_argerror(L, 2 + a, "displacement too large (at most 1024 blocks per axis)");
	}
	lbp_nest_check(L, swept ? "move_swept" : "move"); /* before anything changes */
	uint32_t index = ((LEntity *)lua_touserdata(L, 1))->id.index1 - 1;
	bp_EntityState saved;
	bp_world_entity_save(w, index, &saved);
	const int locked = bp_world_lock(w);
	/* The world (the filters' context); a failing filter then leaves its message. */
	lua_getiuservalue(L, 1, 1);
	const int base = lua_gettop(L);
	if (!locked) { /* a filter's hook changes can be undone (inside a step: the step's) */
		lbp_forget_caught(L, base);
		lbp_start_undo(L, base, 1);
	}
	lbp_nest(1); /* the filters run under pcall: nothing raises through the move */
	bp_Status st = move_filtered(L, w, index, swept, d, out);
	lbp_nest(-1);
	if (st == BP_EHOOK) { /* a filter failed in this move (not in an earlier one) */
		const int caught = lua_gettop(L) == base; /* a filter caught a nested move's error */
		bp_world_entity_restore(w, index, &saved); /* undo the move, its input included */
		if (!locked) {
			lbp_undo_hooks(L, base, index + 1);
			restored(L, base, w);
		} else { /* inside a step or move, which fails too (and undoes the hooks) */
			sync_hook_flags(L, base, w, index);
			bp_broadphase_moved(w, index);
		}
		if (caught)
			lbp_push_caught(L, base, swept ? "move_swept: a filter failed inside a filter "
			                                 "that caught its error"
			                               : "move: a filter failed inside a filter that "
			                                 "caught its error");
		else if (locked) /* raised to a filter or hook, which may catch it */
			lbp_note_caught(L, base);
		lbp_free_detached(L, lua_touserdata(L, base), w);
		return lua_error(L);
	}
	if (!locked)
		lbp_undo_hooks(L, base, 0);
	lbp_free_detached(L, lua_touserdata(L, base), w);
	if (st != BP_OK)
		lbp_raise_status(L, st);
	for (int a = 0; a < 3; a++)
		lua_pushnumber(L, out[a]);
	return 3;
}

/***
 * Run the per-axis resolver alone, no rules: sneak edge guard, clip Y then X then Z,
 * step-up, flags, fall distance, velocity zeroing on blocked axes. Entity filters apply;
 * the world is locked meanwhile. Allowed inside a hook (in the step's lock). Source:
 * docs/beta173.md section 3 (Beta moveEntity).
 * @function Entity:move
 * @tparam number dx displacement (blocks, finite,
 * @tparam number dy displacement (blocks, finite,
 * @tparam number dz displacement (blocks, finite,
 *   |d| <= limits.max_move = 1024 per axis)
 * @treturn number dx, dy, dz the actual displacement
 * @raise "bad argument #n to 'move' (displacement too large (at most 1024 blocks per
 *   axis))", "(number must be finite)"; "move: filter of entity N failed: msg" (the
 *   entity is restored; inside world:step the step aborts); "move: a filter failed
 *   inside a filter that caught its error (the first: msg)"; "move: too many nested
 *   calls (world:step, e:move and e:move_swept called from hooks and filters: at most
 *   100 deep)"; "not enough memory".
 */
int lbp_entity_move(lua_State *L) { return do_move(L, 0); }

/***
 * Run the swept resolver alone (as Entity:move otherwise): up to rules.passes earliest-
 * hit passes with back_off, step assist, per-axis fallback. Source:
 * MC-CPP's entity physics and collider documents (docs/sources.md); decisions in
 * docs/mccpp.md, "The swept resolver".
 * @function Entity:move_swept
 * @tparam number dx displacement (blocks, finite,
 * @tparam number dy displacement (blocks, finite,
 * @tparam number dz displacement (blocks, finite,
 *   |d| <= 1024 per axis)
 * @treturn number dx, dy, dz the actual displacement
 * @raise as Entity:move, with "move_swept" in the messages.
 */
int lbp_entity_move_swept(lua_State *L) { return do_move(L, 1); }

/* --------------------------------------------------------------- world:step */

/***
 * Advance every entity, in creation order, by one tick (Beta rules) or dt seconds
 * (MC-CPP rules): rules (input, jump, movement branch) -> resolver -> Beta push, then
 * the separation push; then every entity is stable. The world is locked meanwhile.
 * The low-level call: a game loop calls World:advance, which runs whole ticks of
 * 1 / world.tick_rate seconds.
 * Sources: docs/beta173.md sections 0-2, 5, 6, 8 (beta173); MC-CPP's entity physics
 * document (mccpp) and the N64 quick-collisions article (separate), both in
 * docs/sources.md.
 * @function World:step
 * @tparam[opt=0.05] number dt seconds, in [1e-06, 1] (limits.min_dt, max_dt; used
 *   by per-second rules only: a Beta entity moves one tick per call whatever dt)
 * @raise "bad argument #1 to 'step' (dt must be positive)", "(dt must be in [1e-06,
 *   1] seconds)" (a dt given in milliseconds) or "(number must be finite)"; "world:step: already stepping (called from a rules hook or filter)";
 *   "world:step: cannot step inside e:move (from an entity filter)" (or e:move_swept);
 *   "world:step: too many nested calls (...: at most 100 deep)" (another world's step
 *   from a hook or filter, 100 levels down); "world:step:
 *   entity N would move X blocks in one step (at most 1024 per axis)" (checked before
 *   anything moves); "world:step: rules hook 'k' of entity N failed: msg", "world:step:
 *   rules hook 'heading' of entity N must return two finite numbers (dvx, dvz)",
 *   "world:step: filter of entity N failed: msg", "world:step: rules hook 'heading' of
 *   entity N would move it X blocks in one tick (at most 1024 per axis)", "world:step:
 *   a filter failed inside a rules hook or filter that caught its error (the first:
 *   msg)": then every entity is restored to its state before the step, with the hooks
 *   and filters that Lua code changed in it (N = the entity's slot + 1).
 */
/* The step of dt seconds (checked by the caller) of the World at stack index 1, named
 * fn in messages ("world:step", "world:advance"): world:step's transaction. Other
 * stack slots are dropped. Returns 0 or raises. */
static int step(lua_State *L, double dt, const char *fn)
{
	bp_World *w = lbp_world_of(L, 1);
	if (bp_world_lock(w) == 1)
		return luaL_error(L, "%s: already stepping (called from a rules hook or filter)", fn);
	if (bp_world_lock(w)) /* no step runs: a filter of e:move or e:move_swept called step */
		return luaL_error(L, "%s: cannot step inside %s", fn, lbp_lock_holder(w));
	lbp_nest_check(L, fn); /* another world's, from a hook or filter */
	lua_settop(L, 1);
	lbp_forget_caught(L, 1);
	StepCtx c = {L, 1, 0, fn};
	bp_Hooks hooks = {&c, hook_heading, hook_jump, hook_filter};
	void *snap = NULL;
	/* The snapshot (the entities, then their inputs: a hook may change both) is
	 * allocated where finalizers may run and change the world: allocate until its size
	 * holds, and check the world only after. */
	while (bp_world_any_hooks(w)) {
		const size_t snap_bytes = bp_world_snapshot_size(w);
		snap = lua_newuserdatauv(L, snap_bytes ? snap_bytes : 1, 0);
		w = lbp_world_of(L, 1);
		if (snap_bytes == bp_world_snapshot_size(w))
			break;
		lua_pop(L, 1);
		snap = NULL;
	}
	uint32_t fastest;
	double m = bp_world_max_displacement(w, dt, &fastest);
	if (m > BP_MAX_MOVE)
		return luaL_error(L, "%s: entity %d would move %s blocks in one step "
		                     "(at most 1024 per axis)", fn, (int)fastest + 1,
		                  lbp_num_text_digits(m, 17).s);
	lbp_start_undo(L, 1, snap != NULL); /* with a snapshot, hook changes can be undone */
	if (snap)
		bp_world_snapshot_save(w, snap);
	int base = lua_gettop(L);
	lbp_nest(1); /* the hooks and filters run under pcall: nothing raises through it */
	const int failed = bp_world_step_hooks(w, dt, &hooks);
	lbp_nest(-1);
	if (failed) {
		/* Restore first: building a message may raise (out of memory). */
		const int caught = lua_gettop(L) == base; /* a hook caught its e:move's error */
		if (snap) {
			bp_world_snapshot_restore(w, snap);
			lbp_undo_hooks(L, 1, -1);
			restored(L, 1, w);
		}
		double over_by = 0;
		const uint32_t over = bp_world_step_over_limit(w, &over_by);
		if (over) {
			lua_settop(L, base);
			lua_pushfstring(L, "%s: rules hook 'heading' of entity %d would move it "
			                   "%s blocks in one tick (at most 1024 per axis)",
			                fn, (int)over, lbp_num_text_digits(over_by, 17).s);
		} else if (caught) {
			lua_pushfstring(L, "%s: a filter failed inside a rules hook or filter that "
			                   "caught its error", fn);
			lbp_push_caught(L, 1, lua_tostring(L, -1));
			lua_remove(L, -2);
		}
		lbp_free_detached(L, lua_touserdata(L, 1), w);
		return lua_error(L);
	}
	if (snap)
		lbp_undo_hooks(L, 1, 0);
	lbp_free_detached(L, lua_touserdata(L, 1), w);
	return 0;
}

/* step as a Lua C function: (world, dt, name), for world:advance's ticks. */
int lbp_step(lua_State *L)
{
	const double dt = lua_tonumber(L, 2);
	const char *fn = lua_tostring(L, 3); /* a literal of world:advance's: kept alive */
	return step(L, dt, fn);
}

static int l_world_step(lua_State *L)
{
	lbp_world_of(L, 1);
	double dt = lbp_opt_finite(L, 2, 0.05);
	if (!(dt > 0))
		return luaL_argerror(L, 2, "dt must be positive");
	/* Bounds that keep every per-second product finite (velocity x dt, d / dt), and a
	 * step's work bounded: a dt in milliseconds (world:step(50)) is refused. */
	if (!(dt >= MIN_DT && dt <= MAX_DT))
		return luaL_argerror(L, 2, "dt must be in [1e-06, 1] seconds");
	return step(L, dt, "world:step");
}

/* World methods of this file (added to World's in luaopen_blockphys_core). */
const luaL_Reg lbp_step_world_methods[] = {
	{"step", l_world_step}, {NULL, NULL}};
