// SPDX-License-Identifier: GPL-2.0
/*
 * All fslens probes in one object so the families share one ring buffer,
 * one lost-counter map and one pid filter. Each family lives in its own
 * header (block, journal, writeback, alloc, dirops, offcpu, proc, xfs, cpu); the
 * collector turns programs of families not asked for off before load.
 */
#include "common.bpf.h"
#include "block.bpf.h"
#include "journal.bpf.h"
#include "writeback.bpf.h"
#include "alloc.bpf.h"
#include "dirops.bpf.h"
#include "offcpu.bpf.h"
#include "proc.bpf.h"
#include "xfs.bpf.h"
#include "cpu.bpf.h"

/* GPL-2.0 as the SPDX headers say; the kernel takes "GPL v2" as GPL-compatible */
char LICENSE[] SEC("license") = "GPL v2";
