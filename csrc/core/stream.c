/* SPDX-License-Identifier: MIT
 * stream.c - streamed worlds: whole chunks loaded from bytes and unloaded, and
 * unloaded space, which blocks like a solid block (it reads as a full-cube block type
 * defined on first use, so every resolver, sweep and ray sees it without a test of its
 * own) and freezes the entities that touch it. The grid side is in chunk.c. Our own
 * design; Luanti stops entities at "ignore" nodes and Minecraft does not tick entities
 * in unloaded chunks, which is the behaviour asked for here (docs/streaming.md).
 */
#include "bp_world.h"
#include "chunk.h"
#include "sleep.h"

#include <math.h>

/* The unloaded block type: defined once, on first use. */
static bp_Status ensure_unloaded_type(bp_World *w)
{
	if (w->unloaded_id)
		return BP_OK;
	bp_BlockDef def = bp_default_block_def(); /* a full cube, solid */
	def.name = BP_UNLOADED_NAME;
	def.normal_cube = 0; /* Beta's pushOutOfBlocks does not push out of it */
	uint16_t id;
	bp_Status st = bp_world_define_block(w, &def, &id);
	if (st != BP_OK)
		return st;
	w->unloaded_id = id;
	w->unloaded_chunk.uniform = id;
	return BP_OK;
}

bp_Status bp_world_set_unset(bp_World *w, int unloaded)
{
	if (unloaded) {
		bp_Status st = ensure_unloaded_type(w);
		if (st != BP_OK)
			return st;
	}
	if (w->unset_unloaded != !!unloaded) {
		w->block_version++;
		w->stream_version++;
		bp_sleep_wake_all(w);
	}
	w->unset_unloaded = !!unloaded;
	return BP_OK;
}

int bp_world_unset_unloaded(const bp_World *w)
{
	return w->unset_unloaded;
}

uint16_t bp_world_unloaded_id(const bp_World *w)
{
	return w->unloaded_id;
}

bp_Status bp_world_load_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz,
                              const unsigned char *data, uint32_t *bad)
{
	bp_Status st = bp_chunk_load(w, cx, cy, cz, data, bad);
	w->stream_version += st == BP_OK;
	return st;
}

bp_Status bp_world_unload_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz)
{
	bp_Status st = ensure_unloaded_type(w);
	if (st == BP_OK)
		st = bp_chunk_unload(w, cx, cy, cz);
	w->stream_version += st == BP_OK;
	return st;
}

int bp_world_chunk_data(bp_World *w, int32_t cx, int32_t cy, int32_t cz, unsigned char *out)
{
	return bp_chunk_read(w, cx, cy, cz, out);
}

/* The chunks of the cells that the closed interval [lo, hi] of one axis touches (cell c
 * spans [c, c + 1]: from ceil(lo) - 1 to floor(hi)), within the int32 grid (outside it
 * is air): 0 when it misses the grid. */
static int axis_chunks(double lo, double hi, int64_t *a, int64_t *b)
{
	const double end = (double)INT32_MAX + 1;
	if (!(hi >= (double)INT32_MIN && lo <= end))
		return 0;
	double l = lo <= (double)INT32_MIN ? (double)INT32_MIN : ceil(lo) - 1;
	double h = hi >= end ? (double)INT32_MAX : floor(hi);
	*a = (int64_t)floor(l / 16);
	*b = (int64_t)floor(h / 16);
	return 1;
}

/* Chunk of a cell within +-2^30 (no signed shift: offset, then unsigned). */
static inline int64_t near_chunk(int32_t v)
{
	return (int64_t)((uint32_t)(v + 0x40000000) >> 4) - 0x4000000;
}

/* The chunks [a, b] a closed box touches; 0 when it misses the int32 grid. Every
 * step asks this of every entity in a streamed world: within +-2^30 (every entity in
 * practice) it takes casts and compares, not libm's floor and ceil. */
static int box_chunks(const bp_AABB *box, int64_t a[3], int64_t b[3])
{
	int near = 1;
	for (int k = 0; k < 3; k++)
		near &= box->lo[k] > -0x1p30 && box->hi[k] < 0x1p30 && box->lo[k] <= box->hi[k];
	if (near) {
		for (int k = 0; k < 3; k++) {
			int32_t l = (int32_t)box->lo[k], h = (int32_t)box->hi[k];
			l += (double)l < box->lo[k]; /* ceil */
			h -= (double)h > box->hi[k]; /* floor */
			a[k] = near_chunk(l - 1);
			b[k] = near_chunk(h);
		}
		return 1;
	}
	for (int k = 0; k < 3; k++) {
		if (!axis_chunks(box->lo[k], box->hi[k], &a[k], &b[k]))
			return 0;
	}
	return 1;
}

/* Whether any of the chunks [a, b] is unloaded. */
static int chunks_unloaded(bp_World *w, const int64_t a[3], const int64_t b[3])
{
	/* An entity's box spans a few chunks; any box is bounded by the caller's limits,
	 * and the count is capped here so that no call runs long. */
	if ((b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1) > 4096)
		return 1;
	for (int64_t cy = a[1]; cy <= b[1]; cy++)
		for (int64_t cz = a[2]; cz <= b[2]; cz++)
			for (int64_t cx = a[0]; cx <= b[0]; cx++)
				if (bp_chunk_is_unloaded(w, (int32_t)cx, (int32_t)cy, (int32_t)cz))
					return 1;
	return 0;
}

int bp_world_box_unloaded(bp_World *w, const bp_AABB *box)
{
	if (!w->unset_unloaded && !w->unloaded_chunks)
		return 0;
	int64_t a[3], b[3];
	return box_chunks(box, a, b) && chunks_unloaded(w, a, b);
}

/* Whether entity e's box touches unloaded space. The answer is kept in the entity with
 * the chunks it covers: a walker stays within the same chunks for many ticks, and
 * nothing it does can load or unload one, so most steps reuse it instead of looking
 * chunks up (a streamed crowd would otherwise pay a few hash lookups per entity). */
int bp_entity_frozen(bp_World *w, bp_Entity *e)
{
	int64_t a[3], b[3];
	if (!box_chunks(&e->box, a, b))
		return 0;
	uint32_t span = 0;
	int cacheable = 1;
	for (int k = 0; k < 3; k++) {
		cacheable &= b[k] - a[k] < 1024;
		span = span << 10 | (uint32_t)((b[k] - a[k]) & 1023);
	}
	if (cacheable && e->stream_seen == w->stream_version && e->stream_span == span &&
	    e->stream_lo[0] == a[0] && e->stream_lo[1] == a[1] && e->stream_lo[2] == a[2])
		return e->frozen;
	const int frozen = chunks_unloaded(w, a, b);
	e->stream_seen = cacheable ? w->stream_version : 0;
	e->stream_span = span;
	for (int k = 0; k < 3; k++)
		e->stream_lo[k] = (int32_t)a[k];
	return frozen;
}
