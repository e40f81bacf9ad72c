// SPDX-License-Identifier: MIT
//
// ICMP echo like `ping -A` run as root: `pinger` sends echo request 1..count; the next request
// leaves as soon as the reply to the previous one has arrived (plus min_interval), or `interval`
// after the previous request if no reply came. `responder` answers every echo request addressed
// to it, like a kernel: same id, sequence and payload, type 0.
//
// RTT of one probe = (time the reply reached the pinger's stack, i.e. the endpoint's receive()
// call, like the kernel's SO_TIMESTAMP that iputils uses) - (time the pinger started sending the
// request, before its stack cost, like iputils stamping the packet before sendmsg()).
// Statistics are iputils' over the distinct replies: min, avg, max and
// mdev = sqrt(mean(rtt^2) - mean(rtt)^2) (population standard deviation), but computed exactly in
// picoseconds (iputils truncates to microseconds first).
//
// The flow finishes when all replies arrived, or `timeout` after the last request. A reply whose
// payload differs from the request fails the flow (corruption on the way), as does a bad checksum.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "host/traffic/endpoint.h"
#include "host/traffic/pattern.h"

namespace nicsim::traffic {

struct ping_config {
    endpoint_addr pinger{frame::mac_addr{{0x02, 0, 0, 0, 0, 0x01}}, frame::ipv4_addr{0xc0a80102},
                         0};
    endpoint_addr responder{frame::mac_addr{{0x02, 0, 0, 0, 0, 0x02}}, frame::ipv4_addr{0xc0a80101},
                            0};
    std::uint32_t count = 100;
    std::uint32_t payload_size = 56; // ping -s default
    std::uint32_t mtu = 1500;
    sc_core::sc_time interval =
        sc_core::sc_time(1, sc_core::SC_SEC);              // upper bound between requests
    sc_core::sc_time min_interval = sc_core::SC_ZERO_TIME; // after a reply (0 = root ping -A)
    sc_core::sc_time timeout = sc_core::sc_time(1, sc_core::SC_SEC); // wait after the last request
    std::uint8_t tos = 0;
    std::uint64_t seed = 1; // ICMP id, payload pattern
    sc_core::sc_time start_time = sc_core::SC_ZERO_TIME;
    bool autostart = true;
};

struct ping_result {
    bool finished = false;
    bool failed = false;
    std::string error;

    std::uint32_t transmitted = 0;
    std::uint32_t received = 0; // distinct replies
    std::uint32_t lost = 0;     // transmitted - received, set at finish
    std::uint32_t duplicates = 0;
    std::uint32_t requests_answered = 0; // by the responder

    sc_core::sc_time completion; // when the flow finished (or failed)
    sc_core::sc_time rtt_min, rtt_avg, rtt_max, rtt_mdev;
    std::vector<sc_core::sc_time> rtts; // per distinct reply, in arrival order
};

class ping_flow : public sc_core::sc_module {
  public:
    ping_flow(const sc_core::sc_module_name& nm, const ping_config& cfg);

    class pinger_ep;
    class responder_ep;
    pinger_ep& pinger() { return *m_pinger; }
    responder_ep& responder() { return *m_responder; }

    void start();
    const sc_core::sc_event& done_event() const { return m_done; }
    bool finished() const { return m_res.finished; }
    const ping_result& result() const { return m_res; }

    // min/avg/max/mdev of samples as documented above (exposed for tests and reports).
    static void rtt_stats(const std::vector<sc_core::sc_time>& rtts, sc_core::sc_time& min,
                          sc_core::sc_time& avg, sc_core::sc_time& max, sc_core::sc_time& mdev);

  private:
    friend class pinger_ep;
    friend class responder_ep;
    void fail(const std::string& why);
    void finish();

    ping_config m_cfg;
    payload_pattern m_pattern;
    std::uint16_t m_id;
    ping_result m_res;
    sc_core::sc_event m_done, m_start;
    bool m_started;
    std::unique_ptr<pinger_ep> m_pinger;
    std::unique_ptr<responder_ep> m_responder;
};

class ping_flow::pinger_ep : public endpoint {
  public:
    pinger_ep(const sc_core::sc_module_name& nm, ping_flow& flow);

  private:
    bool accepts(const frame::parsed_frame& f) const override;
    void run();
    void on_reply(const frame::parsed_frame& f, const sc_core::sc_time& arrival);
    void drain();
    ping_flow& m_flow;
    std::vector<sc_core::sc_time> m_sent_at; // index seq - 1
    std::vector<bool> m_replied;
    std::uint16_t m_ip_id;
    std::vector<std::uint8_t> m_payload;
};

class ping_flow::responder_ep : public endpoint {
  public:
    responder_ep(const sc_core::sc_module_name& nm, ping_flow& flow);

  private:
    bool accepts(const frame::parsed_frame& f) const override;
    void run();
    ping_flow& m_flow;
    std::uint16_t m_ip_id;
};

} // namespace nicsim::traffic
