#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build tempo's Debian packages from debian/ ("make deb"): tempo-dkms,
# libtempo0.1, libtempo-dev and tempo-tools, unsigned, with
# "dpkg-buildpackage -b", into OUT (default build/deb). The files of the
# source tree that git knows (committed or not, not ignored) are copied to
# OUT/tempo-VERSION first, so that the build leaves the tree as it was;
# there VERSION's version goes into debian/changelog.
#
# Usage: scripts/deb.sh [OUT]
#
# Needs debhelper, dh-dkms and the build dependencies of debian/control
# (scripts/install-deps.sh). Compiles through ccache when it is installed,
# unless CMAKE_CXX_COMPILER_LAUNCHER says otherwise.
set -eu

[ $# -le 1 ] || { echo "usage: $0 [OUT]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
out=$(mkdir -p "${1:-build/deb}" && cd "${1:-build/deb}" && pwd)

# copy_tree DIR: the source tree's files, with their times, into DIR.
copy_tree() {
	# shellcheck disable=SC2016
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar -c --null -T - -f - | tar -x -C "$1" -f -
}

# changelog VERSION: debian/changelog of a native package of VERSION,
# dated by the last commit so that builds of one commit are alike.
changelog() {
	cat <<-EOF
	tempo ($1) unstable; urgency=medium

	  * tempo $1, built from the source tree.

	 -- The tempo authors <maintainers@tempo.invalid>  $(git log -1 --format=%aD 2>/dev/null || date -R)
	EOF
}

# The project version: VERSION's one MAJOR.MINOR.PATCH line.
version=$(scripts/version.sh) || exit 1
git rev-parse --is-inside-work-tree >/dev/null ||
	{ echo "deb: $repo is not a git work tree" >&2; exit 1; }

src=$out/tempo-$version
rm -rf "$src" "$out"/*.deb "$out"/*.ddeb "$out"/*.buildinfo "$out"/*.changes
mkdir -p "$src"
copy_tree "$src"
changelog "$version" >"$src/debian/changelog"
mkdir -p "$src/debian/source"
echo "3.0 (native)" >"$src/debian/source/format"

if [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && command -v ccache >/dev/null; then
	export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }parallel=${JOBS:-$(nproc)}"
(cd "$src" && dpkg-buildpackage -b -us -uc)
rm -rf "$src"
ls "$out"/*.deb
