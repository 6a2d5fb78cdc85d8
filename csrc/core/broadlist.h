/* SPDX-License-Identifier: MIT
 * broadlist.h - a grid cell's listings (broadlist.c): kept sorted by serial in runs of
 * at most BP_BROAD_RUN_MAX, so that listing or unlisting an entity in a cell that
 * holds thousands (a pile) shifts one run, not half of the cell.
 */
#ifndef BP_CORE_BROADLIST_H
#define BP_CORE_BROADLIST_H

#include "bp_world.h"

/** Listings a run holds at most: 64 x 56 bytes, a few KB shifted per change. */
#define BP_BROAD_RUN_MAX 64

/** One run: n listings of cap, serials ascending, every serial above the run before's. */
struct bp_BroadRun {
	uint32_t n, cap;
	bp_BroadListing at[];
};

/** A place in a cell's listings: run r, index i in it. */
typedef struct bp_ListPos {
	uint32_t r, i;
} bp_ListPos;

/** The cell's runs, in serial order (c->nruns of them). Source: our own. */
static inline bp_BroadRun *const *bp_list_runs(const bp_BroadCell *c)
{
	return c->nruns > 1 ? c->runs : &c->one;
}

/** The index of the first listing of run whose serial is >= serial (run->n if none
 *  is): a binary search. Source: our own. */
static inline uint32_t bp_run_lower(const bp_BroadRun *run, uint32_t serial)
{
	uint32_t i = 0, j = run->n;
	while (i < j) {
		uint32_t mid = i + (j - i) / 2;
		if (run->at[mid].serial < serial)
			i = mid + 1;
		else
			j = mid;
	}
	return i;
}

/** bp_list_lower for a cell of several runs. Source: our own. */
bp_ListPos bp_list_lower_runs(const bp_BroadCell *c, uint32_t serial);

/** The place of the first listing of cell c whose serial is >= serial (past the last
 *  listing if none is). Inline for the common cell of one run. Source: our own. */
static inline bp_ListPos bp_list_lower(const bp_BroadCell *c, uint32_t serial)
{
	if (c->nruns > 1)
		return bp_list_lower_runs(c, serial);
	bp_ListPos p = {0, c->nruns ? bp_run_lower(c->one, serial) : 0};
	return p;
}

/** The listing at place p of cell c, or NULL past the end. Source: our own. */
bp_BroadListing *bp_list_at(const bp_BroadCell *c, bp_ListPos p);

/** Insert listing l in serial order (its serial is not in the cell yet); its place
 *  goes to *at. BP_ENOMEM or BP_ELIMIT with the cell unchanged. Source: our own. */
bp_Status bp_list_insert(bp_Allocator *a, bp_BroadCell *c, const bp_BroadListing *l,
                         bp_ListPos *at);

/** Remove the listing at place p (which must hold one). Source: our own. */
void bp_list_remove(bp_Allocator *a, bp_BroadCell *c, bp_ListPos p);

/** Free the cell's runs; the cell then lists nothing and holds no memory. Source: our
 *  own. */
void bp_list_free(bp_Allocator *a, bp_BroadCell *c);

#endif
