#!/bin/bash
# -m is one filesystem's mount point (issue 19, item 7): a regular file or a
# directory inside a filesystem is refused with what to give instead, and an
# unmount of the target while recording is noticed and said.
. "$(dirname "$0")/../lib.sh"
require_bpf
cd "$T_TMP" || exit 1
scratch_fs 64 ext4 || { fail scratch "cannot make a scratch ext4"; exit 1; }
mkdir "$SCRATCH_MNT/sub"
: >"$SCRATCH_MNT/file"

"$FSLENS" record -m "$SCRATCH_MNT/file" -o f.trace -- true 2>err
check_eq file.rc $? 1
check_eq file.msg "$(cat err)" "fslens: cannot use '$SCRATCH_MNT/file': not a directory; -m takes the mount point of the filesystem to record"
check_eq file.no_trace "$(ls f.trace 2>/dev/null)" ""

"$FSLENS" record -m "$SCRATCH_MNT/sub" -o s.trace -- true 2>err
check_eq sub.rc $? 1
check_eq sub.msg "$(cat err)" "fslens: cannot use '$SCRATCH_MNT/sub': not a mount point, it is inside the filesystem mounted at '$SCRATCH_MNT' (give -m $SCRATCH_MNT to record that one)"

# the mount point itself, with a trailing slash: fine
"$FSLENS" record -e dirops,proc -m "$SCRATCH_MNT/" -o ok.trace -- mkdir "$SCRATCH_MNT/d" 2>err
check_eq mountpoint.rc $? 0

# unmounted under the recording: said once, with when; the recording ends normally
"$FSLENS" record -e dirops,proc -m "$SCRATCH_MNT" -o um.trace -- \
	sh -c "sleep 1.5; umount -l '$SCRATCH_MNT'; sleep 2.5; echo done" >out 2>err
check_eq unmount.rc $? 0
check_eq unmount.workload "$(cat out)" done
check_grep unmount.msg "^fslens record: warning: $SCRATCH_MNT was unmounted [0-9.]+ s into the recording: nothing more of that filesystem is recorded$" err
check_eq unmount.once "$(grep -c 'was unmounted' err)" 1
exit 0
