#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Device-free tests of how make check counts and records results: the
# summary writer (scripts/check-summary.sh) and tests/guest/run-all.sh's
# kselftest runner and KTAP file, over fake programs in a copy of an
# installed kselftest tree's runner. Prints TAP; scripts/check.sh runs it
# on the host.
#
#   tests/check/results.sh [KSELFTEST_DIR]
#
# KSELFTEST_DIR: an installed kselftest tree (default
# build/kselftest/install, make -C tests/uapi kselftest-install) whose
# run_kselftest.sh and kselftest/ the runner's tests take; without one
# they skip.
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
ksft=${1:-build/kselftest/install}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# result NAME STATUS [SKIP-REASON], counting in n and failed.
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$repo/tests/lib/tap.sh"

# expect NAME WANT GOT: a test that GOT is WANT.
expect() {
	if [ "$2" = "$3" ]; then
		result "$1" 0
	else
		printf "# want: %s\n# got:  %s\n" "$2" "$3"
		result "$1" 1
	fi
}

summary_sums_sections_and_keeps_names() {
	printf 'setup\t0\t1\t0\t2\n' >"$tmp/s.tsv"
	printf 'tests in the VM: "a\\b"\t100\t2\t5\t400\n' >>"$tmp/s.tsv"
	printf 'gates\t9\t0\t1\t30\n' >>"$tmp/s.tsv"
	printf 'make modules\nx\t"y"\n' >"$tmp/f.txt"
	scripts/check-summary.sh "$tmp/s.tsv" "$tmp/f.txt" >"$tmp/s.json" || return 1
	python3 - "$tmp/s.json" <<'EOF'
import json
import sys

s = json.load(open(sys.argv[1]))
assert [s[k] for k in ("passed", "failed", "skipped", "seconds")] == [109, 3, 6, 432], s
assert [x["name"] for x in s["sections"]] == ["setup", 'tests in the VM: "a\\b"', "gates"], s
assert s["sections"][1] == {"name": 'tests in the VM: "a\\b"', "passed": 100,
                            "failed": 2, "skipped": 5, "seconds": 400}, s
assert s["failures"] == ["make modules", 'x\t"y"'], s
EOF
}

# --seconds is make check's whole time, which sections run in the
# background make shorter than their sum.
summary_takes_the_whole_time_apart() {
	printf 'setup\t1\t0\t0\t2\n' >"$tmp/s.tsv"
	printf 'install test\t3\t0\t0\t400\n' >>"$tmp/s.tsv"
	scripts/check-summary.sh --seconds 300 "$tmp/s.tsv" >"$tmp/s.json" || return 1
	python3 - "$tmp/s.json" <<'EOF' || return 1
import json
import sys

s = json.load(open(sys.argv[1]))
assert (s["passed"], s["seconds"]) == (4, 300), s
assert [x["seconds"] for x in s["sections"]] == [2, 400], s
EOF
	! scripts/check-summary.sh --seconds x "$tmp/s.tsv" >/dev/null 2>&1
}

summary_without_failures_lists_none() {
	printf 'setup\t1\t0\t0\t0\n' >"$tmp/s.tsv"
	scripts/check-summary.sh "$tmp/s.tsv" >"$tmp/s.json" &&
		python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["failures"] == []' "$tmp/s.json"
}

summary_rejects_a_malformed_section() {
	printf 'setup\t1\t0\n' >"$tmp/s.tsv"
	! scripts/check-summary.sh "$tmp/s.tsv" >/dev/null 2>&1 || return 1
	printf 'setup\t1\tx\t0\t0\n' >"$tmp/s.tsv"
	! scripts/check-summary.sh "$tmp/s.tsv" >/dev/null 2>&1
}

# fake_tree: a kselftest tree with the installed runner and programs
# that pass, fail, crash, exit 1 after passing, overrun their time, skip
# everything and count their arguments.
fake_tree() {
	local t=$tmp/ksft
	mkdir -p "$t/c"
	cp -r "$ksft/run_kselftest.sh" "$ksft/kselftest" "$t/"
	prog() {
		printf '#!/bin/sh\n%s\n' "$2" >"$t/c/$1"
		chmod +x "$t/c/$1"
		echo "c:$1" >>"$t/kselftest-list.txt"
	}
	totals() { echo "echo '# Totals: pass:$1 fail:$2 xfail:0 xpass:0 skip:$3 error:0'"; }
	prog good "$(totals 3 0 1)"
	prog fails "echo 'not ok 2 b'; $(totals 1 2 0); exit 1"
	prog crash "echo 'ok 1 a'; kill -SEGV \$\$"
	prog exits1 "$(totals 3 0 0); exit 1"
	prog slow "$(totals 3 0 0); sleep 20"
	prog skips "$(totals 0 0 4); exit 4"
	prog args "echo \"# Totals: pass:\$# fail:0 xfail:0 xpass:0 skip:0 error:0\""
}

runner_counts_every_outcome() {
	local u=build/cmake/tests/uapi out
	out=$(tests/guest/run-all.sh --timeout 2 --kselftest "$tmp/ksft" \
		--ktap "$tmp/run.ktap" --results "$tmp/run.tsv" -- \
		$u/good $u/fails $u/crash $u/exits1 $u/slow $u/skips \
		"$u/args -r a -r b" 2>&1)
	expect "run-all.sh through the runner: the totals" \
		"14 passed, 5 failed, 5 skipped" "$(tail -n 1 <<<"$out")"
	expect "run-all.sh through the runner: each program's counts" \
		"3 0 1|1 2 0|0 1 0|3 1 0|3 1 0|0 0 4|4 0 0" \
		"$(cut -f3-5 "$tmp/run.tsv" | tr '\t\n' ' |' | sed 's/|$//')"
	expect "run-all.sh: the runner's command with the arguments" \
		"KSELFTEST_ARGS_ARGS=-r\\ a\\ -r\\ b $tmp/ksft/run_kselftest.sh -o 2 -t c:args" \
		"$(cut -f1 "$tmp/run.tsv" | tail -n 1)"
	expect "run-all.sh --ktap: the plan and one result per program" \
		"TAP version 13|1..7|ok 1|not ok 2|not ok 3|not ok 4|not ok 5 (TIMEOUT after 2s)|ok 6 # SKIP|ok 7" \
		"$(grep -v '^# ' "$tmp/run.ktap" | sed 's| [^ ]*/run_kselftest.sh -o 2 -t c:[a-z0-9]*||; s|^KSELFTEST.*||' |
			sed -E 's/^((not )?ok [0-9]+) [^(#]*/\1 /; s/ $//; s/  / /' | tr '\n' '|' | sed 's/|$//')"
	expect "run-all.sh --ktap: each program's output as diagnostic lines" \
		"3" "$(grep -c '^# # # Totals: pass:3 fail:0' "$tmp/run.ktap")"
}

runner_only_for_the_programs_named() {
	local out
	out=$(tests/guest/run-all.sh --kselftest "$tmp/ksft" --kselftest-only good -- \
		build/cmake/tests/uapi/good "echo '# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0'" 2>&1)
	expect "run-all.sh --kselftest-only: only the named program through the runner" \
		"$tmp/ksft/run_kselftest.sh -o 900 -t c:good|echo '# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0'|5 passed, 0 failed, 1 skipped" \
		"$(sed -n 's/^==== \[[0-9]*\/2\] //p; $p' <<<"$out" | tr '\n' '|' | sed 's/|$//')"
}

echo "TAP version 13"
summary_sums_sections_and_keeps_names
result "check-summary.sh: totals are the sections' sums, names and failures kept" $?
summary_without_failures_lists_none
result "check-summary.sh: no failures, an empty list" $?
summary_takes_the_whole_time_apart
result "check-summary.sh: --seconds is the whole time, not the sections' sum" $?
summary_rejects_a_malformed_section
result "check-summary.sh: a malformed section fails" $?
if [ -x "$ksft/run_kselftest.sh" ] && [ -d "$ksft/kselftest" ]; then
	fake_tree
	runner_counts_every_outcome
	runner_only_for_the_programs_named
else
	for t in 1 2 3 4 5 6; do
		result "run-all.sh through the kselftest runner ($t)" 0 "no kselftest tree in $ksft"
	done
fi
echo "1..$n"
[ "$failed" = 0 ]
