#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tempo-bench nop and scale, and tempo-command-list-bench's SubmitKernel,
# as smoke tests (normally run inside the test VM, as root, with tempo.ko
# loaded): short runs must succeed and print well-formed JSON with every
# measurement and ratio, the scheduler's floor (module parameter floor)
# and running in place (run_in_place) among nop's, SubmitKernel's summary
# with its floor rows, and leave both switches as they were.
# Their times are printed, never checked: the host is shared and noisy.
#
#   tests/guest/bench-smoke.sh
#
# Prints the figures, TAP lines and a kselftest "# Totals:" line.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bench=$repo/build/cmake/tools/tempo-bench/tempo-bench
params=/sys/module/tempo/parameters
before=$(cat "$params/floor" "$params/run_in_place" 2>&1 | tr '\n' ' ')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=2000
"$bench" nop --json --iterations "$iterations" --warmup 200 >"$tmp/nop.json"
status=$?
"$bench" scale --json --files 2 --contexts 64 --rounds 2 --samples 50 --warmup 10 \
	>"$tmp/scale.json"
scale_status=$?
list_bench=$repo/build/cmake/tools/tempo-bench/tempo-command-list-bench
list_status=skip
if [ -x "$list_bench" ]; then
	"$list_bench" --benchmark_filter=SubmitKernel --benchmark_min_time=0.01 \
		>"$tmp/list.txt" 2>&1
	list_status=$?
fi
after=$(cat "$params/floor" "$params/run_in_place" 2>&1 | tr '\n' ' ')
python3 - "$tmp/nop.json" "$status" "$iterations" "$before" "$tmp/scale.json" "$scale_status" \
	"$after" "$tmp/list.txt" "$list_status" <<'PY'
import json
import sys

checks = []


def check(ok, what):
    checks.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(checks)} {what}")


path, status, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
before, after = sys.argv[4], sys.argv[7]


def load(command, path, status):
    check(status == "0", f"tempo-bench {command} ran (exit {status})")
    try:
        with open(path) as f:
            report = json.load(f)
        return report["results"], report["ratios"]
    except (OSError, ValueError, KeyError) as e:
        check(False, f"its JSON output is readable ({e})")
        return None, None


def in_order(row, count):
    return (row is not None and row["count"] == count and
            0 < row["min_us"] <= row["p50_us"] <= row["p99_us"] <= row["max_us"])


def ratios_there(command, ratios, keys):
    for key in keys:
        r = ratios.get(key)
        check(r is not None and r["p50"] > 0, f"{command}: ratio {key} is there")
        if r is not None:
            print(f"# {r['label']}: p50 {r['p50']:.2f}x, mean {r['mean']:.2f}x")


rows, ratios = load("nop", path, status)

if rows is not None:
    want = ("null_ioctl", "syncobj_signal_wait_reset", "submit_only", "submit_only_private",
            "submit_only_bare", "submit_wait_shallow", "submit_wait_deep",
            "round_trip", "round_trip_sync_file", "floor_round_trip", "in_place_round_trip")
    for key in want:
        check(in_order(rows.get(key), iterations),
              f"{key}: {iterations} samples in order (min <= p50 <= p99 <= max)")
    ratios_there("nop", ratios, ("round_trip_over_null_ioctl", "submit_only_over_null_ioctl",
                                 "submit_only_bare_over_null_ioctl",
                                 "submit_only_private_over_submit_only",
                                 "submit_wait_deep_over_shallow",
                                 "syncobj_over_null_ioctl", "round_trip_over_floor",
                                 "in_place_round_trip_over_floor", "in_place_over_round_trip"))
rows, ratios = load("scale", sys.argv[5], sys.argv[6])
if rows is not None:
    for name in ("1x1", "1x64", "2x64"):
        for depth in (1, 8, 64):
            check(in_order(rows.get(f"burst_{name}_d{depth}"), 2),
                  f"scale: burst_{name}_d{depth}: 2 rounds in order")
        check(in_order(rows.get(f"round_trip_{name}"), 50),
              f"scale: round_trip_{name}: 50 samples in order")
    ratios_there("scale", ratios, ("burst_2x64_d1_over_burst_1x1_d1",
                                   "burst_2x64_d8_over_burst_1x1_d8",
                                   "burst_2x64_d64_over_burst_1x1_d64",
                                   "round_trip_2x64_over_round_trip_1x1"))
list_path, list_status = sys.argv[8], sys.argv[9]
if list_status == "skip":
    print("# tempo-command-list-bench is not built (no Google Benchmark): not run")
else:
    check(list_status == "0", f"tempo-command-list-bench ran (exit {list_status})")
    try:
        with open(list_path) as f:
            summary = f.read().split("\nSummary", 1)[-1]
    except OSError:
        summary = ""
    blocks = ("wall time\n", "CPU time of the submitting thread\n",
              "wall time, floor", "CPU time of the submitting thread, floor")
    check("compares medians of iterations" in summary,
          "command-list bench: SubmitKernel's summary compares medians")
    for block in blocks:
        check(block in summary, f"command-list bench: summary block {block.strip()!r}")
    for mode in ("submit", "submit-held", "wait"):
        rows = [line for line in summary.splitlines() if line.split()[:1] == [mode]]
        check(len(rows) == 4, f"command-list bench: {mode} in all four blocks")
        check(all(float(row.split()[1]) > 0 and float(row.split()[2]) > 0 for row in rows),
              f"command-list bench: {mode}: medians measured in every block")
    print("\n".join("# " + line for line in summary.splitlines() if line.strip()))
check(before == after, f"floor and run_in_place are as before ({before}-> {after})")

failed = checks.count(False)
print(f"# Totals: pass:{len(checks) - failed} fail:{failed} xfail:0 xpass:0 skip:0 error:0")
sys.exit(1 if failed else 0)
PY
