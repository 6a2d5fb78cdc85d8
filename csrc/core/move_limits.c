/* SPDX-License-Identifier: MIT
 * move_limits.c - the velocity limits of a step (see move_limits.h). A leaf: the
 * step, the ticks and the pushes call it, and it calls nothing back.
 */
#include "move_limits.h"

#include <math.h>

#include "bp_base.h"

void bp_tick_displacement(const double v[3], double d[3])
{
	for (int a = 0; a < 3; a++)
		d[a] = fmax(-BP_MAX_MOVE, fmin(BP_MAX_MOVE, v[a]));
}

double bp_velocity_limit(double scale)
{
	double lim = BP_MAX_MOVE / scale;
	while (lim * scale > BP_MAX_MOVE)
		lim = nextafter(lim, 0);
	return lim;
}

void bp_clamp_velocity(double limit, double v[3])
{
	if (fabs(v[0]) <= limit && fabs(v[1]) <= limit && fabs(v[2]) <= limit)
		return; /* the common case */
	for (int a = 0; a < 3; a++)
		v[a] = fmax(-limit, fmin(limit, v[a]));
}

int bp_over_limit(double c0, double c2, double *by)
{
	if (fabs(c0) <= BP_MAX_MOVE && fabs(c2) <= BP_MAX_MOVE)
		return 0;
	*by = fmax(fabs(c0), fabs(c2));
	return 1;
}
