/* SPDX-License-Identifier: MIT
 * bp_sensor.h - triggers (boxes of the world that report the entities entering and
 * leaving them) and the overlap set that sensor.c keeps of them and of sensor entities.
 */
#ifndef BP_SENSOR_H
#define BP_SENSOR_H

#include <stdint.h>

#include "bp_aabb.h"
#include "bp_entity.h"

/** A trigger: a box in world space that blocks nothing and reports enter and leave of
 *  the entities whose groups and masks it interacts with. Handles as colliders'. */
typedef struct bp_Trigger {
	bp_AABB box;
	uint32_t group, mask;
	uint32_t serial;     /* creation order: the order of its events */
	uint32_t generation;
	uint32_t next_free;  /* while free: the 1-based slot freed before it, 0 for none */
	uint8_t alive;
} bp_Trigger;

/** One overlap of a trigger or sensor entity (the source) with an entity. */
typedef struct bp_SensePair {
	uint64_t key;        /* the order: triggers by serial, then sensors by serial (bit 63) */
	uint32_t serial;     /* the entity's serial */
	bp_EntityId entity;
	uint64_t trigger;    /* the trigger's handle, or 0 */
	bp_EntityId sensor;  /* the sensor entity (trigger 0) */
} bp_SensePair;

/** The world's triggers and the overlaps found at the end of the last step. */
typedef struct bp_Sensing {
	bp_Trigger *triggers;
	uint32_t ntriggers, triggers_cap, live, free, next_serial;
	bp_SensePair *pairs, *next; /* the overlaps now; the step's new list (scratch) */
	uint32_t npairs, pairs_cap, nnext, next_cap;
	uint32_t nsensors;   /* live sensor entities */
} bp_Sensing;

#endif
