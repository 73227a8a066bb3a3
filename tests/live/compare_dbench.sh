#!/bin/bash
# demo dbench under two writeback settings (seed 002: stopping periodic
# writeback restored dbench's throughput): dirty_expire_centisecs=100 and
# dirty_writeback_centisecs 100 against 0. The comparison, at equal work,
# must name the periodic writeback: flusher passes for reason periodic with
# the period on, none with it off; each trace's commits equal
# /proc/fs/jbd2/<dev>/info's delta; the vm.dirty_* settings are back to what
# they were after the run, and after a run stopped with SIGINT.
. "$(dirname "$0")/../lib.sh"
require_bpf
ensure_tracefs
cd "$T_TMP" || exit 1
vm() { cat /proc/sys/vm/dirty_expire_centisecs /proc/sys/vm/dirty_writeback_centisecs \
	/proc/sys/vm/dirty_bytes /proc/sys/vm/dirty_ratio | tr '\n' ' '; }
before=$(vm)

"$FSLENS" demo dbench --scale small --set seconds=3 --set dirty_expire_centisecs=100 \
	--matrix dirty_writeback_centisecs=100,0 -o out >demo.out 2>demo.err
check_eq demo_exit $? 0
check_eq vm_restored "$(vm)" "$before"
check_grep knob_applied "vm.dirty_writeback_centisecs=0 for this run" demo.out
check_grep seed_stated "^seed 002 \(2.4.7-ac dbench" demo.out
ON=out/dbench_dirty_writeback_centisecs-100.trace
OFF=out/dbench_dirty_writeback_centisecs-0.trace
"$FSLENS" compare --json "$ON" "$OFF" >c.json 2>c.err
check_eq compare_exit $? 0
read -r on off named < <(python3 - <<'PY'
import json
c = json.load(open("c.json"))
cells = c["rows"][0]["cells"]
d = c["differences"][0]
m = {x["name"]: x for x in d["mechanisms"]}
p = m.get("writeback_passes:periodic", {})
print(cells[0]["writeback_passes_by_reason"]["periodic"],
      cells[1]["writeback_passes_by_reason"]["periodic"],
      "named" if p.get("delta", 0) < 0 and p.get("value") == 0 else "not")
PY
)
echo "# periodic writeback passes: period on $on, off $off" >&2
check_cmd periodic_passes_with_period test "${on:-0}" -gt 0
check_eq periodic_passes_without "$off" 0
check_eq periodic_named "$named" named
for t in "$ON" "$OFF"; do
	"$FSLENS" report --json "$t" >r.json
	read -r got want < <(python3 -c '
import json
r = json.load(open("r.json"))["journal"]
s, e = r["proc_info"]["start"], r["proc_info"]["end"]
print(r["commits"], e["transactions"] - s["transactions"])')
	echo "# $(basename "$t"): commits $got, /proc/fs/jbd2 $want" >&2
	check_cmd "commits_counted_$(basename "$t" .trace)" test "${got:-0}" -gt 0
	check_eq "commits_vs_proc_$(basename "$t" .trace)" "$got" "$want"
done

# stopped with SIGINT while the settings are changed: they are restored
"$FSLENS" demo dbench --scale small --no-record --set seconds=20 \
	--set dirty_writeback_centisecs=0 --set dirty_expire_centisecs=100 -o out2 \
	>demo2.out 2>demo2.err &
pid=$!
for _ in $(seq 1 100); do
	grep -q "for this run" demo2.out 2>/dev/null && break
	sleep 0.1
done
sleep 1
check_eq vm_changed_during "$(cat /proc/sys/vm/dirty_writeback_centisecs)" 0
kill -INT $pid
wait $pid
check_eq interrupted_exit $? 130
check_eq vm_restored_after_sigint "$(vm)" "$before"
exit $((T_FAILS > 0))
