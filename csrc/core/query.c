/* SPDX-License-Identifier: MIT
 * query.c - region queries over block shapes and static colliders: visit, gather,
 * per-axis clip, emptiness and liquid tests. Cells are visited in a fixed order
 * (y, then z, then x) so results never depend on memory layout.
 */
#include "query.h"
#include "bp_world.h"
#include "alloc.h"
#include "chunk.h"

#include <math.h>

/* One past the last cell of the int32 grid, as a coordinate: 2^31, exact. */
#define CELL_END ((double)INT32_MAX + 1)

/* floor of a coordinate as the first cell of a range, clamped to [INT32_MIN,
 * INT32_MAX + 1] (outside the grid is all air: a range that starts beyond the last cell
 * is empty). A cast and a compare: far cheaper than libm's floor on baseline x86-64. */
static inline int64_t cell_floor(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v >= CELL_END)
		return (int64_t)INT32_MAX + 1;
	int64_t i = (int64_t)v;
	return (double)i > v ? i - 1 : i;
}

/* ceil of a coordinate as the end of a cell range (one past its last cell), clamped to
 * [INT32_MIN, INT32_MAX + 1] so that the range can hold the cell at INT32_MAX (clamping
 * to INT32_MAX lost that cell: blocks there did not collide). cell_floor serves as such
 * an end too. */
static inline int64_t cell_ceil_end(double v)
{
	if (!(v >= (double)INT32_MIN))
		return INT32_MIN;
	if (v >= CELL_END)
		return (int64_t)INT32_MAX + 1;
	int64_t i = (int64_t)v;
	return (double)i < v ? i + 1 : i;
}

/* The cell of a point coordinate: 1 and *c when it lies in the int32 grid, else 0
 * (beyond the grid, or NaN: air). As cheap as cell_floor's clamps. */
static inline int point_cell(double v, int32_t *c)
{
	if (!(v >= (double)INT32_MIN && v < CELL_END))
		return 0;
	int64_t i = (int64_t)v;
	*c = (int32_t)((double)i > v ? i - 1 : i);
	return 1;
}

/* The cell of a point, or 0 when it lies outside the int32 grid. */
static inline int point_cells(double x, double y, double z, int32_t c[3])
{
	return point_cell(x, &c[0]) && point_cell(y, &c[1]) && point_cell(z, &c[2]);
}

/* Cells [lo, hi] whose unit cube can meet the open region, one block lower on Y
 * when some shape rises above its cell (fences). */
static void region_cells(const bp_World *w, const bp_AABB *r, int64_t lo[3], int64_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		lo[a] = cell_floor(r->lo[a]);
		hi[a] = cell_ceil_end(r->hi[a]) - 1;
	}
	if (w->tall_shapes && lo[1] > INT32_MIN)
		lo[1] -= 1;
}

static double cell_count(const int64_t lo[3], const int64_t hi[3])
{
	double n = 1;
	for (int a = 0; a < 3; a++)
		n *= hi[a] >= lo[a] ? (double)(hi[a] - lo[a] + 1) : 0;
	return n;
}

double bp_world_region_cells(const bp_World *w, const bp_AABB *region)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	return cell_count(lo, hi);
}

const bp_BlockType *bp_world_type_at_cell(bp_World *w, int64_t x, int64_t y, int64_t z)
{
	if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX ||
	    z < INT32_MIN || z > INT32_MAX)
		return &w->types[0];
	return &w->types[bp_world_get_block(w, (int32_t)x, (int32_t)y, (int32_t)z)];
}

void bp_liquid_cells(const bp_AABB *r, int64_t lo[3], int64_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		lo[a] = cell_floor(r->lo[a]);
		hi[a] = cell_floor(r->hi[a] + 1) - 1;
	}
}

const bp_BlockType *bp_world_type_at(bp_World *w, double x, double y, double z)
{
	int32_t c[3];
	if (!point_cells(x, y, z, c))
		return &w->types[0]; /* outside the int32 grid: air */
	return &w->types[bp_world_get_block(w, c[0], c[1], c[2])];
}

/* Chunk coordinate of a cell coordinate (floor division by 16, no signed shifts). */
static inline int64_t chunk_floor(int64_t v)
{
	return v >= 0 ? v / 16 : -((15 - v) / 16);
}

/* The part of one chunk inside a cell range: chunk-local ranges a..b (0..15). */
typedef struct ChunkPart {
	const bp_Chunk *c;
	int64_t base[3];
	int a[3], b[3];
} ChunkPart;

typedef int (*ChunkFn)(void *ctx, const ChunkPart *p);

/* Call fn for each stored chunk meeting the cells [lo, hi]: one lookup per chunk,
 * not per cell. Chunks of only air are skipped, or with `liquid`, chunks without
 * liquid. Every walk below is built on this one and inlined into its caller, so the
 * callbacks are direct calls. */
static BP_ALWAYS_INLINE int walk_chunks(bp_World *w, const int64_t lo[3], const int64_t hi[3],
                                        int liquid, ChunkFn fn, void *ctx)
{
	/* An empty range on one axis (a flat region) is no cells at all: without this, the
	 * chunk loops of the other two axes would run, unbounded by the cell limit. */
	if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2])
		return 0;
	for (int64_t cy = chunk_floor(lo[1]); cy <= chunk_floor(hi[1]); cy++)
		for (int64_t cz = chunk_floor(lo[2]); cz <= chunk_floor(hi[2]); cz++)
			for (int64_t cx = chunk_floor(lo[0]); cx <= chunk_floor(hi[0]); cx++) {
				ChunkPart p;
				p.c = bp_world_chunk(w, (int32_t)cx, (int32_t)cy, (int32_t)cz);
				if (!p.c || (liquid ? !p.c->liquid : !p.c->ids && p.c->uniform == 0))
					continue;
				const int64_t base[3] = {cx * 16, cy * 16, cz * 16};
				for (int k = 0; k < 3; k++) {
					p.base[k] = base[k];
					p.a[k] = (int)((lo[k] > base[k] ? lo[k] : base[k]) - base[k]);
					p.b[k] = (int)((hi[k] < base[k] + 15 ? hi[k] : base[k] + 15) - base[k]);
				}
				int stop = fn(ctx, &p);
				if (stop)
					return stop;
			}
	return 0;
}

static BP_ALWAYS_INLINE uint16_t part_id(const ChunkPart *p, int x, int y, int z)
{
	return p->c->ids ? p->c->ids[(y << 8) | (z << 4) | x] : p->c->uniform;
}

typedef struct BoxWalk {
	bp_World *w;
	const bp_AABB *region;
	bp_BoxVisitor fn;
	void *ctx;
} BoxWalk;

/* The block shapes of one chunk part that overlap the region. A full cube skips the
 * box loop (the common case: one box, no offset arithmetic). */
static BP_ALWAYS_INLINE int boxes_in_part(void *ctx, const ChunkPart *p)
{
	const BoxWalk *bw = ctx;
	for (int y = p->a[1]; y <= p->b[1]; y++) {
		const double fy = (double)(p->base[1] + y);
		for (int z = p->a[2]; z <= p->b[2]; z++) {
			const double fz = (double)(p->base[2] + z);
			for (int x = p->a[0]; x <= p->b[0]; x++) {
				uint16_t id = part_id(p, x, y, z);
				if (!id)
					continue;
				const bp_BlockType *t = &bw->w->types[id];
				const double fx = (double)(p->base[0] + x);
				int stop;
				if (t->full_cube) {
					bp_AABB box = bp_aabb_make(fx, fy, fz, fx + 1, fy + 1, fz + 1);
					if (bp_aabb_overlaps(&box, bw->region) && (stop = bw->fn(bw->ctx, &box)))
						return stop;
					continue;
				}
				for (int i = 0; i < t->nboxes; i++) {
					bp_AABB box = bp_aabb_offset(&t->boxes[i], fx, fy, fz);
					if (bp_aabb_overlaps(&box, bw->region) && (stop = bw->fn(bw->ctx, &box)))
						return stop;
				}
			}
		}
	}
	return 0;
}

typedef struct CellWalk {
	bp_CellVisitor fn;
	void *ctx;
} CellWalk;

/* Every non-air cell of one chunk part, in y, z, x order. */
static int cells_in_part(void *ctx, const ChunkPart *p)
{
	const CellWalk *cw = ctx;
	for (int y = p->a[1]; y <= p->b[1]; y++)
		for (int z = p->a[2]; z <= p->b[2]; z++)
			for (int x = p->a[0]; x <= p->b[0]; x++) {
				uint16_t id = part_id(p, x, y, z);
				int stop;
				if (id && (stop = cw->fn(cw->ctx, id, (int32_t)(p->base[0] + x),
				                         (int32_t)(p->base[1] + y),
				                         (int32_t)(p->base[2] + z))))
					return stop;
			}
	return 0;
}

int bp_world_visit_cells(bp_World *w, const int64_t lo[3], const int64_t hi[3],
                         bp_CellVisitor fn, void *ctx)
{
	CellWalk cw = {fn, ctx};
	return walk_chunks(w, lo, hi, 0, cells_in_part, &cw);
}

/* Every block shape box of the cells [lo, hi] overlapping region, then every static
 * collider that does; fn returns nonzero to stop. */
static BP_ALWAYS_INLINE int visit_cells(bp_World *w, const bp_AABB *region,
                                        const int64_t lo[3], const int64_t hi[3],
                                        bp_BoxVisitor fn, void *ctx)
{
	BoxWalk bw = {w, region, fn, ctx};
	int stop = walk_chunks(w, lo, hi, 0, boxes_in_part, &bw);
	for (uint32_t i = 0; !stop && i < w->ncolliders; i++) {
		const bp_StaticCollider *c = &w->colliders[i];
		if (c->alive == BP_COLLIDER_LIVE && bp_aabb_overlaps(&c->box, region))
			stop = fn(ctx, &c->box);
	}
	return stop;
}

static BP_ALWAYS_INLINE int visit_region(bp_World *w, const bp_AABB *region,
                                         bp_BoxVisitor fn, void *ctx)
{
	int64_t lo[3], hi[3];
	region_cells(w, region, lo, hi);
	return visit_cells(w, region, lo, hi, fn, ctx);
}

int bp_world_visit(bp_World *w, const bp_AABB *region, bp_BoxVisitor fn, void *ctx)
{
	return visit_region(w, region, fn, ctx);
}

typedef struct GatherCtx {
	bp_World *w;
	size_t max; /* boxes the list may hold */
} GatherCtx;

/* 1: out of memory, 2: more than ctx->max boxes (both stop the walk). */
static int push_box(void *ctx, const bp_AABB *box)
{
	const GatherCtx *g = ctx;
	bp_BoxList *l = &g->w->scratch;
	if (l->count == g->max)
		return 2;
	if (l->count == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64;
		bp_AABB *p = bp_realloc(&g->w->mem, l->items, l->cap * sizeof *p, ncap * sizeof *p);
		if (!p)
			return 1;
		l->items = p;
		l->cap = ncap;
	}
	l->items[l->count++] = *box;
	return 0;
}

bp_Status bp_world_gather(bp_World *w, const bp_AABB *region, size_t max_boxes)
{
	GatherCtx g = {w, max_boxes};
	w->scratch.count = 0;
	int rc = visit_region(w, region, push_box, &g);
	return rc == 0 ? BP_OK : rc == 2 ? BP_ELIMIT : BP_ENOMEM;
}

const bp_AABB *bp_world_gathered(const bp_World *w, size_t *count)
{
	*count = w->scratch.count;
	return w->scratch.items;
}

int bp_world_any_box(bp_World *w, const bp_AABB *region)
{
	return visit_region(w, region, bp_stop_at_first, NULL);
}

/* Cells [lo, hi] of a region whose coordinates all lie within (-2^30 + 1, 2^30) (every
 * move's region in practice): plain casts are then defined and exact, so floor and
 * ceil cost a cast and a compare, and the row below for tall shapes is still at least
 * -2^30, which near_chunk takes. 0 if some coordinate is outside. */
static inline int near_cells(const bp_AABB *r, int32_t lo[3], int32_t hi[3])
{
	for (int a = 0; a < 3; a++) {
		if (!(r->lo[a] > -0x1p30 + 1 && r->hi[a] < 0x1p30 && r->lo[a] <= r->hi[a]))
			return 0;
		lo[a] = (int32_t)r->lo[a];
		lo[a] -= (double)lo[a] > r->lo[a];  /* floor */
		hi[a] = (int32_t)r->hi[a];
		hi[a] -= (double)hi[a] >= r->hi[a]; /* ceil - 1 */
	}
	return 1;
}

/* Chunk coordinate of a cell within +-2^30 (no signed shift: offset, then unsigned). */
static inline int32_t near_chunk(int32_t v)
{
	return (int32_t)((uint32_t)(v + 0x40000000) >> 4) - 0x4000000;
}

/* Append the boxes of cell (x, y, z) holding block type t that overlap the region.
 * `exact`: the cell lies in the region's own cell range (not the extra row below for
 * tall shapes), so a full cube overlaps it without a test. Returns 1 when full. */
static BP_ALWAYS_INLINE int collect_cell(const bp_BlockType *t, double fx, double fy,
                                         double fz, int exact, const bp_AABB *region,
                                         bp_Collect *c)
{
	if (t->full_cube) {
		if (!exact)
			return 0; /* a cube in the row below ends at or under region->lo[1] */
		bp_AABB box = bp_aabb_make(fx, fy, fz, fx + 1, fy + 1, fz + 1);
		return bp_collect_one(c, &box);
	}
	for (int i = 0; i < t->nboxes; i++) {
		bp_AABB box = bp_aabb_offset(&t->boxes[i], fx, fy, fz);
		if (bp_aabb_overlaps(&box, region) && bp_collect_one(c, &box))
			return 1;
	}
	return 0;
}

/* Note a non-air cell in the cache being filled (n past BP_GATHER_CELLS: overflowed,
 * the cache stays empty). */
static BP_ALWAYS_INLINE void record_cell(bp_GatherCache *gc, const bp_BlockType *t,
                                         uint16_t id, int32_t x, int32_t y, int32_t z)
{
	gc->touch |= t->touch;
	if (gc->n < BP_GATHER_CELLS) {
		gc->cell[gc->n].id = id;
		gc->cell[gc->n].x = (uint8_t)(x - gc->lo[0]);
		gc->cell[gc->n].y = (uint8_t)(y - gc->lo[1]);
		gc->cell[gc->n].z = (uint8_t)(z - gc->lo[2]);
	}
	if (gc->n <= BP_GATHER_CELLS)
		gc->n++;
}

/* The cells [lo, hi] of one chunk (all inside it): the ids row by row. A chunk of
 * one id reads a row of that id with zero strides. Non-air cells are recorded in gc
 * when given. Returns 1 when the list is full. */
static BP_ALWAYS_INLINE int collect_part(const bp_World *w, const bp_Chunk *ch,
                                         const bp_AABB *region, const int32_t lo[3],
                                         const int32_t hi[3], int32_t exact_y, bp_Collect *c,
                                         bp_GatherCache *gc)
{
	uint16_t same[1];
	const uint16_t *ids = ch->ids;
	uint32_t sy = 256, sz = 16, sx = 1;
	if (!ids) {
		same[0] = ch->uniform;
		ids = same;
		sy = sz = sx = 0;
	}
	for (int32_t y = lo[1]; y <= hi[1]; y++) {
		const double fy = (double)y;
		for (int32_t z = lo[2]; z <= hi[2]; z++) {
			const double fz = (double)z;
			const uint16_t *row = ids + ((uint32_t)y & 15u) * sy + ((uint32_t)z & 15u) * sz;
			for (int32_t x = lo[0]; x <= hi[0]; x++) {
				uint16_t id = row[((uint32_t)x & 15u) * sx];
				if (!id)
					continue;
				const bp_BlockType *t = &w->types[id];
				if (gc)
					record_cell(gc, t, id, x, y, z);
				if (collect_cell(t, (double)x, fy, fz, y >= exact_y, region, c))
					return 1;
			}
		}
	}
	return 0;
}

/* bp_world_collect's block part for cells within +-2^30: chunk by chunk in y, z, x
 * order (the order of bp_world_visit), one lookup per chunk, int32 arithmetic.
 * Returns 1 when the list is full. */
static int collect_near(bp_World *w, const bp_AABB *region, const int32_t lo[3],
                        const int32_t hi[3], int32_t exact_y, bp_Collect *c,
                        bp_GatherCache *gc)
{
	int32_t clo[3], chi[3], l[3], h[3];
	for (int a = 0; a < 3; a++) {
		clo[a] = near_chunk(lo[a]);
		chi[a] = near_chunk(hi[a]);
	}
	if (clo[0] == chi[0] && clo[1] == chi[1] && clo[2] == chi[2]) {
		/* inside one chunk: the common case, without the loop over chunks */
		const bp_Chunk *ch = bp_world_chunk(w, clo[0], clo[1], clo[2]);
		if (!ch || (!ch->ids && ch->uniform == 0))
			return 0;
		return collect_part(w, ch, region, lo, hi, exact_y, c, gc);
	}
	for (int32_t cy = clo[1]; cy <= chi[1]; cy++) {
		l[1] = cy == clo[1] ? lo[1] : cy * 16;
		h[1] = cy == chi[1] ? hi[1] : cy * 16 + 15;
		for (int32_t cz = clo[2]; cz <= chi[2]; cz++) {
			l[2] = cz == clo[2] ? lo[2] : cz * 16;
			h[2] = cz == chi[2] ? hi[2] : cz * 16 + 15;
			for (int32_t cx = clo[0]; cx <= chi[0]; cx++) {
				const bp_Chunk *ch = bp_world_chunk(w, cx, cy, cz);
				if (!ch || (!ch->ids && ch->uniform == 0))
					continue;
				l[0] = cx == clo[0] ? lo[0] : cx * 16;
				h[0] = cx == chi[0] ? hi[0] : cx * 16 + 15;
				if (collect_part(w, ch, region, l, h, exact_y, c, gc))
					return 1;
			}
		}
	}
	return 0;
}

/* The cached cells that lie in [lo, hi], as collect_near would give them (the cache
 * holds the non-air cells of a range containing [lo, hi], in walk order, and the walk
 * order of a sub-range is the same order). Returns 1 when the list is full. */
static int collect_cached(const bp_World *w, const bp_GatherCache *gc,
                          const bp_AABB *region, const int32_t lo[3], const int32_t hi[3],
                          int32_t exact_y, bp_Collect *c)
{
	for (int i = 0; i < gc->n; i++) {
		const int32_t x = gc->lo[0] + gc->cell[i].x, y = gc->lo[1] + gc->cell[i].y,
		              z = gc->lo[2] + gc->cell[i].z;
		if (x < lo[0] || x > hi[0] || y < lo[1] || y > hi[1] || z < lo[2] || z > hi[2])
			continue;
		if (collect_cell(&w->types[gc->cell[i].id], (double)x, (double)y, (double)z,
		                 y >= exact_y, region, c))
			return 1;
	}
	return 0;
}

/* True if the cache holds the cells of a range containing [lo, hi] for these blocks. */
static int cache_covers(const bp_World *w, const bp_GatherCache *gc, const int32_t lo[3],
                        const int32_t hi[3])
{
	return gc->version == w->block_version && lo[0] >= gc->lo[0] && lo[1] >= gc->lo[1] &&
	       lo[2] >= gc->lo[2] && hi[0] <= gc->hi[0] && hi[1] <= gc->hi[1] &&
	       hi[2] <= gc->hi[2];
}

/* The block boxes of the cells [lo, hi] (all within +-2^30): from the cache when it
 * covers them, else by walking the chunks, refilling the cache when the range is
 * small enough to note in it. Returns 1 when the list is full. */
static int collect_blocks(bp_World *w, const bp_AABB *region, const int32_t lo[3],
                          const int32_t hi[3], int32_t exact_y, bp_Collect *c,
                          bp_GatherCache *gc)
{
	if (!gc)
		return collect_near(w, region, lo, hi, exact_y, c, NULL);
	if (cache_covers(w, gc, lo, hi))
		return collect_cached(w, gc, region, lo, hi, exact_y, c);
	gc->version = 0;
	if (hi[0] - lo[0] > 255 || hi[1] - lo[1] > 255 || hi[2] - lo[2] > 255)
		return collect_near(w, region, lo, hi, exact_y, c, NULL);
	for (int a = 0; a < 3; a++) {
		gc->lo[a] = lo[a];
		gc->hi[a] = hi[a];
	}
	gc->n = 0;
	gc->touch = 0;
	if (collect_near(w, region, lo, hi, exact_y, c, gc))
		return 1; /* stopped early: the cells noted are not all of them */
	if (gc->n <= BP_GATHER_CELLS)
		gc->version = w->block_version;
	return 0;
}

int bp_gather_touch_free(const bp_World *w, const bp_GatherCache *gc, const bp_AABB *box)
{
	if (gc->version != w->block_version || gc->touch)
		return 0;
	/* The cells floor(lo + 0.001) .. floor(hi - 0.001) lie in [gc->lo, gc->hi]. */
	for (int a = 0; a < 3; a++) {
		if (!(box->lo[a] + 0.001 >= (double)gc->lo[a] &&
		      box->hi[a] - 0.001 < (double)gc->hi[a] + 1))
			return 0;
	}
	return 1;
}

const bp_BlockType *bp_world_type_at_cached(bp_World *w, const bp_GatherCache *gc,
                                            double x, double y, double z)
{
	int32_t c[3];
	if (!point_cells(x, y, z, c))
		return &w->types[0]; /* outside the int32 grid: air */
	if (!cache_covers(w, gc, c, c))
		return &w->types[bp_world_get_block(w, c[0], c[1], c[2])];
	for (int i = 0; i < gc->n; i++) {
		if (gc->lo[0] + gc->cell[i].x == c[0] && gc->lo[1] + gc->cell[i].y == c[1] &&
		    gc->lo[2] + gc->cell[i].z == c[2])
			return &w->types[gc->cell[i].id];
	}
	return &w->types[0]; /* not noted: air */
}

int bp_world_collect(bp_World *w, const bp_AABB *region, bp_AABB *out, int cap,
                     double max_cells, bp_GatherCache *cache)
{
	int32_t l[3], h[3];
	if (!near_cells(region, l, h)) {
		int64_t lo[3], hi[3];
		region_cells(w, region, lo, hi);
		if (cell_count(lo, hi) > max_cells)
			return -1;
		bp_Collect c = {out, cap, 0};
		return visit_cells(w, region, lo, hi, bp_collect_one, &c) ? -1 : c.n;
	}
	const int32_t exact_y = l[1];
	if (w->tall_shapes)
		l[1]--;
	bp_Collect c = {out, cap, 0};
	/* An empty cell range (a flat region on an integer plane) meets no block shape,
	 * but a static collider can hold it. */
	if (!(h[0] < l[0] || h[1] < l[1] || h[2] < l[2])) {
		/* Each side is at most 2^31 cells: the first product fits in int64. */
		const int64_t area = (int64_t)(h[0] - l[0] + 1) * (h[1] - l[1] + 1);
		if ((double)area * (double)(h[2] - l[2] + 1) > max_cells)
			return -1;
		if (collect_blocks(w, region, l, h, exact_y, &c, cache))
			return -1;
	}
	for (uint32_t i = 0; i < w->ncolliders; i++) {
		const bp_StaticCollider *s = &w->colliders[i];
		if (s->alive == BP_COLLIDER_LIVE && bp_aabb_overlaps(&s->box, region) &&
		    bp_collect_one(&c, &s->box))
			return -1;
	}
	return c.n;
}

double bp_world_clip_axis(bp_World *w, const bp_AABB *m, int axis, double d,
                          const bp_AABB *within)
{
	if (d == 0)
		return d;
	bp_AABB region = bp_axis_region(m, axis, d);
	bp_ClipCtx c = {m, within, axis, d};
	visit_region(w, &region, bp_clip_one, &c);
	return c.d;
}

bp_AABB bp_axis_region(const bp_AABB *m, int axis, double d)
{
	double e[3] = {0, 0, 0};
	e[axis] = d;
	return bp_aabb_extend(m, e[0], e[1], e[2]);
}

typedef struct LiquidWalk {
	const bp_World *w;
	int liquid;
} LiquidWalk;

/* 1 if a cell of the chunk part holds the liquid (0: either kind). */
static BP_ALWAYS_INLINE int liquid_in_part(void *ctx, const ChunkPart *p)
{
	const LiquidWalk *lw = ctx;
	for (int y = p->a[1]; y <= p->b[1]; y++)
		for (int z = p->a[2]; z <= p->b[2]; z++)
			for (int x = p->a[0]; x <= p->b[0]; x++) {
				int l = lw->w->types[part_id(p, x, y, z)].liquid;
				if (l && (lw->liquid == 0 || l == lw->liquid))
					return 1;
			}
	return 0;
}

/* 1 if a cell of the chunk part is a normal cube (World.isBlockNormalCube). */
static BP_ALWAYS_INLINE int normal_cube_in_part(void *ctx, const ChunkPart *p)
{
	const bp_World *w = ctx;
	if (!p->c->ids)
		return w->types[p->c->uniform].normal_cube;
	for (int y = p->a[1]; y <= p->b[1]; y++)
		for (int z = p->a[2]; z <= p->b[2]; z++)
			for (int x = p->a[0]; x <= p->b[0]; x++)
				if (w->types[part_id(p, x, y, z)].normal_cube)
					return 1;
	return 0;
}

int bp_world_normal_cube_in(bp_World *w, const bp_AABB *r)
{
	if (!w->has_normal_cube)
		return 0;
	int64_t lo[3], hi[3];
	for (int a = 0; a < 3; a++) {
		lo[a] = cell_floor(r->lo[a]);
		hi[a] = cell_floor(r->hi[a]);
	}
	return walk_chunks(w, lo, hi, 0, normal_cube_in_part, w);
}

int bp_world_liquid_in(bp_World *w, const bp_AABB *r, int liquid, int low_quirk)
{
	if (!w->liquid_blocks)
		return 0; /* no liquid anywhere: the common case costs nothing */
	int64_t lo[3], hi[3];
	bp_liquid_cells(r, lo, hi);
	for (int a = 0; a < 3; a++) {
		if (low_quirk && r->lo[a] < 0 && lo[a] > INT32_MIN)
			lo[a]--;
	}
	LiquidWalk lw = {w, liquid};
	return walk_chunks(w, lo, hi, 1, liquid_in_part, &lw);
}

int bp_world_normal_cube_in_cached(bp_World *w, const bp_GatherCache *gc,
                                   const bp_AABB *r)
{
	if (!w->has_normal_cube)
		return 0;
	int32_t lo[3], hi[3];
	if (!point_cells(r->lo[0], r->lo[1], r->lo[2], lo) ||
	    !point_cells(r->hi[0], r->hi[1], r->hi[2], hi) || !cache_covers(w, gc, lo, hi))
		return bp_world_normal_cube_in(w, r);
	/* The cache notes every non-air cell of its range. */
	for (int i = 0; i < gc->n; i++) {
		if (!w->types[gc->cell[i].id].normal_cube)
			continue;
		const int32_t x = gc->lo[0] + gc->cell[i].x, y = gc->lo[1] + gc->cell[i].y,
		              z = gc->lo[2] + gc->cell[i].z;
		if (x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] && z >= lo[2] &&
		    z <= hi[2])
			return 1;
	}
	return 0;
}
