// SPDX-License-Identifier: MIT
#include "host/traffic_session.h"

#include <algorithm>
#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim {

using config::traffic_kind;

namespace {
sc_core::sc_time to_sc(config::duration d) {
    return sc_core::sc_time(static_cast<double>(d.ps), sc_core::SC_PS);
}
} // namespace

traffic_session::traffic_session(const config::traffic_config& cfg, std::uint64_t seed,
                                 const traffic::endpoint_addr& host,
                                 const traffic::endpoint_addr& peer, const stack_configs* stacks)
    : m_cfg(cfg) {
    const bool tx = config::is_tx(cfg.kind);
    const traffic::endpoint_addr& from = tx ? host : peer;
    const traffic::endpoint_addr& to = tx ? peer : host;
    switch (cfg.kind) {
    case traffic_kind::ttcp_tx:
    case traffic_kind::ttcp_rx:
    case traffic_kind::iperf_tx:
    case traffic_kind::iperf_rx: {
        if (stacks) {
            net::linux_tcp_flow_config c;
            c.board = host;
            c.peer = peer;
            c.board_sends = tx;
            c.total_bytes = cfg.bytes.bytes;
            c.write_size = static_cast<std::uint32_t>(cfg.write_size.bytes);
            // ttcp -r reads with the same buffer size it would write with (-l).
            c.read_size = c.write_size;
            c.streams = cfg.streams;
            c.seed = seed;
            c.board_stack = stacks->board;
            c.peer_stack = stacks->peer;
            m_linux = std::make_unique<net::linux_tcp_flow>("tcp", c);
            return;
        }
        traffic::tcp_bulk_config c;
        c.sender = from;
        c.receiver = to;
        // traffic.bytes 0 = until duration: a stream no duration can finish (2^62 bytes).
        c.total_bytes = cfg.bytes.bytes ? cfg.bytes.bytes : std::uint64_t{1} << 62;
        c.mss = static_cast<std::uint32_t>(cfg.segment_size.bytes);
        // segment_size is the MSS without options: keep the MTU-sized frames ttcp produces.
        c.timestamps = false;
        c.window = cfg.window.bytes;
        c.seed = seed;
        c.autostart = false;
        m_tcp = std::make_unique<traffic::tcp_bulk_flow>("tcp", c);
        m_host = tx ? static_cast<traffic::endpoint*>(&m_tcp->sender()) : &m_tcp->receiver();
        m_peer = tx ? static_cast<traffic::endpoint*>(&m_tcp->receiver()) : &m_tcp->sender();
        break;
    }
    case traffic_kind::udp_tx:
    case traffic_kind::udp_rx: {
        traffic::udp_flood_config c;
        c.sender = from;
        c.receiver = to;
        c.payload_size = static_cast<std::uint32_t>(cfg.datagram_size.bytes);
        c.count = c.payload_size ? (cfg.bytes.bytes + c.payload_size - 1) / c.payload_size : 0;
        c.rate_bps = cfg.rate.bps;
        c.seed = seed;
        c.autostart = false;
        m_udp = std::make_unique<traffic::udp_flood_flow>("udp", c);
        m_host = tx ? static_cast<traffic::endpoint*>(&m_udp->sender()) : &m_udp->receiver();
        m_peer = tx ? static_cast<traffic::endpoint*>(&m_udp->receiver()) : &m_udp->sender();
        // Each host's UDP socket buffers (docs/traffic.md "Bounded queues"): the receiver's
        // rmem_default bounds what waits for the application; the peer's wmem_default bounds
        // what a sending peer queues at its NIC (send_from_peer).
        const net::net_settings board = stacks ? stacks->board.net : net::net_settings{};
        const net::net_settings far = stacks ? stacks->peer.net : net::net_settings{};
        const net::net_settings& rx = tx ? far : board;
        (tx ? m_peer : m_host)
            ->limit_receive_buffer(
                traffic::socket_buffer(rx.rmem_default, rx.skb_truesize_overhead));
        if (!tx)
            m_peer_sndbuf = traffic::socket_buffer(far.wmem_default, far.skb_truesize_overhead);
        break;
    }
    case traffic_kind::ping: {
        traffic::ping_config c;
        c.pinger = cfg.ping_from_peer ? peer : host;
        c.responder = cfg.ping_from_peer ? host : peer;
        c.count = static_cast<std::uint32_t>(cfg.count);
        c.payload_size = static_cast<std::uint32_t>(cfg.payload_size.bytes);
        c.interval = to_sc(cfg.interval);
        // Plain ping (not -A): the next request one interval after the previous one.
        c.min_interval = cfg.ping_adaptive ? sc_core::SC_ZERO_TIME : c.interval;
        // After the last request iputils ping lingers up to MAXWAIT = 10 s (ping.h) for the
        // replies still out; a station in power save can hold one for a DTIM interval.
        c.timeout = sc_core::sc_time(10, sc_core::SC_SEC);
        c.seed = seed;
        c.autostart = false;
        m_ping = std::make_unique<traffic::ping_flow>("ping", c);
        traffic::endpoint* pinger = &m_ping->pinger();
        traffic::endpoint* responder = &m_ping->responder();
        m_host = cfg.ping_from_peer ? responder : pinger;
        m_peer = cfg.ping_from_peer ? pinger : responder;
        break;
    }
    case traffic_kind::idle:
        return; // no flow, no endpoints: nothing is sent, and what arrives is dropped
    }
    if (!m_host)
        throw std::invalid_argument(std::string("traffic kind not supported: ") +
                                    config::to_string(cfg.kind));
    if (stacks) {
        m_host_rx_latency = std::make_unique<net::rx_latency>(
            "host_rx_latency", seed, stacks->board.irq_to_thread, stacks->board.sched_wakeup,
            [this](const std::uint8_t* d, std::size_t n) { m_host->receive(d, n); },
            stacks->board.net.netif_rx_in_caller, stacks->board.net.netdev_max_backlog);
    }
}

traffic::endpoint& traffic_session::host_side() {
    if (!m_host)
        throw std::logic_error(
            "traffic_session: the flow runs over the linux stacks, not endpoints");
    return *m_host;
}

traffic::endpoint& traffic_session::peer_side() {
    if (!m_peer)
        throw std::logic_error(
            "traffic_session: the flow runs over the linux stacks, not endpoints");
    return *m_peer;
}

net::host_stack& traffic_session::board_stack() {
    if (!m_linux)
        throw std::logic_error("traffic_session: the flow runs over endpoints, not stacks");
    return m_linux->board_stack();
}

net::host_stack& traffic_session::peer_stack() {
    if (!m_linux)
        throw std::logic_error("traffic_session: the flow runs over endpoints, not stacks");
    return m_linux->peer_stack();
}

void traffic_session::host_rx(const std::uint8_t* data, std::size_t len) {
    // From the driver's netif_rx, perhaps ahead of SystemC time (bus/common/local_time.h): the
    // taps read the local time; a stack that runs the softirq in the caller needs no sync.
    if (idle())
        return;
    if (!m_linux || m_host_rx_latency)
        local_time::sync(); // the endpoints and the latency stage take the frame at SystemC time
    if (m_host_rx_latency) {
        if (m_host_tap) // captured out of netif_rx, before the latencies
            m_host_tap(false, data, len);
        m_host_rx_latency->receive(data, len);
        return;
    }
    if (!m_linux) {
        m_host->receive(data, len); // the endpoint taps it itself
        return;
    }
    if (m_host_tap)
        m_host_tap(false, data, len);
    m_linux->board_stack().netif_rx(data, len);
}

void traffic_session::peer_rx(const std::uint8_t* data, std::size_t len) {
    if (idle())
        return;
    if (!m_linux) {
        m_peer->receive(data, len);
        return;
    }
    if (m_peer_tap)
        m_peer_tap(false, data, len);
    m_linux->peer_stack().netif_rx(data, len);
}

void traffic_session::bind_peer(traffic::send_fn send, peer_queue queue) {
    if (idle())
        return;
    if (!m_linux) {
        traffic::port p;
        if (m_udp && m_peer == &m_udp->sender()) {
            if (!queue.depth || !queue.taken)
                throw std::logic_error("traffic_session: a UDP sender at the peer needs the "
                                       "medium's peer queue (bind_peer)");
            m_peer_send = std::move(send);
            m_peer_queue = std::move(queue);
            p.send = [this](std::vector<std::uint8_t> f) { send_from_peer(std::move(f)); };
        } else {
            p.send = std::move(send);
        }
        m_peer->bind(p);
        return;
    }
    // The peer PC's NIC: takes every frame at once (a desktop's gigabit NIC is never the
    // bottleneck here) and frees the skb when it is handed on, as its TX completion would.
    net::netdev_port p;
    p.xmit = [this, send = std::move(send)](net::skb_ptr& s) {
        local_time::sync(); // the frame leaves at the stack's own time (bus/common/local_time.h)
        net::skb_ptr mine = std::move(s);
        if (m_peer_tap)
            m_peer_tap(true, mine->data.data(), mine->data.size());
        send(std::move(mine->data));
        return net::netdev_tx::ok;
    };
    m_linux->peer_stack().attach(p);
}

void traffic_session::release_sent_by_peer() {
    // The medium takes frames in order: those it no longer holds are the oldest ones.
    while (m_peer_queued.size() > m_peer_queue.depth()) {
        m_peer_sndbuf.uncharge(m_peer_queued.front());
        m_peer_queued.pop_front();
    }
}

void traffic_session::send_from_peer(std::vector<std::uint8_t> f) {
    // sock_alloc_send_pskb: a blocking sender sleeps while its skbs the NIC has not sent yet
    // hold sk_sndbuf; the NIC's completion frees them (here: the medium takes the frame).
    // The frame waits in a member, not on this coroutine's stack, which a run that ends here
    // never unwinds (LeakSanitizer would not see it).
    m_peer_waiting = std::move(f);
    release_sent_by_peer();
    while (m_peer_sndbuf.full()) {
        sc_core::wait(*m_peer_queue.taken);
        release_sent_by_peer();
    }
    m_peer_sndbuf.charge(m_peer_waiting.size());
    m_peer_queued.push_back(m_peer_waiting.size());
    m_peer_send(std::move(m_peer_waiting));
}

void traffic_session::set_taps(trace::capture_taps host, trace::capture_taps peer) {
    m_host_tap = std::move(host.frames);
    m_peer_tap = std::move(peer.frames);
    m_host_control = std::move(host.control);
    m_peer_control = std::move(peer.control);
    if (m_host && m_host_rx_latency) { // received frames are captured in host_rx()
        m_host->set_tap([this](bool sent, const std::uint8_t* d, std::size_t n) {
            if (sent && m_host_tap)
                m_host_tap(sent, d, n);
        });
    } else if (m_host) {
        m_host->set_tap(m_host_tap);
    }
    if (m_peer)
        m_peer->set_tap(m_peer_tap);
}

void traffic_session::start() {
    if (m_linux) {
        m_linux->start();
        for (std::size_t k = 0; k < m_linux->streams(); ++k)
            capture_control(trace::tcp_open_frames(m_linux->sender_socket(k),
                                                   m_linux->receiver_socket(k)));
    }
    if (m_tcp)
        m_tcp->start();
    if (m_udp)
        m_udp->start();
    if (m_ping)
        m_ping->start();
}

void traffic_session::completed() {
    // A transfer until the run's duration ends with its connections open; a failed one is not
    // closed either.
    if (!m_linux || m_cfg.bytes.bytes == 0 || !m_linux->finished() || failed())
        return;
    for (std::size_t k = 0; k < m_linux->streams(); ++k)
        capture_control(trace::tcp_close_frames(m_linux->sender_socket(k),
                                                m_linux->receiver_socket(k)));
}

void traffic_session::capture_control(const std::vector<trace::control_frame>& frames) {
    if (!m_host_control && !m_peer_control)
        return;
    // The sender is the client (linux_tcp_flow.h).
    const bool client_on_board = m_linux->config().board_sends;
    // After the frames handed on before (another stream's, at the same instant): in time order.
    sc_core::sc_time at = std::max(local_time::now(), m_next_control);
    for (const auto& f : frames) {
        const bool from_board = f.from_client == client_on_board;
        if (m_host_control)
            m_host_control(from_board, f, at);
        if (m_peer_control)
            m_peer_control(!from_board, f, at);
        at += sc_core::sc_time(1, sc_core::SC_NS);
    }
    m_next_control = at;
}

const sc_core::sc_event& traffic_session::done_event() const {
    if (idle())
        return m_never; // an idle run ends at its duration
    if (m_linux)
        return m_linux->done_event();
    if (m_tcp)
        return m_tcp->done_event();
    if (m_udp)
        return m_udp->done_event();
    return m_ping->done_event();
}

bool traffic_session::finished() const {
    if (idle())
        return false;
    if (m_linux)
        return m_linux->finished();
    if (m_tcp)
        return m_tcp->finished();
    if (m_udp)
        return m_udp->finished();
    return m_ping->finished();
}

bool traffic_session::failed() const {
    if (idle())
        return false;
    if (m_linux) {
        for (std::size_t k = 0; k < m_linux->streams(); ++k)
            if (m_linux->result(k).failed)
                return true;
        return false;
    }
    if (m_tcp)
        return m_tcp->result().failed;
    if (m_udp)
        return m_udp->result().failed;
    return m_ping->result().failed;
}

std::string traffic_session::error() const {
    if (idle())
        return {};
    if (m_linux) {
        for (std::size_t k = 0; k < m_linux->streams(); ++k)
            if (m_linux->result(k).failed)
                return m_linux->result(k).error;
        return {};
    }
    if (m_tcp)
        return m_tcp->result().error;
    if (m_udp)
        return m_udp->result().error;
    return m_ping->result().error;
}

report::flow_report traffic_session::linux_stream_report(std::size_t k) const {
    report::flow_report f;
    f.kind = config::to_string(m_cfg.kind);
    f.direction = config::is_tx(m_cfg.kind) ? "tx" : "rx";
    const auto r = m_linux->result(k);
    // iperf3 -P: one flow per stream, "tcp.0", "tcp.1", ...
    f.name = m_linux->streams() == 1 ? "tcp" : "tcp." + std::to_string(k);
    f.bytes = r.bytes_delivered;
    f.frames = r.segments_sent;
    if (r.bytes_delivered > 0)
        f.last_progress_s = r.last_read.to_seconds();
    f.tcp = report::tcp_report{
        r.sack, r.retransmits,          r.fast_retransmits, r.timeouts,        r.sacked_segments,
        r.cwnd, r.slow_start_exit_cwnd, r.tsq_limit_bytes,  r.tail_loss_probes};
    if (r.finished && !r.failed) {
        f.active_time_s = (r.last_ack - r.first_write).to_seconds();
        f.goodput_bps = r.goodput_bps;
    } else if (!r.failed && r.bytes_delivered > 0) {
        // Cut short by the duration (traffic.bytes 0 always is): over the data that arrived.
        f.active_time_s = (r.last_read - r.first_write).to_seconds();
        if (f.active_time_s > 0)
            f.goodput_bps = static_cast<double>(r.bytes_delivered) * 8.0 / f.active_time_s;
    }
    return f;
}

std::vector<report::flow_report> traffic_session::flow_reports() const {
    if (!m_linux || m_linux->streams() == 1)
        return {flow_report()};
    std::vector<report::flow_report> v;
    for (std::size_t k = 0; k < m_linux->streams(); ++k)
        v.push_back(linux_stream_report(k));
    return v;
}

report::flow_report traffic_session::flow_report() const {
    report::flow_report f;
    f.kind = config::to_string(m_cfg.kind);
    f.direction = config::is_tx(m_cfg.kind) && !m_cfg.ping_from_peer ? "tx" : "rx";
    if (m_linux) {
        if (m_linux->streams() == 1)
            return linux_stream_report(0);
        // Parallel streams as one flow (iperf3's [SUM]): for the progress line.
        report::flow_report sum = report::combine_streams(flow_reports());
        sum.name = "tcp";
        return sum;
    } else if (m_tcp) {
        const auto& r = m_tcp->result();
        f.name = "tcp";
        f.bytes = r.bytes_delivered;
        f.frames = r.segments_sent;
        const auto& rx = m_tcp->receiver();
        if (rx.frames_accepted() > 0)
            f.last_progress_s = rx.last_accepted().to_seconds();
        if (r.finished && !r.failed) {
            f.active_time_s = r.duration().to_seconds();
            f.goodput_bps = r.goodput_bps;
        } else if (!r.failed && r.bytes_delivered > 0) {
            // Cut short by the duration (traffic.bytes 0 always is): over the data that arrived.
            f.active_time_s = (rx.last_accepted() - r.first_send).to_seconds();
            if (f.active_time_s > 0)
                f.goodput_bps = static_cast<double>(r.bytes_delivered) * 8.0 / f.active_time_s;
        }
    } else if (m_udp) {
        const auto& r = m_udp->result();
        f.name = "udp";
        f.bytes = r.payload_bytes_received;
        f.frames = r.sent;
        f.active_time_s = (r.last_receive - r.first_send).to_seconds();
        f.goodput_bps = r.goodput_bps;
        f.packets_sent = r.sent;
        f.packets_received = r.received;
        if (r.received > 0)
            f.last_progress_s = r.last_receive.to_seconds();
        const bool board_receives = !config::is_tx(m_cfg.kind);
        report::udp_report u;
        u.rcvbuf_errors = (board_receives ? m_host : m_peer)->rcvbuf_drops();
        if (board_receives && m_host_rx_latency)
            u.backlog_drops = m_host_rx_latency->backlog_drops();
        f.udp = u;
    } else {
        const auto& r = m_ping->result();
        f.name = "ping";
        f.frames = r.transmitted + r.received;
        f.packets_sent = r.transmitted;
        f.packets_received = r.received;
        if (m_ping->pinger().frames_accepted() > 0)
            f.last_progress_s = m_ping->pinger().last_accepted().to_seconds();
        if (r.received > 0) {
            report::rtt_report rt;
            rt.min_ms = r.rtt_min.to_seconds() * 1e3;
            rt.avg_ms = r.rtt_avg.to_seconds() * 1e3;
            rt.max_ms = r.rtt_max.to_seconds() * 1e3;
            rt.mdev_ms = r.rtt_mdev.to_seconds() * 1e3;
            f.rtt = rt;
        }
    }
    return f;
}

} // namespace nicsim
