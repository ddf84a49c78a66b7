# SPDX-License-Identifier: GPL-2.0-only
#
# Which tempo module to load, with which parameters, and how: sourced by
# the guest scripts that unload and reload it (module-cycles.sh,
# module-reload.sh), as root in the test VM.
#
# In: module_arg (a module's path, or empty), TEMPO_MODULE,
# TEMPO_MODPARAMS, TEMPO_MODULE_NAME, BB (busybox, or empty).
# Out: module (empty when there is none to load), name, params (the
# given parameters, else the VM's), vm_params (those tools/vm/run loaded
# it with), and the functions loaded, refcnt, unload and load.
# The module is MODULE.ko, else $TEMPO_MODULE, else the copy named in the
# VM's job file (kernel parameter tempovm_xfer=DIR, file DIR/job).

module=${module_arg:-${TEMPO_MODULE:-}}
params=${TEMPO_MODPARAMS:-}
given_params=${TEMPO_MODPARAMS+set}
vm_params=
if [ -z "$module" ]; then
	xfer=
	for w in $(</proc/cmdline); do
		case $w in tempovm_xfer=*) xfer=${w#tempovm_xfer=} ;; esac
	done
	if [ -n "$xfer" ] && [ -r "$xfer/job" ]; then
		# The job file is written with printf %q: safe to source.
		# shellcheck source=/dev/null
		. <(grep -E '^TEMPO_(MODULE|MODPARAMS)=' "$xfer/job")
		module=${TEMPO_MODULE:-}
		vm_params=${TEMPO_MODPARAMS:-}
		[ -n "$given_params" ] || params=$vm_params
	fi
fi
if [ -z "$module" ] || [ ! -r "$module" ]; then
	module=
	return 0
fi
name=${TEMPO_MODULE_NAME:-}
if [ -z "$name" ]; then
	name=${module##*/}
	name=${name%%.ko*}
	name=${name//-/_}
fi

loaded() { grep -q "^$name " /proc/modules; }
refcnt() { cat "/sys/module/$name/refcnt" 2>/dev/null || echo '?'; }

# The kernel's own answer, not kmod's refcount check: busybox calls
# delete_module() directly.
unload() {
	if [ -n "$BB" ]; then
		$BB rmmod "$name" 2>&1
	else
		rmmod "$name" 2>&1
	fi
}

# load [PARAMS]: with $params by default.
load() {
	local out p=${1-$params}
	# shellcheck disable=SC2086
	if [ -n "$BB" ]; then
		out=$($BB insmod "$module" $p 2>&1)
	else
		out=$(insmod "$module" $p 2>&1)
	fi || { echo "insmod: $out"; return 1; }
	for _ in $(seq 100); do
		compgen -G '/dev/dri/renderD*' >/dev/null && break
		sleep 0.05
	done
	compgen -G '/dev/dri/renderD*' >/dev/null || { echo "no render node"; return 1; }
	command -v fix-dri-perms >/dev/null && fix-dri-perms
	return 0
}

