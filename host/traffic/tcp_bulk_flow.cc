// SPDX-License-Identifier: MIT
#include "host/traffic/tcp_bulk_flow.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace nicsim::traffic {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

std::string hex2(unsigned v) {
    char b[8];
    std::snprintf(b, sizeof b, "0x%02x", v & 0xffu);
    return b;
}

// Milliseconds of simulated time, the unit of Linux TCP timestamps (6.1: tcp_time_stamp is ms).
std::uint32_t now_ms() {
    return static_cast<std::uint32_t>(sc_time_stamp().value() / sc_time(1, sc_core::SC_MS).value());
}

void check_config(const std::string& who, const tcp_bulk_config& c) {
    const auto bad = [&](const std::string& what) {
        return std::invalid_argument("tcp_bulk_flow '" + who + "': " + what);
    };
    if (c.total_bytes == 0)
        throw bad("total_bytes must be > 0");
    if (c.mss == 0)
        throw bad("mss must be > 0");
    const std::uint64_t hdr =
        frame::ipv4_header_len + frame::tcp_header_len + (c.timestamps ? 12 : 0);
    if (c.mss + hdr > c.mtu)
        throw bad("mss " + std::to_string(c.mss) + " + " + std::to_string(hdr) +
                  " header bytes exceeds mtu " + std::to_string(c.mtu));
    if (c.mtu > 65535)
        throw bad("mtu must be <= 65535");
    if (c.window < c.mss)
        throw bad("window " + std::to_string(c.window) + " is smaller than one mss (" +
                  std::to_string(c.mss) + ")");
    if (c.window > (std::uint64_t{0xffff} << 14))
        throw bad("window exceeds the TCP maximum of 65535 << 14 bytes");
    if (c.ack_every == 0)
        throw bad("ack_every must be >= 1");
    if (c.dupack_threshold == 0)
        throw bad("dupack_threshold must be >= 1");
    if (c.rto_initial <= sc_core::SC_ZERO_TIME || c.rto_max < c.rto_initial)
        throw bad("need 0 < rto_initial <= rto_max");
    if (c.delayed_ack && c.delayed_ack_timeout <= sc_core::SC_ZERO_TIME)
        throw bad("delayed_ack_timeout must be > 0 when delayed_ack is on");
    if (c.sender.ip == c.receiver.ip && c.sender.port == c.receiver.port)
        throw bad("sender and receiver have the same IP address and port");
}

} // namespace

// --- flow ---------------------------------------------------------------------------------------

tcp_bulk_flow::tcp_bulk_flow(const sc_core::sc_module_name& nm, const tcp_bulk_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg), m_pattern(mix_seed(cfg.seed, 1)),
      m_wscale(window_scale_for(cfg.window)),
      m_isn_snd(static_cast<std::uint32_t>(mix_seed(cfg.seed, 2))),
      m_isn_rcv(static_cast<std::uint32_t>(mix_seed(cfg.seed, 3))) {
    check_config(name(), cfg);
    m_started = cfg.autostart;
    m_sender = std::make_unique<sender_ep>("sender", *this);
    m_receiver = std::make_unique<receiver_ep>("receiver", *this);
}

void tcp_bulk_flow::start() {
    m_started = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void tcp_bulk_flow::fail(const std::string& why) {
    if (m_res.finished)
        return;
    m_res.failed = true;
    m_res.error = std::string("tcp_bulk_flow '") + name() + "': " + why;
    m_res.finished = true;
    m_res.completion = sc_time_stamp();
    m_done.notify(sc_core::SC_ZERO_TIME);
}

void tcp_bulk_flow::finish() {
    if (m_res.finished)
        return;
    m_res.last_ack = sc_time_stamp();
    m_res.completion = m_res.last_ack;
    if (m_res.bytes_delivered != m_cfg.total_bytes) {
        // A cumulative ACK covered data the receiving application never got: a forged or
        // mis-routed ACK. Cannot happen with an honest path, so it is a failure, not a statistic.
        fail("all " + std::to_string(m_cfg.total_bytes) + " bytes acknowledged but only " +
             std::to_string(m_res.bytes_delivered) + " delivered");
        return;
    }
    const double secs = m_res.duration().to_seconds();
    m_res.goodput_bps = secs > 0 ? static_cast<double>(m_cfg.total_bytes) * 8.0 / secs : 0.0;
    m_res.finished = true;
    m_done.notify(sc_core::SC_ZERO_TIME);
}

// --- sender -------------------------------------------------------------------------------------

tcp_bulk_flow::sender_ep::sender_ep(const sc_core::sc_module_name& nm, tcp_bulk_flow& flow)
    : endpoint(nm, flow.m_cfg.sender), m_flow(flow), m_peer_wnd(flow.m_cfg.window),
      m_rto(flow.m_cfg.rto_initial),
      m_ip_id(static_cast<std::uint16_t>(mix_seed(flow.m_cfg.seed, 4))),
      m_ts_base(static_cast<std::uint32_t>(mix_seed(flow.m_cfg.seed, 5))) {
    SC_HAS_PROCESS(sender_ep);
    SC_THREAD(run);
}

bool tcp_bulk_flow::sender_ep::accepts(const frame::parsed_frame& f) const {
    const auto& c = m_flow.m_cfg;
    return f.protocol == frame::ip_proto_tcp && f.ip_src == c.receiver.ip &&
           f.src_port == c.receiver.port && f.dst_port == c.sender.port;
}

void tcp_bulk_flow::sender_ep::arm_rto() {
    m_rto_armed = true;
    m_rto_deadline = sc_time_stamp() + m_rto;
}

void tcp_bulk_flow::sender_ep::send_segment(std::uint64_t off) {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(c.mss, c.total_bytes - off));
    m_scratch.resize(len);
    flow.m_pattern.fill(off, m_scratch.data(), len);

    frame::tcp_fields t;
    t.src_port = c.sender.port;
    t.dst_port = c.receiver.port;
    t.seq = flow.wire_seq(off);
    t.ack = flow.m_isn_rcv + 1; // the receiver sends no data
    t.flags = frame::tcp_ack | frame::tcp_psh;
    t.window =
        static_cast<std::uint16_t>(std::min<std::uint64_t>(c.window >> flow.m_wscale, 0xffff));
    if (c.timestamps)
        t.options = frame::tcp_timestamp_option(m_ts_base + now_ms(), m_ts_recent);
    frame::ipv4_fields ip{c.sender.ip, c.receiver.ip, c.tos, 64, m_ip_id++, true};
    auto f = frame::build_tcp({c.receiver.mac, c.sender.mac}, ip, t, m_scratch.data(), len);

    auto& r = flow.m_res;
    if (r.segments_sent == 0)
        r.first_send = sc_time_stamp();
    ++r.segments_sent;
    if (off < m_max)
        ++r.segments_retransmitted;
    m_max = std::max<std::uint64_t>(m_max, off + len);
    if (!m_rto_armed)
        arm_rto();
    transmit(std::move(f), len);
}

void tcp_bulk_flow::sender_ep::on_ack(const frame::parsed_frame& f) {
    auto& flow = m_flow;
    auto& r = flow.m_res;
    if (!f.ip_checksum_ok || !f.l4_checksum_ok) {
        ++r.checksum_errors;
        flow.fail("ACK with a bad " + std::string(f.ip_checksum_ok ? "TCP" : "IPv4") +
                  " checksum arrived at the sender (corrupted on the way)");
        return;
    }
    if (!(f.tcp_flags & frame::tcp_ack))
        return;
    ++r.acks_received;
    std::uint32_t tsval, tsecr;
    if (flow.m_cfg.timestamps && frame::find_tcp_timestamp(f, tsval, tsecr))
        m_ts_recent = tsval;

    // Offset acknowledged, unwrapped around snd_una (ACKs never move further than 2^31 away).
    const auto delta = static_cast<std::int32_t>(f.tcp_ack - flow.wire_seq(m_una));
    if (delta < 0)
        return; // old ACK
    const std::uint64_t acked = m_una + static_cast<std::uint64_t>(delta);
    if (acked > m_max) {
        flow.fail("ACK for stream offset " + std::to_string(acked) +
                  " beyond the highest byte sent (" + std::to_string(m_max) + ")");
        return;
    }
    m_peer_wnd = static_cast<std::uint64_t>(f.tcp_window) << flow.m_wscale;
    if (acked > m_una) {
        m_una = acked;
        m_nxt = std::max(m_nxt, m_una);
        m_dupacks = 0;
        m_backoff = 0;
        m_rto = flow.m_cfg.rto_initial;
        m_rto_armed = false;
        if (m_una < m_max)
            arm_rto();
        return;
    }
    // acked == snd_una: a duplicate ACK if data is outstanding and it carries no data.
    if (m_una < m_max && f.payload_len == 0) {
        ++r.dup_acks;
        if (++m_dupacks == flow.m_cfg.dupack_threshold) {
            ++r.fast_retransmits;
            m_rto_armed = false; // restarted by send_segment
            send_segment(m_una);
        }
    }
}

void tcp_bulk_flow::sender_ep::run() {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    require_send();
    if (sc_time_stamp() < c.start_time)
        sc_core::wait(c.start_time - sc_time_stamp());
    while (!flow.m_started)
        sc_core::wait(flow.m_start);

    while (!flow.m_res.finished) {
        while (!inbox_empty() && !flow.m_res.finished) {
            const auto& in = pop_inbox();
            const auto f = frame::parse(in.bytes.data(), in.bytes.size());
            charge_rx(f.payload_len);
            on_ack(f);
        }
        if (flow.m_res.finished)
            break;
        if (m_una >= c.total_bytes) {
            flow.finish();
            break;
        }
        if (m_rto_armed && sc_time_stamp() >= m_rto_deadline) {
            ++flow.m_res.timeouts;
            if (++m_backoff > c.max_retransmits) {
                flow.fail("gave up after " + std::to_string(c.max_retransmits) +
                          " retransmission timeouts at stream offset " + std::to_string(m_una) +
                          " (the path delivers no data or no ACKs)");
                break;
            }
            m_rto = std::min(m_rto * 2.0, c.rto_max);
            m_nxt = m_una; // go-back-N: everything after snd_una is sent again
            m_dupacks = 0;
            m_rto_armed = false; // re-armed (with the backed-off RTO) by the next send
        }
        const std::uint64_t len = std::min<std::uint64_t>(c.mss, c.total_bytes - m_nxt);
        if (m_nxt < c.total_bytes && m_nxt + len <= m_una + m_peer_wnd) {
            const auto off = m_nxt;
            m_nxt += len;
            send_segment(off);
            continue;
        }
        if (m_rto_armed)
            wait_inbox(m_rto_deadline - sc_time_stamp());
        else
            wait_inbox();
    }
}

// --- receiver -----------------------------------------------------------------------------------

tcp_bulk_flow::receiver_ep::receiver_ep(const sc_core::sc_module_name& nm, tcp_bulk_flow& flow)
    : endpoint(nm, flow.m_cfg.receiver), m_flow(flow),
      m_ip_id(static_cast<std::uint16_t>(mix_seed(flow.m_cfg.seed, 6))),
      m_ts_base(static_cast<std::uint32_t>(mix_seed(flow.m_cfg.seed, 7))) {
    SC_HAS_PROCESS(receiver_ep);
    SC_THREAD(run);
}

bool tcp_bulk_flow::receiver_ep::accepts(const frame::parsed_frame& f) const {
    const auto& c = m_flow.m_cfg;
    return f.protocol == frame::ip_proto_tcp && f.ip_src == c.sender.ip &&
           f.src_port == c.sender.port && f.dst_port == c.receiver.port;
}

void tcp_bulk_flow::receiver_ep::send_ack() {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    frame::tcp_fields t;
    t.src_port = c.receiver.port;
    t.dst_port = c.sender.port;
    t.seq = flow.m_isn_rcv + 1;
    t.ack = flow.wire_seq(m_rcv_nxt);
    t.flags = frame::tcp_ack;
    // The application reads at once, so the whole window is always offered again.
    t.window =
        static_cast<std::uint16_t>(std::min<std::uint64_t>(c.window >> flow.m_wscale, 0xffff));
    if (c.timestamps)
        t.options = frame::tcp_timestamp_option(m_ts_base + now_ms(), m_ts_recent);
    frame::ipv4_fields ip{c.receiver.ip, c.sender.ip, c.tos, 64, m_ip_id++, true};
    auto f = frame::build_tcp({c.sender.mac, c.receiver.mac}, ip, t, nullptr, 0);
    m_unacked_segments = 0;
    m_delack_armed = false;
    ++flow.m_res.acks_sent;
    transmit(std::move(f), 0);
}

void tcp_bulk_flow::receiver_ep::deliver(std::uint64_t off, const std::uint8_t* p,
                                         std::size_t len) {
    // Only the part beyond rcv_nxt is new.
    if (off + len <= m_rcv_nxt)
        return;
    const std::size_t skip = static_cast<std::size_t>(m_rcv_nxt - off);
    m_rcv_nxt += len - skip;
    m_flow.m_res.bytes_delivered = m_rcv_nxt;
}

bool tcp_bulk_flow::receiver_ep::on_segment(const frame::parsed_frame& f) {
    auto& flow = m_flow;
    const auto& c = flow.m_cfg;
    auto& r = flow.m_res;
    if (f.payload_len == 0)
        return true; // nothing for the receiver (a stray ACK)

    const auto delta = static_cast<std::int32_t>(f.tcp_seq - flow.wire_seq(m_rcv_nxt));
    if (delta < 0 && static_cast<std::uint64_t>(-static_cast<std::int64_t>(delta)) > m_rcv_nxt) {
        flow.fail("segment with sequence number " + std::to_string(f.tcp_seq) +
                  " lies before the start of the stream");
        return false;
    }
    const std::uint64_t off =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(m_rcv_nxt) + delta);
    if (off + f.payload_len > c.total_bytes) {
        flow.fail("segment at stream offset " + std::to_string(off) + " with " +
                  std::to_string(f.payload_len) + " bytes runs past the end of the " +
                  std::to_string(c.total_bytes) + "-byte stream");
        return false;
    }

    // Every received byte is checked, including duplicates and out-of-order data.
    const std::size_t bad = flow.m_pattern.first_mismatch(off, f.payload, f.payload_len);
    const bool csum_ok = f.ip_checksum_ok && f.l4_checksum_ok;
    if (!csum_ok)
        ++r.checksum_errors;
    if (bad < f.payload_len) {
        r.mismatch = true;
        r.mismatch_offset = off + bad;
        r.mismatch_expected = flow.m_pattern.at(off + bad);
        r.mismatch_got = f.payload[bad];
        flow.fail("payload mismatch at stream offset " + std::to_string(r.mismatch_offset) +
                  ": expected " + hex2(r.mismatch_expected) + ", got " + hex2(r.mismatch_got) +
                  (csum_ok ? "" : " (segment checksum also bad)"));
        return false;
    }
    if (!csum_ok) {
        flow.fail("segment at stream offset " + std::to_string(off) + " has a bad " +
                  (f.ip_checksum_ok ? "TCP" : "IPv4") +
                  " checksum but an intact payload: a header was corrupted on the way");
        return false;
    }

    ++r.segments_received;
    std::uint32_t tsval, tsecr;
    if (c.timestamps && frame::find_tcp_timestamp(f, tsval, tsecr))
        m_ts_recent = tsval;

    if (off + f.payload_len <= m_rcv_nxt) {
        ++r.duplicate_segments;
        send_ack(); // a duplicate means our ACK was lost or late: repeat it now
        return true;
    }
    if (off > m_rcv_nxt) {
        ++r.out_of_order_segments;
        if (off + f.payload_len <= m_rcv_nxt + c.window)
            m_ooo.emplace(off, std::vector<std::uint8_t>(f.payload, f.payload + f.payload_len));
        send_ack(); // duplicate ACK tells the sender about the hole
        return true;
    }
    const bool filled_hole = !m_ooo.empty();
    deliver(off, f.payload, f.payload_len);
    while (!m_ooo.empty() && m_ooo.begin()->first <= m_rcv_nxt) {
        const auto it = m_ooo.begin();
        deliver(it->first, it->second.data(), it->second.size());
        m_ooo.erase(it);
    }
    ++m_unacked_segments;
    if (filled_hole || !c.delayed_ack || m_unacked_segments >= c.ack_every ||
        m_rcv_nxt == c.total_bytes) {
        send_ack();
    } else if (!m_delack_armed) {
        m_delack_armed = true;
        m_delack_deadline = sc_time_stamp() + c.delayed_ack_timeout;
    }
    return true;
}

void tcp_bulk_flow::receiver_ep::run() {
    auto& flow = m_flow;
    require_send();
    // The receiver keeps answering after the sender finished only while frames keep coming
    // (e.g. a retransmission after a lost final ACK); it stops for good on failure.
    for (;;) {
        if (flow.m_res.failed)
            return;
        if (m_delack_armed && sc_time_stamp() >= m_delack_deadline) {
            send_ack();
            continue;
        }
        if (!inbox_empty()) {
            const auto& in = pop_inbox();
            const auto f = frame::parse(in.bytes.data(), in.bytes.size());
            charge_rx(f.payload_len);
            if (!on_segment(f))
                return;
            continue;
        }
        if (m_delack_armed)
            wait_inbox(m_delack_deadline - sc_time_stamp());
        else
            wait_inbox();
    }
}

} // namespace nicsim::traffic
