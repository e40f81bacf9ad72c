// SPDX-License-Identifier: MIT
//
// tcp_socket: construction, the transmit path and the ACK (sender) path. See tcp_socket.h.
#include "host/net/tcp_socket.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/frame_buffers.h"
#include "host/net/tsq.h"

namespace nicsim::net {

namespace fr = traffic::frame;
using sc_core::sc_time;

namespace {

constexpr std::size_t frame_overhead(bool ts) {
    return fr::eth_header_len + fr::ipv4_header_len + fr::tcp_header_len + (ts ? 12 : 0);
}

// tcp_select_initial_window: rcv_wscale = ilog2(max(tcp_rmem[2], rmem_max, space)) - 15.
unsigned initial_wscale(const net_settings& cfg, std::uint64_t space) {
    if (!cfg.tcp_window_scaling)
        return 0;
    constexpr std::uint64_t rmem_max = 212992; // net.core.rmem_max default (SK_RMEM_MAX)
    std::uint64_t s = std::max<std::uint64_t>({space, cfg.tcp_rmem[2], rmem_max});
    int log2 = 0;
    while ((s >> 1) != 0) {
        s >>= 1;
        ++log2;
    }
    return static_cast<unsigned>(std::clamp(log2 - 15, 0, 14));
}

} // namespace

tcp_socket::tcp_socket(const net_settings& cfg, const tcp_socket_config& sc, env e)
    : m_cfg(cfg), m_sc(sc), m_env(std::move(e)), m_ca(make_congestion_control(cfg)),
      m_out_pattern(traffic::mix_seed(sc.seed, sc.client ? 1 : 8)),
      m_in_pattern(traffic::mix_seed(sc.seed, sc.client ? 8 : 1)),
      m_isn_out(static_cast<std::uint32_t>(traffic::mix_seed(sc.seed, sc.client ? 2 : 3))),
      m_isn_in(static_cast<std::uint32_t>(traffic::mix_seed(sc.seed, sc.client ? 3 : 2))),
      m_ip_id(static_cast<std::uint16_t>(traffic::mix_seed(sc.seed, sc.client ? 4 : 6))),
      m_ts_base(static_cast<std::uint32_t>(traffic::mix_seed(sc.seed, sc.client ? 5 : 7))),
      m_mss(cfg.mss()),
      m_seg_truesize(
          cfg.truesize(static_cast<std::uint32_t>(cfg.mss() + frame_overhead(cfg.tcp_timestamps)))),
      m_rtt(static_cast<std::uint64_t>(cfg.tcp_rto_min.to_seconds() * 1e6),
            static_cast<std::uint64_t>(cfg.tcp_rto_max.to_seconds() * 1e6),
            static_cast<std::uint64_t>(cfg.tcp_timeout_init.to_seconds() * 1e6)),
      m_wmem(std::make_shared<wmem_account>()),
      m_sack_ok(cfg.tcp_sack && (sc.peer_sack < 0 || sc.peer_sack != 0)) {
    cfg.validate();
    if (!m_env.xmit || !m_env.notify)
        throw std::invalid_argument("tcp_socket: env.xmit and env.notify are required");
    m_wmem->notify = m_env.notify;
    m_cc.cwnd = cfg.tcp_init_cwnd;
    m_cc.pacing_rate = ~0ull; // sk_pacing_rate starts unlimited (sock_init_data) until srtt
    m_rto_cur_us = m_rtt.rto_us();

    // tcp_init_buffer_space: the send buffer is sized for the initial cwnd right away.
    m_sndbuf = std::max<std::uint64_t>(
        cfg.tcp_wmem[1],
        sndbuf_expand(m_mss, m_cc.cwnd, cfg.tcp_init_cwnd, cfg.tcp_reordering, cfg.tcp_wmem[2]));

    // Receive side: tcp_select_initial_window on tcp_full_space, then tcp_init_buffer_space.
    m_rcvbuf = cfg.tcp_rmem[1];
    const std::uint64_t full = cfg.win_from_space(m_rcvbuf);
    m_wscale = initial_wscale(cfg, full);
    std::uint64_t space = full > m_mss ? full / m_mss * m_mss : full;
    m_rcv_wnd = m_wscale ? space : std::min<std::uint64_t>(space, 65535);
    m_window_clamp = std::min<std::uint64_t>(std::uint64_t{65535} << m_wscale, full);
    m_rcv_ssthresh = std::min(m_rcv_wnd, m_window_clamp);
    m_rcvq_space = std::min<std::uint64_t>(
        {m_rcv_ssthresh, m_rcv_wnd, std::uint64_t{cfg.tcp_init_cwnd} * m_mss});
    m_peer_wscale = sc.peer_wscale >= 0 ? static_cast<unsigned>(sc.peer_wscale) : m_wscale;
    // The peer's SYN window is never scaled (RFC 7323): at most 65535 until its first ACK.
    m_snd_wnd = std::min<std::uint64_t>(65535, space);
    m_syn.isn = m_isn_out;
    m_syn.mss = static_cast<std::uint16_t>(cfg.mtu - fr::ipv4_header_len - fr::tcp_header_len);
    m_syn.window = static_cast<std::uint16_t>(std::min<std::uint64_t>(m_rcv_wnd, 65535));
    m_syn.wscale = cfg.tcp_window_scaling ? static_cast<int>(m_wscale) : -1;
    m_syn.sack_permitted = cfg.tcp_sack;
    m_syn.timestamps = cfg.tcp_timestamps;
}

void tcp_socket::charge(sc_time t, cpu_context c) {
    if (m_env.cpu_cost && t > sc_core::SC_ZERO_TIME)
        m_env.cpu_cost(t, c);
}

std::uint32_t tcp_socket::now_ts() const {
    static const sc_time ms(1, sc_core::SC_MS); // built once: sc_time from a unit is costly
    return m_ts_base + static_cast<std::uint32_t>(local_time::now().value() / ms.value());
}

std::uint64_t tcp_socket::elapsed_us(const sc_time& since) {
    static const sc_time us(1, sc_core::SC_US);
    const auto now = local_time::now();
    return now > since ? (now - since).value() / us.value() : 0;
}

std::uint64_t tcp_socket::now_us() const {
    static const sc_time us(1, sc_core::SC_US);
    return local_time::now().value() / us.value();
}

void tcp_socket::fail(const std::string& why) {
    if (m_error.empty())
        m_error = why;
    m_rto_armed = false;
    notify_sleepers(m_write_space, m_write_sleepers);
    notify_sleepers(m_data_ready, m_data_sleepers);
}

bool tcp_socket::accepts(const fr::parsed_frame& f) const {
    return f.ok && f.ethertype == fr::ethertype_ipv4 && f.protocol == fr::ip_proto_tcp &&
           f.ip_dst == m_sc.local.ip && f.dst_port == m_sc.local.port &&
           f.ip_src == m_sc.remote.ip && f.src_port == m_sc.remote.port;
}

std::vector<std::uint8_t> tcp_socket::build(std::uint32_t seq, std::uint8_t flags,
                                            const std::uint8_t* p, std::size_t len) {
    fr::tcp_fields& t = m_hdr; // a member: its options buffer is reused
    t.options.clear();
    t.src_port = m_sc.local.port;
    t.dst_port = m_sc.remote.port;
    t.seq = seq;
    t.ack = wire_seq_in(m_rcv_nxt);
    t.flags = flags;
    // Every segment carries a window; tcp_select_window moves rcv_wup with it.
    const std::uint64_t raw = select_window();
    t.window = static_cast<std::uint16_t>(std::min<std::uint64_t>(raw, 0xffff));
    if (m_cfg.tcp_timestamps)
        fr::append_tcp_timestamp_option(t.options, now_ts(), m_ts_recent);
    if (m_sack_ok && len == 0 && !m_sack_blocks.empty()) {
        // tcp_established_options: as many blocks as fit next to the timestamps (3 of 4). Only
        // pure ACKs carry them here: the model's data senders never hold out-of-order data.
        fr::sack_block b[fr::max_sack_blocks];
        const std::size_t room = m_cfg.tcp_timestamps ? 3 : fr::max_sack_blocks;
        const std::size_t n = std::min(room, m_sack_blocks.size());
        for (std::size_t i = 0; i < n; ++i)
            b[i] = {wire_seq_in(m_sack_blocks[i].first), wire_seq_in(m_sack_blocks[i].second)};
        fr::append_tcp_sack_option(t.options, b, n);
        ++m_stats.sack_acks_sent;
    }
    fr::ipv4_fields ip{m_sc.local.ip, m_sc.remote.ip, m_sc.tos, 64, m_ip_id++, true};
    return fr::build_tcp({m_sc.remote.mac, m_sc.local.mac}, ip, t, p, len);
}

// --- sender accounting ------------------------------------------------------------------------

std::uint64_t tcp_socket::wmem_queued() const {
    // sk_wmem_queued: truesize of every skb in the write and retransmit queues.
    const std::uint64_t bytes = m_write_seq - m_snd_una;
    const std::uint64_t segs = (bytes + m_mss - 1) / m_mss;
    return bytes + segs * (m_seg_truesize - m_mss);
}

std::uint64_t tcp_socket::write_space() const {
    if (failed())
        return 0;
    const std::uint64_t q = wmem_queued();
    return q < m_sndbuf ? m_sndbuf - q : 0;
}

std::uint64_t tcp_socket::append(std::uint64_t n) {
    // tcp_sendmsg_locked allocates a new skb only while sk_stream_memory_free(); the skb it is
    // filling may take it past sk_sndbuf by up to one segment.
    const std::uint64_t space = write_space();
    if (space == 0)
        return 0;
    const std::uint64_t take = std::min<std::uint64_t>(n, (space + m_mss - 1) / m_mss * m_mss);
    m_write_seq += take;
    m_stats.bytes_written += take;
    return take;
}

std::uint32_t tcp_socket::packets_out() const {
    return m_packets_out;
}

std::uint32_t tcp_socket::in_flight() const {
    // tcp_packets_in_flight = packets_out - (sacked_out + lost_out) + retrans_out; in NewReno
    // recovery the head is both lost and retransmitted, so only the emulated SACKs count.
    const std::uint32_t left = m_sacked_out + m_lost_out;
    return (m_packets_out > left ? m_packets_out - left : 0) + m_retrans_out;
}

std::uint64_t tcp_socket::tsq_limit_now(unsigned factor) const {
    return tsq_limit(m_cc.pacing_rate, m_cfg.sk_pacing_shift,
                     m_last_truesize ? m_last_truesize : m_seg_truesize,
                     m_cfg.tcp_limit_output_bytes, m_cfg.tcp_internal_pacing, factor);
}

std::uint32_t tcp_socket::tso_segs() const {
    if (!m_cfg.gso)
        return 1;
    return tso_autosize(m_cc.pacing_rate, m_cfg.sk_pacing_shift, m_min_rtt_us,
                        m_cfg.tcp_tso_rtt_log, m_cfg.gso_max_size, m_cfg.gso_max_segs, m_mss,
                        m_cfg.tcp_min_tso_segs);
}

std::uint32_t tcp_socket::new_data_segs(std::uint64_t off, std::uint64_t quota) const {
    // tcp_tso_segs / tcp_mss_split_point: as many full segments as TSO autosizing, the cwnd
    // quota, the receive window and the data allow (tcp_tso_should_defer, which may wait for a
    // fuller skb, is not modelled).
    const std::uint64_t wnd = (m_snd_una + m_snd_wnd - off) / m_mss;
    const std::uint64_t data = (m_write_seq - off) / m_mss;
    return static_cast<std::uint32_t>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>({tso_segs(), quota, wnd, data})));
}

bool tcp_socket::is_cwnd_limited() const {
    // include/net/tcp.h: tcp_is_cwnd_limited.
    if (m_is_cwnd_limited)
        return true;
    if (m_cc.in_slow_start())
        return m_cc.cwnd < 2 * m_max_packets_out;
    return false;
}

void tcp_socket::cwnd_validate(bool limited) {
    // tcp_output.c: tcp_cwnd_validate - remember per window whether cwnd was the limit.
    if (m_snd_una >= m_cwnd_usage_seq || limited ||
        (!m_is_cwnd_limited && m_packets_out > m_max_packets_out)) {
        m_is_cwnd_limited = limited;
        m_max_packets_out = m_packets_out;
        m_cwnd_usage_seq = m_snd_nxt;
    }
}

void tcp_socket::arm_rto() {
    m_rto_armed = true;
    m_rto_deadline = local_time::now() + sc_time(static_cast<double>(m_rto_cur_us), sc_core::SC_US);
}

// --- transmit ---------------------------------------------------------------------------------

bool tcp_socket::tsq_throttles(std::uint64_t payload, bool retrans) {
    // TCP Small Queues (tcp_small_queue_check), with this skb's truesize; retransmissions get
    // twice the room (tcp_xmit_retransmit_queue).
    const std::uint32_t tsz = m_cfg.truesize(static_cast<std::uint32_t>(
        payload + (m_seg_truesize - m_mss - m_cfg.skb_truesize_overhead)));
    const std::uint64_t limit =
        tsq_limit(m_cc.pacing_rate, m_cfg.sk_pacing_shift, tsz, m_cfg.tcp_limit_output_bytes,
                  m_cfg.tcp_internal_pacing, retrans ? 1 : 0);
    // tcp_rtx_queue_empty_or_single_skb: with at most one unacknowledged skb, send anyway.
    const bool single_skb = m_snd_una >= m_last_skb_start;
    // sk_wmem_alloc starts at 1, not 0 (sock.c sk_alloc: refcount_set(&sk->sk_wmem_alloc, 1)),
    // and tcp_small_queue_check compares that refcount: with the 2 * truesize floor binding, two
    // skbs fit below TCP, not three.
    if (m_wmem->alloc + 1 <= limit || single_skb)
        return false;
    m_wmem->throttled = true;
    ++m_stats.tsq_throttled;
    return true;
}

void tcp_socket::push() {
    if (failed())
        return;
    if (m_window_update_wanted) {
        m_window_update_wanted = false;
        send_ack();
    }
    // tcp_tsq_write: lost segments first, then new data.
    xmit_retransmit_queue();
    if (failed())
        return;
    bool sent = false, sent_new = false, cwnd_limited = false;
    for (;;) {
        const std::uint64_t off = m_snd_nxt;
        const bool retrans = off < m_high_sent;
        std::uint64_t len;
        std::uint32_t segs = 1;
        if (retrans) {
            const auto it =
                std::lower_bound(m_rtx.begin(), m_rtx.end(), off,
                                 [](const sent_seg& s, std::uint64_t o) { return s.start < o; });
            if (it == m_rtx.end() || it->start != off)
                break; // cannot happen: go-back-N restarts at a segment boundary
            len = it->end - it->start;
        } else {
            len = std::min<std::uint64_t>(m_mss, m_write_seq - off);
            if (len == 0)
                break;
            // Nagle with Minshall's variant (tcp_nagle_check, tcp_minshall_check): a sub-MSS
            // segment waits only while an earlier sub-MSS segment is unacknowledged. (Classic
            // Nagle held a transfer's last partial segment until everything before it was
            // acknowledged, which the receiver's delayed ACK stretched by 40 ms.)
            if (len < m_mss && m_packets_out > 0 && m_snd_sml > m_snd_una && m_snd_sml <= m_snd_nxt)
                break;
        }
        if (m_cfg.tcp_internal_pacing && local_time::now() < m_next_departure)
            break; // tcp_pacing_check; the deadline wakes us
        if (in_flight() >= m_cc.cwnd) {
            cwnd_limited = true;
            break;
        }
        if (off + len > m_snd_una + m_snd_wnd)
            break; // tcp_snd_wnd_test
        if (!retrans && len == m_mss)
            segs = new_data_segs(off, m_cc.cwnd - in_flight());
        if (tsq_throttles(segs * len, retrans))
            break;
        send_skb(off, segs, retrans);
        if (!retrans && len < m_mss)
            m_snd_sml = off + len; // tcp_minshall_update: the end of the last small segment
        sent = true;
        sent_new |= !retrans;
        if (failed())
            return;
    }
    cwnd_limited |= in_flight() >= m_cc.cwnd;
    if (sent || cwnd_limited)
        cwnd_validate(cwnd_limited);
    if (sent_new)
        schedule_loss_probe(false); // tcp_write_xmit: one loss probe per tail loss episode
}

void tcp_socket::send_skb(std::uint64_t off, std::uint32_t segs, bool retrans) {
    // Costs first, while the socket state is consistent (the hook may let other processes run).
    if (m_env.costs) {
        charge(m_env.costs->per_skb_alloc, cpu_context::softirq);
        charge(m_env.costs->per_segment_sent * static_cast<double>(segs), cpu_context::softirq);
    }
    const bool fast_rtx = off < m_snd_nxt; // a retransmission in recovery (SACK: any)
    if (m_in_recovery)
        m_prr_out += segs; // tcp_event_new_data_sent / tcp_retransmit_skb
    m_last_skb_start = std::max(m_last_skb_start, off);
    // A member, not a local: the thread may park for good inside the xmit below (the run ends),
    // and heap owned only by a parked SystemC stack looks leaked to LeakSanitizer.
    std::vector<std::vector<std::uint8_t>>& frames = m_frames;
    frames.clear();
    if (frames.capacity() == 0) // the last list went with a GSO skb: take a freed one's
        frames = frame_buffers::take<std::vector<std::vector<std::uint8_t>>>();
    std::uint64_t payload = 0;
    for (std::uint32_t i = 0; i < segs; ++i) {
        std::uint64_t len;
        if (off < m_high_sent) {
            auto it =
                std::lower_bound(m_rtx.begin(), m_rtx.end(), off,
                                 [](const sent_seg& s, std::uint64_t o) { return s.start < o; });
            len = it->end - it->start;
            it->retransmitted = true;
            it->sent = local_time::now();
            ++m_stats.retransmits;
        } else {
            len = std::min<std::uint64_t>(m_mss, m_write_seq - off);
            m_rtx.push_back({off, off + len, local_time::now(), false});
            m_high_sent = off + len;
        }
        if (!fast_rtx) {
            if (m_packets_out == 0)
                arm_rto(); // tcp_event_new_data_sent: tcp_rearm_rto when nothing was out
            ++m_packets_out;
            m_snd_nxt = off + len;
            m_cc.snd_nxt = m_snd_nxt;
        }
        ++m_stats.segments_sent;
        m_scratch.resize(len);
        m_out_pattern.fill(off, m_scratch.data(), len);
        frames.push_back(
            build(wire_seq_out(off), fr::tcp_ack | fr::tcp_psh, m_scratch.data(), len));
        payload += len;
        off += len;
    }
    if (!m_rto_armed)
        arm_rto();

    auto s = std::make_unique<skb>();
    const std::size_t hdr = frames.front().size() - (payload / segs);
    if (segs == 1) {
        s->data = std::move(frames.front());
        s->truesize = m_cfg.truesize(static_cast<std::uint32_t>(s->data.size()));
    } else {
        // One skb head for all segments, payload in page frags: truesize = payload + one header
        // + the skb overhead (tcp_stream_alloc_skb + skb_copy_to_page_nocache).
        s->gso_frames = std::move(frames);
        s->truesize = m_cfg.truesize(static_cast<std::uint32_t>(payload + hdr));
    }
    m_last_truesize = s->truesize;
    s->priority = m_sc.priority;
    s->created = local_time::now();
    // tcp_wfree: the budget comes back when whoever holds the skb frees it; the stack thread is
    // woken to run tcp_write_xmit again (the TSQ tasklet: tcp_tsq_handler).
    m_wmem->alloc += s->truesize;
    s->sk = m_wmem;
    s->destructor = [](skb& b) {
        auto* acct = static_cast<wmem_account*>(b.sk.get());
        acct->alloc -= b.truesize;
        ++acct->frees;
        acct->throttled = false;
        if (acct->notify)
            acct->notify();
    };
    s->charge_owner = [](skb& b, std::int64_t d) {
        auto* acct = static_cast<wmem_account*>(b.sk.get());
        acct->alloc = static_cast<std::uint64_t>(static_cast<std::int64_t>(acct->alloc) + d);
    };
    // tcp_event_ack_sent: data carries the ACK too - a pending delayed ACK is served.
    if (m_ack_pending || m_quick) {
        if (m_quick)
            --m_quick;
        m_ack_pending = false;
    }
    m_ack_pushed = false; // inet_csk_clear_xmit_timer(ICSK_TIME_DACK)
    if (m_cfg.tcp_internal_pacing && m_cc.pacing_rate && m_cc.pacing_rate != ~0ull)
        m_next_departure = local_time::now() + sc_time(static_cast<double>(s->len()) /
                                                           static_cast<double>(m_cc.pacing_rate),
                                                       sc_core::SC_SEC);
    m_env.xmit(std::move(s));
}

// --- ACK processing ---------------------------------------------------------------------------

void tcp_socket::on_ack(const fr::parsed_frame& f) {
    ++m_stats.acks_received;
    if (m_stats.slow_start_exit_cwnd == 0 && !m_cc.in_slow_start())
        m_stats.slow_start_exit_cwnd = m_cc.cwnd;
    const auto delta = static_cast<std::int32_t>(f.tcp_ack - wire_seq_out(m_snd_una));
    if (delta < 0)
        return; // old ACK
    const std::uint64_t acked_off = m_snd_una + static_cast<std::uint64_t>(delta);
    if (acked_off > m_high_sent)
        return; // acks data never sent: tcp_ack drops it
    const bool window_changed = f.tcp_window != m_last_peer_window;
    m_last_peer_window = f.tcp_window;
    m_snd_wnd = static_cast<std::uint64_t>(f.tcp_window) << m_peer_wscale;
    // tcp_sacktag_write_queue runs before tcp_clean_rtx_queue.
    const sack_tag_result sacked = m_sack_ok ? sack_tag(f) : sack_tag_result{};
    std::uint32_t acked_segs = 0;
    const bool una_advanced = acked_off > m_snd_una;
    const auto us_since = [](const sc_time& t) { return static_cast<std::int64_t>(elapsed_us(t)); };
    // tcp_ack_update_rtt + tcp_update_rtt_min.
    const auto take_rtt = [&](std::int64_t seq_rtt, std::int64_t ca_rtt) {
        m_rtt.sample(seq_rtt, m_snd_una, m_snd_nxt);
        if (m_min_rtt_us == 0 || static_cast<std::uint64_t>(ca_rtt) < m_min_rtt_us)
            m_min_rtt_us = static_cast<std::uint64_t>(std::max<std::int64_t>(ca_rtt, 1));
    };

    if (acked_off > m_snd_una) {
        // tcp_clean_rtx_queue: free fully acknowledged segments, take RTT samples (Karn: an
        // ACK that covers any retransmitted segment gives none, FLAG_RETRANS_DATA_ACKED; the
        // segments behind a filled hole waited in the receiver's out-of-order queue, so their
        // send times would measure the hole's repair, not the path; with TCP timestamps Linux
        // takes the retransmission's RTT from TSecr instead, which this model does not carry).
        std::int64_t seq_rtt = -1, ca_rtt = -1;
        bool retrans_data_acked = false;
        const std::uint64_t nxt_before = m_snd_nxt;
        while (!m_rtx.empty() && m_rtx.front().end <= acked_off) {
            const auto& s = m_rtx.front();
            if (m_sack_ok) {
                if (s.sacked)
                    --m_sacked_out;
                else
                    rack_advance(s);
                if (s.lost)
                    --m_lost_out;
                if (s.retrans_out)
                    --m_retrans_out;
            }
            if (s.retransmitted) {
                retrans_data_acked = true;
            } else {
                const auto rtt = us_since(s.sent);
                if (seq_rtt < 0)
                    seq_rtt = rtt;
                ca_rtt = rtt;
            }
            if (s.start < nxt_before && m_packets_out > 0)
                --m_packets_out;
            ++acked_segs;
            m_rtx.pop_front();
        }
        if (retrans_data_acked)
            seq_rtt = ca_rtt = -1;
        if (sacked.have_rtt) {
            // The SACK RTT (sack->first_sackt / last_sackt) when no cumulative sample exists.
            if (seq_rtt < 0)
                seq_rtt = us_since(sacked.first_sent);
            ca_rtt = us_since(sacked.last_sent);
        }
        m_snd_una = acked_off;
        m_snd_nxt = std::max(m_snd_nxt, m_snd_una);
        m_stats.bytes_acked = m_snd_una;
        m_backoff = 0;
        m_cc.snd_una = m_snd_una;
        m_cc.snd_nxt = m_snd_nxt;
        if (seq_rtt >= 0)
            take_rtt(seq_rtt, ca_rtt);
        m_rto_cur_us = m_rtt.rto_us();
        m_ca->pkts_acked(m_cc, acked_segs, ca_rtt, now_us());

        // With SACK, recovery, loss and the window's growth follow sack_fastretrans below.
        if (!m_sack_ok && m_in_loss && m_snd_una >= m_recover)
            m_in_loss = false;
        if (!m_sack_ok && m_in_recovery) {
            if (m_snd_una >= m_recover) {
                // tcp_end_cwnd_reduction: leave recovery at ssthresh.
                m_in_recovery = false;
                m_cc.cwnd = std::max(m_cc.ssthresh, 2u);
                m_sacked_out = 0;
                m_dupacks = 0;
            } else {
                // Partial ACK (RFC 6582): the next hole is lost too - resend it now.
                m_sacked_out -= std::min(acked_segs > 0 ? acked_segs - 1 : 0, m_sacked_out);
                if (!m_rtx.empty())
                    send_segment(m_rtx.front().start, true);
            }
        } else if (!m_sack_ok) {
            m_dupacks = 0;
            m_sacked_out = 0;
            m_cc.cwnd_limited = is_cwnd_limited();
            m_ca->cong_avoid(m_cc, acked_segs, now_us());
        }
        // Restart the timer for what is still out (tcp_rearm_rto).
        if (m_packets_out > 0 || m_snd_una < m_high_sent)
            arm_rto();
        else
            m_rto_armed = false;
    } else if (m_sack_ok) {
        if (f.payload_len == 0 && !window_changed && m_packets_out > 0)
            ++m_stats.dup_acks;
        if (sacked.have_rtt) {
            // A SACK-only ACK still gives an RTT sample (tcp_clean_rtx_queue's sack_rtt_us).
            take_rtt(us_since(sacked.first_sent), us_since(sacked.last_sent));
            m_rto_cur_us = m_rtt.rto_us();
        }
    } else if (f.payload_len == 0 && !window_changed && m_packets_out > 0 && !m_in_loss) {
        // A duplicate ACK: tcp_add_reno_sack, then Disorder -> Recovery at tcp_reordering.
        ++m_stats.dup_acks;
        if (m_sacked_out + 1 < m_packets_out)
            ++m_sacked_out;
        if (!m_in_recovery && ++m_dupacks >= m_cfg.tcp_reordering)
            enter_recovery();
    }
    if (m_sack_ok) {
        process_tlp_ack(acked_off, una_advanced, sacked.newly_sacked,
                        una_advanced || f.payload_len > 0 || window_changed);
        // tcp_fastretrans_alert, then tcp_cong_control: grow only outside recovery and only
        // on in-order delivery (tcp_may_raise_cwnd), by everything delivered.
        sack_fastretrans(acked_segs + sacked.newly_sacked, una_advanced);
        if (!m_in_recovery && una_advanced) {
            m_cc.cwnd_limited = is_cwnd_limited();
            m_ca->cong_avoid(m_cc, acked_segs + sacked.newly_sacked, now_us());
        }
        if (m_packets_out > 0 && m_snd_una < m_high_sent && !m_rto_armed)
            arm_rto();
        if (una_advanced)
            schedule_loss_probe(true); // tcp_set_xmit_timer (FLAG_SET_XMIT_TIMER)
    }
    // tcp_update_pacing_rate (in tcp_ack via tcp_cong_control / tcp_rate_gen).
    if (m_rtt.has_sample())
        m_cc.pacing_rate =
            net::pacing_rate(m_mss, m_cc.cwnd, m_packets_out, m_cc.ssthresh, m_rtt.srtt_us(),
                             m_cfg.tcp_pacing_ss_ratio, m_cfg.tcp_pacing_ca_ratio);
    check_space();
}

void tcp_socket::enter_recovery() {
    // tcp_enter_recovery: ssthresh from the congestion control, resend the first hole.
    ++m_stats.fast_retransmits;
    m_cc.ssthresh = m_ca->ssthresh(m_cc);
    m_cc.cwnd = std::max(m_cc.ssthresh, 2u);
    m_cc.cwnd_cnt = 0;
    m_in_recovery = true;
    m_recover = m_high_sent;
    if (!m_rtx.empty())
        send_segment(m_rtx.front().start, true);
}

void tcp_socket::on_rto() {
    m_rto_armed = false;
    if (m_snd_una >= m_high_sent)
        return;
    ++m_stats.timeouts;
    if (++m_backoff > m_cfg.tcp_retries2) {
        fail("gave up after " + std::to_string(m_backoff - 1) +
             " retransmission timeouts at stream offset " + std::to_string(m_snd_una));
        return;
    }
    // tcp_enter_loss: a new loss episode recomputes ssthresh; repeated timeouts do not.
    if (!m_in_loss || m_backoff == 1)
        m_cc.ssthresh = m_ca->ssthresh(m_cc);
    m_ca->on_loss(m_cc);
    m_cc.cwnd = 1;
    m_cc.cwnd_cnt = 0;
    m_in_recovery = false;
    m_in_loss = true;
    m_dupacks = 0;
    m_recover = m_high_sent;
    m_reo_armed = false;
    m_tlp_armed = false;
    m_tlp_out = false; // tcp_enter_loss: tlp_high_seq = 0
    if (m_sack_ok) {
        // tcp_timeout_mark_lost: every segment not SACKed is lost and none is in flight as a
        // retransmission; the stack's push() resends them (tcp_xmit_retransmit_queue).
        for (auto& s : m_rtx) {
            s.retrans_out = false;
            if (!s.sacked && !s.lost) {
                s.lost = true;
                ++m_lost_out;
            }
        }
        m_retrans_out = 0;
    } else {
        m_sacked_out = 0;
        m_snd_nxt = m_snd_una; // every outstanding segment is lost: resend them in order
        m_cc.snd_nxt = m_snd_nxt;
        m_packets_out = 0;
    }
    m_is_cwnd_limited = false;
    m_max_packets_out = 0;
    // Exponential backoff (tcp_retransmit_timer: icsk_rto << icsk_backoff, TCP_RTO_MAX).
    const std::uint64_t max_us = static_cast<std::uint64_t>(m_cfg.tcp_rto_max.to_seconds() * 1e6);
    m_rto_cur_us = std::min<std::uint64_t>(m_rtt.rto_us() << std::min(m_backoff, 20u), max_us);
    arm_rto();
}

void tcp_socket::check_space() {
    // tcp_check_space -> tcp_new_space: grow sk_sndbuf when the cwnd is in use
    // (tcp_should_expand_sndbuf), then wake a writer once a third of the buffer is free
    // (sk_stream_write_space: wspace >= queued / 2).
    if (in_flight() < m_cc.cwnd)
        m_sndbuf = std::max<std::uint64_t>(m_sndbuf,
                                           sndbuf_expand(m_mss, m_cc.cwnd, m_cfg.tcp_init_cwnd,
                                                         m_cfg.tcp_reordering, m_cfg.tcp_wmem[2]));
    const std::uint64_t q = wmem_queued();
    if (q < m_sndbuf && m_sndbuf - q >= q / 2)
        notify_sleepers(m_write_space, m_write_sleepers);
}

// --- timers -----------------------------------------------------------------------------------

sc_time tcp_socket::next_deadline() const {
    sc_time d = sc_core::SC_ZERO_TIME;
    const auto take = [&](const sc_time& t) {
        if (d == sc_core::SC_ZERO_TIME || t < d)
            d = t;
    };
    if (m_rto_armed && !m_tlp_armed) // one timer: the probe's stands in front of the RTO
        take(m_rto_deadline);
    if (m_ack_pending)
        take(m_delack_deadline);
    if (m_reo_armed)
        take(m_reo_deadline);
    if (m_tlp_armed)
        take(m_tlp_deadline);
    if (m_cfg.tcp_internal_pacing && m_write_seq > m_snd_nxt &&
        m_next_departure > local_time::now())
        take(m_next_departure);
    return d;
}

void tcp_socket::run_timers() {
    const auto now = local_time::now();
    if (m_tlp_armed && now >= m_tlp_deadline)
        send_loss_probe(); // tcp_write_timer_handler: ICSK_TIME_LOSS_PROBE
    if (m_rto_armed && !m_tlp_armed && now >= m_rto_deadline)
        on_rto();
    if (m_reo_armed && now >= m_reo_deadline) {
        // tcp_rack_reo_timeout: look again; enter recovery if that found a loss (the stack's
        // push() then resends it).
        m_reo_armed = false;
        m_rack_advanced = true;
        const std::uint32_t lost_before = m_lost_out;
        rack_detect_loss();
        if (m_lost_out != lost_before && !m_in_recovery && !m_in_loss)
            sack_fastretrans(1, false); // tcp_enter_recovery + tcp_cwnd_reduction(sk, 1, ...)
    }
    if (m_ack_pending && now >= m_delack_deadline) {
        // tcp_delack_timer_handler: the delayed ACK was not piggybacked - inflate ato.
        m_ato_us = std::min<std::uint64_t>(m_ato_us << 1, m_rtt.rto_us());
        ++m_stats.delayed_acks;
        send_ack();
    }
}

} // namespace nicsim::net
