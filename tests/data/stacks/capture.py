#!/usr/bin/env python3
# Capture real off-CPU (D-state) kernel stacks while a workload stalls, the
# fixtures of the wait-class tests. Root only. Usage:
#   capture.py OUT_PREFIX SECONDS CMD...
# Runs CMD (a shell command), samples /proc/*/task/*/stack of every task in
# state D every ~2 ms, and writes the distinct stacks, most frequent first,
# to OUT_PREFIX.raw as "count comm: frame, frame, ..." (innermost first).
import os, subprocess, sys, time, collections

out, secs, cmd = sys.argv[1], float(sys.argv[2]), " ".join(sys.argv[3:])
seen = collections.Counter()
p = subprocess.Popen(cmd, shell=True)
end = time.time() + secs
while time.time() < end and p.poll() is None:
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            base = f"/proc/{pid}/task/{tid}"
            try:
                with open(base + "/stat") as f:
                    st = f.read()
                if st[st.rindex(")") + 2] != "D":
                    continue
                with open(base + "/stack") as f:
                    lines = f.read().split("\n")
                with open(base + "/comm") as f:
                    comm = f.read().strip()
            except (OSError, ValueError):
                continue
            frames = []
            for l in lines:
                l = l.strip()
                if not l:
                    continue
                fn = l.split("] ", 1)[-1].split("+", 1)[0]
                frames.append(fn)
            if frames:
                seen[(comm, tuple(frames))] += 1
    time.sleep(0.002)
if p.poll() is None:
    p.wait()
with open(out + ".raw", "w") as f:
    for (comm, frames), n in seen.most_common():
        f.write(f"{n} {comm}: {', '.join(frames)}\n")
print(f"{out}: {len(seen)} distinct stacks, {sum(seen.values())} samples")
