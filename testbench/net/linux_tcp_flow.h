// SPDX-License-Identifier: MIT
//
// linux_tcp_flow: a bulk TCP transfer (ttcp -t/-r, iperf3) between two host_stacks, the board's
// and the peer's, as the applications on them would run it: the sender write()s
// `write_size` chunks into a blocking socket until `total_bytes` are written, the receiver
// read()s up to `read_size` at a time. Everything below the socket calls - congestion control,
// TSQ, the qdisc, the netdev queue - is the stacks' (host_stack.h); this class only owns the two
// stacks, opens the connection and measures it.
//
// The composition root attaches each stack to what carries its frames (the real driver's
// ndo_start_xmit on the board, the link partner on the peer) and feeds each its received frames.
// Like the fixed-window flow it does not start by itself: start() once the interface is up.
//
// Goodput is measured as the fixed-window flow measures it (tcp_bulk_flow.h): total bytes over
// the time from the first write() to the ACK covering the last byte, seen by the sender.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <systemc>

#include "testbench/net/host_stack.h"
#include "testbench/traffic/endpoint.h"

namespace nicsim::net {

struct linux_tcp_flow_config {
    traffic::endpoint_addr board, peer; // MAC, IP and TCP port of each side
    bool board_sends = true;            // ttcp -t on the board (tx) or on the peer (rx)
    std::uint64_t total_bytes = 0;      // 0: until the run's duration ends
    std::uint32_t write_size = 8192;    // ttcp -l
    std::uint32_t read_size = 8192;     // the receiver's read() size (ttcp -l)
    std::uint64_t seed = 1;
    host_stack_config board_stack, peer_stack;
};

struct linux_tcp_flow_result {
    bool finished = false; // all bytes acknowledged and read by the receiver, or failed
    bool failed = false;
    std::string error;
    std::uint64_t bytes_delivered = 0; // read by the receiving application, checked in order
    std::uint64_t segments_sent = 0;   // data segments incl. retransmissions
    std::uint64_t retransmits = 0, fast_retransmits = 0, timeouts = 0, tail_loss_probes = 0;
    bool sack = false;                 // negotiated: both hosts' tcp_sack
    std::uint64_t sacked_segments = 0; // segments the receiver reported in SACK blocks
    // The sender at the end: its cwnd, the cwnd slow start ended with (0: never), and the TSQ
    // limit of its last skb (bytes below TCP it allowed).
    std::uint32_t cwnd = 0, slow_start_exit_cwnd = 0;
    std::uint64_t tsq_limit_bytes = 0;
    std::uint64_t pattern_errors = 0;
    sc_core::sc_time first_write, last_ack;
    sc_core::sc_time last_read; // the receiving application's last read() that returned data
    double goodput_bps = 0;     // total_bytes * 8 / (last_ack - first_write); 0 unless finished ok
};

class linux_tcp_flow : public sc_core::sc_module {
  public:
    // Throws std::invalid_argument for settings the stacks refuse (naming the setting).
    linux_tcp_flow(const sc_core::sc_module_name& nm, const linux_tcp_flow_config& cfg);

    host_stack& board_stack() { return *m_board; }
    host_stack& peer_stack() { return *m_peer; }
    const host_stack& board_stack() const { return *m_board; }
    const tcp_socket& sender_socket() const { return *m_snd; }

    void start();
    const sc_core::sc_event& done_event() const { return m_done; }
    bool finished() const { return m_res.finished; }
    linux_tcp_flow_result result() const;

  private:
    void writer();
    void reader();
    void finish(const std::string& error);
    // The transfer is complete when the sender has the ACK of the last byte and the receiving
    // application has read it (ttcp -r / iperf3's server count what they read).
    void finish_when_complete();
    bool m_all_acked = false;

    linux_tcp_flow_config m_cfg;
    std::unique_ptr<host_stack> m_board, m_peer;
    host_stack* m_tx = nullptr; // the sending side's stack
    host_stack* m_rx = nullptr;
    tcp_socket* m_snd = nullptr;
    tcp_socket* m_rcv = nullptr;
    linux_tcp_flow_result m_res;
    sc_core::sc_event m_start, m_done;
    bool m_started = false;
};

} // namespace nicsim::net
