/* SPDX-License-Identifier: MIT */
/* One driver variant built into this binary: a driver compiled from the kernel tree, optionally
 * with project patches from kernel/patches/<driver>/<variant>/. Plain C, no kernel headers: the
 * testbench (C++) reads it too. Generated per variant by kernel/cmake/DriverVariant.cmake. */
#ifndef NICSIM_DRIVER_VARIANT_H
#define NICSIM_DRIVER_VARIANT_H

#ifdef __cplusplus
extern "C" {
#endif

struct nicsim_driver_variant {
    const char* driver;         /* e.g. "wilc1000" */
    const char* name;           /* e.g. "pristine", "no-chip-sleep" */
    const char* kernel_dir;     /* driver directory inside the kernel tree */
    const char* patches;        /* "<patch file> <sha256>\n" per applied patch; "" if pristine */
    const char* kernel;         /* the kernel tree's series (driver.kernel), e.g. "6.1", "6.12" */
    const char* kernel_version; /* its exact version, e.g. "6.12.118" */
    /* The key its modules and bus drivers register under (lx_emul/compiler.h LX_EMUL_VARIANT):
     * the variant name for the default tree, "<name>@<kernel>" for another. */
    const char* key;
};

/* A driver this binary has no build of for a kernel, and why (e.g. the 6.12 tree was not found
 * at configure time). */
struct nicsim_driver_unbuilt {
    const char* kernel;
    const char* driver;
    const char* why;
};

/* NULL-terminated list of every variant linked into this binary (generated). */
extern const struct nicsim_driver_variant* const nicsim_driver_variants[];
/* Terminated by a null kernel (generated). */
extern const struct nicsim_driver_unbuilt nicsim_driver_unbuilt[];

#ifdef __cplusplus
}
#endif

#endif
