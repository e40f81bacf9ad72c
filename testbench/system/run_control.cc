// SPDX-License-Identifier: MIT
#include "testbench/system/run_control.h"

#include <algorithm>

#include "driver/include/lx_kit/runtime.h"
#include "testbench/system/interrupt.h"

namespace nicsim::system {

using namespace sc_core;

void run_control::fail(const std::string& why) {
    if (m_failure.empty())
        m_failure = why;
    sc_stop();
}

void run_control::drive(const std::function<std::string()>& bring_up, traffic_session& traffic,
                        sc_time traffic_start, const hooks& h) {
    if (std::string err = bring_up(); !err.empty()) {
        fail(err);
        return;
    }
    if (h.after_up && !h.after_up()) {
        m_end_reason = "test hook";
        sc_stop();
        return;
    }
    wait(traffic_start);
    traffic.start();
    if (!traffic.finished())
        wait(traffic.done_event());
    if (traffic.failed())
        fail("traffic failed: " + traffic.error());
    if (h.after_traffic)
        h.after_traffic();
    m_end_reason = "traffic complete";
    sc_stop();
}

std::string run_control::simulate(sc_time limit, trace::trace_session* trace) {
    lx_kit::set_abort_mode(lx_kit::abort_mode::stop_simulation);
    // SystemC's own info messages ("Simulation stopped by user.") are noise in a report.
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    // In slices, so an interrupt (SIGINT/SIGTERM, interrupt.h) stops the run between two of
    // them: nothing can stop SystemC from a signal handler. Slicing changes nothing else: what
    // is due at a slice boundary runs at the start of the next slice, in the same order.
    const sc_time slice(10, SC_MS);
    while (sc_get_status() != SC_STOPPED && sc_time_stamp() < limit) {
        if ((m_interrupt = interrupt_signal()) != 0) {
            m_end_reason = "interrupted";
            break;
        }
        sc_start(std::min(slice, limit - sc_time_stamp()));
    }
    const std::string trace_error = trace ? trace::finish_quietly(*trace) : std::string();
    if (lx_kit::aborted())
        return "driver run stopped: " + lx_kit::abort_message();
    if (!m_failure.empty())
        return m_failure;
    if (!trace_error.empty())
        return trace_error;
    if (m_end_reason.empty())
        m_end_reason = "duration limit";
    return {};
}

report::report start_report(const run_control& rc, const traffic_session& traffic,
                            const host_cpu& cpu, const driver_log_collector& log) {
    report::report r;
    r.sim_time_s = sc_time_stamp().to_seconds();
    r.end_reason = rc.end_reason();
    r.flows.push_back(traffic.flow_report());
    r.host_cpu_cores = cpu.cores();
    r.host_cpu_busy_s = cpu.busy_time().to_seconds();
    log.append_findings(r.findings);
    if (rc.interrupt())
        r.findings.push_back({r.sim_time_s, "nicsim", "warning",
                              std::string("run interrupted by ") + signal_name(rc.interrupt()) +
                                  ": the report covers the simulation up to here"});
    return r;
}

} // namespace nicsim::system
