# Shared precompiled headers, for CI's build time (2 cores, 30 minutes for `make test`).
#
# Parsing <systemc> (and <gtest/gtest.h>) is a large part of every C++ translation unit here, and
# most of them include it. A precompiled header pays only when it is built once and shared, so
# one donor target per header set builds it and every other target reuses it (CMake REUSE_FROM):
#   nicsim_pch       <systemc>                     the simulator's libraries and executables
#   nicsim_test_pch  <systemc> <gtest/gtest.h>     the GoogleTest executables (nicsim_add_gtest)
# The header is force-included ahead of each source (-include), which changes nothing for a
# source that includes it itself and only adds declarations to one that does not.
# Measured (CPU seconds per source, without -> with): spi_host.cc 6.2 -> 4.2, wilc1000_core.cc
# 11.7 -> 10.0; the sanitizer build alike. Sources that do not include <systemc> gain nothing.
#
# A reused PCH needs the same compiler flags and, for every macro the headers test, the same
# definitions as its donor: GCC silently falls back to the plain header when the .gch does not
# match (CMake adds -Winvalid-pch, so a fallback shows in the build log as a warning). So the
# donors link what their users link (nicsim_systemc's SC_INCLUDE_DYNAMIC_PROCESSES, GTest's
# GTEST_HAS_PTHREAD), and only targets that link nicsim_systemc reuse nicsim_pch.
#
# The fuzz build (clang) leaves it off: clang accepted the shared PCH in a syntax-only check, but
# the fuzz build was not measured with it.
if(NICSIM_FUZZ)
    set(_nicsim_pch_default OFF)
else()
    set(_nicsim_pch_default ON)
endif()
option(NICSIM_PCH "Share precompiled <systemc> (and <gtest/gtest.h>) across targets"
       ${_nicsim_pch_default})
# Targets that link SystemC but whose sources (config, reports, sweeps, CLI) do not include
# <systemc>: the PCH would only add its load time there (~0.5 s per source, measured).
set(NICSIM_PCH_SKIP nicsim nicsim_cli nicsim_sweep nicsim_testbench nicsim_validate)

# A donor needs a C++ source of its own for CMake to build the PCH; this one is empty.
set(NICSIM_PCH_ANCHOR ${CMAKE_BINARY_DIR}/generated/nicsim_pch_anchor.cc)
file(CONFIGURE OUTPUT ${NICSIM_PCH_ANCHOR}
     CONTENT "// Anchor of the precompiled-header donor targets (cmake/Pch.cmake).\n")

if(NICSIM_PCH)
    add_library(nicsim_pch OBJECT ${NICSIM_PCH_ANCHOR})
    target_link_libraries(nicsim_pch PRIVATE nicsim_systemc nicsim_warnings)
    target_precompile_headers(nicsim_pch PRIVATE <systemc>)
endif()

# True in ${out} if ${target} links nicsim_systemc, directly or through its libraries.
function(_nicsim_links_systemc target out)
    set(seen "")
    set(queue ${target})
    set(found FALSE)
    while(queue)
        list(POP_FRONT queue t)
        if(t IN_LIST seen OR NOT TARGET ${t})
            continue()
        endif()
        list(APPEND seen ${t})
        get_target_property(aliased ${t} ALIASED_TARGET)
        if(aliased)
            list(APPEND queue ${aliased})
            continue()
        endif()
        if(t STREQUAL "nicsim_systemc")
            set(found TRUE)
            break()
        endif()
        get_target_property(type ${t} TYPE)
        set(libs "")
        if(NOT type STREQUAL "INTERFACE_LIBRARY")
            get_target_property(direct ${t} LINK_LIBRARIES)
            if(direct)
                list(APPEND libs ${direct})
            endif()
        endif()
        get_target_property(iface ${t} INTERFACE_LINK_LIBRARIES)
        if(iface)
            list(APPEND libs ${iface})
        endif()
        foreach(l IN LISTS libs)
            # target_link_libraries() from another directory leaves "::@(dir)" markers, and
            # PRIVATE links of static libraries appear as $<LINK_ONLY:lib>.
            string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
            if(NOT l MATCHES "^::@")
                list(APPEND queue ${l})
            endif()
        endforeach()
    endwhile()
    set(${out} ${found} PARENT_SCOPE)
endfunction()

# Every target defined under ${dir} (recursively) that compiles C++ and links SystemC reuses
# nicsim_pch, unless it already reuses another PCH (the tests: nicsim_test_pch). Called once at
# the end of the top-level CMakeLists.txt, when all targets exist.
function(nicsim_reuse_pch dir)
    if(NOT NICSIM_PCH)
        return()
    endif()
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
        get_target_property(type ${t} TYPE)
        if(NOT type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|SHARED_LIBRARY|EXECUTABLE)$"
           OR t MATCHES "^nicsim_(test_)?pch$" OR t IN_LIST NICSIM_PCH_SKIP)
            continue()
        endif()
        get_target_property(reuse ${t} PRECOMPILE_HEADERS_REUSE_FROM)
        if(reuse)
            continue()
        endif()
        # Only C++ targets: a target that also compiles C would need a C PCH from the donor
        # (CMake fails to generate without one); of these only nicsim_lx_emul_bus has C++.
        get_target_property(srcs ${t} SOURCES)
        set(cxx ${srcs})
        list(FILTER cxx INCLUDE REGEX "\\.(cc|cpp|cxx)$")
        list(FILTER srcs INCLUDE REGEX "\\.c$")
        if(NOT cxx OR srcs)
            continue()
        endif()
        _nicsim_links_systemc(${t} links)
        if(links)
            target_precompile_headers(${t} REUSE_FROM nicsim_pch)
        endif()
    endforeach()
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(d IN LISTS subdirs)
        nicsim_reuse_pch(${d})
    endforeach()
endfunction()
