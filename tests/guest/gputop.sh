#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# IGT's gputop, a reader of the drm-engine-* keys of fdinfo, shows a
# tempo client's engine busyness as it is (normally run inside the test
# VM, as root, with tempo.ko loaded).
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
# Prints TAP lines and a kselftest "# Totals:" line.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: tests/guest/gputop.sh IGT_DIR}
hold=$repo/build/cmake/tests/tempo-hold/tempo-hold
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 n=0

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
		pass=$((pass + 1))
	else
		echo "not ok $n $2"
		fail=$((fail + 1))
	fi
}

"$hold" --gate 0 --spin 400 --spins 30 --state "$tmp/state" --then release \
	--timeout 120 &
pid=$!
for _ in $(seq 200); do
	grep -q submitted "$tmp/state" 2>/dev/null && break
	sleep 0.1
done
# gputop draws only on a terminal (it sizes its screen from standard
# input): give it one, of a known size.
script -q -e -c "stty cols 160 rows 40; '$dir/build/tools/gputop' -n 2 -d 3" \
	/dev/null >"$tmp/gputop" 2>&1
check $? "gputop ran"
class=compute
capacity=$(sed -n 's/^drm-engine-capacity-compute:[[:space:]]*\([0-9]*\)$/\1/p' \
	/proc/"$pid"/fdinfo/* 2>/dev/null | head -n 1)
kill -USR1 "$pid"
wait "$pid"
check $? "tempo-hold ran its jobs (capacity of compute: ${capacity:-none})"

# The last screen gputop drew, without its escape sequences: a header
# naming the engine classes, then one line per client with a percentage
# per class in the same order.
awk 'BEGIN { RS = "\033\\[H\033\\[J" } { last = $0 } END { print last }' "$tmp/gputop" |
	sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//' >"$tmp/screen"
sed "s/^/# /" "$tmp/screen"
read -r -a names < <(grep -m1 ' NAME' "$tmp/screen" | sed 's/MEM\|RSS\|PID\|NAME//g')
mapfile -t pcts < <(awk -v pid="$pid" '$1 == pid' "$tmp/screen" |
	grep -o '[0-9.]*%' | tr -d %)
check "$([ ${#pcts[@]} -gt 0 ] && [ ${#pcts[@]} = ${#names[@]} ]; echo $?)" \
	"gputop shows tempo-hold ($pid) with one figure per class (${names[*]}: ${pcts[*]})"
for i in "${!names[@]}"; do
	pct=${pcts[$i]:-none}
	if [ "${names[$i]}" = "$class" ]; then
		want=$(awk -v c="${capacity:-1}" 'BEGIN { printf "%.1f", 100 / c }')
		ok=$(awk -v p="$pct" -v w="$want" 'BEGIN { print (p != "none" && p >= 0.8 * w && p <= 1.6 * w) ? 0 : 1 }')
		check "$ok" "gputop: $class busy $pct %, one engine of $capacity is $want %"
	else
		ok=$(awk -v p="$pct" 'BEGIN { print (p != "none" && p < 5) ? 0 : 1 }')
		check "$ok" "gputop: ${names[$i]} idle ($pct %)"
	fi
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ "$fail" = 0 ]
