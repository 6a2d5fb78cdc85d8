/* SPDX-License-Identifier: MIT
 * snapshot.h - what a snapshot holds (snapshot.c takes and restores it, snapcode.c
 * encodes, decodes and hashes it). Opaque outside the core (blockphys.h).
 *
 * Adding state later: a field here, its copy in snapshot.c (take, restore), its coding
 * in snapcode.c (the section it belongs to, at the section's end), the hash's view in
 * snapimage.c, and BP_SNAPSHOT_VERSION + 1; the decoder refuses other versions.
 * Sleeping is not state (results are the same asleep or awake): a restore wakes all.
 */
#ifndef BP_CORE_SNAPSHOT_H
#define BP_CORE_SNAPSHOT_H

#include "bp_world.h"

struct bp_Snapshot {
	bp_Allocator mem;     /* what its arrays were allocated with (bytes: all of them) */
	int view;             /* 1: a view of a live world's arrays (hashing): owns nothing */
	/* block types: owned copies (name, shape, outline; outline == shape when shared) */
	bp_BlockType *types;
	uint32_t ntypes;
	/* chunks: the id arrays are shared with the world (chunk.c, copy on write) */
	bp_Chunk *chunks;
	uint32_t nchunks;
	uint32_t *chunk_slots; /* the world's hash slots for them (NULL: rebuilt) */
	uint32_t chunk_slot_cap;
	uint64_t stored_blocks, liquid_blocks;
	/* streaming (stream.c): the unloaded type's id (0: none yet) and whether space
	 * holding no chunk is unloaded; unloaded_chunks is counted from the chunks */
	uint16_t unloaded_id;
	int unset_unloaded;
	uint32_t unloaded_chunks;
	/* static colliders */
	bp_StaticCollider *colliders;
	uint32_t ncolliders, live_colliders, colliders_free;
	/* entities: every slot; order compacted (the live slots in creation order) */
	bp_Entity *items;
	bp_EntityInput *input;
	uint32_t count, next_serial;
	uint32_t *live;       /* per slot: its generation while alive, else 0 (bp_world_same_ids) */
	uint32_t *order, norder;
	uint32_t *free_slots, nfree;
	int unstable;
	/* triggers and their overlaps (handles without the world's tag) */
	bp_Trigger *triggers;
	uint32_t ntriggers, tlive, tfree, tnext_serial;
	bp_SensePair *pairs;
	uint32_t npairs;
	/* the clock and the event queue (handles without the world's tag) */
	uint64_t tick;
	bp_Event *events;
	uint32_t nevents, max_events;
	uint64_t events_dropped;
	double hit_speed;
	/* the host's own values (a binding's clock): coded with the rest */
	double host[BP_SNAPSHOT_HOST];
};

/** Put a world's handle tag (bits 48..62) on a handle (0 stays 0). Source: our own. */
uint64_t bp_handle_retag(uint64_t h, uint32_t tag);

/** Free what a decoded or taken snapshot owns (not s itself). Source: our own. */
void bp_snapshot_release(bp_Snapshot *s);

/** The definition that makes a type like t again (an outline that is the shape is
 *  left to default): what a restore defines and a decode checks. Source: our own. */
static inline bp_BlockDef bp_snap_type_def(const bp_BlockType *t)
{
	bp_BlockDef d = bp_default_block_def();
	d.name = t->name;
	d.boxes = t->shape;
	d.nboxes = t->nshape;
	d.slipperiness = t->slipperiness;
	d.liquid = t->liquid;
	d.climbable = t->climbable;
	d.velocity_factor = t->velocity_factor;
	d.web = t->web;
	d.level = t->level;
	d.solid = t->solid;
	d.ice = t->ice;
	d.normal_cube = t->normal_cube;
	d.outline = t->outline == t->shape ? NULL : t->outline;
	d.noutline = t->outline == t->shape ? -1 : t->noutline;
	d.one_way = t->one_way;
	return d;
}

#endif
