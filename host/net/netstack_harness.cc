// SPDX-License-Identifier: MIT
#include "host/net/netstack_harness.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace nicsim::net {

namespace fr = traffic::frame;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

void harness_config::validate() const {
    const auto bad = [](const std::string& k, const std::string& why) {
        return std::invalid_argument("netstack harness '" + k + "': " + why);
    };
    if (rate_bps < 0)
        throw bad("rate", "must be >= 0");
    if (shaper != "tbf" && shaper != "netem")
        throw bad("shaper", "'" + shaper + "' (tbf, netem)");
    if (delay_on != "ack" && delay_on != "data")
        throw bad("delay-on", "'" + delay_on + "' (ack, data)");
    if (write_size == 0 || read_size == 0)
        throw bad(write_size == 0 ? "write-size" : "read-size", "must be > 0");
    if (poll <= sc_core::SC_ZERO_TIME || sample_interval < poll)
        throw bad("sample-interval", "need 0 < poll <= sample interval");
    sender.net.validate();
    receiver.net.validate();
}

netstack_harness::netstack_harness(const sc_core::sc_module_name& nm, const harness_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg) {
    m_cfg.validate();
    host_stack_config txc = m_cfg.sender, rxc = m_cfg.receiver;
    txc.seed = rxc.seed = m_cfg.seed;
    const bool netem = m_cfg.shaper == "netem";
    txc.qdisc_orphans_at_enqueue = netem;
    m_tx = std::make_unique<host_stack>("sender_host", txc);
    m_rx = std::make_unique<host_stack>("receiver_host", rxc);
    const bool delay_data = netem || m_cfg.delay_on == "data";
    m_data = std::make_unique<shaped_link>("veth_data", m_cfg.rate_bps,
                                           delay_data ? m_cfg.delay : sc_core::SC_ZERO_TIME);
    m_ack = std::make_unique<shaped_link>("veth_ack", 0.0,
                                          delay_data ? sc_core::SC_ZERO_TIME : m_cfg.delay);
    m_tx->attach(m_data->port());
    m_rx->attach(m_ack->port());
    m_data->wake = [this] { m_tx->netif_wake_queue(); };
    m_ack->wake = [this] { m_rx->netif_wake_queue(); };
    m_data->sink = [this](const std::uint8_t* d, std::size_t n) { m_rx->netif_rx(d, n); };
    m_ack->sink = [this](const std::uint8_t* d, std::size_t n) { m_tx->netif_rx(d, n); };

    tcp_addr a{fr::mac_addr::parse("02:00:00:00:00:01"), fr::ipv4_addr::parse("10.0.0.1"), 40000};
    tcp_addr b{fr::mac_addr::parse("02:00:00:00:00:02"), fr::ipv4_addr::parse("10.0.0.2"), 5201};
    // SACK only when both hosts' SYNs offer it.
    tcp_socket_config sa{a, b, m_cfg.seed, 0, 0, true, -1, m_cfg.receiver.net.tcp_sack ? 1 : 0};
    tcp_socket_config sb{b, a, m_cfg.seed, 0, 0, false, -1, m_cfg.sender.net.tcp_sack ? 1 : 0};
    m_tx_sock = &m_tx->open_tcp(sa);
    m_rx_sock = &m_rx->open_tcp(sb);
    // Each side reads the other's window with its own shift (peer_wscale -1); that is only right
    // when both derive the same shift from their tcp_rmem (tcp_select_initial_window).
    if (m_tx_sock->wscale() != m_rx_sock->wscale())
        throw std::invalid_argument("netstack harness: the two hosts' tcp_rmem give different "
                                    "window scales; not supported yet");
    SC_HAS_PROCESS(netstack_harness);
    SC_THREAD(writer);
    SC_THREAD(reader);
    SC_THREAD(observer);
}

void netstack_harness::writer() {
    std::uint64_t left = m_cfg.total_bytes;
    for (;;) {
        const std::uint64_t n =
            m_cfg.total_bytes ? std::min<std::uint64_t>(left, m_cfg.write_size) : m_cfg.write_size;
        if (n == 0 || m_tx->write(*m_tx_sock, n) < n)
            return; // done, or the connection failed
        left -= m_cfg.total_bytes ? n : 0;
    }
}

void netstack_harness::reader() {
    for (;;) {
        if (m_rx->read(*m_rx_sock, m_cfg.read_size) == 0)
            return;
    }
}

void netstack_harness::observer() {
    sc_time next_sample = sc_core::SC_ZERO_TIME;
    // The reference's clock: base RTT = the round-trip delay + one full frame at the rate.
    const sc_time base_rtt =
        m_cfg.delay + (m_cfg.rate_bps > 0 ? sc_time(1514.0 * 8 / m_cfg.rate_bps, sc_core::SC_SEC)
                                          : sc_core::SC_ZERO_TIME);
    for (;;) {
        const auto& s = *m_tx_sock;
        const auto& c = s.cc();
        while (m_cwnd_at_base_rtt.size() < 10 && base_rtt > sc_core::SC_ZERO_TIME &&
               sc_time_stamp() >= base_rtt * double(m_cwnd_at_base_rtt.size() + 1))
            m_cwnd_at_base_rtt.push_back(c.cwnd);
        // Rounds ("RTTs" of slow start): round r starts when the previous one ends and covers
        // the cwnd segments the sender may have out at that moment; it ends when all of them
        // are acknowledged. Counting what cwnd allows (not what was already sent) keeps TSQ,
        // which delays sending within a round, from shifting the boundaries.
        if (!m_round_started && c.snd_nxt > 0) {
            m_round_started = true;
            m_round_end = c.snd_una + std::uint64_t{c.cwnd} * s.mss();
        } else if (m_round_started && m_rounds.size() < 10 && c.snd_una >= m_round_end) {
            m_rounds.push_back(c.cwnd);
            m_round_times.push_back(sc_time_stamp().to_seconds());
            m_round_end = c.snd_una + std::uint64_t{c.cwnd} * s.mss();
        }
        const std::uint64_t bytes = m_tx->qdisc().backlog_bytes() + m_data->bytes_in_shaper();
        // Frames, as tc shows them behind tbf (tbf_segment splits GSO skbs larger than its burst).
        const auto pkts =
            static_cast<std::uint32_t>(m_tx->qdisc().backlog_frames() + (m_data->busy() ? 1 : 0));
        if (sc_time_stamp() >= m_cfg.warmup && sc_time_stamp() >= m_next_poll) {
            m_next_poll = sc_time_stamp() + m_cfg.poll;
            if (!m_warm) {
                m_warm = true;
                m_read_at_warmup = m_rx_sock->stats().bytes_read;
            }
            m_backlog_bytes_sum += static_cast<double>(bytes);
            m_backlog_pkts_sum += pkts;
            m_wmem_sum += static_cast<double>(s.wmem_alloc());
            ++m_polls;
        }
        if (sc_time_stamp() >= next_sample) {
            m_samples.push_back(
                {sc_time_stamp().to_seconds(), c.cwnd, s.srtt_us(), bytes, pkts, s.wmem_alloc()});
            next_sample += m_cfg.sample_interval;
        }
        // Fine polling while rounds are counted, so a round's end is seen at the ACK that ends it
        // (at 1 Gbit/s an ACK every ~25 us).
        const bool counting = m_rounds.size() < 10 || m_cwnd_at_base_rtt.size() < 10;
        wait(counting ? std::min(m_cfg.poll, sc_time(5, sc_core::SC_US)) : m_cfg.poll);
    }
}

harness_result netstack_harness::result() const {
    harness_result r;
    const auto& s = *m_tx_sock;
    const auto& st = s.stats();
    r.duration_s = sc_time_stamp().to_seconds();
    const auto read = m_rx_sock->stats().bytes_read;
    r.goodput_bps = r.duration_s > 0 ? static_cast<double>(read) * 8.0 / r.duration_s : 0;
    const double steady = r.duration_s - m_cfg.warmup.to_seconds();
    r.goodput_steady_bps =
        m_warm && steady > 0 ? static_cast<double>(read - m_read_at_warmup) * 8.0 / steady : 0;
    r.cwnd_per_rtt = m_rounds;
    r.cwnd_per_rtt_t = m_round_times;
    r.cwnd_at_base_rtt = m_cwnd_at_base_rtt;
    if (m_polls) {
        r.qdisc_backlog_bytes_mean = m_backlog_bytes_sum / static_cast<double>(m_polls);
        r.qdisc_backlog_pkts_mean = m_backlog_pkts_sum / static_cast<double>(m_polls);
        r.wmem_alloc_mean = m_wmem_sum / static_cast<double>(m_polls);
    }
    r.srtt_us = s.srtt_us();
    r.rto_us = s.rto_us();
    r.retransmits = st.retransmits;
    r.timeouts = st.timeouts;
    r.fast_retransmits = st.fast_retransmits;
    r.tsq_throttled = st.tsq_throttled;
    r.bytes_written = st.bytes_written;
    r.bytes_acked = st.bytes_acked;
    r.bytes_read = read;
    r.link_frames = m_data->frames();
    r.link_bytes = m_data->bytes();
    r.qdisc_drops = m_tx->qdisc_drops();
    r.pattern_errors = m_rx_sock->stats().pattern_errors;
    r.final_cwnd = s.cc().cwnd;
    r.final_ssthresh = s.cc().ssthresh;
    r.pacing_rate_Bps = s.pacing_rate();
    r.tsq_limit_bytes = s.tsq_limit_now();
    r.sndbuf = s.sndbuf();
    r.rcvbuf = m_rx_sock->rcvbuf();
    r.rcv_wnd = m_rx_sock->rcv_wnd();
    if (const auto* cu = dynamic_cast<const cubic*>(&s.cc_algo()))
        r.hystart_found = cu->hystart_found();
    r.samples = m_samples;
    r.error = s.failed() ? s.error() : m_rx_sock->error();
    return r;
}

std::string netstack_harness::to_json(const harness_result& r, const harness_config& c) {
    std::ostringstream o;
    char b[64];
    const auto num = [&](double v) {
        std::snprintf(b, sizeof b, "%.6g", v);
        return std::string(b);
    };
    o << "{\"goodput_bps\":" << num(r.goodput_bps) << ",\"cwnd_per_rtt\":[";
    for (std::size_t i = 0; i < r.cwnd_per_rtt.size(); ++i)
        o << (i ? "," : "") << r.cwnd_per_rtt[i];
    o << "],\"cwnd_at_base_rtt\":[";
    for (std::size_t i = 0; i < r.cwnd_at_base_rtt.size(); ++i)
        o << (i ? "," : "") << r.cwnd_at_base_rtt[i];
    o << "],\"cwnd_per_rtt_t\":[";
    for (std::size_t i = 0; i < r.cwnd_per_rtt_t.size(); ++i)
        o << (i ? "," : "") << num(r.cwnd_per_rtt_t[i]);
    o << "],\"qdisc_backlog_bytes_mean\":" << num(r.qdisc_backlog_bytes_mean)
      << ",\"qdisc_backlog_pkts_mean\":" << num(r.qdisc_backlog_pkts_mean)
      << ",\"srtt_us\":" << r.srtt_us << ",\"retransmits\":" << r.retransmits << ",\"samples\":[";
    for (std::size_t i = 0; i < r.samples.size(); ++i) {
        const auto& s = r.samples[i];
        o << (i ? "," : "") << "{\"t\":" << num(s.t) << ",\"cwnd\":" << s.cwnd
          << ",\"srtt_us\":" << s.srtt_us << ",\"backlog_bytes\":" << s.backlog_bytes
          << ",\"backlog_pkts\":" << s.backlog_pkts << ",\"wmem_alloc\":" << s.wmem_alloc << "}";
    }
    o << "],\"goodput_steady_bps\":" << num(r.goodput_steady_bps)
      << ",\"wmem_alloc_mean\":" << num(r.wmem_alloc_mean) << ",\"rto_us\":" << r.rto_us
      << ",\"timeouts\":" << r.timeouts << ",\"fast_retransmits\":" << r.fast_retransmits
      << ",\"tsq_throttled\":" << r.tsq_throttled << ",\"tsq_limit_bytes\":" << r.tsq_limit_bytes
      << ",\"final_cwnd\":" << r.final_cwnd << ",\"final_ssthresh\":" << r.final_ssthresh
      << ",\"pacing_rate_Bps\":" << r.pacing_rate_Bps
      << ",\"hystart_found\":" << (r.hystart_found ? "true" : "false") << ",\"sndbuf\":" << r.sndbuf
      << ",\"rcvbuf\":" << r.rcvbuf << ",\"rcv_wnd\":" << r.rcv_wnd
      << ",\"bytes_written\":" << r.bytes_written << ",\"bytes_acked\":" << r.bytes_acked
      << ",\"bytes_read\":" << r.bytes_read << ",\"qdisc_drops\":" << r.qdisc_drops
      << ",\"duration_s\":" << num(r.duration_s)
      << ",\"steady_state_from_s\":" << num(c.warmup.to_seconds())
      << ",\"link\":{\"rate_bps\":" << num(c.rate_bps)
      << ",\"delay_us\":" << num(c.delay.to_seconds() * 1e6) << ",\"shaper\":\"" << c.shaper
      << "\",\"delay_on\":\"" << (c.shaper == "netem" ? "data" : c.delay_on) << "\"}"
      << ",\"settings\":{\"tcp_congestion_control\":\"" << c.sender.net.tcp_congestion_control
      << "\",\"tcp_limit_output_bytes\":" << c.sender.net.tcp_limit_output_bytes
      << ",\"sk_pacing_shift\":" << c.sender.net.sk_pacing_shift
      << ",\"txqueuelen\":" << c.sender.net.txqueuelen
      << ",\"gso\":" << (c.sender.net.gso ? "true" : "false") << "},\"error\":\"" << r.error
      << "\"}";
    return o.str();
}

} // namespace nicsim::net
