#!/usr/bin/env python3
# Commit triggers from a bpftrace record of a journal thread's wake-ups,
# independent of fslens's own probes and parsing. Input lines (stdin):
#   KICK DEV         then the waker's kernel stack, one frame a line
#   START DEV TID SYNC
#   STATS DEV TID RUNNING(jiffies)
#   FSYNC            (an ext4_sync_file_enter, counted)
# Each commit of DEV is named by the best kick rule found in the latest
# kick before it (the report's rules, analyzer/an_util.c
# kick_rules), jbd2_journal_stop being the timer when the transaction ran
# its commit interval and a synchronous handle otherwise. Output: counts of
# "unknown timer fsync full log_space sync none fsyncs", none = commits no
# kick named (the report guesses those from what was waiting).
#   jbd2_kicks.py DEV COMMIT_JIFFIES < bpftrace.out
import re
import sys

UNKNOWN, TIMER, FSYNC, FULL, LOG_SPACE, SYNC, NONE, FSYNCS = range(8)
STOP = 9
RULES = [("jbd2_log_do_checkpoint", LOG_SPACE, 5), ("__jbd2_log_wait_for_space", LOG_SPACE, 5),
         ("add_transaction_credits", FULL, 4), ("wait_transaction_locked", FULL, 4),
         ("jbd2__journal_restart", FULL, 4), ("ext4_sync_file", FSYNC, 3),
         ("ext4_fsync_journal", FSYNC, 3), ("ext4_sync_fs", SYNC, 2),
         ("sync_filesystem", SYNC, 2), ("jbd2_journal_flush", SYNC, 2),
         ("commit_timeout", TIMER, 1), ("call_timer_fn", TIMER, 1),
         ("jbd2_journal_stop", STOP, 0)]


def main():
    dev, cj = int(sys.argv[1]), int(sys.argv[2])
    n = [0] * 8
    kick, stack, kdev, started = None, None, None, {}

    def close():
        nonlocal kick, stack
        if stack is not None and kdev == dev:
            best = None
            for f in stack:
                for fn, t, r in RULES:
                    if f == fn and (best is None or r > best[1]):
                        best = (t, r)
            if best:	# a wake-up no rule names does not replace the latest
                kick = best[0]
        stack = None

    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "KICK":
            close()
            stack, kdev = [], int(w[1])
        elif w[0] == "START":
            close()
            if int(w[1]) == dev:
                started[int(w[2])] = kick
                kick = None
        elif w[0] == "STATS":
            close()
            if int(w[1]) == dev and int(w[2]) in started:
                k = started.pop(int(w[2]))
                if k == STOP:
                    k = TIMER if int(w[3]) + 2 >= cj else SYNC
                n[k if k is not None else NONE] += 1
        elif w[0] == "FSYNC":
            close()
            n[FSYNCS] += 1
        elif stack is not None and w[0][0] not in "[]":
            stack.append(re.sub(r"\+\d+$", "", w[0]))
        else:
            close()
    close()
    print(" ".join(map(str, n)))


main()
