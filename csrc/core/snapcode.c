/* SPDX-License-Identifier: MIT
 * snapcode.c - the sections of a snapshot's body: one coding walk over a snapshot (or
 * a view of a live world) that writes, counts, hashes or reads it, so that the image,
 * the hash and the decoder cannot drift apart (codec.c; snapimage.c wraps it). Reading
 * checks every count against the bytes left before allocating, and every value a
 * step relies on, so that hostile input gives a message, never a crash.
 *
 * Body, version 1 (all little-endian):
 *   sections in this order, each opened by its u32 tag:
 *   'TYPE' block types, 'BLKS' chunks (then the unloaded type's id and the unset
 *   space setting), 'COLL' colliders, 'ENTS' entity slots,
 *   'TRIG' triggers and overlaps, 'EVNT' clock and events, 'HOST' the host's values.
 * A new field goes at the end of its section, with BP_SNAPSHOT_VERSION + 1.
 * Source: our own.
 */
#include "snapcode.h"
#include "alloc.h"
#include "chunk.h"
#include "codec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME 4096

static const char *const CORRUPT = "corrupted";

/* A count of elements of at least `each` bytes in the image: no more than the bytes
 * left can hold, so that what reading allocates is bounded by the input's length. */
static int code_count(bp_Coder *c, uint32_t *n, size_t each)
{
	bp_code_u32(c, n);
	if (c->mode == BP_CODE_READ && !c->why && *n > bp_code_left(c) / each) {
		bp_code_fail(c, "corrupted: a count exceeds the bytes left");
		return 0;
	}
	return !c->why || c->mode != BP_CODE_READ;
}

/* READ: zeroed room for n elements of `size` bytes (NULL for n = 0). */
static void *room(bp_Snapshot *s, bp_Coder *c, uint32_t n, size_t size)
{
	if (c->mode != BP_CODE_READ || !n || c->why)
		return NULL;
	void *p = bp_alloc(&s->mem, (size_t)n * size);
	if (!p)
		bp_code_fail(c, "not enough memory");
	else
		memset(p, 0, (size_t)n * size);
	return p;
}

static int reading(const bp_Coder *c)
{
	return c->mode == BP_CODE_READ;
}

static void code_tag(bp_Coder *c, const char *tag)
{
	uint32_t t = (uint32_t)(uint8_t)tag[0] | (uint32_t)(uint8_t)tag[1] << 8 |
	             (uint32_t)(uint8_t)tag[2] << 16 | (uint32_t)(uint8_t)tag[3] << 24;
	uint32_t got = t;
	bp_code_u32(c, &got);
	if (got != t)
		bp_code_fail(c, "corrupted: a section is missing");
}

/* ------------------------------------------------------------------ sections */

static void code_boxes(bp_Coder *c, bp_Snapshot *s, bp_AABB **boxes, int *n)
{
	uint32_t k = (uint32_t)*n;
	if (!code_count(c, &k, 48))
		return;
	if (k > BP_MAX_TYPE_BOXES)
		bp_code_fail(c, "corrupted: too many boxes");
	if (reading(c)) {
		*boxes = room(s, c, k, sizeof(bp_AABB));
		if (c->why)
			return;
		*n = (int)k;
	}
	for (uint32_t i = 0; i < k && !(reading(c) && c->why); i++)
		bp_code_box(c, &(*boxes)[i]);
}

static void code_type(bp_Coder *c, bp_Snapshot *s, bp_BlockType *t)
{
	uint32_t len = t->name ? (uint32_t)strlen(t->name) : 0;
	bp_code_u32(c, &len);
	if (reading(c)) {
		if (len == 0 || len > MAX_NAME || len > bp_code_left(c))
			{ bp_code_fail(c, "corrupted: a block type's name"); return; }
		t->name = room(s, c, len + 1, 1);
		if (c->why)
			return;
	}
	bp_code_bytes(c, t->name, len);
	if (reading(c) && memchr(t->name, 0, len)) { /* freed here: release sizes by strlen */
		bp_free(&s->mem, t->name, len + 1);
		t->name = NULL;
		bp_code_fail(c, "corrupted: a block type's name");
		return;
	}
	bp_code_finite(c, &t->slipperiness);
	bp_code_finite(c, &t->velocity_factor);
	bp_code_u8(c, &t->liquid);
	bp_code_u8(c, &t->climbable);
	bp_code_u8(c, &t->web);
	bp_code_u8(c, &t->level);
	bp_code_u8(c, &t->solid);
	bp_code_u8(c, &t->ice);
	bp_code_u8(c, &t->normal_cube);
	bp_code_u8(c, &t->one_way);
	code_boxes(c, s, &t->shape, &t->nshape);
	uint8_t shared = t->outline == t->shape;
	bp_code_u8(c, &shared);
	if (shared > 1)
		bp_code_fail(c, CORRUPT);
	if (shared) {
		if (reading(c)) {
			t->outline = t->shape;
			t->noutline = t->nshape;
		}
	} else {
		code_boxes(c, s, &t->outline, &t->noutline);
	}
	if (reading(c) && !c->why) {
		t->boxes = t->one_way ? NULL : t->shape;
		t->nboxes = t->one_way ? 0 : t->nshape;
		t->touch = t->web || t->velocity_factor != 1;
		/* (shared: t->outline is t->shape, so the definition leaves it to default) */
		const bp_BlockDef d = bp_snap_type_def(t);
		if (bp_block_def_error(&d) || t->climbable > 1 || t->web > 1 || t->solid > 1 ||
		    t->ice > 1 || t->normal_cube > 1)
			bp_code_fail(c, "corrupted: a block type's definition");
	}
}

static void code_types(bp_Coder *c, bp_Snapshot *s)
{
	code_tag(c, "TYPE");
	uint32_t n = s->ntypes;
	if (!code_count(c, &n, 40))
		return;
	if (reading(c)) {
		if (n == 0 || n > BP_MAX_TYPES)
			{ bp_code_fail(c, "corrupted: the number of block types"); return; }
		s->types = room(s, c, n, sizeof *s->types);
		if (c->why)
			return;
		s->ntypes = n;
	}
	for (uint32_t i = 0; i < n && !(reading(c) && c->why); i++)
		code_type(c, s, &s->types[i]);
}

static uint64_t ids_digest(const uint16_t *ids)
{
	uint8_t b[BP_CHUNK_VOLUME * 2];
	for (int i = 0; i < BP_CHUNK_VOLUME; i++) {
		b[2 * i] = (uint8_t)ids[i];
		b[2 * i + 1] = (uint8_t)(ids[i] >> 8);
	}
	return bp_digest_bytes(b, sizeof b);
}

/* Hashing: the chunks as a sum of one digest per chunk that holds a block (coordinates
 * and ids), so that neither the order chunks were made in nor chunks of air count.
 * With unset space unloaded (streaming) a stored chunk of air is loaded space, unlike
 * no chunk: then every chunk counts. */
static void hash_chunks(bp_Coder *c, const bp_Snapshot *s)
{
	uint64_t sum = 0;
	for (uint32_t i = 0; i < s->nchunks; i++) {
		const bp_Chunk *ch = &s->chunks[i];
		if (!ch->ids && ch->uniform == 0 && !s->unset_unloaded)
			continue;
		uint64_t d = ch->ids ? bp_ids_digest(ch->ids, ids_digest) : ch->uniform;
		uint8_t b[24];
		const uint64_t v[3] = {(uint64_t)(uint32_t)ch->cx | (uint64_t)(uint32_t)ch->cy << 32,
		                       (uint64_t)(uint32_t)ch->cz | (uint64_t)(ch->ids != NULL) << 32, d};
		for (int k = 0; k < 24; k++)
			b[k] = (uint8_t)(v[k / 8] >> (8 * (k % 8)));
		sum += bp_digest_bytes(b, sizeof b);
	}
	bp_code_u64(c, &sum);
}

static int cmp_chunk(const void *a, const void *b)
{
	const bp_Chunk *x = a, *y = b;
	if (x->cx != y->cx)
		return x->cx < y->cx ? -1 : 1;
	if (x->cy != y->cy)
		return x->cy < y->cy ? -1 : 1;
	return x->cz < y->cz ? -1 : x->cz > y->cz;
}

/* Streaming's state, after the chunks: the unloaded type (0, or a type of that name)
 * and whether unset space is unloaded (which needs the type). */
static void code_streaming(bp_Coder *c, bp_Snapshot *s)
{
	bp_code_u16(c, &s->unloaded_id);
	bp_code_int(c, &s->unset_unloaded);
	if (!reading(c) || c->why)
		return;
	if (s->unloaded_id && (s->unloaded_id >= s->ntypes ||
	                       strcmp(s->types[s->unloaded_id].name, BP_UNLOADED_NAME) != 0))
		bp_code_fail(c, "corrupted: the unloaded block type");
	if ((unsigned)s->unset_unloaded > 1 || (s->unset_unloaded && !s->unloaded_id))
		bp_code_fail(c, "corrupted: the unset space setting");
}

/* READ: the counts of each chunk from its ids, and no chunk twice. */
static void count_chunks(bp_Coder *c, bp_Snapshot *s)
{
	for (uint32_t i = 0; i < s->nchunks; i++) {
		bp_Chunk *ch = &s->chunks[i];
		for (int k = 0; k < (ch->ids ? BP_CHUNK_VOLUME : 1); k++) {
			uint16_t id = ch->ids ? ch->ids[k] : ch->uniform;
			if (id >= s->ntypes)
				{ bp_code_fail(c, "corrupted: a block id names no type"); return; }
			if (ch->ids && s->unloaded_id && id == s->unloaded_id)
				{ bp_code_fail(c, "corrupted: a chunk holds unloaded blocks"); return; }
			uint32_t m = ch->ids ? 1 : BP_CHUNK_VOLUME;
			ch->nonair += id ? m : 0;
			ch->liquid += s->types[id].liquid ? m : 0;
			ch->touch += s->types[id].touch ? m : 0;
		}
		s->stored_blocks += ch->nonair;
		s->liquid_blocks += ch->liquid;
		s->unloaded_chunks += !ch->ids && s->unloaded_id && ch->uniform == s->unloaded_id;
	}
	if (s->nchunks < 2)
		return;
	bp_Chunk *sorted = bp_alloc(&s->mem, (size_t)s->nchunks * sizeof *sorted);
	if (!sorted)
		{ bp_code_fail(c, "not enough memory"); return; }
	memcpy(sorted, s->chunks, (size_t)s->nchunks * sizeof *sorted);
	qsort(sorted, s->nchunks, sizeof *sorted, cmp_chunk);
	for (uint32_t i = 1; i < s->nchunks; i++) {
		if (cmp_chunk(&sorted[i - 1], &sorted[i]) == 0)
			bp_code_fail(c, "corrupted: a chunk appears twice");
	}
	bp_free(&s->mem, sorted, (size_t)s->nchunks * sizeof *sorted);
}

static void code_chunks(bp_Coder *c, bp_Snapshot *s)
{
	code_tag(c, "BLKS");
	if (c->mode == BP_CODE_HASH) {
		hash_chunks(c, s);
		code_streaming(c, s);
		return;
	}
	uint32_t n = s->nchunks;
	if (!code_count(c, &n, 15))
		return;
	if (reading(c)) {
		s->chunks = room(s, c, n, sizeof *s->chunks);
		if (c->why)
			return;
		s->nchunks = n;
	}
	uint8_t b[BP_CHUNK_VOLUME * 2];
	for (uint32_t i = 0; i < n && !(reading(c) && c->why); i++) {
		bp_Chunk *ch = &s->chunks[i];
		bp_code_i32(c, &ch->cx);
		bp_code_i32(c, &ch->cy);
		bp_code_i32(c, &ch->cz);
		uint8_t array = ch->ids != NULL;
		bp_code_u8(c, &array);
		if (!array) {
			bp_code_u16(c, &ch->uniform);
			continue;
		}
		if (array > 1)
			{ bp_code_fail(c, CORRUPT); return; }
		if (reading(c)) {
			if (bp_code_left(c) < sizeof b)
				{ bp_code_fail(c, "truncated"); return; }
			if (!(ch->ids = bp_ids_new(&s->mem)))
				{ bp_code_fail(c, "not enough memory"); return; }
		} else {
			for (int k = 0; k < BP_CHUNK_VOLUME; k++) {
				b[2 * k] = (uint8_t)ch->ids[k];
				b[2 * k + 1] = (uint8_t)(ch->ids[k] >> 8);
			}
		}
		bp_code_bytes(c, b, sizeof b);
		if (reading(c)) {
			for (int k = 0; k < BP_CHUNK_VOLUME; k++)
				ch->ids[k] = (uint16_t)(b[2 * k] | b[2 * k + 1] << 8);
		}
	}
	code_streaming(c, s);
	if (reading(c) && !c->why)
		count_chunks(c, s);
}

/* READ: a free list through next_free (1-based, 0 ends) visits only free slots, each
 * once, and `live` counts the others. */
static int free_list_ok(const uint32_t *next, size_t stride, const uint8_t *alive, uint32_t n,
                        uint32_t head, uint32_t live)
{
	uint32_t steps = 0, nlive = 0;
	for (uint32_t at = head; at; at = *(const uint32_t *)(const void *)((const char *)next + (size_t)(at - 1) * stride)) {
		if (at > n || alive[(size_t)(at - 1) * stride] || ++steps > n)
			return 0;
	}
	for (uint32_t i = 0; i < n; i++)
		nlive += alive[(size_t)i * stride] != 0;
	return nlive == live;
}

/* A slot's free-list link: meaningful only while the slot is free (a live slot's is
 * whatever it was, never read), so a live slot codes 0. Reading, the slot's alive
 * byte follows: free_list_ok checks the links. */
static void code_next_free(bp_Coder *c, uint32_t *next_free, uint8_t alive)
{
	uint32_t v = reading(c) || !alive ? *next_free : 0;
	bp_code_u32(c, &v);
	*next_free = reading(c) ? v : *next_free;
}

static void code_colliders(bp_Coder *c, bp_Snapshot *s)
{
	code_tag(c, "COLL");
	uint32_t n = s->ncolliders;
	if (!code_count(c, &n, 58))
		return;
	if (reading(c)) {
		if (n > BP_MAX_COLLIDERS)
			{ bp_code_fail(c, CORRUPT); return; }
		s->colliders = room(s, c, n, sizeof *s->colliders);
		if (c->why)
			return;
		s->ncolliders = n;
	}
	bp_code_u32(c, &s->live_colliders);
	bp_code_u32(c, &s->colliders_free);
	for (uint32_t i = 0; i < n && !(reading(c) && c->why); i++) {
		bp_StaticCollider *o = &s->colliders[i];
		bp_code_box(c, &o->box);
		bp_code_u32(c, &o->generation);
		code_next_free(c, &o->next_free, o->alive);
		bp_code_u8(c, &o->alive);
		bp_code_u8(c, &o->one_way);
		if (reading(c) && (o->alive > BP_COLLIDER_ONE_WAY || o->one_way > BP_FACE_NORTH ||
		                   (o->alive == BP_COLLIDER_ONE_WAY) != (o->one_way != 0) ||
		                   o->generation > BP_MAX_COLLIDER_GEN))
			bp_code_fail(c, "corrupted: a collider");
	}
	if (reading(c) && !c->why && n &&
	    !free_list_ok(&s->colliders[0].next_free, sizeof *s->colliders, &s->colliders[0].alive,
	                  n, s->colliders_free, s->live_colliders))
		bp_code_fail(c, "corrupted: the colliders' free list");
	if (reading(c) && !n && (s->colliders_free || s->live_colliders))
		bp_code_fail(c, "corrupted: the colliders' free list");
}

/* The order list (alive) or the free list. The order is the creation order: its
 * serials rise and stay below next_serial (the separation sorts by place in it, the
 * step and queries walk it: another order would give other results). */
static void code_slots(bp_Coder *c, bp_Snapshot *s, uint32_t *list, uint32_t n, int alive,
                       uint8_t *seen)
{
	for (uint32_t i = 0; i < n; i++) {
		bp_code_u32(c, &list[i]);
		if (!reading(c))
			continue;
		if (list[i] >= s->count || seen[list[i]] || (s->items[list[i]].alive != 0) != alive ||
		    (alive && (s->items[list[i]].serial >= s->next_serial ||
		               (i && s->items[list[i]].serial <= s->items[list[i - 1]].serial))))
			{ bp_code_fail(c, "corrupted: the entity order or free list"); return; }
		seen[list[i]] = 1;
	}
}

static void code_entities(bp_Coder *c, bp_Snapshot *s)
{
	code_tag(c, "ENTS");
	uint32_t n = s->count;
	if (!code_count(c, &n, 5))
		return;
	if (reading(c)) {
		s->count = n; /* what release frees (arrays not made stay NULL) */
		s->items = room(s, c, n, sizeof *s->items);
		s->input = room(s, c, n, sizeof *s->input);
		s->live = room(s, c, n, sizeof *s->live);
		if (c->why)
			return;
	}
	bp_code_u32(c, &s->next_serial);
	bp_code_int(c, &s->unstable);
	uint32_t nlive = 0;
	for (uint32_t i = 0; i < n && !(reading(c) && c->why); i++) {
		bp_Entity *e = &s->items[i];
		bp_code_u8(c, &e->alive);
		bp_code_u32(c, &e->generation);
		if (e->alive > 1 || (reading(c) && e->alive && e->generation == 0))
			{ bp_code_fail(c, "corrupted: an entity slot"); return; }
		if (e->alive) { /* a free slot keeps only its generation (a spawn clears it) */
			bp_code_entity(c, e, &s->input[i]);
			nlive++;
			if (reading(c))
				s->live[i] = e->generation;
		}
	}
	if (reading(c) && c->why)
		return;
	uint32_t no = s->norder, nf = s->nfree;
	bp_code_u32(c, &no);
	bp_code_u32(c, &nf);
	if (reading(c)) {
		if ((uint64_t)no + nf != n || no != nlive || (uint64_t)(no + nf) * 4 > bp_code_left(c))
			{ bp_code_fail(c, "corrupted: the entity order or free list"); return; }
		s->norder = no;
		s->nfree = nf;
		s->order = room(s, c, no, sizeof *s->order);
		s->free_slots = room(s, c, nf, sizeof *s->free_slots);
		uint8_t *seen = room(s, c, n, 1);
		if (c->why) {
			bp_free(&s->mem, seen, n);
			return;
		}
		code_slots(c, s, s->order, no, 1, seen);
		code_slots(c, s, s->free_slots, nf, 0, seen);
		bp_free(&s->mem, seen, n);
		return;
	}
	code_slots(c, s, s->order, no, 1, NULL);
	code_slots(c, s, s->free_slots, nf, 0, NULL);
}

static void code_id(bp_Coder *c, const bp_Snapshot *s, bp_EntityId *id, int may_be_null)
{
	bp_code_u32(c, &id->index1);
	bp_code_u32(c, &id->generation);
	if (reading(c) && (id->index1 > s->count || (!may_be_null && id->index1 == 0)))
		bp_code_fail(c, "corrupted: an entity id");
}

/* A trigger or collider handle, without the world's tag. */
static void code_handle(bp_Coder *c, uint64_t *h, uint32_t n)
{
	uint64_t v = bp_handle_untag(*h);
	bp_code_u64(c, &v);
	if (reading(c)) {
		if (v >> 48 || (v & 0xFFFFFF) > n)
			bp_code_fail(c, "corrupted: a handle");
		*h = v;
	}
}

static void code_triggers(bp_Coder *c, bp_Snapshot *s)
{
	code_tag(c, "TRIG");
	uint32_t n = s->ntriggers;
	if (!code_count(c, &n, 65))
		return;
	if (reading(c)) {
		if (n > BP_MAX_COLLIDERS)
			{ bp_code_fail(c, CORRUPT); return; }
		s->triggers = room(s, c, n, sizeof *s->triggers);
		if (c->why)
			return;
		s->ntriggers = n;
	}
	bp_code_u32(c, &s->tlive);
	bp_code_u32(c, &s->tfree);
	bp_code_u32(c, &s->tnext_serial);
	for (uint32_t i = 0; i < n && !(reading(c) && c->why); i++) {
		bp_Trigger *t = &s->triggers[i];
		bp_code_box(c, &t->box);
		bp_code_u32(c, &t->group);
		bp_code_u32(c, &t->mask);
		bp_code_u32(c, &t->serial);
		bp_code_u32(c, &t->generation);
		code_next_free(c, &t->next_free, t->alive);
		bp_code_u8(c, &t->alive);
		if (reading(c) && (t->alive > 1 || t->generation > BP_MAX_COLLIDER_GEN))
			bp_code_fail(c, "corrupted: a trigger");
	}
	if (reading(c) && !c->why &&
	    (n ? !free_list_ok(&s->triggers[0].next_free, sizeof *s->triggers, &s->triggers[0].alive,
	                       n, s->tfree, s->tlive)
	       : s->tfree || s->tlive))
		bp_code_fail(c, "corrupted: the triggers' free list");
	uint32_t np = s->npairs;
	if (!code_count(c, &np, 44))
		return;
	if (reading(c)) {
		s->pairs = room(s, c, np, sizeof *s->pairs);
		if (c->why)
			return;
		s->npairs = np;
	}
	for (uint32_t i = 0; i < np && !(reading(c) && c->why); i++) {
		bp_SensePair *p = &s->pairs[i];
		bp_code_u64(c, &p->key);
		bp_code_u32(c, &p->serial);
		code_id(c, s, &p->entity, 0);
		code_handle(c, &p->trigger, n);
		code_id(c, s, &p->sensor, 1);
		if (reading(c) && !p->trigger == !p->sensor.index1)
			bp_code_fail(c, "corrupted: an overlap");
	}
}

static void code_contact(bp_Coder *c, const bp_Snapshot *s, bp_Contact *o, uint32_t ncoll)
{
	bp_code_int(c, &o->kind);
	for (int k = 0; k < 3; k++)
		bp_code_int(c, &o->normal[k]);
	for (int k = 0; k < 3; k++)
		bp_code_i32(c, &o->cell[k]);
	bp_code_u16(c, &o->id);
	code_handle(c, &o->collider, ncoll);
	code_id(c, s, &o->entity, 1);
	bp_code_u32(c, &o->serial);
	bp_code_box(c, &o->box);
	if (reading(c) && ((unsigned)o->kind > BP_HIT_ENTITY || o->id >= s->ntypes ||
	                   abs(o->normal[0]) > 1 || abs(o->normal[1]) > 1 || abs(o->normal[2]) > 1))
		bp_code_fail(c, "corrupted: an event's contact");
}

static void code_events(bp_Coder *c, bp_Snapshot *s)
{
	code_tag(c, "EVNT");
	bp_code_u64(c, &s->tick);
	bp_code_u32(c, &s->max_events);
	bp_code_u64(c, &s->events_dropped);
	bp_code_finite(c, &s->hit_speed);
	uint32_t n = s->nevents;
	if (!code_count(c, &n, 150))
		return;
	if (reading(c)) {
		if (s->max_events < 1 || s->max_events > BP_MAX_EVENTS || n > s->max_events ||
		    !(s->hit_speed >= 0))
			{ bp_code_fail(c, "corrupted: the event queue"); return; }
		s->events = room(s, c, n, sizeof *s->events);
		if (c->why)
			return;
		s->nevents = n;
	}
	for (uint32_t i = 0; i < n && !(reading(c) && c->why); i++) {
		bp_Event *e = &s->events[i];
		bp_code_int(c, &e->type);
		bp_code_u64(c, &e->tick);
		code_id(c, s, &e->entity, 0);
		code_contact(c, s, &e->what, s->ncolliders);
		bp_code_finite(c, &e->fall);
		bp_code_finite(c, &e->speed);
		code_handle(c, &e->trigger, s->ntriggers);
		code_id(c, s, &e->sensor, 1);
		bp_code_box(c, &e->box);
		bp_code_finite(c, &e->reach);
		bp_code_u8(c, &e->face);
		bp_code_u8(c, &e->pending);
		if (reading(c) && (e->type < BP_EVENT_HIT || e->type > BP_EVENT_LEAVE || e->face > 5 ||
		                   e->pending > 1))
			bp_code_fail(c, "corrupted: an event");
	}
}

/* The whole state in format order; the host's values are left out of hashes. */
void bp_code_snapshot(bp_Coder *c, bp_Snapshot *s)
{
	code_types(c, s);
	code_chunks(c, s);
	code_colliders(c, s);
	code_entities(c, s);
	code_triggers(c, s);
	code_events(c, s);
	if (c->mode == BP_CODE_HASH)
		return;
	code_tag(c, "HOST");
	for (int i = 0; i < BP_SNAPSHOT_HOST; i++)
		bp_code_f64(c, &s->host[i]);
}
