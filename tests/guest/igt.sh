#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run IGT tests against tempo with igt_runner (normally inside the test
# VM, as root, with tempo.ko loaded) and report each subtest.
#
#   tests/guest/igt.sh [--name NAME] IGT_DIR [igt_runner options]
#
# IGT_DIR is a build of tools/igt/build (its TEMPO_IGT_DIR).  The results
# go to $TEMPO_OUT/igt-NAME (default NAME: igt), as igt_runner writes
# them (results.json; igt_results turns a partial run into one).  Each
# subtest becomes an "ok"/"not ok" line; a skip passes only when
# tools/igt/skips explains it, and otherwise counts as a failure.  The
# last line is a kselftest "# Totals:" line; the exit status is 1 when
# anything failed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
name=igt
if [ "${1:-}" = --name ]; then
	name=$2
	shift 2
fi
dir=${1:?usage: tests/guest/igt.sh [--name NAME] IGT_DIR [igt_runner options]}
shift
results=${TEMPO_OUT:-/tmp}/igt-$name

# What the kernel offers that the skip list depends on.
have=()
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -e /sys/kernel/debug/sync/sw_sync ] && have+=(--have sw_sync)

# IGT loads every GPU driver it knows when it looks for a device more
# than the VM has (core_getversion@all-cards): under TCG that took 87 s,
# amdgpu's initialisation most of it. In the test VM (/run is its own)
# those drivers' loads run /bin/false instead; on any other machine
# nothing changes.
if [ -d /run/tempo-vm ]; then
	mkdir -p /run/modprobe.d
	for m in amdgpu i915 msm panfrost v3d vc4 vgem virtio_gpu vkms vmwgfx xe; do
		echo "install $m /bin/false"
	done >/run/modprobe.d/tempo-igt.conf
fi
# One execution per subtest: igt_runner's multiple mode (one per
# program) garbled the tests' standard error and turned passes into
# "warn".  A subtest that hangs is killed after 120 s.
# The subtests that tools/igt/skips says skip on this kernel (for a
# feature it lacks) are left out rather than started one by one only to
# skip (half a second each under TCG); the summary reports them.
skips=$repo/tools/igt/skips
not_run=$(python3 "$repo/tools/igt/summarise.py" --skips "$skips" "${have[@]}" --not-run-regex)
"$dir/build/runner/igt_runner" --overwrite \
	--per-test-timeout 120 --dmesg-warn-level 4 ${not_run:+-x "$not_run"} \
	"$@" "$dir/tests" "$results" >"$results.log" 2>&1
rc=$?
if [ ! -f "$results/results.json" ]; then
	"$dir/build/runner/igt_results" "$results" >>"$results.log" 2>&1
fi
if [ ! -f "$results/results.json" ]; then
	tail -n 20 "$results.log"
	echo "not ok 1 igt_runner wrote no results (exit $rc, log: $results.log)"
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	exit 1
fi
python3 "$repo/tools/igt/summarise.py" --skips "$skips" \
	"${have[@]}" ${not_run:+--not-run} "$results/results.json"
