/* SPDX-License-Identifier: MIT
 * broadphase.h - the entity grid's internals (broadphase.c); its queries are
 * public (blockphys.h).
 */
#ifndef BP_CORE_BROADPHASE_H
#define BP_CORE_BROADPHASE_H

#include "bp_world.h"

/** Free the grid's memory (bp_world_destroy). Source: our own. */
void bp_broadphase_free(bp_World *w);

/** bp_broadphase_visit restricted to the entities whose serial is at least min_serial,
 *  and to the first `limit` of those (creation order): the work of a query over a pile
 *  of entities is then bounded by `limit` and not by the pile (max_pushes, push.c).
 *  Source: our own. */
int bp_broadphase_visit_first(bp_World *w, const bp_AABB *region, uint32_t min_serial,
                              uint32_t limit, bp_EntityVisitor fn, void *ctx);

/** A load hint for the cache line holding p, which the code will read soon: no effect
 *  on any result (nothing where the compiler has no prefetch). */
static inline void bp_prefetch(const void *p)
{
#if defined(__GNUC__)
	__builtin_prefetch(p);
#else
	(void)p;
#endif
}

/** A hint, no effect on any result: start loading what entity `slot`'s push query will
 *  read (the lists of the cells it is listed in, their entities' grid entries and the
 *  lines of each entity a push reads), so that a step can ask a few turns before that
 *  entity ticks and find its neighbourhood in cache. In a crowd larger than the cache
 *  those reads are misses, one after another; asked early, they overlap with the ticks
 *  between. Reads only; does nothing while the grid is not current. Source: our own
 *  (software prefetching). */
void bp_broadphase_prefetch(const bp_World *w, uint32_t slot);

/** The first stage of bp_broadphase_prefetch, asked some turns before it: start
 *  loading the grid cells entity `slot` is listed in (their table slots), so that the
 *  second stage reads their lists without waiting. A hint, no effect on any result.
 *  Source: our own. */
void bp_broadphase_prefetch_cells(const bp_World *w, uint32_t slot);

/** How many turns ahead a loop over entities asks for a neighbourhood: far enough for
 *  the loads to arrive (a tick takes about 0.5 us, a miss about 0.1 us), near enough
 *  that they are still in cache when that entity's turn comes. */
#define BP_PREFETCH_AHEAD 4

/** Entities a loop must visit before it asks ahead: below this a crowd's state (about
 *  1.1 KB per entity) fits a desktop's last-level cache, and the asking would only
 *  cost its instructions. */
#define BP_PREFETCH_CROWD 32768

#endif
