// SPDX-License-Identifier: MIT
#include "host/net/tcp_cc.h"

#include <algorithm>
#include <cmath>

namespace nicsim::net {

std::uint32_t tcp_slow_start(cc_state& s, std::uint32_t acked) {
    // tcp_cong.c: tcp_slow_start - cwnd grows by one per acked segment, capped at ssthresh; the
    // rest of `acked` goes to congestion avoidance.
    const std::uint32_t cwnd = std::min(s.cwnd + acked, s.ssthresh);
    acked -= cwnd - s.cwnd;
    s.cwnd = cwnd;
    return acked;
}

void tcp_cong_avoid_ai(cc_state& s, std::uint32_t w, std::uint32_t acked) {
    // tcp_cong.c: tcp_cong_avoid_ai - "if credits accumulated at a higher w, apply them gently".
    if (s.cwnd_cnt >= w) {
        s.cwnd_cnt = 0;
        ++s.cwnd;
    }
    s.cwnd_cnt += acked;
    if (s.cwnd_cnt >= w) {
        const std::uint32_t delta = s.cwnd_cnt / w;
        s.cwnd_cnt -= delta * w;
        s.cwnd += delta;
    }
}

// --- Reno ---------------------------------------------------------------------------------------

void reno::cong_avoid(cc_state& s, std::uint32_t acked, std::uint64_t) {
    // tcp_cong.c: tcp_reno_cong_avoid.
    if (!s.cwnd_limited)
        return;
    if (s.in_slow_start()) {
        acked = tcp_slow_start(s, acked);
        if (!acked)
            return;
    }
    tcp_cong_avoid_ai(s, s.cwnd, acked);
}

std::uint32_t reno::ssthresh(const cc_state& s) {
    return std::max(s.cwnd >> 1u, 2u);
}

// --- CUBIC --------------------------------------------------------------------------------------

cubic::cubic(const net_settings& cfg)
    : m_cfg(cfg), m_c(static_cast<double>(cfg.cubic_bic_scale) * 10.0 / 1024.0),
      m_beta(cfg.cubic_beta / 1024.0),
      // cubictcp_register: beta_scale = 8 * (BICTCP_BETA_SCALE + beta) / 3 / (1024 - beta)
      m_beta_scale(8u * (1024u + cfg.cubic_beta) / 3u / (1024u - cfg.cubic_beta)) {}

void cubic::reset() {
    // bictcp_reset clears everything up to `unused`, including last_max_cwnd and delay_min.
    m_cnt = m_last_max_cwnd = m_last_cwnd = 0;
    m_last_time = 0;
    m_origin = 0;
    m_k = 0;
    m_delay_min_us = 0;
    m_epoch_start = 0;
    m_ack_cnt = m_tcp_cwnd = 0;
    m_found = false;
}

double cubic::target(double t) const {
    const double d = m_c * std::pow(std::fabs(t - m_k), 3.0);
    return t < m_k ? m_origin - d : m_origin + d;
}

void cubic::update(cc_state& s, std::uint32_t acked, std::uint64_t now) {
    // tcp_cubic.c: bictcp_update, in floating point (the kernel's fixed point computes the same
    // formula to within a segment): target = W_max + C (t + delay_min - K)^3.
    const std::uint32_t cwnd = s.cwnd;
    m_ack_cnt += acked;
    // The kernel recomputes at most every HZ/32 while cwnd is unchanged.
    if (m_last_cwnd == cwnd && now - m_last_time <= 31250)
        goto friendliness;
    m_last_cwnd = cwnd;
    m_last_time = now;
    if (m_epoch_start == 0) {
        m_epoch_start = now ? now : 1;
        m_ack_cnt = acked;
        m_tcp_cwnd = cwnd;
        if (m_last_max_cwnd <= cwnd) {
            m_k = 0;
            m_origin = cwnd;
        } else {
            m_k = std::cbrt((m_last_max_cwnd - cwnd) / m_c);
            m_origin = m_last_max_cwnd;
        }
    }
    {
        const double t = (now - m_epoch_start + m_delay_min_us) * 1e-6;
        const double d = m_c * std::pow(std::fabs(t - m_k), 3.0);
        const auto delta = static_cast<std::uint32_t>(d);
        const std::uint32_t bic_target =
            t < m_k ? m_origin - std::min(delta, m_origin) : m_origin + delta;
        m_cnt = bic_target > cwnd ? cwnd / (bic_target - cwnd) : 100 * cwnd;
        // No loss seen yet: grow at least 5 % per RTT.
        if (m_last_max_cwnd == 0 && m_cnt > 20)
            m_cnt = 20;
    }
friendliness:
    if (m_cfg.cubic_tcp_friendliness) {
        // Estimate what Reno would have by now and never be slower (cubic's "TCP region").
        const std::uint32_t delta = (cwnd * m_beta_scale) >> 3;
        while (delta && m_ack_cnt > delta) {
            m_ack_cnt -= delta;
            ++m_tcp_cwnd;
        }
        if (m_tcp_cwnd > cwnd) {
            const std::uint32_t max_cnt = cwnd / (m_tcp_cwnd - cwnd);
            if (m_cnt > max_cnt)
                m_cnt = max_cnt;
        }
    }
    m_cnt = std::max(m_cnt, 2u);
}

void cubic::cong_avoid(cc_state& s, std::uint32_t acked, std::uint64_t now_us) {
    // tcp_cubic.c: cubictcp_cong_avoid.
    if (!s.cwnd_limited)
        return;
    if (s.in_slow_start()) {
        acked = tcp_slow_start(s, acked);
        if (!acked)
            return;
    }
    update(s, acked, now_us);
    tcp_cong_avoid_ai(s, m_cnt, acked);
}

std::uint32_t cubic::ssthresh(const cc_state& s) {
    // tcp_cubic.c: cubictcp_recalc_ssthresh with fast convergence: a flow that lost before
    // reaching its previous W_max releases bandwidth by remembering a lower W_max.
    m_epoch_start = 0;
    if (s.cwnd < m_last_max_cwnd && m_cfg.cubic_fast_convergence)
        m_last_max_cwnd = static_cast<std::uint32_t>(
            (static_cast<std::uint64_t>(s.cwnd) * (1024 + m_cfg.cubic_beta)) / 2048);
    else
        m_last_max_cwnd = s.cwnd;
    return std::max<std::uint32_t>((s.cwnd * m_cfg.cubic_beta) / 1024, 2u);
}

void cubic::on_loss(cc_state& s) {
    // bictcp_state(TCP_CA_Loss): bictcp_reset + bictcp_hystart_reset.
    reset();
    m_round_armed = false;
    (void)s;
}

void cubic::hystart_reset(const cc_state& s, std::uint64_t now) {
    m_round_start = m_last_ack = now;
    m_end_seq = s.snd_nxt;
    m_curr_rtt = ~0u;
    m_sample_cnt = 0;
    m_round_armed = true;
}

void cubic::hystart_update(cc_state& s, std::uint32_t delay, std::uint64_t now) {
    // tcp_cubic.c: hystart_update. A new round starts when snd_una passes the end of the last.
    if (!m_round_armed || s.snd_una > m_end_seq)
        hystart_reset(s, now);
    if (s.cwnd < m_cfg.cubic_hystart_low_window)
        return;
    // ACK train: ACKs closer than hystart_ack_delta belong to one train; a train longer than
    // delay_min (halved without pacing) means the pipe is full.
    const auto ack_delta =
        static_cast<std::uint64_t>(m_cfg.cubic_hystart_ack_delta.to_seconds() * 1e6);
    if (now - m_last_ack <= ack_delta) {
        m_last_ack = now;
        // hystart_ack_delay: min(1 ms, gso_max_size * 4 / pacing rate).
        std::uint64_t ack_delay = 0;
        if (s.pacing_rate)
            ack_delay = std::min<std::uint64_t>(
                1000, static_cast<std::uint64_t>(m_cfg.gso_max_size) * 4 * 1000000 / s.pacing_rate);
        std::uint64_t threshold = m_delay_min_us + ack_delay;
        if (!m_cfg.tcp_internal_pacing)
            threshold >>= 1; // SK_PACING_NONE
        if (now - m_round_start > threshold) {
            m_found = true;
            s.ssthresh = s.cwnd;
        }
    }
    // Delay increase: the minimum RTT of the round's first 8 samples against delay_min.
    if (m_curr_rtt > delay)
        m_curr_rtt = delay;
    if (m_sample_cnt < 8) {
        ++m_sample_cnt;
    } else {
        const std::uint32_t thresh = std::clamp<std::uint32_t>(m_delay_min_us >> 3, 4000, 16000);
        if (m_curr_rtt > m_delay_min_us + thresh) {
            m_found = true;
            s.ssthresh = s.cwnd;
        }
    }
}

void cubic::pkts_acked(cc_state& s, std::uint32_t, std::int64_t rtt_us, std::uint64_t now) {
    // tcp_cubic.c: cubictcp_acked.
    if (rtt_us < 0)
        return;
    // Discard delay samples right after a loss (the first second of an epoch).
    if (m_epoch_start && now - m_epoch_start < 1000000)
        return;
    const auto delay = static_cast<std::uint32_t>(std::max<std::int64_t>(rtt_us, 1));
    if (m_delay_min_us == 0 || m_delay_min_us > delay)
        m_delay_min_us = delay;
    if (!m_found && s.in_slow_start() && m_cfg.cubic_hystart)
        hystart_update(s, delay, now);
}

std::unique_ptr<congestion_control> make_congestion_control(const net_settings& cfg) {
    if (cfg.tcp_congestion_control == "reno")
        return std::make_unique<reno>();
    return std::make_unique<cubic>(cfg);
}

} // namespace nicsim::net
