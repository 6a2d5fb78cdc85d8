/* SPDX-License-Identifier: MIT
 * step.c - one step of the whole world: every entity in creation order runs its
 * rules and resolver, then the positional separation push, then every entity
 * becomes stable. Structural changes are refused while the world is locked.
 */
#include "blockphys.h"

#include <math.h>

double bp_world_max_displacement(const bp_World *w, double dt)
{
	const bp_EntityPool *p = &w->entities;
	double m = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		const bp_Entity *e = &p->items[p->order[i]];
		double scale = e->rules.model == BP_MODEL_MCCPP ? dt : 1.0;
		for (int a = 0; a < 3; a++)
			m = fmax(m, fabs(e->vel[a]) * scale);
	}
	return m;
}

int bp_world_step(bp_World *w, double dt, const bp_Hooks *hooks)
{
	bp_EntityPool *p = &w->entities;
	w->locked = 1;
	for (uint32_t i = 0; i < p->norder; i++) {
		uint32_t index = p->order[i];
		int rc = p->items[index].rules.model == BP_MODEL_MCCPP
		             ? bp_tick_mccpp(w, index, dt, hooks)
		             : bp_tick_beta173(w, index, hooks);
		if (rc) {
			w->locked = 0;
			return rc;
		}
	}
	bp_push_separate(w, dt);
	for (uint32_t i = 0; i < p->norder; i++)
		p->items[p->order[i]].stable = 1;
	w->locked = 0;
	return 0;
}
