#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the release of Debian's 6.12 kernel that tempo builds and tests on.
for d in /lib/modules/6.12.*-amd64; do
	[ -e "$d/build/Makefile" ] && r=${d##*/}
done
[ -n "$r" ] || r=$(ls -d /lib/modules/6.12.*-amd64 2>/dev/null | tail -n 1 | xargs -r basename)
echo "${r:-6.12-amd64}"
