/* SPDX-License-Identifier: MIT
 * bp_visitors.h - the box visitors shared by the world's gathers (query.c) and the
 * solid-entity gathers (solid.c): clip, stop at the first box, collect into an array.
 * Internal: inline so that each gather calls them directly. Plain inline, not
 * BP_ALWAYS_INLINE: the walkers take them as pointers, and GCC at -Og does not inline
 * through a pointer, which for an always_inline function is an error.
 */
#ifndef BP_VISITORS_H
#define BP_VISITORS_H

#include "bp_aabb.h"

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
