// SPDX-License-Identifier: MIT
// Host side of the 16-bit parallel bus: an EIM-class external bus controller with one chip
// select. The driver seam adapts it (kernel/include/nicsim/bus_attach.h: mmio16_attach), so
// ioread16/iowrite16 (and the _rep variants, one burst per call) of the KS8851-16MLL driver
// land here; the bus knows no driver. Every access takes its strobe timing (par_timing.h) of the
// calling SC_THREAD's time, decoupled where no other process can observe it
// (bus/common/local_time.h), and is handed to the device on `par_out` at the strobe's trailing
// edge (the device reads local_time::now()). Concurrent callers are served one access at a time.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "bus/par/par_sockets.h"
#include "bus/par/par_timing.h"

namespace nicsim::par {

struct par_host_stats {
    uint64_t reads = 0;
    uint64_t writes = 0;
    sc_core::sc_time busy;           // CS# asserted (setup + strobe + wait states + hold)
    sc_core::sc_time recovery_stall; // time callers waited for the previous access's recovery
};

// When one access happened on the pins (absolute simulated times).
struct par_access_times {
    sc_core::sc_time cs_assert;    // CS# falls, address valid (after the issue cycles)
    sc_core::sc_time strobe_start; // RD#/WR# falls (after the address setup)
    sc_core::sc_time strobe_end;   // RD#/WR# rises: the device samples/drives the data here
    sc_core::sc_time cs_deassert;  // CS# rises (after the hold); recovery follows
};

// Observer of completed accesses: the hook for transaction logs, VCD/timeline writers and
// statistics. par_host calls on_access() once per access, when the caller is about to return,
// with the bus address (window base included) and, for reads, the data the device drove.
// With no observer attached the host pays one branch per access.
class par_observer {
  public:
    virtual ~par_observer() = default;
    virtual void on_access(const par_payload& p, const par_access_times& t) = 0;
};

class par_host : public sc_core::sc_module {
  public:
    par_initiator_socket par_out;

    // The chip-select window [window_base, window_base + window_size): bus addresses outside it
    // are rejected; inside it the device sees the offset from window_base.
    par_host(const sc_core::sc_module_name& name, const par_timing& timing = {},
             uint64_t window_base = 0, uint64_t window_size = 0x10000);

    // One 16-bit access. Must be called from an SC_THREAD. Throw std::out_of_range for an address
    // outside the window and std::runtime_error when the device rejects the access.
    uint16_t read16(uint64_t addr);
    void write16(uint64_t addr, uint16_t value);

    // One access with explicit lanes (8-bit accesses): blocking, same rules as read16/write16.
    void access(par_payload& p);

    // `n` 16-bit accesses of one address (a FIFO port: ioread16_rep/iowrite16_rep). Each word has
    // the bus phases, device access, timing, statistics and observer calls of read16/write16.
    void read16_rep(uint64_t addr, uint16_t* out, size_t n);
    void write16_rep(uint64_t addr, const uint16_t* in, size_t n);
    // The leading words of such a burst that can run as one local-time step (local_time::room():
    // no other process can run before they end), at least one (then like read16/write16).
    // Returns how many words were done; callers that must act between words (a CPU port handing
    // its core over) loop over it.
    size_t burst_read16(uint64_t addr, uint16_t* out, size_t n);
    size_t burst_write16(uint64_t addr, const uint16_t* in, size_t n);

    const par_timing& timing() const { return m_timing; }
    void set_timing(const par_timing& t);
    const par_host_stats& stats() const { return m_stats; }
    uint64_t window_base() const { return m_base; }
    uint64_t window_size() const { return m_size; }

    // Observers are called after every access, in the order attached; the host does not own them.
    void add_observer(par_observer& obs) { m_observers.push_back(&obs); }

  private:
    // The phase times, converted from cycles once: sc_time from double is costly per word.
    struct phase_times {
        sc_core::sc_time issue, to_strobe_start, to_strobe_end[2], hold, recovery;
    };
    void check(const par_payload& p) const;
    sc_core::sc_time transport(par_payload& p); // to the device; returns its wait states
    void complete(par_payload& p, const sc_core::sc_time& start, const sc_core::sc_time& end,
                  const sc_core::sc_time& extra);
    size_t burst(par_payload& p, const uint16_t* in, uint16_t* out, size_t n);
    void end_of_elaboration() override; // finds m_words

    par_timing m_timing;
    phase_times m_t;
    uint64_t m_base;
    uint64_t m_size;
    par_host_stats m_stats;
    bool m_busy = false;
    unsigned m_waiters = 0; // callers waiting for m_free
    sc_core::sc_event m_free;
    sc_core::sc_time m_ready_at = sc_core::SC_ZERO_TIME; // end of the last access's recovery
    std::vector<par_observer*> m_observers;
    // The device's word path (par_slave_if::par_transport_words), when the port is bound
    // straight to a par_target_socket.
    par_target_socket* m_words = nullptr;
};

} // namespace nicsim::par
