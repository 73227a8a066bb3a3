// SPDX-License-Identifier: GPL-2.0
/* Sizes, seconds, byte counts and frame names as text (include/fslens/text.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/text.h"

int fsl_parse_size(const char *s, uint64_t *out)
{
	unsigned int shift = 0;
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && *end == 'i')
		end++;
	if (*end == 'B')
		end++;
	if (*end)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

int fsl_parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 100000000;
	const char *p = s;
	int digits = 0;

	if (!s || !*s)
		return -EINVAL;
	if (strpbrk(s, "eE")) {
		char *end;
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (end == s || *end || errno || !(v >= 0))
			return -EINVAL;
		if (v * 1e9 >= 18446744073709551615.0)
			return -ERANGE;
		*ns = (uint64_t)llround(v * 1e9);
		return 0;
	}
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (sec > UINT64_MAX / 1000000000ull)
			return -ERANGE;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			frac += (uint64_t)(*p - '0') * scale;
			scale /= 10;
		}
	}
	if (*p || !digits)
		return -EINVAL;
	if (sec > (UINT64_MAX - frac) / 1000000000ull)
		return -ERANGE;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

const char *fsl_fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b < 10240)
		snprintf(buf, len, "%" PRIu64 " B", b);
	else if (b < 10485760)
		snprintf(buf, len, "%.1f KiB", b / 1024.0);
	else if (b < 10737418240ull)
		snprintf(buf, len, "%.1f MiB", b / 1048576.0);
	else
		snprintf(buf, len, "%.2f GiB", b / 1073741824.0);
	return buf;
}

size_t fsl_frame_func_len(const char *frame)
{
	return strcspn(frame, "+/ \t[");
}

const char *fsl_frame_func(const char *frame, char *buf, size_t len)
{
	size_t n = fsl_frame_func_len(frame);

	if (n >= len)
		n = len - 1;
	memcpy(buf, frame, n);
	buf[n] = 0;
	return buf;
}

int fsl_parse_id_list(const char *s, uint32_t *out, unsigned int max, const char **bad)
{
	static char badbuf[32];
	unsigned int n = 0;

	for (;;) {
		size_t len = strcspn(s, ",");
		unsigned long long v = 0;
		size_t i;

		for (i = 0; i < len && s[i] >= '0' && s[i] <= '9' && v <= 0x7fffffff; i++)
			v = v * 10 + (s[i] - '0');
		if (!len || i < len || !v || v > 0x7fffffff) {
			snprintf(badbuf, sizeof(badbuf), "%.*s", (int)(len < 24 ? len : 24), s);
			if (bad)
				*bad = badbuf;
			return -EINVAL;
		}
		if (n == max)
			return -E2BIG;
		out[n++] = v;
		s += len;
		if (!*s)
			return n;
		s++;	/* the comma: an item must follow */
	}
}
