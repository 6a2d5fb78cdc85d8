/* SPDX-License-Identifier: MIT
 * check.c - the argument checks of the public API (blockphys.h) that the calls making
 * them share: rules (bp_rules_error, which bp_world_spawn applies), boxes of colliders
 * and triggers, and a fill's block id, corners and size. The binding checks the same
 * before calling, with its own messages, so these never fail for it. A leaf: reads
 * the world, calls nothing of the core but rules.c's table. Source: our own.
 */
#include <math.h>
#include <string.h>

#include "bp_world.h"

const char *bp_rules_error(const bp_Rules *r)
{
	if (!(r->model == BP_MODEL_BETA173 || r->model == BP_MODEL_MCCPP))
		return "model";
	if (!(r->resolver == BP_RESOLVER_AXIS || r->resolver == BP_RESOLVER_SWEPT))
		return "resolver";
	if (!(r->push >= BP_PUSH_NONE && r->push <= BP_PUSH_SEPARATE))
		return "push";
	if (!(r->integrator == BP_INTEGRATOR_EXACT || r->integrator == BP_INTEGRATOR_MCCPP))
		return "integrator";
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) { /* BP_FOR_* bit = model */
		if (!(f->models & (1 << r->model)))
			continue; /* another model's field: unused (0 in the other preset) */
		const char *p = (const char *)r + f->offset;
		int n = 1;
		double v[3];
		switch (f->kind) {
		case BP_FIELD_BOOL:
			continue; /* any int: nonzero is true */
		case BP_FIELD_INT:
			v[0] = *(const int *)p;
			break;
		case BP_FIELD_VEC3:
			memcpy(v, p, sizeof v);
			n = 3;
			break;
		default:
			memcpy(v, p, sizeof v[0]);
		}
		for (int k = 0; k < n; k++) {
			if (!(v[k] >= f->min && v[k] <= f->max))
				return f->name;
		}
	}
	return NULL;
}

/* The checks the public API adds to calls the binding checks itself first (with its
 * own messages): a locked world, a box with lo > hi or NaN, a fill's block id and
 * corners and its size (BP_MAX_FILL_CHUNKS). */
bp_Status bp_box_check(const bp_World *w, const bp_AABB *box)
{
	if (w->locked)
		return BP_ELOCKED;
	for (int a = 0; a < 3; a++) {
		if (!(box->lo[a] <= box->hi[a]))
			return BP_EINVAL;
	}
	return BP_OK;
}

bp_Status bp_fill_check(const bp_World *w, const int32_t lo[3], const int32_t hi[3], uint16_t id)
{
	if (w->locked)
		return BP_ELOCKED;
	if (id >= w->ntypes)
		return BP_EINVAL;
	double chunks = 1;
	for (int a = 0; a < 3; a++) {
		if (lo[a] > hi[a])
			return BP_EINVAL;
		/* the chunks the range touches (as the binding's fill counts them) */
		chunks *= floor((double)hi[a] / 16) - floor((double)lo[a] / 16) + 1;
	}
	return chunks > BP_MAX_FILL_CHUNKS ? BP_ELIMIT : BP_OK;
}
