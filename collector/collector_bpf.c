// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF collector: open the fslens skeleton, choose per tracepoint how to
 * attach (tp_btf where the kernel's BTF describes it, else raw_tp; classic
 * tracepoints for the ext4/jbd2/writeback/xfs families), turn off what was
 * not asked for, does not fit the target's filesystem type or does not exist
 * on this kernel, load, attach, drain the ring.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "fslens/collector.h"
#include "fslens/devname.h"
#include "fslens/hashmap.h"
#include "fslens/schema.h"
#include "collector_int.h"
#include "probes/fslens.skel.h"

#define MAX_LINKS 256

struct fsl_collector {
	struct fsl_collector_opts opts;
	struct fslens_bpf *skel;
	struct ring_buffer *rb;
	/* the ring's consumer and producer positions, mapped read-only */
	volatile const uint64_t *cons_pos, *prod_pos;
	uint64_t rb_size;
	struct bpf_link *links[MAX_LINKS];
	unsigned int nlinks;
	fsl_collector_event_fn fn;
	void *fn_ctx;
	int fn_ret;
	uint32_t families;	/* loaded */
	int fentry;
	int nbtf, nraw, ntp;
	int sc_tp;		/* dirops on per-syscall tracepoints (else raw_syscalls) */
	unsigned int nsc;	/* followed syscalls that have them */
	char sc_name[64][32];	/* their NAME in syscalls:sys_{enter,exit}_NAME */
	const char *tracefs;
	char mode[96];
	char counts[96];
	char missing[2048];
	/* cpu family: the per-CPU sampling events (their links own the fds) */
	unsigned int ncpu_fds;
	unsigned int cpu_shift;
	uint64_t cpu_period_ns;
	uint64_t cpu_next_slot;		/* slots before this are delivered */
	uint64_t cpu_t0;		/* when the probes were attached */
	struct fsl_map cpu_ids;		/* hash of the frames -> index into cpu_stacks + 1 */
	struct cpu_stack *cpu_stacks;	/* by id - FSL_STACK_CPU_BASE */
	size_t ncpu_stacks, cpu_stacks_cap;
};

/* A distinct on-CPU stack, given its id by the drain. */
struct cpu_stack {
	uint32_t n;
	uint64_t *ips;
};

/* libbpf's print hook is global: route it to the collector being set up. */
static const struct fsl_collector_opts *log_opts;

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *line;
	size_t n;

	if (!log_opts || !log_opts->log || level == LIBBPF_DEBUG)
		return 0;
	/* a verifier log comes in one piece, its cause at the end: keep all of it */
	if (vasprintf(&line, fmt, ap) < 0)
		return 0;
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = 0;
	log_opts->log(log_opts->log_ctx, line);
	free(line);
	return 0;
}

int fsl_collector_built_in(void)
{
	return 1;
}

/* Where tracefs is, mounting it at /sys/kernel/tracing if it is not. */
static const char *tracefs_dir(void)
{
	static const char *dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char p[256];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (access(p, F_OK) == 0)
			return dirs[i];
	}
	if (mount("nodev", dirs[0], "tracefs", 0, NULL) == 0)
		return dirs[0];
	return NULL;
}

static int tp_exists(const char *tracefs, const char *group, const char *name)
{
	char p[512];

	if (!tracefs)
		return -1;	/* unknown */
	snprintf(p, sizeof(p), "%s/events/%s/%s", tracefs, group, name);
	return access(p, F_OK) == 0;
}

/* XFS's namespace events: how dirops tells where a path call changed a directory. */
static int is_scope_tp(const char *tp)
{
	return !strcmp(tp, "xfs_create") || !strcmp(tp, "xfs_remove") ||
	       !strcmp(tp, "xfs_rename") || !strcmp(tp, "xfs_link") || !strcmp(tp, "xfs_symlink");
}

/* ext4's journal handles: journal family records, and dirops' directory changes (EXT4_HT_DIR). */
static int is_jstart_tp(const char *tp)
{
	return !strcmp(tp, "ext4_journal_start_inode") || !strcmp(tp, "ext4_journal_start_sb");
}

/*
 * The per-operation events that only replay reads (the allocator's
 * requests and frees: its inputs, one per create, allocation or free), not
 * attached without --full. report, compare, top and monitor read none of
 * them.
 */
int fsl_replay_only_tp(const char *tp)
{
	return !strcmp(tp, "ext4_request_inode") || !strcmp(tp, "ext4_request_blocks") ||
	       !strcmp(tp, "ext4_mballoc_free");
}

/* Family and tracefs group of a tracepoint the probes use. */
static int tp_family(const char *tp, const char **group)
{
	const struct fsl_event_desc *d;
	unsigned int i, n;

	if (!strncmp(tp, "block_rq_", 9) || !strncmp(tp, "block_bio_", 10) ||
	    !strcmp(tp, "block_getrq") || !strcmp(tp, "block_split")) {
		*group = "block";
		return FSL_FAM_BLOCK;
	}
	if (!strcmp(tp, "sys_enter") || !strcmp(tp, "sys_exit")) {
		*group = "raw_syscalls";
		return FSL_FAM_DIROPS;
	}
	if (!strcmp(tp, "sched_switch") || !strcmp(tp, "sched_waking") ||
	    !strcmp(tp, "sched_wakeup_new")) {
		*group = "sched";
		return FSL_FAM_OFFCPU;
	}
	/* the offcpu family's mark of what a writeback wait waits on */
	if (!strcmp(tp, "folio_wait_writeback") || !strcmp(tp, "writeback_queue")) {
		*group = "writeback";
		return FSL_FAM_OFFCPU;
	}
	if (!strncmp(tp, "sched_process_", 14)) {
		*group = "sched";
		return FSL_FAM_PROC;
	}
	if (is_scope_tp(tp)) {
		*group = "xfs";
		return FSL_FAM_DIROPS;
	}
	if (!strncmp(tp, "io_uring_", 9)) {
		*group = "io_uring";
		return FSL_FAM_DIROPS;
	}
	/* a direct-I/O write is one record, dio_write, from its begin and completion */
	if (!strcmp(tp, "iomap_dio_rw_begin") || !strcmp(tp, "iomap_dio_complete")) {
		*group = "iomap";
		return FSL_FAM_WRITEBACK;
	}
	n = fsl_schema_builtin_all(&d);
	for (i = 0; i < n; i++) {
		if (d[i].name && d[i].tp_group && !strcmp(d[i].name, tp)) {
			*group = d[i].tp_group;
			return d[i].family;
		}
	}
	return -1;
}

static void add_missing(struct fsl_collector *c, const char *group, const char *name)
{
	size_t n = strlen(c->missing);

	if (strstr(c->missing, name))
		return;
	snprintf(c->missing + n, sizeof(c->missing) - n, "%s%s:%s", n ? "," : "", group, name);
}

/*
 * The kernel may load fentry programs (BPF_PROG_TYPE_TRACING) and still
 * refuse to attach them; only a real attach answers the question.
 */
static int probe_fentry(struct btf *vmlinux)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, popts);
	int id, prog, link;

	if (!vmlinux)
		return 0;
	id = btf__find_by_name_kind(vmlinux, "ext4_lookup", BTF_KIND_FUNC);
	if (id < 0)
		id = btf__find_by_name_kind(vmlinux, "vfs_read", BTF_KIND_FUNC);
	if (id < 0)
		return 0;
	popts.expected_attach_type = BPF_TRACE_FENTRY;
	popts.attach_btf_id = id;
	prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "fsl_fentry_probe", "GPL", insns, 2, &popts);
	if (prog < 0)
		return 0;
	link = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
	close(prog);
	if (link < 0)
		return 0;
	close(link);
	return 1;
}

static uint64_t ring_size(uint64_t want)
{
	uint64_t sz = 4096;

	if (!want)
		want = FSL_COLLECTOR_RING_DEFAULT;
	while (sz < want && sz < (1ull << 31))
		sz <<= 1;
	return sz;
}

/* The tracepoint of a program and its kind: 'b' tp_btf, 'r' raw_tp, 't' classic. */
static const char *prog_tp(struct bpf_program *prog, char *kind, char *grp, size_t glen)
{
	const char *sec = bpf_program__section_name(prog), *slash;

	if (!strncmp(sec, "tp_btf/", 7) || !strncmp(sec, "raw_tp/", 7)) {
		*kind = sec[0] == 't' ? 'b' : 'r';
		grp[0] = 0;
		return sec + 7;
	}
	if (!strncmp(sec, "tracepoint/", 11) && (slash = strchr(sec + 11, '/'))) {
		*kind = 't';
		snprintf(grp, glen, "%.*s", (int)(slash - (sec + 11)), sec + 11);
		return slash + 1;
	}
	return NULL;
}

/* Is there a program of this kind ('r' = tp_btf/raw_tp pair, 't' = classic) for tp? */
static int has_variant(struct bpf_object *obj, const char *tp, char want)
{
	struct bpf_program *prog;
	char kind, grp[64];

	bpf_object__for_each_program(prog, obj) {
		const char *t = prog_tp(prog, &kind, grp, sizeof(grp));

		if (t && !strcmp(t, tp) && (kind == want || (want == 'r' && kind == 'b')))
			return 1;
	}
	return 0;
}

/* The cpu family's sampling program (a perf-event program, no tracepoint). */
static int is_cpu_prog(struct bpf_program *prog)
{
	return !strcmp(bpf_program__name(prog), "cpu_sample");
}

/* One of the two programs dirops attaches to each followed syscall's tracepoints. */
static int is_sc_prog(struct bpf_program *prog)
{
	const char *name = bpf_program__name(prog);

	return !strcmp(name, "tp_dirop_enter") || !strcmp(name, "tp_dirop_exit");
}

/*
 * The per-syscall tracepoints of a followed syscall: sys_enter_NAME and
 * sys_exit_NAME, or with the "new" of the kernel's function name (stat and
 * lstat are sys_newstat and sys_newlstat on x86-64). Fills tp with the NAME
 * part; 0 if the kernel has neither.
 */
static int sc_tp_name(const struct fsl_collector *c, const char *name, char *tp, size_t len)
{
	/* sendfile is sys_sendfile64 on 64-bit */
	static const char *pre[] = { "", "new", "" }, *suf[] = { "", "", "64" };
	char en[96], ex[96];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		snprintf(tp, len, "%s%s%s", pre[i], name, suf[i]);
		snprintf(en, sizeof(en), "sys_enter_%s", tp);
		snprintf(ex, sizeof(ex), "sys_exit_%s", tp);
		if (tp_exists(c->tracefs, "syscalls", en) == 1 &&
		    tp_exists(c->tracefs, "syscalls", ex) == 1)
			return 1;
	}
	return 0;
}

/*
 * Programs of a family on another family's tracepoint (or one no record is
 * named after): writeback counts what each ext4 writeback call wrote from
 * the call's start (ext4_writepages, alloc's) and the bios it submits.
 */
static int prog_family(struct bpf_program *prog, const char *tp, const char **group)
{
	if (!strstr(bpf_program__name(prog), "wbcount"))
		return -1;
	*group = !strcmp(tp, "block_bio_queue") ? "block" : "ext4";
	return FSL_FAM_WRITEBACK;
}

/*
 * Does a program on a tracepoint of this group fit the target's
 * filesystem? ext4's and jbd2's only on ext4, XFS's only on XFS (journal
 * and alloc, and writeback's ext4_writepages_result); with no target, both
 * (each filters on nothing but the device).
 */
static int fs_fits(int fs, int fam, const char *group)
{
	int xfs = !strcmp(group, "xfs");

	if (fam != FSL_FAM_JOURNAL && fam != FSL_FAM_ALLOC &&
	    strcmp(group, "ext4") && strcmp(group, "jbd2") && !xfs)
		return 1;
	switch (fs) {
	case FSL_COLLECTOR_FS_ANY:
		return 1;
	case FSL_COLLECTOR_FS_XFS:
		return xfs;
	case FSL_COLLECTOR_FS_EXT4:
		return !xfs;
	default:
		return 0;
	}
}

/*
 * Decide autoload for every program; returns the number left to load.
 * Per tracepoint: tp_btf where the kernel's BTF describes it (unless
 * use_btf is 0), else raw_tp; the classic tracepoint only with classic set
 * or where no raw variant exists.
 */
static int choose_programs(struct fsl_collector *c, const char *tracefs, struct btf *vmlinux,
			   int use_btf, int classic)
{
	struct bpf_program *prog;
	uint32_t want = c->opts.families ? c->opts.families : FSL_FAM_ALL;
	int n = 0;

	c->families = 0;
	c->nbtf = c->nraw = c->ntp = 0;
	bpf_object__for_each_program(prog, c->skel->obj) {
		const char *group = NULL, *tp;
		char kind, grp[64], t[160];
		int fam, on, exists;

		tp = prog_tp(prog, &kind, grp, sizeof(grp));
		if (!tp && is_cpu_prog(prog)) {
			/* it reads task storage and marks as tp_btf programs do */
			on = (want & (1u << FSL_FAM_CPU)) && use_btf && vmlinux;
			bpf_program__set_autoload(prog, on);
			if (on) {
				c->families |= 1u << FSL_FAM_CPU;
				n++;
			}
			continue;
		}
		if (!tp) {
			/* the per-syscall dirops programs, attached by fsl_collector__start */
			on = is_sc_prog(prog) && c->sc_tp && (want & (1u << FSL_FAM_DIROPS));
			bpf_program__set_autoload(prog, on);
			if (on) {
				c->families |= 1u << FSL_FAM_DIROPS;
				n++;
			}
			continue;
		}
		fam = prog_family(prog, tp, &group);
		if (fam < 0)
			fam = tp_family(tp, &group);
		if (kind == 't')
			group = grp;
		on = fam >= 0 && (want & (1u << fam));
		/* fork keeps the tracked map even with the proc family off */
		if (c->opts.follow && !strcmp(tp, "sched_process_fork"))
			on = 1;
		/* waking the jbd2 thread is the journal's commit kick */
		if (c->opts.dev && (want & (1u << FSL_FAM_JOURNAL)) &&
		    !strcmp(tp, "sched_waking"))
			on = 1;
		if (!group || (c->sc_tp && !strcmp(group, "raw_syscalls")))
			on = 0;
		if (on && !fs_fits(c->opts.fs, fam, group))
			on = 0;
		/*
		 * With a target, a path call is judged by the directory changes
		 * the filesystems trace (probes/scope.bpf.h): ext4's journal
		 * handles and XFS's namespace events, on whatever filesystem
		 * (the call may have left the target); without one, nothing
		 * reads them.
		 */
		if (is_scope_tp(tp))
			on = on && c->opts.dev;
		if (!c->opts.full && fsl_replay_only_tp(tp))
			on = 0;
		if (is_jstart_tp(tp) && c->opts.dev && (want & (1u << FSL_FAM_DIROPS)))
			on = 1;
		/* a kernel built without XFS, nothing targeted: not "missing" */
		if (on && !strcmp(group, "xfs") &&
		    (c->opts.fs == FSL_COLLECTOR_FS_ANY || is_scope_tp(tp)) &&
		    tp_exists(tracefs, "xfs", "") == 0)
			on = 0;
		if (on && is_jstart_tp(tp) && !(want & (1u << FSL_FAM_JOURNAL)) &&
		    tp_exists(tracefs, "ext4", "") == 0)
			on = 0;
		/* a kernel built without io_uring has no requests to follow */
		if (on && !strcmp(group, "io_uring") && tp_exists(tracefs, "io_uring", "") == 0)
			on = 0;
		exists = on ? tp_exists(tracefs, group, tp) : 0;
		snprintf(t, sizeof(t), "btf_trace_%s", tp);
		if (on && exists < 0)	/* no tracefs: ask BTF */
			exists = vmlinux && btf__find_by_name_kind(vmlinux, t, BTF_KIND_TYPEDEF) >= 0;
		if (on && exists != 1) {
			/*
			 * The older/newer twin of a renamed event is not
			 * "missing"; nor are sparse inode chunk merges on a
			 * kernel before sparse inodes (4.2): no filesystem
			 * it mounts can have them.
			 */
			if (strcmp(tp, "ext4_da_write_pages") &&
			    strncmp(tp, "ext4_da_write_folios", 20) &&
			    strncmp(tp, "xfs_irec_merge_", 15))
				add_missing(c, group, tp);
			on = 0;
		}
		if (on && kind != 't') {
			int have_btf = use_btf && vmlinux &&
				       btf__find_by_name_kind(vmlinux, t, BTF_KIND_TYPEDEF) >= 0;

			if (classic && has_variant(c->skel->obj, tp, 't'))
				on = 0;
			else	/* keep exactly one of the pair */
				on = kind == 'b' ? have_btf : !have_btf;
		} else if (on) {
			on = classic || !has_variant(c->skel->obj, tp, 'r');
		}
		bpf_program__set_autoload(prog, on);
		if (!on)
			continue;
		(kind == 'b' ? c->nbtf++ : kind == 'r' ? c->nraw++ : c->ntp++);
		if (((fam != FSL_FAM_PROC && fam != FSL_FAM_OFFCPU) || (want & (1u << fam))) &&
		    !(is_jstart_tp(tp) && !(want & (1u << fam))))
			c->families |= 1u << fam;
		n++;
	}
	/* neither da_write variant exists: say which one was expected */
	if ((want & (1u << FSL_FAM_ALLOC)) && tracefs &&
	    (c->opts.fs == FSL_COLLECTOR_FS_ANY || c->opts.fs == FSL_COLLECTOR_FS_EXT4) &&
	    tp_exists(tracefs, "ext4", "ext4_da_write_pages") != 1 &&
	    tp_exists(tracefs, "ext4", "ext4_da_write_folios_start") != 1)
		add_missing(c, "ext4", "ext4_da_write_folios_start");
	return n;
}

/*
 * The pid of the journal thread of the filesystem on dev ("jbd2/loop0-8"),
 * 0 when it has none (not ext4, no journal, an external journal's name).
 */
static uint32_t jbd2_pid(uint32_t dev)
{
	char name[64], want[80], p[300], comm[32];
	struct dirent *d;
	uint32_t pid = 0;
	size_t n;
	DIR *dp;
	FILE *f;

	if (!dev || !fsl_dev_kname(dev, name, sizeof(name)))
		return 0;
	n = (size_t)snprintf(want, sizeof(want), "jbd2/%s-", name);
	dp = opendir("/proc");
	if (!dp)
		return 0;
	while (!pid && (d = readdir(dp))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(p, sizeof(p), "/proc/%s/comm", d->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, want, n))
			pid = (uint32_t)strtoul(d->d_name, NULL, 10);
		fclose(f);
	}
	closedir(dp);
	return pid;
}

/*
 * The names the target's kernel threads go by (probes/offcpu.bpf.h): its
 * loop device's workqueue (the disk's name), its bdi (MAJ:MIN of the disk),
 * its XFS workqueues ("xfs-buf/NAME", NAME the fs device's) and log pusher.
 */
static void kthread_names(struct fslens_bpf *skel, const struct fsl_collector_opts *o)
{
	char disk[64], fsdev[64];

	if (!o->dev)
		return;
	if (o->blkdev && fsl_dev_kname(o->blkdev, disk, sizeof(disk))) {
		if (!strncmp(disk, "loop", 4) && strlen(disk) < sizeof(skel->rodata->targ_loop_wq))
			snprintf((char *)skel->rodata->targ_loop_wq, sizeof(skel->rodata->targ_loop_wq),
				 "%.31s", disk);
		snprintf((char *)skel->rodata->targ_bdi, sizeof(skel->rodata->targ_bdi), "%u:%u",
			 FSL_MAJOR(o->blkdev), FSL_MINOR(o->blkdev));
	}
	if (o->fs == FSL_COLLECTOR_FS_XFS && fsl_dev_kname(o->dev, fsdev, sizeof(fsdev)) &&
	    strlen(fsdev) < 20) {
		snprintf((char *)skel->rodata->targ_xfs_sfx, sizeof(skel->rodata->targ_xfs_sfx),
			 "/%.20s", fsdev);
		snprintf((char *)skel->rodata->targ_xfsaild, sizeof(skel->rodata->targ_xfsaild),
			 "xfsaild/%.20s", fsdev);
	}
}

static int open_and_load(struct fsl_collector *c, const char *tracefs, struct btf *vmlinux,
			 int use_btf, int classic)
{
	const struct fsl_collector_opts *o = &c->opts;
	uint32_t want = o->families ? o->families : FSL_FAM_ALL;
	struct fslens_bpf *skel;
	int err;

	skel = fslens_bpf__open();
	if (!skel)
		return errno ? -errno : -EINVAL;
	c->skel = skel;
	skel->rodata->targ_dev = o->dev;
	skel->rodata->targ_blkdev = o->blkdev;
	skel->rodata->targ_pids = o->pid || o->npids;
	skel->rodata->targ_tids = o->ntids > 0;
	skel->rodata->targ_cgroup = o->cgroup != NULL;
	skel->rodata->targ_follow = o->follow;
	skel->rodata->targ_floor = o->floor == FSL_FLOOR_SYSCALLS;
	skel->rodata->targ_floor_all = o->floor == FSL_FLOOR_ALL;
	/* the syscall programs mark the waits; offcpu records them */
	skel->rodata->targ_aio = (want & (1u << FSL_FAM_DIROPS)) && (want & (1u << FSL_FAM_OFFCPU));
	skel->rodata->targ_proc = !!(want & (1u << FSL_FAM_PROC));
	skel->rodata->targ_offcpu_all = o->offcpu_all;
	skel->rodata->targ_min_wait_ns = o->min_wait_ns;
	skel->rodata->targ_tt_period_ns = o->tasktime_period_ns ? o->tasktime_period_ns :
					  FSL_COLLECTOR_TT_PERIOD_DEFAULT;
	skel->rodata->targ_o_creat = O_CREAT;
	skel->rodata->targ_nr_fsync = __NR_fsync;
	skel->rodata->targ_nr_fdatasync = __NR_fdatasync;
	skel->rodata->targ_o_direct = O_DIRECT;
	skel->rodata->targ_o_append = O_APPEND;
	skel->rodata->targ_self = getpid();
	skel->rodata->targ_jbd2_pid = jbd2_pid(o->dev);
	kthread_names(skel, o);
	skel->rodata->targ_jbd2_kick = !!(want & (1u << FSL_FAM_JOURNAL));
	skel->rodata->targ_journal = !!(want & (1u << FSL_FAM_JOURNAL));
	/* without --full, the journal's handles are summed in the kernel */
	skel->rodata->targ_hagg = !o->full && (want & (1u << FSL_FAM_JOURNAL));
	skel->rodata->targ_wakeup_bytes = ring_size(o->ring_bytes) / 8;
	c->cpu_shift = 27;
	c->cpu_period_ns = 1000000000ull / (o->cpu_freq ? o->cpu_freq : FSL_COLLECTOR_CPU_FREQ_DEFAULT);
	skel->rodata->targ_cpu_slot_shift = c->cpu_shift;

	/* a sample in a path call waits for the call's verdict (probes/cpupend.bpf.h) */
	skel->rodata->targ_cpu_pend = o->dev && (want & (1u << FSL_FAM_CPU));

	err = bpf_map__set_max_entries(skel->maps.events, ring_size(o->ring_bytes));
	if (!err && !(want & (1u << FSL_FAM_CPU)))
		err = bpf_map__set_max_entries(skel->maps.cpu_counts, 1);
	if (!err && !skel->rodata->targ_cpu_pend)
		err = bpf_map__set_max_entries(skel->maps.cpu_pend, 1);
	/*
	 * The handle sums hold the running and committing transactions' sites
	 * of the filesystems recorded, and each commit's flush walks every
	 * bucket: one target's few dozen sites fit in 256 (about 1.5 us a
	 * flush), every ext4 mounted gets 1024.
	 */
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.hagg, o->dev ? 256 : 1024);
	/* writeback keeps the stack each writeback call returned through */
	if (!err && !(want & ((1u << FSL_FAM_OFFCPU) | (1u << FSL_FAM_CPU) |
			      (1u << FSL_FAM_WRITEBACK)))) {
		err = bpf_map__set_max_entries(skel->maps.stacks, 1);
		if (!err)
			err = bpf_map__set_max_entries(skel->maps.stacks2, 1);
	}
	if (!err && !(want & (1u << FSL_FAM_OFFCPU)))
		err = bpf_map__set_max_entries(skel->maps.offcpu_start, 1);
	/*
	 * Test hook: a stack map of a few buckets makes most stacks collide, so
	 * a test can check that the second map keeps every wait's stack.
	 */
	if (!err && (want & (1u << FSL_FAM_OFFCPU)) && getenv("FSLENS_TEST_STACK_BUCKETS"))
		err = bpf_map__set_max_entries(skel->maps.stacks,
					       atoi(getenv("FSLENS_TEST_STACK_BUCKETS")) ?: 1);
	/* dirops keeps its record in flight in task storage on tp_btf, in a hash on raw_tp */
	if (!err && (use_btf || !(want & (1u << FSL_FAM_DIROPS))))
		err = bpf_map__set_max_entries(skel->maps.dirop_inflight, 1);
	if (!err && (use_btf || !(want & (1u << FSL_FAM_DIROPS))))
		err = bpf_map__set_max_entries(skel->maps.data_inflight, 1);
	if (!err && !use_btf)
		err = bpf_map__set_autocreate(skel->maps.dirop_task, false);
	if (!err && !use_btf)
		err = bpf_map__set_autocreate(skel->maps.data_task, false);
	if (err)
		return err;
	if (choose_programs(c, tracefs, vmlinux, use_btf, classic) == 0)
		return -ENOENT;
	return fslens_bpf__load(skel);
}

/* -p, --tid and --cgroup into their maps (after load). */
static int fill_filters(struct fsl_collector *c)
{
	const struct fsl_collector_opts *o = &c->opts;
	int pfd = bpf_map__fd(c->skel->maps.pids), tfd = bpf_map__fd(c->skel->maps.tids);
	uint8_t one = 1;
	unsigned int i;

	if (o->pid && bpf_map_update_elem(pfd, &o->pid, &one, BPF_ANY))
		return -errno;
	for (i = 0; i < o->npids; i++)
		if (bpf_map_update_elem(pfd, &o->pids[i], &one, BPF_ANY))
			return -errno;
	for (i = 0; i < o->ntids; i++)
		if (bpf_map_update_elem(tfd, &o->tids[i], &one, BPF_ANY))
			return -errno;
	if (o->cgroup) {
		uint32_t zero = 0;
		int cfd = open(o->cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e = 0;

		if (cfd < 0)
			return -errno;
		if (bpf_map_update_elem(bpf_map__fd(c->skel->maps.cgroup_filter), &zero, &cfd, BPF_ANY))
			e = -errno;
		close(cfd);
		return e;
	}
	return 0;
}

static int fill_dirop_table(struct fsl_collector *c)
{
	const struct fsl_dirop_sc_entry *t;
	unsigned int i, n = fsl_dirop_table(&t);
	int fd = bpf_map__fd(c->skel->maps.dirop_sc);

	for (i = 0; i < n; i++) {
		uint32_t key = t[i].nr;

		if (bpf_map_update_elem(fd, &key, &t[i].sc, BPF_ANY))
			return -errno;
	}
	return 0;
}

struct fsl_collector *fsl_collector__new(const struct fsl_collector_opts *opts, int *err)
{
	struct fsl_collector *c = calloc(1, sizeof(*c));
	struct btf *vmlinux;
	const char *tracefs;
	int use_btf, classic, e;

	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	c->opts = *opts;
	fsl_map__init(&c->cpu_ids, sizeof(uint64_t));
	log_opts = &c->opts;
	libbpf_set_print(libbpf_log);

	tracefs = tracefs_dir();
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		e = -ENOENT;	/* no BTF: CO-RE has nothing to relocate against */
		goto fail;
	}
	c->fentry = probe_fentry(vmlinux);
	/*
	 * tp_btf, else raw_tp, else the classic tracepoints: each step is
	 * tried when the kernel refuses the previous one at load.
	 */
	use_btf = !opts->force_raw_tp;
	classic = opts->force_classic;
	c->tracefs = tracefs;
	/*
	 * --syscall-tp: dirops on per-syscall tracepoints (task storage, as on
	 * tp_btf), if this kernel has them; raw_syscalls otherwise.
	 */
	c->sc_tp = use_btf && opts->syscall_tp &&
		   tp_exists(tracefs, "syscalls", "sys_enter_openat") == 1;
	e = open_and_load(c, tracefs, vmlinux, use_btf, classic);
	if (e && e != -ENOENT && c->sc_tp) {
		fslens_bpf__destroy(c->skel);
		c->skel = NULL;
		c->missing[0] = 0;
		c->sc_tp = 0;
		e = open_and_load(c, tracefs, vmlinux, use_btf, classic);
	}
	c->sc_tp = c->sc_tp && !e;
	if (e && e != -ENOENT && use_btf) {
		fslens_bpf__destroy(c->skel);
		c->skel = NULL;
		c->missing[0] = 0;
		use_btf = 0;
		e = open_and_load(c, tracefs, vmlinux, use_btf, classic);
	}
	if (e && e != -ENOENT && !classic) {
		fslens_bpf__destroy(c->skel);
		c->skel = NULL;
		c->missing[0] = 0;
		e = open_and_load(c, tracefs, vmlinux, !opts->force_raw_tp, 1);
	}
	btf__free(vmlinux);
	if (e)
		goto fail;
	if (c->sc_tp) {
		const struct fsl_dirop_sc_entry *t;
		unsigned int i, n = fsl_dirop_table(&t);
		char tp[96];

		/* the tracepoints the two programs go on, found once */
		for (i = 0; i < n; i++) {
			if (c->nsc < sizeof(c->sc_name) / sizeof(c->sc_name[0]) &&
			    sc_tp_name(c, t[i].name, c->sc_name[c->nsc], sizeof(c->sc_name[0]))) {
				c->nsc++;
			} else {
				snprintf(tp, sizeof(tp), "sys_enter_%s", t[i].name);
				add_missing(c, "syscalls", tp);
			}
		}
		c->ntp += 2 * c->nsc;
	}
	{
		size_t n = 0;

		c->mode[0] = 0;
		if (c->nbtf)
			n += snprintf(c->mode + n, sizeof(c->mode) - n, "tp_btf");
		if (c->nraw)
			n += snprintf(c->mode + n, sizeof(c->mode) - n, "%sraw_tp", n ? "+" : "");
		if (c->ntp)
			n += snprintf(c->mode + n, sizeof(c->mode) - n, "%stracepoint",
				      n ? "+" : "");
		snprintf(c->counts, sizeof(c->counts), "tp_btf %d, raw_tp %d, tracepoint %d%s",
			 c->nbtf, c->nraw, c->ntp,
			 c->sc_tp ? "; dirops on per-syscall tracepoints" : "");
	}
	if ((c->families & (1u << FSL_FAM_DIROPS)) && (e = fill_dirop_table(c)))
		goto fail;
	if ((e = fill_filters(c)))
		goto fail;
	return c;
fail:
	fsl_collector__free(c);
	*err = e < 0 ? e : -e;
	return NULL;
}

static int add_link(struct fsl_collector *c, struct bpf_link *l)
{
	if (!l)
		return errno ? -errno : -EINVAL;
	if (c->nlinks == MAX_LINKS) {
		bpf_link__destroy(l);
		return -E2BIG;
	}
	c->links[c->nlinks++] = l;
	return 0;
}

/* The per-syscall dirops programs, on each followed syscall's tracepoints. */
static int attach_sc(struct fsl_collector *c, struct bpf_program *prog, const char *dir)
{
	unsigned int i;
	char tp[96];
	int e;

	for (i = 0; i < c->nsc; i++) {
		snprintf(tp, sizeof(tp), "sys_%s_%s", dir, c->sc_name[i]);
		e = add_link(c, bpf_program__attach_tracepoint(prog, "syscalls", tp));
		if (e)
			return e;
	}
	return 0;
}

static int add_link_cb(void *ctx, struct bpf_link *l)
{
	return add_link(ctx, l);
}

/*
 * The sampling program on a cpu-clock event of every online CPU, at the
 * period asked. A kernel or VM without the event loses the family (said in
 * the missing list), not the recording.
 */
static int attach_cpu(struct fsl_collector *c, struct bpf_program *prog)
{
	int n = fsl_attach_cpu_clock(prog, c->cpu_period_ns, add_link_cb, c);

	if (n > 0) {
		c->ncpu_fds = n;
		return 0;
	}
	add_missing(c, "perf", "cpu-clock");
	c->families &= ~(1u << FSL_FAM_CPU);
	return n;
}

/* CLOCK_MONOTONIC in ns: the probes' bpf_ktime_get_ns() clock. */
static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
}

int fsl_collector__start(struct fsl_collector *c)
{
	struct bpf_program *prog;

	c->cpu_t0 = mono_ns();
	c->cpu_next_slot = c->cpu_t0 >> c->cpu_shift;
	bpf_object__for_each_program(prog, c->skel->obj) {
		int e;

		if (!bpf_program__autoload(prog))
			continue;
		if (is_cpu_prog(prog)) {
			/* sampling is an extra: without it the recording goes on */
			attach_cpu(c, prog);
			continue;
		}
		if (is_sc_prog(prog))
			e = attach_sc(c, prog, strstr(bpf_program__name(prog), "enter") ? "enter" :
				      "exit");
		else
			e = add_link(c, bpf_program__attach(prog));
		if (e) {
			while (c->nlinks)
				bpf_link__destroy(c->links[--c->nlinks]);
			return e;
		}
	}
	return 0;
}

int fsl_collector__track(struct fsl_collector *c, uint32_t tgid)
{
	uint8_t one = 1;

	if (bpf_map__update_elem(c->skel->maps.tracked, &tgid, sizeof(tgid), &one, 1, BPF_ANY))
		return -errno;
	return 0;
}

/* Mirrors struct cpu_key and struct cpu_pend of probes/cpupend.bpf.h. */
#define CPU_STACK_DEPTH 48
struct cpu_key {
	uint64_t slot;
	uint32_t tid, tgid;
	uint32_t flags, nframes;
	uint64_t ips[CPU_STACK_DEPTH];
};

struct cpu_pend {
	struct cpu_key k;
	uint64_t n;
};

/*
 * The id of a sampled stack: the same frames always get the same one, from
 * FSL_STACK_CPU_BASE up, looked up by fsl_collector__stack like the stack
 * map's. FNV-1a over the frames finds it; equal frames confirm it (a hash
 * collision takes the next key).
 */
static int32_t cpu_stack_id(struct fsl_collector *c, const struct cpu_key *k)
{
	uint64_t h = 0xcbf29ce484222325ull, *slot;
	uint32_t n = k->nframes < CPU_STACK_DEPTH ? k->nframes : CPU_STACK_DEPTH, i;
	int fresh;

	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		h ^= k->ips[i];
		h *= 0x100000001b3ull;
	}
	for (;; h++) {
		struct cpu_stack *st;

		slot = fsl_map__put(&c->cpu_ids, h, &fresh);
		if (!slot)
			return -1;
		if (!fresh) {
			st = &c->cpu_stacks[*slot - 1];
			if (st->n == n && !memcmp(st->ips, k->ips, n * sizeof(uint64_t)))
				return FSL_STACK_CPU_BASE + (int32_t)(*slot - 1);
			continue;
		}
		if (c->ncpu_stacks == c->cpu_stacks_cap) {
			size_t cap = c->cpu_stacks_cap ? 2 * c->cpu_stacks_cap : 256;
			struct cpu_stack *ns = realloc(c->cpu_stacks, cap * sizeof(*ns));

			if (!ns || c->ncpu_stacks >= (size_t)(INT32_MAX - FSL_STACK_CPU_BASE)) {
				free(ns == c->cpu_stacks ? NULL : ns);
				fsl_map__del(&c->cpu_ids, h);
				return -1;
			}
			c->cpu_stacks = ns;
			c->cpu_stacks_cap = cap;
		}
		st = &c->cpu_stacks[c->ncpu_stacks];
		st->ips = malloc(n * sizeof(uint64_t));
		if (!st->ips) {
			fsl_map__del(&c->cpu_ids, h);
			return -1;
		}
		memcpy(st->ips, k->ips, n * sizeof(uint64_t));
		st->n = n;
		*slot = ++c->ncpu_stacks;
		return FSL_STACK_CPU_BASE + (int32_t)(c->ncpu_stacks - 1);
	}
}

/* One record of count samples of key k. */
static int cpu_emit(struct fsl_collector *c, const struct cpu_key *k, uint64_t count, uint64_t now,
		    fsl_collector_event_fn fn, void *ctx)
{
	uint64_t from = k->slot << c->cpu_shift, to = from + (1ull << c->cpu_shift);
	struct fsl_ev_cpu ev;

	memset(&ev, 0, sizeof(ev));
	/*
	 * The slot, within the recording: the samples of the first slot
	 * were all taken after the attach, those of the last (drained at
	 * the end) before now, so a window never sees them outside it.
	 */
	if (from < c->cpu_t0)
		from = c->cpu_t0;
	if (to > now)
		to = now;
	if (to <= from)
		to = from + 1;
	ev.hdr.ts = to;	/* FSL_CPU_TS_END */
	ev.hdr.pid = k->tgid;
	ev.hdr.tid = k->tid;
	ev.hdr.type = FSL_EV_CPU;
	ev.hdr.size = sizeof(ev);
	ev.slot_ns = to - from;
	ev.period_ns = c->cpu_period_ns;
	ev.stack_id = cpu_stack_id(c, k);
	ev.count = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
	ev.flags = k->flags | FSL_CPU_TS_END;
	return fn(ctx, &ev.hdr);
}

/*
 * At the end (the probes detached): the samples still held for a path
 * call's verdict, of threads whose call never returned, unmarked.
 */
static int cpu_pend_drain(struct fsl_collector *c, uint64_t now, fsl_collector_event_fn fn,
			  void *ctx)
{
	int fd = bpf_map__fd(c->skel->maps.cpu_pend), e = 0;
	uint32_t tid, *prev = NULL, *tids = NULL;
	size_t n = 0, cap = 0, i;
	struct cpu_pend p;

	while (!bpf_map_get_next_key(fd, prev, &tid)) {
		if (n == cap) {
			uint32_t *nt = realloc(tids, (cap = cap ? 2 * cap : 64) * sizeof(*nt));

			if (!nt) {
				free(tids);
				return -ENOMEM;
			}
			tids = nt;
		}
		tids[n] = tid;
		prev = &tids[n++];
	}
	for (i = 0; i < n && !e; i++)
		if (!bpf_map_lookup_and_delete_elem(fd, &tids[i], &p) && p.n)
			e = cpu_emit(c, &p.k, p.n, now, fn, ctx);
	free(tids);
	return e;
}

/*
 * The sample counts of every slot before `upto` (all with upto 0) out of
 * the kernel's map, one record each. Keys are gathered first: deleting
 * while walking a hash can skip or repeat keys. A count the program adds
 * after its key was taken starts the key again and comes with the next
 * drain of that slot, never lost.
 */
static int cpu_drain(struct fsl_collector *c, uint64_t upto, fsl_collector_event_fn fn, void *ctx)
{
	int fd = bpf_map__fd(c->skel->maps.cpu_counts), e = 0;
	struct cpu_key *keys = NULL, k, *prev = NULL;
	size_t n = 0, cap = 0, i;
	uint64_t now;

	if (!(c->families & (1u << FSL_FAM_CPU)))
		return 0;
	while (!bpf_map_get_next_key(fd, prev, &k)) {
		if (n == cap) {
			struct cpu_key *nk = realloc(keys, (cap = cap ? 2 * cap : 256) * sizeof(*nk));

			if (!nk) {
				free(keys);
				return -ENOMEM;
			}
			keys = nk;
		}
		keys[n] = k;
		prev = &keys[n++];
	}
	now = mono_ns();
	for (i = 0; i < n && !e; i++) {
		uint64_t count;

		if (upto && keys[i].slot >= upto)
			continue;
		if (bpf_map_lookup_and_delete_elem(fd, &keys[i], &count))
			continue;
		e = cpu_emit(c, &keys[i], count, now, fn, ctx);
	}
	free(keys);
	if (!upto && !e)
		e = cpu_pend_drain(c, now, fn, ctx);
	return e;
}

/* Finished slots, once the clock has entered a new one. */
static int cpu_drain_due(struct fsl_collector *c, fsl_collector_event_fn fn, void *ctx)
{
	uint64_t slot;
	int e;

	if (!(c->families & (1u << FSL_FAM_CPU)))
		return 0;
	slot = mono_ns() >> c->cpu_shift;
	if (slot <= c->cpu_next_slot)
		return 0;
	e = cpu_drain(c, slot, fn, ctx);
	if (!e)
		c->cpu_next_slot = slot;
	return e;
}

static int rb_event(void *ctx, void *data, size_t size)
{
	struct fsl_collector *c = ctx;
	const struct fsl_hdr *h = data;

	if (size < sizeof(*h) || h->size > size || h->size < sizeof(*h))
		return 0;	/* cannot happen with our probes; never pass garbage on */
	c->fn_ret = c->fn(c->fn_ctx, h);
	return c->fn_ret ? -ECANCELED : 0;
}

static int ensure_rb(struct fsl_collector *c)
{
	if (c->rb)
		return 0;
	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events), rb_event, c, NULL);
	return c->rb ? 0 : (errno ? -errno : -ENOMEM);
}

int fsl_collector__poll(struct fsl_collector *c, int timeout_ms, fsl_collector_event_fn fn,
			void *ctx)
{
	int n, e = ensure_rb(c);

	if (e)
		return e;
	c->fn = fn;
	c->fn_ctx = ctx;
	c->fn_ret = 0;
	n = ring_buffer__poll(c->rb, timeout_ms);
	/* records submitted without a wakeup are there all the same */
	if (n >= 0) {
		int m = ring_buffer__consume(c->rb);

		n = m < 0 ? m : n + m;
	}
	if (n >= 0) {
		int m = cpu_drain_due(c, fn, ctx);

		if (m) {
			c->fn_ret = m;
			n = -ECANCELED;
		}
	}
	if (n == -ECANCELED && c->fn_ret)
		return c->fn_ret < 0 ? c->fn_ret : -ECANCELED;
	return n;
}

struct detach_job {
	struct bpf_link **links;
	unsigned int n;
};

static void *detach_thread(void *arg)
{
	struct detach_job *j = arg;
	unsigned int i;

	for (i = 0; i < j->n; i++)
		bpf_link__destroy(j->links[i]);
	return NULL;
}

/*
 * Detaching a perf-event tracepoint waits for an RCU grace period each
 * (tens of ms); one after the other, sixty of them take seconds. Their
 * waits overlap when the links are destroyed from several threads.
 */
static void detach_all(struct fsl_collector *c)
{
	enum { NT = 16 };
	struct detach_job jobs[NT];
	pthread_t th[NT];
	int started[NT] = { 0 };
	unsigned int i, per = (c->nlinks + NT - 1) / NT;

	for (i = 0; i < NT && per; i++) {
		unsigned int lo = i * per, hi = lo + per > c->nlinks ? c->nlinks : lo + per;

		if (lo >= hi)
			break;
		jobs[i].links = c->links + lo;
		jobs[i].n = hi - lo;
		started[i] = pthread_create(&th[i], NULL, detach_thread, &jobs[i]) == 0;
		if (!started[i])
			detach_thread(&jobs[i]);
	}
	for (i = 0; i < NT; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	c->nlinks = 0;
}

/*
 * Every entry of a map the detached probes left, handed to one(): the
 * walk the end-of-recording sums share. The probes are detached, so the
 * map no longer moves; an entry gone between its key and its lookup is
 * skipped. Stops at the first non-zero return of one().
 */
struct map_rest {
	fsl_collector_event_fn fn;
	void *ctx;
	uint64_t now;
};

static int map_rest_walk(int fd, size_t ksz, void *val, struct map_rest *r,
			 int (*one)(struct map_rest *r, const void *key, const void *val))
{
	unsigned char key[32], next[32];
	void *prev = NULL;
	int e;

	if (ksz > sizeof(key))
		return -EINVAL;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, ksz);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, val))
			continue;
		e = one(r, key, val);
		if (e)
			return e;
	}
	return 0;
}

/* Mirrors struct tasktime of probes/offcpu.bpf.h. */
struct tasktime_val {
	uint64_t first, since, ns[4];
	uint32_t tgid, state, switches, _pad;
	uint64_t last_emit;
};

/*
 * A thread still alive at the end: its whole-time account, closed at now,
 * as the tasktime record the probes emit for a thread that died.
 */
static int tasktime_one(struct map_rest *r, const void *k, const void *val)
{
	const struct tasktime_val *v = val;
	struct fsl_ev_tasktime ev;
	uint64_t ns[4];

	memcpy(ns, v->ns, sizeof(ns));
	if (r->now > v->since)
		ns[v->state & 3] += r->now - v->since;
	memset(&ev, 0, sizeof(ev));
	ev.hdr.ts = r->now;
	ev.hdr.pid = v->tgid;
	ev.hdr.tid = *(const uint32_t *)k;
	ev.hdr.type = FSL_EV_TASKTIME;
	ev.hdr.size = sizeof(ev);
	ev.first_ts = v->first;
	ev.oncpu_ns = ns[0];
	ev.runq_ns = ns[1];
	ev.blocked_ns = ns[2];
	ev.sleep_ns = ns[3];
	ev.switches = v->switches;
	/* in one state since its last change: what a snapshot says too */
	ev.last_state = v->state & 3;
	ev.state = v->state & 3;
	ev.last_since = v->since;
	return r->fn(r->ctx, &ev.hdr);
}

/* Mirrors struct hagg_key and hagg_val of probes/journal.bpf.h. */
struct hagg_key {
	uint32_t dev, tid, type, line;
};

struct hagg_val {
	uint64_t started, stopped, blocks, wait_ns, max_ns, ip;
};

/*
 * The default tier's handle sums of a transaction that did not reach
 * T_FLUSH before the end (the running one), as the record the probes
 * write at T_FLUSH.
 */
static int hagg_one(struct map_rest *r, const void *k, const void *val)
{
	const struct hagg_key *key = k;
	const struct hagg_val *v = val;
	struct fsl_ev_jbd2_handle_agg ev;

	memset(&ev, 0, sizeof(ev));
	ev.hdr.ts = r->now;
	ev.hdr.type = FSL_EV_JBD2_HANDLE_AGG;
	ev.hdr.size = sizeof(ev);
	ev.dev = key->dev;
	ev.tid = key->tid;
	ev.type = key->type;
	ev.line_no = key->line;
	ev.started = v->started > UINT32_MAX ? UINT32_MAX : (uint32_t)v->started;
	ev.stopped = v->stopped > UINT32_MAX ? UINT32_MAX : (uint32_t)v->stopped;
	ev.blocks = v->blocks;
	ev.wait_ns = v->wait_ns;
	ev.max_ns = v->max_ns;
	ev.ip = v->ip;
	return r->fn(r->ctx, &ev.hdr);
}

/* The sums the probes still hold at the end: handle sums, then thread accounts. */
static int maps_rest(struct fsl_collector *c, fsl_collector_event_fn fn, void *ctx)
{
	struct map_rest r = { .fn = fn, .ctx = ctx, .now = mono_ns() };
	struct tasktime_val tv;
	struct hagg_val hv;
	int e;

	e = map_rest_walk(bpf_map__fd(c->skel->maps.hagg), sizeof(struct hagg_key), &hv, &r,
			  hagg_one);
	if (e)
		return e;
	return map_rest_walk(bpf_map__fd(c->skel->maps.tasktime), sizeof(uint32_t), &tv, &r,
			     tasktime_one);
}

int fsl_collector__stop(struct fsl_collector *c, fsl_collector_event_fn fn, void *ctx)
{
	int n, e = ensure_rb(c);

	detach_all(c);
	if (e)
		return e;
	c->fn = fn;
	c->fn_ctx = ctx;
	c->fn_ret = 0;
	n = ring_buffer__consume(c->rb);
	if (n < 0)
		return n;
	n = cpu_drain(c, 0, fn, ctx);
	if (n)
		return n;
	return maps_rest(c, fn, ctx);
}

void fsl_collector__free(struct fsl_collector *c)
{
	long psz = sysconf(_SC_PAGESIZE);

	if (!c)
		return;
	if (c->cons_pos)
		munmap((void *)c->cons_pos, psz);
	if (c->prod_pos)
		munmap((void *)c->prod_pos, psz);
	while (c->nlinks)
		bpf_link__destroy(c->links[--c->nlinks]);
	ring_buffer__free(c->rb);
	fslens_bpf__destroy(c->skel);
	while (c->ncpu_stacks)
		free(c->cpu_stacks[--c->ncpu_stacks].ips);
	free(c->cpu_stacks);
	fsl_map__free(&c->cpu_ids);
	if (log_opts == &c->opts)
		log_opts = NULL;
	free(c);
}

int fsl_collector__lost(struct fsl_collector *c, uint64_t lost[FSL_FAM__MAX])
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(c->skel->maps.lost);
	uint64_t *v;
	uint32_t k;
	int i;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (k = 0; k < FSL_FAM__MAX; k++) {
		lost[k] = 0;
		if (bpf_map_lookup_elem(fd, &k, v))
			continue;
		for (i = 0; i < ncpu; i++)
			lost[k] += v[i];
	}
	free(v);
	return 0;
}

int fsl_collector__fill(struct fsl_collector *c, uint64_t *used, uint64_t *size)
{
	long psz = sysconf(_SC_PAGESIZE);
	int fd = bpf_map__fd(c->skel->maps.events);
	void *p;

	if (!c->cons_pos) {
		/* page 0 holds the consumer position, page 1 the producer's */
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			return -errno;
		c->cons_pos = p;
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, psz);
		if (p == MAP_FAILED) {
			munmap((void *)c->cons_pos, psz);
			c->cons_pos = NULL;
			return -errno;
		}
		c->prod_pos = p;
		c->rb_size = bpf_map__max_entries(c->skel->maps.events);
	}
	*used = __atomic_load_n(c->prod_pos, __ATOMIC_ACQUIRE) -
		__atomic_load_n(c->cons_pos, __ATOMIC_ACQUIRE);
	*size = c->rb_size;
	return 0;
}

int fsl_collector__stack(struct fsl_collector *c, int32_t id, uint64_t *ips, int max)
{
	uint64_t buf[64] = { 0 };
	int i, n = 0;

	if (id < 0)
		return -ENOENT;
	if (id >= FSL_STACK_CPU_BASE) {
		const struct cpu_stack *st;

		if ((size_t)(id - FSL_STACK_CPU_BASE) >= c->ncpu_stacks)
			return -ENOENT;
		st = &c->cpu_stacks[id - FSL_STACK_CPU_BASE];
		for (i = 0; i < (int)st->n && n < max; i++)
			ips[n++] = st->ips[i];
		return n;
	}
	if (id >= FSL_STACK2_BASE) {
		id -= FSL_STACK2_BASE;
		if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks2), &id, buf))
			return -errno;
	} else if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.stacks), &id, buf)) {
		return -errno;
	}
	for (i = 0; i < 64 && buf[i] && n < max; i++)
		ips[n++] = buf[i];
	return n;
}

const char *fsl_collector__mode(const struct fsl_collector *c)
{
	return c->mode;
}

const char *fsl_collector__attach_counts(const struct fsl_collector *c)
{
	return c->counts;
}

int fsl_collector__fentry(const struct fsl_collector *c)
{
	return c->fentry;
}

const char *fsl_collector__missing(const struct fsl_collector *c)
{
	return c->missing;
}

uint32_t fsl_collector__families(const struct fsl_collector *c)
{
	return c->families;
}
