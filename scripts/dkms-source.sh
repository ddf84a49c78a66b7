#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Copy the sources DKMS builds tempo.ko from into DIR (normally
# /usr/src/tempo-VERSION): dkms.conf, VERSION, Kbuild, drivers/gpu/drm/tempo/
# and uapi/drm/tempo_drm.h, without build products or generated headers.
# dkms.conf gets tempo's version, VERSION's MAJOR.MINOR.PATCH line, as its
# PACKAGE_VERSION in place of #MODULE_VERSION#.
#
# Usage: scripts/dkms-source.sh DIR
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dest=$1
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

version=$(scripts/version.sh) || exit 1

mkdir -p "$dest"
find dkms.conf VERSION Kbuild drivers/gpu/drm/tempo uapi/drm/tempo_drm.h -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name Kbuild \
	   -o -name dkms.conf -o -name VERSION \) \
	! -name '*.mod.c' ! -name 'tempo_compat_gen.h*' ! -name '.*' |
	LC_ALL=C sort |
	while read -r f; do
		mkdir -p "$dest/$(dirname "$f")"
		cp -p "$f" "$dest/$f"
	done
sed -i "s/#MODULE_VERSION#/$version/g" "$dest/dkms.conf"
