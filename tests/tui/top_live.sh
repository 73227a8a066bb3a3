#!/bin/bash
# Live fslens top on a scratch ext4 under a create storm: the storm's
# process shows non-zero ops/s and creates, and the journal view lists one
# row per transaction the kernel committed meanwhile (/proc/fs/jbd2/*/info).
. tests/lib.sh
require_bpf
. tests/tui/tmux.bash
ensure_tracefs

scratch_fs 128 ext4 || { fail scratch "cannot make a scratch ext4"; exit 1; }
jinfo=$(ls -d /proc/fs/jbd2/"$(basename "$SCRATCH_LOOP")"-*/info 2>/dev/null | head -1)
[ -r "$jinfo" ] || { fail jbd2-info "no /proc/fs/jbd2 entry for $SCRATCH_LOOP"; exit 1; }
txns() { awk 'NR == 1 { print $1 }' "$jinfo"; }
# A storm with a name of its own: touch under another name, 2000 files at once.
cp "$(command -v touch)" "$T_TMP/fslstorm"
mkdir "$SCRATCH_MNT/d"
sync -f "$SCRATCH_MNT"

tm_start l 100 60 -- top -m "$SCRATCH_MNT" -i 0.5 -a
if ! tm_wait l 'elapsed .*live' 15; then
	fail start "$(tm_screen l | head -5)"
	exit 1
fi
sleep 0.5
t0=$(txns)
# The pid survives the exec, so the row is found by pid whatever name it shows.
(cd "$SCRATCH_MNT/d" && bash -c 'echo $$ > "$1"; shift; exec "$@"' storm "$T_TMP/storm.pid" \
	"$T_TMP/fslstorm" $(seq -f 'f%g' 1 2000)) || fail storm "touch failed"
spid=$(cat "$T_TMP/storm.pid")
sync -f "$SCRATCH_MNT"
t1=$(txns)
# the live clock runs 0.25 s behind, and a frame comes every 0.5 s
sleep 1.5

check_eq files-made "$(ls "$SCRATCH_MNT/d" | wc -l)" 2000
scr=$T_TMP/screen
tm_screen l > "$scr"
ops=$(sed -nE 's/.* ops\/s ([0-9]+)\.[0-9].*/\1/p' "$scr" | head -1)
check_ge header-ops-nonzero "${ops:-0}" 1
cre=$(sed -nE 's/.*creates\/s ([0-9]+)\.[0-9].*/\1/p' "$scr" | head -1)
check_ge header-creates-nonzero "${cre:-0}" 1

tm_keys l f $(sed 's/./& /g' <<< "$spid") Enter
tm_wait l "^ +$spid " 5
row=$(tm_row l "^ +$spid ")
if [ -n "$row" ]; then
	pass storm-row
	# 2000 creates over the seconds top has been up: a non-zero rate
	check_eq storm-ops-nonzero "$(awk '{ print ($4 > 0) }' <<< "$row")" 1
	# the name after the exec, not the shell's
	check_eq storm-comm "$(awk '{ print $2 }' <<< "$row")" fslstorm
else
	fail storm-row "no row for the storm's pid $spid: $(tm_screen l | sed -n 5,9p)"
fi
tm_keys l Escape 3
tm_wait l 'TID TRIGGER' 3 || fail journal-view "$(tm_screen l | head -6)"
tm_screen l > "$scr"
rows=$(grep -cE '^ +[0-9]+ [a-z_]+ +[0-9]+ +[0-9]+ ' "$scr")
check_ge journal-row "$rows" 1
# every transaction jbd2 committed while top ran, and no other
check_eq journal-rows-vs-jbd2-info "$rows" "$((t1 - t0))"
tm_keys l q
tm_check_restored l live-q

# -d DEV names the same filesystem; batch mode works live too
out=$("$FSLENS" top -d "$SCRATCH_LOOP" -b -n 2 -i 0.3 -w 100 2>"$T_TMP/err"); rc=$?
check_eq dev-batch-rc "$rc" 0
check_eq dev-batch-frames "$(grep -c '^ fslens top' <<< "$out")" 2
# the device by the kernel's name (lsblk's KNAME), not MAJ:MIN
kname=$(lsblk -ndo KNAME "$SCRATCH_LOOP")
check_grep dev-batch-target "^ fslens top  $SCRATCH_MNT \\($kname\\)  elapsed [0-9.]+s  interval" <(head -1 <<< "$out")
# -d takes the kernel name and MAJ:MIN as well as the node
for d in "$kname" "$SCRATCH_DEV"; do
	out=$("$FSLENS" top -d "$d" -b -n 1 -i 0.2 -w 100 2>"$T_TMP/err")
	check_grep "dev-as-$d" "^ fslens top  $SCRATCH_MNT \\($kname\\)  elapsed" <(head -1 <<< "$out")
done
"$FSLENS" top -d nosuchdev0 -b -n 1 >/dev/null 2>"$T_TMP/err"
check_eq bad-dev-rc $? 2
check_grep bad-dev-msg "^fslens top: -d nosuchdev0: no such block device; give a block device as /dev/NAME, NAME or MAJ:MIN$" "$T_TMP/err"
"$FSLENS" top -m "$T_TMP/nonexistent" -b -n 1 >/dev/null 2>"$T_TMP/err"
check_eq bad-mount-rc $? 1
check_grep bad-mount-msg "^fslens: cannot use '$T_TMP/nonexistent': " "$T_TMP/err"
exit 0
