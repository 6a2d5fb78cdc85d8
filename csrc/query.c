/* SPDX-License-Identifier: MIT
 * query.c - region queries over block shapes and static colliders: visit, gather,
 * per-axis clip, emptiness and liquid tests. Cells are visited in a fixed order
 * (y, then z, then x) so results never depend on memory layout.
 */
#include "blockphys.h"

#include <math.h>

/* Block range of a coordinate interval, clamped to int32 (outside is all air). */
static int64_t clamp_cell(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v > (double)INT32_MAX)
		return INT32_MAX;
	return (int64_t)v;
}

/* Cells [lo, hi] whose unit cube can meet the open region, one block lower on Y
 * when some shape rises above its cell (fences). */
static void region_cells(const bp_World *w, const bp_AABB *r, int64_t lo[3], int64_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		lo[a] = clamp_cell(floor(r->lo[a]));
		hi[a] = clamp_cell(ceil(r->hi[a]) - 1);
	}
	if (w->tall_shapes && lo[1] > INT32_MIN)
		lo[1] -= 1;
}

double bp_world_region_cells(const bp_World *w, const bp_AABB *region)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	double n = 1;
	for (int a = 0; a < 3; a++)
		n *= hi[a] >= lo[a] ? (double)(hi[a] - lo[a] + 1) : 0;
	return n;
}

const bp_BlockType *bp_world_type_at(bp_World *w, double x, double y, double z)
{
	uint16_t id = bp_world_get_block(w, (int32_t)clamp_cell(floor(x)),
	                                 (int32_t)clamp_cell(floor(y)),
	                                 (int32_t)clamp_cell(floor(z)));
	return &w->types[id];
}

int bp_world_visit(bp_World *w, const bp_AABB *region, bp_BoxVisitor fn, void *ctx)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	for (int64_t y = lo[1]; y <= hi[1]; y++)
		for (int64_t z = lo[2]; z <= hi[2]; z++)
			for (int64_t x = lo[0]; x <= hi[0]; x++) {
				uint16_t id = bp_world_get_block(w, (int32_t)x, (int32_t)y, (int32_t)z);
				if (!id)
					continue;
				const bp_BlockType *t = &w->types[id];
				for (int i = 0; i < t->nboxes; i++) {
					bp_AABB b = bp_aabb_offset(&t->boxes[i], (double)x, (double)y, (double)z);
					int stop;
					if (bp_aabb_overlaps(&b, region) && (stop = fn(ctx, &b)))
						return stop;
				}
			}
	for (uint32_t i = 0; i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		int stop;
		if (c->alive && bp_aabb_overlaps(&c->box, region) && (stop = fn(ctx, &c->box)))
			return stop;
	}
	return 0;
}

static int push_box(void *ctx, const bp_AABB *box)
{
	bp_World *w = ctx;
	bp_BoxList *l = &w->scratch;
	if (l->count == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64;
		bp_AABB *p = bp_realloc(w, l->items, l->cap * sizeof *p, ncap * sizeof *p);
		if (!p)
			return 1;
		l->items = p;
		l->cap = ncap;
	}
	l->items[l->count++] = *box;
	return 0;
}

bp_Status bp_world_gather(bp_World *w, const bp_AABB *region)
{
	w->scratch.count = 0;
	return bp_world_visit(w, region, push_box, w) ? BP_ENOMEM : BP_OK;
}

static int stop_at_first(void *ctx, const bp_AABB *box)
{
	(void)ctx;
	(void)box;
	return 1;
}

int bp_world_any_box(bp_World *w, const bp_AABB *region)
{
	return bp_world_visit(w, region, stop_at_first, NULL);
}

typedef struct ClipCtx {
	const bp_AABB *m;
	const bp_AABB *within;
	int axis;
	double d;
} ClipCtx;

static int clip_one(void *ctx, const bp_AABB *box)
{
	ClipCtx *c = ctx;
	if (!c->within || bp_aabb_overlaps(box, c->within))
		c->d = bp_aabb_clip(c->m, box, c->axis, c->d);
	return 0;
}

double bp_world_clip_axis(bp_World *w, const bp_AABB *m, int axis, double d,
                          const bp_AABB *within)
{
	if (d == 0)
		return d;
	bp_AABB region = bp_axis_region(m, axis, d);
	ClipCtx c = {m, within, axis, d};
	bp_world_visit(w, &region, clip_one, &c);
	return c.d;
}

bp_AABB bp_axis_region(const bp_AABB *m, int axis, double d)
{
	double e[3] = {0, 0, 0};
	e[axis] = d;
	return bp_aabb_extend(m, e[0], e[1], e[2]);
}

int bp_world_liquid_in(bp_World *w, const bp_AABB *r, int liquid, int low_quirk)
{
	int64_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		lo[a] = clamp_cell(floor(r->lo[a]));
		hi[a] = clamp_cell(floor(r->hi[a] + 1) - 1);
		if (low_quirk && r->lo[a] < 0 && lo[a] > INT32_MIN)
			lo[a]--;
	}
	for (int64_t y = lo[1]; y <= hi[1]; y++)
		for (int64_t z = lo[2]; z <= hi[2]; z++)
			for (int64_t x = lo[0]; x <= hi[0]; x++) {
				uint16_t id = bp_world_get_block(w, (int32_t)x, (int32_t)y, (int32_t)z);
				int l = w->types[id].liquid;
				if (l && (liquid == 0 || l == liquid))
					return 1;
			}
	return 0;
}
