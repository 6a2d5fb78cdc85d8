/* SPDX-License-Identifier: MIT
 * events.h - the event queue's internals (events.c); reading it is public (blockphys.h).
 */
#ifndef BP_CORE_EVENTS_H
#define BP_CORE_EVENTS_H

#include "bp_world.h"

/** A new world's queue: empty, max BP_DEFAULT_MAX_EVENTS. Source: our own. */
void bp_events_init(bp_World *w);

/** Free the queue (bp_world_destroy). Source: our own. */
void bp_events_free(bp_World *w);

/** Whether the next event would be dropped (callers then skip the work of making it,
 *  and count it with bp_event_push). Source: our own. */
int bp_events_full(const bp_World *w);

/** Append an event of `type` about the entity in slot `slot` (0-based) at the world's
 *  tick, zeroed but for those; NULL (counted in dropped) when the queue is full or
 *  cannot grow. Source: our own. */
bp_Event *bp_event_push(bp_World *w, int type, uint32_t slot);

/** The queue's length and drop count, to take back what a failed step or move added. */
typedef struct bp_EventMark {
	uint32_t count;
	uint64_t dropped;
} bp_EventMark;
bp_EventMark bp_events_mark(const bp_World *w);
void bp_events_rewind(bp_World *w, bp_EventMark m);

#endif
