/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small unit-test harness. TEST(name) { ... } registers a test; CHECK*
 * record a failure with file:line and go on. Output, one line per test:
 * "PASS file:name", "FAIL file:name: why", "SKIP file:name: why"; tests/run
 * counts them. `build/tests/unit [substring...]` runs a subset.
 */
#ifndef FSL_T_H
#define FSL_T_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef void (*t_fn)(void);
void t_register(const char *file, const char *name, t_fn fn);
void t_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A fresh empty directory for this test (removed after a PASS). */
const char *t_tmpdir(void);
/* t_tmpdir()/name, in a static buffer rotated over 8 slots. */
const char *t_path(const char *name);
int t_failed(void);

#define TEST(name)							\
	static void name(void);						\
	__attribute__((constructor)) static void t_reg_##name(void)	\
	{ t_register(__FILE__, #name, name); }				\
	static void name(void)

#define CHECK(c) do { if (!(c)) t_fail(__FILE__, __LINE__, "CHECK(%s)", #c); } while (0)
#define CHECK_EQ(a, b) do {						\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (_a != _b)							\
		t_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, _a, #b, _b); \
} while (0)
#define CHECK_U64(a, b) do {						\
	unsigned long long _a = (a), _b = (b);				\
	if (_a != _b)							\
		t_fail(__FILE__, __LINE__, "%s == %llu, expected %llu", #a, _a, _b); \
} while (0)
#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (!_a || !_b || strcmp(_a, _b))				\
		t_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a, \
		       _a ? _a : "(null)", _b ? _b : "(null)");		\
} while (0)
#define CHECK_NEAR(a, b, eps) do {					\
	double _a = (a), _b = (b);					\
	if (_a - _b > (eps) || _b - _a > (eps))				\
		t_fail(__FILE__, __LINE__, "%s == %g, expected %g +- %g", #a, _a, _b, (double)(eps)); \
} while (0)
/* Stop the current test if a check failed (e.g. before using a NULL). */
#define REQUIRE(c) do { if (!(c)) { t_fail(__FILE__, __LINE__, "REQUIRE(%s)", #c); return; } } while (0)
#define SKIP(...) do { t_skip(__VA_ARGS__); return; } while (0)

#endif
