/* SPDX-License-Identifier: MIT
 * codec.h - the little-endian writer and reader of snapshots and exported entities
 * (codec.c): one coder serves every direction, so that what is written, counted,
 * hashed and read is the same list of fields in the same order (snapcode.c). A leaf.
 */
#ifndef BP_CORE_CODEC_H
#define BP_CORE_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** What a coder does with each value it is given. */
enum {
	BP_CODE_SIZE = 0,  /* count the bytes only */
	BP_CODE_WRITE = 1, /* write them to buf (cap bytes; past cap only counted) */
	BP_CODE_HASH = 2,  /* feed them to the 64-bit digest */
	BP_CODE_READ = 3   /* read values from buf (cap bytes) into the fields */
};

typedef struct bp_Coder {
	int mode;
	uint8_t *buf;        /* WRITE: the output; READ: the input (not written) */
	size_t cap, len;     /* buf's size; bytes written, counted, hashed or read */
	const char *why;     /* READ: the first problem found (NULL: none) */
	uint64_t h[4];       /* HASH: four lanes of the digest so far (of whole 64-byte
	                      * blocks; lanes are independent, so that they run in parallel) */
	uint8_t blk[64];     /* HASH: the bytes of the block being filled */
	unsigned nblk;
	void *memo;          /* HASH: the caller's cache between values (snapcode.c's rules) */
} bp_Coder;

/** A coder in `mode` over buf (cap bytes; NULL and 0 for SIZE and HASH). Source: our own. */
bp_Coder bp_coder(int mode, void *buf, size_t cap);

/** Code n raw bytes at p (written from p, or read into p). Reading past the end sets
 *  why ("truncated") and gives zeros. Source: our own. */
void bp_code_bytes(bp_Coder *c, void *p, size_t n);

/** Code one value, little-endian whatever the host's order: doubles and floats as
 *  their IEEE 754 bits, int as int32. Source: our own. */
void bp_code_u8(bp_Coder *c, uint8_t *v);
void bp_code_u16(bp_Coder *c, uint16_t *v);
void bp_code_u32(bp_Coder *c, uint32_t *v);
void bp_code_i32(bp_Coder *c, int32_t *v);
void bp_code_int(bp_Coder *c, int *v);
void bp_code_u64(bp_Coder *c, uint64_t *v);
void bp_code_f64(bp_Coder *c, double *v);
void bp_code_f32(bp_Coder *c, float *v);

/** READ: note a problem (the first one is kept). Source: our own. */
void bp_code_fail(bp_Coder *c, const char *why);

/** Bytes left to read (READ). Source: our own. */
size_t bp_code_left(const bp_Coder *c);

/** Whether the host stores integers little-endian (then the format's byte order is
 *  the host's, and values are copied whole). Constant-folded by the compiler. */
static inline int bp_host_le(void)
{
	const uint16_t one = 1;
	uint8_t first;
	memcpy(&first, &one, 1);
	return first == 1;
}

/** The digest of what a HASH coder was fed: 64 bits, the same on every build. Source:
 *  our own (a multiply-rotate mix of 64-bit little-endian words in four lanes, as
 *  xxHash64 runs its own, finished with a splitmix64-style avalanche). */
uint64_t bp_code_digest(const bp_Coder *c);

/** The same digest of n bytes. Source: our own. */
uint64_t bp_digest_bytes(const void *p, size_t n);

/* The frame of a byte image (a snapshot, an exported entity): u32 magic, u32
 * version, u64 body length, the body, u64 digest of everything before the digest. */
#define BP_IMAGE_HEAD 16
#define BP_IMAGE_TAIL 8

/** Begin an image with a WRITE coder: its magic, version and a body length the end
 *  fills in. Source: our own. */
void bp_image_begin(bp_Coder *c, uint32_t magic, uint32_t version);

/** End the image whose body c has just written: its length in bytes with the digest;
 *  when it fits the coder's buffer, the body length and the digest are written too.
 *  Source: our own. */
size_t bp_image_end(bp_Coder *c);

/** Write the body length and digest of the n-byte image at bytes (n at least
 *  BP_IMAGE_HEAD + BP_IMAGE_TAIL). Source: our own. */
void bp_image_seal(void *bytes, size_t n);

/** Open the n-byte image at bytes for reading: *c reads its body (cap: where the
 *  digest begins) when the result is NULL; else the problem: "truncated", `not_ours`
 *  (another magic), `other_version`, "corrupted: trailing bytes" (a body length short
 *  of n) or "corrupted: checksum mismatch". Source: our own. */
const char *bp_image_open(bp_Coder *c, const void *bytes, size_t n, uint32_t magic,
                          uint32_t version, const char *not_ours, const char *other_version);

#endif
