// SPDX-License-Identifier: MIT
//
// One side of a traffic flow and the port it is attached to.
//
// The traffic layer knows frames, time and a CPU-cost hook - never drivers, chips or buses. The
// composition root (testbench) attaches each endpoint to a `port`:
//
//   port.send(frame)      hands a complete Ethernet frame to whatever carries it: the real
//                         driver's ndo_start_xmit on the host side, the peer's radio/wire model on
//                         the other. It is called from the endpoint's SC_THREAD and MAY BLOCK
//                         (wait()) to model backpressure, e.g. while the netdev queue is stopped;
//                         the endpoint does nothing else until it returns. A send that drops the
//                         frame (as the WILC1000 driver does over its per-AC limit) just returns.
//   port.cpu_cost(t)      charges t of network-stack CPU work on this side. Called from the
//                         endpoint's SC_THREAD before each frame is sent and after each accepted
//                         frame is received; it is expected to return once the work is done
//                         (e.g. after holding a core of the board CPU for t, possibly after waiting
//                         for a free core). Empty = no cost (a fast peer PC).
//   port.cost             how much each frame costs on this side (feeds cpu_cost).
//
// In the other direction the environment calls endpoint::receive(data, len) for every frame that
// arrives at this side's network stack (netif_rx on the host, the wire/radio on the peer).
// receive() never blocks and may be called from SC_METHODs or SC_THREADs: it filters the frame
// (Ethernet destination, IPv4 destination, protocol, ports), copies it into the endpoint's inbox
// and wakes the endpoint's thread, which does all the work (and pays the CPU cost) in its own time.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "host/traffic/frame.h"
#include "host/traffic/socket_buffer.h"

namespace nicsim::traffic {

using send_fn = std::function<void(std::vector<std::uint8_t>)>;
// Sees every frame at this side: `sent` = handed over by port.send (when it returned), else
// arrived via receive() (before any filtering). For captures (pcap).
using frame_tap_fn = std::function<void(bool sent, const std::uint8_t* data, std::size_t len)>;
using cpu_cost_fn = std::function<void(sc_core::sc_time)>;

// Per-frame network-stack cost on one side. The time charged for a frame with p payload bytes is
// per_tx_frame + p * per_payload_byte (sending) or per_rx_frame + p * per_payload_byte
// (receiving). The values come from the platform profile; defaults are zero.
struct stack_cost {
    sc_core::sc_time per_tx_frame = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_rx_frame = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_payload_byte = sc_core::SC_ZERO_TIME;
};

struct port {
    send_fn send;
    cpu_cost_fn cpu_cost; // empty: cost is not charged anywhere
    stack_cost cost;
};

// Addressing of one side of a flow. The TCP/UDP port is ignored by ping.
struct endpoint_addr {
    frame::mac_addr mac;
    frame::ipv4_addr ip;
    std::uint16_t port = 0;
};

class endpoint : public sc_core::sc_module {
  public:
    // Attaches the port. Endpoints that send need port.send (checked when their thread starts);
    // a pure receiver (UDP flood sink) may leave it empty.
    void bind(port p);
    bool bound() const { return static_cast<bool>(m_port.send); }

    // See the file comment. Returns false (and counts the frame in frames_ignored()) if the frame
    // is not for this endpoint: not parseable, wrong destination MAC (unicast to someone else),
    // wrong IP destination, protocol or ports. A frame for it that the receive buffer drops
    // returns true without counting in frames_accepted() (see limit_receive_buffer).
    bool receive(const std::uint8_t* data, std::size_t len);

    void set_tap(frame_tap_fn tap) { m_tap = std::move(tap); }
    // Bounds the inbox like a socket's receive queue (socket_buffer.h): a frame for this endpoint
    // that finds the buffer over its limit is dropped and counted in rcvbuf_drops(). Unbounded by
    // default (TCP's window and ping's one request in flight bound those flows).
    void limit_receive_buffer(socket_buffer rcvbuf) { m_rcvbuf = rcvbuf; }
    std::uint64_t rcvbuf_drops() const { return m_rcvbuf.drops(); }

    std::uint64_t frames_ignored() const { return m_ignored; }
    std::uint64_t frames_accepted() const { return m_accepted; }
    // When receive() last accepted a frame (0 s if it never did, see frames_accepted()): the
    // flow's last sign of progress, for the run's verdict.
    sc_core::sc_time last_accepted() const { return m_last_accepted; }
    const endpoint_addr& addr() const { return m_self; }

  protected:
    endpoint(const sc_core::sc_module_name& nm, const endpoint_addr& self);

    // Flow-specific filter on an already parsed frame whose Ethernet/IP destination is this
    // endpoint.
    virtual bool accepts(const frame::parsed_frame& f) const = 0;

    struct inbound {
        std::vector<std::uint8_t> bytes;
        sc_core::sc_time arrival; // when receive() was called (the kernel's skb timestamp)
    };
    bool inbox_empty() const { return m_inbox.empty(); }
    // The oldest frame, valid until the next pop_inbox(). It is kept in the endpoint, not
    // returned by value: a thread that waits (CPU cost) while holding a frame on its coroutine
    // stack would hide it from LeakSanitizer when the run ends there.
    const inbound& pop_inbox();
    const sc_core::sc_event& inbox_event() const { return m_inbox_event; }
    // Waits until a frame is queued (returns at once if one is) or `timeout` passes.
    void wait_inbox(const sc_core::sc_time& timeout);
    void wait_inbox();

    // Charges the sending cost for a frame carrying payload_len application bytes, then hands the
    // frame to the port (which may block). Throws std::logic_error if the port is unbound.
    void transmit(std::vector<std::uint8_t> f, std::size_t payload_len);
    // Throws std::logic_error naming the endpoint if port.send is missing.
    void require_send() const;
    // Charges the receiving cost.
    void charge_rx(std::size_t payload_len);

    endpoint_addr m_self;

  private:
    port m_port;
    frame_tap_fn m_tap;
    std::deque<inbound> m_inbox;
    socket_buffer m_rcvbuf;                           // what m_inbox holds, by truesize
    inbound m_current;                                // the frame pop_inbox() returned last
    std::vector<std::uint8_t> m_sending, m_sent_copy; // transmit()'s frame while it waits
    sc_core::sc_event m_inbox_event;
    sc_core::sc_event m_timer;                  // wait_inbox(timeout)'s deadline
    sc_core::sc_event_or_list m_inbox_or_timer; // m_inbox_event | m_timer
    std::uint64_t m_ignored = 0;
    std::uint64_t m_accepted = 0;
    sc_core::sc_time m_last_accepted;
};

// Smallest window-scale shift s with window >> s <= 65535 (RFC 7323; at most 14).
unsigned window_scale_for(std::uint64_t window);

} // namespace nicsim::traffic
