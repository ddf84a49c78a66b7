#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The code-quality gates of tempo, each reported as one TAP-like line
# ("ok N gate" / "not ok N gate"), the findings of a failing gate after it:
#
#   w1          the module builds with W=1 and no warning
#   checkpatch  checkpatch.pl --strict finds nothing in the driver and uAPI
#   sparse      sparse (make C=2) finds nothing
#   kernel-doc  kernel-doc -none -Wall is silent on the uAPI header and the
#               driver sources
#   hw-wall     only the files hw/tempo_hw.h names ("Backend users:")
#               include it or tempo_sched.h; hw/tempo_hw_priv.h only from
#               hw/
#   kunit       the KUnit suites build with W=1 and pass sparse, against
#               the debug kernel (which has KUnit; tools/vm/debug-kernel)
#   clang-format the C++ sources are formatted (.clang-format)
#   spdx        every file of the repository has an SPDX-License-Identifier
#   docs        "make docs" (Sphinx, with the kernel-doc of the uAPI header
#               and the driver) builds with no warning
#
# Exits non-zero when a gate fails. Usage: scripts/gates.sh [GATE...]
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
kver=$(scripts/kver.sh)
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

gate_w1() {
	make -s -C "$kdir" M="$repo" clean >/dev/null 2>&1
	make -C "$kdir" M="$repo" W=1 modules >"$log/w1.log" 2>&1 || {
		cat "$log/w1.log"; return 1; }
	diagnostics "$log/w1.log" | tee "$log/w1.out"
	[ ! -s "$log/w1.out" ]
}

gate_sparse() {
	make -C "$kdir" M="$repo" C=2 modules >"$log/sparse.log" 2>&1 || {
		cat "$log/sparse.log"; return 1; }
	diagnostics "$log/sparse.log" | tee "$log/sparse.out"
	[ ! -s "$log/sparse.out" ]
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

# The KUnit suites, in a copy of the driver, against the debug kernel.
gate_kunit() {
	local env kdir copy=$log/kunit-tree
	env=$(tools/vm/debug-kernel/build -q) || { echo "no debug kernel"; return 1; }
	kdir=$(sed -n 's/^TEMPO_DEBUG_KDIR=//p' <<<"$env")
	rm -rf "$copy"
	mkdir -p "$copy"
	cp -r Kbuild drivers uapi "$copy"/
	find "$copy" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name '*.mod*' \) -delete
	make -C "$kdir" M="$copy" W=1 C=2 modules >"$log/kunit.log" 2>&1 || {
		cat "$log/kunit.log"; return 1; }
	diagnostics "$log/kunit.log" | tee "$log/kunit.out"
	[ -s "$log/kunit.out" ] && return 1
	ls "$copy"/drivers/gpu/drm/tempo/*_kunit.o "$copy"/drivers/gpu/drm/tempo/hw/*_kunit.o \
		>/dev/null 2>&1 || { echo "no KUnit object was built"; return 1; }
}

gate_clang_format() {
	local files
	files=$(git ls-files '*.cpp' '*.hpp' '*.h' | grep -E '^(include|tools|tests/common|tests/libtempo|tests/tempo-top|Documentation/examples)/' | grep -v '\.h$' || true)
	[ -n "$files" ] || return 0
	clang-format --dry-run --Werror $files 2>&1 | tee "$log/clang-format.out"
	[ ! -s "$log/clang-format.out" ]
}

gate_spdx() {
	git grep -L -I -e 'SPDX-License-Identifier: ' -- . | tee "$log/spdx.out"
	[ ! -s "$log/spdx.out" ]
}

gate_docs() {
	scripts/docs.sh >"$log/docs.log" 2>&1 || {
		grep -v '^linux-source.sh' "$log/docs.log"; return 1; }
}

gates=("$@")
[ ${#gates[@]} -gt 0 ] || gates=(w1 checkpatch sparse kernel-doc hw-wall kunit clang-format spdx docs)
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
