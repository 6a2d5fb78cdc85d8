/* SPDX-License-Identifier: MIT
 * query.c - region queries over block shapes and static colliders: visit, gather,
 * per-axis clip, emptiness and liquid tests. Cells are visited in a fixed order
 * (y, then z, then x) so results never depend on memory layout.
 */
#include "blockphys.h"

#include <math.h>

/* floor and ceil of a coordinate as a cell index clamped to int32 (outside is all
 * air). A cast and a compare: far cheaper than libm's floor on baseline x86-64. */
static inline int64_t cell_floor(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v > (double)INT32_MAX)
		return INT32_MAX;
	int64_t i = (int64_t)v;
	return (double)i > v ? i - 1 : i;
}

static inline int64_t cell_ceil(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v > (double)INT32_MAX)
		return INT32_MAX;
	int64_t i = (int64_t)v;
	return (double)i < v ? i + 1 : i;
}

/* Cells [lo, hi] whose unit cube can meet the open region, one block lower on Y
 * when some shape rises above its cell (fences). */
static void region_cells(const bp_World *w, const bp_AABB *r, int64_t lo[3], int64_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		lo[a] = cell_floor(r->lo[a]);
		hi[a] = cell_ceil(r->hi[a]) - 1;
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
	uint16_t id = bp_world_get_block(w, (int32_t)cell_floor(x), (int32_t)cell_floor(y),
	                                 (int32_t)cell_floor(z));
	return &w->types[id];
}

/* Chunk coordinate of a cell coordinate (floor division by 16, no signed shifts). */
static inline int64_t chunk_floor(int64_t v)
{
	return v >= 0 ? v / 16 : -((15 - v) / 16);
}

/* Visit the boxes of the cells [lo, hi] that overlap region, chunk by chunk: one
 * chunk lookup per chunk, not per cell, and uniform air chunks are skipped whole.
 * Inlined into each caller so that the visitor is a direct call. */
static inline int visit_cells(bp_World *w, const bp_AABB *region, const int64_t lo[3],
                              const int64_t hi[3], bp_BoxVisitor fn, void *ctx)
{
	const int64_t c0[3] = {chunk_floor(lo[0]), chunk_floor(lo[1]), chunk_floor(lo[2])};
	const int64_t c1[3] = {chunk_floor(hi[0]), chunk_floor(hi[1]), chunk_floor(hi[2])};
	for (int64_t cy = c0[1]; cy <= c1[1]; cy++)
		for (int64_t cz = c0[2]; cz <= c1[2]; cz++)
			for (int64_t cx = c0[0]; cx <= c1[0]; cx++) {
				const bp_Chunk *c = bp_world_chunk(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (!c || (!c->ids && c->uniform == 0))
					continue;
				const int64_t base[3] = {cx * 16, cy * 16, cz * 16};
				int64_t a[3], b[3];
				for (int k = 0; k < 3; k++) {
					a[k] = lo[k] > base[k] ? lo[k] : base[k];
					b[k] = hi[k] < base[k] + 15 ? hi[k] : base[k] + 15;
				}
				for (int64_t y = a[1]; y <= b[1]; y++)
					for (int64_t z = a[2]; z <= b[2]; z++)
						for (int64_t x = a[0]; x <= b[0]; x++) {
							uint16_t id = c->ids ? c->ids[((y - base[1]) << 8) |
							                              ((z - base[2]) << 4) | (x - base[0])]
							                     : c->uniform;
							if (!id)
								continue;
							const bp_BlockType *t = &w->types[id];
							for (int i = 0; i < t->nboxes; i++) {
								bp_AABB box = bp_aabb_offset(&t->boxes[i], (double)x,
								                             (double)y, (double)z);
								int stop;
								if (bp_aabb_overlaps(&box, region) && (stop = fn(ctx, &box)))
									return stop;
							}
						}
			}
	return 0;
}

static inline int visit_region(bp_World *w, const bp_AABB *region, bp_BoxVisitor fn,
                               void *ctx)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	int stop = visit_cells(w, region, lo, hi, fn, ctx);
	for (uint32_t i = 0; !stop && i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		if (c->alive && bp_aabb_overlaps(&c->box, region))
			stop = fn(ctx, &c->box);
	}
	return stop;
}

int bp_world_visit(bp_World *w, const bp_AABB *region, bp_BoxVisitor fn, void *ctx)
{
	return visit_region(w, region, fn, ctx);
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
	return visit_region(w, region, push_box, w) ? BP_ENOMEM : BP_OK;
}

static int stop_at_first(void *ctx, const bp_AABB *box)
{
	(void)ctx;
	(void)box;
	return 1;
}

int bp_world_any_box(bp_World *w, const bp_AABB *region)
{
	return visit_region(w, region, stop_at_first, NULL);
}

/* Clip d against the block shapes of the cells [lo, hi] (the hot path of both
 * resolvers). Like visit_cells, but the clip is inline and full cubes skip the box
 * loop: a full cube in the range always overlaps the region, except in the extra
 * layer below it that only tall shapes need. */
static double clip_cells(bp_World *w, const bp_AABB *m, const bp_AABB *region,
                         const bp_AABB *within, int axis, double d)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	const int64_t first_y = cell_floor(region->lo[1]);
	const int64_t c0[3] = {chunk_floor(lo[0]), chunk_floor(lo[1]), chunk_floor(lo[2])};
	const int64_t c1[3] = {chunk_floor(hi[0]), chunk_floor(hi[1]), chunk_floor(hi[2])};
	for (int64_t cy = c0[1]; cy <= c1[1]; cy++)
		for (int64_t cz = c0[2]; cz <= c1[2]; cz++)
			for (int64_t cx = c0[0]; cx <= c1[0]; cx++) {
				const bp_Chunk *c = bp_world_chunk(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (!c || (!c->ids && c->uniform == 0))
					continue;
				const int64_t base[3] = {cx * 16, cy * 16, cz * 16};
				int64_t a[3], b[3];
				for (int k = 0; k < 3; k++) {
					a[k] = lo[k] > base[k] ? lo[k] : base[k];
					b[k] = hi[k] < base[k] + 15 ? hi[k] : base[k] + 15;
				}
				for (int64_t y = a[1]; y <= b[1]; y++)
					for (int64_t z = a[2]; z <= b[2]; z++)
						for (int64_t x = a[0]; x <= b[0]; x++) {
							uint16_t id = c->ids ? c->ids[((y - base[1]) << 8) |
							                              ((z - base[2]) << 4) | (x - base[0])]
							                     : c->uniform;
							if (!id)
								continue;
							const bp_BlockType *t = &w->types[id];
							const double fx = (double)x, fy = (double)y, fz = (double)z;
							if (t->full_cube) {
								if (y < first_y)
									continue;
								bp_AABB box = bp_aabb_make(fx, fy, fz, fx + 1, fy + 1, fz + 1);
								if (!within || bp_aabb_overlaps(&box, within))
									d = bp_aabb_clip(m, &box, axis, d);
								continue;
							}
							for (int i = 0; i < t->nboxes; i++) {
								bp_AABB box = bp_aabb_offset(&t->boxes[i], fx, fy, fz);
								if (bp_aabb_overlaps(&box, region) &&
								    (!within || bp_aabb_overlaps(&box, within)))
									d = bp_aabb_clip(m, &box, axis, d);
							}
						}
			}
	return d;
}

/* Append the block shapes of the cells [lo, hi] that overlap region to out (at most
 * cap boxes); returns the count, or -1 when more boxes than cap are there. */
static int collect_cells(bp_World *w, const bp_AABB *region, const int64_t lo[3],
                         const int64_t hi[3], bp_AABB *out, int cap)
{
	const int64_t first_y = cell_floor(region->lo[1]);
	int n = 0;
	for (int64_t cy = chunk_floor(lo[1]); cy <= chunk_floor(hi[1]); cy++)
		for (int64_t cz = chunk_floor(lo[2]); cz <= chunk_floor(hi[2]); cz++)
			for (int64_t cx = chunk_floor(lo[0]); cx <= chunk_floor(hi[0]); cx++) {
				const bp_Chunk *c = bp_world_chunk(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (!c || (!c->ids && c->uniform == 0))
					continue;
				const int64_t base[3] = {cx * 16, cy * 16, cz * 16};
				int64_t a[3], b[3];
				for (int k = 0; k < 3; k++) {
					a[k] = lo[k] > base[k] ? lo[k] : base[k];
					b[k] = hi[k] < base[k] + 15 ? hi[k] : base[k] + 15;
				}
				for (int64_t y = a[1]; y <= b[1]; y++)
					for (int64_t z = a[2]; z <= b[2]; z++)
						for (int64_t x = a[0]; x <= b[0]; x++) {
							uint16_t id = c->ids ? c->ids[((y - base[1]) << 8) |
							                              ((z - base[2]) << 4) | (x - base[0])]
							                     : c->uniform;
							if (!id)
								continue;
							const bp_BlockType *t = &w->types[id];
							const double fx = (double)x, fy = (double)y, fz = (double)z;
							if (t->full_cube) {
								if (y < first_y)
									continue; /* the extra layer is for tall shapes only */
								if (n == cap)
									return -1;
								out[n++] = bp_aabb_make(fx, fy, fz, fx + 1, fy + 1, fz + 1);
								continue;
							}
							for (int i = 0; i < t->nboxes; i++) {
								bp_AABB box = bp_aabb_offset(&t->boxes[i], fx, fy, fz);
								if (!bp_aabb_overlaps(&box, region))
									continue;
								if (n == cap)
									return -1;
								out[n++] = box;
							}
						}
			}
	return n;
}

int bp_world_collect(bp_World *w, const bp_AABB *region, bp_AABB *out, int cap,
                     double max_cells)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	double cells = 1;
	for (int a = 0; a < 3; a++)
		cells *= hi[a] >= lo[a] ? (double)(hi[a] - lo[a] + 1) : 0;
	if (cells > max_cells)
		return -1;
	int n = collect_cells(w, region, lo, hi, out, cap);
	for (uint32_t i = 0; n >= 0 && i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		if (!c->alive || !bp_aabb_overlaps(&c->box, region))
			continue;
		if (n == cap)
			return -1;
		out[n++] = c->box;
	}
	return n;
}

double bp_world_clip_axis(bp_World *w, const bp_AABB *m, int axis, double d,
                          const bp_AABB *within)
{
	if (d == 0)
		return d;
	bp_AABB region = bp_axis_region(m, axis, d);
	d = clip_cells(w, m, &region, within, axis, d);
	for (uint32_t i = 0; i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		if (c->alive && bp_aabb_overlaps(&c->box, &region) &&
		    (!within || bp_aabb_overlaps(&c->box, within)))
			d = bp_aabb_clip(m, &c->box, axis, d);
	}
	return d;
}

bp_AABB bp_axis_region(const bp_AABB *m, int axis, double d)
{
	double e[3] = {0, 0, 0};
	e[axis] = d;
	return bp_aabb_extend(m, e[0], e[1], e[2]);
}

/* Liquid of the given kind (0: either) in the cells [lo, hi]; chunks that hold no
 * liquid are skipped whole. */
static int liquid_cells(bp_World *w, const int64_t lo[3], const int64_t hi[3], int liquid)
{
	for (int64_t cy = chunk_floor(lo[1]); cy <= chunk_floor(hi[1]); cy++)
		for (int64_t cz = chunk_floor(lo[2]); cz <= chunk_floor(hi[2]); cz++)
			for (int64_t cx = chunk_floor(lo[0]); cx <= chunk_floor(hi[0]); cx++) {
				const bp_Chunk *c = bp_world_chunk(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (!c || !c->liquid)
					continue;
				for (int64_t y = lo[1] > cy * 16 ? lo[1] : cy * 16; y <= hi[1] && y < cy * 16 + 16; y++)
					for (int64_t z = lo[2] > cz * 16 ? lo[2] : cz * 16; z <= hi[2] && z < cz * 16 + 16; z++)
						for (int64_t x = lo[0] > cx * 16 ? lo[0] : cx * 16; x <= hi[0] && x < cx * 16 + 16; x++) {
							uint16_t id = c->ids ? c->ids[((y - cy * 16) << 8) |
							                              ((z - cz * 16) << 4) | (x - cx * 16)]
							                     : c->uniform;
							int l = w->types[id].liquid;
							if (l && (liquid == 0 || l == liquid))
								return 1;
						}
			}
	return 0;
}

int bp_world_liquid_in(bp_World *w, const bp_AABB *r, int liquid, int low_quirk)
{
	if (!w->liquid_blocks)
		return 0; /* no liquid anywhere: the common case costs nothing */
	int64_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		lo[a] = cell_floor(r->lo[a]);
		hi[a] = cell_floor(r->hi[a] + 1) - 1;
		if (low_quirk && r->lo[a] < 0 && lo[a] > INT32_MIN)
			lo[a]--;
	}
	return liquid_cells(w, lo, hi, liquid);
}
