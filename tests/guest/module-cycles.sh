#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Unload and reload tempo.ko with work in flight, inside the test VM.
#
#   tests/guest/module-cycles.sh [MODULE.ko]
#
# Runs as root in the guest, where tools/vm/run has loaded the module.
# First checks that unloading is refused while a file of the device is
# open; then runs $TEMPO_MODULE_CYCLES cycles (default 50), each one:
#
#   1. starts build/cmake/tests/tempo-hold/tempo-hold, which opens the device
#      and submits work that cannot finish by itself (a job waiting on a
#      gate, jobs queued behind it, a long SPIN dispatch, depending on
#      the cycle), and waits until it is submitted;
#   2. tries to unload the module: this must fail (the file is open) and
#      leave the module loaded;
#   3. ends the holder in the cycle's way: it closes the file with the
#      work in flight, exits with everything open, is killed, or opens
#      the gate and waits for its jobs;
#   4. unloads the module (with jobs possibly still on the emulated
#      engines), which must now succeed, and loads it again;
#   5. checks that the kernel log of the cycle has no report
#      (tools/vm/scan-log).
#
# TEMPO_MODULE_CYCLES_FENCE=1 adds keep-fence cycles: the unprivileged
# user ($TEMPO_VM_USER, else nobody) keeps a job's fence in a sync_file
# and in a syncobj file and closes the DRM file; root unloads the module,
# the holder reads SYNC_IOC_FILE_INFO and closes both files, and the
# unload must then have succeeded. Where dma_fence_signal() detaches a
# signalled fence from its ops (7.3) the unload ends at once and the
# fence outlives the module; elsewhere (6.12, 6.1) it waits until the
# files are closed (Documentation/design.rst).
# TEMPO_MODULE_CYCLES_FENCE_UNLOAD=at-once or waits says which the kernel
# must show; unset, either passes and the cycle says which it saw.
# TEMPO_MODULE_CYCLES_ONLY="kill exit"
# runs only the cycles of those kinds (close, kill, exit, release,
# spin-close, spin-kill, timeouts-close, timeouts-kill, keep-fence), to
# chase one of them.
#
# The module is whatever tools/vm/run loaded: MODULE.ko, else
# $TEMPO_MODULE, else the copy named in the VM's job file (kernel
# parameter tempovm_xfer=DIR, file DIR/job), with the same parameters
# unless $TEMPO_MODPARAMS is set: then the cycles run with those, and the
# checks before and after them with the VM's own. At the end the module
# is loaded again, with the VM's parameters, so that the VM's own unload
# check still has something to unload.
#
# Output: kselftest-style TAP ("ok N ...", "not ok N ...") and a final
# "# Totals: pass:N fail:M ..." line, which tests/guest/run-all.sh reads.
# Exit status 0 when every check passed, 1 otherwise.
set -u

cd "$(dirname "$0")/../.." || exit 1
repo=$(pwd)
hold=$repo/build/cmake/tests/tempo-hold/tempo-hold
scan=$repo/tools/vm/scan-log
cycles=${TEMPO_MODULE_CYCLES:-50}
fence_cycles=${TEMPO_MODULE_CYCLES_FENCE:-0}
fence_unload=${TEMPO_MODULE_CYCLES_FENCE_UNLOAD:-}
user=${TEMPO_VM_USER:-nobody}
BB=/bin/busybox

pass=0 fail=0 skip=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $*"; }
skip_all() {
	echo "TAP version 13"
	echo "1..1"
	echo "ok 1 module cycles # SKIP $*"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
}
totals() {
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
	[ "$fail" = 0 ]
	exit $?
}

[ "$(id -u)" = 0 ] || skip_all "needs root (loads and unloads the module)"
[ -x "$hold" ] || skip_all "$hold not built (make tools)"
[ -x $BB ] || BB=
[[ $cycles =~ ^[0-9]+$ ]] || skip_all "TEMPO_MODULE_CYCLES='$cycles' is not a number"
case $fence_unload in
'' | at-once | waits) ;;
*) skip_all "TEMPO_MODULE_CYCLES_FENCE_UNLOAD='$fence_unload' is neither at-once nor waits" ;;
esac

# --- which module, with which parameters --------------------------------
module_arg=${1:-}
# shellcheck source=tests/guest/module.sh
. tests/guest/module.sh
[ -n "$module" ] || skip_all "no module to load (give its path, or run in tools/vm/run)"

tmp=$(mktemp -d)
# The holder's state file, which the unprivileged user writes too.
chmod 711 "$tmp"
mkdir -m 1777 "$tmp/state.d"
holder_pid=
unload_pid=
cleanup() {
	[ -n "$holder_pid" ] && kill -KILL "$holder_pid" 2>/dev/null
	rm -rf "$tmp"
	loaded || load "$vm_params" >/dev/null
}
trap cleanup EXIT

# Kernel log of the current check: from a mark to now.
mark_log() { log_mark=$(dmesg | wc -l); }
log_clean() {
	dmesg | tail -n +$((log_mark + 1)) >"$tmp/log"
	if [ -x "$scan" ]; then
		"$scan" -q "$tmp/log" >"$tmp/scan" 2>&1 && return 0
		sed 's/^/# /' "$tmp/scan" | head -40
		return 1
	fi
	! grep -Eq 'WARNING:|BUG:|Oops|Call Trace:|refcount_t:|KASAN:|UBSAN:' "$tmp/log"
}

# Start tempo-hold with ARGS and wait until its work is submitted. With
# HOLD_AS=user, as the unprivileged user: no capabilities, no way back to
# root (setpriv executes the holder: $holder_pid is the holder's).
start_holder() {
	local as=()

	[ "${HOLD_AS:-}" = user ] &&
		as=(setpriv --reuid="$user" --regid="$(id -g "$user")"
		    --init-groups --inh-caps=-all --bounding-set=-all
		    --no-new-privs --)
	rm -f "$tmp/state.d/state"
	"${as[@]}" "$hold" --state "$tmp/state.d/state" --timeout 120 "$@" \
		>"$tmp/hold.out" 2>&1 &
	holder_pid=$!
	for _ in $(seq 400); do
		[ -s "$tmp/state.d/state" ] && return 0
		kill -0 "$holder_pid" 2>/dev/null || break
		sleep 0.025
	done
	echo "# tempo-hold did not get its work submitted:"
	sed 's/^/#   /' "$tmp/hold.out"
	return 1
}

wait_state() {
	for _ in $(seq 400); do
		grep -qx "$1" "$tmp/state.d/state" 2>/dev/null && return 0
		sleep 0.025
	done
	return 1
}

echo "TAP version 13"
echo "# module $module${params:+ ($params)}, $cycles cycles"
# The checks before and after the cycles hold gated jobs on the hardware
# until released, which on a debug kernel on a busy host can outlast even
# 10 s: they run with a long timeout, whatever a run before this one left.
check_params="$vm_params job_timeout_ms=30000"
if loaded; then
	unload >/dev/null
fi
load "$check_params" >/dev/null || { not_ok "the module is loaded at the start"; totals; }

# reload PARAMS: unload, load with PARAMS.
reload() {
	unload >/dev/null && load "$1" >/dev/null
}

# device_works WHEN: a holder's gated, queued and spinning jobs complete
# once released, with a clean kernel log; "device works WHEN" is the check.
device_works() {
	if ! start_holder --gate 2 --queued 2 --spin 50 --then release; then
		not_ok "device works $1 (no holder)"
		return
	fi
	kill -USR1 "$holder_pid"
	if wait "$holder_pid" && log_clean; then
		ok "device works $1"
	else
		not_ok "device works $1"
		sed 's/^/#   /' "$tmp/hold.out"
	fi
	holder_pid=
}

# --- unloading is refused while a file is open ---------------------------
mark_log
if start_holder --gate 0 --then close; then
	out=$(unload)
	rc=$?
	if [ $rc != 0 ] && loaded; then
		ok "unload refused while a file is open (refcnt $(refcnt): ${out:-no message})"
	else
		not_ok "unload refused while a file is open (rmmod exit $rc: $out)"
		loaded || load >/dev/null
	fi
	kill -USR1 "$holder_pid"
	wait "$holder_pid"
	holder_pid=
else
	not_ok "unload refused while a file is open (no holder)"
fi
# The device still works after the refused unload.
device_works "after a refused unload"

# keep-fence: the holder closed its DRM file and keeps a job's fence.
# Unload in the background: at once, or waiting until the holder, told to
# go on now, has read the fence and closed its files; either way the
# unload must succeed. Adds to the cycle's problems.
unload_with_fence_kept() {
	local how=waits rc=0 t0=$SECONDS window=3

	# An unload expected at once may still take a while on a slow kernel
	# (the debug kernel under TCG took more than 3 s): give it 30 s.
	[ "$fence_unload" != at-once ] || window=30
	unload >"$tmp/unload.out" 2>&1 &
	unload_pid=$!
	while [ $((SECONDS - t0)) -lt $window ]; do
		kill -0 "$unload_pid" 2>/dev/null || { how=at-once; break; }
		sleep 0.1
	done
	if [ $how = waits ]; then
		[ "$(cat "/sys/module/$name/initstate" 2>/dev/null)" = going ] ||
			problems+=("unload waits, but the module is not going")
		dmesg | tail -n +$((log_mark + 1)) |
			grep -Eq 'waiting for [0-9]+ hardware fences to be released' ||
			problems+=("unload waits without saying so")
	fi
	[ -z "$fence_unload" ] || [ $how = "$fence_unload" ] ||
		problems+=("unload with a fence kept: $how, expected $fence_unload")
	kill -USR1 "$holder_pid"
	wait "$holder_pid" || problems+=("holder failed after the unload")
	holder_pid=
	sed 's/^/#   /' "$tmp/hold.out"
	for _ in $(seq 600); do
		kill -0 "$unload_pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$unload_pid" 2>/dev/null; then
		problems+=("unload still waits 60 s after the fence's files closed")
		return
	fi
	wait "$unload_pid"
	rc=$?
	unload_pid=
	if [ $rc != 0 ] || loaded; then
		problems+=("unload with a fence kept failed (exit $rc): $(cat "$tmp/unload.out")")
	fi
	echo "# unload with a fence kept: $how"
}

# --- cycles ----------------------------------------------------------------
# The cycles' parameters ($TEMPO_MODPARAMS, else the VM's).
reload "$params" || { not_ok "the module reloads with the cycles' parameters"; totals; }
# The timeouts kinds keep jobs timing out one after another while the
# module goes: with a short job_timeout_ms the scheduler's timeout handler
# runs during the unload (a job it held must not be lost).
scenarios=(
	"close:--gate 1 --then close"
	"kill:--gate 2 --queued 2 --then close"
	"exit:--gate 1 --queued 1 --then exit"
	"release:--gate 2 --queued 2 --spin 20 --then release"
	"spin-close:--gate 0 --spin 1500 --then close"
	"spin-kill:--gate 1 --spin 1500 --then close"
	"timeouts-close:--gate 24 --contexts 24 --queued 8 --then close"
	"timeouts-kill:--gate 24 --contexts 24 --queued 8 --then close"
)
if [ "$fence_cycles" = 1 ]; then
	scenarios+=("keep-fence:--gate 1 --then keep-fence")
fi
if [ -n "${TEMPO_MODULE_CYCLES_ONLY:-}" ]; then
	kept=()
	for entry in "${scenarios[@]}"; do
		for k in $TEMPO_MODULE_CYCLES_ONLY; do
			[ "${entry%%:*}" = "$k" ] && kept+=("$entry")
		done
	done
	[ ${#kept[@]} -gt 0 ] || skip_all "TEMPO_MODULE_CYCLES_ONLY='$TEMPO_MODULE_CYCLES_ONLY' names no cycle"
	scenarios=("${kept[@]}")
fi

t0=$SECONDS
for ((c = 1; c <= cycles; c++)); do
	entry=${scenarios[$(((c - 1) % ${#scenarios[@]}))]}
	kind=${entry%%:*}
	# shellcheck disable=SC2206
	args=(${entry#*:})
	what="cycle $c ($kind)"
	mark_log
	HOLD_AS=
	[ "$kind" = keep-fence ] && HOLD_AS=user
	if ! start_holder "${args[@]}"; then
		not_ok "$what: work submitted"
		continue
	fi
	problems=()
	if out=$(unload) || ! loaded; then
		problems+=("unload with the file open succeeded: $out")
		load >/dev/null
	fi
	case $kind in
	*kill) kill -KILL "$holder_pid" ;;
	*) kill -USR1 "$holder_pid" ;;
	esac
	if [ "$kind" = keep-fence ]; then
		wait_state closed || problems+=("holder did not close its file")
	else
		{ wait "$holder_pid"; } 2>/dev/null
		rc=$?
		holder_pid=
		case $kind in
		*kill) [ $rc = 137 ] || problems+=("holder exit $rc after SIGKILL") ;;
		*) [ $rc = 0 ] || problems+=("holder exit $rc: $(tr '\n' ' ' <"$tmp/hold.out")") ;;
		esac
	fi
	if [ "$kind" = keep-fence ]; then
		unload_with_fence_kept
	elif ! out=$(unload) || loaded; then
		problems+=("unload once the file is closed failed (refcnt $(refcnt)): $out")
	fi
	loaded || load >"$tmp/load" 2>&1 || problems+=("reload failed: $(cat "$tmp/load")")
	log_clean || problems+=("kernel log has reports")
	if [ ${#problems[@]} = 0 ]; then
		ok "$what"
	else
		not_ok "$what: ${problems[*]}"
	fi
done
echo "# $cycles cycles in $((SECONDS - t0)) s"
reload "$check_params" || not_ok "the module reloads for the last check"

# --- the device works after all that --------------------------------------
mark_log
device_works "after the cycles"
reload "$vm_params" || not_ok "the module reloads with the VM's parameters"
echo "1..$n"
totals
