# The real kernel headers of a tree, on the fake arch "nicsim" (docs/driver-build.md, "Real
# kernel headers"). Per kernel tree, at configure time, into <build>/kernel/real-headers/<series>:
#   arch/asm/*.h, arch/uapi/asm/*.h   one-line wrappers to <asm-generic/...> for every header the
#                                     tree's include/asm-generic/Kbuild (and its uapi one) makes
#                                     mandatory and kernel/arch/ does not shadow, as Kbuild
#                                     generates them for an arch
#   include/generated/autoconf.h      kernel/arch/nicsim.config as the kernel writes a .config
#   include/generated/timeconst.h     kernel/time/timeconst.bc of the tree, run by bc
#   include/generated/bounds.h        kernel/bounds.c of the tree, compiled to assembly, its
#                                     "->NAME value" markers read back (as Kbuild does)
# and defines the INTERFACE library nicsim_real_headers_<c> (<c> = the series as a C
# identifier): the include order and forced includes of a kernel build plus the kernel C flags,
# and NICSIM_REAL_KERNEL_HEADERS, for C compiled against that tree's headers.

# This module's folder (inside a function CMAKE_CURRENT_LIST_DIR is the caller's).
set(NICSIM_KERNEL_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(NICSIM_ARCH_DIR "${CMAKE_CURRENT_LIST_DIR}/../arch" ABSOLUTE)
# The real headers' replacements where time, scheduling, IRQs, memory or I/O must be lx_kit's:
# first on the include path, each including the tree's own header where it only adjusts it.
get_filename_component(NICSIM_SHADOW_DIR "${CMAKE_CURRENT_LIST_DIR}/../shadow" ABSOLUTE)
# asm headers an arch provides itself whose asm-generic version fits nicsim unchanged (Kbuild's
# generic-y): wrappers like the mandatory ones.
set(NICSIM_ARCH_GENERIC_Y cache.h cmpxchg.h extable.h)

# Writes <text> to <path> only when it differs, so an unchanged header rebuilds nothing.
function(_nicsim_write_if_changed path text)
    file(WRITE "${path}.tmp" "${text}")
    file(COPY_FILE "${path}.tmp" "${path}" ONLY_IF_DIFFERENT)
    file(REMOVE "${path}.tmp")
endfunction()

# autoconf.h text from kernel/arch/nicsim.config.
function(_nicsim_autoconf out)
    file(STRINGS "${NICSIM_ARCH_DIR}/nicsim.config" lines REGEX "^[A-Z0-9_]+=")
    set(text "/* Generated from kernel/arch/nicsim.config — do not edit. */\n")
    foreach(l IN LISTS lines)
        string(REGEX MATCH "^([A-Z0-9_]+)=(.*)$" _ "${l}")
        set(v "${CMAKE_MATCH_2}")
        if(v STREQUAL "y")
            set(v 1)
        endif()
        string(APPEND text "#define CONFIG_${CMAKE_MATCH_1} ${v}\n")
    endforeach()
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Wrappers <dir>/<h> = #include <asm-generic/<h>> for every <h> of <kbuild>'s mandatory-y (plus
# <extra>) that has an asm-generic file and no shadow in <shadow_dir>.
function(_nicsim_asm_wrappers kbuild generic_dir shadow_dir dir)
    file(STRINGS "${kbuild}" lines REGEX "^mandatory-y \\+= ")
    set(names ${ARGN})
    foreach(l IN LISTS lines)
        string(REGEX REPLACE "^mandatory-y \\+= ([^ ]+).*$" "\\1" h "${l}")
        list(APPEND names "${h}")
    endforeach()
    file(MAKE_DIRECTORY "${dir}")
    foreach(h IN LISTS names)
        if(EXISTS "${shadow_dir}/${h}")
            file(REMOVE "${dir}/${h}") # a wrapper from before the shadow was written
        elseif(EXISTS "${generic_dir}/${h}")
            _nicsim_write_if_changed("${dir}/${h}" "#include <asm-generic/${h}>\n")
        endif()
    endforeach()
endfunction()

# generated/timeconst.h: the tree's kernel/time/timeconst.bc for <hz>, run by bc.
function(_nicsim_timeconst ksrc gen hz)
    set(generated "${gen}/include/generated")
    find_program(NICSIM_BC bc)
    if(NOT NICSIM_BC)
        message(FATAL_ERROR "nicsim: bc not found: the real kernel headers need it for "
                            "include/generated/timeconst.h (scripts/install-deps.sh installs it)")
    endif()
    file(WRITE "${gen}/hz.txt" "${hz}\n")
    execute_process(COMMAND "${NICSIM_BC}" -q "${ksrc}/kernel/time/timeconst.bc"
                    INPUT_FILE "${gen}/hz.txt" OUTPUT_VARIABLE timeconst RESULT_VARIABLE rc
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT timeconst MATCHES "HZ_TO_MSEC_NUM")
        message(FATAL_ERROR "nicsim: bc ${ksrc}/kernel/time/timeconst.bc failed:\n${err}")
    endif()
    _nicsim_write_if_changed("${generated}/timeconst.h" "${timeconst}")
endfunction()

# generated/bounds.h: the tree's kernel/bounds.c compiled to assembly with <flags>, its
# "->NAME value" markers read back as Kbuild does.
function(_nicsim_bounds ksrc gen flags)
    set(generated "${gen}/include/generated")
    execute_process(COMMAND "${CMAKE_C_COMPILER}" ${flags} ${NICSIM_KERNEL_C_FLAGS}
                            -DKBUILD_MODNAME="bounds" -S "${ksrc}/kernel/bounds.c" -o "${gen}/bounds.s"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "nicsim: kernel/bounds.c of ${ksrc} does not compile on the fake "
                            "arch (kernel/arch/):\n${err}")
    endif()
    file(STRINGS "${gen}/bounds.s" markers REGEX "\"->")
    set(bounds "/* Generated from kernel/bounds.c of the tree — do not edit. */\n")
    string(APPEND bounds "#ifndef __LINUX_BOUNDS_H__\n#define __LINUX_BOUNDS_H__\n")
    foreach(m IN LISTS markers)
        if(m MATCHES "\"->([A-Za-z0-9_]+) [$#]?([^ ]+) (.*)\"")
            string(APPEND bounds "#define ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} /* ${CMAKE_MATCH_3} */\n")
        endif()
    endforeach()
    string(APPEND bounds "#endif\n")
    _nicsim_write_if_changed("${generated}/bounds.h" "${bounds}")
endfunction()

# nicsim_real_headers(<series> <kernel tree dir>)
function(nicsim_real_headers series ksrc)
    string(MAKE_C_IDENTIFIER "${series}" c)
    set(gen "${CMAKE_BINARY_DIR}/kernel/real-headers/${series}")
    _nicsim_asm_wrappers("${ksrc}/include/asm-generic/Kbuild" "${ksrc}/include/asm-generic"
                         "${NICSIM_ARCH_DIR}/include/asm" "${gen}/arch/asm" ${NICSIM_ARCH_GENERIC_Y})
    _nicsim_asm_wrappers("${ksrc}/include/uapi/asm-generic/Kbuild" "${ksrc}/include/uapi/asm-generic"
                         "${NICSIM_ARCH_DIR}/uapi/asm" "${gen}/arch/uapi/asm")
    set(generated "${gen}/include/generated")
    file(MAKE_DIRECTORY "${generated}")
    file(GLOB_RECURSE arch_headers "${NICSIM_ARCH_DIR}/*.h" "${NICSIM_SHADOW_DIR}/*.h")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${arch_headers})
    _nicsim_autoconf(autoconf)
    _nicsim_write_if_changed("${generated}/autoconf.h" "${autoconf}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${NICSIM_ARCH_DIR}/nicsim.config")
    if(NOT autoconf MATCHES "#define CONFIG_HZ ([0-9]+)")
        message(FATAL_ERROR "kernel/arch/nicsim.config: no HZ=<ticks per second>")
    endif()
    set(hz "${CMAKE_MATCH_1}")

    _nicsim_timeconst("${ksrc}" "${gen}" "${hz}")

    execute_process(COMMAND "${CMAKE_C_COMPILER}" -print-file-name=include
                    OUTPUT_VARIABLE cc_include OUTPUT_STRIP_TRAILING_WHITESPACE)
    # Joined forms (-I<dir>, -include<file>): CMake folds repeated separate option words.
    set(flags -nostdinc "-isystem${cc_include}" -D__KERNEL__ "-I${NICSIM_SHADOW_DIR}"
        "-I${NICSIM_ARCH_DIR}/include" "-I${gen}/arch" "-I${ksrc}/include"
        "-I${NICSIM_ARCH_DIR}/uapi" "-I${gen}/arch/uapi" "-I${ksrc}/include/uapi"
        "-I${gen}/include"
        "-include${ksrc}/include/linux/compiler-version.h"
        "-include${ksrc}/include/linux/kconfig.h"
        "-include${ksrc}/include/linux/compiler_types.h")

    _nicsim_bounds("${ksrc}" "${gen}" "${flags}")

    add_library(nicsim_real_headers_${c} INTERFACE)
    target_compile_options(nicsim_real_headers_${c} INTERFACE
        "$<$<COMPILE_LANGUAGE:C>:${flags};${NICSIM_KERNEL_C_FLAGS}>")
    # Tells project headers both sides include (lx_kit/lx_kit.h) that there is no C library.
    target_compile_definitions(nicsim_real_headers_${c} INTERFACE
        "$<$<COMPILE_LANGUAGE:C>:NICSIM_REAL_KERNEL_HEADERS>")
endfunction()

# nicsim_driver_real_headers(<driver> <series> <emulation library>...): compiles the driver's
# files of that tree against the tree's headers (object library nicsim_rh_<c>_<driver>) and
# writes <build>/kernel/real-headers/<series>/<driver>.gap.txt: the functions and variables they
# reference that no emulation library (nor the C library) defines by name, found as the
# generated dummies are (gen_dummies.sh). The driver's REACHES names go to the global property
# NICSIM_REAL_HEADERS_REACH for the tests.
function(nicsim_driver_real_headers driver series)
    string(MAKE_C_IDENTIFIER "${series}" c)
    set(kdir "${NICSIM_KSRC_DIR_${c}}/${NICSIM_DRIVER_${driver}_KDIR}")
    set(srcs "")
    foreach(entry IN LISTS NICSIM_DRIVER_${driver}_SOURCES)
        string(REGEX REPLACE "=.*$" "" f "${entry}")
        list(APPEND srcs "${kdir}/${f}")
    endforeach()
    set(t nicsim_rh_${c}_${driver})
    add_library(${t} OBJECT ${srcs})
    target_link_libraries(${t} PRIVATE nicsim_real_headers_${c})
    target_compile_definitions(${t} PRIVATE "KBUILD_BASENAME=\"${driver}\""
        "KBUILD_MODFILE=\"${NICSIM_DRIVER_${driver}_KDIR}/${driver}\"")
    set(gen "${CMAKE_BINARY_DIR}/kernel/real-headers/${series}")
    set(libs "")
    foreach(l IN LISTS ARGN)
        list(APPEND libs "$<TARGET_FILE:${l}>")
    endforeach()
    # One relocatable object first (as a variant is linked), so the driver's files resolve each
    # other.
    add_custom_command(OUTPUT "${gen}/${driver}.gap.txt"
        COMMAND ${CMAKE_LINKER} -r $<TARGET_OBJECTS:${t}> -o "${gen}/${driver}.o"
        COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
                "${NICSIM_KERNEL_CMAKE_DIR}/gen_dummies.sh" "${gen}/${driver}.gap.c"
                "${gen}/${driver}.gap.txt" --defined ${libs} --undefined "${gen}/${driver}.o"
        DEPENDS ${t} $<TARGET_OBJECTS:${t}> ${ARGN} "${NICSIM_KERNEL_CMAKE_DIR}/gen_dummies.sh"
        COMMENT "Listing what ${driver} (kernel ${series}, real headers) needs from the emulation"
        COMMAND_EXPAND_LISTS VERBATIM)
    add_custom_target(${t}_gap ALL DEPENDS "${gen}/${driver}.gap.txt")
    # For the test real_headers_reach_<series>_<driver> (tests/driver/CMakeLists.txt):
    # "<series>=<driver>=<object>=<function>,<function>...".
    if(NICSIM_DRIVER_${driver}_REACHES)
        string(REPLACE ";" "," reach "${NICSIM_DRIVER_${driver}_REACHES}")
        set_property(GLOBAL APPEND PROPERTY NICSIM_REAL_HEADERS_REACH
                     "${series}=${driver}=${gen}/${driver}.o=${reach}")
    endif()
endfunction()
