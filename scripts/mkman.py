#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the man pages from the binary's own --help, so they cannot drift.

    scripts/mkman.py FSLENS OUTDIR [VERSION]

fslens(1) comes from 'fslens --help' (the command table) plus the fixed text
below; fslens-CMD(1) from 'fslens CMD --help' for every command in that
table. A --help text is read as: 'usage:' lines (the synopsis), paragraphs,
'name:' headings (a subsection each) and items ('  -x, --long ARG  what',
continued on deeper-indented lines).
"""
import os
import re
import subprocess
import sys

DATE = "2026"

INTRO = """\
fslens records what the kernel's ext4, jbd2, writeback and block layers do
(eBPF on tracepoints) into a trace file, and explains it: which waits cost
the time, which seeks the layout caused, how the allocator and the journal
behaved. It checks its explanations by replaying the trace through its own
model of the ext4 allocator, the jbd2 journal and a disk."""

CONVENTIONS = [
    ("-o FILE", "output (a file, or a directory for per-device or per-class output)"),
    ("-m MOUNT", "the target filesystem by its mount point"),
    ("-d DEV", "the target by its block device: /dev/sdb1, sdb1 or 8:17"),
    ("-p PID", "one process"),
    ("-e FAMILIES", "event families: block, journal, writeback, alloc, dirops, "
     "offcpu, proc, or all"),
    ("-f", "force: overwrite what exists"),
    ("-F FORMAT", "output format (export)"),
    ("-i SEC", "interval"),
    ("-q", "quiet: no summary on standard error"),
    ("--json", "JSON on standard output"),
]

EXIT_STATUS = """\
0 on success; 1 on failure, including a failed write to standard output (a
closed pipe, a full disk); 2 on a usage error, said in one line that names
the option and points to --help. record run with a COMMAND exits with the
command's status."""

FILES = """\
Trace files are created with mode 0600. A trace cut short (the recorder
killed) still reads: every complete chunk, with one warning. The guides are
in /usr/share/doc/fslens (record.md, top.md, export.md, trace-format.md, ...)."""


def esc(s):
    """Text for roff: backslashes, minus signs, and a leading control char."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    if s[:1] in (".", "'"):
        s = "\\&" + s
    return s


def help_text(fslens, args):
    p = subprocess.run([fslens] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=dict(os.environ, LC_ALL="C"))
    if p.returncode != 0:
        sys.exit("mkman: '%s %s' exited %d: %s" % (fslens, " ".join(args), p.returncode,
                                                   p.stderr.strip()))
    return p.stdout


ITEM = re.compile(r"^( +)(\S.*?)(?:  +(\S.*))?$")


def parse(text):
    """[('usage', [lines]), ('para', text), ('head', name), ('item', term, text)]."""
    out = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    usage = []
    while i < len(lines) and lines[i].strip():
        line = lines[i]
        if not usage and not line.startswith("usage:"):
            break
        # a continuation is indented and goes on with options or another form
        if usage and not (line[:1] == " " and line.strip()[:1] in "[-f"):
            break
        usage.append(line[len("usage:"):].strip() if line.startswith("usage:") else line.strip())
        i += 1
    if usage:
        out.append(("usage", usage))
    para = []
    item = None			# [term, [text], indent of the term]
    in_list = False		# under a 'name:' heading every indented line is an item

    def flush():
        nonlocal item
        if para:
            out.append(("para", " ".join(para)))
            del para[:]
        if item:
            out.append(("item", item[0], " ".join(item[1])))
            item = None

    for line in lines[i:]:
        if not line.strip():
            flush()
            in_list = False
            continue
        indent = len(line) - len(line.lstrip())
        m = ITEM.match(line)
        heading = re.match(r"^([a-z][a-z ]*):(\s+(.*))?$", line)
        if heading and indent == 0:
            flush()
            out.append(("head", heading.group(1)))
            in_list = True
            if heading.group(3):
                para.append(heading.group(3).strip())
            continue
        if item and indent > item[2] and not line.lstrip().startswith("-"):
            item[1].append(line.strip())
            continue
        starts_opt = line.lstrip().startswith("-")
        if m and indent > 0 and (starts_opt or (in_list and m.group(3))):
            flush()
            term, what = m.group(2), m.group(3) or ""
            item = [term, [what] if what else [], indent]
            continue
        if item:
            flush()
        para.append(line.strip())
    flush()
    return out


def term_roff(term):
    """'-o, --output OUT' -> bold options, italic arguments."""
    parts = []
    for tok in re.split(r"(, | )", term):
        if tok in (", ", " "):
            parts.append(tok)
        elif tok.startswith("-"):
            parts.append("\\fB%s\\fR" % esc(tok))
        elif re.match(r"^[A-Z][A-Z0-9_:.=,|]*$", tok):
            parts.append("\\fI%s\\fR" % esc(tok))
        else:
            parts.append(esc(tok))
    return "".join(parts)


def render(name, summary, parsed, see_also, extra=(), version=""):
    r = ['.\\" Generated by scripts/mkman.py from \'%s --help\'; do not edit.'
         % name.replace("-", " "),
         '.TH %s 1 "%s" "fslens %s" "User Commands"' % (name.upper(), DATE, esc(version)),
         ".nh", ".SH NAME", "%s \\- %s" % (esc(name), esc(summary)), ".SH SYNOPSIS", ".nf"]
    body = []
    for kind, *rest in parsed:
        if kind == "usage":
            r.extend(esc(u) for u in rest[0])
    r.append(".fi")
    section = None
    for kind, *rest in parsed:
        if kind == "usage":
            continue
        # items outside a heading are the options; text before them, the description
        if kind == "para" and section is None:
            section = "DESCRIPTION"
            body.append(".SH DESCRIPTION")
        elif kind == "item" and section in (None, "DESCRIPTION"):
            section = "OPTIONS"
            body.append(".SH OPTIONS")
        elif kind == "head":
            section = rest[0].upper()
        if kind == "para":
            body.extend([".PP", esc(rest[0])])
        elif kind == "head":
            body.append(".SH %s" % esc(rest[0].upper()))
        elif kind == "item":
            body.extend([".TP", term_roff(rest[0]), esc(rest[1]) if rest[1] else ".br"])
    r.extend(body)
    r.extend(extra)
    r.append(".SH SEE ALSO")
    r.append(",\n".join("\\fB%s\\fR(1)" % esc(s) for s in see_also))
    return "\n".join(r) + "\n"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    fslens, outdir = sys.argv[1], sys.argv[2]
    version = sys.argv[3] if len(sys.argv) > 3 else ""
    top = help_text(fslens, ["--help"])
    cmds = re.findall(r"^  (\w+) +(\S.*)$", top.split("commands:", 1)[1], re.M)
    if not cmds:
        sys.exit("mkman: no commands in '%s --help'" % fslens)
    os.makedirs(outdir, exist_ok=True)
    pages = {}
    for cmd, summary in cmds:
        parsed = parse(help_text(fslens, [cmd, "--help"]))
        doc = "/usr/share/doc/fslens/%s.md" % cmd
        extra = [".SH EXIT STATUS", ".PP", esc(" ".join(EXIT_STATUS.split("\n")))]
        see = ["fslens"] + ["fslens-%s" % c for c, _ in cmds if c != cmd]
        pages["fslens-%s.1" % cmd] = render("fslens-" + cmd, summary, parsed, see, extra,
                                             version)
    # fslens(1): the command table, the conventions, and the fixed text
    extra = [".SH DESCRIPTION", ".PP", esc(" ".join(INTRO.split("\n"))), ".SH COMMANDS"]
    for cmd, summary in cmds:
        extra.extend([".TP", "\\fBfslens\\-%s\\fR(1)" % esc(cmd), esc(summary)])
    extra.extend([".SH OPTIONS", ".PP", "Options mean the same in every command, and may "
                  "come before or after the trace file (record stops at its COMMAND):"])
    for term, what in CONVENTIONS:
        extra.extend([".TP", term_roff(term), esc(what)])
    extra.extend([".SH EXIT STATUS", ".PP", esc(" ".join(EXIT_STATUS.split("\n"))),
                  ".SH FILES", ".PP", esc(" ".join(FILES.split("\n")))])
    usage = [("usage", ["fslens COMMAND [options]", "fslens --version",
                        "fslens COMMAND --help"])]
    pages["fslens.1"] = render("fslens", "find out why a Linux filesystem is slow", usage,
                               ["fslens-%s" % c for c, _ in cmds] + ["blktrace", "perf"],
                               extra, version).replace("\\fBblktrace\\fR(1)",
                                                       "\\fBblktrace\\fR(8)")
    for name, text in pages.items():
        path = os.path.join(outdir, name)
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
