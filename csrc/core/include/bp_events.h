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
#include "bp_types.h"

/** The world's event queue: at most `max` events between two reads; past that they
 *  are counted in `dropped` and not stored. */
typedef struct bp_EventQueue {
	bp_Event *items;
	uint32_t count, cap;
	uint32_t max;        /* world.max_events */
	uint64_t dropped;    /* events not stored since the world was made */
	double hit_speed;    /* hits slower than this (blocks/s) are not reported */
} bp_EventQueue;

#endif
