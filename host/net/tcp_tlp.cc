// SPDX-License-Identifier: MIT
//
// tcp_socket: tail loss probes (TLP; RFC 8985 section 7, Linux 6.1 tcp_output.c
// tcp_schedule_loss_probe and tcp_send_loss_probe, tcp_input.c tcp_process_tlp_ack). When the
// last segments of a flight are lost, no later segment draws the SACKs that let RACK see the
// loss, and the sender would wait for the RTO (at least tcp_rto_min, 200 ms). About two round
// trips without an ACK send a probe instead: new data if the window has room, else the last
// segment again. Its ACK shows the hole, and SACK and RACK repair it within a round trip.
// Used with SACK and tcp_early_retrans 3 or 4 (6.1's default 3). D-SACK is not modelled, so
// a probe that resent a segment the receiver had is recognised by the duplicate ACK it draws.
#include "host/net/tcp_socket.h"

#include <algorithm>

namespace nicsim::net {

using sc_core::sc_time;

bool tcp_socket::schedule_loss_probe(bool advancing_rto) {
    // Only SACK connections in ca_state Open (tcp_try_keep_open: nothing SACKed, lost or being
    // retransmitted, the head never retransmitted); CWR, which a repaired probe passes through,
    // ends at once here (tcp_end_cwnd_reduction), so it is Open too.
    const bool open = !m_in_recovery && !m_in_loss && m_sacked_out == 0 && m_lost_out == 0 &&
                      m_retrans_out == 0 && (m_rtx.empty() || !m_rtx.front().retransmitted);
    if ((m_cfg.tcp_early_retrans != 3 && m_cfg.tcp_early_retrans != 4) || m_packets_out == 0 ||
        !m_sack_ok || !open) {
        m_tlp_armed = false; // tcp_rearm_rto takes the timer back
        return false;
    }
    // Two smoothed RTTs, plus TCP_RTO_MIN with one segment out (its ACK may be delayed) or
    // TCP_TIMEOUT_MIN otherwise; TCP_TIMEOUT_INIT before any RTT sample.
    std::uint64_t timeout_us;
    if (m_rtt.has_sample()) {
        const auto rto_min_us = static_cast<std::uint64_t>(m_cfg.tcp_rto_min.to_seconds() * 1e6);
        timeout_us =
            jiffies_us(2 * m_rtt.srtt_us() + (m_packets_out == 1 ? rto_min_us : timeout_min_us));
    } else {
        timeout_us = static_cast<std::uint64_t>(m_cfg.tcp_timeout_init.to_seconds() * 1e6);
    }
    // The RTO instead, if it comes earlier: after an ACK the whole RTO (it is rearmed), after
    // new data what is left of it (tcp_rto_delta_us).
    const sc_time now = local_time::now();
    std::uint64_t rto_delta_us = m_rto_cur_us;
    if (!advancing_rto)
        rto_delta_us = m_rto_armed && m_rto_deadline > now
                           ? static_cast<std::uint64_t>((m_rto_deadline - now).to_seconds() * 1e6)
                           : 0;
    if (rto_delta_us > 0)
        timeout_us = std::min(timeout_us, jiffies_us(rto_delta_us));
    m_tlp_armed = true;
    m_tlp_deadline = now + sc_time(static_cast<double>(timeout_us), sc_core::SC_US);
    return true;
}

void tcp_socket::send_loss_probe() {
    m_tlp_armed = false;
    const auto rearm = [this] { // tcp_rearm_rto: the RTO the probe timer stood in front of
        if (!m_rto_armed && m_packets_out > 0)
            arm_rto();
    };
    // At most one probe out; none in recovery (the RTO or RACK's timer repair there).
    if (m_tlp_out || m_packets_out == 0 || m_in_recovery || m_in_loss)
        return rearm();
    m_tlp_retrans = false;
    const std::uint64_t off = m_snd_nxt;
    const bool have_new = m_write_seq > off && off >= m_high_sent; // tcp_send_head
    const std::uint64_t len = have_new ? std::min<std::uint64_t>(m_mss, m_write_seq - off) : 0;
    if (have_new && off + len <= m_snd_una + m_snd_wnd) {
        // tcp_write_xmit(push_one = 2): one skb of new data, Nagle off, at least one segment
        // whatever cwnd allows; pacing and TCP Small Queues still apply.
        if (m_cfg.tcp_internal_pacing && local_time::now() < m_next_departure)
            return rearm();
        const std::uint32_t segs =
            len < m_mss ? 1
                        : new_data_segs(off, m_cc.cwnd > in_flight() ? m_cc.cwnd - in_flight() : 1);
        if (tsq_throttles(segs * len, false))
            return rearm();
        send_skb(off, segs, false);
    } else {
        // The last segment again, unless its skb is still below TCP (skb_still_in_host_queue:
        // here, anything the qdisc or the driver still holds).
        if (m_rtx.empty() || m_wmem->alloc > 0)
            return rearm();
        sent_seg& s = m_rtx.back();
        if (!s.retrans_out) { // tcp_retransmit_skb: TCPCB_SACKED_RETRANS, retrans_out
            s.retrans_out = true;
            ++m_retrans_out;
        }
        send_segment(s.start, true);
        m_tlp_retrans = true;
    }
    if (failed())
        return;
    m_tlp_out = true; // tlp_high_seq
    m_tlp_high = m_snd_nxt;
    ++m_stats.tlp_probes;
    arm_rto(); // icsk_pending reset: the RTO restarts from now
}

void tcp_socket::process_tlp_ack(std::uint64_t acked_off, bool una_advanced,
                                 std::uint32_t newly_sacked, bool not_dup) {
    if (!m_tlp_out || acked_off < m_tlp_high)
        return;
    if (!m_tlp_retrans) {
        m_tlp_out = false; // the probe's new data is acknowledged
    } else if (acked_off > m_tlp_high) {
        // Acknowledged beyond the probe: there was a loss, which the probe repaired.
        // tcp_init_cwnd_reduction, CWR, tcp_end_cwnd_reduction: cwnd to ssthresh.
        m_tlp_out = false;
        m_cc.ssthresh = m_ca->ssthresh(m_cc);
        m_cc.cwnd_cnt = 0;
        m_cc.cwnd = std::max(m_cc.ssthresh, 1u);
    } else if (!una_advanced && !not_dup && newly_sacked == 0) {
        m_tlp_out = false; // a pure duplicate ACK: the original and the probe both arrived
    }
}

} // namespace nicsim::net
