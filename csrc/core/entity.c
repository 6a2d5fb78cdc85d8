/* SPDX-License-Identifier: MIT
 * entity.c - the entity pool: free-list slots, generations, creation order.
 */
#include "entity.h"
#include "bp_world.h"
#include "alloc.h"

#include <float.h>
#include <math.h>
#include <string.h>

bp_EntityDef bp_default_entity_def(void)
{
	bp_EntityDef d;
	memset(&d, 0, sizeof d);
	d.width = 0.6000000238418579;  /* 0.6F: EntityPlayer setSize */
	d.height = 1.7999999523162842; /* 1.8F */
	d.group = 1;
	d.mask = UINT32_MAX;
	d.rules = bp_rules_beta173();
	return d;
}

static int def_ok(const bp_EntityDef *d)
{
	if (!(d->width > 0 && d->width <= BP_MAX_ENTITY_WIDTH))
		return 0;
	if (!(d->height > 0 && d->height <= BP_MAX_ENTITY_HEIGHT))
		return 0;
	return fabs(d->x) <= BP_MAX_COORD && fabs(d->y) <= BP_MAX_COORD &&
	       fabs(d->z) <= BP_MAX_COORD;
}

void bp_entity_place(bp_Entity *e, const double pos[3])
{
	double h = e->width / 2;
	e->box = bp_aabb_make(pos[0] - h, pos[1], pos[2] - h, pos[0] + h, pos[1] + e->height,
	                      pos[2] + h);
}

uint32_t bp_world_next_slot(const bp_World *w)
{
	const bp_EntityPool *p = &w->entities;
	return p->nfree ? p->free_slots[p->nfree - 1] + 1 : p->count + 1;
}

bp_Status bp_world_spawn(bp_World *w, const bp_EntityDef *def, bp_EntityId *id)
{
	bp_EntityPool *p = &w->entities;
	if (w->locked) /* the public API's check (the binding's first) */
		return BP_ELOCKED;
	if (!def_ok(def) || bp_rules_error(&def->rules)) /* rules: the public API's check */
		return BP_EINVAL;
	/* Reserve every array first so that a failure changes nothing. */
	bp_entities_compact(w); /* bounds the order array: holes come back here at the latest */
	bp_Status st = bp_grow(&w->mem, (void **)&p->order, &p->order_cap, p->norder + 1,
	                       sizeof(uint32_t));
	if (st == BP_OK && !p->nfree)
		st = bp_grow(&w->mem, (void **)&p->items, &p->cap, p->count + 1, sizeof(bp_Entity));
	if (st == BP_OK && !p->nfree)
		st = bp_grow(&w->mem, (void **)&p->input, &p->input_cap, p->count + 1,
		             sizeof(bp_EntityInput));
	if (st == BP_OK && !p->nfree)
		st = bp_grow(&w->mem, (void **)&p->live, &p->live_cap, p->count + 1, sizeof(uint32_t));
	if (st == BP_OK && !p->nfree)
		st = bp_grow(&w->mem, (void **)&p->pos, &p->pos_cap, p->count + 1, sizeof(uint32_t));
	/* Sleeping's lists (sleep.c) hold up to every entity: reserved here, so that a
	 * wake never needs memory. */
	if (st == BP_OK && !p->nfree)
		st = bp_grow(&w->mem, (void **)&p->asleep, &p->asleep_cap, p->count + 1, 1);
	if (st == BP_OK)
		st = bp_grow(&w->mem, (void **)&w->awake, &w->awake_cap, p->norder + 1,
		             sizeof(uint32_t));
	if (st == BP_OK)
		st = bp_grow(&w->mem, (void **)&w->late, &w->late_cap, p->norder + 1,
		             sizeof(uint32_t));
	if (st == BP_OK)
		st = bp_grow(&w->mem, (void **)&w->quiet_list, &w->quiet_cap, p->norder + 1,
		             sizeof(uint32_t));
	if (st == BP_OK)
		st = bp_grow(&w->mem, (void **)&w->disturbed_list, &w->disturbed_cap, p->norder + 1,
		             sizeof(uint32_t));
	if (st != BP_OK)
		return st;
	uint32_t slot;
	uint32_t generation = 0;
	if (p->nfree) {
		slot = p->free_slots[--p->nfree];
		generation = p->items[slot].generation;
	} else {
		slot = p->count++;
	}
	bp_Entity *e = &p->items[slot];
	memset(e, 0, sizeof *e);
	e->generation = generation + 1 ? generation + 1 : 1; /* 0 marks a free slot in live */
	e->serial = p->next_serial++;
	e->width = def->width;
	e->height = def->height;
	e->sensor = (uint8_t)(def->sensor != 0);
	e->solid = (uint8_t)(def->solid != 0 && !e->sensor); /* a sensor blocks nothing */
	e->carry = (uint8_t)(def->carry != 0);
	e->group = def->group;
	e->mask = def->mask;
	e->rules = def->rules;
	bp_entity_rules_copied(e);
	e->alive = 1;
	p->live[slot] = e->generation;
	memset(&p->input[slot], 0, sizeof p->input[slot]);
	e->stable = 0; /* unstable until the end of its first step (separation push) */
	w->unstable = 1;
	double pos[3] = {def->x, def->y, def->z};
	bp_entity_place(e, pos);
	memcpy(e->prev, pos, sizeof pos);
	p->pos[slot] = p->norder;
	p->order[p->norder++] = slot;
	p->nlive++;
	w->nsolid += e->solid;
	w->sensing.nsensors += e->sensor;
	p->asleep[slot] = 0;
	w->awake_dirty = 1; /* (the sleepers near it wake when the next step begins) */
	id->index1 = slot + 1;
	id->generation = e->generation;
	return BP_OK;
}

void bp_entity_set_rules(bp_World *w, bp_Entity *e, const bp_Rules *r)
{
	e->rules = *r; /* (the caller touched it first: bp_entity_touch) */
	bp_entity_rules_copied(e);
	if (r->model != BP_MODEL_BETA173)
		e->in_web = 0; /* a Beta flag: other models neither set nor clear it */
	w->rules_writes++;
}

bp_Entity *bp_world_entity(bp_World *w, bp_EntityId id)
{
	bp_EntityPool *p = &w->entities;
	if (id.index1 == 0 || id.index1 > p->count)
		return NULL; /* null or out of range */
	/* The compact array answers without touching the entity (generations start at 1). */
	if (p->live[id.index1 - 1] != id.generation)
		return NULL; /* removed, or the slot was reused */
	return &p->items[id.index1 - 1];
}

bp_Status bp_entities_remove(bp_World *w, bp_EntityId id)
{
	bp_EntityPool *p = &w->entities;
	bp_Entity *e = bp_world_entity(w, id);
	if (!e)
		return BP_EINVAL;
	uint32_t slot = id.index1 - 1;
	/* The free list can hold every slot: grow it to the pool's size. */
	if (bp_grow(&w->mem, (void **)&p->free_slots, &p->free_cap, p->count, sizeof(uint32_t)) != BP_OK)
		return BP_ENOMEM; /* nothing changed */
	w->awake_dirty = 1; /* (bp_world_remove woke it and the sleepers near it) */
	w->nsolid -= e->solid;
	w->sensing.nsensors -= e->sensor;
	e->alive = 0; /* the generation is kept; bumped when the slot is reused */
	p->live[slot] = 0;
	p->free_slots[p->nfree++] = slot;
	/* A hole in the creation order, not a shift of every later entity: removing n
	 * entities one by one then costs O(n), not O(n^2). Readers compact first. */
	p->order[p->pos[slot]] = BP_NO_SLOT;
	p->nlive--;
	if (p->norder - p->nlive > p->nlive + 1024) /* memory stays O(live) */
		bp_entities_compact(w);
	return BP_OK;
}

void bp_entities_compact(bp_World *w)
{
	bp_EntityPool *p = &w->entities;
	if (p->norder == p->nlive)
		return;
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		const uint32_t slot = p->order[i];
		if (slot != BP_NO_SLOT) {
			p->pos[slot] = n;
			p->order[n++] = slot;
		}
	}
	p->norder = n;
}

uint32_t bp_world_entity_count(const bp_World *w)
{
	return w->entities.nlive;
}

uint32_t bp_world_entity_slot(bp_World *w, uint32_t i)
{
	bp_entities_compact(w);
	return w->entities.order[i];
}

bp_Entity *bp_world_slot_entity(bp_World *w, uint32_t slot)
{
	return &w->entities.items[slot];
}

void bp_entity_set_solid(bp_World *w, bp_Entity *e, int solid)
{
	const uint8_t v = (uint8_t)(solid != 0 && !e->sensor); /* a sensor blocks nothing */
	if (v != e->solid)
		w->nsolid += v ? 1 : (uint32_t)-1;
	e->solid = v;
}

int bp_world_any_hooks(bp_World *w)
{
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	/* A sleeper has no hooks (sleep.c): the awake list answers when it is current,
	 * else the per-slot sleep flags skip the sleepers without touching them. */
	const int awake = w->nsleeping && !w->awake_dirty;
	const uint32_t n = awake ? w->nawake : p->norder;
	const uint32_t *list = awake ? w->awake : p->order;
	for (uint32_t i = 0; i < n; i++) {
		if (!awake && w->nsleeping && p->asleep[list[i]])
			continue;
		const bp_Entity *e = &p->items[list[i]];
		if (e->rules.hook_heading || e->rules.hook_jump || e->has_filter)
			return 1;
	}
	return 0;
}

/* A snapshot: every slot's bp_Entity, then every slot's bp_EntityInput. */
size_t bp_world_snapshot_size(const bp_World *w)
{
	return (size_t)w->entities.count * (sizeof(bp_Entity) + sizeof(bp_EntityInput));
}

void bp_world_snapshot_save(const bp_World *w, void *buf)
{
	const bp_EntityPool *p = &w->entities;
	const size_t items = (size_t)p->count * sizeof(bp_Entity);
	memcpy(buf, p->items, items);
	memcpy((char *)buf + items, p->input, (size_t)p->count * sizeof(bp_EntityInput));
}

void bp_world_snapshot_restore(bp_World *w, const void *buf)
{
	bp_EntityPool *p = &w->entities;
	const size_t items = (size_t)p->count * sizeof(bp_Entity);
	memcpy(p->items, buf, items);
	memcpy(p->input, (const char *)buf + items, (size_t)p->count * sizeof(bp_EntityInput));
	/* Sleeping's marks of the step (sleep.c) are listed apart: none is kept. */
	for (uint32_t i = 0; i < p->count; i++)
		p->items[i].quiet = p->items[i].disturbed = 0;
	w->nquiet = w->ndisturbed = 0;
}

void bp_world_entity_save(const bp_World *w, uint32_t slot, bp_EntityState *s)
{
	s->entity = w->entities.items[slot];
	s->input = w->entities.input[slot];
}

void bp_world_entity_restore(bp_World *w, uint32_t slot, const bp_EntityState *s)
{
	w->entities.items[slot] = s->entity;
	w->entities.input[slot] = s->input;
}


void bp_entities_free(bp_World *w)
{
	bp_EntityPool *p = &w->entities;
	bp_free(&w->mem, p->items, (size_t)p->cap * sizeof(bp_Entity));
	bp_free(&w->mem, p->input, (size_t)p->input_cap * sizeof(bp_EntityInput));
	bp_free(&w->mem, p->live, (size_t)p->live_cap * sizeof(uint32_t));
	bp_free(&w->mem, p->free_slots, (size_t)p->free_cap * sizeof(uint32_t));
	bp_free(&w->mem, p->order, (size_t)p->order_cap * sizeof(uint32_t));
	bp_free(&w->mem, p->pos, (size_t)p->pos_cap * sizeof(uint32_t));
	bp_free(&w->mem, p->asleep, (size_t)p->asleep_cap);
}

double bp_fall_add(const bp_Entity *e, double drop)
{
	double sum = e->fall_distance + drop;
	if (e->rules.model != BP_MODEL_BETA173 || !(fabs(sum) <= FLT_MAX))
		return sum;
	return (double)(float)sum;
}
