/* SPDX-License-Identifier: MIT
 * beta173_flow.c - the water current: which way flowing water pushes an entity in it.
 * Beta 1.7.3's World.handleMaterialAcceleration sums BlockFluid.getFlowVector over the
 * water blocks of the entity's water test range (docs/beta173.md section 5;
 * the decompilations docs/beta173.md names: BlockFluid, Vec3D, MathHelper). The sums and
 * their order are the game's, in double; each normalisation takes its length through
 * MathHelper.sqrt_double, which returns a float, as the game does.
 */
#include "beta173_flow.h"
#include "bp_world.h"
#include "query.h"

#include <math.h>

/* getEffectiveFlowDecay: -1 unless water; falling water (level 8 and up) counts as 0. */
static int flow_decay(const bp_BlockType *t)
{
	if (t->liquid != BP_LIQUID_WATER)
		return -1;
	return t->level >= 8 ? 0 : t->level;
}

/* BlockFluid.getIsBlockSolid for the sides of water: never water nor ice, else the
 * block's material. */
static int side_solid(const bp_BlockType *t)
{
	return t->liquid != BP_LIQUID_WATER && !t->ice && t->solid;
}

/* Vec3D.normalize: a length below 1e-4 gives the zero vector. */
static void normalize(double v[3])
{
	const double d = (double)(float)sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	for (int a = 0; a < 3; a++)
		v[a] = d < 1.0E-4 ? 0.0 : v[a] / d;
}

/* Falling water with a solid block beside it, at its own height or one above (the
 * game's eight getIsBlockSolid tests), is pulled down. */
static int falls_beside_solid(bp_World *w, int64_t x, int64_t y, int64_t z)
{
	static const int dx[4] = {0, 0, -1, 1}, dz[4] = {-1, 1, 0, 0};
	for (int up = 0; up <= 1; up++)
		for (int i = 0; i < 4; i++)
			if (side_solid(bp_world_type_at_cell(w, x + dx[i], y + up, z + dz[i])))
				return 1;
	return 0;
}

/* BlockFluid.getFlowVector of the water block t at (x, y, z): toward each horizontal
 * neighbour by the difference of their levels, or, past a neighbour that is neither
 * water nor solid, by the level of the water below it minus (this level - 8). */
static void flow_vector(bp_World *w, const bp_BlockType *t, int64_t x, int64_t y,
                        int64_t z, double v[3])
{
	static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, -1, 0, 1};
	const int l = flow_decay(t);
	v[0] = v[1] = v[2] = 0;
	for (int i = 0; i < 4; i++) {
		const bp_BlockType *n = bp_world_type_at_cell(w, x + dx[i], y, z + dz[i]);
		int m = flow_decay(n), k;
		if (m >= 0) {
			k = m - l;
		} else {
			if (n->solid)
				continue;
			m = flow_decay(bp_world_type_at_cell(w, x + dx[i], y - 1, z + dz[i]));
			if (m < 0)
				continue;
			k = m - (l - 8);
		}
		v[0] += (double)(dx[i] * k);
		v[2] += (double)(dz[i] * k);
	}
	if (t->level >= 8 && falls_beside_solid(w, x, y, z)) {
		normalize(v);
		v[1] += -6.0;
	}
	normalize(v);
}

int bp_world_water_flow(bp_World *w, const bp_AABB *r, double out[3])
{
	int64_t lo[3], hi[3];
	bp_liquid_cells(r, lo, hi); /* the same cells as the water test */
	double sum[3] = {0, 0, 0};
	for (int64_t x = lo[0]; x <= hi[0]; x++)
		for (int64_t y = lo[1]; y <= hi[1]; y++)
			for (int64_t z = lo[2]; z <= hi[2]; z++) {
				const bp_BlockType *t = bp_world_type_at_cell(w, x, y, z);
				if (t->liquid != BP_LIQUID_WATER)
					continue;
				double v[3];
				flow_vector(w, t, x, y, z, v);
				for (int a = 0; a < 3; a++)
					sum[a] += v[a];
			}
	/* Vec3D.lengthVector() > 0, then normalize. */
	if (!((float)sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]) > 0))
		return 0;
	normalize(sum);
	for (int a = 0; a < 3; a++)
		out[a] = sum[a];
	return 1;
}
