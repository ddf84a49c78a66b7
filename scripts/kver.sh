#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the release of the kernel to build tempo for.
#
#   scripts/kver.sh        the running kernel (uname -r) when its build
#                          tree is installed, as for any out-of-tree
#                          module; else the test VM's kernel
#   scripts/kver.sh --vm   the test VM's default kernel: the newest of
#                          Debian's 6.12 kernels installed in /boot with
#                          their headers (tools/vm/run boots it)
vm_release() {
	r=
	for d in /lib/modules/6.12.*-amd64; do
		[ -e "$d/build/Makefile" ] && [ -e "/boot/vmlinuz-${d##*/}" ] && r=${d##*/}
	done
	[ -n "$r" ] || r=$(ls -d /lib/modules/6.12.*-amd64 2>/dev/null | tail -n 1 | xargs -r basename)
	echo "${r:-6.12-amd64}"
}

case ${1:-} in
--vm)
	vm_release
	;;
'')
	running=$(uname -r)
	if [ -e "/lib/modules/$running/build/Makefile" ]; then
		echo "$running"
	else
		vm_release
	fi
	;;
*)
	echo "usage: scripts/kver.sh [--vm]" >&2
	exit 2
	;;
esac
