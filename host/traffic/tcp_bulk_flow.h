// SPDX-License-Identifier: MIT
//
// ttcp-like bulk TCP transfer: a sender endpoint streams total_bytes of the payload pattern, a
// receiver endpoint checks every byte and acknowledges. Direction is only which side is which:
// attach sender() to the host's port for TX, to the peer's port for RX.
//
// What is modelled (see docs/traffic.md for the full description):
//  * the connection is already established (no SYN/FIN exchange; ttcp times the data phase);
//    both ends derive their initial sequence numbers from `seed`, as if from the handshake;
//  * real segments: ACK|PSH data segments of at most `mss` payload bytes, pure ACKs with
//    tot_len == ihl*4 + doff*4 (the shape the WILC1000 TCP-ACK filter looks for), optional
//    RFC 7323 timestamp option (on by default, as on Linux), window field scaled by the smallest
//    shift that fits `window` (as if negotiated);
//  * sender: sliding window limited by the receiver's advertised window (no congestion control:
//    ttcp over one LAN/WLAN hop is window- or link-limited), a retransmission timer with
//    exponential backoff (go-back-N on timeout) and fast retransmit of the first unacknowledged
//    segment on `dupack_threshold` duplicate ACKs;
//  * receiver: cumulative ACKs, delayed ACK (every `ack_every`-th segment, or after
//    `delayed_ack_timeout`), immediate ACK for out-of-order, duplicate and hole-filling segments
//    and for the segment that completes the stream; out-of-order segments inside the window are
//    kept and delivered once the hole is filled.
//
// Checks: the receiver compares every payload byte it receives with the pattern at its stream
// offset. The first mismatch fails the flow with "payload mismatch at stream offset N: expected
// 0xEE, got 0xGG". A bad IP/TCP checksum with an intact payload also fails it (a header was
// corrupted on the way). The sender gives up after max_retransmits consecutive timeouts of the
// same data, so a dead path fails instead of hanging.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "host/traffic/endpoint.h"
#include "host/traffic/pattern.h"

namespace nicsim::traffic {

struct tcp_bulk_config {
    endpoint_addr sender{frame::mac_addr{{0x02, 0, 0, 0, 0, 0x01}}, frame::ipv4_addr{0xc0a80102},
                         40000};
    endpoint_addr receiver{frame::mac_addr{{0x02, 0, 0, 0, 0, 0x02}}, frame::ipv4_addr{0xc0a80101},
                           5001};
    std::uint64_t total_bytes = 16777216; // ttcp -t default run of the calibration point: 16 MiB
    std::uint32_t mss = 1448;             // payload bytes per segment: 1500 - 20 - 20 - 12 (ts)
    std::uint32_t mtu = 1500;             // IPv4 MTU; mss + headers must fit
    std::uint64_t window = 65536;         // receive window, bytes (Linux initial rcv window)
    bool timestamps = true;               // TCP timestamp option on every segment
    std::uint8_t tos = 0;                 // IPv4 TOS byte (DSCP << 2)
    bool delayed_ack = true;
    unsigned ack_every = 2; // ACK at least every 2nd full segment (RFC 1122 / Linux)
    sc_core::sc_time delayed_ack_timeout = sc_core::sc_time(40, sc_core::SC_MS); // TCP_DELACK_MIN
    sc_core::sc_time rto_initial = sc_core::sc_time(200, sc_core::SC_MS);        // TCP_RTO_MIN
    sc_core::sc_time rto_max = sc_core::sc_time(120, sc_core::SC_SEC);           // TCP_RTO_MAX
    unsigned max_retransmits = 15; // consecutive timeouts before giving up (tcp_retries2)
    unsigned dupack_threshold = 3;
    std::uint64_t seed = 1; // ISNs, IP ids, timestamp bases, payload pattern
    sc_core::sc_time start_time = sc_core::SC_ZERO_TIME; // first segment not before this
    bool autostart = true;                               // false: wait for start() too
};

struct tcp_bulk_result {
    bool finished = false; // all bytes acknowledged, or failed
    bool failed = false;
    std::string error; // first failure, human-readable (empty if none)

    // First payload mismatch, if any.
    bool mismatch = false;
    std::uint64_t mismatch_offset = 0;
    std::uint8_t mismatch_expected = 0, mismatch_got = 0;

    std::uint64_t bytes_delivered = 0; // in order to the receiving application
    std::uint64_t segments_sent = 0;   // data segments incl. retransmissions
    std::uint64_t segments_retransmitted = 0;
    std::uint64_t fast_retransmits = 0;
    std::uint64_t timeouts = 0;
    std::uint64_t acks_sent = 0;     // by the receiver
    std::uint64_t acks_received = 0; // by the sender
    std::uint64_t dup_acks = 0;
    std::uint64_t segments_received = 0; // data segments accepted by the receiver
    std::uint64_t duplicate_segments = 0;
    std::uint64_t out_of_order_segments = 0;
    std::uint64_t checksum_errors = 0;

    sc_core::sc_time first_send; // first data segment handed to the sender's stack
    sc_core::sc_time last_ack;   // ACK covering the last byte processed by the sender
    sc_core::sc_time completion; // == last_ack when finished without failure
    sc_core::sc_time duration() const { return last_ack - first_send; }
    double goodput_bps = 0; // total_bytes * 8 / duration(), seconds; 0 unless finished ok
};

class tcp_bulk_flow : public sc_core::sc_module {
  public:
    tcp_bulk_flow(const sc_core::sc_module_name& nm, const tcp_bulk_config& cfg);

    class sender_ep;
    class receiver_ep;

    // The two sides; bind() each to its port, feed each its frames via receive().
    sender_ep& sender() { return *m_sender; }
    receiver_ep& receiver() { return *m_receiver; }

    void start(); // for autostart == false
    const sc_core::sc_event& done_event() const { return m_done; }
    bool finished() const { return m_res.finished; }
    const tcp_bulk_result& result() const { return m_res; }
    const tcp_bulk_config& config() const { return m_cfg; }

    // Wire sequence number of stream offset `off` for the sender's data.
    std::uint32_t wire_seq(std::uint64_t off) const {
        return static_cast<std::uint32_t>(m_isn_snd + 1 + off);
    }

  private:
    friend class sender_ep;
    friend class receiver_ep;

    void fail(const std::string& why);
    void finish();

    tcp_bulk_config m_cfg;
    payload_pattern m_pattern;
    unsigned m_wscale;
    std::uint32_t m_isn_snd, m_isn_rcv;
    tcp_bulk_result m_res;
    sc_core::sc_event m_done;
    sc_core::sc_event m_start;
    bool m_started = false;
    std::unique_ptr<sender_ep> m_sender;
    std::unique_ptr<receiver_ep> m_receiver;
};

class tcp_bulk_flow::sender_ep : public endpoint {
  public:
    sender_ep(const sc_core::sc_module_name& nm, tcp_bulk_flow& flow);

  private:
    bool accepts(const frame::parsed_frame& f) const override;
    void run();
    void on_ack(const frame::parsed_frame& f);
    void send_segment(std::uint64_t off);
    void arm_rto();

    tcp_bulk_flow& m_flow;
    std::uint64_t m_una = 0, m_nxt = 0, m_max = 0; // stream offsets
    std::uint64_t m_peer_wnd;
    unsigned m_dupacks = 0;
    unsigned m_backoff = 0; // consecutive timeouts without progress
    sc_core::sc_time m_rto;
    bool m_rto_armed = false;
    sc_core::sc_time m_rto_deadline;
    std::uint16_t m_ip_id;
    std::uint32_t m_ts_base, m_ts_recent = 0;
    std::vector<std::uint8_t> m_scratch;
};

class tcp_bulk_flow::receiver_ep : public endpoint {
  public:
    receiver_ep(const sc_core::sc_module_name& nm, tcp_bulk_flow& flow);

  private:
    bool accepts(const frame::parsed_frame& f) const override;
    void run();
    bool on_segment(const frame::parsed_frame& f); // false: flow failed
    void deliver(std::uint64_t off, const std::uint8_t* p, std::size_t len);
    void send_ack();

    tcp_bulk_flow& m_flow;
    std::uint64_t m_rcv_nxt = 0;
    std::map<std::uint64_t, std::vector<std::uint8_t>> m_ooo; // offset -> payload
    unsigned m_unacked_segments = 0;
    bool m_delack_armed = false;
    sc_core::sc_time m_delack_deadline;
    std::uint16_t m_ip_id;
    std::uint32_t m_ts_base, m_ts_recent = 0;
};

} // namespace nicsim::traffic
