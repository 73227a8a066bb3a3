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

/* "fslens: <what>: <strerror(-err)>" on stderr. Returns 1. */
int fsl_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "fslens: cannot open 'PATH': <what fsl_trace_open_strerror says>". Returns 1. */
int fsl_err_open(const char *path, int err);
/*
 * A --from (ns from origin, the recording's start) past the trace's end: say
 * so ("fslens CMD: --from X s is past the end of 'PATH', which is Y s long")
 * and return 1; else 0. A window that only runs past the end is clipped.
 */
struct fsl_reader;
int fsl_window_check(const char *cmd, const char *path, struct fsl_reader *r, uint64_t origin,
		     uint64_t from);
/*
 * Print "fslens <cmd>: <msg>" and the usage line with "(see 'fslens CMD
 * --help')"; returns EXIT_USAGE.
 */
int fsl_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * After getopt_long returned '?' (with opterr = 0, as main sets it): "unknown
 * option '--x'" or "option '-m' needs a value". Returns EXIT_USAGE.
 */
struct option;
int fsl_bad_option(const char *cmd, const char *usage, const char *optstring,
		   const struct option *longopts, char **argv);

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
