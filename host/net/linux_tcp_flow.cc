// SPDX-License-Identifier: MIT
#include "host/net/linux_tcp_flow.h"

#include <algorithm>

#include "bus/common/local_time.h"
#include "host/traffic/pattern.h"

namespace nicsim::net {

namespace {
tcp_addr to_tcp(const traffic::endpoint_addr& a) {
    return {a.mac, a.ip, a.port};
}
} // namespace

linux_tcp_flow::linux_tcp_flow(const sc_core::sc_module_name& nm, const linux_tcp_flow_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg), m_left(cfg.total_bytes) {
    if (m_cfg.write_size == 0 || m_cfg.read_size == 0)
        throw std::invalid_argument("linux_tcp_flow: write and read sizes must be > 0");
    if (m_cfg.streams == 0)
        throw std::invalid_argument("linux_tcp_flow: streams must be > 0");
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
    m_streams.resize(m_cfg.streams);
    for (std::uint32_t k = 0; k < m_cfg.streams; ++k) {
        // Stream k: the sender's port + k (iperf3's client takes a new port per stream) to the
        // receiver's one port; its own ISNs and payload pattern.
        tcp_addr src = to_tcp(from);
        src.port = static_cast<std::uint16_t>(src.port + k);
        const std::uint64_t seed = k == 0 ? m_cfg.seed : traffic::mix_seed(m_cfg.seed, k);
        stream& st = m_streams[k];
        st.snd = &m_tx->open_tcp({src, to_tcp(to), seed, 0, 0, true, -1, rx_net.tcp_sack ? 1 : 0});
        st.rcv = &m_rx->open_tcp({to_tcp(to), src, seed, 0, 0, false, -1, tx_net.tcp_sack ? 1 : 0});
        // Each side reads the other's window with its own shift (peer_wscale -1): right only
        // when both derive the same shift from their tcp_rmem (tcp_select_initial_window).
        if (st.snd->wscale() != st.rcv->wscale())
            throw std::invalid_argument(
                "host.net.tcp_rmem / peer.net.tcp_rmem: the two hosts' receive buffers give "
                "different window scales; not modelled");
    }
    SC_HAS_PROCESS(linux_tcp_flow);
    SC_THREAD(writer);
    SC_THREAD(reader);
    for (std::size_t k = 1; k < m_streams.size(); ++k) {
        sc_core::sc_spawn([this, k] { write_stream(k); }, ("writer_" + std::to_string(k)).c_str());
        sc_core::sc_spawn([this, k] { read_stream(k); }, ("reader_" + std::to_string(k)).c_str());
    }
}

void linux_tcp_flow::start() {
    m_started = true;
    m_start.notify(sc_core::SC_ZERO_TIME);
}

void linux_tcp_flow::write_stream(std::size_t k) {
    while (!m_started)
        wait(m_start);
    stream& st = m_streams[k];
    st.first_write = local_time::now();
    const std::uint64_t total = m_cfg.total_bytes;
    while (!total || m_left > 0) {
        // The next write comes out of the transfer's budget (all streams share it).
        const std::uint64_t n =
            total ? std::min<std::uint64_t>(m_left, m_cfg.write_size) : m_cfg.write_size;
        if (total)
            m_left -= n;
        st.written += n;
        if (m_tx->write(*st.snd, n) < n)
            return finish(st.snd->error());
    }
    // ttcp's close(): the stream ends when the ACK of its last byte is in.
    while (st.snd->stats().bytes_acked < st.written && !st.snd->failed())
        st.snd->sleep_for_write_space();
    if (st.snd->failed())
        return finish(st.snd->error());
    st.last_ack = local_time::now();
    st.all_acked = true;
    finish_when_complete();
}

void linux_tcp_flow::read_stream(std::size_t k) {
    stream& st = m_streams[k];
    for (;;) {
        if (m_rx->read(*st.rcv, m_cfg.read_size) == 0)
            return finish(st.rcv->error());
        st.last_read = local_time::now();
        finish_when_complete();
    }
}

void linux_tcp_flow::finish_when_complete() {
    for (const auto& st : m_streams)
        if (!st.all_acked || st.rcv->stats().bytes_read < st.written)
            return;
    finish({});
}

void linux_tcp_flow::finish(const std::string& error) {
    if (m_finished)
        return;
    m_finished = true;
    m_failed = !error.empty();
    m_error = error;
    local_time::sync(); // the run ends at the flow's own time
    m_done.notify(sc_core::SC_ZERO_TIME);
}

linux_tcp_flow_result linux_tcp_flow::result(std::size_t k) const {
    const stream& st = m_streams.at(k);
    linux_tcp_flow_result r;
    r.finished = m_finished;
    r.failed = m_failed;
    r.error = m_error;
    r.first_write = st.first_write;
    r.last_ack = st.last_ack;
    r.last_read = st.last_read;
    r.bytes_written = st.written;
    const auto& tx = st.snd->stats();
    const auto& rx = st.rcv->stats();
    r.bytes_delivered = rx.bytes_read;
    r.segments_sent = tx.segments_sent;
    r.retransmits = tx.retransmits;
    r.fast_retransmits = tx.fast_retransmits;
    r.timeouts = tx.timeouts;
    r.tail_loss_probes = tx.tlp_probes;
    r.sack = st.snd->sack_ok();
    r.sacked_segments = tx.sacked_segments;
    r.cwnd = st.snd->cc().cwnd;
    r.slow_start_exit_cwnd = tx.slow_start_exit_cwnd;
    r.tsq_limit_bytes = st.snd->tsq_limit_now();
    r.pattern_errors = rx.pattern_errors;
    if (r.pattern_errors && !r.failed) {
        r.failed = true;
        r.error = "payload pattern mismatch in " + std::to_string(r.pattern_errors) + " segments";
    }
    if (r.finished && !r.failed && r.last_ack > r.first_write)
        r.goodput_bps =
            static_cast<double>(st.written) * 8.0 / (r.last_ack - r.first_write).to_seconds();
    return r;
}

} // namespace nicsim::net
