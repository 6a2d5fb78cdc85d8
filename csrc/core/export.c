/* SPDX-License-Identifier: MIT
 * export.c - one entity's whole state as bytes, and a new entity made from them in
 * any world (region hand-off): the entity coding of snapshots (snapcode.c) inside a
 * small image of its own. Source: our own.
 *
 * Image, version 1 (little-endian): "BPEN", u32 version, u64 body length, the entity
 * and its inputs (bp_code_entity), u64 digest of everything before it.
 */
#include "bp_world.h"
#include "broadphase.h"
#include "codec.h"
#include "snapcode.h"

#include <string.h>

#define MAGIC 0x4E455042u /* "BPEN" */

size_t bp_entity_export(bp_World *w, bp_EntityId id, void *buf, size_t cap)
{
	bp_Entity *e = bp_world_entity(w, id);
	if (!e)
		return 0;
	bp_Entity copy = *e;
	bp_EntityInput in = *bp_entity_input(w, e);
	bp_Coder c = bp_coder(BP_CODE_WRITE, buf, buf ? cap : 0);
	bp_image_begin(&c, MAGIC, BP_SNAPSHOT_VERSION);
	bp_code_entity(&c, &copy, &in);
	return bp_image_end(&c);
}

/* Read an exported entity into *e and *in (zeroed first); NULL, or the problem. */
static const char *read_entity(const void *bytes, size_t n, bp_Entity *e, bp_EntityInput *in)
{
	bp_Coder c;
	const char *why = bp_image_open(&c, bytes, n, MAGIC, BP_SNAPSHOT_VERSION,
	                                "not an exported blockphys entity", "unknown entity version");
	if (why)
		return why;
	memset(e, 0, sizeof *e);
	memset(in, 0, sizeof *in);
	bp_code_entity(&c, e, in);
	if (!c.why && c.len != c.cap)
		return "corrupted: trailing bytes";
	return c.why;
}

bp_Status bp_world_import(bp_World *w, const void *bytes, size_t n, const double *pos,
                          bp_EntityId *id, const char **why)
{
	bp_Entity e;
	bp_EntityInput in;
	if ((*why = read_entity(bytes, n, &e, &in)) != NULL)
		return BP_EINVAL;
	if (w->locked) {
		*why = "the world is locked (inside a step or move)";
		return BP_EINVAL;
	}
	double at[3];
	bp_entity_position(&e, at);
	bp_EntityDef d = bp_default_entity_def();
	d.x = pos ? pos[0] : at[0];
	d.y = pos ? pos[1] : at[1];
	d.z = pos ? pos[2] : at[2];
	d.width = e.width;
	d.height = e.height;
	d.solid = e.solid;
	d.sensor = e.sensor;
	d.carry = e.carry;
	d.group = e.group;
	d.mask = e.mask;
	d.rules = e.rules;
	bp_Status st = bp_world_spawn(w, &d, id);
	if (st != BP_OK) {
		*why = st == BP_ENOMEM ? "not enough memory" : "position or size out of range";
		return st;
	}
	bp_Entity *ne = bp_world_entity(w, *id);
	const bp_Entity made = *ne;
	/* Everything travels but what names this world's slot and overlaps, and the Lua
	 * hooks (functions of the exporting side, see docs/rollback.md). */
	*ne = e;
	ne->alive = 1;
	ne->generation = made.generation;
	ne->serial = made.serial;
	ne->stable = made.stable;
	ne->sensed = 0;
	ne->in_events = 0;
	ne->carried = 0;
	ne->frozen = 0; /* of the other world's unloaded space: this one's next step decides */
	ne->has_filter = 0;
	ne->rules.hook_heading = ne->rules.hook_jump = 0;
	ne->gather.version = 0;
	if (pos) { /* moved: the box from the new position, the last position with it */
		ne->box = made.box;
		for (int k = 0; k < 3; k++)
			ne->prev[k] = e.prev[k] + (pos[k] - at[k]);
	}
	*bp_entity_input(w, ne) = in;
	w->rules_writes++;
	bp_broadphase_moved(w, id->index1 - 1);
	return BP_OK;
}
