# Warnings for the simulator's own C++ code (the kernel driver C code gets the kernel's own flags
# in kernel/CMakeLists.txt).
add_library(nicsim_warnings INTERFACE)
target_compile_options(nicsim_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)
