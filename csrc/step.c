/* SPDX-License-Identifier: MIT
 * step.c - one step of the whole world: every entity in creation order runs its
 * rules and resolver (the Beta velocity push ends each Beta tick), then the
 * positional separation push, then every entity becomes stable. Structural changes
 * are refused while the world is locked. The broadphase is told of each move.
 */
#include "blockphys.h"

#include <math.h>

double bp_world_max_displacement(const bp_World *w, double dt, uint32_t *slot)
{
	const bp_EntityPool *p = &w->entities;
	double m = 0;
	*slot = UINT32_MAX;
	for (uint32_t i = 0; i < p->norder; i++) {
		const bp_Entity *e = &p->items[p->order[i]];
		double scale = e->rules.model == BP_MODEL_MCCPP ? dt : 1.0;
		for (int a = 0; a < 3; a++) {
			double d = fabs(e->vel[a]) * scale;
			if (d > m || *slot == UINT32_MAX) {
				m = d;
				*slot = p->order[i];
			}
		}
	}
	return m;
}

void bp_tick_displacement(const double v[3], double d[3])
{
	for (int a = 0; a < 3; a++)
		d[a] = fmax(-BP_MAX_MOVE, fmin(BP_MAX_MOVE, v[a]));
}

/* The largest |v| with |v| x scale <= BP_MAX_MOVE, the step's pre-check: 1024 / dt
 * may round so that multiplied by dt again it exceeds 1024. */
static double velocity_limit(double scale)
{
	double lim = BP_MAX_MOVE / scale;
	while (lim * scale > BP_MAX_MOVE)
		lim = nextafter(lim, 0);
	return lim;
}

void bp_clamp_velocity(const bp_World *w, bp_Entity *e)
{
	const double lim = w->vel_limit[e->rules.model];
	double *v = e->vel;
	if (fabs(v[0]) <= lim && fabs(v[1]) <= lim && fabs(v[2]) <= lim)
		return; /* the common case */
	for (int a = 0; a < 3; a++)
		v[a] = fmax(-lim, fmin(lim, v[a]));
}

int bp_heading_over_limit(bp_World *w, uint32_t index, double c0, double c2)
{
	if (fabs(c0) <= BP_MAX_MOVE && fabs(c2) <= BP_MAX_MOVE)
		return 0;
	w->over_limit = index + 1;
	w->over_by = fmax(fabs(c0), fabs(c2));
	return 1;
}

static int step_end(bp_World *w, int rc)
{
	w->locked = 0;
	w->ticking = 0;
	w->hooks = NULL;
	w->hook_failed = 0; /* reported through rc: a later e:move must not see it */
	return rc;
}

int bp_world_step(bp_World *w, double dt, const bp_Hooks *hooks)
{
	bp_EntityPool *p = &w->entities;
	w->locked = 1;
	w->hooks = hooks;
	w->hook_failed = 0;
	w->over_limit = 0;
	w->step_dt = dt;
	w->vel_limit[BP_MODEL_BETA173] = BP_MAX_MOVE; /* per tick */
	w->vel_limit[BP_MODEL_MCCPP] = velocity_limit(dt);
	w->broad.nresults = 0; /* no query is in flight between steps */
	/* Whether the separation push has work is noted while each entity is at hand: at
	 * N = 10,000 another pass over every entity costs cache misses. A hook that
	 * changed some rules mid-step makes the push look for itself. */
	const uint32_t writes = w->rules_writes;
	int separate = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		uint32_t index = p->order[i];
		w->ticking = index + 1;
		int rc = p->items[index].rules.model == BP_MODEL_MCCPP
		             ? bp_tick_mccpp(w, index, dt, hooks)
		             : bp_tick_beta173(w, index, hooks);
		separate |= p->items[index].rules.push == BP_PUSH_SEPARATE;
		bp_clamp_velocity(w, &p->items[index]); /* so that the next step can start */
		bp_broadphase_moved(w, index);
		if (rc || w->hook_failed)
			return step_end(w, 1);
	}
	w->ticking = 0;
	if (separate || w->rules_writes != writes)
		bp_push_separate(w, dt);
	if (w->hook_failed)
		return step_end(w, 1);
	if (w->unstable) { /* only spawns and the separation push make entities unstable */
		for (uint32_t i = 0; i < p->norder; i++)
			p->items[p->order[i]].stable = 1;
		w->unstable = 0;
	}
	return step_end(w, 0);
}
