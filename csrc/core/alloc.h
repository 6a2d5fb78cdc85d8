/* SPDX-License-Identifier: MIT
 * alloc.h - the world's allocation helpers: every byte the core holds goes through
 * them, so that a world knows its size (stats) and a failure is one NULL. A leaf:
 * it calls nothing else in the core.
 */
#ifndef BP_CORE_ALLOC_H
#define BP_CORE_ALLOC_H

#include "bp_base.h"
#include <stdint.h>

/** Allocation helpers through a->fn that keep a->bytes: NULL on failure (bp_alloc,
 *  bp_realloc: the old block stays valid); n is the size given at allocation (bytes).
 *  Source: our own. */
void *bp_alloc(bp_Allocator *a, size_t n);
void *bp_realloc(bp_Allocator *a, void *p, size_t oldn, size_t newn);
void bp_free(bp_Allocator *a, void *p, size_t n);

/** Grow array *arr (capacity *cap elements of `size` bytes) to hold at least `need`
 *  (doubling). BP_ELIMIT past UINT32_MAX/2 elements or SIZE_MAX/2 bytes, BP_ENOMEM
 *  (the array is unchanged on either). Source: our own. */
bp_Status bp_grow(bp_Allocator *a, void **arr, uint32_t *cap, uint32_t need, size_t size);

#endif
