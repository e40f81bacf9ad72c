// SPDX-License-Identifier: MIT
//
// tcp_socket: segment dispatch and the receiver half (data path, window, delayed/quick ACKs,
// receive-buffer autotuning). See tcp_socket.h.
#include "host/net/tcp_socket.h"

#include <algorithm>

namespace nicsim::net {

namespace fr = traffic::frame;
using sc_core::sc_time;

void tcp_socket::on_segment(const fr::parsed_frame& f) {
    // bh_lock_sock: the softirq owns the socket while it processes the segment, the ACK it
    // sends included; a reader's lock_sock waits until it is done (lock_sock()).
    m_bh_owned = true;
    process_segment(f);
    m_bh_owned = false;
    notify_sleepers(m_bh_released, m_lock_waiters);
}

void tcp_socket::lock_sock() {
    while (m_bh_owned)
        sleep_on(m_bh_released, m_lock_waiters);
}

void tcp_socket::process_segment(const fr::parsed_frame& f) {
    if (!f.ip_checksum_ok || !f.l4_checksum_ok) {
        ++m_stats.checksum_errors; // tcp_v4_rcv drops it (csum_error)
        return;
    }
    std::uint32_t tsval = 0, tsecr = 0;
    const bool has_ts = m_cfg.tcp_timestamps && fr::find_tcp_timestamp(f, tsval, tsecr);
    // tcp_ack first, then the data (tcp_rcv_established).
    if (f.tcp_flags & fr::tcp_ack)
        on_ack(f);
    if (f.payload_len == 0) {
        if (has_ts)
            m_ts_recent = tsval;
        return;
    }
    const auto delta = static_cast<std::int32_t>(f.tcp_seq - wire_seq_in(m_rcv_nxt));
    if (delta < 0 && static_cast<std::uint64_t>(-static_cast<std::int64_t>(delta)) > m_rcv_nxt) {
        ++m_stats.duplicates;
        return;
    }
    const std::uint64_t off =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(m_rcv_nxt) + delta);
    // tcp_replace_ts_recent: only a segment covering rcv_wup updates the echoed timestamp.
    if (has_ts && off <= m_rcv_wup)
        m_ts_recent = tsval;
    // tcp_rcv_rtt_measure_ts: the receiver's RTT from our echoed TSval, once per echo value,
    // from full-sized segments only.
    if (has_ts && tsecr != 0 && f.payload_len >= m_mss && tsecr != m_rcv_rtt_last_tsecr) {
        m_rcv_rtt_last_tsecr = tsecr;
        const std::uint32_t d = now_ts() - tsecr;
        if (d < 0x7fffffffu)
            rcv_rtt_update(std::uint64_t{std::max<std::uint32_t>(d, 1)} * 1000);
    }
    on_data(f, off);
}

void tcp_socket::on_data(const fr::parsed_frame& f, std::uint64_t off) {
    ++m_stats.segments_received;
    const std::uint64_t len = f.payload_len;
    const std::uint64_t end = off + len;
    if (m_in_pattern.first_mismatch(off, f.payload, f.payload_len) != f.payload_len) {
        ++m_stats.pattern_errors;
        return;
    }
    const std::uint32_t truesize =
        m_cfg.truesize(static_cast<std::uint32_t>(fr::eth_header_len + f.tot_len));
    if (end <= m_rcv_nxt) {
        // tcp_send_dupack: a retransmission we already have - enter quick-ack, ACK at once.
        ++m_stats.duplicates;
        incr_quickack(m_cfg.tcp_max_quickacks);
        send_ack();
        return;
    }
    // tcp_try_rmem_schedule: no room in sk_rcvbuf -> drop (prune/collapse not modelled).
    if (m_rmem_alloc + truesize > m_rcvbuf) {
        send_ack();
        return;
    }
    if (off <= m_rcv_nxt) {
        m_rcv_queue.emplace_back(end, truesize);
        m_rmem_alloc += truesize;
        m_rcv_nxt = end;
        bool hole_filled = false;
        if (!m_ofo.empty()) {
            // tcp_ofo_queue: move what is now in order; ACK at once once the queue drains.
            while (!m_ofo.empty() && m_ofo.begin()->first <= m_rcv_nxt) {
                const auto [e, ts] = m_ofo.begin()->second;
                m_ofo.erase(m_ofo.begin());
                if (e > m_rcv_nxt) {
                    m_rcv_nxt = e;
                    m_rcv_queue.emplace_back(e, ts);
                } else {
                    m_rmem_alloc -= ts;
                }
            }
            hole_filled = m_ofo.empty();
        }
        if (!m_sack_blocks.empty())
            receiver_sack_remove();
        event_data_recv(static_cast<std::uint32_t>(len), truesize);
        ack_check(hole_filled);
        notify_sleepers(m_data_ready, m_data_sleepers);
        return;
    }
    // Out of order: tcp_data_queue_ofo keeps it; __tcp_ack_snd_check ACKs at once (a dupack).
    ++m_stats.out_of_order;
    if (m_ofo.find(off) == m_ofo.end()) {
        m_ofo.emplace(off, std::make_pair(end, truesize));
        m_rmem_alloc += truesize;
    }
    if (m_sack_ok)
        receiver_sack_add(off, end);
    send_ack();
}

void tcp_socket::incr_quickack(std::uint32_t max_quickacks) {
    // tcp_input.c: tcp_incr_quickack - enough immediate ACKs to open the sender's window.
    std::uint32_t q = static_cast<std::uint32_t>(m_rcv_wnd / (2 * m_mss));
    if (q == 0)
        q = 2;
    q = std::min(q, max_quickacks);
    if (q > m_quick)
        m_quick = q;
}

void tcp_socket::measure_rcv_mss(std::uint32_t len) {
    // tcp_input.c: tcp_measure_rcv_mss for a sub-MSS segment: it marks the scheduled ACK
    // "pushed" (ICSK_ACK_PUSHED; PUSHED2, for a second one, matters only in pingpong mode, which a
    // bulk flow never enters, so one flag stands for both), so that the read which drains
    // the receive queue sends it at once (consume()) instead of leaving it to the delayed-ACK
    // timer - the ACK of a transfer's last, partial segment. Not modelled: the full-size PSH
    // case (the model sets PSH on every segment; Linux on the last of each write()) and the
    // smaller rcv_mss learnt from two equal small segments, which are only marked once here.
    const std::uint32_t lss = m_last_seg_size;
    m_last_seg_size = 0;
    if (len >= m_mss)
        return;
    const std::uint32_t th = 20 + (m_cfg.tcp_timestamps ? 12 : 0); // tcp_header_len
    if (len + th >= 536 + 20) { // TCP_MSS_DEFAULT + sizeof(struct tcphdr)
        m_last_seg_size = len;
        if (len == lss)
            return; // Linux: rcv_mss = len (interactive traffic of one size)
    }
    m_ack_pushed = true;
}

void tcp_socket::event_data_recv(std::uint32_t len, std::uint32_t truesize) {
    // tcp_input.c: tcp_event_data_recv - ato tracks the inter-arrival time; the first data, or
    // data after a pause longer than the RTO, starts quick-ack mode.
    measure_rcv_mss(len);
    const std::uint64_t now = now_us();
    const std::uint64_t ato_min = static_cast<std::uint64_t>(m_cfg.tcp_ato_min.to_seconds() * 1e6);
    if (m_ato_us == 0) {
        incr_quickack(m_cfg.tcp_max_quickacks);
        m_ato_us = ato_min;
    } else {
        const std::uint64_t m = now - m_lrcvtime_us;
        if (m <= ato_min / 2)
            m_ato_us = (m_ato_us >> 1) + ato_min / 2;
        else if (m < m_ato_us)
            m_ato_us = std::min<std::uint64_t>((m_ato_us >> 1) + m, m_rtt.rto_us());
        else if (m > m_rtt.rto_us())
            incr_quickack(m_cfg.tcp_max_quickacks);
    }
    m_lrcvtime_us = now;
    // tcp_grow_window: open rcv_ssthresh while skbs are not too fat for their payload.
    if (len < 128)
        return;
    const std::uint64_t space =
        m_cfg.win_from_space(m_rcvbuf > m_rmem_alloc ? m_rcvbuf - m_rmem_alloc : 0);
    const std::uint64_t cap = std::min(m_window_clamp, space);
    if (cap <= m_rcv_ssthresh)
        return;
    const std::uint64_t room = cap - m_rcv_ssthresh;
    std::uint64_t incr = 0;
    if (m_cfg.win_from_space(truesize) <= len) {
        incr = 2ull * m_mss;
    } else {
        // __tcp_grow_window: allow growth only up to the share the truesize ratio permits.
        std::uint64_t t = m_cfg.win_from_space(truesize) >> 1;
        std::uint64_t w = m_cfg.win_from_space(m_cfg.tcp_rmem[2]) >> 1;
        while (m_rcv_ssthresh <= w) {
            if (t <= len) {
                incr = 2ull * m_mss;
                break;
            }
            t >>= 1;
            w >>= 1;
        }
    }
    if (incr) {
        incr = std::max<std::uint64_t>(incr, 2ull * len);
        m_rcv_ssthresh += std::min(room, incr);
        m_quick |= 1;
    }
}

std::uint64_t tcp_socket::raw_select_window() {
    // tcp_output.c: __tcp_select_window (no memory pressure, no window shrinking).
    const std::uint64_t free =
        m_cfg.win_from_space(m_rcvbuf > m_rmem_alloc ? m_rcvbuf - m_rmem_alloc : 0);
    const std::uint64_t allowed = m_cfg.win_from_space(m_rcvbuf);
    const std::uint64_t full = std::min(m_window_clamp, allowed);
    std::uint64_t mss = std::min<std::uint64_t>(m_mss, full);
    std::uint64_t f = free;
    if (f < full / 2) {
        m_quick = 0; // the application is not keeping up: stop quick-acking
        f = f >> m_wscale << m_wscale;
        if (f < allowed / 16 || f < mss)
            return 0;
    }
    f = std::min(f, m_rcv_ssthresh);
    if (m_wscale)
        return (f + (1ull << m_wscale) - 1) >> m_wscale << m_wscale;
    // Without scaling the kernel keeps the window a multiple of the MSS when it can.
    const std::uint64_t rounded = f / m_mss * m_mss;
    return rounded ? rounded : f;
}

std::uint32_t tcp_socket::select_window() {
    // tcp_select_window: never shrink what was offered; rcv_wup moves with each advertisement.
    const std::uint64_t offered = m_rcv_wup + m_rcv_wnd;
    const std::uint64_t cur = offered > m_rcv_nxt ? offered - m_rcv_nxt : 0;
    std::uint64_t win = raw_select_window();
    if (win < cur)
        win = (cur + (1ull << m_wscale) - 1) >> m_wscale << m_wscale;
    win = std::min<std::uint64_t>(win, std::uint64_t{65535} << m_wscale);
    m_rcv_wnd = win;
    m_rcv_wup = m_rcv_nxt;
    return static_cast<std::uint32_t>(win >> m_wscale);
}

std::uint16_t tcp_socket::window_field() const {
    const std::uint64_t offered = m_rcv_wup + m_rcv_wnd;
    const std::uint64_t left = offered > m_rcv_nxt ? offered - m_rcv_nxt : 0;
    // Rounded up to the scale, as __tcp_select_window rounds the window it offers.
    const std::uint64_t field = (left + (std::uint64_t{1} << m_wscale) - 1) >> m_wscale;
    return static_cast<std::uint16_t>(std::min<std::uint64_t>(field, 0xffff));
}

void tcp_socket::ack_check(bool now) {
    // tcp_input.c: __tcp_ack_snd_check - more than one full segment unacknowledged and the
    // window would not shrink, quick-ack mode, or out-of-order data: ACK now; else delay it.
    const bool two_full = (m_rcv_nxt - m_rcv_wup) > m_mss && raw_select_window() >= m_rcv_wnd;
    const bool quick = m_quick > 0;
    if (two_full || quick || now || !m_ofo.empty()) {
        if (quick && !two_full)
            ++m_stats.quick_acks;
        send_ack();
        return;
    }
    if (!m_ack_pending) {
        // tcp_send_delayed_ack: the timer is min(ato, TCP_DELACK_MAX) away.
        m_ack_pending = true;
        const std::uint64_t max_us =
            static_cast<std::uint64_t>(m_cfg.tcp_delack_max.to_seconds() * 1e6);
        m_delack_deadline =
            local_time::now() +
            sc_time(static_cast<double>(std::min(m_ato_us, max_us)), sc_core::SC_US);
    }
}

void tcp_socket::send_ack() {
    if (m_env.costs) {
        charge(m_env.costs->per_skb_alloc, cpu_context::softirq);
        charge(m_env.costs->per_ack_sent, cpu_context::softirq);
    }
    auto s = std::make_unique<skb>();
    s->data = build(wire_seq_out(m_snd_nxt), fr::tcp_ack, nullptr, 0);
    s->truesize = m_cfg.truesize(static_cast<std::uint32_t>(s->data.size()));
    s->priority = m_sc.priority;
    s->created = local_time::now();
    // Pure ACKs are charged too (__sock_wfree), without rescheduling the socket.
    m_wmem->alloc += s->truesize;
    s->sk = m_wmem;
    s->destructor = [](skb& b) {
        auto* acct = static_cast<wmem_account*>(b.sk.get());
        acct->alloc -= b.truesize;
        ++acct->frees;
    };
    ++m_stats.acks_sent;
    // tcp_event_ack_sent: one quick ACK used up, the delayed ACK is served.
    if (m_quick)
        --m_quick;
    m_ack_pending = false;
    m_ack_pushed = false; // inet_csk_clear_xmit_timer(ICSK_TIME_DACK)
    m_env.xmit(std::move(s));
}

void tcp_socket::rcv_rtt_update(std::uint64_t sample) {
    // tcp_rcv_rtt_update (win_dep = 0): an EWMA with gain 1/8, kept << 3.
    if (m_rcv_rtt8 != 0) {
        const auto m =
            static_cast<std::int64_t>(sample) - static_cast<std::int64_t>(m_rcv_rtt8 >> 3);
        m_rcv_rtt8 = static_cast<std::uint64_t>(
            std::max<std::int64_t>(static_cast<std::int64_t>(m_rcv_rtt8) + m, 1));
    } else {
        m_rcv_rtt8 = sample << 3;
    }
}

void tcp_socket::rcv_space_adjust() {
    // tcp_input.c: tcp_rcv_space_adjust - once per receiver RTT, size sk_rcvbuf for twice what
    // the application read in the last RTT (plus 16 segments), more if the rate is growing.
    const std::uint64_t now = now_us();
    if (m_rcv_rtt8 == 0 || now - m_rcvq_time_us < (m_rcv_rtt8 >> 3))
        return;
    const std::uint64_t copied = m_copied_seq - m_rcvq_seq;
    if (copied > m_rcvq_space) {
        if (m_cfg.tcp_moderate_rcvbuf) {
            std::uint64_t rcvwin = (copied << 1) + 16ull * m_mss;
            const std::uint64_t grow = rcvwin * (copied - m_rcvq_space) / m_rcvq_space;
            rcvwin += grow << 1;
            std::uint64_t rcvmem = m_seg_truesize;
            while (m_cfg.win_from_space(rcvmem) < m_mss)
                rcvmem += 128;
            rcvwin /= m_mss;
            const std::uint64_t rcvbuf =
                std::min<std::uint64_t>(rcvwin * rcvmem, m_cfg.tcp_rmem[2]);
            if (rcvbuf > m_rcvbuf) {
                m_rcvbuf = rcvbuf;
                m_window_clamp = m_cfg.win_from_space(rcvbuf);
            }
        }
        m_rcvq_space = copied;
    }
    m_rcvq_seq = m_copied_seq;
    m_rcvq_time_us = now;
}

std::uint64_t tcp_socket::consume(std::uint64_t n) {
    const std::uint64_t take = std::min(n, readable());
    if (take == 0)
        return 0;
    m_copied_seq += take;
    m_stats.bytes_read += take;
    while (!m_rcv_queue.empty() && m_rcv_queue.front().first <= m_copied_seq) {
        m_rmem_alloc -= m_rcv_queue.front().second;
        m_rcv_queue.pop_front();
    }
    rcv_space_adjust();
    // tcp_cleanup_rbuf: ACK now if a delayed ACK is owed for more than a segment, or if reading
    // opened the window to at least twice what the peer last saw.
    // A read that drained the queue after a small segment ACKs it (ICSK_ACK_PUSHED; a bulk flow
    // is never in pingpong mode).
    bool time_to_ack =
        m_ack_pending && ((m_rcv_nxt - m_rcv_wup) > m_mss || (m_ack_pushed && m_rmem_alloc == 0));
    const std::uint64_t offered = m_rcv_wup + m_rcv_wnd;
    const std::uint64_t cur = offered > m_rcv_nxt ? offered - m_rcv_nxt : 0;
    if (2 * cur <= m_window_clamp) {
        const std::uint64_t w = raw_select_window();
        if (w && w >= 2 * cur)
            time_to_ack = true;
    }
    if (time_to_ack) {
        // Sent from the stack thread (the ACK goes through the qdisc, which that thread owns).
        m_window_update_wanted = true;
        m_env.notify();
    }
    return take;
}

} // namespace nicsim::net
