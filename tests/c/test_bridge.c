/* SPDX-License-Identifier: MIT
 * test_bridge.c - <blockphys/lua.h>: a world the C host owns, handed to Lua scripts
 * that define blocks, spawn and tune rules (their changes seen from C), entities
 * passed both ways, C-side spawns and removals made visible to Lua, a step from C that
 * runs Lua hooks, and a world the host destroys (Lua's next call raises). Links the
 * module's own objects and Lua 5.4; run from the top directory (the Lua layer is
 * found in ./lua).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <lauxlib.h>
#include <lualib.h>

#include <blockphys/blockphys.h>
#include <blockphys/lua.h>

static void *plain_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud, (void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

typedef struct Fixture {
	lua_State *L;
	bp_World *w;
} Fixture;

static int setup(void **state)
{
	Fixture *f = calloc(1, sizeof *f);
	f->L = luaL_newstate();
	luaL_openlibs(f->L);
	bp_lua_preload(f->L);
	if (luaL_dostring(f->L, "package.path = './lua/?.lua;./lua/?/init.lua;' .. package.path\n"
	                        "bp = require 'blockphys'"))
		return -1;
	f->w = bp_world_create(plain_alloc, NULL);
	*state = f;
	return f->w ? 0 : -1;
}

static int teardown(void **state)
{
	Fixture *f = *state;
	if (f->w) {
		bp_lua_release_world(f->L, f->w);
		bp_world_destroy(f->w);
	}
	lua_close(f->L);
	free(f);
	return 0;
}

/* Run `code` as a function of the values pushed (nargs), leaving nret results;
 * fails the test with Lua's message on error. */
static void run(lua_State *L, const char *code, int nargs, int nret)
{
	if (luaL_loadstring(L, code))
		fail_msg("load: %s", lua_tostring(L, -1));
	lua_insert(L, -1 - nargs);
	if (lua_pcall(L, nargs, nret, 0))
		fail_msg("%s", lua_tostring(L, -1));
}

/* Run `code` expecting an error whose message contains `want`. */
static void run_fails(lua_State *L, const char *code, int nargs, const char *want)
{
	if (luaL_loadstring(L, code))
		fail_msg("load: %s", lua_tostring(L, -1));
	lua_insert(L, -1 - nargs);
	if (lua_pcall(L, nargs, 0, 0) == LUA_OK)
		fail_msg("no error from: %s", code);
	const char *msg = lua_tostring(L, -1);
	if (!msg || !strstr(msg, want))
		fail_msg("error \"%s\" lacks \"%s\"", msg ? msg : "?", want);
	lua_pop(L, 1);
}

static void test_push_check_world(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_lua_push_world(L, f->w);
	bp_lua_push_world(L, f->w);
	assert_true(lua_rawequal(L, -1, -2)); /* the same userdata every time */
	assert_ptr_equal(bp_lua_check_world(L, -1), f->w);
	run(L, "local w = ... return tostring(w), getmetatable(w)", 1, 2);
	assert_string_equal(lua_tostring(L, -1), "blockphys.World");
	assert_non_null(strstr(lua_tostring(L, -2), "blockphys.World (0 entities"));
	lua_pop(L, 3);
	/* a Lua-made world: its own pointer, and pushing it back gives Lua's userdata */
	run(L, "return bp.World()", 0, 1);
	bp_World *lw = bp_lua_check_world(L, -1);
	assert_non_null(lw);
	assert_ptr_not_equal(lw, f->w);
	bp_lua_push_world(L, lw);
	assert_true(lua_rawequal(L, -1, -2));
	lua_pop(L, 2);
}

static int check_world_at_1(lua_State *L)
{
	bp_lua_check_world(L, 1);
	return 0;
}

static int check_entity_at_1(lua_State *L)
{
	bp_lua_check_entity(L, 1, NULL);
	return 0;
}

static void test_check_entity_errors(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	lua_pushcfunction(L, check_entity_at_1);
	run_fails(L, "local c = ... c(bp.World())", 1, "blockphys.Entity expected");
	lua_pushcfunction(L, check_entity_at_1);
	run_fails(L, "local c = ... local w = bp.World() local e = w:spawn{ x = 0, y = 0, z = 0 }\n"
	             "w:remove(e) c(e)", 1, "entity has been removed");
	lua_pushcfunction(L, check_entity_at_1);
	run_fails(L, "local c = ... local w = bp.World() local e = w:spawn{ x = 0, y = 0, z = 0 }\n"
	             "w:destroy() c(e)", 1, "entity belongs to a destroyed world");
}

static int push_null_world(lua_State *L)
{
	bp_lua_push_world(L, NULL);
	return 1;
}

static void test_check_world_errors(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	lua_pushcfunction(L, push_null_world);
	run_fails(L, "local c = ... c()", 1, "bp_lua_push_world: no world (NULL)");
	lua_pushcfunction(L, check_world_at_1);
	run_fails(L, "local c = ... c(7)", 1, "blockphys.World expected");
	lua_pushcfunction(L, check_world_at_1);
	run_fails(L, "local c = ... local w = bp.World() w:destroy() c(w)", 1,
	          "world has been destroyed");
}

static void test_script_defines_spawns_tunes(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_lua_push_world(L, f->w);
	run(L,
	    "local w = ...\n"
	    "w:define_block{ name = 'stone' }\n"
	    "w:fill(-4, -1, -4, 3, 0, 3, 'stone')\n"
	    "local e = w:spawn{ x = 0.5, y = 3, z = 0.5,\n"
	    "                   rules = bp.rules.beta173{ jump_impulse = 0.6 } }\n"
	    "e.rules.gravity = 0.1\n"
	    "return e",
	    1, 1);
	/* the script's changes, seen from C */
	assert_int_equal(bp_world_find_type(f->w, "stone"), 1);
	assert_int_equal(bp_world_get_block(f->w, 3, 0, -4), 1);
	bp_World *ew = NULL;
	const bp_EntityId id = bp_lua_check_entity(L, -1, &ew);
	assert_ptr_equal(ew, f->w);
	bp_Rules rules;
	assert_int_equal(bp_entity_get_rules(f->w, id, &rules), BP_OK);
	assert_true(rules.jump_impulse == 0.6);
	assert_true(rules.gravity == 0.1);
	/* C steps; Lua reads the result through its own Entity */
	for (int t = 0; t < 30; t++)
		assert_int_equal(bp_world_step(f->w, 0.05), BP_OK);
	run(L, "local e = ... return e.y, e.on_ground", 1, 2);
	assert_true(lua_tonumber(L, -2) == 1.0);
	assert_true(lua_toboolean(L, -1));
	lua_pop(L, 2);
	/* the C handle pushed back is the script's own Entity */
	bp_lua_push_world(L, f->w);
	run(L, "local w, e0 = ... return w:entities()[1]", 1, 1);
	assert_int_equal(bp_lua_push_entity(L, f->w, id), 1);
	assert_true(lua_rawequal(L, -1, -2));
	lua_pop(L, 2);
}

static void test_c_spawns_and_removes(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_lua_push_world(L, f->w); /* known to Lua before the C spawns */
	lua_pop(L, 1);
	bp_EntityDef def = bp_default_entity_def();
	bp_EntityId ids[3];
	for (int i = 0; i < 3; i++) {
		def.x = i * 2 + 0.5;
		assert_int_equal(bp_world_spawn(f->w, &def, &ids[i]), BP_OK);
	}
	bp_lua_sync_world(L, f->w);
	bp_lua_push_world(L, f->w);
	run(L, "local w = ... local es = w:entities() return #es, es[2].x", 1, 2);
	assert_int_equal(lua_tointeger(L, -2), 3);
	assert_true(lua_tonumber(L, -1) == 2.5);
	lua_pop(L, 2);
	/* a C entity handed to Lua, then removed in C: Lua's copy goes stale */
	assert_int_equal(bp_lua_push_entity(L, f->w, ids[1]), 1);
	lua_setglobal(L, "kept");
	assert_int_equal(bp_world_remove(f->w, ids[1]), BP_OK);
	assert_int_equal(bp_lua_push_entity(L, f->w, ids[1]), 0);
	assert_true(lua_isnil(L, -1));
	lua_pop(L, 1);
	bp_EntityId reuse;
	assert_int_equal(bp_world_spawn(f->w, &def, &reuse), BP_OK);
	assert_int_equal(reuse.index1, ids[1].index1); /* the same slot, reused */
	bp_lua_sync_world(L, f->w);
	run(L, "return kept:valid()", 0, 1);
	assert_false(lua_toboolean(L, -1));
	lua_pop(L, 1);
	run_fails(L, "return kept.x", 0, "entity has been removed");
	bp_lua_push_world(L, f->w);
	run(L, "local w = ... return #w:entities(), w:entities()[3].x", 1, 2);
	assert_int_equal(lua_tointeger(L, -2), 3);
	assert_true(lua_tonumber(L, -1) == 4.5); /* the reused slot's new entity */
	lua_pop(L, 2);
	/* and removed from Lua: C sees it gone */
	bp_lua_push_world(L, f->w);
	run(L, "local w = ... w:remove(w:entities()[1])", 1, 0);
	assert_false(bp_entity_is_valid(f->w, ids[0]));
}

static void test_lua_cannot_free_host_world(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_lua_push_world(L, f->w);
	run_fails(L, "local w = ... w:destroy()", 1, "belongs to the C host");
	run(L, "collectgarbage() collectgarbage()", 0, 0);
	/* still whole, and still the same World for Lua */
	assert_int_equal(bp_world_stats(f->w).block_types, 1);
	bp_lua_push_world(L, f->w);
	run(L, "local w = ... return w:define_block{ name = 'dirt' }", 1, 1);
	assert_int_equal(lua_tointeger(L, -1), 1);
	lua_pop(L, 1);
}

static void test_host_destroys(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_lua_push_world(L, f->w);
	lua_setglobal(L, "world");
	run(L, "ent = world:spawn{ x = 0.5, y = 0, z = 0.5 }", 0, 0);
	assert_int_equal(bp_lua_release_world(L, f->w), 1);
	assert_int_equal(bp_lua_release_world(L, f->w), 0); /* known no more */
	bp_world_destroy(f->w);
	f->w = NULL;
	run_fails(L, "world:spawn{ x = 0, y = 0, z = 0 }", 0, "world has been destroyed");
	run_fails(L, "return world:get_block(0, 0, 0)", 0, "world has been destroyed");
	run_fails(L, "return ent.x", 0, "entity belongs to a destroyed world");
	run(L, "return tostring(world), ent:valid()", 0, 2);
	assert_string_equal(lua_tostring(L, -2), "blockphys.World (destroyed)");
	assert_false(lua_toboolean(L, -1));
	lua_pop(L, 2);
}

static void test_step_runs_lua_hooks(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_lua_push_world(L, f->w);
	run(L,
	    "local w = ...\n"
	    "calls = 0\n"
	    "local e = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.beta173{\n"
	    "  heading = function(e, strafe, forward, k) calls = calls + 1 return 0.25, 0 end } }\n"
	    "e.forward = 1",
	    1, 0);
	assert_int_equal(bp_lua_step(L, f->w, 0.05), LUA_OK);
	lua_getglobal(L, "calls");
	assert_int_equal(lua_tointeger(L, -1), 1);
	lua_pop(L, 1);
	bp_EntityId first;
	uint32_t n;
	assert_int_equal(bp_world_get_entities(f->w, &first, 1, &n), BP_OK);
	bp_AABB box;
	assert_int_equal(bp_entity_get_box(f->w, first, &box), BP_OK);
	assert_true(box.lo[0] > 0.5 - 0.3 + 0.2); /* pushed +X by the hook's 0.25 */
	/* a hook that raises: the step fails, changes nothing, and says why */
	double before[3];
	assert_int_equal(bp_entity_get_position(f->w, first, before), BP_OK);
	bp_lua_push_world(L, f->w);
	run(L, "local w = ... w:entities()[1].rules.heading = function() error('no heading') end",
	    1, 0);
	assert_int_not_equal(bp_lua_step(L, f->w, 0.05), LUA_OK);
	assert_non_null(strstr(lua_tostring(L, -1), "no heading"));
	lua_pop(L, 1);
	double after[3];
	assert_int_equal(bp_entity_get_position(f->w, first, after), BP_OK);
	assert_memory_equal(before, after, sizeof before);
}

static int read_rules(lua_State *L)
{
	bp_lua_check_rules(L, 1, lua_touserdata(L, lua_upvalueindex(1)), "host");
	return 0;
}

static void test_check_rules(void **state)
{
	Fixture *f = *state;
	lua_State *L = f->L;
	bp_Rules r;
	memset(&r, 0, sizeof r);
	lua_pushlightuserdata(L, &r);
	lua_pushcclosure(L, read_rules, 1);
	run(L, "local read = ... read(bp.rules.mccpp{ gravity = 20 })", 1, 0);
	assert_int_equal(r.model, BP_MODEL_MCCPP);
	assert_true(r.gravity == 20);
	lua_pushlightuserdata(L, &r);
	lua_pushcclosure(L, read_rules, 1);
	run_fails(L, "local read = ... read(bp.rules.beta173{ jump = function() end })", 1,
	          "host: heading and jump hooks are Lua functions");
	lua_pushlightuserdata(L, &r);
	lua_pushcclosure(L, read_rules, 1);
	run_fails(L, "local read = ... read{ model = 'beta173', gravity = 'x' }", 1, "host: ");
	lua_pushlightuserdata(L, &r);
	lua_pushcclosure(L, read_rules, 1);
	run_fails(L, "local read = ... read(42)", 1, "table expected");
	assert_true(r.gravity == 20); /* unchanged by the failures */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_push_check_world, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_world_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_entity_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_script_defines_spawns_tunes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_c_spawns_and_removes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lua_cannot_free_host_world, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_destroys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_step_runs_lua_hooks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_rules, setup, teardown),
	};
	return cmocka_run_group_tests_name("blockphys Lua bridge", tests, NULL, NULL);
}
