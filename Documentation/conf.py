# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration of the tempo documentation ("make docs", which runs
# scripts/docs.sh). The kernel-doc directive is the kernel's own Sphinx
# extension, Documentation/sphinx/kerneldoc.py, with its scripts/kernel-doc,
# both from Debian's linux-source-6.12 as scripts/linux-source.sh unpacks it.

import os
import re
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_repo = os.path.dirname(_here)
_kernel = os.environ.get('TEMPO_LINUX_SOURCE',
                         os.path.join(_repo, 'build', 'linux-source',
                                      'linux-source-6.12'))
sys.path.insert(0, os.path.join(_kernel, 'Documentation', 'sphinx'))


def _version():
    """tempo's version: the top-level VERSION, one MAJOR.MINOR.PATCH line."""
    with open(os.path.join(_repo, 'VERSION'), encoding='utf-8') as f:
        m = re.fullmatch(r'(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){2}\n', f.read())
    if not m:
        raise ValueError('VERSION holds no single MAJOR.MINOR.PATCH line')
    return m.group(0).strip()


project = 'tempo'
author = 'The tempo authors'
copyright = '2026, The tempo authors'
version = release = _version()

extensions = ['kerneldoc']
kerneldoc_bin = os.path.join(_kernel, 'scripts', 'kernel-doc')
kerneldoc_srctree = _repo
# kernel-doc's own warnings are a gate of scripts/gates.sh; show them here too.
kerneldoc_verbosity = 1

master_doc = 'index'
exclude_patterns = ['examples']
highlight_language = 'none'
primary_domain = 'c'
# Attributes kernel-doc leaves in declarations, for the C domain.
c_id_attributes = ['__user', '__iomem', '__must_check', '__always_inline',
                   '__maybe_unused', 'noinline', 'inline']

html_theme = 'alabaster'
html_title = 'tempo %s' % release
html_show_sourcelink = False

# -n (scripts/docs.sh) reports references to undocumented names. kernel-doc
# turns every %CONSTANT into one; the ioctl numbers and the like are
# macros without a kernel-doc comment of their own, so upper-case names
# are let through, and so are the kernel's fixed-size integer types (s32,
# u64, ...) and its DRM and dma-buf structures (drm_sched_entity,
# dma_resv, ...) that inline functions of the headers return, which these
# pages do not define. tempo's own structures, enums and functions, the
# uAPI's drm_tempo_* included, still count.
nitpick_ignore_regex = [(r'c:.*', r'[A-Z][A-Z0-9_]*'),
                        (r'c:identifier', r'[su](8|16|32|64)'),
                        (r'c:identifier', r'(dma_|drm_(?!tempo_))\w+')]
