/* SPDX-License-Identifier: MIT */
/* Shared between the wilc1000 glue files (compiled into each variant). */
#ifndef NICSIM_WILC_GLUE_H
#define NICSIM_WILC_GLUE_H

/* Registers the generated firmware image under the name netdev.c requests. */
void wilc_glue_register_firmware(void);

#endif
