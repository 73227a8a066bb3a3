#!/bin/bash
# Captures the on-CPU stacks of tests/data/cpustacks/real.txt: runs each
# workload on a scratch ext4 on a loop device under a bpftrace profile of
# every task at 499 Hz (root). The fixture lines were then picked from the
# workload's tasks (top stacks, at most 3 per class per workload) and the
# expected class of each was read from its frames by hand.
set -u
IMG=/tmp/cap/img; MNT=/tmp/cap/mnt
mkdir -p $MNT
run() { # name mkfsopts workload
	local name=$1 opts=$2 work=$3
	rm -f $IMG; truncate -s 1G $IMG
	L=$(losetup -f --show $IMG)
	mkfs.ext4 -q $opts $L && mount $L $MNT
	bpftrace -e 'profile:hz:499 /pid != 0 && comm != "bpftrace"/ { @[comm, kstack] = count(); } ' -o /tmp/cap/$name.bt &
	BP=$!; sleep 2
	(cd $MNT && bash -c "$work")
	sleep 0.5; kill -INT $BP; wait $BP
	umount $MNT; losetup -d $L
}
run nodirindex "-O ^dir_index" 'mkdir d && cd d && seq 1 6000 | xargs touch && seq 1 6000 | xargs stat >/dev/null && seq 1 6000 | xargs rm'
run tarcopy "" 'tar -C /usr/lib -cf - python3 2>/dev/null | tar -xf - ; sync'
run mkdirstorm "-b 1024 -J size=1" 'mkdir d && cd d && seq 1 20000 | xargs mkdir'
run ddrw "" 'dd if=/dev/zero of=f bs=1M count=400 status=none; sync; echo 3 > /proc/sys/vm/drop_caches; dd if=f of=/dev/null bs=1M status=none; dd if=f of=/dev/null bs=4k status=none'
