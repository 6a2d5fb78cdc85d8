/* SPDX-License-Identifier: MIT
 * snapshot.c - taking a world's whole state into a snapshot and putting it back, into
 * the same world or another one (see snapshot.h for what it holds). Chunk id arrays
 * are shared copy-on-write (chunk.c), so that a snapshot of unchanged terrain copies
 * no blocks. Source: our own (the state save/restore of Rapier and Jolt, for a voxel
 * world).
 */
#include "snapshot.h"
#include "alloc.h"
#include "chunk.h"
#include "entity.h"
#include "sleep.h"

#include <stddef.h>
#include <string.h>

#define TAG_BITS 48
#define UNTAGGED ((1ull << TAG_BITS) - 1)

uint64_t bp_handle_untag(uint64_t h)
{
	return h & UNTAGGED;
}

uint64_t bp_handle_retag(uint64_t h, uint32_t tag)
{
	return h ? (h & UNTAGGED) | (uint64_t)tag << TAG_BITS : 0;
}

bp_EntityId bp_world_slot_id(const bp_World *w, uint32_t slot)
{
	bp_EntityId id = {0, 0};
	if (slot < w->entities.count && w->entities.live[slot]) {
		id.index1 = slot + 1;
		id.generation = w->entities.live[slot];
	}
	return id;
}

uint64_t bp_world_retag_handle(const bp_World *w, uint64_t handle)
{
	return bp_handle_retag(handle, w->handle_tag);
}

/* A copy of n bytes at p through a (NULL on failure; n 0 gives NULL and no failure). */
static void *dup(bp_Allocator *a, const void *p, size_t n, int *failed)
{
	if (!n)
		return NULL;
	void *q = bp_alloc(a, n);
	if (!q) {
		*failed = 1;
		return NULL;
	}
	memcpy(q, p, n);
	return q;
}

static void release_types(bp_Snapshot *s);

void bp_snapshot_release(bp_Snapshot *s)
{
	bp_Allocator *a = &s->mem;
	release_types(s);
	for (uint32_t i = 0; s->chunks && i < s->nchunks; i++)
		bp_ids_release(a, s->chunks[i].ids);
	bp_free(a, s->chunks, (size_t)s->nchunks * sizeof *s->chunks);
	bp_free(a, s->colliders, (size_t)s->ncolliders * sizeof *s->colliders);
	bp_free(a, s->items, (size_t)s->count * sizeof *s->items);
	bp_free(a, s->input, (size_t)s->count * sizeof *s->input);
	bp_free(a, s->live, (size_t)s->count * sizeof *s->live);
	bp_free(a, s->order, (size_t)s->norder * sizeof *s->order);
	bp_free(a, s->free_slots, (size_t)s->nfree * sizeof *s->free_slots);
	bp_free(a, s->triggers, (size_t)s->ntriggers * sizeof *s->triggers);
	bp_free(a, s->pairs, (size_t)s->npairs * sizeof *s->pairs);
	bp_free(a, s->events, (size_t)s->nevents * sizeof *s->events);
}

void bp_snapshot_free(bp_Snapshot *s)
{
	if (!s)
		return;
	bp_snapshot_release(s);
	bp_Allocator a = s->mem;
	bp_free(&a, s, sizeof *s);
}

int bp_world_same_ids(const bp_World *w, const bp_Snapshot *s)
{
	const bp_EntityPool *p = &w->entities;
	return p->count == s->count &&
	       (s->count == 0 || memcmp(p->live, s->live, (size_t)s->count * sizeof *s->live) == 0);
}

double *bp_snapshot_host(bp_Snapshot *s)
{
	return s->host;
}

uint64_t bp_snapshot_tick(const bp_Snapshot *s)
{
	return s->tick;
}

size_t bp_snapshot_bytes(const bp_Snapshot *s)
{
	return s->mem.bytes;
}

uint32_t bp_snapshot_shared_chunks(const bp_Snapshot *s)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->nchunks; i++)
		n += bp_ids_holders(s->chunks[i].ids) > 1;
	return n;
}

/* Copies of the block types (names and boxes owned). */
static int take_types(bp_Snapshot *s, const bp_World *w)
{
	int failed = 0;
	s->types = dup(&s->mem, w->types, (size_t)w->ntypes * sizeof *w->types, &failed);
	if (failed)
		return 0;
	for (uint32_t i = 0; i < w->ntypes; i++) { /* what release frees: nothing yet */
		s->types[i].name = NULL;
		s->types[i].shape = s->types[i].outline = s->types[i].boxes = NULL;
	}
	s->ntypes = w->ntypes;
	for (uint32_t i = 0; i < w->ntypes; i++) {
		bp_BlockType *t = &s->types[i];
		const bp_BlockType *o = &w->types[i];
		t->name = dup(&s->mem, o->name, strlen(o->name) + 1, &failed);
		t->shape = dup(&s->mem, o->shape, (size_t)o->nshape * sizeof(bp_AABB), &failed);
		t->outline = o->outline == o->shape
		                 ? t->shape
		                 : dup(&s->mem, o->outline, (size_t)o->noutline * sizeof(bp_AABB), &failed);
		t->boxes = o->boxes ? t->shape : NULL;
		if (failed)
			return 0;
	}
	return 1;
}

/* Free the block type copies (what take_types made). */
static void release_types(bp_Snapshot *s)
{
	bp_Allocator *a = &s->mem;
	for (uint32_t i = 0; s->types && i < s->ntypes; i++) {
		bp_BlockType *t = &s->types[i];
		bp_free(a, t->name, t->name ? strlen(t->name) + 1 : 0);
		bp_free(a, t->shape, (size_t)t->nshape * sizeof(bp_AABB));
		if (t->outline != t->shape)
			bp_free(a, t->outline, (size_t)t->noutline * sizeof(bp_AABB));
	}
	bp_free(a, s->types, (size_t)s->ntypes * sizeof *s->types);
	s->types = NULL;
	s->ntypes = 0;
}

/* Give array *p (old elements of `size` bytes) room for n, keeping it when the count
 * is the same: a snapshot taken again into the same object allocates nothing. */
static int resize(bp_Allocator *a, void **p, uint32_t old, uint32_t n, size_t size)
{
	if (old == n)
		return 1;
	if (n == 0) {
		bp_free(a, *p, (size_t)old * size);
		*p = NULL;
		return 1;
	}
	void *q = bp_realloc(a, *p, (size_t)old * size, (size_t)n * size);
	if (!q)
		return 0;
	*p = q;
	return 1;
}

/* The three per-slot arrays (one count for all): new ones for n slots, or the old ones
 * when n is the same; on failure the old ones stay as they were. */
static int resize_slots(bp_Snapshot *s, uint32_t n)
{
	if (s->count == n)
		return 1;
	bp_Allocator *a = &s->mem;
	bp_Entity *items = n ? bp_alloc(a, (size_t)n * sizeof *items) : NULL;
	bp_EntityInput *input = n ? bp_alloc(a, (size_t)n * sizeof *input) : NULL;
	uint32_t *live = n ? bp_alloc(a, (size_t)n * sizeof *live) : NULL;
	if (n && (!items || !input || !live)) {
		bp_free(a, items, (size_t)n * sizeof *items);
		bp_free(a, input, (size_t)n * sizeof *input);
		bp_free(a, live, (size_t)n * sizeof *live);
		return 0;
	}
	bp_free(a, s->items, (size_t)s->count * sizeof *s->items);
	bp_free(a, s->input, (size_t)s->count * sizeof *s->input);
	bp_free(a, s->live, (size_t)s->count * sizeof *s->live);
	s->items = items;
	s->input = input;
	s->live = live;
	s->count = n;
	return 1;
}

/* Fill s (holding a former snapshot's arrays, or none) with w's state. On failure s
 * is left empty (every count 0). */
static bp_Status take_into(bp_Snapshot *s, bp_World *w)
{
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	bp_Allocator *a = &s->mem;
	release_types(s);
	int ok = take_types(s, w);
	/* The chunks: the world's arrays gain s as holder, the old ones lose it. */
	for (uint32_t i = 0; i < w->nchunks; i++)
		bp_ids_acquire(a, w->chunks[i].ids);
	for (uint32_t i = 0; i < s->nchunks; i++)
		bp_ids_release(a, s->chunks[i].ids);
	ok = ok && resize(a, (void **)&s->chunks, s->nchunks, w->nchunks, sizeof *s->chunks);
	if (!ok) { /* the old arrays' holds are gone already: drop the new ones, free the rest */
		for (uint32_t i = 0; i < w->nchunks; i++)
			bp_ids_release(a, w->chunks[i].ids);
		bp_free(a, s->chunks, (size_t)s->nchunks * sizeof *s->chunks);
		s->chunks = NULL;
		s->nchunks = 0;
		bp_snapshot_release(s);
		memset(&s->types, 0, sizeof *s - offsetof(bp_Snapshot, types));
		return BP_ENOMEM;
	}
	if (w->nchunks)
		memcpy(s->chunks, w->chunks, (size_t)w->nchunks * sizeof *s->chunks);
	s->nchunks = w->nchunks;
#define TAKE(field, count, src, n) \
	ok = ok && resize(a, (void **)&s->field, s->count, n, sizeof *s->field); \
	if (ok && (n)) \
		memcpy(s->field, src, (size_t)(n) * sizeof *s->field);
	TAKE(colliders, ncolliders, w->colliders, w->ncolliders)
	if (ok)
		s->ncolliders = w->ncolliders;
	ok = ok && resize_slots(s, p->count);
	if (ok && p->count) {
		memcpy(s->items, p->items, (size_t)p->count * sizeof *s->items);
		memcpy(s->input, p->input, (size_t)p->count * sizeof *s->input);
		memcpy(s->live, p->live, (size_t)p->count * sizeof *s->live);
	}
	TAKE(order, norder, p->order, p->norder)
	if (ok)
		s->norder = p->norder;
	TAKE(free_slots, nfree, p->free_slots, p->nfree)
	if (ok)
		s->nfree = p->nfree;
	TAKE(triggers, ntriggers, w->sensing.triggers, w->sensing.ntriggers)
	if (ok)
		s->ntriggers = w->sensing.ntriggers;
	TAKE(pairs, npairs, w->sensing.pairs, w->sensing.npairs)
	if (ok)
		s->npairs = w->sensing.npairs;
	TAKE(events, nevents, w->events.items, w->events.count)
	if (ok)
		s->nevents = w->events.count;
#undef TAKE
	if (!ok) { /* the arrays resized so far have their counts set: release frees them */
		bp_snapshot_release(s);
		memset(&s->types, 0, sizeof *s - offsetof(bp_Snapshot, types));
		return BP_ENOMEM;
	}
	for (uint32_t i = 0; i < s->npairs; i++)
		s->pairs[i].trigger = bp_handle_untag(s->pairs[i].trigger);
	for (uint32_t i = 0; i < s->nevents; i++) {
		bp_Event *e = &s->events[i];
		e->trigger = bp_handle_untag(e->trigger);
		e->what.collider = bp_handle_untag(e->what.collider);
	}
	s->stored_blocks = w->stored_blocks;
	s->liquid_blocks = w->liquid_blocks;
	s->unloaded_id = w->unloaded_id;
	s->unset_unloaded = w->unset_unloaded;
	s->unloaded_chunks = w->unloaded_chunks;
	s->live_colliders = w->live_colliders;
	s->colliders_free = w->colliders_free;
	s->next_serial = p->next_serial;
	s->unstable = w->unstable;
	s->tlive = w->sensing.live;
	s->tfree = w->sensing.free;
	s->tnext_serial = w->sensing.next_serial;
	s->tick = w->tick;
	s->max_events = w->events.max;
	s->events_dropped = w->events.dropped;
	s->hit_speed = w->events.hit_speed;
	return BP_OK;
}

bp_Status bp_world_take_snapshot(bp_World *w, bp_AllocFn alloc, void *ud, bp_Snapshot **out)
{
	bp_Allocator a = {alloc, ud, 0};
	bp_Snapshot *s = bp_alloc(&a, sizeof *s);
	if (!s)
		return BP_ENOMEM;
	memset(s, 0, sizeof *s);
	s->mem = a;
	bp_Status st = take_into(s, w);
	if (st != BP_OK) {
		bp_snapshot_free(s);
		return st;
	}
	*out = s;
	return BP_OK;
}

bp_Status bp_world_retake_snapshot(bp_World *w, bp_Snapshot *s)
{
	return take_into(s, w);
}

static int same_boxes(const bp_AABB *a, int na, const bp_AABB *b, int nb)
{
	return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

/* Whether two block types behave alike (the world's type i and the snapshot's). */
static int same_type(const bp_BlockType *a, const bp_BlockType *b)
{
	return strcmp(a->name, b->name) == 0 && same_boxes(a->shape, a->nshape, b->shape, b->nshape) &&
	       same_boxes(a->outline, a->noutline, b->outline, b->noutline) &&
	       (a->outline == a->shape) == (b->outline == b->shape) &&
	       a->slipperiness == b->slipperiness && a->liquid == b->liquid &&
	       a->climbable == b->climbable && a->web == b->web && a->level == b->level &&
	       a->solid == b->solid && a->ice == b->ice && a->normal_cube == b->normal_cube &&
	       a->velocity_factor == b->velocity_factor && a->one_way == b->one_way;
}

/* The world's block types must be the snapshot's first ones; the rest are defined. */
static bp_Status restore_types(bp_World *w, const bp_Snapshot *s, const char **why)
{
	if (w->ntypes > s->ntypes) {
		*why = "the world has block types the snapshot does not";
		return BP_EINVAL;
	}
	for (uint32_t i = 0; i < w->ntypes; i++) {
		if (!same_type(&w->types[i], &s->types[i])) {
			*why = "the world's block types differ from the snapshot's";
			return BP_EINVAL;
		}
	}
	if (w->unloaded_id && w->unloaded_id != s->unloaded_id) {
		*why = "the world's unloaded block type differs from the snapshot's";
		return BP_EINVAL;
	}
	for (uint32_t i = w->ntypes; i < s->ntypes; i++) {
		const bp_BlockDef d = bp_snap_type_def(&s->types[i]);
		uint16_t id;
		bp_Status st = bp_world_define_block(w, &d, &id);
		if (st != BP_OK) {
			*why = st == BP_ENOMEM ? "not enough memory" : "a block type cannot be defined";
			return st;
		}
	}
	return BP_OK;
}

/* Room for everything the snapshot puts back, so that the copy cannot fail. */
static bp_Status reserve(bp_World *w, const bp_Snapshot *s)
{
	bp_EntityPool *p = &w->entities;
	bp_Allocator *a = &w->mem;
	const uint32_t n = s->count;
	bp_Status st = bp_chunks_reserve(w, s->nchunks);
#define GROW(arr, cap, need) \
	if (st == BP_OK) \
		st = bp_grow(a, (void **)&(arr), &(cap), need, sizeof *(arr));
	GROW(w->colliders, w->colliders_cap, s->ncolliders)
	GROW(p->items, p->cap, n)
	GROW(p->input, p->input_cap, n)
	GROW(p->live, p->live_cap, n)
	GROW(p->pos, p->pos_cap, n)
	GROW(p->asleep, p->asleep_cap, n)
	GROW(w->awake, w->awake_cap, s->norder)
	GROW(w->late, w->late_cap, s->norder)
	GROW(w->quiet_list, w->quiet_cap, s->norder)
	GROW(w->disturbed_list, w->disturbed_cap, s->norder)
	GROW(p->free_slots, p->free_cap, n)
	GROW(p->order, p->order_cap, s->norder)
	GROW(w->sensing.triggers, w->sensing.triggers_cap, s->ntriggers)
	GROW(w->sensing.pairs, w->sensing.pairs_cap, s->npairs)
	GROW(w->events.items, w->events.cap, s->nevents)
#undef GROW
	return st;
}

static void restore_entities(bp_World *w, const bp_Snapshot *s, unsigned flags)
{
	bp_EntityPool *p = &w->entities;
	const uint32_t n = s->count;
	if (n) {
		memcpy(p->items, s->items, (size_t)n * sizeof *p->items);
		memcpy(p->input, s->input, (size_t)n * sizeof *p->input);
	}
	if (s->nfree)
		memcpy(p->free_slots, s->free_slots, (size_t)s->nfree * sizeof *p->free_slots);
	if (s->norder)
		memcpy(p->order, s->order, (size_t)s->norder * sizeof *p->order);
	p->count = n;
	p->nfree = s->nfree;
	p->norder = p->nlive = s->norder;
	p->next_serial = s->next_serial;
	w->nsolid = 0;
	w->sensing.nsensors = 0;
	for (uint32_t i = 0; i < n; i++) {
		bp_Entity *e = &p->items[i];
		p->live[i] = e->alive ? e->generation : 0;
		e->gather.version = 0; /* a cache of the blocks: refilled by the next move */
		e->stream_seen = 0;    /* the frozen test's cache: never current (stream.c) */
		e->quiet = e->disturbed = e->sleep_wait = 0; /* sleeping's marks (sleep.c) */
		if (flags & BP_RESTORE_DROP_HOOKS) {
			e->rules.hook_heading = e->rules.hook_jump = 0;
			e->has_filter = 0;
		}
	}
	for (uint32_t i = 0; i < s->norder; i++) {
		const bp_Entity *e = &p->items[s->order[i]];
		p->pos[s->order[i]] = i;
		w->nsolid += e->solid;
		w->sensing.nsensors += e->sensor;
	}
	w->unstable = s->unstable;
	w->rules_writes++;
	if (p->asleep_cap)
		memset(p->asleep, 0, p->asleep_cap);
	w->awake_dirty = 1;
	w->nlate = w->late_next = 0;
	w->spawn_seen = p->next_serial;
}

bp_Status bp_world_restore_snapshot(bp_World *w, const bp_Snapshot *s, unsigned flags,
                                    const char **why)
{
	const char *dummy;
	if (!why)
		why = &dummy;
	*why = NULL;
	if (w->locked) {
		*why = "the world is locked (inside a step or move)";
		return BP_EINVAL;
	}
	bp_Status st = restore_types(w, s, why);
	if (st == BP_OK && (st = reserve(w, s)) != BP_OK)
		*why = st == BP_ENOMEM ? "not enough memory" : "too large";
	if (st != BP_OK)
		return st;
	/* Nothing below can fail. Sleepers wake (sleeping is bit for bit the same as
	 * stepping everyone): the entities that follow are awake. */
	bp_sleep_wake_all(w);
	bp_sleep_begin(w);
	bp_chunks_set(w, s->chunks, s->nchunks);
	w->stored_blocks = s->stored_blocks;
	w->liquid_blocks = s->liquid_blocks;
	w->unloaded_id = s->unloaded_id;
	w->unloaded_chunk.uniform = s->unloaded_id;
	w->unset_unloaded = s->unset_unloaded;
	w->unloaded_chunks = s->unloaded_chunks;
	w->block_version++;
	w->stream_version++;
	if (s->ncolliders)
		memcpy(w->colliders, s->colliders, (size_t)s->ncolliders * sizeof *w->colliders);
	w->ncolliders = s->ncolliders;
	w->live_colliders = s->live_colliders;
	w->colliders_free = s->colliders_free;
	w->one_way = 0;
	for (uint32_t i = 0; i < w->ntypes; i++)
		w->one_way += w->types[i].one_way != BP_FACE_NONE;
	for (uint32_t i = 0; i < w->ncolliders; i++)
		w->one_way += w->colliders[i].alive == BP_COLLIDER_ONE_WAY;
	restore_entities(w, s, flags);
	bp_Sensing *g = &w->sensing;
	if (s->ntriggers)
		memcpy(g->triggers, s->triggers, (size_t)s->ntriggers * sizeof *g->triggers);
	g->ntriggers = s->ntriggers;
	g->live = s->tlive;
	g->free = s->tfree;
	g->next_serial = s->tnext_serial;
	for (uint32_t i = 0; i < s->npairs; i++) {
		g->pairs[i] = s->pairs[i];
		g->pairs[i].trigger = bp_handle_retag(s->pairs[i].trigger, w->handle_tag);
	}
	g->npairs = s->npairs;
	g->nnext = 0;
	for (uint32_t i = 0; i < s->nevents; i++) {
		bp_Event *e = &w->events.items[i];
		*e = s->events[i];
		e->trigger = bp_handle_retag(e->trigger, w->handle_tag);
		e->what.collider = bp_handle_retag(e->what.collider, w->handle_tag);
	}
	w->events.count = s->nevents;
	w->events.max = s->max_events;
	w->events.dropped = s->events_dropped;
	w->events.hit_speed = s->hit_speed;
	w->tick = s->tick;
	bp_world_entities_restored(w); /* the broadphase grid follows the boxes */
	return BP_OK;
}
