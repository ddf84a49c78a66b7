#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Report KUnit suites that ran in the guest (kernels with KUnit only), in
# KTAP with a kselftest "# Totals" line for tests/guest/run-all.sh. Exit 77
# when there are none.
#
#   tests/guest/kunit.sh [--modprobe MODULE [--filter GLOB]...] [SUITE_GLOB]
#
# SUITE_GLOB names the suites below /sys/kernel/debug/kunit (default
# tempo_*: the driver's, which ran when tempo.ko loaded). --modprobe loads
# MODULE first, whose suites run as it loads (drm-sched-tests: drm_sched's
# own tests, drm_sched_*), reports them and unloads it. With --filter,
# once per GLOB: KUnit's filter_glob ("suite" or "suite.case") is set to
# GLOB, the module loaded, its suites reported, the module unloaded.
dir=/sys/kernel/debug/kunit
filter_param=/sys/module/kunit/parameters/filter_glob
module=
filters=
if [ "${1:-}" = --modprobe ]; then
	module=$2
	shift 2
fi
while [ "${1:-}" = --filter ]; do
	filters="$filters $2"
	shift 2
done
glob=${1:-tempo_*}
pass=0 fail=0 skip=0 n=0

# The VM's modules may be outside /lib/modules (tools/vm/guest-init).
modprobe_() {
	modprobe ${TEMPO_MODPROBE_ROOT:+-d "$TEMPO_MODPROBE_ROOT"} "$@"
}

# report: print the suites of $glob that ran, add their cases to the totals.
# One awk for them all: on a debug kernel under TCG, starting a process
# costs about two seconds.
nl='
'
report() {
	set --
	for s in "$dir"/$glob; do
		[ -f "$s/results" ] && set -- "$@" "$s/results"
	done
	[ $# -gt 0 ] || return 0
	# Cases are the second-level (ok|not ok) lines, skips marked # SKIP;
	# the last line is "PASSED SKIPPED FAILED SUITES".
	text=$(awk '
		FNR == 1 { suites++ }
		{ line = $0; sub(/^# Totals/, "# suite totals", line); print line }
		/^    ok [0-9]+ / { if (/# SKIP/) skipped++; else passed++ }
		/^    not ok [0-9]+ / { failed++ }
		END { printf "%d %d %d %d", passed, skipped, failed, suites }
	' "$@")
	printf '%s\n' "${text%"$nl"*}"
	# shellcheck disable=SC2086 # four numbers
	set -- ${text##*"$nl"}
	pass=$((pass + $1))
	skip=$((skip + $2))
	fail=$((fail + $3))
	n=$((n + $4))
}

# load_report [FILTER]: load $module (with KUnit's filter_glob FILTER),
# report its suites, unload it.
load_report() {
	if [ -n "${1:-}" ]; then
		echo "# filter_glob=$1"
		printf %s "$1" >"$filter_param" || return 1
	fi
	if ! out=$(modprobe_ "$module" 2>&1); then
		echo "not ok 1 modprobe $module: $out"
		fail=$((fail + 1))
		return 1
	fi
	report
	modprobe_ -r "$module"
}

if [ -z "$module" ]; then
	report
elif ! modprobe_ -n "$module" 2>/dev/null; then
	echo "# no module $module (kernel without these tests)"
	exit 77
elif [ -z "$filters" ]; then
	load_report
else
	[ -w "$filter_param" ] || { echo "# KUnit's filter_glob is not writable"; exit 77; }
	saved=$(cat "$filter_param")
	set -f	# the globs are KUnit's, not the shell's
	for f in $filters; do
		set +f
		load_report "$f"
	done
	set +f
	printf %s "$saved" >"$filter_param"
fi
if [ "$n" = 0 ] && [ "$fail" = 0 ]; then
	echo "# no KUnit suite $glob"
	exit 77
fi
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ "$fail" = 0 ]
