/* SPDX-License-Identifier: MIT
 * world.c - world lifetime, block type registry, static colliders.
 * Blocks live in chunk.c, region queries in query.c, entities in entity.c.
 */
#include "bp_world.h"
#include "alloc.h"
#include "broadphase.h"
#include "chunk.h"
#include "entity.h"
#include "events.h"
#include "sensor.h"
#include "sleep.h"

#include <string.h>

static const bp_AABB FULL_CUBE = {{0, 0, 0}, {1, 1, 1}};

bp_World *bp_world_create(bp_AllocFn alloc, void *ud)
{
	bp_World *w = alloc(ud, NULL, 0, sizeof *w);
	if (!w)
		return NULL;
	memset(w, 0, sizeof *w);
	w->mem.fn = alloc;
	w->mem.ud = ud;
	w->mem.bytes = sizeof *w;
	w->block_version = 1; /* 0 marks an empty bp_GatherCache */
	w->prefetch_crowd = BP_PREFETCH_CROWD;
	/* Sleeping stays off for a C host, which may write entity fields directly
	 * (bp_world_set_sleeping; the Lua binding turns it on). */
	bp_chunks_init(w);
	bp_events_init(w);
	/* Type 0 is air: no boxes. */
	bp_BlockDef air = bp_default_block_def();
	air.name = "air";
	air.nboxes = 0;
	uint16_t id;
	if (bp_world_define_block(w, &air, &id) != BP_OK) {
		bp_world_destroy(w);
		return NULL;
	}
	return w;
}

void bp_world_destroy(bp_World *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; i < w->ntypes; i++) {
		bp_BlockType *t = &w->types[i];
		bp_free(&w->mem, t->name, strlen(t->name) + 1);
		bp_free(&w->mem, t->shape, (size_t)t->nshape * sizeof(bp_AABB));
		if (t->outline != t->shape)
			bp_free(&w->mem, t->outline, (size_t)t->noutline * sizeof(bp_AABB));
	}
	bp_free(&w->mem, w->types, (size_t)w->types_cap * sizeof(bp_BlockType));
	bp_free(&w->mem, w->name_slots, (size_t)w->name_cap * sizeof(uint32_t));
	bp_chunks_free(w);
	bp_free(&w->mem, w->colliders, (size_t)w->colliders_cap * sizeof(bp_StaticCollider));
	bp_entities_free(w);
	bp_events_free(w);
	bp_sensing_free(w);
	bp_broadphase_free(w);
	bp_free(&w->mem, w->scratch.items, w->scratch.cap * sizeof(bp_AABB));
	bp_free(&w->mem, w->sep_list, (size_t)w->sep_cap * sizeof(uint32_t));
	bp_sleep_free(w);
	w->mem.fn(w->mem.ud, w, sizeof *w, 0);
}

uint32_t bp_world_set_prefetch_crowd(bp_World *w, uint32_t n)
{
	const uint32_t before = w->prefetch_crowd;
	w->prefetch_crowd = n;
	return before;
}

void bp_world_set_handle_tag(bp_World *w, uint32_t tag)
{
	w->handle_tag = tag & BP_HANDLE_TAG_MAX;
}

bp_WorldStats bp_world_stats(const bp_World *w)
{
	bp_WorldStats s;
	s.blocks = w->stored_blocks;
	s.chunks = w->nchunks;
	s.bytes = w->mem.bytes;
	s.block_types = w->ntypes;
	s.entities = w->entities.nlive;
	s.colliders = w->live_colliders;
	return s;
}

bp_BlockDef bp_default_block_def(void)
{
	bp_BlockDef d;
	memset(&d, 0, sizeof d);
	d.nboxes = -1; /* full cube */
	d.slipperiness = 0.6000000238418579; /* 0.6F, Block.slipperiness */
	d.liquid = BP_LIQUID_NONE;
	d.velocity_factor = 1;
	d.solid = -1;
	d.normal_cube = -1;
	d.noutline = -1;
	return d;
}

/* The problem of a definition's boxes (outline: its outline boxes), else NULL. */
static const char *boxes_error(const bp_AABB *boxes, int n, int outline)
{
	static const char *const msg[2][4] = {
		{"too many boxes (at most 64)", "box has min > max (or NaN)",
		 "box leaves its cell on X or Z (coordinates must be in [0, 1])",
		 "box Y must be in [0, 2] (at most one block above the cell)"},
		{"too many outline boxes (at most 64)", "outline box has min > max (or NaN)",
		 "outline box leaves its cell on X or Z (coordinates must be in [0, 1])",
		 "outline box Y must be in [0, 2] (at most one block above the cell)"},
	};
	if (n > BP_MAX_TYPE_BOXES)
		return msg[outline][0];
	for (int i = 0; i < n; i++) {
		const bp_AABB *b = &boxes[i];
		for (int a = 0; a < 3; a++) {
			if (!(b->lo[a] <= b->hi[a]))
				return msg[outline][1];
		}
		if (b->lo[0] < 0 || b->hi[0] > 1 || b->lo[2] < 0 || b->hi[2] > 1)
			return msg[outline][2];
		if (b->lo[1] < 0 || b->hi[1] > 2)
			return msg[outline][3];
	}
	return NULL;
}

const char *bp_block_def_error(const bp_BlockDef *def)
{
	if (!def->name || !def->name[0])
		return "name must be a non-empty string";
	const char *err = boxes_error(def->boxes, def->nboxes, 0);
	if (!err)
		err = boxes_error(def->outline, def->noutline, 1);
	if (err)
		return err;
	if (!(def->slipperiness >= 0 && def->slipperiness <= 1.5))
		return "slipperiness must be in [0, 1.5]";
	if (!(def->velocity_factor >= 0 && def->velocity_factor <= 1))
		return "velocity_factor must be in [0, 1]";
	if (def->liquid < BP_LIQUID_NONE || def->liquid > BP_LIQUID_LAVA)
		return "liquid must be none, water or lava";
	if (def->level < 0 || def->level > 15)
		return "level must be an integer in [0, 15]";
	if (def->level && def->liquid == BP_LIQUID_NONE)
		return "level needs liquid = \"water\" or \"lava\"";
	if (def->one_way < BP_FACE_NONE || def->one_way > BP_FACE_NORTH)
		return BP_ONE_WAY_ERROR;
	return NULL;
}

/* FNV-1a: names are short; determinism does not depend on it (lookups only). */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

int32_t bp_world_find_type(const bp_World *w, const char *name)
{
	if (!w->name_cap)
		return -1;
	uint32_t mask = w->name_cap - 1;
	for (uint32_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
		uint32_t v = w->name_slots[i];
		if (!v)
			return -1;
		if (strcmp(w->types[v - 1].name, name) == 0)
			return (int32_t)(v - 1);
	}
}

const bp_BlockType *bp_world_block_type(const bp_World *w, uint32_t id)
{
	return id < w->ntypes ? &w->types[id] : NULL;
}

static void name_insert(uint32_t *slots, uint32_t cap, const char *name, uint32_t id)
{
	uint32_t mask = cap - 1;
	uint32_t i = name_hash(name) & mask;
	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = id + 1;
}

/* Keep the name table under half full; rebuilt whole when grown. */
static bp_Status name_reserve(bp_World *w, uint32_t n)
{
	if (n * 2 <= w->name_cap)
		return BP_OK;
	uint32_t cap = w->name_cap ? w->name_cap * 2 : 64;
	while (cap < n * 2)
		cap *= 2;
	uint32_t *slots = bp_alloc(&w->mem, (size_t)cap * sizeof *slots);
	if (!slots)
		return BP_ENOMEM;
	memset(slots, 0, (size_t)cap * sizeof *slots);
	for (uint32_t t = 0; t < w->ntypes; t++)
		name_insert(slots, cap, w->types[t].name, t);
	bp_free(&w->mem, w->name_slots, (size_t)w->name_cap * sizeof(uint32_t));
	w->name_slots = slots;
	w->name_cap = cap;
	return BP_OK;
}

bp_Status bp_world_define_block(bp_World *w, const bp_BlockDef *def, uint16_t *id)
{
	if (w->locked)
		return BP_ELOCKED;
	if (bp_block_def_error(def))
		return BP_EINVAL;
	if (bp_world_find_type(w, def->name) >= 0)
		return BP_EEXIST;
	if (w->ntypes > BP_MAX_TYPES)
		return BP_ELIMIT;
	const bp_AABB *src = def->nboxes < 0 ? &FULL_CUBE : def->boxes;
	int nboxes = def->nboxes < 0 ? 1 : def->nboxes;
	size_t namelen = strlen(def->name) + 1;
	/* Reserve everything first so that a failure changes nothing. */
	bp_Status st = bp_grow(&w->mem, (void **)&w->types, &w->types_cap, w->ntypes + 1,
	                       sizeof(bp_BlockType));
	if (st == BP_OK)
		st = name_reserve(w, w->ntypes + 1);
	if (st != BP_OK)
		return st;
	char *name = bp_alloc(&w->mem, namelen);
	bp_AABB *boxes = nboxes ? bp_alloc(&w->mem, (size_t)nboxes * sizeof *boxes) : NULL;
	/* An outline of its own, or the boxes themselves (never freed twice). */
	const int own_outline = def->noutline > 0;
	bp_AABB *outline = own_outline
	                       ? bp_alloc(&w->mem, (size_t)def->noutline * sizeof *outline)
	                       : def->noutline == 0 ? NULL : boxes;
	if (!name || (nboxes && !boxes) || (own_outline && !outline)) {
		bp_free(&w->mem, name, namelen);
		bp_free(&w->mem, boxes, (size_t)nboxes * sizeof *boxes);
		if (own_outline)
			bp_free(&w->mem, outline, (size_t)def->noutline * sizeof *outline);
		return BP_ENOMEM;
	}
	memcpy(name, def->name, namelen);
	if (nboxes)
		memcpy(boxes, src, (size_t)nboxes * sizeof *boxes);
	bp_BlockType *t = &w->types[w->ntypes];
	t->name = name;
	t->shape = boxes;
	t->nshape = nboxes;
	t->one_way = (uint8_t)def->one_way;
	/* A one-way type's boxes are left out of every gather: solid.c adds them for the
	 * movers they stop. */
	t->boxes = t->one_way ? NULL : boxes;
	t->nboxes = t->one_way ? 0 : nboxes;
	w->one_way += t->one_way != 0;
	t->noutline = def->noutline < 0 ? nboxes : def->noutline;
	t->outline = outline;
	if (own_outline)
		memcpy(outline, def->outline, (size_t)def->noutline * sizeof *outline);
	for (int i = 0; i < t->noutline; i++) {
		if (outline[i].hi[1] > 1)
			w->tall_outlines = 1;
	}
	t->slipperiness = def->slipperiness;
	t->liquid = (uint8_t)def->liquid;
	t->climbable = (uint8_t)(def->climbable != 0);
	w->has_climbable |= t->climbable;
	t->web = (uint8_t)(def->web != 0);
	t->velocity_factor = def->velocity_factor;
	t->touch = t->web || t->velocity_factor != 1;
	w->has_touch |= t->touch;
	w->has_liquid |= t->liquid != 0;
	t->level = (uint8_t)def->level;
	t->solid = (uint8_t)(def->solid < 0 ? nboxes > 0 && def->liquid == BP_LIQUID_NONE
	                                    : def->solid != 0);
	t->ice = (uint8_t)(def->ice != 0);
	for (int i = 0; i < nboxes; i++) {
		if (boxes[i].hi[1] > 1)
			w->tall_shapes = 1;
	}
	t->full_cube = t->nboxes == 1 && boxes[0].lo[0] == 0 && boxes[0].lo[1] == 0 &&
	               boxes[0].lo[2] == 0 && boxes[0].hi[0] == 1 && boxes[0].hi[1] == 1 &&
	               boxes[0].hi[2] == 1;
	t->normal_cube = (uint8_t)(def->normal_cube < 0 ? t->full_cube && t->solid
	                                                : def->normal_cube != 0);
	w->has_normal_cube |= t->normal_cube;
	name_insert(w->name_slots, w->name_cap, name, w->ntypes);
	*id = (uint16_t)w->ntypes;
	w->ntypes++;
	w->block_version++; /* a tall shape changes which cells a gather walks */
	bp_sleep_wake_all(w); /* (rare) a sleeper's tick may read the new flags */
	return BP_OK;
}

#define SLOT_MASK ((uint64_t)BP_MAX_COLLIDERS)
#define GEN_MASK ((uint64_t)BP_MAX_COLLIDER_GEN)
#define GEN_SHIFT 24
#define TAG_SHIFT 48

/* A new slot at the end of the array (generation 0, bumped by the caller). */
static bp_Status grow_colliders(bp_World *w, uint32_t *slot)
{
	if (w->ncolliders >= BP_MAX_COLLIDERS)
		return BP_ELIMIT; /* the handle's 24 bits of slot are used up */
	bp_Status st = bp_grow(&w->mem, (void **)&w->colliders, &w->colliders_cap, w->ncolliders + 1,
	                       sizeof(bp_StaticCollider));
	if (st != BP_OK)
		return st;
	*slot = w->ncolliders++;
	w->colliders[*slot].generation = 0; /* grown memory is not zeroed */
	return BP_OK;
}

bp_Status bp_world_add_collider(bp_World *w, const bp_AABB *box, uint64_t *handle)
{
	bp_Status bad = bp_box_check(w, box); /* the public API's (the binding's first) */
	if (bad != BP_OK)
		return bad;
	uint32_t slot;
	if (w->colliders_free) { /* the last freed slot: O(1), no search */
		slot = w->colliders_free - 1;
		w->colliders_free = w->colliders[slot].next_free;
	} else {
		bp_Status st = grow_colliders(w, &slot);
		if (st != BP_OK)
			return st;
	}
	bp_StaticCollider *c = &w->colliders[slot];
	c->box = *box;
	c->alive = BP_COLLIDER_LIVE;
	c->one_way = BP_FACE_NONE;
	c->generation++; /* at most BP_MAX_COLLIDER_GEN: see bp_world_remove_collider */
	w->live_colliders++;
	bp_sleep_region_changed(w, box); /* sleepers within reach wake */
	*handle = bp_world_collider_handle(w, slot + 1);
	return BP_OK;
}

uint64_t bp_world_collider_handle(const bp_World *w, uint32_t index1)
{
	return (uint64_t)w->handle_tag << TAG_SHIFT |
	       (uint64_t)w->colliders[index1 - 1].generation << GEN_SHIFT | index1;
}

uint32_t bp_world_collider_slot(const bp_World *w, uint64_t handle)
{
	const uint32_t index1 = (uint32_t)(handle & SLOT_MASK);
	if (index1 == 0 || index1 > w->ncolliders)
		return 0; /* never added */
	const bp_StaticCollider *c = &w->colliders[index1 - 1];
	if (!c->alive)
		return 0; /* removed */
	if (((handle >> GEN_SHIFT) & GEN_MASK) != c->generation)
		return 0; /* the slot was reused since */
	if ((handle >> TAG_SHIFT) != w->handle_tag)
		return 0; /* another world's handle */
	return index1;
}

void bp_world_set_collider_one_way(bp_World *w, uint32_t index1, int face)
{
	bp_StaticCollider *c = &w->colliders[index1 - 1];
	w->one_way -= c->one_way != BP_FACE_NONE;
	c->one_way = (uint8_t)face;
	c->alive = face ? BP_COLLIDER_ONE_WAY : BP_COLLIDER_LIVE;
	w->one_way += face != BP_FACE_NONE;
	bp_sleep_region_changed(w, &c->box);
}

void bp_world_remove_collider(bp_World *w, uint32_t index1)
{
	bp_StaticCollider *c = &w->colliders[index1 - 1];
	w->one_way -= c->one_way != BP_FACE_NONE;
	c->one_way = BP_FACE_NONE;
	c->alive = BP_COLLIDER_FREE;
	w->live_colliders--;
	bp_sleep_region_changed(w, &c->box);
	if (c->generation >= BP_MAX_COLLIDER_GEN)
		return; /* retired: reused, its next handle would repeat an old one */
	c->next_free = w->colliders_free;
	w->colliders_free = index1;
}

const bp_AABB *bp_world_collider_box(const bp_World *w, uint32_t index1)
{
	return &w->colliders[index1 - 1].box;
}

bp_Status bp_world_remove(bp_World *w, bp_EntityId id)
{
	bp_Entity *e = bp_world_entity(w, id);
	if (!e || w->locked) /* the public API's checks (the binding's first) */
		return e ? BP_ELOCKED : BP_ESTALE;
	const int sensed = e && e->sensed;
	if (e)
		bp_entity_touch(w, e); /* it wakes (counts), and so do the sleepers near it */
	bp_Status st = bp_entities_remove(w, id);
	if (st == BP_OK && sensed) /* its overlaps end: leave events (the slot keeps its */
		bp_sensing_entity_removed(w, id.index1 - 1); /* generation until reused) */
	return st;
}
