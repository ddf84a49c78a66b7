#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Report the tempo KUnit suites that ran when the module loaded (kernels
# with KUnit only, e.g. the debug kernel), in KTAP with a kselftest
# "# Totals" line for tests/guest/run-all.sh. Exit 77 when there are none.
dir=/sys/kernel/debug/kunit
pass=0 fail=0 n=0
for s in "$dir"/tempo_*; do
	[ -f "$s/results" ] || continue
	sed "s/^# Totals/# suite totals/" "$s/results"
	# The suite's own summary line is the last top-level (ok|not ok).
	p=$(grep -cE '^    ok [0-9]+ ' "$s/results")
	f=$(grep -cE '^    not ok [0-9]+ ' "$s/results")
	pass=$((pass + p))
	fail=$((fail + f))
	n=$((n + 1))
done
if [ "$n" = 0 ]; then
	echo "# no tempo KUnit suite (kernel without KUnit)"
	exit 77
fi
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ "$fail" = 0 ]
