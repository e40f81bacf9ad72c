// SPDX-License-Identifier: MIT
//
// The sender's RTT estimator and RTO, as tcp_input.c: tcp_rtt_estimator + tcp_set_rto
// (RFC 6298 with Linux's twist: the variance term is at least tcp_rto_min and only decays once
// per RTT, so RTO = srtt + max(4 * mdev, rto_min) on a quiet LAN - the 200 ms floor). All in
// microseconds; srtt is kept << 3 and mdev << 2 as in struct tcp_sock.
#pragma once

#include <algorithm>
#include <cstdint>

namespace nicsim::net {

class tcp_rtt_estimator {
  public:
    tcp_rtt_estimator(std::uint64_t rto_min_us, std::uint64_t rto_max_us,
                      std::uint64_t rto_initial_us)
        : m_rto_min(rto_min_us), m_rto_max(rto_max_us), m_rto(rto_initial_us) {}

    // One sample of `m` us; snd_una/snd_nxt decide when a new RTT (rtt_seq) begins.
    void sample(std::int64_t m, std::uint64_t snd_una, std::uint64_t snd_nxt) {
        if (m <= 0)
            m = 1;
        if (m_srtt8 != 0) {
            m -= static_cast<std::int64_t>(m_srtt8 >> 3);
            m_srtt8 = static_cast<std::uint64_t>(static_cast<std::int64_t>(m_srtt8) + m);
            if (m < 0) {
                m = -m;
                m -= static_cast<std::int64_t>(m_mdev4 >> 2);
                // A sample below srtt should not inflate the variance as much (Linux: >> 3).
                if (m > 0)
                    m >>= 3;
            } else {
                m -= static_cast<std::int64_t>(m_mdev4 >> 2);
            }
            m_mdev4 = static_cast<std::uint64_t>(static_cast<std::int64_t>(m_mdev4) + m);
            if (m_mdev4 > m_mdev_max) {
                m_mdev_max = m_mdev4;
                m_rttvar = std::max(m_rttvar, m_mdev_max);
            }
            if (snd_una > m_rtt_seq) {
                // Once per RTT: let rttvar decay towards the largest recent mdev.
                if (m_mdev_max < m_rttvar)
                    m_rttvar -= (m_rttvar - m_mdev_max) >> 2;
                m_rtt_seq = snd_nxt;
                m_mdev_max = m_rto_min;
            }
        } else {
            m_srtt8 = static_cast<std::uint64_t>(m) << 3;
            m_mdev4 = static_cast<std::uint64_t>(m) << 1;
            m_rttvar = std::max(m_mdev4, m_rto_min);
            m_mdev_max = m_rttvar;
            m_rtt_seq = snd_nxt;
        }
        // __tcp_set_rto: srtt + rttvar, clamped (tcp_bound_rto).
        m_rto = std::min((m_srtt8 >> 3) + m_rttvar, m_rto_max);
    }

    std::uint64_t srtt_us() const { return m_srtt8 >> 3; }
    std::uint64_t mdev_us() const { return m_mdev4 >> 2; }
    std::uint64_t rttvar_us() const { return m_rttvar; }
    std::uint64_t rto_us() const { return m_rto; }
    bool has_sample() const { return m_srtt8 != 0; }

  private:
    std::uint64_t m_rto_min, m_rto_max, m_rto;
    std::uint64_t m_srtt8 = 0, m_mdev4 = 0, m_mdev_max = 0, m_rttvar = 0;
    std::uint64_t m_rtt_seq = 0;
};

} // namespace nicsim::net
