/* SPDX-License-Identifier: MIT
 * bp_internal.h - the core's internal interface: what the core's own files and the Lua
 * binding call beyond the public API of blockphys.h. Never installed, and its
 * functions are not exported by libblockphys (they keep the objects' hidden
 * visibility). Entities are named here by slot (0-based; bp_EntityId.index1 - 1) and
 * reached by pointer, colliders and triggers by 1-based slot: the public API names
 * them only by id (bp_EntityId, bp_ColliderId) and checks the id on every call.
 *
 * This header declares the types it names without their layout. The layouts are in
 * bp_world.h (with bp_entity.h, bp_events.h, bp_sensor.h, bp_broadphase.h): the core
 * includes them, and of the binding only the files tools/check_structure.lua allows
 * (those whose field accesses are on the hot paths or not yet ported).
 */
#ifndef BP_INTERNAL_H
#define BP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "blockphys.h"

typedef struct bp_Entity bp_Entity;
typedef struct bp_EntityState bp_EntityState;
typedef struct bp_BlockType bp_BlockType;
typedef struct bp_Hooks bp_Hooks;

/** Inside bp_world_step_hooks: the slot + 1 of the entity whose tick runs (its hooks
 *  may not switch its model), 0 between ticks (the separation push) and outside a
 *  step. Source: our own. */
uint32_t bp_world_ticking(const bp_World *w);

/** Step every entity in creation order (rules -> resolver -> Beta push), then the
 *  separation push: bp_world_step without its checks, with hooks. dt (seconds, > 0
 *  and finite; the caller checks it, and that no entity would move more than
 *  BP_MAX_MOVE: bp_world_max_displacement) is used by per-second models only (Beta
 *  rules are per tick). The world's lock is 1 meanwhile (bp_world_lock). hooks (may
 *  be NULL) stay in w->hooks during the step so that resolvers and pushes reach the
 *  entity filters. Returns nonzero if a hook or filter aborted; the world is then
 *  unlocked but partially stepped: callers that need atomicity save a snapshot first
 *  (bp_world_snapshot_save) and restore it, then call bp_world_entities_restored (as
 *  the binding's world:step does). Source: docs/api.md, "Stepping"; the per-model
 *  sources. */
int bp_world_step_hooks(bp_World *w, double dt, const bp_Hooks *hooks);

/** The block type of id `id` (0 is air), or NULL when no type has that id. The pointer
 *  is valid until the next bp_world_define_block (the type's name and boxes until the
 *  world is destroyed). Source: our own. */
const bp_BlockType *bp_world_block_type(const bp_World *w, uint32_t id);

/** The handle of the collider in 1-based slot index1 (alive). Source: our own. */
uint64_t bp_world_collider_handle(const bp_World *w, uint32_t index1);

/** Make the live collider in 1-based slot index1 one-way through `face` (BP_FACE_*; in
 *  [0, BP_FACE_NORTH], not checked; BP_FACE_NONE makes it block every move again).
 *  Source: our own (docs/mechanics.md, "One-way blocks"). */
void bp_world_set_collider_one_way(bp_World *w, uint32_t index1, int face);

/** The 1-based slot of the live collider that `handle` names in this world, else 0
 *  (removed, slot reused, never added, another world's). Source: our own. */
uint32_t bp_world_collider_slot(const bp_World *w, uint64_t handle);

/** Set how many entities a step must visit before its loops load ahead (prefetch
 *  hints, which change no result; 32,768 by default, below which a crowd's state fits
 *  a desktop's last-level cache). Returns the previous value. For the specs, which
 *  compare results with and without. Source: our own. */
uint32_t bp_world_set_prefetch_crowd(bp_World *w, uint32_t n);

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

/** The 1-based slot of the live trigger `handle` names in this world, else 0. */
uint32_t bp_world_trigger_slot(const bp_World *w, uint64_t handle);

/** Remove a live trigger (slot from bp_world_trigger_slot): its overlaps end with
 *  leave events at once. Source: our own. */
void bp_world_remove_trigger(bp_World *w, uint32_t index1);

/** The box of a live trigger (slot from bp_world_trigger_slot). */
const bp_AABB *bp_world_trigger_box(const bp_World *w, uint32_t index1);

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

/** The 1-based slot the next successful bp_world_spawn of w will use (a freed slot,
 *  else a new one), so that a binding can reserve its own per-slot storage first.
 *  Source: our own. */
uint32_t bp_world_next_slot(const bp_World *w);

/** The live entity named by id, or NULL (null, out of range, removed, or reused slot).
 *  Source: our own. */
bp_Entity *bp_world_entity(bp_World *w, bp_EntityId id);

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


/** Put the entity's box at feet position pos (blocks; no collision, no validation: the
 *  caller keeps |pos| <= BP_MAX_COORD). Does not tell the broadphase (see
 *  bp_broadphase_moved). Source: our own (docs/conventions.md). */
void bp_entity_place(bp_Entity *e, const double pos[3]);

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

/** A ray's hit on an entity box: index1 = slot + 1, 0 if none. */
typedef struct bp_EntityRayHit {
	uint32_t index1;
	int normal[3];
	double point[3];
	double distance;
} bp_EntityRayHit;

/** Nearest entity box on the ray (same rule and limits as bp_world_raycast), never
 *  the entity `ignore` (a null id ignores none). Linear in the live entities; ties
 *  keep the one created first. Source: our own. */
bp_Status bp_world_raycast_entities(bp_World *w, const double o[3], const double dir[3],
                                    double max, bp_EntityId ignore, bp_EntityRayHit *hit);

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

/** Number of cells bp_world_sweep_all scans for m moving by v (blocks), for a work
 *  limit: as bp_world_sweep_cells, but a still box counts its own cells (it lists the
 *  boxes it starts inside). Source: our own. */
double bp_world_sweep_all_cells(const bp_World *w, const bp_AABB *m, const double v[3]);

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

/** Set the jump input: a press also latches until the entity's next tick, so that a
 *  tap released before any tick ran still jumps once. Every writer of `jumping` calls
 *  it. Source: our own (docs/game-loop.md). */
static inline void bp_input_set_jumping(bp_EntityInput *in, int jumping)
{
	in->jumping = (uint8_t)(jumping != 0);
	if (jumping)
		in->jump_latch = 1;
}

/** Whether the entity jumps this tick: held now, or pressed since its last tick. */
static inline int bp_input_jump(const bp_EntityInput *in)
{
	return in->jumping || in->jump_latch;
}

/* --- accessors for the binding's files that do not see the layouts (api.c) --- */

/** The id of the entity in slot `slot` (0-based, below the slots ever used): the slot's
 *  current generation, live or not. */
bp_EntityId bp_world_slot_id(const bp_World *w, uint32_t slot);

/** Whether slot `slot` (0-based, below the slots ever used) holds a live entity of
 *  creation serial `serial`. */
int bp_world_slot_holds(const bp_World *w, uint32_t slot, uint32_t serial);

/** The feet position of entity e (centre of the box's bottom face, blocks) into pos;
 *  its inputs (see bp_EntityInput); its box, velocity (b/t or b/s, by model; writable)
 *  and position at the start of its last step. Valid until the next spawn or remove.
 *  Functions here; inline (macros over the fields) where bp_world.h is seen. */
void bp_entity_position(const bp_Entity *e, double pos[3]);
bp_EntityInput *bp_entity_input(bp_World *w, const bp_Entity *e);
const bp_AABB *bp_entity_box(const bp_Entity *e);
double *bp_entity_vel(bp_Entity *e);
const double *bp_entity_prev(const bp_Entity *e);

/** Whether an event of the queue names entity e (the binding then keeps its userdata
 *  for the events' readers). */
int bp_entity_in_events(const bp_Entity *e);

/** Note whether entity e has a filter function (the binding keeps the function). */
void bp_entity_set_has_filter(bp_Entity *e, int has);

/** The rules of entity e (read only: changes go through bp_entity_set_rules). Valid
 *  until the next spawn or remove. */
const bp_Rules *bp_entity_rules(const bp_Entity *e);

/** Note whether entity e has a Lua heading (jump = 0) or jump (jump = 1) hook, as the
 *  binding's e.rules.heading and .jump writes do (the functions live on the Lua side). */
void bp_entity_set_hook(bp_Entity *e, int jump, int on);

/* --- the public API's shared checks (check.c) --- */

/** The checks the public API makes before adding a box (collider, trigger): BP_ELOCKED
 *  while locked, BP_EINVAL unless lo <= hi on every axis (NaN fails). */
bp_Status bp_box_check(const bp_World *w, const bp_AABB *box);

/** The checks of bp_world_fill: BP_ELOCKED while locked, BP_EINVAL for an undefined
 *  id or lo > hi on an axis, BP_ELIMIT past BP_MAX_FILL_CHUNKS chunks. */
bp_Status bp_fill_check(const bp_World *w, const int32_t lo[3], const int32_t hi[3],
                        uint16_t id);

/* --- streaming (stream.c) --- */

/** bp_world_box_unloaded of e's box, remembered in e (stream_seen ...) until a chunk
 *  is loaded or unloaded or the box touches other chunks. Source: our own. */
int bp_entity_frozen(bp_World *w, bp_Entity *e);


/* --- sleeping (sleep.c): what writers of an entity call --- */

/** Whether entity e sleeps: its tick was a fixed point and nothing that could change
 *  it happened since, so steps skip it (e.sleeping). Source: our own. */
int bp_entity_sleeping(const bp_World *w, const bp_Entity *e);

/** Wake entity e: every writer of its inputs calls it (before or after the write).
 *  O(1). Source: our own. */
void bp_entity_wake(bp_World *w, bp_Entity *e);

/** After a write of entity e's inputs: wake it if they differ from `before` (bit for
 *  bit), so that a game writing the same idle inputs every tick (world:set_inputs)
 *  does not wake its sleepers. O(1). Source: our own. */
void bp_entity_input_changed(bp_World *w, bp_Entity *e, const bp_EntityInput *before);

/** Wake entity e and the sleepers within reach of its box: every writer of its state
 *  (box, velocity, flags, rules, filters) calls it before the write, and a writer of
 *  its box also after. One broadphase query while some entity sleeps, else nothing.
 *  Source: our own. */
void bp_entity_touch(bp_World *w, bp_Entity *e);

#endif
