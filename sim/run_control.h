// SPDX-License-Identifier: MIT
// The life of one run, the same for every system: the system thread brings the interface up
// through the real driver, starts the traffic and waits for it; the first failure stops the
// simulation; after sc_start the trace files are closed and the outcome is one error text or a
// report. Systems own their parts and pass them in; this only sequences them.
//
// Errors are text, not exceptions, inside the simulation: throwing inside a SystemC thread
// confuses AddressSanitizer's stack bookkeeping (it does not know the coroutine stacks).
#pragma once

#include <functional>
#include <string>

#include <systemc>

#include "host/cpu/host_cpu.h"
#include "core/report/report.h"
#include "sim/driver_log.h"
#include "host/traffic_session.h"
#include "trace/trace_session.h"

namespace nicsim::system {

class progress_observer; // sim/progress.h

class run_control {
  public:
    // Optional test hooks, run on the system thread: `after_up` once the interface is up (false
    // ends the run there, end reason "test hook"); `after_traffic` when the traffic finished.
    struct hooks {
        std::function<bool()> after_up;
        std::function<void()> after_traffic;
        // The system's ifdown, run on the system thread when wind_down() asks for it; returns
        // "" or why it could not complete.
        std::function<std::string()> ifdown;
    };

    // Records the first failure and stops the simulation.
    void fail(const std::string& why);

    // The system thread's body. `bring_up` returns "" or why it failed.
    void drive(const std::function<std::string()>& bring_up, traffic_session& traffic,
               sc_core::sc_time traffic_start, const hooks& h = {});

    // Runs the simulation up to `limit` (once per process), or until a signal caught by
    // catch_interrupts() (interrupt.h) arrives, then closes the traces. Returns ""
    // or why the run failed (driver abort, a failure passed to fail(), a trace file error).
    std::string simulate(sc_core::sc_time limit, trace::trace_session* trace);

    // After simulate() and the report: the interface goes down (`ip link set down`: the hooks'
    // ifdown on the system thread), within `budget` of simulated time, so what the driver still
    // holds can be told from what it lost. Only after a run that ended as measured ("traffic
    // complete" or "duration limit") with the interface up; otherwise returns false and runs
    // nothing. `error` is "" or why the ifdown did not complete (driver abort, over budget).
    bool wind_down(sc_core::sc_time budget, std::string& error);

    // "traffic complete", "test hook", "duration limit" or "interrupted".
    const std::string& end_reason() const { return m_end_reason; }
    bool traffic_completed() const { return m_end_reason == traffic_complete; }
    // The signal that interrupted the run (end reason "interrupted"), else 0.
    int interrupt() const { return m_interrupt; }

  private:
    static constexpr const char* traffic_complete = "traffic complete";
    // sc_start in the slices a progress observer asks for (sim/progress.h).
    void run_watched(sc_core::sc_time limit, progress_observer& o);

    // The system thread's body once the measured run ended: the ifdown, when asked for.
    void await_wind_down(const hooks& h);

    std::string m_failure;
    std::string m_end_reason;
    bool m_up = false;                     // the bring-up succeeded
    sc_core::sc_event m_wind_down_request; // wind_down() -> the system thread
    bool m_wind_down_requested = false;
    bool m_wind_down_done = false;
    std::string m_wind_down_error;
    traffic_session* m_traffic = nullptr; // once started, for progress observers
    sc_core::sc_time m_traffic_start;
    int m_interrupt = 0;
};

// The parts of a report every system fills alike: simulated time, end reason, the flow, the
// host CPU and the driver's own error/warning lines. The system adds its device and chip.
report::report start_report(const run_control& rc, const traffic_session& traffic,
                            const host_cpu& cpu, const driver_log_collector& log);

} // namespace nicsim::system
