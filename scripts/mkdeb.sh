#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a Debian package of fslens with dpkg-deb: 'make deb'.
#   env: BUILD (default build), VERSION (default: the VERSION file)
# The files are those of 'make install' with PREFIX=/usr (scripts/install.sh);
# Depends comes from the libraries the binary links (dpkg-shlibdeps), and
# Recommends names what record, demo and the checks run beside it.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
VERSION=${VERSION:-$(cat VERSION)}
ARCH=$(dpkg --print-architecture)
stage=$BUILD/deb/fslens_${VERSION}_$ARCH
out=$BUILD/fslens_${VERSION}_$ARCH.deb

for t in dpkg-deb dpkg-shlibdeps fakeroot; do
	command -v $t >/dev/null || { echo "fslens: make deb needs $t (apt-get install dpkg-dev fakeroot)" >&2; exit 1; }
done
[ -e "$BUILD/man/fslens.1" ] || make --no-print-directory BUILD="$BUILD" man
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
DESTDIR=$stage PREFIX=/usr BUILD=$BUILD GZIP_MAN=1 scripts/install.sh install >/dev/null
# dpkg keeps its own list of the package's files
rm -f "$stage/usr/share/fslens/manifest"
rmdir "$stage/usr/share/fslens"
mv "$stage/usr/share/doc/fslens/LICENSE" "$stage/usr/share/doc/fslens/copyright"
strip --strip-unneeded -o "$stage/usr/bin/fslens" "$BUILD/fslens"

# dpkg-shlibdeps wants a source tree: a throwaway debian/control is one
shl=$(mktemp -d)
trap 'rm -rf "$shl"' EXIT
mkdir -p "$shl/debian"
printf 'Source: fslens\n\nPackage: fslens\nArchitecture: any\n' >"$shl/debian/control"
bin=$(realpath "$stage/usr/bin/fslens")
# the libraries' own libraries too: libext2fs.so.2 needs libcom_err.so.2, and
# libext2fs2 leaves it to libcom-err2 being installed (not so in a minimal root)
# (not glibc's own: its private symbols between its parts would pin one version)
libs=$(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// && $1 !~ /^(libc|libm|libdl|libpthread|librt|ld-linux.*)\.so/ { print $3 }')
depends=$(cd "$shl" && dpkg-shlibdeps -O "$bin" $libs 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "fslens: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CTL
Package: fslens
Version: $VERSION
Architecture: $ARCH
Maintainer: fslens developers <fslens@localhost>
Installed-Size: $size
Depends: $depends
Recommends: e2fsprogs, util-linux
Suggests: blktrace, chromium
Section: admin
Priority: optional
Description: find out why a Linux filesystem is slow
 fslens records what the kernel's ext4, jbd2, writeback and block layers do
 (eBPF on tracepoints) into a trace file and explains it: which waits cost the
 time, which seeks the layout caused, how the allocator and the journal
 behaved, checked by replaying the trace through a model of the ext4
 allocator, the jbd2 journal and a disk. Includes an htop-like live view.
CTL
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k2) >"$stage/DEBIAN/md5sums"
fakeroot dpkg-deb --build -Zxz "$stage" "$out" >/dev/null
echo "  DEB      $out"
