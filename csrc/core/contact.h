/* SPDX-License-Identifier: MIT
 * contact.h - what a move did, noted by the move seam (contact.c); the contact and
 * ground queries are public (blockphys.h).
 */
#ifndef BP_CORE_CONTACT_H
#define BP_CORE_CONTACT_H

#include "blockphys.h"

/** After a move of e by d (blocks) that started with velocity v0 (e's units): the
 *  step's outcome (flags OR-ed over its moves, the landing kept), the faces stopped and
 *  how far the move reached, a hit event for each face that stops it now and did not
 *  stop it earlier in this step or in the step before (at least hit_speed fast), and a
 *  land event when it landed. Source: our own. */
void bp_contact_note(bp_World *w, bp_Entity *e, const double d[3], const double v0[3]);

#endif
