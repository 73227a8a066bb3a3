// SPDX-License-Identifier: GPL-2.0
/*
 * ext4's "half MD4" directory hash, needed because Orlov spreads top-level
 * directories by the hash of their name with the filesystem's hash seed.
 * Written from the published algorithm (the first three MD4 rounds over
 * 32-byte blocks of the name, padded with a length-derived word).
 */
#include <string.h>
#include "fslens/model.h"

static uint32_t rol(uint32_t x, int s)
{
	return (x << s) | (x >> (32 - s));
}

#define HF(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define HG(x, y, z) (((x) & (y)) + (((x) ^ (y)) & (z)))
#define HH(x, y, z) ((x) ^ (y) ^ (z))
#define STEP(f, a, b, c, d, x, s) ((a) += f((b), (c), (d)) + (x), (a) = rol((a), (s)))

static void half_md4(uint32_t h[4], const uint32_t in[8])
{
	const uint32_t k2 = 013240474631u, k3 = 015666365641u;
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];

	STEP(HF, a, b, c, d, in[0], 3);
	STEP(HF, d, a, b, c, in[1], 7);
	STEP(HF, c, d, a, b, in[2], 11);
	STEP(HF, b, c, d, a, in[3], 19);
	STEP(HF, a, b, c, d, in[4], 3);
	STEP(HF, d, a, b, c, in[5], 7);
	STEP(HF, c, d, a, b, in[6], 11);
	STEP(HF, b, c, d, a, in[7], 19);

	STEP(HG, a, b, c, d, in[1] + k2, 3);
	STEP(HG, d, a, b, c, in[3] + k2, 5);
	STEP(HG, c, d, a, b, in[5] + k2, 9);
	STEP(HG, b, c, d, a, in[7] + k2, 13);
	STEP(HG, a, b, c, d, in[0] + k2, 3);
	STEP(HG, d, a, b, c, in[2] + k2, 5);
	STEP(HG, c, d, a, b, in[4] + k2, 9);
	STEP(HG, b, c, d, a, in[6] + k2, 13);

	STEP(HH, a, b, c, d, in[3] + k3, 3);
	STEP(HH, d, a, b, c, in[7] + k3, 9);
	STEP(HH, c, d, a, b, in[2] + k3, 11);
	STEP(HH, b, c, d, a, in[6] + k3, 15);
	STEP(HH, a, b, c, d, in[1] + k3, 3);
	STEP(HH, d, a, b, c, in[5] + k3, 9);
	STEP(HH, c, d, a, b, in[0] + k3, 11);
	STEP(HH, b, c, d, a, in[4] + k3, 15);

	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

/* Pack up to 4*n bytes of the name into n words, padding with the length. */
static void pack(const char *msg, size_t len, uint32_t *out, int n, int unsigned_chars)
{
	uint32_t pad = (uint32_t)len | ((uint32_t)len << 8), val;
	size_t i;

	pad |= pad << 16;
	val = pad;
	if (len > (size_t)n * 4)
		len = (size_t)n * 4;
	for (i = 0; i < len; i++) {
		int c = unsigned_chars ? (int)(unsigned char)msg[i] : (int)(signed char)msg[i];

		val = (uint32_t)c + (val << 8);
		if (i % 4 == 3) {
			*out++ = val;
			val = pad;
			n--;
		}
	}
	if (--n >= 0)
		*out++ = val;
	while (--n >= 0)
		*out++ = pad;
}

uint32_t fsl_dirhash_half_md4(const char *name, size_t len, const uint32_t seed[4],
			      int unsigned_chars)
{
	uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	uint32_t in[8], hash;
	long rem = (long)len;

	if (seed && (seed[0] | seed[1] | seed[2] | seed[3]))
		memcpy(h, seed, sizeof(h));
	while (rem > 0) {
		pack(name, (size_t)rem, in, 8, unsigned_chars);
		half_md4(h, in);
		rem -= 32;
		name += 32;
	}
	hash = h[1] & ~1u;
	if (hash == (0x7fffffffu << 1))
		hash = (0x7fffffffu - 1) << 1;
	return hash;
}
