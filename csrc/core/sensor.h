/* SPDX-License-Identifier: MIT
 * sensor.h - the overlap set's upkeep (sensor.c); triggers themselves are public
 * (blockphys.h).
 */
#ifndef BP_CORE_SENSOR_H
#define BP_CORE_SENSOR_H

#include "bp_world.h"

/** After a step: the overlaps of every trigger and sensor entity with the entities
 *  (broadphase queries), enter and leave events against the last step's. Nothing to
 *  do, and no cost, without triggers, sensors or overlaps. Source: our own. */
void bp_sensing_update(bp_World *w);

/** After the entity in slot `slot` was removed (its slot not reused yet): leave events
 *  for its overlaps, as an entity and as a sensor. Source: our own. */
void bp_sensing_entity_removed(bp_World *w, uint32_t slot);

/** Free the triggers and overlap lists (bp_world_destroy). Source: our own. */
void bp_sensing_free(bp_World *w);

#endif
