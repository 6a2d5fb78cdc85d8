/* SPDX-License-Identifier: MIT
 * beta173.h - one tick of the Beta 1.7.3 rules (beta173.c).
 */
#ifndef BP_CORE_BETA173_H
#define BP_CORE_BETA173_H

#include "bp_world.h"

/** One tick of the Beta 1.7.3 rules for entity slot `index`: water/lava tests, input,
 *  jump (or the jump hook), heading (or the heading hook), movement branch (water, lava,
 *  ladder, ground/air), move by rules.resolver, gravity, drag, friction. Units:
 *  blocks/tick. Ends with the Beta push when rules.push is "beta173". Returns nonzero
 *  if a hook or filter aborted or a heading hook's change passed BP_MAX_MOVE (the
 *  entity may be partly updated). Source: docs/beta173.md sections 0, 1
 *  (heading), 2, 5, 6 (push), 8. */
int bp_tick_beta173(bp_World *w, uint32_t index, const bp_Hooks *hooks);

#endif
