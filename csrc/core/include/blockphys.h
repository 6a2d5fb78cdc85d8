/* SPDX-License-Identifier: MIT
 * blockphys.h - the public API of blockphys' C core (no Lua here), installed as
 * <blockphys/blockphys.h> with the bp_*.h it includes (bp_aabb.h, bp_base.h,
 * bp_rules.h, bp_types.h). Style: Box2D v3's. Source of the conventions: our own.
 *
 * Opaque world. A bp_World is created and destroyed here and read only through these
 *   functions: its layout is internal (bp_world.h, not installed), so a host compiles
 *   against no struct of the library but the value types of bp_types.h.
 * Ids by value. Entities are named by bp_EntityId (slot + 1 and the slot's generation),
 *   static colliders and triggers by bp_ColliderId (slot, generation and the world's
 *   tag in one uint64). Every call that takes an id checks it: a removed entity's or
 *   collider's id, an id whose slot was reused, the null id and another world's
 *   collider id give BP_ESTALE and change nothing; no id ever names a later entity.
 * Definitions with defaults. Fill bp_BlockDef from bp_default_block_def() and
 *   bp_EntityDef from bp_default_entity_def(), then change what differs.
 * Statuses. A call that can fail returns a bp_Status (bp_base.h): BP_OK, or the
 *   reason, with nothing changed. Reads that cannot fail return their value.
 * Arguments. `w` is a world from bp_world_create not yet destroyed, and pointer
 *   arguments are non-NULL, unless a function says otherwise (neither is checked: a
 *   NULL there is the caller's bug). Units: positions and sizes in blocks, Beta
 *   velocities in blocks/tick, MC-CPP velocities in blocks/s, dt in seconds, yaw in
 *   degrees (docs/conventions.md).
 * Ownership. The world owns its block types, blocks, colliders, triggers, entities and
 *   events; it copies every definition and box it is given. Pointers it returns (the
 *   event array, bp_version's string) stay valid as each function says.
 * Hooks. A C host has none: the hooks that replace rule stages and entity filters are
 *   the Lua binding's (<blockphys/lua.h>). While a step or a script's move runs them,
 *   bp_world_lock is nonzero, and a function that adds or removes something (spawn,
 *   remove, set_block, fill, define_block, add or remove a collider or trigger, step)
 *   returns BP_ELOCKED from code such a hook runs; reads, teleports and velocity and
 *   input writes are allowed.
 * Threads. A world and everything it owns belong to one thread at a time: calls on one
 *   world are never concurrent (the caller locks if it moves a world between threads).
 *   Different worlds on different threads are safe: the library keeps no global
 *   mutable state, and each world allocates through its own allocator
 *   (tests/c/test_threads.c steps four worlds on four threads and compares digests).
 *   bp_version and the bp_default_* functions may be called from any thread.
 * Determinism. The same calls give bit-identical results on every build and platform
 *   the project supports (doubles, no fused multiply-add).
 */
#ifndef BLOCKPHYS_H
#define BLOCKPHYS_H

/* Installed as <blockphys/blockphys.h> (make install-lib) with the bp_*.h it includes
 * beside it: the quoted includes find them in this file's own directory.
 * Everything declared here is the library's interface: the objects are built with
 * -fvisibility=hidden, and this pragma gives these declarations default visibility,
 * so that libblockphys.so exports them (and only them, with the core's internal
 * headers' functions hidden). The Lua module hides them again when it links. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#include <stddef.h>
#include <stdint.h>

#include "bp_aabb.h"
#include "bp_base.h"
#include "bp_rules.h"
#include "bp_types.h"

/* --- the library's version (version.c) --- */

/** The version this header belongs to (semantic versioning: a host built against
 *  MAJOR.MINOR runs with any library of the same MAJOR and a MINOR at least as high). */
#define BP_VERSION_MAJOR 0
#define BP_VERSION_MINOR 1
#define BP_VERSION_PATCH 0
#define BP_VERSION_STRING "0.1.0"

/** The version of the library linked at run time, "MAJOR.MINOR.PATCH" (a static
 *  string), to compare with BP_VERSION_STRING, the header's. Any thread, any time.
 *  Source: our own. */
const char *bp_version(void);

/* --- the world, block types, blocks and static colliders (world.c, chunk.c) --- */

/** A fresh world with every block air. Returns NULL if allocation fails. Source: our own
 *  (docs/architecture.md, "Memory model"). */
bp_World *bp_world_create(bp_AllocFn alloc, void *ud);

/** Free the world and everything it owns. NULL is accepted. Source: our own. */
void bp_world_destroy(bp_World *w);

/** Set the high bits of the world's collider handles (see BP_MAX_COLLIDERS): `tag` in
 *  [0, BP_HANDLE_TAG_MAX] (higher bits are dropped), set before the first collider is
 *  added (earlier handles would name nothing after). A binding gives each world of
 *  one state its own tag, so that one world's handle names nothing in another.
 *  Source: our own. */
void bp_world_set_handle_tag(bp_World *w, uint32_t tag);

/** The world's counters (a copy): stored non-air blocks, chunks, bytes held through
 *  its allocator, block types (air included), live entities and live static
 *  colliders. Source: our own. */
bp_WorldStats bp_world_stats(const bp_World *w);

/** The world's lock: 0 when blocks, block types, colliders and entities may be added
 *  or removed; 1 while a step runs (its hooks and filters); while a script's e:move
 *  runs, the binding's own nonzero value. The functions of this header that add,
 *  or remove (define_block, set_block, fill, spawn, remove, add_collider,
 *  add_trigger, the collider and trigger calls, step) return BP_ELOCKED
 *  while it is nonzero. Any time. Source: our own. */
int bp_world_lock(const bp_World *w);

/** Defaults for bp_BlockDef: full cube, slipperiness 0.6F, not liquid, not climbable,
 *  velocity_factor 1, not a web, level 0, solid derived (some box, not a liquid), not
 *  ice, normal_cube derived (the unit cube and solid). Source: docs/beta173.md section 2
 *  (Block.slipperiness); the rest: our own. */
bp_BlockDef bp_default_block_def(void);

/** Check a definition's ranges; returns NULL or a static message naming the problem.
 *  Checked: name non-NULL and non-empty; nboxes <= BP_MAX_TYPE_BOXES (< 0: full cube);
 *  each box lo <= hi (no NaN), x and z in [0, 1], y in [0, 2] (block-local, blocks);
 *  slipperiness in [0, 1.5]; velocity_factor in [0, 1]; liquid a BP_LIQUID_* value;
 *  level in [0, 15], and 0 unless liquid; the outline's boxes (noutline >= 0) as the
 *  boxes; one_way a BP_FACE_* value. Source: our own. */
const char *bp_block_def_error(const bp_BlockDef *def);

/** Define a block type; its id (1..65535) goes to *id. The world copies the name and
 *  boxes. Fails with BP_EINVAL when bp_block_def_error finds a problem, BP_EEXIST on a
 *  duplicate name, BP_ELIMIT past 65535 types, BP_ELOCKED from a hook, BP_ENOMEM.
 *  Nothing changes on failure. Source: our own. */
bp_Status bp_world_define_block(bp_World *w, const bp_BlockDef *def, uint16_t *id);

/** The definition of block type `id` as the world keeps it, into *def: the name and
 *  boxes given (a full cube's one unit box; pointers owned by the world, valid until
 *  it is destroyed), the outline (the boxes when the definition gave none), and solid
 *  and normal_cube derived (0 or 1). Air (id 0) is a type without boxes named "air".
 *  BP_EINVAL when no type has that id. Any time. Source: our own. */
bp_Status bp_world_block_def(const bp_World *w, uint32_t id, bp_BlockDef *def);

/** Id of the type named `name`, or -1. Source: our own. */
int32_t bp_world_find_type(const bp_World *w, const char *name);

/** Block id at a block coordinate (0 = air). Source: our own (docs/conventions.md). */
uint16_t bp_world_get_block(bp_World *w, int32_t x, int32_t y, int32_t z);

/** Set one block (any int32 coordinates). BP_EINVAL for an id no type has, BP_ELOCKED
 *  from a hook; BP_ENOMEM (or BP_ELIMIT if the chunk table would pass its size limit)
 *  leaves the world unchanged (a chunk
 *  created for the block goes again). Source: our own. */
bp_Status bp_world_set_block(bp_World *w, int32_t x, int32_t y, int32_t z, uint16_t id);

/** Set every block of the inclusive box [lo..hi] (block coordinates, lo <= hi on every
 *  axis). BP_EINVAL for lo > hi or an id no type has, BP_ELIMIT when the box touches
 *  more than BP_MAX_FILL_CHUNKS chunks of 16^3 blocks, BP_ELOCKED from a hook (nothing
 *  changes). Memory: 8 KB for each chunk the box cuts (the binding bounds those to
 *  65,536); whole chunks inside the box become uniform without per-block work. Two phases:
 *  every allocation happens first, so BP_ENOMEM (or BP_ELIMIT if the chunk table would
 *  pass its size limit) leaves every block as it was; the chunks and arrays that phase
 *  made are then dropped again. Source: our own. */
bp_Status bp_world_fill(bp_World *w, const int32_t lo[3], const int32_t hi[3], uint16_t id);

/* ---- streaming (stream.c; docs/streaming.md). With streaming in use, set_block and
 * fill give BP_EUNLOADED (nothing changed) for blocks in unloaded space, and
 * BP_EINVAL for the unloaded id. */

/** The name of the block type that unloaded space reads as (a solid full cube,
 *  defined by the first bp_world_unload_chunk or bp_world_set_unset(w, 1)). */
#define BP_UNLOADED_NAME "blockphys:unloaded"
/** The bytes of one chunk's data: 4096 little-endian uint16 ids. */
#define BP_CHUNK_BYTES 8192

/** What space holding no chunk is: air (unloaded 0, the default) or unloaded space
 *  (1). Defines the unloaded type first if needed: BP_ENOMEM, BP_ELIMIT, or BP_EEXIST
 *  when another type took its name; nothing changes then. Source: our own. */
bp_Status bp_world_set_unset(bp_World *w, int unloaded);
/** 1 if space holding no chunk is unloaded (bp_world_set_unset). Source: our own. */
int bp_world_unset_unloaded(const bp_World *w);
/** The id unloaded space reads as, 0 until the type is defined. Source: our own. */
uint16_t bp_world_unloaded_id(const bp_World *w);

/** Set the 16^3 chunk at chunk coordinates (cx, cy, cz) (blocks cx*16 .. cx*16+15,
 *  ...) from BP_CHUNK_BYTES bytes: little-endian uint16 ids, cell (x, y, z) of the
 *  chunk at index (y*256 + z*16 + x). The chunk is loaded afterwards. An undefined id or
 *  the unloaded id gives BP_EINVAL with the cell index in *bad; BP_ENOMEM, BP_ELIMIT:
 *  nothing changed in every case. Cost: one 8 KB allocation and a pass over the
 *  bytes. Source: our own. */
bp_Status bp_world_load_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz,
                              const unsigned char *data, uint32_t *bad);
/** Free chunk (cx, cy, cz) and make it unloaded space: it blocks moves like a solid
 *  block, and entities whose boxes touch it are not stepped. BP_ENOMEM, BP_ELIMIT or
 *  BP_EEXIST (see bp_world_set_unset) change nothing. Source: our own. */
bp_Status bp_world_unload_chunk(bp_World *w, int32_t cx, int32_t cy, int32_t cz);
/** Write chunk (cx, cy, cz) to out (BP_CHUNK_BYTES, the layout of
 *  bp_world_load_chunk; air where nothing is stored) and return 1, or return 0 when
 *  it is unloaded. Source: our own. */
int bp_world_chunk_data(bp_World *w, int32_t cx, int32_t cy, int32_t cz, unsigned char *out);
/** 1 if the closed box (blocks; touching counts) meets unloaded space. Source: our
 *  own. */
int bp_world_box_unloaded(bp_World *w, const bp_AABB *box);
/** Add a static collider (world space, blocks; copied) in the slot freed last (else a
 *  new slot), in O(1); its id goes to *handle. BP_EINVAL unless box->lo <= box->hi on
 *  every axis (NaN fails), BP_ELOCKED from a hook, BP_ENOMEM, or BP_ELIMIT past
 *  BP_MAX_COLLIDERS slots or the array's size limit (nothing changes). Source: our own
 *  (docs/architecture.md). */
bp_Status bp_world_add_collider(bp_World *w, const bp_AABB *box, bp_ColliderId *handle);
/** The message of a one_way value outside the BP_FACE_* range. */
#define BP_ONE_WAY_ERROR "one_way must be \"up\", \"down\", \"north\", \"south\", \"east\" or \"west\""

/* --- triggers (sensor.c) --- */

/** Add a trigger: a box (world space, blocks; copied; BP_EINVAL unless lo <= hi on
 *  every axis, BP_ELOCKED from a hook) that blocks
 *  nothing and reports the entities whose box comes to overlap it (strictly) and
 *  stops overlapping it, as BP_EVENT_ENTER and BP_EVENT_LEAVE events after each step;
 *  an entity counts when (mask & its group) and (its mask & group) are both nonzero.
 *  Its handle (as collider handles: slot, generation, the world's tag) goes to *handle.
 *  BP_ENOMEM, or BP_ELIMIT past BP_MAX_COLLIDERS slots. Overlaps it has from the start
 *  are reported by the next step. Source: our own (docs/mechanics.md). */
bp_Status bp_world_add_trigger(bp_World *w, const bp_AABB *box, uint32_t group, uint32_t mask,
                               bp_ColliderId *handle);

/* --- region queries (query.c) --- */

/** Number of block cells a query of `region` (blocks) would scan (for the bounded-work
 *  limit; a double, as it may pass 2^64).
 *  Source: our own. */
double bp_world_region_cells(const bp_World *w, const bp_AABB *region);

/* --- entities (entity.c) --- */

/** Defaults: at the origin, width 0.6F x height 1.8F (blocks), not solid, group 1, mask
 *  all, Beta rules. Source: docs/beta173.md section 7 (the player's box);
 *  group and mask: our own. */
bp_EntityDef bp_default_entity_def(void);

/** Check rules (from bp_rules_beta173() or bp_rules_mccpp(), then changed): model,
 *  resolver, push and integrator one of their enum's values, and every field of
 *  bp_rule_fields that the model uses within its [min, max] (each component of a
 *  vector; booleans: any value). Returns NULL, or the name of the first field out of range (a static
 *  string). Any thread, any time. Source: our own. */
const char *bp_rules_error(const bp_Rules *r);

/** Spawn an entity; its handle goes to *id. def: width in (0, BP_MAX_ENTITY_WIDTH],
 *  height in (0, BP_MAX_ENTITY_HEIGHT], feet position with |x|, |y|, |z| <=
 *  BP_MAX_COORD (all blocks), rules that bp_rules_error accepts. BP_EINVAL for
 *  a size, position or rule outside those ranges (NaN included), BP_ELOCKED from a
 *  hook, BP_ENOMEM on allocation
 *  failure, BP_ELIMIT if a pool array would pass bp_grow's limit (nothing changes on
 *  any of them). A solid entity counts among the world's solid entities. Source: our
 *  own (handles: bp_entity.h). */
bp_Status bp_world_spawn(bp_World *w, const bp_EntityDef *def, bp_EntityId *id);

/** Remove a live entity; its handle and copies of it become invalid (a solid one no
 *  longer counts among the solid entities). BP_ESTALE for an id naming no live entity,
 *  BP_ELOCKED from a hook, BP_ENOMEM if the free list cannot grow (nothing changes).
 *  Source: our own. */
bp_Status bp_world_remove(bp_World *w, bp_EntityId id);

/** The number of live entities. Source: our own. */
uint32_t bp_world_entity_count(const bp_World *w);

/* --- snapshots, the state hash and entity hand-off (snapshot.c, snapcode.c, export.c) --- */

/** A copy of a world's whole state (opaque): entity slots with their inputs, rules,
 *  handles and creation order, block types, blocks (chunk id arrays shared copy-on-write
 *  with the world, so that unchanged terrain costs nothing), static colliders,
 *  triggers and their overlaps, the tick and the pending events, and BP_SNAPSHOT_HOST
 *  doubles the host keeps there (bp_snapshot_host). Not captured: the Lua side of
 *  hooks and filters (only their flags), the collider handle tag (handles are re-tagged
 *  for the world restored into), caches (broadphase grid, gather caches). A snapshot
 *  and the worlds it came from or went into belong to one thread. */
typedef struct bp_Snapshot bp_Snapshot;

/** The version of the byte image (bp_snapshot_encode, bp_entity_export): a decoder
 *  refuses any other. */
#define BP_SNAPSHOT_VERSION 1
/** Doubles a snapshot keeps for its host (a binding's clock). */
#define BP_SNAPSHOT_HOST 8

/** Take a snapshot of w into *out (allocated through alloc/ud; free with
 *  bp_snapshot_free). Linear in the entity slots, chunks, colliders, triggers and
 *  events; copies no block ids: the chunk id arrays are shared, so alloc must free
 *  blocks w's allocator made and the other way round (one underlying allocator), and
 *  the same holds for every world the snapshot is restored into. BP_ENOMEM leaves
 *  nothing allocated. Source: our own. */
bp_Status bp_world_take_snapshot(bp_World *w, bp_AllocFn alloc, void *ud, bp_Snapshot **out);

/** Take w's state into s, a snapshot taken before (of any world), reusing its memory:
 *  arrays whose size is unchanged are not reallocated, so that a ring of snapshots
 *  retaken every tick allocates nothing in the steady state. BP_ENOMEM leaves s empty
 *  (a snapshot of nothing: no types, restores refuse it) but valid. Source: our own. */
bp_Status bp_world_retake_snapshot(bp_World *w, bp_Snapshot *s);

/** A collider or trigger handle without its world's tag (bits 48..62), and the same
 *  handle with w's tag: what names the same slot in a world restored from a snapshot.
 *  0 stays 0. Source: our own. */
uint64_t bp_handle_untag(uint64_t handle);

/** The id of the live entity in slot `slot` (0-based), or {0, 0} for a free slot or
 *  one beyond the pool. Source: our own. */
bp_EntityId bp_world_slot_id(const bp_World *w, uint32_t slot);
uint64_t bp_world_retag_handle(const bp_World *w, uint64_t handle);

/** Free a snapshot (NULL is accepted). Source: our own. */
void bp_snapshot_free(bp_Snapshot *s);

/** The snapshot's host values (BP_SNAPSHOT_HOST doubles, 0 unless set), written and
 *  read by the host; coded with the snapshot, left out of hashes. Source: our own. */
double *bp_snapshot_host(bp_Snapshot *s);

/** The tick count (bp_World.tick) the snapshot was taken at. Source: our own. */
uint64_t bp_snapshot_tick(const bp_Snapshot *s);

/** Bytes the snapshot holds (shared chunk arrays counted whole). Source: our own. */
size_t bp_snapshot_bytes(const bp_Snapshot *s);

/** How many of the snapshot's chunk id arrays another holder (a world, another
 *  snapshot) shares: what copy-on-write saved. Source: our own. */
uint32_t bp_snapshot_shared_chunks(const bp_Snapshot *s);

/** Whether w's live entities are the snapshot's (the same ids in the same slots), so
 *  that a restore changes no entity's id: what a host keeps per slot stays right.
 *  Source: our own. */
int bp_world_same_ids(const bp_World *w, const bp_Snapshot *s);

/** bp_world_restore_snapshot flag: clear the hook and filter flags of every entity
 *  (the host cannot give their functions back, e.g. after a decode). */
enum { BP_RESTORE_DROP_HOOKS = 1 };

/** Put w back to the state of s exactly, whatever world s was taken from (the same
 *  allocator; a different world's allocator copies nothing but the arrays are shared,
 *  so both must use the same allocation function). The world's block types must be the
 *  snapshot's first ones (same definitions, same ids): the missing ones are defined.
 *  Entity ids of the snapshot name the same entities again; others name nothing. Then
 *  the host re-attaches what it keeps per slot. BP_EINVAL with *why when the world is
 *  locked or its types differ (nothing changed), BP_ENOMEM (the types defined so far
 *  stay; nothing else changed). Source: our own. */
bp_Status bp_world_restore_snapshot(bp_World *w, const bp_Snapshot *s, unsigned flags,
                                    const char **why);

/** Write the snapshot's byte image into buf if it holds cap bytes; returns the image's
 *  size either way (buf NULL: only the size). Little-endian, the same on every build;
 *  version BP_SNAPSHOT_VERSION, ending in a 64-bit digest of the rest. Source: our own. */
size_t bp_snapshot_encode(const bp_Snapshot *s, void *buf, size_t cap);

/** Decode a byte image of n bytes into *out (allocated with alloc/ud). BP_EINVAL with
 *  *why ("truncated", "corrupted: ...", "unknown snapshot version", "not a blockphys
 *  snapshot") for anything else than an image bp_snapshot_encode wrote, BP_ENOMEM.
 *  Allocates at most about 215 n bytes + 64 KB whatever the input: every count is
 *  checked against the bytes left first, and the densest case is a free entity slot,
 *  coded in 5 bytes and given a whole slot (about 1 KB) in memory; a real image
 *  decodes into about its own size. Source: our own. */
bp_Status bp_snapshot_decode(bp_AllocFn alloc, void *ud, const void *bytes, size_t n,
                             bp_Snapshot **out, const char **why);

/** For fuzzers: make a changed snapshot or entity image of n bytes (n >= 24) pass the
 *  length and checksum tests again (its body length and digest rewritten in place),
 *  so that the decoder's own checks meet the change. Source: our own. */
void bp_image_reseal(void *bytes, size_t n);

/** A 64-bit digest of the world's simulation state: what a snapshot holds but the
 *  host values, free entity slots' stale contents and caches; handles without the
 *  world's tag; chunks as an order-free sum over the chunks holding blocks (each
 *  chunk's digest cached until it changes); each entity's rules as the digest of their
 *  coded bytes (shared by entities in a row with the same rules). Equal states give
 *  equal hashes on every build. Linear in the entity slots. Source: our own. */
uint64_t bp_world_hash(bp_World *w);

/** The same digest of a snapshot's state (bp_world_hash of a world restored from it).
 *  Source: our own. */
uint64_t bp_snapshot_hash(const bp_Snapshot *s);

/** Write entity id's state (box, velocity, flags, fall and camera state, rules, groups,
 *  inputs) as a byte image into buf if it holds cap bytes; returns the size (0: no
 *  such entity). Source: our own. */
size_t bp_entity_export(bp_World *w, bp_EntityId id, void *buf, size_t cap);

/** Make a new entity in w from an exported image, at its own position or at pos (feet,
 *  blocks; NULL: its own), with its state but a new id and serial; its hook flags are
 *  cleared (hooks are the exporter's functions). BP_EINVAL with *why for a bad image,
 *  a locked world or a position out of range; BP_ENOMEM. Source: our own. */
bp_Status bp_world_import(bp_World *w, const void *bytes, size_t n, const double *pos,
                          bp_EntityId *id, const char **why);

/* --- entity broadphase (broadphase.c) --- */

/* --- resolvers --- */

/* --- queries that move nothing (raycast.c) --- */

/** Longest ray (blocks): bounds the cells one raycast walks. */
#define BP_MAX_RAY 4096.0

/** A ray's hit on a block shape or a static collider. */
typedef struct bp_RayHit {
	int kind;          /* BP_HIT_* */
	int32_t cell[3];   /* block position (BP_HIT_BLOCK) */
	uint16_t id;       /* block id (BP_HIT_BLOCK), else 0 */
	uint32_t collider; /* internal: 1-based collider slot (BP_HIT_COLLIDER), else 0 */
	int normal[3];     /* face normal: one component is +-1 */
	double point[3];   /* hit point (blocks) */
	double distance;   /* from the origin along the unit direction (blocks) */
	bp_ColliderId collider_id; /* the collider met (BP_HIT_COLLIDER), else 0 */
} bp_RayHit;

/** First contact of a swept box: kind BP_HIT_NONE with t = 1 when nothing is met. */
typedef struct bp_SweepHit {
	int kind;          /* BP_HIT_* */
	double t;          /* fraction of the displacement in [0, 1] */
	double move[3];    /* the displacement to the hit, t * v, on the normal's axis
	                    * shortened (bp_settle) so that the box never ends inside the
	                    * box met: t * v can round past its face by an ulp */
	double face;       /* the coordinate of the face met, on the normal's axis */
	int normal[3];     /* face normal of the box met */
	int32_t cell[3];   /* block position (BP_HIT_BLOCK) */
	uint16_t id;       /* block id (BP_HIT_BLOCK) */
	uint32_t collider; /* internal: 1-based collider slot (BP_HIT_COLLIDER) */
	bp_ColliderId collider_id; /* the collider met (BP_HIT_COLLIDER), else 0 */
} bp_SweepHit;

/** Unit vector of d (scaled first by its largest component, so huge and tiny
 *  components both work). BP_EINVAL if d is zero or not finite. Source: our own. */
bp_Status bp_ray_normalize(const double d[3], double unit[3]);

/** Nearest block shape or static collider on the ray from o (blocks) along dir (any
 *  nonzero length; normalised here) within max blocks. Grid walk over the cells the ray
 *  crosses, each also testing the cell below when some shape rises above its cell;
 *  slab test per box. A box counts when the ray passes through its interior at a
 *  distance in (0, max]; a ray starting inside a box hits it at distance 0 with the
 *  normal against the largest direction component. Ties: the block met first in walk
 *  order, blocks before colliders. BP_EINVAL for a zero or non-finite direction, max
 *  outside (0, BP_MAX_RAY], |o| above BP_MAX_COORD. hit->kind is BP_HIT_NONE when
 *  nothing is hit. Source: the grid walk of J. Amanatides and A. Woo, "A Fast Voxel
 *  Traversal Algorithm for Ray Tracing" (Eurographics 1987), our own implementation;
 *  the slab test and the hit rule: our own. */
bp_Status bp_world_raycast(bp_World *w, const double o[3], const double dir[3], double max,
                           bp_RayHit *hit);

/** bp_world_raycast's flags: test each block's outline (bp_BlockType.outline, the
 *  shape a cursor selects) instead of its collision boxes; and select liquids (a
 *  liquid's cell up to its surface: a full cell under the same liquid, else 8/9 of a
 *  block for a source or falling liquid and (8 - level)/9 for a flowing one). */
enum { BP_RAY_OUTLINE = 1, BP_RAY_LIQUIDS = 2 };

/** bp_world_raycast with flags (BP_RAY_*; 0 is bp_world_raycast itself). Static
 *  colliders count in every mode. Same limits and errors. Source: as bp_world_raycast;
 *  outlines: our own, after the game's separate outline (selection) shapes; the
 *  liquid surface: today's game's fluid height (FlowingFluid.getHeight), restated. */
bp_Status bp_world_raycast_with(bp_World *w, const double o[3], const double dir[3],
                                double max, unsigned flags, bp_RayHit *hit);

/** How far box m can move by v (blocks) before it touches a block shape or static
 *  collider (bp_aabb_sweep, MC-CPP collide, against every box near the swept region):
 *  the earliest hit, ties to the first in bp_world_visit_cells order, then colliders.
 *  Boxes m already overlaps are ignored; a box met exactly at the end gives t = 1 and a
 *  hit. hit->move, the displacement, is shortened by ulps on any axis where t x v would
 *  round past a face (of the box met, or of another met at the same time), so m moved
 *  by it never ends inside a box it did not start in. A region wholly beyond the int32
 *  grid holds no cells. Moves nothing. BP_ELIMIT when |v| on an axis exceeds BP_MAX_MOVE or is not
 *  finite, or when the cells of the path hold more than BP_MAX_QUERY_BOXES block boxes
 *  (callers also bound the region's cell count). Ties at one time: a face contact
 *  before an edge or corner one, then the normal's axis X, Y, Z, then blocks (cell
 *  order) before colliders (by box): never the order of insertion. Source:
 *  docs/mccpp.md (the swept test per box); the region walk: our own. */
bp_Status bp_world_sweep(bp_World *w, const bp_AABB *m, const double v[3], bp_SweepHit *hit);

/** Number of cells bp_world_sweep would scan for m moving by v (blocks), for a work
 *  limit (0 for a still box, which it does not scan). Source: our own. */
double bp_world_sweep_cells(const bp_World *w, const bp_AABB *m, const double v[3]);

/* --- the rules' stages, for hooks and scripts (beta173.c, mccpp.c) --- */

/** MC-CPP's input acceleration (b/s^2; X, Z) for strafe, forward and magnitude k at
 *  yaw (degrees), in double: input longer than 1 is normalised. Source:
 *  docs/mccpp.md, with Beta's moveFlying direction convention. */
void bp_heading_mccpp(double yaw, double strafe, double forward, double k, double a[2]);

/* --- depenetration (depenetrate.c) --- */

/* --- sleeping (sleep.c) --- */

/** Turn sleeping on or off (world.sleeping). Off (a new world's default in C; the Lua
 *  binding turns it on) wakes every sleeper. Results are the same bit for bit either
 *  way, provided every write of an entity's fields outside a step is preceded by
 *  bp_entity_touch (inputs: bp_entity_wake). Source: our own. */
void bp_world_set_sleeping(bp_World *w, int on);

/** Whether sleeping is on. Source: our own. */
int bp_world_sleeping(const bp_World *w);

/* --- what moves did: contacts, ground, events (contact.c, events.c) --- */

/** The events since the last bp_world_events_clear (count in *count), in the order
 *  they happened: ticks in order; within a tick, entities in update order; within an
 *  entity's move, hits by face (X, Y, Z; the move toward -axis first), then its
 *  landing. What a hit or landing met is found here, from the entity's box as it was
 *  and the world as it is now (a block removed since: kind BP_HIT_NONE). Valid until
 *  the next step, move or clear. Source: our own
 *  (docs/events.md; Box2D v3's events are read after the step the same way). */
bp_Event *bp_world_events(bp_World *w, uint32_t *count);

/** The number of events queued (without finding what they met). Source: our own. */
uint32_t bp_world_event_count(const bp_World *w);

/** Empty the event queue. Source: our own. */
void bp_world_events_clear(bp_World *w);

/** The most events kept between two reads (default BP_DEFAULT_MAX_EVENTS); BP_EINVAL
 *  above BP_MAX_EVENTS. Lowering it keeps the events already queued. Source: our own. */
bp_Status bp_world_set_max_events(bp_World *w, uint32_t max);
uint32_t bp_world_max_events(const bp_World *w);

/** Events not queued since the world was made (the queue was full, or out of memory).
 *  Source: our own. */
uint64_t bp_world_events_dropped(const bp_World *w);

/** The least approach speed (blocks/s, >= 0 and finite; default 0) of a reported
 *  hit; BP_EINVAL otherwise. Source: our own (Box2D v3's hit event threshold). */
bp_Status bp_world_set_hit_speed(bp_World *w, double speed);
double bp_world_hit_speed(const bp_World *w);

/** Steps run so far: bp_world_step adds one when it succeeds (during a step, the
 *  number of the step running). Source: our own. */
uint64_t bp_world_tick(const bp_World *w);

/* --- the step (step.c, api.c) --- */

/** Step every entity once, in creation order (its rules -> its resolver -> the Beta
 *  push), then the separation push; events are queued (bp_world_events). dt: seconds
 *  in [1e-6, 1], as the binding's world:step (BP_EINVAL otherwise, NaN included), used
 *  by per-second models only (Beta rules are per tick). BP_ELIMIT, nothing moved, when
 *  some entity's velocity would move it more than BP_MAX_MOVE blocks on an axis in
 *  this step (its |velocity| x dt for MC-CPP rules, x 1 tick for Beta ones);
 *  BP_ELOCKED from a hook. The scripts' Lua hooks and filters do not run here (the
 *  native stages do): a host whose scripts set them steps with bp_lua_step
 *  (<blockphys/lua.h>). It cannot fail otherwise. Linear in the live entities, plus
 *  the work of their moves. Source: docs/api.md, "Stepping"; docs/beta173.md and docs/mccpp.md
 *  for the rules. */
bp_Status bp_world_step(bp_World *w, double dt);

/** dt (seconds) of the step running, for checks of what hooks write (meaningful while
 *  bp_world_lock is 1; the last step's dt after it, 0 before the first step). Any
 *  time. Source: our own. */
double bp_world_step_dt(const bp_World *w);

/* --- entities by id (api.c) --- */

/** Whether id names a live entity of w (1) or not (0: null, removed, slot reused).
 *  Any time. Source: our own. */
int bp_entity_is_valid(const bp_World *w, bp_EntityId id);

/** The ids of the live entities in creation order (the step's order): the first
 *  min(n, cap) into out (out may be NULL when cap is 0), their number to *n. Valid
 *  until the next spawn or remove. Any time. Source: our own. */
bp_Status bp_world_get_entities(const bp_World *w, bp_EntityId *out, uint32_t cap,
                                uint32_t *n);

/** The feet position (centre of the box's bottom face; blocks) of the entity into
 *  pos. BP_ESTALE for an id naming no live entity. Any time. Source: our own
 *  (docs/conventions.md). */
bp_Status bp_entity_get_position(const bp_World *w, bp_EntityId id, double pos[3]);

/** The entity's box (world space, blocks) into *box. BP_ESTALE as above. Any time. */
bp_Status bp_entity_get_box(const bp_World *w, bp_EntityId id, bp_AABB *box);

/** Put the entity's feet at pos (blocks) without collision, as the binding's
 *  e:teleport: its previous position too (no interpolation jump), on_ground, fall
 *  distance and landing cleared, velocity kept. BP_EINVAL for a coordinate not finite
 *  or above BP_MAX_COORD in size, BP_ESTALE. Allowed from a hook (as e:teleport).
 *  Source: our own. */
bp_Status bp_entity_teleport(bp_World *w, bp_EntityId id, const double pos[3]);

/** The entity's velocity into v: blocks/tick for Beta rules, blocks/s for MC-CPP
 *  rules. BP_ESTALE. Any time. Source: our own. */
bp_Status bp_entity_get_velocity(const bp_World *w, bp_EntityId id, double v[3]);

/** Set the entity's velocity (units as bp_entity_get_velocity). BP_EINVAL for a
 *  component that is not finite (nothing changes), BP_ESTALE. The next bp_world_step
 *  refuses a velocity that would move it more than BP_MAX_MOVE on an axis. Allowed
 *  from a hook. Source: our own. */
bp_Status bp_entity_set_velocity(bp_World *w, bp_EntityId id, const double v[3]);

/** The entity's inputs into *in (bp_EntityInput). BP_ESTALE. Any time. */
bp_Status bp_entity_get_input(const bp_World *w, bp_EntityId id, bp_EntityInput *in);

/** Set the entity's inputs from *in: forward and strafe in [-1, 1], yaw finite
 *  (degrees), jumping, sneaking and flying booleans (any nonzero value is true;
 *  in->jump_latch is ignored: a jump pressed here latches until the entity's next
 *  tick, so that a tap between two steps still jumps). BP_EINVAL for a value out of
 *  range (nothing changes), BP_ESTALE. Allowed from a hook. Source: our own
 *  (docs/game-loop.md). */
bp_Status bp_entity_set_input(bp_World *w, bp_EntityId id, const bp_EntityInput *in);

/** A copy of the entity's rules (bp_rules.h; a script may have changed them through
 *  the bridge) into *rules. BP_ESTALE. Any time. Source: our own. */
bp_Status bp_entity_get_rules(const bp_World *w, bp_EntityId id, bp_Rules *rules);

/** Whether the entity stood on something after its last move, into *on_ground (0 or
 *  1). BP_ESTALE. Any time. Source: docs/beta173.md (onGround). */
bp_Status bp_entity_on_ground(const bp_World *w, bp_EntityId id, int *on_ground);

/** The boxes touching the entity on the faces where its last step stopped it: on each
 *  such face, the block boxes, static colliders and blocking entity boxes nearest
 *  beyond it within the move's reach, overlapping the face (not at an edge). One entry
 *  per box, sorted by face (normal +X, -X, +Y, -Y, +Z, -Z), kind (blocks, colliders,
 *  entities), then cell, collider id or entity creation order, then box; found when
 *  asked, from the world as it is now. The first min(n, cap) into out (may be NULL
 *  when cap is 0), their number to *n: call again with room for n when n > cap.
 *  BP_ESTALE, BP_ENOMEM. Any time. Source: our own (docs/events.md). */
bp_Status bp_entity_get_contacts(bp_World *w, bp_EntityId id, bp_Contact *out,
                                 uint32_t cap, uint32_t *n);

/** What the entity stands on, into *ground with *found = 1: among its contacts below
 *  (normal +Y) after a step that stopped a downward move, the one whose top the centre
 *  of its box's bottom is over (edges included), else the nearest to that point; ties
 *  to the first in contact order. *found = 0 in the air. BP_ESTALE. Any time. Source:
 *  our own (Beta reads the block under the centre for slipperiness:
 *  docs/beta173.md). */
bp_Status bp_entity_get_ground(bp_World *w, bp_EntityId id, bp_Contact *ground, int *found);

/* --- static colliders and triggers by id (api.c) --- */

/** Whether id names a live static collider of w (1) or not (0). Any time. */
int bp_collider_is_valid(const bp_World *w, bp_ColliderId id);

/** Remove a static collider; its id and copies of it name nothing after (the slot is
 *  reused with the next generation). BP_ESTALE for an id naming no live collider of w,
 *  BP_ELOCKED from a hook. Source: our own. */
bp_Status bp_collider_remove(bp_World *w, bp_ColliderId id);

/** The collider's box (world space, blocks) into *box. BP_ESTALE. Any time. */
bp_Status bp_collider_get_box(const bp_World *w, bp_ColliderId id, bp_AABB *box);

/** Make the collider one-way through `face` (a BP_FACE_* value; BP_FACE_NONE blocks
 *  every move again). BP_EINVAL for a face outside BP_FACE_NONE..BP_FACE_NORTH,
 *  BP_ESTALE, BP_ELOCKED from a hook. Source: our own (docs/mechanics.md, "One-way
 *  blocks"). */
bp_Status bp_collider_set_one_way(bp_World *w, bp_ColliderId id, int face);

/** Remove a trigger (an id from bp_world_add_trigger): its overlaps end with leave
 *  events at once. BP_ESTALE for an id naming no live trigger of w, BP_ELOCKED from a
 *  hook. Source: our own. */
bp_Status bp_trigger_remove(bp_World *w, bp_ColliderId id);

/** The trigger's box (world space, blocks) into *box. BP_ESTALE. Any time. */
bp_Status bp_trigger_get_box(const bp_World *w, bp_ColliderId id, bp_AABB *box);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
