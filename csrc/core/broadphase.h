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

#endif
