#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Device-free tests of the driver's probe pass (compat/conftest.sh), over
# fake probes and a fake compiler that compiles a probe when it says
# "compiles", and a check of the real probes' headers. Prints TAP;
# scripts/check.sh runs it on the host.
#
#   tests/check/conftest.sh
set -u

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
compat=drivers/gpu/drm/tempo/compat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# result NAME STATUS, counting in n and failed.
# shellcheck source=SCRIPTDIR/../lib/tap.sh
. "$repo/tests/lib/tap.sh"

# A compiler that compiles the probe (its last argument) when it says so.
cat >"$tmp/cc" <<'EOF'
#!/bin/sh
for last; do :; done
grep -q compiles "$last" && exit 0
echo "$last: error: fake compiler error" >&2
exit 1
EOF
chmod +x "$tmp/cc"

# probe NAME SET compiles|fails: a fake probe in the copy's probes/.
probe() {
	{
		echo "/*"
		[ -z "$2" ] || echo " * Set: $2"
		echo " */"
		echo "/* $3 */"
	} >"$tmp/compat/probes/$1.c"
}

# conftest: run the copy's probe pass; its output in $tmp/out.
conftest() {
	rm -f "$tmp/gen.h"
	"$tmp/compat/conftest.sh" "$tmp/gen.h" "$tmp/cc" -O2 >"$tmp/out" 2>&1
}

fresh() {
	rm -rf "$tmp/compat"
	mkdir -p "$tmp/compat/probes"
	cp "$compat/conftest.sh" "$tmp/compat/"
}

one_member_of_each_set_defines_what_compiles() {
	fresh
	probe api_new api compiles
	probe api_old api fails
	probe feature "" fails
	conftest || { cat "$tmp/out"; return 1; }
	grep -qx '#define TEMPO_HAVE_API_NEW 1' "$tmp/gen.h" &&
		grep -qx '/\* #undef TEMPO_HAVE_API_OLD \*/' "$tmp/gen.h" &&
		grep -qx '/\* #undef TEMPO_HAVE_FEATURE \*/' "$tmp/gen.h"
}

a_set_with_no_member_fails_the_build_and_names_the_logs() {
	fresh
	probe api_new api fails
	probe api_old api fails
	conftest && return 1
	[ ! -e "$tmp/gen.h" ] &&
		grep -q "no probe of set 'api' compiles: api_new api_old" "$tmp/out" &&
		grep -q "fake compiler error" "$tmp/gen.h.d/api_new.log"
}

a_set_with_two_members_fails_the_build() {
	fresh
	probe api_new api compiles
	probe api_old api compiles
	conftest && return 1
	[ ! -e "$tmp/gen.h" ] &&
		grep -q "set 'api' has more than one API: api_new api_old" "$tmp/out"
}

every_probe_names_its_upstream_change_and_debian_kernels() {
	local p bad=0
	for p in "$compat"/probes/*.c; do
		grep -q '^ \* Upstream: ' "$p" && grep -q '^ \* Debian: ' "$p" &&
			continue
		echo "# $p: no Upstream: or Debian: line"
		bad=1
	done
	return $bad
}

every_probe_is_used_by_the_shims() {
	local p name bad=0
	for p in "$compat"/probes/*.c; do
		name=TEMPO_HAVE_$(basename "$p" .c | tr 'a-z' 'A-Z')
		grep -q "Set:" "$p" && continue # the alternatives of a shim
		grep -qw "$name" "$compat"/tempo_compat.[ch] && continue
		echo "# $p: $name is not used in $compat"
		bad=1
	done
	return $bad
}

no_driver_file_tests_a_probe() {
	! git grep -n 'TEMPO_HAVE_' -- 'drivers/gpu/drm/tempo' \
		":!$compat" | sed 's/^/# /' | grep .
}

for t in one_member_of_each_set_defines_what_compiles \
	a_set_with_no_member_fails_the_build_and_names_the_logs \
	a_set_with_two_members_fails_the_build \
	every_probe_names_its_upstream_change_and_debian_kernels \
	every_probe_is_used_by_the_shims \
	no_driver_file_tests_a_probe; do
	"$t"
	result "$t" $?
done
echo "1..$n"
[ "$failed" = 0 ]
