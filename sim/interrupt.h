// SPDX-License-Identifier: MIT
// SIGINT/SIGTERM during a run: the handler only records the signal; the simulation loop
// (run_control::simulate) checks it between time slices and stops there, so the run ends like
// any other (traces closed, report written) with end reason "interrupted". A second signal gets
// the default action (the user who presses Ctrl-C twice wants out now), except while the traces
// are written out (interrupts_held): then it is told to wait, so the files end complete and
// no spill file (`<vcd>.<bus>.part`) is left.
#pragma once

namespace nicsim::system {

// Installs the handlers (idempotent). Only `nicsim run` calls it; tests call it explicitly.
void catch_interrupts();
// 0, or the first signal caught since catch_interrupts() (SIGINT, SIGTERM).
int interrupt_signal();
// "SIGINT", "SIGTERM" or "signal N".
const char* signal_name(int sig);

// While alive (the trace flush at the end of a run), SIGINT and SIGTERM only set
// interrupt_signal() if it is unset; a repeated one prints once on stderr that the traces are
// being finished. Afterwards: the first signal is caught again if none came, the default
// action is back if one did. Does nothing unless catch_interrupts() was called.
class interrupts_held {
  public:
    interrupts_held();
    ~interrupts_held();
    interrupts_held(const interrupts_held&) = delete;
    interrupts_held& operator=(const interrupts_held&) = delete;
};

} // namespace nicsim::system
