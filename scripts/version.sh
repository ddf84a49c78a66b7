#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Prints tempo's version: the one line of the top-level VERSION,
# MAJOR.MINOR.PATCH in decimal. Fails, and says so on standard error, when
# VERSION holds anything else.
#
#   scripts/version.sh
#
# The Makefile and the shell scripts take the version from here. Kbuild
# reads VERSION itself, by the same rule, as it builds in the DKMS source
# tree too, which has no scripts/; so does CMakeLists.txt, when it
# configures.
set -eu

cd "$(dirname "$0")/.."
if [ -f VERSION ] && [ "$(wc -l <VERSION)" -eq 1 ] &&
	grep -Ex '(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)' VERSION; then
	exit 0
fi
echo "scripts/version.sh: VERSION is not one MAJOR.MINOR.PATCH line" >&2
exit 1
