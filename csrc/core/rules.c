/* SPDX-License-Identifier: MIT
 * rules.c - rule presets and the table of named rule fields.
 * Beta values: docs/beta173.md (float literals widened to double).
 * MC-CPP values: docs/mccpp.md.
 */
#include "bp_world.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Beta's ticks per second: the MC-CPP liquid and ladder constants are Beta's per-tick
 * behaviour at this rate. */
#define BETA_TICKS 20.0

bp_Rules bp_rules_beta173(void)
{
	bp_Rules r;
	memset(&r, 0, sizeof r);
	r.model = BP_MODEL_BETA173;
	r.resolver = BP_RESOLVER_AXIS;
	r.push = BP_PUSH_BETA173;
	r.sneak_factor = 0.3;                  /* 0.3D, the product cast to float */
	r.input_damping = 0.9800000190734863;  /* 0.98F */
	r.jump_impulse = 0.41999998688697815;  /* 0.42F */
	r.liquid_jump = 0.03999999910593033;   /* 0.04F */
	r.ground_accel = 0.10000000149011612;  /* 0.1F */
	r.accel_factor = 0.16277135908603668;  /* 0.16277136F */
	r.air_accel = 0.019999999552965164;    /* 0.02F */
	r.air_friction = 0.9100000262260437;   /* 0.91F */
	r.default_slipperiness = 0.6000000238418579; /* 0.6F */
	r.gravity = 0.08;
	r.vertical_drag = 0.9800000190734863;  /* 0.98F */
	r.water_accel = 0.019999999552965164;  /* 0.02F */
	r.water_drag = 0.800000011920929;      /* 0.8F */
	r.water_gravity = 0.02;
	r.lava_accel = 0.019999999552965164;   /* 0.02F */
	r.lava_drag = 0.5;
	r.lava_gravity = 0.02;
	r.breach_impulse = 0.30000001192092896; /* 0.3F */
	r.breach_height = 0.6000000238418579;  /* 0.6F */
	r.ladder_speed = 0.15000000596046448;  /* 0.15F */
	r.ladder_descent = 0.15;
	r.ladder_climb = 0.2;
	r.step_height = 0.5;                   /* 0.5F */
	r.guard_probe = 1.0;
	r.guard_step = 0.05;
	r.sneak_camera = 0.20000000298023224;  /* 0.2F */
	r.camera_decay = 0.4000000059604645;   /* 0.4F */
	r.step_cooldown = 0.05000000074505806; /* 0.05F */
	r.water_inset_y = 0.4000000059604645;  /* 0.4F */
	r.lava_inset_xz = 0.10000000149011612; /* 0.1F */
	r.water_current = 0.014;               /* 0.014D, handleMaterialAcceleration */
	r.push_out_of_blocks = 0; /* the local player only (EntityPlayerSP): opt in */
	r.push_out_speed = 0.10000000149011612; /* 0.1F */
	r.push_out_reach = 0.35;               /* 0.34999999999999998D */
	r.push_out_height = 0.5;
	r.web_factor_xz = 0.25;
	r.web_factor_y = 0.05000000074505806; /* 0.05F */
	r.knockback = 0.4000000059604645;        /* 0.4F */
	r.knockback_max_vy = 0.4000000059604645; /* 0.40000000596046448D */
	r.sneak_guard = 1;
	r.step_sink_fix = 0;
	r.push_radius = 0.20000000298023224;   /* 0.2F */
	r.push_strength = 0.05000000074505806; /* 0.05F */
	r.push_threshold = 0.009999999776482582; /* 0.01F */
	r.max_push_speed = 0.5;                /* our own: b/t cap for "separate" */
	r.max_pushes = 24;                     /* our own: bounds a pile's step (push.c) */
	r.separate_iterations = 8;             /* our own: settles a jammed pen (push.c) */
	r.separate_tolerance = 0.1;            /* our own: overlap (blocks) left to later steps */
	r.depenetrate = 0;                     /* our own: Beta lets a buried entity fall */
	r.depenetrate_distance = 1.0;
	/* Swept-resolver and MC-CPP fields keep MC-CPP values so that resolver = "swept"
	 * works for a Beta entity too. */
	r.back_off = 0.001;
	r.passes = 3;
	r.camera_rise = 8.0 / 20.0;            /* per tick */
	r.jump_height = 1.25;
	r.walk_speed = 4.317; /* b/s^2 input acceleration; as friction decays it, also the
	                       * grounded terminal speed in b/s (docs/mccpp.md) */
	return r;
}

bp_Rules bp_rules_mccpp(void)
{
	bp_Rules r = bp_rules_beta173();
	r.model = BP_MODEL_MCCPP;
	r.resolver = BP_RESOLVER_SWEPT;
	r.push = BP_PUSH_SEPARATE;
	/* jump_height, walk_speed, back_off and passes are already MC-CPP's (above). */
	r.gravity = 32.0;
	r.step_height = 0.6;
	const double fr[3] = {20, 20, 20}, fly[3] = {5, 5, 5};
	const double jump[3] = {1.8, 0, 1.8}, fall[3] = {1.8, 0.4, 1.8};
	memcpy(r.friction, fr, sizeof fr);
	memcpy(r.drag_fly, fly, sizeof fly);
	memcpy(r.drag_jump, jump, sizeof jump);
	memcpy(r.drag_fall, fall, sizeof fall);
	r.camera_rise = 8.0;
	r.max_push_speed = 10.0; /* b/s */
	r.integrator = BP_INTEGRATOR_EXACT;
	r.max_dt = 0.05;          /* our own: a state change is seen within 0.05 s */
	r.reference_dt = 1.0 / 60; /* MC-CPP's frame time: the rates are its per-frame
	                           * factors at 60 fps (mccpp_exact.c) */
	/* Liquids and ladders of the "exact" integrator: derived from Beta 1.7.3's per-tick
	 * constants at 20 ticks/s (b: Beta's values). In Beta's water branch the velocity
	 * m of each move follows m' = q m + a - g per tick (a: added before the move, the
	 * heading or the swim-up 0.04F; q: the drag; g: subtracted after it), which relaxes
	 * by q per tick toward (a - g) / (1 - q). The exact solution of
	 * dv/dt = k ((a - g) / (1 - q) - v) with the rate k = -ln(q) x 20 /s takes the same
	 * values at every tick boundary (docs/beta173.md sections 2, 5, 8). */
	const bp_Rules b = bp_rules_beta173();
	const double wq = b.water_drag, lq = b.lava_drag;
	const double held = b.water_accel * b.input_damping; /* 0.02F x 0.98F per tick */
	r.water_rate = -log(wq) * BETA_TICKS;                 /* 4.4629 /s */
	r.water_speed = held / (1 - wq) * BETA_TICKS;         /* 1.96 b/s (0.098 b/t) */
	r.water_sink = b.water_gravity / (1 - wq) * BETA_TICKS; /* 2 b/s (0.1 b/t) */
	r.water_swim = (b.liquid_jump - b.water_gravity) / (1 - wq) * BETA_TICKS; /* 2 b/s */
	r.lava_rate = -log(lq) * BETA_TICKS;                  /* 13.863 /s */
	r.lava_speed = b.lava_accel * b.input_damping / (1 - lq) * BETA_TICKS; /* 0.784 b/s */
	r.lava_sink = b.lava_gravity / (1 - lq) * BETA_TICKS; /* 0.8 b/s (0.04 b/t) */
	r.lava_swim = (b.liquid_jump - b.lava_gravity) / (1 - lq) * BETA_TICKS; /* 0.8 b/s */
	r.breach_speed = b.breach_impulse * BETA_TICKS;      /* 6 b/s (0.3F b/t) */
	/* Ladders: horizontal clamp 0.15F b/t = 3 b/s, fastest descent 0.15 b/t = 3 b/s, and
	 * the climb: Beta sets vy = 0.2 after a move into a wall, then gravity and drag act,
	 * so that every move climbs (0.2 - 0.08) x 0.98F = 0.1176 b/t = 2.352 b/s. */
	r.ladder_speed = b.ladder_speed * BETA_TICKS;
	r.ladder_descent = b.ladder_descent * BETA_TICKS;
	r.ladder_climb = (b.ladder_climb - b.gravity) * b.vertical_drag * BETA_TICKS;

	r.sneak_guard = 0;
	/* The sink is a quirk of Beta's code: MC-CPP's own step assist cannot sink, so an
	 * MC-CPP entity on the axis resolver gets the fixed down-probe. */
	r.step_sink_fix = 1;
	return r;
}

#define F(name, kind, models, lo, hi) {#name, offsetof(bp_Rules, name), kind, models, lo, hi}
#define N BP_FIELD_NUMBER
#define B BP_FIELD_BOOL
#define BIG 1e6

const bp_RuleField bp_rule_fields[] = {
	F(sneak_factor, N, BP_FOR_BETA, 0, 10),
	F(input_damping, N, BP_FOR_BETA, 0, 10),
	F(jump_impulse, N, BP_FOR_BETA, -BIG, BIG),
	F(liquid_jump, N, BP_FOR_BETA, -BIG, BIG),
	F(ground_accel, N, BP_FOR_BETA, -BIG, BIG),
	F(accel_factor, N, BP_FOR_BETA, -BIG, BIG),
	F(air_accel, N, BP_FOR_BETA, -BIG, BIG),
	F(air_friction, N, BP_FOR_BETA, 0, 10),
	F(default_slipperiness, N, BP_FOR_BETA, 0.01, 10),
	F(gravity, N, BP_FOR_BOTH, -BIG, BIG),
	F(vertical_drag, N, BP_FOR_BETA, 0, 10),
	F(water_accel, N, BP_FOR_BETA, -BIG, BIG),
	F(water_drag, N, BP_FOR_BETA, 0, 10),
	F(water_gravity, N, BP_FOR_BETA, -BIG, BIG),
	F(lava_accel, N, BP_FOR_BETA, -BIG, BIG),
	F(lava_drag, N, BP_FOR_BETA, 0, 10),
	F(lava_gravity, N, BP_FOR_BETA, -BIG, BIG),
	F(breach_impulse, N, BP_FOR_BETA, -BIG, BIG),
	F(breach_height, N, BP_FOR_BOTH, -BIG, BIG),
	F(ladder_speed, N, BP_FOR_BOTH, 0, BIG),
	F(ladder_descent, N, BP_FOR_BOTH, 0, BIG),
	F(ladder_climb, N, BP_FOR_BOTH, -BIG, BIG),
	F(step_height, N, BP_FOR_BOTH, 0, 16),
	F(guard_probe, N, BP_FOR_BETA, 0, 16),
	F(guard_step, N, BP_FOR_BETA, 0.001, 16),
	F(sneak_camera, N, BP_FOR_BETA, 0, 16),
	F(camera_decay, N, BP_FOR_BETA, 0, 1),
	F(step_cooldown, N, BP_FOR_BETA, 0, 16),
	F(water_inset_y, N, BP_FOR_BOTH, -16, 16),
	F(lava_inset_xz, N, BP_FOR_BOTH, -16, 16),
	F(water_current, N, BP_FOR_BETA, -BIG, BIG),
	F(push_out_of_blocks, B, BP_FOR_BETA, 0, 1),
	F(push_out_speed, N, BP_FOR_BETA, -BIG, BIG),
	F(push_out_reach, N, BP_FOR_BETA, -16, 16),
	F(push_out_height, N, BP_FOR_BETA, -64, 64),
	F(web_factor_xz, N, BP_FOR_BETA, 0, 1),
	F(web_factor_y, N, BP_FOR_BETA, 0, 1),
	F(knockback, N, BP_FOR_BETA, -BIG, BIG),
	F(knockback_max_vy, N, BP_FOR_BETA, -BIG, BIG),
	F(sneak_guard, B, BP_FOR_BOTH, 0, 1),
	F(drop_through_sneaking, B, BP_FOR_BOTH, 0, 1),
	F(step_sink_fix, B, BP_FOR_BOTH, 0, 1),
	F(push_radius, N, BP_FOR_BOTH, 0, 16),
	F(push_strength, N, BP_FOR_BOTH, 0, BIG),
	F(push_threshold, N, BP_FOR_BOTH, 0, 16),
	F(max_push_speed, N, BP_FOR_BOTH, 0, BIG),
	F(max_pushes, BP_FIELD_INT, BP_FOR_BOTH, 0, 1 << 30),
	F(separate_iterations, BP_FIELD_INT, BP_FOR_BOTH, 1, 64),
	F(separate_tolerance, N, BP_FOR_BOTH, 0, 16),
	F(depenetrate, B, BP_FOR_BOTH, 0, 1),
	F(depenetrate_distance, N, BP_FOR_BOTH, 0, BP_MAX_DEPENETRATE),
	F(jump_height, N, BP_FOR_MCCPP, 0, BIG),
	F(walk_speed, N, BP_FOR_MCCPP, -BIG, BIG),
	F(friction, BP_FIELD_VEC3, BP_FOR_MCCPP, 0, BIG),
	F(drag_fly, BP_FIELD_VEC3, BP_FOR_MCCPP, 0, BIG),
	F(drag_jump, BP_FIELD_VEC3, BP_FOR_MCCPP, 0, BIG),
	F(drag_fall, BP_FIELD_VEC3, BP_FOR_MCCPP, 0, BIG),
	F(back_off, N, BP_FOR_BOTH, 0, 0.5),
	F(camera_rise, N, BP_FOR_BOTH, 0, BIG),
	F(passes, BP_FIELD_INT, BP_FOR_BOTH, 1, 16),
	F(max_dt, N, BP_FOR_MCCPP, 0.001, 1),
	F(reference_dt, N, BP_FOR_MCCPP, 0.001, 1),
	F(water_rate, N, BP_FOR_MCCPP, 0, BIG),
	F(water_speed, N, BP_FOR_MCCPP, -BIG, BIG),
	F(water_sink, N, BP_FOR_MCCPP, -BIG, BIG),
	F(water_swim, N, BP_FOR_MCCPP, -BIG, BIG),
	F(lava_rate, N, BP_FOR_MCCPP, 0, BIG),
	F(lava_speed, N, BP_FOR_MCCPP, -BIG, BIG),
	F(lava_sink, N, BP_FOR_MCCPP, -BIG, BIG),
	F(lava_swim, N, BP_FOR_MCCPP, -BIG, BIG),
	F(breach_speed, N, BP_FOR_MCCPP, -BIG, BIG),
	{NULL, 0, 0, 0, 0, 0},
};
