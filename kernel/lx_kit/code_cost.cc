// SPDX-License-Identifier: MIT
// The CPU time of the real driver's own code: the driver objects are compiled with
// -fsanitize-coverage=trace-pc (kernel/cmake/DriverVariant.cmake), so the compiler calls this hook
// at the start of every basic block they execute. The count is a property of the driver's control
// flow and the run, not of the machine that runs the simulation, so the CPU time charged from it
// (lx_kit parameters ps_per_block, runtime.cc charge_code) is deterministic.
#include "runtime.h"

extern "C" {

uint64_t lx_kit_driver_blocks = 0;

// Called from driver code only; never instrumented itself (lx_kit is built without the flag).
void __sanitizer_cov_trace_pc(void) {
    ++lx_kit_driver_blocks;
}

} // extern "C"
