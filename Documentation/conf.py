# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration of the tempo documentation: the HTML of "make docs"
# (scripts/docs.sh) and the manual pages (the man builder, run by
# cmake/tempoManPages.cmake). The kernel-doc directive is the kernel's own
# Sphinx extension, Documentation/sphinx/kerneldoc.py, with its
# scripts/kernel-doc, both from Debian's linux-source-6.12 as
# scripts/linux-source.sh unpacks it; the manual pages show no kernel-doc
# and are built without it.

import os
import re
import sys

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx import addnodes
from sphinx.errors import ConfigError
from sphinx.transforms.post_transforms import SphinxPostTransform

_here = os.path.dirname(os.path.abspath(__file__))
_repo = os.path.dirname(_here)
_kernel = os.environ.get('TEMPO_LINUX_SOURCE',
                         os.path.join(_repo, 'build', 'linux-source',
                                      'linux-source-6.12'))
_kernel_sphinx = os.path.join(_kernel, 'Documentation', 'sphinx')
_have_kerneldoc = os.path.isfile(os.path.join(_kernel_sphinx, 'kerneldoc.py'))
sys.path.insert(0, _kernel_sphinx)


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

extensions = ['kerneldoc'] if _have_kerneldoc else []
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

# The manual pages, (document, section): every tool "cmake --install"
# installs (section 1), libtempo (3) and the module (4). A page's NAME
# section, "name - what it is", gives its name and the line the man
# builder writes under NAME; the section itself is left out of the manual
# page (_ManNameSection), so that NAME comes once. tests/install/run.sh
# checks that every installed tool has its page.
_man_sources = [('man/tempo-top', 1), ('man/tempo-info', 1),
                ('man/tempo-bench', 1), ('man/tempo-demo', 1),
                ('man/libtempo', 3), ('man/tempo', 4)]


def _man_page(docname, section):
    """The man_pages entry of a document, from its NAME section."""
    with open(os.path.join(_here, docname + '.rst'), encoding='utf-8') as f:
        m = re.search(r'^NAME\n=+\n\n(.+?)\n\n', f.read(), re.M | re.S)
    if not m or ' - ' not in m.group(1):
        raise ConfigError('%s.rst: no NAME section "name - what it is"' % docname)
    name, description = ' '.join(m.group(1).split()).split(' - ', 1)
    return (docname, name, description, [], section)


man_pages = [_man_page(doc, section) for doc, section in _man_sources]
man_make_section_directory = True


class _ManNameSection(SphinxPostTransform):
    """Leaves a manual page's NAME section out: the man builder writes it."""
    builders = ('man',)
    default_priority = 900

    def run(self, **kwargs):
        for top in self.document.children:
            if not isinstance(top, nodes.section):
                continue
            for section in top.children:
                if isinstance(section, nodes.section) and \
                        section[0].astext() == 'NAME':
                    top.remove(section)
                    return


class _ManDocReference(SphinxPostTransform):
    """A manual page's reference to a page that is no manual page: its
    title "in tempo's documentation", where no link can be followed."""
    builders = ('man',)
    default_priority = 5  # before the references are resolved

    def run(self, **kwargs):
        pages = {doc for doc, _, _, _, _ in man_pages}
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get('reftype') != 'doc':
                continue
            doc = os.path.normpath(os.path.join(
                os.path.dirname(node['refdoc']), node['reftarget']))
            if doc in pages or doc not in self.env.titles:
                continue
            title = self.env.titles[doc].astext()
            node.replace_self(nodes.Text('"%s" in tempo\'s documentation' % title))


class _NoKernelDoc(Directive):
    """kernel-doc in the manual pages: nothing, none of them shows it."""
    required_arguments = 1
    optional_arguments = 0
    final_argument_whitespace = True
    has_content = False
    option_spec = dict.fromkeys(['doc', 'export', 'internal', 'identifiers',
                                 'no-identifiers', 'functions'],
                                directives.unchanged)

    def run(self):
        return []


def _builder_inited(app):
    if app.builder.name == 'man':
        app.add_directive('kernel-doc', _NoKernelDoc, override=True)
    elif not _have_kerneldoc:
        raise ConfigError('kernel-doc: no %s/kerneldoc.py (TEMPO_LINUX_SOURCE; '
                          'scripts/docs.sh unpacks it)' % _kernel_sphinx)


def setup(app):
    app.add_post_transform(_ManNameSection)
    app.add_post_transform(_ManDocReference)
    app.connect('builder-inited', _builder_inited)
