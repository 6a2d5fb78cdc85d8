/* SPDX-License-Identifier: MIT
 * beta173_flow.h - the water current of Beta's liquids (beta173_flow.c).
 */
#ifndef BP_CORE_BETA173_FLOW_H
#define BP_CORE_BETA173_FLOW_H

#include "bp_world.h"

/** The direction of the water current through the integer block range floor(lo) ..
 *  floor(hi + 1) - 1 of `region` (Beta's handleMaterialAcceleration for water): the
 *  flow vectors of its water blocks (BlockFluid.getFlowVector, from the levels of each
 *  one's four neighbours, the blocks below those that are not solid, and for falling
 *  water a downward pull beside solid blocks) summed in x, y, z order, then normalised
 *  with a float length. Writes out and returns 1 if the sum is not zero, else returns
 *  0. Cost: 17 cell lookups per water cell of the range. Source:
 *  docs/beta173.md section 5, and the decompile's BlockFluid and Vec3D
 *  (docs/beta173.md, "Sources of this description"). */
int bp_world_water_flow(bp_World *w, const bp_AABB *region, double out[3]);

#endif
