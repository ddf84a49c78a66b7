#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn igt_runner's results.json into TAP lines and a kselftest total.

    tools/igt/summarise.py [--skips FILE] [--have FEATURE]... [--not-run]
                           RESULTS_JSON
    tools/igt/summarise.py --skips FILE [--have FEATURE]... --not-run-regex

A subtest passes when IGT says "pass".  A skip (or "notrun") passes only
when a line of the skip file explains it: "PATTERN [unless FEATURE] --
REASON", PATTERN a shell glob on "igt@test@subtest" names; with "unless
FEATURE" the skip is explained only when --have FEATURE was not given
(the kernel lacks it).  Every other result (fail, crash, timeout,
incomplete, dmesg-warn, ...) fails, and so does an unexplained skip.
Exit status 1 when anything failed.

--not-run-regex prints a regular expression for igt_runner's -x: the
subtests that an "unless FEATURE" rule says skip on this kernel (FEATURE
not given), which need not be started only to skip; empty when there
are none. --not-run then says that they were left out: each such rule
counts as one skip, with its reason.
"""

import argparse
import fnmatch
import json
import re
import sys


def read_skips(path):
    """The skip file's rules: (pattern, feature or None, reason)."""
    rules = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            head, sep, reason = line.partition(" -- ")
            words = head.split()
            if not sep or len(words) not in (1, 3) or (
                len(words) == 3 and words[1] != "unless"
            ):
                sys.exit(f"{path}:{lineno}: expected 'PATTERN [unless FEATURE] -- REASON'")
            rules.append((words[0], words[2] if len(words) == 3 else None, reason.strip()))
    return rules


def skip_reason(name, rules, have):
    """Why NAME may skip, or None."""
    for pattern, feature, reason in rules:
        if fnmatch.fnmatchcase(name, pattern) and (feature is None or feature not in have):
            return reason
    return None


def feature_rules(rules, have):
    """The "unless FEATURE" rules whose feature the kernel lacks."""
    return [r for r in rules if r[1] is not None and r[1] not in have]


def glob_regex(pattern):
    """A shell glob as an anchored regular expression (GLib's, igt_runner's)."""
    out = []
    for c in pattern:
        out.append(".*" if c == "*" else "." if c == "?" else re.escape(c))
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skips", help="the file explaining expected skips")
    parser.add_argument("--have", action="append", default=[], help="a feature the kernel has")
    parser.add_argument("--not-run-regex", action="store_true",
                        help="print igt_runner's -x regex of the subtests skipped for a missing feature")
    parser.add_argument("--not-run", action="store_true",
                        help="those subtests were left out of the run (-x): report one skip per rule")
    parser.add_argument("results", nargs="?", help="igt_runner's results.json")
    args = parser.parse_args()

    rules = read_skips(args.skips) if args.skips else []
    left_out = feature_rules(rules, set(args.have))
    if args.not_run_regex:
        if left_out:
            print("^(" + "|".join(glob_regex(r[0]) for r in left_out) + ")$")
        return 0
    if not args.results:
        parser.error("RESULTS_JSON is required")
    # Test output in results.json is whatever the tests printed.
    with open(args.results, encoding="utf-8", errors="replace") as f:
        tests = json.load(f)["tests"]

    counts = {"pass": 0, "fail": 0, "skip": 0}
    for n, name in enumerate(sorted(tests), 1):
        result = tests[name].get("result", "missing")
        if result == "pass":
            print(f"ok {n} {name}")
            counts["pass"] += 1
        elif result in ("skip", "notrun"):
            reason = skip_reason(name, rules, set(args.have))
            if reason:
                print(f"ok {n} {name} # SKIP {reason}")
                counts["skip"] += 1
            else:
                print(f"not ok {n} {name} # skipped, and tools/igt/skips does not say why")
                counts["fail"] += 1
        else:
            print(f"not ok {n} {name} # {result}")
            for line in tests[name].get("out", "").splitlines()[-10:]:
                print(f"#   {line}")
            counts["fail"] += 1
    n = len(tests)
    for pattern, _, reason in left_out if args.not_run else []:
        n += 1
        print(f"ok {n} {pattern} # SKIP not run: {reason}")
        counts["skip"] += 1
    print(f"1..{n}")
    print(f"# Totals: pass:{counts['pass']} fail:{counts['fail']} xfail:0 xpass:0 "
          f"skip:{counts['skip']} error:0")
    return 1 if counts["fail"] or not tests else 0


if __name__ == "__main__":
    sys.exit(main())
