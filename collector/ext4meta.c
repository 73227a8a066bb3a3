// SPDX-License-Identifier: GPL-2.0
/*
 * ext4 superblock geometry and free-space bitmaps, read with libext2fs from
 * the device, read-only. On a mounted filesystem the reads go through the
 * block device's page cache, which is where ext4 keeps its bitmap and
 * descriptor buffers, so after a syncfs they show the kernel's state.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fslens/fsmeta.h"

#ifdef FSL_HAVE_EXT2FS
#include <ext2fs/ext2fs.h>

/* libext2fs errors are errcode_t (com_err), some of them plain errno values. */
static int ext2_err(errcode_t e)
{
	if (e > 0 && e < 4096)
		return -(int)e;
	return -EIO;
}

static int open_fs(const char *bdev, ext2_filsys *fs)
{
	errcode_t e = ext2fs_open2(bdev, NULL, EXT2_FLAG_64BITS | EXT2_FLAG_IGNORE_CSUM_ERRORS,
				   0, 0, unix_io_manager, fs);

	return e ? ext2_err(e) : 0;
}

struct feat {
	int compat;	/* 0 compat, 1 incompat, 2 ro_compat */
	uint32_t mask;
	const char *name;
};

static const struct feat feats[] = {
	{ 0, EXT3_FEATURE_COMPAT_HAS_JOURNAL, "has_journal" },
	{ 0, EXT2_FEATURE_COMPAT_EXT_ATTR, "ext_attr" },
	{ 0, EXT2_FEATURE_COMPAT_RESIZE_INODE, "resize_inode" },
	{ 0, EXT2_FEATURE_COMPAT_DIR_INDEX, "dir_index" },
	{ 0, EXT4_FEATURE_COMPAT_SPARSE_SUPER2, "sparse_super2" },
	{ 0, EXT4_FEATURE_COMPAT_FAST_COMMIT, "fast_commit" },
	{ 0, EXT4_FEATURE_COMPAT_STABLE_INODES, "stable_inodes" },
	{ 0, EXT4_FEATURE_COMPAT_ORPHAN_FILE, "orphan_file" },
	{ 1, EXT2_FEATURE_INCOMPAT_FILETYPE, "filetype" },
	{ 1, EXT3_FEATURE_INCOMPAT_RECOVER, "needs_recovery" },
	{ 1, EXT3_FEATURE_INCOMPAT_JOURNAL_DEV, "journal_dev" },
	{ 1, EXT2_FEATURE_INCOMPAT_META_BG, "meta_bg" },
	{ 1, EXT3_FEATURE_INCOMPAT_EXTENTS, "extent" },
	{ 1, EXT4_FEATURE_INCOMPAT_64BIT, "64bit" },
	{ 1, EXT4_FEATURE_INCOMPAT_MMP, "mmp" },
	{ 1, EXT4_FEATURE_INCOMPAT_FLEX_BG, "flex_bg" },
	{ 1, EXT4_FEATURE_INCOMPAT_EA_INODE, "ea_inode" },
	{ 1, EXT4_FEATURE_INCOMPAT_DIRDATA, "dirdata" },
	{ 1, EXT4_FEATURE_INCOMPAT_CSUM_SEED, "metadata_csum_seed" },
	{ 1, EXT4_FEATURE_INCOMPAT_LARGEDIR, "large_dir" },
	{ 1, EXT4_FEATURE_INCOMPAT_INLINE_DATA, "inline_data" },
	{ 1, EXT4_FEATURE_INCOMPAT_ENCRYPT, "encrypt" },
	{ 1, EXT4_FEATURE_INCOMPAT_CASEFOLD, "casefold" },
	{ 2, EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER, "sparse_super" },
	{ 2, EXT2_FEATURE_RO_COMPAT_LARGE_FILE, "large_file" },
	{ 2, EXT4_FEATURE_RO_COMPAT_HUGE_FILE, "huge_file" },
	{ 2, EXT4_FEATURE_RO_COMPAT_GDT_CSUM, "uninit_bg" },
	{ 2, EXT4_FEATURE_RO_COMPAT_DIR_NLINK, "dir_nlink" },
	{ 2, EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE, "extra_isize" },
	{ 2, EXT4_FEATURE_RO_COMPAT_QUOTA, "quota" },
	{ 2, EXT4_FEATURE_RO_COMPAT_BIGALLOC, "bigalloc" },
	{ 2, EXT4_FEATURE_RO_COMPAT_METADATA_CSUM, "metadata_csum" },
	{ 2, EXT4_FEATURE_RO_COMPAT_READONLY, "read-only" },
	{ 2, EXT4_FEATURE_RO_COMPAT_PROJECT, "project" },
	{ 2, EXT4_FEATURE_RO_COMPAT_VERITY, "verity" },
};

#define JOURNAL_MAX_EXTENTS 64

/*
 * Where the journal inode's n blocks lie: ext4.journal_start when in one
 * piece, else ext4.journal_extents (up to 64 pieces; more: nothing).
 */
static int journal_layout(const struct fsl_meta_sink *s, ext2_filsys fs, ext2_ino_t jino,
			  struct ext2_inode *ino, blk64_t n)
{
	blk64_t l, p = 0, el = 0, ep = 0, elen = 0, first = 0;
	size_t len = 0, cap = JOURNAL_MAX_EXTENTS * 64;
	unsigned int pieces = 0;
	char *list;
	int err = 0;

	if (!n)
		return 0;
	list = malloc(cap);
	if (!list)
		return -ENOMEM;
	list[0] = 0;
	/* l == n closes the last piece */
	for (l = 0; l <= n; l++) {
		if (l < n && (ext2fs_bmap2(fs, jino, ino, NULL, 0, l, NULL, &p) || !p))
			break;
		if (l < n && elen && p == ep + elen) {
			elen++;
			continue;
		}
		if (elen) {
			if (++pieces > JOURNAL_MAX_EXTENTS)
				break;
			len += (size_t)snprintf(list + len, cap - len, "%s%llu:%llu+%llu",
						len ? "," : "", (unsigned long long)el,
						(unsigned long long)ep, (unsigned long long)elen);
		}
		if (!l)
			first = p;
		el = l;
		ep = p;
		elen = 1;
	}
	if (l == n + 1 && pieces == 1)
		err = fsl_sink_kv(s, FSL_KV_EXT4_JOURNAL_START, "%llu", (unsigned long long)first);
	/*
	 * An ext3-format journal maps its blocks through indirect blocks that
	 * sit between them: its data is "in pieces" where e2fsck sees no break
	 * (it expects each indirect block), so only an extent-mapped journal's
	 * pieces are breaks.
	 */
	else if (l == n + 1 && (ino->i_flags & EXT4_EXTENTS_FL))
		err = fsl_sink_kv(s, FSL_KV_EXT4_JOURNAL_EXTENTS, "%s", list);
	free(list);
	return err;
}

static void uuid_str(const uint8_t *u, char *out)
{
	sprintf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		u[13], u[14], u[15]);
}

int fsl_meta_ext4(const struct fsl_meta_sink *s, const struct fsl_target *t)
{
	struct ext2_super_block *sb;
	struct ext2_inode ino;
	ext2_filsys fs;
	char names[1024] = "", u[40];
	unsigned int i;
	int e, err = 0;

	if (!t->bdev[0])
		return -ENODEV;
	e = open_fs(t->bdev, &fs);
	if (e)
		return e;
	sb = fs->super;
	err |= fsl_sink_kv(s, FSL_KV_EXT4_BLOCK_SIZE, "%u", fs->blocksize);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_CLUSTER_SIZE, "%u", EXT2_CLUSTER_SIZE(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_BLOCKS_COUNT, "%llu",
			   (unsigned long long)ext2fs_blocks_count(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FREE_BLOCKS, "%llu",
			   (unsigned long long)ext2fs_free_blocks_count(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_RESERVED_BLOCKS, "%llu",
			   (unsigned long long)ext2fs_r_blocks_count(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_INODES_COUNT, "%u", sb->s_inodes_count);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FREE_INODES, "%u", sb->s_free_inodes_count);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FIRST_DATA_BLOCK, "%u", sb->s_first_data_block);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_BLOCKS_PER_GROUP, "%u", sb->s_blocks_per_group);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_INODES_PER_GROUP, "%u", sb->s_inodes_per_group);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_GROUP_COUNT, "%u", fs->group_desc_count);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_INODE_SIZE, "%u", EXT2_INODE_SIZE(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FIRST_INO, "%u", EXT2_FIRST_INO(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_DESC_SIZE, "%u", EXT2_DESC_SIZE(sb));
	err |= fsl_sink_kv(s, FSL_KV_EXT4_INODE_BLOCKS_PER_GROUP, "%u", fs->inode_blocks_per_group);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_RESERVED_GDT, "%u", sb->s_reserved_gdt_blocks);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_LOG_GROUPS_PER_FLEX, "%u", sb->s_log_groups_per_flex);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FLEX_BG_SIZE, "%u",
			   ext2fs_has_feature_flex_bg(sb) ? 1u << sb->s_log_groups_per_flex : 1u);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FEATURE_COMPAT, "0x%x", sb->s_feature_compat);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FEATURE_INCOMPAT, "0x%x", sb->s_feature_incompat);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FEATURE_RO_COMPAT, "0x%x", sb->s_feature_ro_compat);
	for (i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		uint32_t w = feats[i].compat == 0 ? sb->s_feature_compat :
			     feats[i].compat == 1 ? sb->s_feature_incompat :
			     sb->s_feature_ro_compat;

		if (w & feats[i].mask) {
			if (names[0])
				strcat(names, " ");
			strcat(names, feats[i].name);
		}
	}
	err |= fsl_sink_kv(s, FSL_KV_EXT4_FEATURES, "%s", names);
	uuid_str(sb->s_uuid, u);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_UUID, "%s", u);
	uuid_str((const uint8_t *)sb->s_hash_seed, u);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_HASH_SEED, "%s", u);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_DEF_HASH_VERSION, "%u", sb->s_def_hash_version);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_DEFAULT_MOUNT_OPTS, "0x%x", sb->s_default_mount_opts);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_MOUNT_OPTS, "%.64s", (const char *)sb->s_mount_opts);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_MIN_EXTRA_ISIZE, "%u", sb->s_min_extra_isize);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_RAID_STRIDE, "%u", sb->s_raid_stride);
	err |= fsl_sink_kv(s, FSL_KV_EXT4_RAID_STRIPE_WIDTH, "%u", sb->s_raid_stripe_width);
	if (ext2fs_has_feature_journal(sb)) {
		err |= fsl_sink_kv(s, FSL_KV_EXT4_JOURNAL_INUM, "%u", sb->s_journal_inum);
		if (sb->s_journal_inum &&
		    ext2fs_read_inode(fs, sb->s_journal_inum, &ino) == 0) {
			unsigned long long bytes = EXT2_I_SIZE(&ino);
			blk64_t n = bytes / fs->blocksize;

			err |= fsl_sink_kv(s, FSL_KV_EXT4_JOURNAL_BYTES, "%llu", bytes);
			err |= fsl_sink_kv(s, FSL_KV_EXT4_JOURNAL_BLOCKS, "%llu",
					   bytes / fs->blocksize);
			/*
			 * where it lies, for who-holds-this-block answers; in
			 * more than one piece (mke2fs splits it around the
			 * metadata of groups without flex_bg) its extents, as
			 * e2fsck -E fragcheck prints its breaks
			 */
			err |= journal_layout(s, fs, sb->s_journal_inum, &ino, n);
		} else if (sb->s_journal_dev) {
			err |= fsl_sink_kv(s, FSL_KV_EXT4_JOURNAL_DEV, "%u", sb->s_journal_dev);
		}
	}
	ext2fs_close_free(&fs);
	return err ? -EIO : 0;
}

/* Append "sep%llu" to a growing list; -ENOMEM on failure. */
static int list_add(char **buf, size_t *len, size_t *cap, unsigned long long v)
{
	char t[32];
	int n = snprintf(t, sizeof(t), "%s%llu", *len ? "," : "", v);

	if (*len + n + 1 > *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		char *nb;

		while (nc < *len + n + 1)
			nc *= 2;
		nb = realloc(*buf, nc);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, t, n + 1);
	*len += n;
	return 0;
}

/*
 * The group tables' locations are what the block classes of a trace map
 * through (analyzer/blockclass.c) whatever the layout (flex_bg or not,
 * resized); past this many groups (2 TiB of 4 KiB blocks) the values would
 * make the metadata large, and the analyzer computes mke2fs's layout.
 */
#define GROUP_TABLES_MAX	16384

int fsl_meta_ext4_groups(const struct fsl_meta_sink *s, const char *bdev)
{
	char *dirs = NULL, *uninit = NULL, *tab[3] = { NULL, NULL, NULL };
	size_t dl = 0, dc = 0, ul = 0, uc = 0, tl[3] = { 0 }, tc[3] = { 0 };
	static const char *const keys[3] = { FSL_KV_EXT4_GROUP_BLOCK_BITMAP,
					     FSL_KV_EXT4_GROUP_INODE_BITMAP,
					     FSL_KV_EXT4_GROUP_INODE_TABLE };
	ext2_filsys fs;
	dgrp_t g;
	int e, tables, k;

	e = open_fs(bdev, &fs);
	if (e)
		return e;
	tables = fs->group_desc_count <= GROUP_TABLES_MAX;
	for (g = 0; g < fs->group_desc_count && !e; g++) {
		e = list_add(&dirs, &dl, &dc, ext2fs_bg_used_dirs_count(fs, g));
		if (!e && ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT))
			e = list_add(&uninit, &ul, &uc, g);
		if (!e && tables)
			e = list_add(&tab[0], &tl[0], &tc[0], ext2fs_block_bitmap_loc(fs, g));
		if (!e && tables)
			e = list_add(&tab[1], &tl[1], &tc[1], ext2fs_inode_bitmap_loc(fs, g));
		if (!e && tables)
			e = list_add(&tab[2], &tl[2], &tc[2], ext2fs_inode_table_loc(fs, g));
	}
	ext2fs_close_free(&fs);
	if (!e)
		e = s->kv(s->ctx, FSL_KV_EXT4_USED_DIRS, dirs ? dirs : "");
	if (!e)
		e = s->kv(s->ctx, FSL_KV_EXT4_BLOCK_UNINIT, uninit ? uninit : "");
	for (k = 0; k < 3 && !e && tables; k++)
		e = s->kv(s->ctx, keys[k], tab[k] ? tab[k] : "");
	free(dirs);
	free(uninit);
	for (k = 0; k < 3; k++)
		free(tab[k]);
	return e;
}

/* A growing text. */
struct tbuf {
	char *p;
	size_t len, cap;
	int err;
};

static void tb_printf(struct tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_printf(struct tbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = -EINVAL;
			return;
		}
		if (b->p && b->len + n < b->cap) {
			b->len += n;
			return;
		}
		{
			size_t nc = b->cap ? b->cap * 2 : 4096;
			char *np;

			while (nc < b->len + n + 1)
				nc *= 2;
			np = realloc(b->p, nc);
			if (!np) {
				b->err = -ENOMEM;
				return;
			}
			b->p = np;
			b->cap = nc;
		}
	}
}

/* One directory's blocks as runs: data (dir) blocks and extent-tree blocks apart. */
struct dir_runs {
	struct tbuf *out;
	blk64_t start[2], len[2];	/* [0] dir blocks, [1] tree blocks */
	blk64_t nblocks;
};

static void runs_flush(struct dir_runs *d, int k)
{
	if (d->len[k])
		tb_printf(d->out, "%c %llu %llu\n", k ? 'E' : 'D', (unsigned long long)d->start[k],
			  (unsigned long long)d->len[k]);
	d->len[k] = 0;
}

static int dir_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt, blk64_t ref_blk,
		     int ref_offset, void *priv)
{
	struct dir_runs *d = priv;
	int k = blockcnt < 0;

	if (!*blocknr)
		return 0;
	d->nblocks += !k;
	if (d->len[k] && d->start[k] + d->len[k] == *blocknr) {
		d->len[k]++;
		return 0;
	}
	runs_flush(d, k);
	d->start[k] = *blocknr;
	d->len[k] = 1;
	return 0;
}

struct htree_dir {
	ext2_ino_t ino;
	blk64_t blocks;
	unsigned int levels, index;
};

/*
 * An indexed directory's htree: levels (dx_root's indirect_levels + 1) and
 * index blocks (the root and every interior node), walked from the root.
 * The root's entries start at byte 0x20 (after "." and the ".." header with
 * dx_root_info), an interior node's at byte 8 (one empty dirent); each
 * area starts with {limit, count} in the first entry's hash.
 */
static int htree_walk(ext2_filsys fs, ext2_ino_t ino, struct ext2_inode *inode,
		      struct htree_dir *h)
{
	unsigned int bs = fs->blocksize, lvl, i, n = 0, nn;
	uint32_t *cur = NULL, *next = NULL;
	unsigned char *buf = malloc(bs);
	blk64_t pb;
	int e = -EIO;

	if (!buf)
		return -ENOMEM;
	if (ext2fs_bmap2(fs, ino, inode, NULL, 0, 0, NULL, &pb) || !pb ||
	    io_channel_read_blk64(fs->io, pb, 1, buf))
		goto out;
	h->levels = buf[0x1e] + 1;	/* dx_root_info.indirect_levels */
	h->index = 1;
	if (h->levels > 4)
		goto out;
	for (lvl = 0; lvl < h->levels; lvl++) {
		unsigned int off = lvl ? 8 : 0x20, count;

		nn = 0;
		free(next);
		next = NULL;
		for (i = 0; i < (lvl ? n : 1); i++) {
			unsigned int k;

			if (lvl) {
				if (ext2fs_bmap2(fs, ino, inode, NULL, 0, cur[i], NULL, &pb) || !pb ||
				    io_channel_read_blk64(fs->io, pb, 1, buf))
					goto out;
				h->index++;
			}
			if (lvl + 1 == h->levels)
				continue;	/* its children are leaves */
			count = buf[off + 2] | buf[off + 3] << 8;
			if (off + 8 * count > bs)
				goto out;
			{
				uint32_t *g = realloc(next, (nn + count) * sizeof(*g));

				if (!g) {
					e = -ENOMEM;
					goto out;
				}
				next = g;
			}
			for (k = 0; k < count; k++) {
				const unsigned char *p = buf + off + 8 * k + 4;

				next[nn++] = (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) &
					     0x0fffffff;
			}
		}
		free(cur);
		cur = next;
		next = NULL;
		n = nn;
	}
	e = 0;
out:
	free(cur);
	free(next);
	free(buf);
	return e;
}

static int htree_cmp(const void *x, const void *y)
{
	const struct htree_dir *a = x, *b = y;

	return a->blocks < b->blocks ? 1 : a->blocks > b->blocks ? -1 : (a->ino > b->ino) - (a->ino < b->ino);
}

#define DIRS_MAX_INODES		2000000
#define HTREE_DIRS_MAX		64

int fsl_meta_ext4_dirs(const struct fsl_meta_sink *s, const char *bdev, unsigned int when)
{
	struct tbuf out = { 0 };
	struct htree_dir *hd = NULL;
	size_t nh = 0, ch = 0, i;
	ext2_inode_scan scan;
	struct ext2_inode inode;
	ext2_filsys fs;
	ext2_ino_t ino;
	int e;

	e = open_fs(bdev, &fs);
	if (e)
		return e;
	if (fs->super->s_inodes_count - fs->super->s_free_inodes_count > DIRS_MAX_INODES) {
		ext2fs_close_free(&fs);
		return -E2BIG;
	}
	if (ext2fs_open_inode_scan(fs, 0, &scan)) {
		ext2fs_close_free(&fs);
		return -EIO;
	}
	while (!ext2fs_get_next_inode(scan, &ino, &inode) && ino) {
		if (!inode.i_links_count || !LINUX_S_ISDIR(inode.i_mode) ||
		    !ext2fs_inode_has_valid_blocks2(fs, &inode))
			continue;
		if (when == FSL_BITMAP_START) {
			struct dir_runs d = { .out = &out };

			ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL, dir_block, &d);
			runs_flush(&d, 0);
			runs_flush(&d, 1);
		} else if ((inode.i_flags & EXT2_INDEX_FL) &&
			   EXT2_I_SIZE(&inode) >= 2 * (uint64_t)fs->blocksize) {
			struct htree_dir h = { .ino = ino,
					       .blocks = EXT2_I_SIZE(&inode) / fs->blocksize };

			if (htree_walk(fs, ino, &inode, &h))
				continue;
			if (nh == ch) {
				struct htree_dir *g = realloc(hd, (ch = ch ? 2 * ch : 64) * sizeof(*g));

				if (!g)
					break;
				hd = g;
			}
			hd[nh++] = h;
		}
	}
	ext2fs_close_inode_scan(scan);
	if (when != FSL_BITMAP_START) {
		qsort(hd, nh, sizeof(*hd), htree_cmp);
		for (i = 0; i < nh && i < HTREE_DIRS_MAX; i++) {
			char *name = NULL;

			ext2fs_get_pathname(fs, hd[i].ino, 0, &name);
			tb_printf(&out, "%u %llu %u %u %s\n", hd[i].ino,
				  (unsigned long long)hd[i].blocks, hd[i].levels, hd[i].index,
				  name ? name : "?");
			ext2fs_free_mem(&name);
		}
	}
	free(hd);
	ext2fs_close_free(&fs);
	e = out.err;
	if (!e)
		e = s->text(s->ctx, when == FSL_BITMAP_START ? FSL_TEXT_EXT4_DIR_BLOCKS :
			    FSL_TEXT_EXT4_HTREE, out.p ? out.p : "", out.len);
	free(out.p);
	return e;
}

/*
 * Runs of a bitmap from first to last (inclusive), alternating, starting
 * with a clear (free) run that may be empty. find_first_{zero,set} make
 * this cost the number of runs, not the number of bits.
 */
static int bitmap_runs(ext2fs_generic_bitmap map, int is_block, uint64_t first, uint64_t last,
		       struct fsl_bitmap *out)
{
	uint64_t pos = first, next, cap = 64;
	int want_set = 1;	/* we are in a clear run, looking for the next set bit */

	out->first = first;
	out->nbits = last - first + 1;
	out->nruns = 0;
	out->runs = malloc(cap * sizeof(*out->runs));
	if (!out->runs)
		return -ENOMEM;
	while (pos <= last) {
		errcode_t e;

		if (is_block) {
			blk64_t r;

			e = want_set ? ext2fs_find_first_set_block_bitmap2(map, pos, last, &r)
				     : ext2fs_find_first_zero_block_bitmap2(map, pos, last, &r);
			next = r;
		} else {
			ext2_ino_t r;

			e = want_set ? ext2fs_find_first_set_inode_bitmap2(map, pos, last, &r)
				     : ext2fs_find_first_zero_inode_bitmap2(map, pos, last, &r);
			next = r;
		}
		if (e)
			next = last + 1;	/* ENOENT: the run goes to the end */
		if (out->nruns == cap) {
			uint64_t *n = realloc(out->runs, cap * 2 * sizeof(*n));

			if (!n) {
				free(out->runs);
				out->runs = NULL;
				return -ENOMEM;
			}
			out->runs = n;
			cap *= 2;
		}
		out->runs[out->nruns++] = next - pos;
		pos = next;
		want_set = !want_set;
	}
	return 0;
}

int fsl_ext4_read_bitmaps(const char *bdev, struct fsl_bitmap *blocks, struct fsl_bitmap *inodes)
{
	ext2_filsys fs;
	errcode_t ee;
	int e;

	memset(blocks, 0, sizeof(*blocks));
	memset(inodes, 0, sizeof(*inodes));
	e = open_fs(bdev, &fs);
	if (e)
		return e;
	ee = ext2fs_read_bitmaps(fs);
	if (ee) {
		ext2fs_close_free(&fs);
		return ext2_err(ee);
	}
	blocks->kind = FSL_BITMAP_BLOCK;
	inodes->kind = FSL_BITMAP_INODE;
	e = bitmap_runs((ext2fs_generic_bitmap)fs->block_map, 1, fs->super->s_first_data_block,
			ext2fs_blocks_count(fs->super) - 1, blocks);
	if (!e)
		e = bitmap_runs((ext2fs_generic_bitmap)fs->inode_map, 0, 1,
				fs->super->s_inodes_count, inodes);
	ext2fs_close_free(&fs);
	if (e) {
		free(blocks->runs);
		free(inodes->runs);
		blocks->runs = inodes->runs = NULL;
	}
	return e;
}

#else /* !FSL_HAVE_EXT2FS */

int fsl_meta_ext4_dirs(const struct fsl_meta_sink *s, const char *bdev, unsigned int when)
{
	return -EOPNOTSUPP;
}

int fsl_meta_ext4_groups(const struct fsl_meta_sink *s, const char *bdev)
{
	return -EOPNOTSUPP;
}

int fsl_meta_ext4(const struct fsl_meta_sink *s, const struct fsl_target *t)
{
	return -EOPNOTSUPP;
}

int fsl_ext4_read_bitmaps(const char *bdev, struct fsl_bitmap *blocks, struct fsl_bitmap *inodes)
{
	return -EOPNOTSUPP;
}

#endif

int fsl_meta_bitmaps(const struct fsl_meta_sink *s, const char *bdev, unsigned int when)
{
	struct fsl_bitmap b, i;
	int e = fsl_ext4_read_bitmaps(bdev, &b, &i);

	if (e)
		return e;
	b.when = i.when = when;
	e = s->bitmap(s->ctx, &b);
	if (!e)
		e = s->bitmap(s->ctx, &i);
	free(b.runs);
	free(i.runs);
	return e;
}
