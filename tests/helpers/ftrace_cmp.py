#!/usr/bin/env python3
"""Compare an ftrace instance's text output with a trace's records.

usage: ftrace_cmp.py FTRACE OURS START_NS END_NS HZ [--hex] [--racy F1,F2,...]

FTRACE is the instance's `trace` file (trace_clock mono); OURS holds lines
"NAME k=v k=v ..." (trace_query events NAME, prefixed with the name). Only
records inside [START_NS, END_NS] count on both sides. For every event name
prints "NAME ok N" when both sides have N records and every numeric field the
kernel prints equals ours (as multisets), "NAME fields_differ N" when not, or
"NAME count OURS ftrace KERNEL" when the counts differ; the first differing
record goes to stderr. With --hex the kernel's 0x numbers are compared too
(XFS prints most of its fields in hex). --racy names fields left out: the
kernel fills ftrace's record and the BPF program's separately, so a counter
another CPU changes in between (a buffer's hold count) can differ.
"""
import re
import sys

ftr, ours, start, end, hz = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), \
    int(sys.argv[5])
want_hex = "--hex" in sys.argv[6:]
racy = set()
for i, a in enumerate(sys.argv[6:-1]):
    if a == "--racy":
        racy = set(sys.argv[7 + i].split(","))
line_re = re.compile(r"^\s*\S.*?\s+\[\d+\]\s+\S+\s+(\d+)\.(\d+):\s+(\w+):\s+(.*)$")
num_re = re.compile(r"-?(0|[1-9]\d*)")
hex_re = re.compile(r"0x[0-9a-fA-F]+")


def fields(text):
    out = {}
    toks = text.replace(",", " , ").split()
    # "orig 1/2/3@4" style (mballoc): group/start/len@logical
    for m in re.finditer(r"(\w+) (\d+)/(-?\d+)/(\d+)@(\d+)", text):
        k = m.group(1)
        out[k + "_group"], out[k + "_start"], out[k + "_len"], out[k + "_logical"] = \
            map(int, m.groups()[1:])
    for i in range(len(toks) - 1):
        k, v = toks[i], toks[i + 1]
        if not re.fullmatch(r"[a-z_]+", k):
            continue
        if num_re.fullmatch(v):
            out.setdefault(k, int(v))
        elif want_hex and hex_re.fullmatch(v):
            out.setdefault(k, int(v, 16))
    return out


kern = {}
for line in open(ftr):
    m = line_re.match(line)
    if not m:
        continue
    ts = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0"))
    if ts < start or ts > end:
        continue
    kern.setdefault(m.group(3), []).append(fields(m.group(4)))
mine = {}
for line in open(ours):
    name, rest = line.split(" ", 1)
    d = {}
    for kv in rest.split():
        k, _, v = kv.partition("=")
        if re.fullmatch(r"-?\d+", v):
            d[k] = int(v)
    # the same window on both sides (attach happens just before start_ns)
    if d.get("ts", start) < start or d.get("ts", end) > end:
        continue
    mine.setdefault(name, []).append(d)
# the kernel prints some fields under other names, and jbd2's times in ms
alias = {"inode": "ino",
         # xfs: the names in the tracepoints' print formats
         "disize": "size", "pos": "offset", "bytecount": "count", "fsbcount": "blockcount",
         "daddr": "bno", "bbcount": "length", "lock": "lockval", "refcnt": "refcount",
         "t_ocnt": "ocnt", "t_cnt": "cnt", "t_curr_res": "curr_res", "t_unit_res": "unit_res"}
skip = {"dev", "pid", "ts", "cpu"} | racy
ms_fields = {"jbd2_run_stats": {"wait", "request_delay", "running", "locked", "flushing",
                                "logging"},
             "jbd2_checkpoint_stats": {"chp_time"}}
for name in sorted(set(kern) | set(mine)):
    a, b = kern.get(name, []), mine.get(name, [])
    if len(a) != len(b):
        print("%s count %d ftrace %d" % (name, len(b), len(a)))
        continue
    if not a:
        continue
    keys = sorted(k for k in a[0] if k not in skip and alias.get(k, k) in b[0])
    conv = ms_fields.get(name, set())

    def kt(r):
        return tuple(r[k] % 2**32 for k in keys)

    def ot(r):
        return tuple((r[alias.get(k, k)] * 1000 // hz if k in conv else r[alias.get(k, k)]) % 2**32
                     for k in keys)
    # multisets: records at the same microsecond on two CPUs may come in either order
    ka, ob = sorted(kt(r) for r in a), sorted(ot(r) for r in b)
    bad = sum(1 for x, y in zip(ka, ob) if x != y)
    if bad:
        for x, y in zip(ka, ob):
            if x != y:
                print("%s keys %s ours %s kernel %s" % (name, keys, y, x), file=sys.stderr)
                break
    print("%s %s %d" % (name, "ok" if not bad else "fields_differ", len(a)))
