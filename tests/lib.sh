# Shared helpers for shell tests (sourced). Each test prints one line per
# check: "PASS name", "FAIL name: why", "SKIP name: why" (tests/run counts them).
set -u
T_NAME=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
T_SUITE=$(basename "$(dirname "${BASH_SOURCE[1]:-$0}")")
FSLENS=${FSLENS:-$PWD/build/fslens}
# the build directory, absolute (tests/run exports BUILD, perhaps relative, and TOP)
case ${BUILD:-build} in /*) T_BUILD=$BUILD ;; *) T_BUILD=${TOP:-$PWD}/${BUILD:-build} ;; esac
T_FAILS=0

pass() { echo "PASS $T_SUITE/$T_NAME:$1"; }
fail() { echo "FAIL $T_SUITE/$T_NAME:$1: ${2:-}"; T_FAILS=$((T_FAILS + 1)); }
skip() { echo "SKIP $T_SUITE/$T_NAME:$1: ${2:-}"; }
# check_eq NAME GOT WANT
check_eq() { if [ "$2" == "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi; }
# check_cmd NAME CMD... : passes if the command succeeds
check_cmd() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "command failed: $*"; fi; }
# check_ge NAME GOT MIN
check_ge() { if [ "$2" -ge "$3" ] 2>/dev/null; then pass "$1"; else fail "$1" "got '$2', want >= $3"; fi; }
# check_le NAME GOT MAX
check_le() { if [ "$2" -le "$3" ] 2>/dev/null; then pass "$1"; else fail "$1" "got '$2', want <= $3"; fi; }
# check_grep NAME PATTERN FILE
check_grep() { if grep -qE -- "$2" "$3"; then pass "$1"; else fail "$1" "no /$2/ in $3: $(head -c 300 "$3")"; fi; }

T_TMP=$(mktemp -d /tmp/fslens-test.XXXXXX)
T_CLEANUP=()
t_on_exit() {
	local i
	for ((i = ${#T_CLEANUP[@]} - 1; i >= 0; i--)); do eval "${T_CLEANUP[$i]}" >/dev/null 2>&1; done
	[ -n "${T_KEEP:-}" ] || rm -rf "$T_TMP"
}
trap t_on_exit EXIT
trap 'exit 130' INT TERM
at_exit() { T_CLEANUP+=("$*"); }

# bt_start OUT PROGRAM: bpftrace PROGRAM in the background, its maps to OUT
# and its errors to OUT.err, its pid in BT (stopped by SIGINT at exit if
# still running); returns once it says it is attaching (10 s at most)
bt_start() {
	bpftrace -e "$2" -o "$1" >/dev/null 2>"$1.err" &
	BT=$!
	at_exit "kill -INT $BT 2>/dev/null"
	for _ in $(seq 1 100); do
		grep -q Attaching "$1" 2>/dev/null && break
		sleep 0.1
	done
}

# Skip the whole script (one SKIP line) when a capability is truly missing.
require_root() {
	if [ "$(id -u)" -ne 0 ]; then skip all "needs root"; exit 0; fi
}
require_bpf() {
	require_root
	if [ ! -r /sys/kernel/btf/vmlinux ]; then skip all "kernel has no BTF"; exit 0; fi
	if ! "$FSLENS" record --help 2>&1 | grep -q -- '--min-wait'; then
		skip all "fslens built without BPF support"; exit 0
	fi
}

ensure_tracefs() {
	[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
}

# scratch_fs SIZE_MB FSTYPE [mkfs options...]
# Makes a sparse image, a loop device and a mount; sets SCRATCH_IMG,
# SCRATCH_LOOP, SCRATCH_MNT, SCRATCH_DEV (MAJ:MIN of the loop device).
# Always torn down at exit.
scratch_fs() {
	local size=$1 fstype=$2; shift 2
	SCRATCH_IMG=$T_TMP/img
	SCRATCH_MNT=$T_TMP/mnt
	mkdir -p "$SCRATCH_MNT"
	truncate -s "${size}M" "$SCRATCH_IMG" || return 1
	case $fstype in
	ext4) mkfs.ext4 -q -F "$@" "$SCRATCH_IMG" >/dev/null 2>&1 || return 1 ;;
	xfs)  mkfs.xfs -q -f "$@" "$SCRATCH_IMG" >/dev/null 2>&1 || return 1 ;;
	*) return 1 ;;
	esac
	SCRATCH_LOOP=$(losetup -f --show "$SCRATCH_IMG") || return 1
	at_exit "losetup -d $SCRATCH_LOOP"
	mount "$SCRATCH_LOOP" "$SCRATCH_MNT" || return 1
	at_exit "umount -l $SCRATCH_MNT"
	SCRATCH_DEV=$(lsblk -ndo MAJ:MIN "$SCRATCH_LOOP" | tr -d ' ')
}
# second_fs NAME SIZE_MB [mkfs.ext4 options...]: another ext4, the image
# $T_TMP/NAME.img on a loop device mounted at $T_TMP/NAME (with
# MOUNT_OPTS if set); sets SECOND_MNT, SECOND_LOOP, SECOND_DEV (MAJ:MIN).
# Always torn down at exit.
second_fs() {
	local name=$1 size=$2; shift 2
	truncate -s "${size}M" "$T_TMP/$name.img" &&
		mkfs.ext4 -q -F "$@" "$T_TMP/$name.img" >/dev/null 2>&1 || return 1
	SECOND_LOOP=$(losetup -f --show "$T_TMP/$name.img") || return 1
	at_exit "losetup -d $SECOND_LOOP"
	SECOND_MNT=$T_TMP/$name
	mkdir -p "$SECOND_MNT" &&
		mount ${MOUNT_OPTS:+-o "$MOUNT_OPTS"} "$SECOND_LOOP" "$SECOND_MNT" || return 1
	at_exit "umount -l $SECOND_MNT"
	SECOND_DEV=$(lsblk -ndo MAJ:MIN "$SECOND_LOOP" | tr -d ' ')
}

# wait_metrics PORT: until fslens monitor serves /metrics on 127.0.0.1:PORT
# (20 s at most; returns 1 if it never did)
wait_metrics() {
	for _ in $(seq 1 80); do
		curl -sf "http://127.0.0.1:$1/metrics" >/dev/null && return 0
		sleep 0.25
	done
	return 1
}

# Unmount (keeping the loop device) so e2fsck/debugfs see a clean image.
scratch_umount() { sync; umount "$SCRATCH_MNT"; }
