// SPDX-License-Identifier: MIT
#include "testbench/net/linux_tcp_flow.h"

#include <algorithm>

#include "bus/common/local_time.h"

namespace nicsim::net {

namespace {
tcp_addr to_tcp(const traffic::endpoint_addr& a) {
    return {a.mac, a.ip, a.port};
}
} // namespace

linux_tcp_flow::linux_tcp_flow(const sc_core::sc_module_name& nm, const linux_tcp_flow_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg) {
    if (m_cfg.write_size == 0 || m_cfg.read_size == 0)
        throw std::invalid_argument("linux_tcp_flow: write and read sizes must be > 0");
    m_cfg.board_stack.seed = m_cfg.peer_stack.seed = m_cfg.seed;
    m_board = std::make_unique<host_stack>("board_stack", m_cfg.board_stack);
    m_peer = std::make_unique<host_stack>("peer_stack", m_cfg.peer_stack);
    m_tx = m_cfg.board_sends ? m_board.get() : m_peer.get();
    m_rx = m_cfg.board_sends ? m_peer.get() : m_board.get();
    const auto& from = m_cfg.board_sends ? m_cfg.board : m_cfg.peer;
    const auto& to = m_cfg.board_sends ? m_cfg.peer : m_cfg.board;
    // SACK is used only when both hosts' SYNs offer it (tcp_sack on each side).
    const auto& tx_net = m_cfg.board_sends ? m_cfg.board_stack.net : m_cfg.peer_stack.net;
    const auto& rx_net = m_cfg.board_sends ? m_cfg.peer_stack.net : m_cfg.board_stack.net;
    m_snd = &m_tx->open_tcp(
        {to_tcp(from), to_tcp(to), m_cfg.seed, 0, 0, true, -1, rx_net.tcp_sack ? 1 : 0});
    m_rcv = &m_rx->open_tcp(
        {to_tcp(to), to_tcp(from), m_cfg.seed, 0, 0, false, -1, tx_net.tcp_sack ? 1 : 0});
    // Each side reads the other's window with its own shift (peer_wscale -1): right only when
    // both derive the same shift from their tcp_rmem (tcp_select_initial_window).
    if (m_snd->wscale() != m_rcv->wscale())
        throw std::invalid_argument("host.net.tcp_rmem / peer.net.tcp_rmem: the two hosts' "
                                    "receive buffers give different window scales; not modelled");
    SC_HAS_PROCESS(linux_tcp_flow);
    SC_THREAD(writer);
    SC_THREAD(reader);
}

void linux_tcp_flow::start() {
    m_started = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void linux_tcp_flow::writer() {
    while (!m_started)
        wait(m_start);
    m_res.first_write = local_time::now();
    const std::uint64_t total = m_cfg.total_bytes;
    std::uint64_t left = total;
    while (!total || left > 0) {
        const std::uint64_t n =
            total ? std::min<std::uint64_t>(left, m_cfg.write_size) : m_cfg.write_size;
        if (m_tx->write(*m_snd, n) < n)
            return finish(m_snd->error());
        if (total)
            left -= n;
    }
    // ttcp's close(): the transfer ends when the ACK of the last byte is in.
    while (m_snd->stats().bytes_acked < total && !m_snd->failed())
        m_snd->sleep_for_write_space();
    if (m_snd->failed())
        return finish(m_snd->error());
    m_res.last_ack = local_time::now();
    m_all_acked = true;
    finish_when_complete();
}

void linux_tcp_flow::reader() {
    for (;;) {
        if (m_rx->read(*m_rcv, m_cfg.read_size) == 0)
            return finish(m_rcv->error());
        m_res.last_read = local_time::now();
        finish_when_complete();
    }
}

void linux_tcp_flow::finish_when_complete() {
    if (m_all_acked && m_rcv->stats().bytes_read >= m_cfg.total_bytes)
        finish({});
}

void linux_tcp_flow::finish(const std::string& error) {
    if (m_res.finished)
        return;
    m_res.finished = true;
    m_res.failed = !error.empty();
    m_res.error = error;
    local_time::sync(); // the run ends at the flow's own time
    m_done.notify(sc_core::SC_ZERO_TIME);
}

linux_tcp_flow_result linux_tcp_flow::result() const {
    linux_tcp_flow_result r = m_res;
    const auto& tx = m_snd->stats();
    const auto& rx = m_rcv->stats();
    r.bytes_delivered = rx.bytes_read;
    r.segments_sent = tx.segments_sent;
    r.retransmits = tx.retransmits;
    r.fast_retransmits = tx.fast_retransmits;
    r.timeouts = tx.timeouts;
    r.tail_loss_probes = tx.tlp_probes;
    r.sack = m_snd->sack_ok();
    r.sacked_segments = tx.sacked_segments;
    r.cwnd = m_snd->cc().cwnd;
    r.slow_start_exit_cwnd = tx.slow_start_exit_cwnd;
    r.tsq_limit_bytes = m_snd->tsq_limit_now();
    r.pattern_errors = rx.pattern_errors;
    if (r.pattern_errors && !r.failed) {
        r.failed = true;
        r.error = "payload pattern mismatch in " + std::to_string(r.pattern_errors) + " segments";
    }
    if (r.finished && !r.failed && r.last_ack > r.first_write)
        r.goodput_bps = static_cast<double>(m_cfg.total_bytes) * 8.0 /
                        (r.last_ack - r.first_write).to_seconds();
    return r;
}

} // namespace nicsim::net
