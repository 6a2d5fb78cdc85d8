/* SPDX-License-Identifier: MIT
 * test_threads.c - the core's thread rule (docs/c-api.md): one world belongs to one
 * thread at a time, and different worlds on different threads are safe. Four worlds,
 * each a different scene, stepped on four threads at once must end with the same
 * digests as the same four stepped one after another on one thread.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <blockphys/blockphys.h>

#define WORLDS 4
#define ENTITIES 300
#define TICKS 200

static void *plain_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud, (void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

typedef struct Job {
	int seed;
	uint64_t digest; /* FNV-1a over the bytes of every position, creation order */
	int failed;
} Job;

/* One scene: a floor with a few pillars and an ice patch, ENTITIES walkers whose
 * inputs depend on the seed (Beta and MC-CPP rules, both resolvers), TICKS steps. */
static void *run_scene(void *arg)
{
	Job *job = arg;
	bp_World *w = bp_world_create(plain_alloc, NULL);
	if (!w) {
		job->failed = 1;
		return NULL;
	}
	bp_BlockDef def = bp_default_block_def();
	uint16_t stone = 0, ice = 0;
	def.name = "stone";
	job->failed |= bp_world_define_block(w, &def, &stone) != BP_OK;
	def.name = "ice";
	def.slipperiness = 0.98;
	job->failed |= bp_world_define_block(w, &def, &ice) != BP_OK;
	const int32_t lo[3] = {-32, -1, -32}, hi[3] = {31, 0, 31};
	job->failed |= bp_world_fill(w, lo, hi, stone) != BP_OK;
	const int32_t ilo[3] = {-8, 0, -8}, ihi[3] = {8, 0, 8};
	job->failed |= bp_world_fill(w, ilo, ihi, ice) != BP_OK;
	for (int k = 0; k < 12; k++)
		job->failed |= bp_world_set_block(w, (k * 7 + job->seed) % 40 - 20, 1,
		                                  (k * 11 + job->seed * 3) % 40 - 20, stone) != BP_OK;
	for (int i = 0; i < ENTITIES; i++) {
		bp_EntityDef e = bp_default_entity_def();
		if ((i + job->seed) % 4 == 1) {
			e.rules = bp_rules_mccpp();
		} else if ((i + job->seed) % 4 == 2) {
			e.rules.resolver = BP_RESOLVER_SWEPT;
		}
		e.x = (i % 20) * 1.5 - 15 + 0.25 * job->seed;
		e.z = (i / 20) * 1.5 - 11;
		e.y = 1 + (i % 3);
		bp_EntityId id;
		if (bp_world_spawn(w, &e, &id) != BP_OK) {
			job->failed = 1;
			continue;
		}
		bp_EntityInput in = {0};
		in.forward = (i + job->seed) % 3 ? 1 : -0.5;
		in.strafe = (i % 5) * 0.25 - 0.5;
		in.yaw = (i * 47 + job->seed * 90) % 360;
		in.jumping = (i + job->seed) % 6 == 0;
		job->failed |= bp_entity_set_input(w, id, &in) != BP_OK;
	}
	for (int t = 0; t < TICKS; t++)
		job->failed |= bp_world_step(w, 0.05) != BP_OK;
	uint64_t h = 1469598103934665603u;
	bp_EntityId ids[ENTITIES];
	uint32_t n;
	job->failed |= bp_world_get_entities(w, ids, ENTITIES, &n) != BP_OK || n > ENTITIES;
	for (uint32_t i = 0; i < n && i < ENTITIES; i++) {
		double p[3];
		job->failed |= bp_entity_get_position(w, ids[i], p) != BP_OK;
		const unsigned char *c = (const unsigned char *)p;
		for (size_t k = 0; k < sizeof p; k++)
			h = (h ^ c[k]) * 1099511628211u;
	}
	job->digest = h;
	bp_world_destroy(w);
	return NULL;
}

static void test_four_threads(void **state)
{
	(void)state;
	Job serial[WORLDS], parallel[WORLDS];
	for (int k = 0; k < WORLDS; k++) {
		serial[k] = (Job){k, 0, 0};
		parallel[k] = (Job){k, 0, 0};
		run_scene(&serial[k]);
		assert_false(serial[k].failed);
	}
	/* four different scenes: four different digests (else the comparison below
	 * could not tell the worlds apart) */
	for (int a = 0; a < WORLDS; a++)
		for (int b = a + 1; b < WORLDS; b++)
			assert_true(serial[a].digest != serial[b].digest);
	pthread_t th[WORLDS];
	for (int k = 0; k < WORLDS; k++)
		assert_int_equal(pthread_create(&th[k], NULL, run_scene, &parallel[k]), 0);
	for (int k = 0; k < WORLDS; k++)
		assert_int_equal(pthread_join(th[k], NULL), 0);
	for (int k = 0; k < WORLDS; k++) {
		assert_false(parallel[k].failed);
		assert_true(parallel[k].digest == serial[k].digest);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_four_threads)};
	return cmocka_run_group_tests_name("blockphys threads", tests, NULL, NULL);
}
