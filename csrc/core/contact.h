/* SPDX-License-Identifier: MIT
 * contact.h - what a move did, noted by the move seam (contact.c); the contact and
 * ground queries are public (blockphys.h).
 */
#ifndef BP_CORE_CONTACT_H
#define BP_CORE_CONTACT_H

#include "bp_world.h"

#include <math.h>

/** The slow half of bp_contact_note, for faces that begin to stop e in this move: hit
 *  events (at least hit_speed fast), and the landing (landing_fall, a land event) when
 *  the floor is among them. Source: our own. */
void bp_contact_fresh(bp_World *w, bp_Entity *e, uint8_t fresh, const double d[3]);

/** After a move of e by d (blocks): the
 *  step's outcome (flags OR-ed over its moves), the faces stopped and how far the move
 *  reached, and for each face that stops it now and did not stop it earlier in this
 *  step or in the step before, bp_contact_fresh. Inline: every move of every tick runs
 *  it, and a walker on the ground does little more than two tests. Source: our own. */
static inline void bp_contact_note(bp_World *w, bp_Entity *e, const double d[3])
{
	e->out_coll_h |= e->coll_h;
	e->out_coll_v |= e->coll_v;
	const uint8_t ms = e->move_stops;
	if (e->prev_stops & ~ms) {
		/* An axis the move did not move along keeps its contacts: it neither met nor
		 * left them (MC-CPP's own integrator alternates a still move and a stopped one
		 * on the ground, which must not begin the floor contact again every other
		 * tick). */
		for (int a = 0; a < 3; a++) {
			if (d[a] == 0)
				e->stops |= (uint8_t)(e->prev_stops & 3u << (2 * a));
		}
	}
	if (!ms)
		return;
	/* Floors are the common stop: Y first, X and Z only when they stopped. */
	if ((ms & 0x0C) && fabs(d[1]) > e->stop_reach)
		e->stop_reach = fabs(d[1]);
	if (ms & 0x33) {
		if ((ms & 0x03) && fabs(d[0]) > e->stop_reach)
			e->stop_reach = fabs(d[0]);
		if ((ms & 0x30) && fabs(d[2]) > e->stop_reach)
			e->stop_reach = fabs(d[2]);
	}
	const uint8_t fresh = (uint8_t)(ms & ~(e->stops | e->prev_stops));
	e->stops |= ms;
	if (fresh)
		bp_contact_fresh(w, e, fresh, d);
}

#endif
