/* SPDX-License-Identifier: MIT
 * entcode.c - coding one entity, its inputs and its rules (snapfields.h's lists), for
 * snapshots (snapcode.c) and exported entities (export.c): a per-field coder that
 * checks what it reads, and a fast path that writes, counts and hashes through one
 * little-endian byte array. Source: our own.
 */
#include "snapcode.h"
#include "entity.h"

#include <math.h>
#include <string.h>

#include "snapfields.h"

/* --------------------------------------------------------------- the fields */

void bp_code_finite(bp_Coder *c, double *v)
{
	bp_code_f64(c, v);
	if (c->mode == BP_CODE_READ && !isfinite(*v))
		bp_code_fail(c, "corrupted: a number is not finite");
}

void bp_code_box(bp_Coder *c, bp_AABB *b)
{
	for (int k = 0; k < 3; k++)
		bp_code_finite(c, &b->lo[k]);
	for (int k = 0; k < 3; k++)
		bp_code_finite(c, &b->hi[k]);
	if (c->mode == BP_CODE_READ) {
		for (int k = 0; k < 3; k++) {
			if (!(b->lo[k] <= b->hi[k]) || fabs(b->lo[k]) > 4.3e9 || fabs(b->hi[k]) > 4.3e9)
				bp_code_fail(c, "corrupted: a box is out of range");
		}
	}
}

/* The field lists (snapfields.h) expand against OBJ, the struct being coded. */
#define X_D(f) bp_code_finite(c, &OBJ->f);
#define X_D3(f) bp_code_finite(c, &OBJ->f[0]); bp_code_finite(c, &OBJ->f[1]); bp_code_finite(c, &OBJ->f[2]);
#define X_F(f) bp_code_f32(c, &OBJ->f);
#define X_U8(f) bp_code_u8(c, &OBJ->f);
#define X_U32(f) bp_code_u32(c, &OBJ->f);
#define X_I(f) bp_code_int(c, &OBJ->f);
#define OBJ o

static void code_rules(bp_Coder *c, bp_Rules *o)
{
	BP_RULES_FIELDS
	if (c->mode != BP_CODE_READ)
		return;
	if ((unsigned)o->model > 1 || (unsigned)o->resolver > 1 || (unsigned)o->push > 2 ||
	    (unsigned)o->integrator > 1 || o->hook_heading > 1 || o->hook_jump > 1)
		bp_code_fail(c, "corrupted: a rules enumeration is out of range");
	/* The ranges the binding checks when rules are set: those of the entity's model
	 * (the other model's fields are kept as they were, finite, and never read). */
	const int model = o->model == BP_MODEL_MCCPP ? BP_FOR_MCCPP : BP_FOR_BETA;
	for (const bp_RuleField *f = bp_rule_fields; f->name; f++) {
		if (!(f->models & model))
			continue;
		const char *at = (const char *)o + f->offset;
		int n = f->kind == BP_FIELD_VEC3 ? 3 : 1;
		for (int i = 0; i < n; i++) {
			double v;
			if (f->kind == BP_FIELD_NUMBER || f->kind == BP_FIELD_VEC3)
				memcpy(&v, at + i * sizeof(double), sizeof v);
			else {
				int iv;
				memcpy(&iv, at, sizeof iv);
				v = iv;
			}
			if (!(v >= f->min && v <= f->max))
				bp_code_fail(c, "corrupted: a rule is out of range");
		}
	}
}

#undef X_D
#undef X_D3
#undef X_F
#undef X_U8
#undef X_U32
#undef X_I
#undef OBJ

/* Writing, counting and hashing: the fields straight into a little-endian byte array
 * (the same bytes as the per-field coder gives, from the same lists), then one
 * bp_code_bytes: several times faster, for world:hash. */
static uint8_t *put_u64(uint8_t *p, uint64_t u)
{
	if (bp_host_le()) {
		memcpy(p, &u, sizeof u);
		return p + 8;
	}
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(u >> (8 * i));
	return p + 8;
}

static uint8_t *put_u32(uint8_t *p, uint32_t u)
{
	if (bp_host_le()) {
		memcpy(p, &u, sizeof u);
		return p + 4;
	}
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(u >> (8 * i));
	return p + 4;
}

static uint8_t *put_f64(uint8_t *p, const double *v)
{
	uint64_t u;
	memcpy(&u, v, sizeof u);
	return put_u64(p, u);
}

static uint8_t *put_f32(uint8_t *p, const float *v)
{
	uint32_t u;
	memcpy(&u, v, sizeof u);
	return put_u32(p, u);
}

#define ENTITY_BYTES_MAX 2048 /* more than the lists' bytes (checked below) */


#define X_D(f) p = put_f64(p, &OBJ->f);
#define X_D3(f) X_D(f[0]) X_D(f[1]) X_D(f[2])
#define X_F(f) p = put_f32(p, &OBJ->f);
#define X_U8(f) *p++ = OBJ->f;
#define X_U32(f) p = put_u32(p, OBJ->f);
#define X_I(f) p = put_u32(p, (uint32_t)(int32_t)OBJ->f);

static uint8_t *put_rules(uint8_t *p, const bp_Rules *r)
{
#define OBJ r
	BP_RULES_FIELDS
#undef OBJ
	return p;
}

static void put_entity(bp_Coder *c, const bp_Entity *o, const bp_EntityInput *in)
{
	uint8_t buf[ENTITY_BYTES_MAX];
	uint8_t *p = buf;
#define OBJ o
	BP_ENTITY_FIELDS
#undef OBJ
	bp_RulesMemo *m = c->mode == BP_CODE_HASH ? c->memo : NULL;
	if (m) {
		if (!m->valid || memcmp(&m->raw, &o->rules, sizeof m->raw) != 0) {
			uint8_t rb[ENTITY_BYTES_MAX];
			m->digest = bp_digest_bytes(rb, (size_t)(put_rules(rb, &o->rules) - rb));
			memcpy(&m->raw, &o->rules, sizeof m->raw);
			m->valid = 1;
		}
		p = put_u64(p, m->digest);
	} else {
		p = put_rules(p, &o->rules);
	}
#define OBJ in
	BP_INPUT_FIELDS
#undef OBJ
#undef X_D
#undef X_D3
#undef X_F
#undef X_U8
#undef X_U32
#undef X_I
	bp_code_bytes(c, buf, (size_t)(p - buf));
}

/* The lists' size fits the buffer (a list that grows past it fails the build). */
#define X_D(f) + 8
#define X_D3(f) + 24
#define X_F(f) + 4
#define X_U8(f) + 1
#define X_U32(f) + 4
#define X_I(f) + 4
_Static_assert(0 BP_ENTITY_FIELDS BP_RULES_FIELDS BP_INPUT_FIELDS <= ENTITY_BYTES_MAX,
               "ENTITY_BYTES_MAX");
#undef X_D
#undef X_D3
#undef X_F
#undef X_U8
#undef X_U32
#undef X_I

/* The per-field coder: reading (each value checked as it comes). */
#define X_D(f) bp_code_finite(c, &OBJ->f);
#define X_D3(f) bp_code_finite(c, &OBJ->f[0]); bp_code_finite(c, &OBJ->f[1]); bp_code_finite(c, &OBJ->f[2]);
#define X_F(f) bp_code_f32(c, &OBJ->f);
#define X_U8(f) bp_code_u8(c, &OBJ->f);
#define X_U32(f) bp_code_u32(c, &OBJ->f);
#define X_I(f) bp_code_int(c, &OBJ->f);
#define OBJ o

void bp_code_entity(bp_Coder *c, bp_Entity *o, bp_EntityInput *in)
{
	if (c->mode != BP_CODE_READ) {
		put_entity(c, o, in);
		return;
	}
	BP_ENTITY_FIELDS
	code_rules(c, &o->rules);
	bp_entity_rules_copied(o);
#undef OBJ
#define OBJ in
	BP_INPUT_FIELDS
	if (c->mode != BP_CODE_READ)
		return;
	if (!(o->width > 0 && o->width <= BP_MAX_ENTITY_WIDTH && o->height > 0 &&
	      o->height <= BP_MAX_ENTITY_HEIGHT))
		bp_code_fail(c, "corrupted: an entity's size is out of range");
	for (int k = 0; k < 3; k++) {
		if (!(o->box.lo[k] <= o->box.hi[k]) || fabs(o->box.lo[k]) > BP_MAX_COORD + 64 ||
		    fabs(o->box.hi[k]) > BP_MAX_COORD + 64 || fabs(o->prev[k]) > BP_MAX_COORD + 64)
			bp_code_fail(c, "corrupted: an entity's box is out of range");
	}
	if (!(fabs(in->forward) <= 1 && fabs(in->strafe) <= 1) || in->jumping > 1 ||
	    in->sneaking > 1 || in->flying > 1 || in->jump_latch > 1)
		bp_code_fail(c, "corrupted: an entity's inputs are out of range");
	if (o->solid > 1 || o->sensor > 1 || o->carry > 1 || (o->solid && o->sensor) ||
	    o->has_filter > 1 || o->frozen > 1)
		bp_code_fail(c, "corrupted: an entity's flags are out of range");
}

#undef X_D
#undef X_D3
#undef X_F
#undef X_U8
#undef X_U32
#undef X_I
#undef OBJ
