/* SPDX-License-Identifier: MIT */
/* Shared between the wilc1000 glue files (compiled into each variant). */
#ifndef NICSIM_WILC_GLUE_H
#define NICSIM_WILC_GLUE_H


#endif
