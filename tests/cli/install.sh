#!/bin/bash
# make install into a DESTDIR puts the binary, a man page per command, the
# docs, LICENSE, the bash completion and the monitor's systemd unit in place,
# and they work from there;
# make uninstall then leaves no file and none of fslens's own directories.
# make deb builds a package whose files are the same and whose Depends names
# the package of every library the binary links (dpkg -S is the truth).
. "$(dirname "$0")/../lib.sh"
D=$T_TMP/dest
mk() { make -C "$TOP" --no-print-directory -s BUILD="$BUILD" "$@"; }
mk install DESTDIR="$D" PREFIX=/usr >"$T_TMP/out" 2>&1
check_eq install-rc $? 0
check_eq installed-version "$("$D/usr/bin/fslens" --version)" "$("$FSLENS" --version)"
check_grep version-from-file "^fslens $(cat "$TOP/VERSION")(\+g[0-9a-f]+(\.dirty)?)?$" \
	<("$D/usr/bin/fslens" --version)
for c in $("$FSLENS" --help | sed -nE 's/^  ([a-z]+) .*/\1/p'); do
	[ -s "$D/usr/share/man/man1/fslens-$c.1" ] || fail "man-$c" "not installed"
done
pass man-pages
# man finds them by name under the installed tree
check_grep man-by-name "^ +fslens-record - " \
	<(LC_ALL=C MANPATH="$D/usr/share/man" MANWIDTH=100 man fslens-record 2>&1 | col -b)
check_cmd docs test -s "$D/usr/share/doc/fslens/trace-format.md" -a -s "$D/usr/share/doc/fslens/README.md"
check_cmd license cmp -s "$TOP/LICENSE" "$D/usr/share/doc/fslens/LICENSE"
# the completion works from where it was installed, with the installed binary
comp=$(PATH="$D/usr/bin:$PATH" bash -c '
	. "$1/usr/share/bash-completion/completions/fslens"
	c() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _fslens; echo "${COMPREPLY[*]}"; }
	c fslens exp
	c fslens export --fo
	c fslens dump -e block,jo
	c fslens export -F f
	c fslens report --sec' _ "$D" 2>&1)
check_eq completion "$comp" "export
--format
block,journal
folded flamegraph
--section"
# every long option of every command completes
for c in $("$FSLENS" --help | sed -nE 's/^  ([a-z]+) .*/\1/p'); do
	want=$("$FSLENS" $c --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+$' | sort)
	got=$(PATH="$D/usr/bin:$PATH" bash -c '. "$1/usr/share/bash-completion/completions/fslens"
		COMP_WORDS=(fslens "$2" --); COMP_CWORD=2; _fslens; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$D" "$c" | sort)
	check_eq "completion-$c" "$(comm -23 <(echo "$want") <(echo "$got"))" ""
done
n=$(wc -l <"$D/usr/share/fslens/manifest")
check_eq manifest-is-what-is-there "$n" "$(find "$D" -type f | wc -l)"
# the monitor's systemd unit, by name, with this prefix's paths, in the manifest
unit=$D/usr/lib/systemd/system/fslens-monitor.service
check_cmd unit-installed test -s "$unit"
check_grep unit-execstart '^ExecStart=/usr/bin/fslens monitor ' "$unit"
check_eq unit-in-manifest "$(grep -c '^lib/systemd/system/fslens-monitor.service$' "$D/usr/share/fslens/manifest")" 1

mk uninstall DESTDIR="$D" PREFIX=/usr >"$T_TMP/out" 2>&1
check_eq uninstall-rc $? 0
check_eq uninstall-no-files "$(find "$D" ! -type d)" ""
check_cmd unit-removed test ! -e "$unit"
check_eq uninstall-no-own-dirs "$(find "$D" -type d \( -name fslens -o -path '*/doc/fslens' \))" ""
mk uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>"$T_TMP/err"
check_eq uninstall-again-rc $? 2
check_grep uninstall-again-msg "nothing to uninstall" "$T_TMP/err"

# the package
command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null && command -v fakeroot >/dev/null ||
	{ skip deb "no dpkg-deb, dpkg-shlibdeps or fakeroot"; exit 0; }
mk deb BUILD="$BUILD" >"$T_TMP/out" 2>&1
check_eq deb-rc $? 0
deb=$(sed -n 's/^  DEB *//p' "$T_TMP/out")
[ -s "$TOP/$deb" ] || { fail deb-file "no package: $(cat "$T_TMP/out")"; exit 1; }
deb=$TOP/$deb
check_eq deb-version "$(dpkg-deb -f "$deb" Version)" "$("$FSLENS" --version | cut -d' ' -f2)"
X=$T_TMP/x
dpkg-deb -x "$deb" "$X"
check_eq deb-runs "$("$X/usr/bin/fslens" --version)" "$("$FSLENS" --version)"
check_cmd deb-man-gz test -s "$X/usr/share/man/man1/fslens-top.1.gz"
check_cmd deb-copyright cmp -s "$TOP/LICENSE" "$X/usr/share/doc/fslens/copyright"
check_eq deb-no-manifest "$(find "$X" -name manifest)" ""
deps=$(dpkg-deb -f "$deb" Depends)
for lib in $(objdump -p "$X/usr/bin/fslens" | awk '$1 == "NEEDED" { print $2 }'); do
	path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64|64bit/ { print $NF; exit }')
	pkg=$(dpkg -S "$(realpath "$path")" 2>/dev/null | head -1 | cut -d: -f1)
	[ -z "$pkg" ] && pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
	case ", $deps," in
	*", $pkg "*|*", $pkg,"*) ;;
	*) fail "deb-depends-$lib" "$lib is in $pkg, not in Depends: $deps" ;;
	esac
done
pass deb-depends
# the same files as make install, less the manifest (dpkg keeps its own)
check_eq deb-files "$(cd "$X" && find . ! -type d | sed 's/\.gz$//; s|/copyright$|/LICENSE|' | sort)" \
	"$(mk install DESTDIR="$T_TMP/d2" PREFIX=/usr >/dev/null; cd "$T_TMP/d2" && find . ! -type d |
	   grep -v '/manifest$' | sort)"
rm -f "$deb"
[ $T_FAILS -eq 0 ]
