/* SPDX-License-Identifier: MIT
 * move_swept.c - the swept-AABB resolver (placeholder until the swept issue).
 */
#include "blockphys.h"

bp_Status bp_move_swept(bp_World *w, bp_Entity *e, const double d[3], double out[3])
{
	return bp_move_axis(w, e, d, out);
}
