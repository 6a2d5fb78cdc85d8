/* SPDX-License-Identifier: MIT
 * api.c - the public API's calls by id (blockphys.h): each checks its id and its
 * arguments, then does what the binding does through the internal, slot-based
 * functions (bp_internal.h), so that a host never needs a layout or a slot. Also the
 * world's read-only accessors that were inline before the world became opaque.
 * Source: our own (the id and status conventions follow Box2D v3's API).
 */
#include <math.h>
#include <string.h>

#include "bp_world.h"

int(bp_world_lock)(const bp_World *w)
{
	return w->locked;
}

uint32_t(bp_world_ticking)(const bp_World *w)
{
	return w->ticking;
}

double(bp_world_step_dt)(const bp_World *w)
{
	return w->step_dt;
}

/* The range of dt the binding's world:step accepts too (lstep.c). */
#define MIN_DT 1e-6
#define MAX_DT 1.0

bp_Status bp_world_step(bp_World *w, double dt)
{
	if (w->locked)
		return BP_ELOCKED;
	if (!(dt >= MIN_DT && dt <= MAX_DT))
		return BP_EINVAL;
	uint32_t slot;
	if (bp_world_max_displacement(w, dt, &slot) > BP_MAX_MOVE)
		return BP_ELIMIT;
	/* No hooks: nothing can abort, and no snapshot is needed. */
	return bp_world_step_hooks(w, dt, NULL) ? BP_EHOOK : BP_OK;
}

/* --- block types --- */

bp_Status bp_world_block_def(const bp_World *w, uint32_t id, bp_BlockDef *def)
{
	const bp_BlockType *t = bp_world_block_type(w, id);
	if (!t)
		return BP_EINVAL;
	*def = bp_default_block_def();
	def->name = t->name;
	def->boxes = t->shape;
	def->nboxes = t->nshape;
	def->slipperiness = t->slipperiness;
	def->liquid = t->liquid;
	def->climbable = t->climbable;
	def->velocity_factor = t->velocity_factor;
	def->web = t->web;
	def->level = t->level;
	def->solid = t->solid;
	def->ice = t->ice;
	def->normal_cube = t->normal_cube;
	def->outline = t->outline;
	def->noutline = t->noutline;
	def->one_way = t->one_way;
	return BP_OK;
}

/* --- entities --- */

/* The live entity id names, or NULL. bp_world_entity only reads w. */
static bp_Entity *live(const bp_World *w, bp_EntityId id)
{
	return bp_world_entity((bp_World *)w, id);
}

int bp_entity_is_valid(const bp_World *w, bp_EntityId id)
{
	return live(w, id) != NULL;
}

bp_Status bp_world_get_entities(const bp_World *w, bp_EntityId *out, uint32_t cap,
                                uint32_t *n)
{
	const bp_EntityPool *p = &w->entities;
	uint32_t k = 0;
	for (uint32_t i = 0; i < p->norder; i++) {
		const uint32_t slot = p->order[i];
		if (slot == BP_NO_SLOT)
			continue;
		if (k < cap) {
			out[k].index1 = slot + 1;
			out[k].generation = p->items[slot].generation;
		}
		k++;
	}
	*n = k;
	return BP_OK;
}

bp_Status bp_entity_get_position(const bp_World *w, bp_EntityId id, double pos[3])
{
	const bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	bp_entity_position(e, pos);
	return BP_OK;
}

bp_Status bp_entity_get_box(const bp_World *w, bp_EntityId id, bp_AABB *box)
{
	const bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	*box = e->box;
	return BP_OK;
}

bp_Status bp_entity_teleport(bp_World *w, bp_EntityId id, const double pos[3])
{
	bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	for (int a = 0; a < 3; a++) {
		if (!(fabs(pos[a]) <= BP_MAX_COORD))
			return BP_EINVAL;
	}
	/* As the binding's e:teleport (lentity.c): it and the sleepers near where it was
	 * and where it goes wake. */
	bp_entity_touch(w, e);
	bp_entity_place(e, pos);
	memcpy(e->prev, pos, sizeof e->prev);
	e->on_ground = 0;
	e->fall_distance = 0;
	e->landing_fall = 0;
	e->out_landing = 0;
	e->stops = e->prev_stops = 0;
	bp_broadphase_moved(w, id.index1 - 1);
	bp_entity_touch(w, e);
	return BP_OK;
}

bp_Status bp_entity_get_velocity(const bp_World *w, bp_EntityId id, double v[3])
{
	const bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	memcpy(v, e->vel, sizeof e->vel);
	return BP_OK;
}

bp_Status bp_entity_set_velocity(bp_World *w, bp_EntityId id, const double v[3])
{
	bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	for (int a = 0; a < 3; a++) {
		if (!isfinite(v[a]))
			return BP_EINVAL;
	}
	bp_entity_touch(w, e);
	for (int a = 0; a < 3; a++)
		e->vel[a] = v[a] + 0.0; /* no -0, as the binding's writes */
	return BP_OK;
}

bp_Status bp_entity_get_input(const bp_World *w, bp_EntityId id, bp_EntityInput *in)
{
	const bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	*in = w->entities.input[id.index1 - 1];
	return BP_OK;
}

bp_Status bp_entity_set_input(bp_World *w, bp_EntityId id, const bp_EntityInput *in)
{
	bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	if (!(in->forward >= -1 && in->forward <= 1) || !(in->strafe >= -1 && in->strafe <= 1) ||
	    !isfinite(in->yaw))
		return BP_EINVAL;
	bp_EntityInput *to = bp_entity_input(w, e);
	const bp_EntityInput before = *to;
	to->forward = in->forward + 0.0;
	to->strafe = in->strafe + 0.0;
	to->yaw = in->yaw + 0.0;
	to->sneaking = in->sneaking != 0;
	to->flying = in->flying != 0;
	bp_input_set_jumping(to, in->jumping);
	bp_entity_input_changed(w, e, &before);
	return BP_OK;
}

bp_Status bp_entity_get_rules(const bp_World *w, bp_EntityId id, bp_Rules *rules)
{
	const bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	*rules = e->rules;
	return BP_OK;
}

bp_Status bp_entity_on_ground(const bp_World *w, bp_EntityId id, int *on_ground)
{
	const bp_Entity *e = live(w, id);
	if (!e)
		return BP_ESTALE;
	*on_ground = e->on_ground != 0;
	return BP_OK;
}

bp_Status bp_entity_get_contacts(bp_World *w, bp_EntityId id, bp_Contact *out,
                                 uint32_t cap, uint32_t *n)
{
	if (!live(w, id))
		return BP_ESTALE;
	return bp_entity_contacts(w, id.index1 - 1, out, cap, n);
}

bp_Status bp_entity_get_ground(bp_World *w, bp_EntityId id, bp_Contact *ground, int *found)
{
	if (!live(w, id))
		return BP_ESTALE;
	*found = bp_entity_ground(w, id.index1 - 1, ground);
	return BP_OK;
}

/* --- static colliders and triggers --- */

int bp_collider_is_valid(const bp_World *w, bp_ColliderId id)
{
	return bp_world_collider_slot(w, id) != 0;
}

bp_Status bp_collider_remove(bp_World *w, bp_ColliderId id)
{
	const uint32_t slot = bp_world_collider_slot(w, id);
	if (!slot)
		return BP_ESTALE;
	if (w->locked)
		return BP_ELOCKED;
	bp_world_remove_collider(w, slot);
	return BP_OK;
}

bp_Status bp_collider_get_box(const bp_World *w, bp_ColliderId id, bp_AABB *box)
{
	const uint32_t slot = bp_world_collider_slot(w, id);
	if (!slot)
		return BP_ESTALE;
	*box = *bp_world_collider_box(w, slot);
	return BP_OK;
}

bp_Status bp_collider_set_one_way(bp_World *w, bp_ColliderId id, int face)
{
	const uint32_t slot = bp_world_collider_slot(w, id);
	if (!slot)
		return BP_ESTALE;
	if (w->locked)
		return BP_ELOCKED;
	if (!(face >= BP_FACE_NONE && face <= BP_FACE_NORTH))
		return BP_EINVAL;
	bp_world_set_collider_one_way(w, slot, face);
	return BP_OK;
}

bp_Status bp_trigger_remove(bp_World *w, bp_ColliderId id)
{
	const uint32_t slot = bp_world_trigger_slot(w, id);
	if (!slot)
		return BP_ESTALE;
	if (w->locked)
		return BP_ELOCKED;
	bp_world_remove_trigger(w, slot);
	return BP_OK;
}

bp_Status bp_trigger_get_box(const bp_World *w, bp_ColliderId id, bp_AABB *box)
{
	const uint32_t slot = bp_world_trigger_slot(w, id);
	if (!slot)
		return BP_ESTALE;
	*box = *bp_world_trigger_box(w, slot);
	return BP_OK;
}

/* --- internal accessors (bp_internal.h): for the binding's files that do not see the
 * layouts --- */

/* bp_world_slot_id: snapshot.c (null for a slot that is not live). */

int bp_world_slot_holds(const bp_World *w, uint32_t slot, uint32_t serial)
{
	const bp_Entity *e = &w->entities.items[slot];
	return e->alive && e->serial == serial;
}

void bp_entity_set_has_filter(bp_Entity *e, int has)
{
	e->has_filter = (uint8_t)(has != 0);
}

const bp_Rules *bp_entity_rules(const bp_Entity *e)
{
	return &e->rules;
}

void bp_entity_set_hook(bp_Entity *e, int jump, int on)
{
	if (jump)
		e->rules.hook_jump = (uint8_t)(on != 0);
	else
		e->rules.hook_heading = (uint8_t)(on != 0);
}

void(bp_entity_position)(const bp_Entity *e, double pos[3])
{
	bp_entity_position_inline(e, pos);
}

bp_EntityInput *(bp_entity_input)(bp_World *w, const bp_Entity *e)
{
	return bp_entity_input_inline(w, e);
}

const bp_AABB *bp_entity_box(const bp_Entity *e)
{
	return &e->box;
}

double *bp_entity_vel(bp_Entity *e)
{
	return e->vel;
}

const double *bp_entity_prev(const bp_Entity *e)
{
	return e->prev;
}

int bp_entity_in_events(const bp_Entity *e)
{
	return e->in_events;
}
