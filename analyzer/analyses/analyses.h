/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analyses of analyzer/analyses/, as the set (analysis.c) builds them:
 * each one has new/free/reset, a session consumer and a result. They read
 * the shared context (../an_internal.h, ../context.h), never each other.
 */
#ifndef FSL_ANALYSES_H
#define FSL_ANALYSES_H

#include "../an_internal.h"
#include "fslens/xfslayout.h"

#define AN_DECLARE(name, result)						\
	struct an_##name;							\
	struct an_##name *an_##name##_new(struct an_ctx *c);			\
	void an_##name##_free(struct an_##name *s);				\
	void an_##name##_reset(struct an_##name *s);				\
	struct fsl_consumer *an_##name##_consumer(struct an_##name *s);	\
	const struct result *an_##name##_result(struct an_##name *s);

AN_DECLARE(stalls, fsl_stalls)
AN_DECLARE(ops, fsl_ops)
AN_DECLARE(data, fsl_data)
AN_DECLARE(journal, fsl_journal)
AN_DECLARE(writeback, fsl_writeback)
AN_DECLARE(blockio, fsl_blockio)
AN_DECLARE(layout, fsl_layout)
AN_DECLARE(health, fsl_health)
AN_DECLARE(wholetime, fsl_wholetime)
AN_DECLARE(xfslayout, fsl_xfslayout)
AN_DECLARE(cpu, fsl_cpu)
AN_DECLARE(contents, fsl_contents)
AN_DECLARE(allocstat, fsl_allocstat)

#undef AN_DECLARE

/* Files without extents (indmap.c): their fragcheck lines, include/fslens/indmap.h. */
struct an_indmap;
struct fsl_ind_break;
struct an_indmap *an_indmap_new(struct an_ctx *c);
void an_indmap_free(struct an_indmap *s);
void an_indmap_reset(struct an_indmap *s);
struct fsl_consumer *an_indmap_consumer(struct an_indmap *s);
unsigned int an_indmap_breaks(struct an_indmap *s, const struct fsl_ind_break **out,
			      uint64_t *files);

/* The costliest stack of process pid in class cls in the window; -1 none. */
int32_t an_stalls_proc_stack(struct an_stalls *s, uint32_t pid, unsigned int cls, uint64_t *ns);

#endif
