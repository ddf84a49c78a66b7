# SPDX-License-Identifier: MIT
#
# The tools' manual pages (section 1), made from Documentation/tools.rst by
# scripts/man-pages.py with docutils (Debian: python3-docutils), built with
# the tools and installed in ${CMAKE_INSTALL_MANDIR}/man1.

set(TEMPO_MAN_TOOLS tempo-top tempo-info tempo-bench tempo-demo)

# Debian's python3 first: its docutils is the package's.
find_package(Python3 COMPONENTS Interpreter)
set(TEMPO_MAN_PYTHON "")
foreach(python /usr/bin/python3 ${Python3_EXECUTABLE})
    execute_process(COMMAND ${python} -c "import docutils.writers.manpage"
        RESULT_VARIABLE status OUTPUT_QUIET ERROR_QUIET)
    if(status EQUAL 0)
        set(TEMPO_MAN_PYTHON ${python})
        break()
    endif()
endforeach()

if(TEMPO_MAN_PYTHON)
    set(TEMPO_MAN_PAGES "")
    foreach(tool ${TEMPO_MAN_TOOLS})
        list(APPEND TEMPO_MAN_PAGES ${PROJECT_BINARY_DIR}/man/${tool}.1)
    endforeach()
    add_custom_command(OUTPUT ${TEMPO_MAN_PAGES}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
        COMMAND ${TEMPO_MAN_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/man-pages.py
            ${PROJECT_SOURCE_DIR}/Documentation/tools.rst ${PROJECT_BINARY_DIR}/man
            ${PROJECT_VERSION} ${TEMPO_MAN_TOOLS}
        DEPENDS ${PROJECT_SOURCE_DIR}/Documentation/tools.rst
            ${PROJECT_SOURCE_DIR}/scripts/man-pages.py
        COMMENT "Manual pages of the tools")
    add_custom_target(tempo-man-pages ALL DEPENDS ${TEMPO_MAN_PAGES})
    install(FILES ${TEMPO_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
    message(WARNING "tempo: docutils not found (python3-docutils), the manual pages are not built")
endif()
