/* SPDX-License-Identifier: MIT
 * mccpp_stages.c - the MC-CPP rules' native stages, which both integrators (mccpp.c,
 * mccpp_exact.c) and the hooks' native_heading / native_jump call: input to
 * acceleration, and the jump. A leaf: it calls nothing else in the core.
 */
#include "bp_world.h"
#include "mccpp.h"

#include <math.h>

#define DEG_TO_RAD 0.017453292519943295

/* Input to a horizontal acceleration (b/s^2), Beta's moveFlying convention in
 * double precision: yaw 0 faces +Z, strafe > 0 is left (+X at yaw 0); input longer
 * than 1 is normalised so that diagonals are not faster. */
void bp_heading_mccpp(double yaw, double s, double f, double k, double a[2])
{
	double len = sqrt(s * s + f * f);
	double scale = k / fmax(1.0, len);
	s *= scale;
	f *= scale;
	double sn = sin(yaw * DEG_TO_RAD), cs = cos(yaw * DEG_TO_RAD);
	a[0] = s * cs - f * sn;
	a[1] = f * cs + s * sn;
}

double bp_jump_speed_mccpp(const bp_Rules *r)
{
	const double g = r->gravity, s = 2 * r->jump_height * g;
	if (!(s > 0))
		return 0.0; /* as the documents: no jump without positive gravity */
	const double v0 = sqrt(s), tau = r->reference_dt;
	/* The documents' explicit Euler rise from v0 (no vertical drag while rising): with
	 * v0 / (g tau) = N + rho, the apex overshoots h by (g tau^2 / 2)(N + 2 rho - rho^2),
	 * between v0 tau / 2 and v0 tau / 2 + g tau^2 / 8. */
	const double q = v0 / (g * tau);
	double over;
	if (q < 0x1p52) {
		const double n = floor(q), rho = q - n;
		over = g * tau * tau / 2 * (n + 2 * rho - rho * rho);
	} else {
		over = v0 * tau / 2; /* rho's part is below the rounding of n */
	}
	return sqrt(2 * g * (r->jump_height + over));
}

void bp_jump_mccpp(bp_Entity *e)
{
	if (e->rules.integrator != BP_INTEGRATOR_MCCPP) {
		/* "exact": no ground jump in liquid (jump held swims up there) */
		if (e->on_ground && !e->in_water && !e->in_lava)
			e->vel[1] = bp_jump_speed_mccpp(&e->rules);
		return;
	}
	if (e->on_ground) { /* v = sqrt(2 h g); no jump without positive gravity */
		const double s = 2 * e->rules.jump_height * e->rules.gravity;
		e->vel[1] = s > 0 ? sqrt(s) : 0.0; /* not fmax(0, s): its sign of 0 is unspecified */
	}
}
