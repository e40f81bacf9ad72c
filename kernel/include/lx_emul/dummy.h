/* SPDX-License-Identifier: MIT */
/* lx_emul: the trace-and-stop mechanism for kernel functions nicsim does not implement. The
 * build generates one dummy per such function (kernel/cmake/gen_dummies.sh); calling it prints
 * "nicsim: driver called unimplemented kernel function '<name>' (generated dummy) — stopping"
 * and ends the run with a non-zero exit (lx_kit_abort). */
#ifndef LX_EMUL_DUMMY_H
#define LX_EMUL_DUMMY_H

void lx_emul_trace_and_stop(const char* name) __attribute__((noreturn));

#endif /* LX_EMUL_DUMMY_H */
