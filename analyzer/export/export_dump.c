// SPDX-License-Identifier: GPL-2.0
/*
 * The dump consumer: every event in time order, one line each (like perf
 * script or blkparse), or one JSON object per line with the tracepoint's
 * field names, written to stdout. `fslens dump` is options around it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/export.h"
#include "fslens/json.h"
#include "fslens/session.h"
#include "fslens/trace.h"
#include "fslens/meta.h"

/* Block events printed blkparse-like (their records are large enough: schema sizes). */
static int block_rq_type(unsigned int t)
{
	return (t >= FSL_EV_BLOCK_RQ_INSERT && t <= FSL_EV_BLOCK_RQ_MERGE) ||
	       t == FSL_EV_BLOCK_RQ_REQUEUE;
}

static int block_bio_type(unsigned int t)
{
	return t == FSL_EV_BLOCK_BIO_QUEUE || t == FSL_EV_BLOCK_GETRQ ||
	       t == FSL_EV_BLOCK_BIO_BACKMERGE || t == FSL_EV_BLOCK_BIO_FRONTMERGE ||
	       t == FSL_EV_BLOCK_SPLIT || t == FSL_EV_BLOCK_BIO_COMPLETE;
}

static const char *comm_of(const struct fsl_comms *c, uint32_t tid, uint32_t pid)
{
	const char *s = fsl_comms__get(c, tid);

	return s ? s : fsl_comms__get(c, pid);
}

static const char *proc_kind(uint32_t k)
{
	static const char *const names[] = { "seen", "fork", "exec", "exit", "comm" };

	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

/* A path as text: printable bytes as is, the rest as \xNN; quoted. */
static void put_path(FILE *f, const char *s, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

struct fsl_dump {
	struct fsl_reader *r;
	int json;
	uint32_t show;		/* family mask printed */
	uint64_t t0;
	struct fsl_comms *comms;	/* tid -> comm, from proc records */
	struct fsl_json j;
	struct fsl_consumer cons;
	int out_error;		/* stdout failed: the pass stopped there */
};

static const struct fsl_event_desc *desc_of(struct fsl_dump *d, unsigned int type)
{
	const struct fsl_event_desc *e = fsl_schema_builtin(type);

	return e ? e : fsl_reader__schema(d->r, type);
}

/*
 * The name a field is printed under. A tracepoint field named like one of
 * the common keys (type, ts_ns, pid, tid, cpu, comm) is renamed so every key
 * means one thing: jbd2's tid is the transaction, a handle's type is its
 * handle_type (EXT4_HT_*), anything else gets a "tp_" prefix.
 */
static const char *field_name(const struct fsl_field *f, char *buf, size_t len)
{
	static const char *const common[] = { "type", "ts_ns", "pid", "tid", "cpu", "comm" };
	unsigned int i;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (!strcmp(f->name, common[i]))
			break;
	if (i == sizeof(common) / sizeof(common[0]))
		return f->name;
	if (!strcmp(f->name, "tid"))
		return "transaction";
	if (!strcmp(f->name, "type"))
		return "handle_type";
	snprintf(buf, len, "tp_%s", f->name);
	return buf;
}

static void text_field(struct fsl_dump *d, const struct fsl_field *f, const struct fsl_hdr *ev)
{
	int64_t v = fsl_field_get(f, ev);
	char nb[64];
	const char *name = field_name(f, nb, sizeof(nb));

	switch (f->kind) {
	case FSL_F_DEV:
		printf(" %s=%u,%u", name, FSL_MAJOR((uint32_t)v), FSL_MINOR((uint32_t)v));
		break;
	case FSL_F_HEX:
		if (!strcmp(f->name, "mode"))
			printf(" %s=0%" PRIo64, name, (uint64_t)v);
		else
			printf(" %s=0x%" PRIx64, name, (uint64_t)v);
		break;
	case FSL_F_S32: case FSL_F_S64: case FSL_F_S16:
		printf(" %s=%" PRId64, name, v);
		break;
	case FSL_F_COMM:
		printf(" %s=%.*s", name, (int)f->size, (const char *)ev + f->offset);
		break;
	default:
		printf(" %s=%" PRIu64, name, (uint64_t)v);
	}
}

static void json_field(struct fsl_dump *d, const struct fsl_field *f, const struct fsl_hdr *ev)
{
	int64_t v = fsl_field_get(f, ev);
	char nb[64];
	const char *name = field_name(f, nb, sizeof(nb));

	switch (f->kind) {
	case FSL_F_DEV:
		fsl_json__key(&d->j, name);
		fsl_json__strf(&d->j, "%u,%u", FSL_MAJOR((uint32_t)v), FSL_MINOR((uint32_t)v));
		break;
	case FSL_F_HEX:
		/* addresses and flag words: strings, exact beyond 2^53 */
		fsl_json__key(&d->j, name);
		if (!strcmp(f->name, "mode"))
			fsl_json__strf(&d->j, "0%" PRIo64, (uint64_t)v);
		else
			fsl_json__strf(&d->j, "0x%" PRIx64, (uint64_t)v);
		break;
	case FSL_F_S32: case FSL_F_S64: case FSL_F_S16:
		fsl_json__kv_s64(&d->j, name, v);
		break;
	case FSL_F_COMM:
		fsl_json__kv_strn(&d->j, name, (const char *)ev + f->offset,
				  strnlen((const char *)ev + f->offset, f->size));
		break;
	default:
		fsl_json__kv_u64(&d->j, name, (uint64_t)v);
	}
}

/* Fields of the schema that lie inside the record (all of them for known types). */
static int field_ok(const struct fsl_field *f, const struct fsl_hdr *ev)
{
	return f->kind != FSL_F_PATHS && f->kind != FSL_F_INOS && f->kind != FSL_F_PATH &&
	       (uint32_t)f->offset + f->size <= ev->size &&
	       (f->size <= 16 || (f->kind == FSL_F_COMM && f->size <= FSL_PROC_CGROUP_MAX));
}

/* A proc record's cgroup fields say something (text leaves them out otherwise). */
static int cgroup_known(const struct fsl_hdr *ev)
{
	const struct fsl_ev_proc *p = (const void *)ev;

	return ev->size >= sizeof(*p) && (p->cgroup_id || p->cgroup[0]);
}

static void print_text(struct fsl_dump *d, const struct fsl_hdr *ev, const struct fsl_event_desc *e,
		       const char *comm)
{
	int64_t rel = (int64_t)(ev->ts - d->t0);
	unsigned int k;

	printf("%s%" PRId64 ".%06" PRId64 " %3u %7u/%-7u %-15s %s", rel < 0 ? "-" : "",
	       (rel < 0 ? -rel : rel) / 1000000000, ((rel < 0 ? -rel : rel) % 1000000000) / 1000,
	       ev->cpu, ev->pid, ev->tid, comm ? comm : "?", e ? e->name : "unknown");
	if (!e) {
		printf(" type=%u size=%u\n", ev->type, ev->size);
		return;
	}
	if (ev->type == FSL_EV_DIROP) {
		const struct fsl_ev_dirop *op = (const void *)ev;

		printf(" %s ", fsl_dirop_name(op->op));
		put_path(stdout, op->paths, op->path_len);
		if (op->path2_len) {
			printf(" -> ");
			put_path(stdout, op->paths + op->path_len, op->path2_len);
		}
		printf(" ret=%" PRId64 " lat_ns=%" PRIu64, (int64_t)op->ret, (uint64_t)op->lat_ns);
		if (op->fd >= 0)
			printf(" fd=%d", op->fd);
		printf(" flags=0x%x mode=0%o", op->flags, op->mode);
		if (op->pflags & ~(FSL_DIROP_SCOPE_MASK | FSL_DIROP_WALK_INEXACT))
			printf(" pflags=0x%x",
			       op->pflags & ~(FSL_DIROP_SCOPE_MASK | FSL_DIROP_WALK_INEXACT));
		if (op->pflags & FSL_DIROP_SCOPE_MASK)
			printf(" scope=%s%s", fsl_dirop_scope_name((op->pflags & FSL_DIROP_SCOPE_MASK) >>
								   FSL_DIROP_SCOPE_SHIFT),
			       op->pflags & FSL_DIROP_WALK_INEXACT ? "~" : "");
		printf("\n");
		return;
	}
	if (ev->type == FSL_EV_DATA && ev->size >= sizeof(struct fsl_ev_data)) {
		const struct fsl_ev_data *da = (const void *)ev;

		printf(" %s %.*s ino=%" PRIu64 " dev=%u,%u fd=%d offset=%" PRId64 " bytes=%" PRIu64
		       " ret=%" PRId64 " lat_ns=%" PRIu64 " flags=0x%x", fsl_data_name(da->op),
		       (int)strnlen(da->name, sizeof(da->name)), da->name, (uint64_t)da->ino,
		       FSL_MAJOR(da->dev), FSL_MINOR(da->dev), da->fd, (int64_t)da->offset,
		       (uint64_t)da->bytes, (int64_t)da->ret, (uint64_t)da->lat_ns, da->flags);
		if (da->flags & FSL_DATA_BOTH)
			printf(" ino2=%" PRIu64 " name2=%.*s", (uint64_t)da->ino2,
			       (int)strnlen(da->name2, sizeof(da->name2)), da->name2);
		printf("\n");
		return;
	}
	if (ev->type == FSL_EV_FILE_PATH && ev->size >= sizeof(struct fsl_ev_file_path)) {
		const struct fsl_ev_file_path *fp = (const void *)ev;

		printf(" ");
		put_path(stdout, fp->path, fsl_file_path_len(fp));
		printf(" ino=%" PRIu64 " dev=%u,%u%s\n", (uint64_t)fp->ino, FSL_MAJOR(fp->dev),
		       FSL_MINOR(fp->dev), fp->flags & FSL_FILE_PATH_TRUNC ? " truncated" : "");
		return;
	}
	if (ev->type == FSL_EV_DIRENTS && ev->size >= sizeof(struct fsl_ev_dirents)) {
		const struct fsl_ev_dirents *de = (const void *)ev;

		printf(" fd=%d seq=%u count=%u", de->fd, de->seq, de->count);
		if (de->flags)
			printf(" flags=0x%x", de->flags);
		printf(" ino=");
		for (k = 0; k < de->count; k++)
			printf("%s%" PRIu64, k ? "," : "", (uint64_t)de->ino[k]);
		printf("\n");
		return;
	}
	if (block_rq_type(ev->type)) {
		const struct fsl_ev_block_rq *b = (const void *)ev;
		char rw[12];

		fsl_rwbs(b->flags, rw);
		/* blkparse-like: dev rwbs sector + nr_sector */
		printf(" %u,%u %s %" PRIu64 " + %u", FSL_MAJOR(b->dev), FSL_MINOR(b->dev), rw,
		       (uint64_t)b->sector, b->nr_sector);
		if (b->error)
			printf(" error=%d", b->error);
		printf(" rq=0x%" PRIx64 "\n", (uint64_t)b->rq);
		return;
	}
	if (block_bio_type(ev->type)) {
		const struct fsl_ev_block_bio *b = (const void *)ev;
		char rw[12];

		fsl_rwbs(b->flags, rw);
		printf(" %u,%u %s %" PRIu64 " + %u", FSL_MAJOR(b->dev), FSL_MINOR(b->dev), rw,
		       (uint64_t)b->sector, b->nr_sector);
		if (ev->type == FSL_EV_BLOCK_SPLIT)
			printf(" / %" PRIu64, (uint64_t)((const struct fsl_ev_block_split *)ev)->new_sector);
		else if (b->error)
			printf(" error=%d", b->error);
		printf("\n");
		return;
	}
	if (ev->type == FSL_EV_PROC)
		printf(" %s", proc_kind(((const struct fsl_ev_proc *)ev)->kind));
	for (k = 0; k < e->nfields; k++) {
		const struct fsl_field *f = &e->fields[k];

		if (field_ok(f, ev) && strcmp(f->name, "cpu") &&
		    !(ev->type == FSL_EV_PROC && !strcmp(f->name, "comm") && comm) &&
		    !(ev->type == FSL_EV_PROC && !strncmp(f->name, "cgroup", 6) && !cgroup_known(ev)))
			text_field(d, f, ev);
	}
	if (ev->type == FSL_EV_EXT4_JOURNAL_START_INODE || ev->type == FSL_EV_EXT4_JOURNAL_START_SB) {
		const char *sym = fsl_reader__sym(d->r,
			((const struct fsl_ev_ext4_journal_start *)ev)->ip);

		if (sym)
			printf(" caller=%s", sym);
	}
	if (fsl_ev_stack_id(ev) >= 0) {
		const struct fsl_stack *st = fsl_reader__stack(d->r, fsl_ev_stack_id(ev));
		uint32_t i;

		if (st && st->nframes) {
			printf(" stack=");
			for (i = 0; i < st->nframes; i++)
				printf("%s%s", i ? "<-" : "", st->frames[i]);
		}
	}
	printf("\n");
}

static void print_json(struct fsl_dump *d, const struct fsl_hdr *ev, const struct fsl_event_desc *e,
		       const char *comm)
{
	struct fsl_json *j = &d->j;
	unsigned int k;

	fsl_json__obj_begin(j);
	fsl_json__kv_str(j, "type", e ? e->name : "unknown");
	if (!e)
		fsl_json__kv_u64(j, "type_id", ev->type);
	fsl_json__kv_u64(j, "ts_ns", ev->ts);
	fsl_json__kv_u64(j, "pid", ev->pid);
	fsl_json__kv_u64(j, "tid", ev->tid);
	fsl_json__kv_u64(j, "cpu", ev->cpu);
	if (comm)
		fsl_json__kv_str(j, "comm", comm);
	if (e && ev->type == FSL_EV_DIROP) {
		const struct fsl_ev_dirop *op = (const void *)ev;

		fsl_json__kv_str(j, "op", fsl_dirop_name(op->op));
		fsl_json__kv_strn(j, "path", op->paths, op->path_len);
		if (op->path2_len)
			fsl_json__kv_strn(j, "path2", op->paths + op->path_len, op->path2_len);
	}
	if (e && ev->type == FSL_EV_DATA)
		fsl_json__kv_str(j, "op", fsl_data_name(((const struct fsl_ev_data *)ev)->op));
	if (e && ev->type == FSL_EV_FILE_PATH && ev->size >= sizeof(struct fsl_ev_file_path)) {
		const struct fsl_ev_file_path *fp = (const void *)ev;

		fsl_json__kv_strn(j, "path", fp->path, fsl_file_path_len(fp));
	}
	for (k = 0; e && k < e->nfields; k++) {
		const struct fsl_field *f = &e->fields[k];

		if (!field_ok(f, ev) || !strcmp(f->name, "cpu") ||
		    ((ev->type == FSL_EV_DIROP || ev->type == FSL_EV_DATA) && !strcmp(f->name, "op")) ||
		    (ev->type == FSL_EV_PROC && !strcmp(f->name, "comm") && comm))
			continue;
		json_field(d, f, ev);
	}
	if (e && ev->type == FSL_EV_DIRENTS && ev->size >= sizeof(struct fsl_ev_dirents)) {
		const struct fsl_ev_dirents *de = (const void *)ev;

		fsl_json__key(j, "ino");
		fsl_json__arr_begin(j);
		for (k = 0; k < de->count; k++)
			fsl_json__u64(j, de->ino[k]);
		fsl_json__arr_end(j);
	}
	if (e && (block_rq_type(ev->type) || block_bio_type(ev->type))) {
		char rw[12];

		fsl_rwbs(block_rq_type(ev->type) ? ((const struct fsl_ev_block_rq *)ev)->flags :
			 ((const struct fsl_ev_block_bio *)ev)->flags, rw);
		fsl_json__kv_str(j, "rwbs", rw);
	}
	if (e && ev->type == FSL_EV_PROC)
		fsl_json__kv_str(j, "kind_name", proc_kind(((const struct fsl_ev_proc *)ev)->kind));
	if (ev->type == FSL_EV_EXT4_JOURNAL_START_INODE || ev->type == FSL_EV_EXT4_JOURNAL_START_SB) {
		const char *sym = fsl_reader__sym(d->r,
			((const struct fsl_ev_ext4_journal_start *)ev)->ip);

		if (sym)
			fsl_json__kv_str(j, "caller", sym);
	}
	if (fsl_ev_stack_id(ev) >= 0) {
		const struct fsl_stack *st = fsl_reader__stack(d->r, fsl_ev_stack_id(ev));
		uint32_t i;

		if (st) {
			fsl_json__key(j, "stack");
			fsl_json__arr_begin(j);
			for (i = 0; i < st->nframes; i++)
				fsl_json__str(j, st->frames[i]);
			fsl_json__arr_end(j);
		}
	}
	fsl_json__obj_end(j);
	fsl_json__newline(j);
}

/* One line (or JSON object) per event of the families shown; tasks named from proc records. */
static int dump_event(struct fsl_consumer *c, const struct fsl_hdr *ev)
{
	struct fsl_dump *d = c->priv;
	const struct fsl_event_desc *e = desc_of(d, ev->type);
	unsigned int fam = e ? e->family : FSL_FAM__MAX;

	if (fsl_comms__event(d->comms, ev))
		return -ENOMEM;
	if (fam < 32 && !(d->show & (1u << fam)))
		return 0;
	if (d->json)
		print_json(d, ev, e, comm_of(d->comms, ev->tid, ev->pid));
	else
		print_text(d, ev, e, comm_of(d->comms, ev->tid, ev->pid));
	if (ferror(stdout)) {
		d->out_error = 1;
		return -EIO;
	}
	return 0;
}

struct fsl_dump *fsl_dump__new(struct fsl_reader *r, int json, uint32_t families)
{
	struct fsl_dump *d = calloc(1, sizeof(*d));
	const char *v;

	if (!d)
		return NULL;
	d->comms = fsl_comms__new();
	if (!d->comms) {
		free(d);
		return NULL;
	}
	d->r = r;
	d->json = json;
	d->show = families;
	v = fsl_reader__kv(r, FSL_KV_START_NS);
	d->t0 = v ? strtoull(v, NULL, 10) : fsl_reader__stats(r)->first_ts;
	if (d->t0 > fsl_reader__stats(r)->first_ts && fsl_reader__stats(r)->chunks)
		d->t0 = fsl_reader__stats(r)->first_ts;
	fsl_json__init(&d->j, stdout, 0);
	d->cons.name = "dump";
	d->cons.priv = d;
	d->cons.any = dump_event;
	return d;
}

struct fsl_consumer *fsl_dump__consumer(struct fsl_dump *d)
{
	return &d->cons;
}

int fsl_dump__out_error(const struct fsl_dump *d)
{
	return d->out_error;
}

void fsl_dump__free(struct fsl_dump *d)
{
	if (!d)
		return;
	fsl_comms__free(d->comms);
	free(d);
}
