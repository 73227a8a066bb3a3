#!/bin/bash
# The truth harness (tests/helpers/truth.sh, truth.py) on the real workloads
# the other truth tests do not run: dbench, fio (libaio random writes at
# iodepth 16, O_DIRECT; a buffered sequential read from a cold cache), a
# createmany (empty files in one directory), a dd with fsync, and tar copies
# of /usr/lib/python3* with and without delalloc. bonnie++ is in
# cause_bonnie, the mkdir storm and the cold du in journal_figures. The tar
# copies are not frag_taker's: there the source is on the root filesystem,
# whose reads fslens rightly leaves out of the target's causes and a tally
# of the same tasks cannot (255 ms of page waits reading the source, ranked
# first by the tally alone); here the source is unpacked on the target
# first and copied, cold, to another directory of it. For each, against
# what bpftrace and /proc say of the same tasks and device:
#  - the top cause (wait or CPU) equals the tally's, its share within 10 points;
#  - the whole-time parts add to the wall, and the wall equals the tasks'
#    lifetimes within 2%;
#  - commits and the average commit time equal /proc/fs/jbd2;
#  - the data written by cause equals the device's completed data writes
#    within 2%.
# Sizes are small for make check; bench/truth.sh runs them at full size
# (TRUTH_* variables) and prints the table of figures.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../helpers/truth.sh"
require_bpf
ensure_tracefs
command -v bpftrace >/dev/null || { skip all "bpftrace not installed"; exit 0; }
STORM=${TOP:-$PWD}/build/tests/create_storm
ONLY=${TRUTH_ONLY:-dbench fio_randwrite fio_seqread createmany dd_fsync tar_delalloc tar_nodelalloc}
want() { [[ " $ONLY " == *" $1 "* ]]; }

fresh() {	# a scratch ext4 of $1 MiB, inode tables written at mkfs (no lazy init)
	if [ -n "${SCRATCH_LOOP:-}" ]; then
		umount "$SCRATCH_MNT" 2>/dev/null
		losetup -d "$SCRATCH_LOOP" 2>/dev/null
	fi
	scratch_fs "$1" ext4 -E lazy_itable_init=0,lazy_journal_init=0 "${@:2}"
}

if want dbench; then
	if command -v dbench >/dev/null; then
		fresh "${TRUTH_DBENCH_MB:-1024}" || { fail dbench-setup "no scratch fs"; exit 1; }
		truth_warm dbench
		truth_run dbench "dbench -D $SCRATCH_MNT -c /usr/share/dbench/client.txt \
			-t ${TRUTH_DBENCH_S:-8} ${TRUTH_DBENCH_CLIENTS:-4} >/dev/null 2>&1"
		truth_check dbench
	else
		skip dbench "dbench not installed"
	fi
fi

if want fio_randwrite || want fio_seqread; then
	command -v fio >/dev/null || { skip fio "fio not installed"; ONLY=${ONLY//fio_/no_}; }
fi
if want fio_randwrite; then
	# the file laid out (written, not fallocated) before: the run only overwrites
	fresh "${TRUTH_FIO_FS_MB:-512}" || { fail fio-setup "no scratch fs"; exit 1; }
	dd if=/dev/zero of="$SCRATCH_MNT/rw.dat" bs=1M count="${TRUTH_FIO_MB:-64}" status=none
	truth_warm fio
	truth_run fio_randwrite "fio --name=rw --filename=$SCRATCH_MNT/rw.dat \
		--size=${TRUTH_FIO_MB:-64}M --rw=randwrite --bs=4k --ioengine=libaio --iodepth=16 \
		--direct=1 --runtime=${TRUTH_FIO_S:-6} --time_based >/dev/null 2>&1"
	truth_check fio_randwrite
fi
if want fio_seqread; then
	fresh "${TRUTH_FIO_FS_MB:-512}" || { fail fio-setup "no scratch fs"; exit 1; }
	dd if=/dev/zero of="$SCRATCH_MNT/sr.dat" bs=1M count="${TRUTH_FIO_READ_MB:-192}" status=none
	sync
	echo 3 >/proc/sys/vm/drop_caches
	truth_warm fio
	truth_run fio_seqread "fio --name=sr --filename=$SCRATCH_MNT/sr.dat \
		--size=${TRUTH_FIO_READ_MB:-192}M --rw=read --bs=128k --ioengine=psync \
		>/dev/null 2>&1"
	truth_check fio_seqread
fi

if want createmany; then
	if [ -x "$STORM" ]; then
		fresh 1024 -N "${TRUTH_CREATE_INODES:-65536}" || { fail create-setup "no scratch fs"; exit 1; }
		mkdir "$SCRATCH_MNT/d"
		truth_warm "$STORM"
		truth_run createmany "$STORM $SCRATCH_MNT/d ${TRUTH_CREATES:-20000} $T_TMP/storm.own"
		truth_check createmany
	else
		skip createmany "build/tests/create_storm not built"
	fi
fi

if want dd_fsync; then
	fresh 512 || { fail dd-setup "no scratch fs"; exit 1; }
	truth_run dd_fsync "dd if=/dev/zero of=$SCRATCH_MNT/f bs=1M count=${TRUTH_DD_MB:-96} \
		conv=fsync status=none"
	truth_check dd_fsync
fi
SRC=
for d in /usr/lib/python3.11 /usr/lib/python3 /usr/include; do
	[ -d "$d" ] && { SRC=$d; break; }
done
for mode in delalloc nodelalloc; do
	want "tar_$mode" || continue
	[ -n "$SRC" ] || { skip "tar_$mode" "no source tree"; continue; }
	fresh "${TRUTH_TAR_FS_MB:-512}" || { fail tar-setup "no scratch fs"; exit 1; }
	umount "$SCRATCH_MNT" && mount -o "$mode" "$SCRATCH_LOOP" "$SCRATCH_MNT" ||
		{ fail "tar_$mode-mount" "mount -o $mode failed"; continue; }
	mkdir "$SCRATCH_MNT/src" "$SCRATCH_MNT/dst"
	tar cf - -C "$(dirname "$SRC")" "$(basename "$SRC")" | tar xf - -C "$SCRATCH_MNT/src"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	truth_warm tar
	truth_run "tar_$mode" "tar cf - -C $SCRATCH_MNT/src . | tar xf - -C $SCRATCH_MNT/dst"
	truth_check "tar_$mode"
done
exit $((T_FAILS > 0))
