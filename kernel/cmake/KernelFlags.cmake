# Flags the kernel builds its C with that change semantics or catch emulation gaps. Every piece
# of kernel-facing C (the drivers, their glue, lx_emul/*.c) is compiled with them.
set(NICSIM_KERNEL_C_FLAGS
    -std=gnu11
    -fno-strict-aliasing -fno-strict-overflow -fno-delete-null-pointer-checks -fno-common
    -fsigned-char  # x86 kernels build with signed char; keep results bit-identical on ARM hosts
    -Wall -Wno-pointer-sign -Wno-unused-function
    -Wno-array-bounds  # as the kernel on GCC 12: sk_buff_head is cast to sk_buff (list head trick)
    # A missing prototype in a shadow header must fail the build, not link to a wrong signature.
    -Werror=implicit-function-declaration -Werror=incompatible-pointer-types -Werror=int-conversion)
set(NICSIM_DRIVER_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../include")
