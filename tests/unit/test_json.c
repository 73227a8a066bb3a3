// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "t.h"
#include "fslens/json.h"

static char *emit(void (*fn)(struct fsl_json *), int pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fsl_json j;

	fsl_json__init(&j, f, pretty);
	fn(&j);
	CHECK_EQ(fsl_json__error(&j), 0);
	fclose(f);
	return buf;
}

static void doc(struct fsl_json *j)
{
	fsl_json__obj_begin(j);
	fsl_json__kv_str(j, "type", "block_rq_complete");
	fsl_json__kv_u64(j, "sector", 18446744073709551615ull);
	fsl_json__kv_s64(j, "error", -5);
	fsl_json__kv_double(j, "ms", 1.5);
	fsl_json__kv_double(j, "n", 3);
	fsl_json__kv_double(j, "bad", NAN);
	fsl_json__kv_bool(j, "ok", 1);
	fsl_json__kv_str(j, "none", NULL);
	fsl_json__key(j, "a");
	fsl_json__arr_begin(j);
	fsl_json__u64(j, 1);
	fsl_json__obj_begin(j);
	fsl_json__obj_end(j);
	fsl_json__arr_begin(j);
	fsl_json__arr_end(j);
	fsl_json__arr_end(j);
	fsl_json__obj_end(j);
	fsl_json__newline(j);
}

TEST(json_compact)
{
	char *s = emit(doc, 0);

	CHECK_STR(s, "{\"type\":\"block_rq_complete\",\"sector\":18446744073709551615,"
		  "\"error\":-5,\"ms\":1.5,\"n\":3,\"bad\":null,\"ok\":true,\"none\":null,"
		  "\"a\":[1,{},[]]}\n");
	free(s);
}

TEST(json_pretty)
{
	char *s = emit(doc, 1);

	CHECK_STR(s, "{\n  \"type\": \"block_rq_complete\",\n  \"sector\": 18446744073709551615,\n"
		  "  \"error\": -5,\n  \"ms\": 1.5,\n  \"n\": 3,\n  \"bad\": null,\n  \"ok\": true,\n"
		  "  \"none\": null,\n  \"a\": [\n    1,\n    {},\n    []\n  ]\n}\n");
	free(s);
}

static void strings(struct fsl_json *j)
{
	fsl_json__arr_begin(j);
	fsl_json__str(j, "quote\" back\\ nl\n tab\t bell\x07 del\x7f");
	fsl_json__str(j, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");	/* valid UTF-8 kept */
	fsl_json__strn(j, "bad\xff\xc3(\xed\xa0\x80z", 10);	/* invalid, surrogate */
	fsl_json__strn(j, "nul\0in", 6);
	fsl_json__strf(j, "%d-%s", 42, "x");
	fsl_json__arr_end(j);
}

TEST(json_strings)
{
	char *s = emit(strings, 0);

	CHECK_STR(s, "[\"quote\\\" back\\\\ nl\\n tab\\t bell\\u0007 del\\u007f\","
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
		  "\"bad\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffdz\",\"nul\\u0000in\",\"42-x\"]");
	free(s);
}

TEST(json_write_error_sticks)
{
	FILE *f = fopen("/dev/full", "w");
	struct fsl_json j;
	int i;

	if (!f)
		SKIP("no /dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	fsl_json__init(&j, f, 0);
	for (i = 0; i < 10; i++)
		fsl_json__kv_u64(&j, "x", i);
	CHECK(fsl_json__error(&j) < 0);
	fclose(f);
}

TEST(json_misuse)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fsl_json j;

	fsl_json__init(&j, f, 0);
	fsl_json__obj_end(&j);
	CHECK_EQ(fsl_json__error(&j), -EINVAL);
	fclose(f);
	free(buf);
}

static void doubles(struct fsl_json *j)
{
	fsl_json__arr_begin(j);
	fsl_json__double(j, 0.1);
	fsl_json__double(j, 1234567.25);
	fsl_json__double(j, -2.5e-7);
	fsl_json__double(j, 1.0 / 3);
	fsl_json__double(j, 1e300);
	fsl_json__double(j, -0.0);
	fsl_json__double(j, INFINITY);
	fsl_json__arr_end(j);
}

/* Doubles print short when they can and always read back exactly. */
TEST(json_doubles)
{
	char *s = emit(doubles, 0);

	CHECK_STR(s, "[0.1,1234567.25,-2.5e-07,0.33333333333333331,1e+300,0,null]");
	free(s);
}

/* fsl_json_write_string of n bytes, into a NUL-terminated heap string. */
static char *esc(const char *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fsl_json_write_string(f, s, n);
	fclose(f);
	return buf;
}

#define CHECK_ESC(in, want) do {					\
	char *_s = esc(in, sizeof(in) - 1);				\
	CHECK_STR(_s, want);						\
	free(_s);							\
} while (0)

/*
 * The one escaper (the exporters' Latin-1 \u00XX copy is gone): every byte
 * that is not part of a valid UTF-8 sequence becomes one U+FFFD, valid
 * sequences of every length pass through, control characters are escaped.
 */
TEST(json_escape_utf8)
{
	/* valid: 2, 3, 4 bytes, and the extremes U+0080, U+FFFF, U+10FFFF */
	CHECK_ESC("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	CHECK_ESC("\xc2\x80|\xef\xbf\xbf|\xf4\x8f\xbf\xbf", "\"\xc2\x80|\xef\xbf\xbf|\xf4\x8f\xbf\xbf\"");
	/* Latin-1 bytes are not characters: the old exporter wrote caf\u00e9 for "caf\xe9" */
	CHECK_ESC("caf\xe9", "\"caf\\ufffd\"");
	/* truncated sequences, at the end and before ASCII */
	CHECK_ESC("a\xe2\x82", "\"a\\ufffd\\ufffd\"");
	CHECK_ESC("\xf0\x9f\x98z", "\"\\ufffd\\ufffd\\ufffdz\"");
	CHECK_ESC("\xc3", "\"\\ufffd\"");
	/* a lone continuation byte */
	CHECK_ESC("\x80x", "\"\\ufffdx\"");
	/* overlong forms of '/' (2, 3 and 4 bytes) and of U+07FF / U+FFFF */
	CHECK_ESC("\xc0\xaf", "\"\\ufffd\\ufffd\"");
	CHECK_ESC("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_ESC("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_ESC("\xe0\x9f\xbf", "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_ESC("\xf0\x8f\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	/* surrogates encoded in UTF-8 (CESU-8 halves): U+D800, U+DFFF */
	CHECK_ESC("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");
	CHECK_ESC("\xed\xbf\xbf", "\"\\ufffd\\ufffd\\ufffd\"");
	/* U+D7FF just below them is fine; beyond U+10FFFF is not */
	CHECK_ESC("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");
	CHECK_ESC("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_ESC("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_ESC("\xfe\xff", "\"\\ufffd\\ufffd\"");
}

TEST(json_escape_controls)
{
	CHECK_ESC("a\nb\tc\rd\be\ff", "\"a\\nb\\tc\\rd\\be\\ff\"");
	CHECK_ESC("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	CHECK_ESC("q\"b\\s/", "\"q\\\"b\\\\s/\"");
	CHECK_ESC("nul\0end", "\"nul\\u0000end\"");
	CHECK_ESC("", "\"\"");
}
