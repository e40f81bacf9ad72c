// SPDX-License-Identifier: MIT
//
// host_stack: one host's network stack between its applications and one network device. It owns
// the TCP sockets, the device qdisc (pfifo_fast or fq_codel) and the netdev queue state, and runs
// all softirq work (receive, ACK processing, timers, TSQ tasklet, qdisc runs) in one SC_THREAD.
//
// Binding it (the composition root does this once):
//
//   host_stack h("host", cfg);
//   h.attach(port);               // netdev_port: xmit(skb) -> ok|busy, queue_stopped()
//   h.set_cpu_cost(fn);           // optional: fn(t, cpu_context) charges host CPU
//   driver RX path:   h.netif_rx(data, len);     never blocks; any process
//   driver TX done:   h.netif_wake_queue();      after netif_wake_queue/netif_start_queue
//   freeing an skb:   destroy the skb_ptr        runs skb->destructor (tcp_wfree)
//
//   tcp_socket& s = h.open_tcp(sock_cfg);         before sc_start
//   app thread:       h.write(s, n);  h.read(s, max);   blocking, like the syscalls
//
// Timing variation: netif_rx starts softirq processing after an irq_to_thread sample (only
// when the backlog was empty - a NAPI poll already running takes new frames without a new
// latency); an application blocked in read()/write() resumes a sched_wakeup sample after it was
// woken. Both are seeded per stream (jitter.h) from cfg.seed and the stack's name.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "bus/common/deadline_timer.h"
#include "bus/common/local_time.h"
#include "host/net/jitter.h"
#include "host/net/net_settings.h"
#include "host/net/netdev_port.h"
#include "host/net/qdisc.h"
#include "host/net/stack_costs.h"
#include "host/net/tcp_socket.h"

namespace nicsim::net {

struct host_stack_config {
    net_settings net;
    stack_costs costs;
    latency_spec irq_to_thread; // netif_rx -> softirq/NAPI processing starts
    latency_spec sched_wakeup;  // sk_data_ready/sk_write_space -> the blocked task runs
    std::uint64_t seed = 1;
    // netem as the device qdisc: sch_netem.c netem_enqueue calls skb_orphan_partial when a delay
    // or rate is configured, so the TSQ budget returns at enqueue, not at transmit.
    bool qdisc_orphans_at_enqueue = false;
};

class host_stack : public sc_core::sc_module {
  public:
    host_stack(const sc_core::sc_module_name& nm, const host_stack_config& cfg);

    void attach(netdev_port p) { m_port = std::move(p); }
    void set_cpu_cost(cpu_cost_fn f) { m_cpu_cost = std::move(f); }

    tcp_socket& open_tcp(const tcp_socket_config& sc);

    // --- device side ---------------------------------------------------------------------------
    void netif_rx(const std::uint8_t* data, std::size_t len);
    void netif_wake_queue();

    // --- application side (blocking; call from an application SC_THREAD) ----------------------
    // write(): returns when all n bytes are in the send buffer (blocking socket), or early with
    // the bytes taken if the connection failed. Charges per_syscall + n * per_byte_copied.
    std::uint64_t write(tcp_socket& s, std::uint64_t n);
    // read(): waits for data, then takes up to max bytes (tcp_recvmsg, one call). Returns 0 only
    // if the connection failed.
    std::uint64_t read(tcp_socket& s, std::uint64_t max);

    // --- observation ---------------------------------------------------------------------------
    const net::qdisc& qdisc() const { return *m_qdisc; }
    const host_stack_config& config() const { return m_cfg; }
    std::uint64_t frames_received() const { return m_rx_frames; }
    std::uint64_t frames_ignored() const { return m_rx_ignored; }
    // Rounds the stack's own softirq thread ran (not those netif_rx ran in its caller).
    std::uint64_t softirq_thread_rounds() const { return m_thread_rounds; }
    // Times read() woke from sk_wait_data, and of those the ones with nothing to read.
    std::uint64_t read_wakeups() const { return m_read_wakeups; }
    std::uint64_t empty_read_wakeups() const { return m_empty_read_wakeups; }
    std::uint64_t frames_transmitted() const { return m_tx_frames; }
    std::uint64_t xmit_busy() const { return m_tx_busy; }
    std::uint64_t qdisc_drops() const { return m_qdisc->drops(); }
    // Frames netif_rx dropped because the backlog held more than netdev_max_backlog.
    std::uint64_t backlog_drops() const { return m_backlog_drops; }
    latency_stream& irq_latency() { return m_irq; }
    latency_stream& wakeup_latency() { return m_wakeup; }

  private:
    void softirq();
    // One net_rx_action/net_tx_action pass: the backlog frames that are due, the skb frees,
    // TCP timers and pushes, the qdisc. From the softirq thread or a netif_rx caller.
    void softirq_round();
    void dev_queue_xmit(skb_ptr s);
    void qdisc_run();
    // skb_gso_segment for TCP (tcp_gso_segment with copy_destructor): one skb per frame, each
    // with the destructor and its own truesize; the owner is charged the difference.
    // Into `out` (cleared first; the caller's list keeps its storage).
    void gso_segment(skb_ptr s, std::vector<skb_ptr>& out);
    void kick() {
        local_time::sync(); // a notification at the caller's own time
        m_work.notify(sc_core::SC_ZERO_TIME);
    }
    void charge(sc_core::sc_time t, cpu_context c) {
        if (m_cpu_cost && t > sc_core::SC_ZERO_TIME)
            m_cpu_cost(t, c);
    }

    // How soon net_tx_action retries after NETDEV_TX_BUSY on a running queue. Linux retries in
    // the next softirq round, at once, and spins until the driver has room. Assumption: 1 us
    // keeps a driver that refuses without a bus access from spinning in zero time. A step in
    // ks8851-par-iperf-tx's goodput once seen from 1 to 3 us was not the retry but the
    // transfer's last segment waiting 40 ms for a delayed ACK under
    // classic Nagle (which of two ACK parities a run ends on), fixed since (Minshall's Nagle and
    // ICSK_ACK_PUSHED, tcp_output.cc / tcp_input.cc).
    static sc_core::sc_time busy_retry() { return sc_core::sc_time(1, sc_core::SC_US); }

    host_stack_config m_cfg;
    netdev_port m_port;
    cpu_cost_fn m_cpu_cost;
    std::unique_ptr<net::qdisc> m_qdisc; // host.net.qdisc
    std::vector<std::unique_ptr<tcp_socket>> m_sockets;
    struct rx_frame {
        std::vector<std::uint8_t> bytes;
        sc_core::sc_time ready; // when softirq may take it
    };
    std::deque<rx_frame> m_backlog; // input_pkt_queue
    std::uint64_t m_backlog_drops = 0;
    rx_frame m_rx_current;          // the frame softirq() is processing
    // netif_rx's copy of a frame, in a done frame's storage (models/common/frame_buffers.h).
    static std::vector<std::uint8_t> copy_frame(const std::uint8_t* data, std::size_t len);
    sc_core::sc_event m_work;
    deadline_timer m_timer{m_work}; // the softirq's wait for its nearest socket deadline
    bool m_qdisc_running = false;
    bool m_in_softirq = false; // a softirq_round() runs (it may wait in a CPU charge)
    // The softirq thread sleeps (for new work or until m_asleep_until; zero: only new work).
    bool m_asleep = false;
    std::uint64_t m_thread_rounds = 0;
    sc_core::sc_time m_asleep_until = sc_core::SC_ZERO_TIME;
    void wake_softirq_thread_for_round();             // after a round netif_rx ran in its caller
    sc_core::sc_time nearest_socket_deadline() const; // SC_ZERO_TIME: none
    std::vector<skb_ptr> m_xmit_list;                 // qdisc_run's skbs on their way to the driver
    // The NETDEV_TX_BUSY retry of the softirq's own last qdisc_run, kept as a deadline instead
    // of a notification so that the softirq can spin on local time when nothing else is due
    // (softirq(): the same wake-up at the same time as the notification would give).
    bool m_defer_retry = false;
    sc_core::sc_time m_retry_at = sc_core::SC_ZERO_TIME; // SC_ZERO_TIME: no retry pending
    std::uint64_t m_skb_id = 0;
    std::uint64_t m_frees_charged = 0;
    std::uint64_t m_rx_frames = 0, m_rx_ignored = 0, m_tx_frames = 0, m_tx_busy = 0;
    std::uint64_t m_read_wakeups = 0, m_empty_read_wakeups = 0;
    latency_stream m_irq, m_wakeup;
};

} // namespace nicsim::net
