/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON emitter (lib/json.c). Commas, nesting and string
 * escaping are handled here; callers say what comes next:
 *
 *	struct fsl_json j;
 *	fsl_json__init(&j, stdout, 0);
 *	fsl_json__obj_begin(&j);
 *	fsl_json__kv_str(&j, "type", "block_rq_complete");
 *	fsl_json__key(&j, "frames");
 *	fsl_json__arr_begin(&j); fsl_json__str(&j, "io_schedule"); fsl_json__arr_end(&j);
 *	fsl_json__obj_end(&j);
 *	fsl_json__newline(&j);		(JSON lines: one value per line)
 *
 * Strings are bytes: valid UTF-8 passes through, control characters are
 * escaped, and bytes that are not valid UTF-8 become U+FFFD so the output is
 * always valid JSON. Non-finite doubles print as null. Write errors are
 * sticky: fsl_json__error() returns -EIO (or the stream's errno) once a
 * write failed, and emitting stops; loops should check it to stop early.
 */
#ifndef FSLENS_JSON_H
#define FSLENS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FSL_JSON_MAX_DEPTH 64

struct fsl_json {
	FILE *f;
	int pretty;		/* indent with two spaces per level */
	int depth;
	int after_key;
	int err;
	unsigned char has_items[FSL_JSON_MAX_DEPTH + 1];
};

void fsl_json__init(struct fsl_json *j, FILE *f, int pretty);
void fsl_json__obj_begin(struct fsl_json *j);
void fsl_json__obj_end(struct fsl_json *j);
void fsl_json__arr_begin(struct fsl_json *j);
void fsl_json__arr_end(struct fsl_json *j);
/* The key of the next value inside an object. */
void fsl_json__key(struct fsl_json *j, const char *key);

void fsl_json__str(struct fsl_json *j, const char *s);		/* NULL -> null */
void fsl_json__strn(struct fsl_json *j, const char *s, size_t n);
void fsl_json__u64(struct fsl_json *j, uint64_t v);
void fsl_json__s64(struct fsl_json *j, int64_t v);
void fsl_json__double(struct fsl_json *j, double v);		/* shortest that reads back exactly */
void fsl_json__bool(struct fsl_json *j, int v);
void fsl_json__null(struct fsl_json *j);
/* A value already formatted as JSON by the caller (inserted as is). */
void fsl_json__raw(struct fsl_json *j, const char *json);
/* Printf into a JSON string value. */
void fsl_json__strf(struct fsl_json *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* key + value shorthands */
void fsl_json__kv_str(struct fsl_json *j, const char *key, const char *s);
void fsl_json__kv_strn(struct fsl_json *j, const char *key, const char *s, size_t n);
void fsl_json__kv_u64(struct fsl_json *j, const char *key, uint64_t v);
void fsl_json__kv_s64(struct fsl_json *j, const char *key, int64_t v);
void fsl_json__kv_double(struct fsl_json *j, const char *key, double v);
void fsl_json__kv_bool(struct fsl_json *j, const char *key, int v);
void fsl_json__kv_null(struct fsl_json *j, const char *key);

/* End a top-level value with a newline (JSON lines). */
void fsl_json__newline(struct fsl_json *j);
/* 0, or -errno of the first failed write (also if nesting was misused: -EINVAL). */
int fsl_json__error(const struct fsl_json *j);

/* Write s (n bytes) as a quoted, escaped JSON string. Returns 0 or -EIO. */
int fsl_json_write_string(FILE *f, const char *s, size_t n);

#endif
