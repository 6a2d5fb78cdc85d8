/* SPDX-License-Identifier: MIT
 * bp_broadphase.h - the entity broadphase: a uniform hash grid of 2-block cells over
 * entity boxes. An entity is listed in every cell its box touches. The grid is built
 * lazily on the first query after a spawn or remove, and kept current between
 * builds by bp_broadphase_moved (called after every move of an entity's box), so a
 * query costs the cells it covers, never all pairs. Results come in creation order
 * (entity serial), so they never depend on hash or memory order.
 */
#ifndef BP_BROADPHASE_H
#define BP_BROADPHASE_H

#include <stdint.h>

#include "bp_aabb.h"

/** Edge of a grid cell (blocks). 2 blocks: a 0.6-wide mob touches 1 to 4 columns,
 *  and a crowd cell holds a handful of mobs (bench/crowd.lua). */
#define BP_BROAD_CELL 2.0

/** One grid cell (open-addressing slot): its coordinates and the entities whose boxes
 *  touch it, as an array of slots sorted by serial (creation order), so that a query
 *  can start at a serial and stop after the first few (a pile of entities on one
 *  cell then costs each of its members a bounded push, not the whole pile). */
#define BP_BROAD_INLINE 2 /* entities a cell holds without an array of its own */

typedef struct bp_BroadCell {
	int32_t c[3];
	uint32_t used; /* slot taken (a cell stays after its list empties) */
	uint32_t n, cap; /* cap: BP_BROAD_INLINE while `in` holds the list */
	union {
		uint32_t *ents; /* entity slots, serials ascending, when cap > BP_BROAD_INLINE */
		uint32_t in[BP_BROAD_INLINE]; /* the same, held inline (most cells) */
	} list;
} bp_BroadCell;

/** Per entity slot: a copy of its box and serial (queries then read this compact array,
 *  not the large entities: the cache misses of big crowds), the cell range it is
 *  listed in, and the query dedup stamp. */
typedef struct bp_BroadEntry {
	bp_AABB box;
	uint32_t serial;
	int32_t lo[3], hi[3];
	uint32_t stamp;
	uint32_t listed; /* in the grid now */
} bp_BroadEntry;

typedef struct bp_Broadphase {
	bp_BroadCell *cells;
	uint32_t cells_cap, ncells;    /* power-of-two table, slots used */
	size_t listings;               /* entries in all cells' lists */
	bp_BroadEntry *ents;
	uint32_t ents_cap;
	uint64_t *results;             /* stack of (serial << 32 | slot) for queries */
	uint32_t results_cap, nresults;
	uint32_t stamp;
	uint32_t built_serial, built_count; /* pool state at the build: spawn/remove detection */
	int valid;                     /* the grid matches the entities */
} bp_Broadphase;

#endif
