/* SPDX-License-Identifier: MIT
 * sleep_map.c - where sleepers are, coarsely (our own): a count of sleepers per
 * 16-block region their boxes overlap, in an open-addressing table, so that an awake
 * entity's move or a block edit far from every sleeper skips the broadphase query for
 * sleepers to wake (sleep.c). A sleeper's box does not change while it sleeps (every
 * writer of a box wakes it first), so the regions it added are found again on waking.
 * Without memory for the table the map answers "maybe" everywhere (the queries run).
 */
#include "sleep.h"
#include "alloc.h"

#include <math.h>
#include <string.h>

#define REGION 16.0
#define LIMIT 134217728.0 /* region coordinates are clamped to +-2^27 */

static int32_t region_of(double v)
{
	double r = floor(v * (1.0 / REGION));
	if (!(r >= -LIMIT))
		r = -LIMIT;
	if (r > LIMIT)
		r = LIMIT;
	return (int32_t)r;
}

static uint32_t hash3(const int32_t k[3])
{
	uint32_t h = (uint32_t)k[0] * 0x9E3779B1u ^ (uint32_t)k[1] * 0x85EBCA77u ^
	             (uint32_t)k[2] * 0xC2B2AE3Du;
	h ^= h >> 15;
	return h;
}

/* The slot of region k, or of the empty entry where it would go. */
static bp_SleepRegion *find(bp_SleepMap *m, const int32_t k[3])
{
	uint32_t i = hash3(k) & (m->cap - 1);
	for (;;) {
		bp_SleepRegion *r = &m->items[i];
		if (!r->used || (r->k[0] == k[0] && r->k[1] == k[1] && r->k[2] == k[2]))
			return r;
		i = (i + 1) & (m->cap - 1);
	}
}

/* Room for one more region (rehashing without the empty counts): 0 if none. */
static int reserve(bp_World *w)
{
	bp_SleepMap *m = &w->sleep_map;
	if (m->cap && (m->used + 1) * 4 <= m->cap * 3)
		return 1;
	uint32_t live = 0;
	for (uint32_t i = 0; i < m->cap; i++)
		live += m->items[i].used && m->items[i].count;
	uint32_t cap = 64;
	while (cap < (live + 1) * 2 && cap < (1u << 30))
		cap *= 2;
	bp_SleepRegion *items = bp_alloc(&w->mem, (size_t)cap * sizeof *items);
	if (!items)
		return 0;
	memset(items, 0, (size_t)cap * sizeof *items);
	bp_SleepMap n = {items, cap, 0, m->broken};
	for (uint32_t i = 0; i < m->cap; i++) {
		const bp_SleepRegion *r = &m->items[i];
		if (r->used && r->count) {
			*find(&n, r->k) = *r;
			n.used++;
		}
	}
	bp_free(&w->mem, m->items, (size_t)m->cap * sizeof *m->items);
	*m = n;
	return 1;
}

void bp_sleep_map_add(bp_World *w, const bp_AABB *box, int delta)
{
	bp_SleepMap *m = &w->sleep_map;
	if (m->broken)
		return;
	int32_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		lo[a] = region_of(box->lo[a]);
		hi[a] = region_of(box->hi[a]);
	}
	for (int32_t x = lo[0]; x <= hi[0]; x++)
		for (int32_t y = lo[1]; y <= hi[1]; y++)
			for (int32_t z = lo[2]; z <= hi[2]; z++) {
				const int32_t k[3] = {x, y, z};
				if (delta > 0 && !reserve(w)) {
					m->broken = 1; /* no memory: "maybe" everywhere from now on */
					return;
				}
				bp_SleepRegion *r = m->cap ? find(m, k) : NULL;
				if (!r)
					continue;
				if (!r->used) {
					if (delta < 0)
						continue; /* (never added) */
					r->used = 1;
					memcpy(r->k, k, sizeof k);
					m->used++;
				}
				r->count += (uint32_t)delta;
			}
}

int bp_sleep_map_any(const bp_World *w, const bp_AABB *region)
{
	const bp_SleepMap *m = &w->sleep_map;
	if (m->broken)
		return 1;
	if (!m->cap)
		return 0;
	int32_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		lo[a] = region_of(region->lo[a]);
		hi[a] = region_of(region->hi[a]);
		if ((double)hi[a] - lo[a] > 64)
			return 1; /* a huge region: the query decides */
	}
	for (int32_t x = lo[0]; x <= hi[0]; x++)
		for (int32_t y = lo[1]; y <= hi[1]; y++)
			for (int32_t z = lo[2]; z <= hi[2]; z++) {
				const int32_t k[3] = {x, y, z};
				const bp_SleepRegion *r = find((bp_SleepMap *)m, k);
				if (r->used && r->count)
					return 1;
			}
	return 0;
}

void bp_sleep_map_free(bp_World *w)
{
	bp_SleepMap *m = &w->sleep_map;
	bp_free(&w->mem, m->items, (size_t)m->cap * sizeof *m->items);
	memset(m, 0, sizeof *m);
}
