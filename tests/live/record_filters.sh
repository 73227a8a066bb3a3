#!/bin/bash
# record's process filters in the kernel, on a scratch ext4 where three
# copies of tests/helpers/data_work (fsl_dw_a, fsl_dw_b, fsl_dw_c) work at once:
#  - -p A,B: data records of A and B only, each one's counts equal its truth;
#  - --tid A (a single-threaded process: tid = pid): A's only;
#  - --tid W, W the second thread of tests/helpers/threads_work (tid != pid),
#    both threads working: W's records only, under the process's pid;
#  - --cgroup DIR (a cgroup v2 hierarchy mounted here): only the copy that
#    runs in DIR's child cgroup (a descendant counts), none of the others.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
B=$T_BUILD

scratch_fs 256 ext4 -b 4096 || { fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
for w in a b c; do
	cp "$B/tests/data_work" "$T_TMP/fsl_dw_$w"
	mkdir -p "$M/$w"
done

# start the three, each waiting for $T_TMP/go; PIDS[w] = its pid
start_workers() {	# [cgroup.procs file for c]
	rm -f "$T_TMP/go"
	for w in a b c; do
		if [ $w = c ] && [ -n "${1:-}" ]; then
			DATA_WORK_DETAIL=$T_TMP/detail.$w sh -c "echo \$\$ > $1;
				while [ ! -e $T_TMP/go ]; do sleep 0.05; done;
				exec $T_TMP/fsl_dw_$w $M/$w" >"$T_TMP/truth.$w" &
		else
			DATA_WORK_DETAIL=$T_TMP/detail.$w sh -c "while [ ! -e $T_TMP/go ]; do sleep 0.05; done;
				exec $T_TMP/fsl_dw_$w $M/$w" >"$T_TMP/truth.$w" &
		fi
		PIDS[$w]=$!
	done
}

# record NAME OPTIONS...: the recording, while the workers run
record_during() {
	local n=$1
	shift
	"$FSLENS" record -m "$M" -e dirops,proc "$@" --duration 3 -o "$T_TMP/$n.trace" 2>"$T_TMP/$n.err" &
	local rp=$!
	for i in $(seq 1 100); do grep -q recording "$T_TMP/$n.err" && break; sleep 0.1; done
	sleep 0.3
	touch "$T_TMP/go"
	wait "${PIDS[a]}" "${PIDS[b]}" "${PIDS[c]}"
	wait $rp
	check_eq "${n}_record_exit" "$?" 0
	"$FSLENS" report --json "$T_TMP/$n.trace" >"$T_TMP/$n.json" 2>/dev/null
}

# procs NAME: "comm:reads:writes ..." of the report's data processes, sorted
procs() {
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["data"]
print(" ".join(sorted("%s:%d:%d" % (p["comm"], p["reads"], p["writes"]) for p in d["procs"])))' "$T_TMP/$1.json"
}
# truth W: "fsl_dw_W:reads:writes" from what its calls returned (copies read and write)
truth() {
	awk -v w="$1" '$1 == "proc" {printf "fsl_dw_%s:%d:%d", w, $3, $5}' "$T_TMP/detail.$1"
}

declare -A PIDS
start_workers
record_during pids -p "${PIDS[a]},${PIDS[b]}"
check_eq pids_only_a_and_b "$(procs pids)" "$(truth a) $(truth b)"
check_eq pids_in_metadata "$("$B/tests/trace_query" "$T_TMP/pids.trace" kv record.pid)" \
	"${PIDS[a]},${PIDS[b]}"

start_workers
record_during tid --tid "${PIDS[a]}"
check_eq tid_only_a "$(procs tid)" "$(truth a)"

# a thread that is not its process's first: --tid tells it from -p
"$B/tests/threads_work" "$M" "$T_TMP/go2" >"$T_TMP/thr.out" &
TP=$!
for i in $(seq 1 100); do [ "$(wc -l <"$T_TMP/thr.out")" -ge 2 ] && break; sleep 0.05; done
WT=$(awk '$1 == "worker" {print $2; exit}' "$T_TMP/thr.out")
"$FSLENS" record -m "$M" -e dirops,proc --tid "$WT" --duration 3 -o "$T_TMP/thr.trace" \
	2>"$T_TMP/thr.err" &
rp=$!
for i in $(seq 1 100); do grep -q recording "$T_TMP/thr.err" && break; sleep 0.1; done
sleep 0.3
touch "$T_TMP/go2"
wait $TP
wait $rp
check_eq thread_record_exit "$?" 0
check_cmd thread_tid_is_not_pid test "$WT" != "$TP"
"$FSLENS" dump "$T_TMP/thr.trace" 2>/dev/null | grep -E '^ *[0-9.]+ +[0-9]+ +[0-9]+/[0-9]+ +[^ ]+ +data ' \
	>"$T_TMP/thr.data"
check_eq thread_data_records "$(wc -l <"$T_TMP/thr.data")" 100
check_eq thread_only_that_thread "$(grep -vcE "^ *[0-9.]+ +[0-9]+ +$TP/$WT " "$T_TMP/thr.data")" 0
check_eq thread_only_its_file "$(grep -vc ' data p[a-z]* thr_worker ' "$T_TMP/thr.data")" 0
"$FSLENS" report --json "$T_TMP/thr.trace" >"$T_TMP/thr.json" 2>/dev/null
check_eq thread_report_process "$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["data"]["procs"]
print(" ".join("%d:%d:%d:%d:%d" % (p["pid"], p["reads"], p["read_bytes"], p["writes"], p["write_bytes"]) for p in d))' \
	"$T_TMP/thr.json")" "$TP:$(awk '$1 == "worker" && NF == 5 {print $2 ":" $3 ":" $4 ":" $5}' "$T_TMP/thr.out")"

mkdir -p "$T_TMP/cg"
if mount -t cgroup2 none "$T_TMP/cg" 2>/dev/null; then
	at_exit "umount -l $T_TMP/cg"
	mkdir -p "$T_TMP/cg/fsl/inner"
	at_exit "rmdir $T_TMP/cg/fsl/inner $T_TMP/cg/fsl"
	start_workers "$T_TMP/cg/fsl/inner/cgroup.procs"
	record_during cgroup --cgroup "$T_TMP/cg/fsl"
	check_eq cgroup_only_c "$(procs cgroup)" "$(truth c)"
	check_eq cgroup_in_metadata "$("$B/tests/trace_query" "$T_TMP/cgroup.trace" kv record.cgroup)" \
		"$T_TMP/cg/fsl"
else
	skip cgroup "cannot mount a cgroup2 hierarchy here"
fi
[ $T_FAILS -eq 0 ]
