#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The code-quality gates of tempo, each reported as one TAP-like line
# ("ok N gate" / "not ok N gate"), the findings of a failing gate after it:
#
#   w1          the module builds with W=1 and no warning, against every
#               kernel tempo is tested on: Debian's 6.12 (the VM's),
#               Debian's 6.1 headers, and the newest 7.x built from source
#               (tools/vm/kernels, preset debug)
#   checkpatch  checkpatch.pl --strict finds nothing in the driver and uAPI
#   sparse      sparse (make C=2) finds nothing, against Debian's 6.12
#   kernel-doc  kernel-doc -none -Wall is silent on the uAPI header and the
#               driver sources
#   hw-wall     only the files hw/tempo_hw.h names ("Backend users:")
#               include it or tempo_sched.h; hw/tempo_hw_priv.h only from
#               hw/
#   kunit       the KUnit suites build with W=1 and pass sparse, against
#               the kernels with KUnit (tools/vm/kernels presets debug and
#               lts)
#   mainline    the driver builds with W=1 and no warning with compat/
#               deleted, against the newest 7.x (preset debug): the driver
#               as it would be upstream, which no compatibility shim props
#               up
#
# The module builds are shared: one build per kernel, with W=1 and C=2,
# serves the w1, sparse and kunit gates. Sparse checks against 6.12 and
# 6.1 only: 7.x's Makefile turns C=2 off with a warning, as Debian 12's
# sparse (0.6.4) lacks __typeof_unqual__.
#   function-length  no C or C++ function is longer than 80 lines, none in
#               tools/ longer than 60 (scripts/function-lengths.py, with
#               universal-ctags)
#   clang-format the C++ sources are formatted (.clang-format)
#   spdx        every file of the repository has an SPDX-License-Identifier
#               (but the license texts, COPYING and VERSION), and every
#               license and exception it names has its text in LICENSES/
#               (a Valid-License-Identifier line there)
#   docs        "make docs" (Sphinx, with the kernel-doc of the uAPI header
#               and the driver) builds with no warning
#
# Exits non-zero when a gate fails. Usage: scripts/gates.sh [GATE...]
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
kver=$(scripts/kver.sh --vm)
kdir=${KDIR:-/lib/modules/$kver/build}
log=$repo/build/gates
mkdir -p "$log"
tree=$(scripts/linux-source.sh) || exit 2

driver_files() {
	git ls-files 'drivers/gpu/drm/tempo/*.c' 'drivers/gpu/drm/tempo/*.h'
}

# A build's diagnostics: lines naming a source file with warning/error.
diagnostics() {
	grep -E '(warning|error):' "$1" | grep -v '^make' || true
}

# The build trees of the kernels the module must build on without warning.
w1_kdirs() {
	local d lts=
	echo "$kdir"
	for d in /lib/modules/6.1.*-amd64/build; do
		[ -e "$d/Makefile" ] && lts=$d
	done
	echo "${lts:-/lib/modules/6.1-amd64-headers-missing/build}"
	kernel_kdir debug
}

# kernel_kdir PRESET: the build tree of a tools/vm/kernels preset.
kernel_kdir() {
	tools/vm/kernels/build -q --preset "$1" | sed -n 's/^TEMPO_KERNEL_KDIR=//p'
}

# build_copy KDIR NAME [MAKE ARGS]: build a copy of the driver in
# $log/NAME against KDIR; prints its diagnostics; fails on any. A copy:
# the gates never touch the source tree, so they can run while something
# else builds or installs from it. With TEMPO_GATE_NO_COMPAT=1, the copy
# has no compat/.
build_copy() {
	local k=$1 name=$2 copy=$log/$2-tree
	shift 2
	[ -e "$k/Makefile" ] || { echo "$name: no kernel build tree $k"; return 1; }
	rm -rf "$copy"
	mkdir -p "$copy"
	cp -r VERSION Kbuild drivers uapi "$copy"/
	find "$copy" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \
		-o -name 'tempo_compat_gen.h*' \) -prune -exec rm -rf {} +
	[ "${TEMPO_GATE_NO_COMPAT:-0}" = 0 ] || rm -r "$copy/drivers/gpu/drm/tempo/compat"
	make -C "$k" M="$copy" "$@" modules >"$log/$name.log" 2>&1 || {
		tail -n 30 "$log/$name.log"; return 1; }
	diagnostics "$log/$name.log" | sed "s|^|$name: |" | tee "$log/$name.out"
	[ ! -s "$log/$name.out" ]
}

# build_checked KDIR NAME: the driver built by build_copy against KDIR
# with W=1 and sparse (C=2), once per run of this script: the w1, sparse
# and kunit gates share the builds (the build tree is $log/NAME-tree of
# the first NAME given for KDIR). Prints the diagnostics each time.
declare -A built_name=() built_status=()
build_checked() {
	local k=$1
	if [ -z "${built_name[$k]:-}" ]; then
		built_name[$k]=$2
		build_copy "$k" "$2" W=1 C=2
		built_status[$k]=$?
	elif [ -s "$log/${built_name[$k]}.out" ]; then
		cat "$log/${built_name[$k]}.out"
	fi
	return "${built_status[$k]}"
}

# build_tree KDIR: the build tree of build_checked's build against KDIR.
build_tree() {
	echo "$log/${built_name[$1]}-tree"
}

gate_w1() {
	local k n=0 bad=0
	while read -r k; do
		n=$((n + 1))
		build_checked "$k" "w1-$n" || bad=1
	done < <(w1_kdirs)
	return $bad
}

gate_sparse() {
	build_checked "$kdir" sparse
}

gate_checkpatch() {
	perl "$tree/scripts/checkpatch.pl" --strict --no-tree --terse \
		--ignore FILE_PATH_CHANGES -f $(driver_files) \
		>"$log/checkpatch.log" 2>&1
	grep -E 'ERROR|WARNING|CHECK' "$log/checkpatch.log" | tee "$log/checkpatch.out"
	[ ! -s "$log/checkpatch.out" ]
}

gate_kernel_doc() {
	perl "$tree/scripts/kernel-doc" -none -Wall uapi/drm/tempo_drm.h \
		$(driver_files) 2>&1 | tee "$log/kernel-doc.out"
	[ ! -s "$log/kernel-doc.out" ]
}

gate_hw_wall() {
	local users f bad=0
	users=$(sed -n '/Backend users:/,/\*\//p' drivers/gpu/drm/tempo/hw/tempo_hw.h |
		sed 's/.*Backend users://; s/^ \*//; s/\*\///' | tr -s ' \t' '\n' | grep .)
	[ -n "$users" ] || { echo "hw/tempo_hw.h names no backend users"; return 1; }
	for f in $(git ls-files 'drivers/gpu/drm/tempo/*.[ch]' | grep -v '/hw/'); do
		grep -qE '#include "(hw/tempo_hw\.h|tempo_sched\.h)"' "$f" || continue
		grep -qx "${f##*/}" <<<"$users" && continue
		echo "$f: includes the backend but hw/tempo_hw.h does not name it"
		bad=1
	done
	for f in $(git ls-files 'drivers/gpu/drm/tempo/*.[ch]' | grep -v '/hw/'); do
		grep -q 'tempo_hw_priv\.h' "$f" || continue
		echo "$f: includes the hardware's private header"
		bad=1
	done
	return $bad
}

# The KUnit suites, in a copy of the driver, against the kernels with KUnit.
gate_kunit() {
	local preset k tree bad=0
	for preset in debug lts; do
		k=$(kernel_kdir "$preset") || { echo "no $preset kernel"; bad=1; continue; }
		build_checked "$k" "kunit-$preset" || { bad=1; continue; }
		tree=$(build_tree "$k")
		ls "$tree"/drivers/gpu/drm/tempo/*_kunit.o \
			"$tree"/drivers/gpu/drm/tempo/hw/*_kunit.o \
			>/dev/null 2>&1 || { echo "$preset: no KUnit object was built"; bad=1; }
	done
	return $bad
}

# The driver without compat/, against the newest kernel: mainline's API only.
gate_mainline() {
	local k
	k=$(kernel_kdir debug) || { echo "no debug kernel"; return 1; }
	TEMPO_GATE_NO_COMPAT=1 build_copy "$k" mainline W=1
}

gate_function_length() {
	local bad=0 dirs
	dirs=$(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | cut -d/ -f1 | sort -u | grep -vx tools)
	# shellcheck disable=SC2086
	python3 scripts/function-lengths.py --max 80 $dirs || bad=1
	python3 scripts/function-lengths.py --max 60 tools || bad=1
	return $bad
}

gate_clang_format() {
	local files
	files=$(git ls-files -co --exclude-standard '*.cpp' '*.hpp' |
		grep -E '^(tools|tests|Documentation/examples)/' |
		while read -r f; do [ ! -f "$f" ] || echo "$f"; done)
	[ -n "$files" ] || return 0
	clang-format --dry-run --Werror $files 2>&1 | tee "$log/clang-format.out"
	[ ! -s "$log/clang-format.out" ]
}

# spdx_texts: "license ID" or "exception ID" for each identifier of a
# Valid-License-Identifier line in LICENSES/ (exceptions/: exceptions).
spdx_texts() {
	git grep '^Valid-License-Identifier: ' -- LICENSES |
		sed -E 's|^LICENSES/exceptions/[^:]*:[^:]*: *|exception |; t
			s|^[^:]*:[^:]*: *|license |'
}

# spdx_unknown: of git grep's "FILE:TAG LINE" lines on standard input,
# prints "FILE: ID has no text in LICENSES/" for each license or exception
# (after WITH) of the expression that spdx_texts does not list, and
# "FILE: bad expression" for anything else than identifiers, AND, OR,
# WITH and parentheses.
spdx_unknown() {
	awk 'FILENAME == ARGV[1] { known[$0] = 1; next }
	{
		file = $0; sub(/:.*/, "", file)
		expr = $0; sub(/.*SPDX-License-Identifier: */, "", expr)
		sub(/[ \t]*(\*\/|-->).*$/, "", expr); gsub(/[()]/, " ", expr)
		n = split(expr, w, /[ \t]+/); kind = "license"; ids = 0
		for (i = 1; i <= n; i++) {
			if (w[i] == "") continue
			if (w[i] == "AND" || w[i] == "OR") { kind = "license"; continue }
			if (w[i] == "WITH") { kind = "exception"; continue }
			if (w[i] !~ /^[A-Za-z0-9.+-]+$/) { print file ": bad expression"; next }
			ids++
			if (!((kind " " w[i]) in known))
				print file ": " kind " " w[i] " has no text in LICENSES/"
		}
		if (!ids) print file ": no identifier"
	}' <(spdx_texts) -
}

gate_spdx() {
	{
		git grep -L -I -e 'SPDX-License-Identifier: ' -- . \
			':!LICENSES/' ':!COPYING' ':!VERSION'
		git grep -m 1 -I -e 'SPDX-License-Identifier: ' -- . ':!LICENSES/' |
			spdx_unknown
	} | tee "$log/spdx.out"
	[ ! -s "$log/spdx.out" ]
}

gate_docs() {
	scripts/docs.sh >"$log/docs.log" 2>&1 || {
		grep -v '^linux-source.sh' "$log/docs.log"; return 1; }
}

gates=("$@")
[ ${#gates[@]} -gt 0 ] || gates=(w1 checkpatch sparse kernel-doc hw-wall kunit mainline function-length clang-format spdx docs)
n=0
failed=0
for g in "${gates[@]}"; do
	n=$((n + 1))
	if "gate_${g//-/_}"; then
		echo "ok $n gate $g"
	else
		echo "not ok $n gate $g"
		failed=$((failed + 1))
	fi
done
exit $((failed > 0))
