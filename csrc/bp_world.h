/* SPDX-License-Identifier: MIT
 * bp_world.h - the world: block type registry, chunked sparse block grid over the
 * whole int32 range, free-standing static colliders, and region queries.
 * The world owns everything (Box2D v3 model); callers hold indices and handles only.
 */
#ifndef BP_WORLD_H
#define BP_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "bp_aabb.h"
#include "bp_broadphase.h"
#include "bp_entity.h"

/** Result codes of core calls that can fail. */
typedef enum bp_Status {
	BP_OK = 0,
	BP_ENOMEM,     /* an allocation failed; nothing was changed */
	BP_ELIMIT,     /* a documented size limit was exceeded */
	BP_EEXIST,     /* a block type with that name exists */
	BP_EINVAL      /* an argument is out of its documented range */
} bp_Status;

/** Allocator with lua_Alloc's contract (nsize 0 frees; returns NULL on failure). */
typedef void *(*bp_AllocFn)(void *ud, void *ptr, size_t osize, size_t nsize);

enum { BP_LIQUID_NONE = 0, BP_LIQUID_WATER = 1, BP_LIQUID_LAVA = 2 };

/** Most boxes one block type may have, and most block types per world (ids are uint16). */
#define BP_MAX_TYPE_BOXES 64
#define BP_MAX_TYPES 65535

/** A block type. Boxes are in block-local coordinates: x and z in [0, 1], y in [0, 2]
 *  (a shape may rise at most one block above its cell, like a 1.5-high fence). */
typedef struct bp_BlockType {
	char *name;
	bp_AABB *boxes;
	int nboxes;
	double slipperiness; /* Beta Block.slipperiness: 0.6 default, ice 0.98 */
	uint8_t liquid;      /* BP_LIQUID_* */
	uint8_t climbable;   /* ladder / vine behaviour (reference section 8) */
	uint8_t full_cube;   /* exactly one box, the unit cube: gathers take a fast path */
	uint8_t web;         /* Beta BlockWeb: touching it slows the next move (cobweb) */
	uint8_t touch;       /* web, or velocity_factor != 1: acts on what touches it */
	uint8_t level;       /* liquids: Beta metadata 0..15 (0 source, 1..7 flowing, 8+
	                      * falling), the water current's input (flow.c) */
	uint8_t solid;       /* Beta Material.isSolid: neighbours the current may not flow into */
	uint8_t ice;         /* Beta Material.ice: no downward pull on falling water beside it */
	uint8_t normal_cube; /* Beta World.isBlockNormalCube: pushOutOfBlocks pushes out of it */
	double velocity_factor; /* Beta BlockSoulSand: touching it scales X/Z velocity (0.4) */
} bp_BlockType;

/** Definition of a block type; fill from bp_default_block_def(). */
typedef struct bp_BlockDef {
	const char *name;
	const bp_AABB *boxes; /* NULL with nboxes < 0 means "full cube" */
	int nboxes;
	double slipperiness;
	int liquid;
	int climbable;
	double velocity_factor; /* in [0, 1]; 1: none */
	int web;
	int level; /* 0..15; not 0 only for a liquid */
	int solid; /* < 0: derived (some box and not a liquid); else a boolean */
	int ice;
	int normal_cube; /* < 0: derived (the unit cube and solid); else a boolean */
} bp_BlockDef;

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

/** Collider handles are one integer of 63 bits: the 1-based slot in the low 24, the
 *  slot's generation in the next 24 and the world's handle_tag in the top 15, so that
 *  a handle from another world names nothing here. A slot whose generation reaches
 *  BP_MAX_COLLIDER_GEN is retired instead of wrapping, so that no removed handle ever
 *  names a collider again. */
#define BP_MAX_COLLIDERS ((1u << 24) - 1)
#define BP_MAX_COLLIDER_GEN ((1u << 24) - 1)
#define BP_HANDLE_TAG_MAX ((1u << 15) - 1)

/** A free-standing static collider (world space). */
typedef struct bp_StaticCollider {
	bp_AABB box;
	uint32_t generation;
	uint32_t next_free; /* while free: the 1-based slot freed before it, 0 for none */
	uint8_t alive;
} bp_StaticCollider;

typedef struct bp_World bp_World;

#define BP_CHUNK_CACHE 8

/** Grown list of boxes for gathers (owned by the world, reused between calls). */
typedef struct bp_BoxList {
	bp_AABB *items;
	size_t count, cap;
} bp_BoxList;

struct bp_World {
	bp_AllocFn alloc;
	void *alloc_ud;
	size_t bytes; /* bytes currently held through alloc */

	/* block types: index = id; id 0 is air */
	bp_BlockType *types;
	uint32_t ntypes, types_cap;
	uint32_t *name_slots; /* open addressing: type id + 1, 0 = empty */
	uint32_t name_cap;
	int tall_shapes; /* some type rises above its cell: gathers scan one block lower */
	int has_climbable; /* some type is climbable: the ladder test can be skipped if not */
	int has_normal_cube; /* some type is a normal cube: pushOutOfBlocks can be skipped if not */
	int has_touch; /* some type slows what touches it (web, velocity_factor < 1) */

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

	bp_StaticCollider *colliders;
	uint32_t ncolliders, colliders_cap;
	uint32_t live_colliders;
	uint32_t colliders_free; /* the last freed slot (1-based), reused first; 0: none */
	uint32_t handle_tag;     /* high bits of this world's collider handles (set by the
	                          * binding; 0 .. BP_HANDLE_TAG_MAX) */

	bp_EntityPool entities;
	uint32_t nsolid; /* live solid entities: their boxes block moves */
	bp_BoxList scratch;
	int locked; /* nonzero: structural changes refused (1 inside world:step; a binding
	             * may use other values for its own locks, see lblockphys.c) */

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
};

/** A fresh world with every block air. Returns NULL if allocation fails. Source: our own
 *  (DESIGN.md section 2, "Memory model"). */
bp_World *bp_world_create(bp_AllocFn alloc, void *ud);

/** Free the world and everything it owns. NULL is accepted. Source: our own. */
void bp_world_destroy(bp_World *w);

/** Allocation helpers through w->alloc that keep w->bytes: NULL on failure (bp_alloc,
 *  bp_realloc: the old block stays valid); n is the size given at allocation (bytes).
 *  Source: our own. */
void *bp_alloc(bp_World *w, size_t n);
void *bp_realloc(bp_World *w, void *p, size_t oldn, size_t newn);
void bp_free(bp_World *w, void *p, size_t n);

/** Defaults for bp_BlockDef: full cube, slipperiness 0.6F, not liquid, not climbable,
 *  velocity_factor 1, not a web, level 0, solid derived (some box, not a liquid), not
 *  ice, normal_cube derived (the unit cube and solid). Source: reference/b173-movement.md section 2
 *  (Block.slipperiness); the rest: our own. */
bp_BlockDef bp_default_block_def(void);

/** Check a definition's ranges; returns NULL or a static message naming the problem.
 *  Checked: name non-NULL and non-empty; nboxes <= BP_MAX_TYPE_BOXES (< 0: full cube);
 *  each box lo <= hi (no NaN), x and z in [0, 1], y in [0, 2] (block-local, blocks);
 *  slipperiness in [0, 1.5]; velocity_factor in [0, 1]; liquid a BP_LIQUID_* value;
 *  level in [0, 15], and 0 unless liquid. Source: our own. */
const char *bp_block_def_error(const bp_BlockDef *def);

/** Define a block type; its id (1..65535) goes to *id. Fails with BP_EINVAL when
 *  bp_block_def_error finds a problem, BP_EEXIST on a duplicate name, BP_ELIMIT past
 *  65535 types, BP_ENOMEM. Nothing changes on failure. Source: our own. */
bp_Status bp_world_define_block(bp_World *w, const bp_BlockDef *def, uint16_t *id);

/** Id of the type named `name`, or -1. Source: our own. */
int32_t bp_world_find_type(const bp_World *w, const char *name);

/** Block id at a block coordinate (0 = air). Source: our own (DESIGN.md section 1). */
uint16_t bp_world_get_block(bp_World *w, int32_t x, int32_t y, int32_t z);

/** True if a stored chunk meeting the cells [lo, hi] (int32 values) holds a block that
 *  acts on what touches it (a web, or a velocity_factor other than 1): one lookup per
 *  chunk, so that the Beta tick reads cells only near such blocks. Source: our own. */
int bp_world_touch_near(bp_World *w, const int32_t lo[3], const int32_t hi[3]);

/** The chunk at chunk coordinates (cx, cy, cz), or NULL if none is stored. The pointer
 *  is valid until the next block change. Source: our own. */
const bp_Chunk *bp_world_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz);

/** Set one block. `id` must be a defined id (not checked). BP_ENOMEM (or BP_ELIMIT if
 *  the chunk table would pass its size limit) leaves the world unchanged (a chunk
 *  created for the block goes again). Source: our own. */
bp_Status bp_world_set_block(bp_World *w, int32_t x, int32_t y, int32_t z, uint16_t id);

/** Set every block of the inclusive box [x1..x2]x[y1..y2]x[z1..z2] (x1 <= x2 etc.).
 *  `id` must be a defined id (not checked). The caller bounds the box's size (the
 *  binding: BP_MAX_FILL_CHUNKS chunks, 65,536 cut ones); here it is
 *  limited only by memory. Whole chunks inside the box become uniform without
 *  per-block work. Two phases:
 *  every allocation happens first, so BP_ENOMEM (or BP_ELIMIT if the chunk table would
 *  pass its size limit) leaves every block as it was; the chunks and arrays that phase
 *  made are then dropped again. Source: our own. */
bp_Status bp_world_fill(bp_World *w, const int32_t lo[3], const int32_t hi[3], uint16_t id);

/** Add a static collider (world space, blocks; copied, not validated: lo <= hi is the
 *  caller's check) in the slot freed last (else a new slot), in O(1); its handle (see
 *  BP_MAX_COLLIDERS) goes to *handle. BP_ENOMEM, or BP_ELIMIT past BP_MAX_COLLIDERS
 *  slots or the array's size limit (nothing changes). Source: our own (DESIGN.md). */
bp_Status bp_world_add_collider(bp_World *w, const bp_AABB *box, uint64_t *handle);
/** The handle of the collider in 1-based slot index1 (alive). Source: our own. */
uint64_t bp_world_collider_handle(const bp_World *w, uint32_t index1);
/** The 1-based slot of the live collider that `handle` names in this world, else 0
 *  (removed, slot reused, never added, another world's). Source: our own. */
uint32_t bp_world_collider_slot(const bp_World *w, uint64_t handle);
/** Remove a live collider (1-based slot from bp_world_collider_slot). The slot keeps
 *  its generation and is reused first, unless its generation has reached
 *  BP_MAX_COLLIDER_GEN (then it is retired for good). Moves, queries and rays still
 *  walk free slots, so the cost of colliders follows the most ever alive at once.
 *  Source: our own. */
void bp_world_remove_collider(bp_World *w, uint32_t index1);

/** Visit every box (block shapes and static colliders, world space) that overlaps
 *  `region` strictly, scanning one cell lower when some shape rises above its cell.
 *  Cells chunk by chunk (as bp_world_visit_cells), then static colliders: the order is
 *  fixed. The visitor returns nonzero to stop early; bp_world_visit returns that value.
 *  Source: reference/b173-movement.md section 4 (the block part of
 *  getCollidingBoundingBoxes); the order and colliders: our own. */
typedef int (*bp_BoxVisitor)(void *ctx, const bp_AABB *box);
int bp_world_visit(bp_World *w, const bp_AABB *region, bp_BoxVisitor fn, void *ctx);

/** Visit every non-air cell of the inclusive cell range [lo, hi] (int32 values), chunk
 *  by chunk (one lookup per chunk, air chunks skipped), in y, z, x order within each
 *  chunk and chunks in y, z, x order. fn gets the block id and its cell; a nonzero
 *  return stops the walk and is returned. For queries that need to know which block
 *  a box came from (raycast.c). Source: our own. */
typedef int (*bp_CellVisitor)(void *ctx, uint16_t id, int32_t x, int32_t y, int32_t z);
int bp_world_visit_cells(bp_World *w, const int64_t lo[3], const int64_t hi[3],
                         bp_CellVisitor fn, void *ctx);

/** Number of block cells a query of `region` (blocks) would scan (for the bounded-work
 *  limit; a double, as it may pass 2^64).
 *  Source: our own. */
double bp_world_region_cells(const bp_World *w, const bp_AABB *region);

/** Gather every box overlapping `region` strictly into w->scratch (cleared first; valid
 *  until the next gather), in bp_world_visit order. BP_ENOMEM if the list cannot grow,
 *  BP_ELIMIT if the region holds more than `max_boxes` boxes (the list then holds a
 *  partial list). Callers bound the region (bp_world_region_cells). Source: as
 *  bp_world_visit. */
bp_Status bp_world_gather(bp_World *w, const bp_AABB *region, size_t max_boxes);

/** Clip displacement d (blocks) of box m along axis against every box in the region m
 *  extended by d on that axis (one per-axis pass of the Beta resolver). With `within`,
 *  only boxes that also overlap `within` count (Beta's single gather, see move_axis.c).
 *  Returns the allowed displacement. Source: reference/b173-movement.md section 3 (c);
 *  the per-axis gather: our own (DESIGN.md section 2, "Cost"). */
double bp_world_clip_axis(bp_World *w, const bp_AABB *m, int axis, double d,
                          const bp_AABB *within);

/** The box m extended by d (blocks) along one axis. Source: our own. */
bp_AABB bp_axis_region(const bp_AABB *m, int axis, double d);

/** Copy every box (block shapes, static colliders) overlapping `region` into out, at
 *  most cap of them, in the order of bp_world_visit. Returns the count, or -1 if there
 *  are more than cap (out then holds a partial list) or the region spans more than
 *  max_cells cells (nothing scanned). No allocation: for small regions. With a cache
 *  (may be NULL), a region whose cells lie in the cached range reads the cached cells,
 *  and any other walk refills the cache; the result is the same either way. Source: our
 *  own. */
int bp_world_collect(bp_World *w, const bp_AABB *region, bp_AABB *out, int cap,
                     double max_cells, bp_GatherCache *cache);

/** True if any block box or static collider overlaps `region` (blocks) strictly.
 *  Source: our own. */
int bp_world_any_box(bp_World *w, const bp_AABB *region);

/** True if a block of the given liquid lies in the integer block range
 *  floor(lo) .. floor(hi + 1) - 1 of `region` on each axis (Beta's isMaterialInBB);
 *  with `low_quirk`, one extra block on the low side of each axis whose lo < 0
 *  (Beta's getIsAnyLiquid). liquid = 0 matches either liquid. Source:
 *  reference/b173-movement.md section 5. */
int bp_world_liquid_in(bp_World *w, const bp_AABB *region, int liquid, int low_quirk);

/** True if a normal cube (bp_BlockType.normal_cube) lies in the cells floor(lo) ..
 *  floor(hi) of `region` (inclusive, points included: a flat region still has its
 *  cells). One lookup per chunk. Source: our own (for pushOutOfBlocks, push_out.c). */
int bp_world_normal_cube_in(bp_World *w, const bp_AABB *region);

/** bp_world_normal_cube_in, read from an entity's gather cache when it covers the
 *  cells (the box's own cells usually lie in the range its last move gathered); the
 *  same answer either way. Source: our own. */
int bp_world_normal_cube_in_cached(bp_World *w, const bp_GatherCache *gc,
                                   const bp_AABB *region);

/** The direction of the water current through the integer block range floor(lo) ..
 *  floor(hi + 1) - 1 of `region` (Beta's handleMaterialAcceleration for water): the
 *  flow vectors of its water blocks (BlockFluid.getFlowVector, from the levels of each
 *  one's four neighbours, the blocks below those that are not solid, and for falling
 *  water a downward pull beside solid blocks) summed in x, y, z order, then normalised
 *  with a float length. Writes out and returns 1 if the sum is not zero, else returns
 *  0. Cost: 17 cell lookups per water cell of the range. Source:
 *  reference/b173-movement.md section 5, and the decompile's BlockFluid and Vec3D
 *  (reference S1). */
int bp_world_water_flow(bp_World *w, const bp_AABB *region, double out[3]);

/** The type of the block at a cell given in int64 (air outside the int32 grid: a
 *  neighbour of an edge cell may lie past it). Source: our own. */
const bp_BlockType *bp_world_type_at_cell(bp_World *w, int64_t x, int64_t y, int64_t z);

/** Beta's liquid test range of `region` (blocks): the cells floor(lo) .. floor(hi + 1)
 *  - 1 on each axis, clamped to the int32 grid (isMaterialInBB, getIsAnyLiquid and
 *  handleMaterialAcceleration all use it). Source: reference/b173-movement.md
 *  section 5. */
void bp_liquid_cells(const bp_AABB *region, int64_t lo[3], int64_t hi[3]);

/** The type of the block at a world position's cell (floor of each coordinate; x, y, z
 *  in blocks; air outside the int32 grid). Source: our own (DESIGN.md section 1). */
const bp_BlockType *bp_world_type_at(bp_World *w, double x, double y, double z);

/** 1 if the gather cache gc is valid, covers the cells the box shrunk by 0.001 on
 *  every side lies in, and holds no block that acts on what touches it (so none of
 *  those cells does): the Beta tick's touch test then reads nothing. Source: our own. */
int bp_gather_touch_free(const bp_World *w, const bp_GatherCache *gc, const bp_AABB *box);

/** bp_world_type_at, read from an entity's gather cache when it covers the cell (the
 *  block under an entity usually lies in the range its last move gathered); the same
 *  answer either way. x, y, z in blocks. Source: our own. */
const bp_BlockType *bp_world_type_at_cached(bp_World *w, const bp_GatherCache *gc,
                                            double x, double y, double z);

#endif
