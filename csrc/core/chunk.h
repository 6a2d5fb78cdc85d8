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

#endif
