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

/** One listing of an entity in a cell: its slot, its serial and a copy of its box, so
 *  that a query reads only the lists of the cells it covers, one array each, and never
 *  the entities (or anything indexed by their slots) it does not return: in a crowd
 *  larger than the cache, spawned in no spatial order, those reads were a miss each.
 *  The slot's top bits say on which axes this cell is the first of the box's cells:
 *  a query covering several of them reports the entity from one alone (the first of
 *  the cells the box and the query share), with no per-query mark to write. */
typedef struct bp_BroadListing {
	uint32_t slot;   /* entity slot | BP_BROAD_FIRST_X/Y/Z */
	uint32_t serial; /* lists are sorted by it (creation order) */
	bp_AABB box;
} bp_BroadListing;

#define BP_BROAD_FIRST_X (1u << 29)
#define BP_BROAD_FIRST_Y (1u << 30)
#define BP_BROAD_FIRST_Z (1u << 31)
#define BP_BROAD_SLOT_MASK (BP_BROAD_FIRST_X - 1) /* slots the grid can list */

typedef struct bp_BroadRun bp_BroadRun; /* a sorted run of listings (broadlist.h) */

/** One grid cell (open-addressing slot): its coordinates and the listings of the
 *  entities whose boxes touch it, sorted by serial (creation order), so that a query
 *  can start at a serial and stop after the first few (a pile of entities on one
 *  cell then costs each of its members a bounded push, not the whole pile). They are
 *  kept in runs of at most 64 (broadlist.c): a pile's cell lists thousands, and
 *  listing or unlisting one shifts a run, not half the cell. */
typedef struct bp_BroadCell {
	int32_t c[3];
	uint32_t used; /* slot taken (a cell stays after its list empties) */
	uint32_t n;    /* listings, in all runs */
	uint32_t nruns, runs_cap;
	bp_BroadRun *one;   /* the run while there is at most one (kept when it empties) */
	bp_BroadRun **runs; /* the runs, in serial order, while there are more */
} bp_BroadCell;

/** Cells per entity whose table slots and listing places its grid entry remembers
 *  (a mob's box touches up to four). */
#define BP_BROAD_HINTS 4

/** Per entity slot: the box its listings hold, its serial and the cell range it is
 *  listed in, for the moves that update its listings (a move that left the box where
 *  it was touches none), and where its first cells and listings were (hints, checked
 *  before use: a move within its cells then finds them without hashing or searching). */
typedef struct bp_BroadEntry {
	bp_AABB box;
	uint32_t serial;
	int32_t lo[3], hi[3];
	uint32_t listed; /* in the grid now */
	uint32_t table_gen; /* the table's generation when `cell` was written (0: not) */
	uint32_t cell[BP_BROAD_HINTS]; /* table slots of its first cells (x, y, z order) */
	uint16_t at[BP_BROAD_HINTS];   /* its place in each one's run, if it has one run */
} bp_BroadEntry;

typedef struct bp_Broadphase {
	bp_BroadCell *cells;
	uint32_t cells_cap, ncells;    /* power-of-two table, slots used */
	size_t listings;               /* entries in all cells' lists */
	bp_BroadEntry *ents;
	uint32_t ents_cap;
	uint64_t *results;             /* stack of (serial << 32 | slot) for queries */
	uint32_t results_cap, nresults;
	uint32_t built_serial, built_count; /* pool state at the build: spawn/remove detection */
	uint32_t table_gen;            /* bumped whenever cells move in the table (grow, build) */
	int valid;                     /* the grid matches the entities */
} bp_Broadphase;

#endif
