# nicsim_add_gtest(<name> SOURCES <src>... [LIBS <lib>...])
#
# SystemC cannot be restarted after sc_start(), so every TEST runs in its own process:
# gtest_discover_tests registers each TEST as its own CTest case, which CTest runs as
# "<exe> --gtest_filter=<Suite.Name>".
function(nicsim_add_gtest name)
    cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
    add_executable(${name} ${T_SOURCES})
    target_link_libraries(${name} PRIVATE ${T_LIBS} nicsim_test_support GTest::gtest nicsim_warnings)
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endfunction()
