#!/bin/bash
# make deb, then install the package in a fresh Debian 12 root (mmdebstrap,
# apt resolving its Depends from the archive, nothing of this machine's),
# and run it there: fslens --version, and fslens report on a test trace,
# whose text must equal the build tree's report of the same trace.
# Downloads a minimal root's packages once; they are kept in
# /var/tmp/fslens-apt-cache for the next run.
. tests/lib.sh
[ "$(id -u)" -eq 0 ] || { skip fresh-root "needs root"; exit 0; }
command -v mmdebstrap >/dev/null || { skip fresh-root "no mmdebstrap (make deps)"; exit 0; }
make --no-print-directory -s BUILD="$BUILD" deb >"$T_TMP/out" 2>&1 || { fail deb "$(cat "$T_TMP/out")"; exit 1; }
deb=$(sed -n 's/^  DEB *//p' "$T_TMP/out")
chmod 755 "$T_TMP"
cp "$deb" "$T_TMP/fslens.deb" && chmod 644 "$T_TMP/fslens.deb"
cp tests/data/golden.trace "$T_TMP/t.trace" && chmod 644 "$T_TMP/t.trace"
mkdir -p "$T_TMP/out.d"
cache=/var/tmp/fslens-apt-cache
mkdir -p "$cache"
mmdebstrap --quiet --variant=apt --skip=essential/unlink \
	--setup-hook="mkdir -p \"\$1\"/var/cache/apt/archives/" \
	--setup-hook="sync-in $cache /var/cache/apt/archives/" \
	--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
	--include="$T_TMP/fslens.deb" \
	--customize-hook="copy-in $T_TMP/t.trace /tmp" \
	--customize-hook='chroot "$1" sh -c "fslens --version >/tmp/version 2>&1; echo \$? >>/tmp/version"' \
	--customize-hook='chroot "$1" sh -c "fslens report /tmp/t.trace >/tmp/report 2>/tmp/report.err; echo \$? >/tmp/report.rc"' \
	--customize-hook='chroot "$1" sh -c "dpkg -s fslens | sed -n \"s/^Status: //p\" >/tmp/status"' \
	--customize-hook="copy-out /tmp/version /tmp/report /tmp/report.err /tmp/report.rc /tmp/status $T_TMP/out.d" \
	--customize-hook="sync-out /var/cache/apt/archives $cache" \
	bookworm /dev/null >"$T_TMP/mm.log" 2>&1
rc=$?
check_eq mmdebstrap-rc $rc 0
[ $rc -eq 0 ] || { tail -20 "$T_TMP/mm.log" >&2; exit 1; }
O=$T_TMP/out.d
check_eq status "$(cat "$O/status")" "install ok installed"
check_eq version "$(cat "$O/version")" "$("$FSLENS" --version)
0"
check_eq report-rc "$(cat "$O/report.rc")" 0
"$FSLENS" report "$T_TMP/t.trace" >"$T_TMP/host.report" 2>/dev/null
# the path of the trace differs (/tmp/t.trace); the rest is the same text
check_eq report-same-as-build "$(sed 's|/tmp/t.trace|T|g' "$O/report" | md5sum)" \
	"$(sed "s|$T_TMP/t.trace|T|g" "$T_TMP/host.report" | md5sum)"
check_ge report-lines "$(wc -l <"$O/report")" 20
exit $((T_FAILS != 0))
