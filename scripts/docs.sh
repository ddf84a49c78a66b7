#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "make docs": build Documentation/ to HTML in build/docs/ with Sphinx
# (Debian's python3-sphinx), warnings being errors. The kernel-doc
# comments of the uAPI header and the driver come in through the kernel's
# kernel-doc extension, unpacked from linux-source-6.12.
#
# Environment: SPHINXBUILD (default sphinx-build), SPHINXOPTS (more options).
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
out=$repo/build/docs

tree=$(scripts/linux-source.sh)

# -E: read every page again, so that warnings are never hidden by a
# previous build; -n: warn about broken references too.
# shellcheck disable=SC2086
TEMPO_LINUX_SOURCE=$tree ${SPHINXBUILD:-sphinx-build} -b html -W --keep-going \
	-n -E -q -d "$repo/build/docs-doctrees" ${SPHINXOPTS:-} Documentation "$out"
echo "docs: $out/index.html"
