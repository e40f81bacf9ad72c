# Driver-facing half of the kernel-API emulation: net_device/etherdev, spi_sync, sdio_*,
# ioread16/platform devices, mii/phylib/eeprom/regulator stand-ins, firmware, wiphy, the driver
# registry + probe API (nicsim/lx_bus.h) and the C++ bridges to the bus models (bus_bridge.h).
set(_bus_dir "${CMAKE_CURRENT_LIST_DIR}/lx_emul_bus")
set(_bus_c
    "${_bus_dir}/netdev.c"
    "${_bus_dir}/spi.c"
    "${_bus_dir}/sdio.c"
    "${_bus_dir}/io.c"
    "${_bus_dir}/mii.c"
    "${_bus_dir}/firmware.c"
    "${_bus_dir}/registry.c"
    "${_bus_dir}/rtnl.c")
add_library(nicsim_lx_emul_bus STATIC ${_bus_c} "${_bus_dir}/bus_bridge.cc")
set_source_files_properties(${_bus_c} PROPERTIES
    COMPILE_OPTIONS "${NICSIM_KERNEL_C_FLAGS}"
    COMPILE_DEFINITIONS "KBUILD_MODNAME=\"lx_emul_bus\"")
# The shadow linux/*.h headers are for kernel C only: in C++ they would hide the C library's own
# <linux/...> includes (e.g. <linux/limits.h> from <climits>).
target_include_directories(nicsim_lx_emul_bus PUBLIC
    "$<$<COMPILE_LANGUAGE:C>:${NICSIM_DRIVER_INCLUDE_DIR}>" "${PROJECT_SOURCE_DIR}")
target_link_libraries(nicsim_lx_emul_bus PUBLIC nicsim_bus_spi nicsim_bus_par nicsim_systemc
                      PRIVATE nicsim_warnings)
