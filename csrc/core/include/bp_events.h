/* SPDX-License-Identifier: MIT
 * bp_events.h - what a tick tells the game: contacts (the boxes that stopped a move),
 * the ground an entity stands on, and the world's event queue (landings, hits, and the
 * enter / leave of triggers and sensors), filled during a step and read after it.
 * Everything names things by value (cells, handles, entity ids), never by pointer.
 */
#ifndef BP_EVENTS_H
#define BP_EVENTS_H

#include <stdint.h>

#include "bp_aabb.h"
#include "bp_entity.h"

/** What a ray, a sweep or a contact met. */
enum { BP_HIT_NONE = 0, BP_HIT_BLOCK = 1, BP_HIT_COLLIDER = 2, BP_HIT_ENTITY = 3 };

/** One box touching an entity where its move was stopped (contact.c). The normal points
 *  from the box toward the entity: a floor's is (0, 1, 0). */
typedef struct bp_Contact {
	int kind;            /* BP_HIT_BLOCK, BP_HIT_COLLIDER or BP_HIT_ENTITY */
	int normal[3];       /* one component is +-1 */
	int32_t cell[3];     /* block position (BP_HIT_BLOCK) */
	uint16_t id;         /* block id (BP_HIT_BLOCK) */
	uint64_t collider;   /* the collider's handle (BP_HIT_COLLIDER) */
	bp_EntityId entity;  /* the other entity (BP_HIT_ENTITY) */
	uint32_t serial;     /* its creation order (BP_HIT_ENTITY), for sorting */
	bp_AABB box;         /* the box touched (world space, blocks) */
} bp_Contact;

/** Event types, in the order a tick reports them for one entity (events.c). */
enum {
	BP_EVENT_HIT = 1,  /* a contact begins: a face stopped that did not stop the step before */
	BP_EVENT_LAND = 2, /* a move landed the entity with a fall distance above 0 */
	BP_EVENT_ENTER = 3,
	BP_EVENT_LEAVE = 4
};

/** One event of the queue. */
typedef struct bp_Event {
	int type;            /* BP_EVENT_* */
	uint64_t tick;       /* the world's tick count when it happened (bp_World.tick) */
	bp_EntityId entity;  /* the entity it happened to */
	bp_Contact what;     /* hit: the box met; land: the ground (kind BP_HIT_NONE: none found) */
	double fall;         /* land: the fall distance (blocks) */
	double speed;        /* hit: the approach speed along the normal (blocks/s) */
	uint64_t trigger;    /* enter / leave: the trigger's handle, 0 for a sensor */
	bp_EntityId sensor;  /* enter / leave of a sensor entity */
	/* What a hit or landing met is found when the queue is read (bp_world_events): */
	bp_AABB box;         /* the entity's box after the move */
	double reach;        /* how far beyond its face the move reached (blocks) */
	uint8_t face;        /* the face: 2 * axis + 1 for a move toward +axis */
	uint8_t pending;     /* `what` not found yet */
} bp_Event;

/** The world's event queue: at most `max` events between two reads; past that they
 *  are counted in `dropped` and not stored. */
typedef struct bp_EventQueue {
	bp_Event *items;
	uint32_t count, cap;
	uint32_t max;        /* world.max_events */
	uint64_t dropped;    /* events not stored since the world was made */
	double hit_speed;    /* hits slower than this (blocks/s) are not reported */
} bp_EventQueue;

/** Default of bp_EventQueue.max. */
#define BP_DEFAULT_MAX_EVENTS 65536
/** Largest bp_EventQueue.max (the queue's memory: about 120 bytes an event). */
#define BP_MAX_EVENTS 16777216

#endif
