/* SPDX-License-Identifier: MIT
 * tick_mccpp.c - MC-CPP rules (placeholder until the swept issue).
 */
#include "blockphys.h"

int bp_tick_mccpp(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks)
{
	(void)dt;
	return bp_tick_beta173(w, index, hooks);
}
