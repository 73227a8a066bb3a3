#!/bin/bash
# Bad command lines (issue 19, "Bad CLI input"): one line that says what is
# wrong and where the usage is, exit 2; nothing is mounted or recorded first.
. "$(dirname "$0")/../lib.sh"
G=$PWD/tests/data/golden.trace
cd "$T_TMP" || exit 1

# name | command | the first line it must print
cases=(
"record_e_empty|record -e '' -- true|fslens record: -e needs a family list \(e.g. -e block,journal\)"
"record_e_bogus|record -e bogus -- true|fslens record: unknown event family 'bogus'"
"record_m_noarg|record -m|fslens record: option '-m' needs a value"
"record_long_noarg|record --min-wait|fslens record: option '--min-wait' needs a value"
"record_unknown|record --bogus -- true|fslens record: unknown option '--bogus'"
"record_unknown_short|record -Z -- true|fslens record: unknown option '-Z'"
"record_pid_gone|record -p 999999|fslens record: -p: no process 999999"
"record_pid_bad|record -p 12x|fslens record: bad pid '12x'"
"report_section_noarg|report $G --section|fslens report: option '--section' needs a value"
"report_unknown|report $G --bogus|fslens report: unknown option '--bogus'"
"replay_unknown|replay $G --bogus|fslens replay: unknown option '--bogus'"
"export_unknown|export $G --bogus|fslens export: unknown option '--bogus'"
"export_format_noarg|export $G --format|fslens export: option '--format' needs a value"
"import_unknown|import --bogus|fslens import: unknown option '--bogus'"
"compare_unknown|compare --bogus $G|fslens compare: unknown option '--bogus'"
"dump_unknown|dump --bogus $G|fslens dump: unknown option '--bogus'"
"info_unknown|info --bogus $G|fslens info: unknown option '--bogus'"
"top_unknown|top --bogus|fslens top: unknown option '--bogus'"
"demo_unknown|demo --bogus|fslens demo: unknown option '--bogus'"
"demo_negative|demo createmany --set n=-5|fslens demo: malformed parameter 'n=-5' for createmany"
"demo_dirty_bytes|demo createmany --set dirty_bytes=abc|fslens demo: malformed parameter 'dirty_bytes=abc' for createmany"
"demo_journal|demo htree --set journal=xyz|fslens demo: malformed parameter 'journal=xyz' for htree"
"demo_n_yes|demo htree --set n=yes|fslens demo: malformed parameter 'n=yes' for htree \(see 'fslens demo --list'\)$"
"demo_n_no|demo createmany --set n=no|fslens demo: malformed parameter 'n=no' for createmany"
"demo_n_empty|demo htree --set n=|fslens demo: malformed parameter 'n=' for htree \(see 'fslens demo --list'\)$"
"demo_seed_word|demo bonnie --set seed=on|fslens demo: malformed parameter 'seed=on' for bonnie"
"demo_switch_word|demo htree --set sync=maybe|fslens demo: malformed parameter 'sync=maybe' for htree"
"demo_switch_empty|demo htree --set sync=|fslens demo: malformed parameter 'sync=' for htree"
"demo_matrix_last|demo htree --matrix n=100,yes|fslens demo: malformed parameter 'n=yes' for htree \(see 'fslens demo --list'\)$"
"demo_unknown_param|demo htree --set bogus=1|fslens demo: unknown parameter 'bogus=1' for htree \(see 'fslens demo --list'\)$"
)
for c in "${cases[@]}"; do
	IFS='|' read -r name cmd want <<<"$c"
	eval "timeout 20 \"\$FSLENS\" $cmd" >out 2>err </dev/null
	rc=$?
	check_eq "$name.rc" $rc 2
	if head -1 err | grep -qE "^$want"; then pass "$name.msg"; else fail "$name.msg" "$(head -c 300 err)"; fi
	# one line (see --help for the usage), pointing to one place
	check_eq "$name.lines" "$(wc -l <err)" 1
	case $name in demo_*) check_eq "$name.see_once" "$(grep -o '(see ' err | wc -l)" 1 ;; esac
	check_eq "$name.stdout" "$(wc -c <out)" 0
done
# what the checks take: switches as words, numbers as numbers, an empty size
# as "leave it" (the workload alone, in a directory: no mkfs, no root needed)
mkdir w
"$FSLENS" demo --run-workload htree --dir w --scale small --set n=3 --set sync=yes \
	--set drop_caches=off --set journal= --set seed=7 >out 2>err
check_eq demo_valid_sets.rc $? 0
check_eq demo_valid_sets.dirs "$(find w/htree -mindepth 1 -maxdepth 1 -type d | wc -l)" 3
"$FSLENS" demo --run-workload htree --dir w --set n=yes >out 2>err
check_eq demo_workload_n_yes.rc $? 2
check_eq demo_workload_n_yes.msg "$(cat err)" \
	"fslens demo: malformed parameter 'n=yes' for htree (see 'fslens demo --list')"

# a command that cannot run: 127 as from a shell, said at once, no trace written
"$FSLENS" record -o nx.trace -- nonexistent-command-19 >out 2>err
check_eq nocmd.rc $? 127
check_eq nocmd.msg "$(cat err)" "fslens record: cannot run 'nonexistent-command-19': No such file or directory"
check_eq nocmd.no_trace "$(ls nx.trace 2>/dev/null)" ""
"$FSLENS" record -o nx.trace -- /etc/passwd >out 2>err
check_eq noexec.rc $? 127
check_eq noexec.msg "$(cat err)" "fslens record: cannot run '/etc/passwd': Permission denied"

# the line says where the usage is
"$FSLENS" record --bogus 2>err
check_eq usage_line "$(cat err)" "fslens record: unknown option '--bogus' (see 'fslens record --help')"
exit 0
