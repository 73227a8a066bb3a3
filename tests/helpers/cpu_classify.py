# SPDX-License-Identifier: GPL-2.0
# The documented CPU-class rule (docs/cpu-classes.md) as a reader of that
# page applies it, for the tests that class a bpftrace profile's kernel
# stacks on their own: the recorder's frames first, then the innermost
# strong rule, else the first weak one, else cpu_kernel_other; no kernel
# frames is user mode.
import re


def func(frame):
    return re.split(r"[+/ \t\[]", frame.strip(), 1)[0]


def _match(pat, f):
    if len(pat) > 2 and pat[0] == "*" and pat[-1] == "*":
        return pat[1:-1] in f
    if pat.endswith("*"):
        return f.startswith(pat[:-1])
    return f == pat


def classifier(doc):
    """classify(frames, innermost first) -> class, by the page at doc"""
    text = open(doc).read()
    rules = re.findall(r"^\| `([^`]+)` \| `(cpu_\w+)` \| (yes|no) \|$", text, re.M)
    recorder = re.findall(r"`([^`]+)`", [l for l in text.splitlines() if l.startswith("`bpf_prog_*`")][0])

    def classify(frames):
        if not frames:
            return "cpu_user"
        fs = [func(f) for f in frames]
        if any(_match(p, f) for f in fs for p in recorder):
            return "cpu_recorder"
        weak = None
        for f in fs:
            for pat, cls, w in rules:
                if _match(pat, f):
                    if w == "no":
                        return cls
                    if weak is None:
                        weak = cls
                    break
        return weak or "cpu_kernel_other"
    return classify


def tally(text, classify, map_name=""):
    """{class: samples} of a bpftrace map @NAME[kstack] = count() in text"""
    out = {}
    for m in re.finditer(r"@%s\[(.*?)\]: (\d+)" % re.escape(map_name), text, re.S):
        frames = [l.strip() for l in m.group(1).strip().splitlines() if l.strip()]
        c = classify(frames)
        out[c] = out.get(c, 0) + int(m.group(2))
    return out
