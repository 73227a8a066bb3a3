#!/bin/bash
# The license: LICENSE is the GPL version 2 text (as Debian ships it), every
# source file's SPDX header names GPL-2.0, and the BPF object declares a
# license string the kernel takes as GPL-compatible and that says version 2.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1
if [ -r /usr/share/common-licenses/GPL-2 ]; then
	check_cmd license-is-gpl2 cmp -s LICENSE /usr/share/common-licenses/GPL-2
else
	check_grep license-is-gpl2 "GNU GENERAL PUBLIC LICENSE" LICENSE
	check_grep license-version "Version 2, June 1991" LICENSE
fi
# sources that must carry the header: ours, not the generated vmlinux.h
files=$(git ls-files '*.c' '*.h' '*.sh' '*.py' 'Makefile' 'scripts/*' 'contrib/*' 'tests/run' |
	grep -v '^probes/vmlinux\.h$')
bad=$(for f in $files; do
	[ -f "$f" ] || continue
	l=$(head -3 "$f" | grep -o 'SPDX-License-Identifier: [^ */]*' | head -1)
	[ -z "$l" ] && continue
	[ "$l" = "SPDX-License-Identifier: GPL-2.0" ] || echo "$f: $l"
done)
check_eq spdx-all-gpl2 "$bad" ""
without=$(for f in $(git ls-files 'lib/*.c' 'cli/*.c' 'analyzer/*.c' 'analyzer/*/*.c' 'tui/*.c' \
		'collector/*.c' 'probes/*.bpf.c' 'include/fslens/*.h' 'scenarios/*.c'); do
	head -3 "$f" | grep -q 'SPDX-License-Identifier:' || echo "$f"
done)
check_eq spdx-everywhere "$without" ""
# the license section the kernel reads (license_is_gpl_compatible takes "GPL v2"),
# in every probe object
for src in probes/*.bpf.c; do
	n=$(basename "$src" .bpf.c)
	check_grep "bpf-license-source-$n" 'SEC\("license"\) = "GPL v2";' "$src"
	obj=${BUILD:-build}/probes/$n.bpf.o
	if [ -e "$obj" ]; then
		check_eq "bpf-license-object-$n" "$(readelf -p license "$obj" | sed -nE 's/^ +\[ +0\] +//p')" "GPL v2"
	else
		skip "bpf-license-object-$n" "no $obj (built without BPF)"
	fi
done
exit $((T_FAILS != 0))
