// SPDX-License-Identifier: MIT
// Builds the traffic flow a scenario asks for (ttcp/iperf bulk TCP, UDP flood, ping) between a
// host-side and a peer-side address, and turns its result into a flow report. Shared by every
// device system: the system only decides what carries the frames on each side.
#pragma once

#include <memory>
#include <string>

#include <systemc>

#include "testbench/config/scenario_config.h"
#include "testbench/report/report.h"
#include "testbench/traffic/endpoint.h"
#include "testbench/traffic/ping_flow.h"
#include "testbench/traffic/tcp_bulk_flow.h"
#include "testbench/traffic/udp_flood_flow.h"

namespace nicsim {

class traffic_session {
  public:
    // The flow does not start by itself: call start() once the interface is up.
    traffic_session(const config::traffic_config& cfg, std::uint64_t seed,
                    const traffic::endpoint_addr& host, const traffic::endpoint_addr& peer);

    traffic::endpoint& host_side() { return *m_host; }
    traffic::endpoint& peer_side() { return *m_peer; }

    void start();
    const sc_core::sc_event& done_event() const;
    bool finished() const;
    bool failed() const;
    std::string error() const;
    report::flow_report flow_report() const;

  private:
    config::traffic_config m_cfg;
    std::unique_ptr<traffic::tcp_bulk_flow> m_tcp;
    std::unique_ptr<traffic::udp_flood_flow> m_udp;
    std::unique_ptr<traffic::ping_flow> m_ping;
    traffic::endpoint* m_host = nullptr;
    traffic::endpoint* m_peer = nullptr;
};

} // namespace nicsim
