/* SPDX-License-Identifier: MIT
 * move.c - the move seam: every resolver call of a tick or of a script's e:move goes
 * through here, so that what a move did (stopped faces, landings, the outcome of a
 * split step) is noted in one place (contact.c) whichever rules and resolver run it.
 */
#include "move.h"
#include "contact.h"

void bp_outcome_begin(bp_Entity *e)
{
	e->prev_stops = e->stops;
	e->stops = 0;
	e->out_coll_h = 0;
	e->out_coll_v = 0;
	e->out_landing = 0;
	/* stop_reach is kept: contacts carried over a still move (bp_contact_note) are
	 * found with it. */
}

bp_Status bp_move_by(bp_World *w, bp_Entity *e, int swept, const double d[3], double out[3])
{
	/* The velocity the move starts with: a hit's approach speed (the resolver zeroes
	 * the stopped axes). */
	const double v0[3] = {e->vel[0], e->vel[1], e->vel[2]};
	/* d may be e->vel itself (Beta moves by its velocity), which the resolver zeroes
	 * on the stopped axes: the request is kept for the note. */
	const double req[3] = {d[0], d[1], d[2]};
	const bp_Status st = swept ? bp_move_swept(w, e, req, out) : bp_move_axis(w, e, req, out);
	if (st == BP_OK)
		bp_contact_note(w, e, req, v0);
	return st;
}

bp_Status bp_move(bp_World *w, bp_Entity *e, const double d[3], double out[3])
{
	return bp_move_by(w, e, e->rules.resolver == BP_RESOLVER_SWEPT, d, out);
}
