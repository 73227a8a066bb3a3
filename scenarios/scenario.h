/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Built-in scenarios: deterministic workload generators that reproduce the
 * classic filesystem slowdowns (see docs/scenarios.md).
 *
 * A scenario is a table entry with its parameters (a default for each
 * scale) and a run function. The run function works inside one directory
 * on the filesystem under test and reports each timed phase, and optional
 * rate samples, through callbacks; it never prints. Phases are timed with
 * CLOCK_MONOTONIC, the clock of every event in a trace, so a phase's
 * [start_ns, end_ns) selects exactly the events recorded during it.
 */
#ifndef FSL_SCENARIO_H
#define FSL_SCENARIO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "fslens/text.h"

enum fsl_scale { FSL_SCALE_SMALL = 0, FSL_SCALE_MEDIUM, FSL_SCALE_FULL, FSL_SCALE__MAX };

/* A parameter and its default at each scale (NULL: same as small). */
struct fsl_param_def {
	const char *key;
	const char *def[FSL_SCALE__MAX];
	const char *help;
};

#define FSL_PARAMS_MAX 48

/* Resolved parameters: defaults of the scale, then --set overrides. */
struct fsl_params {
	unsigned int n;
	const char *key[FSL_PARAMS_MAX];
	char value[FSL_PARAMS_MAX][128];
	unsigned char set[FSL_PARAMS_MAX];	/* given with --set (not a default) */
};

struct fsl_phase {
	unsigned int run;	/* 1.. (scenarios with runs > 1 repeat their phases) */
	const char *name;
	uint64_t start_ns;	/* CLOCK_MONOTONIC */
	uint64_t end_ns;
	uint64_t ops;		/* operations the workload completed in the phase */
	uint64_t bytes;		/* data bytes written + read */
};

struct fsl_wl;

struct fsl_wl_ops {
	void (*phase)(struct fsl_wl *wl, const struct fsl_phase *ph);
	/* A rate sample: ops done so far in the current phase at t_ns. */
	void (*tick)(struct fsl_wl *wl, const char *phase, uint64_t t_ns, uint64_t ops);
};

struct fsl_wl {
	const char *dir;		/* working directory on the fs under test */
	const char *srcdir;		/* scratch space off the fs under test (copytree) */
	const struct fsl_params *p;
	const struct fsl_wl_ops *ops;
	void *priv;
	volatile sig_atomic_t *stop;	/* set by a signal handler: stop early */
	char errmsg[512];		/* what failed, when run returns < 0 */
	/* internal */
	unsigned int run;
	const char *cur;
	uint64_t cur_start;
	uint64_t next_tick;
};

struct fsl_scenario {
	const char *name;
	const char *summary;
	const struct fsl_param_def *params;	/* scenario's own, NULL-key terminated */
	int (*run)(struct fsl_wl *wl);
	/*
	 * The mailing-list case it reproduces (../shared/seeds): what was seen,
	 * what was concluded by hand, and where demo's comparison shows it.
	 */
	const char *seed;
};

/* The scenario table, NULL-name terminated. */
extern const struct fsl_scenario fsl_scenarios[];
/* Parameters every scenario has (filesystem shape, caches, sync). */
extern const struct fsl_param_def fsl_common_params[];

const struct fsl_scenario *fsl_scenario__find(const char *name);
int fsl_scale__parse(const char *s, enum fsl_scale *scale);
const char *fsl_scale__name(enum fsl_scale scale);

/* Fill p with the defaults of sc at scale. */
void fsl_params__init(struct fsl_params *p, const struct fsl_scenario *sc, enum fsl_scale scale);
/*
 * Apply "key=value"; -ENOENT for an unknown key, -EINVAL for a malformed one:
 * a number that is not one (a word, or empty), a switch that is not
 * 1/0, yes/no, on/off or true/false.
 */
int fsl_params__set(struct fsl_params *p, const char *kv);
const char *fsl_params__get(const struct fsl_params *p, const char *key);
/* Numbers with optional K/M/G suffix (powers of 1024). 0 when unset/empty. */
uint64_t fsl_params__size(const struct fsl_params *p, const char *key);
/* Booleans: 1/0, yes/no, on/off, true/false. */
int fsl_params__bool(const struct fsl_params *p, const char *key);
/* fsl_parse_size: include/fslens/text.h */
int fsl_parse_bool(const char *s, int *out);

uint64_t fsl_now_ns(void);

/* ---- used by the scenario implementations ---- */

void fsl_wl__begin(struct fsl_wl *wl, const char *phase);
void fsl_wl__end(struct fsl_wl *wl, uint64_t ops, uint64_t bytes);
/* Call every op with the ops done so far; emits a tick every tick_ms. */
void fsl_wl__progress(struct fsl_wl *wl, uint64_t ops);
int fsl_wl__fail(struct fsl_wl *wl, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* syncfs() the fs under test (when sync=1). */
int fsl_wl__sync(struct fsl_wl *wl);
/* Write back and drop clean caches (when drop_caches=1). */
int fsl_wl__drop_caches(struct fsl_wl *wl);

/* A small deterministic generator (xorshift64*), same sequence everywhere. */
static inline uint64_t fsl_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

int fsl_scn_htree(struct fsl_wl *wl);
int fsl_scn_createmany(struct fsl_wl *wl);
int fsl_scn_bonnie(struct fsl_wl *wl);
int fsl_scn_dbench(struct fsl_wl *wl);
int fsl_scn_copytree(struct fsl_wl *wl);

#endif /* FSL_SCENARIO_H */
