# nicsim_add_gtest(<name> SOURCES <src>... [LIBS <lib>...])
#
# SystemC cannot be restarted after sc_start(), so every TEST runs in its own process:
# gtest_discover_tests registers each TEST as its own CTest case, which CTest runs as
# "<exe> --gtest_filter=<Suite.Name>".
#
# Every test reuses one precompiled <gtest/gtest.h> + <systemc> (cmake/Pch.cmake): built per
# test it would cost more than it saves (~8 s to build), shared it saves 2-4 s of each test's
# compile (measured: spi_host_test 11.1 -> 7.5 s release, 8.7 -> 6.0 s sanitizer build).
# Test sources are gtest glue around the simulator's libraries, which keep the build type's flags.
# In the default RelWithDebInfo build the tests compile at -O1 with line tables only (-g1): 40 %
# less compile time per test file (linux_stack_test.cc: 11.6 s -> 7.1 s of CPU), for CI's time
# budget; a test's backtrace in gdb still has files and lines (configure with
# -DCMAKE_BUILD_TYPE=Debug for locals). The sanitizer (-O0 -g1) and fuzz builds keep theirs.
add_library(nicsim_test_flags INTERFACE)
if(CMAKE_BUILD_TYPE STREQUAL "RelWithDebInfo" AND NOT NICSIM_SANITIZE AND NOT NICSIM_FUZZ)
    target_compile_options(nicsim_test_flags INTERFACE -O1 -g1)
endif()

if(NICSIM_PCH)
    add_library(nicsim_test_pch OBJECT ${NICSIM_PCH_ANCHOR})
    # The same links as a test below (flags and definitions must match for the PCH to be used).
    target_link_libraries(nicsim_test_pch PRIVATE nicsim_test_support GTest::gtest nicsim_warnings
                                           nicsim_test_flags)
    target_precompile_headers(nicsim_test_pch PRIVATE <gtest/gtest.h> <systemc>)
endif()

function(nicsim_add_gtest name)
    cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${T_SOURCES})
    target_link_libraries(${name} PRIVATE ${T_LIBS} nicsim_test_support GTest::gtest nicsim_warnings
                                          nicsim_test_flags)
    if(NICSIM_PCH)
        target_precompile_headers(${name} REUSE_FROM nicsim_test_pch)
    endif()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endfunction()
