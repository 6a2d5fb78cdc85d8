/* SPDX-License-Identifier: MIT
 * broadphase.c - the entity grid (bp_broadphase.h): a hash map of 2-block cells, each
 * with the listings (slot, serial, box) of the entities whose boxes touch it, sorted
 * by serial (broadlist.c keeps them). Queries read the listings of the covered cells,
 * keep strict overlaps, report each entity from one cell only (the first the box and
 * the query share), and sort them by serial so that callers see creation order
 * whatever the hash order; they read no entity they do not return, which in a crowd
 * larger than the cache, spawned in no spatial order, was a miss per candidate.
 * Neighbour finding thus costs O(n) per step on average; a query that wants only the
 * first few (bp_broadphase_visit_first) takes at most that many from each cell, so a
 * pile of n entities on one cell costs O(n) per step too, not O(n^2).
 */
#include "broadphase.h"
#include "broadlist.h"
#include "bp_world.h"
#include "alloc.h"
#include "entity.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Cells are clamped to +-2^30: beyond every entity (|coordinate| <= ~2^31 blocks, so
 * |cell| <= 2^30) and safe to convert. Clamping is monotone, so boxes that overlap
 * still share a cell after it. NaN maps to the low bound (and then overlaps nothing). */
#define CELL_LIMIT 1073741824.0

static int32_t cell_of(double v)
{
	double t = v * (1.0 / BP_BROAD_CELL);
	if (!(t >= -CELL_LIMIT))
		return (int32_t)-CELL_LIMIT;
	if (t > CELL_LIMIT)
		return (int32_t)CELL_LIMIT;
	/* floor(t), without the libm call that x86-64 makes of floor() unless built for
	 * SSE4.1 (six of them per box were an eighth of a crowd step's instructions): the
	 * conversion truncates toward zero, one less below zero when t was not whole. */
	int32_t c = (int32_t)t;
	return (double)c > t ? c - 1 : c;
}

static void cell_range(const bp_AABB *b, int32_t lo[3], int32_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		lo[a] = cell_of(b->lo[a]);
		hi[a] = cell_of(b->hi[a]);
		if (hi[a] < lo[a]) /* NaN on hi only */
			hi[a] = lo[a];
	}
}

/* Step cell c through the inclusive range [lo, hi] in x, y, z order (z fastest),
 * with no overflow at INT32_MAX: 0 once c was the last cell. Start at c = lo:
 * `do { ... } while (range_next(c, lo, hi));`. */
static int range_next(int32_t c[3], const int32_t lo[3], const int32_t hi[3])
{
	for (int a = 2; a >= 0; a--) {
		if (c[a] != hi[a]) {
			c[a]++;
			return 1;
		}
		c[a] = lo[a];
	}
	return 0;
}

/* Cells a range covers (double: the product may exceed any integer type). */
static double range_cells(const int32_t lo[3], const int32_t hi[3])
{
	double n = 1;
	for (int a = 0; a < 3; a++)
		n *= (double)hi[a] - (double)lo[a] + 1;
	return n;
}

static uint32_t cell_hash(int32_t x, int32_t y, int32_t z)
{
	uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u ^
	             (uint32_t)z * 0xC2B2AE3Du;
	h ^= h >> 15;
	h *= 0x2C1B3C6Du;
	h ^= h >> 12;
	return h;
}

/* The slot of cell (x, y, z), or the empty slot where it would go. */
static bp_BroadCell *cell_slot(const bp_Broadphase *g, int32_t x, int32_t y, int32_t z)
{
	uint32_t mask = g->cells_cap - 1;
	for (uint32_t i = cell_hash(x, y, z) & mask;; i = (i + 1) & mask) {
		bp_BroadCell *c = &g->cells[i];
		if (!c->used || (c->c[0] == x && c->c[1] == y && c->c[2] == z))
			return c;
	}
}

static bp_BroadCell *cell_find(const bp_Broadphase *g, int32_t x, int32_t y, int32_t z)
{
	if (!g->cells_cap)
		return NULL;
	bp_BroadCell *c = cell_slot(g, x, y, z);
	return c->used ? c : NULL;
}

/* Cells moved in the table (a grow, a build): the entries' hints to them are stale. */
static void table_moved(bp_Broadphase *g)
{
	g->table_gen = g->table_gen == UINT32_MAX ? 1 : g->table_gen + 1; /* (0: no hint) */
}

/* Double the cell table (kept at most half full) and rehash the used slots. */
static bp_Status cells_grow(bp_World *w)
{
	bp_Broadphase *g = &w->broad;
	uint32_t ncap = g->cells_cap ? g->cells_cap * 2 : 1024;
	if (ncap > (UINT32_MAX / 2) / sizeof(bp_BroadCell))
		return BP_ELIMIT;
	bp_BroadCell *nc = bp_alloc(&w->mem, (size_t)ncap * sizeof *nc);
	if (!nc)
		return BP_ENOMEM;
	memset(nc, 0, (size_t)ncap * sizeof *nc);
	bp_BroadCell *old = g->cells;
	uint32_t ocap = g->cells_cap;
	table_moved(g);
	g->cells = nc;
	g->cells_cap = ncap;
	for (uint32_t i = 0; i < ocap; i++) {
		if (old[i].used)
			*cell_slot(g, old[i].c[0], old[i].c[1], old[i].c[2]) = old[i];
	}
	bp_free(&w->mem, old, (size_t)ocap * sizeof *old);
	return BP_OK;
}

/* The listing of entry en (slot `index`) in cell c and its place, or NULL. */
static bp_BroadListing *cell_listing(const bp_BroadCell *c, const bp_BroadEntry *en,
                                     uint32_t index, bp_ListPos *at)
{
	*at = bp_list_lower(c, en->serial);
	bp_BroadListing *l = bp_list_at(c, *at);
	return l && (l->slot & BP_BROAD_SLOT_MASK) == index ? l : NULL;
}

/* The k-th cell (range order) of entry en, at `at`: through its hint while the table
 * has not changed since it was written. */
static bp_BroadCell *entry_cell(const bp_Broadphase *g, const bp_BroadEntry *en, uint32_t k,
                                const int32_t at[3])
{
	if (k < BP_BROAD_HINTS && en->table_gen == g->table_gen)
		return &g->cells[en->cell[k]];
	return cell_find(g, at[0], at[1], at[2]);
}

/* The listing of entry en (slot `index`) in its k-th cell c and its place, or NULL:
 * first where it was last found (a cell's listings shift only when an earlier
 * entity enters or leaves it), which is remembered. */
static bp_BroadListing *entry_listing(const bp_BroadCell *c, bp_BroadEntry *en,
                                      uint32_t index, uint32_t k, bp_ListPos *at)
{
	if (k < BP_BROAD_HINTS && c->nruns == 1) {
		const uint32_t i = en->at[k];
		if (i < c->one->n && (c->one->at[i].slot & BP_BROAD_SLOT_MASK) == index) {
			at->r = 0;
			at->i = i;
			return &c->one->at[i];
		}
	}
	bp_BroadListing *l = cell_listing(c, en, index, at);
	if (l && k < BP_BROAD_HINTS && c->nruns == 1)
		en->at[k] = (uint16_t)at->i; /* (a run holds at most 64) */
	return l;
}

/* List slot `index` in every cell of its box, each list kept sorted by serial. On
 * failure the grid is left invalid. */
static bp_Status grid_insert(bp_World *w, uint32_t index)
{
	bp_Broadphase *g = &w->broad;
	bp_BroadEntry *en = &g->ents[index];
	const bp_Entity *e = &w->entities.items[index];
	en->box = e->box;
	en->serial = e->serial;
	cell_range(&e->box, en->lo, en->hi);
	en->listed = 1; /* set first: a failed insert is undone by the rebuild anyway */
	en->table_gen = 0;
	const uint32_t gen = g->table_gen;
	uint32_t k = 0;
	int32_t at[3] = {en->lo[0], en->lo[1], en->lo[2]};
	do {
		if ((g->ncells + 1) * 2 > g->cells_cap && cells_grow(w) != BP_OK)
			return BP_ENOMEM;
		bp_BroadCell *c = cell_slot(g, at[0], at[1], at[2]);
		if (!c->used) {
			memset(c, 0, sizeof *c);
			c->used = 1;
			c->c[0] = at[0], c->c[1] = at[1], c->c[2] = at[2];
			g->ncells++;
		}
		const bp_BroadListing l = {
			.slot = index | (at[0] == en->lo[0] ? BP_BROAD_FIRST_X : 0) |
			        (at[1] == en->lo[1] ? BP_BROAD_FIRST_Y : 0) |
			        (at[2] == en->lo[2] ? BP_BROAD_FIRST_Z : 0),
			.serial = en->serial,
			.box = e->box,
		};
		bp_ListPos p;
		if (bp_list_insert(&w->mem, c, &l, &p) != BP_OK)
			return BP_ENOMEM;
		g->listings++;
		if (k < BP_BROAD_HINTS) {
			en->cell[k] = (uint32_t)(c - g->cells);
			en->at[k] = c->nruns == 1 ? (uint16_t)p.i : UINT16_MAX;
		}
		k++;
	} while (range_next(at, en->lo, en->hi));
	if (g->table_gen == gen) /* (a grow on the way moved the cells hinted before it) */
		en->table_gen = gen;
	return BP_OK;
}

/* Unlist slot `index` from the cells it was listed in. */
static void grid_remove(bp_World *w, uint32_t index)
{
	bp_Broadphase *g = &w->broad;
	bp_BroadEntry *en = &g->ents[index];
	uint32_t k = 0;
	int32_t at[3] = {en->lo[0], en->lo[1], en->lo[2]};
	do {
		bp_BroadCell *c = entry_cell(g, en, k, at);
		bp_ListPos p;
		if (c && entry_listing(c, en, index, k, &p)) {
			bp_list_remove(&w->mem, c, p);
			g->listings--;
		}
		k++;
	} while (range_next(at, en->lo, en->hi));
	en->listed = 0;
}

/* The box of slot `index` in the listings of the cells it is listed in (it moved
 * within them). */
static void grid_update(bp_World *w, uint32_t index)
{
	bp_Broadphase *g = &w->broad;
	bp_BroadEntry *en = &g->ents[index];
	const bp_AABB *box = &w->entities.items[index].box;
	en->box = *box;
	uint32_t k = 0;
	int32_t at[3] = {en->lo[0], en->lo[1], en->lo[2]};
	do {
		const bp_BroadCell *c = entry_cell(g, en, k, at);
		bp_ListPos p;
		bp_BroadListing *l = c ? entry_listing(c, en, index, k, &p) : NULL;
		if (l)
			l->box = *box;
		k++;
	} while (range_next(at, en->lo, en->hi));
}

/* Free every cell's list (the table itself stays). */
static void free_lists(bp_World *w)
{
	bp_Broadphase *g = &w->broad;
	for (uint32_t i = 0; i < g->cells_cap; i++) {
		bp_BroadCell *c = &g->cells[i];
		if (c->used)
			bp_list_free(&w->mem, c);
	}
}

/* True if the grid was built for the entities as they are now (no spawn or remove
 * since: every spawn raises next_serial, every remove lowers nlive). */
static int grid_current(const bp_World *w)
{
	const bp_Broadphase *g = &w->broad;
	return g->valid && g->built_serial == w->entities.next_serial &&
	       g->built_count == w->entities.nlive;
}

static bp_Status grid_build(bp_World *w)
{
	bp_Broadphase *g = &w->broad;
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	g->valid = 0;
	if (p->count > BP_BROAD_SLOT_MASK) /* slots the listings cannot name: scan instead */
		return BP_ELIMIT;
	bp_Status st = bp_grow(&w->mem, (void **)&g->ents, &g->ents_cap, p->count ? p->count : 1,
	                       sizeof(bp_BroadEntry));
	if (st != BP_OK)
		return st;
	for (uint32_t i = 0; i < g->ents_cap; i++)
		g->ents[i].listed = 0;
	if (g->cells) {
		free_lists(w);
		memset(g->cells, 0, (size_t)g->cells_cap * sizeof *g->cells);
	}
	table_moved(g);
	g->ncells = 0;
	g->listings = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		if ((st = grid_insert(w, p->order[i])) != BP_OK)
			return st;
	}
	g->built_serial = p->next_serial;
	g->built_count = p->nlive;
	g->valid = 1;
	return BP_OK;
}

void bp_broadphase_moved(bp_World *w, uint32_t index)
{
	bp_Broadphase *g = &w->broad;
	if (!grid_current(w) || index >= g->ents_cap || !g->ents[index].listed)
		return; /* rebuilt on the next query anyway */
	int32_t lo[3], hi[3];
	const bp_BroadEntry *en = &g->ents[index];
	const bp_AABB *box = &w->entities.items[index].box;
	if (!memcmp(box, &en->box, sizeof *box))
		return; /* not moved since its listings were written */
	cell_range(box, lo, hi);
	if (!memcmp(lo, en->lo, sizeof lo) && !memcmp(hi, en->hi, sizeof hi)) {
		grid_update(w, index); /* same cells: only the box copies change */
		return;
	}
	grid_remove(w, index);
	if (grid_insert(w, index) != BP_OK)
		g->valid = 0;
	/* Cells left empty by wandering entities stay in the table: rebuild when they
	 * outnumber the listings. */
	if (g->ncells > 2 * g->listings + 1024)
		g->valid = 0;
}

void bp_broadphase_invalidate(bp_World *w)
{
	w->broad.valid = 0;
}

void bp_broadphase_free(bp_World *w)
{
	bp_Broadphase *g = &w->broad;
	if (g->cells)
		free_lists(w);
	bp_free(&w->mem, g->cells, (size_t)g->cells_cap * sizeof *g->cells);
	bp_free(&w->mem, g->ents, (size_t)g->ents_cap * sizeof *g->ents);
	bp_free(&w->mem, g->results, (size_t)g->results_cap * sizeof *g->results);
	memset(g, 0, sizeof *g);
}

/* Creation order without the grid: the fallback for huge regions and low memory. */
static int visit_linear(bp_World *w, const bp_AABB *region, uint32_t min_serial,
                        uint32_t limit, bp_EntityVisitor fn, void *ctx)
{
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	for (uint32_t i = 0; i < p->norder && limit; i++) {
		uint32_t index = p->order[i];
		const bp_Entity *e = &p->items[index];
		if (e->serial < min_serial || !bp_aabb_overlaps(&e->box, region))
			continue;
		int stop = fn(ctx, index);
		if (stop)
			return stop;
		limit--;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Push the first `limit` entities of one cell (from serial min_serial on) that overlap
 * the region onto the results stack, each from one cell only: the cell that is, on
 * every axis, the first of the cells both its box and the region cover (first[a]: this
 * cell is the region's first on axis a). The first `limit` of the whole region are
 * among these of its cells: those before one of them in its cells are fewer. */
static bp_Status gather_cell(bp_World *w, const bp_BroadCell *c, const bp_AABB *region,
                             const int32_t lo[3], uint32_t min_serial, uint32_t limit)
{
	bp_Broadphase *g = &w->broad;
	/* An entity's listing here reports it when, on each axis, this cell is the first
	 * of its box's cells or the first of the region's. */
	const uint32_t first = (c->c[0] == lo[0] ? BP_BROAD_FIRST_X : 0) |
	                       (c->c[1] == lo[1] ? BP_BROAD_FIRST_Y : 0) |
	                       (c->c[2] == lo[2] ? BP_BROAD_FIRST_Z : 0);
	const uint32_t all = BP_BROAD_FIRST_X | BP_BROAD_FIRST_Y | BP_BROAD_FIRST_Z;
	uint32_t taken = 0;
	bp_BroadRun *const *runs = bp_list_runs(c);
	const bp_ListPos from = min_serial ? bp_list_lower(c, min_serial) : (bp_ListPos){0, 0};
	for (uint32_t r = from.r; r < c->nruns && taken < limit; r++) {
		const bp_BroadRun *run = runs[r];
		for (uint32_t i = r == from.r ? from.i : 0; i < run->n && taken < limit; i++) {
			const bp_BroadListing *l = &run->at[i];
			if (!bp_aabb_overlaps(&l->box, region))
				continue;
			taken++;
			if (((l->slot | first) & all) != all)
				continue; /* reported from another cell */
			if (bp_grow(&w->mem, (void **)&g->results, &g->results_cap, g->nresults + 1,
			            sizeof(uint64_t)) != BP_OK)
				return BP_ENOMEM;
			g->results[g->nresults++] =
			    (uint64_t)l->serial << 32 | (l->slot & BP_BROAD_SLOT_MASK);
		}
	}
	return BP_OK;
}

/* Gather the region's entities above `base` on the results stack, sorted. */
static bp_Status gather(bp_World *w, const bp_AABB *region, const int32_t lo[3],
                        const int32_t hi[3], uint32_t base, uint32_t min_serial,
                        uint32_t limit)
{
	bp_Broadphase *g = &w->broad;
	int32_t at[3] = {lo[0], lo[1], lo[2]};
	do {
		const bp_BroadCell *c = cell_find(g, at[0], at[1], at[2]);
		if (c && gather_cell(w, c, region, lo, min_serial, limit) != BP_OK)
			return BP_ENOMEM;
	} while (range_next(at, lo, hi));
	if (g->nresults - base > 1) /* also keeps a NULL (never grown) array out of qsort */
		qsort(g->results + base, g->nresults - base, sizeof(uint64_t), cmp_u64);
	return BP_OK;
}

/* A load hint for the cache line holding p: no effect on any result (nothing where
 * the compiler has no prefetch). */
static inline void prefetch(const void *p)
{
#if defined(__GNUC__)
	__builtin_prefetch(p);
#else
	(void)p;
#endif
}

/* The lines of entity `slot` that a neighbour's push or query reads: bp_Entity's
 * first 96 bytes (box, serial, filters, flags, push model and model, velocity), two or
 * three lines wherever the slot starts. */
static inline void prefetch_entity(const bp_Entity *items, uint32_t slot)
{
	const char *at = (const char *)&items[slot];
	prefetch(at);
	prefetch(at + 48);
	prefetch(at + 95);
}

/* The grid entry of entity `slot` when its cells are worth loading ahead: a current
 * grid lists it in a mob-sized range of cells (a hint for a mob's neighbourhood, not
 * for a giant's). NULL otherwise. */
static const bp_BroadEntry *ahead_entry(const bp_World *w, uint32_t slot)
{
	const bp_Broadphase *g = &w->broad;
	if (!grid_current(w) || slot >= g->ents_cap || !g->ents[slot].listed)
		return NULL;
	const bp_BroadEntry *en = &g->ents[slot];
	return range_cells(en->lo, en->hi) > 8 ? NULL : en;
}

/* First stage: the table slots of the grid cells entity `slot` is listed in, so that
 * the second stage finds them without waiting. */
static void prefetch_cells(const bp_World *w, uint32_t slot)
{
	const bp_Broadphase *g = &w->broad;
	const bp_BroadEntry *en = ahead_entry(w, slot);
	if (!en)
		return;
	const uint32_t mask = g->cells_cap - 1;
	int32_t at[3] = {en->lo[0], en->lo[1], en->lo[2]};
	do {
		prefetch(&g->cells[cell_hash(at[0], at[1], at[2]) & mask]);
	} while (range_next(at, en->lo, en->hi));
}

/* Listings a hint loads from one cell: a crowd's cells list a handful. */
#define AHEAD_LISTINGS 8

/* Second stage: those cells' lists (their first AHEAD_LISTINGS listings), so that the
 * third stage and the query read them without waiting. */
static void prefetch_lists(const bp_World *w, uint32_t slot)
{
	const bp_Broadphase *g = &w->broad;
	const bp_BroadEntry *en = ahead_entry(w, slot);
	if (!en)
		return;
	int32_t at[3] = {en->lo[0], en->lo[1], en->lo[2]};
	do {
		const bp_BroadCell *c = cell_find(g, at[0], at[1], at[2]);
		if (!c || !c->n || c->nruns > 1)
			continue; /* (a pile's cell: its runs are not worth the wait) */
		/* From the cell alone: reading the run's count here would wait for it. */
		const char *from = (const char *)c->one;
		const uint32_t n = c->n < AHEAD_LISTINGS ? c->n : AHEAD_LISTINGS;
		const size_t bytes = sizeof(bp_BroadRun) + n * sizeof(bp_BroadListing);
		for (size_t k = 0; k < bytes; k += 64)
			prefetch(from + k);
		prefetch(from + bytes - 1);
	} while (range_next(at, en->lo, en->hi));
}

/* Third stage: the lines of the entities listed in those cells near entity `slot`
 * (within half a block of its box: what its push will visit), which the push reads. */
static void prefetch_neighbours(const bp_World *w, uint32_t slot)
{
	const bp_Broadphase *g = &w->broad;
	const bp_BroadEntry *en = ahead_entry(w, slot);
	if (!en)
		return;
	const bp_AABB near = bp_aabb_expand(&en->box, 0.5, 0.5, 0.5);
	const bp_Entity *items = w->entities.items;
	int32_t at[3] = {en->lo[0], en->lo[1], en->lo[2]};
	do {
		const bp_BroadCell *c = cell_find(g, at[0], at[1], at[2]);
		if (!c || !c->n || c->nruns > 1)
			continue;
		const bp_BroadRun *run = c->one;
		const uint32_t n = run->n < AHEAD_LISTINGS ? run->n : AHEAD_LISTINGS;
		for (uint32_t i = 0; i < n; i++) {
			if (bp_aabb_overlaps(&run->at[i].box, &near))
				prefetch_entity(items, run->at[i].slot & BP_BROAD_SLOT_MASK);
		}
	} while (range_next(at, en->lo, en->hi));
}

void bp_look_ahead(const bp_World *w, const uint32_t *slots, uint32_t i, uint32_t n,
                   int push, unsigned what)
{
	if (!w->looking_ahead || i + 3 * BP_PREFETCH_AHEAD >= n)
		return;
	const bp_Entity *items = w->entities.items;
	const uint32_t near = slots[i + BP_PREFETCH_AHEAD], mid = slots[i + 2 * BP_PREFETCH_AHEAD],
	               far = slots[i + 3 * BP_PREFETCH_AHEAD];
	const int listings = push != BP_PUSH_NONE || (what & BP_AHEAD_LISTINGS);
	/* The grid entry the first stage reads, a stage before it. */
	const bp_Broadphase *g = &w->broad;
	if (listings && i + 4 * BP_PREFETCH_AHEAD < n) {
		const uint32_t first = slots[i + 4 * BP_PREFETCH_AHEAD];
		if (first < g->ents_cap) {
			prefetch((const char *)&g->ents[first] + offsetof(bp_BroadEntry, lo));
			prefetch((const char *)&g->ents[first + 1] - 1);
		}
	}
	/* The first two stages read no entity (a miss each, this far ahead): they ask for
	 * every entity, the third only for those of the push model (loaded by then). */
	if (listings) {
		prefetch_cells(w, far);
		prefetch_lists(w, mid);
	}
	if (push != BP_PUSH_NONE && items[near].push_model == push)
		prefetch_neighbours(w, near);
	if (what & BP_AHEAD_WHOLE) {
		const char *e = (const char *)&items[mid];
		for (size_t k = 0; k < sizeof(bp_Entity); k += 64)
			prefetch(e + k);
		prefetch(e + sizeof(bp_Entity) - 1); /* (slots are not line-aligned) */
	}
}

int bp_broadphase_visit_first(bp_World *w, const bp_AABB *region, uint32_t min_serial,
                              uint32_t limit, bp_EntityVisitor fn, void *ctx)
{
	bp_Broadphase *g = &w->broad;
	if (!grid_current(w) && grid_build(w) != BP_OK)
		return visit_linear(w, region, min_serial, limit, fn, ctx);
	int32_t lo[3], hi[3];
	cell_range(region, lo, hi);
	/* A region wider than the population is cheaper to scan linearly. */
	if (range_cells(lo, hi) > 2.0 * (double)g->listings + 64)
		return visit_linear(w, region, min_serial, limit, fn, ctx);
	uint32_t base = g->nresults;
	if (gather(w, region, lo, hi, base, min_serial, limit) != BP_OK) {
		g->nresults = base;
		return visit_linear(w, region, min_serial, limit, fn, ctx);
	}
	uint32_t end = g->nresults;
	if (end - base > limit)
		end = base + limit;
	/* Their lines load together rather than one miss after another as fn meets them. */
	for (uint32_t i = base; i < end; i++)
		prefetch_entity(w->entities.items, (uint32_t)(g->results[i] & 0xFFFFFFFFu));
	int stop = 0;
	/* fn may query again: nested results go above g->nresults and are popped by
	 * their own call; g->results may move, so it is indexed afresh each time. */
	for (uint32_t i = base; i < end && !stop; i++)
		stop = fn(ctx, (uint32_t)(g->results[i] & 0xFFFFFFFFu));
	g->nresults = base;
	return stop;
}

int bp_broadphase_visit(bp_World *w, const bp_AABB *region, bp_EntityVisitor fn, void *ctx)
{
	return bp_broadphase_visit_first(w, region, 0, UINT32_MAX, fn, ctx);
}
