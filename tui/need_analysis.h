/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fslens top needs from the collector and does not have yet, for the
 * lead to reconcile. Nothing includes this file. (Per-process p99 latency,
 * per-directory lookup wait and the name after exec, asked for here
 * first, are in include/fslens/analysis.h now and top shows them.)
 *
 * 1. (record) Path-based calls are not restricted to the target filesystem:
 *    with -m MOUNT, dirops of every filesystem on the machine reach the
 *    analyses, so ops/s, creates/s, the processes and the directories views
 *    count work on other filesystems too. Wanted: the collector drops dirops
 *    whose resolved path is not on opts.dev (or the analysis, given the
 *    target mount, drops absolute paths outside it).
 */
