#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run tempo's test programs (normally inside the test VM, as root) and add
# up their results.
#
#   tests/guest/run-all.sh [options] [--] [COMMAND...]
#
# Each COMMAND is a shell command line run with "bash -c" from the
# repository root.  A COMMAND starting with "user:" runs as the
# unprivileged test user instead of root.  Without COMMANDs (or with
# --discover) the test programs are found:
#
#   build/cmake/tests/uapi/*       kselftest-harness (TAP/KTAP) programs
#   build/cmake/tests/**/    GoogleTest programs named *_test or *tests
#   tests/guest/unprivileged.list
#                            commands also run as the unprivileged user,
#                            one per line ("#" comments, shell globs in
#                            the program name allowed)
#
# Options:
#   --discover        add the discovered programs even when COMMANDs are given
#   --no-user         leave out unprivileged.list (discovered programs run
#                     as root only)
#   --exclude GLOB    leave out discovered programs, and programs a glob of
#                     a --list file matches, whose file name matches GLOB
#                     (may be repeated)
#   --list FILE       read more COMMANDs from FILE (same syntax as above)
#   --user NAME       unprivileged user (default $TEMPO_VM_USER, else nobody)
#   --timeout SEC     limit for each program (default 900)
#   --results FILE    also write one tab-separated line per program to FILE
#   --ktap FILE       also write the run as one KTAP document to FILE: each
#                     program's output as diagnostic lines, then its result
#   --kselftest DIR   run the uAPI programs (build/cmake/tests/uapi/NAME,
#                     found or named) through DIR/run_kselftest.sh, an
#                     installed kselftest tree (make -C tests/uapi
#                     kselftest-install) that lists NAME; their arguments go
#                     to the runner's KSELFTEST_NAME_ARGS
#   --kselftest-only NAME
#                     only program NAME through the runner (may be repeated)
#   -h, --help        this text
#
# Results are read from the output: a kselftest "# Totals: pass:N fail:M
# ..." line (else the top-level "ok"/"not ok" lines; through the
# kselftest runner, its "# # Totals" line and its "not ok" line when the
# program exited with neither a pass nor a skip), GoogleTest's
# "[  PASSED  ] N tests" / "[  FAILED  ] M tests" / "[  SKIPPED ] K tests"
# lines, or else the exit status (0 passes, 77 skips, anything else
# fails).  A program that exits non-zero without reporting a failure, dies
# from a signal or times out counts as one more failure.  The last line
# printed is "N passed, M failed, K skipped"; the exit status is 1 when
# anything failed, 2 when there was nothing to run.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2

discover=0
unprivileged=1
excludes=()
lists=()
user=${TEMPO_VM_USER:-nobody}
per_timeout=900
results=
ktap=
ksft=
ksft_only=()
cmds=()

usage() { awk 'NR > 3 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit "${1:-2}"; }

while [ $# -gt 0 ]; do
	case $1 in
	--discover) discover=1; shift ;;
	--no-user) unprivileged=0; shift ;;
	--exclude) excludes+=("$2"); shift 2 ;;
	--list) lists+=("$2"); shift 2 ;;
	--user) user=$2; shift 2 ;;
	--timeout) per_timeout=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	--ktap) ktap=$2; shift 2 ;;
	--kselftest) ksft=$2; shift 2 ;;
	--kselftest-only) ksft_only+=("$2"); shift 2 ;;
	-h|--help) usage 0 ;;
	--) shift; cmds+=("$@"); break ;;
	-*) echo "run-all: unknown option $1" >&2; usage ;;
	*) cmds+=("$1"); shift ;;
	esac
done
[ ${#cmds[@]} -gt 0 ] || [ ${#lists[@]} -gt 0 ] || discover=1

# excluded FILE: whether --exclude leaves FILE out.
excluded() {
	local g
	for g in "${excludes[@]}"; do
		# shellcheck disable=SC2053 # GLOB is a pattern
		[[ ${1##*/} == $g ]] && return 0
	done
	return 1
}

# Read a command list: one command per line, globs in the first word
# (which match executable files only).
read_list() {
	local prefix=$1 file=$2 line first rest m
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		line=$(echo "$line" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		[ -n "$line" ] || continue
		first=${line%%[[:space:]]*}
		rest=${line#"$first"}
		if [[ $first == *[\*\?\[]* ]]; then
			while IFS= read -r m; do
				[ -f "$m" ] && [ -x "$m" ] && ! excluded "$m" &&
					cmds+=("$prefix$m$rest")
			done < <(compgen -G "$first" | LC_ALL=C sort)
		else
			cmds+=("$prefix$line")
		fi
	done <"$file"
}

for l in "${lists[@]}"; do
	[ -r "$l" ] || { echo "run-all: cannot read $l" >&2; exit 2; }
	read_list "" "$l"
done

if [ "$discover" = 1 ]; then
	if [ -d build/cmake/tests/uapi ]; then
		while IFS= read -r f; do
			excluded "$f" || cmds+=("$f")
		done < <(find build/cmake/tests/uapi -maxdepth 1 -type f -perm -u+x \
			! -name '*.o' ! -name '*.d' ! -name '*.so' ! -name '.*' | LC_ALL=C sort)
	fi
	if [ -d build/cmake/tests ]; then
		while IFS= read -r f; do
			excluded "$f" || cmds+=("$f")
		done < <(find build/cmake/tests -type d -name CMakeFiles -prune -o \
			-type f -perm -u+x \( -name '*_test' -o -name '*tests' \) -print | LC_ALL=C sort)
	fi
	[ "$unprivileged" = 0 ] || [ ! -r tests/guest/unprivileged.list ] ||
		read_list "user:" tests/guest/unprivileged.list
fi

# The kselftest tree's tests by program name: NAME -> COLLECTION:NAME.
declare -A ksft_tests=()
read_kselftest_list() {
	local line
	if [ ! -x "$ksft/run_kselftest.sh" ] || [ ! -r "$ksft/kselftest-list.txt" ]; then
		echo "run-all: $ksft is not an installed kselftest tree" >&2
		exit 2
	fi
	while IFS= read -r line; do
		ksft_tests[${line##*:}]=$line
	done <"$ksft/kselftest-list.txt"
	if [ ${#ksft_only[@]} -gt 0 ]; then
		declare -A keep=()
		for line in "${ksft_only[@]}"; do
			[ -n "${ksft_tests[$line]:-}" ] ||
				{ echo "run-all: $ksft lists no $line" >&2; exit 2; }
			keep[$line]=${ksft_tests[$line]}
		done
		ksft_tests=()
		for line in "${!keep[@]}"; do
			ksft_tests[$line]=${keep[$line]}
		done
	fi
}

# through_runner CMD: sets mapped to CMD or, for a uAPI program the
# kselftest tree lists, the runner's command for it (its arguments in
# KSELFTEST_NAME_ARGS, named as kselftest/runner.sh names it; its time
# limit the runner's, -o). No subshell: a fork is dear in the VM.
through_runner() {
	local cmd=$1 prefix='' first rest name var
	if [[ $cmd == user:* ]]; then
		prefix=user:
		cmd=${cmd#user:}
	fi
	first=${cmd%%[[:space:]]*}
	rest=${cmd#"$first"}
	rest=${rest#"${rest%%[![:space:]]*}"}
	name=${first##*/}
	if [[ $first != build/cmake/tests/uapi/* ]] || [ -z "${ksft_tests[$name]:-}" ]; then
		mapped=$prefix$cmd
		return
	fi
	var=${name//[^[:alnum:]_]/_}
	var=KSELFTEST_${var^^}_ARGS
	[ -z "$rest" ] || printf -v rest '%s=%q ' "$var" "$rest"
	mapped="$prefix$rest$ksft/run_kselftest.sh -o $per_timeout -t ${ksft_tests[$name]}"
}

if [ -n "$ksft" ] && [ ${#cmds[@]} -gt 0 ]; then
	read_kselftest_list
	for i in "${!cmds[@]}"; do
		through_runner "${cmds[i]}"
		cmds[i]=$mapped
	done
fi

if [ ${#cmds[@]} -eq 0 ]; then
	echo "run-all: no test programs found (build them first: make tools)"
	echo "0 passed, 0 failed, 0 skipped"
	exit 2
fi

export GTEST_COLOR=${GTEST_COLOR:-no}
export GTEST_BRIEF=${GTEST_BRIEF:-1}

# Run as the unprivileged user: no capabilities, no way back to root,
# supplementary groups from /etc/group (the VM puts the test user in
# 'render').
as_user() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
		return
	fi
	local home
	home=$(getent passwd "$user" | cut -d: -f6)
	[ -d "$home" ] && [ -w "$home" ] || home=/tmp
	HOME=$home USER=$user LOGNAME=$user \
		setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups \
		--inh-caps=-all --bounding-set=-all --no-new-privs -- "$@"
}

# parse LOG [KTAP]: print "kind pass fail skip timeout" for one program's
# output LOG (timeout: 1 when the kselftest runner stopped the program at
# its time limit); append LOG to KTAP as diagnostic lines.
parse() {
	awk -v out="${2:-}" '
	out != "" { print "# " $0 >>out }
	function totals(line, c,  n, a, i) {
		c["p"] = c["f"] = c["s"] = 0
		n = split(line, a, /[ :]+/)
		for (i = 1; i < n; i++) {
			if (a[i] == "pass" || a[i] == "xfail") c["p"] += a[i + 1]
			else if (a[i] == "fail" || a[i] == "xpass" || a[i] == "error") c["f"] += a[i + 1]
			else if (a[i] == "skip") c["s"] += a[i + 1]
		}
	}
	/^# Totals: pass:[0-9]+ fail:[0-9]+/ {
		kt = 1; totals($0, c); p = c["p"]; f = c["f"]; s = c["s"]
		next
	}
	# The kselftest runner: its programs output, "# "-prefixed, and one
	# result line per program.
	/^# # Totals: pass:[0-9]+ fail:[0-9]+/ {
		nk = 1; totals($0, c); np += c["p"]; nf += c["f"]; ns += c["s"]
		next
	}
	/^not ok [0-9]+ selftests: / {
		rn = 1; rf++; if ($0 ~ /# TIMEOUT/) rt = 1
	}
	/^ok [0-9]+ selftests: / { rn = 1 }
	/^ok [0-9]+/ { if (toupper($0) ~ /# *SKIP/) ts++; else tp++; tap = 1; next }
	/^not ok [0-9]+/ { if (toupper($0) ~ /# *(SKIP|TODO)/) ts++; else tf++; tap = 1; next }
	/^\[  PASSED  \] [0-9]+ tests?/ { gt = 1; gp += $4; next }
	/^\[  FAILED  \] [0-9]+ tests?, listed below/ { gt = 1; gf += $4; next }
	/^\[  SKIPPED \] [0-9]+ tests?/ { gt = 1; gs += $4; next }
	END {
		if (rn && nk) print "kselftest", np, (nf < rf ? rf : nf), ns, rt + 0
		else if (kt) print "ktap", p, f, s, 0
		else if (gt) print "gtest", gp + 0, gf + 0, gs + 0, 0
		else if (tap) print "tap", tp + 0, tf + 0, ts + 0, rt + 0
		else print "plain", 0, 0, 0, 0
	}' "$1"
}

# ktap_result N LABEL PASS FAIL SKIP: one program's result line in the
# KTAP file, after its output (parse).
ktap_result() {
	local verdict=ok directive=
	[ "$4" = 0 ] || verdict="not ok"
	[ "$4" != 0 ] || [ "$3" != 0 ] || [ "$5" = 0 ] || directive=" # SKIP"
	echo "$verdict $1 ${2//#/}$directive" >>"$ktap"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -z "$results" ] || : >"$results"
[ -z "$ktap" ] || printf 'TAP version 13\n1..%d\n' "${#cmds[@]}" >"$ktap"

total_pass=0 total_fail=0 total_skip=0
bad=()
n=${#cmds[@]}
i=0
for cmd in "${cmds[@]}"; do
	i=$((i + 1))
	label=$cmd
	runner=()
	if [[ $cmd == user:* ]]; then
		cmd=${cmd#user:}
		label="$cmd [as $user]"
		runner=(as_user)
	fi
	echo "==== [$i/$n] $label"
	log=$tmp/out
	# The kselftest runner stops its program at the same limit itself.
	# It writes to /dev/stdout, which the unprivileged user cannot open
	# when that is root's pipe: it gets a pipe of its own.
	limit=$per_timeout
	run=$cmd
	if [[ $cmd == *run_kselftest.sh* ]]; then
		limit=$((per_timeout + 30))
		[ ${#runner[@]} = 0 ] || run="set -o pipefail; $cmd | cat"
	fi
	t0=$(date +%s.%N)
	"${runner[@]}" timeout -k 10 "$limit" bash -c "$run" </dev/null 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	t1=$(date +%s.%N)
	read -r kind p f s timed_out < <(parse "$log" "$ktap")
	note=
	case $kind in
	plain)
		case $rc in
		0) p=1 ;;
		77) s=1 ;;
		*) f=1 ;;
		esac
		;;
	*)
		if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			f=1
			note=" (exited $rc without reporting a failure)"
		fi
		;;
	esac
	if [ "$rc" = 124 ] || [ "$rc" = 137 ] || [ "$timed_out" = 1 ]; then
		note=" (TIMEOUT after ${per_timeout}s)"
	elif [ "$rc" -gt 128 ]; then
		note=" (killed by signal $((rc - 128)))"
	fi
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	echo "---- $label: $p passed, $f failed, $s skipped (exit $rc, ${secs}s)$note"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + s))
	[ "$f" = 0 ] || bad+=("$label$note")
	[ -z "$results" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$label" "$kind" "$p" "$f" "$s" "$rc" "$secs" >>"$results"
	[ -z "$ktap" ] || ktap_result "$i" "$label$note" "$p" "$f" "$s"
done

echo "==== summary"
if [ ${#bad[@]} -gt 0 ]; then
	echo "failing programs:"
	printf '  %s\n' "${bad[@]}"
fi
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]
