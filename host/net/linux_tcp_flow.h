// SPDX-License-Identifier: MIT
//
// linux_tcp_flow: a bulk TCP transfer (ttcp -t/-r, iperf3) between two host_stacks, the board's
// and the peer's, as the applications on them would run it: the sender write()s
// `write_size` chunks into a blocking socket until `total_bytes` are written, the receiver
// read()s up to `read_size` at a time. Everything below the socket calls - congestion control,
// TSQ, the qdisc, the netdev queue - is the stacks' (host_stack.h); this class only owns the two
// stacks, opens the connection and measures it.
//
// `streams` > 1 opens that many connections between the two hosts, as iperf3 -P does: stream k
// from the sender's port + k to the receiver's port, each with its own writer and reader, all
// writing from one byte budget (iperf3 -n counts the bytes of every stream); the transfer is
// complete when every stream's bytes are acknowledged and read.
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
#include <vector>

#include <systemc>

#include "host/net/host_stack.h"
#include "host/traffic/endpoint.h"

namespace nicsim::net {

struct linux_tcp_flow_config {
    traffic::endpoint_addr board, peer; // MAC, IP and TCP port of each side
    bool board_sends = true;            // ttcp -t on the board (tx) or on the peer (rx)
    std::uint64_t total_bytes = 0;      // 0: until the run's duration ends
    std::uint32_t write_size = 8192;    // ttcp -l
    std::uint32_t read_size = 8192;     // the receiver's read() size (ttcp -l)
    std::uint32_t streams = 1;          // parallel connections (iperf3 -P)
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
    sc_core::sc_time last_read;      // the receiving application's last read() that returned data
    std::uint64_t bytes_written = 0; // by the sending application into this stream
    double goodput_bps = 0; // bytes_written * 8 / (last_ack - first_write); 0 unless finished ok
};

class linux_tcp_flow : public sc_core::sc_module {
  public:
    // Throws std::invalid_argument for settings the stacks refuse (naming the setting).
    linux_tcp_flow(const sc_core::sc_module_name& nm, const linux_tcp_flow_config& cfg);

    host_stack& board_stack() { return *m_board; }
    host_stack& peer_stack() { return *m_peer; }
    const host_stack& board_stack() const { return *m_board; }
    // Stream k's sockets (stream 0 is the only one without -P). The sender is the client (it
    // connects, as ttcp -t and iperf3's client do), on the board when config().board_sends.
    const tcp_socket& sender_socket(std::size_t k = 0) const { return *m_streams.at(k).snd; }
    const tcp_socket& receiver_socket(std::size_t k = 0) const { return *m_streams.at(k).rcv; }
    const linux_tcp_flow_config& config() const { return m_cfg; }

    void start();
    const sc_core::sc_event& done_event() const { return m_done; }
    bool finished() const { return m_finished; }
    std::size_t streams() const { return m_streams.size(); }
    // One stream's result; finished/failed/error are the whole transfer's.
    linux_tcp_flow_result result(std::size_t stream = 0) const;

  private:
    struct stream {
        tcp_socket* snd = nullptr;
        tcp_socket* rcv = nullptr;
        std::uint64_t written = 0;
        bool all_acked = false; // the sender holds the ACK of the last byte it wrote
        sc_core::sc_time first_write, last_ack, last_read;
    };
    void writer() { write_stream(0); }
    void reader() { read_stream(0); }
    void write_stream(std::size_t k);
    void read_stream(std::size_t k);
    void finish(const std::string& error);
    // The transfer is complete when every sender has the ACK of its last byte and every
    // receiving application has read it (ttcp -r / iperf3's server count what they read).
    void finish_when_complete();

    linux_tcp_flow_config m_cfg;
    std::unique_ptr<host_stack> m_board, m_peer;
    host_stack* m_tx = nullptr; // the sending side's stack
    host_stack* m_rx = nullptr;
    std::vector<stream> m_streams;
    std::uint64_t m_left = 0; // of total_bytes, not yet handed to a writer
    bool m_finished = false, m_failed = false;
    std::string m_error;
    sc_core::sc_event m_start, m_done;
    bool m_started = false;
};

} // namespace nicsim::net
