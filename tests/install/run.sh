#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install test: builds and installs tempo.ko with DKMS, runs "make install"
# into a staging directory and builds programs against what it installed.
# Every step prints one TAP line ("ok N - step" / "not ok N - step", the
# log of a failing step after it); the last line is "N passed, M failed".
#
#   tests/install/run.sh [options]
#
# Steps:
#   - VERSION holds one MAJOR.MINOR.PATCH line, the version make
#     dkms-install gives dkms and the PACKAGE_VERSION of the dkms.conf
#     that scripts/dkms-source.sh writes
#   - README.rst, Documentation/ and the consumer's CMakeLists.txt quote
#     VERSION's version (tempo-X.Y.Z, tempo/X.Y.Z, find_package(tempo X.Y))
#   - README.rst gives the number of packages make deps names
#   - make demo builds the module for the VM's kernel even when uname
#     names another kernel whose headers are installed
#   - a failed CMake configure does not stick; make help names every
#     target; user space configures without the kernel source tarball
#     (the uAPI tests left out), and fails when asked for those tests
#   - dkms add/build/install for the kernel under test, with every DKMS
#     tree (source, build, install) in a temporary directory: the module
#     builds, the compat header (tempo_compat_gen.h) is generated in the
#     DKMS build tree, the installed tempo.ko is for that kernel and of
#     VERSION's version, and nothing outside the temporary directory changed (/var/lib/dkms,
#     /usr/src, /lib/modules/KVER)
#   - with --load (in the test VM): the DKMS-built module loads and
#     creates a tempo render node, whose DRM_IOCTL_VERSION says VERSION's
#     version
#   - make install DESTDIR=TMP PREFIX=/usr: the module, <drm/tempo_drm.h>,
#     libtempo's headers and library, tempo.pc, the CMake package and the
#     tools are where they belong; COPYING and LICENSES/ as in the tree
#     in share/doc/tempo; the module, tempo.pc, the CMake package,
#     <tempo/version.hpp> and the tools' --version say VERSION's version;
#     libtempo is shared, with its SONAME and links, and the tools
#     find it through their RPATH
#   - tests/install/consumer/ builds with pkg-config and with CMake's
#     find_package(tempo) against the staging tree, and runs (no device
#     needed); the uAPI header compiles in C; the programs of the uAPI
#     and libtempo guides (Documentation/examples/*.c, *.cpp) build with
#     the staging tree's flags alone; the installed tools run
#   - the manual pages: every installed tool's, libtempo(3), and tempo(4)
#     with an entry for every parameter the module declares; groff
#     renders each without a warning
#   - make deb, then its packages on this machine: dpkg -i puts every file
#     in place (a shared libtempo found without RPATH, the DKMS source
#     that scripts/dkms-source.sh makes, which dkms add registers), a
#     program builds and runs against them, dpkg -i again over them, then
#     dpkg --purge leaves no file of theirs and /var/lib/dkms, /usr/src,
#     /lib/modules and /etc's module directories as they were; installed
#     and purged once more. Skipped when tempo's packages or its DKMS
#     source are on the machine already
#
# Options:
#   --kver KVER    kernel release to build for (default scripts/kver.sh)
#   --dkms-only    only the DKMS steps (for a read-only tree: the test VM)
#   --no-dkms      skip the DKMS steps
#   --no-deb       skip the Debian packages' steps
#   --load         also load the DKMS-built module (needs root and a
#                  kernel that is KVER; unloads it again)
#   --keep         keep the temporary directory
#   -h, --help     this text
#
# Needs dkms, cmake, g++, pkg-config and libdrm-dev (scripts/install-deps.sh).
# DKMS runs as root: it refuses otherwise.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2

kver=
do_dkms=1
do_deb=1
do_install=1
load=0
keep=0

usage() { awk 'NR > 3 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit "${1:-2}"; }

while [ $# -gt 0 ]; do
	case $1 in
	--kver) kver=$2; shift 2 ;;
	--dkms-only) do_install=0; shift ;;
	--no-dkms) do_dkms=0; shift ;;
	--no-deb) do_deb=0; shift ;;
	--load) load=1; shift ;;
	--keep) keep=1; shift ;;
	-h|--help) usage 0 ;;
	*) echo "install test: unknown option $1" >&2; usage ;;
	esac
done
[ -n "$kver" ] || kver=$(scripts/kver.sh)

tmp=$(mktemp -d /tmp/tempo-install-test.XXXXXX) || exit 2

# What the Debian packages' steps change on this machine, undone at exit
# even after a failed step: the packages, DKMS's autoinstall switch.
deb_packages=()
deb_installed=0
deb_made_no_autoinstall=0
deb_cleanup() {
	[ "$deb_installed" = 0 ] || dpkg --purge "${deb_packages[@]}" >/dev/null 2>&1
	[ "$deb_made_no_autoinstall" = 0 ] || rm -f /etc/dkms/no-autoinstall
}

cleanup() {
	deb_cleanup
	if [ "$keep" = 1 ]; then
		echo "# kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT

t_start=$(date +%s)
n=0
passed=0
failed=0
log=$tmp/step.log

# step NAME COMMAND...: runs COMMAND with its output in $log, prints the
# TAP line, and the end of the log when it failed.
step() {
	local name=$1
	shift
	local t0=$SECONDS
	n=$((n + 1))
	if "$@" >"$log" 2>&1; then
		echo "ok $n - $name ($((SECONDS - t0))s)"
		passed=$((passed + 1))
		return 0
	fi
	echo "not ok $n - $name ($((SECONDS - t0))s)"
	tail -n 40 "$log" | sed 's/^/# /'
	failed=$((failed + 1))
	return 1
}

# skip NAME REASON
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# VERSION's one line, MAJOR.MINOR.PATCH in decimal: tempo's version, which
# every other place takes from it.
version=$(scripts/version.sh)
sover=${version%.*}

# same WHAT VALUE: prints both; true when VALUE is $version.
same() {
	echo "$1: ${2:-nothing}"
	[ -n "$version" ] && [ "$2" = "$version" ]
}

# The version the Makefile gives dkms, and the PACKAGE_VERSION of the
# dkms.conf scripts/dkms-source.sh writes, read as DKMS reads it (bash
# sources it). The module's and the installed files' are checked where
# they are built.
check_version() {
	local rc=0 v

	same VERSION "$version" || rc=1
	v=$(make -s -n dkms-install KVER="$kver" |
		sed -n 's/^dkms install -m tempo -v \([^ ]*\) .*/\1/p')
	same "make dkms-install" "$v" || rc=1
	scripts/dkms-source.sh "$tmp/version-dkms" || return 1
	# shellcheck disable=SC2016
	v=$(bash -c '. "$1" && echo "$PACKAGE_VERSION"' sh "$tmp/version-dkms/dkms.conf")
	same "dkms.conf of make dkms-source" "$v" || rc=1
	return $rc
}

# Where README.rst, the documentation and the consumer's CMakeLists.txt
# quote the version (tempo-X.Y.Z, tempo/X.Y.Z, "tempo-info X.Y.Z",
# find_package(tempo X.Y)), it is VERSION's: a release that bumps VERSION
# finds here what else to change.
quoted_versions() {
	local q n=0 bad=0 want
	while IFS= read -r q; do
		n=$((n + 1))
		case $q in
		*find_package*) want=${version%.*} ;;
		*) want=$version ;;
		esac
		if [ "${q##*[ /-]}" = "$want" ]; then
			echo "ok: $q"
		else
			echo "STALE: $q (not $want)"
			bad=1
		fi
	done < <(grep -H -n -o -E \
		'tempo([-/]|-[a-z-]+ )[0-9]+\.[0-9]+\.[0-9]+|find_package\(tempo [0-9]+\.[0-9]+' \
		README.rst Documentation/*.rst tests/install/consumer/CMakeLists.txt)
	[ "$n" -gt 0 ] && [ -n "$version" ] && [ "$bad" = 0 ]
}

# README.rst says how many packages make deps names: the count must
# follow scripts/install-deps.sh.
readme_package_count() {
	local n
	n=$(scripts/install-deps.sh --list | sort -u | wc -l)
	echo "scripts/install-deps.sh names $n packages"
	tr '\n' ' ' <README.rst | grep -q "of the $n packages it names"
}

echo "# kernel $kver, tempo $version, in $tmp"
step "VERSION is the version of the Makefile and of dkms.conf" check_version
step "README.rst and Documentation/ quote VERSION's version" quoted_versions
step "README.rst counts the packages make deps names" readme_package_count

# make demo builds the module for the kernel the VM boots, even where the
# running kernel's headers are installed (make deps installs Debian 12's
# 6.1 ones): here uname names such a kernel, and a make that only records
# its arguments stands for the build.
demo_builds_for_the_vm() {
	local bin=$tmp/demo-bin want other d
	want=$(scripts/kver.sh --vm)
	other=$want-not-the-vm
	for d in /lib/modules/*/build/Makefile; do
		d=${d#/lib/modules/}
		d=${d%%/*}
		[ "$d" = "$want" ] || other=$d
	done
	mkdir -p "$bin"
	printf '#!/bin/sh\necho %s\n' "$other" >"$bin/uname"
	printf '#!/bin/sh\necho "$*" >>%s\n' "$tmp/demo-make.log" >"$bin/make"
	chmod +x "$bin/uname" "$bin/make"
	: >"$tmp/demo-make.log"
	echo "uname -r: $other, the VM's kernel: $want"
	PATH=$bin:$PATH MAKE=$bin/make scripts/demo.sh --build-only || return 1
	cat "$tmp/demo-make.log"
	grep -qx "modules KVER=$want" "$tmp/demo-make.log"
}
step "make demo builds the module for the VM's kernel, not uname's" demo_builds_for_the_vm

# A configure that failed (a missing compiler here) must not stick: the
# next make tools configures again instead of running a build system that
# was never written.
configure_again() {
	local b=$tmp/failed-configure out

	# What a failed configure leaves: a cache and no build system.
	mkdir -p "$b"
	echo "CMAKE_CXX_COMPILER:FILEPATH=/nonexistent/c++" >"$b/CMakeCache.txt"
	out=$(make -n tools CMAKE_BUILD="$b" 2>&1)
	echo "$out"
	grep -q "cmake -S . -B $b " <<<"$out"
}
step "make tools configures again after a failed configure" configure_again

# make help: one line for every target the Makefile declares .PHONY.
help_names_every_target() {
	local help targets t missing=0

	help=$(make -s help) || return 1
	targets=$(sed -n '/^\.PHONY:/,/[^\\]$/p' Makefile |
		sed 's/^\.PHONY://; s/\\$//' | tr -s ' \t' '\n' | sed '/^$/d')
	[ -n "$targets" ] || { echo "no .PHONY targets found"; return 1; }
	for t in $targets; do
		grep -q "^  $t  " <<<"$help" || { echo "make help: no line for $t"; missing=1; }
	done
	return "$missing"
}
step "make help names every target" help_names_every_target

# Without the kernel source tarball (only the uAPI tests need it, for the
# kselftest harness) user space configures, leaving the uAPI tests out
# with a warning; asked for them (TEMPO_BUILD_UAPI_TESTS=ON, as make check
# does) the configure fails and says why.
configure_without_kernel_source() {
	local b=$tmp/no-kernel-source out
	local env=(env LINUX_SOURCE_TARBALL=/nonexistent/linux-source.tar.xz
		LINUX_SOURCE_OUT="$tmp/no-linux-source")

	out=$("${env[@]}" cmake -S . -B "$b" 2>&1) || { echo "$out"; return 1; }
	grep -q "the uAPI tests are not built" <<<"$out" ||
		{ echo "$out"; echo "no warning"; return 1; }
	! grep -rqs "uapi_exec" "$b/Makefile" "$b/tests" ||
		{ echo "the uAPI tests are still configured"; return 1; }
	rm -rf "$b"
	if out=$("${env[@]}" cmake -S . -B "$b" -DTEMPO_BUILD_UAPI_TESTS=ON 2>&1); then
		echo "$out"; echo "configured with TEMPO_BUILD_UAPI_TESTS=ON"; return 1
	fi
	grep -q "the uAPI tests need the kernel source tarball" <<<"$out" ||
		{ echo "$out"; return 1; }
}
step "user space configures without the kernel source tarball" configure_without_kernel_source

# --- DKMS -------------------------------------------------------------------
# Everything DKMS writes goes below $tmp; the signing key too (DKMS makes
# one when the kernel signs modules).
dkms_opts=(--sourcetree "$tmp/dkms-src" --dkmstree "$tmp/dkms-tree"
	--installtree "$tmp/dkms-modules")
run_dkms() {
	mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub \
		dkms "$@" -m tempo -v "$version" -k "$kver" "${dkms_opts[@]}"
}

# What DKMS or a module install could leave on the system.
host_state() {
	find /var/lib/dkms /usr/src "/lib/modules/$kver" -maxdepth 3 \
		-path "/lib/modules/$kver/build" -prune -o \
		-path "/lib/modules/$kver/source" -prune -o \
		-printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort
}

dkms_add() {
	mkdir -p "$tmp/dkms-tree" "$tmp/dkms-modules/$kver" &&
	scripts/dkms-source.sh "$tmp/dkms-src/tempo-$version" &&
		run_dkms add
}

# DKMS cleans its build tree after the build: the generated compat header
# is seen in the build log, and must not come with the source.
dkms_build() {
	local base=$tmp/dkms-tree/tempo/$version makelog
	makelog=$base/$kver/$(uname -m)/log/make.log
	run_dkms build || { cat "$makelog" 2>/dev/null; return 1; }
	if find "$base/source/" -name 'tempo_compat_gen.h*' | grep .; then
		echo "the DKMS source has a generated compat header"
		return 1
	fi
	grep -F " CONFTEST $base/build/drivers/gpu/drm/tempo/tempo_compat_gen.h" "$makelog"
}

dkms_install() {
	local ko vermagic
	run_dkms install --no-depmod || return 1
	ko=$(find "$tmp/dkms-modules/$kver" -name 'tempo.ko*' | head -n 1)
	echo "installed: ${ko:-nothing}"
	[ -n "$ko" ] || return 1
	case $ko in */updates/dkms/tempo.ko*) ;; *) return 1 ;; esac
	vermagic=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	echo "vermagic: $vermagic"
	[ "$vermagic" = "$kver" ] || return 1
	same "modinfo -F version" "$(modinfo -F version "$ko")" || return 1
	run_dkms status
}

host_untouched() {
	host_state >"$tmp/state.after"
	diff -u "$tmp/state.before" "$tmp/state.after"
}

# drm_version NODE: the DRM driver's major.minor.patchlevel, from
# DRM_IOCTL_VERSION (_IOWR('d', 0x00, struct drm_version), 64 bytes on
# 64-bit machines) with no buffer for the name, date and description.
drm_version() {
	python3 - "$1" <<-'EOF'
	import fcntl, os, struct, sys
	fd = os.open(sys.argv[1], os.O_RDWR)
	buf = bytearray(struct.calcsize("iiiPPPPPP"))
	fcntl.ioctl(fd, 0xC0006400 | len(buf) << 16, buf)
	print("%d.%d.%d" % struct.unpack_from("iii", buf))
	EOF
}

dkms_load() {
	local ko node rc=0
	ko=$(find "$tmp/dkms-modules/$kver" -name 'tempo.ko*' | head -n 1)
	[ -n "$ko" ] || return 1
	modprobe -a drm gpu-sched drm_shmem_helper || return 1
	insmod "$ko" || return 1
	grep '^tempo ' /proc/modules || rc=1
	ls -l /dev/dri/ || rc=1
	# The render node of the platform device "tempo" (bound to no
	# platform driver: the module creates the device itself).
	node=$(grep -lx 'platform:tempo' /sys/class/drm/renderD*/device/modalias) || rc=1
	echo "$node"
	node=${node%/device/modalias}
	same "DRM_IOCTL_VERSION" "$(drm_version "/dev/dri/${node##*/}")" || rc=1
	rmmod tempo || rc=1
	return $rc
}

if [ "$do_dkms" = 1 ]; then
	host_state >"$tmp/state.before"
	if ! command -v dkms >/dev/null; then
		step "dkms is installed" false
	elif [ "$(id -u)" != 0 ]; then
		skip "the DKMS steps" "dkms needs root"
	elif step "dkms add (source from scripts/dkms-source.sh)" dkms_add &&
	     step "dkms build -k $kver, compat header generated" dkms_build &&
	     step "dkms install -k $kver into a temporary tree" dkms_install; then
		if [ "$load" = 1 ]; then
			if [ "$(uname -r)" != "$kver" ]; then
				skip "load the DKMS-built module" "running $(uname -r), not $kver"
			elif grep -q '^tempo ' /proc/modules; then
				skip "load the DKMS-built module" "tempo is loaded already"
			else
				step "the DKMS-built tempo.ko loads and creates a render node" dkms_load
			fi
		fi
	fi
	step "DKMS left nothing outside its temporary trees" host_untouched
fi

# --- make install -------------------------------------------------------------
dest=$tmp/dest

make_install() {
	make install DESTDIR="$dest" PREFIX=/usr
}

installed_files() {
	local f rc=0
	for f in \
		"lib/modules/$kver/updates/drivers/gpu/drm/tempo/tempo.ko*" \
		usr/include/drm/tempo_drm.h \
		usr/include/tempo/tempo.hpp \
		usr/include/tempo/version.hpp \
		'usr/lib/libtempo.*' \
		usr/lib/pkgconfig/tempo.pc \
		usr/lib/cmake/tempo/tempoConfig.cmake \
		usr/lib/cmake/tempo/tempoConfigVersion.cmake \
		usr/lib/cmake/tempo/tempoTargets.cmake \
		usr/bin/tempo-info usr/bin/tempo-bench usr/bin/tempo-demo \
		usr/bin/tempo-top usr/share/man/man1/tempo-info.1 \
		usr/share/man/man1/tempo-bench.1 usr/share/man/man1/tempo-demo.1 \
		usr/share/man/man1/tempo-top.1; do
		# shellcheck disable=SC2086
		if compgen -G "$dest/"$f >/dev/null; then
			echo "have $f"
		else
			echo "MISSING $f"
			rc=1
		fi
	done
	return $rc
}

# COPYING and every license text of LICENSES/, unchanged, in the
# documentation directory, beside the library whose notice asks for them.
installed_licenses() {
	local f doc=$dest/usr/share/doc/tempo rc=0
	for f in COPYING $(git ls-files LICENSES); do
		if cmp "$f" "$doc/$f"; then
			echo "have $f"
		else
			rc=1
		fi
	done
	return $rc
}

# The version of what make install put in place: the module's, tempo.pc's,
# the CMake package's, <tempo/version.hpp>'s and each tool's --version.
installed_versions() {
	local t rc=0 ko
	ko=$(compgen -G "$dest/lib/modules/$kver/updates/drivers/gpu/drm/tempo/tempo.ko*")
	same "tempo.ko" "$(modinfo -F version "$ko")" || rc=1
	same "tempo.pc" "$(pc --modversion tempo)" || rc=1
	same "tempoConfigVersion.cmake" "$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' \
		"$dest/usr/lib/cmake/tempo/tempoConfigVersion.cmake")" || rc=1
	same "tempo/version.hpp" "$(sed -n 's/^#define TEMPO_VERSION_STRING "\(.*\)"$/\1/p' \
		"$dest/usr/include/tempo/version.hpp")" || rc=1
	for t in tempo-info tempo-bench tempo-demo tempo-top; do
		same "$t --version" "$("$dest/usr/bin/$t" --version | sed -n "s/^$t //p")" || rc=1
	done
	return $rc
}

# pkg-config on the staging tree: tempo.pc says prefix=/usr, the sysroot
# puts $dest in front of its -I and -L, and of libdrm's, which tempo.pc
# requires: the staging tree stands for a system with libdrm-dev, so it
# gets a link to libdrm's headers (the linker finds the library anyway).
pc() {
	local drm
	drm=$(pkg-config --variable=includedir libdrm)/libdrm
	if [ ! -e "$dest$drm" ]; then
		mkdir -p "$(dirname "$dest$drm")"
		ln -s "$drm" "$dest$drm"
	fi
	PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_PATH=$dest/usr/lib/pkgconfig \
		pkg-config "$@"
}

consumer_pkg_config() {
	local out=$tmp/consumer-pc
	mkdir -p "$out"
	echo "cflags: $(pc --cflags tempo)"
	echo "libs: $(pc --libs tempo)"
	# shellcheck disable=SC2046
	g++ -std=c++20 -Wall -Wextra -Werror -o "$out/consumer" \
		tests/install/consumer/main.cpp $(pc --cflags --libs tempo) || return 1
	# The staged libtempo.so, where the system has none to find.
	LD_LIBRARY_PATH=$dest/usr/lib "$out/consumer"
}

# <drm/tempo_drm.h> includes "drm.h", which Debian has only in libdrm's
# include directory: tempo.pc's Cflags must bring it, nothing else is given.
consumer_uapi() {
	local out=$tmp/consumer-uapi
	mkdir -p "$out"
	# shellcheck disable=SC2046
	gcc -std=c11 -Wall -Wextra -Werror -o "$out/uapi" \
		tests/install/consumer/uapi.c $(pc --cflags tempo) || return 1
	"$out/uapi"
}

# build_copy SRC COMPILE LIBS: builds a copy of SRC away from the source
# tree (no neighbour for an #include "..."), "COMPILE -o PROGRAM COPY
# LIBS", COMPILE and LIBS split into words. Built, not run: the guides'
# programs need the device.
build_copy() {
	local copy
	copy=$tmp/guide/$(basename "$1")
	mkdir -p "$tmp/guide" && cp "$1" "$copy" || return 1
	# shellcheck disable=SC2086
	if $2 -o "${copy%.*}" "$copy" $3; then
		echo "$1: built"
	else
		echo "$1: FAILED"
		return 1
	fi
}

# build_copies GLOB COMPILE LIBS: build_copy of each file GLOB matches;
# there must be one.
build_copies() {
	local src rc=0
	# shellcheck disable=SC2086
	for src in $1; do
		[ -e "$src" ] || { echo "no program matches $1"; return 1; }
		build_copy "$src" "$2" "$3" || rc=1
	done
	return $rc
}

# The uAPI guide's programs, Documentation/examples/*.c, as its reader
# builds them against an installed tempo: tempo.pc's Cflags and libdrm's
# Libs, nothing else.
guide_programs() {
	local cflags libs
	cflags=$(pc --cflags tempo) && libs=$(pc --libs libdrm) || return 1
	echo "cflags: $cflags"
	echo "libs: $libs"
	build_copies 'Documentation/examples/*.c' \
		"gcc -Wall -Wextra -Werror $cflags" "$libs"
}

# The libtempo guide's programs, Documentation/examples/*.cpp, built as
# it says: g++ -std=c++20 and tempo.pc's Cflags and Libs.
libtempo_programs() {
	local flags
	flags=$(pc --cflags --libs tempo) || return 1
	echo "flags: $flags"
	build_copies 'Documentation/examples/*.cpp' \
		"g++ -std=c++20 -Wall -Wextra -Werror" "$flags"
}

consumer_cmake() {
	local out=$tmp/consumer-cmake
	cmake -S tests/install/consumer -B "$out" -DCMAKE_PREFIX_PATH="$dest/usr" \
		-DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON &&
		cmake --build "$out" --verbose &&
		grep -q "^tempo_DIR:PATH=$dest/usr/lib/cmake/tempo\$" "$out/CMakeCache.txt" &&
		"$out/consumer"
}

# soname_links DIR: libtempo is shared, DIR/libtempo.so ->
# libtempo.so.MAJOR.MINOR (the SONAME, what programs ask for) ->
# libtempo.so.VERSION (the file), and there is no static one.
soname_links() {
	local lib=$1 soname=libtempo.so.$sover dyn
	dyn=$(readelf -d "$lib/libtempo.so.$version") || return 1
	echo "$dyn" | grep -E 'SONAME|NEEDED'
	grep -qF "Library soname: [$soname]" <<<"$dyn" ||
		{ echo "no SONAME $soname"; return 1; }
	echo "libtempo.so -> $(readlink "$lib/libtempo.so")"
	echo "$soname -> $(readlink "$lib/$soname")"
	[ "$(readlink "$lib/libtempo.so")" = "$soname" ] &&
		[ "$(readlink "$lib/$soname")" = "libtempo.so.$version" ] &&
		[ -f "$lib/libtempo.so.$version" ] && [ ! -L "$lib/libtempo.so.$version" ] &&
		[ ! -e "$lib/libtempo.a" ]
}

# same_file A B: A and B are one file, through their links.
same_file() {
	[ -n "$1" ] && [ "$(realpath "$1")" = "$(realpath "$2")" ]
}

# Below a prefix whose lib is not a system directory the installed tools
# find the staged library through their RPATH, $ORIGIN/../lib, nothing else.
tools_find_library() {
	local t found
	for t in tempo-info tempo-bench tempo-demo tempo-top; do
		# shellcheck disable=SC2016
		readelf -d "$dest/usr/bin/$t" | grep -E '\((RPATH|RUNPATH)\)' |
			grep -qF '[$ORIGIN/../lib]' ||
			{ echo "$t: no RPATH \$ORIGIN/../lib"; readelf -d "$dest/usr/bin/$t"; return 1; }
		found=$(env -u LD_LIBRARY_PATH ldd "$dest/usr/bin/$t" | awk '$1 ~ /^libtempo/ { print $3 }')
		echo "$t: $found"
		same_file "$found" "$dest/usr/lib/libtempo.so.$version" || return 1
	done
}

installed_tools() {
	local t
	for t in tempo-info tempo-bench tempo-demo tempo-top; do
		"$dest/usr/bin/$t" --help >/dev/null || { echo "$t --help failed"; return 1; }
		echo "$t --help: ok"
	done
}

# The module parameters the driver declares, "NAME TYPE MODE" a line:
# module_param(NAME, TYPE, MODE), module_param_named(NAME, VAR, TYPE,
# MODE), and module_param_cb(NAME, OPS, VAR, MODE) with its
# __MODULE_PARM_TYPE(NAME, "TYPE"), each statement read whole, however
# it is split into lines.
module_params() {
	find drivers/gpu/drm/tempo -name '*.c' -exec cat {} + | awk '
		BEGIN { RS = ";" }
		{ gsub(/[ \t\n]/, "") }
		match($0, /(module_param(_named|_cb)?(_unsafe)?|__MODULE_PARM_TYPE)\([^()]*\)$/) {
			n = split(substr($0, RSTART, RLENGTH), f, /[(),"]+/)
			if (f[1] ~ /^module_param(_unsafe)?$/) {
				type[f[2]] = f[3]; mode[f[2]] = f[4]; names[++count] = f[2]
			} else if (f[1] ~ /^module_param_named/) {
				type[f[2]] = f[4]; mode[f[2]] = f[5]; names[++count] = f[2]
			} else if (f[1] ~ /^module_param_cb/) {
				mode[f[2]] = f[5]; names[++count] = f[2]
			} else {
				type[f[2]] = f[3]
			}
		}
		END { for (i = 1; i <= count; i++) print names[i], type[names[i]], mode[names[i]] }'
}

# render PAGE [WIDTH]: PAGE as man shows it, in plain text, with groff's
# warnings (-ww) on standard error.
render() {
	groff -man -Tutf8 -P-cbou -ww -rLL="${2:-80}n" "$1"
}

# The manual pages: every tool make install put in bin/ has its section-1
# page, named after it, whose NAME line names it; libtempo.3 and tempo.4
# are there; tempo.4 has an entry for every module parameter the driver
# declares, with its type and mode, and with the range and default its
# description gives (modinfo -p, when a tempo.ko is built); every page
# renders without a warning.
manual_pages() {
	local man=$dest/usr/share/man rc=0 t page name type mode ko modinfo desc range
	local text err

	command -v groff >/dev/null || { echo "no groff (groff-base)"; return 1; }
	for t in "$dest"/usr/bin/*; do
		t=$(basename "$t")
		page=$man/man1/$t.1
		[ -f "$page" ] || { echo "$t: no page $page"; rc=1; continue; }
		grep -q "^\.TH \"${t^^}\" \"1\" " "$page" ||
			{ echo "$t.1: no .TH \"${t^^}\" \"1\""; rc=1; }
		render "$page" 2>/dev/null | grep -q "^ *$t  *- " ||
			{ echo "$t.1: no NAME line \"$t - ...\""; rc=1; }
		echo "$t.1: ok"
	done
	for page in man3/libtempo.3 man4/tempo.4; do
		[ -f "$man/$page" ] || { echo "MISSING $page"; rc=1; }
	done
	[ "$rc" = 0 ] || return 1

	text=$(render "$man/man4/tempo.4" 200 2>/dev/null)
	ko=$(find drivers/gpu/drm/tempo -name 'tempo.ko' | head -n 1)
	[ -z "$ko" ] || modinfo=$(modinfo -p "$ko") || return 1
	echo "parameters from the driver's source${ko:+ and $ko}:"
	while read -r name type mode; do
		grep -q "^ *$name ($type, .*mode $mode)\$" <<<"$text" ||
			{ echo "tempo.4: no entry \"$name ($type, ..., mode $mode)\""; rc=1; continue; }
		# "(LO-HI, default DEF)" in the description: "LO to HI, default DEF".
		desc=
		[ -z "$ko" ] || desc=$(sed -n "s/^$name:.*(\(-\{0,1\}[0-9]*-[0-9]*, default [0-9]*\)) ([a-z]*)\$/\1/p" <<<"$modinfo")
		if [ -n "$desc" ]; then
			range=${desc%%, *}
			range="${range%-*} to ${range##*-}, default ${desc##* }"
			# A default that differs on some kernels (a compat one) is
			# named in the entry's text: "The default is DEF on ...".
			grep -q "^ *$name ($type, $range, mode" <<<"$text" ||
				grep -A6 "^ *$name ($type, " <<<"$text" | tr -s ' \n' ' ' |
				grep -q "The default is ${desc##* } on " ||
				{ echo "tempo.4: $name is not ($type, $range, ...)"; rc=1; continue; }
		fi
		echo "  $name ($type, mode $mode): ok"
	done < <(module_params)
	[ "$(module_params | wc -l)" -ge 20 ] || { echo "too few parameters found"; rc=1; }

	for page in "$man"/man*/*; do
		err=$(render "$page" 2>&1 >/dev/null)
		[ -z "$err" ] || { echo "${page#"$man"/}: $err"; rc=1; }
	done
	return $rc
}

make_uninstall() {
	local left
	make uninstall DESTDIR="$dest" PREFIX=/usr || return 1
	# Files and the library's symlinks; not the link pc() made to libdrm.
	left=$(find "$dest" ! -type d ! -path "$dest/usr/include/libdrm")
	[ -z "$left" ] || { echo "left behind:"; echo "$left"; return 1; }
}

if [ "$do_install" = 1 ]; then
	if step "make install DESTDIR=... PREFIX=/usr" make_install; then
		step "make install put every file in place" installed_files
		step "make install put COPYING and LICENSES/ in share/doc/tempo" installed_licenses
		step "what make install put in place is VERSION's version" installed_versions
		step "libtempo is shared: SONAME, symlinks to the file" soname_links "$dest/usr/lib"
		step "the installed tools find libtempo through their RPATH" tools_find_library
		step "consumer builds with pkg-config and runs" consumer_pkg_config
		step "<drm/tempo_drm.h> compiles in C (pkg-config cflags)" consumer_uapi
		step "the uAPI guide's programs build against the install" guide_programs
		step "the libtempo guide's programs build against the install" libtempo_programs
		step "consumer builds with CMake find_package(tempo) and runs" consumer_cmake
		step "the installed tools run" installed_tools
		step "the manual pages: every tool's, libtempo(3), tempo(4)" manual_pages
		step "make uninstall removes every file make install put there" make_uninstall
	fi
fi

# --- Debian packages ----------------------------------------------------------
# tempo-dkms's postinst would build the module for every kernel in
# /lib/modules (minutes; the DKMS steps above build the same source, which
# deb_dkms_source checks): /etc/dkms/no-autoinstall, DKMS's own switch,
# which the autopkgtest of Debian's DKMS packages sets the same way, turns
# that off while the packages are installed, and the test registers the
# source with "dkms add" as the postinst does; the prerm's "dkms remove"
# is the package's own.
debs=$repo/build/deb
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
deb_packages=(tempo-dkms "libtempo$sover" libtempo-dev tempo-tools)
deb_lib=/usr/lib/$multiarch

deb_files() {
	local p
	for p in "${deb_packages[@]}"; do
		ls "$debs/${p}_${version}"_*.deb || return 1
	done
}

# Without the debug-symbol packages, which the test does not install
# (compressing them is a quarter of the build's time).
make_deb() {
	DEB_BUILD_OPTIONS=noautodbgsym make deb || return 1
	deb_files
}

# Why the packages cannot be tried on this machine, if they cannot: tempo
# installed already, by dpkg or by make dkms-source and dkms.
deb_host_busy() {
	local p
	for p in "${deb_packages[@]}"; do
		if dpkg-query -W "$p" >/dev/null 2>&1; then
			echo "$p is known to dpkg"
			return 0
		fi
	done
	[ ! -e "/usr/src/tempo-$version" ] || { echo "/usr/src/tempo-$version exists"; return 0; }
	[ -z "$(dkms status -m tempo 2>/dev/null)" ] || { echo "dkms knows tempo"; return 0; }
	return 1
}

# The names below the trees a DKMS package or module changes.
deb_host_list() {
	find /var/lib/dkms /usr/src /lib/modules /etc/modprobe.d /etc/modules-load.d \
		-maxdepth 4 \( -path '/lib/modules/*/build' -o -path '/lib/modules/*/source' \) \
		-prune -o -print 2>/dev/null | LC_ALL=C sort
}

# Whether each path the packages hold exists, one "PATH yes|no" a line.
deb_paths_state() {
	local deb
	for deb in $(deb_files); do
		dpkg-deb --fsys-tarfile "$deb" | tar -t
	done | sed 's|^\./|/|; s|/$||' | LC_ALL=C sort -u | while read -r path; do
		[ -n "$path" ] || continue
		if [ -e "$path" ] || [ -L "$path" ]; then echo "$path yes"; else echo "$path no"; fi
	done
}

deb_install() {
	local out
	if [ ! -e /etc/dkms/no-autoinstall ]; then
		touch /etc/dkms/no-autoinstall && deb_made_no_autoinstall=1 || return 1
	fi
	deb_installed=1
	# shellcheck disable=SC2046
	out=$(dpkg -i $(deb_files) 2>&1)
	local rc=$?
	echo "$out"
	[ "$rc" = 0 ] && grep -q "autoinstall for dkms modules has been disabled" <<<"$out"
}

deb_files_in_place() {
	local f t found rc=0
	for f in "$deb_lib/libtempo.so.$version" "$deb_lib/libtempo.so.$sover" \
		"$deb_lib/libtempo.so" /usr/include/tempo/tempo.hpp \
		/usr/include/tempo/version.hpp /usr/include/drm/tempo_drm.h \
		"$deb_lib/pkgconfig/tempo.pc" "$deb_lib/cmake/tempo/tempoConfig.cmake" \
		"$deb_lib/cmake/tempo/tempoConfigVersion.cmake" \
		"$deb_lib/cmake/tempo/tempoTargets.cmake" \
		/usr/bin/tempo-info /usr/bin/tempo-bench /usr/bin/tempo-demo /usr/bin/tempo-top \
		/usr/share/man/man1/tempo-info.1.gz /usr/share/man/man1/tempo-top.1.gz \
		/usr/share/man/man3/libtempo.3.gz /usr/share/man/man4/tempo.4.gz \
		"/usr/src/tempo-$version/dkms.conf" "/usr/src/tempo-$version/Kbuild" \
		/etc/modprobe.d/tempo.conf /etc/modules-load.d/tempo.conf; do
		if [ -e "$f" ]; then echo "have $f"; else echo "MISSING $f"; rc=1; fi
	done
	soname_links "$deb_lib" || rc=1
	# The linker's cache and the tools' libtempo are the package's (by
	# /lib or /usr/lib: Debian 12's /lib is a link to /usr/lib); the tools
	# have no RPATH.
	found=$(ldconfig -p | awk -v so="libtempo.so.$sover" '$1 == so { print $NF }')
	echo "ldconfig: ${found:-no libtempo.so.$sover}"
	same_file "$found" "$deb_lib/libtempo.so.$sover" || rc=1
	for t in tempo-info tempo-bench tempo-demo tempo-top; do
		! readelf -d "/usr/bin/$t" | grep -E '\((RPATH|RUNPATH)\)' || rc=1
		found=$(env -u LD_LIBRARY_PATH ldd "/usr/bin/$t" | awk '$1 ~ /^libtempo/ { print $3 }')
		echo "$t: $found"
		same_file "$found" "$deb_lib/libtempo.so.$sover" || rc=1
		"/usr/bin/$t" --help >/dev/null || { echo "$t --help failed"; rc=1; }
	done
	# The module's conffiles load nothing and set nothing until edited.
	for f in /etc/modprobe.d/tempo.conf /etc/modules-load.d/tempo.conf; do
		dpkg-query -W -f='${Conffiles}\n' tempo-dkms | grep -q " $f " ||
			{ echo "$f is no conffile"; rc=1; }
		! grep -v '^#' "$f" || { echo "$f: not all comments"; rc=1; }
	done
	return $rc
}

# The packaged DKMS tree is the one the DKMS steps build; dkms add
# registers it as tempo-dkms's postinst does.
deb_dkms_source() {
	scripts/dkms-source.sh "$tmp/deb-dkms-src" &&
		diff -r "$tmp/deb-dkms-src" "/usr/src/tempo-$version" || return 1
	dkms add -m tempo -v "$version" || return 1
	dkms status -m tempo
	[ "$(dkms status -m tempo)" = "tempo/$version: added" ]
}

# A program of libtempo's users, built as the guide says against the
# installed packages, pkg-config's and CMake's way, with nothing to tell
# where they are; run without LD_LIBRARY_PATH.
deb_consumer() {
	local out=$tmp/deb-consumer
	mkdir -p "$out"
	# shellcheck disable=SC2046
	env -u PKG_CONFIG_PATH g++ -std=c++20 -Wall -Wextra -Werror -o "$out/consumer" \
		tests/install/consumer/main.cpp $(env -u PKG_CONFIG_PATH pkg-config --cflags --libs tempo) &&
		env -u LD_LIBRARY_PATH "$out/consumer" || return 1
	cmake -S tests/install/consumer -B "$out/cmake" \
		-DCMAKE_FIND_PACKAGE_NO_SYSTEM_PACKAGE_REGISTRY=ON &&
		cmake --build "$out/cmake" &&
		grep -q "^tempo_DIR:PATH=$deb_lib/cmake/tempo\$" "$out/cmake/CMakeCache.txt" &&
		env -u LD_LIBRARY_PATH "$out/cmake/consumer"
}

# dpkg -i over the installed packages: the prerm of the old tempo-dkms
# removes the source from DKMS, the postinst (autoinstall off) adds nothing.
deb_reinstall_over() {
	deb_install || return 1
	dkms status -m tempo
	[ -z "$(dkms status -m tempo)" ] || return 1
	dkms add -m tempo -v "$version"
}

# dpkg --purge: every path of the packages as before the install, DKMS
# without tempo, the trees' names as before.
deb_purge() {
	local p
	dpkg --purge "${deb_packages[@]}" || return 1
	deb_installed=0
	for p in "${deb_packages[@]}"; do
		! dpkg-query -W "$p" 2>/dev/null || { echo "dpkg still knows $p"; return 1; }
	done
	[ -z "$(dkms status -m tempo)" ] || { dkms status -m tempo; return 1; }
	deb_paths_state >"$tmp/deb-paths.after" &&
		diff -u "$tmp/deb-paths.before" "$tmp/deb-paths.after" || return 1
	deb_host_list >"$tmp/deb-host.after"
	diff -u "$tmp/deb-host.before" "$tmp/deb-host.after"
}

deb_steps() {
	local busy
	step "make deb builds tempo-dkms, libtempo$sover, libtempo-dev, tempo-tools" make_deb ||
		return
	if [ "$(id -u)" != 0 ]; then
		skip "the packages on this machine" "dpkg needs root"
		return
	fi
	if busy=$(deb_host_busy); then
		skip "the packages on this machine" "$busy"
		return
	fi
	deb_paths_state >"$tmp/deb-paths.before"
	deb_host_list >"$tmp/deb-host.before"
	if step "dpkg -i installs them, DKMS autoinstall off" deb_install &&
	   step "their files are in place, the tools find libtempo.so.$sover" deb_files_in_place; then
		step "tempo-dkms's source is dkms-source.sh's; dkms add lists it" deb_dkms_source
		step "a program builds on libtempo-dev (pkg-config, CMake) and runs" deb_consumer
		step "dpkg -i over them: the prerm removes tempo from DKMS" deb_reinstall_over
	fi
	step "dpkg --purge leaves nothing of theirs, DKMS's trees as before" deb_purge || return
	step "dpkg -i after the purge puts them back" deb_install &&
		step "their files are in place again" deb_files_in_place
	step "dpkg --purge again leaves the machine as before" deb_purge
}

if [ "$do_install" = 1 ] && [ "$do_deb" = 1 ]; then
	if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh_dkms >/dev/null; then
		step "debhelper and dh-dkms are installed" false
	else
		deb_steps
	fi
fi

elapsed=$(($(date +%s) - t_start))
echo "1..$n"
echo "# install test took ${elapsed}s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
