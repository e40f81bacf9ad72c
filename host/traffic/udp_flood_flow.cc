// SPDX-License-Identifier: MIT
#include "host/traffic/udp_flood_flow.h"

#include <stdexcept>

namespace nicsim::traffic {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {
constexpr std::size_t seq_bytes = 8;
}

udp_flood_flow::udp_flood_flow(const sc_core::sc_module_name& nm, const udp_flood_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg), m_pattern(mix_seed(cfg.seed, 11)),
      m_started(cfg.autostart) {
    const auto bad = [&](const std::string& what) {
        return std::invalid_argument(std::string("udp_flood_flow '") + name() + "': " + what);
    };
    if (cfg.payload_size < seq_bytes)
        throw bad("payload_size must be >= 8 (the sequence number)");
    if (cfg.payload_size + frame::ipv4_header_len + frame::udp_header_len > cfg.mtu)
        throw bad("payload_size " + std::to_string(cfg.payload_size) +
                  " + 28 header bytes exceeds mtu " + std::to_string(cfg.mtu));
    if (cfg.rate_bps < 0)
        throw bad("rate_bps must be >= 0 (0 = as fast as send allows)");
    m_sender = std::make_unique<sender_ep>("sender", *this);
    m_receiver = std::make_unique<receiver_ep>("receiver", *this);
}

void udp_flood_flow::start() {
    m_started = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void udp_flood_flow::fail(const std::string& why) {
    if (m_res.finished)
        return;
    m_res.failed = true;
    m_res.error = std::string("udp_flood_flow '") + name() + "': " + why;
    m_res.finished = true;
    m_res.completion = sc_time_stamp();
    m_done.notify(sc_core::SC_ZERO_TIME);
}

void udp_flood_flow::finish() {
    if (m_res.finished)
        return;
    auto& r = m_res;
    r.lost = r.sent - r.received;
    const double tx = (r.last_send - r.first_send).to_seconds();
    r.offered_bps = tx > 0 ? static_cast<double>(r.sent) * m_cfg.payload_size * 8.0 / tx : 0.0;
    const double rx =
        r.last_receive > r.first_send ? (r.last_receive - r.first_send).to_seconds() : 0;
    r.goodput_bps = rx > 0 ? static_cast<double>(r.payload_bytes_received) * 8.0 / rx : 0.0;
    r.finished = true;
    r.completion = sc_time_stamp();
    m_done.notify(sc_core::SC_ZERO_TIME);
}

udp_flood_flow::sender_ep::sender_ep(const sc_core::sc_module_name& nm, udp_flood_flow& flow)
    : endpoint(nm, flow.m_cfg.sender), m_flow(flow),
      m_ip_id(static_cast<std::uint16_t>(mix_seed(flow.m_cfg.seed, 12))) {
    SC_HAS_PROCESS(sender_ep);
    SC_THREAD(run);
}

void udp_flood_flow::sender_ep::run() {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    auto& r = flow.m_res;
    require_send();
    if (sc_time_stamp() < c.start_time)
        sc_core::wait(c.start_time - sc_time_stamp());
    while (!flow.m_started)
        sc_core::wait(flow.m_start);

    // Pacing: datagram i leaves at first_send + i * gap (no drift: computed, not accumulated).
    const sc_time gap = c.rate_bps > 0 ? sc_time(c.payload_size * 8.0 / c.rate_bps, sc_core::SC_SEC)
                                       : sc_core::SC_ZERO_TIME;
    std::vector<std::uint8_t>& payload = m_payload; // a member: see endpoint::transmit
    payload.assign(c.payload_size, 0);
    for (std::uint64_t seq = 0; (c.count == 0 || seq < c.count) && !r.finished; ++seq) {
        if (seq == 0)
            r.first_send = sc_time_stamp();
        else if (gap > sc_core::SC_ZERO_TIME) {
            const sc_time due = r.first_send + gap * static_cast<double>(seq);
            if (due > sc_time_stamp())
                sc_core::wait(due - sc_time_stamp());
        }
        for (std::size_t i = 0; i < seq_bytes; ++i)
            payload[i] = static_cast<std::uint8_t>(seq >> (8 * (seq_bytes - 1 - i)));
        flow.m_pattern.fill(seq * c.payload_size + seq_bytes, payload.data() + seq_bytes,
                            c.payload_size - seq_bytes);
        frame::ipv4_fields ip{c.sender.ip, c.receiver.ip, c.tos, 64, m_ip_id++, true};
        auto f = frame::build_udp({c.receiver.mac, c.sender.mac}, ip, c.sender.port,
                                  c.receiver.port, payload.data(), payload.size());
        r.last_send = sc_time_stamp();
        ++r.sent;
        transmit(std::move(f), payload.size());
    }
    if (r.finished)
        return;
    if (r.received < r.sent)
        sc_core::wait(c.drain_time, flow.m_all_received);
    flow.finish();
}

udp_flood_flow::receiver_ep::receiver_ep(const sc_core::sc_module_name& nm, udp_flood_flow& flow)
    : endpoint(nm, flow.m_cfg.receiver), m_flow(flow), m_seen(flow.m_cfg.count, false) {
    // count 0 (until the run ends): m_seen grows with the sequence numbers that arrive.
    SC_HAS_PROCESS(receiver_ep);
    SC_THREAD(run);
}

bool udp_flood_flow::receiver_ep::accepts(const frame::parsed_frame& f) const {
    const auto& c = m_flow.m_cfg;
    return f.protocol == frame::ip_proto_udp && f.ip_src == c.sender.ip &&
           f.src_port == c.sender.port && f.dst_port == c.receiver.port;
}

void udp_flood_flow::receiver_ep::on_datagram(const frame::parsed_frame& f,
                                              const sc_time& arrival) {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    auto& r = flow.m_res;
    std::string why;
    std::uint64_t seq = 0;
    if (!f.ip_checksum_ok || !f.l4_checksum_ok) {
        why = std::string("bad ") + (f.ip_checksum_ok ? "UDP" : "IPv4") + " checksum";
    } else if (f.payload_len != c.payload_size) {
        why = "payload of " + std::to_string(f.payload_len) + " bytes, expected " +
              std::to_string(c.payload_size);
    } else {
        for (std::size_t i = 0; i < seq_bytes; ++i)
            seq = (seq << 8) | f.payload[i];
        // Unbounded flows: a datagram is counted as sent before it is handed to the port.
        if (seq >= (c.count ? c.count : r.sent)) {
            why = "sequence number " + std::to_string(seq) + " out of range";
        } else {
            const auto base = seq * c.payload_size + seq_bytes;
            const auto bad = flow.m_pattern.first_mismatch(base, f.payload + seq_bytes,
                                                           f.payload_len - seq_bytes);
            if (bad < f.payload_len - seq_bytes)
                why = "datagram " + std::to_string(seq) + " payload byte " +
                      std::to_string(bad + seq_bytes) + " differs from the pattern";
        }
    }
    if (!why.empty()) {
        ++r.corrupted;
        if (c.fail_on_corruption)
            flow.fail("corrupted datagram: " + why);
        return;
    }
    if (seq >= m_seen.size())
        m_seen.resize(seq + 1, false);
    if (m_seen[seq]) {
        ++r.duplicates;
        return;
    }
    m_seen[seq] = true;
    if (m_any && seq < m_max_seq)
        ++r.reordered;
    m_max_seq = m_any ? std::max(m_max_seq, seq) : seq;
    m_any = true;
    ++r.received;
    r.payload_bytes_received += f.payload_len;
    r.last_receive = arrival;
    // Kept current (finish() computes the same) so a flow cut short by the duration has it too.
    const double rx =
        r.last_receive > r.first_send ? (r.last_receive - r.first_send).to_seconds() : 0;
    r.goodput_bps = rx > 0 ? static_cast<double>(r.payload_bytes_received) * 8.0 / rx : 0.0;
    if (r.received == c.count)
        flow.m_all_received.notify(sc_core::SC_ZERO_TIME);
}

void udp_flood_flow::receiver_ep::run() {
    for (;;) {
        wait_inbox();
        while (!inbox_empty()) {
            if (m_flow.m_res.finished)
                return; // late arrivals after the drain window do not change the result
            const auto& in = pop_inbox();
            const auto f = frame::parse(in.bytes.data(), in.bytes.size());
            charge_rx(f.payload_len);
            on_datagram(f, in.arrival);
        }
    }
}

} // namespace nicsim::traffic
