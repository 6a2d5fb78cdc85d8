/* SPDX-License-Identifier: MIT
 * broadlist.c - a grid cell's listings (broadlist.h), sorted by serial in runs of at
 * most BP_BROAD_RUN_MAX. A crowd's cell has one run of a few listings, reached from
 * the cell itself (c->one); a pile's cell has many, reached through c->runs. A full
 * run splits in two halves; a run that empties goes, two neighbouring runs that hold
 * half a run together merge, and a run shrinks when it is three-quarters empty, so a
 * cell never holds much more than its listings, and a pile that spreads out leaves
 * cells of one run again. A cell's only run stays, even empty: a cell that an entity
 * leaves and re-enters then allocates nothing.
 */
#include "broadlist.h"
#include "alloc.h"

#include <string.h>

static size_t run_bytes(uint32_t cap)
{
	return sizeof(bp_BroadRun) + (size_t)cap * sizeof(bp_BroadListing);
}

/* `run` (NULL: a new, empty one) with room for cap >= its listings; NULL when out of
 * memory (run is then as it was). */
static bp_BroadRun *run_resized(bp_Allocator *a, bp_BroadRun *run, uint32_t cap)
{
	bp_BroadRun *r = bp_realloc(a, run, run ? run_bytes(run->cap) : 0, run_bytes(cap));
	if (!r)
		return NULL;
	if (!run)
		r->n = 0;
	r->cap = cap;
	return r;
}

/* Point the cell's run r at `run` (after a realloc moved it). */
static void set_run(bp_BroadCell *c, uint32_t r, bp_BroadRun *run)
{
	if (c->nruns > 1)
		c->runs[r] = run;
	else
		c->one = run;
}

bp_ListPos bp_list_lower_runs(const bp_BroadCell *c, uint32_t serial)
{
	/* The first run whose last serial is >= serial (else the last run): runs of a
	 * cell with several are never empty. */
	uint32_t lo = 0, hi = c->nruns - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->runs[mid]->at[c->runs[mid]->n - 1].serial < serial)
			lo = mid + 1;
		else
			hi = mid;
	}
	bp_ListPos p = {lo, bp_run_lower(c->runs[lo], serial)};
	return p;
}

bp_BroadListing *bp_list_at(const bp_BroadCell *c, bp_ListPos p)
{
	if (p.r >= c->nruns)
		return NULL;
	bp_BroadRun *run = bp_list_runs(c)[p.r];
	return p.i < run->n ? &run->at[p.i] : NULL;
}

/* Split full run r in two halves, the second a new run after it. */
static bp_Status split(bp_Allocator *a, bp_BroadCell *c, uint32_t r)
{
	if (c->nruns == UINT32_MAX / 2)
		return BP_ELIMIT;
	if (c->nruns + 1 > c->runs_cap) {
		uint32_t ncap = c->runs_cap ? 2 * c->runs_cap : 4;
		bp_BroadRun **nr = bp_realloc(a, c->runs, (size_t)c->runs_cap * sizeof *nr,
		                              (size_t)ncap * sizeof *nr);
		if (!nr)
			return BP_ENOMEM;
		c->runs = nr;
		c->runs_cap = ncap;
	}
	bp_BroadRun *second = run_resized(a, NULL, BP_BROAD_RUN_MAX);
	if (!second)
		return BP_ENOMEM;
	if (c->nruns == 1)
		c->runs[0] = c->one;
	bp_BroadRun *first = c->runs[r];
	const uint32_t keep = first->n / 2;
	second->n = first->n - keep;
	memcpy(second->at, first->at + keep, (size_t)second->n * sizeof *second->at);
	first->n = keep;
	memmove(c->runs + r + 2, c->runs + r + 1, (size_t)(c->nruns - r - 1) * sizeof *c->runs);
	c->runs[r + 1] = second;
	c->nruns++;
	return BP_OK;
}

bp_Status bp_list_insert(bp_Allocator *a, bp_BroadCell *c, const bp_BroadListing *l,
                         bp_ListPos *at)
{
	if (!c->nruns) {
		bp_BroadRun *run = run_resized(a, NULL, 2);
		if (!run)
			return BP_ENOMEM;
		c->one = run;
		c->nruns = 1;
	}
	bp_BroadRun *const *runs = bp_list_runs(c);
	const bp_BroadRun *last = runs[c->nruns - 1];
	/* Appending is the common case: a build lists entities in creation order. */
	bp_ListPos p = !last->n || last->at[last->n - 1].serial < l->serial
	                   ? (bp_ListPos){c->nruns - 1, last->n}
	                   : bp_list_lower(c, l->serial);
	bp_BroadRun *run = runs[p.r];
	if (run->n == BP_BROAD_RUN_MAX) {
		bp_Status st = split(a, c, p.r);
		if (st != BP_OK)
			return st;
		run = c->runs[p.r];
		if (p.i > run->n) { /* in the second half */
			p.i -= run->n;
			p.r++;
			run = c->runs[p.r];
		}
	} else if (run->n == run->cap) {
		uint32_t cap = 2 * run->cap < BP_BROAD_RUN_MAX ? 2 * run->cap : BP_BROAD_RUN_MAX;
		if (!(run = run_resized(a, run, cap)))
			return BP_ENOMEM;
		set_run(c, p.r, run);
	}
	memmove(run->at + p.i + 1, run->at + p.i, (size_t)(run->n - p.i) * sizeof *run->at);
	run->at[p.i] = *l;
	run->n++;
	c->n++;
	*at = p;
	return BP_OK;
}

/* Free run r of a cell with several and close its gap in c->runs (back to c->one when
 * one run is left). */
static void drop_run(bp_Allocator *a, bp_BroadCell *c, uint32_t r)
{
	bp_free(a, c->runs[r], run_bytes(c->runs[r]->cap));
	memmove(c->runs + r, c->runs + r + 1, (size_t)(c->nruns - r - 1) * sizeof *c->runs);
	if (--c->nruns == 1)
		c->one = c->runs[0];
}

/* Take run r + 1 into run r (together at most BP_BROAD_RUN_MAX / 2 listings, so that
 * a split and a merge are far apart); nothing if out of memory. */
static void merge(bp_Allocator *a, bp_BroadCell *c, uint32_t r)
{
	bp_BroadRun *x = c->runs[r], *y = c->runs[r + 1];
	uint32_t cap = x->cap;
	while (cap < x->n + y->n)
		cap *= 2;
	if (cap != x->cap && !(x = run_resized(a, x, cap)))
		return;
	c->runs[r] = x;
	memcpy(x->at + x->n, y->at, (size_t)y->n * sizeof *y->at);
	x->n += y->n;
	drop_run(a, c, r + 1);
}

void bp_list_remove(bp_Allocator *a, bp_BroadCell *c, bp_ListPos p)
{
	bp_BroadRun *run = bp_list_runs(c)[p.r];
	memmove(run->at + p.i, run->at + p.i + 1, (size_t)(run->n - p.i - 1) * sizeof *run->at);
	run->n--;
	c->n--;
	const uint32_t half = BP_BROAD_RUN_MAX / 2;
	if (c->nruns > 1 && !run->n) {
		/* Runs of a cell with several are never empty (bp_list_lower_runs reads
		 * their last listing): an empty one goes, whatever its neighbours hold. */
		drop_run(a, c, p.r);
	} else if (c->nruns > 1 && p.r + 1 < c->nruns && run->n + c->runs[p.r + 1]->n <= half)
		merge(a, c, p.r);
	else if (c->nruns > 1 && p.r > 0 && c->runs[p.r - 1]->n + run->n <= half)
		merge(a, c, p.r - 1);
	else if (run->cap > 4 && run->n <= run->cap / 4) {
		bp_BroadRun *smaller = run_resized(a, run, run->cap / 2);
		if (smaller) /* (else it keeps its room) */
			set_run(c, p.r, smaller);
	}
}

void bp_list_free(bp_Allocator *a, bp_BroadCell *c)
{
	bp_BroadRun *const *runs = bp_list_runs(c);
	for (uint32_t r = 0; r < c->nruns; r++)
		bp_free(a, runs[r], run_bytes(runs[r]->cap));
	bp_free(a, c->runs, (size_t)c->runs_cap * sizeof *c->runs);
	c->runs = NULL;
	c->runs_cap = 0;
	c->one = NULL;
	c->nruns = 0;
	c->n = 0;
}
