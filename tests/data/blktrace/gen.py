#!/usr/bin/env python3
# Hand-made blktrace v7 fixtures, written field by field with struct.pack
# (independently of fslens's encoder). Run from this directory to regenerate.
#
#   le.blktrace.0   little endian: timestamp notify, process notify (pid 1234
#                   "dd"), a message notify (payload skipped), write 2048+8:
#                   Q I D C; a PC issue with a 16-byte payload (skipped);
#                   read 4096+16: Q D C (direct issue) with error -5.
#   be.blktrace.0   the same records, big endian.
#   trunc.blktrace.0  le's first three records, then 20 bytes of the fourth.
#   badmagic.blktrace.0  le with the magic of its 5th record (offset 224) broken.
#   cgroup.blktrace.0 little endian with cgroup ids (action flag 0x100): a
#                   process notify (pid 77 "kworker/0:1") and a write D and C
#                   4096+8, each payload led by an 8-byte cgroup id.
import struct

MAGIC = 0x65617407
DEV = (8 << 20) | 16            # 8:16
C_READ, C_WRITE, C_QUEUE, C_ISSUE, C_COMPLETE, C_FS, C_PC, C_NOTIFY, C_SYNC = \
    1, 2, 1 << 4, 1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10, 1 << 3
Q, I, D, C = 1, 12, 7, 8


def act(code, cats):
    return code | (cats << 16)


# (sequence, time, sector, bytes, action, pid, error, pdu)
recs = [
    (0, 1000000000, 0, 0, act(1, C_NOTIFY), 0, 0, struct.pack('<II', 1700000000, 500)),
    (0, 1000000000, 0, 0, act(0, C_NOTIFY), 1234, 0, b'dd'.ljust(16, b'\0')),
    (0, 1000000100, 0, 0, act(2, C_NOTIFY), 0, 0, b'hello\0\0\0'),
    (1, 1000001000, 2048, 4096, act(Q, C_QUEUE | C_WRITE | C_SYNC), 1234, 0, b''),
    (2, 1000002000, 2048, 4096, act(I, C_QUEUE | C_WRITE | C_SYNC | C_FS), 1234, 0, b''),
    (3, 1000005000, 2048, 4096, act(D, C_ISSUE | C_WRITE | C_SYNC | C_FS), 1234, 0, b''),
    (4, 1000006000, 0, 0, act(D, C_ISSUE | C_PC), 1234, 0, bytes(range(16))),
    (5, 1000105000, 2048, 4096, act(C, C_COMPLETE | C_WRITE | C_SYNC | C_FS), 0, 0, b''),
    (6, 1000200000, 4096, 8192, act(Q, C_QUEUE | C_READ), 1234, 0, b''),
    (7, 1000201000, 4096, 8192, act(D, C_ISSUE | C_READ | C_FS), 1234, 0, b''),
    (8, 1000400000, 4096, 8192, act(C, C_COMPLETE | C_READ | C_FS), 0, (-5) & 0xffff, b''),
]


def pack(end, r):
    seq, t, sector, nbytes, action, pid, err, pdu = r
    if r[4] == act(1, C_NOTIFY):
        pdu = struct.pack(end + 'II', 1700000000, 500)
    return struct.pack(end + 'IIQQIIIIIHH', MAGIC, seq, t, sector, nbytes, action, pid,
                       DEV, 0, err, len(pdu)) + pdu


le = b''.join(pack('<', r) for r in recs)
be = b''.join(pack('>', r) for r in recs)
open('le.blktrace.0', 'wb').write(le)
open('be.blktrace.0', 'wb').write(be)
first3 = b''.join(pack('<', r) for r in recs[:3])
open('trunc.blktrace.0', 'wb').write(first3 + pack('<', recs[3])[:20])
off = len(b''.join(pack('<', r) for r in recs[:4]))
assert off == 224, off
bad = bytearray(le)
bad[off:off + 4] = b'\xde\xad\xbe\xef'
open('badmagic.blktrace.0', 'wb').write(bytes(bad))

CG = 1 << 8
cgid = struct.pack('<Q', 0x1234)
cg = [
    (0, 2000000000, 0, 0, act(0 | CG, C_NOTIFY), 77, 0, cgid + b'kworker/0:1'.ljust(16, b'\0')),
    (1, 2000001000, 4096, 4096, act(D | CG, C_ISSUE | C_WRITE | C_FS), 77, 0, cgid),
    (2, 2000051000, 4096, 4096, act(C | CG, C_COMPLETE | C_WRITE | C_FS), 0, 0, cgid),
]
open('cgroup.blktrace.0', 'wb').write(b''.join(pack('<', r) for r in cg))
