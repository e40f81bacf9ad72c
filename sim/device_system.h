// SPDX-License-Identifier: MIT
// One run, composed from a scenario: the board built from the platform profile, the device
// binding the scenario's device.type names attached to it, the traffic between the host and the
// peer, the opt-in traces. run() brings the interface up through the real driver, runs the
// traffic and returns the report. The composition knows no chip (see devices/).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <systemc>

#include "devices/binding.h"
#include "host/board/board.h"
#include "core/config/platform_profile.h"
#include "core/config/scenario_config.h"
#include "sim/faults/fault_plan.h"
#include "core/report/report.h"
#include "sim/driver_log.h"
#include "sim/run_control.h"
#include "host/traffic_session.h"
#include "trace/trace_session.h"

namespace nicsim {

class device_system : public sc_core::sc_module {
  public:
    // How the device is attached; the default looks the binding up by device.type. Tests pass
    // their own to attach with non-default chip parameters.
    using attach_fn = std::function<std::unique_ptr<bindings::device>(
        board::board&, const config::scenario_config&)>;

    // Throws run_error for a scenario that cannot be built, naming the offending key.
    device_system(sc_core::sc_module_name name, const config::scenario_config& scenario,
                  const config::platform_profile& platform, attach_fn attach = {});
    ~device_system() override;

    // Runs the simulation (once per process: SystemC cannot restart) and returns the report.
    // Throws run_error when bring-up or the traffic fails.
    report::report run();
    // The same, returning the failure in `error` instead of throwing; the report is then the
    // run so far (end reason "run failed", the error as a finding). Under AddressSanitizer a
    // C++ throw after the coroutine-based simulation leaves stale stack poisoning behind (ASan
    // does not know SystemC's coroutine stacks), so sanitized tests of failing runs use this.
    report::report run(std::string& error);

    // For tests, run on the system thread: `after_up` once the interface is up (false ends the
    // run there, end reason "test hook"), `after_traffic` when the traffic has finished.
    std::function<bool()> after_up;
    std::function<void()> after_traffic;

    // The ifdown after the report (skbs_leaked). Tests that compare the report with the
    // models' live state after run() turn it off: the driver's ndo_stop changes that state.
    bool ifdown_after_run = true;

    board::board& board() { return m_board; }
    bindings::device& device() { return *m_device; }
    template <class D> D& device_as() { return dynamic_cast<D&>(*m_device); }
    traffic_session& traffic() { return *m_traffic; }
    const traffic_session& traffic() const { return *m_traffic; }
    ::net_device* netdev() const { return m_device->netdev(); }

  private:
    void main();
    report::report make_report() const;
    // ip link set down on the system thread after the report (run_control::wind_down): the
    // skbs still allocated afterwards are the driver's leaks.
    std::string ifdown();
    // The ifdown's outcome added to the report: skbs_leaked and its findings.
    void add_ifdown(report::report& r);

    // Simulated time the ifdown may take (ndo_stop and the settling below), and how long the
    // skbs the driver had in flight (a frame in its IRQ thread, a TX work item) get to be freed
    // after ndo_stop, polled every millisecond. Bounds of the check, not model parameters.
    static constexpr double ifdown_budget_s = 2.0;
    static constexpr double ifdown_settle_s = 0.1;
    // After traffic that completed (not one cut by its duration), the frames still in the driver
    // leave before ndo_stop, as they would before a user's `ip link set down`: the ifdown waits
    // up to this long, polled every millisecond, for the driver to free every skb (the board's
    // last ACK, queued the instant the last byte arrived). A cut run is taken down at once, so
    // a frame caught in the driver shows (tests/system/ifdown_test.cc).
    static constexpr double ifdown_drain_s = 0.1;
    std::size_t m_skbs_leaked = 0;

    config::scenario_config m_sc;
    driver_log_collector m_driver_log;
    board::board m_board;
    std::unique_ptr<bindings::device> m_device;
    std::unique_ptr<traffic_session> m_traffic;
    std::unique_ptr<faults::fault_plan> m_faults; // the scenario's faults: (none: null)
    system::run_control m_run;
    std::unique_ptr<trace::trace_session> m_trace; // last: detaches before the parts go
};

} // namespace nicsim
