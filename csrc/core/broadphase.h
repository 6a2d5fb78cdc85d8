/* SPDX-License-Identifier: MIT
 * broadphase.h - the entity grid's internals (broadphase.c); its queries are
 * public (blockphys.h).
 */
#ifndef BP_CORE_BROADPHASE_H
#define BP_CORE_BROADPHASE_H

#include "bp_world.h"

/** Free the grid's memory (bp_world_destroy). Source: our own. */
void bp_broadphase_free(bp_World *w);

#endif
