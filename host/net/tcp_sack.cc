// SPDX-License-Identifier: MIT
//
// tcp_socket: selective acknowledgements (RFC 2018) and what Linux 6.1 builds on them - the
// receiver's SACK blocks (tcp_input.c: tcp_sack_new_ofo_skb, tcp_sack_remove), the sender's
// scoreboard (tcp_sacktag_write_queue), RACK loss detection (tcp_recovery.c), Proportional Rate
// Reduction (tcp_cwnd_reduction) and the retransmission of lost segments
// (tcp_output.c: tcp_xmit_retransmit_queue). Used when both ends have tcp_sack (the 6.1
// default); without it the socket keeps NewReno (tcp_output.cc). See tcp_socket.h.
#include "host/net/tcp_socket.h"

#include <algorithm>

namespace nicsim::net {

namespace fr = traffic::frame;
using sc_core::sc_time;

namespace {

// tcp_skb_sent_after: t1/seq1 was sent after t2/seq2 (same time: the later sequence).
bool sent_after(const sc_time& t1, const sc_time& t2, std::uint64_t seq1, std::uint64_t seq2) {
    return t1 > t2 || (t1 == t2 && seq1 > seq2);
}

} // namespace

// --- receiver: the blocks it reports ------------------------------------------------------------

void tcp_socket::receiver_sack_add(std::uint64_t start, std::uint64_t end) {
    // tcp_sack_new_ofo_skb: a block this data extends moves to the front and absorbs the blocks
    // it now touches (tcp_sack_maybe_coalesce); otherwise a new block goes first and the oldest
    // falls off past TCP_NUM_SACKS.
    auto& b = m_sack_blocks;
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (start <= b[i].second && b[i].first <= end) {
            auto merged = std::make_pair(std::min(start, b[i].first), std::max(end, b[i].second));
            b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
            for (std::size_t j = 0; j < b.size();) {
                if (merged.first <= b[j].second && b[j].first <= merged.second) {
                    merged = {std::min(merged.first, b[j].first),
                              std::max(merged.second, b[j].second)};
                    b.erase(b.begin() + static_cast<std::ptrdiff_t>(j));
                } else {
                    ++j;
                }
            }
            b.insert(b.begin(), merged);
            return;
        }
    }
    if (b.size() >= fr::max_sack_blocks)
        b.pop_back();
    b.insert(b.begin(), {start, end});
}

void tcp_socket::receiver_sack_remove() {
    // tcp_sack_remove: blocks that rcv_nxt reached are in order now.
    auto& b = m_sack_blocks;
    b.erase(std::remove_if(b.begin(), b.end(), [&](const auto& x) { return x.first <= m_rcv_nxt; }),
            b.end());
}

// --- sender: the scoreboard -----------------------------------------------------------------

tcp_socket::sack_tag_result tcp_socket::sack_tag(const fr::parsed_frame& f) {
    sack_tag_result r;
    fr::sack_block blocks[fr::max_sack_blocks];
    const std::size_t n = fr::find_tcp_sack(f, blocks);
    for (std::size_t i = 0; i < n; ++i) {
        // tcp_is_sackblock_valid: within [snd_una, snd_nxt], start before end.
        const auto s_rel = static_cast<std::int32_t>(blocks[i].start - wire_seq_out(m_snd_una));
        const auto e_rel = static_cast<std::int32_t>(blocks[i].end - wire_seq_out(m_snd_una));
        if (s_rel < 0 || e_rel <= s_rel)
            continue;
        const std::uint64_t start = m_snd_una + static_cast<std::uint64_t>(s_rel);
        const std::uint64_t end = m_snd_una + static_cast<std::uint64_t>(e_rel);
        if (end > m_high_sent)
            continue;
        auto it = std::lower_bound(m_rtx.begin(), m_rtx.end(), start,
                                   [](const sent_seg& s, std::uint64_t o) { return s.start < o; });
        for (; it != m_rtx.end() && it->end <= end; ++it) {
            if (it->sacked)
                continue;
            // tcp_sacktag_one: SACKed now; a lost or retransmitted one stops counting as such.
            it->sacked = true;
            ++m_sacked_out;
            ++m_stats.sacked_segments;
            if (it->lost) {
                it->lost = false;
                --m_lost_out;
            }
            if (it->retrans_out) {
                it->retrans_out = false;
                --m_retrans_out;
            }
            if (!it->retransmitted) {
                if (!r.have_rtt || it->sent < r.first_sent)
                    r.first_sent = it->sent;
                if (!r.have_rtt || it->sent > r.last_sent)
                    r.last_sent = it->sent;
                r.have_rtt = true;
            }
            rack_advance(*it);
            ++r.newly_sacked;
        }
    }
    return r;
}

// --- RACK (tcp_recovery.c) --------------------------------------------------------------------

void tcp_socket::rack_advance(const sent_seg& s) {
    // tcp_rack_advance: a retransmission acknowledged sooner than min_rtt was probably the
    // original's delivery; it must not make the retransmission look delivered.
    const std::uint64_t rtt = elapsed_us(s.sent);
    if (s.retransmitted && rtt < m_min_rtt_us)
        return;
    m_rack_advanced = true;
    m_rack_rtt_us = rtt;
    if (sent_after(s.sent, m_rack_mstamp, s.end, m_rack_end)) {
        m_rack_mstamp = s.sent;
        m_rack_end = s.end;
    }
}

void tcp_socket::mark_lost(sent_seg& s) {
    // tcp_mark_skb_lost: a lost retransmission may be sent again.
    ++m_stats.rack_lost;
    if (s.retrans_out) {
        s.retrans_out = false;
        --m_retrans_out;
    }
    if (!s.lost) {
        s.lost = true;
        ++m_lost_out;
    }
}

void tcp_socket::rack_detect_loss() {
    // tcp_rack_mark_lost -> tcp_rack_detect_loss. No reordering is ever seen here (D-SACK is not
    // modelled and the links keep order), so reo_wnd is 0 in recovery or with tcp_reordering
    // segments SACKed, and min(min_rtt / 4, srtt) otherwise (tcp_rack_reo_wnd).
    if (!m_rack_advanced)
        return;
    m_rack_advanced = false;
    std::uint64_t reo_wnd = 0;
    if (!m_in_recovery && !m_in_loss && m_sacked_out < m_cfg.tcp_reordering)
        reo_wnd = std::min(m_min_rtt_us / 4, m_rtt.srtt_us());
    const auto now = local_time::now();
    std::uint64_t reo_timeout = 0;
    for (auto& s : m_rtx) {
        if (s.sacked || (s.lost && !s.retrans_out))
            continue;
        if (!sent_after(m_rack_mstamp, s.sent, m_rack_end, s.end))
            continue; // sent no earlier than what was delivered: not overtaken
        const auto remaining = static_cast<std::int64_t>(m_rack_rtt_us + reo_wnd) -
                               static_cast<std::int64_t>(elapsed_us(s.sent));
        if (remaining <= 0)
            mark_lost(s);
        else
            reo_timeout = std::max(reo_timeout, static_cast<std::uint64_t>(remaining));
    }
    if (reo_timeout) {
        // tcp_rack_mark_lost arms usecs_to_jiffies(timeout + TCP_TIMEOUT_MIN_US).
        const std::uint64_t t = jiffies_us(reo_timeout + timeout_min_us);
        m_reo_armed = true;
        m_reo_deadline = now + sc_time(static_cast<double>(t), sc_core::SC_US);
    }
}

// --- recovery ---------------------------------------------------------------------------------

void tcp_socket::cwnd_reduction(std::uint32_t newly_acked_sacked, bool una_advanced) {
    // tcp_cwnd_reduction (PRR, RFC 6937): send in proportion to what was delivered, so cwnd
    // reaches ssthresh over one round trip; the first call allows the fast retransmit.
    if (newly_acked_sacked == 0 || m_prior_cwnd == 0)
        return;
    const auto inflight = static_cast<std::int64_t>(in_flight());
    const std::int64_t delta = static_cast<std::int64_t>(m_cc.ssthresh) - inflight;
    m_prr_delivered += newly_acked_sacked;
    std::int64_t sndcnt;
    if (delta < 0) {
        const std::uint64_t dividend =
            std::uint64_t{m_cc.ssthresh} * m_prr_delivered + m_prior_cwnd - 1;
        sndcnt = static_cast<std::int64_t>(dividend / m_prior_cwnd) - m_prr_out;
    } else {
        sndcnt = std::max<std::int64_t>(static_cast<std::int64_t>(m_prr_delivered) - m_prr_out,
                                        newly_acked_sacked);
        if (una_advanced)
            ++sndcnt; // FLAG_SND_UNA_ADVANCED && !newly_lost (losses are marked before)
        sndcnt = std::min(delta, sndcnt);
    }
    sndcnt = std::max<std::int64_t>(sndcnt, m_prr_out ? 0 : 1);
    m_cc.cwnd = static_cast<std::uint32_t>(std::max<std::int64_t>(inflight + sndcnt, 1));
}

void tcp_socket::sack_fastretrans(std::uint32_t acked_sacked, bool una_advanced) {
    // tcp_fastretrans_alert with SACK and RACK, then tcp_cong_control's reduction.
    if (m_in_recovery && m_snd_una >= m_recover) {
        // tcp_end_cwnd_reduction: recovery ends at ssthresh.
        m_in_recovery = false;
        m_cc.cwnd = std::max(m_cc.ssthresh, 2u);
    }
    if (m_in_loss && m_snd_una >= m_recover)
        m_in_loss = false;
    if (m_sacked_out > 0 || m_in_recovery || m_in_loss)
        rack_detect_loss(); // tcp_identify_packet_loss
    if (!m_in_recovery && !m_in_loss && m_lost_out > 0) {
        // tcp_time_to_recover (the loss is proven) -> tcp_enter_recovery.
        ++m_stats.fast_retransmits;
        m_prior_cwnd = m_cc.cwnd; // tcp_init_cwnd_reduction (which ends a TLP episode)
        m_tlp_out = false;
        m_prr_delivered = 0;
        m_prr_out = 0;
        m_cc.ssthresh = m_ca->ssthresh(m_cc);
        m_cc.cwnd_cnt = 0;
        m_in_recovery = true;
        m_recover = m_high_sent;
    }
    if (m_in_recovery)
        cwnd_reduction(acked_sacked, una_advanced);
    xmit_retransmit_queue(); // tcp_xmit_recovery
}

void tcp_socket::xmit_retransmit_queue() {
    // tcp_xmit_retransmit_queue: the lost segments not yet resent, in sequence order, as cwnd,
    // pacing and TCP Small Queues (twice the room for retransmissions) allow.
    if (!m_sack_ok || m_lost_out <= m_retrans_out)
        return;
    // By index: sending may append to the queue (deque iterators would not survive that).
    for (std::size_t i = 0; i < m_rtx.size(); ++i) {
        sent_seg& s = m_rtx[i];
        if (!s.lost || s.retrans_out || s.sacked)
            continue;
        if (in_flight() >= m_cc.cwnd)
            break;
        if (m_cfg.tcp_internal_pacing && local_time::now() < m_next_departure)
            break;
        if (tsq_throttles(s.end - s.start, true))
            break;
        s.retrans_out = true;
        ++m_retrans_out;
        send_segment(s.start, true);
        if (failed())
            return;
    }
}

} // namespace nicsim::net
