/* SPDX-License-Identifier: MIT
 * test_public.c - the public API alone (<blockphys/blockphys.h>, built against the
 * staged headers only, so a layout or an internal function here fails the build), with
 * cmocka: ids passed by value and checked on every call (stale entity and collider ids
 * give BP_ESTALE and change nothing), every status a call by id returns, the lock
 * (BP_ELOCKED), and the accessors that replaced the inline ones.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <blockphys/blockphys.h>

static void *plain_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

/* A world with a stone floor at y = 0 (the top at y = 1). */
static bp_World *floor_world(void)
{
	bp_World *w = bp_world_create(plain_alloc, NULL);
	assert_non_null(w);
	bp_BlockDef stone = bp_default_block_def();
	stone.name = "stone";
	uint16_t id;
	assert_int_equal(bp_world_define_block(w, &stone, &id), BP_OK);
	const int32_t lo[3] = {-8, 0, -8}, hi[3] = {7, 0, 7};
	assert_int_equal(bp_world_fill(w, lo, hi, id), BP_OK);
	return w;
}

static void test_entity_ids(void **state)
{
	(void)state;
	bp_World *w = floor_world();
	bp_EntityDef def = bp_default_entity_def();
	def.x = 0.5;
	def.y = 3;
	def.z = 0.5;
	bp_EntityId a, b;
	assert_int_equal(bp_world_spawn(w, &def, &a), BP_OK);
	assert_true(bp_entity_is_valid(w, a));
	double p[3];
	assert_int_equal(bp_entity_get_position(w, a, p), BP_OK);
	assert_true(p[0] == 0.5 && p[1] == 3 && p[2] == 0.5);
	bp_AABB box;
	assert_int_equal(bp_entity_get_box(w, a, &box), BP_OK);
	/* 0.6F wide: the box is the float width about x, in doubles */
	assert_true(box.hi[0] - box.lo[0] == (double)0.6F && box.lo[1] == 3);

	/* removed: every call by its id gives BP_ESTALE, and the id never names the
	 * entity spawned into the same slot */
	assert_int_equal(bp_world_remove(w, a), BP_OK);
	assert_false(bp_entity_is_valid(w, a));
	assert_int_equal(bp_world_spawn(w, &def, &b), BP_OK);
	assert_int_equal(b.index1, a.index1);
	assert_int_not_equal(b.generation, a.generation);
	const double v[3] = {0.1, 0, 0};
	bp_EntityInput in = {0};
	int on;
	bp_Rules rules;
	assert_int_equal(bp_entity_get_position(w, a, p), BP_ESTALE);
	assert_int_equal(bp_entity_get_box(w, a, &box), BP_ESTALE);
	assert_int_equal(bp_entity_teleport(w, a, p), BP_ESTALE);
	assert_int_equal(bp_entity_get_velocity(w, a, p), BP_ESTALE);
	assert_int_equal(bp_entity_set_velocity(w, a, v), BP_ESTALE);
	assert_int_equal(bp_entity_get_input(w, a, &in), BP_ESTALE);
	assert_int_equal(bp_entity_set_input(w, a, &in), BP_ESTALE);
	assert_int_equal(bp_entity_on_ground(w, a, &on), BP_ESTALE);
	assert_int_equal(bp_entity_get_rules(w, a, &rules), BP_ESTALE);
	assert_int_not_equal(bp_world_remove(w, a), BP_OK);
	const bp_EntityId null = {0, 0}, wild = {999, 1};
	assert_false(bp_entity_is_valid(w, null));
	assert_int_equal(bp_entity_get_position(w, null, p), BP_ESTALE);
	assert_int_equal(bp_entity_get_position(w, wild, p), BP_ESTALE);
	/* b is untouched by all that */
	assert_int_equal(bp_entity_get_velocity(w, b, p), BP_OK);
	assert_true(p[0] == 0 && p[1] == 0 && p[2] == 0);

	uint32_t n;
	bp_EntityId ids[4];
	assert_int_equal(bp_world_get_entities(w, ids, 4, &n), BP_OK);
	assert_int_equal(n, 1);
	assert_true(ids[0].index1 == b.index1 && ids[0].generation == b.generation);
	bp_world_destroy(w);
}

static void test_entity_statuses(void **state)
{
	(void)state;
	bp_World *w = floor_world();
	bp_EntityDef def = bp_default_entity_def();
	def.x = 0.5;
	def.y = 3;
	def.z = 0.5;
	bp_EntityId e;
	assert_int_equal(bp_world_spawn(w, &def, &e), BP_OK);
	def.width = 0; /* BP_EINVAL: size out of range */
	bp_EntityId bad;
	assert_int_equal(bp_world_spawn(w, &def, &bad), BP_EINVAL);
	def.width = 0.6;
	/* rules: every preset passes; a field the model uses out of range, or an unknown
	 * model, is named and refused at spawn */
	assert_null(bp_rules_error(&def.rules));
	const bp_Rules mccpp = bp_rules_mccpp();
	assert_null(bp_rules_error(&mccpp));
	def.rules.passes = 0;
	assert_string_equal(bp_rules_error(&def.rules), "passes");
	assert_int_equal(bp_world_spawn(w, &def, &bad), BP_EINVAL);
	def.rules = bp_rules_beta173();
	def.rules.gravity = NAN;
	assert_string_equal(bp_rules_error(&def.rules), "gravity");
	def.rules = bp_rules_beta173();
	def.rules.model = 7;
	assert_string_equal(bp_rules_error(&def.rules), "model");
	assert_int_equal(bp_world_spawn(w, &def, &bad), BP_EINVAL);
	assert_int_equal(bp_world_entity_count(w), 1);

	const double nan3[3] = {NAN, 0, 0}, far[3] = {3e9, 0, 0};
	assert_int_equal(bp_entity_teleport(w, e, nan3), BP_EINVAL);
	assert_int_equal(bp_entity_teleport(w, e, far), BP_EINVAL);
	assert_int_equal(bp_entity_set_velocity(w, e, nan3), BP_EINVAL);
	bp_EntityInput in = {0};
	in.forward = 2;
	assert_int_equal(bp_entity_set_input(w, e, &in), BP_EINVAL);
	in.forward = 0;
	in.yaw = INFINITY;
	assert_int_equal(bp_entity_set_input(w, e, &in), BP_EINVAL);
	double p[3];
	assert_int_equal(bp_entity_get_position(w, e, p), BP_OK);
	assert_true(p[1] == 3); /* nothing changed */

	/* inputs and velocity by id; a jump pressed between steps latches */
	in.yaw = 90;
	in.forward = 1;
	in.jumping = 1;
	in.jump_latch = 0;
	assert_int_equal(bp_entity_set_input(w, e, &in), BP_OK);
	bp_EntityInput got;
	assert_int_equal(bp_entity_get_input(w, e, &got), BP_OK);
	assert_true(got.forward == 1 && got.yaw == 90 && got.jumping == 1 && got.jump_latch == 1);

	/* teleport onto the floor, fall, land: on_ground */
	const double at[3] = {0.5, 1.5, 0.5};
	assert_int_equal(bp_entity_teleport(w, e, at), BP_OK);
	in.forward = 0;
	in.jumping = 0;
	assert_int_equal(bp_entity_set_input(w, e, &in), BP_OK);
	for (int t = 0; t < 20; t++)
		assert_int_equal(bp_world_step(w, 0.05), BP_OK);
	int on = 0;
	assert_int_equal(bp_entity_on_ground(w, e, &on), BP_OK);
	assert_int_equal(on, 1);
	assert_int_equal(bp_entity_get_position(w, e, p), BP_OK);
	assert_true(p[1] == 1); /* standing on the floor's top */
	/* what stopped it: the floor block under it, found from the world as it is */
	bp_Contact ground, contacts[4];
	int found = 0;
	assert_int_equal(bp_entity_get_ground(w, e, &ground, &found), BP_OK);
	assert_int_equal(found, 1);
	assert_int_equal(ground.kind, BP_HIT_BLOCK);
	assert_true(ground.cell[0] == 0 && ground.cell[1] == 0 && ground.cell[2] == 0);
	assert_true(ground.normal[1] == 1 && ground.box.hi[1] == 1);
	uint32_t nc;
	assert_int_equal(bp_entity_get_contacts(w, e, NULL, 0, &nc), BP_OK);
	assert_int_equal(nc, 1); /* a 0.6-wide box inside one block column: that block */
	assert_int_equal(bp_entity_get_contacts(w, e, contacts, 4, &nc), BP_OK);
	assert_int_equal(contacts[0].kind, BP_HIT_BLOCK);
	assert_true(contacts[0].cell[1] == 0 && contacts[0].normal[1] == 1);
	const bp_EntityId gone = {e.index1 + 7, 1};
	assert_int_equal(bp_entity_get_contacts(w, gone, contacts, 4, &nc), BP_ESTALE);
	assert_int_equal(bp_entity_get_ground(w, gone, &ground, &found), BP_ESTALE);

	/* the step's own statuses: dt out of range, a velocity past BP_MAX_MOVE */
	assert_int_equal(bp_world_step(w, 0), BP_EINVAL);
	assert_int_equal(bp_world_step(w, NAN), BP_EINVAL);
	assert_int_equal(bp_world_step(w, 2), BP_EINVAL);
	const double fast[3] = {2000, 0, 0};
	assert_int_equal(bp_entity_set_velocity(w, e, fast), BP_OK);
	const uint64_t tick = bp_world_tick(w);
	assert_int_equal(bp_world_step(w, 0.05), BP_ELIMIT);
	assert_int_equal(bp_world_tick(w), tick); /* refused before anything moved */
	assert_int_equal(bp_world_lock(w), 0);
	assert_true(bp_world_step_dt(w) == 0.05);
	bp_world_destroy(w);
}

static void test_collider_ids(void **state)
{
	(void)state;
	bp_World *w = floor_world();
	const bp_AABB box = {{2, 1, 2}, {3, 2, 3}};
	bp_ColliderId c, d;
	assert_int_equal(bp_world_add_collider(w, &box, &c), BP_OK);
	assert_true(bp_collider_is_valid(w, c));
	bp_AABB got;
	assert_int_equal(bp_collider_get_box(w, c, &got), BP_OK);
	assert_memory_equal(&got, &box, sizeof box);
	assert_int_equal(bp_collider_set_one_way(w, c, BP_FACE_UP), BP_OK);
	assert_int_equal(bp_collider_set_one_way(w, c, 7), BP_EINVAL);
	assert_int_equal(bp_collider_set_one_way(w, c, -1), BP_EINVAL);

	/* a ray down onto it names it by id */
	const double o[3] = {2.5, 5, 2.5}, down[3] = {0, -1, 0};
	bp_RayHit hit;
	assert_int_equal(bp_world_raycast(w, o, down, 10, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_COLLIDER);
	assert_true(hit.collider_id == c);
	assert_true(hit.distance == 3);

	assert_int_equal(bp_collider_remove(w, c), BP_OK);
	assert_false(bp_collider_is_valid(w, c));
	assert_int_equal(bp_collider_remove(w, c), BP_ESTALE);
	assert_int_equal(bp_collider_get_box(w, c, &got), BP_ESTALE);
	assert_int_equal(bp_collider_set_one_way(w, c, BP_FACE_NONE), BP_ESTALE);
	assert_int_equal(bp_collider_remove(w, 0), BP_ESTALE);
	/* the slot is reused with a new generation: the old id still names nothing */
	assert_int_equal(bp_world_add_collider(w, &box, &d), BP_OK);
	assert_true(d != c && (d & 0xffffff) == (c & 0xffffff));
	assert_int_equal(bp_collider_get_box(w, c, &got), BP_ESTALE);
	assert_int_equal(bp_world_raycast(w, o, down, 10, &hit), BP_OK);
	assert_true(hit.collider_id == d);

	/* another world's id names nothing here (the worlds' tags differ) */
	bp_World *other = bp_world_create(plain_alloc, NULL);
	assert_non_null(other);
	bp_world_set_handle_tag(other, 5);
	bp_ColliderId o1;
	assert_int_equal(bp_world_add_collider(other, &box, &o1), BP_OK);
	assert_int_equal(bp_collider_get_box(w, o1, &got), BP_ESTALE);
	assert_int_equal(bp_collider_get_box(other, d, &got), BP_ESTALE);
	bp_world_destroy(other);

	/* triggers: the same kind of id, their own functions */
	bp_ColliderId t;
	assert_int_equal(bp_world_add_trigger(w, &box, 1, UINT32_MAX, &t), BP_OK);
	assert_int_equal(bp_trigger_get_box(w, t, &got), BP_OK);
	assert_memory_equal(&got, &box, sizeof box);
	assert_int_equal(bp_trigger_remove(w, t), BP_OK);
	assert_int_equal(bp_trigger_remove(w, t), BP_ESTALE);
	assert_int_equal(bp_trigger_get_box(w, t, &got), BP_ESTALE);
	bp_world_destroy(w);
}

/* The checks the public API makes where the binding checked before calling. */
static void test_world_statuses(void **state)
{
	(void)state;
	bp_World *w = floor_world(); /* types: air (0) and stone (1) */
	assert_int_equal(bp_world_set_block(w, 0, 3, 0, 2), BP_EINVAL); /* undefined id */
	assert_int_equal(bp_world_get_block(w, 0, 3, 0), 0);
	assert_int_equal(bp_world_set_block(w, 0, 3, 0, 1), BP_OK);
	assert_int_equal(bp_world_get_block(w, 0, 3, 0), 1);
	const int32_t lo[3] = {0, 4, 0}, hi[3] = {3, 4, 3}, flip[3] = {-3, 4, 0};
	assert_int_equal(bp_world_fill(w, lo, hi, 2), BP_EINVAL);
	assert_int_equal(bp_world_fill(w, lo, flip, 1), BP_EINVAL); /* lo > hi on x */
	assert_int_equal(bp_world_get_block(w, 0, 4, 0), 0);
	/* 2^20 chunks is the most one fill may touch: 2^21 is refused before any work */
	const int32_t big_lo[3] = {0, 0, 0}, big_hi[3] = {16 * 128 - 1, 16 * 128 - 1, 16 * 128 - 1};
	assert_int_equal(bp_world_fill(w, big_lo, big_hi, 0), BP_ELIMIT);
	bp_BlockDef got;
	assert_int_equal(bp_world_block_def(w, 1, &got), BP_OK);
	assert_string_equal(got.name, "stone");
	assert_int_equal(got.nboxes, 1); /* the full cube's one unit box */
	assert_true(got.boxes[0].lo[1] == 0 && got.boxes[0].hi[1] == 1);
	assert_true(got.slipperiness == (double)0.6F && got.solid == 1 && got.normal_cube == 1);
	assert_int_equal(bp_world_block_def(w, 0, &got), BP_OK);
	assert_string_equal(got.name, "air");
	assert_int_equal(got.nboxes, 0);
	assert_int_equal(bp_world_block_def(w, 2, &got), BP_EINVAL);
	bp_BlockDef dup = bp_default_block_def();
	dup.name = "stone";
	uint16_t id;
	assert_int_equal(bp_world_define_block(w, &dup, &id), BP_EEXIST);
	dup.name = "";
	assert_int_equal(bp_world_define_block(w, &dup, &id), BP_EINVAL);
	const bp_AABB flipped = {{1, 0, 0}, {0, 1, 1}}, nan_box = {{0, 0, 0}, {NAN, 1, 1}};
	bp_ColliderId c;
	assert_int_equal(bp_world_add_collider(w, &flipped, &c), BP_EINVAL);
	assert_int_equal(bp_world_add_collider(w, &nan_box, &c), BP_EINVAL);
	assert_int_equal(bp_world_add_trigger(w, &nan_box, 1, 1, &c), BP_EINVAL);
	assert_int_equal(bp_world_stats(w).colliders, 0);
	const double o[3] = {0, 5, 0}, zero[3] = {0, 0, 0};
	bp_RayHit hit;
	assert_int_equal(bp_world_raycast(w, o, zero, 10, &hit), BP_EINVAL);
	assert_int_equal(bp_world_set_max_events(w, BP_MAX_EVENTS + 1u), BP_EINVAL);
	assert_int_equal(bp_world_set_hit_speed(w, -1), BP_EINVAL);
	bp_world_destroy(w);
}

static void test_sweep_collider_id(void **state)
{
	(void)state;
	bp_World *w = bp_world_create(plain_alloc, NULL);
	assert_non_null(w);
	const bp_AABB wall = {{4, 0, 0}, {5, 2, 1}}, m = {{0, 0, 0}, {1, 1, 1}};
	bp_ColliderId c;
	assert_int_equal(bp_world_add_collider(w, &wall, &c), BP_OK);
	const double v[3] = {10, 0, 0};
	bp_SweepHit hit;
	assert_int_equal(bp_world_sweep(w, &m, v, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_COLLIDER);
	assert_true(hit.collider_id == c);
	assert_true(hit.t == 0.3);
	const double none[3] = {0, 5, 0};
	assert_int_equal(bp_world_sweep(w, &m, none, &hit), BP_OK);
	assert_int_equal(hit.kind, BP_HIT_NONE);
	assert_true(hit.collider_id == 0);
	bp_world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_entity_ids),
	    cmocka_unit_test(test_entity_statuses),
	    cmocka_unit_test(test_collider_ids),
	    cmocka_unit_test(test_world_statuses),
	    cmocka_unit_test(test_sweep_collider_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
