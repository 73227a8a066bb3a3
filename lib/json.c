// SPDX-License-Identifier: GPL-2.0
/* Streaming JSON emitter, see include/fslens/json.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/json.h"

void fsl_json__init(struct fsl_json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void check(struct fsl_json *j)
{
	if (!j->err && ferror(j->f))
		j->err = errno ? -errno : -EIO;
}

static void indent(struct fsl_json *j)
{
	int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator before a value (or a key) at the current depth. */
static int before_value(struct fsl_json *j)
{
	if (j->err)
		return -1;
	if (j->after_key) {
		j->after_key = 0;
		return 0;
	}
	if (j->depth > 0) {
		if (j->has_items[j->depth])
			fputc(',', j->f);
		if (j->pretty)
			indent(j);
		j->has_items[j->depth] = 1;
	}
	return 0;
}

static void open_(struct fsl_json *j, int c)
{
	if (before_value(j))
		return;
	if (j->depth >= FSL_JSON_MAX_DEPTH) {
		j->err = -EINVAL;
		return;
	}
	fputc(c, j->f);
	j->depth++;
	j->has_items[j->depth] = 0;
}

static void close_(struct fsl_json *j, int c)
{
	if (j->err)
		return;
	if (j->depth <= 0 || j->after_key) {
		j->err = -EINVAL;
		return;
	}
	j->depth--;
	if (j->pretty && j->has_items[j->depth + 1])
		indent(j);
	fputc(c, j->f);
	check(j);
}

void fsl_json__obj_begin(struct fsl_json *j) { open_(j, '{'); }
void fsl_json__obj_end(struct fsl_json *j) { close_(j, '}'); }
void fsl_json__arr_begin(struct fsl_json *j) { open_(j, '['); }
void fsl_json__arr_end(struct fsl_json *j) { close_(j, ']'); }

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

int fsl_json_write_string(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *run = s, *end = s + n;

	fputc('"', f);
	while (s < end) {
		unsigned char c = *s;
		size_t l;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			s++;
			continue;
		}
		if (c >= 0x80 && (l = utf8_len(s, end - s))) {
			s += l;
			continue;
		}
		if (s > run)
			fwrite(run, 1, s - run, f);
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\u%04x", c);
			else
				fputs("\\ufffd", f);	/* not valid UTF-8 */
		}
		s++;
		run = s;
	}
	if (s > run)
		fwrite(run, 1, s - run, f);
	fputc('"', f);
	return ferror(f) ? -EIO : 0;
}

void fsl_json__key(struct fsl_json *j, const char *key)
{
	if (before_value(j))
		return;
	fsl_json_write_string(j->f, key, strlen(key));
	fputc(':', j->f);
	if (j->pretty)
		fputc(' ', j->f);
	j->after_key = 1;
}

void fsl_json__strn(struct fsl_json *j, const char *s, size_t n)
{
	if (before_value(j))
		return;
	fsl_json_write_string(j->f, s, n);
	check(j);
}

void fsl_json__str(struct fsl_json *j, const char *s)
{
	if (!s)
		fsl_json__null(j);
	else
		fsl_json__strn(j, s, strlen(s));
}

void fsl_json__strf(struct fsl_json *j, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		j->err = -ENOMEM;
		return;
	}
	fsl_json__strn(j, s, n);
	free(s);
}

void fsl_json__u64(struct fsl_json *j, uint64_t v)
{
	if (before_value(j))
		return;
	fprintf(j->f, "%" PRIu64, v);
	check(j);
}

void fsl_json__s64(struct fsl_json *j, int64_t v)
{
	if (before_value(j))
		return;
	fprintf(j->f, "%" PRId64, v);
	check(j);
}

void fsl_json__double(struct fsl_json *j, double v)
{
	if (!isfinite(v)) {
		fsl_json__null(j);
		return;
	}
	if (before_value(j))
		return;
	if (fabs(v) < 1e15 && v == (double)(int64_t)v) {
		fprintf(j->f, "%" PRId64, (int64_t)v);
	} else {
		/* the shortest of %.15g / %.17g that reads back as the same double */
		char buf[32];

		snprintf(buf, sizeof(buf), "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, sizeof(buf), "%.17g", v);
		fputs(buf, j->f);
	}
	check(j);
}

void fsl_json__bool(struct fsl_json *j, int v)
{
	if (before_value(j))
		return;
	fputs(v ? "true" : "false", j->f);
	check(j);
}

void fsl_json__null(struct fsl_json *j)
{
	if (before_value(j))
		return;
	fputs("null", j->f);
	check(j);
}

void fsl_json__raw(struct fsl_json *j, const char *json)
{
	if (before_value(j))
		return;
	fputs(json, j->f);
	check(j);
}

void fsl_json__kv_str(struct fsl_json *j, const char *k, const char *s)
{
	fsl_json__key(j, k);
	fsl_json__str(j, s);
}

void fsl_json__kv_strn(struct fsl_json *j, const char *k, const char *s, size_t n)
{
	fsl_json__key(j, k);
	fsl_json__strn(j, s, n);
}

void fsl_json__kv_u64(struct fsl_json *j, const char *k, uint64_t v)
{
	fsl_json__key(j, k);
	fsl_json__u64(j, v);
}

void fsl_json__kv_s64(struct fsl_json *j, const char *k, int64_t v)
{
	fsl_json__key(j, k);
	fsl_json__s64(j, v);
}

void fsl_json__kv_double(struct fsl_json *j, const char *k, double v)
{
	fsl_json__key(j, k);
	fsl_json__double(j, v);
}

void fsl_json__kv_bool(struct fsl_json *j, const char *k, int v)
{
	fsl_json__key(j, k);
	fsl_json__bool(j, v);
}

void fsl_json__kv_null(struct fsl_json *j, const char *k)
{
	fsl_json__key(j, k);
	fsl_json__null(j);
}

void fsl_json__newline(struct fsl_json *j)
{
	if (j->err)
		return;
	fputc('\n', j->f);
	check(j);
}

int fsl_json__error(const struct fsl_json *j)
{
	if (j->err)
		return j->err;
	return ferror(j->f) ? -EIO : 0;
}
