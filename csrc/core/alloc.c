/* SPDX-License-Identifier: MIT
 * alloc.c - allocation through a world's allocator, counting the bytes held (see
 * alloc.h). A leaf: every other part of the core allocates through it.
 */
#include "alloc.h"

#include <stdint.h>

void *bp_alloc(bp_Allocator *a, size_t n)
{
	void *p = a->fn(a->ud, NULL, 0, n);
	if (p)
		a->bytes += n;
	return p;
}

void *bp_realloc(bp_Allocator *a, void *p, size_t oldn, size_t newn)
{
	void *q = a->fn(a->ud, p, p ? oldn : 0, newn);
	if (q) {
		a->bytes -= p ? oldn : 0;
		a->bytes += newn;
	}
	return q;
}

void bp_free(bp_Allocator *a, void *p, size_t n)
{
	if (!p)
		return;
	a->fn(a->ud, p, n, 0);
	a->bytes -= n;
}

/* Grow an array to hold at least `need` items of `size` bytes (doubling). */
bp_Status bp_grow(bp_Allocator *a, void **arr, uint32_t *cap, uint32_t need, size_t size)
{
	if (need <= *cap)
		return BP_OK;
	uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX / 2 || ncap * size > (uint64_t)SIZE_MAX / 2)
		return BP_ELIMIT;
	void *p = bp_realloc(a, *arr, (size_t)*cap * size, (size_t)ncap * size);
	if (!p)
		return BP_ENOMEM;
	*arr = p;
	*cap = (uint32_t)ncap;
	return BP_OK;
}
