// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor's in-kernel side: loads probes/monitor.bpf.c, fills its
 * target and syscall maps and the kick rules' addresses, attaches, and each
 * interval hands mon_agg to the metrics state. Blocked-time entries are read
 * and deleted one key at a time; each stack is named once with the
 * wait-class table and judged with the scope rules (include/fslens/scope.h),
 * so neither the aggregate map nor the stack map grows with the run's
 * length. A stack's class is written back for the kernel's commit-trigger
 * evidence (mon_stack_cls).
 */
#include <dirent.h>
#include <errno.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "fslens/monitor.h"
#include "fslens/scope.h"
#include "fslens/ksyms.h"
#include "fslens/text.h"
#include "collector_int.h"
#include "probes/monitor.skel.h"

#define MON_KEYS_MAX	32768	/* mon_agg's max_entries */
#define STACK_DEPTH	64

#define STACK_CACHE	4096
#define OPS_CHUNK	4096	/* mon_ops entries per batch read */

struct fsl_monitor {
	struct monitor_bpf *skel;
	struct fsl_mon_metrics *mm;
	struct fsl_ksyms *ksyms;
	struct mon_key *keys;
	struct mon_val *vals;	/* one per possible CPU */
	int ncpus;
	/* mon_ops (no cgroup label): its length, a read buffer, the last sums */
	uint32_t nops;
	uint32_t *ops_keys;
	struct mon_val *ops_vals;
	struct mon_val *ops_last;
	/* stack id -> what it is, for ids already deleted from the stack map */
	int32_t cache_id[STACK_CACHE];
	uint8_t cache_cls[STACK_CACHE];
	struct fsl_scope_stack cache_sc[STACK_CACHE];
	/* --cpu-freq: the sampling program's links, one per CPU */
	uint64_t cpu_period_ns;
	int32_t *cpu_ids;	/* the on-CPU stack ids a read named, deleted after it */
	size_t ncpu_ids;
	struct bpf_link **cpu_links;
	int ncpu_links;
};

static const struct fsl_monitor_opts *mon_log;

static int mon_libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];
	size_t n;

	if (!mon_log || !mon_log->log || level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = 0;
	mon_log->log(mon_log->log_ctx, line);
	return 0;
}

static int fill_syscalls(struct monitor_bpf *skel)
{
	static const int data_rd[] = { SYS_read, SYS_pread64, SYS_readv, SYS_preadv, SYS_preadv2 };
	static const int data_wr[] = { SYS_write, SYS_pwrite64, SYS_writev, SYS_pwritev,
				       SYS_pwritev2 };
	const struct fsl_dirop_sc_entry *t;
	int fd = bpf_map__fd(skel->maps.mon_sc), e;
	unsigned int n, i;

	n = fsl_dirop_table(&t);
	for (i = 0; i < n; i++) {
		struct mon_sc sc = {
			.op = t[i].sc.op,
			.fd = t[i].sc.fd,
			/* openat2's flags are inside struct open_how: not read here */
			.flags = t[i].sc.how ? -1 : t[i].sc.flags,
			.creat = t[i].sc.creat,
			.stbuf = -1,
			.path = t[i].sc.path,
			.dirfd = t[i].sc.dirfd,
		};
		__u32 nr = t[i].nr;

		if (nr >= 1024)
			continue;
		/* the stat family: where the buffer is */
		if (!strcmp(t[i].name, "stat") || !strcmp(t[i].name, "lstat")) {
			sc.stbuf = 1;
			sc.stkind = MON_ST_STAT;
		} else if (!strcmp(t[i].name, "newfstatat") || !strcmp(t[i].name, "fstatat64")) {
			sc.stbuf = 2;
			sc.stkind = MON_ST_STAT;
		} else if (!strcmp(t[i].name, "statx")) {
			sc.stbuf = 4;
			sc.stkind = MON_ST_STATX;
		}
		e = bpf_map_update_elem(fd, &nr, &sc, BPF_ANY);
		if (e)
			return -errno;
	}
	for (i = 0; i < 10; i++) {
		struct mon_sc sc = { .op = (i < 5 ? MON_OP_READ : MON_OP_WRITE) + 1, .fd = 0,
				     .flags = -1, .stbuf = -1, .path = -1, .dirfd = -1 };
		__u32 nr = i < 5 ? data_rd[i] : data_wr[i - 5];

		if (bpf_map_update_elem(fd, &nr, &sc, BPF_ANY))
			return -errno;
	}
	return 0;
}

/*
 * The targets' journal threads (jbd2/DEVNAME-N), marked in their task
 * storage from the start: the kernel side learns a journal thread at its
 * first commit, too late for the kick that asked for that commit.
 */
static void mark_jbd2_threads(struct fsl_monitor *m)
{
	int fd = bpf_map__fd(m->skel->maps.mon_task);
	char path[64], comm[32], want[32];
	struct dirent *d;
	unsigned int i;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		struct mon_task v = { 0 };
		int pid = atoi(d->d_name), pfd;
		FILE *f;
		size_t n;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		n = fread(comm, 1, sizeof(comm) - 1, f);
		fclose(f);
		comm[n] = 0;
		comm[strcspn(comm, "\n")] = 0;
		for (i = 0; i < m->mm->ntargets; i++) {
			snprintf(want, sizeof(want), "jbd2/%s-", m->mm->fs[i].devname);
			/* comm is cut at 15 characters */
			if (m->mm->fs[i].devname[0] && !strncmp(comm, want, strlen(want) < 15 ?
								   strlen(want) : 15))
				break;
		}
		if (i == m->mm->ntargets)
			continue;
		pfd = syscall(SYS_pidfd_open, pid, 0);
		if (pfd < 0)
			continue;
		v.kt_jbd2 = MON_EV_TGT(i);
		bpf_map_update_elem(fd, &pfd, &v, BPF_NOEXIST);
		close(pfd);
	}
	closedir(dir);
}

/* The report's kick rules at this kernel's addresses, into the rodata (before load). */
static void fill_kicks(struct monitor_bpf *skel, const struct fsl_ksyms *k)
{
	const struct fsl_kick_rule *r;
	unsigned int nr, i, n = 0;
	uint64_t rg[4][2];
	size_t j, nrg;

	r = fsl_kick_rules(&nr);
	for (i = 0; i < nr; i++) {
		nrg = fsl_ksyms__ranges(k, r[i].func, rg, 4);
		for (j = 0; j < nrg && n < MON_KICK_RULES; j++, n++) {
			struct mon_kick_range *kr = (struct mon_kick_range *)&skel->rodata->targ_kick[n];

			kr->lo = rg[j][0];
			kr->hi = rg[j][1];
			kr->kick = r[i].trig == FSL_KICK_STOP ? FSL_KICK_STOP : r[i].trig + 1u;
			kr->rank = r[i].rank;
		}
	}
	skel->rodata->targ_nkick = n;
}

/*
 * Entries of the on-CPU stack map: every sample a read of it may hold
 * (each CPU at hz for FSL_MON_CPU_READ_NS) 32 times over, so that a
 * sample's stack seldom lands in a bucket another stack holds (the kernel
 * then refuses it: -EEXIST, an unnamed sample; at one sample per eight
 * buckets about 6% of them). A power of two from MON_CPU_STACKS (8192) to
 * 65536 (about 36 MB of kernel memory at 64 frames).
 */
unsigned int fsl_mon_cpu_stacks(unsigned int ncpus, unsigned int hz)
{
	uint64_t want = 32ull * ncpus * hz * (FSL_MON_CPU_READ_NS / 1000000) / 1000;
	unsigned int n = MON_CPU_STACKS;

	while (n < want && n < 65536)
		n <<= 1;
	return n;
}

struct fsl_monitor *fsl_monitor__new(struct fsl_mon_metrics *mm, const struct fsl_monitor_opts *o,
				     int *err)
{
	struct fsl_monitor *m = calloc(1, sizeof(*m));
	unsigned int i;
	int e;

	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	m->mm = mm;
	mon_log = o;
	libbpf_set_print(mon_libbpf_log);
	m->ncpus = libbpf_num_possible_cpus();
	m->keys = calloc(MON_KEYS_MAX, sizeof(*m->keys));
	m->cpu_ids = calloc(MON_KEYS_MAX, sizeof(*m->cpu_ids));
	m->vals = calloc(m->ncpus > 0 ? m->ncpus : 1, sizeof(*m->vals));
	if (m->ncpus <= 0 || !m->keys || !m->cpu_ids || !m->vals) {
		e = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < STACK_CACHE; i++)
		m->cache_id[i] = -1;
	m->ksyms = fsl_ksyms__load(NULL, &e);
	if (!m->ksyms)
		goto fail;
	{
		/* maps are charged to the memory cgroup on this kernel; older ones count memlock */
		struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

		setrlimit(RLIMIT_MEMLOCK, &rl);
	}
	m->skel = monitor_bpf__open();
	if (!m->skel) {
		e = -errno ? -errno : -EINVAL;
		goto fail;
	}
	m->skel->rodata->targ_self = getpid();
	m->skel->rodata->targ_floor = o->floor == FSL_FLOOR_ALL;
	m->skel->rodata->targ_floor_sys = o->floor == FSL_FLOOR_SYSCALLS;
	m->skel->rodata->targ_cgroup = mm->cgroups != 0;
	m->skel->rodata->targ_all_ext4 = 1;
	for (i = 0; i < mm->ntargets; i++)
		if (mm->fs[i].fs != FSL_CTX_FS_EXT4)
			m->skel->rodata->targ_all_ext4 = 0;
	m->skel->rodata->targ_ntgt = mm->ntargets;
	for (i = 0; i < mm->ntargets && i < MON_TARGETS_MAX; i++) {
		m->skel->rodata->targ_fs_dev[i] = mm->fs[i].dev;
		m->skel->rodata->targ_disk_dev[i] = mm->fs[i].blkdev;
		m->skel->rodata->targ_commit_jiffies[i] = mm->fs[i].commit_jiffies;
		m->skel->rodata->targ_max_txn[i] = mm->fs[i].max_txn_blocks;
	}
	m->skel->rodata->targ_st_dev_off = offsetof(struct stat, st_dev);
	m->skel->rodata->targ_stx_dev_off = offsetof(struct statx, stx_dev_major);
	m->skel->rodata->targ_wc_log_space = FSL_WC_JOURNAL_LOG_SPACE + 1;
	m->skel->rodata->targ_wc_commit_wait = FSL_WC_COMMIT_WAIT + 1;
	m->skel->rodata->targ_wc_txn_locked = FSL_WC_TXN_LOCKED + 1;
	fill_kicks(m->skel, m->ksyms);
	if (o->cpu_hz) {
		m->cpu_period_ns = 1000000000ull / o->cpu_hz;
		mm->cpu_hz = o->cpu_hz;
		bpf_map__set_max_entries(m->skel->maps.mon_cpu_stacks,
					 fsl_mon_cpu_stacks(m->ncpus, o->cpu_hz));
		m->cpu_links = calloc(m->ncpus, sizeof(*m->cpu_links));
		if (!m->cpu_links) {
			e = -ENOMEM;
			goto fail;
		}
	} else {
		bpf_program__set_autoload(m->skel->progs.mon_cpu_sample, false);
	}
	m->nops = mm->cgroups ? 1 : mm->ntargets * MON_OPS_PER_TGT;
	if (m->nops == 0)
		m->nops = 1;
	m->ops_keys = calloc(OPS_CHUNK, sizeof(*m->ops_keys));
	m->ops_vals = calloc((size_t)OPS_CHUNK * m->ncpus, sizeof(*m->ops_vals));
	m->ops_last = calloc(m->nops, sizeof(*m->ops_last));
	if (!m->ops_keys || !m->ops_vals || !m->ops_last) {
		e = -ENOMEM;
		goto fail;
	}
	bpf_map__set_max_entries(m->skel->maps.mon_ops, m->nops);
	if (monitor_bpf__load(m->skel)) {
		e = -errno ? -errno : -EINVAL;
		goto fail;
	}
	e = fill_syscalls(m->skel);
	if (e)
		goto fail;
	return m;
fail:
	fsl_monitor__free(m);
	*err = e ? e : -EINVAL;
	return NULL;
}

static int cpu_link_add(void *ctx, struct bpf_link *l)
{
	struct fsl_monitor *m = ctx;

	if (m->ncpu_links >= m->ncpus) {
		bpf_link__destroy(l);
		return -E2BIG;
	}
	m->cpu_links[m->ncpu_links++] = l;
	return 0;
}

int fsl_monitor__start(struct fsl_monitor *m)
{
	int e;

	mark_jbd2_threads(m);
	if (monitor_bpf__attach(m->skel))
		return -errno ? -errno : -EINVAL;
	if (m->cpu_period_ns) {
		e = fsl_attach_cpu_clock(m->skel->progs.mon_cpu_sample, m->cpu_period_ns,
					 cpu_link_add, m);
		if (e < 0) {
			/* the metrics go on without the CPU family (the caller says so) */
			while (m->ncpu_links > 0)
				bpf_link__destroy(m->cpu_links[--m->ncpu_links]);
			m->mm->cpu_hz = 0;
			m->cpu_period_ns = 0;
		}
	}
	return 0;
}

/*
 * The CPU class of an on-CPU sample's stack (-1: user mode), and its frames'
 * scope: named from mon_cpu_stacks, then deleted (each interval's samples
 * are read together, so a stack seen again comes back with a new entry).
 */
static unsigned int cpu_stack_info(struct fsl_monitor *m, int32_t id, struct fsl_scope_stack *sc)
{
	uint64_t ips[STACK_DEPTH] = { 0 };
	char *frames[STACK_DEPTH], name[256];
	int fd = bpf_map__fd(m->skel->maps.mon_cpu_stacks), j;
	unsigned int cls, nf = 0;

	memset(sc, 0, sizeof(*sc));
	if (id == -1)
		return FSL_CC_USER;
	if (id < 0 || bpf_map_lookup_elem(fd, &id, ips))
		return FSL_CC__MAX;
	for (j = 0; j < STACK_DEPTH && ips[j]; j++) {
		const char *s = fsl_ksyms__name(m->ksyms, ips[j], name, sizeof(name));

		if (s) {
			frames[nf] = strdup(s);
			if (frames[nf])
				nf++;
		}
	}
	cls = fsl_cclass_of_frames((const char *const *)frames, nf, NULL);
	fsl_scope_stack_of_frames((const char *const *)frames, nf, sc);
	while (nf)
		free(frames[--nf]);
	/*
	 * Deleted after the read, when every key naming it (several: the same
	 * stack under other evidence or another cgroup) has been named, so
	 * that the map stays small over a long run. A sample of this stack
	 * taken between the read and the delete comes back unnamed next time
	 * (counted).
	 */
	if (m->ncpu_ids < MON_KEYS_MAX)
		m->cpu_ids[m->ncpu_ids++] = id;
	return cls;
}

/*
 * What a stack id is (class, scope): named from the stack map (then
 * deleted), else the cache. The class goes back to the kernel too.
 */
static unsigned int stack_info(struct fsl_monitor *m, int32_t id, struct fsl_scope_stack *sc)
{
	uint64_t ips[STACK_DEPTH] = { 0 };
	char *frames[STACK_DEPTH], name[256];
	unsigned int slot = (uint32_t)id % STACK_CACHE, cls, nf = 0;
	int fd = bpf_map__fd(m->skel->maps.mon_stacks), j;
	int32_t key = id;
	uint32_t cslot;
	uint8_t c1;

	memset(sc, 0, sizeof(*sc));
	if (id < 0)
		return FSL_WC_OTHER;
	if (id >= FSL_STACK2_BASE) {
		fd = bpf_map__fd(m->skel->maps.mon_stacks2);
		key = id - FSL_STACK2_BASE;
	}
	if (bpf_map_lookup_elem(fd, &key, ips)) {
		if (m->cache_id[slot] == id) {
			*sc = m->cache_sc[slot];
			return m->cache_cls[slot];
		}
		m->mm->stacks_unnamed++;
		return FSL_WC_OTHER;
	}
	for (j = 0; j < STACK_DEPTH && ips[j]; j++) {
		const char *s = fsl_ksyms__name(m->ksyms, ips[j], name, sizeof(name));

		if (!s)
			continue;
		/* the probe's own frames are not the wait */
		if (!nf && (!strncmp(s, "bpf_", 4) || !strncmp(s, "__bpf_", 6)))
			continue;
		frames[nf] = strdup(s);
		if (frames[nf])
			nf++;
	}
	cls = fsl_wclass_of_frames((const char *const *)frames, nf, NULL);
	/* a parent waiting for its vfork child: no stall (FSL_WC__MAX: not counted) */
	if (fsl_wait_is_child((const char *const *)frames, nf))
		cls = FSL_WC__MAX;
	fsl_scope_stack_of_frames((const char *const *)frames, nf, sc);
	while (nf)
		free(frames[--nf]);
	/*
	 * Deleting keeps the stack map from filling over a long run; a task
	 * asleep on this stack now finds it in the cache when it wakes.
	 */
	bpf_map_delete_elem(fd, &key);
	m->cache_id[slot] = id;
	m->cache_cls[slot] = cls;
	m->cache_sc[slot] = *sc;
	cslot = id >= FSL_STACK2_BASE ? (uint32_t)key + MON_STACKS : (uint32_t)key;
	c1 = (uint8_t)((cls < FSL_WC__MAX ? cls : FSL_WC_OTHER) + 1);
	if (cslot < MON_STACKS + MON_STACKS2)
		bpf_map_update_elem(bpf_map__fd(m->skel->maps.mon_stack_cls), &cslot, &c1, BPF_ANY);
	return cls;
}

/*
 * mon_ops: each entry's sum over the CPUs, less what was read last time,
 * handed to the metrics as a delta. Read in batches of OPS_CHUNK.
 */
static int read_ops(struct fsl_monitor *m)
{
	int fd = bpf_map__fd(m->skel->maps.mon_ops);
	uint32_t at = 0, out, n, i;
	DECLARE_LIBBPF_OPTS(bpf_map_batch_opts, bo);
	int c, e;

	if (m->mm->cgroups)
		return 0;
	while (at < m->nops) {
		void *in = at ? &at : NULL;

		n = OPS_CHUNK;
		e = bpf_map_lookup_batch(fd, in, &out, m->ops_keys, m->ops_vals, &n, &bo);
		if (e && errno != ENOENT)
			return -errno;
		for (i = 0; i < n; i++) {
			uint32_t k = m->ops_keys[i];
			struct mon_val sum = { 0 }, d;
			struct mon_key key = { 0 };
			uint32_t tgt, rest;

			if (k >= m->nops)
				continue;
			for (c = 0; c < m->ncpus; c++) {
				sum.count += m->ops_vals[(size_t)i * m->ncpus + c].count;
				sum.sum += m->ops_vals[(size_t)i * m->ncpus + c].sum;
			}
			if (sum.count == m->ops_last[k].count)
				continue;
			d.count = sum.count - m->ops_last[k].count;
			d.sum = sum.sum - m->ops_last[k].sum;
			m->ops_last[k] = sum;
			tgt = k / MON_OPS_PER_TGT;
			rest = k % MON_OPS_PER_TGT;
			key.tgt = tgt;
			if (rest < MON_OPS * MON_FINE_BUCKETS) {
				key.kind = MON_OP_HIST;
				key.a = rest / MON_FINE_BUCKETS;
				key.x = rest % MON_FINE_BUCKETS;
			} else {
				key.kind = MON_DATA_BYTES;
				key.a = MON_OP_READ + (rest - MON_OPS * MON_FINE_BUCKETS);
			}
			fsl_mon_metrics__apply(m->mm, &key, &d, 1);
		}
		if (e || n == 0)
			break;		/* ENOENT: the last batch */
		at = out;
	}
	return 0;
}

/* The aggregates' keys into mm: every kind, or the on-CPU samples only (cpu_only). */
static void read_agg(struct fsl_monitor *m, int cpu_only)
{
	int fd = bpf_map__fd(m->skel->maps.mon_agg);
	struct mon_key k, *prev = NULL;
	size_t n = 0, i;
	int c;

	while (n < MON_KEYS_MAX && bpf_map_get_next_key(fd, prev, &k) == 0) {
		m->keys[n] = k;
		prev = &m->keys[n++];
	}
	for (i = 0; i < n; i++) {
		struct mon_val sum = { 0 };
		const struct mon_key *kp = &m->keys[i];
		struct fsl_scope_stack sc;
		unsigned int cls;
		int e, del;

		if (cpu_only && kp->kind != MON_CPU)
			continue;

		/*
		 * Blocked time is read and deleted (each entry is judged once);
		 * so is a cgroup's past the table, whose keys would otherwise
		 * pile up: their series is "other", a sum of what was read.
		 */
		del = kp->kind == MON_BLOCKED || kp->kind == MON_CPU ||
		      (kp->cg && fsl_mon_metrics__cg_slot(m->mm, kp->cg) == MON_CG_OTHER);
		if (del)
			e = bpf_map_lookup_and_delete_elem(fd, kp, m->vals);
		else
			e = bpf_map_lookup_elem(fd, kp, m->vals);
		if (e)
			continue;	/* deleted meanwhile */
		for (c = 0; c < m->ncpus; c++) {
			sum.count += m->vals[c].count;
			sum.sum += m->vals[c].sum;
		}
		if (kp->kind == MON_CPU) {
			cls = cpu_stack_info(m, kp->x, &sc);
			if (cls >= FSL_CC__MAX) {
				m->mm->cpu_samples_unnamed += sum.count;
				cls = FSL_CC_KERNEL_OTHER;
			}
			fsl_mon_metrics__cpu(m->mm, fsl_mon_wait_target(m->mm, kp, &sc),
					     MON_A_ROLE(kp->a), cls, kp->cg,
					     sum.count * m->cpu_period_ns);
		} else if (kp->kind == MON_BLOCKED) {
			cls = stack_info(m, kp->x, &sc);
			if (cls >= FSL_WC__MAX)
				continue;	/* a parent waiting for its child */
			fsl_mon_metrics__blocked(m->mm, fsl_mon_wait_target(m->mm, kp, &sc),
						 MON_A_ROLE(kp->a), cls, kp->cg, sum.sum);
		} else {
			fsl_mon_metrics__apply(m->mm, kp, &sum, del);
		}
	}
	for (i = 0; i < m->ncpu_ids; i++)
		bpf_map_delete_elem(bpf_map__fd(m->skel->maps.mon_cpu_stacks), &m->cpu_ids[i]);
	m->ncpu_ids = 0;
}

int fsl_monitor__read(struct fsl_monitor *m)
{
	read_agg(m, 0);
	return read_ops(m);
}

int fsl_monitor__read_cpu(struct fsl_monitor *m)
{
	if (m->cpu_period_ns)
		read_agg(m, 1);
	return 0;
}

void fsl_monitor__free(struct fsl_monitor *m)
{
	if (!m)
		return;
	while (m->ncpu_links > 0)
		bpf_link__destroy(m->cpu_links[--m->ncpu_links]);
	free(m->cpu_links);
	monitor_bpf__destroy(m->skel);
	fsl_ksyms__free(m->ksyms);
	free(m->keys);
	free(m->cpu_ids);
	free(m->vals);
	free(m->ops_keys);
	free(m->ops_vals);
	free(m->ops_last);
	free(m);
}
