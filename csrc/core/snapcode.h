/* SPDX-License-Identifier: MIT
 * snapcode.h - coding a snapshot's body (snapcode.c) and one entity (entcode.c), shared
 * by the image and hash (snapimage.c) and entity export (export.c).
 */
#ifndef BP_CORE_SNAPCODE_H
#define BP_CORE_SNAPCODE_H

#include "codec.h"
#include "snapshot.h"

/** Code a double that must be finite when read, and a box (finite, lo <= hi, within
 *  range when read). Source: our own. */
void bp_code_finite(bp_Coder *c, double *v);
void bp_code_box(bp_Coder *c, bp_AABB *b);

/* Hashing: an entity's rules enter the digest as the digest of their coded bytes, and
 * entities in a row with the same rules (the usual case: one rules table for a
 * crowd) reuse it. The struct is compared byte for byte (padding included), so a
 * difference in padding alone only costs a recomputation of the same digest. */
typedef struct bp_RulesMemo {
	int valid;
	bp_Rules raw;
	uint64_t digest;
} bp_RulesMemo;

/** Code a snapshot's body, every section in format order (snapcode.c); a HASH coder
 *  leaves the host's values out. Source: our own. */
void bp_code_snapshot(bp_Coder *c, bp_Snapshot *s);

/** Code an entity's fields (all but its slot state: alive, generation, gather cache)
 *  and its inputs, in the format's order; reading checks what a step relies on. Source:
 *  our own. */
void bp_code_entity(bp_Coder *c, bp_Entity *e, bp_EntityInput *in);

#endif
