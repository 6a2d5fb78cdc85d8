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

/** How many turns ahead a loop over entities asks for what a turn will read: far
 *  enough for the loads to arrive (a tick takes about 0.5 us, a miss about 0.1 us),
 *  near enough that they are still in cache when that entity's turn comes. */
#define BP_PREFETCH_AHEAD 4

/** Awake entities a step must have before its loops ask ahead (w->prefetch_crowd's
 *  default): below this a crowd's state (about 1.1 KB per entity) fits a desktop's
 *  last-level cache, and the asking would only cost its instructions. */
#define BP_PREFETCH_CROWD 32768

/** What bp_look_ahead loads besides a push's neighbourhood: every line of the entity
 *  (its tick or move reads them), and its grid cells and their lists (its move
 *  rewrites its listings there). */
#define BP_AHEAD_WHOLE 1u
#define BP_AHEAD_LISTINGS 2u

/** Hints for the i-th turn of a step's loop over slots[0 .. n), no effect on any
 *  result, and nothing unless the step looks ahead (w->looking_ahead): in a crowd
 *  larger than the cache each turn's reads are misses, one after another; asked a few
 *  turns early, they overlap with the ticks between (software prefetching). With
 *  `push` (a bp_PushModel other than none), for entities of that push model, the
 *  neighbourhood their push query will read, in three stages: the table slots of the
 *  grid cells they are listed in, 3 x BP_PREFETCH_AHEAD turns ahead, the cells' lists
 *  2 x BP_PREFETCH_AHEAD turns ahead (these two for every entity, also with
 *  BP_AHEAD_LISTINGS in `what`), then the entities the lists place near them
 *  BP_PREFETCH_AHEAD turns ahead. With BP_AHEAD_WHOLE, every line of the entity
 *  2 x BP_PREFETCH_AHEAD turns ahead. Source: our own. */
void bp_look_ahead(const bp_World *w, const uint32_t *slots, uint32_t i, uint32_t n,
                   int push, unsigned what);

#endif
