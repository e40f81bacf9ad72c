// SPDX-License-Identifier: MIT
//
// The link-shape harness: two host stacks (sender and receiver host) joined by a model of a veth
// pair shaped as tc would shape it, running one bulk TCP flow (an iperf3-like writer and reader).
// It is what `nicsim-netstack` runs and what the comparison with the real kernel
// (bench/, docs/host-stack.md) reads.
//
// Link shapes (what `tc` setup each stands for):
//   shaper "tbf", delay_on "ack" (default)
//        sender veth egress: tbf rate R (its queue = the sender stack's qdisc in front of the
//        rate limiter); receiver veth egress: netem delay D (on the ACK path, so netem's
//        skb_orphan_partial does not touch data skbs). TSQ sees the tbf backlog.
//   shaper "tbf", delay_on "data"
//        as above but the delay follows the rate limiter on the data path, with the budget
//        returned when the last bit leaves the shaper (a delay the sender cannot see).
//   shaper "netem"
//        sender veth egress: netem rate R delay D. netem orphans each skb at enqueue, so TSQ no
//        longer limits the backlog; only cwnd and the netem limit (txqueuelen) do.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "host/net/host_stack.h"
#include "host/net/shaped_link.h"

namespace nicsim::net {

struct harness_config {
    double rate_bps = 12e6;
    sc_core::sc_time delay{1, sc_core::SC_MS};
    std::string shaper = "tbf";   // tbf | netem
    std::string delay_on = "ack"; // ack | data (netem: always data)
    host_stack_config sender, receiver;
    std::uint64_t write_size = 131072; // iperf3's default TCP block (128 KiB)
    std::uint64_t read_size = 131072;
    std::uint64_t total_bytes = 0; // the writer stops after this many bytes; 0 = for ever
    sc_core::sc_time poll{100, sc_core::SC_US};            // backlog / round tracking resolution
    sc_core::sc_time sample_interval{100, sc_core::SC_MS}; // "samples" in the JSON
    sc_core::sc_time warmup{1, sc_core::SC_SEC};           // steady state starts here
    std::uint64_t seed = 1;

    // Throws std::invalid_argument naming the option.
    void validate() const;
};

struct harness_sample {
    double t = 0;
    std::uint32_t cwnd = 0;
    std::uint64_t srtt_us = 0;
    std::uint64_t backlog_bytes = 0;
    std::uint32_t backlog_pkts = 0;
    std::uint64_t wmem_alloc = 0;
};

struct harness_result {
    double duration_s = 0;
    double goodput_bps = 0;        // bytes read by the receiving application * 8 / duration
    double goodput_steady_bps = 0; // same, after warmup
    // cwnd at the end of each of the first 10 rounds (see observer()) and when each ended (s).
    std::vector<std::uint32_t> cwnd_per_rtt;
    std::vector<double> cwnd_per_rtt_t;
    // cwnd at t = k x base RTT, k = 1..10 (base RTT = delay + one 1514-byte frame at the rate;
    // t = 0 is the start of the data): the real-kernel reference's clock
    // (bench/netns_tcp_reference.py samples tcpi_snd_cwnd at t0 + k x base RTT).
    std::vector<std::uint32_t> cwnd_at_base_rtt;
    double qdisc_backlog_bytes_mean = 0; // time mean after warmup (tc's backlog: qdisc + shaper)
    double qdisc_backlog_pkts_mean = 0;
    double wmem_alloc_mean = 0; // bytes below TCP (TSQ-limited) after warmup
    std::uint64_t srtt_us = 0;  // at the end
    std::uint64_t rto_us = 0;
    std::uint64_t retransmits = 0;
    std::uint64_t timeouts = 0;
    std::uint64_t fast_retransmits = 0;
    std::uint64_t tsq_throttled = 0;
    std::uint64_t bytes_written = 0, bytes_acked = 0, bytes_read = 0;
    std::uint64_t link_frames = 0, link_bytes = 0;
    std::uint64_t qdisc_drops = 0, pattern_errors = 0;
    std::uint64_t final_cwnd = 0, final_ssthresh = 0, pacing_rate_Bps = 0;
    std::uint64_t tsq_limit_bytes = 0;
    std::uint64_t sndbuf = 0, rcvbuf = 0, rcv_wnd = 0;
    bool hystart_found = false;
    std::vector<harness_sample> samples;
    std::string error;
};

class netstack_harness : public sc_core::sc_module {
  public:
    netstack_harness(const sc_core::sc_module_name& nm, const harness_config& cfg);

    // Collects the result after sc_start(duration).
    harness_result result() const;
    // JSON of a result (the shape bench scripts read; see docs/host-stack.md).
    static std::string to_json(const harness_result& r, const harness_config& cfg);

    host_stack& sender() { return *m_tx; }
    host_stack& receiver() { return *m_rx; }
    tcp_socket& sender_socket() { return *m_tx_sock; }
    tcp_socket& receiver_socket() { return *m_rx_sock; }
    shaped_link& data_link() { return *m_data; }
    shaped_link& ack_link() { return *m_ack; }

  private:
    void writer();
    void reader();
    void observer();

    harness_config m_cfg;
    std::unique_ptr<host_stack> m_tx, m_rx;
    std::unique_ptr<shaped_link> m_data, m_ack;
    tcp_socket* m_tx_sock = nullptr;
    tcp_socket* m_rx_sock = nullptr;
    // observer state
    std::vector<std::uint32_t> m_rounds;
    std::vector<double> m_round_times;
    std::vector<std::uint32_t> m_cwnd_at_base_rtt;
    std::uint64_t m_round_end = 0;
    bool m_round_started = false;
    double m_backlog_bytes_sum = 0, m_backlog_pkts_sum = 0, m_wmem_sum = 0;
    std::uint64_t m_polls = 0;
    std::uint64_t m_read_at_warmup = 0;
    bool m_warm = false;
    sc_core::sc_time m_next_poll; // the backlog means use polls on the regular `poll` grid
    std::vector<harness_sample> m_samples;
};

} // namespace nicsim::net
