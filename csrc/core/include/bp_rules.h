/* SPDX-License-Identifier: MIT
 * bp_rules.h - gameplay rules of one entity: every constant of the movement models,
 * as named fields. Presets: Beta 1.7.3 (per tick, docs/beta173.md) and
 * MC-CPP (per second, docs/mccpp.md).
 */
#ifndef BP_RULES_H
#define BP_RULES_H

#if defined(__GNUC__) /* public: exported by libblockphys (see blockphys.h) */
#pragma GCC visibility push(default)
#endif

#include <stddef.h>
#include <stdint.h>

typedef enum { BP_MODEL_BETA173 = 0, BP_MODEL_MCCPP = 1 } bp_Model;
typedef enum { BP_RESOLVER_AXIS = 0, BP_RESOLVER_SWEPT = 1 } bp_Resolver;
typedef enum { BP_PUSH_NONE = 0, BP_PUSH_BETA173 = 1, BP_PUSH_SEPARATE = 2 } bp_PushModel;
/** MC-CPP rules' integrator: "exact" (the default: substeps of at most max_dt seconds,
 *  each the exact solution of the state's linear ODE; liquids and ladders) or "mccpp"
 *  (the documents' forward Euler with the clamped linear decay, bit for bit; no liquids,
 *  no ladders). docs/mccpp.md. */
typedef enum { BP_INTEGRATOR_EXACT = 0, BP_INTEGRATOR_MCCPP = 1 } bp_Integrator;

/** The rules of one entity. Units: Beta model in blocks and blocks/tick, MC-CPP model
 *  in blocks and blocks/second. Float-literal defaults are the game's Java float
 *  constants widened to double (docs/beta173.md, "F" notation). */
typedef struct bp_Rules {
	int model;    /* bp_Model */
	int resolver; /* bp_Resolver */
	int push;     /* bp_PushModel */
	int integrator; /* bp_Integrator (MC-CPP rules only) */
	/* Lua hooks present (the functions live on the Lua side) */
	uint8_t hook_heading;
	uint8_t hook_jump;

	/* --- Beta 1.7.3 (per tick). The fields every tick reads come first, so that a
	 * tick touches few cache lines of its entity. --- */
	double input_damping;     /* forward/strafe x 0.98F each tick */
	double jump_impulse;      /* motionY on a ground jump: 0.42F */
	double ground_accel;      /* 0.1F: scaled by accel_factor / f^3 */
	double accel_factor;      /* 0.16277136F */
	double air_accel;         /* 0.02F */
	double air_friction;      /* 0.91F: horizontal x in air; f = slipperiness x 0.91F */
	double default_slipperiness; /* 0.6F: used when standing over air */
	double gravity;           /* Beta 0.08 b/t^2; MC-CPP 32 b/s^2 */
	double vertical_drag;     /* 0.98F */
	double step_height;       /* Beta 0.5F; MC-CPP 0.6 (step assist) */
	double camera_decay;      /* ySize x 0.4F per move */
	double step_cooldown;     /* no step while ySize >= 0.05F */
	double sneak_factor;      /* input scale while sneaking: 0.3F */
	double sneak_camera;      /* ySize raised to 0.2F while sneaking */
	double guard_probe;       /* sneak edge guard probe depth 1.0 */
	double guard_step;        /* sneak edge guard reduction 0.05 */
	int sneak_guard;          /* sneaking on the ground holds the entity at edges */
	int step_sink_fix;        /* false: reproduce the step-up sink quirk (section 9.2) */
	int push_out_of_blocks;   /* the local player's pushOutOfBlocks runs (false: opt in) */
	int drop_through_sneaking; /* sneaking passes one-way "up" boxes (false; our own,
	                            * docs/mechanics.md) */

	/* --- Beta 1.7.3 (per tick): liquids, ladders --- */
	double liquid_jump;       /* motionY += 0.04F per tick swimming up */
	double water_accel;       /* 0.02F */
	double water_drag;        /* 0.8F */
	double water_gravity;     /* 0.02 */
	double lava_accel;        /* 0.02F */
	double lava_drag;         /* 0.5 */
	double lava_gravity;      /* 0.02 */
	double breach_impulse;    /* 0.3F: motionY when leaving liquid at a wall */
	double breach_height;     /* 0.6F */
	double ladder_speed;      /* horizontal clamp 0.15F */
	double ladder_descent;    /* fastest descent 0.15 */
	double ladder_climb;      /* motionY 0.2 when pushing into a wall on a ladder */
	double water_inset_y;     /* water test box shrink on Y: 0.4F */
	double lava_inset_xz;     /* lava test box shrink on X/Z: 0.1F */
	double water_current;     /* b/t added along the water's flow each tick: 0.014 */
	double push_out_speed;    /* pushOutOfBlocks: vx or vz set to -+0.1F */
	double push_out_reach;    /* its points at centre -+ width x 0.35 on X and Z */
	double push_out_height;   /* ... and feet + 0.5 */
	double web_factor_xz;     /* a move after touching a web: dx, dz x 0.25 */
	double web_factor_y;      /* ... and dy x 0.05F */
	double knockback;         /* knockBack: horizontal push and lift 0.4F b/t */
	double knockback_max_vy;  /* knockBack: vy capped at 0.4F after the lift */

	/* --- entity pushing (both models) --- */
	double push_radius;       /* Beta: search box grown 0.2F on X/Z */
	double push_strength;     /* Beta: 0.05F */
	double push_threshold;    /* Beta: 0.01F */
	double max_push_speed;    /* separate: velocity cap after a push (b/t or b/s) */
	int depenetrate;          /* move out of what the box overlaps at the start of each
	                           * step (a block placed into it): our own, off */
	double depenetrate_distance; /* ... at most this far (blocks): 1 */
	int max_pushes;           /* neighbours one entity's push considers per step (the
	                           * first in creation order): 24, our own (no cap in Beta;
	                           * modern Minecraft's maxEntityCramming is 24) */
	int separate_iterations;  /* separate: at most this many passes a step, the extra
	                           * ones only while an overlap above separate_tolerance
	                           * remains: 8, our own (push.c) */
	double separate_tolerance; /* separate: overlap (blocks) that needs no extra pass */

	/* --- MC-CPP (per second) --- */
	double jump_height;       /* 1.25 blocks: v = sqrt(2 h g) */
	double walk_speed;        /* input acceleration magnitude, b/s^2 before friction */
	double friction[3];       /* grounded: 20, 20, 20 */
	double drag_fly[3];       /* flying: 5, 5, 5 */
	double drag_jump[3];      /* rising: 1.8, 0, 1.8 */
	double drag_fall[3];      /* falling: 1.8, 0.4, 1.8 */
	double back_off;          /* swept resolver: 0.001 of the pass */
	double camera_rise;       /* step_offset recovers 8 b/s */
	int passes;               /* swept resolver passes: 3 */

	/* --- MC-CPP, integrator "exact" (per second; mccpp_exact.c) --- */
	double max_dt;            /* longest substep: 0.05 s (our own) */
	double reference_dt;      /* frame time whose per-frame factors give the rates:
	                           * 1/60 s (MC-CPP runs at frame rate) */
	/* Liquids: derived from Beta 1.7.3's per-tick constants at 20 ticks/s (rules.c).
	 * The shared fields water_inset_y, lava_inset_xz (tests), breach_height (0.6F) and
	 * ladder_speed, ladder_descent, ladder_climb (b/s here) serve both models. */
	double water_rate;        /* 1/s: -ln(0.8F) x 20 = 4.463 */
	double water_speed;       /* b/s horizontal: 0.02F x 0.98F / (1 - 0.8F) x 20 = 1.96 */
	double water_sink;        /* b/s down: 0.02 / (1 - 0.8F) x 20 = 2 */
	double water_swim;        /* b/s up, jump held: (0.04F - 0.02) / (1 - 0.8F) x 20 = 2 */
	double lava_rate;         /* 1/s: -ln(0.5) x 20 = 13.86 */
	double lava_speed;        /* b/s: 0.02F x 0.98F / (1 - 0.5) x 20 = 0.784 */
	double lava_sink;         /* b/s: 0.02 / (1 - 0.5) x 20 = 0.8 */
	double lava_swim;         /* b/s: (0.04F - 0.02) / (1 - 0.5) x 20 = 0.8 */
	double breach_speed;      /* b/s: vy on a breach, 0.3F x 20 = 6 */

} bp_Rules;

/** The Beta 1.7.3 preset (docs/beta173.md): model beta173, resolver "axis",
 *  push "beta173", the constants commented in bp_Rules (per tick), no hooks. */
bp_Rules bp_rules_beta173(void);

/** The MC-CPP preset (docs/mccpp.md): model mccpp, resolver "swept",
 *  push "separate", the constants commented in bp_Rules (per second), no hooks. */
bp_Rules bp_rules_mccpp(void);

/** Field kinds of the rules table, for bindings and tools. */
typedef enum { BP_FIELD_NUMBER, BP_FIELD_BOOL, BP_FIELD_INT, BP_FIELD_VEC3 } bp_FieldKind;

/** Which models a field belongs to (a bit per bp_Model). */
#define BP_FOR_BETA 1
#define BP_FOR_MCCPP 2
#define BP_FOR_BOTH 3

/** One named numeric field of bp_Rules, with its valid range (inclusive). */
typedef struct bp_RuleField {
	const char *name;
	size_t offset;
	int kind;   /* bp_FieldKind */
	int models; /* BP_FOR_* */
	double min, max;
} bp_RuleField;

/** The table of numeric/boolean/vector fields, terminated by a NULL name. `model`,
 *  `resolver`, `push`, `integrator` and the hooks are not in it (bindings handle them). Units and
 *  defaults: the bp_Rules comments and the rules tables of docs/beta173.md and docs/mccpp.md; min/max are the ranges a
 *  binding must enforce (per component for BP_FIELD_VEC3). */
extern const bp_RuleField bp_rule_fields[];

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
