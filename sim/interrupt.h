// SPDX-License-Identifier: MIT
// SIGINT/SIGTERM during a run: the handler only records the signal; the simulation loop
// (run_control::simulate) checks it between time slices and stops there, so the run ends like
// any other (traces closed, report written) with end reason "interrupted". A second signal gets
// the default action (the user who presses Ctrl-C twice wants out now).
#pragma once

namespace nicsim::system {

// Installs the handlers (idempotent). Only `nicsim run` calls it; tests call it explicitly.
void catch_interrupts();
// 0, or the first signal caught since catch_interrupts() (SIGINT, SIGTERM).
int interrupt_signal();
// "SIGINT", "SIGTERM" or "signal N".
const char* signal_name(int sig);

} // namespace nicsim::system
