/* SPDX-License-Identifier: MIT
 * blockphys.h - the C core of blockphys (no Lua here). Include this one header.
 *
 * Ownership: a bp_World owns block types, blocks, static colliders and entities.
 * Callers keep handles (bp_EntityId) and look entities up for each call; a pointer
 * from bp_world_entity is valid until the next spawn or remove.
 */
#ifndef BLOCKPHYS_H
#define BLOCKPHYS_H

#include "bp_aabb.h"
#include "bp_entity.h"
#include "bp_rules.h"
#include "bp_world.h"

/** Largest displacement per axis of one resolver call (blocks). Larger moves are
 *  refused with BP_ELIMIT so that a move's work stays bounded (README "Limits"). */
#define BP_MAX_MOVE 1024.0

/** Largest |coordinate| of an entity position (blocks): inside the int32 block range
 *  with room for the largest move. */
#define BP_MAX_COORD 2147482000.0

/** Most blocks one World:fill may fill, counted in chunks (16^3 blocks). The binding
 *  checks it before calling bp_world_fill, which does not check it. */
#define BP_MAX_FILL_CHUNKS 1048576.0

/* --- internal helpers shared by the core's files --- */
/** Grow array *arr (capacity *cap elements of `size` bytes) to hold at least `need`
 *  (doubling). BP_ELIMIT past UINT32_MAX/2 elements or SIZE_MAX/2 bytes, BP_ENOMEM
 *  (the array is unchanged on either). Source: our own. */
bp_Status bp_grow(bp_World *w, void **arr, uint32_t *cap, uint32_t need, size_t size);
/** Empty the chunk lookup cache of a new world (bp_world_create). Source: our own. */
void bp_chunks_init(bp_World *w);
/** Free every chunk's array, the chunk table and its hash slots (bp_world_destroy).
 *  Source: our own. */
void bp_chunks_free(bp_World *w);
/** Free the entity pool's arrays (bp_world_destroy). Source: our own. */
void bp_entities_free(bp_World *w);

/* --- entities (entity.c) --- */

/** Defaults: at the origin, width 0.6F x height 1.8F (blocks), not solid, group 1, mask
 *  all, Beta rules. Source: reference/b173-movement.md section 7 (the player's box);
 *  group and mask: our own. */
bp_EntityDef bp_default_entity_def(void);

/** Spawn an entity; its handle goes to *id. def: width in (0, BP_MAX_ENTITY_WIDTH],
 *  height in (0, BP_MAX_ENTITY_HEIGHT], feet position with |x|, |y|, |z| <=
 *  BP_MAX_COORD (all blocks; rules not checked here: the caller's job). BP_EINVAL for
 *  a size or position outside those ranges (NaN included), BP_ENOMEM on allocation
 *  failure, BP_ELIMIT if a pool array would pass bp_grow's limit (nothing changes on
 *  any of them). Source: our own (handles: bp_entity.h). */
bp_Status bp_world_spawn(bp_World *w, const bp_EntityDef *def, bp_EntityId *id);

/** The 1-based slot the next successful bp_world_spawn of w will use (a freed slot,
 *  else a new one), so that a binding can reserve its own per-slot storage first.
 *  Source: our own. */
uint32_t bp_world_next_slot(const bp_World *w);

/** The live entity named by id, or NULL (null, out of range, removed, or reused slot).
 *  Source: our own. */
bp_Entity *bp_world_entity(bp_World *w, bp_EntityId id);

/** Remove a live entity; its handle and copies of it become invalid. BP_EINVAL for an
 *  invalid handle, BP_ENOMEM if the free list cannot grow (nothing changes). Source:
 *  our own. */
bp_Status bp_world_remove(bp_World *w, bp_EntityId id);

/** Replace an entity's rules (validated by the caller). Every change of rule values
 *  goes through here (see bp_World.rules_writes; the hook flags are set apart). Rules
 *  of another model than Beta clear the Beta web flag (in_web). Source: our own. */
void bp_entity_set_rules(bp_World *w, bp_Entity *e, const bp_Rules *r);

/** The inputs of a live entity of w (see bp_EntityInput; units there). Source: our own. */
static inline bp_EntityInput *bp_entity_input(bp_World *w, const bp_Entity *e)
{
	return &w->entities.input[e - w->entities.items];
}

/** Position (feet: centre of the bottom face) from the box, into pos (blocks). Source:
 *  DESIGN.md section 1. */
static inline void bp_entity_position(const bp_Entity *e, double pos[3])
{
	pos[0] = (e->box.lo[0] + e->box.hi[0]) / 2;
	pos[1] = e->box.lo[1];
	pos[2] = (e->box.lo[2] + e->box.hi[2]) / 2;
}

/** Put the entity's box at feet position pos (blocks; no collision, no validation: the
 *  caller keeps |pos| <= BP_MAX_COORD). Does not tell the broadphase (see
 *  bp_broadphase_moved). Source: our own (DESIGN.md section 1). */
void bp_entity_place(bp_Entity *e, const double pos[3]);

/** The fall distance after a drop of `drop` blocks. Beta's fallDistance is a Java
 *  float, so for Beta-rules entities each sum is rounded to float (values beyond float
 *  range stay unrounded); other models keep doubles. Used by both resolvers.
 *  Source: reference/b173-movement.md section 3e (updateFallState). */
double bp_fall_add(const bp_Entity *e, double drop);

/** After a move whose on_ground the resolver has set: Beta's updateFallState, shared
 *  by both resolvers. Landing with a fall distance above 0 reports it in landing_fall
 *  (what the game passes to fall()) and resets it; a distance a script set to 0 or
 *  below stays; in the air a drop `dy` < 0 (blocks) adds to it (bp_fall_add).
 *  Source: reference/b173-movement.md section 3e (updateFallState). */
static inline void bp_update_fall(bp_Entity *e, double dy)
{
	e->landing_fall = e->on_ground && e->fall_distance > 0 ? e->fall_distance : 0;
	if (e->landing_fall > 0)
		e->fall_distance = 0;
	else if (!e->on_ground && dy < 0)
		e->fall_distance = bp_fall_add(e, -dy);
}

/* --- what blocks a move (solid.c) --- */

/** Clip displacement d (blocks) of box m along axis (BP_X/Y/Z) against blocks, static
 *  colliders and the solid entities that block `self` (never self; self may be NULL).
 *  Returns the allowed displacement. `within`: see bp_world_clip_axis. Source:
 *  reference/b173-movement.md sections 3-4 (entities' collision boxes in the gather). */
double bp_clip(bp_World *w, const bp_Entity *self, const bp_AABB *m, int axis, double d,
               const bp_AABB *within);
/** True if any blocking box (blocks, colliders, solid entities but self) overlaps region
 *  (blocks).
 *  Source: reference/b173-movement.md section 4 (blocks and solid entities); static
 *  colliders: our own. */
int bp_blocked(bp_World *w, const bp_Entity *self, const bp_AABB *region);
/** Copy every blocking box overlapping region (blocks, colliders, then solid entities
 *  but self) into out, at most cap; returns the count, or -1 if there are more or the
 *  region spans more than max_cells cells. cache: see bp_world_collect (may be NULL).
 *  Source: as bp_blocked. */
int bp_collect_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                        bp_AABB *out, int cap, double max_cells, bp_GatherCache *cache);
/** Visit every blocking box overlapping region (blocks and colliders, then solids).
 *  Returns the first nonzero value of fn (the walk stops there), else 0. Source: as
 *  bp_blocked. */
int bp_visit_blocking(bp_World *w, const bp_Entity *self, const bp_AABB *region,
                      bp_BoxVisitor fn, void *ctx);
/** Group/mask filter: a and b interact if each one's mask has the other's group.
 *  Source: our own (README "Filtering: groups, masks, filter functions"). */
int bp_entities_interact(const bp_Entity *a, const bp_Entity *b);
/** Groups and masks, then the entity filters (w->hooks->filter, a's first): true if
 *  a and b push or block each other. A failing filter sets w->hook_failed and the
 *  pair does not interact (the step then aborts). Source: our own (README "Filtering:
 *  groups, masks, filter functions"). */
int bp_pair_interacts(bp_World *w, const bp_Entity *a, const bp_Entity *b);

/* --- entity broadphase (broadphase.c, bp_broadphase.h) --- */

/** Visitor of entity slots; returns nonzero to stop. */
typedef int (*bp_EntityVisitor)(void *ctx, uint32_t index);

/** Call fn for every live entity whose box overlaps `region` (blocks) strictly (touching is
 *  not overlap), in creation order. Rebuilds the grid first if entities were spawned
 *  or removed since the last build; if memory for the grid runs out, or the region
 *  covers more cells than the grid has listings, it scans all entities instead (same
 *  results). fn may query again (nested) but must not spawn or remove. Returns the
 *  first nonzero value of fn, else 0. Source: our own (README "The broadphase"). */
int bp_broadphase_visit(bp_World *w, const bp_AABB *region, bp_EntityVisitor fn, void *ctx);

/** Tell the grid that entity slot `index` changed its box (move, teleport, push).
 *  Every writer of an entity's box outside bp_world_step must call it (the step calls
 *  it after each entity's update). Cheap when the box stays in the same cells. Source:
 *  our own. */
void bp_broadphase_moved(bp_World *w, uint32_t index);

/** Drop the grid (rebuilt on the next query): after boxes were restored wholesale.
 *  Source: our own. */
void bp_broadphase_invalidate(bp_World *w);

/** Free the grid's memory (bp_world_destroy). Source: our own. */
void bp_broadphase_free(bp_World *w);

/* --- resolvers --- */

/** Per-axis move (Beta 1.7.3 moveEntity, reference/b173-movement.md section 3): sneak
 *  edge guard, clip Y then X then Z, step-up, flags, fall distance, velocity zeroing.
 *  d = requested displacement (blocks); the actual one goes to out. BP_ELIMIT when
 *  |d| on an axis exceeds BP_MAX_MOVE or is not finite (nothing moves). An entity
 *  filter that fails (Lua error) still gives BP_OK: it sets w->hook_failed, which the
 *  caller checks (the binding then undoes the move), and from then on every filtered
 *  pair is refused (does not interact) for the rest of the move. */
bp_Status bp_move_axis(bp_World *w, bp_Entity *e, const double d[3], double out[3]);

/** Swept move (MC-CPP, sources/mccpp-entity-physics.txt and mccpp-collider.txt): up to
 *  rules.passes passes; each finds the earliest hit (bp_aabb_sweep) among block shapes,
 *  static colliders and solid entities along the remaining displacement, moves there
 *  less rules.back_off (time units of the pass, clamped at 0) and zeroes the velocity
 *  and the remaining displacement on the hit axis; step assist by rules.step_height
 *  (step_offset and prev[1] adjusted); per-axis clip as a safety fallback. Flags and
 *  fall distance have bp_move_axis's meaning; a zero d is a no-op. d = requested
 *  displacement (blocks); the actual one goes to out. BP_ELIMIT when |d| on an axis
 *  exceeds BP_MAX_MOVE or is not finite (nothing moves); a failing filter: as
 *  bp_move_axis. Decisions: README.md, "MC-CPP rules and the swept resolver". */
bp_Status bp_move_swept(bp_World *w, bp_Entity *e, const double d[3], double out[3]);

/* --- entity pushing (push.c) --- */

/** Beta velocity push of entity slot `index` (after its move) against every neighbour
 *  whose box overlaps its box grown by rules.push_radius on X/Z: both velocities change
 *  by push_strength along the Chebyshev-normalised offset (blocks/tick), nothing below
 *  push_threshold. Filters apply (a failure sets w->hook_failed). Source:
 *  reference/b173-movement.md section 6. */
void bp_push_beta173(bp_World *w, uint32_t index);
/** Positional separation of all "separate" entities after the moves: circles of radius
 *  width/2 on X/Z, half the overlap each, applied through the per-axis clip; stable
 *  entities also gain displacement/dt as velocity, capped by max(max_push_speed, prior
 *  speed). dt: seconds for MC-CPP entities, one tick for Beta ones. Stops early if a
 *  filter failed (w->hook_failed). Source: sources/n64-quick-collisions.txt; README
 *  "Push models". */
void bp_push_separate(bp_World *w, double dt);

/* --- queries that move nothing (raycast.c) --- */

/** Longest ray (blocks): bounds the cells one raycast walks. */
#define BP_MAX_RAY 4096.0

enum { BP_HIT_NONE = 0, BP_HIT_BLOCK = 1, BP_HIT_COLLIDER = 2 };

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
 *  finite (callers also bound the region's cell count). Source:
 *  sources/mccpp-collider.txt (the swept test per box); the region walk: our own. */
bp_Status bp_world_sweep(bp_World *w, const bp_AABB *m, const double v[3], bp_SweepHit *hit);

/** Number of cells bp_world_sweep would scan for m moving by v (blocks), for a work
 *  limit. Source: our own. */
double bp_world_sweep_cells(const bp_World *w, const bp_AABB *m, const double v[3]);

/* --- the step --- */

/** Lua (or other) hooks that replace a stage of the rules. Each returns nonzero to
 *  abort the step (the caller then restores the snapshot it took). */
typedef struct bp_Hooks {
	void *ctx;
	/* heading: input -> velocity change (dvx, dvz); k = acceleration factor */
	int (*heading)(void *ctx, bp_World *w, uint32_t index, double strafe, double forward,
	               double k, double dv[2]);
	/* jump: called while the jump input is held, instead of the native jump */
	int (*jump)(void *ctx, bp_World *w, uint32_t index);
	/* filter: entity `self` (has_filter set) decides whether it interacts with `other`
	 * (push and block); *allow = 0 refuses the pair */
	int (*filter)(void *ctx, bp_World *w, uint32_t self, uint32_t other, int *allow);
} bp_Hooks;

/** One tick of the Beta 1.7.3 rules for entity slot `index`: water/lava tests, input,
 *  jump (or the jump hook), heading (or the heading hook), movement branch (water, lava,
 *  ladder, ground/air), move by rules.resolver, gravity, drag, friction. Units:
 *  blocks/tick. Ends with the Beta push when rules.push is "beta173". Returns nonzero
 *  if a hook or filter aborted or a heading hook's change passed BP_MAX_MOVE (the
 *  entity may be partly updated). Source: reference/b173-movement.md sections 0, 1
 *  (heading), 2, 5, 6 (push), 8. */
int bp_tick_beta173(bp_World *w, uint32_t index, const bp_Hooks *hooks);

/** Beta EntityPlayerSP.pushOutOfBlocks, four times (the box's corners on X/Z drawn in
 *  to width x rules.push_out_reach from its centre, at rules.push_out_height above its
 *  feet): for each such point whose cell or the cell above is a normal cube (a full
 *  opaque cube: bp_BlockType.normal_cube), vx or vz is set to -+rules.push_out_speed
 *  (0.1F b/t) toward the nearest side whose two cells are open. Beta rules, per tick,
 *  called by bp_tick_beta173 when rules.push_out_of_blocks is set. Source:
 *  reference/b173-movement.md section 0; the method body and World.isBlockNormalCube
 *  as in the decompile (reference S1). */
void bp_push_out_of_blocks(bp_World *w, bp_Entity *e);

/** Beta moveFlying (the native heading stage): the velocity change dv (b/t; X, Z) for
 *  input strafe, forward (already scaled by the sneak factor and the 0.98F damping) and
 *  acceleration k, in float as the game, with MathHelper's sine table at `yaw`
 *  (degrees; cached in the entity). Zero when |(strafe, forward)| < 0.01F. Source:
 *  reference/b173-movement.md section 1. */
void bp_heading_beta173(bp_Entity *e, double yaw, float strafe, float forward, float k,
                        double dv[2]);

/** The native Beta jump stage for a tick with jump held: +rules.liquid_jump to vy in
 *  water or lava (e->in_water, e->in_lava of this tick), else vy = rules.jump_impulse on
 *  the ground. Source: reference/b173-movement.md section 0. */
void bp_jump_beta173(bp_Entity *e);

/** MC-CPP's input acceleration (b/s^2; X, Z) for strafe, forward and magnitude k at
 *  yaw (degrees), in double: input longer than 1 is normalised. Source:
 *  sources/mccpp-entity-physics.txt, with Beta's moveFlying direction convention. */
void bp_heading_mccpp(double yaw, double strafe, double forward, double k, double a[2]);

/** MC-CPP's jump: on the ground, vy = sqrt(2 jump_height gravity) (b/s). Source:
 *  sources/mccpp-entity-physics.txt. */
void bp_jump_mccpp(bp_Entity *e);

/** Beta EntityLiving.knockBack on entity e (Beta rules): all motion halved, then the
 *  X/Z motion pushed by rules.knockback (0.4F b/t) along the direction (dx, dz)
 *  divided by its length as a Java float, then vy += rules.knockback, capped at
 *  rules.knockback_max_vy (0.4F). (dx, dz): the direction of the push (the game passes
 *  attacker minus entity and subtracts; the results are the same), any length.
 *  BP_EINVAL, changing nothing, when that float length is 0 or infinite (about
 *  |(dx, dz)| < 1e-45 or > 3.4e38: the game would make NaN or no push). Source:
 *  reference/b173-movement.md section 2 ("Knockback"). */
bp_Status bp_knockback_beta173(bp_Entity *e, double dx, double dz);

/** One MC-CPP update of dt seconds (> 0, finite: checked by the caller) for entity
 *  slot `index` (sources/mccpp-entity-physics.txt, "Physics Update Loop"): prev,
 *  step_offset rise, input acceleration x friction vector x dt (heading hook: k =
 *  walk_speed, result in b/s^2), jump (or the jump hook), move by rules.resolver,
 *  gravity, clamped decay, then the Beta push when rules.push is "beta173". Returns
 *  nonzero if a hook aborted or a heading hook's change passed BP_MAX_MOVE
 *  (bp_heading_over_limit). No liquids. */
int bp_tick_mccpp(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks);

/** Step every entity in creation order (rules -> resolver -> Beta push), then the
 *  separation push. dt (seconds, > 0 and finite) is used by per-second models only
 *  (Beta rules are per tick).
 *  hooks (may be NULL) stay in w->hooks during the step so that resolvers and pushes
 *  reach the entity filters. Returns nonzero if a hook or filter aborted; the world
 *  is then unlocked but partially stepped: callers
 *  that need atomicity copy w->entities.items first and restore it, then call
 *  bp_broadphase_invalidate (as the binding's world:step does). Source: README
 *  "Stepping"; the per-model sources above. */
int bp_world_step(bp_World *w, double dt, const bp_Hooks *hooks);

/** Largest |velocity component| x (dt for MC-CPP entities, 1 tick for Beta ones) over
 *  the live entities: the largest per-axis displacement (blocks) any entity could
 *  attempt this step, for the BP_MAX_MOVE pre-check. Pushes are not included. `*slot`
 *  gets the slot of the first entity (creation order) that attempts it, or UINT32_MAX
 *  without entities. Source: our own (README "Stepping"). */
double bp_world_max_displacement(const bp_World *w, double dt, uint32_t *slot);

/** The displacement d (blocks) that a tick's move makes for the wanted v: v clamped to
 *  BP_MAX_MOVE per axis. The step's pre-check bounds each velocity, the binding bounds
 *  what Lua code writes during the step, and a heading hook's change is bounded where it
 *  is added (bp_heading_over_limit); what the rules' own acceleration adds on top (MC-CPP
 *  over a large dt) is clamped here. Source: our own (README "Stepping"). */
void bp_tick_displacement(const double v[3], double d[3]);

/** Clamps each velocity component of e so that it moves e at most BP_MAX_MOVE blocks
 *  in one step of w->step_dt seconds (one tick for Beta rules): the largest value the
 *  step's pre-check accepts (w->vel_limit, set when the step starts). Applied after
 *  each tick and each push, so that what the rules, a heading hook or a push add on
 *  top of legal values never stops the next step of the same dt. Units: blocks/tick
 *  (Beta) or blocks/s (MC-CPP). Only inside world:step. Source: our own (README
 *  "Stepping"). */
void bp_clamp_velocity(const bp_World *w, bp_Entity *e);

/** A heading hook of slot `index` changed the tick displacement by (c0, c2) blocks: 0 if
 *  within BP_MAX_MOVE per axis, else 1 with w->over_limit and w->over_by set (the step
 *  fails). Source: our own. */
int bp_heading_over_limit(bp_World *w, uint32_t index, double c0, double c2);

#endif
