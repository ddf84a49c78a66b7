#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Extract selected files of Debian's linux-source-6.12 tarball into
# build/linux-source/linux-source-6.12/, for tools that are not shipped
# elsewhere (the kselftest harness, checkpatch, kernel-doc and its Sphinx
# extension).
#
# Arguments: [PATH...]
#
# PATHs are relative to the top of the kernel tree, for example
# tools/testing/selftests/kselftest_harness.h. The default list below is
# always included, so a single call (and a single pass over the xz tarball)
# extracts everything the build needs. Paths already extracted from the same
# tarball are not extracted again; the list lives in a stamp file.
#
# Prints the directory of the extracted tree on stdout.
#
# Environment:
#   LINUX_SOURCE_TARBALL  tarball to read (default /usr/src/linux-source-6.12.tar.xz)
#   LINUX_SOURCE_OUT      output directory (default <repo>/build/linux-source)

set -eu
# Path lists are split on white space below and must never glob.
set -f

TOP=linux-source-6.12
DEFAULT_PATHS="
tools/testing/selftests/kselftest_harness.h
tools/testing/selftests/kselftest.h
scripts/checkpatch.pl
scripts/spelling.txt
scripts/const_structs.checkpatch
scripts/kernel-doc
Documentation/sphinx/kerneldoc.py
Documentation/sphinx/kernellog.py
"

repo=$(cd "$(dirname "$0")/.." && pwd)
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/$TOP.tar.xz}
out=${LINUX_SOURCE_OUT:-$repo/build/linux-source}
stamp=$out/.stamp
tree=$out/$TOP

die() {
	echo "linux-source.sh: $*" >&2
	exit 1
}

[ -r "$tarball" ] || die "cannot read $tarball (apt-get install linux-source-6.12)"

for p in "$@"; do
	case "/$p/" in
	//|*/../*|*/./*|*[[:space:]]*) die "bad path '$p'" ;;
	esac
	case "$p" in
	/*) die "path '$p' must be relative to the kernel tree" ;;
	esac
done

mkdir -p "$out"

# The first line of the stamp identifies the tarball, the other lines are
# the paths extracted from it.
ident=$(stat -c '%s %Y' "$tarball")" $tarball"

# Serialise concurrent callers (parallel make, several scripts).
exec 9>"$out/.lock"
flock 9

# shellcheck disable=SC2086
want=$(printf '%s\n' $DEFAULT_PATHS "$@" | sed 's:/*$::' | sort -u)

have=
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$ident" ]; then
	have=$(tail -n +2 "$stamp")
fi

missing=$(printf '%s\n' "$want" | while read -r p; do
	[ -n "$p" ] || continue
	if ! printf '%s\n' "$have" | grep -qxF -- "$p" || [ ! -e "$tree/$p" ]; then
		echo "$p"
	fi
done)

if [ -n "$missing" ]; then
	# Extract the union of what was asked and what is already there, so
	# the stamp stays an exact description of the tree.
	all=$(printf '%s\n%s\n' "$have" "$want" | sed '/^$/d' | sort -u)
	echo "linux-source.sh: extracting from $tarball:" >&2
	# shellcheck disable=SC2086
	printf '  %s\n' $missing >&2
	rm -f "$stamp"
	# shellcheck disable=SC2086
	members=$(printf "$TOP/%s\n" $all)
	# -m: extraction time as mtime, so that make sees fresh files.
	# shellcheck disable=SC2086
	tar -xJmf "$tarball" -C "$out" $members ||
		die "extraction failed (is every path in the tarball?)"
	{
		echo "$ident"
		printf '%s\n' "$all"
	} > "$stamp.tmp"
	mv "$stamp.tmp" "$stamp"
fi

echo "$tree"
