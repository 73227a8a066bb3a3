// SPDX-License-Identifier: GPL-2.0
/* lib/hashmap.c against a plain array doing the same operations. */
#include <stdlib.h>
#include "t.h"
#include "fslens/hashmap.h"

#define REF_N 4096

struct ref {
	uint64_t key[REF_N], val[REF_N];
	unsigned char live[REF_N];
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random puts and deletes over a small key space (long probe clusters). */
TEST(hashmap_matches_reference)
{
	static struct ref r;
	struct fsl_map m;
	uint64_t seed = 0x9e3779b97f4a7c15ull, key, *v;
	size_t i, it, live = 0, seen;
	unsigned int op;

	memset(&r, 0, sizeof(r));
	fsl_map__init(&m, sizeof(uint64_t));
	for (op = 0; op < 200000; op++) {
		i = rnd(&seed) % REF_N;
		/* keys that collide in the low bits, plus 0 and ~0 */
		key = i == 0 ? 0 : i == 1 ? UINT64_MAX : (uint64_t)i << 40;
		if (rnd(&seed) % 3) {
			int fresh = -1;

			v = fsl_map__put(&m, key, &fresh);
			REQUIRE(v);
			CHECK_EQ(fresh, !r.live[i]);
			if (fresh)
				CHECK_U64(*v, 0);	/* zeroed on insert */
			else
				CHECK_U64(*v, r.val[i]);
			*v = r.val[i] = rnd(&seed);
			live += !r.live[i];
			r.live[i] = 1;
			r.key[i] = key;
		} else {
			fsl_map__del(&m, key);
			live -= r.live[i];
			r.live[i] = 0;
		}
		if (op % 9973 == 0) {
			CHECK_U64(fsl_map__count(&m), live);
			for (i = 0; i < REF_N; i++) {
				key = i == 0 ? 0 : i == 1 ? UINT64_MAX : (uint64_t)i << 40;
				v = fsl_map__get(&m, key);
				if (r.live[i]) {
					REQUIRE(v);
					CHECK_U64(*v, r.val[i]);
				} else {
					CHECK(v == NULL);
				}
			}
		}
	}
	/* iteration: every live key once, with its value */
	seen = 0;
	it = 0;
	while ((v = fsl_map__next(&m, &it, &key))) {
		i = key == 0 ? 0 : key == UINT64_MAX ? 1 : (size_t)(key >> 40);
		REQUIRE(i < REF_N);
		CHECK(r.live[i]);
		CHECK_U64(*v, r.val[i]);
		r.live[i] = 2;		/* seen */
		seen++;
	}
	CHECK_U64(seen, live);
	fsl_map__clear(&m);
	CHECK_U64(fsl_map__count(&m), 0);
	CHECK(fsl_map__get(&m, (uint64_t)5 << 40) == NULL);
	it = 0;
	CHECK(fsl_map__next(&m, &it, NULL) == NULL);
	fsl_map__free(&m);
	fsl_map__free(&m);	/* twice is fine */
}

/* Values of any size, kept across growth; an empty map answers NULL. */
TEST(hashmap_values_survive_growth)
{
	struct val { uint32_t a; char name[20]; } *p;
	struct fsl_map m;
	uint64_t k;

	fsl_map__init(&m, sizeof(struct val));
	CHECK(fsl_map__get(&m, 1) == NULL);
	fsl_map__del(&m, 1);		/* nothing there: no-op */
	for (k = 1; k <= 10000; k++) {
		p = fsl_map__put(&m, k * 7919, NULL);
		REQUIRE(p);
		p->a = (uint32_t)k;
		snprintf(p->name, sizeof(p->name), "n%llu", (unsigned long long)k);
	}
	CHECK_U64(fsl_map__count(&m), 10000);
	CHECK(m.cap >= 10000 * 4 / 3);		/* grown at 3/4 load */
	for (k = 1; k <= 10000; k += 999) {
		char want[20];

		p = fsl_map__get(&m, k * 7919);
		REQUIRE(p);
		CHECK_U64(p->a, k);
		snprintf(want, sizeof(want), "n%llu", (unsigned long long)k);
		CHECK_STR(p->name, want);
	}
	fsl_map__free(&m);
}
