# SPDX-License-Identifier: MIT
#
# Writes tempo.pc at install time, from the TEMPO_PC_* variables set by the
# install script of the top-level CMakeLists.txt.

function(tempo_write_pc template output)
    foreach(kind LIBDIR INCLUDEDIR)
        if(IS_ABSOLUTE "${TEMPO_PC_${kind}}")
            set(TEMPO_PC_${kind}_FULL "${TEMPO_PC_${kind}}")
        else()
            set(TEMPO_PC_${kind}_FULL "\${prefix}/${TEMPO_PC_${kind}}")
        endif()
    endforeach()
    configure_file("${template}" "${output}" @ONLY)
endfunction()
