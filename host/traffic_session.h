// SPDX-License-Identifier: MIT
// Builds the traffic flow a scenario asks for (ttcp/iperf bulk TCP, UDP flood, ping) between a
// host-side and a peer-side address, and turns its result into a flow report. Shared by every
// device system: the system only decides what carries the frames on each side.
//
// Two host models (host.stack, docs/host-stack.md): with `linux` a TCP flow runs between two
// Linux-like network stacks (host/net: the board's, attached to the real driver's netdev,
// and the peer's, attached to the link partner); with `fixed_window`, and for UDP and ping in
// either, the flow's own endpoints (host/traffic) send and receive the frames (with
// `linux`, frames reach the board's endpoint after the stack's seeded receive latencies,
// net/rx_latency.h, so ping's RTTs spread as on a board). Whoever
// carries frames calls host_rx()/peer_rx() with what arrives and binds the transmit side with
// bind_peer() and, on the host, either host_side().bind() (endpoints) or board_stack()->attach()
// (a stack; uses_stack() says which).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/config/scenario_config.h"
#include "host/net/linux_tcp_flow.h"
#include "host/net/rx_latency.h"
#include "core/report/report.h"
#include "host/tcp_capture.h"
#include "host/traffic/endpoint.h"
#include "host/traffic/ping_flow.h"
#include "host/traffic/tcp_bulk_flow.h"
#include "host/traffic/udp_flood_flow.h"

namespace nicsim {

class traffic_session {
  public:
    // The flow does not start by itself: call start() once the interface is up.
    // `stacks` (board, peer) is used when the flow runs over the linux stacks: TCP kinds with
    // stacks given; null (or UDP/ping): the flow's endpoints.
    struct stack_configs {
        net::host_stack_config board, peer;
    };
    traffic_session(const config::traffic_config& cfg, std::uint64_t seed,
                    const traffic::endpoint_addr& host, const traffic::endpoint_addr& peer,
                    const stack_configs* stacks = nullptr);

    // The flow runs over the linux stacks (board_stack()/peer_stack() are set) rather than over
    // endpoints (host_side()/peer_side()); throw std::logic_error when asked for the other.
    bool uses_stack() const { return static_cast<bool>(m_linux); }
    // traffic.kind idle: no flow (no endpoints, no stacks, no flow in the report).
    bool idle() const { return m_cfg.kind == config::traffic_kind::idle; }
    traffic::endpoint& host_side();
    traffic::endpoint& peer_side();
    net::host_stack& board_stack();
    net::host_stack& peer_stack();
    const net::linux_tcp_flow* linux_flow() const { return m_linux.get(); }

    // Frames that arrived: out of the board's netif_rx / at the peer from the link partner.
    void host_rx(const std::uint8_t* data, std::size_t len);
    void peer_rx(const std::uint8_t* data, std::size_t len);
    // The peer's transmit side: `send` hands a frame to the link partner (never blocks); `queue`
    // is what the medium still holds of them and tells when it takes one, so that a UDP sender
    // at the peer blocks on its socket send buffer (wmem_default) as Linux's does, instead of
    // queueing without bound (needed for udp_rx).
    struct peer_queue {
        std::function<std::size_t()> depth; // frames handed to `send` not yet on the medium
        const sc_core::sc_event* taken = nullptr;
    };
    void bind_peer(traffic::send_fn send, peer_queue queue);
    // Captures (pcap): every frame sent or received at the host's netdev / at the peer, and
    // for a flow over the linux stacks the handshake at start() and the close at completed()
    // that its connections imply (trace/tcp_capture.h).
    void set_taps(trace::capture_taps host, trace::capture_taps peer);
    // The board's transmit tap, for whoever carries the board stack's frames to the driver.
    const traffic::frame_tap_fn& host_tap() const { return m_host_tap; }

    void start();
    // The run saw the traffic complete (done_event() and not failed): a transfer of
    // traffic.bytes over the linux stacks closes its connections (in the captures).
    void completed();
    const sc_core::sc_event& done_event() const;
    bool finished() const;
    bool failed() const;
    std::string error() const;
    // The traffic as one flow (iperf3 -P streams summed, as its [SUM] line).
    report::flow_report flow_report() const;
    // The report's flows: one per stream of a -P run, else flow_report().
    std::vector<report::flow_report> flow_reports() const;

  private:
    report::flow_report linux_stream_report(std::size_t k) const;
    // Hands frames the model does not simulate to both capture points, from now on, 1 ns apart.
    void capture_control(const std::vector<trace::control_frame>& frames);
    void send_from_peer(std::vector<std::uint8_t> f);
    void release_sent_by_peer();

    config::traffic_config m_cfg;
    std::unique_ptr<traffic::tcp_bulk_flow> m_tcp;
    std::unique_ptr<traffic::udp_flood_flow> m_udp;
    std::unique_ptr<traffic::ping_flow> m_ping;
    std::unique_ptr<net::linux_tcp_flow> m_linux;
    // UDP and ping with the linux host model: the board's receive latencies before the endpoint.
    std::unique_ptr<net::rx_latency> m_host_rx_latency;
    traffic::frame_tap_fn m_host_tap, m_peer_tap;
    trace::control_tap_fn m_host_control, m_peer_control;
    sc_core::sc_time m_next_control; // capture_control's next free instant
    traffic::endpoint* m_host = nullptr;
    traffic::endpoint* m_peer = nullptr;
    sc_core::sc_event m_never; // idle: the done event that never fires
    // A UDP sender at the peer: its socket send buffer over the frames the medium still holds.
    traffic::send_fn m_peer_send;
    peer_queue m_peer_queue;
    traffic::socket_buffer m_peer_sndbuf;
    std::deque<std::size_t> m_peer_queued; // their lengths, oldest first
    std::vector<std::uint8_t> m_peer_waiting; // the frame send_from_peer holds while it blocks
};

} // namespace nicsim
