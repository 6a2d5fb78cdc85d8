/* SPDX-License-Identifier: MIT
 * bp_base.h - what every part of the core shares: result codes, the allocator type,
 * and the limits that bound one call's work (public).
 */
#ifndef BP_BASE_H
#define BP_BASE_H

#include <stddef.h>

/** Result codes of core calls that can fail. */
typedef enum bp_Status {
	BP_OK = 0,
	BP_ENOMEM,     /* an allocation failed; nothing was changed */
	BP_ELIMIT,     /* a documented size limit was exceeded */
	BP_EEXIST,     /* a block type with that name exists */
	BP_EINVAL,     /* an argument is out of its documented range */
	BP_EHOOK,      /* a hook or filter (the caller's code) failed; the caller holds its
	                * message (bp_world_move_entity) */
	BP_EUNLOADED,  /* the blocks to change lie in unloaded space (stream.c); nothing
	                * was changed */
	BP_ESTALE,     /* an id names nothing live: null, removed, its slot reused, or
	                * another world's */
	BP_ELOCKED     /* the world is locked (bp_world_lock): called from a hook during a
	                * step or a script's move */
} bp_Status;

/** Allocator with lua_Alloc's contract (nsize 0 frees; returns NULL on failure): the
 *  binding passes Lua's. */
typedef void *(*bp_AllocFn)(void *ud, void *ptr, size_t osize, size_t nsize);

/** A world's allocator and the bytes it holds through it (alloc.c keeps the count). */
typedef struct bp_Allocator {
	bp_AllocFn fn;
	void *ud;
	size_t bytes;
} bp_Allocator;

/** Largest displacement per axis of one resolver call (blocks). Larger moves are
 *  refused with BP_ELIMIT so that a move's work stays bounded (docs/conventions.md, "Limits"). */
#define BP_MAX_MOVE 1024.0

/** Largest |coordinate| of an entity position (blocks): inside the int32 block range
 *  with room for the largest move. */
#define BP_MAX_COORD 2147482000.0

/** Most blocks one World:fill may fill, counted in chunks (16^3 blocks). The binding
 *  checks it before calling bp_world_fill, which does not check it. */
#define BP_MAX_FILL_CHUNKS 1048576.0

/** Most boxes one query may test or return (boxes_in, world:sweep): a region of
 *  16,777,216 cells could hold 64 boxes in each. */
#define BP_MAX_QUERY_BOXES 1048576

/** Depenetration (depenetrate.c): the largest max_distance (blocks), the most
 *  candidate offsets per axis (two per obstacle face pair within reach), and the most
 *  candidate positions tried, so that one call's work is bounded. */
#define BP_MAX_DEPENETRATE 16.0
#define BP_MAX_DEPENETRATE_OFFSETS 65536
#define BP_MAX_DEPENETRATE_TRIES 65536

#endif
