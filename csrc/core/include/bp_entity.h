/* SPDX-License-Identifier: MIT
 * bp_entity.h - entities and their pool: handles are (1-based index, generation).
 * The generation is kept when a slot is freed and bumped when it is reused, so a
 * stale handle never names a new entity (Box2D v3 id pool).
 */
#ifndef BP_ENTITY_H
#define BP_ENTITY_H

#include <stdint.h>

#include "bp_aabb.h"
#include "bp_rules.h"
#include "bp_types.h"

/** Most non-air cells one bp_GatherCache holds. */
#define BP_GATHER_CELLS 16

/** The non-air cells of the last cell range an entity's move gathered, so that the next
 *  gather of the same range (or a part of it) reads them instead of the chunks: an
 *  entity that stays within the same cells (standing, pushing into a wall, walking
 *  within a block) skips the walk. Valid while w->block_version is unchanged. Source:
 *  our own. */
typedef struct bp_GatherCache {
	uint64_t version;     /* w->block_version when filled; 0: empty */
	int32_t lo[3], hi[3]; /* the cell range walked */
	uint8_t n;            /* cells held */
	uint8_t touch;        /* some cell held acts on what touches it (bp_BlockType.touch) */
	struct {
		uint16_t id;
		uint8_t x, y, z;  /* offsets from lo */
	} cell[BP_GATHER_CELLS];
} bp_GatherCache;

/** An entity. The box is the ground truth; the position is derived from it:
 *  x, z = centre of the box, y = bottom of the box (docs/conventions.md). */
typedef struct bp_Entity {
	/* What a neighbour's push or query reads of it comes first (its first 96 bytes): a
	 * pushing entity touches two cache lines of each neighbour, and in a crowd larger
	 * than the cache each line is a miss (bench/crowd.lua). Then what its own tick
	 * reads and writes, then the gather cache and the rules, whose hot fields lead
	 * too: fewer cache lines per entity-tick. */
	bp_AABB box;
	uint32_t serial;    /* creation order */
	uint32_t group, mask; /* collision filtering (who pushes / blocks whom) */
	uint8_t alive;
	uint8_t solid;      /* its box blocks other entities' moves (boats, minecarts) */
	uint8_t sensor;     /* blocks, pushes and is pushed by nothing; reports what it overlaps */
	uint8_t has_filter; /* a Lua filter function decides pairs */
	uint8_t frozen;     /* its box touched unloaded space at its last step: not ticked */
	uint8_t disturbed;  /* another entity changed its state this step (sleep.c) */
	uint8_t stable;     /* separation push may change velocity (N64 article) */
	uint8_t pushed;     /* separation touched it this step */
	/* rules.push and rules.model, copied here by whatever sets the rules
	 * (bp_entity_rules_copied): what a neighbour's push reads of its rules. */
	uint8_t push_model, model;
	double vel[3];      /* b/tick (Beta) or b/s (MC-CPP) */
	double prev[3];     /* position at the start of the last step (for lerp) */
	double fall_distance;
	double landing_fall; /* the fall distance its last move landed with (0: no landing) */
	double y_size;      /* Beta camera lag after steps / while sneaking (ySize) */
	double step_offset; /* MC-CPP camera smoothing after a step assist (<= 0) */
	double trig_yaw;    /* yaw whose table sine/cosine are cached below */
	float trig_sin, trig_cos;
	uint8_t trig_valid;
	uint8_t on_ground, coll_h, coll_v;
	uint8_t in_water, in_lava;
	uint8_t in_web;     /* touched a web in its last Beta move: the next one is slowed */
	/* What its last step did, over every move of it (a split MC-CPP step makes several):
	 * the fields a script reads (contact.c). on_ground is the last move's. */
	uint8_t out_coll_h, out_coll_v;
	/* Faces whose move was stopped: bit 2 * axis + (1 if the move was toward +axis),
	 * of the last move, of the step so far, and of the step before (hit events). */
	uint8_t move_stops, stops, prev_stops;
	uint8_t in_events;  /* named by an event of the queue (the binding keeps its userdata) */
	uint8_t carry;      /* a solid platform that moves what stands on it (carry.c) */
	uint8_t carried;    /* moved by a platform this step before its own tick (carry.c) */
	uint8_t quiet;      /* its tick this step was a fixed point (sleep.c) */
	uint8_t sleep_wait; /* quiet steps before it next looks whether it may sleep */
	uint32_t sensed;    /* trigger and sensor overlaps it is part of (sensor.c) */
	uint32_t generation;
	double carried_d[3]; /* what platforms moved it this step before its tick (carry.c) */
	double stop_reach;  /* the largest requested |displacement| on a stopped axis
	                     * (blocks): the stopping boxes lie within it (contact.c) */
	double out_landing; /* the fall distance a move of its last step landed with */
	bp_GatherCache gather; /* the cells of its last move's gather */
	bp_Rules rules;
	double width, height;
	double adj[3];      /* separation push accumulated this step */
	/* The last frozen test (stream.c): its answer is e->frozen while the world's
	 * stream_version is stream_seen and the box touches the same chunks (stream_lo,
	 * stream_span: 10 bits per axis). */
	uint32_t stream_seen, stream_span;
	int32_t stream_lo[3];
} bp_Entity;

/** One entity and its inputs, saved and put back whole (bp_world_entity_save): the
 *  state a failed e:move restores. */
typedef struct bp_EntityState {
	bp_Entity entity;
	bp_EntityInput input;
} bp_EntityState;

typedef struct bp_EntityPool {
	bp_Entity *items;
	uint32_t count, cap;   /* slots ever used, capacity */
	bp_EntityInput *input; /* per slot, like items */
	uint32_t input_cap;
	uint32_t *live;        /* per slot: its generation while alive, else 0 (handle checks) */
	uint32_t live_cap;
	uint32_t *free_slots;
	uint32_t nfree, free_cap;
	uint32_t *order;       /* slot indices (0-based) in creation order; a removed one
	                        * is BP_NO_SLOT until the next compaction (entity.c) */
	uint32_t norder, order_cap;
	uint32_t *pos;         /* per slot: its index in order while alive */
	uint32_t pos_cap;
	uint32_t nlive;        /* live entities: norder less the holes */
	uint8_t *asleep;       /* per slot: 1 while the entity sleeps (sleep.c) */
	uint32_t asleep_cap;
	uint32_t next_serial;
} bp_EntityPool;

/** A hole in bp_EntityPool.order: a slot removed since the last compaction. */
#define BP_NO_SLOT UINT32_MAX

#endif
