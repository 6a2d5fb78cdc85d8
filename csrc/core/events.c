/* SPDX-License-Identifier: MIT
 * events.c - the world's event queue: filled during steps and moves, read and emptied
 * by the game after them. Bounded: past bp_EventQueue.max events are counted, not
 * stored, so a world nobody reads never grows. A failed step takes its events back
 * (bp_events_rewind), as it takes back its motion.
 */
#include "events.h"
#include "alloc.h"

#include <string.h>

void bp_events_init(bp_World *w)
{
	w->events.max = BP_DEFAULT_MAX_EVENTS;
}

void bp_events_free(bp_World *w)
{
	bp_free(&w->mem, w->events.items, (size_t)w->events.cap * sizeof *w->events.items);
	w->events.items = NULL;
	w->events.count = w->events.cap = 0;
}

int bp_events_full(const bp_World *w)
{
	return w->events.count >= w->events.max;
}

bp_Event *bp_event_push(bp_World *w, int type, uint32_t slot)
{
	bp_EventQueue *q = &w->events;
	if (q->count >= q->max ||
	    (q->count == q->cap && bp_grow(&w->mem, (void **)&q->items, &q->cap, q->count + 1,
	                                   sizeof *q->items) != BP_OK)) {
		q->dropped++; /* full, or no memory for it: counted, never half-stored */
		return NULL;
	}
	bp_Event *ev = &q->items[q->count++];
	memset(ev, 0, sizeof *ev);
	bp_Entity *e = &w->entities.items[slot];
	ev->type = type;
	ev->tick = w->tick;
	ev->entity.index1 = slot + 1;
	ev->entity.generation = e->generation;
	e->in_events = 1;
	return ev;
}

bp_EventMark bp_events_mark(const bp_World *w)
{
	bp_EventMark m = {w->events.count, w->events.dropped};
	return m;
}

void bp_events_rewind(bp_World *w, bp_EventMark m)
{
	if (w->events.count > m.count)
		w->events.count = m.count;
	w->events.dropped = m.dropped;
}

void bp_world_events_clear(bp_World *w)
{
	bp_EventQueue *q = &w->events;
	for (uint32_t i = 0; i < q->count; i++) {
		bp_Entity *e = bp_world_entity(w, q->items[i].entity);
		if (e)
			e->in_events = 0;
		e = bp_world_entity(w, q->items[i].sensor);
		if (e)
			e->in_events = 0;
	}
	q->count = 0;
	/* A burst's memory is kept for the next one, unless it is far above the usual:
	 * a queue emptied every tick stays small. */
	if (q->cap > 4096) {
		bp_free(&w->mem, q->items, (size_t)q->cap * sizeof *q->items);
		q->items = NULL;
		q->cap = 0;
	}
}

bp_Status bp_world_set_max_events(bp_World *w, uint32_t max)
{
	if (max > BP_MAX_EVENTS)
		return BP_EINVAL;
	w->events.max = max;
	return BP_OK;
}

uint32_t bp_world_max_events(const bp_World *w)
{
	return w->events.max;
}

uint64_t bp_world_events_dropped(const bp_World *w)
{
	return w->events.dropped;
}

bp_Status bp_world_set_hit_speed(bp_World *w, double speed)
{
	if (!(speed >= 0 && speed <= 1e300))
		return BP_EINVAL;
	w->events.hit_speed = speed;
	return BP_OK;
}

double bp_world_hit_speed(const bp_World *w)
{
	return w->events.hit_speed;
}

uint32_t bp_world_event_count(const bp_World *w)
{
	return w->events.count;
}

uint64_t bp_world_tick(const bp_World *w)
{
	return w->tick;
}
