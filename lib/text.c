// SPDX-License-Identifier: GPL-2.0
/* Sizes, seconds, byte counts, frame names, escapes and wrapped prose as text (include/fslens/text.h). */
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

const char *fsl_fmt_bytes_short(char *buf, size_t len, uint64_t b)
{
	if (b >= 10ull << 30)
		snprintf(buf, len, "%.0fG", b / 1073741824.0);
	else if (b >= 10ull << 20)
		snprintf(buf, len, "%.0fM", b / 1048576.0);
	else if (b >= 10ull << 10)
		snprintf(buf, len, "%.0fK", b / 1024.0);
	else
		snprintf(buf, len, "%" PRIu64, b);
	return buf;
}

size_t fsl_frame_func_len(const char *frame)
{
	return strcspn(frame, "+/ \t[");
}

int fsl_frame_is_recorder(const char *frame)
{
	static const char *const pfx[] = {
		"bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_", "bpf_trampoline_",
		"[bpf]", "_einittext",
	};
	unsigned int i;

	if (!frame)
		return 0;
	for (i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (!strncmp(frame, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}

unsigned int fsl_frames_recorder_prefix(const char *const *frames, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && fsl_frame_is_recorder(frames[i]); i++)
		;
	return i;
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

/*
 * Length of the UTF-8 sequence at s (n bytes left) that a terminal prints as
 * a character, or 0: a malformed sequence, an overlong form, a surrogate, or
 * a C1 control (U+0080..U+009F), which some terminals obey like ESC.
 */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return len;
}

size_t fsl_text_escape(char *dst, size_t len, const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t i = 0, o = 0, k;

	if (n == (size_t)-1)
		n = strlen(src);
	while (i < n && s[i]) {
		char esc[5];
		const char *put = (const char *)s + i;
		size_t m = 1;

		if (s[i] < 0x20 || s[i] == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", s[i]);
			put = esc;
			m = 4;
			i++;
		} else if (s[i] >= 0x80) {
			k = utf8_printable(s + i, n - i);
			if (k) {
				m = k;
				i += k;
			} else {
				snprintf(esc, sizeof(esc), "\\x%02x", s[i]);
				put = esc;
				m = 4;
				i++;
			}
		} else {
			i++;
		}
		if (o + m >= len)	/* whole escapes or characters only */
			break;
		memcpy(dst + o, put, m);
		o += m;
	}
	if (len)
		dst[o] = 0;
	return o;
}

void fsl_text_fput(FILE *f, const char *s, size_t n)
{
	char buf[1024];

	if (n == (size_t)-1)
		n = strlen(s);
	while (n) {
		size_t take = n > 200 ? 200 : n;

		/* a cut in a UTF-8 sequence shows as escapes: rare, and still safe */
		fsl_text_escape(buf, sizeof(buf), s, take);
		fputs(buf, f);
		s += take;
		n -= take;
	}
}

void fsl_text_wrap(FILE *f, int indent, const char *lead, int cont, const char *text)
{
	int col = fprintf(f, "%*s%s", indent, "", lead), start = col;
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");

		/* a line takes its first word whatever its length */
		if (col + 1 + (int)n > 100 && col > start) {
			col = start = fprintf(f, "\n%*s", cont, "") - 1;
		} else if (p != text) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void fsl_text_sanitize(char *s)
{
	size_t i;

	for (i = 0; s[i]; i++) {
		unsigned char c = s[i];
		size_t k;

		if (c < 0x20 || c == 0x7f) {
			s[i] = '?';
		} else if (c >= 0x80) {
			k = utf8_printable((const unsigned char *)s + i, strlen(s + i));
			if (k)
				i += k - 1;
			else
				s[i] = '?';
		}
	}
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
