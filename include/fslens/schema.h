/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event schema: for every event type its name (the kernel tracepoint it
 * mirrors), family, fixed size and fields. The writer stores this table in
 * every trace; the reader uses the file's copy to skip or decode types it was
 * not built with; dump, export and CSV print events generically from it.
 */
#ifndef FSLENS_SCHEMA_H
#define FSLENS_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include "event.h"

enum fsl_field_kind {
	FSL_F_U8 = 1,
	FSL_F_U16,
	FSL_F_U32,
	FSL_F_U64,
	FSL_F_S32,
	FSL_F_S64,
	FSL_F_DEV,	/* u32 kernel dev_t, printed MAJ,MIN */
	FSL_F_HEX,	/* u64 printed in hex (addresses, flags) */
	FSL_F_COMM,	/* char[size] (16: comm, 32: data name, 128: cgroup), NUL padded */
	FSL_F_PATHS,	/* dirop tail: path then path2, lengths in path_len/path2_len */
	FSL_F_S16,
	FSL_F_U8X,	/* u8 printed as a number even if char-like */
	FSL_F_INOS,	/* dirents tail: count u64 inode numbers (count field), size 0 */
	FSL_F_PATH,	/* file_path: path_len bytes of a path at offset, size 0 */
};

struct fsl_field {
	const char *name;
	uint16_t offset;
	uint8_t size;
	uint8_t kind;	/* enum fsl_field_kind */
};

#define FSL_MAX_FIELDS 32

struct fsl_event_desc {
	uint16_t type;		/* enum fsl_event_type */
	uint8_t family;		/* enum fsl_family */
	uint8_t nfields;
	uint16_t size;		/* fixed size (variable-size types: the fixed part) */
	const char *name;	/* tracepoint name, e.g. "block_rq_complete" */
	const char *tp_group;	/* tracepoint system, e.g. "block"; NULL if not a tracepoint */
	struct fsl_field fields[FSL_MAX_FIELDS];
};

/* The built-in table (this binary's event.h). NULL for unknown types. */
const struct fsl_event_desc *fsl_schema_builtin(unsigned int type);
/* Iterate the built-in table: returns count, *out = array. */
unsigned int fsl_schema_builtin_all(const struct fsl_event_desc **out);

const char *fsl_family_name(unsigned int family);
/* Parse "block,journal" or "all" into a mask. Returns 0 or -EINVAL (bad name in *bad). */
int fsl_family_parse(const char *list, uint32_t *mask, const char **bad);
#define FSL_FAM_ALL ((1u << FSL_FAM__MAX) - 1)

const char *fsl_dirop_name(unsigned int op);	/* "create", "mkdir", ... */
const char *fsl_data_name(unsigned int op);	/* "read", "pwrite", "fsync", ... */
/* How a path call was judged to be the target's (enum fsl_dirop_scope): "fd", "walk", ... */
const char *fsl_dirop_scope_name(unsigned int how);

/* Read a field of a record as u64/s64 (sign-extended for signed kinds). */
int64_t fsl_field_get(const struct fsl_field *f, const void *rec);

#endif
