/* SPDX-License-Identifier: MIT
 * test_api.c - the core's internal interface (bp_internal.h and the layouts of
 * bp_world.h: what the Lua binding calls, slots, pointers and hooks included), with
 * cmocka; test_public.c tests the public API alone, as a host sees it. Here: create, define, fill, spawn, step, query, sweep, raycast, snapshots,
 * every status a call returns (BP_ENOMEM from an allocator told to fail), and stale
 * handles. Numbers are exact where the algorithm makes them so (landing heights,
 * hit distances on block faces); the step's own numbers are the Lua suite's job.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bp_world.h" /* internal: built with -Icsrc/core/include */

/* An allocator that fails the allocation numbered `fail_at` (1 = the next), counting
 * growths only (frees and shrinks never fail), and keeps the bytes held. */
typedef struct Budget {
	long fail_at;
	long count;
	size_t held;
} Budget;

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	Budget *b = ud;
	const size_t old = ptr ? osize : 0;
	if (nsize == 0) {
		free(ptr);
		b->held -= old;
		return NULL;
	}
	if (nsize > old && b->fail_at > 0 && ++b->count == b->fail_at)
		return NULL;
	void *p = realloc(ptr, nsize);
	if (p)
		b->held = b->held - old + nsize;
	return p;
}

static bp_World *new_world(Budget *b)
{
	memset(b, 0, sizeof *b);
	bp_World *w = bp_world_create(budget_alloc, b);
	assert_non_null(w);
	return w;
}

/* A world with "stone" (id 1) filling y in [-1, 0] over x, z in [-8, 7]. */
static bp_World *floor_world(Budget *b)
{
	bp_World *w = new_world(b);
	bp_BlockDef def = bp_default_block_def();
	def.name = "stone";
	uint16_t id = 0;
	assert_int_equal(bp_world_define_block(w, &def, &id), BP_OK);
	assert_int_equal(id, 1);
	const int32_t lo[3] = {-8, -1, -8}, hi[3] = {7, 0, 7};
	assert_int_equal(bp_world_fill(w, lo, hi, id), BP_OK);
	return w;
}

static bp_EntityId spawn_at(bp_World *w, double x, double y, double z)
{
	bp_EntityDef def = bp_default_entity_def();
	def.x = x, def.y = y, def.z = z;
	bp_EntityId id;
	assert_int_equal(bp_world_spawn(w, &def, &id), BP_OK);
	return id;
}

static void test_version(void **state)
{
	(void)state;
	assert_string_equal(bp_version(), BP_VERSION_STRING);
	char want[32];
	snprintf(want, sizeof want, "%d.%d.%d", BP_VERSION_MAJOR, BP_VERSION_MINOR,
	         BP_VERSION_PATCH);
	assert_string_equal(bp_version(), want);
}

static void test_create_destroy(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = new_world(&b);
	const bp_WorldStats st = bp_world_stats(w);
	assert_int_equal(st.block_types, 1); /* air */
	assert_int_equal(st.entities, 0);
	assert_int_equal(st.blocks, 0);
	assert_int_equal(st.bytes, b.held); /* every byte through the allocator */
	assert_int_equal(bp_world_get_block(w, 0, 0, 0), 0);
	bp_world_destroy(w);
	assert_int_equal(b.held, 0);
	bp_world_destroy(NULL); /* accepted */
	/* creation that fails for memory gives NULL and leaks nothing */
	for (long k = 1; k <= 3; k++) {
		Budget f = {k, 0, 0};
		bp_World *none = bp_world_create(budget_alloc, &f);
		if (none)
			bp_world_destroy(none);
		assert_int_equal(f.held, 0);
	}
	Budget f = {1, 0, 0};
	assert_null(bp_world_create(budget_alloc, &f));
}

static void test_define_block(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = new_world(&b);
	bp_BlockDef def = bp_default_block_def();
	uint16_t id = 0;
	def.name = "slab";
	const bp_AABB half = bp_aabb_make(0, 0, 0, 1, 0.5, 1);
	def.boxes = &half;
	def.nboxes = 1;
	assert_int_equal(bp_world_define_block(w, &def, &id), BP_OK);
	assert_int_equal(id, 1);
	assert_int_equal(bp_world_find_type(w, "slab"), 1);
	assert_int_equal(bp_world_find_type(w, "nothing"), -1);
	assert_non_null(bp_world_block_type(w, 1));
	assert_null(bp_world_block_type(w, 2));
	/* BP_EEXIST: a duplicate name; nothing changes */
	assert_int_equal(bp_world_define_block(w, &def, &id), BP_EEXIST);
	assert_int_equal(bp_world_stats(w).block_types, 2);
	/* BP_EINVAL with bp_block_def_error's message for each out-of-range field */
	bp_BlockDef bad = def;
	bad.name = "";
	assert_non_null(bp_block_def_error(&bad));
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	bad = def, bad.name = "x", bad.slipperiness = NAN;
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	bad = def, bad.name = "x", bad.slipperiness = 1.6;
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	bad = def, bad.name = "x", bad.velocity_factor = 1.5;
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	bad = def, bad.name = "x", bad.level = 3; /* level without a liquid */
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	const bp_AABB tall = bp_aabb_make(0, 0, 0, 1, 2.5, 1);
	bad = def, bad.name = "x", bad.boxes = &tall;
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	bad = def, bad.name = "x", bad.nboxes = BP_MAX_TYPE_BOXES + 1;
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_EINVAL);
	assert_int_equal(bp_world_stats(w).block_types, 2);
	/* BP_ENOMEM: nothing defined, and the world still works */
	b.count = 0, b.fail_at = 1;
	bad = def, bad.name = "other";
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_ENOMEM);
	b.fail_at = 0;
	assert_int_equal(bp_world_find_type(w, "other"), -1);
	assert_int_equal(bp_world_define_block(w, &bad, &id), BP_OK);
	assert_int_equal(id, 2);
	bp_world_destroy(w);
}

static void test_define_block_limit(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = new_world(&b);
	bp_BlockDef def = bp_default_block_def();
	char name[16];
	def.name = name;
	uint16_t id = 0;
	for (int i = 1; i <= 65535; i++) {
		snprintf(name, sizeof name, "b%d", i);
		if (bp_world_define_block(w, &def, &id) != BP_OK)
			fail_msg("define %d failed", i);
	}
	assert_int_equal(id, 65535);
	snprintf(name, sizeof name, "one_more");
	assert_int_equal(bp_world_define_block(w, &def, &id), BP_ELIMIT);
	assert_int_equal(bp_world_find_type(w, "one_more"), -1);
	bp_world_destroy(w);
}

static void test_set_and_fill(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	assert_int_equal(bp_world_get_block(w, -8, -1, -8), 1);
	assert_int_equal(bp_world_get_block(w, 7, 0, 7), 1);
	assert_int_equal(bp_world_get_block(w, 8, 0, 7), 0);
	assert_int_equal(bp_world_get_block(w, 0, 1, 0), 0);
	assert_int_equal(bp_world_stats(w).blocks, 16 * 2 * 16);
	assert_int_equal(bp_world_set_block(w, 3, 5, -2, 1), BP_OK);
	assert_int_equal(bp_world_get_block(w, 3, 5, -2), 1);
	assert_int_equal(bp_world_set_block(w, 3, 5, -2, 0), BP_OK);
	assert_int_equal(bp_world_stats(w).blocks, 16 * 2 * 16);
	/* far from everything: a new chunk, which memory can refuse */
	b.count = 0, b.fail_at = 1;
	assert_int_equal(bp_world_set_block(w, 1000, 1000, 1000, 1), BP_ENOMEM);
	assert_int_equal(bp_world_get_block(w, 1000, 1000, 1000), 0);
	/* a fill that fails for memory changes no block */
	const int32_t lo[3] = {-40, 2, -40}, hi[3] = {40, 2, 40};
	for (long k = 1; k <= 4; k++) {
		b.count = 0, b.fail_at = k;
		const bp_Status st = bp_world_fill(w, lo, hi, 1);
		if (st == BP_OK)
			break;
		assert_int_equal(st, BP_ENOMEM);
		assert_int_equal(bp_world_get_block(w, 0, 2, 0), 0);
		assert_int_equal(bp_world_stats(w).blocks, 16 * 2 * 16);
	}
	b.fail_at = 0;
	assert_int_equal(bp_world_fill(w, lo, hi, 1), BP_OK);
	assert_int_equal(bp_world_stats(w).blocks, 16 * 2 * 16 + 81 * 81);
	bp_world_destroy(w);
}

static void test_spawn_and_stale_ids(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	bp_EntityDef def = bp_default_entity_def();
	bp_EntityId id;
	def.x = 0.5, def.y = 1, def.z = 0.5;
	/* BP_EINVAL for sizes and positions out of range, NaN included */
	const double bad_width[] = {0, -1, BP_MAX_ENTITY_WIDTH * 2, NAN};
	for (size_t i = 0; i < sizeof bad_width / sizeof *bad_width; i++) {
		bp_EntityDef d = def;
		d.width = bad_width[i];
		assert_int_equal(bp_world_spawn(w, &d, &id), BP_EINVAL);
	}
	bp_EntityDef d = def;
	d.height = BP_MAX_ENTITY_HEIGHT * 2;
	assert_int_equal(bp_world_spawn(w, &d, &id), BP_EINVAL);
	d = def, d.y = BP_MAX_COORD * 2;
	assert_int_equal(bp_world_spawn(w, &d, &id), BP_EINVAL);
	d = def, d.x = INFINITY;
	assert_int_equal(bp_world_spawn(w, &d, &id), BP_EINVAL);
	assert_int_equal(bp_world_entity_count(w), 0);
	/* BP_ENOMEM leaves no entity */
	b.count = 0, b.fail_at = 1;
	assert_int_equal(bp_world_spawn(w, &def, &id), BP_ENOMEM);
	b.fail_at = 0;
	assert_int_equal(bp_world_entity_count(w), 0);

	const bp_EntityId a = spawn_at(w, 0.5, 1, 0.5);
	assert_int_equal(a.index1, 1);
	bp_Entity *e = bp_world_entity(w, a);
	assert_non_null(e);
	double p[3];
	bp_entity_position(e, p);
	assert_true(p[0] == 0.5 && p[1] == 1 && p[2] == 0.5);
	assert_true(e->box.hi[1] - e->box.lo[1] == (double)1.8F);
	assert_int_equal(bp_world_remove(w, a), BP_OK);
	/* the handle and every copy of it are stale now, and stay so after reuse */
	assert_null(bp_world_entity(w, a));
	assert_int_equal(bp_world_remove(w, a), BP_ESTALE);
	const bp_EntityId again = spawn_at(w, 2.5, 1, 2.5);
	assert_int_equal(again.index1, a.index1); /* the slot is reused ... */
	assert_true(again.generation != a.generation); /* ... with another generation */
	assert_null(bp_world_entity(w, a));
	assert_non_null(bp_world_entity(w, again));
	const bp_EntityId none = {0, 0}, far = {999, 1};
	assert_null(bp_world_entity(w, none));
	assert_null(bp_world_entity(w, far));
	assert_int_equal(bp_world_remove(w, far), BP_ESTALE);
	assert_int_equal(bp_world_entity_count(w), 1);
	bp_world_destroy(w);
}

static void test_step_lands(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const bp_EntityId id = spawn_at(w, 0.5, 4, 0.5);
	for (int t = 0; t < 40; t++)
		assert_int_equal(bp_world_step_hooks(w, 0.05, NULL), 0);
	bp_Entity *e = bp_world_entity(w, id);
	assert_true(e->on_ground);
	assert_true(e->box.lo[1] == 1.0); /* feet on the floor's top face, exactly */
	/* Beta applies gravity after the move: on the ground vy stays at one tick's
	 * gravity and drag, the same every tick */
	const double vy = e->vel[1];
	assert_true(vy < 0 && vy > -0.1);
	bp_world_step_hooks(w, 0.05, NULL);
	e = bp_world_entity(w, id);
	assert_true(e->vel[1] == vy && e->box.lo[1] == 1.0);
	assert_int_equal(bp_world_lock(w), 0);
	/* walking forward moves it along +Z at yaw 0 (Beta's convention) */
	bp_entity_input(w, e)->forward = 1;
	for (int t = 0; t < 10; t++)
		bp_world_step_hooks(w, 0.05, NULL);
	double p[3];
	bp_entity_position(bp_world_entity(w, id), p);
	assert_true(p[2] > 0.5 + 0.5);
	assert_true(p[0] == 0.5);
	bp_world_destroy(w);
}

/* A heading hook that aborts the step: bp_world_step_hooks reports it. */
static int failing_heading(void *ctx, bp_World *w, uint32_t index, double strafe,
                           double forward, double k, double dv[2])
{
	(void)w, (void)index, (void)strafe, (void)forward, (void)k, (void)dv;
	++*(int *)ctx;
	return 1;
}

static void test_step_hook_fails(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	bp_EntityDef def = bp_default_entity_def();
	def.y = 1;
	def.rules.hook_heading = 1;
	bp_EntityId id;
	assert_int_equal(bp_world_spawn(w, &def, &id), BP_OK);
	int calls = 0;
	const bp_Hooks hooks = {&calls, failing_heading, NULL, NULL};
	assert_int_not_equal(bp_world_step_hooks(w, 0.05, &hooks), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(bp_world_lock(w), 0); /* unlocked after a failure */
	bp_world_destroy(w);
}

/* A heading hook that tries every call a hook may not make: each must give
 * BP_ELOCKED and change nothing; reads and input/velocity writes are allowed. */
static int locked_heading(void *ctx, bp_World *w, uint32_t index, double strafe,
                          double forward, double k, double dv[2])
{
	(void)strafe, (void)forward, (void)k;
	int *bad = ctx;
	const bp_EntityId self = bp_world_slot_id(w, index);
	bp_BlockDef def = bp_default_block_def();
	def.name = "late";
	uint16_t id;
	bp_EntityDef edef = bp_default_entity_def();
	bp_EntityId e;
	const int32_t lo[3] = {0, 5, 0}, hi[3] = {1, 5, 1};
	const bp_AABB box = {{0, 5, 0}, {1, 6, 1}};
	bp_ColliderId c;
	const double pos[3] = {0.5, 3, 0.5}, v[3] = {0, 0, 0};
	bp_EntityInput in = {0};
	*bad += bp_world_define_block(w, &def, &id) != BP_ELOCKED;
	*bad += bp_world_set_block(w, 0, 5, 0, 1) != BP_ELOCKED;
	*bad += bp_world_fill(w, lo, hi, 1) != BP_ELOCKED;
	*bad += bp_world_spawn(w, &edef, &e) != BP_ELOCKED;
	*bad += bp_world_remove(w, self) != BP_ELOCKED;
	*bad += bp_world_add_collider(w, &box, &c) != BP_ELOCKED;
	*bad += bp_world_add_trigger(w, &box, 1, 1, &c) != BP_ELOCKED;
	*bad += bp_entity_teleport(w, self, pos) != BP_OK; /* allowed, as e:teleport */
	*bad += bp_world_step(w, 0.05) != BP_ELOCKED;
	*bad += bp_entity_set_velocity(w, self, v) != BP_OK;
	*bad += bp_entity_get_input(w, self, &in) != BP_OK;
	*bad += bp_entity_set_input(w, self, &in) != BP_OK;
	*bad += bp_world_lock(w) != 1 || bp_world_step_dt(w) != 0.05;
	dv[0] = dv[1] = 0;
	return 0;
}

static void test_locked_from_hook(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	bp_EntityDef def = bp_default_entity_def();
	def.y = 1;
	def.rules.hook_heading = 1;
	bp_EntityId id;
	assert_int_equal(bp_world_spawn(w, &def, &id), BP_OK);
	const bp_WorldStats before = bp_world_stats(w);
	int bad = 0;
	const bp_Hooks hooks = {&bad, locked_heading, NULL, NULL};
	assert_int_equal(bp_world_step_hooks(w, 0.05, &hooks), 0);
	assert_int_equal(bad, 0);
	const bp_WorldStats after = bp_world_stats(w);
	assert_true(after.blocks == before.blocks && after.block_types == before.block_types &&
	            after.entities == 1 && after.colliders == 0);
	assert_int_equal(bp_world_get_block(w, 0, 5, 0), 0);
	bp_world_destroy(w);
}

static int refuse_filter(void *ctx, bp_World *w, uint32_t self, uint32_t other, int *allow)
{
	(void)ctx, (void)w, (void)self, (void)other, (void)allow;
	return 1; /* fails */
}

static void test_move_statuses(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const bp_EntityId id = spawn_at(w, 0.5, 1, 0.5);
	bp_Entity *e = bp_world_entity(w, id);
	double out[3];
	const double big[3] = {BP_MAX_MOVE * 2, 0, 0}, nan_d[3] = {NAN, 0, 0};
	assert_int_equal(bp_move_axis(w, e, big, out), BP_ELIMIT);
	assert_int_equal(bp_move_swept(w, e, nan_d, out), BP_ELIMIT);
	double p[3];
	bp_entity_position(e, p);
	assert_true(p[0] == 0.5 && p[1] == 1); /* nothing moved */
	/* a move down stops on the floor */
	const double down[3] = {0, -3, 0};
	assert_int_equal(bp_move_axis(w, e, down, out), BP_OK);
	assert_true(out[1] == 0.0);
	/* BP_EHOOK: a solid entity in the way whose filter fails */
	bp_EntityDef def = bp_default_entity_def();
	def.x = 2.5, def.y = 1, def.z = 0.5, def.solid = 1;
	bp_EntityId wall;
	assert_int_equal(bp_world_spawn(w, &def, &wall), BP_OK);
	bp_world_entity(w, wall)->has_filter = 1;
	e = bp_world_entity(w, id);
	e->has_filter = 1;
	const bp_Hooks hooks = {NULL, NULL, NULL, refuse_filter};
	const double east[3] = {3, 0, 0};
	assert_int_equal(bp_world_move_entity(w, id.index1 - 1, 0, 7, &hooks, east, out), BP_EHOOK);
	assert_int_equal(bp_world_lock(w), 0);
	bp_world_destroy(w);
}

static int count_visit(void *ctx, uint32_t index)
{
	(void)index;
	++*(int *)ctx;
	return 0;
}

static void test_query(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	spawn_at(w, 0.5, 1, 0.5);
	spawn_at(w, 5.5, 1, 5.5);
	int n = 0;
	const bp_AABB near = bp_aabb_make(0, 0, 0, 1, 3, 1);
	bp_broadphase_visit(w, &near, count_visit, &n);
	assert_int_equal(n, 1);
	n = 0;
	const bp_AABB all = bp_aabb_make(-10, -10, -10, 10, 10, 10);
	bp_broadphase_visit(w, &all, count_visit, &n);
	assert_int_equal(n, 2);
	/* touching is not overlap: the first entity's box ends at x = 0.5 + 0.6F / 2 */
	n = 0;
	const bp_AABB touch = bp_aabb_make(0.5 + (double)0.6F / 2, 0, 0, 2, 3, 1);
	bp_broadphase_visit(w, &touch, count_visit, &n);
	assert_int_equal(n, 0);
	/* gathering the block boxes of a region: the 2 x 2 floor cells under it */
	const bp_AABB region = bp_aabb_make(0.5, -0.5, 0.5, 2.5, 0.5, 2.5);
	assert_int_equal(bp_world_gather(w, &region, 1000), BP_OK);
	size_t count = 0;
	bp_world_gathered(w, &count);
	assert_int_equal(count, 3 * 2 * 3);
	assert_int_equal(bp_world_gather(w, &region, 4), BP_ELIMIT);
	bp_world_destroy(w);
}

static void test_raycast(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const double o[3] = {0.5, 5, 0.5}, down[3] = {0, -2, 0}, zero[3] = {0, 0, 0};
	bp_RayHit hit;
	assert_int_equal(bp_world_raycast(w, o, down, 10, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_BLOCK);
	assert_true(hit.distance == 4.0); /* from y = 5 to the top face at y = 1 */
	assert_int_equal(hit.normal[1], 1);
	assert_int_equal(hit.cell[1], 0);
	assert_int_equal(hit.id, 1);
	assert_int_equal(bp_world_raycast(w, o, down, 3, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_NONE);
	assert_int_equal(bp_world_raycast(w, o, zero, 10, &hit), BP_EINVAL);
	assert_int_equal(bp_world_raycast(w, o, down, 0, &hit), BP_EINVAL);
	assert_int_equal(bp_world_raycast(w, o, down, BP_MAX_RAY * 2, &hit), BP_EINVAL);
	const double nan_o[3] = {NAN, 0, 0};
	assert_int_equal(bp_world_raycast(w, nan_o, down, 10, &hit), BP_EINVAL);
	/* entities: the nearest box, never the one ignored */
	const bp_EntityId id = spawn_at(w, 0.5, 1, 0.5);
	bp_EntityRayHit eh;
	const bp_EntityId none = {0, 0};
	assert_int_equal(bp_world_raycast_entities(w, o, down, 10, none, &eh), BP_OK);
	assert_int_equal(eh.index1, id.index1);
	assert_true(eh.distance == 5 - (1 + (double)1.8F));
	assert_int_equal(bp_world_raycast_entities(w, o, down, 10, id, &eh), BP_OK);
	assert_int_equal(eh.index1, 0);
	bp_world_destroy(w);
}

static void test_sweep_and_colliders(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const bp_AABB box = bp_aabb_make(0, 3, 0, 1, 4, 1);
	const double v[3] = {0, -4, 0};
	bp_SweepHit hit;
	assert_int_equal(bp_world_sweep(w, &box, v, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_BLOCK);
	assert_true(hit.t == 0.5); /* 2 of 4 blocks down to the floor's top */
	assert_int_equal(hit.normal[1], 1);
	const double big[3] = {0, -BP_MAX_MOVE * 2, 0};
	assert_int_equal(bp_world_sweep(w, &box, big, &hit), BP_ELIMIT);
	/* a collider between: met first, then removed (its handle goes stale) */
	const bp_AABB c = bp_aabb_make(0, 2, 0, 1, 2.5, 1);
	uint64_t handle = 0;
	assert_int_equal(bp_world_add_collider(w, &c, &handle), BP_OK);
	assert_int_equal(bp_world_sweep(w, &box, v, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_COLLIDER);
	assert_true(hit.t == 0.125);
	const uint32_t slot = bp_world_collider_slot(w, handle);
	assert_int_equal(slot, 1);
	bp_world_remove_collider(w, slot);
	assert_int_equal(bp_world_collider_slot(w, handle), 0);
	uint64_t second = 0;
	assert_int_equal(bp_world_add_collider(w, &c, &second), BP_OK);
	assert_true(second != handle); /* the slot is reused under a new handle */
	assert_int_equal(bp_world_collider_slot(w, handle), 0);
	assert_int_equal(bp_world_collider_slot(w, second), 1);
	b.count = 0, b.fail_at = 1;
	uint64_t third = 0; /* a new slot: memory may refuse it */
	const bp_Status st = bp_world_add_collider(w, &c, &third);
	b.fail_at = 0;
	assert_true(st == BP_OK || st == BP_ENOMEM);
	assert_int_equal(bp_world_stats(w).colliders, st == BP_OK ? 2 : 1);
	bp_world_destroy(w);
}

static void test_snapshot(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const bp_EntityId id = spawn_at(w, 0.5, 4, 0.5);
	const size_t size = bp_world_snapshot_size(w);
	void *buf = malloc(size);
	assert_non_null(buf);
	bp_world_snapshot_save(w, buf);
	for (int t = 0; t < 5; t++)
		bp_world_step_hooks(w, 0.05, NULL);
	double moved[3];
	bp_entity_position(bp_world_entity(w, id), moved);
	assert_true(moved[1] < 4);
	bp_world_snapshot_restore(w, buf);
	bp_world_entities_restored(w);
	double p[3];
	bp_entity_position(bp_world_entity(w, id), p);
	assert_true(p[1] == 4);
	/* the same steps again give the same position, bit for bit */
	for (int t = 0; t < 5; t++)
		bp_world_step_hooks(w, 0.05, NULL);
	bp_entity_position(bp_world_entity(w, id), p);
	assert_memory_equal(p, moved, sizeof p);
	free(buf);
	bp_world_destroy(w);
}

/* Sleeping (sleep.c): off by default in C; on, a mob at rest sleeps, a touched one
 * wakes, an unchanged input keeps it asleep, and a block edit beside it wakes it.
 * Two worlds, one sleeping, end bit for bit alike. */
static void test_sleeping(void **state)
{
	(void)state;
	Budget b1, b2;
	bp_World *on = floor_world(&b1), *off = floor_world(&b2);
	assert_int_equal(bp_world_sleeping(on), 0);
	bp_world_set_sleeping(on, 1);
	assert_int_equal(bp_world_sleeping(on), 1);
	const bp_EntityId a = spawn_at(on, 0.5, 1, 0.5), b = spawn_at(off, 0.5, 1, 0.5);
	for (int t = 0; t < 6; t++) {
		assert_int_equal(bp_world_step_hooks(on, 0.05, NULL), 0);
		assert_int_equal(bp_world_step_hooks(off, 0.05, NULL), 0);
	}
	bp_Entity *e = bp_world_entity(on, a);
	assert_true(bp_entity_sleeping(on, e));
	assert_false(bp_entity_sleeping(off, bp_world_entity(off, b)));
	const bp_EntityInput before = *bp_entity_input(on, e);
	bp_entity_input(on, e)->yaw = before.yaw; /* the same input: still asleep */
	bp_entity_input_changed(on, e, &before);
	assert_true(bp_entity_sleeping(on, e));
	bp_entity_touch(on, e); /* a write: awake */
	assert_false(bp_entity_sleeping(on, e));
	for (int t = 0; t < 4; t++)
		assert_int_equal(bp_world_step_hooks(on, 0.05, NULL), 0);
	assert_true(bp_entity_sleeping(on, bp_world_entity(on, a)));
	/* The block under it goes: it wakes and falls, as the other does. */
	assert_int_equal(bp_world_set_block(on, 0, 0, 0, 0), BP_OK);
	assert_false(bp_entity_sleeping(on, bp_world_entity(on, a)));
	assert_int_equal(bp_world_set_block(off, 0, 0, 0, 0), BP_OK);
	for (int t = 0; t < 4; t++) {
		assert_int_equal(bp_world_step_hooks(on, 0.05, NULL), 0);
		assert_int_equal(bp_world_step_hooks(off, 0.05, NULL), 0);
	}
	double p1[3], p2[3];
	bp_entity_position(bp_world_entity(on, a), p1);
	bp_entity_position(bp_world_entity(off, b), p2);
	assert_true(p1[1] < 1);
	assert_memory_equal(p1, p2, sizeof p1);
	bp_world_destroy(on);
	bp_world_destroy(off);
}

/* Whole-world snapshots: a restore into a fresh world replays bit for bit, the image
 * round-trips, every allocation failure of take, restore and decode is BP_ENOMEM with
 * nothing leaked, and every truncation is refused. */
static void test_world_snapshot(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const bp_EntityId id = spawn_at(w, 0.5, 4, 0.5);
	bp_entity_input(w, bp_world_entity(w, id))->forward = 1;
	bp_world_step_hooks(w, 0.05, NULL);
	bp_Snapshot *s = NULL;
	assert_int_equal(bp_world_take_snapshot(w, budget_alloc, &b, &s), BP_OK);
	const uint64_t h = bp_world_hash(w);
	assert_true(bp_snapshot_hash(s) == h);
	for (int t = 0; t < 10; t++)
		bp_world_step_hooks(w, 0.05, NULL);
	double moved[3];
	bp_entity_position(bp_world_entity(w, id), moved);
	Budget b2;
	bp_World *fresh = new_world(&b2);
	const char *why = NULL;
	/* every allocation of a restore into a fresh world failing in turn */
	for (long k = 1;; k++) {
		b2.fail_at = k;
		b2.count = 0;
		bp_Status st = bp_world_restore_snapshot(fresh, s, 0, &why);
		if (st == BP_OK)
			break;
		assert_int_equal(st, BP_ENOMEM);
		assert_true(k < 100);
	}
	b2.fail_at = 0;
	assert_true(bp_world_hash(fresh) == h);
	for (int t = 0; t < 10; t++)
		bp_world_step_hooks(fresh, 0.05, NULL);
	double p[3];
	bp_entity_position(bp_world_entity(fresh, id), p);
	assert_memory_equal(p, moved, sizeof p);
	/* the image: round trip, truncations, failures of decode */
	const size_t n = bp_snapshot_encode(s, NULL, 0);
	unsigned char *img = malloc(n);
	assert_non_null(img);
	assert_int_equal(bp_snapshot_encode(s, img, n), n);
	Budget b3;
	memset(&b3, 0, sizeof b3);
	bp_Snapshot *d = NULL;
	for (size_t k = 0; k < n; k += 7) {
		assert_int_equal(bp_snapshot_decode(budget_alloc, &b3, img, k, &d, &why), BP_EINVAL);
		assert_null(d);
		assert_string_equal(why, "truncated");
	}
	for (long k = 1;; k++) {
		b3.fail_at = k;
		b3.count = 0;
		bp_Status st = bp_snapshot_decode(budget_alloc, &b3, img, n, &d, &why);
		if (st == BP_OK)
			break;
		assert_int_equal(st, BP_ENOMEM);
		assert_int_equal(b3.held, 0);
		assert_true(k < 100);
	}
	assert_true(bp_snapshot_hash(d) == h);
	bp_snapshot_free(d);
	assert_int_equal(b3.held, 0);
	free(img);
	/* every allocation of a take failing in turn leaves nothing allocated */
	bp_snapshot_free(s);
	Budget b4;
	memset(&b4, 0, sizeof b4);
	for (long k = 1;; k++) {
		b4.fail_at = k;
		b4.count = 0;
		bp_Status st = bp_world_take_snapshot(w, budget_alloc, &b4, &s);
		if (st == BP_OK)
			break;
		assert_int_equal(st, BP_ENOMEM);
		assert_int_equal(b4.held, 0);
		assert_true(k < 100);
	}
	bp_snapshot_free(s);
	assert_int_equal(b4.held, 0);
	bp_world_destroy(fresh);
	bp_world_destroy(w);
}

/* The state hash (snapimage.c) sees each field added by the features merged with
 * snapshots, and none of the caches and marks a restore resets; an image of a
 * streamed world decodes to the same hash. */
static void test_snapshot_new_fields(void **state)
{
	(void)state;
	Budget b;
	bp_World *w = floor_world(&b);
	const bp_EntityId id = spawn_at(w, 0.5, 1, 0.5);
	bp_world_step_hooks(w, 0.05, NULL);
	bp_Entity *e = bp_world_entity(w, id);
	const uint64_t h = bp_world_hash(w);
	e->frozen = 1;
	assert_true(bp_world_hash(w) != h);
	e->frozen = 0;
	e->rules.separate_iterations++;
	assert_true(bp_world_hash(w) != h);
	e->rules.separate_iterations--;
	e->rules.separate_tolerance += 0x1p-40;
	assert_true(bp_world_hash(w) != h);
	e->rules.separate_tolerance -= 0x1p-40;
	e->rules.drop_through_sneaking = !e->rules.drop_through_sneaking;
	assert_true(bp_world_hash(w) != h);
	e->rules.drop_through_sneaking = !e->rules.drop_through_sneaking;
	/* caches and sleeping's marks: not state */
	e->stream_seen = 7;
	e->stream_span = 3;
	e->quiet = e->disturbed = 1;
	e->sleep_wait = 5;
	assert_true(bp_world_hash(w) == h);
	assert_int_equal(bp_world_set_unset(w, 1), BP_OK);
	const uint64_t hu = bp_world_hash(w);
	assert_true(hu != h);
	assert_int_equal(bp_world_unload_chunk(w, 3, 0, 3), BP_OK); /* unset already: no change */
	assert_true(bp_world_hash(w) == hu);
	assert_int_equal(bp_world_set_unset(w, 0), BP_OK);
	assert_true(bp_world_hash(w) != hu);
	assert_int_equal(bp_world_unload_chunk(w, 3, 0, 3), BP_OK); /* a stored unloaded chunk */
	assert_true(bp_world_hash(w) != h);
	assert_int_equal(bp_world_set_unset(w, 1), BP_OK);
	bp_world_step_hooks(w, 0.05, NULL);
	/* round trip of the image: the same hash; into a fresh world: the same state */
	bp_Snapshot *s = NULL;
	assert_int_equal(bp_world_take_snapshot(w, budget_alloc, &b, &s), BP_OK);
	const size_t n = bp_snapshot_encode(s, NULL, 0);
	unsigned char *img = malloc(n);
	assert_non_null(img);
	assert_int_equal(bp_snapshot_encode(s, img, n), n);
	bp_Snapshot *d = NULL;
	const char *why = NULL;
	assert_int_equal(bp_snapshot_decode(budget_alloc, &b, img, n, &d, &why), BP_OK);
	assert_true(bp_snapshot_hash(d) == bp_world_hash(w));
	Budget b2;
	bp_World *fresh = new_world(&b2);
	assert_int_equal(bp_world_restore_snapshot(fresh, d, 0, &why), BP_OK);
	assert_true(bp_world_hash(fresh) == bp_world_hash(w));
	assert_int_equal(bp_world_unset_unloaded(fresh), 1);
	assert_int_equal(bp_world_unloaded_id(fresh), bp_world_unloaded_id(w));
	free(img);
	bp_snapshot_free(d);
	bp_snapshot_free(s);
	bp_world_destroy(fresh);
	bp_world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),        cmocka_unit_test(test_create_destroy),
		cmocka_unit_test(test_define_block),   cmocka_unit_test(test_define_block_limit),
		cmocka_unit_test(test_set_and_fill),   cmocka_unit_test(test_spawn_and_stale_ids),
		cmocka_unit_test(test_step_lands),     cmocka_unit_test(test_step_hook_fails),
		cmocka_unit_test(test_move_statuses),  cmocka_unit_test(test_query),
		cmocka_unit_test(test_raycast),        cmocka_unit_test(test_sweep_and_colliders),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_locked_from_hook),
		cmocka_unit_test(test_sleeping),
		cmocka_unit_test(test_world_snapshot), cmocka_unit_test(test_snapshot_new_fields),
	};
	return cmocka_run_group_tests_name("blockphys C API", tests, NULL, NULL);
}
