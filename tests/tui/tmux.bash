# Helpers for driving `fslens top` inside tmux (sourced by tests/tui/*.sh
# after tests/lib.sh). One private tmux server per test script, no user
# config; the pane runs a plain bash so the test can record the terminal
# state (stty -g) before top starts and after it exits.

if ! command -v tmux >/dev/null 2>&1; then
	skip all "tmux is not installed (scripts/deps.sh installs it)"
	exit 0
fi

TM_SOCK=$T_TMP/tmux.sock
TM() { tmux -S "$TM_SOCK" "$@"; }
# Wait for the server to be gone so the temp dir can be removed after it.
tm_cleanup() {
	local i pid
	pid=$(TM display -p '#{pid}' 2>/dev/null)
	TM kill-server
	for ((i = 0; i < 40; i++)); do
		[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	rm -f "$TM_SOCK"
}
at_exit tm_cleanup

# tm_start NAME COLS ROWS [ENV=VAL...] -- ARGS... : run `fslens ARGS` in a new
# session; its exit code goes to $T_TMP/NAME.rc and stty -g before/after to
# NAME.stty.before / NAME.stty.after.
tm_start() {
	local name=$1 cols=$2 rows=$3 envs=() q a
	shift 3
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
	shift
	q=""
	for a in "$@"; do q+=" $(printf '%q' "$a")"; done
	rm -f "$T_TMP/$name.rc"
	TM -f /dev/null new-session -d -s "$name" -x "$cols" -y "$rows" \
		"env -i PATH=$PATH HOME=$T_TMP TERM=${TM_TERM:-tmux-256color} LANG=C.UTF-8 bash --norc --noprofile" || return 1
	TM set -s escape-time 0
	TM send-keys -t "$name" "stty -g > $T_TMP/$name.stty.before; ${envs[*]:+env ${envs[*]} }$FSLENS$q; echo \$? > $T_TMP/$name.rc; stty -g > $T_TMP/$name.stty.after" Enter
}

tm_screen() { TM capture-pane -p -t "$1"; }
tm_screen_esc() { TM capture-pane -p -e -t "$1"; }
tm_keys() { local n=$1; shift; TM send-keys -t "$n" "$@"; }

# tm_wait NAME REGEX [SECONDS]: wait until the screen matches; 1 on timeout
tm_wait() {
	local n=$1 re=$2 t=${3:-10} i
	for ((i = 0; i < t * 20; i++)); do
		tm_screen "$n" | grep -qE -- "$re" && return 0
		sleep 0.05
	done
	return 1
}

# check_settles CHECK WANT CMD...: CMD's output (the screen as it redraws
# after keys) must become WANT within 10 s; passes as soon as it does.
check_settles() {
	local name=$1 want=$2 got i
	shift 2
	for ((i = 0; i < 200; i++)); do
		got=$("$@")
		[ "$got" == "$want" ] && break
		sleep 0.05
	done
	check_eq "$name" "$got" "$want"
}

# tm_exited NAME [SECONDS]: wait for top to exit; 1 on timeout
tm_exited() {
	local n=$1 t=${2:-10} i
	for ((i = 0; i < t * 20; i++)); do
		[ -s "$T_TMP/$n.rc" ] && [ -s "$T_TMP/$n.stty.after" ] && return 0
		sleep 0.05
	done
	return 1
}

# tm_check_restored NAME: top exited 0 and left the terminal as it found it
tm_check_restored() {
	local n=$1 how=$2
	if ! tm_exited "$n"; then
		fail "$how-exits" "top still running: $(tm_screen "$n" | head -3)"
		return
	fi
	check_eq "$how-exit-code" "$(cat "$T_TMP/$n.rc")" 0
	check_eq "$how-stty-restored" "$(cat "$T_TMP/$n.stty.after")" "$(cat "$T_TMP/$n.stty.before")"
	check_eq "$how-alternate-screen-left" "$(TM display -p -t "$n" '#{alternate_on}')" 0
	check_eq "$how-cursor-visible" "$(TM display -p -t "$n" '#{cursor_flag}')" 1
}

# tm_row NAME REGEX: the first screen line matching
tm_row() { tm_screen "$1" | grep -E -m1 -- "$2"; }

# The pid of the program running in the pane's shell.
tm_child_pid() { pgrep -P "$(TM display -p -t "$1" '#{pane_pid}')" | head -1; }
