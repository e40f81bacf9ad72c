# Fetches the driver sources from the kernel trees at configure time. Kernel code is never part of
# this repository: it is extracted from NICSIM_LINUX_SRC (the default tree, "6.1": a linux-source
# tarball such as Debian's /usr/src/linux-source-6.1.tar.xz, or an unpacked tree) into
# <build>/linux-src, and from NICSIM_LINUX_SRC_6_12 (optional, "6.12") into <build>/linux-src-6.12.
#
# Sets: NICSIM_KSRC_DIR, NICSIM_KERNEL_VERSION, NICSIM_KERNEL_ORIGIN (the default tree; the kernel
# library code is compiled from it), NICSIM_KERNELS (the kernel series built, default first, e.g.
# "6.1;6.12"), per series NICSIM_KSRC_DIR_<c> / NICSIM_KERNEL_VERSION_<c> /
# NICSIM_KERNEL_VERSION_CODE_<c> (<c> = series as a C identifier, 6_12), NICSIM_KERNELS_MISSING
# ("series=why" for a tree that was not found), and generates nicsim_build_info.cc.

# Paths inside a kernel tree that nicsim compiles or reads. Only these are extracted.
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
# The real kernel headers (NICSIM_REAL_HEADERS, kernel/cmake/KernelHeaders.cmake): the tree's
# include/ and what its generated headers are made from.
if(NICSIM_REAL_HEADERS)
    list(APPEND NICSIM_KSRC_PATHS include kernel/time/timeconst.bc kernel/bounds.c lib/bitrev.c
         lib/ctype.c lib/hexdump.c)
endif()

# nicsim_kernel_tree(<src> <dir>): extracts NICSIM_KSRC_PATHS of <src> into <dir> (again only when
# the source, its mtime or the path list changed) and sets in the caller _kt_series ("6.12"),
# _kt_version ("6.12.118"), _kt_code (KERNEL_VERSION(6,12,118) as a number), _kt_origin and
# _kt_entries (the C initialisers of its file hashes).
function(nicsim_kernel_tree src dir)
    file(TIMESTAMP "${src}" _ksrc_mtime "%s" UTC)
    # The key names the paths too: adding a path (a new chip's driver) extracts again.
    string(MD5 _ksrc_paths_md5 "${NICSIM_KSRC_PATHS}")
    set(_ksrc_key "${src}@${_ksrc_mtime}@${_ksrc_paths_md5}")
    set(_ksrc_stamp "${dir}/.nicsim-source")
    set(_ksrc_have "")
    if(EXISTS "${_ksrc_stamp}")
        file(READ "${_ksrc_stamp}" _ksrc_have)
    endif()

    if(NOT _ksrc_have STREQUAL _ksrc_key)
        file(REMOVE_RECURSE "${dir}")
        file(MAKE_DIRECTORY "${dir}")
        if(IS_DIRECTORY "${src}")
            message(STATUS "nicsim: copying driver sources from ${src}")
            foreach(p IN LISTS NICSIM_KSRC_PATHS)
                get_filename_component(_dir "${dir}/${p}" DIRECTORY)
                file(COPY "${src}/${p}" DESTINATION "${_dir}")
            endforeach()
        else()
            message(STATUS "nicsim: extracting driver sources from ${src}")
            set(_patterns "")
            foreach(p IN LISTS NICSIM_KSRC_PATHS)
                list(APPEND _patterns "*/${p}" "*/${p}/*")
            endforeach()
            execute_process(
                COMMAND tar -I "xz -T0" -xf "${src}" --strip-components=1
                        --wildcards --no-wildcards-match-slash --ignore-failed-read ${_patterns}
                WORKING_DIRECTORY "${dir}"
                RESULT_VARIABLE _rc ERROR_VARIABLE _err)
            # tar reports patterns that matched nothing (e.g. "*/lib/crc7.c/*"); only missing
            # files matter.
            foreach(p IN LISTS NICSIM_KSRC_PATHS)
                if(NOT EXISTS "${dir}/${p}")
                    message(FATAL_ERROR "nicsim: ${p} not found in ${src}\n${_err}")
                endif()
            endforeach()
        endif()
        file(WRITE "${_ksrc_stamp}" "${_ksrc_key}")
    endif()

    # Kernel version from the top-level Makefile.
    file(STRINGS "${dir}/Makefile" _mk LIMIT_COUNT 8)
    foreach(v VERSION PATCHLEVEL SUBLEVEL EXTRAVERSION)
        set(_${v} "")
        foreach(line IN LISTS _mk)
            if(line MATCHES "^${v} = (.*)$")
                set(_${v} "${CMAKE_MATCH_1}")
            endif()
        endforeach()
    endforeach()
    set(_kt_series "${_VERSION}.${_PATCHLEVEL}" PARENT_SCOPE)
    set(_kt_version "${_VERSION}.${_PATCHLEVEL}.${_SUBLEVEL}${_EXTRAVERSION}" PARENT_SCOPE)
    # As the kernel's KERNEL_VERSION(a,b,c): the sublevel saturates at 255.
    set(_sub "${_SUBLEVEL}")
    if(_sub GREATER 255)
        set(_sub 255)
    endif()
    math(EXPR _code "(${_VERSION} << 16) + (${_PATCHLEVEL} << 8) + ${_sub}")
    set(_kt_code "${_code}" PARENT_SCOPE)

    # Where it came from: the Debian package and its version when the tarball belongs to one.
    set(_origin "${src}")
    execute_process(COMMAND dpkg-query -S "${src}"
                    OUTPUT_VARIABLE _pkg RESULT_VARIABLE _rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_rc EQUAL 0 AND _pkg MATCHES "^([^:]+):")
        set(_pkgname "${CMAKE_MATCH_1}")
        execute_process(COMMAND dpkg-query -W -f=\${Version} "${_pkgname}"
                        OUTPUT_VARIABLE _pkgver ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
        set(_origin "Debian ${_pkgname} ${_pkgver} (${src})")
    endif()
    set(_kt_origin "${_origin}" PARENT_SCOPE)

    # Hash every driver source file that is compiled or included, so a report can name exactly
    # which code ran.
    file(GLOB_RECURSE _files RELATIVE "${dir}" "${dir}/drivers/*" "${dir}/lib/*")
    list(FILTER _files EXCLUDE REGEX "(Makefile|Kconfig)$")
    list(SORT _files)
    set(_entries "")
    foreach(f IN LISTS _files)
        file(SHA256 "${dir}/${f}" _h)
        string(APPEND _entries "    {\"${f}\", \"${_h}\"},\n")
    endforeach()
    set(_kt_entries "${_entries}" PARENT_SCOPE)
endfunction()

if(NOT EXISTS "${NICSIM_LINUX_SRC}")
    message(FATAL_ERROR
        "NICSIM_LINUX_SRC='${NICSIM_LINUX_SRC}' does not exist. Install Debian's linux-source-6.1 "
        "(scripts/install-deps.sh does) or pass -DNICSIM_LINUX_SRC=<tarball or kernel tree>.")
endif()

set(NICSIM_KERNELS "")
set(NICSIM_KERNELS_MISSING "")
set(_file_tables "")
set(_tree_table "")
set(_trees "6.1=${NICSIM_LINUX_SRC}=${CMAKE_BINARY_DIR}/linux-src"
           "6.12=${NICSIM_LINUX_SRC_6_12}=${CMAKE_BINARY_DIR}/linux-src-6.12")
foreach(t IN LISTS _trees)
    string(REPLACE "=" ";" t "${t}")
    list(GET t 0 _want)
    list(GET t 1 _src)
    list(GET t 2 _dir)
    if(NOT _src OR NOT EXISTS "${_src}")
        # Only the default tree is required.
        # (No ';' in the text: it travels in CMake lists.)
        set(_why "the ${_want} kernel tree was not found at configure time (NICSIM_LINUX_SRC_6_12='${_src}'): install Debian's linux-source-${_want} (scripts/install-deps.sh does) and reconfigure")
        message(NOTICE "nicsim: ${_why}. Building with kernel 6.1 only: driver.kernel 6.12 is refused with this reason and the 6.12 tests are skipped.")
        list(APPEND NICSIM_KERNELS_MISSING "${_want}=${_why}")
        continue()
    endif()
    nicsim_kernel_tree("${_src}" "${_dir}")
    if(NOT NICSIM_KERNELS)
        # The default tree: whatever NICSIM_LINUX_SRC holds is what "6.1" builds (a user may point
        # it at another tree; the report names its exact version).
        set(_kt_series "6.1")
        set(NICSIM_KSRC_DIR "${_dir}")
        set(NICSIM_KERNEL_VERSION "${_kt_version}")
        set(NICSIM_KERNEL_ORIGIN "${_kt_origin}")
    elseif(NOT _kt_series STREQUAL _want)
        message(FATAL_ERROR "nicsim: NICSIM_LINUX_SRC_6_12='${_src}' holds kernel ${_kt_version}, not ${_want}")
    endif()
    string(MAKE_C_IDENTIFIER "${_kt_series}" _c)
    set(NICSIM_KSRC_DIR_${_c} "${_dir}")
    set(NICSIM_KERNEL_VERSION_${_c} "${_kt_version}")
    set(NICSIM_KERNEL_VERSION_CODE_${_c} "${_kt_code}")
    list(APPEND NICSIM_KERNELS "${_kt_series}")
    message(STATUS "nicsim: kernel ${_kt_series}: ${_kt_version} from ${_kt_origin}")
    string(APPEND _file_tables "const driver_file files_${_c}[] = {\n${_kt_entries}    {nullptr, nullptr},\n};\n")
    string(APPEND _tree_table "    {\"${_kt_series}\", \"${_kt_version}\", \"${_kt_origin}\", files_${_c}},\n")
endforeach()

configure_file("${CMAKE_CURRENT_LIST_DIR}/build_info.cc.in"
               "${CMAKE_BINARY_DIR}/generated/nicsim_build_info.cc" @ONLY)
