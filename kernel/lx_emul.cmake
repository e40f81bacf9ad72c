# Kernel-API emulation core (included from kernel/CMakeLists.txt):
#   nicsim_lx_kit        C++/SystemC runtime behind lx_kit/lx_kit.h (tasks, waits, time, IRQ
#                        lines, log sink, abort policy) and the C++ API lx_kit/runtime.h.
#   nicsim_lx_emul_core  kernel functions in C (time, threads, locks, memory, skb, printk,
#                        modules), compiled with the kernel flags against kernel/include.
#
# Include paths: C (kernel) code gets kernel/include with -I, so <linux/*.h> resolve to the
# shadow headers. C++ code gets it with -idirafter, so <lx_kit/*.h> resolve but system headers
# that include <linux/errno.h> & co. still find the real UAPI headers first.
set(NICSIM_LX_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/include")

add_library(nicsim_lx_kit STATIC
    ${CMAKE_CURRENT_LIST_DIR}/lx_kit/runtime.cc
    ${CMAKE_CURRENT_LIST_DIR}/lx_kit/code_cost.cc
    ${CMAKE_CURRENT_LIST_DIR}/lx_kit/log.cc
    ${CMAKE_CURRENT_LIST_DIR}/lx_kit/irq.cc)
target_link_libraries(nicsim_lx_kit PUBLIC nicsim_systemc PRIVATE nicsim_warnings)
target_include_directories(nicsim_lx_kit PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_options(nicsim_lx_kit PUBLIC
    "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-idirafter ${NICSIM_LX_INCLUDE}>")

add_library(nicsim_lx_emul_core STATIC
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/bug.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/irq.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/lock.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/mdio.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/mm.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/module.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/mutex.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/printk.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/random.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/sched.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/skbuff.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/string.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/sync.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/time.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/wait.c
    ${CMAKE_CURRENT_LIST_DIR}/lx_emul/workqueue.c)
target_compile_options(nicsim_lx_emul_core PRIVATE ${NICSIM_KERNEL_C_FLAGS})
target_compile_definitions(nicsim_lx_emul_core PRIVATE KBUILD_MODNAME="lx_emul")
target_include_directories(nicsim_lx_emul_core PUBLIC
    "$<$<COMPILE_LANGUAGE:C>:${NICSIM_LX_INCLUDE}>")
set_target_properties(nicsim_lx_emul_core PROPERTIES POSITION_INDEPENDENT_CODE ON)
# lx_emul calls into lx_kit; lx_kit calls nothing in lx_emul.
target_link_libraries(nicsim_lx_emul_core PUBLIC nicsim_lx_kit)

# Kernel C flags for tests and glue that compile kernel-facing C outside driver variants.
add_library(nicsim_kernel_c INTERFACE)
target_compile_options(nicsim_kernel_c INTERFACE
    "$<$<COMPILE_LANGUAGE:C>:${NICSIM_KERNEL_C_FLAGS}>")
target_include_directories(nicsim_kernel_c INTERFACE
    "$<$<COMPILE_LANGUAGE:C>:${NICSIM_LX_INCLUDE}>")
