/* SPDX-License-Identifier: MIT
 * depenetrate.c - the shortest translation that takes a box out of every blocking box
 * (block shapes, static colliders, solid entities), for an entity spawned, teleported
 * or built into, and for a free spawn point. Our own.
 *
 * The free positions of the box are the complement of a union of open boxes (each
 * obstacle grown by the box's size), so the nearest one to where the box is has, on
 * each axis, either its own coordinate or one where a face of the box meets a face of
 * an obstacle. The candidate offsets of each axis are sorted by size, and their
 * combinations are tried in order of length (a best-first walk that gives each
 * combination exactly one parent, so a heap holds the frontier); the first one that
 * leaves the box overlapping nothing (the world's own query) is the answer. The test of
 * each candidate moves the box with the same arithmetic as the caller will, so rounding
 * cannot leave it an ulp inside an obstacle.
 */
#include "depenetrate.h"
#include "bp_world.h"
#include "alloc.h"
#include "solid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A candidate offset on one axis. */
typedef struct Offset {
	double d;
} Offset;

/* A combination of one offset per axis (indices into the sorted lists). */
typedef struct Node {
	double len2;
	uint32_t i[3];
} Node;

typedef struct Work {
	bp_World *w;
	const bp_Entity *self;
	const bp_AABB *box;
	double max;
	Offset *off[3];  /* per axis, sorted by |d|, positive first on a tie */
	uint32_t noff[3], cap_off[3];
	int full;        /* an offset list reached BP_MAX_DEPENETRATE_OFFSETS */
	Node *heap;
	uint32_t nheap, cap_heap;
} Work;

/* The offset d that puts the box's face `side` (0 low, 1 high) of axis a on the
 * obstacle face at `face`, moved by ulps until the box, moved by d as
 * bp_aabb_offset moves it, stays on its side of that face. */
static double touching(const bp_AABB *box, int a, int side, double face)
{
	if (side) { /* the box's low face onto the obstacle's high face */
		double d = face - box->lo[a];
		while (box->lo[a] + d < face)
			d = nextafter(d, INFINITY);
		return d;
	}
	double d = face - box->hi[a]; /* the box's high face onto the obstacle's low face */
	while (box->hi[a] + d > face)
		d = nextafter(d, -INFINITY);
	return d;
}

static int cmp_offset(const void *pa, const void *pb)
{
	const double a = ((const Offset *)pa)->d, b = ((const Offset *)pb)->d;
	if (fabs(a) != fabs(b))
		return fabs(a) < fabs(b) ? -1 : 1;
	return (a < b) - (a > b); /* equal size: the positive one first (up, before down) */
}

/* Heap order: shorter first; equal lengths by the indices (Y, then X, then Z), so that
 * the answer never depends on anything but the geometry. */
static int node_before(const Node *a, const Node *b)
{
	if (a->len2 != b->len2)
		return a->len2 < b->len2;
	static const int order[3] = {1, 0, 2};
	for (int k = 0; k < 3; k++) {
		const int ax = order[k];
		if (a->i[ax] != b->i[ax])
			return a->i[ax] < b->i[ax];
	}
	return 0;
}

static bp_Status heap_push(bp_World *w, Work *k, const Node *n)
{
	if (bp_grow(&w->mem, (void **)&k->heap, &k->cap_heap, k->nheap + 1, sizeof(Node)) != BP_OK)
		return BP_ENOMEM;
	uint32_t i = k->nheap++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!node_before(n, &k->heap[parent]))
			break;
		k->heap[i] = k->heap[parent];
		i = parent;
	}
	k->heap[i] = *n;
	return BP_OK;
}

static Node heap_pop(Work *k)
{
	Node top = k->heap[0], last = k->heap[--k->nheap];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= k->nheap)
			break;
		if (c + 1 < k->nheap && node_before(&k->heap[c + 1], &k->heap[c]))
			c++;
		if (!node_before(&k->heap[c], &last))
			break;
		k->heap[i] = k->heap[c];
		i = c;
	}
	if (k->nheap)
		k->heap[i] = last;
	return top;
}

static bp_Status push_node(bp_World *w, Work *k, uint32_t ix, uint32_t iy, uint32_t iz)
{
	if (ix >= k->noff[0] || iy >= k->noff[1] || iz >= k->noff[2])
		return BP_OK;
	Node n = {0, {ix, iy, iz}};
	for (int a = 0; a < 3; a++) {
		const double d = k->off[a][n.i[a]].d;
		n.len2 += d * d;
	}
	return heap_push(w, k, &n);
}

static bp_Status add_offset(Work *k, int a, double d)
{
	if (!(fabs(d) <= k->max))
		return BP_OK;
	if (k->noff[a] >= BP_MAX_DEPENETRATE_OFFSETS) {
		k->full = 1;
		return BP_ELIMIT;
	}
	if (bp_grow(&k->w->mem, (void **)&k->off[a], &k->cap_off[a], k->noff[a] + 1,
	            sizeof(Offset)) != BP_OK)
		return BP_ENOMEM;
	k->off[a][k->noff[a]++].d = d;
	return BP_OK;
}

/* Visitor over the obstacles within reach: the offsets that put a face of the box on
 * a face of the obstacle, on each axis. Stops (nonzero) on a failure. */
static int add_faces(void *ctx, const bp_AABB *b)
{
	Work *k = ctx;
	for (int a = 0; a < 3; a++) {
		if (add_offset(k, a, touching(k->box, a, 0, b->lo[a])) != BP_OK ||
		    add_offset(k, a, touching(k->box, a, 1, b->hi[a])) != BP_OK)
			return 1;
	}
	return 0;
}

/* Sort an axis' offsets by size and drop repeats. */
static void sort_offsets(Work *k, int a)
{
	qsort(k->off[a], k->noff[a], sizeof(Offset), cmp_offset);
	uint32_t u = 0;
	for (uint32_t i = 0; i < k->noff[a]; i++) {
		if (u == 0 || k->off[a][i].d != k->off[a][u - 1].d)
			k->off[a][u++] = k->off[a][i];
	}
	k->noff[a] = u;
}

/* Whether the box moved by d overlaps nothing (the world's own queries). */
static int free_at(const Work *k, const double d[3])
{
	const bp_AABB moved = bp_aabb_offset(k->box, d[0], d[1], d[2]);
	return !bp_blocked(k->w, k->self, &moved);
}

/* The best-first walk over the offset combinations (see the file's comment). Each
 * combination's parent: the last nonzero index lowered by one. */
static bp_Status search(Work *k, double out[3], int *found)
{
	bp_World *w = k->w;
	bp_Status st = push_node(w, k, 0, 0, 0);
	for (uint32_t tries = 0; st == BP_OK && k->nheap; tries++) {
		if (tries >= BP_MAX_DEPENETRATE_TRIES)
			return BP_ELIMIT;
		const Node n = heap_pop(k);
		if (n.len2 > k->max * k->max)
			break; /* every later one is longer */
		double d[3];
		for (int a = 0; a < 3; a++)
			d[a] = k->off[a][n.i[a]].d;
		if (free_at(k, d)) {
			memcpy(out, d, sizeof d);
			*found = 1;
			return BP_OK;
		}
		st = push_node(w, k, n.i[0], n.i[1], n.i[2] + 1);
		if (st == BP_OK && n.i[2] == 0)
			st = push_node(w, k, n.i[0], n.i[1] + 1, 0);
		if (st == BP_OK && n.i[2] == 0 && n.i[1] == 0)
			st = push_node(w, k, n.i[0] + 1, 0, 0);
	}
	return st;
}

static bp_Status depenetrate(Work *k, double out[3], int *found)
{
	for (int a = 0; a < 3; a++) {
		bp_Status st = add_offset(k, a, 0.0);
		if (st != BP_OK)
			return st;
	}
	/* Every obstacle the box could meet within max (a hair more: touching counts). */
	const double reach = k->max + 1e-9 * (1 + k->max);
	const bp_AABB region = bp_aabb_expand(k->box, reach, reach, reach);
	if (bp_visit_blocking(k->w, k->self, &region, add_faces, k))
		return k->full ? BP_ELIMIT : BP_ENOMEM;
	for (int a = 0; a < 3; a++)
		sort_offsets(k, a);
	return search(k, out, found);
}

bp_Status bp_world_depenetrate(bp_World *w, const bp_Entity *self, const bp_AABB *box,
                               double max, double out[3], int *found)
{
	*found = 0;
	out[0] = out[1] = out[2] = 0;
	if (!(max >= 0 && max <= BP_MAX_DEPENETRATE))
		return BP_EINVAL;
	Work k;
	memset(&k, 0, sizeof k);
	k.w = w;
	k.self = self;
	k.box = box;
	k.max = max;
	/* Groups and masks decide which solid entities count; filter functions are not
	 * called (no Lua runs inside a depenetration, in a step or out of one). */
	const bp_Hooks *hooks = w->hooks;
	w->hooks = NULL;
	bp_Status st = depenetrate(&k, out, found);
	w->hooks = hooks;
	for (int a = 0; a < 3; a++)
		bp_free(&w->mem, k.off[a], (size_t)k.cap_off[a] * sizeof(Offset));
	bp_free(&w->mem, k.heap, (size_t)k.cap_heap * sizeof(Node));
	return st;
}

bp_Status bp_entity_depenetrate(bp_World *w, uint32_t index, double max, double out[3],
                                int *found)
{
	bp_Entity *e = &w->entities.items[index];
	bp_Status st = bp_world_depenetrate(w, e, &e->box, max, out, found);
	if (st != BP_OK || !*found || (out[0] == 0 && out[1] == 0 && out[2] == 0))
		return st;
	e = &w->entities.items[index]; /* a filter asked may not move it, but re-read */
	e->box = bp_aabb_offset(&e->box, out[0], out[1], out[2]);
	for (int a = 0; a < 3; a++)
		e->prev[a] += out[a];
	bp_broadphase_moved(w, index);
	return BP_OK;
}
