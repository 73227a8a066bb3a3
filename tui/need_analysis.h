/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fslens top needs from include/fslens/analysis.h and does not have
 * yet, for the lead to reconcile with the report's owner. Nothing includes
 * this file; top shows what the API offers today and says so in its column
 * names (AVGms instead of P99ms, CALLms/s instead of lookup wait).
 *
 * 1. p99 of operation latency per process (issue: processes view "p99 op
 *    latency"). struct fsl_proc_stat has ops and op_lat_ns (a sum) only.
 *    Wanted, in struct fsl_proc_stat:
 *
 *	struct fsl_hist op_lat;	  // ns of the dirops counted in ops (same
 *				  // window rule: completion ts + lat_ns)
 *
 *    top then shows fsl_hist_quantile(&p->op_lat, 0.99) / 1e6 as P99ms.
 *    (11 KiB per process in the window; a 64-bucket log2 histogram would
 *    do if that is too much: uint64_t op_lat_log2[64].)
 *
 * 2. Lookup wait per directory (issue: directories view "hottest
 *    directories by ops and lookup wait"). struct fsl_dir_stat has ops and
 *    lat_ns (summed call latency). Wanted, in struct fsl_dir_stat:
 *
 *	uint64_t lookup_wait_ns;  // off-CPU ns of class FSL_WC_DIR_BLOCK_READ
 *				  // whose wait lies inside a dirop of the same
 *				  // tid on an entry of this directory
 *				  // ([op ts, op ts + lat_ns]), counted when
 *				  // the dirop completes in the window
 *
 *    top then shows lookup_wait_ns / 1e6 / window as LOOKms/s.
 *
 * 3. The current name of a process. fsl_proc_stat.comm is copied when the
 *    process's first event of the window arrives and not updated by a later
 *    FSL_PROC_EXEC or FSL_PROC_COMM, so a shell that forks and execs
 *    `touch` is listed as "bash" for the whole window. Wanted: the name
 *    from the task table as of the last event (fsl_analysis__procs()
 *    refreshing comm from it would do).
 *
 * 4. (record) Path-based calls are not restricted to the target filesystem:
 *    with -m MOUNT, dirops of every filesystem on the machine reach the
 *    analyses, so ops/s, creates/s, the processes and the directories views
 *    count work on other filesystems too. Wanted: the collector drops dirops
 *    whose resolved path is not on opts.dev (or the analysis, given the
 *    target mount, drops absolute paths outside it).
 *
 * 5. (record) The kallsyms symbolizer (fsl_ksyms__load/name) is declared
 *    in collector/collector_int.h; tui/source_live.c includes that internal
 *    header to symbolize live stacks. A public include/fslens/ksyms.h (or
 *    fsl_collector__stack_names()) would end that.
 */
