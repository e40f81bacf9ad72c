// SPDX-License-Identifier: MIT
// The host board's CPU as a resource: `cores` cores that simulated work occupies. Per-packet
// network-stack work, PIO/polled SPI transfers and busy-wait delays (udelay/mdelay) call run();
// when every core is busy the caller waits its turn (kernel work first, then FIFO), so driver
// threads and the traffic application compete for the CPU as on the board. The report's CPU share
// comes from here.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

namespace nicsim {

// Who asks for the CPU. Kernel work (driver kthreads, IRQ threads, the SPI controller driver)
// is served before application work when both wait for a core: threaded IRQ handlers run
// SCHED_FIFO, and a woken kthread preempts a CPU-bound application under CFS. Work that is
// already running is not preempted (the model has no preemption inside one run()).
enum class cpu_class { kernel, application };

class host_cpu : public sc_core::sc_module {
  public:
    host_cpu(sc_core::sc_module_name name, unsigned cores);

    // Occupies one core for `work` of CPU time. Blocking: call from an SC_THREAD. Returns when
    // the work is done (after waiting for a free core if none was free).
    void run(const sc_core::sc_time& work, cpu_class cls = cpu_class::application);
    // The same for a caller that follows the local-time rule (bus/common/local_time.h): the work
    // advances its local time, and it syncs before anything another process can see.
    void advance(const sc_core::sc_time& work, cpu_class cls = cpu_class::application);

    // Holds one core across a blocking operation (e.g. a PIO SPI transfer the CPU feeds byte by
    // byte): acquire() waits for a core like run(), release() frees it and books the time held.
    void acquire(cpu_class cls = cpu_class::application);
    void release();

    // Books CPU time that was already spent without competing for a core (busy-wait hooks
    // that report after the fact).
    void charge(const sc_core::sc_time& work) { m_busy += work; }

    unsigned cores() const { return m_cores; }
    // Somebody waits for a core: a holder that releases now hands its core over.
    bool contended() const { return !m_waiting.empty(); }
    // Total CPU time consumed, summed over cores.
    const sc_core::sc_time& busy_time() const { return m_busy; }
    // busy_time / (cores * elapsed); 0 when elapsed is zero.
    double busy_share(const sc_core::sc_time& elapsed) const;
    // Time callers spent waiting for a free core (a measure of CPU contention).
    const sc_core::sc_time& wait_time() const { return m_wait; }

  private:
    void take_core(cpu_class cls);
    void give_core();

    unsigned m_cores;
    unsigned m_free;
    // Wakes the first waiter when a core is free: only the one that can take it. Waking every
    // waiter on each release, as one shared event did, cost a context switch per waiter.
    void wake_front();

    // (class rank, arrival ticket) of every caller waiting for a core, in service order, with
    // the event that wakes it (from m_events, which only grows: a waiting process may still
    // hold its event when the simulation ends).
    // A sorted vector, not a map: there are a handful of waiters at most, and a map node
    // allocated per contended charge was a third of a run's mallocs.
    using waiter = std::pair<int, unsigned long long>;
    std::vector<std::pair<waiter, sc_core::sc_event*>> m_waiting;
    std::vector<std::unique_ptr<sc_core::sc_event>> m_events;
    std::vector<sc_core::sc_event*> m_free_events;
    unsigned long long m_next_ticket = 0;
    sc_core::sc_time m_busy = sc_core::SC_ZERO_TIME;
    sc_core::sc_time m_wait = sc_core::SC_ZERO_TIME;
    std::deque<sc_core::sc_time> m_held_since; // acquire() times of the cores held via acquire
};

} // namespace nicsim
