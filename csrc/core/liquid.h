/* SPDX-License-Identifier: MIT
 * liquid.h - Beta's water, lava and ladder tests, shared by the Beta tick (beta173.c)
 * and the MC-CPP "exact" integrator (mccpp_exact.c), so that both models set
 * e->in_water and e->in_lava from the same boxes. Inline: the Beta tick runs them
 * for every entity.
 */
#ifndef BP_CORE_LIQUID_H
#define BP_CORE_LIQUID_H

#include "bp_world.h"
#include "query.h"
#include "solid.h"

/** The box of Beta's handleWaterMovement for an entity box b under rules r: b shrunk by
 *  rules.water_inset_y (0.4F) on Y, then by 0.001 on every side. Two steps as in the
 *  game (expand, then contract): one combined 0.401 rounds differently and can move a
 *  face across a cell boundary. Source: docs/beta173.md sections 5 and 9.1. */
static inline bp_AABB bp_water_test_box(const bp_AABB *b, const bp_Rules *r)
{
	bp_AABB t = bp_aabb_expand(b, 0, -r->water_inset_y, 0);
	return bp_aabb_expand(&t, -0.001, -0.001, -0.001);
}

/** Whether an entity with box b and rules r is in water by Beta's test (any water block
 *  in the range of bp_water_test_box); 0 at once in a world without liquid blocks.
 *  Source: docs/beta173.md section 5. */
static inline int bp_in_water_at(bp_World *w, const bp_AABB *b, const bp_Rules *r)
{
	if (!w->liquid_blocks)
		return 0; /* no liquid in the world: skip building the test box */
	const bp_AABB t = bp_water_test_box(b, r);
	return bp_world_liquid_in(w, &t, BP_LIQUID_WATER, 0);
}

/** Beta's handleLavaMovement for box b under rules r: any lava block in the range of b
 *  shrunk by rules.lava_inset_xz (0.1F) on X/Z and rules.water_inset_y (0.4F) on Y, no
 *  0.001 contraction. Source: docs/beta173.md sections 5 and 9.1. */
static inline int bp_in_lava_at(bp_World *w, const bp_AABB *b, const bp_Rules *r)
{
	if (!w->liquid_blocks)
		return 0;
	bp_AABB t = bp_aabb_expand(b, -r->lava_inset_xz, -r->water_inset_y, -r->lava_inset_xz);
	return bp_world_liquid_in(w, &t, BP_LIQUID_LAVA, 0);
}

/** Beta's isOnLadder for box b: the block at (floor(x), floor(minY), floor(z)) of its
 *  position (the centre of the box on X and Z) is climbable. Source:
 *  docs/beta173.md section 8. */
static inline int bp_on_ladder_at(bp_World *w, const bp_AABB *b)
{
	if (!w->has_climbable)
		return 0;
	const double x = (b->lo[0] + b->hi[0]) / 2, z = (b->lo[2] + b->hi[2]) / 2;
	return bp_world_type_at(w, x, b->lo[1], z)->climbable;
}

/** The three tests above for entity e at its box. */
static inline int bp_in_water(bp_World *w, const bp_Entity *e)
{
	return bp_in_water_at(w, &e->box, &e->rules);
}

static inline int bp_in_lava(bp_World *w, const bp_Entity *e)
{
	return bp_in_lava_at(w, &e->box, &e->rules);
}

static inline int bp_on_ladder(bp_World *w, const bp_Entity *e)
{
	return bp_on_ladder_at(w, &e->box);
}

/** Beta's isOffsetPositionInLiquid: the entity box offset by (dx, dy, dz) blocks
 *  touches no blocking box and no liquid. Source: docs/beta173.md section 5
 *  ("Breach"). */
static inline int bp_offset_free(bp_World *w, const bp_Entity *e, double dx, double dy,
                                 double dz)
{
	bp_AABB b = bp_aabb_offset(&e->box, dx, dy, dz);
	return !bp_blocked(w, e, &b) && !bp_world_liquid_in(w, &b, 0, 1);
}

#endif
