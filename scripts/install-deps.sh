#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian 12 packages tempo needs to build, test and run its
# VM.  Idempotent: a quick no-op when everything is installed; otherwise
# one "apt-get update" and one "apt-get install".  Needs root (or sudo)
# only when something is missing.
#
#   scripts/install-deps.sh [--list]
#
# --list prints the packages it names, one a line, and installs nothing.
set -euo pipefail

packages=(
	# kernel module build and the kernel the VM boots
	dkms
	# the Debian packages (make deb)
	debhelper dh-dkms
	build-essential
	linux-headers-6.12-amd64
	linux-image-6.12-amd64
	linux-source-6.12
	# the 6.1 LTS headers (the W=1 gate builds against them; the 6.1 and
	# 7.x kernels of the VM are built from source: tools/vm/kernels)
	linux-headers-amd64
	bc flex bison libelf-dev libssl-dev dwarves
	sparse
	# test VM (linux-perf: tools/vm/profile)
	qemu-system-x86
	linux-perf
	busybox-static
	cpio kmod xz-utils zstd
	# C++ library, tools and tests
	cmake g++ pkg-config
	# the second compiler the library and the tests build with; the
	# compiler cache make check keeps in /var/cache/tempo
	clang
	ccache
	libdrm-dev
	libgtest-dev googletest
	libbenchmark-dev
	clang-format
	# the tools: command lines, JSON output, drawing their plots (gnuplot)
	libcli11-dev nlohmann-json3-dev gnuplot-nox
	# scripts (universal-ctags: scripts/function-lengths.py)
	python3 perl universal-ctags
	# the kselftest install of the uAPI tests (the kernel's lib.mk copies
	# with rsync)
	rsync
	# documentation (make docs), the manual pages, and groff, which the
	# install test renders them with
	python3-sphinx groff-base
	# IGT GPU Tools' build (tools/igt/build)
	meson ninja-build libproc2-dev libkmod-dev libpciaccess-dev libdw-dev
	libcairo2-dev libpixman-1-dev libudev-dev libunwind-dev libjson-c-dev
	liblzma-dev zlib1g-dev libglib2.0-dev git
)

case ${1:-} in
'') ;;
--list) printf '%s\n' "${packages[@]}"; exit 0 ;;
*) echo "usage: scripts/install-deps.sh [--list]" >&2; exit 2 ;;
esac

declare -A have=()
while read -r name status; do
	[ "$status" = installed ] && have[$name]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do
	[ -n "${have[$p]:-}" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

echo "install-deps: installing: ${missing[*]}"
sudo=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then
		sudo=(sudo)
	else
		echo "install-deps: need root to install packages" >&2
		exit 1
	fi
fi

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
