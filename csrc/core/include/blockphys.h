/* SPDX-License-Identifier: MIT
 * blockphys.h - the public API of blockphys' C core (no Lua here): what a binding
 * calls. Internal helpers are declared in the core's own headers (the .h files of csrc/core),
 * which a binding cannot include (it is built without that include path).
 *
 * Ownership: a bp_World owns block types, blocks, static colliders and entities.
 * Callers keep handles (bp_EntityId) and look entities up for each call; a pointer
 * from bp_world_entity is valid until the next spawn or remove.
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

#include "bp_aabb.h"
#include "bp_base.h"
#include "bp_entity.h"
#include "bp_events.h"
#include "bp_rules.h"
#include "bp_world.h"

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
 *  or removed; 1 while bp_world_step runs (its hooks and filters); while a
 *  bp_world_move_entity that took the lock runs, the value its caller gave. Callers
 *  refuse structural changes while it is nonzero (the core does not check). Inline:
 *  entity field writes and hooks read it. Source: our own. */
static inline int bp_world_lock(const bp_World *w)
{
	return w->locked;
}

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

/** Define a block type; its id (1..65535) goes to *id. Fails with BP_EINVAL when
 *  bp_block_def_error finds a problem, BP_EEXIST on a duplicate name, BP_ELIMIT past
 *  65535 types, BP_ENOMEM. Nothing changes on failure. Source: our own. */
bp_Status bp_world_define_block(bp_World *w, const bp_BlockDef *def, uint16_t *id);

/** Id of the type named `name`, or -1. Source: our own. */
int32_t bp_world_find_type(const bp_World *w, const char *name);

/** The block type of id `id` (0 is air), or NULL when no type has that id. The pointer
 *  is valid until the next bp_world_define_block (the type's name and boxes until the
 *  world is destroyed). Source: our own. */
const bp_BlockType *bp_world_block_type(const bp_World *w, uint32_t id);

/** Block id at a block coordinate (0 = air). Source: our own (docs/conventions.md). */
uint16_t bp_world_get_block(bp_World *w, int32_t x, int32_t y, int32_t z);

/** Set one block. `id` must be a defined id (not checked). BP_ENOMEM (or BP_ELIMIT if
 *  the chunk table would pass its size limit) leaves the world unchanged (a chunk
 *  created for the block goes again). Source: our own. */
bp_Status bp_world_set_block(bp_World *w, int32_t x, int32_t y, int32_t z, uint16_t id);

/** Set every block of the inclusive box [x1..x2]x[y1..y2]x[z1..z2] (x1 <= x2 etc.).
 *  `id` must be a defined id (not checked). The caller bounds the box's size (the
 *  binding: BP_MAX_FILL_CHUNKS chunks, 65,536 cut ones); here it is
 *  limited only by memory. Whole chunks inside the box become uniform without
 *  per-block work. Two phases:
 *  every allocation happens first, so BP_ENOMEM (or BP_ELIMIT if the chunk table would
 *  pass its size limit) leaves every block as it was; the chunks and arrays that phase
 *  made are then dropped again. Source: our own. */
bp_Status bp_world_fill(bp_World *w, const int32_t lo[3], const int32_t hi[3], uint16_t id);

/** Add a static collider (world space, blocks; copied, not validated: lo <= hi is the
 *  caller's check) in the slot freed last (else a new slot), in O(1); its handle (see
 *  BP_MAX_COLLIDERS) goes to *handle. BP_ENOMEM, or BP_ELIMIT past BP_MAX_COLLIDERS
 *  slots or the array's size limit (nothing changes). Source: our own (docs/architecture.md). */
bp_Status bp_world_add_collider(bp_World *w, const bp_AABB *box, uint64_t *handle);
/** The handle of the collider in 1-based slot index1 (alive). Source: our own. */
uint64_t bp_world_collider_handle(const bp_World *w, uint32_t index1);
/** Make the live collider in 1-based slot index1 one-way through `face` (BP_FACE_*; in
 *  [0, BP_FACE_NORTH], not checked; BP_FACE_NONE makes it block every move again).
 *  Source: our own (docs/mechanics.md, "One-way blocks"). */
void bp_world_set_collider_one_way(bp_World *w, uint32_t index1, int face);
/** The message of a one_way value outside the BP_FACE_* range. */
#define BP_ONE_WAY_ERROR "one_way must be \"up\", \"down\", \"north\", \"south\", \"east\" or \"west\""
/** The 1-based slot of the live collider that `handle` names in this world, else 0
 *  (removed, slot reused, never added, another world's). Source: our own. */
uint32_t bp_world_collider_slot(const bp_World *w, uint64_t handle);
/** Remove a live collider (1-based slot from bp_world_collider_slot). The slot keeps
 *  its generation and is reused first, unless its generation has reached
 *  BP_MAX_COLLIDER_GEN (then it is retired for good). Moves, queries and rays still
 *  walk free slots, so the cost of colliders follows the most ever alive at once.
 *  Source: our own. */
void bp_world_remove_collider(bp_World *w, uint32_t index1);
/** The box (world space, blocks) of the live collider in 1-based slot index1 (from
 *  bp_world_collider_slot; not checked). Valid until the next bp_world_add_collider.
 *  Source: our own. */
const bp_AABB *bp_world_collider_box(const bp_World *w, uint32_t index1);

/* --- triggers (sensor.c) --- */

/** Add a trigger: a box (world space, blocks; copied, not validated) that blocks
 *  nothing and reports the entities whose box comes to overlap it (strictly) and
 *  stops overlapping it, as BP_EVENT_ENTER and BP_EVENT_LEAVE events after each step;
 *  an entity counts when (mask & its group) and (its mask & group) are both nonzero.
 *  Its handle (as collider handles: slot, generation, the world's tag) goes to *handle.
 *  BP_ENOMEM, or BP_ELIMIT past BP_MAX_COLLIDERS slots. Overlaps it has from the start
 *  are reported by the next step. Source: our own (docs/mechanics.md). */
bp_Status bp_world_add_trigger(bp_World *w, const bp_AABB *box, uint32_t group, uint32_t mask,
                               uint64_t *handle);
/** The 1-based slot of the live trigger `handle` names in this world, else 0. */
uint32_t bp_world_trigger_slot(const bp_World *w, uint64_t handle);
/** Remove a live trigger (slot from bp_world_trigger_slot): its overlaps end with
 *  leave events at once. Source: our own. */
void bp_world_remove_trigger(bp_World *w, uint32_t index1);
/** The box of a live trigger (slot from bp_world_trigger_slot). */
const bp_AABB *bp_world_trigger_box(const bp_World *w, uint32_t index1);

/* --- region queries (query.c) --- */

/** Number of block cells a query of `region` (blocks) would scan (for the bounded-work
 *  limit; a double, as it may pass 2^64).
 *  Source: our own. */
double bp_world_region_cells(const bp_World *w, const bp_AABB *region);

/** Gather every box overlapping `region` strictly into w->scratch (cleared first; valid
 *  until the next gather), in bp_world_visit order. BP_ENOMEM if the list cannot grow,
 *  BP_ELIMIT if the region holds more than `max_boxes` boxes (the list then holds a
 *  partial list). Callers bound the region (bp_world_region_cells). Source: as
 *  bp_world_visit. */
bp_Status bp_world_gather(bp_World *w, const bp_AABB *region, size_t max_boxes);

/** The boxes (world space, blocks) the last bp_world_gather of w listed, their number
 *  in *count. Valid until the next gather: any query of w, or a move, may gather.
 *  Source: our own. */
const bp_AABB *bp_world_gathered(const bp_World *w, size_t *count);

/* --- entities (entity.c) --- */

/** Defaults: at the origin, width 0.6F x height 1.8F (blocks), not solid, group 1, mask
 *  all, Beta rules. Source: docs/beta173.md section 7 (the player's box);
 *  group and mask: our own. */
bp_EntityDef bp_default_entity_def(void);

/** Spawn an entity; its handle goes to *id. def: width in (0, BP_MAX_ENTITY_WIDTH],
 *  height in (0, BP_MAX_ENTITY_HEIGHT], feet position with |x|, |y|, |z| <=
 *  BP_MAX_COORD (all blocks; rules not checked here: the caller's job). BP_EINVAL for
 *  a size or position outside those ranges (NaN included), BP_ENOMEM on allocation
 *  failure, BP_ELIMIT if a pool array would pass bp_grow's limit (nothing changes on
 *  any of them). A solid entity counts among the world's solid entities. Source: our
 *  own (handles: bp_entity.h). */
bp_Status bp_world_spawn(bp_World *w, const bp_EntityDef *def, bp_EntityId *id);

/** The 1-based slot the next successful bp_world_spawn of w will use (a freed slot,
 *  else a new one), so that a binding can reserve its own per-slot storage first.
 *  Source: our own. */
uint32_t bp_world_next_slot(const bp_World *w);

/** The live entity named by id, or NULL (null, out of range, removed, or reused slot).
 *  Source: our own. */
bp_Entity *bp_world_entity(bp_World *w, bp_EntityId id);

/** Remove a live entity; its handle and copies of it become invalid (a solid one no
 *  longer counts among the solid entities). BP_EINVAL for an invalid handle, BP_ENOMEM
 *  if the free list cannot grow (nothing changes). Source: our own. */
bp_Status bp_world_remove(bp_World *w, bp_EntityId id);

/** The number of live entities. Source: our own. */
uint32_t bp_world_entity_count(const bp_World *w);

/** The slot (0-based: bp_EntityId.index1 - 1, as hooks and bp_broadphase_moved name
 *  entities) of the i-th live entity in creation order, the step's order; i in
 *  [0, bp_world_entity_count). Source: our own. */
uint32_t bp_world_entity_slot(bp_World *w, uint32_t i);

/** The entity in slot `slot` (0-based), live or not (not checked: callers know the
 *  slot is live, as a hook's argument is). Valid until the next spawn or remove.
 *  Source: our own. */
bp_Entity *bp_world_slot_entity(bp_World *w, uint32_t slot);

/** Make entity e of w solid (its box blocks other entities' moves) or not, keeping
 *  the world's count of solid entities. Source: our own. */
void bp_entity_set_solid(bp_World *w, bp_Entity *e, int solid);

/** Whether some live entity's rules carry a heading or jump hook, or it has an entity
 *  filter: a step may then call the caller's code, which may fail and must then be
 *  undone (bp_world_snapshot_save). Linear in the live entities. Source: our own. */
int bp_world_any_hooks(bp_World *w);

/** Bytes a snapshot of every entity slot and its inputs takes: what a step that can
 *  fail saves first (bp_world_snapshot_save). Changes only when slots are added (a
 *  spawn into a new slot). Source: our own. */
size_t bp_world_snapshot_size(const bp_World *w);

/** Copy every entity slot and its inputs into buf, which holds
 *  bp_world_snapshot_size(w) bytes (any alignment). Source: our own. */
void bp_world_snapshot_save(const bp_World *w, void *buf);

/** Copy back a snapshot of w (the same slots: bp_world_snapshot_size unchanged since
 *  it was saved), every entity as it was then. Then call bp_world_entities_restored.
 *  Source: our own. */
void bp_world_snapshot_restore(bp_World *w, const void *buf);

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

/** Save the entity in live slot `slot` (0-based) and its inputs into *s. Source: our
 *  own. */
void bp_world_entity_save(const bp_World *w, uint32_t slot, bp_EntityState *s);

/** Put back what bp_world_entity_save saved for slot `slot` (still the same entity).
 *  Then call bp_world_entities_restored, or bp_broadphase_moved for that slot alone
 *  inside a step whose failure restores the rest. Source: our own. */
void bp_world_entity_restore(bp_World *w, uint32_t slot, const bp_EntityState *s);

/** After entities were restored (bp_world_snapshot_restore, bp_world_entity_restore):
 *  drops the broadphase grid (rebuilt on the next query) and counts the solid
 *  entities again (solid.c). Source: our own. */
void bp_world_entities_restored(bp_World *w);

/** Replace an entity's rules (validated by the caller). Every change of rule values
 *  goes through here (see bp_World.rules_writes; the hook flags are set apart). Rules
 *  of another model than Beta clear the Beta web flag (in_web). Source: our own. */
void bp_entity_set_rules(bp_World *w, bp_Entity *e, const bp_Rules *r);

/** Position (feet: centre of the bottom face) from the box, into pos (blocks). Source:
 *  docs/conventions.md. */
static inline void bp_entity_position(const bp_Entity *e, double pos[3])
{
	pos[0] = (e->box.lo[0] + e->box.hi[0]) / 2;
	pos[1] = e->box.lo[1];
	pos[2] = (e->box.lo[2] + e->box.hi[2]) / 2;
}

/** Put the entity's box at feet position pos (blocks; no collision, no validation: the
 *  caller keeps |pos| <= BP_MAX_COORD). Does not tell the broadphase (see
 *  bp_broadphase_moved). Source: our own (docs/conventions.md). */
void bp_entity_place(bp_Entity *e, const double pos[3]);

/* --- entity broadphase (broadphase.c) --- */

/** Visitor of entity slots; returns nonzero to stop. */
typedef int (*bp_EntityVisitor)(void *ctx, uint32_t index);

/** Call fn for every live entity whose box overlaps `region` (blocks) strictly (touching is
 *  not overlap), in creation order. Rebuilds the grid first if entities were spawned
 *  or removed since the last build; if memory for the grid runs out, or the region
 *  covers more cells than the grid has listings, it scans all entities instead (same
 *  results). fn may query again (nested) but must not spawn or remove. Returns the
 *  first nonzero value of fn, else 0. Source: our own (docs/entities.md, "The broadphase"). */
int bp_broadphase_visit(bp_World *w, const bp_AABB *region, bp_EntityVisitor fn, void *ctx);

/** Tell the grid that entity slot `index` changed its box (move, teleport, push).
 *  Every writer of an entity's box outside bp_world_step must call it (the step calls
 *  it after each entity's update). Cheap when the box stays in the same cells. Source:
 *  our own. */
void bp_broadphase_moved(bp_World *w, uint32_t index);

/** Drop the grid (rebuilt on the next query): after boxes were restored wholesale.
 *  Source: our own. */
void bp_broadphase_invalidate(bp_World *w);

/* --- resolvers --- */

/** Per-axis move (Beta 1.7.3 moveEntity, docs/beta173.md section 3): sneak
 *  edge guard, clip Y then X then Z, step-up, flags, fall distance, velocity zeroing.
 *  d = requested displacement (blocks); the actual one goes to out. BP_ELIMIT when
 *  |d| on an axis exceeds BP_MAX_MOVE or is not finite (nothing moves). An entity
 *  filter that fails (Lua error) still gives BP_OK: it sets w->hook_failed, which the
 *  caller checks (the binding then undoes the move), and from then on every filtered
 *  pair is refused (does not interact) for the rest of the move. */
bp_Status bp_move_axis(bp_World *w, bp_Entity *e, const double d[3], double out[3]);

/** Swept move (MC-CPP, docs/mccpp.md (the MC-CPP documents restated)): up to
 *  rules.passes passes; each finds the earliest hit (bp_aabb_sweep) among block shapes,
 *  static colliders and solid entities along the remaining displacement, moves there
 *  less rules.back_off (time units of the pass, clamped at 0) and zeroes the velocity
 *  and the remaining displacement on the hit axis; step assist by rules.step_height
 *  (step_offset and prev[1] adjusted); per-axis clip as a safety fallback. Flags and
 *  fall distance have bp_move_axis's meaning; a zero d is a no-op. d = requested
 *  displacement (blocks); the actual one goes to out. BP_ELIMIT when |d| on an axis
 *  exceeds BP_MAX_MOVE or is not finite (nothing moves); a failing filter: as
 *  bp_move_axis. Decisions: docs/mccpp.md. */
bp_Status bp_move_swept(bp_World *w, bp_Entity *e, const double d[3], double out[3]);

/* --- queries that move nothing (raycast.c) --- */

/** Longest ray (blocks): bounds the cells one raycast walks. */
#define BP_MAX_RAY 4096.0

/** A ray's hit on a block shape or a static collider. */
typedef struct bp_RayHit {
	int kind;          /* BP_HIT_* */
	int32_t cell[3];   /* block position (BP_HIT_BLOCK) */
	uint16_t id;       /* block id (BP_HIT_BLOCK), else 0 */
	uint32_t collider; /* 1-based collider slot (BP_HIT_COLLIDER), else 0 */
	int normal[3];     /* face normal: one component is +-1 */
	double point[3];   /* hit point (blocks) */
	double distance;   /* from the origin along the unit direction (blocks) */
} bp_RayHit;

/** A ray's hit on an entity box: index1 = slot + 1, 0 if none. */
typedef struct bp_EntityRayHit {
	uint32_t index1;
	int normal[3];
	double point[3];
	double distance;
} bp_EntityRayHit;

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
	uint32_t collider; /* 1-based collider slot (BP_HIT_COLLIDER) */
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

/** Nearest entity box on the ray (same rule and limits as bp_world_raycast), never
 *  the entity `ignore` (a null id ignores none). Linear in the live entities; ties
 *  keep the one created first. Source: our own. */
bp_Status bp_world_raycast_entities(bp_World *w, const double o[3], const double dir[3],
                                    double max, bp_EntityId ignore, bp_EntityRayHit *hit);

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

/** One box that a swept box crosses (bp_world_sweep_all). */
typedef struct bp_SweepCross {
	int kind;           /* BP_HIT_BLOCK, BP_HIT_COLLIDER or BP_HIT_ENTITY */
	double entry, exit; /* fractions of the displacement: the interiors overlap for t
	                     * in (entry, exit); entry in [0, 1) (0 when they overlap at
	                     * the start); exit > 1 when they still overlap at the end */
	int normal[3];      /* the face of the box crossed at entry; 0, 0, 0 when the
	                     * boxes overlap at the start */
	int inside;         /* overlapping at the start */
	int32_t cell[3];    /* block position (BP_HIT_BLOCK) */
	uint16_t id;        /* block id (BP_HIT_BLOCK) */
	uint32_t collider;  /* 1-based collider slot (BP_HIT_COLLIDER) */
	uint64_t handle;    /* the collider's handle (BP_HIT_COLLIDER) */
	uint32_t entity;    /* entity slot, 0-based (BP_HIT_ENTITY) */
	uint32_t serial;    /* the entity's serial (creation order) */
	bp_AABB box;        /* the box crossed (world space, blocks) */
	int rank;           /* order at the same entry: a face before an edge, X, Y, Z */
} bp_SweepCross;

/** Every block box, static collider and entity box that box m crosses as it moves by
 *  v (blocks; |v| <= BP_MAX_MOVE per axis): those whose interiors it overlaps at some
 *  t in [0, 1] (touching is not crossing), the ones it starts inside included. Sorted
 *  by entry; at the same entry, those it starts inside first, then a face contact
 *  before an edge or corner one and the normal's axis X, Y, Z, then blocks (by cell, x
 *  then y then z, and box), colliders (by box), entities (creation order): never by
 *  visit or insertion order. With v = 0: the boxes m overlaps (entry 0, exit +inf).
 *  Writes the first min(n, cap) into out and the count to *n (call again with room
 *  for n when n > cap). BP_ELIMIT past BP_MAX_QUERY_BOXES block boxes tested on the
 *  path, past BP_MAX_QUERY_BOXES crossings of any kind (blocks, colliders and entities:
 *  the list's memory is at most that many bp_SweepCross), or |v| over BP_MAX_MOVE;
 *  BP_ENOMEM. Callers bound the region's cells (bp_world_sweep_all_cells). Moves nothing. Source: our own (bump's
 *  querySegmentWithCoords, for boxes). */
bp_Status bp_world_sweep_all(bp_World *w, const bp_AABB *m, const double v[3],
                             bp_SweepCross *out, uint32_t cap, uint32_t *n);

/** Number of cells bp_world_sweep would scan for m moving by v (blocks), for a work
 *  limit (0 for a still box, which it does not scan). Source: our own. */
double bp_world_sweep_cells(const bp_World *w, const bp_AABB *m, const double v[3]);

/** Number of cells bp_world_sweep_all scans for m moving by v (blocks), for a work
 *  limit: as bp_world_sweep_cells, but a still box counts its own cells (it lists the
 *  boxes it starts inside). Source: our own. */
double bp_world_sweep_all_cells(const bp_World *w, const bp_AABB *m, const double v[3]);

/* --- the rules' stages, for hooks and scripts (beta173.c, mccpp.c) --- */

/** Beta moveFlying (the native heading stage): the velocity change dv (b/t; X, Z) for
 *  input strafe, forward (already scaled by the sneak factor and the 0.98F damping) and
 *  acceleration k, in float as the game, with MathHelper's sine table at `yaw`
 *  (degrees; cached in the entity). Zero when |(strafe, forward)| < 0.01F. Source:
 *  docs/beta173.md section 1. */
void bp_heading_beta173(bp_Entity *e, double yaw, float strafe, float forward, float k,
                        double dv[2]);

/** The native Beta jump stage for a tick with jump held: +rules.liquid_jump to vy in
 *  water or lava (e->in_water, e->in_lava of this tick), else vy = rules.jump_impulse on
 *  the ground. Source: docs/beta173.md section 0. */
void bp_jump_beta173(bp_Entity *e);

/** MC-CPP's input acceleration (b/s^2; X, Z) for strafe, forward and magnitude k at
 *  yaw (degrees), in double: input longer than 1 is normalised. Source:
 *  docs/mccpp.md, with Beta's moveFlying direction convention. */
void bp_heading_mccpp(double yaw, double strafe, double forward, double k, double a[2]);

/** MC-CPP's jump: on the ground, vy = sqrt(2 jump_height gravity) (b/s) with
 *  integrator "mccpp"; with "exact" (the default), on the ground and in no liquid
 *  (e->in_water, e->in_lava of the last substep), vy = the launch speed whose exact
 *  parabola peaks at the documents' 60-fps apex (mccpp.h, bp_jump_speed_mccpp).
 *  Source: docs/mccpp.md (the launch speed: derived, our own). */
void bp_jump_mccpp(bp_Entity *e);

/** Beta EntityLiving.knockBack on entity e (Beta rules): all motion halved, then the
 *  X/Z motion pushed by rules.knockback (0.4F b/t) along the direction (dx, dz)
 *  divided by its length as a Java float, then vy += rules.knockback, capped at
 *  rules.knockback_max_vy (0.4F). (dx, dz): the direction of the push (the game passes
 *  attacker minus entity and subtracts; the results are the same), any length.
 *  BP_EINVAL, changing nothing, when that float length is 0 or infinite (about
 *  |(dx, dz)| < 1e-45 or > 3.4e38: the game would make NaN or no push). Source:
 *  docs/beta173.md section 2 ("Knockback"). */
bp_Status bp_knockback_beta173(bp_Entity *e, double dx, double dz);

/* --- depenetration (depenetrate.c) --- */

/** The shortest translation out (blocks, into out) of box `box`: the offset of least
 *  length, at most `max` blocks (in [0, BP_MAX_DEPENETRATE]), after which the box
 *  overlaps no block shape, static collider, or solid entity that blocks `self` (self
 *  may be NULL: every solid entity; groups and masks apply, filter functions are not
 *  called), touching allowed. *found = 1 with the offset (0,
 *  0, 0 when the box overlaps nothing), or 0 when no such offset exists within max.
 *  Ties in length: the positive offset first on each axis, then Y before X before Z.
 *  BP_EINVAL for max out of range; BP_ELIMIT with more than BP_MAX_DEPENETRATE_OFFSETS
 *  candidate offsets on an axis or BP_MAX_DEPENETRATE_TRIES positions tried; BP_ENOMEM.
 *  Moves nothing. Source: our own (docs/entities.md, "Depenetration"). */
bp_Status bp_world_depenetrate(bp_World *w, const bp_Entity *self, const bp_AABB *box,
                               double max, double out[3], int *found);

/** bp_world_depenetrate for entity slot `index` (live), then the entity moved by the
 *  offset found (its previous position too, so that drawing does not slide), and the
 *  broadphase told. Same results; nothing moves unless *found. Source: our own. */
bp_Status bp_entity_depenetrate(bp_World *w, uint32_t index, double max, double out[3],
                                int *found);

/* --- what moves did: contacts, ground, events (contact.c, events.c) --- */

/** The boxes touching entity slot `slot` (0-based, live) on the faces where its last
 *  step (or script move) was stopped: on each such face, the block boxes, static
 *  colliders and blocking entity boxes nearest beyond it within the move's reach,
 *  overlapping the face (not at an edge). One entry per box, sorted by face (normal +X,
 *  -X, +Y, -Y, +Z, -Z), kind (blocks, colliders, entities), then cell (x, y, z),
 *  collider handle or entity creation order, then box. Found when asked, from the
 *  world as it is now: a block removed since is gone. Writes the first min(n, cap)
 *  into out and the count to *n (call again with room for n when n > cap; out is
 *  sorted only when n <= cap). Source: our own (docs/events.md). */
bp_Status bp_entity_contacts(bp_World *w, uint32_t slot, bp_Contact *out, uint32_t cap,
                             uint32_t *n);

/** What entity slot `slot` (live) stands on, into *c: when its last step stopped a
 *  downward move (or did not move it vertically after one), among the contacts below it
 *  (normal +Y), the one whose top the centre of its box's bottom is over (edges
 *  included), else the one nearest to that point; ties go to the first in contact
 *  order (blocks before colliders before entities, then lowest x, y, z). 0 in the air
 *  or when nothing is found. Source: our own (Beta reads the block under
 *  the centre for slipperiness: docs/beta173.md). */
int bp_entity_ground(bp_World *w, uint32_t slot, bp_Contact *c);

/** The velocity of what entity slot `slot` stands on, in its own units (blocks/tick
 *  for Beta rules, blocks/s for MC-CPP rules): an entity ground's displacement over its
 *  last step (per tick, or divided by the last step's dt); 0 for blocks, colliders and
 *  in the air. Source: our own. */
void bp_entity_ground_velocity(bp_World *w, uint32_t slot, double v[3]);

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

/* --- the step (step.c) --- */

/** Step every entity in creation order (rules -> resolver -> Beta push), then the
 *  separation push. dt (seconds, > 0 and finite) is used by per-second models only
 *  (Beta rules are per tick). The world's lock is 1 meanwhile (bp_world_lock).
 *  hooks (may be NULL) stay in w->hooks during the step so that resolvers and pushes
 *  reach the entity filters. Returns nonzero if a hook or filter aborted; the world
 *  is then unlocked but partially stepped: callers that need atomicity save a
 *  snapshot first (bp_world_snapshot_save) and restore it, then call
 *  bp_world_entities_restored (as the binding's world:step does). Source:
 *  docs/api.md, "Stepping"; the per-model sources above. */
int bp_world_step(bp_World *w, double dt, const bp_Hooks *hooks);

/** Inside bp_world_step: the slot + 1 of the entity whose tick runs (its hooks may not
 *  switch its model), 0 between ticks (the separation push) and outside a step.
 *  Inline: hooks read it. Source: our own. */
static inline uint32_t bp_world_ticking(const bp_World *w)
{
	return w->ticking;
}

/** dt (seconds) of the step running, for checks of what hooks write (meaningful while
 *  bp_world_lock is 1; 0 before the first step). Inline: hooks read it. Source: our
 *  own. */
static inline double bp_world_step_dt(const bp_World *w)
{
	return w->step_dt;
}

/** After a bp_world_step that failed: the slot + 1 of the entity whose heading hook
 *  changed its tick displacement by more than BP_MAX_MOVE, with that change's largest
 *  |component| (blocks) in *by; 0 (*by untouched) when a hook or filter failed
 *  instead. Source: our own. */
uint32_t bp_world_step_over_limit(const bp_World *w, double *by);

/** Move the entity in live slot `slot` (0-based) by d (blocks) with the per-axis
 *  (swept = 0: bp_move_axis) or the swept resolver (bp_move_swept), as a script's
 *  e:move: hooks->filter decides the pairs of entities with a filter (hooks may be
 *  NULL: bits only). Outside a step or move (bp_world_lock 0) the world is locked
 *  meanwhile with `lock` (nonzero, the caller's code for its messages); inside one
 *  (a hook or filter moving an entity) its lock stays. The hooks in place before are
 *  put back after, and the broadphase is told of the move. Returns the resolver's
 *  status (BP_ELIMIT for a displacement over BP_MAX_MOVE), or BP_EHOOK when a filter
 *  failed in this call (not in an earlier one of the step or move it runs in): then
 *  the move went on refusing every filtered pair, and the caller undoes it
 *  (bp_world_entity_save); the failure stays noted for the step or move it runs in,
 *  which fails too. Source: our own (docs/entities.md,
 *  "Filtering"). */
bp_Status bp_world_move_entity(bp_World *w, uint32_t slot, int swept, int lock,
                               const bp_Hooks *hooks, const double d[3], double out[3]);

/** Largest |velocity component| x (dt for MC-CPP entities, 1 tick for Beta ones) over
 *  the live entities: the largest per-axis displacement (blocks) any entity could
 *  attempt this step, for the BP_MAX_MOVE pre-check. Pushes are not included. `*slot`
 *  gets the slot of the first entity (creation order) that attempts it, or UINT32_MAX
 *  without entities. Source: our own (docs/api.md, "Stepping"). */
double bp_world_max_displacement(bp_World *w, double dt, uint32_t *slot);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
