/* SPDX-License-Identifier: GPL-2.0 */
/* Command layer: the only place that prints diagnostics and decides exit codes. */
#ifndef FSL_CLI_H
#define FSL_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 ok, 1 failure, 2 usage error. */
#define EXIT_USAGE 2

int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_monitor(int argc, char **argv);

/* "fslens: <what>: <strerror(-err)>" on stderr. Returns 1. */
int fsl_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "fslens: cannot open 'PATH': <what fsl_trace_open_strerror says>". Returns 1. */
int fsl_err_open(const char *path, int err);
/*
 * A window (ns from origin, the recording's start; NULL: not given) that
 * holds nothing of the trace: --from at or past its end, or --to 0. Say so
 * ("fslens CMD: --from X s is past the end of 'PATH', which is Y s long")
 * and return 1; else 0. A window that only runs past the end is clipped.
 */
struct fsl_reader;
int fsl_window_check(const char *cmd, const char *path, struct fsl_reader *r, uint64_t origin,
		     const uint64_t *from, const uint64_t *to);
/* Print "fslens <cmd>: <msg> (see 'fslens <cmd> --help')", one line; returns EXIT_USAGE. */
/* --bench-floor[=all|syscalls] (record, monitor): FSL_FLOOR_*, or -1 for another value. */
int fsl_floor_parse(const char *arg);
/* Where --from/--to count from: the recording's start (record.start_ns), else the first event. */
uint64_t fsl_trace_origin(struct fsl_reader *r);
int fsl_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same line, pointing to another place than --help: " (see 'SEE')". */
int fsl_usage_error_see(const char *cmd, const char *see, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The compare library's warn callback: "fslens compare: TRACE: MSG" on stderr. */
void fsl_compare_warn(void *ctx, const char *trace, const char *msg);

struct option;
/*
 * getopt_long for a command: options may come anywhere on the line (a leading
 * '+' in shortopts stops at the first operand instead). A bad option or a
 * missing value is printed once, "fslens CMD: ...", and '?' returned: the
 * caller returns EXIT_USAGE. Set optind = 0 before the first call.
 */
int fsl_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *lo);

/*
 * -d DEV for a command: a device node, a kernel name ("loop0") or "MAJ:MIN",
 * resolved to a device node in node. Says what is wrong and returns -1.
 */
int fsl_dev_arg(const char *cmd, const char *arg, char *node, size_t len);

/*
 * --cgroup PATH for a command: a directory on a cgroup v2 hierarchy. Says
 * what is wrong and returns the exit code (1 no such directory, 2 not
 * cgroup v2), else 0.
 */
int fsl_cgroup_arg(const char *cmd, const char *path);

/*
 * May this process load BPF programs and read kernel stacks? Root, or
 * CAP_SYS_ADMIN, or both CAP_BPF and CAP_PERFMON in the effective set.
 */
int fsl_have_bpf_caps(void);
/* The same decision for a CapEff mask and an euid (fsl_have_bpf_caps' rule). */
int fsl_bpf_caps_ok(uint64_t cap_eff, unsigned int euid);
/* CapEff of a /proc/<pid>/status text: 0, or -ENOENT if the line is missing. */
int fsl_status_cap_eff(const char *status, uint64_t *cap_eff);
#endif
