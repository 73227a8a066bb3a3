#!/bin/bash
# fslens top and the terminal: pause stops a replay's clock, Ctrl-C and
# SIGTERM give the terminal back like q does, NO_COLOR and colourless
# terminals get no colour, and the errors before the screen are plain.
. tests/lib.sh
. tests/tui/tmux.bash

TRACE=$T_TMP/t.trace
"$BUILD/tests/top_trace" "$TRACE" 30 || { fail gen "top_trace failed"; exit 1; }

elapsed() { tm_screen "$1" | head -1 | sed -nE 's/.*elapsed ([0-9.]+)s.*/\1/p'; }

# ---- pause: the replay clock stops, the screen says so, space resumes ----
tm_start p 80 24 -- top --replay "$TRACE" -i 0.2
tm_wait p 'elapsed 0\.[4-9]s|elapsed [1-9]' 5 || fail pause-runs "$(tm_screen p | head -2)"
tm_keys p Space
tm_wait p '\[PAUSED\]' 3 && pass pause-shown || fail pause-shown "$(tm_screen p | head -1)"
e1=$(elapsed p)
sleep 1
e2=$(elapsed p)
check_eq pause-clock-stopped "$e2" "$e1"
# keys still work while paused
tm_keys p 3
tm_wait p 'TID TRIGGER' 3 && pass pause-keys-work || fail pause-keys-work "$(tm_screen p | head -6)"
tm_keys p Space
ok=0
for ((i = 0; i < 40; i++)); do
	e3=$(elapsed p)
	if [ -n "$e3" ] && awk -v a="$e3" -v b="$e2" 'BEGIN { exit !(a > b) }'; then ok=1; break; fi
	sleep 0.05
done
[ $ok = 1 ] && pass pause-resumes || fail pause-resumes "elapsed stayed $e2"
tm_screen p | head -1 | grep -q PAUSED && fail unpause-shown "still [PAUSED]" || pass unpause-shown
# the trace clock moves at --speed 1: about 1 s of trace per wall second
s1=$(elapsed p); sleep 1; s2=$(elapsed p)
d=$(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%d", (b - a) * 10 + 0.5 }')
check_ge speed-1-lower "$d" 6
check_le speed-1-upper "$d" 14

# totals asked for mid-run (no -a) begin then, and say so
tm_keys p a
tm_wait p 'totals from [0-9]+\.[0-9]s' 5 && pass totals-from-now ||
	fail totals-from-now "$(tm_screen p | head -1)"
tm_keys p a
tm_wait p 'elapsed [0-9.]+s  interval 0\.2s' 5 && pass totals-back-to-interval ||
	fail totals-back-to-interval "$(tm_screen p | head -1)"

# ---- Ctrl-C ----
tm_keys p C-c
tm_check_restored p ctrl-c

# ---- SIGTERM, sent to top's own pid ----
tm_start t 80 24 -- top --replay "$TRACE"
tm_wait t 'PID COMM' 5 || fail sigterm-start "$(tm_screen t | head -3)"
pid=$(tm_child_pid t)
if [ -n "$pid" ]; then
	kill -TERM "$pid"
	tm_check_restored t sigterm
else
	fail sigterm "no top process under the pane's shell"
fi

# ---- colours: present by default, absent with NO_COLOR or without colours ----
colour_sgr() { grep -caE $'\e\\[(3[0-7]|4[0-7]|38;|48;)' ; }
tm_start c 80 24 -- top --replay "$TRACE" --speed 100 -a
tm_wait c '\[END\]' 5 || fail colour-start "$(tm_screen c | head -2)"
check_ge colour-default "$(tm_screen_esc c | colour_sgr)" 3
tm_keys c q
tm_exited c

tm_start n 80 24 NO_COLOR=1 -- top --replay "$TRACE" --speed 100 -a
tm_wait n '\[END\]' 5 || fail nocolor-start "$(tm_screen n | head -2)"
check_eq no-color-env "$(tm_screen_esc n | colour_sgr)" 0
# still readable: title and column bars in reverse video, lost in bold
check_ge no-color-reverse "$(tm_screen_esc n | grep -caE $'\e\\[7m')" 2
check_grep no-color-lost-bold $'lost \e\\[1;4m7' <(tm_screen_esc n)
tm_keys n q
tm_check_restored n no-color

# vt100 has no colours; with a non-UTF-8 locale the sparklines are ASCII
TM_TERM=vt100 tm_start v 80 24 LANG=C -- top --replay "$TRACE" --speed 100 -a -i 0.05
tm_wait v '\[END\]' 5 || fail vt100-start "$(tm_screen v | head -2)"
check_eq vt100-no-colour "$(tm_screen_esc v | colour_sgr)" 0
tm_keys v 2
tm_wait v 'WAIT CLASS' 3
check_grep vt100-ascii-sparkline '^journal_log_space +100\.0 +83\.3 +[0-9]+ +[ .:=+*#@]*@[ .:=+*#@]* __jbd2' <(tm_screen v)
check_eq vt100-no-utf8 "$(tm_screen v | LC_ALL=C grep -c $'[\x80-\xff]')" 0
tm_keys v q
tm_check_restored v vt100

# ---- errors before the screen: said plainly, terminal untouched ----
out=$("$FSLENS" top --replay "$TRACE" </dev/null 2>&1 >/dev/null); rc=$?
check_eq not-a-tty-rc "$rc" 1
check_eq not-a-tty-msg "$out" "fslens: top: cannot drive the terminal: standard input/output is not a terminal (try -b)"
out=$("$FSLENS" top --replay "$T_TMP/missing.trace" 2>&1); rc=$?
check_eq missing-trace-rc "$rc" 1
check_eq missing-trace-msg "$out" "fslens: cannot open '$T_TMP/missing.trace': No such file or directory"
TM_TERM=nosuchterm tm_start u 80 24 -- top --replay "$TRACE"
tm_exited u && check_eq unknown-term-rc "$(cat "$T_TMP/u.rc")" 1 || fail unknown-term-rc "still running"
check_grep unknown-term-msg "curses does not know TERM='nosuchterm'" <(tm_screen u)
check_eq unknown-term-stty "$(cat "$T_TMP/u.stty.after")" "$(cat "$T_TMP/u.stty.before")"
"$FSLENS" top --replay "$TRACE" --speed 0 >/dev/null 2>&1; check_eq bad-speed-rc $? 2
"$FSLENS" top --replay "$TRACE" -m /mnt >/dev/null 2>&1; check_eq replay-and-mount-rc $? 2
"$FSLENS" top --bogus >/dev/null 2>&1; check_eq unknown-option-rc $? 2
exit 0
