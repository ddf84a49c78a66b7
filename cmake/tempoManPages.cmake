# SPDX-License-Identifier: MIT
#
# The manual pages: the installed tools' (section 1), libtempo(3) and
# tempo(4), written by Sphinx's man builder (Debian: python3-sphinx) from
# the pages of Documentation/man/ that the HTML documentation shows too
# (man_pages in Documentation/conf.py). Built with the tools, without the
# kernel source (the pages show no kernel-doc), and installed in
# ${CMAKE_INSTALL_MANDIR}/man1, man3 and man4.

set(TEMPO_MAN_PAGES
    man1/tempo-top.1 man1/tempo-info.1 man1/tempo-bench.1 man1/tempo-demo.1
    man3/libtempo.3
    man4/tempo.4)

# Debian's, whose Python has Sphinx: not one of another Python first in PATH.
find_program(TEMPO_SPHINX_BUILD sphinx-build PATHS /usr/bin NO_DEFAULT_PATH)
find_program(TEMPO_SPHINX_BUILD sphinx-build)

if(TEMPO_SPHINX_BUILD)
    set(_tempo_man_dir ${PROJECT_BINARY_DIR}/man)
    list(TRANSFORM TEMPO_MAN_PAGES PREPEND ${_tempo_man_dir}/
        OUTPUT_VARIABLE _tempo_man_files)
    # Every page: the manual pages name others' titles.
    file(GLOB_RECURSE _tempo_man_sources CONFIGURE_DEPENDS
        ${PROJECT_SOURCE_DIR}/Documentation/*.rst
        ${PROJECT_SOURCE_DIR}/Documentation/examples/*)
    # -E reads every page again, so that warnings are never hidden by a
    # previous build; -W: they are errors.
    add_custom_command(OUTPUT ${_tempo_man_files}
        COMMAND ${TEMPO_SPHINX_BUILD} -b man -W --keep-going -E -q
            -d ${PROJECT_BINARY_DIR}/man-doctrees
            ${PROJECT_SOURCE_DIR}/Documentation ${_tempo_man_dir}
        DEPENDS ${PROJECT_SOURCE_DIR}/Documentation/conf.py ${_tempo_man_sources}
        COMMENT "Manual pages"
        VERBATIM)
    add_custom_target(tempo-man-pages ALL DEPENDS ${_tempo_man_files})
    foreach(page ${TEMPO_MAN_PAGES})
        get_filename_component(section ${page} DIRECTORY)
        install(FILES ${_tempo_man_dir}/${page}
            DESTINATION ${CMAKE_INSTALL_MANDIR}/${section})
    endforeach()
else()
    message(WARNING "tempo: sphinx-build not found (python3-sphinx), the manual pages are not built")
endif()
