#!/usr/bin/env python3
# Write blktrace's binary format (struct blk_io_trace, v7) from a bpftrace
# capture of the block tracepoints, for btt: blktrace's relay files are
# refused in some VMs (EPERM opening debugfs block/<dev>/trace<cpu>), the
# tracepoints are not. Input lines: "D|C NSECS CPU SECTOR NR_SECTOR RWBS"
# (block_rq_issue, block_rq_complete); each dispatch is queued (Q) at the
# same moment, since btt follows an I/O from its queueing.
#
#   blktrace_write.py DEV OUT CAPTURE [T0 T1]
#
# DEV is the kernel dev_t (major << 20 | minor); OUT.blktrace.<cpu> are
# written. With T0 T1 (ns), only the records in [T0, T1), led by the last
# dispatch before T0 (so each dispatch's seek distance is from the one before
# it, as on the whole capture; btt gives that first one's distance from
# sector 0, drop it).
import os
import struct
import sys

dev, out, cap = int(sys.argv[1]), sys.argv[2], sys.argv[3]
t0, t1 = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0, 1 << 64)
ACT = {"Q": 1 | (1 << 4) << 16, "D": 7 | (1 << 6) << 16, "C": 8 | (1 << 7) << 16}
rows, lead = [], None
for line in open(cap):
    f = line.split()
    if len(f) != 6 or f[0] not in ("D", "C"):
        continue
    r = (f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4]), f[5])
    if r[1] < t0:
        if r[0] == "D":
            lead = r
        continue
    if r[1] < t1:
        rows.append(r)
if lead:
    rows.insert(0, lead)
files, seq = {}, 0
for kind, ts, cpu, sector, nr, rwbs in rows:
    cats = 0
    if "R" in rwbs:
        cats |= 1
    if "W" in rwbs:
        cats |= 2
    if "S" in rwbs:
        cats |= 1 << 3
    if "M" in rwbs:
        cats |= 1 << 12
    for a in (["Q", "D"] if kind == "D" else ["C"]):
        seq += 1
        files.setdefault(cpu, []).append(struct.pack(
            "<IIQQIIIIIHH", 0x65617407, seq, ts, sector, nr * 512, ACT[a] | (cats << 16),
            0, dev, cpu, 0, 0))
# blkparse reads OUT.blktrace.0, .1, ... up to the first one missing: a CPU
# with no record in the window gets an empty file (which it passes over), or
# a window all on CPU 1 would be read as nothing
for cpu in range(max(list(files) + [os.cpu_count() - 1]) + 1):
    files.setdefault(cpu, [])
for cpu, recs in files.items():
    with open("%s.blktrace.%d" % (out, cpu), "wb") as fh:
        fh.write(b"".join(recs))
print("lead" if lead else "nolead")
