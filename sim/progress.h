// SPDX-License-Identifier: MIT
// Progress of a running simulation for the command line (iperf3-style interval lines, the
// heartbeat on a terminal): run_control runs sc_start in slices that end where the observer
// asks and calls it between them, outside every SystemC process, with the flow's counters so
// far. Slicing sc_start does not reorder events (each slice runs the timed events up to its
// end, the next one continues), so a watched run reports what an unwatched one does
// (Progress.IntervalLinesDoNotChangeTheReport).
//
// One simulation per process (SystemC cannot restart), so the observer is process-wide; the
// CLI sets it before run_scenario and clears it after.
#pragma once

#include <systemc>

#include "core/report/report.h"

namespace nicsim::system {

class progress_observer {
  public:
    virtual ~progress_observer() = default;
    // Simulated time at which to be called next (> now); at most the run's limit is simulated.
    virtual sc_core::sc_time next_stop(const sc_core::sc_time& now) = 0;
    // Between slices. `flow` is null until the traffic has started (bring-up);
    // `traffic_start` is when it started.
    virtual void on_progress(const sc_core::sc_time& now, const report::flow_report* flow,
                             const sc_core::sc_time& traffic_start) = 0;
    // Once, after the last slice (traffic complete, stopped or the duration limit).
    virtual void on_end(const sc_core::sc_time& now, const report::flow_report* flow,
                        const sc_core::sc_time& traffic_start) = 0;
};

inline progress_observer*& progress_slot() {
    static progress_observer* observer = nullptr;
    return observer;
}
inline void set_progress_observer(progress_observer* o) {
    progress_slot() = o;
}
inline progress_observer* current_progress_observer() {
    return progress_slot();
}

} // namespace nicsim::system
