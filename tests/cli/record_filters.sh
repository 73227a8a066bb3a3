#!/bin/bash
# record's filter options: bad -p/--tid lists and a --cgroup that is not a
# cgroup v2 directory are refused with one line naming the bad part, before
# anything is loaded (no root needed for these).
. "$(dirname "$0")/../lib.sh"

"$FSLENS" record -p 12,,3 -o "$T_TMP/x.trace" >/dev/null 2>"$T_TMP/e1"
check_eq bad_pid_list_rc "$?" 2
check_grep bad_pid_list_msg "bad pid '' in -p '12,,3'" "$T_TMP/e1"
"$FSLENS" record -p 12,abc -o "$T_TMP/x.trace" >/dev/null 2>"$T_TMP/e2"
check_grep bad_pid_item_msg "bad pid 'abc' in -p '12,abc'" "$T_TMP/e2"
"$FSLENS" record --tid 0 -o "$T_TMP/x.trace" >/dev/null 2>"$T_TMP/e3"
check_eq bad_tid_rc "$?" 2
check_grep bad_tid_msg "bad tid '0' in --tid '0'" "$T_TMP/e3"
"$FSLENS" record -p 1,2 -o "$T_TMP/x.trace" -- true >/dev/null 2>"$T_TMP/e4"
check_grep pid_and_command "give -p or a command, not both" "$T_TMP/e4"
"$FSLENS" record --cgroup "$T_TMP/nope" -o "$T_TMP/x.trace" >/dev/null 2>"$T_TMP/e5"
check_grep cgroup_missing "--cgroup '.*nope' is not a directory" "$T_TMP/e5"
"$FSLENS" record --cgroup "$T_TMP" -o "$T_TMP/x.trace" >/dev/null 2>"$T_TMP/e6"
check_eq cgroup_not_v2_rc "$?" 2
check_grep cgroup_not_v2 "is not in a cgroup v2 hierarchy" "$T_TMP/e6"
if [ -e "$T_TMP/x.trace" ]; then fail no_trace_left "a refused record left a trace"; else pass no_trace_left; fi
[ $T_FAILS -eq 0 ]
