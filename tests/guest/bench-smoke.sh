#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tempo-bench nop as a smoke test (normally run inside the test VM, as
# root, with tempo.ko loaded): a short run must succeed and print
# well-formed JSON with every measurement and ratio, the scheduler's floor
# (module parameter floor) among them, and leave the floor switch off.
# Its times are printed, never checked: the host is shared and noisy.
#
#   tests/guest/bench-smoke.sh [tempo-bench nop options]
#
# Prints the figures, TAP lines and a kselftest "# Totals:" line.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bench=$repo/build/cmake/tools/tempo-bench/tempo-bench
floor=/sys/module/tempo/parameters/floor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=2000
"$bench" nop --json --iterations "$iterations" --warmup 200 "$@" >"$tmp/nop.json"
status=$?
python3 - "$tmp/nop.json" "$status" "$iterations" "$floor" <<'PY'
import json
import sys

checks = []


def check(ok, what):
    checks.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(checks)} {what}")


path, status, iterations, floor = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
check(status == "0", f"tempo-bench nop ran (exit {status})")
try:
    with open(path) as f:
        report = json.load(f)
    rows, ratios = report["results"], report["ratios"]
except (OSError, ValueError, KeyError) as e:
    check(False, f"its JSON output is readable ({e})")
    rows = None

if rows is not None:
    want = ("null_ioctl", "syncobj_signal_wait_reset", "submit_only", "round_trip",
            "round_trip_sync_file", "floor_round_trip")
    for key in want:
        row = rows.get(key)
        check(row is not None and row["count"] == iterations and
              0 < row["min_us"] <= row["p50_us"] <= row["p99_us"] <= row["max_us"],
              f"{key}: {iterations} samples in order (min <= p50 <= p99 <= max)")
    for key in ("round_trip_over_null_ioctl", "submit_only_over_null_ioctl",
                "syncobj_over_null_ioctl", "round_trip_over_floor"):
        r = ratios.get(key)
        check(r is not None and r["p50"] > 0, f"ratio {key} is there")
        if r is not None:
            print(f"# {r['label']}: p50 {r['p50']:.2f}x, mean {r['mean']:.2f}x")
try:
    with open(floor) as f:
        value = f.read().strip()
except OSError as e:
    value = str(e)
check(value == "N", f"the floor switch is off afterwards ({value})")

failed = checks.count(False)
print(f"# Totals: pass:{len(checks) - failed} fail:{failed} xfail:0 xpass:0 skip:0 error:0")
sys.exit(1 if failed else 0)
PY
