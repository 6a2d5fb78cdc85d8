/* SPDX-License-Identifier: MIT
 * chunk.c - the sparse block grid: 16^3 chunks of uint16 ids in an open-addressing
 * hash map keyed by chunk coordinates. Chunks filled with one id keep no array.
 * Also the grid side of streaming (whole chunks loaded from bytes, unloaded, read
 * back); stream.c holds the rest. Unloaded space is decided here, in the chunk
 * lookups every reader goes through (bp_world_chunk, bp_world_get_block).
 */
#include "chunk.h"
#include "bp_world.h"
#include "alloc.h"
#include "sleep.h"

#include <string.h>

/* A chunk's id array is shared, copy on write, between the world and its snapshots
 * (snapshot.c): a header in front of the ids counts its holders and caches a digest
 * of the ids for world hashes. Each holder counts the whole array in its allocator's
 * bytes. Not thread-safe: a world and its snapshots belong to one thread. */
typedef struct IdsHead {
	uint32_t refs;
	uint32_t hashed; /* hash below is valid */
	uint64_t hash;
} IdsHead;
#define IDS_BYTES (sizeof(IdsHead) + BP_CHUNK_VOLUME * sizeof(uint16_t))

static IdsHead *head_of(const uint16_t *ids)
{
	return (IdsHead *)(void *)((char *)(uintptr_t)ids - sizeof(IdsHead));
}

uint16_t *bp_ids_new(bp_Allocator *a)
{
	IdsHead *h = bp_alloc(a, IDS_BYTES);
	if (!h)
		return NULL;
	h->refs = 1;
	h->hashed = 0;
	h->hash = 0;
	return (uint16_t *)(void *)(h + 1);
}

void bp_ids_acquire(bp_Allocator *a, const uint16_t *ids)
{
	if (!ids)
		return;
	head_of(ids)->refs++;
	a->bytes += IDS_BYTES;
}

void bp_ids_release(bp_Allocator *a, const uint16_t *ids)
{
	if (!ids)
		return;
	IdsHead *h = head_of(ids);
	if (--h->refs == 0)
		bp_free(a, h, IDS_BYTES);
	else
		a->bytes -= IDS_BYTES;
}

uint32_t bp_ids_holders(const uint16_t *ids)
{
	return ids ? head_of(ids)->refs : 0;
}

uint64_t bp_ids_digest(const uint16_t *ids, uint64_t (*digest)(const uint16_t *ids))
{
	IdsHead *h = head_of(ids);
	if (!h->hashed) {
		h->hash = digest(ids);
		h->hashed = 1;
	}
	return h->hash;
}

/* Make chunk c's array its own before a write: a copy if a snapshot shares it. The
 * cached digest is dropped either way (the caller writes). */
static bp_Status ids_own(bp_World *w, bp_Chunk *c)
{
	IdsHead *h = head_of(c->ids);
	if (h->refs > 1) {
		uint16_t *ids = bp_ids_new(&w->mem);
		if (!ids)
			return BP_ENOMEM;
		memcpy(ids, c->ids, BP_CHUNK_VOLUME * sizeof *ids);
		bp_ids_release(&w->mem, c->ids);
		c->ids = ids;
		return BP_OK;
	}
	h->hashed = 0;
	return BP_OK;
}

/* Chunk coordinate and local index of a block coordinate, without signed shifts. */
static inline int32_t chunk_of(int32_t v)
{
	return (int32_t)(((int64_t)v - (int64_t)((uint32_t)v & 15u)) / 16);
}

static inline uint32_t local_of(int32_t v)
{
	return (uint32_t)v & 15u;
}

static inline uint32_t cell_index(int32_t x, int32_t y, int32_t z)
{
	return (local_of(y) << 8) | (local_of(z) << 4) | local_of(x);
}

static uint32_t chunk_hash(int32_t cx, int32_t cy, int32_t cz)
{
	uint64_t h = (uint64_t)(uint32_t)cx * 0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)(uint32_t)cy * 0xC2B2AE3D27D4EB4Full;
	h ^= (uint64_t)(uint32_t)cz * 0x165667B19E3779F9ull;
	h ^= h >> 29;
	return (uint32_t)(h ^ (h >> 32));
}

static inline uint32_t cache_slot(int32_t cx, int32_t cy, int32_t cz)
{
	return ((uint32_t)cx ^ ((uint32_t)cy * 3u) ^ ((uint32_t)cz * 5u)) & (BP_CHUNK_CACHE - 1);
}

/* Forget every remembered lookup (a chunk was created: "none there" may be stale). */
static void cache_clear(bp_World *w)
{
	for (int i = 0; i < BP_CHUNK_CACHE; i++)
		w->cache_index[i] = -1;
}

/* Index of the chunk at (cx, cy, cz), or -1. Remembers recent answers. */
static int64_t chunk_find(bp_World *w, int32_t cx, int32_t cy, int32_t cz)
{
	const uint32_t s = cache_slot(cx, cy, cz);
	if (w->cache_index[s] != -1 && w->cache_key[s][0] == cx && w->cache_key[s][1] == cy &&
	    w->cache_key[s][2] == cz)
		return w->cache_index[s] == -2 ? -1 : w->cache_index[s];
	int64_t found = -1;
	if (w->chunk_slot_cap) {
		uint32_t mask = w->chunk_slot_cap - 1;
		for (uint32_t i = chunk_hash(cx, cy, cz) & mask;; i = (i + 1) & mask) {
			uint32_t v = w->chunk_slots[i];
			if (!v)
				break;
			const bp_Chunk *c = &w->chunks[v - 1];
			if (c->cx == cx && c->cy == cy && c->cz == cz) {
				found = v - 1;
				break;
			}
		}
	}
	w->cache_key[s][0] = cx;
	w->cache_key[s][1] = cy;
	w->cache_key[s][2] = cz;
	w->cache_index[s] = found < 0 ? -2 : found;
	return found;
}

static void slot_insert(uint32_t *slots, uint32_t cap, const bp_Chunk *c, uint32_t index)
{
	uint32_t mask = cap - 1;
	uint32_t i = chunk_hash(c->cx, c->cy, c->cz) & mask;
	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = index + 1;
}

/* Keep the slot table at most half full. */
static bp_Status slots_reserve(bp_World *w, uint32_t n)
{
	if ((uint64_t)n * 2 <= w->chunk_slot_cap)
		return BP_OK;
	uint64_t cap = w->chunk_slot_cap ? (uint64_t)w->chunk_slot_cap * 2 : 256;
	while (cap < (uint64_t)n * 2)
		cap *= 2;
	if (cap > (1u << 31))
		return BP_ELIMIT;
	uint32_t *slots = bp_alloc(&w->mem, (size_t)cap * sizeof *slots);
	if (!slots)
		return BP_ENOMEM;
	memset(slots, 0, (size_t)cap * sizeof *slots);
	for (uint32_t i = 0; i < w->nchunks; i++)
		slot_insert(slots, (uint32_t)cap, &w->chunks[i], i);
	bp_free(&w->mem, w->chunk_slots, (size_t)w->chunk_slot_cap * sizeof(uint32_t));
	w->chunk_slots = slots;
	w->chunk_slot_cap = (uint32_t)cap;
	return BP_OK;
}

/* Find or create the chunk; its index goes to *index. */
static bp_Status chunk_get(bp_World *w, int32_t cx, int32_t cy, int32_t cz, uint32_t *index)
{
	int64_t i = chunk_find(w, cx, cy, cz);
	if (i >= 0) {
		*index = (uint32_t)i;
		return BP_OK;
	}
	bp_Status st = bp_grow(&w->mem, (void **)&w->chunks, &w->chunks_cap, w->nchunks + 1,
	                       sizeof(bp_Chunk));
	if (st == BP_OK)
		st = slots_reserve(w, w->nchunks + 1);
	if (st != BP_OK)
		return st;
	bp_Chunk *c = &w->chunks[w->nchunks];
	memset(c, 0, sizeof *c);
	c->cx = cx;
	c->cy = cy;
	c->cz = cz;
	slot_insert(w->chunk_slots, w->chunk_slot_cap, c, w->nchunks);
	*index = w->nchunks++;
	cache_clear(w);
	return BP_OK;
}

/* Undo chunk_get's creations after a failure: drop the chunks from index `keep` on
 * (air, as created) and rebuild the slot table in place, which needs no memory. Only
 * failure paths call this, so its cost (all chunks) does not matter. */
static void chunks_truncate(bp_World *w, uint32_t keep)
{
	if (keep == w->nchunks)
		return;
	for (uint32_t i = keep; i < w->nchunks; i++)
		bp_ids_release(&w->mem, w->chunks[i].ids);
	w->nchunks = keep;
	memset(w->chunk_slots, 0, (size_t)w->chunk_slot_cap * sizeof(uint32_t));
	for (uint32_t i = 0; i < keep; i++)
		slot_insert(w->chunk_slots, w->chunk_slot_cap, &w->chunks[i], i);
	cache_clear(w);
}

const bp_Chunk *bp_world_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz)
{
	int64_t i = chunk_find(w, cx, cy, cz);
	if (i < 0)
		return w->unset_unloaded ? &w->unloaded_chunk : NULL;
	return &w->chunks[i];
}

uint16_t bp_world_get_block(bp_World *w, int32_t x, int32_t y, int32_t z)
{
	int64_t i = chunk_find(w, chunk_of(x), chunk_of(y), chunk_of(z));
	if (i < 0)
		return w->unset_unloaded ? w->unloaded_id : 0;
	const bp_Chunk *c = &w->chunks[i];
	return c->ids ? c->ids[cell_index(x, y, z)] : c->uniform;
}

static void chunk_remove(bp_World *w, uint32_t ci);

/* Whether the chunk of index i (chunk_find's answer: -1 for none) is unloaded. */
static int chunk_unloaded(const bp_World *w, int64_t i)
{
	if (i < 0)
		return w->unset_unloaded;
	const bp_Chunk *c = &w->chunks[i];
	return !c->ids && w->unloaded_id && c->uniform == w->unloaded_id;
}

/* 1 if blocks of type id act on what touches them (web, velocity_factor). */
static inline uint32_t touches(const bp_World *w, uint16_t id)
{
	return w->types[id].touch;
}

int bp_world_touch_near(bp_World *w, const int32_t lo[3], const int32_t hi[3])
{
	for (int32_t cy = chunk_of(lo[1]); cy <= chunk_of(hi[1]); cy++)
		for (int32_t cz = chunk_of(lo[2]); cz <= chunk_of(hi[2]); cz++)
			for (int32_t cx = chunk_of(lo[0]); cx <= chunk_of(hi[0]); cx++) {
				int64_t i = chunk_find(w, cx, cy, cz);
				if (i >= 0 && w->chunks[i].touch)
					return 1;
			}
	return 0;
}

/* Give a uniform chunk its own array, so one cell can differ. */
static bp_Status chunk_expand(bp_World *w, bp_Chunk *c)
{
	uint16_t *ids = bp_ids_new(&w->mem);
	if (!ids)
		return BP_ENOMEM;
	for (int i = 0; i < BP_CHUNK_VOLUME; i++)
		ids[i] = c->uniform;
	c->ids = ids;
	return BP_OK;
}

/* Drop the array of a chunk whose cells all hold one id again. */
static void chunk_compact(bp_World *w, bp_Chunk *c)
{
	uint16_t first = c->ids[0];
	for (int i = 1; i < BP_CHUNK_VOLUME; i++) {
		if (c->ids[i] != first)
			return;
	}
	bp_ids_release(&w->mem, c->ids);
	c->ids = NULL;
	c->uniform = first;
}

bp_Status bp_world_set_block(bp_World *w, int32_t x, int32_t y, int32_t z, uint16_t id)
{
	if (w->locked || id >= w->ntypes) /* the public API's checks (the binding's first) */
		return w->locked ? BP_ELOCKED : BP_EINVAL;
	int64_t found = chunk_find(w, chunk_of(x), chunk_of(y), chunk_of(z));
	if (w->unloaded_id && (id == w->unloaded_id || chunk_unloaded(w, found)))
		return id == w->unloaded_id ? BP_EINVAL : BP_EUNLOADED;
	if (found < 0 && id == 0)
		return BP_OK; /* air where no chunk exists: nothing to store */
	uint32_t ci;
	const uint32_t nbefore = w->nchunks;
	bp_Status st = chunk_get(w, chunk_of(x), chunk_of(y), chunk_of(z), &ci);
	if (st != BP_OK)
		return st;
	bp_Chunk *c = &w->chunks[ci];
	uint16_t old = c->ids ? c->ids[cell_index(x, y, z)] : c->uniform;
	if (old == id)
		return BP_OK;
	if (!c->ids && (st = chunk_expand(w, c)) != BP_OK) {
		chunks_truncate(w, nbefore); /* a chunk created just now goes again */
		return st;
	}
	if ((st = ids_own(w, c)) != BP_OK)
		return st; /* a shared array: the chunk existed before */
	c->ids[cell_index(x, y, z)] = id;
	w->block_version++;
	const int32_t cell[3] = {x, y, z};
	bp_sleep_cells_changed(w, cell, cell); /* sleepers within reach wake */
	c = &w->chunks[ci];
	c->nonair += (id != 0) - (old != 0);
	c->liquid += (w->types[id].liquid != 0) - (w->types[old].liquid != 0);
	c->touch += touches(w, id) - touches(w, old);
	w->liquid_blocks += (uint64_t)(w->types[id].liquid != 0) - (uint64_t)(w->types[old].liquid != 0);
	w->stored_blocks += (uint64_t)(id != 0) - (uint64_t)(old != 0);
	/* A chunk that becomes uniform (all air, all one block) drops its array. */
	if (c->nonair == 0 || c->nonair == BP_CHUNK_VOLUME)
		chunk_compact(w, c);
	return BP_OK;
}

/* Fill the part of one chunk that lies in [lo, hi] (block coordinates). */
static bp_Status fill_chunk(bp_World *w, uint32_t ci, const int64_t lo[3],
                            const int64_t hi[3], uint16_t id)
{
	bp_Chunk *c = &w->chunks[ci];
	int64_t base[3] = {(int64_t)c->cx * 16, (int64_t)c->cy * 16, (int64_t)c->cz * 16};
	int64_t a[3], b[3];
	int whole = 1;
	for (int k = 0; k < 3; k++) {
		a[k] = lo[k] > base[k] ? lo[k] - base[k] : 0;
		b[k] = hi[k] < base[k] + 15 ? hi[k] - base[k] : 15;
		whole &= a[k] == 0 && b[k] == 15;
	}
	uint32_t before = c->nonair, liquid_before = c->liquid;
	const int liquid = w->types[id].liquid != 0;
	const uint32_t touch = touches(w, id);
	if (whole) {
		bp_ids_release(&w->mem, c->ids);
		c->ids = NULL;
		c->uniform = id;
		c->nonair = id ? BP_CHUNK_VOLUME : 0;
		c->liquid = liquid ? BP_CHUNK_VOLUME : 0;
		c->touch = touch ? BP_CHUNK_VOLUME : 0;
	} else {
		uint16_t current = c->ids ? 0 : c->uniform;
		if (!c->ids && current == id)
			return BP_OK;
		bp_Status st = c->ids ? BP_OK : chunk_expand(w, c);
		if (st != BP_OK)
			return st;
		for (int64_t y = a[1]; y <= b[1]; y++)
			for (int64_t z = a[2]; z <= b[2]; z++)
				for (int64_t x = a[0]; x <= b[0]; x++) {
					uint16_t *cell = &c->ids[(y << 8) | (z << 4) | x];
					c->nonair += (id != 0) - (*cell != 0);
					c->liquid += liquid - (w->types[*cell].liquid != 0);
					c->touch += touch - touches(w, *cell);
					*cell = id;
				}
		if (c->nonair == 0 || c->nonair == BP_CHUNK_VOLUME)
			chunk_compact(w, c);
	}
	w->stored_blocks += (uint64_t)c->nonair - before;
	w->liquid_blocks += (uint64_t)c->liquid - liquid_before;
	return BP_OK;
}

/* True if [lo, hi] covers the whole chunk. */
static int covers_chunk(const bp_Chunk *c, const int64_t lo[3], const int64_t hi[3])
{
	const int64_t base[3] = {(int64_t)c->cx * 16, (int64_t)c->cy * 16, (int64_t)c->cz * 16};
	for (int k = 0; k < 3; k++) {
		if (lo[k] > base[k] || hi[k] < base[k] + 15)
			return 0;
	}
	return 1;
}

/* Phase 1 of a fill: create the chunks it needs and give every partly filled
 * uniform chunk its array. Nothing observable changes (new chunks are air, arrays
 * hold the same ids), so a failure here leaves the blocks as they were. */
static bp_Status fill_prepare(bp_World *w, const int64_t lo[3], const int64_t hi[3],
                              uint16_t id)
{
	for (int64_t cy = chunk_of((int32_t)lo[1]); cy <= chunk_of((int32_t)hi[1]); cy++)
		for (int64_t cz = chunk_of((int32_t)lo[2]); cz <= chunk_of((int32_t)hi[2]); cz++)
			for (int64_t cx = chunk_of((int32_t)lo[0]); cx <= chunk_of((int32_t)hi[0]); cx++) {
				uint32_t ci;
				if (id == 0 && chunk_find(w, (int32_t)cx, (int32_t)cy, (int32_t)cz) < 0)
					continue; /* clearing where nothing is stored */
				bp_Status st = chunk_get(w, (int32_t)cx, (int32_t)cy, (int32_t)cz, &ci);
				if (st != BP_OK)
					return st;
				bp_Chunk *c = &w->chunks[ci];
				if (!c->ids && c->uniform != id && !covers_chunk(c, lo, hi) &&
				    (st = chunk_expand(w, c)) != BP_OK)
					return st;
				/* Phase 2 writes into its own arrays: copy shared ones now. */
				if (c->ids && !covers_chunk(c, lo, hi) && (st = ids_own(w, c)) != BP_OK)
					return st;
			}
	return BP_OK;
}

/* Undo fill_prepare after a failure: the chunks it created go, and the chunks that
 * existed give back the arrays it made for them. Those are the only arrays whose
 * cells all hold one id (set_block and fill compact any other), so chunk_compact
 * finds exactly them. */
static void fill_unprepare(bp_World *w, const int64_t lo[3], const int64_t hi[3],
                           uint32_t nbefore)
{
	chunks_truncate(w, nbefore);
	for (int64_t cy = chunk_of((int32_t)lo[1]); cy <= chunk_of((int32_t)hi[1]); cy++)
		for (int64_t cz = chunk_of((int32_t)lo[2]); cz <= chunk_of((int32_t)hi[2]); cz++)
			for (int64_t cx = chunk_of((int32_t)lo[0]); cx <= chunk_of((int32_t)hi[0]); cx++) {
				int64_t ci = chunk_find(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (ci >= 0 && w->chunks[ci].ids)
					chunk_compact(w, &w->chunks[ci]);
			}
}

bp_Status bp_world_fill(bp_World *w, const int32_t lo[3], const int32_t hi[3], uint16_t id)
{
	bp_Status bad = bp_fill_check(w, lo, hi, id); /* the public API's (the binding's first) */
	if (bad != BP_OK)
		return bad;
	const int64_t l[3] = {lo[0], lo[1], lo[2]}, h[3] = {hi[0], hi[1], hi[2]};
	const uint32_t nbefore = w->nchunks;
	if (w->unloaded_id) { /* streaming: no fill reaches into unloaded space */
		if (id == w->unloaded_id)
			return BP_EINVAL;
		for (int64_t cy = chunk_of(lo[1]); cy <= chunk_of(hi[1]); cy++)
			for (int64_t cz = chunk_of(lo[2]); cz <= chunk_of(hi[2]); cz++)
				for (int64_t cx = chunk_of(lo[0]); cx <= chunk_of(hi[0]); cx++)
					if (chunk_unloaded(w, chunk_find(w, (int32_t)cx, (int32_t)cy, (int32_t)cz)))
						return BP_EUNLOADED;
	}
	bp_Status st = fill_prepare(w, l, h, id);
	if (st != BP_OK) {
		fill_unprepare(w, l, h, nbefore);
		return st;
	}
	/* Phase 2 cannot fail: every chunk exists and has the array it needs. */
	w->block_version++;
	bp_sleep_cells_changed(w, lo, hi); /* sleepers within reach wake */
	for (int64_t cy = chunk_of(lo[1]); cy <= chunk_of(hi[1]); cy++)
		for (int64_t cz = chunk_of(lo[2]); cz <= chunk_of(hi[2]); cz++)
			for (int64_t cx = chunk_of(lo[0]); cx <= chunk_of(hi[0]); cx++) {
				int64_t ci = chunk_find(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (ci < 0)
					continue;
				fill_chunk(w, (uint32_t)ci, l, h, id);
				/* A chunk of only air where unset space is air is the same as none:
				 * its entry goes (a cleared region keeps no entries). */
				const bp_Chunk *c = &w->chunks[ci];
				if (!c->ids && c->uniform == 0 && !w->unset_unloaded)
					chunk_remove(w, (uint32_t)ci);
			}
	return BP_OK;
}

bp_Status bp_chunks_reserve(bp_World *w, uint32_t n)
{
	bp_Status st = bp_grow(&w->mem, (void **)&w->chunks, &w->chunks_cap, n, sizeof(bp_Chunk));
	return st == BP_OK ? slots_reserve(w, n) : st;
}

void bp_chunks_set(bp_World *w, const bp_Chunk *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		bp_ids_acquire(&w->mem, c[i].ids); /* first: an array in both stays alive */
	for (uint32_t i = 0; i < w->nchunks; i++)
		bp_ids_release(&w->mem, w->chunks[i].ids);
	if (n)
		memcpy(w->chunks, c, (size_t)n * sizeof *c);
	w->nchunks = n;
	if (w->chunk_slot_cap)
		memset(w->chunk_slots, 0, (size_t)w->chunk_slot_cap * sizeof(uint32_t));
	for (uint32_t i = 0; i < n; i++)
		slot_insert(w->chunk_slots, w->chunk_slot_cap, &w->chunks[i], i);
	cache_clear(w);
}

void bp_chunks_init(bp_World *w)
{
	cache_clear(w);
	memset(&w->unloaded_chunk, 0, sizeof w->unloaded_chunk);
	w->stream_version = 1; /* a new entity's stream_seen (0) is never current */
}

/* ------------------------------------------------------------- streaming */

int bp_chunk_is_unloaded(bp_World *w, int32_t cx, int32_t cy, int32_t cz)
{
	return chunk_unloaded(w, chunk_find(w, cx, cy, cz));
}

/* Remove slot position pos of the table (linear probing: the entries after it that
 * could no longer be found move back, so no tombstone is needed). */
static void slot_delete(bp_World *w, uint32_t pos)
{
	uint32_t *slots = w->chunk_slots, mask = w->chunk_slot_cap - 1, i = pos;
	slots[i] = 0;
	for (uint32_t j = (i + 1) & mask; slots[j]; j = (j + 1) & mask) {
		const bp_Chunk *c = &w->chunks[slots[j] - 1];
		uint32_t home = chunk_hash(c->cx, c->cy, c->cz) & mask;
		/* the entry at j stays if its home lies cyclically in (i, j] */
		int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (stays)
			continue;
		slots[i] = slots[j];
		slots[j] = 0;
		i = j;
	}
}

/* The slot position holding chunk index ci. */
static uint32_t slot_of(const bp_World *w, uint32_t ci)
{
	const bp_Chunk *c = &w->chunks[ci];
	uint32_t mask = w->chunk_slot_cap - 1, i = chunk_hash(c->cx, c->cy, c->cz) & mask;
	while (w->chunk_slots[i] != ci + 1)
		i = (i + 1) & mask;
	return i;
}

/* Drop chunk index ci from the table and the array (the last chunk takes its index). */
static void chunk_remove(bp_World *w, uint32_t ci)
{
	bp_Chunk *c = &w->chunks[ci];
	bp_ids_release(&w->mem, c->ids);
	slot_delete(w, slot_of(w, ci));
	const uint32_t last = w->nchunks - 1;
	if (ci != last) {
		w->chunk_slots[slot_of(w, last)] = ci + 1;
		w->chunks[ci] = w->chunks[last];
	}
	w->nchunks--;
	cache_clear(w);
}

/* Take a chunk's counts out of the world's totals (before it changes or goes). */
static void chunk_uncount(bp_World *w, const bp_Chunk *c)
{
	w->stored_blocks -= c->nonair;
	w->liquid_blocks -= c->liquid;
}

/* A whole chunk was loaded or unloaded: sleepers within reach of it wake. */
static void chunk_changed(bp_World *w, int32_t cx, int32_t cy, int32_t cz)
{
	const bp_AABB r = bp_aabb_make((double)cx * BP_CHUNK_SIZE, (double)cy * BP_CHUNK_SIZE,
	                               (double)cz * BP_CHUNK_SIZE, ((double)cx + 1) * BP_CHUNK_SIZE,
	                               ((double)cy + 1) * BP_CHUNK_SIZE + 1,
	                               ((double)cz + 1) * BP_CHUNK_SIZE);
	bp_sleep_region_changed(w, &r);
}

bp_Status bp_chunk_load(bp_World *w, int32_t cx, int32_t cy, int32_t cz,
                        const unsigned char *data, uint32_t *bad)
{
	uint16_t *ids = bp_ids_new(&w->mem); /* a shared (copy-on-write) array of its own */
	if (!ids)
		return BP_ENOMEM;
	/* Decode, then check every id before anything changes. A little-endian host takes
	 * the bytes as they are; the checks are one branch-free pass (the compiler's
	 * vector code), so a load costs little more than the copy. */
	const uint16_t probe = 1;
	if (*(const unsigned char *)&probe == 1) {
		memcpy(ids, data, BP_CHUNK_VOLUME * sizeof *ids);
	} else {
		for (uint32_t i = 0; i < BP_CHUNK_VOLUME; i++)
			ids[i] = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);
	}
	/* 0xFFFF is never an id (at most BP_MAX_TYPES types): the maximum test catches it */
	const uint16_t forbidden = w->unloaded_id ? w->unloaded_id : 0xFFFF, first = ids[0];
	uint32_t nonair = 0, liquid = 0, touch = 0, differ = 0, hit = 0;
	uint16_t most = 0;
	for (uint32_t i = 0; i < BP_CHUNK_VOLUME; i++) {
		const uint16_t id = ids[i];
		most = id > most ? id : most;
		nonair += id != 0;
		differ |= (uint32_t)(id ^ first);
		hit |= id == forbidden;
	}
	if (most >= w->ntypes || hit) {
		uint32_t i = 0;
		while (ids[i] < w->ntypes && ids[i] != forbidden)
			i++;
		*bad = i;
		bp_ids_release(&w->mem, ids);
		return BP_EINVAL;
	}
	if (w->has_liquid || w->has_touch) /* rare: most worlds skip this pass */
		for (uint32_t i = 0; i < BP_CHUNK_VOLUME; i++) {
			const bp_BlockType *t = &w->types[ids[i]];
			liquid += t->liquid != 0;
			touch += t->touch;
		}
	int64_t found = chunk_find(w, cx, cy, cz);
	uint32_t ci;
	bp_Status st = BP_OK;
	if (found >= 0)
		ci = (uint32_t)found;
	else if (!differ && ids[0] == 0 && !w->unset_unloaded) {
		bp_ids_release(&w->mem, ids); /* air where air is unset */
		return BP_OK;
	} else if ((st = chunk_get(w, cx, cy, cz, &ci)) != BP_OK) {
		bp_ids_release(&w->mem, ids);
		return st;
	}
	bp_Chunk *c = &w->chunks[ci];
	if (chunk_unloaded(w, found))
		w->unloaded_chunks -= found >= 0;
	chunk_uncount(w, c);
	bp_ids_release(&w->mem, c->ids);
	if (differ) {
		c->ids = ids;
	} else { /* one id: no array, as fill stores it */
		c->ids = NULL;
		c->uniform = ids[0];
		bp_ids_release(&w->mem, ids);
	}
	c->nonair = nonair;
	c->liquid = liquid;
	c->touch = touch;
	w->stored_blocks += nonair;
	w->liquid_blocks += liquid;
	w->block_version++;
	chunk_changed(w, cx, cy, cz);
	return BP_OK;
}

bp_Status bp_chunk_unload(bp_World *w, int32_t cx, int32_t cy, int32_t cz)
{
	int64_t found = chunk_find(w, cx, cy, cz);
	if (chunk_unloaded(w, found))
		return BP_OK;
	w->block_version++;
	chunk_changed(w, cx, cy, cz);
	if (w->unset_unloaded) { /* no entry is unloaded space: drop it */
		chunk_uncount(w, &w->chunks[found]);
		chunk_remove(w, (uint32_t)found);
		return BP_OK;
	}
	uint32_t ci;
	bp_Status st = chunk_get(w, cx, cy, cz, &ci);
	if (st != BP_OK)
		return st;
	bp_Chunk *c = &w->chunks[ci];
	chunk_uncount(w, c);
	bp_ids_release(&w->mem, c->ids);
	c->ids = NULL;
	c->uniform = w->unloaded_id;
	c->nonair = c->liquid = c->touch = 0;
	w->unloaded_chunks++;
	return BP_OK;
}

int bp_chunk_read(bp_World *w, int32_t cx, int32_t cy, int32_t cz, unsigned char *out)
{
	int64_t found = chunk_find(w, cx, cy, cz);
	if (chunk_unloaded(w, found))
		return 0;
	const bp_Chunk *c = found >= 0 ? &w->chunks[found] : NULL;
	if (!c || !c->ids) {
		const uint16_t id = c ? c->uniform : 0;
		for (uint32_t i = 0; i < BP_CHUNK_VOLUME; i++) {
			out[2 * i] = (unsigned char)(id & 0xFF);
			out[2 * i + 1] = (unsigned char)(id >> 8);
		}
		return 1;
	}
	const uint16_t probe = 1;
	if (*(const unsigned char *)&probe == 1) { /* little-endian host: the bytes as stored */
		memcpy(out, c->ids, BP_CHUNK_VOLUME * sizeof(uint16_t));
		return 1;
	}
	for (uint32_t i = 0; i < BP_CHUNK_VOLUME; i++) {
		out[2 * i] = (unsigned char)(c->ids[i] & 0xFF);
		out[2 * i + 1] = (unsigned char)(c->ids[i] >> 8);
	}
	return 1;
}

void bp_chunks_free(bp_World *w)
{
	for (uint32_t i = 0; i < w->nchunks; i++)
		bp_ids_release(&w->mem, w->chunks[i].ids);
	bp_free(&w->mem, w->chunks, (size_t)w->chunks_cap * sizeof(bp_Chunk));
	bp_free(&w->mem, w->chunk_slots, (size_t)w->chunk_slot_cap * sizeof(uint32_t));
}
