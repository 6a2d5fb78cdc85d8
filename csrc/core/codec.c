/* SPDX-License-Identifier: MIT
 * codec.c - little-endian coding of values into a buffer, a byte count or a digest,
 * and back, and the frame around a byte image's body (see codec.h). A leaf: it calls
 * nothing else in the core.
 */
#include "codec.h"

#include <string.h>

bp_Coder bp_coder(int mode, void *buf, size_t cap)
{
	bp_Coder c;
	memset(&c, 0, sizeof c);
	c.mode = mode;
	c.buf = buf;
	c.cap = cap;
	c.h[0] = 0x243F6A8885A308D3ull; /* any start values; fixed by the format */
	c.h[1] = 0x13198A2E03707344ull;
	c.h[2] = 0xA4093822299F31D0ull;
	c.h[3] = 0x082EFA98EC4E6C89ull;
	return c;
}

static uint64_t le64(const uint8_t *b)
{
	uint64_t v = 0;
	if (bp_host_le()) {
		memcpy(&v, b, sizeof v);
		return v;
	}
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static uint64_t rotl(uint64_t v, int k)
{
	return v << k | v >> (64 - k);
}

/* One word into one lane: multiplied, rotated, mixed. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h += v * 0xC2B2AE3D27D4EB4Full;
	return rotl(h, 31) * 0x9E3779B97F4A7C15ull;
}

/* One 64-byte block into the digest: word i into lane i % 4. */
static void mix_block(uint64_t h[4], const uint8_t *b)
{
	for (int i = 0; i < 8; i += 4) {
		h[0] = mix(h[0], le64(b + 8 * i));
		h[1] = mix(h[1], le64(b + 8 * i + 8));
		h[2] = mix(h[2], le64(b + 8 * i + 16));
		h[3] = mix(h[3], le64(b + 8 * i + 24));
	}
}

void bp_code_fail(bp_Coder *c, const char *why)
{
	if (!c->why)
		c->why = why;
}

size_t bp_code_left(const bp_Coder *c)
{
	return c->len < c->cap ? c->cap - c->len : 0;
}

void bp_code_bytes(bp_Coder *c, void *p, size_t n)
{
	switch (c->mode) {
	case BP_CODE_WRITE:
		if (n && c->buf && c->len <= c->cap && n <= c->cap - c->len)
			memcpy(c->buf + c->len, p, n);
		break;
	case BP_CODE_HASH: {
		const uint8_t *s = p;
		size_t k = n;
		while (c->nblk == 0 && k >= 64) { /* whole blocks straight from the input */
			mix_block(c->h, s);
			s += 64;
			k -= 64;
		}
		while (k) {
			size_t take = 64 - c->nblk < k ? 64 - c->nblk : k;
			memcpy(c->blk + c->nblk, s, take);
			c->nblk += (unsigned)take;
			s += take;
			k -= take;
			if (c->nblk == 64) {
				mix_block(c->h, c->blk);
				c->nblk = 0;
			}
			while (c->nblk == 0 && k >= 64) {
				mix_block(c->h, s);
				s += 64;
				k -= 64;
			}
		}
		break;
	}
	case BP_CODE_READ:
		if (c->why || n > bp_code_left(c)) {
			bp_code_fail(c, "truncated");
			memset(p, 0, n);
			c->len = c->cap;
			return;
		}
		memcpy(p, c->buf + c->len, n);
		break;
	default:
		break;
	}
	c->len += n;
}

/* Unsigned values of k bytes through a little-endian byte array. */
static uint64_t code_le(bp_Coder *c, uint64_t v, int k)
{
	uint8_t b[8];
	for (int i = 0; i < k; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	bp_code_bytes(c, b, (size_t)k);
	uint64_t r = 0;
	for (int i = k - 1; i >= 0; i--)
		r = r << 8 | b[i];
	return r;
}

void bp_code_u8(bp_Coder *c, uint8_t *v)
{
	*v = (uint8_t)code_le(c, *v, 1);
}

void bp_code_u16(bp_Coder *c, uint16_t *v)
{
	*v = (uint16_t)code_le(c, *v, 2);
}

void bp_code_u32(bp_Coder *c, uint32_t *v)
{
	*v = (uint32_t)code_le(c, *v, 4);
}

void bp_code_i32(bp_Coder *c, int32_t *v)
{
	uint32_t u = (uint32_t)*v;
	bp_code_u32(c, &u);
	*v = u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) - 2147483647 - 1;
}

void bp_code_int(bp_Coder *c, int *v)
{
	int32_t i = (int32_t)*v;
	bp_code_i32(c, &i);
	*v = i;
}

void bp_code_u64(bp_Coder *c, uint64_t *v)
{
	*v = code_le(c, *v, 8);
}

void bp_code_f64(bp_Coder *c, double *v)
{
	uint64_t u;
	memcpy(&u, v, sizeof u);
	bp_code_u64(c, &u);
	memcpy(v, &u, sizeof u);
}

void bp_code_f32(bp_Coder *c, float *v)
{
	uint32_t u;
	memcpy(&u, v, sizeof u);
	bp_code_u32(c, &u);
	memcpy(v, &u, sizeof u);
}

uint64_t bp_code_digest(const bp_Coder *c)
{
	uint8_t last[64];
	memset(last, 0, sizeof last);
	memcpy(last, c->blk, c->nblk);
	uint64_t l[4] = {c->h[0], c->h[1], c->h[2], c->h[3]};
	mix_block(l, last);
	uint64_t h = rotl(l[0], 1) + rotl(l[1], 7) + rotl(l[2], 12) + rotl(l[3], 18);
	h ^= (uint64_t)c->len;
	h ^= h >> 30;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 27;
	h *= 0x94D049BB133111EBull;
	h ^= h >> 31;
	return h;
}

uint64_t bp_digest_bytes(const void *p, size_t n)
{
	bp_Coder c = bp_coder(BP_CODE_HASH, NULL, 0);
	bp_code_bytes(&c, (void *)(uintptr_t)p, n);
	return bp_code_digest(&c);
}

void bp_image_begin(bp_Coder *c, uint32_t magic, uint32_t version)
{
	uint64_t body = 0;
	bp_code_u32(c, &magic);
	bp_code_u32(c, &version);
	bp_code_u64(c, &body);
}

void bp_image_seal(void *bytes, size_t n)
{
	uint64_t body = n - BP_IMAGE_HEAD - BP_IMAGE_TAIL;
	bp_Coder h = bp_coder(BP_CODE_WRITE, (uint8_t *)bytes + 8, 8);
	bp_code_u64(&h, &body);
	uint64_t digest = bp_digest_bytes(bytes, n - BP_IMAGE_TAIL);
	bp_Coder t = bp_coder(BP_CODE_WRITE, (uint8_t *)bytes + n - BP_IMAGE_TAIL, BP_IMAGE_TAIL);
	bp_code_u64(&t, &digest);
}

size_t bp_image_end(bp_Coder *c)
{
	const size_t total = c->len + BP_IMAGE_TAIL;
	if (c->buf && total <= c->cap)
		bp_image_seal(c->buf, total);
	return total;
}

const char *bp_image_open(bp_Coder *c, const void *bytes, size_t n, uint32_t magic,
                          uint32_t version, const char *not_ours, const char *other_version)
{
	*c = bp_coder(BP_CODE_READ, (void *)(uintptr_t)bytes, n);
	uint32_t m = 0, v = 0;
	uint64_t body = 0;
	bp_code_u32(c, &m);
	bp_code_u32(c, &v);
	bp_code_u64(c, &body);
	if (c->why)
		return "truncated";
	if (m != magic)
		return not_ours;
	if (v != version)
		return other_version;
	const size_t frame = BP_IMAGE_HEAD + BP_IMAGE_TAIL;
	if (n < frame || body != n - frame)
		return n < frame || body > n - frame ? "truncated" : "corrupted: trailing bytes";
	bp_Coder t = bp_coder(BP_CODE_READ, (void *)(uintptr_t)bytes, n);
	t.len = n - BP_IMAGE_TAIL;
	uint64_t sum = 0;
	bp_code_u64(&t, &sum);
	if (sum != bp_digest_bytes(bytes, n - BP_IMAGE_TAIL))
		return "corrupted: checksum mismatch";
	c->cap = n - BP_IMAGE_TAIL; /* the body ends at the digest */
	return NULL;
}
