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
#define HEAD 16
#define TAIL 8

size_t bp_snapshot_encode(const bp_Snapshot *s, void *buf, size_t cap)
{
	bp_Coder c = bp_coder(BP_CODE_WRITE, buf, buf ? cap : 0);
	uint32_t magic = MAGIC, version = BP_SNAPSHOT_VERSION;
	uint64_t body = 0;
	bp_code_u32(&c, &magic);
	bp_code_u32(&c, &version);
	bp_code_u64(&c, &body);
	bp_code_snapshot(&c, (bp_Snapshot *)(uintptr_t)s);
	const size_t total = c.len + TAIL;
	if (!buf || total > cap)
		return total;
	body = c.len - HEAD;
	bp_Coder h = bp_coder(BP_CODE_WRITE, (uint8_t *)buf + 8, 8);
	bp_code_u64(&h, &body);
	uint64_t digest = bp_digest_bytes(buf, c.len);
	bp_code_u64(&c, &digest);
	return total;
}

bp_Status bp_snapshot_decode(bp_AllocFn alloc, void *ud, const void *bytes, size_t n,
                             bp_Snapshot **out, const char **why)
{
	*out = NULL;
	*why = NULL;
	bp_Coder c = bp_coder(BP_CODE_READ, (void *)(uintptr_t)bytes, n);
	uint32_t magic = 0, version = 0;
	uint64_t body = 0;
	bp_code_u32(&c, &magic);
	bp_code_u32(&c, &version);
	bp_code_u64(&c, &body);
	if (c.why) {
		*why = "truncated";
		return BP_EINVAL;
	}
	if (magic != MAGIC) {
		*why = "not a blockphys snapshot";
		return BP_EINVAL;
	}
	if (version != BP_SNAPSHOT_VERSION) {
		*why = "unknown snapshot version";
		return BP_EINVAL;
	}
	if (n < HEAD + TAIL || body != n - HEAD - TAIL) {
		*why = n < HEAD + TAIL || body > n - HEAD - TAIL ? "truncated" : "corrupted: trailing bytes";
		return BP_EINVAL;
	}
	bp_Coder t = bp_coder(BP_CODE_READ, (void *)(uintptr_t)bytes, n);
	t.len = n - TAIL;
	uint64_t sum = 0;
	bp_code_u64(&t, &sum);
	if (sum != bp_digest_bytes(bytes, n - TAIL)) {
		*why = "corrupted: checksum mismatch";
		return BP_EINVAL;
	}
	bp_Allocator a = {alloc, ud, 0};
	bp_Snapshot *s = bp_alloc(&a, sizeof *s);
	if (!s) {
		*why = "not enough memory";
		return BP_ENOMEM;
	}
	memset(s, 0, sizeof *s);
	s->mem = a;
	c.cap = n - TAIL; /* the body ends at the checksum */
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
	if (n < HEAD + TAIL)
		return;
	uint64_t body = n - HEAD - TAIL;
	bp_Coder h = bp_coder(BP_CODE_WRITE, (uint8_t *)bytes + 8, 8);
	bp_code_u64(&h, &body);
	uint64_t digest = bp_digest_bytes(bytes, n - TAIL);
	bp_Coder t = bp_coder(BP_CODE_WRITE, (uint8_t *)bytes + n - TAIL, TAIL);
	bp_code_u64(&t, &digest);
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
