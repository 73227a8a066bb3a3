#!/bin/bash
# fslens top --replay inside tmux on a synthetic trace whose rates are known
# (tests/helpers/top_trace.c): header values, every view, details, sorting,
# filter, help, resize, and q giving the terminal back as it was.
. tests/lib.sh
. tests/tui/tmux.bash

TRACE=$T_TMP/t.trace
"$BUILD/tests/top_trace" "$TRACE" 10 || { fail gen "top_trace failed"; exit 1; }

# Played 50x, the 10 s trace ends in 0.2 s; -a shows totals over all of it.
tm_start s 80 24 -- top --replay "$TRACE" --speed 50 -a
if ! tm_wait s '\[END\]' 10; then
	fail end "no [END] marker: $(tm_screen s | head -5)"
	exit 1
fi
scr=$T_TMP/screen
tm_screen s > "$scr"
# Per second of the trace: 100 mkdir + 50 creates + 30 stats; 10 reads of
# 16 KiB and 20 writes of 4 KiB; one 4 ms commit; 12800 dirty pages and 256
# under writeback (4 KiB); 7 events lost.
check_grep header-ops 'ops/s 180\.0 ' "$scr"
check_grep header-creates 'creates/s 150\.0 ' "$scr"
check_grep header-iops 'IOPS 30\.0 ' "$scr"
check_grep header-read 'read MB/s 0\.16 ' "$scr"
check_grep header-write 'write MB/s 0\.08' "$scr"
check_grep header-commits 'commits/s 1\.00 ' "$scr"
check_grep header-commit-ms 'avg commit ms 4\.00' "$scr"
check_grep header-dirty 'dirty MB 52\.4' "$scr"
check_grep header-writeback 'writeback MB 1\.0' "$scr"
check_grep header-target '/mnt/t \(7:0\)  elapsed 10\.0s' "$scr"
check_grep header-lost 'lost 7' "$scr"
# lost events in red (SGR 31) right before the number
if tm_screen_esc s | grep -q $'lost\e\[39m \e\[1m\e\[31m7'; then pass lost-red
else fail lost-red "$(tm_screen_esc s | grep -a lost | cat -v)"; fi
check_eq fits-80x24 "$(awk 'length > 80' "$scr" | wc -l)" 0

# processes: most blocked first (BLKms, every class), blocked time split by cause
check_grep procs-mkdir '^ +1001 mkdir +100 +100 +1\.00 +100 +0 +0 +0 ' "$scr"
check_grep procs-tar '^ +1002 tar +20 +80 +0\.20 +0 +20 +0 +0 +0\.2 ' "$scr"
order() { tm_screen s | grep -E '^ +[0-9]+ [a-z]' | awk '{print $2}' | tr '\n' ' '; }
check_eq sort-default "$(order)" "mkdir tar jbd2/loop0-8 "
tm_keys s r
check_settles sort-reversed "jbd2/loop0-8 tar mkdir " order
tm_keys s r '>' '>' '>' '>'	# BLKms -> OPS/s -> P99ms -> JRNL -> DIRRD
check_settles sort-dirrd "tar mkdir jbd2/loop0-8 " order
check_grep sort-title 'sort DIRRD' <(tm_screen s)
tm_keys s '<' '<' '<' '<'
check_settles sort-back "mkdir tar jbd2/loop0-8 " order

tm_keys s f t a r Enter
check_settles filter-comm "tar " order
check_grep filter-shown 'filter tar' <(tm_screen s)
tm_keys s f BSpace BSpace BSpace 1 0 0 1 Enter
check_settles filter-pid "mkdir " order
tm_keys s Escape
check_settles filter-cleared "mkdir tar jbd2/loop0-8 " order
# the prompt starts empty even with a filter in force
tm_keys s f t a r Enter f
tm_wait s 'filter by comm or pid: _' 3 && pass filter-prompt-empty ||
	fail filter-prompt-empty "$(tm_screen s | tail -1)"
tm_keys s Enter
check_settles filter-empty-clears "mkdir tar jbd2/loop0-8 " order
# Esc sent together with the next key (one write, as a fast typist or a paste
# does) is two keys: the prompt closes unapplied, then 2 switches the view
tm_keys s f x Escape 2
tm_wait s 'WAIT CLASS' 3 && pass esc-then-key || fail esc-then-key "$(tm_screen s | head -6)"
check_eq esc-then-key-no-filter "$(tm_screen s | grep -c 'filter x')" 0
tm_keys s 1
tm_wait s 'PID COMM' 3
# p: one row per program, PROCS counts them; p again: per process
tm_keys s p
tm_wait s 'PROCS COMM' 3 && pass group-header || fail group-header "$(tm_screen s | sed -n 4,7p)"
check_grep group-tab '1:progs' <(tm_screen s)
tm_keys s p
tm_wait s '    PID COMM' 3 && pass ungroup || fail ungroup "$(tm_screen s | sed -n 4,7p)"
# Enter on the most blocked process: its classes, each with the class's stack
tm_keys s Home Enter
if tm_wait s 'process 1001 \(mkdir\)' 3; then
	tm_keys s Down Down Down Down Down Down Down Down Down Down Down Down
	tm_wait s 'its costliest' 3
	check_grep details-class '^ ?journal_log_space +100\.0 ms/s' <(tm_screen s)
	check_grep details-stack '^ +its costliest stack \(1000\.0 ms\):' <(tm_screen s)
	check_grep details-rule '^ +=> 10  __jbd2_log_wait_for_space' <(tm_screen s)
else
	fail details "$(tm_screen s | sed -n 4,10p)"
fi
tm_keys s Escape

# stalls: ms/s per class, share, sparkline, the explaining frames; Enter = stack
tm_keys s 2
tm_wait s 'WAIT CLASS' || fail stalls-view "$(tm_screen s | head -8)"
check_grep stalls-log-space '^journal_log_space +100\.0 +83\.3 +200 .*__jbd2_log_wait_for_spa' <(tm_screen s)
check_grep stalls-dir-read '^dir_block_read +20\.0 +16\.7 +100 .*__ext4_find_entry<ext4_lo' <(tm_screen s)
tm_keys s Enter
tm_wait s 'wait class journal_log_space' || fail stalls-enter "$(tm_screen s | head -8)"
check_grep stalls-stack-inner '^ +0  __schedule\+0x2a' <(tm_screen s)
check_grep stalls-rule-frame '^ => 10  __jbd2_log_wait_for_space' <(tm_screen s)
tm_keys s PgDn
tm_wait s '^ +15  ext4_mkdir\+0x150' && pass stalls-stack-outer ||
	fail stalls-stack-outer "$(tm_screen s | tail -5)"
tm_keys s Escape

tm_keys s 3
tm_wait s 'TID TRIGGER' || fail journal-view "$(tm_screen s | head -8)"
# ten commits, newest first: 150 handles, 40 blocks, 1 s running, 4 ms commit
check_eq journal-rows "$(tm_screen s | grep -cE '^ +[0-9]+ [a-z_]+ +150 +40 +1000\.0 .* 4\.00$')" 10
check_grep journal-newest-first '^ +10 ' <(tm_screen s | grep -A1 'TID TRIGGER' | tail -1)

tm_keys s 4
tm_wait s 'DEVICE +IOPS' || fail devices-view "$(tm_screen s | head -8)"
check_grep devices-row '^7:0 +30 +0\.2 +0\.1 ' <(tm_screen s)

tm_keys s 5
tm_wait s 'DIRECTORY' || fail dirs-view "$(tm_screen s | head -8)"
check_grep dirs-a '^ +100\.0 +0\.0 +100\.0 /mnt/t/a$' <(tm_screen s)
# tar's ten 2 ms directory-block waits a second each begin inside one of its
# creates in /mnt/t/b: 20 ms/s of lookup wait there
check_grep dirs-b '^ +80\.0 +20\.0 +13\.0 /mnt/t/b$' <(tm_screen s)

# help lists the keys and the columns of the current view; any key goes back
tm_keys s 1 h
tm_wait s 'processes view columns' || fail help "$(tm_screen s | head -8)"
check_grep help-keys 'space +pause' <(tm_screen s)
tm_keys s q
tm_wait s 'PID COMM' && pass help-q-goes-back || fail help-q-goes-back "$(tm_screen s | head -8)"

# a: interval <-> totals
tm_keys s a
tm_wait s 'elapsed 10\.0s  \[END\]  interval' 5 && pass key-a-interval ||
	fail key-a-interval "$(tm_screen s | head -1)"
tm_keys s a
tm_wait s 'elapsed 10\.0s  \[END\]  totals' 5 && pass key-a-totals ||
	fail key-a-totals "$(tm_screen s | head -1)"
check_grep key-a-totals-ops 'ops/s 180\.0' <(tm_screen s)

# resize: narrower and shorter, then larger; the layout follows
TM resize-window -t s -x 60 -y 16
check_settles resize-small-footer-row 16 eval 'tm_screen s | grep -n "q quit" | cut -d: -f1'
tm_screen s > "$scr"
check_eq resize-small-rows "$(wc -l < "$scr")" 16
check_eq resize-small-width "$(awk 'length > 60' "$scr" | wc -l)" 0
check_grep resize-small-footer 'q quit' <(tail -1 "$scr")
check_grep resize-small-header 'ops/s 180\.0' "$scr"
check_grep resize-small-lost 'lost 7' "$scr"
check_grep resize-small-rows-shown '1001 mkdir' "$scr"
TM resize-window -t s -x 120 -y 40
check_settles resize-large-footer-row 40 eval 'tm_screen s | grep -n "q quit" | cut -d: -f1'
tm_screen s > "$scr"
check_eq resize-large-rows "$(wc -l < "$scr")" 40
check_grep resize-large-footer 'q quit' <(tail -1 "$scr")
check_grep resize-large-header 'ops/s 180\.0' "$scr"
TM resize-window -t s -x 30 -y 8
tm_wait s 'terminal too small' 5
check_grep resize-too-small 'terminal too small \(30x8\)' <(tm_screen s)
TM resize-window -t s -x 80 -y 24

tm_keys s q
tm_check_restored s quit-q
exit 0
