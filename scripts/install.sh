#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install or uninstall fslens: the one list of what goes where, used by
# 'make install', 'make uninstall' and 'make deb'.
#   scripts/install.sh install|uninstall      env: DESTDIR PREFIX BUILD GZIP_MAN=1
# install writes PREFIX/share/fslens/manifest (every file it put there);
# uninstall removes exactly those files, then the directories that were
# fslens's own, so a later tree with other files uninstalls what was installed.
set -eu
cd "$(dirname "$0")/.."
mode=${1:-}
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BUILD=${BUILD:-build}
root=$DESTDIR$PREFIX
manifest=$root/share/fslens/manifest
own_dirs=(share/fslens share/doc/fslens/grafana share/doc/fslens)

put() {	# mode src dst (relative to PREFIX)
	install -D -m "$1" "$2" "$root/$3"
	echo "$3" >>"$manifest.tmp"
}

case $mode in
install)
	[ -x "$BUILD/fslens" ] || { echo "fslens: $BUILD/fslens is not built (run make)" >&2; exit 1; }
	[ -e "$BUILD/man/fslens.1" ] || { echo "fslens: no man pages in $BUILD/man (run make man)" >&2; exit 1; }
	mkdir -p "$root/share/fslens"
	: >"$manifest.tmp"
	put 0755 "$BUILD/fslens" bin/fslens
	for m in "$BUILD"/man/*.1; do
		if [ "${GZIP_MAN:-}" = 1 ]; then
			gzip -9nc "$m" >"$m.gz"
			put 0644 "$m.gz" "share/man/man1/$(basename "$m").gz"
		else
			put 0644 "$m" "share/man/man1/$(basename "$m")"
		fi
	done
	for d in README.md docs/*.md; do
		put 0644 "$d" "share/doc/fslens/$(basename "$d")"
	done
	put 0644 LICENSE share/doc/fslens/LICENSE
	put 0644 contrib/fslens.bash-completion share/bash-completion/completions/fslens
	# the monitor's unit, where its branch ships one
	for u in contrib/*.service; do
		[ -e "$u" ] && put 0644 "$u" "lib/systemd/system/$(basename "$u")"
	done
	# fslens monitor: its systemd unit (paths filled in) and the Grafana dashboard
	if [ -e scripts/fslens-monitor.service ]; then
		unit=$(mktemp)
		sed -e "s|@BINDIR@|$PREFIX/bin|g" -e "s|@DOCDIR@|$PREFIX/share/doc/fslens|g" \
			scripts/fslens-monitor.service >"$unit"
		put 0644 "$unit" lib/systemd/system/fslens-monitor.service
		rm -f "$unit"
	fi
	for g in docs/grafana/*.json; do
		[ -e "$g" ] && put 0644 "$g" "share/doc/fslens/grafana/$(basename "$g")"
	done
	echo share/fslens/manifest >>"$manifest.tmp"
	mv "$manifest.tmp" "$manifest"
	echo "  INSTALL  $(wc -l <"$manifest") files under $root"
	;;
uninstall)
	if [ ! -r "$manifest" ]; then
		echo "fslens: nothing to uninstall: no $manifest (was it installed with this PREFIX and DESTDIR?)" >&2
		exit 1
	fi
	n=0
	while IFS= read -r f; do
		case $f in ''|/*|*..*) echo "fslens: bad manifest line '$f'" >&2; exit 1 ;; esac
		rm -f "$root/$f" && n=$((n + 1))
	done <"$manifest"
	for d in "${own_dirs[@]}"; do
		rmdir "$root/$d" 2>/dev/null || true
	done
	echo "  UNINSTALL $n files under $root"
	;;
*)
	echo "usage: scripts/install.sh install|uninstall" >&2
	exit 2 ;;
esac
