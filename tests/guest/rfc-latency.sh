#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The high-priority scheduling RFC's test as a check (normally run inside
# the test VM, as root, with tempo.ko loaded): tempo-bench latency
# measures NOP and one-group DISPATCH round trips on idle and on loaded
# hardware, at NORMAL and HIGH priority, and this script asserts the
# separation with margins wide enough for a noisy two-core host:
#
# - under load, NORMAL's median is at least 5 times HIGH's, both in wall
#   time and on the GPU (submit to first packet), for both probes (they
#   measured 16-140x and 22-25x: NORMAL's wait is bounded by the 10 ms
#   quantum of the load's NORMAL contexts, HIGH's grows with the host's
#   load);
# - HIGH's NOP median under load is at most 3 times its median on idle
#   hardware (the RFC's goal is 1; the figure is printed either way);
# - the driver's part of that rise is at most 2: HIGH's NOP busy/idle
#   over the floor's busy/idle, the floor being the same path without a
#   job (a null ioctl and two thread wake-ups), measured in the same run
#   (measured 1.04-1.18 on a quiet host: the machine makes most of the
#   rise, the floor rising 1.6-2.0x under the same load);
# - under load, HIGH's NOP never waited behind another job by right of its
#   priority (the hardware's WRITE_JOB_TIMES: HIGH outranks the load, so
#   what it waits for is the preemption, which is not counted), while
#   NORMAL's NOP waited behind the load's NORMAL jobs at the median.
# It prints where HIGH's NOP rise goes: the CPU path to its HQD's ring,
# and the time in the ring until its first packet.
#
#   tests/guest/rfc-latency.sh [tempo-bench latency options]
#
# Prints the figures, TAP lines and a kselftest "# Totals:" line.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
bench=$repo/build/cmake/tools/tempo-bench/tempo-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bench" latency --json --samples 150 --warmup 30 --load-ms 40 "$@" \
	>"$tmp/latency.json"
status=$?
python3 - "$tmp/latency.json" "$status" <<'PY'
import json
import sys

checks = []


def check(ok, what):
    checks.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(checks)} {what}")


check(sys.argv[2] == "0", f"tempo-bench latency ran (exit {sys.argv[2]})")
try:
    with open(sys.argv[1]) as f:
        rows = json.load(f)["results"]
except (OSError, ValueError, KeyError) as e:
    check(False, f"its JSON output is readable ({e})")
    rows = None

if rows is not None:
    check(all(r["failed"] == 0 for r in rows.values()),
          "every probe succeeded")
    for probe in ("nop", "dispatch"):
        normal, high = rows[f"load_{probe}_normal"], rows[f"load_{probe}_high"]
        wall = normal["p50_us"] / high["p50_us"]
        gpu = (normal["to_first_packet"]["p50_us"] /
               high["to_first_packet"]["p50_us"])
        print(f"# loaded {probe}: NORMAL p50 {normal['p50_us']:.0f} us, "
              f"HIGH p50 {high['p50_us']:.0f} us ({wall:.1f}x); to first "
              f"packet {normal['to_first_packet']['p50_us']:.0f} us against "
              f"{high['to_first_packet']['p50_us']:.0f} us ({gpu:.1f}x)")
        check(wall >= 5, f"loaded {probe}: NORMAL's median is at least 5x HIGH's")
        check(gpu >= 5, f"loaded {probe}: NORMAL waits at least 5x HIGH's wait for its first packet")
    idle, busy = rows["idle_nop_high"], rows["load_nop_high"]
    p50 = busy["p50_us"] / idle["p50_us"]
    p99 = busy["p99_us"] / idle["p99_us"]
    print(f"# HIGH NOP loaded/idle: p50 {busy['p50_us']:.0f}/{idle['p50_us']:.0f} us "
          f"= {p50:.2f}x, p99 {busy['p99_us']:.0f}/{idle['p99_us']:.0f} us = {p99:.2f}x "
          f"(the RFC's target: 1.25x at p50, 1.5x at p99)")
    check(p50 <= 3, "HIGH's NOP median under load is at most 3x its idle median")
    floor = rows["load_floor_normal"]["p50_over_idle"]
    print(f"# the floor (no job) loaded/idle: p50 {floor:.2f}x; HIGH NOP's rise "
          f"beyond it: {p50 / floor:.2f}x")
    check(p50 / floor <= 2,
          "HIGH's NOP rises under load at most 2x more than the floor does")
    parts = " ".join(
        f"{part} {idle[part]['p50_us']:.0f}->{busy[part]['p50_us']:.0f} us;"
        for part in ("submit_ioctl", "to_hw_queue", "in_hw_queue", "batch_run",
                     "to_wake_up"))
    print(f"# HIGH NOP idle->loaded p50: {parts}")
    normal = rows["load_nop_normal"]
    print(f"# loaded NOP waits behind other jobs: HIGH max "
          f"{busy['waits_behind_jobs']['max_us']:.0f} us, NORMAL p50 "
          f"{normal['waits_behind_jobs']['p50_us']:.0f} us")
    check(busy["waits_behind_jobs"]["max_us"] == 0,
          "loaded nop: HIGH never waited behind another job by right")
    check(normal["waits_behind_jobs"]["p50_us"] > 0,
          "loaded nop: NORMAL waited behind the load's NORMAL jobs at the median")

failed = checks.count(False)
print(f"# Totals: pass:{len(checks) - failed} fail:{failed} xfail:0 xpass:0 skip:0 error:0")
sys.exit(1 if failed else 0)
PY
