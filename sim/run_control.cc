// SPDX-License-Identifier: MIT
#include "sim/run_control.h"

#include <algorithm>

#include "bus/common/local_time.h"
#include "kernel/include/lx_kit/lx_emul_api.h"
#include "kernel/include/lx_kit/runtime.h"
#include "sim/progress.h"
#include "sim/interrupt.h"

namespace nicsim::system {

namespace {
// How often a run checks for SIGINT/SIGTERM, in simulated time.
sc_core::sc_time interrupt_slice() {
    return sc_core::sc_time(10, sc_core::SC_MS);
}
} // namespace

using namespace sc_core;

void run_control::fail(const std::string& why) {
    if (m_failure.empty())
        m_failure = why;
    sc_stop();
}

void run_control::drive(const std::function<std::string()>& bring_up, traffic_session& traffic,
                        sc_time traffic_start, const hooks& h) {
    std::string err = bring_up();
    local_time::sync(); // the bring-up ran driver code, which may end ahead of SystemC time
    if (!err.empty()) {
        fail(err);
        return;
    }
    if (h.after_up && !h.after_up()) {
        m_end_reason = "test hook";
        sc_stop();
        return;
    }
    m_up = true;
    // A run whose duration ends before the traffic starts or finishes is wound down from here.
    wait(traffic_start, m_wind_down_request);
    if (m_wind_down_requested)
        return await_wind_down(h);
    traffic.start();
    m_traffic = &traffic;
    m_traffic_start = sc_time_stamp();
    if (!traffic.finished())
        wait(traffic.done_event() | m_wind_down_request);
    if (m_wind_down_requested)
        return await_wind_down(h);
    if (traffic.failed()) {
        fail("traffic failed: " + traffic.error());
        return;
    }
    traffic.completed();
    if (h.after_traffic)
        h.after_traffic();
    m_end_reason = traffic_complete;
    // Paused, not stopped: SystemC cannot restart after sc_stop, and the ifdown comes after
    // the report (wind_down()).
    sc_pause();
    await_wind_down(h);
}

void run_control::await_wind_down(const hooks& h) {
    if (!m_wind_down_requested)
        wait(m_wind_down_request);
    if (h.ifdown)
        m_wind_down_error = h.ifdown();
    m_wind_down_done = true;
    sc_stop();
}

bool run_control::wind_down(sc_time budget, std::string& error) {
    error.clear();
    if (!m_up || sc_get_status() == SC_STOPPED || lx_kit::aborted() || !m_failure.empty() ||
        (!traffic_completed() && m_end_reason != "duration limit"))
        return false;
    m_wind_down_requested = true;
    m_wind_down_request.notify(SC_ZERO_TIME);
    const sc_time end = sc_time_stamp() + budget;
    while (sc_get_status() != SC_STOPPED && !m_wind_down_done && sc_time_stamp() < end)
        local_time::start(end - sc_time_stamp());
    if (lx_kit::aborted())
        error = "driver run stopped: " + lx_kit::abort_message();
    else if (!m_wind_down_done)
        error = "did not complete within " + std::to_string(budget.to_seconds()) +
                " s of simulated time";
    else
        error = m_wind_down_error;
    return true;
}

std::string run_control::simulate(sc_time limit, trace::trace_session* trace) {
    lx_kit::set_abort_mode(lx_kit::abort_mode::stop_simulation);
    // SystemC's own info messages ("Simulation stopped by user.") are noise in a report.
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    if (progress_observer* o = current_progress_observer(); o && limit > SC_ZERO_TIME) {
        run_watched(limit, *o);
    } else {
        // In slices, so an interrupt (SIGINT/SIGTERM, interrupt.h) stops the run between two of
        // them: nothing can stop SystemC from a signal handler. Slicing changes nothing else:
        // what is due at a slice boundary runs at the start of the next slice, in the same order.
        while (sc_get_status() != SC_STOPPED && m_end_reason.empty() && sc_time_stamp() < limit) {
            if ((m_interrupt = interrupt_signal()) != 0) {
                m_end_reason = "interrupted";
                break;
            }
            local_time::start(std::min(interrupt_slice(), limit - sc_time_stamp()));
        }
    }
    std::string trace_error;
    if (trace) {
        const interrupts_held held; // a second Ctrl-C must not leave half-written traces
        trace_error = trace::finish_quietly(*trace);
    }
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

void run_control::run_watched(sc_time limit, progress_observer& o) {
    auto stopped = [this] {
        return sc_get_status() == SC_STOPPED || sc_end_of_simulation_invoked() ||
               !m_end_reason.empty();
    };
    report::flow_report flow;
    auto current_flow = [&]() -> const report::flow_report* {
        if (!m_traffic || m_traffic->idle())
            return nullptr;
        flow = m_traffic->flow_report();
        return &flow;
    };
    while (!stopped() && sc_time_stamp() < limit) {
        if ((m_interrupt = interrupt_signal()) != 0) {
            m_end_reason = "interrupted";
            break;
        }
        const sc_time now = sc_time_stamp();
        sc_time stop = std::min(o.next_stop(now), limit);
        if (stop <= now)
            stop = limit;
        // Never longer than an interrupt slice (see simulate()).
        const sc_time step = std::min(stop - now, interrupt_slice());
        local_time::start(step);
        if (stopped() || sc_time_stamp() >= limit)
            break;
        if (sc_time_stamp() >= stop)
            o.on_progress(sc_time_stamp(), current_flow(), m_traffic_start);
    }
    o.on_end(sc_time_stamp(), current_flow(), m_traffic_start);
}

report::report start_report(const run_control& rc, const traffic_session& traffic,
                            const host_cpu& cpu, const driver_log_collector& log) {
    report::report r;
    r.sim_time_s = sc_time_stamp().to_seconds();
    r.end_reason = rc.end_reason();
    if (!traffic.idle())
        r.flows = traffic.flow_reports();
    r.host_cpu_cores = cpu.cores();
    r.host_cpu_busy_s = cpu.busy_time().to_seconds();
    const lx_kit::cpu_accounting& k = lx_kit::cpu_accounts();
    r.host_cpu_driver_blocks = k.driver_blocks;
    r.host_cpu_driver_code_s = double(k.driver_code_ps) * 1e-12;
    r.host_cpu_context_switches = k.context_switches;
    r.host_cpu_context_switch_s = double(k.context_switch_ps) * 1e-12;
    r.host_cpu_hardirqs = k.hardirqs;
    r.host_cpu_hardirq_s = double(k.hardirq_ps) * 1e-12;
    r.skbs_in_flight = lx_emul_skb_live_count();
    log.append_findings(r.findings);
    if (rc.interrupt())
        r.findings.push_back({r.sim_time_s, "nicsim", "warning",
                              std::string("run interrupted by ") + signal_name(rc.interrupt()) +
                                  ": the report covers the simulation up to here"});
    return r;
}

} // namespace nicsim::system
