// SPDX-License-Identifier: MIT
#include "host/net/host_stack.h"

#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim::net {

namespace fr = traffic::frame;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

host_stack::host_stack(const sc_core::sc_module_name& nm, const host_stack_config& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg), m_qdisc(make_qdisc(cfg.net)),
      m_irq(cfg.seed, std::string(name()) + ".irq_to_thread", cfg.irq_to_thread),
      m_wakeup(cfg.seed, std::string(name()) + ".sched_wakeup", cfg.sched_wakeup) {
    m_cfg.net.validate();
    SC_HAS_PROCESS(host_stack);
    SC_THREAD(softirq);
}

tcp_socket& host_stack::open_tcp(const tcp_socket_config& sc) {
    tcp_socket::env e;
    e.xmit = [this](skb_ptr s) { dev_queue_xmit(std::move(s)); };
    e.notify = [this] { kick(); };
    e.cpu_cost = [this](sc_time t, cpu_context c) { charge(t, c); };
    e.costs = &m_cfg.costs;
    m_sockets.push_back(std::make_unique<tcp_socket>(m_cfg.net, sc, std::move(e)));
    return *m_sockets.back();
}

void host_stack::netif_rx(const std::uint8_t* data, std::size_t len) {
    // enqueue_to_backlog; the softirq is raised only if it was idle (NAPI scheduling). A full
    // backlog (qlen > netdev_max_backlog) drops the frame: softnet_stat "dropped".
    if (m_backlog.size() > m_cfg.net.netdev_max_backlog) {
        ++m_backlog_drops;
        return;
    }
    if (softirq_runs_in_caller(m_cfg.net.netif_rx_in_caller)) {
        // local_bh_enable at the end of netif_rx: the frame is due now and the caller runs
        // net_rx_action, unless a softirq round runs already (one that waits in a CPU charge):
        // that round takes the frame in its backlog loop. On the caller's local time: what the
        // round does that others see syncs first (bus/common/local_time.h).
        m_backlog.push_back({copy_frame(data, len), local_time::now()});
        if (m_in_softirq)
            return; // that round's backlog loop, or the kick that ends it, takes the frame
        m_in_softirq = true;
        softirq_round();
        m_in_softirq = false;
        // As do_softirq at local_bh_enable, the round ends here and wakes nobody. The softirq
        // thread (the timer softirq and ksoftirqd of this model) is woken now for a frame that
        // came during the round or when it waits for this round's end; a deadline this round
        // moved earlier than its sleep rearms its wake-up, as mod_timer does.
        wake_softirq_thread_for_round();
        return;
    }
    local_time::sync(); // the softirq is woken relative to SystemC time
    sc_time ready = sc_time_stamp();
    if (m_backlog.empty())
        ready += m_irq.sample();
    else if (m_backlog.back().ready > ready)
        ready = m_backlog.back().ready;
    m_backlog.push_back({copy_frame(data, len), ready});
    if (ready > sc_time_stamp())
        m_work.notify(ready - sc_time_stamp());
    else
        kick();
}

void host_stack::wake_softirq_thread_for_round() {
    if (!m_asleep || !m_backlog.empty())
        return kick();
    const sc_time next = nearest_socket_deadline();
    if (next == sc_core::SC_ZERO_TIME ||
        (m_asleep_until != sc_core::SC_ZERO_TIME && next >= m_asleep_until))
        return; // its sleep ends in time
    if (next <= local_time::now())
        return kick();
    local_time::notify_at(m_work, next);
    m_asleep_until = next;
}

sc_time host_stack::nearest_socket_deadline() const {
    sc_time next = sc_core::SC_ZERO_TIME;
    for (auto& s : m_sockets) {
        const sc_time d = s->next_deadline();
        if (d != sc_core::SC_ZERO_TIME && (next == sc_core::SC_ZERO_TIME || d < next))
            next = d;
    }
    return next;
}

std::vector<std::uint8_t> host_stack::copy_frame(const std::uint8_t* data, std::size_t len) {
    std::vector<std::uint8_t> b = frame_buffers::take();
    b.assign(data, data + len);
    return b;
}

void host_stack::netif_wake_queue() {
    kick();
}

void host_stack::dev_queue_xmit(skb_ptr s) {
    s->id = m_skb_id++;
    if (m_cfg.qdisc_orphans_at_enqueue)
        s->orphan();
    if (!m_qdisc->enqueue(std::move(s)))
        return; // dropped (and freed): TCP sees it as loss
    qdisc_run();
}

void host_stack::qdisc_run() {
    // __qdisc_run / qdisc_restart: dequeue while the driver's queue runs; NETDEV_TX_BUSY puts
    // the skb back at the head (dev_requeue_skb) until netif_wake_queue.
    if (m_qdisc_running || !m_port.xmit)
        return;
    m_qdisc_running = true;
    while (!m_qdisc->empty()) {
        if (m_port.queue_stopped && m_port.queue_stopped())
            break;
        skb_ptr s = m_qdisc->dequeue();
        // A member (qdisc_run does not nest): the skbs after the one in the driver stay
        // reachable while this thread waits in ndo_start_xmit, also if the run ends there.
        std::vector<skb_ptr>& list = m_xmit_list;
        list.clear();
        if (s->is_gso() && !m_port.gso)
            gso_segment(std::move(s), list);
        else
            list.push_back(std::move(s));
        bool stop = false;
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (i > 0 && m_port.queue_stopped && m_port.queue_stopped()) {
                stop = true; // the driver stopped mid-list: the rest waits at the head
            } else if (m_port.xmit(list[i]) == netdev_tx::busy) { // on this thread's local time
                ++m_tx_busy;
                stop = true;
                // NETDEV_TX_BUSY with the queue still running (ks8851_par: no TX space, no
                // netif_stop_queue): dev_requeue_skb -> __netif_schedule, so net_tx_action runs
                // the qdisc again in the next softirq round; nobody will wake the queue.
                if (!m_port.queue_stopped || !m_port.queue_stopped()) {
                    if (m_defer_retry) { // softirq() notifies or spins on local time
                        m_retry_at = local_time::now() + busy_retry();
                    } else {
                        local_time::sync();
                        m_work.notify(busy_retry());
                    }
                }
            } else {
                ++m_tx_frames;
                continue;
            }
            for (std::size_t j = list.size(); j-- > i;)
                if (list[j])
                    m_qdisc->requeue(std::move(list[j]));
            break;
        }
        if (stop)
            break;
    }
    m_qdisc_running = false;
}

void host_stack::gso_segment(skb_ptr s, std::vector<skb_ptr>& out) {
    out.clear();
    out.reserve(s->gso_frames.size());
    std::int64_t sum = 0;
    for (auto& f : s->gso_frames) {
        auto n = std::make_unique<skb>();
        n->data = std::move(f);
        n->truesize = m_cfg.net.truesize(static_cast<std::uint32_t>(n->data.size()));
        n->priority = s->priority;
        n->id = s->id;
        n->created = s->created;
        n->sk = s->sk;
        n->destructor = s->destructor;
        n->charge_owner = s->charge_owner;
        sum += n->truesize;
        out.push_back(std::move(n));
    }
    if (s->charge_owner)
        s->charge_owner(*s, sum - static_cast<std::int64_t>(s->truesize));
    s->destructor = nullptr; // its budget now lives in the segments
}

void host_stack::softirq_round() {
    // net_rx_action: take every frame whose softirq is due.
    while (!m_backlog.empty() && m_backlog.front().ready <= local_time::now()) {
        // In a member, not a local: the charges below wait, and a run that ends there must
        // not leave the frame on this thread's coroutine stack (LeakSanitizer cannot see it).
        frame_buffers::give(m_rx_current.bytes);
        m_rx_current = std::move(m_backlog.front());
        rx_frame& f = m_rx_current;
        m_backlog.pop_front();
        const auto p = fr::parse(f.bytes.data(), f.bytes.size());
        tcp_socket* owner = nullptr;
        for (auto& s : m_sockets)
            if (s->accepts(p))
                owner = s.get();
        if (!owner) {
            ++m_rx_ignored;
            continue;
        }
        ++m_rx_frames;
        charge(p.payload_len ? m_cfg.costs.per_segment_recv : m_cfg.costs.per_ack_recv,
               cpu_context::softirq);
        charge(m_cfg.costs.per_skb_free, cpu_context::softirq);
        owner->on_segment(p);
    }
    // skbs freed since the last round (tcp_wfree work).
    std::uint64_t frees = 0;
    for (auto& s : m_sockets)
        frees += s->skb_frees();
    if (frees > m_frees_charged) {
        charge(m_cfg.costs.per_skb_free * static_cast<double>(frees - m_frees_charged),
               cpu_context::softirq);
        m_frees_charged = frees;
    }
    for (auto& s : m_sockets) {
        s->run_timers();
        s->push(); // tcp_write_xmit / the TSQ tasklet / tcp_push after write()
    }
}

void host_stack::softirq() {
    for (;;) {
        if (m_in_softirq) { // a netif_rx caller runs it; it kicks when done
            local_time::sync();
            wait(m_work);
            continue;
        }
        m_in_softirq = true;
        ++m_thread_rounds;
        softirq_round();
        m_defer_retry = true; // nothing waits between this qdisc_run and the sleep below
        qdisc_run();          // a woken queue
        m_defer_retry = false;
        m_in_softirq = false;
        // Sleep until new work or the nearest deadline.
        sc_time next = nearest_socket_deadline();
        if (!m_backlog.empty() && (next == sc_core::SC_ZERO_TIME || m_backlog.front().ready < next))
            next = m_backlog.front().ready;
        const sc_time retry = m_retry_at; // a NETDEV_TX_BUSY retry of the qdisc_run above
        m_retry_at = sc_core::SC_ZERO_TIME;
        sc_time wake = next;
        if (retry != sc_core::SC_ZERO_TIME && (wake == sc_core::SC_ZERO_TIME || retry < wake))
            wake = retry;
        // When no other process can run before the wake-up (local_time::room()), nothing can
        // notify m_work meanwhile: running on to it locally is the wake-up the wait would give,
        // without the switch (the TX_BUSY spin, TCP's timers, a backlog frame due).
        const sc_time now = local_time::now();
        if (wake > now && local_time::room() > wake - now) {
            local_time::advance(wake - now);
            continue;
        }
        if (retry != sc_core::SC_ZERO_TIME) {
            local_time::sync();
            m_work.notify(retry - sc_time_stamp());
        }
        if (next != sc_core::SC_ZERO_TIME && next > local_time::now()) {
            local_time::sync();
            m_asleep_until = wake;
            m_asleep = true;
            m_timer.wait_until(next);
            m_asleep = false;
        } else if (next == sc_core::SC_ZERO_TIME) {
            local_time::sync();
            m_asleep_until = wake; // the retry, or zero: until kicked
            m_asleep = true;
            wait(m_work);
            m_asleep = false;
        }
        // next <= now: loop again at once (a deadline that just expired)
    }
}

std::uint64_t host_stack::write(tcp_socket& s, std::uint64_t n) {
    charge(m_cfg.costs.per_syscall, cpu_context::process);
    std::uint64_t done = 0;
    while (done < n && !s.failed()) {
        const std::uint64_t got = s.append(n - done);
        if (got) {
            charge(m_cfg.costs.per_byte_copied * static_cast<double>(got), cpu_context::process);
            done += got;
            kick(); // tcp_push
            continue;
        }
        s.sleep_for_write_space(); // sk_stream_wait_memory
        const sc_time lat = m_wakeup.sample();
        if (lat > sc_core::SC_ZERO_TIME)
            local_time::advance(lat); // nothing wakes the task earlier
    }
    return done;
}

std::uint64_t host_stack::read(tcp_socket& s, std::uint64_t max) {
    charge(m_cfg.costs.per_syscall, cpu_context::process);
    s.lock_sock();
    while (s.readable() == 0 && !s.failed()) {
        s.sleep_for_data(); // sk_wait_data
        const sc_time lat = m_wakeup.sample();
        if (lat > sc_core::SC_ZERO_TIME)
            local_time::advance(lat); // nothing wakes the task earlier
        s.lock_sock();
        ++m_read_wakeups;
        m_empty_read_wakeups += s.readable() == 0 && !s.failed();
    }
    const std::uint64_t got = s.consume(max);
    charge(m_cfg.costs.per_byte_copied * static_cast<double>(got), cpu_context::process);
    return got;
}

} // namespace nicsim::net
