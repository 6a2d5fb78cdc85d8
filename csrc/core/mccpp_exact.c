/* SPDX-License-Identifier: MIT
 * mccpp_exact.c - the MC-CPP rules' default integrator, "exact": a step of dt seconds
 * is cut into n = ceil(dt / max_dt) equal substeps (at most MAX_SUBSTEPS). In each,
 * the entity's state (flying, in water, in lava, on a ladder, grounded, rising,
 * falling) gives every axis a linear ODE
 *
 *     dv/dt = c - k v        (k >= 0 the rate, 1/s; c the drive, b/s^2)
 *
 * that is solved exactly over the substep: v(h) = v0 e^(-kh) + c h phi(kh) and the
 * displacement v0 h phi(kh) + c h^2 psi(kh), phi(x) = (1 - e^-x) / x, psi(x) =
 * (x - 1 + e^-x) / x^2. The velocity becomes v(h) and the entity's resolver moves it by
 * the displacement (zeroing the blocked axes), so that the speeds, heights and times do
 * not depend on the frame rate, up to where a state change falls inside a substep.
 *
 * The constants come from the documents' integrator (docs/mccpp.md:
 * v += a f dt, move, v -= g dt, v -= v f dt) at the reference frame time tau =
 * rules.reference_dt (1/60 s): its per-frame map of the move velocity, with the
 * state held, is m' = (1 - f tau) m + f tau a (horizontal) and u' = (1 - f tau)(u -
 * g tau) (vertical), which the exact solution reproduces at every frame boundary with
 *
 *     k = -ln(1 - f tau) / tau,   c = k a - g (1 - f tau) k / f
 *
 * (c = -g for f = 0; for f tau >= 1, where the documents zero the velocity every frame,
 * k = K_INSTANT and no gravity term). So the walking speed is walk_speed (the documents'
 * 60-fps speed exactly), the fall's terminal speed g (1 - f tau) / f (79.47 b/s, the
 * documents' at 60 fps), and the jump launches at sqrt(2 g (jump_height + o)), o the
 * documents' Euler overshoot at tau (0.0753), so that the apex is theirs at 60 fps
 * (1.3253). Liquids and ladders: Beta 1.7.3's per-tick behaviour at 20 ticks/s (the
 * constants and their derivation: rules.c, bp_rules_mccpp).
 */
#include "mccpp.h"
#include "bp_world.h"
#include "liquid.h"
#include "move.h"
#include "move_limits.h"
#include "push.h"

#include <math.h>

/* At most this many substeps per step: a step longer than MAX_SUBSTEPS x max_dt (51.2 s
 * with the default) uses longer ones, so that one step's work stays bounded. Our own. */
#define MAX_SUBSTEPS 1024

/* A substep of dt / n ends early where the entity enters or leaves water, lava or a
 * ladder, at most MAX_SPLITS times (each costs SPLIT_BITS tests of what changed; a
 * swimmer at the surface goes in and out many times a second), and where it meets a
 * wall, a floor or a ceiling that changes its state, at most MAX_CONTACTS times. Our
 * own. */
#define MAX_SPLITS 2
#define MAX_CONTACTS 2

/* The rate standing for "at once" where the documents zero a velocity every frame
 * (f tau >= 1): a time constant of a nanosecond. Our own. */
#define K_INSTANT 1e9

enum { LAND, WATER, LAVA };

/* One axis's ODE dv/dt = c - k v for a substep. */
typedef struct Axis {
	double k; /* 1/s, >= 0 and finite */
	double c; /* b/s^2 */
} Axis;

/* The exact solution over t seconds from v0: velocity and displacement. With
 * x = k t and m = e^-x - 1: v = v0 e^-x + c t phi(x), d = v0 t phi(x) + c t^2 psi(x),
 * phi(x) = (1 - e^-x) / x = -m / x (1 at 0), psi(x) = (x - 1 + e^-x) / x^2 = (x + m) /
 * x^2 (1/2 at 0; its series below x = 0.01, where x + m would cancel: truncation error
 * below x^5 / 5040 < 2e-14). */
static void solve(double v0, Axis a, double t, double *v, double *d)
{
	const double x = a.k * t;
	if (x > 0) {
		const double m = expm1(-x), p = -m / x;
		const double q = x < 0.01 ? 0.5 - x * (1.0 / 6 - x * (1.0 / 24 - x * (1.0 / 120 - x / 720)))
		                           : (x + m) / (x * x);
		*v = v0 * (1 + m) + a.c * t * p;
		*d = v0 * t * p + a.c * t * t * q;
	} else {
		*v = v0 + a.c * t;
		*d = v0 * t + a.c * t * t / 2;
	}
}

/* As solve, with the velocity held at or above lo (Beta's ladder: the descent clamp,
 * or 0 while sneaking): v0 is raised to lo first, and once the solution reaches lo it
 * stays there (the drive is constant, so the solution is monotone: it crosses lo at
 * most once, at t*). */
static void solve_above(double v0, Axis a, double t, double lo, double *v, double *d)
{
	if (v0 < lo)
		v0 = lo;
	solve(v0, a, t, v, d);
	if (!(*v < lo))
		return;
	/* v0 >= lo > v(t): a decreasing solution, so c - k lo < 0. */
	double ts;
	if (a.k > 0) {
		const double vt = a.c / a.k; /* below lo */
		ts = log1p((v0 - lo) / (lo - vt)) / a.k;
	} else {
		ts = (v0 - lo) / -a.c;
	}
	ts = fmin(fmax(ts, 0.0), t);
	double vs, ds;
	solve(v0, a, ts, &vs, &ds);
	*v = lo;
	*d = ds + lo * (t - ts);
}

/* The rate k (1/s) of a documents' friction or drag component f (1/s), matched to their
 * per-frame map at frame time tau (see the top of the file), and the factor of gravity
 * in the drive, (1 - f tau) k / f (1 for f = 0, 0 where f tau >= 1). */
typedef struct Rate {
	double k, g;
} Rate;

static Rate documents_rate(double f, double tau)
{
	Rate r;
	const double x = f * tau;
	if (!(x < 1)) {
		r.k = K_INSTANT;
		r.g = 0;
		return r;
	}
	const double l = -log1p(-x); /* 0 for f = 0 */
	r.k = l / tau;
	r.g = x > 0 ? (1 - x) * (l / x) : 1.0;
	return r;
}

/* The axis of rate r toward the target velocity `target` (b/s) under gravity g (b/s^2). */
static Axis documents_axis(Rate r, double target, double g)
{
	Axis a = {r.k, r.k * target - g * r.g};
	return a;
}

/* The axis relaxing at rate k (1/s) toward the velocity `target` (b/s). */
static Axis relax(double k, double target)
{
	Axis a = {k, k * target};
	return a;
}

/* The target horizontal velocity (b/s; X, Z) of this substep, for the medium's speed k:
 * the native heading or the heading hook (whose result is taken as the target). */
static int heading(bp_World *w, uint32_t index, double k, double h, const bp_Hooks *hooks,
                   double t[2])
{
	const bp_Entity *e = &w->entities.items[index];
	const bp_EntityInput *in = &w->entities.input[index];
	if (e->rules.hook_heading && hooks && hooks->heading) {
		if (hooks->heading(hooks->ctx, w, index, in->strafe, in->forward, k, t))
			return 1;
		return bp_heading_over_limit(w, index, t[0] * h, t[1] * h);
	}
	bp_heading_mccpp(in->yaw, in->strafe, in->forward, k, t);
	return 0;
}

/* Beta's two compares (not fmin/fmax: they keep the value's own zero). */
static double clamp_abs(double v, double s)
{
	if (v < -s)
		v = -s;
	if (v > s)
		v = s;
	return v;
}

/* The resolver of the rules, within the limit (bp_tick_displacement). */
static void resolve(bp_World *w, bp_Entity *e, const double v[3])
{
	double d[3], out[3];
	bp_tick_displacement(v, d);
	bp_move(w, e, d, out);
}

/* What the entity's position decides: in water, in lava, on a ladder. */
typedef struct Where {
	int water, lava, ladder;
} Where;

static Where where_at(bp_World *w, const bp_AABB *b, const bp_Rules *r)
{
	Where p = {bp_in_water_at(w, b, r), bp_in_lava_at(w, b, r), bp_on_ladder_at(w, b)};
	return p;
}

/* The state's solution over t seconds from the velocity v0: velocity v, displacement d. */
static void solve_all(const double v0[3], const Axis ax[3], double lo, double t, double v[3],
                      double d[3])
{
	solve(v0[0], ax[0], t, &v[0], &d[0]);
	solve_above(v0[1], ax[1], t, lo, &v[1], &d[1]);
	solve(v0[2], ax[2], t, &v[2], &d[2]);
}

/* What a substep watches for besides water, lava and ladders: a wall met on X or Z
 * (in liquid or on a ladder, not yet pushing into one: a breach or a climb starts
 * there), a floor or ceiling met on Y (in the air on land: the state becomes grounded
 * or stops rising). */
enum { PROBE_H = 1, PROBE_V = 2 };

/* The box at displacement d from the substep's start (a grounded entity's floor holds
 * it: its path does not go down). */
static bp_AABB moved_box(const bp_Entity *e, const double d[3])
{
	const double dy = e->on_ground && d[1] < 0 ? 0.0 : d[1];
	return bp_aabb_offset(&e->box, d[0], dy, d[2]);
}

/* Which of water (1), lava (2) and ladder (4) among `which` differ at displacement d
 * from `at` (only those are tested). */
static int moved_place(bp_World *w, const bp_Entity *e, Where at, int which, const double d[3])
{
	const bp_AABB b = moved_box(e, d);
	int diff = 0;
	if ((which & 1) && bp_in_water_at(w, &b, &e->rules) != at.water)
		diff |= 1;
	if ((which & 2) && bp_in_lava_at(w, &b, &e->rules) != at.lava)
		diff |= 2;
	if ((which & 4) && bp_on_ladder_at(w, &b) != at.ladder)
		diff |= 4;
	return diff;
}

/* Whether the entity would meet what `probes` watch for at displacement d: the box
 * moved on X and Z only, or on Y only, meets a blocking box. */
static int moved_contact(bp_World *w, const bp_Entity *e, int probes, const double d[3])
{
	bp_AABB p;
	if (probes & PROBE_H) {
		p = bp_aabb_offset(&e->box, d[0], 0, d[2]);
		if (bp_blocked(w, e, &p))
			return 1;
	}
	if (probes & PROBE_V) { /* only in the air: no floor holds the path */
		p = bp_aabb_offset(&e->box, 0, d[1], 0);
		if (bp_blocked(w, e, &p))
			return 1;
	}
	return 0;
}

/* The first time in (0, t1] at which the test holds (with probes: a contact; else a
 * change of the places in `which`), knowing that it holds at t1 and not at 0, by
 * bisection to t1 / 2^SPLIT_BITS (the path is the solution without collisions). */
#define SPLIT_BITS 10
static double first_time(bp_World *w, const bp_Entity *e, Where at, int which, int probes,
                         const Axis ax[3], double lo, double t1)
{
	double t0 = 0, v[3], d[3];
	for (int i = 0; i < SPLIT_BITS; i++) {
		const double tm = (t0 + t1) / 2;
		solve_all(e->vel, ax, lo, tm, v, d);
		if (probes ? moved_contact(w, e, probes, d) : moved_place(w, e, at, which, d))
			t1 = tm;
		else
			t0 = tm;
	}
	return t1;
}

/* The length of this substep: h, or the first time within h where the solution enters
 * or leaves water, lava or a ladder (when `place` allows) or meets what `probes` watch
 * for, so that the next substep starts in the new state. *kind: 1 for a change of
 * place, 2 for a contact, 0 for none. dh: the displacement over h. */
static double until_change(bp_World *w, const bp_Entity *e, Where at, int place, int probes,
                           const Axis ax[3], double lo, double h, const double dh[3],
                           int *kind)
{
	*kind = 0;
	if (!w->liquid_blocks && !w->has_climbable)
		place = 0; /* nothing to enter or leave */
	double t = h, v[3], d[3];
	const int which = place ? moved_place(w, e, at, 7, dh) : 0;
	if (which) {
		t = first_time(w, e, at, which, 0, ax, lo, h);
		*kind = 1;
	}
	if (probes) {
		if (t < h)
			solve_all(e->vel, ax, lo, t, v, d);
		/* (a box already overlapping something has no contact to find) */
		if (moved_contact(w, e, probes, t < h ? d : dh) && !bp_blocked(w, e, &e->box)) {
			t = first_time(w, e, at, 0, probes, ax, lo, t);
			*kind = 2;
		}
	}
	return t;
}

/* Beta's breach test: pushing into a wall in liquid with free space breach_height
 * higher (no block, no liquid) throws the entity up at breach_speed. Beta's probe box is
 * the box before the move raised by breach_height plus the next tick's motion; here the
 * entity's box raised by breach_height (no per-tick motion in a per-second model: our
 * own simplification). */
static int breach_free(bp_World *w, const bp_Entity *e)
{
	return bp_offset_free(w, e, 0, e->rules.breach_height, 0);
}

/* One substep of at most h seconds (*used: its length; shorter than h only where it
 * ends at a change of water, lava or ladder, while splits[0] > 0, or at a contact, while
 * splits[1] > 0: the one used is decremented). */
static int substep(bp_World *w, uint32_t index, double h, int splits[2], const bp_Hooks *hooks,
                   double *used)
{
	bp_Entity *e = &w->entities.items[index];
	const int flying = w->entities.input[index].flying;
	/* The state: Beta's liquid and ladder tests (the flags are set as in a Beta tick). */
	const Where at = where_at(w, &e->box, &e->rules);
	e->in_water = (uint8_t)at.water;
	e->in_lava = (uint8_t)at.lava;
	if (at.water)
		e->fall_distance = 0;
	const int medium = flying ? LAND : at.water ? WATER : at.lava ? LAVA : LAND;
	const int ladder = !flying && medium == LAND && at.ladder;
	const bp_Rules *r = &e->rules;
	double t[2];
	if (heading(w, index, medium == WATER  ? r->water_speed
	                      : medium == LAVA ? r->lava_speed
	                                       : r->walk_speed,
	            h, hooks, t))
		return 1;
	if (bp_input_jump(&w->entities.input[index])) {
		e = &w->entities.items[index];
		if (e->rules.hook_jump && hooks && hooks->jump) {
			if (hooks->jump(hooks->ctx, w, index))
				return 1;
		} else {
			bp_jump_mccpp(e);
		}
	}
	e = &w->entities.items[index];
	r = &e->rules;
	const bp_EntityInput *in = &w->entities.input[index];
	Axis ax[3];
	double lo = -INFINITY; /* the vertical velocity's floor (ladders) */
	if (medium != LAND) {
		const int water = medium == WATER;
		const double k = water ? r->water_rate : r->lava_rate;
		const double up = bp_input_jump(in) ? (water ? r->water_swim : r->lava_swim)
		                              : -(water ? r->water_sink : r->lava_sink);
		ax[0] = relax(k, t[0]);
		ax[1] = relax(k, up);
		ax[2] = relax(k, t[1]);
		if (e->coll_h && (t[0] != 0 || t[1] != 0) && breach_free(w, e)) {
			/* Still pushing into the wall with free space above: Beta sets vy = 0.3F
			 * again after every such move, so that each move rises at that speed,
			 * which breach_speed is: held for the substep. */
			e->vel[1] = r->breach_speed;
			ax[1] = relax(0, 0);
		}
	} else {
		if (ladder) {
			/* Beta's ladder (docs/beta173.md section 8): horizontal speed held within
			 * ladder_speed (the velocity and the target, so that the solution stays
			 * within it), no fall distance, and the climb or the descent clamp. */
			for (int a = 0; a < 2; a++)
				t[a] = clamp_abs(t[a], r->ladder_speed);
			e->vel[0] = clamp_abs(e->vel[0], r->ladder_speed);
			e->vel[2] = clamp_abs(e->vel[2], r->ladder_speed);
			e->fall_distance = 0;
		}
		const int rising = e->vel[1] > 0;
		const double *f = flying                      ? r->drag_fly
		                  : e->on_ground && !rising ? r->friction
		                  : rising                    ? r->drag_jump
		                                              : r->drag_fall;
		const double tau = r->reference_dt;
		const Rate rx = documents_rate(f[0], tau);
		const Rate rz = f[2] == f[0] ? rx : documents_rate(f[2], tau);
		ax[0] = documents_axis(rx, t[0], 0);
		ax[1] = documents_axis(documents_rate(f[1], tau), 0, flying ? 0 : r->gravity);
		ax[2] = documents_axis(rz, t[1], 0);
		if (ladder && e->coll_h && (t[0] != 0 || t[1] != 0)) {
			/* Pushing into a wall on a ladder (the last move was blocked on X or Z and
			 * the input still pushes): Beta's vy = 0.2 after such a move makes every
			 * move climb at a steady speed, which ladder_climb is: held for the
			 * substep. Without input the climb's speed decays under gravity at once
			 * (Beta climbs one more tick), so that where it stops does not depend on
			 * the substep. */
			e->vel[1] = r->ladder_climb;
			ax[1] = relax(0, 0);
		} else if (ladder) {
			lo = in->sneaking ? 0.0 : -r->ladder_descent; /* sneaking holds on */
		}
	}
	const int probes = ((medium != LAND || ladder) && !e->coll_h ? PROBE_H : 0) |
	                   (medium == LAND && !e->on_ground ? PROBE_V : 0);
	double v[3], d[3];
	solve_all(e->vel, ax, lo, h, v, d);
	*used = h;
	if (!flying && (splits[0] > 0 || (splits[1] > 0 && probes))) {
		int kind;
		*used = until_change(w, e, at, splits[0] > 0, splits[1] > 0 ? probes : 0, ax, lo, h,
		                     d, &kind);
		if (kind)
			splits[kind - 1]--;
		if (*used < h)
			solve_all(e->vel, ax, lo, *used, v, d);
	}
	e->vel[0] = v[0];
	e->vel[1] = v[1];
	e->vel[2] = v[2];
	w->move_seconds = *used; /* the piece's duration: hits' approach speed */
	resolve(w, e, d);
	if (!e->coll_h)
		return 0;
	if (medium != LAND) {
		if (breach_free(w, e))
			e->vel[1] = r->breach_speed; /* Beta's breach: the move met a wall */
	} else if (!flying && bp_on_ladder(w, e)) {
		e->vel[1] = r->ladder_climb; /* Beta: a move into a wall on a ladder climbs */
	}
	return 0;
}

int bp_tick_mccpp_exact(bp_World *w, uint32_t index, double dt, const bp_Hooks *hooks)
{
	bp_Entity *e = &w->entities.items[index];
	bp_entity_position(e, e->prev);
	if (e->step_offset < 0)
		e->step_offset = fmin(0.0, e->step_offset + dt * e->rules.camera_rise);
	double n = ceil(dt / e->rules.max_dt);
	if (!(n >= 1))
		n = 1;
	if (n > MAX_SUBSTEPS)
		n = MAX_SUBSTEPS;
	const double h = dt / n;
	for (int i = 0; i < (int)n; i++) {
		double left = h, used;
		int splits[2] = {MAX_SPLITS, MAX_CONTACTS};
		while (left > 0) {
			if (substep(w, index, left, splits, hooks, &used))
				return 1;
			if (w->hook_failed)
				return 0; /* a filter failed: the step reports it and is undone */
			left -= used;
		}
	}
	e = &w->entities.items[index];
	if (e->rules.push == BP_PUSH_BETA173)
		bp_push_beta173(w, index);
	return 0;
}
