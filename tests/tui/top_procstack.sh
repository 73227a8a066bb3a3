#!/bin/bash
# Enter on a process shows that process's own costliest stack per class, not
# the class's over all tasks: in tests/helpers/top_trace.c's "procstack"
# trace, mkdir (1001) and rm (1003) both wait for journal log space, mkdir
# 100 ms/s on stack 1 (ext4_mkdir), rm 30 ms/s on stack 3 (ext4_unlink).
. tests/lib.sh
. tests/tui/tmux.bash

TRACE=$T_TMP/t.trace
"$BUILD/tests/top_trace" "$TRACE" 10 1 procstack || { fail gen "top_trace failed"; exit 1; }

tm_start s 80 50 -- top --replay "$TRACE" --speed 50 -a
if ! tm_wait s '\[END\]' 10; then
	fail end "no [END] marker: $(tm_screen s | head -5)"
	exit 1
fi
check_grep procs-rm '^ +1003 rm +30 +0 +0\.00 +30 ' <(tm_screen s)

# rm: its own stack, 10 waits x 3 ms x 10 s
tm_keys s f r m Enter
tm_wait s '^ +1003 rm ' 3
tm_keys s Enter
if tm_wait s 'process 1003 \(rm\)' 3; then
	tm_wait s 'its costliest' 3
	check_grep rm-class '^ ?journal_log_space +30\.0 ms/s' <(tm_screen s)
	check_grep rm-stack '^ +its costliest stack \(300\.0 ms\):' <(tm_screen s)
	check_grep rm-rule '^ +=>  2  __jbd2_log_wait_for_space' <(tm_screen s)
	check_grep rm-own-frame '^ +7  ext4_unlink\+0x40' <(tm_screen s)
	check_eq rm-not-mkdirs "$(tm_screen s | grep -c 'ext4_mkdir')" 0
else
	fail rm-details "$(tm_screen s | sed -n 4,10p)"
fi
tm_keys s Escape

# mkdir: its own stack (the class's costliest), 20 waits x 5 ms x 10 s
tm_keys s f BSpace BSpace m k d i r Enter
tm_wait s '^ +1001 mkdir ' 3
tm_keys s Enter
if tm_wait s 'process 1001 \(mkdir\)' 3; then
	tm_wait s 'its costliest' 3
	check_grep mkdir-stack '^ +its costliest stack \(1000\.0 ms\):' <(tm_screen s)
	check_grep mkdir-own-frame '^ +15  ext4_mkdir\+0x150' <(tm_screen s)
	check_eq mkdir-not-rms "$(tm_screen s | grep -c 'ext4_unlink')" 0
else
	fail mkdir-details "$(tm_screen s | sed -n 4,10p)"
fi
tm_keys s Escape q
tm_check_restored s quit-q
exit 0
