/* SPDX-License-Identifier: MIT
 * beta173_push_out.c - Beta's pushOutOfBlocks: a player whose box corners lie inside full
 * opaque cubes (a block placed into it, say) gets a velocity of 0.1F b/t toward the
 * nearest open side. docs/beta173.md section 0 (EntityPlayerSP's
 * onLivingUpdate calls it four times, after the sneak dip); the body and
 * World.isBlockNormalCube as in the decompilations docs/beta173.md names.
 */
#include "beta173_push_out.h"
#include "bp_world.h"
#include "query.h"

#include <math.h>

/* World.isBlockNormalCube at a cell (int64: a neighbour may lie past the int32 grid,
 * which is air). */
static int normal_cube(bp_World *w, int64_t x, int64_t y, int64_t z)
{
	return bp_world_type_at_cell(w, x, y, z)->normal_cube;
}

/* Both the cell and the one above it are open (not normal cubes). */
static int open2(bp_World *w, int64_t x, int64_t y, int64_t z)
{
	return !normal_cube(w, x, y, z) && !normal_cube(w, x, y + 1, z);
}

/* One pushOutOfBlocks(px, py, pz): if the cell of the point or the one above it is a
 * normal cube, the open side nearest the point along X or Z (the first of -X, +X, -Z,
 * +Z on a tie; both cells of that side open) sets vx or vz to -+speed. */
static void push_point(bp_World *w, bp_Entity *e, double px, double py, double pz,
                       double speed)
{
	if (!(isfinite(px) && isfinite(py) && isfinite(pz)) || fabs(px) > 4e9 ||
	    fabs(py) > 4e9 || fabs(pz) > 4e9)
		return; /* past the grid: air */
	const int64_t i = (int64_t)floor(px), j = (int64_t)floor(py), k = (int64_t)floor(pz);
	if (open2(w, i, j, k))
		return;
	const double fx = px - (double)i, fz = pz - (double)k;
	int side = -1;
	double best = 9999.0;
	if (open2(w, i - 1, j, k) && fx < best) {
		best = fx;
		side = 0;
	}
	if (open2(w, i + 1, j, k) && 1.0 - fx < best) {
		best = 1.0 - fx;
		side = 1;
	}
	if (open2(w, i, j, k - 1) && fz < best) {
		best = fz;
		side = 4;
	}
	/* The game does not lower `best` here (a decompiled dead store): +Z wins whenever it
	 * beats the best so far, as below. */
	if (open2(w, i, j, k + 1) && 1.0 - fz < best)
		side = 5;
	if (side == 0)
		e->vel[0] = -speed;
	else if (side == 1)
		e->vel[0] = speed;
	else if (side == 4)
		e->vel[2] = -speed;
	else if (side == 5)
		e->vel[2] = speed;
}

/* Whether a normal cube lies among the cells the four points test: the columns of
 * x -+ d and z -+ d, at the cells of y and y + 1. Most ticks it finds none, and the
 * points need no more lookups. The entity's gather cache usually holds those cells
 * (its last move's region covers its box), so the test reads no chunk. */
static int any_normal_cube(bp_World *w, const bp_Entity *e, double x, double y, double z,
                           double d)
{
	const double ad = fabs(d);
	bp_AABB cells = {{x - ad, y, z - ad}, {x + ad, floor(y) + 1, z + ad}};
	return bp_world_normal_cube_in_cached(w, &e->gather, &cells);
}

void bp_push_out_of_blocks(bp_World *w, bp_Entity *e)
{
	const bp_Rules *r = &e->rules;
	double pos[3];
	bp_entity_position(e, pos);
	const double d = e->width * r->push_out_reach, y = e->box.lo[1] + r->push_out_height;
	if (!any_normal_cube(w, e, pos[0], y, pos[2], d))
		return;
	push_point(w, e, pos[0] - d, y, pos[2] + d, r->push_out_speed);
	push_point(w, e, pos[0] - d, y, pos[2] - d, r->push_out_speed);
	push_point(w, e, pos[0] + d, y, pos[2] - d, r->push_out_speed);
	push_point(w, e, pos[0] + d, y, pos[2] + d, r->push_out_speed);
}
