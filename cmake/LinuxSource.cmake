# Fetches the driver sources from a kernel tree at configure time. Kernel code is never part of
# this repository: it is extracted from NICSIM_LINUX_SRC (a linux-source tarball such as Debian's
# /usr/src/linux-source-6.1.tar.xz, or an unpacked tree) into ${NICSIM_KSRC_DIR}.
#
# Sets: NICSIM_KSRC_DIR, NICSIM_KERNEL_VERSION, NICSIM_KERNEL_ORIGIN, NICSIM_DRIVER_FILES
# (paths relative to the kernel root, for hashing), and generates nicsim_build_info.cc.

set(NICSIM_KSRC_DIR "${CMAKE_BINARY_DIR}/linux-src")
# Paths inside the kernel tree that nicsim compiles or reads. Only these are extracted.
set(NICSIM_KSRC_PATHS
    Makefile
    drivers/net/wireless/microchip/wilc1000
    drivers/net/ethernet/micrel/ks8851.h
    drivers/net/ethernet/micrel/ks8851_common.c
    drivers/net/ethernet/micrel/ks8851_spi.c
    drivers/net/ethernet/micrel/ks8851_par.c
    drivers/net/ethernet/microchip/enc28j60.c
    drivers/net/ethernet/microchip/enc28j60_hw.h
    drivers/net/mii.c
    lib/crc7.c
    lib/crc-itu-t.c
    lib/crc32.c
    lib/crc32defs.h
    lib/gen_crc32table.c
    include/linux/crc32poly.h)

if(NOT EXISTS "${NICSIM_LINUX_SRC}")
    message(FATAL_ERROR
        "NICSIM_LINUX_SRC='${NICSIM_LINUX_SRC}' does not exist. Install Debian's linux-source-6.1 "
        "(scripts/install-deps.sh does) or pass -DNICSIM_LINUX_SRC=<tarball or kernel tree>.")
endif()

file(TIMESTAMP "${NICSIM_LINUX_SRC}" _ksrc_mtime "%s" UTC)
# The key names the paths too: adding a path (a new chip's driver) extracts again.
string(MD5 _ksrc_paths_md5 "${NICSIM_KSRC_PATHS}")
set(_ksrc_key "${NICSIM_LINUX_SRC}@${_ksrc_mtime}@${_ksrc_paths_md5}")
set(_ksrc_stamp "${NICSIM_KSRC_DIR}/.nicsim-source")
set(_ksrc_have "")
if(EXISTS "${_ksrc_stamp}")
    file(READ "${_ksrc_stamp}" _ksrc_have)
endif()

if(NOT _ksrc_have STREQUAL _ksrc_key)
    file(REMOVE_RECURSE "${NICSIM_KSRC_DIR}")
    file(MAKE_DIRECTORY "${NICSIM_KSRC_DIR}")
    if(IS_DIRECTORY "${NICSIM_LINUX_SRC}")
        message(STATUS "nicsim: copying driver sources from ${NICSIM_LINUX_SRC}")
        foreach(p IN LISTS NICSIM_KSRC_PATHS)
            get_filename_component(_dir "${NICSIM_KSRC_DIR}/${p}" DIRECTORY)
            file(COPY "${NICSIM_LINUX_SRC}/${p}" DESTINATION "${_dir}")
        endforeach()
    else()
        message(STATUS "nicsim: extracting driver sources from ${NICSIM_LINUX_SRC}")
        set(_patterns "")
        foreach(p IN LISTS NICSIM_KSRC_PATHS)
            list(APPEND _patterns "*/${p}" "*/${p}/*")
        endforeach()
        execute_process(
            COMMAND tar -I "xz -T0" -xf "${NICSIM_LINUX_SRC}" --strip-components=1
                    --wildcards --no-wildcards-match-slash --ignore-failed-read ${_patterns}
            WORKING_DIRECTORY "${NICSIM_KSRC_DIR}"
            RESULT_VARIABLE _rc ERROR_VARIABLE _err)
        # tar reports patterns that matched nothing (e.g. "*/lib/crc7.c/*"); only missing files matter.
        foreach(p IN LISTS NICSIM_KSRC_PATHS)
            if(NOT EXISTS "${NICSIM_KSRC_DIR}/${p}")
                message(FATAL_ERROR "nicsim: ${p} not found in ${NICSIM_LINUX_SRC}\n${_err}")
            endif()
        endforeach()
    endif()
    file(WRITE "${_ksrc_stamp}" "${_ksrc_key}")
endif()

# Kernel version from the top-level Makefile.
file(STRINGS "${NICSIM_KSRC_DIR}/Makefile" _mk LIMIT_COUNT 8)
foreach(v VERSION PATCHLEVEL SUBLEVEL EXTRAVERSION)
    set(_${v} "")
    foreach(line IN LISTS _mk)
        if(line MATCHES "^${v} = (.*)$")
            set(_${v} "${CMAKE_MATCH_1}")
        endif()
    endforeach()
endforeach()
set(NICSIM_KERNEL_VERSION "${_VERSION}.${_PATCHLEVEL}.${_SUBLEVEL}${_EXTRAVERSION}")

# Where it came from: the Debian package and its version when the tarball belongs to one.
set(NICSIM_KERNEL_ORIGIN "${NICSIM_LINUX_SRC}")
execute_process(COMMAND dpkg-query -S "${NICSIM_LINUX_SRC}"
                OUTPUT_VARIABLE _pkg RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(_rc EQUAL 0 AND _pkg MATCHES "^([^:]+):")
    set(_pkgname "${CMAKE_MATCH_1}")
    execute_process(COMMAND dpkg-query -W -f=\${Version} "${_pkgname}"
                    OUTPUT_VARIABLE _pkgver ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(NICSIM_KERNEL_ORIGIN "Debian ${_pkgname} ${_pkgver} (${NICSIM_LINUX_SRC})")
endif()
message(STATUS "nicsim: kernel ${NICSIM_KERNEL_VERSION} from ${NICSIM_KERNEL_ORIGIN}")

# Hash every driver source file that is compiled or included, so a report can name exactly
# which code ran.
file(GLOB_RECURSE _files RELATIVE "${NICSIM_KSRC_DIR}"
     "${NICSIM_KSRC_DIR}/drivers/*" "${NICSIM_KSRC_DIR}/lib/*")
list(FILTER _files EXCLUDE REGEX "(Makefile|Kconfig)$")
list(SORT _files)
set(NICSIM_DRIVER_FILES ${_files})
set(_entries "")
foreach(f IN LISTS _files)
    file(SHA256 "${NICSIM_KSRC_DIR}/${f}" _h)
    string(APPEND _entries "    {\"${f}\", \"${_h}\"},\n")
endforeach()
configure_file("${CMAKE_CURRENT_LIST_DIR}/build_info.cc.in"
               "${CMAKE_BINARY_DIR}/generated/nicsim_build_info.cc" @ONLY)
