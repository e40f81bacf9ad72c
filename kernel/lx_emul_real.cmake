# The kernel-API emulation compiled against one tree's real headers (docs/driver-build.md, "Real
# kernel headers"): nicsim_lx_real_<c> (<c> = the series as a C identifier), one static library
# per tree, since the struct layouts it sees differ between trees. It defines the functions whose
# work depends on a real layout (task_struct, mutex, work_struct) and calls lx_emul (nicsim_lx_emul_core) for
# the rest through lx_emul/shared.h; lx_kit's C API it includes from kernel/include, after every
# kernel directory, so no <linux/...> resolves to a shadow header.
set(NICSIM_LX_REAL_SOURCES
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/bind.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/delay.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/driver.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/ethtool.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/gpio.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/mdio.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/mutex.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/netdev.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/netif.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/of_net.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/param.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/platform.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/printk.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/refcount.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/regulator.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/side.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/skbuff.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/slab.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/spi.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/string.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/task.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/workqueue.c"
    "${CMAKE_CURRENT_LIST_DIR}/lx_emul_real/xmit.c")

# nicsim_lx_real(<series>): after nicsim_real_headers(<series> ...).
function(nicsim_lx_real series)
    string(MAKE_C_IDENTIFIER "${series}" c)
    # With the tree's own library code, compiled unmodified: lib/bitrev.c (byte_rev_table,
    # behind bitrev8()), lib/ctype.c (_ctype, behind isprint() …), lib/hexdump.c
    # (print_hex_dump, hex_dump_to_buffer) and drivers/net/mii.c (the MII helpers:
    # generic_mii_ioctl, mii_link_ok, the ethtool settings). __DISABLE_EXPORTS (the kernel's switch for its code reused outside
    # the kernel) leaves out the export tables, whose absolute references would make the tests'
    # PIE text relocatable.
    set(ksrc "${NICSIM_KSRC_DIR_${c}}")
    add_library(nicsim_lx_real_${c} STATIC ${NICSIM_LX_REAL_SOURCES}
                "${ksrc}/lib/bitrev.c" "${ksrc}/lib/ctype.c" "${ksrc}/lib/hexdump.c"
                "${ksrc}/drivers/net/mii.c")
    foreach(f lib/bitrev lib/ctype lib/hexdump drivers/net/mii)
        get_filename_component(base "${f}" NAME)
        set_source_files_properties("${ksrc}/${f}.c" PROPERTIES COMPILE_DEFINITIONS
            "KBUILD_MODFILE=\"${f}\";KBUILD_BASENAME=\"${base}\";__DISABLE_EXPORTS")
    endforeach()
    target_link_libraries(nicsim_lx_real_${c} PRIVATE nicsim_real_headers_${c})
    target_compile_definitions(nicsim_lx_real_${c} PRIVATE KBUILD_MODNAME="lx_emul_real"
                               NICSIM_RH_VERSION_CODE=${NICSIM_KERNEL_VERSION_CODE_${c}})
    target_compile_options(nicsim_lx_real_${c} PRIVATE "SHELL:-idirafter ${NICSIM_LX_INCLUDE}")
    set_target_properties(nicsim_lx_real_${c} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_link_libraries(nicsim_lx_real_${c} INTERFACE nicsim_lx_emul_core nicsim_lx_kit)
endfunction()
