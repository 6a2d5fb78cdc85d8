/* SPDX-License-Identifier: MIT
 * bp_types.h - the value types of the public API (<blockphys/blockphys.h>): ids,
 * definitions, inputs, counters, contacts and events, with the limits that go with
 * them. Everything here is plain data a host may copy; the world and what it owns
 * (entities, block types, chunks, colliders) are opaque and reached only through
 * blockphys.h's functions. Their layouts are in the core's internal headers
 * (bp_world.h, bp_entity.h, bp_events.h, bp_sensor.h, bp_broadphase.h), which are not
 * installed.
 */
#ifndef BP_TYPES_H
#define BP_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "bp_aabb.h"
#include "bp_rules.h"

/** Largest entity width and height (blocks): bounds the work of one move. */
#define BP_MAX_ENTITY_WIDTH 16.0
#define BP_MAX_ENTITY_HEIGHT 32.0

/** An entity's inputs, what a player or a script sets every tick
 *  (bp_entity_set_input): forward and strafe in [-1, 1] (strafe > 0 is left), yaw in
 *  degrees, and three flags. The world keeps them apart from the rest of the entity,
 *  so that writing them touches little memory. */
typedef struct bp_EntityInput {
	double forward, strafe, yaw; /* [-1, 1], [-1, 1] (left > 0), degrees */
	uint8_t jumping, sneaking, flying;
	uint8_t jump_latch; /* jumping was set since the entity's last tick (a tap) */
} bp_EntityInput;

/** Id of an entity: index1 = its slot + 1 (0 is the null id), plus the slot's
 *  generation, bumped when the slot is reused. Passed by value; every call checks it:
 *  a removed entity's id, or an id whose slot was reused, gives BP_ESTALE and never
 *  names another entity (Box2D v3's id pool). */
typedef struct bp_EntityId {
	uint32_t index1;
	uint32_t generation;
} bp_EntityId;

/** Definition for bp_world_spawn; fill from bp_default_entity_def(). */
typedef struct bp_EntityDef {
	double x, y, z;        /* feet: centre of the bottom face (blocks) */
	double width, height;  /* blocks; defaults 0.6F x 1.8F (the Beta player) */
	int solid;
	int sensor;            /* a sensor (sensor.c): never solid, no push */
	int carry;             /* a carrying platform (carry.c) */
	uint32_t group, mask;  /* defaults: group 1, mask all */
	bp_Rules rules;
} bp_EntityDef;
/** Id of a static collider or a trigger (one kind of handle for both; the functions
 *  tell which they take): the 1-based slot in the low 24 bits, the slot's generation
 *  in the next 24 and the world's handle tag (bp_world_set_handle_tag) in the top 15.
 *  Passed by value; 0 names nothing. Every call checks it: a removed collider's id, a
 *  reused slot's old id, or another world's id gives BP_EINVAL (the "stale id"
 *  status), never another collider. */
typedef uint64_t bp_ColliderId;


enum { BP_LIQUID_NONE = 0, BP_LIQUID_WATER = 1, BP_LIQUID_LAVA = 2 };

/** The face of a one-way block type or static collider: its boxes stop only the moves
 *  that reach them through that face from outside (BP_FACE_UP: a platform landed on
 *  from above and jumped through from below). East is +X, south +Z (docs/conventions.md).
 *  The face's axis is (face - 1) / 2; odd faces look toward +, even ones toward -. */
enum {
	BP_FACE_NONE = 0,
	BP_FACE_EAST = 1,
	BP_FACE_WEST = 2,
	BP_FACE_UP = 3,
	BP_FACE_DOWN = 4,
	BP_FACE_SOUTH = 5,
	BP_FACE_NORTH = 6
};

/** Most boxes one block type may have, and most block types per world (ids are uint16). */
#define BP_MAX_TYPE_BOXES 64
#define BP_MAX_TYPES 65535

/** Definition of a block type; fill from bp_default_block_def(). */
typedef struct bp_BlockDef {
	const char *name;
	const bp_AABB *boxes; /* NULL with nboxes < 0 means "full cube" */
	int nboxes;
	double slipperiness;
	int liquid;
	int climbable;
	double velocity_factor; /* in [0, 1]; 1: none */
	int web;
	int level; /* 0..15; not 0 only for a liquid */
	int solid; /* < 0: derived (some box and not a liquid); else a boolean */
	int ice;
	int normal_cube; /* < 0: derived (the unit cube and solid); else a boolean */
	const bp_AABB *outline; /* the cursor's shape, checked as boxes are */
	int noutline;           /* < 0: the collision boxes (the default) */
	int one_way;            /* BP_FACE_*: BP_FACE_NONE (0) blocks from every side */
} bp_BlockDef;

/** Collider handles are one integer of 63 bits: the 1-based slot in the low 24, the
 *  slot's generation in the next 24 and the world's handle_tag in the top 15, so that
 *  a handle from another world names nothing here. A slot whose generation reaches
 *  BP_MAX_COLLIDER_GEN is retired instead of wrapping, so that no removed handle ever
 *  names a collider again. */
#define BP_MAX_COLLIDERS ((1u << 24) - 1)
#define BP_MAX_COLLIDER_GEN ((1u << 24) - 1)
#define BP_HANDLE_TAG_MAX ((1u << 15) - 1)

typedef struct bp_World bp_World;

/** Counters of a world (bp_world_stats). */
typedef struct bp_WorldStats {
	uint64_t blocks;      /* stored non-air blocks */
	uint32_t chunks;      /* 16^3 chunks stored */
	size_t bytes;         /* memory held through the world's allocator (the core's only) */
	uint32_t block_types; /* defined types, air included */
	uint32_t entities;    /* live entities */
	uint32_t colliders;   /* live static colliders */
} bp_WorldStats;


/** What a ray, a sweep or a contact met. */
enum { BP_HIT_NONE = 0, BP_HIT_BLOCK = 1, BP_HIT_COLLIDER = 2, BP_HIT_ENTITY = 3 };

/** One box touching an entity where its move was stopped (contact.c). The normal points
 *  from the box toward the entity: a floor's is (0, 1, 0). */
typedef struct bp_Contact {
	int kind;            /* BP_HIT_BLOCK, BP_HIT_COLLIDER or BP_HIT_ENTITY */
	int normal[3];       /* one component is +-1 */
	int32_t cell[3];     /* block position (BP_HIT_BLOCK) */
	uint16_t id;         /* block id (BP_HIT_BLOCK) */
	bp_ColliderId collider; /* the collider (BP_HIT_COLLIDER) */
	bp_EntityId entity;  /* the other entity (BP_HIT_ENTITY) */
	uint32_t serial;     /* internal: its creation order (BP_HIT_ENTITY), for sorting */
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
	bp_ColliderId trigger; /* enter / leave: the trigger, 0 for a sensor */
	bp_EntityId sensor;  /* enter / leave of a sensor entity */
	/* Internal: what a hit or landing met is found when the queue is read
	 * (bp_world_events) from these. */
	bp_AABB box;         /* the entity's box after the move */
	double reach;        /* how far beyond its face the move reached (blocks) */
	uint8_t face;        /* the face: 2 * axis + 1 for a move toward +axis */
	uint8_t pending;     /* `what` not found yet */
} bp_Event;

/** Default of bp_EventQueue.max. */
#define BP_DEFAULT_MAX_EVENTS 65536
/** Largest bp_EventQueue.max (the queue's memory: about 120 bytes an event). */
#define BP_MAX_EVENTS 16777216

#endif
