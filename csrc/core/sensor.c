/* SPDX-License-Identifier: MIT
 * sensor.c - triggers and sensor entities: boxes that block nothing and report the
 * entities entering and leaving them. After each step the overlaps are found through
 * the broadphase (a query per trigger and per sensor: a world pays for the overlaps it
 * has, never for all pairs), sorted, and compared with the last step's: what appears
 * is an enter event, what is gone a leave event. A removed entity or trigger leaves
 * at once.
 */
#include "sensor.h"
#include "alloc.h"
#include "events.h"

#include <stdlib.h>

#define SLOT_MASK ((uint64_t)BP_MAX_COLLIDERS)
#define GEN_MASK ((uint64_t)BP_MAX_COLLIDER_GEN)
#define GEN_SHIFT 24
#define TAG_SHIFT 48
#define SENSOR_KEY ((uint64_t)1 << 63)

/* ------------------------------------------------------------------ triggers */

static uint64_t trigger_handle(const bp_World *w, uint32_t index1)
{
	return (uint64_t)w->handle_tag << TAG_SHIFT |
	       (uint64_t)w->sensing.triggers[index1 - 1].generation << GEN_SHIFT | index1;
}

bp_Status bp_world_add_trigger(bp_World *w, const bp_AABB *box, uint32_t group, uint32_t mask,
                               uint64_t *handle)
{
	bp_Sensing *s = &w->sensing;
	uint32_t slot;
	if (s->free) {
		slot = s->free - 1;
		s->free = s->triggers[slot].next_free;
	} else {
		if (s->ntriggers >= BP_MAX_COLLIDERS)
			return BP_ELIMIT;
		bp_Status st = bp_grow(&w->mem, (void **)&s->triggers, &s->triggers_cap,
		                       s->ntriggers + 1, sizeof *s->triggers);
		if (st != BP_OK)
			return st;
		slot = s->ntriggers++;
		s->triggers[slot].generation = 0;
	}
	bp_Trigger *t = &s->triggers[slot];
	t->box = *box;
	t->group = group;
	t->mask = mask;
	t->serial = s->next_serial++;
	t->alive = 1;
	t->generation++;
	s->live++;
	*handle = trigger_handle(w, slot + 1);
	return BP_OK;
}

uint32_t bp_world_trigger_slot(const bp_World *w, uint64_t handle)
{
	const bp_Sensing *s = &w->sensing;
	const uint32_t index1 = (uint32_t)(handle & SLOT_MASK);
	if (index1 == 0 || index1 > s->ntriggers)
		return 0;
	const bp_Trigger *t = &s->triggers[index1 - 1];
	if (!t->alive || ((handle >> GEN_SHIFT) & GEN_MASK) != t->generation ||
	    (handle >> TAG_SHIFT) != w->handle_tag)
		return 0;
	return index1;
}

const bp_AABB *bp_world_trigger_box(const bp_World *w, uint32_t index1)
{
	return &w->sensing.triggers[index1 - 1].box;
}

/* An enter or leave event of pair p (the sensor entity is named too). */
static void pair_event(bp_World *w, int type, const bp_SensePair *p)
{
	bp_Event *ev = bp_event_push(w, type, p->entity.index1 - 1);
	if (!ev)
		return;
	ev->trigger = p->trigger;
	ev->sensor = p->sensor;
	if (p->sensor.index1)
		w->entities.items[p->sensor.index1 - 1].in_events = 1;
}

/* The live entity id names, or NULL (as bp_world_entity, which entity.c has: entity.c
 * calls this file when it removes one). */
static bp_Entity *live(bp_World *w, bp_EntityId id)
{
	if (id.index1 == 0 || id.index1 > w->entities.count)
		return NULL;
	bp_Entity *e = &w->entities.items[id.index1 - 1];
	return e->alive && e->generation == id.generation ? e : NULL;
}

/* The overlap count of the pair's members goes up by `by` (or down). */
static void count_pair(bp_World *w, const bp_SensePair *p, int by)
{
	bp_Entity *e = live(w, p->entity);
	if (e)
		e->sensed += (uint32_t)by;
	e = live(w, p->sensor);
	if (e)
		e->sensed += (uint32_t)by;
}

/* Leave events for the pairs `keep` refuses, in pair order, and drop them. */
typedef int (*PairTest)(const bp_SensePair *p, const void *ctx);

static void leave_where(bp_World *w, PairTest ends, const void *ctx)
{
	bp_Sensing *s = &w->sensing;
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->npairs; i++) {
		const bp_SensePair *p = &s->pairs[i];
		if (ends(p, ctx)) {
			pair_event(w, BP_EVENT_LEAVE, p);
			count_pair(w, p, -1);
		} else {
			s->pairs[n++] = *p;
		}
	}
	s->npairs = n;
}

static int of_trigger(const bp_SensePair *p, const void *ctx)
{
	return p->trigger == *(const uint64_t *)ctx;
}

void bp_world_remove_trigger(bp_World *w, uint32_t index1)
{
	bp_Sensing *s = &w->sensing;
	const uint64_t handle = trigger_handle(w, index1);
	leave_where(w, of_trigger, &handle);
	bp_Trigger *t = &s->triggers[index1 - 1];
	t->alive = 0;
	s->live--;
	if (t->generation >= BP_MAX_COLLIDER_GEN)
		return; /* retired, as colliders' slots */
	t->next_free = s->free;
	s->free = index1;
}

static int of_entity(const bp_SensePair *p, const void *ctx)
{
	const bp_EntityId *id = ctx;
	return (p->entity.index1 == id->index1 && p->entity.generation == id->generation) ||
	       (p->sensor.index1 == id->index1 && p->sensor.generation == id->generation);
}

void bp_sensing_entity_removed(bp_World *w, uint32_t slot)
{
	const bp_EntityId id = {slot + 1, w->entities.items[slot].generation};
	leave_where(w, of_entity, &id);
}

void bp_sensing_free(bp_World *w)
{
	bp_Sensing *s = &w->sensing;
	bp_free(&w->mem, s->triggers, (size_t)s->triggers_cap * sizeof *s->triggers);
	bp_free(&w->mem, s->pairs, (size_t)s->pairs_cap * sizeof *s->pairs);
	bp_free(&w->mem, s->next, (size_t)s->next_cap * sizeof *s->next);
	s->triggers = NULL;
	s->pairs = s->next = NULL;
}

/* ------------------------------------------------------------- the overlaps */

typedef struct Gather {
	bp_World *w;
	uint64_t key, trigger;
	bp_EntityId sensor;
	uint32_t group, mask; /* the source's */
	const bp_Entity *self; /* a sensor entity, or NULL */
	int failed;            /* out of memory */
} Gather;

static int gather_one(void *ctx, uint32_t index)
{
	Gather *g = ctx;
	bp_Sensing *s = &g->w->sensing;
	const bp_Entity *o = &g->w->entities.items[index];
	if (o == g->self || !(g->mask & o->group) || !(o->mask & g->group))
		return 0;
	if (s->nnext == s->next_cap &&
	    bp_grow(&g->w->mem, (void **)&s->next, &s->next_cap, s->nnext + 1, sizeof *s->next) !=
	        BP_OK) {
		g->failed = 1;
		return 1;
	}
	bp_SensePair *p = &s->next[s->nnext++];
	p->key = g->key;
	p->serial = o->serial;
	p->entity.index1 = index + 1;
	p->entity.generation = o->generation;
	p->trigger = g->trigger;
	p->sensor = g->sensor;
	return 0;
}

static int pair_cmp(const void *va, const void *vb)
{
	const bp_SensePair *a = va, *b = vb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->serial < b->serial ? -1 : a->serial > b->serial;
}

/* Every overlap now into s->next, sorted; 0 if memory ran out. */
static int gather_all(bp_World *w)
{
	bp_Sensing *s = &w->sensing;
	s->nnext = 0;
	Gather g = {w, 0, 0, {0, 0}, 0, 0, NULL, 0};
	for (uint32_t i = 0; i < s->ntriggers && !g.failed; i++) {
		const bp_Trigger *t = &s->triggers[i];
		if (!t->alive)
			continue;
		g.key = t->serial;
		g.trigger = trigger_handle(w, i + 1);
		g.group = t->group;
		g.mask = t->mask;
		bp_broadphase_visit(w, &t->box, gather_one, &g);
	}
	if (s->nsensors) {
		g.trigger = 0;
		const bp_EntityPool *p = &w->entities;
		for (uint32_t i = 0; i < p->norder && !g.failed; i++) {
			const uint32_t slot = p->order[i];
			const bp_Entity *e = &p->items[slot];
			if (!e->sensor)
				continue;
			g.key = SENSOR_KEY | e->serial;
			g.sensor.index1 = slot + 1;
			g.sensor.generation = e->generation;
			g.group = e->group;
			g.mask = e->mask;
			g.self = e;
			bp_broadphase_visit(w, &e->box, gather_one, &g);
		}
	}
	if (g.failed)
		return 0;
	if (s->nnext) /* none found: next may be NULL (a world restored from a snapshot) */
		qsort(s->next, s->nnext, sizeof *s->next, pair_cmp);
	return 1;
}

void bp_sensing_update(bp_World *w)
{
	bp_Sensing *s = &w->sensing;
	if (!s->live && !s->nsensors && !s->npairs)
		return; /* nothing senses: a world without triggers pays nothing */
	if (!gather_all(w)) /* (the step compacted the creation order first) */
		return; /* out of memory: the overlaps stay as they were, tried again next step */
	/* Both lists are sorted: walk them together. */
	uint32_t i = 0, j = 0;
	while (i < s->npairs || j < s->nnext) {
		const int c = i == s->npairs ? 1 : j == s->nnext ? -1 : pair_cmp(&s->pairs[i], &s->next[j]);
		if (c < 0) {
			pair_event(w, BP_EVENT_LEAVE, &s->pairs[i]);
			count_pair(w, &s->pairs[i], -1);
			i++;
		} else if (c > 0) {
			pair_event(w, BP_EVENT_ENTER, &s->next[j]);
			count_pair(w, &s->next[j], 1);
			j++;
		} else {
			i++;
			j++;
		}
	}
	bp_SensePair *t = s->pairs;
	const uint32_t cap = s->pairs_cap;
	s->pairs = s->next;
	s->pairs_cap = s->next_cap;
	s->npairs = s->nnext;
	s->next = t;
	s->next_cap = cap;
	s->nnext = 0;
}
