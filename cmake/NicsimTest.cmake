# nicsim_add_gtest(<name> SOURCES <src>... [LIBS <lib>...])
#
# SystemC cannot be restarted after sc_start(), so every TEST runs in its own process:
# gtest_discover_tests registers each TEST as its own CTest case, which CTest runs as
# "<exe> --gtest_filter=<Suite.Name>".
#
# Every test reuses one precompiled <gtest/gtest.h> + <systemc> (cmake/Pch.cmake): built per
# test it would cost more than it saves (~8 s to build), shared it saves 2-4 s of each test's
# compile (measured: spi_host_test 11.1 -> 7.5 s release, 8.7 -> 6.0 s sanitizer build).
if(NICSIM_PCH)
    add_library(nicsim_test_pch OBJECT ${NICSIM_PCH_ANCHOR})
    # The same links as a test below (flags and definitions must match for the PCH to be used).
    target_link_libraries(nicsim_test_pch PRIVATE nicsim_test_support GTest::gtest nicsim_warnings)
    target_precompile_headers(nicsim_test_pch PRIVATE <gtest/gtest.h> <systemc>)
endif()

function(nicsim_add_gtest name)
    cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${T_SOURCES})
    target_link_libraries(${name} PRIVATE ${T_LIBS} nicsim_test_support GTest::gtest nicsim_warnings)
    if(NICSIM_PCH)
        target_precompile_headers(${name} REUSE_FROM nicsim_test_pch)
    endif()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endfunction()
