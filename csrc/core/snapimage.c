/* SPDX-License-Identifier: MIT
 * snapimage.c - a snapshot's byte image around its body (snapcode.c), its decoder,
 * and the state hash of a snapshot or of a live world (a view of its arrays).
 *
 * Image, version 1 (all little-endian):
 *   "BPSN", u32 version, u64 body length, body, u64 digest of everything before it.
 * Source: our own.
 */
#include "snapcode.h"
#include "alloc.h"
#include "entity.h"

#include <string.h>

#define MAGIC 0x4E535042u /* "BPSN" */

size_t bp_snapshot_encode(const bp_Snapshot *s, void *buf, size_t cap)
{
	bp_Coder c = bp_coder(BP_CODE_WRITE, buf, buf ? cap : 0);
	bp_image_begin(&c, MAGIC, BP_SNAPSHOT_VERSION);
	bp_code_snapshot(&c, (bp_Snapshot *)(uintptr_t)s);
	return bp_image_end(&c);
}

bp_Status bp_snapshot_decode(bp_AllocFn alloc, void *ud, const void *bytes, size_t n,
                             bp_Snapshot **out, const char **why)
{
	*out = NULL;
	bp_Coder c;
	*why = bp_image_open(&c, bytes, n, MAGIC, BP_SNAPSHOT_VERSION, "not a blockphys snapshot",
	                     "unknown snapshot version");
	if (*why)
		return BP_EINVAL;
	bp_Allocator a = {alloc, ud, 0};
	bp_Snapshot *s = bp_alloc(&a, sizeof *s);
	if (!s) {
		*why = "not enough memory";
		return BP_ENOMEM;
	}
	memset(s, 0, sizeof *s);
	s->mem = a;
	bp_code_snapshot(&c, s);
	if (!c.why && c.len != c.cap)
		bp_code_fail(&c, "corrupted: trailing bytes");
	if (c.why) {
		*why = c.why;
		bp_Status st = strcmp(c.why, "not enough memory") == 0 ? BP_ENOMEM : BP_EINVAL;
		bp_snapshot_free(s);
		return st;
	}
	*out = s;
	return BP_OK;
}

void bp_image_reseal(void *bytes, size_t n)
{
	if (n >= BP_IMAGE_HEAD + BP_IMAGE_TAIL)
		bp_image_seal(bytes, n);
}

uint64_t bp_snapshot_hash(const bp_Snapshot *s)
{
	bp_Coder c = bp_coder(BP_CODE_HASH, NULL, 0);
	bp_RulesMemo memo;
	memo.valid = 0;
	c.memo = &memo;
	bp_code_snapshot(&c, (bp_Snapshot *)(uintptr_t)s);
	return bp_code_digest(&c);
}

uint64_t bp_world_hash(bp_World *w)
{
	/* A view of the world's own arrays: nothing copied, nothing owned. */
	bp_entities_compact(w);
	const bp_EntityPool *p = &w->entities;
	bp_Snapshot v;
	memset(&v, 0, sizeof v);
	v.view = 1;
	v.types = w->types;
	v.ntypes = w->ntypes;
	v.chunks = w->chunks;
	v.nchunks = w->nchunks;
	v.unloaded_id = w->unloaded_id;
	v.unset_unloaded = w->unset_unloaded;
	v.colliders = w->colliders;
	v.ncolliders = w->ncolliders;
	v.live_colliders = w->live_colliders;
	v.colliders_free = w->colliders_free;
	v.items = p->items;
	v.input = p->input;
	v.count = p->count;
	v.next_serial = p->next_serial;
	v.order = p->order;
	v.norder = p->norder;
	v.free_slots = p->free_slots;
	v.nfree = p->nfree;
	v.unstable = w->unstable;
	v.triggers = w->sensing.triggers;
	v.ntriggers = w->sensing.ntriggers;
	v.tlive = w->sensing.live;
	v.tfree = w->sensing.free;
	v.tnext_serial = w->sensing.next_serial;
	v.pairs = w->sensing.pairs;
	v.npairs = w->sensing.npairs;
	v.tick = w->tick;
	v.events = w->events.items;
	v.nevents = w->events.count;
	v.max_events = w->events.max;
	v.events_dropped = w->events.dropped;
	v.hit_speed = w->events.hit_speed;
	return bp_snapshot_hash(&v);
}
