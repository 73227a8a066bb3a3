// SPDX-License-Identifier: GPL-2.0
/* Typed access to trace metadata (include/fslens/meta.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/meta.h"
#include "fslens/event.h"

const char *fsl_meta__str(const struct fsl_meta *m, const char *key)
{
	return m && m->kv ? m->kv(m, key) : NULL;
}

const char *fsl_meta__text(const struct fsl_meta *m, const char *name, size_t *len)
{
	size_t dummy;

	return m && m->text ? m->text(m, name, len ? len : &dummy) : NULL;
}

/* Decimal or 0x-hex, the whole string (trailing blanks allowed). */
static int parse_u64(const char *v, uint64_t *out)
{
	unsigned long long x;
	char *end;
	int base = 10;

	while (*v == ' ' || *v == '\t')
		v++;
	if (!*v)
		return -ENOENT;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		base = 16;
	if (*v == '-' || *v == '+')
		return -EINVAL;
	errno = 0;
	x = strtoull(v, &end, base);
	if (end == v || errno)
		return -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*out = x;
	return 0;
}

int fsl_meta__get_u64(const struct fsl_meta *m, const char *key, uint64_t *out)
{
	const char *v = fsl_meta__str(m, key);

	return v ? parse_u64(v, out) : -ENOENT;
}

uint64_t fsl_meta__u64(const struct fsl_meta *m, const char *key, uint64_t dflt)
{
	uint64_t x;

	return fsl_meta__get_u64(m, key, &x) ? dflt : x;
}

int fsl_hash_seed_parse(const char *s, uint32_t seed[4])
{
	uint8_t b[16];
	int n = 0, hi = -1;

	for (; *s && n < 16; s++) {
		int v;

		if (*s == '-')
			continue;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v = *s - 'A' + 10;
		else
			return -1;
		if (hi < 0) {
			hi = v;
		} else {
			b[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (n != 16 || *s)
		return -1;
	/* s_hash_seed is __le32[4]: the UUID's bytes in order, four per word */
	for (n = 0; n < 4; n++)
		seed[n] = (uint32_t)b[4 * n] | (uint32_t)b[4 * n + 1] << 8 |
			  (uint32_t)b[4 * n + 2] << 16 | (uint32_t)b[4 * n + 3] << 24;
	return 0;
}

/* ---- ext4 geometry ---- */

static uint32_t get_u32(const struct fsl_meta *m, const char *key, int *found)
{
	uint64_t x;

	if (fsl_meta__get_u64(m, key, &x) || x > UINT32_MAX)
		return 0;
	if (found)
		(*found)++;
	return (uint32_t)x;
}

int fsl_meta__xfs_geometry(const struct fsl_meta *m, struct fsl_xfs_geometry *g)
{
	int found = 0;

	memset(g, 0, sizeof(*g));
	g->block_size = get_u32(m, FSL_KV_XFS_BLOCK_SIZE, &found);
	g->ag_count = get_u32(m, FSL_KV_XFS_AG_COUNT, &found);
	g->ag_blocks = get_u32(m, FSL_KV_XFS_AG_BLOCKS, &found);
	g->ag_block_log = get_u32(m, FSL_KV_XFS_AG_BLOCK_LOG, &found);
	g->inode_size = get_u32(m, FSL_KV_XFS_INODE_SIZE, &found);
	g->data_blocks = fsl_meta__u64(m, FSL_KV_XFS_DATA_BLOCKS, 0);
	g->inodes_per_block = get_u32(m, FSL_KV_XFS_INODES_PER_BLOCK, NULL);
	g->inodes_per_chunk = get_u32(m, FSL_KV_XFS_INODES_PER_CHUNK, NULL);
	g->log_blocks = get_u32(m, FSL_KV_XFS_LOG_BLOCKS, NULL);
	g->log_start = fsl_meta__u64(m, FSL_KV_XFS_LOG_START, 0);
	g->stripe_unit = get_u32(m, FSL_KV_XFS_STRIPE_UNIT, NULL);
	g->stripe_width = get_u32(m, FSL_KV_XFS_STRIPE_WIDTH, NULL);
	if (!g->inodes_per_block && g->inode_size)
		g->inodes_per_block = g->block_size / g->inode_size;
	return found == 5 && g->block_size && g->ag_blocks && g->inode_size ? 0 : -ENOENT;
}

static int u64_list(const char *v, uint32_t n, uint64_t *out)
{
	uint32_t i;
	char *end;

	for (i = 0; v && i < n; i++) {
		out[i] = strtoull(v, &end, 10);
		if (end == v || (*end && *end != ','))
			return -ENOENT;
		v = *end ? end + 1 : end;
	}
	return v && i == n && !*v ? 0 : -ENOENT;
}

unsigned int fsl_meta__ext4_htree(const struct fsl_meta *m, struct fsl_htree_dir *out,
				  unsigned int max)
{
	size_t len = 0;
	const char *t = fsl_meta__text(m, FSL_TEXT_EXT4_HTREE, &len), *end = t + len;
	unsigned int n = 0;
	char line[256];

	while (t && t < end && n < max) {
		const char *nl = memchr(t, '\n', end - t);
		size_t l = (nl ? nl : end) - t;
		unsigned long long ino, blocks;
		unsigned int levels, index;
		int at = 0;

		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1), t);
		if (sscanf(line, "%llu %llu %u %u %n", &ino, &blocks, &levels, &index, &at) == 4 && at) {
			out[n].ino = ino;
			out[n].blocks = blocks;
			out[n].levels = levels;
			out[n].index_blocks = index;
			snprintf(out[n].path, sizeof(out[n].path), "%s", line + at);
			n++;
		}
		t = nl ? nl + 1 : end;
	}
	return n;
}

int fsl_meta__ext4_group_tables(const struct fsl_meta *m, uint32_t n, uint64_t *bb, uint64_t *ib,
				uint64_t *it)
{
	if (!n || u64_list(fsl_meta__str(m, FSL_KV_EXT4_GROUP_BLOCK_BITMAP), n, bb) ||
	    u64_list(fsl_meta__str(m, FSL_KV_EXT4_GROUP_INODE_BITMAP), n, ib) ||
	    u64_list(fsl_meta__str(m, FSL_KV_EXT4_GROUP_INODE_TABLE), n, it))
		return -ENOENT;
	return 0;
}

int fsl_meta__ext4_geometry(const struct fsl_meta *m, struct fsl_ext4_geometry *g)
{
	const char *v;
	uint64_t x;
	int found = 0;

	memset(g, 0, sizeof(*g));
	g->block_size = get_u32(m, FSL_KV_EXT4_BLOCK_SIZE, &found);
	if (!fsl_meta__get_u64(m, FSL_KV_EXT4_BLOCKS_COUNT, &x)) {
		g->blocks_count = x;
		found++;
	}
	g->blocks_per_group = get_u32(m, FSL_KV_EXT4_BLOCKS_PER_GROUP, &found);
	g->inodes_per_group = get_u32(m, FSL_KV_EXT4_INODES_PER_GROUP, &found);
	g->cluster_size = get_u32(m, FSL_KV_EXT4_CLUSTER_SIZE, NULL);
	g->inodes_count = fsl_meta__u64(m, FSL_KV_EXT4_INODES_COUNT, 0);
	g->group_count = get_u32(m, FSL_KV_EXT4_GROUP_COUNT, NULL);
	g->first_data_block = get_u32(m, FSL_KV_EXT4_FIRST_DATA_BLOCK, NULL);
	g->inode_size = get_u32(m, FSL_KV_EXT4_INODE_SIZE, NULL);
	g->first_ino = get_u32(m, FSL_KV_EXT4_FIRST_INO, NULL);
	g->desc_size = get_u32(m, FSL_KV_EXT4_DESC_SIZE, NULL);
	g->inode_blocks_per_group = get_u32(m, FSL_KV_EXT4_INODE_BLOCKS_PER_GROUP, NULL);
	g->reserved_gdt_blocks = get_u32(m, FSL_KV_EXT4_RESERVED_GDT, NULL);
	g->flex_bg_size = get_u32(m, FSL_KV_EXT4_FLEX_BG_SIZE, NULL);
	if (!g->flex_bg_size) {
		x = fsl_meta__u64(m, FSL_KV_EXT4_LOG_GROUPS_PER_FLEX, 0);
		g->flex_bg_size = x < 31 ? 1u << x : 1;
	}
	g->feature_compat = get_u32(m, FSL_KV_EXT4_FEATURE_COMPAT, NULL);
	g->feature_incompat = get_u32(m, FSL_KV_EXT4_FEATURE_INCOMPAT, NULL);
	g->feature_ro_compat = get_u32(m, FSL_KV_EXT4_FEATURE_RO_COMPAT, NULL);
	g->features = fsl_meta__str(m, FSL_KV_EXT4_FEATURES);
	g->journal_blocks = fsl_meta__u64(m, FSL_KV_EXT4_JOURNAL_BLOCKS, 0);
	g->journal_start = fsl_meta__u64(m, FSL_KV_EXT4_JOURNAL_START, 0);
	g->journal_bytes = fsl_meta__u64(m, FSL_KV_EXT4_JOURNAL_BYTES, 0);
	v = fsl_meta__str(m, FSL_KV_EXT4_HASH_SEED);
	if (v && !fsl_hash_seed_parse(v, g->hash_seed))
		g->has_hash_seed = 1;
	return found == 4 ? 0 : -ENOENT;
}

/* ---- jbd2 info ---- */

int fsl_jbd2_info_parse(const char *text, size_t len, struct fsl_jbd2_info *o)
{
	static const struct {
		const char *suffix;
		size_t off;
	} lines[] = {
		{ "ms waiting for transaction", offsetof(struct fsl_jbd2_info, wait_ms) },
		{ "ms request delay", offsetof(struct fsl_jbd2_info, request_delay_ms) },
		{ "ms running transaction", offsetof(struct fsl_jbd2_info, running_ms) },
		{ "ms transaction was being locked", offsetof(struct fsl_jbd2_info, locked_ms) },
		{ "ms flushing data", offsetof(struct fsl_jbd2_info, flushing_ms) },
		{ "ms logging transaction", offsetof(struct fsl_jbd2_info, logging_ms) },
		{ "us average transaction commit time", offsetof(struct fsl_jbd2_info, avg_commit_us) },
		{ " handles per transaction", offsetof(struct fsl_jbd2_info, handles) },
		{ " blocks per transaction", offsetof(struct fsl_jbd2_info, blocks) },
		{ " logged blocks per transaction", offsetof(struct fsl_jbd2_info, logged_blocks) },
	};
	/* the kernel's text is about 400 bytes; sections need not end in NUL */
	char buf[2048];
	const char *p = buf;
	unsigned long long a, b, c;
	unsigned int i;

	memset(o, 0, sizeof(*o));
	if (!text)
		return -EINVAL;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, text, len);
	buf[len] = 0;
	if (sscanf(buf, "%llu transactions (%llu requested), each up to %llu blocks",
		   &a, &b, &c) != 3)
		return -EINVAL;
	o->transactions = a;
	o->requested = b;
	o->max_blocks = c;
	while ((p = strchr(p, '\n'))) {
		char *end;
		unsigned long long v;

		p++;
		while (*p == ' ')
			p++;
		v = strtoull(p, &end, 10);
		if (end == p)
			continue;
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			if (!strncmp(end, lines[i].suffix, strlen(lines[i].suffix))) {
				*(uint64_t *)((char *)o + lines[i].off) = v;
				break;
			}
	}
	o->valid = 1;
	return 0;
}

int fsl_meta__jbd2_info(const struct fsl_meta *m, enum fsl_jbd2_when when,
			struct fsl_jbd2_info *o)
{
	const char *t;
	size_t len = 0;

	memset(o, 0, sizeof(*o));
	t = fsl_meta__text(m, when == FSL_JBD2_END ? FSL_TEXT_JBD2_INFO_END
						  : FSL_TEXT_JBD2_INFO_START, &len);
	if (!t)
		return -ENOENT;
	return fsl_jbd2_info_parse(t, len, o);
}

/* ---- mount and devices ---- */

const char *fsl_meta__mount(const struct fsl_meta *m, size_t *len)
{
	const char *s = fsl_meta__str(m, FSL_KV_MOUNT);
	size_t n;

	if (!s || s[0] != '/') {
		if (len)
			*len = 0;
		return NULL;
	}
	n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		n--;
	if (len)
		*len = n;
	return s;
}

/* Does a comma- (or blank-) separated option string hold opt (or "opt=...")? */
static const char *has_opt(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	while (p && *p) {
		if (!strncmp(p, opt, n) && (p[n] == ',' || p[n] == 0 || p[n] == '=' ||
					    p[n] == ' '))
			return p + n;
		p = strpbrk(p, ", ");
		if (p)
			p++;
	}
	return NULL;
}

const char *fsl_meta__mount_opt(const struct fsl_meta *m, const char *opt)
{
	const char *s = fsl_meta__str(m, FSL_KV_OPTIONS), *p;

	if (s && (p = has_opt(s, opt)))
		return p;
	s = fsl_meta__str(m, FSL_KV_MOUNTINFO);
	if (s && (p = has_opt(s, opt)))
		return p;
	return NULL;
}

const char *fsl_meta__dev_name(const struct fsl_meta *m, uint32_t dev, char *buf, size_t len)
{
	static const char *const keys[] = { FSL_KV_DISK_NAME, FSL_KV_DEV_NAME };
	unsigned int i, ma, mi;
	const char *v;
	int n;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = fsl_meta__str(m, keys[i]);
		if (v && sscanf(v, "%u:%u %n", &ma, &mi, &n) == 2 && FSL_MKDEV(ma, mi) == dev &&
		    v[n] && !strchr(v + n, '/')) {
			snprintf(buf, len, "%s", v + n);
			return buf;
		}
	}
	return NULL;
}

int fsl_meta__dev_parse(const struct fsl_meta *m, const char *s, uint32_t *dev)
{
	static const char *const keys[] = { FSL_KV_DISK_NAME, FSL_KV_DEV_NAME };
	unsigned int ma, mi, i;
	const char *v;
	char c;
	int n;

	if (sscanf(s, "%u:%u%c", &ma, &mi, &c) == 2 || sscanf(s, "%u,%u%c", &ma, &mi, &c) == 2) {
		*dev = FSL_MKDEV(ma, mi);
		return 0;
	}
	if (!strncmp(s, "/dev/", 5))
		s += 5;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = fsl_meta__str(m, keys[i]);
		if (v && sscanf(v, "%u:%u %n", &ma, &mi, &n) == 2 && !strcmp(v + n, s)) {
			*dev = FSL_MKDEV(ma, mi);
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- in-memory store ---- */

void fsl_meta_store__init(struct fsl_meta_store *s)
{
	memset(s, 0, sizeof(*s));
}

void fsl_meta_store__fini(struct fsl_meta_store *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->items[i].name);
		free(s->items[i].value);
	}
	free(s->items);
	memset(s, 0, sizeof(*s));
}

static struct fsl_meta_store_item *store_find(const struct fsl_meta_store *s, const char *name,
					      int is_text)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->items[i].is_text == is_text && !strcmp(s->items[i].name, name))
			return &s->items[i];
	return NULL;
}

static int store_put(struct fsl_meta_store *s, const char *name, const void *data, size_t len,
		     int is_text)
{
	struct fsl_meta_store_item *it = store_find(s, name, is_text);
	char *v = malloc(len + 1);
	char *nm = NULL;

	if (!v)
		return -ENOMEM;
	memcpy(v, data, len);
	v[len] = 0;
	if (it) {
		free(it->value);
		it->value = v;
		it->len = len;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct fsl_meta_store_item *n = realloc(s->items, cap * sizeof(*n));

		if (!n)
			goto nomem;
		s->items = n;
		s->cap = cap;
	}
	nm = strdup(name);
	if (!nm)
		goto nomem;
	s->items[s->n++] = (struct fsl_meta_store_item){ nm, v, len, is_text };
	return 0;
nomem:
	free(v);
	return -ENOMEM;
}

int fsl_meta_store__kv(struct fsl_meta_store *s, const char *key, const char *value)
{
	return store_put(s, key, value, strlen(value), 0);
}

int fsl_meta_store__text(struct fsl_meta_store *s, const char *name, const void *data, size_t len)
{
	return store_put(s, name, data, len, 1);
}

const char *fsl_meta_store__get_kv(const struct fsl_meta_store *s, const char *key)
{
	const struct fsl_meta_store_item *it = store_find(s, key, 0);

	return it ? it->value : NULL;
}

const char *fsl_meta_store__get_text(const struct fsl_meta_store *s, const char *name,
				     size_t *len)
{
	const struct fsl_meta_store_item *it = store_find(s, name, 1);

	if (it && len)
		*len = it->len;
	return it ? it->value : NULL;
}

static const char *view_kv(const struct fsl_meta *m, const char *key)
{
	return fsl_meta_store__get_kv(m->priv, key);
}

static const char *view_text(const struct fsl_meta *m, const char *name, size_t *len)
{
	return fsl_meta_store__get_text(m->priv, name, len);
}

void fsl_meta_store__view(struct fsl_meta_store *s, struct fsl_meta *m)
{
	m->priv = s;
	m->kv = view_kv;
	m->text = view_text;
}

int fsl_disk_stat_parse(const char *line, struct fsl_disk_stat *o)
{
	/* field order of Documentation/block/stat.rst */
	static const struct { unsigned char g, what; } at[] = {
		{ FSL_SG_READ, 0 }, { FSL_SG_READ, 1 }, { FSL_SG_READ, 2 }, { FSL_SG_READ, 3 },
		{ FSL_SG_WRITE, 0 }, { FSL_SG_WRITE, 1 }, { FSL_SG_WRITE, 2 }, { FSL_SG_WRITE, 3 },
		{ 0, 4 }, { 0, 5 }, { 0, 6 },
		{ FSL_SG_DISCARD, 0 }, { FSL_SG_DISCARD, 1 }, { FSL_SG_DISCARD, 2 },
		{ FSL_SG_DISCARD, 3 },
		{ FSL_SG_FLUSH, 0 }, { FSL_SG_FLUSH, 3 },
	};
	const char *p = line;
	unsigned int n = 0;
	char *end;

	memset(o, 0, sizeof(*o));
	while (p && n < sizeof(at) / sizeof(at[0])) {
		unsigned long long v;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v = strtoull(p, &end, 10);
		p = end;
		switch (at[n].what) {
		case 0: o->ios[at[n].g] = v; break;
		case 1: o->merges[at[n].g] = v; break;
		case 2: o->sectors[at[n].g] = v; break;
		case 3: o->ticks_ms[at[n].g] = v; break;
		case 4: o->in_flight = v; break;
		case 5: o->io_ticks_ms = v; break;
		case 6: o->time_in_queue_ms = v; break;
		}
		n++;
	}
	o->nfields = n;
	return n >= 11 ? 0 : -EINVAL;
}

int fsl_meta__disk_stat(const struct fsl_meta *m, int end, struct fsl_disk_stat *o)
{
	const char *v = fsl_meta__str(m, end ? FSL_KV_QUEUE_STAT_END : FSL_KV_QUEUE_STAT_START);
	int e;

	if (!v) {
		memset(o, 0, sizeof(*o));
		return -ENOENT;
	}
	e = fsl_disk_stat_parse(v, o);
	o->ts = fsl_meta__u64(m, end ? FSL_KV_QUEUE_STAT_END_NS : FSL_KV_QUEUE_STAT_START_NS, 0);
	return e;
}
