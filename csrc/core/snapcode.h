/* SPDX-License-Identifier: MIT
 * snapcode.h - coding one entity (snapcode.c), shared by snapshots and entity export
 * (export.c).
 */
#ifndef BP_CORE_SNAPCODE_H
#define BP_CORE_SNAPCODE_H

#include "codec.h"
#include "snapshot.h"

/** Code an entity's fields (all but its slot state: alive, generation, gather cache)
 *  and its inputs, in the format's order; reading checks what a step relies on. Source:
 *  our own. */
void bp_code_entity(bp_Coder *c, bp_Entity *e, bp_EntityInput *in);

#endif
