/* SPDX-License-Identifier: MIT
 * beta173_push_out.h - Beta's pushOutOfBlocks (beta173_push_out.c).
 */
#ifndef BP_CORE_BETA173_PUSH_OUT_H
#define BP_CORE_BETA173_PUSH_OUT_H

#include "bp_world.h"

/** Beta EntityPlayerSP.pushOutOfBlocks, four times (the box's corners on X/Z drawn in
 *  to width x rules.push_out_reach from its centre, at rules.push_out_height above its
 *  feet): for each such point whose cell or the cell above is a normal cube (a full
 *  opaque cube: bp_BlockType.normal_cube), vx or vz is set to -+rules.push_out_speed
 *  (0.1F b/t) toward the nearest side whose two cells are open. Beta rules, per tick,
 *  called by bp_tick_beta173 when rules.push_out_of_blocks is set. Source:
 *  docs/beta173.md section 0; the method body and World.isBlockNormalCube
 *  as in the decompile (docs/beta173.md, "Sources of this description"). */
void bp_push_out_of_blocks(bp_World *w, bp_Entity *e);

#endif
