/* SPDX-License-Identifier: MIT
 * solid.h - what blocks a move: blocks, static colliders and solid entities, with
 * the entity filters (solid.c). Each function below also counts the one-way boxes
 * (one-way block types and colliders) that block `self`: those whose open side
 * self's box (self->box, its box at the start of the move) lies wholly on; with self
 * NULL, none. Source: our own (docs/mechanics.md, "One-way blocks").
 */
#ifndef BP_CORE_SOLID_H
#define BP_CORE_SOLID_H

#include "bp_world.h"
#include "query.h"

/** Clip displacement d (blocks) of box m along axis (BP_X/Y/Z) against blocks, static
 *  colliders and the solid entities that block `self` (never self; self may be NULL).
 *  Returns the allowed displacement. `within`: see bp_world_clip_axis. Source:
 *  docs/beta173.md sections 3-4 (entities' collision boxes in the gather). */
double bp_clip(bp_World *w, const bp_Entity *self, const bp_AABB *m, int axis, double d,
               const bp_AABB *within);
/** True if any blocking box (blocks, colliders, solid entities but self) overlaps region
 *  (blocks).
 *  Source: docs/beta173.md section 4 (blocks and solid entities); static
 *  colliders: our own. */
int bp_blocked(bp_World *w, const bp_Entity *self, const bp_AABB *region);
/** Copy every blocking box overlapping region (blocks, colliders, then solid entities
 *  but self) into out, at most cap; returns the count, or -1 if there are more or the
 *  region spans more than max_cells cells. cache: see bp_world_collect (may be NULL).
 *  Source: as bp_blocked. */
int bp_collect_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                        bp_AABB *out, int cap, double max_cells, bp_GatherCache *cache);
/** Visit every blocking box overlapping region (blocks and colliders, then solids).
 *  Returns the first nonzero value of fn (the walk stops there), else 0. Source: as
 *  bp_blocked. */
int bp_visit_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                      bp_BoxVisitor fn, void *ctx);
/** Group/mask filter: a and b interact if each one's mask has the other's group.
 *  Source: our own (docs/entities.md, "Filtering"). */
int bp_entities_interact(const bp_Entity *a, const bp_Entity *b);
/** Groups and masks, then the entity filters (w->hooks->filter, a's first): true if
 *  a and b push or block each other. A failing filter sets w->hook_failed and the
 *  pair does not interact (the step then aborts). Source: our own (docs/entities.md,
 *  "Filtering"). */
int bp_pair_interacts(bp_World *w, const bp_Entity *a, const bp_Entity *b);

#endif
