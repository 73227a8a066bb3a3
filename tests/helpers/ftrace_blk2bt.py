#!/usr/bin/env python3
# The kernel's own blktrace records, taken through ftrace's "blk" tracer
# (the relay files under debugfs are refused on a locked-down kernel), into
# blktrace's per-CPU files for blkparse and btt.
#
#   ftrace_blk2bt.py DUMP OUTDIR NAME [T0 T1]
#
# DUMP is the tracer's buffer read with trace_options "bin": after the text
# header, each entry is the ftrace context (pid u32, cpu u32, ts u64) and
# the struct blk_io_trace the kernel built (blk_trace_synthesize_old_trace:
# magic, time = the entry's timestamp, then sector .. pdu_len) and its
# payload. Entries whose time is outside [T0, T1] (ns of the trace clock)
# are left out. Writes OUTDIR/NAME.blktrace.<cpu> with blktrace's
# per-CPU sequence numbers and prints "records skipped".
import struct
import sys

HDR = struct.Struct('<IIQ')
BIT = struct.Struct('<IIQQIIIIIHH')
MAGIC = 0x65617400


def main():
    dump, out, name = sys.argv[1:4]
    t0 = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    t1 = int(sys.argv[5]) if len(sys.argv) > 5 else 1 << 64
    data = open(dump, 'rb').read()
    pos = 0
    # the text header: lines starting with '#'
    while pos < len(data) and data[pos:pos + 1] == b'#':
        pos = data.index(b'\n', pos) + 1
    files, seq = {}, {}
    n = skipped = 0
    while pos + HDR.size + BIT.size <= len(data):
        pid, cpu, ts = HDR.unpack_from(data, pos)
        rec = list(BIT.unpack_from(data, pos + HDR.size))
        pdu_len = rec[10]
        if (rec[0] & 0xffffff00) != MAGIC:
            sys.exit('bad record at %d' % pos)
        body = data[pos + HDR.size:pos + HDR.size + BIT.size + pdu_len]
        pos += HDR.size + BIT.size + pdu_len
        if not t0 <= rec[2] <= t1:
            skipped += 1
            continue
        seq[cpu] = seq.get(cpu, 0) + 1
        rec[1] = seq[cpu]
        rec[8] = cpu
        if cpu not in files:
            files[cpu] = open('%s/%s.blktrace.%d' % (out, name, cpu), 'wb')
        files[cpu].write(BIT.pack(*rec) + body[BIT.size:])
        n += 1
    # blkparse reads .0, .1, ... up to the first missing file
    for cpu in range(max(files) + 1 if files else 0):
        if cpu not in files:
            open('%s/%s.blktrace.%d' % (out, name, cpu), 'wb').close()
    for f in files.values():
        f.close()
    print(n, skipped)


main()
