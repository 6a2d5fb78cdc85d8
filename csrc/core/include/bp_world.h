/* SPDX-License-Identifier: MIT
 * bp_world.h - the world: block type registry, chunked sparse block grid over the
 * whole int32 range, free-standing static colliders, and region queries.
 * Internal (not installed): the core includes it, and of the binding only the files
 * that tools/check_structure.lua allows; a host sees bp_World as an opaque type
 * (blockphys.h) and the public value types in bp_types.h.
 * The world owns everything (Box2D v3 model); callers hold indices and handles only.
 */
#ifndef BP_WORLD_H
#define BP_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "bp_aabb.h"
#include "bp_base.h"
#include "bp_broadphase.h"
#include "bp_entity.h"
#include "bp_events.h"
#include "bp_sensor.h"
#include "bp_internal.h"
#include "bp_types.h"

/** A block type. Boxes are in block-local coordinates: x and z in [0, 1], y in [0, 2]
 *  (a shape may rise at most one block above its cell, like a 1.5-high fence). */
typedef struct bp_BlockType {
	char *name;
	bp_AABB *boxes;      /* the boxes that block every move: what gathers read (none
	                      * for a one-way type, whose boxes solid.c adds per mover) */
	int nboxes;
	double slipperiness; /* Beta Block.slipperiness: 0.6 default, ice 0.98 */
	uint8_t liquid;      /* BP_LIQUID_* */
	uint8_t climbable;   /* ladder / vine behaviour (docs/beta173.md section 8) */
	uint8_t full_cube;   /* exactly one box, the unit cube: gathers take a fast path */
	uint8_t web;         /* Beta BlockWeb: touching it slows the next move (cobweb) */
	uint8_t touch;       /* web, or velocity_factor != 1: acts on what touches it */
	uint8_t level;       /* liquids: Beta metadata 0..15 (0 source, 1..7 flowing, 8+
	                      * falling), the water current's input (beta173_flow.c) */
	uint8_t solid;       /* Beta Material.isSolid: neighbours the current may not flow into */
	uint8_t ice;         /* Beta Material.ice: no downward pull on falling water beside it */
	uint8_t normal_cube; /* Beta World.isBlockNormalCube: pushOutOfBlocks pushes out of it */
	double velocity_factor; /* Beta BlockSoulSand: touching it scales X/Z velocity (0.4) */
	bp_AABB *outline;       /* the shape a cursor selects (rays with BP_RAY_OUTLINE),
	                         * block-local: the boxes themselves unless the definition
	                         * gave its own (then owned here) */
	int noutline;
	bp_AABB *shape;         /* the definition's boxes (owned): the boxes above, or a
	                         * one-way type's; rays test these */
	int nshape;
	uint8_t one_way;        /* BP_FACE_*: the face through which its boxes stop moves */
} bp_BlockType;

/** 16x16x16 blocks. A chunk whose blocks are all one id keeps no array (ids == NULL),
 *  so solid ground and cleared air cost a few bytes. */
#define BP_CHUNK_SIZE 16
#define BP_CHUNK_VOLUME 4096
typedef struct bp_Chunk {
	int32_t cx, cy, cz;
	uint16_t uniform;
	uint16_t *ids; /* index (y << 8) | (z << 4) | x, or NULL */
	uint32_t nonair;
	uint32_t liquid; /* liquid blocks: liquid tests skip chunks without any */
	uint32_t touch;  /* blocks that act on what touches them (web, velocity_factor) */
} bp_Chunk;

/** A free-standing static collider (world space). */
typedef struct bp_StaticCollider {
	bp_AABB box;
	uint32_t generation;
	uint32_t next_free; /* while free: the 1-based slot freed before it, 0 for none */
	uint8_t alive;      /* BP_COLLIDER_*: the walks of every box test == BP_COLLIDER_LIVE,
	                     * so that a one-way collider costs them nothing more */
	uint8_t one_way;    /* BP_FACE_* (BP_COLLIDER_ONE_WAY only) */
} bp_StaticCollider;

/** bp_StaticCollider.alive: a free slot, a collider that blocks every move, a live
 *  one-way collider (only solid.c's one-way walk and rays see it). */
enum { BP_COLLIDER_FREE = 0, BP_COLLIDER_LIVE = 1, BP_COLLIDER_ONE_WAY = 2 };

/** Sleepers counted per 16-block region their boxes overlap (sleep_map.c). */
typedef struct bp_SleepRegion {
	int32_t k[3];
	uint32_t count;
	uint8_t used;
} bp_SleepRegion;

typedef struct bp_SleepMap {
	bp_SleepRegion *items; /* open addressing, cap a power of two (0: none yet) */
	uint32_t cap, used;
	int broken; /* out of memory once: every region may hold sleepers */
} bp_SleepMap;

#define BP_CHUNK_CACHE 8

/** Grown list of boxes for gathers (owned by the world, reused between calls). */
typedef struct bp_BoxList {
	bp_AABB *items;
	size_t count, cap;
} bp_BoxList;

struct bp_World {
	bp_Allocator mem; /* the allocator, and the bytes held through it (alloc.c) */

	/* block types: index = id; id 0 is air */
	bp_BlockType *types;
	uint32_t ntypes, types_cap;
	uint32_t *name_slots; /* open addressing: type id + 1, 0 = empty */
	uint32_t name_cap;
	int tall_shapes; /* some type rises above its cell: gathers scan one block lower */
	int has_climbable; /* some type is climbable: the ladder test can be skipped if not */
	int has_normal_cube; /* some type is a normal cube: pushOutOfBlocks can be skipped if not */
	int has_touch; /* some type slows what touches it (web, velocity_factor < 1) */
	int tall_outlines; /* some type's outline rises above its cell: outline rays look
	                    * one cell lower */
	int has_liquid; /* some type is a liquid (a chunk load then counts liquids) */

	/* chunk map: open addressing on chunk coordinates, value = chunk index + 1 */
	bp_Chunk *chunks;
	uint32_t nchunks, chunks_cap;
	uint32_t *chunk_slots;
	uint32_t chunk_slot_cap;
	/* Recent chunk lookups, direct-mapped: an entity's gathers touch a few chunks
	 * (e.g. across a chunk border below its feet) and hit here. */
	int32_t cache_key[BP_CHUNK_CACHE][3];
	int64_t cache_index[BP_CHUNK_CACHE]; /* -1 empty, -2 "no chunk there", else index */
	uint64_t block_version; /* bumped by every change of blocks or types (from 1) */
	uint64_t stored_blocks; /* non-air blocks */
	uint64_t liquid_blocks; /* liquid blocks (liquid tests are skipped when 0) */
	/* Streaming (stream.c): unloaded space reads as block type unloaded_id, a full cube
	 * defined on first use (0 until then). A stored chunk is unloaded when it has no
	 * array and that uniform id (nothing else can place the id). With unset_unloaded,
	 * space holding no chunk is unloaded too (bp_world_chunk then answers
	 * unloaded_chunk), else air. unloaded_chunks: stored unloaded chunks. */
	uint16_t unloaded_id;
	int unset_unloaded;
	uint32_t unloaded_chunks;
	bp_Chunk unloaded_chunk;
	uint32_t stream_version; /* bumped by every load, unload and unset change (from 1) */

	bp_StaticCollider *colliders;
	uint32_t ncolliders, colliders_cap;
	uint32_t live_colliders;
	uint32_t colliders_free; /* the last freed slot (1-based), reused first; 0: none */
	uint32_t handle_tag;     /* high bits of this world's collider handles (set by the
	                          * binding, bp_world_set_handle_tag; 0 .. BP_HANDLE_TAG_MAX) */

	bp_EntityPool entities;
	uint32_t nsolid; /* live solid entities: their boxes block moves */
	uint32_t one_way; /* one-way block types defined plus live one-way colliders: moves
	                   * walk for one-way boxes only when it is not 0 (solid.c) */
	bp_BoxList scratch;
	int locked; /* nonzero: structural changes refused (1 inside world:step; a binding
	             * may use other values for its own locks: bp_world_move_entity) */

	bp_Broadphase broad;           /* entity grid (broadphase.c) */
	const struct bp_Hooks *hooks;  /* during a step: Lua callbacks (entity filters) */
	int hook_failed;               /* a filter raised inside a resolver or push */
	double step_dt;                /* dt of the step running (seconds), for Lua's checks */
	double vel_limit[2];           /* per bp_Model: largest |velocity| the step's pre-check
	                                  accepts at step_dt (bp_clamp_velocity) */
	uint32_t over_limit;           /* slot + 1 of an entity whose heading hook changed its
	                                * tick displacement by more than BP_MAX_MOVE (0: none) */
	double over_by;                /* that change's largest |component| (blocks) */
	uint32_t ticking;              /* slot + 1 of the entity whose tick runs in a step (its
	                                * hooks may not switch its model: 0 between ticks) */
	/* So that a step skips its passes over every entity when they have nothing to do:
	 * rules_writes counts rules changes (bp_entity_set_rules: a hook may change a rule
	 * mid-step), `unstable` says some entity may have stable == 0. */
	uint32_t rules_writes;
	int unstable;

	uint64_t tick;         /* steps run (world.tick): bumped when a step succeeds */
	bp_EventQueue events;  /* filled by steps and moves, emptied by the reader (events.c) */
	bp_Sensing sensing;    /* triggers and the overlaps of triggers and sensors (sensor.c) */
	int carry_depth;       /* platforms carrying platforms, nested (carry.c) */
	double move_seconds;   /* the duration of the MC-CPP move under way (its integrator
	                        * sets it): a hit's approach speed is its displacement over it */
	/* The separation's extra passes (push.c): the entities they visit, two lists of up
	 * to norder slots each, kept between steps. */
	uint32_t *sep_list;
	uint32_t sep_cap;
	/* Sleeping (sleep.c): an entity whose tick is a fixed point is not stepped until
	 * something that could change its tick wakes it. sleep_on: world.sleeping.
	 * awake: the slots a step walks, creation order, rebuilt when awake_dirty (cap
	 * >= norder, reserved by spawns); late: slots woken during a step's entity loop
	 * whose turn is still to come (serial order). sleep_interactive: sleepers that
	 * are solid, push, carry or have a filter. sleep_dt: the last step's dt. */
	int sleep_on;
	int awake_dirty;
	uint32_t *awake;
	uint32_t nawake, awake_cap;
	uint32_t *late;
	uint32_t nlate, late_next, late_cap;
	uint32_t nsleeping, sleep_interactive;
	uint32_t *quiet_list, *disturbed_list; /* the step's marked entities (cap as late) */
	uint32_t nquiet, quiet_cap, ndisturbed, disturbed_cap;
	uint32_t tick_serial; /* serial + 1 of the entity whose tick runs (0: none) */
	uint32_t spawn_seen;  /* next_serial when the last step began: later ones are new */
	bp_SleepMap sleep_map; /* where sleepers are, coarsely (sleep_map.c) */
	double sleep_dt;
	/* Entities from which a step's loops load ahead (BP_PREFETCH_CROWD, broadphase.h;
	 * the specs lower it to compare results with and without: they must not differ). */
	uint32_t prefetch_crowd;
	int looking_ahead; /* this step's awake entities reach prefetch_crowd */
};

/** Lua (or other) hooks that replace a stage of the rules. Each returns nonzero to
 *  abort the step (the caller then restores the snapshot it took). */
typedef struct bp_Hooks {
	void *ctx;
	/* heading: input -> velocity change (dvx, dvz); k = acceleration factor */
	int (*heading)(void *ctx, bp_World *w, uint32_t index, double strafe, double forward,
	               double k, double dv[2]);
	/* jump: called while the jump input is held, instead of the native jump */
	int (*jump)(void *ctx, bp_World *w, uint32_t index);
	/* filter: entity `self` (has_filter set) decides whether it interacts with `other`
	 * (push and block); *allow = 0 refuses the pair */
	int (*filter)(void *ctx, bp_World *w, uint32_t self, uint32_t other, int *allow);
} bp_Hooks;

/** The inputs of a live entity of w (see bp_EntityInput; units there). Source: our own. */
static inline bp_EntityInput *bp_entity_input_inline(bp_World *w, const bp_Entity *e)
{
	return &w->entities.input[e - w->entities.items];
}

/** Position (feet: centre of the bottom face) from the box, into pos (blocks). Source:
 *  docs/conventions.md. */
static inline void bp_entity_position_inline(const bp_Entity *e, double pos[3])
{
	pos[0] = (e->box.lo[0] + e->box.hi[0]) / 2;
	pos[1] = e->box.lo[1];
	pos[2] = (e->box.lo[2] + e->box.hi[2]) / 2;
}

/* The core and the binding files that see this layout read the world's state directly:
 * these accessors are real functions for a host (blockphys.h, bp_internal.h, defined
 * in api.c, whose definitions put their names in parentheses), and a field read here
 * (or an inline function),
 * as they were before the world became opaque (entity field writes and hooks call
 * them on every access). */
#define bp_world_lock(w) ((w)->locked)
#define bp_entity_input(w, e) bp_entity_input_inline((w), (e))
#define bp_entity_position(e, pos) bp_entity_position_inline((e), (pos))
#define bp_world_ticking(w) ((w)->ticking)
#define bp_world_step_dt(w) ((w)->step_dt)

#endif
