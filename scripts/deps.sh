#!/bin/bash
# Install the Debian packages that building, testing and the demo need, only
# those missing. Runs apt-get update only when a package is unknown to apt.
set -u
PKGS="make gcc clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev libzstd-dev pkg-config
      libncurses-dev libext2fs-dev e2fsprogs xfsprogs blktrace util-linux tmux python3
      libclang-rt-14-dev linux-perf dbench fio bpftrace strace bonnie++
      libmicrohttpd-dev prometheus
      chromium dpkg-dev fakeroot mmdebstrap man-db"
# chromium: the HTML report's browser checks (headless screenshots, --dump-dom);
# dpkg-dev, fakeroot: make deb; mmdebstrap: the package test in a fresh root.
missing=()
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[[ "$st" == *"ok installed"* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "fslens: missing packages: ${missing[*]}" >&2
	echo "fslens: run 'sudo make deps' (or install them with apt-get)" >&2
	exit 1
fi
echo "  DEPS     installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# A package apt does not know yet needs a fresh list.
need_update=0
for p in "${missing[@]}"; do
	apt-cache show "$p" >/dev/null 2>&1 || need_update=1
done
if [ $need_update -eq 1 ]; then
	apt-get update -qq || { echo "fslens: apt-get update failed" >&2; exit 1; }
fi
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/fslens-deps.log 2>&1; then
	apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" \
		>/tmp/fslens-deps.log 2>&1 || {
		echo "fslens: apt-get install failed, see /tmp/fslens-deps.log" >&2
		tail -5 /tmp/fslens-deps.log >&2
		exit 1
	}
fi
exit 0
