#!/bin/bash
# top's filter options, as record's: bad -p/--tid lists and a --cgroup that is
# not a cgroup v2 directory are refused with one line naming the bad part;
# --tid and --cgroup (kernel filters) are refused with --replay; -p 1,2 on a
# replay shows those processes only (no root needed for these).
. "$(dirname "$0")/../lib.sh"
B=$T_BUILD

"$FSLENS" top -p 12,,3 -b >/dev/null 2>"$T_TMP/e1"
check_eq bad_pid_list_rc "$?" 2
check_grep bad_pid_list_msg "bad pid '' in -p '12,,3'" "$T_TMP/e1"
"$FSLENS" top --tid 0 -b >/dev/null 2>"$T_TMP/e2"
check_eq bad_tid_rc "$?" 2
check_grep bad_tid_msg "bad tid '0' in --tid '0'" "$T_TMP/e2"
"$FSLENS" top --cgroup "$T_TMP/nope" -b >/dev/null 2>"$T_TMP/e3"
check_grep cgroup_missing "--cgroup '.*nope' is not a directory" "$T_TMP/e3"
"$FSLENS" top --cgroup "$T_TMP" -b >/dev/null 2>"$T_TMP/e4"
check_eq cgroup_not_v2_rc "$?" 2
check_grep cgroup_not_v2 "fslens top: --cgroup '.*' is not in a cgroup v2 hierarchy" "$T_TMP/e4"

# a replay: --tid/--cgroup refused, -p 1001,1002 is a filter of two processes
"$B/tests/top_trace" "$T_TMP/t.trace" >/dev/null 2>&1 || { fail setup "top_trace"; exit 1; }
"$FSLENS" top --replay "$T_TMP/t.trace" --tid 5 -b >/dev/null 2>"$T_TMP/e5"
check_eq replay_tid_rc "$?" 2
check_grep replay_tid_msg "filter in the kernel, live" "$T_TMP/e5"
"$FSLENS" top --replay "$T_TMP/t.trace" -b -a -w 120 --view processes >"$T_TMP/all" 2>/dev/null
"$FSLENS" top --replay "$T_TMP/t.trace" -b -a -w 120 -p 1001,1002 >"$T_TMP/two" 2>/dev/null
check_eq replay_pid_list_rc "$?" 0
# the process rows: a pid first, then its comm
rows() { grep -E '^ +[0-9]+ [a-z]' "$1" | awk '{print $1}' | sort -un | tr '\n' ' '; }
check_eq replay_all_rows "$(rows "$T_TMP/all")" "200 1001 1002 "
check_eq replay_pid_list_rows "$(rows "$T_TMP/two")" "1001 1002 "
check_grep replay_pid_list_header "filter 1001,1002" "$T_TMP/two"
[ $T_FAILS -eq 0 ]
