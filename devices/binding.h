// SPDX-License-Identifier: MIT
// A device binding: everything nicsim knows about running one chip with its real Linux driver on
// a board, in one place per chip (devices/<chip>/). The system (sim/)
// builds the board from the platform profile, looks the binding up by the scenario's
// device.type and attaches it; it knows no chip itself.
//
// A binding says which host buses the chip has and validates its own scenario keys (the loader
// asks it, core/config/device_catalog.h). attach() creates the chip model and its link
// partner (air + access point, or cable + PC), wires them to the board's bus host and interrupt
// controller, and returns the attached device, which then brings the interface up through the
// real driver (device description, module, probe, ifup), carries the traffic's frames on both
// sides, attaches its trace decoders and fills its part of the report.
//
// Bindings register themselves by their CMake line (nicsim_add_binding in
// devices/CMakeLists.txt), which puts them into a generated table, as driver variants
// are registered.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/common/fault_point.h"
#include "host/board/board.h"
#include "core/config/device_catalog.h"
#include "core/config/scenario_config.h"
#include "core/report/report.h"
#include "host/traffic/endpoint.h"

struct net_device;

namespace nicsim {
class traffic_session;
namespace trace {
class trace_session;
}
} // namespace nicsim

namespace nicsim::bindings {

// One chip attached to a board, for one run.
class device {
  public:
    virtual ~device() = default;

    // The two ends of the traffic: the host (the board, with the MAC the driver will use) and
    // the peer behind the link partner.
    virtual traffic::endpoint_addr host_addr() const = 0;
    virtual traffic::endpoint_addr peer_addr() const = 0;
    // Host side: frames into the real driver's xmit; peer side: into the link partner; frames
    // the link partner receives go to the traffic's peer side.
    virtual void bind_traffic(traffic_session& traffic) = 0;
    // On the system thread, after board::power_on(): insmod, probe on the device description,
    // ifup, until the interface can carry the traffic (received frames go to `traffic`).
    // Returns "" or why it failed (text: this runs inside a SystemC thread).
    virtual std::string bring_up(traffic_session& traffic) = 0;
    // Bus decoders, interrupt and power tracks (only called when traces are on).
    virtual void attach_traces(trace::trace_session& trace) = 0;
    // The device's entry and its findings.
    virtual void fill_report(report::report& r) const = 0;
    // The driver's network device (null until probe registered it).
    virtual ::net_device* netdev() const = 0;
    // The fault points of the chip and its link (docs/faults.md), for the scenario's faults.
    virtual fault::point_list fault_points() { return {}; }
};

class binding {
  public:
    virtual ~binding() = default;
    // device.type, e.g. "wilc1000", and what the catalog tells the scenario loader.
    virtual const config::device_keys& keys() const = 0;
    const std::string& name() const { return keys().type; }
    // Throws run_error (naming the scenario key) for a scenario it cannot build.
    virtual std::unique_ptr<device> attach(board::board& b,
                                           const config::scenario_config& sc) const = 0;
};

// The bindings linked into this binary (the generated table), and lookup by device.type.
const std::vector<const binding*>& all();
const binding* find(const std::string& type);
// For the scenario loader: every binding's keys.
config::device_catalog catalog();

} // namespace nicsim::bindings
