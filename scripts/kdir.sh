#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the build tree of kernel release RELEASE:
# /lib/modules/RELEASE/build when installed, else the tree of a kernel
# tools/vm/kernels/build made with that release (7.x kernels, whose
# Debian header packages need a newer C library than Debian 12's).
#
#   scripts/kdir.sh RELEASE
[ $# -eq 1 ] || { echo "usage: scripts/kdir.sh RELEASE" >&2; exit 2; }
release=$1
if [ ! -e "/lib/modules/$release/build/Makefile" ]; then
	cache=${TEMPO_KERNEL_CACHE:-/var/cache/tempo/kernels}
	for env in "$cache"/*/env; do
		[ -f "$env" ] || continue
		if grep -qxF "TEMPO_KERNEL_RELEASE=$release" "$env"; then
			sed -n 's/^TEMPO_KERNEL_KDIR=//p' "$env"
			exit 0
		fi
	done
fi
echo "/lib/modules/$release/build"
