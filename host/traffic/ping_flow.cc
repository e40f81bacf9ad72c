// SPDX-License-Identifier: MIT
#include "host/traffic/ping_flow.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nicsim::traffic {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

ping_flow::ping_flow(const sc_core::sc_module_name& nm, const ping_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg), m_pattern(mix_seed(cfg.seed, 21)),
      m_id(static_cast<std::uint16_t>(mix_seed(cfg.seed, 22))), m_started(cfg.autostart) {
    const auto bad = [&](const std::string& what) {
        return std::invalid_argument(std::string("ping_flow '") + name() + "': " + what);
    };
    if (cfg.count == 0 || cfg.count > 65535)
        throw bad("count must be 1..65535 (16-bit ICMP sequence numbers)");
    if (cfg.payload_size + frame::ipv4_header_len + frame::icmp_header_len > cfg.mtu)
        throw bad("payload_size " + std::to_string(cfg.payload_size) +
                  " + 28 header bytes exceeds mtu " + std::to_string(cfg.mtu));
    if (cfg.interval <= sc_core::SC_ZERO_TIME)
        throw bad("interval must be > 0 (it bounds the wait for a reply)");
    if (cfg.min_interval > cfg.interval)
        throw bad("min_interval must not exceed interval");
    m_pinger = std::make_unique<pinger_ep>("pinger", *this);
    m_responder = std::make_unique<responder_ep>("responder", *this);
}

void ping_flow::start() {
    m_started = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void ping_flow::fail(const std::string& why) {
    if (m_res.finished)
        return;
    m_res.failed = true;
    m_res.error = std::string("ping_flow '") + name() + "': " + why;
    m_res.finished = true;
    m_res.completion = sc_time_stamp();
    m_done.notify(sc_core::SC_ZERO_TIME);
}

void ping_flow::rtt_stats(const std::vector<sc_time>& rtts, sc_time& min, sc_time& avg,
                          sc_time& max, sc_time& mdev) {
    min = avg = max = mdev = sc_core::SC_ZERO_TIME;
    if (rtts.empty())
        return;
    // Exact integer arithmetic in time-resolution units (ps): n*sum(x^2) - sum(x)^2 >= 0 exactly,
    // so equal samples give mdev == 0, not a rounding residue.
    unsigned __int128 sum = 0, sum2 = 0;
    std::uint64_t lo = rtts.front().value(), hi = lo;
    for (const auto& t : rtts) {
        const std::uint64_t v = t.value();
        sum += v;
        sum2 += static_cast<unsigned __int128>(v) * v;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const auto n = static_cast<unsigned __int128>(rtts.size());
    const unsigned __int128 num = n * sum2 - sum * sum; // n^2 * variance
    min = sc_time::from_value(lo);
    max = sc_time::from_value(hi);
    avg = sc_time::from_value(static_cast<std::uint64_t>((sum + n / 2) / n)); // rounded
    const double sd = std::sqrt(static_cast<long double>(num)) / static_cast<double>(rtts.size());
    mdev = sc_time::from_value(static_cast<std::uint64_t>(std::llround(sd)));
}

void ping_flow::finish() {
    if (m_res.finished)
        return;
    auto& r = m_res;
    r.lost = r.transmitted - r.received;
    rtt_stats(r.rtts, r.rtt_min, r.rtt_avg, r.rtt_max, r.rtt_mdev);
    r.finished = true;
    r.completion = sc_time_stamp();
    m_done.notify(sc_core::SC_ZERO_TIME);
}

// --- pinger -------------------------------------------------------------------------------------

ping_flow::pinger_ep::pinger_ep(const sc_core::sc_module_name& nm, ping_flow& flow)
    : endpoint(nm, flow.m_cfg.pinger), m_flow(flow), m_sent_at(flow.m_cfg.count),
      m_replied(flow.m_cfg.count, false),
      m_ip_id(static_cast<std::uint16_t>(mix_seed(flow.m_cfg.seed, 23))) {
    SC_HAS_PROCESS(pinger_ep);
    SC_THREAD(run);
}

bool ping_flow::pinger_ep::accepts(const frame::parsed_frame& f) const {
    return f.protocol == frame::ip_proto_icmp && f.icmp_type == frame::icmp_echo_reply &&
           f.ip_src == m_flow.m_cfg.responder.ip && f.icmp_id == m_flow.m_id;
}

void ping_flow::pinger_ep::on_reply(const frame::parsed_frame& f, const sc_time& arrival) {
    auto& flow = m_flow;
    auto& r = flow.m_res;
    const auto& c = flow.m_cfg;
    if (!f.ip_checksum_ok || !f.l4_checksum_ok) {
        flow.fail(std::string("echo reply with a bad ") + (f.ip_checksum_ok ? "ICMP" : "IPv4") +
                  " checksum (corrupted on the way)");
        return;
    }
    const std::uint32_t seq = f.icmp_seq;
    if (seq == 0 || seq > r.transmitted) {
        flow.fail("echo reply for sequence " + std::to_string(seq) + " that was never sent");
        return;
    }
    const std::uint64_t base = static_cast<std::uint64_t>(seq) * c.payload_size;
    const std::size_t bad = flow.m_pattern.first_mismatch(base, f.payload, f.payload_len);
    if (f.payload_len != c.payload_size || bad < f.payload_len) {
        flow.fail("echo reply " + std::to_string(seq) + " does not carry the request's payload (" +
                  (f.payload_len != c.payload_size
                       ? std::to_string(f.payload_len) + " bytes instead of " +
                             std::to_string(c.payload_size)
                       : "byte " + std::to_string(bad) + " differs") +
                  ")");
        return;
    }
    if (m_replied[seq - 1]) {
        ++r.duplicates;
        return;
    }
    m_replied[seq - 1] = true;
    ++r.received;
    r.rtts.push_back(arrival - m_sent_at[seq - 1]);
}

void ping_flow::pinger_ep::drain() {
    while (!inbox_empty() && !m_flow.m_res.finished) {
        const auto& in = pop_inbox();
        const auto f = frame::parse(in.bytes.data(), in.bytes.size());
        charge_rx(f.payload_len);
        on_reply(f, in.arrival);
    }
}

void ping_flow::pinger_ep::run() {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    auto& r = flow.m_res;
    require_send();
    if (sc_time_stamp() < c.start_time)
        sc_core::wait(c.start_time - sc_time_stamp());
    while (!flow.m_started)
        sc_core::wait(flow.m_start);

    m_payload.resize(c.payload_size);
    for (std::uint32_t seq = 1; seq <= c.count; ++seq) {
        if (seq > 1) {
            // Adaptive: go on once the previous probe is answered, at the latest after interval.
            const sc_time deadline = m_sent_at[seq - 2] + c.interval;
            for (;;) {
                drain();
                if (r.finished)
                    return;
                if (m_replied[seq - 2] || sc_time_stamp() >= deadline)
                    break;
                wait_inbox(deadline - sc_time_stamp());
            }
            if (m_replied[seq - 2] && c.min_interval > sc_core::SC_ZERO_TIME) {
                const sc_time earliest = m_sent_at[seq - 2] + c.min_interval;
                if (earliest > sc_time_stamp())
                    sc_core::wait(earliest - sc_time_stamp());
            }
        }
        flow.m_pattern.fill(static_cast<std::uint64_t>(seq) * c.payload_size, m_payload.data(),
                            m_payload.size());
        frame::ipv4_fields ip{c.pinger.ip, c.responder.ip, c.tos, 64, m_ip_id++, true};
        auto f = frame::build_icmp_echo(
            {c.responder.mac, c.pinger.mac}, ip, frame::icmp_echo_request, flow.m_id,
            static_cast<std::uint16_t>(seq), m_payload.data(), m_payload.size());
        m_sent_at[seq - 1] = sc_time_stamp();
        ++r.transmitted;
        transmit(std::move(f), m_payload.size());
    }
    const sc_time deadline = m_sent_at[c.count - 1] + c.timeout;
    for (;;) {
        drain();
        if (r.finished)
            return;
        if (r.received == r.transmitted || sc_time_stamp() >= deadline)
            break;
        wait_inbox(deadline - sc_time_stamp());
    }
    flow.finish();
}

// --- responder ----------------------------------------------------------------------------------

ping_flow::responder_ep::responder_ep(const sc_core::sc_module_name& nm, ping_flow& flow)
    : endpoint(nm, flow.m_cfg.responder), m_flow(flow),
      m_ip_id(static_cast<std::uint16_t>(mix_seed(flow.m_cfg.seed, 24))) {
    SC_HAS_PROCESS(responder_ep);
    SC_THREAD(run);
}

bool ping_flow::responder_ep::accepts(const frame::parsed_frame& f) const {
    return f.protocol == frame::ip_proto_icmp && f.icmp_type == frame::icmp_echo_request;
}

void ping_flow::responder_ep::run() {
    auto& flow = m_flow;
    require_send();
    for (;;) {
        wait_inbox();
        while (!inbox_empty()) {
            const auto& in = pop_inbox();
            const auto f = frame::parse(in.bytes.data(), in.bytes.size());
            charge_rx(f.payload_len);
            if (!f.ip_checksum_ok || !f.l4_checksum_ok) {
                flow.fail(std::string("echo request with a bad ") +
                          (f.ip_checksum_ok ? "ICMP" : "IPv4") +
                          " checksum reached the responder (corrupted on the way)");
                return;
            }
            ++flow.m_res.requests_answered;
            // A kernel answers from the request: addresses swapped, same id, seq and data.
            frame::ipv4_fields ip{m_self.ip, f.ip_src, f.tos, 64, m_ip_id++, false};
            auto reply = frame::build_icmp_echo({f.eth_src, m_self.mac}, ip, frame::icmp_echo_reply,
                                                f.icmp_id, f.icmp_seq, f.payload, f.payload_len);
            transmit(std::move(reply), f.payload_len);
        }
    }
}

} // namespace nicsim::traffic
