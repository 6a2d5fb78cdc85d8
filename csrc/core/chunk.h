/* SPDX-License-Identifier: MIT
 * chunk.h - the chunked block grid's internals (chunk.c); setting and reading
 * blocks is public (blockphys.h).
 */
#ifndef BP_CORE_CHUNK_H
#define BP_CORE_CHUNK_H

#include "bp_world.h"

/** Empty the chunk lookup cache of a new world (bp_world_create). Source: our own. */
void bp_chunks_init(bp_World *w);

/** Free every chunk's array, the chunk table and its hash slots (bp_world_destroy).
 *  Source: our own. */
void bp_chunks_free(bp_World *w);

/** True if a stored chunk meeting the cells [lo, hi] (int32 values) holds a block that
 *  acts on what touches it (a web, or a velocity_factor other than 1): one lookup per
 *  chunk, so that the Beta tick reads cells only near such blocks. Source: our own. */
int bp_world_touch_near(bp_World *w, const int32_t lo[3], const int32_t hi[3]);

/** The chunk at chunk coordinates (cx, cy, cz), or NULL if none is stored. The pointer
 *  is valid until the next block change. Source: our own. */
const bp_Chunk *bp_world_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz);

/** Whether chunk (cx, cy, cz) is unloaded space (stream.c). Source: our own. */
int bp_chunk_is_unloaded(bp_World *w, int32_t cx, int32_t cy, int32_t cz);

/** Set chunk (cx, cy, cz) from 8192 bytes: 4096 little-endian uint16 ids, index
 *  (y << 8) | (z << 4) | x in chunk-local cells. Every id is checked first: one that
 *  is not defined, or the unloaded id, gives BP_EINVAL with its cell index in *bad and
 *  changes nothing; so do BP_ENOMEM and BP_ELIMIT. A chunk of one id keeps no array.
 *  Source: our own. */
bp_Status bp_chunk_load(bp_World *w, int32_t cx, int32_t cy, int32_t cz,
                        const unsigned char *data, uint32_t *bad);

/** Make chunk (cx, cy, cz) unloaded space, freeing its array (w->unloaded_id must be
 *  defined). With unset_unloaded its entry goes; else it stays as a uniform chunk of the
 *  unloaded id. BP_ENOMEM or BP_ELIMIT (the entry could not be made) change nothing.
 *  Source: our own. */
bp_Status bp_chunk_unload(bp_World *w, int32_t cx, int32_t cy, int32_t cz);

/** Write chunk (cx, cy, cz) as bp_chunk_load reads it (8192 bytes to out) and return 1,
 *  or return 0 (out untouched) when it is unloaded. Source: our own. */
int bp_chunk_read(bp_World *w, int32_t cx, int32_t cy, int32_t cz, unsigned char *out);

/** Chunk id arrays, shared copy-on-write by a world and its snapshots (snapshot.c):
 *  bp_ids_new makes one with one holder (NULL on failure), bp_ids_acquire adds a
 *  holder, bp_ids_release drops one (freeing the array with the last); each holder's
 *  allocator counts the whole array. NULL is accepted and ignored. bp_ids_digest gives
 *  digest(ids), cached in the array until its next write. Source: our own. */
uint16_t *bp_ids_new(bp_Allocator *a);
void bp_ids_acquire(bp_Allocator *a, const uint16_t *ids);
void bp_ids_release(bp_Allocator *a, const uint16_t *ids);
uint64_t bp_ids_digest(const uint16_t *ids, uint64_t (*digest)(const uint16_t *ids));
uint32_t bp_ids_holders(const uint16_t *ids);

/** Make room for n chunks (the chunk array and its hash slots), changing nothing
 *  observable: what bp_chunks_set then needs. Source: our own. */
bp_Status bp_chunks_reserve(bp_World *w, uint32_t n);

/** Replace every chunk by the n chunks at c (after bp_chunks_reserve(w, n)): their id
 *  arrays gain the world as holder, the old ones lose it; cannot fail. Source: our own. */
void bp_chunks_set(bp_World *w, const bp_Chunk *c, uint32_t n);

#endif
