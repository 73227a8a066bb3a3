#!/bin/bash
# Block accounting against the kernel, on fio (scratch ext4 on a loop device):
#  - a libaio random write at iodepth 16 with O_DIRECT, and a sequential
#    buffered read of a file written before the recording;
#  - completions, merges, sectors and flushes equal the /sys/block/DEV/stat
#    delta the trace stores (the completions the trace has no record of,
#    known from their request slot issued again, counted with their reason);
#  - every issue paired with its completion or unpaired with a reason;
#  - btt's stages (Q2Q Q2G G2I Q2M I2D M2D D2C Q2C) equal btt on the
#    kernel's own blktrace of the same run (tests/helpers/blk_capture.sh),
#    and btt on fslens's blktrace export;
#  - no request of fio's takes longer from its Q to its completion than fio
#    measured from submission to completion.
# Read-ahead stays under max_sectors_kb: no bio is split (btt's matching of
# a split bio depends on its own tree's shape, docs/report-json.md).
. "$(dirname "$0")/../lib.sh"
require_bpf
. "$(dirname "$0")/../helpers/blk_capture.sh"
blk_require

scratch_fs 160 ext4 -E lazy_itable_init=0,lazy_journal_init=0 ||
	{ fail setup "cannot make scratch fs"; exit 1; }
M=$SCRATCH_MNT
LOOP=$(basename "$SCRATCH_LOOP")
cd "$T_TMP" || exit 1
ra=$(cat /sys/block/"$LOOP"/queue/read_ahead_kb)
at_exit "echo $ra > /sys/block/$LOOP/queue/read_ahead_kb"
echo 512 >/sys/block/"$LOOP"/queue/read_ahead_kb

# random write
blk_capture_start "$LOOP"
"$FSLENS" record -m "$M" -o w.trace -- fio --name=rw --filename="$M/w" --size=32M \
	--rw=randwrite --bs=4k --ioengine=libaio --iodepth=16 --direct=1 --io_size=48M \
	--output-format=json --output=w.fio.json >rec.w.out 2>&1
check_eq randwrite.record.rc "$?" 0
blk_capture_stop w.trace cap.w
blk_check_all w.trace "$SCRATCH_DEV" cap.w randwrite
read -r lat_max fio_ios < <("$BLK_PY" -c "
import json
j = json.load(open('w.fio.json'))['jobs'][0]['write']
print(j['lat_ns']['max'], j['total_ios'])")
read -r f_ios f_q2c_max f_unseen < <("$BLK_PY" - "$T_TMP/randwrite.rep.json" "$SCRATCH_DEV" <<'PYEOF'
import json, sys
d = [x for x in json.load(open(sys.argv[1]))['blockio'] if x['dev'] == sys.argv[2]][0]
f = [i for i in d['issuers'] if i['comm'] == 'fio'][0]
print(f['ios'], int(f['q2c_max_us'] * 1000), d['pairing']['completion_not_seen'])
PYEOF
)
echo "fio: $fio_ios ios, lat max $lat_max ns; fslens: fio's $f_ios requests, Q2C max" \
	"$f_q2c_max ns; $f_unseen completions not seen" >&2
# fio's 4k random writes are its requests, less those whose completion the
# trace has no record of (the issuer of a request counts at its completion)
check_ge randwrite.fio_requests $((f_ios + f_unseen)) $((fio_ios - 16))
# fio's time runs from its submission to its reaping: a request's Q2C is inside it
check_le randwrite.q2c_max_within_fio "$f_q2c_max" $((lat_max + 1000000))

# sequential buffered read of a file written and dropped from the cache first
dd if=/dev/urandom of="$M/r" bs=1M count=48 conv=fsync status=none
echo 3 >/proc/sys/vm/drop_caches
blk_capture_start "$LOOP"
"$FSLENS" record -m "$M" -o r.trace -- fio --name=sr --filename="$M/r" --size=48M \
	--rw=read --bs=128k --ioengine=psync --direct=0 --output-format=json \
	--output=r.fio.json >rec.r.out 2>&1
check_eq seqread.record.rc "$?" 0
blk_capture_stop r.trace cap.r
blk_check_all r.trace "$SCRATCH_DEV" cap.r seqread
check_eq seqread.splits "$(awk '$1 == "SPLITS" { print $2 }' "$T_TMP/seqread.fsl")" 0
check_ge seqread.read_sectors "$(awk '$1 == "read.sectors" { print $2 }' "$T_TMP/seqread.kc")" 98304

[ $T_FAILS -eq 0 ]
