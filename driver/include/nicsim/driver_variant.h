/* SPDX-License-Identifier: MIT */
/* One driver variant built into this binary: a driver compiled from the kernel tree, optionally
 * with project patches from driver/patches/<driver>/<variant>/. Plain C, no kernel headers: the
 * testbench (C++) reads it too. Generated per variant by driver/cmake/DriverVariant.cmake. */
#ifndef NICSIM_DRIVER_VARIANT_H
#define NICSIM_DRIVER_VARIANT_H

#ifdef __cplusplus
extern "C" {
#endif

struct nicsim_driver_variant {
    const char* driver;     /* e.g. "wilc1000" */
    const char* name;       /* e.g. "pristine", "no-chip-sleep" */
    const char* kernel_dir; /* driver directory inside the kernel tree */
    const char* patches;    /* "<patch file> <sha256>\n" per applied patch; "" if pristine */
};

/* NULL-terminated list of every variant linked into this binary (generated). */
extern const struct nicsim_driver_variant* const nicsim_driver_variants[];

#ifdef __cplusplus
}
#endif

#endif
