# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# TAP results for the shell tests, on the host (tests/check) and in the
# VM (tests/guest), which sees the tree at the same path. Source it by a
# path from the script's own directory:
#
#   repo=$(cd "$(dirname "$0")/../.." && pwd)
#   # shellcheck source=SCRIPTDIR/../lib/tap.sh
#   . "$repo/tests/lib/tap.sh"
#
# result NAME STATUS [SKIP-REASON] prints one numbered line: "ok N NAME"
# when STATUS is 0, "not ok N NAME" otherwise, and "ok N NAME # SKIP
# REASON" whatever STATUS is when a reason is given. n counts the results
# so far and failed the "not ok" ones; the caller prints its plan ("1..$n")
# or its kselftest totals from them.

n=0
failed=0

result() {
	n=$((n + 1))
	if [ -n "${3:-}" ]; then
		echo "ok $n $1 # SKIP $3"
	elif [ "$2" = 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		failed=$((failed + 1))
	fi
}
