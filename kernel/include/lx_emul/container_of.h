/* SPDX-License-Identifier: MIT */
/* lx_emul: container_of and struct-member helpers (linux/container_of.h, stddef.h). */
#ifndef LX_EMUL_CONTAINER_OF_H
#define LX_EMUL_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member)                                                            \
    ({                                                                                             \
        void* __lx_mptr = (void*)(ptr);                                                            \
        ((type*)((char*)__lx_mptr - offsetof(type, member)));                                      \
    })
#define container_of_const container_of
#define sizeof_field(t, m) sizeof(((t*)0)->m)
#define typeof_member(t, m) __typeof__(((t*)0)->m)
#define offsetofend(t, m) (offsetof(t, m) + sizeof_field(t, m))

#endif /* LX_EMUL_CONTAINER_OF_H */
