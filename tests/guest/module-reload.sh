#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Reload tempo.ko, and the DRM scheduler under it, with other parameters,
# inside the test VM: one boot can then run programs under two scheduler
# policies.
#
#   tests/guest/module-reload.sh [GPU_SCHED_PARAMS]
#
# Runs as root in the guest, where tools/vm/run has loaded the module.
# Unloads tempo, then gpu_sched (the scheduler tempo and drm_sched's own
# tests use), loads gpu_sched with GPU_SCHED_PARAMS (none: its defaults)
# and checks that each NAME=VALUE of them reads back from
# /sys/module/gpu_sched/parameters, then loads tempo with
# $TEMPO_MODPARAMS, or with the VM's parameters when it is unset
# (tests/guest/module.sh says which module). The VM's own unload check at
# the end unloads whatever is loaded then.
#
# Output: kselftest-style TAP and a final "# Totals:" line, which
# tests/guest/run-all.sh reads. Exit status 0 when every step passed.
set -u

cd "$(dirname "$0")/../.." || exit 1
BB=/bin/busybox
[ -x $BB ] || BB=

repo=$(pwd)
# shellcheck source=tests/lib/tap.sh
. "$repo/tests/lib/tap.sh"
# step STATUS NAME [DETAIL]: one result, DETAIL as a diagnostic on failure.
step() {
	[ "$1" = 0 ] || [ -z "${3:-}" ] || echo "# $2: $3"
	result "$2" "$1"
}
totals() {
	echo "1..$n"
	echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
}

echo "TAP version 13"
module_arg=
# shellcheck source=tests/guest/module.sh
. tests/guest/module.sh
if [ -z "$module" ] || [ "$(id -u)" != 0 ]; then
	step 1 "reload" "needs root and the module tools/vm/run loaded"
	totals
	exit 1
fi

# The VM's modules may be outside /lib/modules (tools/vm/guest-init).
modprobe_() {
	modprobe ${TEMPO_MODPROBE_ROOT:+-d "$TEMPO_MODPROBE_ROOT"} "$@"
}

sched_params=("$@")
out=$(unload)
step $? "tempo unloads" "$out"
if grep -q '^drm_sched_tests ' /proc/modules; then
	modprobe_ -r drm_sched_tests
fi
out=$(modprobe_ -r gpu_sched 2>&1)
! grep -q '^gpu_sched ' /proc/modules
step $? "gpu_sched unloads" "$out"
out=$(modprobe_ gpu_sched "${sched_params[@]}" 2>&1)
step $? "gpu_sched loads${sched_params[*]:+ with ${sched_params[*]}}" "$out"
for p in "${sched_params[@]}"; do
	got=$(cat "/sys/module/gpu_sched/parameters/${p%%=*}" 2>&1)
	[ "$got" = "${p#*=}" ]
	step $? "gpu_sched's ${p%%=*} reads back ${p#*=}" "$got"
done
out=$(load "$params")
step $? "tempo loads${params:+ with $params}" "$out"
totals
[ "$failed" = 0 ]
