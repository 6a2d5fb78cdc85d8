/* SPDX-License-Identifier: MIT
 * examples/c_host/main.c - a C program that owns a blockphys world and lets a Lua
 * script (rules.lua) define its blocks and tune its rules: the host makes the world,
 * hands it to Lua (<blockphys/lua.h>), spawns 10,000 entities and steps them in C, and
 * prints a digest of where they end. spec/c_host_spec.lua runs the same scene from
 * Lua and expects the same digest.
 *
 * Build from anywhere, against installed files (make install-lib):
 *   cc -std=c11 -O2 -o c_host main.c $(pkg-config --cflags --libs blockphys-lua blockphys lua5.4)
 * Run: ./c_host [path/to/rules.lua [ticks]]   (default: rules.lua in the current
 * directory, and its `ticks`)
 */
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lualib.h>

#include <blockphys/blockphys.h>
#include <blockphys/lua.h>

#define SIDE 100 /* entities on a SIDE x SIDE grid */

/* The world's memory: malloc, with lua_Alloc's contract (nsize 0 frees). */
static void *host_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud, (void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

/* Run under lua_pcall: rules.lua's table's `rules` into the bp_Rules at upvalue 1. */
static int read_rules(lua_State *L)
{
	bp_lua_check_rules(L, 1, lua_touserdata(L, lua_upvalueindex(1)), "rules.lua");
	return 0;
}

static int fail(lua_State *L, const char *what)
{
	fprintf(stderr, "c_host: %s: %s\n", what, lua_tostring(L, -1));
	return 1;
}

/* The digest: each entity's feet position as "%.17g %.17g %.17g\n", in creation
 * order, hashed h = (h * 31 + byte) mod 2^32 (the spec computes it the same way). */
static uint32_t digest(bp_World *w)
{
	uint32_t h = 0, n;
	bp_world_get_entities(w, NULL, 0, &n);
	bp_EntityId *ids = malloc(sizeof *ids * (n ? n : 1));
	if (!ids)
		return 0;
	bp_world_get_entities(w, ids, n, &n);
	for (uint32_t i = 0; i < n; i++) {
		double p[3];
		char line[96];
		bp_entity_get_position(w, ids[i], p);
		snprintf(line, sizeof line, "%.17g %.17g %.17g\n", p[0], p[1], p[2]);
		for (const char *c = line; *c; c++)
			h = h * 31u + (unsigned char)*c;
	}
	free(ids);
	return h;
}

int main(int argc, char **argv)
{
	const char *script = argc > 1 ? argv[1] : "rules.lua";
	lua_State *L = luaL_newstate();
	if (!L)
		return 1;
	luaL_openlibs(L);
	bp_lua_preload(L); /* require "blockphys" from the installed files */
	if (luaL_dostring(L, "require 'blockphys'"))
		return fail(L, "require");
	bp_World *w = bp_world_create(host_alloc, NULL);
	if (!w)
		return 1;

	/* rules.lua: its table M, then M.setup(world) on the host's world. */
	if (luaL_loadfile(L, script) || lua_pcall(L, 0, 1, 0))
		return fail(L, script);
	const int m = lua_gettop(L);
	lua_getfield(L, m, "setup");
	bp_lua_push_world(L, w);
	if (lua_pcall(L, 1, 0, 0))
		return fail(L, "setup");
	bp_EntityDef def = bp_default_entity_def();
	lua_pushlightuserdata(L, &def.rules);
	lua_pushcclosure(L, read_rules, 1);
	lua_getfield(L, m, "rules");
	if (lua_pcall(L, 1, 0, 0))
		return fail(L, "rules");
	lua_getfield(L, m, "ticks");
	const int ticks = argc > 2 ? atoi(argv[2]) : (int)lua_tointeger(L, -1);
	lua_pop(L, 1);

	/* 10,000 entities on a grid one block apart, some walking, some jumping. */
	for (int i = 0; i < SIDE * SIDE; i++) {
		bp_EntityId id;
		def.x = i % SIDE - SIDE / 2 + 0.5;
		def.z = i / SIDE - SIDE / 2 + 0.5;
		def.y = 1 + (i % 5) * 0.5;
		if (bp_world_spawn(w, &def, &id) != BP_OK)
			return fprintf(stderr, "c_host: spawn failed\n"), 1;
		const double v[3] = {(i % 11 - 5) * 0.01, 0, (i % 13 - 6) * 0.01};
		bp_EntityInput in = {0};
		in.forward = i % 3 == 0 ? 1 : 0;
		in.yaw = (i * 37) % 360;
		in.jumping = i % 7 == 0;
		if (bp_entity_set_velocity(w, id, v) != BP_OK || bp_entity_set_input(w, id, &in) != BP_OK)
			return fprintf(stderr, "c_host: bad velocity or input\n"), 1;
	}
	for (int t = 0; t < ticks; t++) {
		if (bp_world_step(w, 0.05) != BP_OK) /* no hooks: it cannot fail */
			return fprintf(stderr, "c_host: step failed\n"), 1;
	}
	printf("c_host %08lx %u %d\n", (unsigned long)digest(w), bp_world_entity_count(w), ticks);

	bp_lua_release_world(L, w); /* Lua's World now raises "world has been destroyed" */
	bp_world_destroy(w);
	lua_close(L);
	return 0;
}
