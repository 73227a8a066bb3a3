#!/bin/bash
# fslens top's kernel filters, live, on a scratch ext4 (top -b, totals):
#  - -p A,B with three copies of data_work at work: A's and B's rows only;
#  - --tid W, W the second thread of tests/helpers/threads_work (tid != pid),
#    both threads at work: only W's file in the files view;
#  - --cgroup DIR (a cgroup2 hierarchy mounted here): only the copy that runs
#    in DIR, with DIR's path in the CGROUP column.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
B=$T_BUILD

scratch_fs 256 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
for w in a b c; do
	cp "$B/tests/data_work" "$T_TMP/fsl_tw_$w"
	mkdir -p "$M/$w"
done

# top_during NAME GOFILE OPTIONS...: top -b until the workers waiting for GOFILE end
top_during() {
	local n=$1 go=$2 tp
	shift 2
	"$FSLENS" top -m "$M" -b -a -i 1 -n 6 -w 200 "$@" >"$T_TMP/$n.out" 2>"$T_TMP/$n.err" &
	tp=$!
	# the probes attach before the first frame
	for i in $(seq 1 100); do grep -qs 'fslens top' "$T_TMP/$n.out" && break; sleep 0.1; done
	touch "$go"
	wait "${WAIT[@]}"
	wait $tp
	check_eq "${n}_top_exit" "$?" 0
}
last_frame() { awk '/^ fslens top/ { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }' "$1"; }
# the comms of the last frame's process rows with calls, waits or data (block
# requests are the device's, whoever issued them: a row with only RDMB/WRMB is
# not the filter's), kernel threads (the target's evidence) left out
rows() {
	last_frame "$1" | grep -E '^ +[0-9]+ [a-z]' | grep -vE '^ +[0-9]+ (jbd2|kworker)/' |
		awk '$3 + $4 + $13 + $14 > 0 {print $2}' | sort -u | tr '\n' ' '
}

# -p A,B
WAIT=()
declare -A P
for w in a b c; do
	sh -c "while [ ! -e $T_TMP/go1 ]; do sleep 0.05; done; exec $T_TMP/fsl_tw_$w $M/$w" >/dev/null &
	P[$w]=$!
	WAIT+=($!)
done
top_during pids "$T_TMP/go1" -p "${P[a]},${P[b]}"
check_eq pids_rows "$(rows "$T_TMP/pids.out")" "fsl_tw_a fsl_tw_b "

# --tid W
"$B/tests/threads_work" "$M" "$T_TMP/go2" >"$T_TMP/thr.out" &
WAIT=($!)
for i in $(seq 1 100); do [ "$(wc -l <"$T_TMP/thr.out")" -ge 2 ] && break; sleep 0.05; done
WT=$(awk '$1 == "worker" {print $2; exit}' "$T_TMP/thr.out")
check_cmd tid_is_not_pid test "$WT" != "${WAIT[0]}"
top_during tid "$T_TMP/go2" --tid "$WT" --view files
check_grep tid_worker_file ' thr_worker$' <(last_frame "$T_TMP/tid.out")
check_eq tid_not_main_file "$(last_frame "$T_TMP/tid.out" | grep -c ' thr_main$')" 0

# --cgroup DIR
mkdir -p "$T_TMP/cg"
if mount -t cgroup2 none "$T_TMP/cg" 2>/dev/null; then
	at_exit "umount -l $T_TMP/cg"
	mkdir -p "$T_TMP/cg/fsltop"
	at_exit "rmdir $T_TMP/cg/fsltop"
	WAIT=()
	for w in a c; do
		if [ $w = c ]; then
			sh -c "echo \$\$ > $T_TMP/cg/fsltop/cgroup.procs;
				while [ ! -e $T_TMP/go3 ]; do sleep 0.05; done;
				exec $T_TMP/fsl_tw_$w $M/$w" >/dev/null &
		else
			sh -c "while [ ! -e $T_TMP/go3 ]; do sleep 0.05; done; exec $T_TMP/fsl_tw_$w $M/$w" \
				>/dev/null &
		fi
		WAIT+=($!)
	done
	top_during cg "$T_TMP/go3" --cgroup "$T_TMP/cg/fsltop"
	check_eq cgroup_rows "$(rows "$T_TMP/cg.out")" "fsl_tw_c "
	check_grep cgroup_column ' fsl_tw_c .* /fsltop *$' <(last_frame "$T_TMP/cg.out")
else
	skip cgroup "cannot mount a cgroup2 hierarchy here"
fi
[ $T_FAILS -eq 0 ]
