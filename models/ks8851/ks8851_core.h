// SPDX-License-Identifier: MIT
// nicsim::ks::core — the bus-independent KS8851 chip: declared registers (ks8851_regmap.h), TX/RX
// queue manager with 6 KB / 12 KB packet memory, MAC address filter, RX interrupt thresholds
// and duration timer, interrupt logic, PHY registers tied to the Ethernet wire. Both bus
// front-ends (ks8851_spi.h, ks8851_par.h) call the same register and FIFO entry points, so the
// chip behaves the same whichever bus the driver uses. Internal latencies run on the chip's
// 25 MHz clock (params.h).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "models/common/fault_point.h"
#include "models/ethernet/eth_wire.h"
#include "models/ks8851/ks8851_findings.h"
#include "models/ks8851/ks8851_params.h"
#include "models/ks8851/ks8851_power.h"
#include "models/ks8851/ks8851_regmap.h"

namespace nicsim::ks {

struct core_stats {
    uint64_t tx_frames = 0;      // frames handed to the wire
    uint64_t tx_bytes = 0;       // bytes handed to the wire (DA..FCS)
    uint64_t rx_frames = 0;      // frames stored in the RXQ
    uint64_t rx_bytes = 0;       // their byte counts (incl. CRC)
    uint64_t rx_released = 0;    // frames released by the host (RRXEF)
    uint64_t rx_overruns = 0;    // frames dropped because the RXQ was full (ISR.RXOI)
    uint64_t rx_filtered = 0;    // frames the address filter rejected
    uint64_t rx_disabled = 0;    // frames dropped while RXCR1.RXE = 0
    uint64_t rx_errors = 0;      // bad FCS, runt or too long
    uint64_t rx_interrupts = 0;  // times ISR.RXI was raised
    uint64_t irq_assertions = 0; // falling edges of the IRQ pin
    // Host reads of ISR. The 6.1 driver reads ISR exactly once per run of its threaded IRQ
    // handler (and nowhere else), so this counts interrupts handled, including re-runs of a
    // level-triggered oneshot IRQ that stayed asserted without a new falling edge.
    uint64_t isr_reads = 0;
};

// Fault points of the chip (models/common/fault_point.h, docs/faults.md).
struct core_faults {
    fault::point rx_overrun{"rx_overrun"};           // per received frame: RXQ overrun (RXOI)
    fault::point fifo_corruption{"fifo_corruption"}; // per stored frame: a data bit flips
    fault::point tx_full{"tx_buffer_full"};          // per TXMIR read: reads 0 bytes free
    fault::point_list all() { return {&rx_overrun, &fifo_corruption, &tx_full}; }
};

class core : public sc_core::sc_module, public eth::eth_station_if {
  public:
    core(sc_core::sc_module_name name, const params& p = {});
    core_faults faults;

    // --- register access (front-ends). `off` is the even byte offset of a 16-bit register;
    // `mask` selects the bytes written (0x00FF, 0xFF00 or 0xFFFF).
    uint16_t reg_read(uint8_t off);
    void reg_write(uint8_t off, uint16_t value, uint16_t mask = 0xFFFF);
    // Debug peek without side effects (tests, reports).
    uint16_t reg_peek(uint8_t off) const;
    const reg_map16& registers() const { return m_regs; }

    // --- packet memory FIFO port (valid while RXQCR.SDA = 1) ---
    bool sda() const { return m_sda; }
    uint8_t rxq_read_byte();               // next byte of the head RX frame image
    void rxq_read(uint8_t* dst, size_t n); // n of them at once (SPI burst)
    void txq_write_byte(uint8_t b);        // next byte of the TX frame stream
    // Bytes txq_write_byte() would take inside the current frame's data without ending it (0
    // outside a frame or with SDA = 0), and those bytes in one append: the word path of the
    // parallel bus (the frame's end, where a write can start the TX engine, goes byte by byte).
    size_t txq_bytes_before_frame_end() const;
    void txq_append(const uint8_t* b, size_t n);
    // n bytes of the TX frame stream (SPI burst): the same as n txq_write_byte() calls, the
    // stretch inside a frame's data appended at once.
    void txq_write(const uint8_t* b, size_t n);
    uint64_t dma_starts() const { return m_dma_starts; } // SDA 0->1 transitions
    sc_core::sc_time dma_ready_at() const { return m_dma_ready_at; }
    void bus_error(const std::string& why); // front-end detected a bus error: ISR.SPIBEI

    // --- pins / wiring ---
    std::function<void(bool high)> on_irq; // IRQ pin level changes (active low)
    bool irq_level() const { return m_irq_level; }
    void attach_wire(eth::eth_wire& wire);

    // --- eth_station_if ---
    void eth_tx_done(const eth::eth_frame& f) override;
    void eth_rx_frame(eth::eth_frame f) override;
    void eth_link_changed(bool up) override;
    void eth_line_busy(bool station_tx, bool busy) override;

    // --- observation ---
    const params& prm() const { return m_p; }
    finding_log& findings() { return m_findings; }
    const core_stats& stats() const { return m_stats; }
    // Power-management mode (PMECR.PM) and PHY state as metered time per state (ks8851_power.h).
    const power_model& power() const { return m_power; }
    uint32_t txq_free() const { return m_p.txq_bytes - m_tx_used; }
    uint32_t rxq_used() const { return m_rx_used; }
    size_t rxq_frames() const { return m_rxq.size(); }
    sc_core::sc_time clock_period() const { return m_period; }
    // Next rising edge of the 25 MHz clock at or after `t`.
    sc_core::sc_time clock_edge_at_or_after(const sc_core::sc_time& t) const;

  private:
    struct rx_frame {
        std::vector<uint8_t> image; // status(2) count(2) data incl. CRC, padded to mem_align
        uint16_t status = 0;
        uint16_t count = 0; // frame bytes incl. CRC
        uint32_t footprint = 0;
    };
    struct tx_frame {
        uint16_t ctrl = 0;
        uint16_t count = 0;
        std::vector<uint8_t> data; // ALIGN(count, 4) bytes as written
        uint32_t footprint = 0;
        uint64_t generation = 0;
    };
    struct pending_rx {
        sc_core::sc_time commit_at;
        std::vector<uint8_t> bytes; // DA..FCS
        uint16_t status;
    };

    void attach_handlers();
    void reset_registers();
    void flush_queues();
    void update_irq();
    void raise(uint16_t isr_bits);
    // The declared register at an even offset (the chip's own accesses: always declared).
    reg16& R(uint8_t off) { return *m_by_off[off >> 1]; }
    uint16_t r(uint8_t off) const { return m_by_off[off >> 1]->get(); }
    uint32_t align(uint32_t v) const {
        return (v + m_p.mem_align - 1) / m_p.mem_align * m_p.mem_align;
    }
    sc_core::sc_time cycles(unsigned n) const { return m_period * double(n); }

    void write_grr(uint16_t v);
    void kick_tx(); // starts the TX engine at the caller's (synchronised) time
    void write_txcr(uint16_t old_v, uint16_t v);
    void write_rxcr1(uint16_t old_v, uint16_t v);
    void write_txqcr(uint16_t v);
    void write_rxqcr(uint16_t old_v, uint16_t v);
    void write_p1mbcr(uint16_t v);

    // RX path
    bool filter(const std::vector<uint8_t>& f, uint16_t& status) const;
    void commit_rx(); // SC_METHOD: pending frames become visible in the RXQ
    void rx_thresholds();
    void dt_expired(); // SC_METHOD: RX duration timer
    void release_head();
    // TX path
    void tx_frame_complete();
    void enqueue_written(); // SC_METHOD after METFE
    void tx_engine();       // SC_THREAD
    void abort_partial_tx(const char* why);

    params m_p;
    sc_core::sc_time m_period;
    reg_map16 m_regs;
    std::array<reg16*, 128> m_by_off{}; // offset / 2 -> declared register (nullptr: unmapped)
    finding_log m_findings;
    core_stats m_stats;
    power_model m_power;
    eth::eth_wire* m_wire = nullptr;

    // interrupts (the pending bits are the ISR register itself)
    bool m_irq_level = true; // idle high (active low)

    // PHY
    bool m_link_up = false;
    bool m_link_latched_low = false; // BMSR link status latches low until read

    // DMA window
    bool m_sda = false;
    uint64_t m_dma_starts = 0;
    sc_core::sc_time m_dma_ready_at = sc_core::SC_ZERO_TIME;
    uint32_t m_rx_ptr = 0; // byte offset into the head frame image

    // RXQ
    std::deque<rx_frame> m_rxq;
    uint32_t m_rx_used = 0;
    std::deque<pending_rx> m_rx_pending;
    sc_core::sc_event m_commit_ev;
    bool m_dt_running = false;
    sc_core::sc_event m_dt_ev;

    // TXQ
    uint32_t m_tx_used = 0;
    std::vector<uint8_t> m_tx_hdr;     // partial 4-byte frame header
    tx_frame m_tx_cur;                 // frame being written
    bool m_tx_in_frame = false;        // header complete, data in progress
    bool m_tx_skip = false;            // current frame is being discarded (overflow/bad header)
    std::deque<tx_frame> m_tx_written; // complete, waiting for METFE
    std::deque<tx_frame> m_tx_queue;   // enqueued, waiting for the MAC
    bool m_metfe = false;
    size_t m_metfe_batch = 0; // frames the pending METFE covers (at_tx_done)
    sc_core::sc_event m_enqueue_ev;
    sc_core::sc_event m_tx_kick;
    tx_frame m_tx_active;
    bool m_tx_busy = false;
    uint64_t m_generation = 0; // bumped by QMU/soft reset: late completions are ignored
};

} // namespace nicsim::ks
