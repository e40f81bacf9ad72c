// SPDX-License-Identifier: MIT
#include "sim/device_system.h"

#include <optional>

#include "bus/common/local_time.h"
#include "kernel/include/lx_kit/lx_emul_api.h"
#include "devices/netdev_support.h"
#include "core/config/units.h"
#include "sim/runner.h"
#include "host/host_stacks.h"

namespace nicsim {

namespace {

device_system::attach_fn by_type(const config::scenario_config& sc) {
    const bindings::binding* b = bindings::find(sc.device.type);
    if (!b)
        throw run_error("device.type: no binding for '" + sc.device.type +
                        "' is linked into this binary");
    return
        [b](board::board& board, const config::scenario_config& s) { return b->attach(board, s); };
}

} // namespace

device_system::device_system(sc_core::sc_module_name name, const config::scenario_config& scenario,
                             const config::platform_profile& platform, attach_fn attach)
    : sc_module(name), m_sc(scenario), m_board(platform) {
    m_driver_log.set_chip(m_sc.device.type);
    local_time::set_quantum(
        sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(m_sc.sim.quantum.ps) *
                                     sc_core::sc_time(1, sc_core::SC_PS).value()));
    m_device = (attach ? attach : by_type(m_sc))(m_board, m_sc);
    if (!m_sc.faults.empty()) {
        m_faults = std::make_unique<faults::fault_plan>(m_sc.faults, m_sc.seed);
        if (std::string err = m_faults->attach(m_device->fault_points()); !err.empty())
            throw run_error(err);
    }
    std::optional<traffic_session::stack_configs> stacks;
    if (m_sc.host.stack == "linux")
        stacks = system::host_stack_configs(m_sc, platform);
    m_traffic =
        std::make_unique<traffic_session>(m_sc.traffic, m_sc.seed, m_device->host_addr(),
                                          m_device->peer_addr(), stacks ? &*stacks : nullptr);
    // Opt-in traces (scenario.trace): nothing is attached when they are off.
    if ((m_trace = trace::trace_session::open(m_sc.trace))) {
        m_trace->attach_tasks();
        m_device->attach_traces(*m_trace);
        using point = trace::trace_session::capture_point;
        m_traffic->set_taps(
            m_trace->capture(point::board, "host",
                             "the board's network device: into ndo_start_xmit, out of netif_rx"),
            m_trace->capture(point::peer, "peer",
                             "the far host's network stack, behind the link partner"));
    }
    m_device->bind_traffic(*m_traffic);
    SC_HAS_PROCESS(device_system);
    SC_THREAD(main);
}

device_system::~device_system() {
    // The capture taps point into the trace session, which goes first.
    if (m_traffic)
        m_traffic->set_taps({}, {});
}

void device_system::main() {
    system::run_control::hooks h;
    if (after_up)
        h.after_up = [this] { return after_up(); };
    if (after_traffic)
        h.after_traffic = [this] { after_traffic(); };
    h.ifdown = [this] { return ifdown(); };
    m_run.drive(
        [this] {
            m_board.power_on(m_sc.seed);
            return m_device->bring_up(*m_traffic);
        },
        *m_traffic, board::to_sc(m_sc.traffic.start), h);
}

report::report device_system::run() {
    std::string error;
    report::report r = run(error);
    if (!error.empty())
        throw run_error(error);
    return r;
}

report::report device_system::run(std::string& error) {
    error = m_run.simulate(board::to_sc(m_sc.duration_limit), m_trace.get());
    if (!error.empty() && m_faults)
        error += "\nwith the scenario's faults:" + m_faults->summary();
    report::report r = make_report();
    if (!error.empty()) {
        // The report so far, so a failed run keeps what it measured (and its findings).
        r.end_reason = "run failed";
        r.findings.push_back({r.sim_time_s, "nicsim", "error", "run failed: " + error});
        return r;
    }
    add_ifdown(r);
    return r;
}

std::string device_system::ifdown() {
    ::net_device* nd = m_device->netdev();
    if (!nd)
        return "the driver registered no network device";
    const sc_core::sc_time step(1, sc_core::SC_MS);
    if (m_run.traffic_completed())
        bindings::await_skbs_freed(sc_core::sc_time(ifdown_drain_s, sc_core::SC_SEC), step);
    const int rc =
        bindings::close_netdev(nd, sc_core::sc_time(ifdown_settle_s, sc_core::SC_SEC), step);
    m_skbs_leaked = lx_emul_skb_live_count();
    if (m_skbs_leaked > 0)
        lx_emul_skb_report_leaks(); // one driver-log line per skb: who allocated it, its length
    return rc ? "ndo_stop returned " + std::to_string(rc) : std::string();
}

void device_system::add_ifdown(report::report& r) {
    if (!ifdown_after_run)
        return;
    std::string error;
    if (!m_run.wind_down(sc_core::sc_time(ifdown_budget_s, sc_core::SC_SEC), error))
        return; // not a measured end (test hook, interrupted): the skbs were not checked
    if (!error.empty()) {
        r.findings.push_back(
            {r.sim_time_s, "nicsim", "warning",
             "ifdown after the run (ndo_stop): " + error + "; skbs_leaked not checked"});
        return;
    }
    r.skbs_leaked = m_skbs_leaked;
    if (m_skbs_leaked > 0)
        r.findings.push_back(
            {r.sim_time_s, "lx_emul", "error",
             std::to_string(m_skbs_leaked) + " skbs still allocated after ifdown (ndo_stop, then " +
                 config::to_string(config::duration{int64_t(ifdown_settle_s * 1e12)}) +
                 "): leaked by the driver; the driver log names each (lx_emul: leak: …)"});
}

report::report device_system::make_report() const {
    report::report r = system::start_report(m_run, *m_traffic, m_board.cpu(), m_driver_log);
    if (const auto spi = m_board.spi_controller_cpu())
        r.host_cpu_spi_controller = report::spi_controller_part{spi->messages, spi->irqs,
                                                                spi->sleeps, spi->cpu.to_seconds()};
    m_device->fill_report(r);
    if (m_faults)
        m_faults->fill_report(r);
    if (m_trace)
        for (const auto& t : m_trace->truncations())
            r.findings.push_back({double(t.t_ps) * 1e-12, "trace", "warning",
                                  "trace file '" + t.file + "' truncated at " +
                                      config::to_string(config::duration{int64_t(t.t_ps)}) +
                                      ": trace.max_size " +
                                      config::to_string(config::byte_size{m_trace->max_size()}) +
                                      " (--trace-max-size) reached, later records are not in it"});
    return r;
}

} // namespace nicsim
