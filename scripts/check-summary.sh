#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print make check's machine-readable summary, JSON, from the sections
# that scripts/check.sh counted (it writes build/check/summary.json so).
#
#   scripts/check-summary.sh [--seconds S] SECTIONS [FAILURES]
#
# SECTIONS: one line per section, tab-separated: its name, then its
# passed, failed and skipped tests and the seconds it took. FAILURES: one
# line per failed step (what the summary's FAILED lines say). S: how long
# make check took, from start to end; sections that ran beside others
# (the install test and the gates run in the background) make their sum
# larger. Output:
#
#   {"passed": N, "failed": M, "skipped": K, "seconds": S,
#    "sections": [{"name": "...", "passed": N, "failed": M,
#                  "skipped": K, "seconds": S}, ...],
#    "failures": ["...", ...]}
#
# The totals are the sums of the sections', and the seconds S, or without
# --seconds the sum of the sections'. Exit status 1 when a line of
# SECTIONS is malformed, 2 for usage errors.
set -eu

usage() { awk 'NR > 3 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit "${1:-2}"; }

wall=
case ${1:-} in
-h|--help) usage 0 ;;
--seconds)
	case ${2:-} in '' | *[!0-9]*) usage ;; esac
	wall=$2
	shift 2
	;;
esac
case ${1:-} in
''|-*) usage ;;
esac
[ $# -le 2 ] || usage
sections=$1
failures=${2:-/dev/null}
if [ ! -r "$sections" ] || [ ! -r "$failures" ]; then
	echo "check-summary.sh: cannot read $sections or $failures" >&2
	exit 2
fi

awk -F '\t' -v failures="$failures" -v wall="$wall" '
function str(s) {
	gsub(/\\/, "&&", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	gsub(/\r/, "\\r", s)
	gsub(/[\001-\037]/, " ", s)
	return "\"" s "\""
}
function count(v) {
	if (v !~ /^[0-9]+$/) {
		printf "check-summary.sh: %s:%d: not a count: \"%s\"\n", FILENAME, FNR, v > "/dev/stderr"
		bad = 1
	}
	return v + 0
}
NF != 5 {
	printf "check-summary.sh: %s:%d: %d fields, not 5\n", FILENAME, FNR, NF > "/dev/stderr"
	bad = 1
	next
}
{
	p = count($2); f = count($3); s = count($4); t = count($5)
	tp += p; tf += f; ts += s; tt += t
	sec[n++] = sprintf("{\"name\": %s, \"passed\": %d, \"failed\": %d, \"skipped\": %d, \"seconds\": %d}", str($1), p, f, s, t)
}
END {
	if (bad) exit 1
	if (wall != "")
		tt = wall
	printf "{\"passed\": %d, \"failed\": %d, \"skipped\": %d, \"seconds\": %d,\n \"sections\": [", tp, tf, ts, tt
	for (i = 0; i < n; i++)
		printf "%s\n  %s", (i ? "," : ""), sec[i]
	printf "],\n \"failures\": ["
	m = 0
	while ((getline line < failures) > 0)
		printf "%s\n  %s", (m++ ? "," : ""), str(line)
	printf "]}\n"
}' "$sections"
