// SPDX-License-Identifier: MIT
//
// Congestion control as in Linux's tcp_congestion_ops: Reno (tcp_cong.c) and CUBIC with HyStart
// (tcp_cubic.c). The socket owns cwnd/ssthresh and calls the hooks at the same points as
// tcp_input.c: pkts_acked with each RTT sample (cubictcp_acked), cong_avoid for each ACK that
// advances snd_una outside recovery (tcp_cong_avoid), ssthresh on entering recovery or loss
// (tcp_enter_recovery / tcp_enter_loss), on_loss when an RTO fires (bictcp_state TCP_CA_Loss).
#pragma once

#include <cstdint>
#include <memory>

#include "host/net/net_settings.h"

namespace nicsim::net {

// The part of the socket's state congestion control reads and writes (struct tcp_sock fields).
struct cc_state {
    std::uint32_t cwnd = 10;             // snd_cwnd, segments
    std::uint32_t cwnd_cnt = 0;          // snd_cwnd_cnt (tcp_cong_avoid_ai)
    std::uint32_t ssthresh = 0x7fffffff; // snd_ssthresh, TCP_INFINITE_SSTHRESH
    std::uint64_t snd_una = 0;           // stream offsets (bytes)
    std::uint64_t snd_nxt = 0;
    std::uint64_t pacing_rate = 0; // sk_pacing_rate, bytes/s (HyStart ack-train reads it)
    bool cwnd_limited = true;      // tcp_is_cwnd_limited()
    bool in_slow_start() const { return cwnd < ssthresh; }
};

class congestion_control {
  public:
    virtual ~congestion_control() = default;
    virtual const char* name() const = 0;
    // cong_avoid: `acked` segments newly acknowledged; now_us = simulated time in us.
    virtual void cong_avoid(cc_state& s, std::uint32_t acked, std::uint64_t now_us) = 0;
    // ssthresh on a loss event (the new ssthresh; the caller sets cwnd).
    virtual std::uint32_t ssthresh(const cc_state& s) = 0;
    // An RTT sample for newly acked data (not retransmitted: Karn).
    virtual void pkts_acked(cc_state&, std::uint32_t /*acked*/, std::int64_t /*rtt_us*/,
                            std::uint64_t /*now_us*/) {}
    // The RTO fired (TCP_CA_Loss).
    virtual void on_loss(cc_state&) {}
};

// tcp_slow_start(): grows cwnd by the acked segments up to ssthresh; returns the leftover.
std::uint32_t tcp_slow_start(cc_state& s, std::uint32_t acked);
// tcp_cong_avoid_ai(): +1 segment per w acked segments.
void tcp_cong_avoid_ai(cc_state& s, std::uint32_t w, std::uint32_t acked);

class reno final : public congestion_control {
  public:
    const char* name() const override { return "reno"; }
    void cong_avoid(cc_state& s, std::uint32_t acked, std::uint64_t now_us) override;
    std::uint32_t ssthresh(const cc_state& s) override; // max(cwnd/2, 2): tcp_reno_ssthresh
};

class cubic final : public congestion_control {
  public:
    explicit cubic(const net_settings& cfg);
    const char* name() const override { return "cubic"; }
    void cong_avoid(cc_state& s, std::uint32_t acked, std::uint64_t now_us) override;
    std::uint32_t ssthresh(const cc_state& s) override;
    void pkts_acked(cc_state& s, std::uint32_t acked, std::int64_t rtt_us,
                    std::uint64_t now_us) override;
    void on_loss(cc_state& s) override;

    // Introspection for tests and traces.
    double c() const { return m_c; }         // bic_scale * 10 / 1024 (segments / s^3)
    double beta() const { return m_beta; }   // beta / 1024
    double k_seconds() const { return m_k; } // bic_K
    std::uint32_t last_max_cwnd() const { return m_last_max_cwnd; }
    std::uint32_t origin_point() const { return m_origin; }
    std::uint32_t delay_min_us() const { return m_delay_min_us; }
    bool hystart_found() const { return m_found; }
    std::uint64_t epoch_start_us() const { return m_epoch_start; }
    // The CUBIC target W(t) = C (t - K)^3 + W_max at t seconds after the epoch start (the kernel
    // evaluates it at t + delay_min, one RTT ahead).
    double target(double t_seconds) const;

  private:
    void update(cc_state& s, std::uint32_t acked, std::uint64_t now_us);
    void reset();
    void hystart_reset(const cc_state& s, std::uint64_t now_us);
    void hystart_update(cc_state& s, std::uint32_t delay_us, std::uint64_t now_us);

    const net_settings& m_cfg;
    double m_c, m_beta;
    std::uint32_t m_beta_scale; // TCP-friendliness: 8 (1024 + beta) / 3 / (1024 - beta)
    // struct bictcp
    std::uint32_t m_cnt = 0;
    std::uint32_t m_last_max_cwnd = 0;
    std::uint32_t m_last_cwnd = 0;
    std::uint64_t m_last_time = 0;
    std::uint32_t m_origin = 0;
    double m_k = 0;
    std::uint32_t m_delay_min_us = 0;
    std::uint64_t m_epoch_start = 0; // 0 = no epoch
    std::uint32_t m_ack_cnt = 0;
    std::uint32_t m_tcp_cwnd = 0;
    bool m_found = false;
    std::uint64_t m_round_start = 0, m_last_ack = 0;
    std::uint64_t m_end_seq = 0;
    bool m_round_armed = false;
    std::uint32_t m_curr_rtt = 0, m_sample_cnt = 0;
};

// Builds the congestion control named by cfg.tcp_congestion_control.
std::unique_ptr<congestion_control> make_congestion_control(const net_settings& cfg);

} // namespace nicsim::net
