// SPDX-License-Identifier: MIT
//
// UDP flood (iperf -u like): the sender emits `count` datagrams of `payload_size` bytes, either
// paced at `rate_bps` (application payload bits per second) or as fast as the port accepts them
// (rate_bps = 0). Each payload starts with an 8-byte big-endian sequence number, the rest is the
// payload pattern at offset seq * payload_size + 8, so the receiver can tell lost, reordered,
// duplicated and corrupted datagrams apart.
//
// rate_bps = 0 relies on backpressure: port.send (or port.cpu_cost) must let simulated time pass
// (block while the driver's queue is stopped, charge CPU time); if neither does, all datagrams
// leave at the same instant - legal, but rarely what a scenario means.
//
// The flow finishes when every datagram has arrived, or `drain_time` after the last one was sent
// (whatever has not arrived by then is lost). A corrupted datagram (bad checksum or payload that
// differs from the pattern) fails the flow when fail_on_corruption is set (default): the run must
// not silently pass with damaged data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <algorithm>
#include <vector>

#include <systemc>

#include "host/traffic/endpoint.h"
#include "host/traffic/pattern.h"

namespace nicsim::traffic {

struct udp_flood_config {
    endpoint_addr sender{frame::mac_addr{{0x02, 0, 0, 0, 0, 0x01}}, frame::ipv4_addr{0xc0a80102},
                         40001};
    endpoint_addr receiver{frame::mac_addr{{0x02, 0, 0, 0, 0, 0x02}}, frame::ipv4_addr{0xc0a80101},
                           5001};
    std::uint64_t count = 10000;       // 0 = until the run ends (the flow never finishes)
    std::uint32_t payload_size = 1472; // bytes of UDP payload; 1500 - 20 - 8; >= 8
    std::uint32_t mtu = 1500;
    double rate_bps = 0; // payload bit/s; 0 = as fast as send allows
    std::uint8_t tos = 0;
    sc_core::sc_time drain_time = sc_core::sc_time(100, sc_core::SC_MS);
    bool fail_on_corruption = true;
    std::uint64_t seed = 1;
    sc_core::sc_time start_time = sc_core::SC_ZERO_TIME;
    bool autostart = true;
};

struct udp_flood_result {
    bool finished = false;
    bool failed = false;
    std::string error;

    std::uint64_t sent = 0;
    std::uint64_t received = 0;   // distinct intact datagrams
    std::uint64_t lost = 0;       // sent - received, set at finish
    std::uint64_t reordered = 0;  // arrived with a lower sequence number than one already seen
    std::uint64_t duplicates = 0; // intact datagram whose sequence number was already seen
    std::uint64_t corrupted = 0;  // bad checksum, bad sequence number or pattern mismatch
    std::uint64_t payload_bytes_received = 0; // of the distinct intact datagrams

    sc_core::sc_time first_send, last_send, last_receive;
    sc_core::sc_time completion; // when the flow finished (or failed)
    double offered_bps = 0;      // sent payload bits / (last_send - first_send)
    double goodput_bps = 0;      // received payload bits / (last_receive - first_send)
};

class udp_flood_flow : public sc_core::sc_module {
  public:
    udp_flood_flow(const sc_core::sc_module_name& nm, const udp_flood_config& cfg);

    class sender_ep;
    class receiver_ep;
    sender_ep& sender() { return *m_sender; }
    receiver_ep& receiver() { return *m_receiver; }

    void start();
    const sc_core::sc_event& done_event() const { return m_done; }
    bool finished() const { return m_res.finished; }
    const udp_flood_result& result() const { return m_res; }

  private:
    friend class sender_ep;
    friend class receiver_ep;
    void fail(const std::string& why);
    void finish();

    udp_flood_config m_cfg;
    payload_pattern m_pattern;
    udp_flood_result m_res;
    sc_core::sc_event m_done, m_start, m_all_received;
    bool m_started;
    std::unique_ptr<sender_ep> m_sender;
    std::unique_ptr<receiver_ep> m_receiver;
};

class udp_flood_flow::sender_ep : public endpoint {
  public:
    sender_ep(const sc_core::sc_module_name& nm, udp_flood_flow& flow);

  private:
    bool accepts(const frame::parsed_frame&) const override { return false; } // sends only
    void run();
    udp_flood_flow& m_flow;
    std::uint16_t m_ip_id;
    std::vector<std::uint8_t> m_payload;
};

class udp_flood_flow::receiver_ep : public endpoint {
  public:
    receiver_ep(const sc_core::sc_module_name& nm, udp_flood_flow& flow);

  private:
    bool accepts(const frame::parsed_frame& f) const override;
    void run();
    void on_datagram(const frame::parsed_frame& f, const sc_core::sc_time& arrival);
    udp_flood_flow& m_flow;
    std::vector<bool> m_seen;
    bool m_any = false;
    std::uint64_t m_max_seq = 0;
};

} // namespace nicsim::traffic
