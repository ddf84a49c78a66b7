#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make demo": build the module and the tools, boot the test VM and show
# tempo at work.  The programs to run are listed in DEMO_CMDS below; ones
# that are not built yet are skipped.  Files the demo programs write to
# $TEMPO_OUT land in build/demo/ on the host; the gnuplot scripts among
# them (tempo-demo's latency histogram) are drawn there as SVG when
# gnuplot is installed.
#
#   scripts/demo.sh [--build-only]
#
# --build-only builds what the demo runs (the module for the VM's kernel,
# the tools) and stops before booting the VM.
#
# Environment:
#   TEMPO_DEMO_MODPARAMS  module parameters for tempo.ko
#   TEMPO_VM_ARGS         more tools/vm/run options (word-split)
set -uo pipefail

build_only=0
case ${1:-} in
'') ;;
--build-only) build_only=1 ;;
*) echo "usage: scripts/demo.sh [--build-only]" >&2; exit 2 ;;
esac

# Commands run in the VM, in order, from the repository root.  The first
# word must be the program (relative to the repository root).
DEMO_CMDS=(
	"build/cmake/tools/tempo-info/tempo-info"
	"build/cmake/tools/tempo-demo/tempo-demo"
)

cd "$(dirname "$0")/.." || exit 2
make=${MAKE:-make}
out=build/demo

# The module for the kernel the VM boots, whatever kernel headers the
# host has (make modules alone builds for the running kernel when its
# headers are installed).
vm_kver=$(scripts/kver.sh --vm)
echo "==> building the module for $vm_kver"
$make modules KVER="$vm_kver" || { echo "demo: make modules failed" >&2; exit 1; }
if [ -f CMakeLists.txt ]; then
	echo "==> building the tools"
	$make tools || { echo "demo: make tools failed" >&2; exit 1; }
fi
[ "$build_only" = 0 ] || exit 0

cmds=()
for c in "${DEMO_CMDS[@]}"; do
	prog=${c%%[[:space:]]*}
	if [ -x "$prog" ]; then
		cmds+=("$c")
	else
		echo "demo: $prog is not built yet; skipping it"
	fi
done

# What runs in the guest: show the device, then each command.
# shellcheck disable=SC2016 # expanded in the guest
guest_script='
echo "== tempo $(cat /sys/module/tempo/version 2>/dev/null)"
ls -l /dev/dri
rc=0
for c in "$@"; do
	echo
	echo "== $c"
	bash -c "$c" || { s=$?; echo "demo: \"$c\" exited with status $s"; rc=1; }
done
exit $rc
'

vm_args=(--out "$PWD/$out")
[ -z "${TEMPO_DEMO_MODPARAMS:-}" ] || vm_args+=(--modparams "$TEMPO_DEMO_MODPARAMS")
# shellcheck disable=SC2206
[ -z "${TEMPO_VM_ARGS:-}" ] || vm_args+=(${TEMPO_VM_ARGS})
mkdir -p "$out"
echo "==> booting the VM"
tools/vm/run "${vm_args[@]}" --log-dir "$PWD/$out" -- bash -c "$guest_script" demo "${cmds[@]}"
rc=$?

# The pictures: each NAME.gp draws NAME.svg from the data next to it.
for gp in "$out"/*.gp; do
	[ -f "$gp" ] || continue
	if ! command -v gnuplot >/dev/null; then
		echo "demo: gnuplot is not installed; $gp is not drawn"
		continue
	fi
	if (cd "$out" && gnuplot "$(basename "$gp")"); then
		echo "==> drew ${gp%.gp}.svg"
	else
		echo "demo: gnuplot $gp failed" >&2
	fi
done

echo "==> demo finished with status $rc (outputs in $out/, kernel log in $out/last-guest.log)"
exit $rc
