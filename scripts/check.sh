#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check": build everything, then boot the test VM once and run all
# tests in it (tests/guest/run-all.sh).  Parts that do not exist yet are
# skipped with a message.  The last line is "N passed, M failed,
# K skipped"; build failures, a dirty guest kernel log and a VM that
# dies or times out each count as one more failure.  Exits non-zero when
# anything failed or when nothing was tested.
#
# Machine-readable results, in build/check/out: each VM suite's run as
# KTAP (NAME.ktap) and one line per program (results-NAME.tsv), the
# device-free tests as JUnit XML (junit-ctest.xml, junit-ctest-clang.xml);
# in build/check: summary.json, each section's counts and time and the
# totals of the last line (scripts/check-summary.sh).
#
# Environment:
#   TEMPO_CHECK_TIMEOUT    VM time limit in seconds (default 3000)
#   TEMPO_TEST_TIMEOUT     limit per test program in seconds (default 900)
#   TEMPO_CHECK_MODPARAMS  module parameters for tempo.ko
#   TEMPO_VM_ARGS          more tools/vm/run options (word-split)
#   TEMPO_FUZZ_SECONDS     how long each fuzzer run lasts (default 20)
#   TEMPO_CHECK_DEBUG_KERNEL 0: skip the debug kernel (7.x) suites
#   TEMPO_CHECK_LTS_KERNEL 0: skip the 6.1 kernel suite
#   TEMPO_CCACHE_DIR       ccache's cache (default /var/cache/tempo/ccache)
#   TEMPO_CHECK_INSTALL_VM 1: also run the DKMS part of the install test
#                          in the VM, which loads the module DKMS built
#                          (about 5 minutes; off by default to keep make
#                          check within CI's time)
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
repo=$(pwd)
make=${MAKE:-make}
logs=$repo/build/check
out=$logs/out
module=drivers/gpu/drm/tempo/tempo.ko

failures=()
details=()
skips=()
t_start=$(date +%s)
passed=0 failed=0 skipped=0

# Each section's name, counts and start time by index, for summary.json;
# sec is the current one, "setup" until the first section opens.
sec=-1
sec_names=() sec_pass=() sec_fail=() sec_skip=() sec_t0=() sec_secs=()
open_section() {
	sec=$((sec + 1))
	sec_names[sec]=$1 sec_pass[sec]=0 sec_fail[sec]=0 sec_skip[sec]=0
	sec_t0[sec]=$(date +%s)
}
open_section setup
# count P F S: P more tests passed, F failed and S skipped, in the totals
# and in the current section's counts.
count() {
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
	sec_pass[sec]=$((sec_pass[sec] + $1))
	sec_fail[sec]=$((sec_fail[sec] + $2))
	sec_skip[sec]=$((sec_skip[sec] + $3))
}

# A compiler cache kept beside the kernels and IGT: a clean clone's C and
# C++ builds (libtempo, the tools and the tests, with g++ and clang) took
# 6 of make check's minutes, and most of a warm run's compiles now hit.
# Paths below the tree are hashed relative to it, so that clones in other
# directories share the cache.
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${TEMPO_CCACHE_DIR:-/var/cache/tempo/ccache}
	export CCACHE_BASEDIR=$repo CCACHE_NOHASHDIR=true
	export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
	mkdir -p "$CCACHE_DIR"
fi

# Each section says when it starts, in minutes since make check began.
section() {
	local t=$(($(date +%s) - t_start))
	printf '\n==> %s [%dm%02ds]\n' "$*" $((t / 60)) $((t % 60))
	open_section "$*"
}
# A failed step counts in the totals at the end, in its section's now.
fail_step() {
	failures+=("$1")
	sec_fail[sec]=$((sec_fail[sec] + 1))
	echo "check: FAILED: $1"
}
skip_step() { skips+=("$1"); echo "check: skipped: $1"; }
# What a failure was, repeated in the summary: the end of the output is
# often all a CI log keeps.
detail() { details+=("$1"); }

# count_tap NAME OUTPUT: adds the "ok"/"not ok" lines of OUTPUT to the totals.
count_tap() {
	local k p f
	k=$(grep -c '^ok .*# SKIP' <<<"$2")
	p=$(grep -c '^ok ' <<<"$2")
	p=$((p - k))
	f=$(grep -c '^not ok ' <<<"$2")
	count "$p" "$f" "$k"
	[ $((p + f)) -gt 0 ] || fail_step "$1 reported nothing"
}

# The VM runs some tests as an unprivileged user, from this tree: every
# directory above it must let others through, and the tree itself (a
# clone in "mktemp -d" is private) is opened to them.
others_may() { [ $(($(stat -c 0%a "$1") & $2)) = "$2" ]; }
if ! others_may "$repo" 5; then
	echo "check: chmod o+rx $repo (the unprivileged tests run from it)"
	chmod o+rx "$repo"
fi
d=$(dirname "$repo")
while [ "$d" != / ]; do
	others_may "$d" 1 ||
		fail_step "$d is closed to other users: the unprivileged tests cannot run from $repo"
	d=$(dirname "$d")
done

# The machine-readable results of an earlier run go: what is there at the
# end is this run's.
mkdir -p "$out"
rm -f "$out"/*.ktap "$out"/junit-ctest*.xml "$logs/summary.json" "$logs/sections.tsv"

# --- build ------------------------------------------------------------------
module_ok=0
vm_kver=$(scripts/kver.sh --vm)
section "kernel module (make modules KVER=$vm_kver)"
if compgen -G 'drivers/gpu/drm/tempo/*.c' >/dev/null; then
	if $make modules KVER="$vm_kver"; then
		if [ -f "$module" ]; then
			module_ok=1
		else
			fail_step "make modules did not produce $module"
		fi
	else
		fail_step "make modules"
	fi
else
	skip_step "no driver sources in drivers/gpu/drm/tempo/"
fi

section "library, tools and their tests (make tools)"
if [ -f CMakeLists.txt ]; then
	$make tools CMAKE_ARGS=-DTEMPO_BUILD_UAPI_TESTS=ON || fail_step "make tools"
else
	skip_step "no CMakeLists.txt"
fi

# The uAPI tests as a kselftest target, installed as kernel CI takes
# them (tests/uapi/Makefile): the production suite runs some of them
# through the tree's run_kselftest.sh. Compiled through the cache too.
ksft_dir=
ksft_cc=()
[ -z "${CMAKE_C_COMPILER_LAUNCHER:-}" ] || ksft_cc=(CC="$CMAKE_C_COMPILER_LAUNCHER gcc")
section "uAPI tests as kselftests (make -C tests/uapi kselftest-install)"
if $make -C tests/uapi -j "$(nproc)" kselftest-install "${ksft_cc[@]}" \
	>"$logs/kselftest.log" 2>&1; then
	ksft_dir=build/kselftest/install
	tail -n 2 "$logs/kselftest.log"
else
	tail -n 20 "$logs/kselftest.log"
	fail_step "make -C tests/uapi kselftest-install (see $logs/kselftest.log)"
fi

# How this script counts and records results, and run-all.sh's kselftest
# runner and KTAP file, tested without a device (seconds).
section "make check's results (tests/check/results.sh)"
results_out=$(tests/check/results.sh $ksft_dir 2>&1)
echo "$results_out"
count_tap tests/check/results.sh "$results_out"

# The driver's probe pass and its probes, without a kernel (a second).
section "the driver's probe pass (tests/check/conftest.sh)"
conftest_out=$(tests/check/conftest.sh 2>&1)
echo "$conftest_out"
count_tap tests/check/conftest.sh "$conftest_out"

# The device-free programs (GoogleTest's *_unit_test, ctest's list) run
# here, on the host, where they take seconds: in the VM, under TCG, they
# took 47 s of the production suite. Each of their tests counts; ctest
# writes their results as JUnit XML too.
unit_passed=0 unit_failed=0
if [ -f build/cmake/CTestTestfile.cmake ]; then
	section "device-free tests (ctest in build/cmake)"
	unit_out=$(ctest --test-dir build/cmake --output-on-failure \
		--output-junit "$out/junit-ctest.xml" 2>&1)
	unit_rc=$?
	echo "$unit_out" | tail -n 3
	read -r unit_failed unit_total < <(sed -n 's/^[0-9]*% tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\)$/\1 \2/p' <<<"$unit_out")
	unit_passed=$((${unit_total:-0} - ${unit_failed:-0}))
	count "$unit_passed" "${unit_failed:-0}" 0
	if [ "$unit_rc" != 0 ] || [ "${unit_total:-0}" = 0 ]; then
		fail_step "device-free tests (ctest in build/cmake, exit $unit_rc)"
		while read -r line; do
			detail "ctest: $line"
		done < <(grep -E '^ *[0-9]+ - .*\(Failed\)' <<<"$unit_out" | head -n 5)
	fi
fi

# Everything with clang too, -Werror: one more test when it builds and
# ctest passes. Unoptimised and without debug information: clang's
# warnings do not depend on them, and it builds in half the time.
section "library, tools and tests with clang (build/clang)"
if command -v clang++ >/dev/null; then
	if CC=clang CXX=clang++ cmake -S . -B build/clang -DTEMPO_BUILD_TOOLS=ON -DTEMPO_BUILD_UAPI_TESTS=ON \
		-DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS=-O0 -DCMAKE_CXX_FLAGS=-O0 >/dev/null &&
	   cmake --build build/clang -j "$(nproc)" &&
	   ctest --test-dir build/clang --output-on-failure \
		--output-junit "$out/junit-ctest-clang.xml" | tail -n 3; then
		count 1 0 0
	else
		fail_step "building or unit-testing with clang (build/clang)"
	fi
else
	fail_step "clang++ not found (make deps installs it)"
fi

# IGT's generic tests (tools/igt/tests.list) and its gputop run in the
# production suite (not yet on the debug kernel: Documentation/testing.rst
# says why).  A
# machine with neither IGT's tarball nor network access skips them.
igt_dir=
section "IGT GPU Tools (tools/igt/build)"
if igt_env=$(tools/igt/build -q); then
	igt_dir=$(sed -n 's/^TEMPO_IGT_DIR=//p' <<<"$igt_env")
elif [ $? = 3 ]; then
	skip_step "IGT: no source (tools/igt/build --help says where it looks)"
else
	fail_step "building IGT (tools/igt/build)"
fi

# fence_cycles N HOW: the command of N module cycles in which the
# unprivileged user keeps a job's fence (a sync_file and a syncobj file)
# across the unload and reads it afterwards; HOW is what the unload must
# do: at-once where dma_fence_signal() detaches a signalled fence from its
# ops and the fence outlives the module (7.3), waits (until the files are
# closed) where the kernel still reads the ops on the last put (6.12,
# 6.1). Documentation/design.rst says why.
fence_cycles() {
	echo "TEMPO_MODULE_CYCLES=$1 TEMPO_MODULE_CYCLES_FENCE=1 TEMPO_MODULE_CYCLES_FENCE_UNLOAD=$2 TEMPO_MODULE_CYCLES_ONLY=keep-fence TEMPO_MODPARAMS='job_timeout_ms=30000 $modparams' tests/guest/module-cycles.sh"
}

# stress_suite NAME HANG_CYCLES MODULE_CYCLES TIMEOUT_CYCLES FENCE_CYCLES
# FENCE_UNLOAD [tools/vm/run options]: one VM boot with a short job
# timeout running the hang-and-recover cycles, the module unload/reload
# cycles with work in flight (they reload it with a long timeout, 30 s:
# their holders keep jobs waiting on the hardware on purpose until the
# script's next step, which the debug kernel on a busy host delayed past
# 10 s once), the TIMEOUT_CYCLES of three kinds with a 100 ms timeout
# (jobs time out while the module goes), FENCE_CYCLES keeping a job's
# fence across the unload, which does FENCE_UNLOAD (fence_cycles), and
# the fuzzer as root and as the unprivileged user
# (tools/tempo-fuzz/README.rst).
stress_suite() {
	local name=$1 hangs=$2 cycles=$3 timeout_cycles=$4 fence=$5 how=$6
	shift 6
	vm_suite "$name" --modparams "job_timeout_ms=500 $modparams" "$@" -- \
		"$probe" \
		"TEMPO_HANG_CYCLES=$hangs build/cmake/tests/uapi/lifetime -r lifetime.hang_cycles_leave_the_device_working" \
		"TEMPO_MODULE_CYCLES=$cycles TEMPO_MODPARAMS='job_timeout_ms=30000 $modparams' tests/guest/module-cycles.sh" \
		"TEMPO_MODULE_CYCLES=$timeout_cycles TEMPO_MODULE_CYCLES_ONLY='timeouts-close timeouts-kill kill' TEMPO_MODPARAMS='job_timeout_ms=100 $modparams' tests/guest/module-cycles.sh" \
		"$(fence_cycles "$fence" "$how")" \
		"build/cmake/tools/tempo-fuzz/tempo-fuzz --seconds ${TEMPO_FUZZ_SECONDS:-20}" \
		"user:build/cmake/tools/tempo-fuzz/tempo-fuzz --seconds ${TEMPO_FUZZ_SECONDS:-20}"
}

# kernel_env PRESET: build (or find) a kernel of tools/vm/kernels and
# tempo.ko for it; sets kernel_opts to the tools/vm/run options booting
# it with that module. Fails the step and returns 1 when either fails.
kernel_env() {
	local env kdir ko
	if ! env=$(tools/vm/kernels/build -q --preset "$1"); then
		fail_step "building the $1 kernel (tools/vm/kernels/build --preset $1)"
		return 1
	fi
	kdir=$(sed -n 's/^TEMPO_KERNEL_KDIR=//p' <<<"$env")
	if ! ko=$(tools/vm/kernels/build-module -q --kdir "$kdir" | tail -n 1) ||
	   [ ! -f "$ko" ]; then
		fail_step "building tempo.ko for the $1 kernel"
		return 1
	fi
	kernel_opts=(--kernel "$(sed -n 's/^TEMPO_KERNEL_IMAGE=//p' <<<"$env")"
		     --modules-dir "$(sed -n 's/^TEMPO_KERNEL_MODULES=//p' <<<"$env")"
		     --module "$ko")
}

# kernel_suite SWITCH LABEL PRESET: the start of a suite on a kernel of
# tools/vm/kernels. Skips the step and returns 1 when the environment
# variable SWITCH is 0; else opens the section and runs kernel_env PRESET.
kernel_suite() {
	if [ "${!1:-1}" = 0 ]; then
		skip_step "$2 ($1=0)"
		return 1
	fi
	section "$2 (tools/vm/kernels/build --preset $3)"
	kernel_env "$3"
}

# debug_suite: the whole suite once more on the debug kernel (the newest
# Debian 7.x with KASAN, lockdep, UBSAN, kmemleak; see
# tools/vm/kernels/README.rst), tempo's KUnit suites and drm_sched's own,
# then the stress run (KUnit off: it would run at every module load).
# drm_sched's own KUnit suites, but two that are racy in the test code
# under KASAN and TCG (Debian's 7.3.4): drm_sched_basic_test's dependency
# chains take the finished fence of a job already freed (null-ptr-deref),
# and drm_sched_concurrent_tests frees its mock jobs while the scheduler's
# free_job work still reads them (slab-use-after-free). As far as the
# KASAN reports show, both races are the tests' own; see
# Documentation/testing.rst.
# The drm_sched_scheduler_* suites (many clients, overhead: about two
# minutes there) are left out too, for make check's time, and so are the
# device-free programs (*_unit_test: about 90 s there), which the
# production suite and the clang build's ctest run already, and the
# second runs as the unprivileged user (--no-user: 105 s there), whose
# permission checks do not depend on the kernel's debug options. The
# programs that only repeat on this kernel what others run on it leave
# too: the priority, scheduling and parallel tests (90 s here) run under
# the FAIR policy instead, in the same boot (fair_steps); the C++ programs over libtempo
# (*_device_test: 36 s) make the ioctls the uAPI suite makes; the guide's
# examples (examples, uapi-hello) are the production suite's.
sched_kunit="--filter drm_sched_basic_tests.drm_sched_basic_submit"
sched_kunit+=" --filter 'drm_sched_basic_?*_tests'"
# The programs open the render node that $TEMPO_DEVICE names instead of
# finding it (drmGetDevices2() reads a dozen sysfs files): on this kernel
# under TCG that took about 0.1 s of each test's 0.45 s. The production
# and 6.1 runs still find it.
debug_node=(--env TEMPO_DEVICE=/dev/dri/renderD128)

# drm_sched's FAIR run-queue policy (7.x; priority is a weight, not strict
# order): tempo's priorities must hold under it too. The same boot runs
# the priority, scheduling and parallel programs first, with gpu_sched
# and tempo reloaded for it (tests/guest/module-reload.sh), then reloads
# both with their defaults for the rest: a boot of this kernel costs
# about 100 s besides its programs. The long job timeout: the
# low-priority workgroups that the priority tests preempt run about ten
# times slower under KASAN and lockdep, and reached the default timeout
# there once.
# The mapping flood of hostile (one mapping per ioctl up to the limit)
# took 52 s of this kernel's 155 s of hostile at the default 65536; the
# limit's checks are the same at 8192. exec runs its per-class cases on
# the compute engines only here (82 s for the three classes): the
# classes share the exec and command-processor paths that KASAN and
# lockdep watch, and every class runs on the other kernels; lifetime
# leaves its hang cycles to the stress run below, which runs 10.
debug_suite() {
	local fair_steps=("TEMPO_MODPARAMS='hqd_policy=1 job_timeout_ms=10000 $modparams' tests/guest/module-reload.sh sched_policy=2"
			  build/cmake/tests/uapi/priority build/cmake/tests/uapi/sched
			  build/cmake/tests/uapi/parallel tests/guest/module-reload.sh)
	local debug_params="max_mappings=8192 $modparams"
	local once=("build/cmake/tests/uapi/exec -V gfx -V copy"
		    "build/cmake/tests/uapi/lifetime -T hang_cycles_leave_the_device_working")

	kernel_suite TEMPO_CHECK_DEBUG_KERNEL "debug kernel" debug || return
	vm_suite debug-kernel "${kernel_opts[@]}" "${debug_node[@]}" \
		--modparams "$debug_params" -- \
		--discover --no-user --exclude '*_unit_test' --exclude hostile \
		--exclude priority --exclude sched --exclude parallel \
		--exclude '*_device_test' --exclude examples --exclude uapi-hello \
		--exclude exec --exclude lifetime \
		"$probe" "${fair_steps[@]}" "$hostile_elsewhere" "${once[@]}" \
		tests/guest/kunit.sh \
		"tests/guest/kunit.sh --modprobe drm-sched-tests $sched_kunit 'drm_sched_*'"
	# 10 hang cycles, 2 module cycles, 3 with timeouts (one of each kind)
	# and one keeping a fence here: a module cycle takes 17 to 30 s on
	# this kernel under TCG; the production kernel runs ten times as
	# many, and tools/vm/kernels/README.rst shows how to run a soak of
	# hundreds.
	TEMPO_FUZZ_SECONDS=${TEMPO_FUZZ_SECONDS:-10} \
	stress_suite debug-kernel-stress 10 2 3 1 at-once "${kernel_opts[@]}" \
		--append kunit.enable=0
}

# lts_suite: the uAPI and libtempo suites and tempo's KUnit suites on
# Debian 12's 6.1 LTS kernel (tests/guest/kernels.list).
lts_suite() {
	kernel_suite TEMPO_CHECK_LTS_KERNEL "6.1 kernel" lts || return
	vm_suite lts-kernel "${kernel_opts[@]}" \
		${modparams:+--modparams "$modparams"} -- \
		--list tests/guest/kernels.list --exclude "$debug_only" \
		--exclude hostile "$probe" "$hostile_elsewhere" \
		"tests/guest/kunit.sh 'tempo_*'" \
		"$(fence_cycles 1 waits)"
}

# --- tests in the VM --------------------------------------------------------

# harness_boot_checks: the harness's handling of deaths during boot (three
# short boots): a boot that dies before the guest loads any module is
# tried once more, a second death and a module's oops fail the run.
harness_boot_checks() {
	local out p f
	section "VM harness: deaths during boot (tools/vm/selftest/run --boot-only)"
	out=$(tools/vm/selftest/run --boot-only 2>&1)
	echo "$out"
	p=$(grep -c '^ok: ' <<<"$out")
	f=$(grep -c '^FAILED: ' <<<"$out")
	count "$p" "$f" 0
	[ $((p + f)) -gt 0 ] || fail_step "tools/vm/selftest/run --boot-only reported nothing"
	while read -r line; do
		detail "VM harness: $line"
	done < <(grep '^FAILED: ' <<<"$out")
}

# vm_suite NAME [tools/vm/run options] -- [run-all.sh arguments]: one VM
# boot running tests/guest/run-all.sh; adds its counts to the totals and
# counts a clean guest kernel log as one more pass.
vm_suite() {
	local name=$1 vm_rc summary p f k boot_retried=0 first_boot_log=
	shift
	local vmopts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do vmopts+=("$1"); shift; done
	shift
	section "tests in the VM: $name"
	mkdir -p "$out" "$logs/$name"
	rm -f "$out/results-$name.tsv" "$out/$name.ktap" "$logs/$name/last-run.env"
	tools/vm/run "${vm_args[@]}" "${vmopts[@]}" --log-dir "$logs/$name" -- \
		tests/guest/run-all.sh --timeout "${TEMPO_TEST_TIMEOUT:-900}" \
		--results "$out/results-$name.tsv" --ktap "$out/$name.ktap" "$@"
	vm_rc=$?
	if [ ! -f "$logs/$name/last-run.env" ]; then
		fail_step "$name: tools/vm/run failed (exit $vm_rc)"
		return
	fi
	# shellcheck source=/dev/null
	. "$logs/$name/last-run.env"
	summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$name/last-output.log" 2>/dev/null | tail -n 1)
	if [ -n "$summary" ]; then
		read -r p _ f _ k _ <<<"${summary//,/}"
		while read -r line; do
			detail "$name: $line"
		done < <(grep -E '^(# )?not ok ' "$logs/$name/last-output.log" | head -n 5)
		count "$p" "$f" "${k:-0}"
	else
		fail_step "$name: the test run in the VM reported no results (tools/vm/run exit $vm_rc)"
	fi
	if [ "${boot_retried:-0}" = 1 ]; then
		echo "check: $name: the first boot died before loading any module (the emulation's fault, not tempo's: ${first_boot_log:-}); booted once more"
		detail "$name: boot retried once, the first died before loading any module (${first_boot_log:-})"
	fi
	if [ "${timed_out:-0}" = 1 ]; then
		fail_step "$name: the VM timed out"
	elif [ -z "${cmd_status:-}" ]; then
		fail_step "$name: the VM died before the tests finished (see $logs/$name/last-guest.log)"
	fi
	if [ "${log_clean:-0}" = 1 ]; then
		count 1 0 0
		echo "check: $name: guest kernel log is clean"
	else
		fail_step "$name: guest kernel log has reports (see $logs/$name/last-guest.log)"
		tools/vm/scan-log --max-reports 3 "$logs/$name/last-guest.log"
		while read -r line; do
			detail "$name: $line"
		done < <(tools/vm/scan-log --headlines --max-reports 2 "$logs/$name/last-guest.log")
	fi
}

vm_args=(--out "$out" --timeout "${TEMPO_CHECK_TIMEOUT:-3000}")
# shellcheck disable=SC2206
[ -z "${TEMPO_VM_ARGS:-}" ] || vm_args+=(${TEMPO_VM_ARGS})
modparams=${TEMPO_CHECK_MODPARAMS:-}
# The uAPI programs that need the debug kernel's fault injection
# (tests/uapi/faults.c): the other kernels leave them out.
debug_only=faults
# hostile's measurements of the host's CPU beside a saturated GPU (the
# CUs' nice level, a bystander's share: about 95 s on Debian's kernel,
# three times that on the debug kernel) depend on the hardware model's
# threads, not on the kernel: they run once, in the production suite,
# and the other kernels run hostile without them.
hostile_elsewhere="build/cmake/tests/uapi/hostile -T bystander_keeps_half_its_cpu_beside_a_saturated_gpu -T bystander_keeps_half_its_cpu_beside_priority_flips -T a_saturating_user_leaves_the_cus_at_their_cpu_priority"
# The module must have come up with a render node before anything else is
# worth running.
probe="grep -q '^tempo ' /proc/modules && ls -l /dev/dri && test -c /dev/dri/renderD128"

# The kernels built from source (the 7.x debug kernel, then 6.1) build in
# the background at the lowest priority while the VM runs on Debian's
# kernel: they take the CPU time the VM leaves. The debug kernel comes
# first: its suites are the longest, and 6.1 then builds while they run.
# kernel_env waits for them (the build's lock) when their suites come.
prebuild_kernels() {
	local p
	for p in "$@"; do
		nice -n 19 tools/vm/kernels/build -q --preset "$p" \
			>"$logs/kernel-$p.log" 2>&1
	done
}
prebuild=()
[ "${TEMPO_CHECK_DEBUG_KERNEL:-1}" = 0 ] || prebuild+=(debug)
[ "${TEMPO_CHECK_LTS_KERNEL:-1}" = 0 ] || prebuild+=(lts)
if [ "$module_ok" = 1 ] && [ ${#prebuild[@]} -gt 0 ]; then
	mkdir -p "$logs"
	prebuild_kernels "${prebuild[@]}" &
fi

# The install test and the build gates need no VM: they run on the host
# from the start of the VM's suites, as SCHED_IDLE tasks (chrt -i): they
# take only the CPU time that the VM and the kernel builds leave, which
# is little until the kernels are built, but then fills the gaps (a
# kernel's last link steps run on one core). The end of this script
# waits for them, shows and counts them.
host_pid=
start_host_checks() {
	local idle=(nice -n 19)
	[ -z "$host_pid" ] || return 0
	! command -v chrt >/dev/null || idle=(chrt -i 0)
	mkdir -p "$logs"
	rm -f "$logs/install.seconds" "$logs/gates.seconds"
	{
		t0=$(date +%s)
		[ ! -x tests/install/run.sh ] ||
			"${idle[@]}" tests/install/run.sh >"$logs/install.out" 2>&1
		t1=$(date +%s)
		echo $((t1 - t0)) >"$logs/install.seconds"
		"${idle[@]}" scripts/gates.sh >"$logs/gates.out" 2>&1
		echo $(($(date +%s) - t1)) >"$logs/gates.seconds"
	} &
	host_pid=$!
}

# The uAPI programs the production suite runs through the kselftest tree's
# run_kselftest.sh, as kernel CI would (query also as the unprivileged
# user): two short ones, 129 tests, for under TCG the runner makes a
# program take two to four times as long (query 9.0 s alone, 15.8 s
# through it, exec_bad 6.4 and 27.3 s, on a loaded host). The others run
# directly, and none runs twice.
ksft_only=(--kselftest-only query --kselftest-only vm)

if [ "$module_ok" = 1 ]; then
	start_host_checks
	vm_suite production ${modparams:+--modparams "$modparams"} -- \
		${ksft_dir:+--kselftest "$ksft_dir" "${ksft_only[@]}"} \
		--discover --exclude "$debug_only" --exclude '*_unit_test' \
		"$probe" ${igt_dir:+"tests/guest/igt.sh --name production $igt_dir"} \
		${igt_dir:+"tests/guest/gputop.sh $igt_dir"} tests/guest/rfc-latency.sh \
		tests/guest/bench-smoke.sh tests/guest/vr-scenario.sh
	# The scheduling tests again with the other HQD policy, the random
	# CU sequencer, and a DRM master as privileged as CAP_SYS_NICE.
	vm_suite dynamic-hqd --modparams "hqd_policy=1 cu_by_priority=0 master_priority=1 $modparams" -- \
		"$probe" build/cmake/tests/uapi/priority build/cmake/tests/uapi/sched \
		build/cmake/tests/uapi/exec build/cmake/tests/uapi/reset build/cmake/tests/uapi/trace \
		build/cmake/tests/uapi/parallel build/cmake/tests/uapi/crowd \
		"build/cmake/tests/uapi/hostile -r device.query_hqds_shows_live_priorities_to_privileged_callers_only -r device.master_of_the_card_node_raises_priority_with_master_priority"
	harness_boot_checks
	stress_suite stress 50 12 6 2 waits
	debug_suite
	lts_suite
elif compgen -G 'drivers/gpu/drm/tempo/*.c' >/dev/null; then
	echo "check: the module did not build; not booting the VM"
else
	skip_step "no driver sources: nothing to run in the VM"
fi

# --- install test and build gates (started above, on the host) -------------
# The install test: DKMS in temporary trees, make install into a staging
# directory and programs built against it: one pass or failure per step.
# Then the DKMS part runs again in the VM, which loads the module it built
# (about 5 minutes under TCG; only with TEMPO_CHECK_INSTALL_VM=1). The
# gates: scripts/gates.sh, one pass or failure per gate.

# host_section NAME: the section's time is the time NAME took in the
# background (build/check/NAME.seconds); its TAP output is kept as
# out/NAME.ktap.
host_section() {
	sec_secs[sec]=$(cat "$logs/$1.seconds" 2>/dev/null)
	[ ! -f "$logs/$1.out" ] || cp "$logs/$1.out" "$out/$1.ktap"
}

start_host_checks
wait "$host_pid"

section "install test (tests/install/run.sh)"
if [ -x tests/install/run.sh ]; then
	host_section install
	install_out=$(cat "$logs/install.out" 2>/dev/null)
	echo "$install_out"
	count_tap "tests/install/run.sh" "$install_out"
	if [ "${TEMPO_CHECK_INSTALL_VM:-0}" = 1 ]; then
		section "install test in the VM (tests/install/run.sh --dkms-only --load)"
		mkdir -p "$logs/install-vm"
		rm -f "$logs/install-vm/last-output.log"
		tools/vm/run "${vm_args[@]}" --no-module --log-dir "$logs/install-vm" -- \
			tests/install/run.sh --dkms-only --load >/dev/null
		install_out=$(cat "$logs/install-vm/last-output.log" 2>/dev/null)
		echo "$install_out"
		count_tap "tests/install/run.sh in the VM" "$install_out"
	fi
else
	skip_step "no tests/install/run.sh"
fi

section "build gates (scripts/gates.sh)"
host_section gates
gates_out=$(cat "$logs/gates.out" 2>/dev/null)
echo "$gates_out"
count_tap "scripts/gates.sh" "$gates_out"

# --- summary ----------------------------------------------------------------
# summary_agrees FILE: whether FILE is JSON whose totals, and the sums of
# its sections, are those of the last line.
summary_agrees() {
	python3 - "$1" "$passed" "$failed" "$skipped" <<'EOF'
import json
import sys

summary = json.load(open(sys.argv[1]))
line = [int(n) for n in sys.argv[2:5]]
keys = ("passed", "failed", "skipped")
totals = [summary[k] for k in keys]
sums = [sum(s[k] for s in summary["sections"]) for k in keys]
if totals != line or sums != line:
    print(f"check: summary.json says {totals}, its sections {sums}, the last line {line}")
    sys.exit(1)
EOF
}

# write_summary: build/check/summary.json (scripts/check-summary.sh) from
# each section's counts and time (build/check/sections.tsv) and the
# failed steps; fails unless it agrees with the last line.
write_summary() {
	local i t now
	now=$(date +%s)
	for i in "${!sec_names[@]}"; do
		if [ -n "${sec_secs[i]:-}" ]; then
			t=${sec_secs[i]}
		elif [ "$i" -lt "$sec" ]; then
			t=$((sec_t0[i + 1] - sec_t0[i]))
		else
			t=$((now - sec_t0[i]))
		fi
		printf '%s\t%s\t%s\t%s\t%s\n' "${sec_names[i]}" "${sec_pass[i]}" \
			"${sec_fail[i]}" "${sec_skip[i]}" "$t"
	done >"$logs/sections.tsv"
	: >"$logs/failures.txt"
	[ ${#failures[@]} = 0 ] || printf '%s\n' "${failures[@]}" >"$logs/failures.txt"
	scripts/check-summary.sh --seconds $((now - t_start)) "$logs/sections.tsv" \
		"$logs/failures.txt" >"$logs/summary.json" &&
		summary_agrees "$logs/summary.json"
}

failed=$((failed + ${#failures[@]}))
section "summary"
if [ "$passed" = 0 ] && [ "$failed" = 0 ]; then
	fail_step "nothing was tested"
	failed=1
fi
if ! write_summary; then
	fail_step "$logs/summary.json is missing or disagrees with the totals"
	failed=$((failed + 1))
	write_summary
fi
for s in "${skips[@]}"; do echo "  skipped: $s"; done
for f in "${failures[@]}"; do echo "  FAILED:  $f"; done
for d in "${details[@]}"; do echo "    $d"; done
echo "results: $logs/summary.json, $out/*.ktap, $out/junit-*.xml"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
