#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# IGT's gputop, a reader of the drm-engine-* and drm-total/resident-*
# keys of fdinfo, shows a tempo client's engine busyness and memory as
# they are (normally run inside the test VM, as root, with tempo.ko
# loaded).
#
#   tests/guest/gputop.sh IGT_DIR
#
# IGT_DIR is a build of tools/igt/build.  tempo-hold keeps one compute
# engine busy with SPIN jobs of 400 ms (under the job timeout), one after
# the other, for 12 s: gputop must show the compute class busy for about
# 1 / capacity of its time (one engine of the class) and every other
# class idle (under 5 %).  gputop divides by the delay it was given, not
# by the time that passed, and its scans take time under TCG: the busy
# share is accepted from 0.8 to 1.6 times what it is (it read 1.02).
# Memory: tempo-hold's file holds its jobs' buffer (64 KiB, mapped, so
# resident) and an idle one of 4 MiB that nothing maps: fdinfo's
# drm-total-* and drm-resident-* keys must say 4160 KiB and 64 KiB, and
# gputop's MEM and RSS columns the same, as it prints sizes (whole K, M or
# G, rounded down: 4M and 64K).
# Prints TAP lines and a kselftest "# Totals:" line.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: tests/guest/gputop.sh IGT_DIR}
hold=$repo/build/cmake/tests/tempo-hold/tempo-hold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# result NAME STATUS, counting in n and failed.
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$repo/tests/lib/tap.sh"

"$hold" --gate 0 --spin 400 --spins 30 --state "$tmp/state" --then release \
	--idle-kib 4096 --timeout 120 &
pid=$!
for _ in $(seq 200); do
	grep -q submitted "$tmp/state" 2>/dev/null && break
	sleep 0.1
done
# gputop draws only on a terminal (it sizes its screen from standard
# input): give it one, of a known size.
script -q -e -c "stty cols 160 rows 40; '$dir/build/tools/gputop' -n 2 -d 3" \
	/dev/null >"$tmp/gputop" 2>&1
result "gputop ran" $?
class=compute
capacity=$(sed -n 's/^drm-engine-capacity-compute:[[:space:]]*\([0-9]*\)$/\1/p' \
	/proc/"$pid"/fdinfo/* 2>/dev/null | head -n 1)
fdinfo=$(grep -l '^drm-driver:[[:space:]]*tempo$' /proc/"$pid"/fdinfo/* 2>/dev/null | head -n 1)
cat "${fdinfo:-/dev/null}" >"$tmp/fdinfo"
kill -USR1 "$pid"
wait "$pid"
result "tempo-hold ran its jobs (capacity of compute: ${capacity:-none})" $?

# The last screen gputop drew, without its escape sequences: a header
# naming the engine classes, then one line per client with a percentage
# per class in the same order.
awk 'BEGIN { RS = "\033\\[H\033\\[J" } { last = $0 } END { print last }' "$tmp/gputop" |
	sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//' >"$tmp/screen"
sed "s/^/# /" "$tmp/screen"
read -r -a names < <(grep -m1 ' NAME' "$tmp/screen" | sed 's/MEM\|RSS\|PID\|NAME//g')
mapfile -t pcts < <(awk -v pid="$pid" '$1 == pid' "$tmp/screen" |
	grep -o '[0-9.]*%' | tr -d %)
result "gputop shows tempo-hold ($pid) with one figure per class (${names[*]}: ${pcts[*]})" \
	"$([ ${#pcts[@]} -gt 0 ] && [ ${#pcts[@]} = ${#names[@]} ]; echo $?)"
for i in "${!names[@]}"; do
	pct=${pcts[$i]:-none}
	if [ "${names[$i]}" = "$class" ]; then
		want=$(awk -v c="${capacity:-1}" 'BEGIN { printf "%.1f", 100 / c }')
		ok=$(awk -v p="$pct" -v w="$want" 'BEGIN { print (p != "none" && p >= 0.8 * w && p <= 1.6 * w) ? 0 : 1 }')
		result "gputop: $class busy $pct %, one engine of $capacity is $want %" "$ok"
	else
		ok=$(awk -v p="$pct" 'BEGIN { print (p != "none" && p < 5) ? 0 : 1 }')
		result "gputop: ${names[$i]} idle ($pct %)" "$ok"
	fi
done
# memory_kib KEY: the sum of fdinfo's drm-KEY-<region> keys, in KiB.
memory_kib() {
	awk -v key="drm-$1-" 'index($1, key) == 1 {
		m = $3 == "GiB" ? 1048576 : $3 == "MiB" ? 1024 : $3 == "KiB" ? 1 : 1 / 1024
		kib += $2 * m
	} END { printf "%d", kib }' "$tmp/fdinfo"
}
# as_gputop KIB: the size as gputop prints it.
as_gputop() {
	awk -v b="$(($1 * 1024))" 'BEGIN {
		split("B K M G", u, " ")
		for (i = 1; i < 4 && b >= 1024; i++)
			b = int(b / 1024)
		printf "%d%s", b, u[i]
	}'
}
total=$(memory_kib total) resident=$(memory_kib resident)
result "fdinfo: drm-total-* of tempo-hold is $total KiB, 4160 KiB" \
	"$([ "$total" = 4160 ]; echo $?)"
result "fdinfo: drm-resident-* of tempo-hold is $resident KiB, 64 KiB" \
	"$([ "$resident" = 64 ]; echo $?)"
read -r mem rss < <(awk -v pid="$pid" '$1 == pid { print $2, $3 }' "$tmp/screen")
result "gputop: MEM of tempo-hold is ${mem:-none}, $(as_gputop 4160)" \
	"$([ "${mem:-}" = "$(as_gputop 4160)" ]; echo $?)"
result "gputop: RSS of tempo-hold is ${rss:-none}, $(as_gputop 64)" \
	"$([ "${rss:-}" = "$(as_gputop 64)" ]; echo $?)"
echo "# Totals: pass:$((n - failed)) fail:$failed xfail:0 xpass:0 skip:0 error:0"
[ "$failed" = 0 ]
