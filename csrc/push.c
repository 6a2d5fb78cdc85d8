/* SPDX-License-Identifier: MIT
 * push.c - entity-entity pushing. (Placeholder until the entity-entity issue:
 * no broadphase yet, so pushing is off.)
 */
#include "blockphys.h"

void bp_push_beta173(bp_World *w, uint32_t index)
{
	(void)w;
	(void)index;
}

void bp_push_separate(bp_World *w, double dt)
{
	(void)w;
	(void)dt;
}
