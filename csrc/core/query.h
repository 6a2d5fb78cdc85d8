/* SPDX-License-Identifier: MIT
* query.h - the world's region walks and block lookups (query.c), and the box
 * visitors shared by the world's gathers (query.c) and the
 * solid-entity gathers (solid.c): clip, stop at the first box, collect into an array.
 * Internal: inline so that each gather calls them directly. Plain inline, not
 * BP_ALWAYS_INLINE: the walkers take them as pointers, and GCC at -Og does not inline
 * through a pointer, which for an always_inline function is an error.
 */
#ifndef BP_CORE_QUERY_H
#define BP_CORE_QUERY_H

#include "bp_world.h"

/** Visit every box (block shapes and static colliders, world space) that overlaps
 *  `region` strictly, scanning one cell lower when some shape rises above its cell.
 *  Cells chunk by chunk (as bp_world_visit_cells), then static colliders: the order is
 *  fixed. The visitor returns nonzero to stop early; bp_world_visit returns that value.
 *  Source: docs/beta173.md section 4 (the block part of
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

/** Clip displacement d (blocks) of box m along axis against every box in the region m
 *  extended by d on that axis (one per-axis pass of the Beta resolver). With `within`,
 *  only boxes that also overlap `within` count (Beta's single gather, see move_axis.c).
 *  Returns the allowed displacement. Source: docs/beta173.md section 3 (c);
 *  the per-axis gather: our own (docs/architecture.md, "Cost"). */
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
 *  docs/beta173.md section 5. */
int bp_world_liquid_in(bp_World *w, const bp_AABB *region, int liquid, int low_quirk);

/** True if a normal cube (bp_BlockType.normal_cube) lies in the cells floor(lo) ..
 *  floor(hi) of `region` (inclusive, points included: a flat region still has its
 *  cells). One lookup per chunk. Source: our own (for pushOutOfBlocks, beta173_push_out.c). */
int bp_world_normal_cube_in(bp_World *w, const bp_AABB *region);

/** bp_world_normal_cube_in, read from an entity's gather cache when it covers the
 *  cells (the box's own cells usually lie in the range its last move gathered); the
 *  same answer either way. Source: our own. */
int bp_world_normal_cube_in_cached(bp_World *w, const bp_GatherCache *gc,
                                   const bp_AABB *region);

/** The type of the block at a cell given in int64 (air outside the int32 grid: a
 *  neighbour of an edge cell may lie past it). Source: our own. */
const bp_BlockType *bp_world_type_at_cell(bp_World *w, int64_t x, int64_t y, int64_t z);

/** Beta's liquid test range of `region` (blocks): the cells floor(lo) .. floor(hi + 1)
 *  - 1 on each axis, clamped to the int32 grid (isMaterialInBB, getIsAnyLiquid and
 *  handleMaterialAcceleration all use it). Source: docs/beta173.md
 *  section 5. */
void bp_liquid_cells(const bp_AABB *region, int64_t lo[3], int64_t hi[3]);

/** The type of the block at a world position's cell (floor of each coordinate; x, y, z
 *  in blocks; air outside the int32 grid). Source: our own (docs/conventions.md). */
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

#if defined(__GNUC__)
#define BP_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define BP_ALWAYS_INLINE inline
#endif

/* Clip d of box m along axis by each visited box (only those overlapping `within`,
 * when given). */
typedef struct bp_ClipCtx {
	const bp_AABB *m;
	const bp_AABB *within;
	int axis;
	double d;
} bp_ClipCtx;

static inline int bp_clip_one(void *ctx, const bp_AABB *box)
{
	bp_ClipCtx *c = ctx;
	if (!c->within || bp_aabb_overlaps(box, c->within))
		c->d = bp_aabb_clip(c->m, box, c->axis, c->d);
	return 0;
}

/* Stops the walk at the first box (emptiness tests). */
static inline int bp_stop_at_first(void *ctx, const bp_AABB *box)
{
	(void)ctx;
	(void)box;
	return 1;
}

/* Appends each box to out; stops (returns 1) when cap boxes are held. */
typedef struct bp_Collect {
	bp_AABB *out;
	int cap, n;
} bp_Collect;

static inline int bp_collect_one(void *ctx, const bp_AABB *box)
{
	bp_Collect *c = ctx;
	if (c->n == c->cap)
		return 1;
	c->out[c->n++] = *box;
	return 0;
}

#endif
