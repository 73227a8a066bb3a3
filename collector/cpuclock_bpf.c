// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling program on a cpu-clock perf event of every online CPU: the
 * record path's cpu family and the monitor's CPU metric both attach theirs
 * here.
 */
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>
#include "collector_int.h"

int fsl_attach_cpu_clock(struct bpf_program *prog, uint64_t period_ns,
			 int (*add)(void *ctx, struct bpf_link *l), void *ctx)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period_ns,	/* cpu-clock counts ns */
	};
	int ncpu = libbpf_num_possible_cpus(), i, fd, e, n = 0;
	struct bpf_link *l;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	for (i = 0; i < ncpu; i++) {
		fd = syscall(__NR_perf_event_open, &attr, -1, i, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			if (errno == ENODEV || errno == EINVAL)
				continue;	/* a possible CPU that is not online */
			return -errno;
		}
		l = bpf_program__attach_perf_event(prog, fd);
		if (!l) {
			e = errno ? -errno : -EINVAL;
			close(fd);
			return e;
		}
		e = add(ctx, l);	/* the link closes the event's fd */
		if (e)
			return e;
		n++;
	}
	return n ? n : -ENODEV;
}
