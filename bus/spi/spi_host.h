// SPDX-License-Identifier: MIT
//
// Host SPI controller: the initiator side of the SPI bus. The driver emulation (spi_sync) calls
// transfer() from a SystemC thread with one spi_message worth of transfers; the host waits the
// controller's software overheads and the wire time computed by compute_schedule() and hands the
// frame to the slave on the chip select's socket.
//
// Two modes:
//  * transaction (default): one wait per phase (pre-wire overheads, wire, post-wire); the slave's
//    spi_transport() is called once, at the simulated time the last bit of the frame was shifted
//    (schedule.wire_end). That is the earliest moment a real slave has seen every MOSI bit, and a
//    byte-causal slave has produced every MISO bit by then, so the frame can be handled whole.
//  * cycle_stepped (reference): the host toggles its pins (cs_n, sck, mosi, sampled miso) half
//    period by half period as sc_signals with the mode's CPOL/CPHA; a pin-level slave
//    (spi_pin_slave) answers bit by bit. Slow; meant for tests that prove the transaction mode
//    right (tests/bus/spi_reference_test.cc). The sockets are not called in this mode.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "bus/spi/spi_observer.h"
#include "bus/spi/spi_payload.h"
#include "bus/spi/spi_sockets.h"
#include "bus/spi/spi_schedule_cache.h"
#include "bus/spi/spi_timing.h"

namespace nicsim::spi {

enum class spi_host_mode { transaction, cycle_stepped };

struct spi_host_stats {
    uint64_t frames = 0;
    uint64_t transfers = 0;
    uint64_t bytes = 0;
    uint64_t errors = 0; // frames whose slave answered response != ok
    uint64_t pio_transfers = 0;
    uint64_t dma_transfers = 0;
    sc_core::sc_time wire_time; // CS-asserted time (bus busy)
    sc_core::sc_time sck_time;  // SCK running
    sc_core::sc_time pio_time;  // CPU feeding the FIFO
    sc_core::sc_time cpu_busy;  // overheads + pio_time
};

class spi_host : public sc_core::sc_module {
  public:
    using pin_signal = sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS>;

    // One initiator socket per chip select; bind each to a slave's spi_in.
    sc_core::sc_vector<spi_initiator_socket> spi_out;

    // Pins, driven only in cycle_stepped mode (they stay at idle levels otherwise). cs_n is
    // active low, one per chip select; miso is shared by all pin-level slaves (a slave drives it
    // only while selected, and releases it to 0 when deselected).
    sc_core::sc_vector<pin_signal> cs_n;
    pin_signal sck;
    pin_signal mosi;
    pin_signal miso;

    spi_host(const sc_core::sc_module_name& name, unsigned num_cs,
             const spi_host_timing& timing = spi_host_timing{},
             spi_host_mode mode = spi_host_mode::transaction);

    // Runs one frame. Must be called from an SC_THREAD (it waits). Throws std::invalid_argument
    // for a frame the controller cannot clock (see validate_frame()) or a chip select out of
    // range, before any simulated time passes. Concurrent callers are served one frame at a time
    // in arrival order (the controller's message queue). A slave error (response != ok) stays in
    // the payload for the caller and is counted in stats().errors.
    void transfer(spi_payload& frame);

    unsigned num_cs() const { return static_cast<unsigned>(spi_out.size()); }
    spi_host_mode mode() const { return m_mode; }
    const spi_host_timing& timing() const { return m_timing; }
    void set_timing(const spi_host_timing& t) { m_timing = t; }
    const spi_host_stats& stats() const { return m_stats; }

    // Observers are called after every frame, in the order attached; the host does not own them.
    void add_observer(spi_observer& obs) { m_observers.push_back(&obs); }

  private:
    void run_transaction(spi_payload& frame, const spi_schedule& s);
    void run_pins(spi_payload& frame, const spi_schedule& s);
    void wait_until(const sc_core::sc_time& abs);

    spi_host_timing m_timing;
    spi_host_mode m_mode;
    spi_host_stats m_stats;
    std::vector<spi_observer*> m_observers;
    std::vector<std::vector<uint8_t>> m_scratch; // rx stand-ins lent while observers attached
    std::vector<std::unique_ptr<spi_schedule>> m_schedules; // all schedules, see transfer()
    std::vector<spi_schedule*> m_free_schedules;            // ... of which not in use
    spi_schedule_cache m_schedule_cache;
    uint64_t m_next_ticket = 0; // FIFO of callers waiting for the controller
    uint64_t m_serving = 0;
    sc_core::sc_event m_idle;
};

} // namespace nicsim::spi
