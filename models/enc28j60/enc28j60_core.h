// SPDX-License-Identifier: MIT
// nicsim::enc::core — the ENC28J60 behind its SPI front-end: banked 8-bit control registers
// declared once (bus/common/reg.h), the 8 KiB buffer with the host read/write pointers, the
// RX ring (ERXST..ERXND, ERXRDPT/ERXWRPT, EPKTCNT), the MAC's TX of one packet per TXRTS with
// its status vector, the receive filter, interrupts (EIE/EIR -> INT pin), clock-ready and
// power save, soft reset, and the PHY (enc28j60_phy.h) behind the MII registers.
// The front-end (enc28j60_spi.h) turns SPI commands into the entry points below; the Ethernet
// side is models/ethernet/eth_wire.h. Register and bit names: enc28j60_regs.h.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "bus/common/reg.h"
#include "models/enc28j60/enc28j60_findings.h"
#include "models/enc28j60/enc28j60_params.h"
#include "models/enc28j60/enc28j60_phy.h"
#include "models/enc28j60/enc28j60_regs.h"
#include "models/ethernet/eth_wire.h"

namespace nicsim::enc {

struct core_stats {
    uint64_t tx_frames = 0;      // frames handed to the wire
    uint64_t tx_bytes = 0;       // their bytes (DA..FCS)
    uint64_t tx_errors = 0;      // TXRTS ending in TXERIF
    uint64_t rx_frames = 0;      // packets written into the ring
    uint64_t rx_bytes = 0;       // their byte counts (incl. CRC)
    uint64_t rx_overruns = 0;    // dropped: ring full or EPKTCNT = 255 (EIR.RXERIF)
    uint64_t rx_filtered = 0;    // dropped by ERXFCON (incl. bad CRC with CRCEN)
    uint64_t rx_disabled = 0;    // dropped: RXEN/MARXEN clear, RXRST or power save
    uint64_t rx_errors = 0;      // dropped: runt or longer than MAMXFL
    uint64_t pktdec = 0;         // ECON2.PKTDEC commands
    uint64_t irq_assertions = 0; // falling edges of INT
    uint64_t eir_reads = 0;      // host reads of EIR (the driver reads it once per loop pass)
    uint64_t soft_resets = 0;    // SRC commands
};

class core : public sc_core::sc_module, public eth::eth_station_if {
  public:
    using reg8 = regs::reg<uint8_t>;

    core(sc_core::sc_module_name name, const params& p = {});

    // --- SPI command entry points (front-end); `addr` is the 5-bit argument of the opcode,
    // resolved in the bank ECON1.BSEL selects ---
    void begin_command(opcode op, uint8_t addr);          // per-command checks (settle, clock)
    uint8_t read_control(uint8_t addr);                   // RCR
    void write_control(uint8_t addr, uint8_t v);          // WCR
    void bit_field(uint8_t addr, uint8_t mask, bool set); // BFS / BFC
    bool is_mac_mii(uint8_t addr) const;
    // RBM: `n` bytes from ERDPT, auto-increment with RX wrap (each byte as the chip reads it)
    void read_buffer(uint8_t* out, size_t n);
    // WBM: `n` bytes to EWRPT, auto-increment
    void write_buffer(const uint8_t* in, size_t n);
    void soft_reset(); // SRC

    // --- pins / wiring ---
    std::function<void(bool high)> on_irq; // INT pin level changes (active low)
    bool irq_level() const { return m_irq_level; }
    void attach_wire(eth::eth_wire& wire);

    // --- eth_station_if ---
    void eth_tx_done(const eth::eth_frame& f) override;
    void eth_rx_frame(eth::eth_frame f) override;
    void eth_link_changed(bool up) override;

    // --- observation (no side effects) ---
    unsigned bank() const { return m_econ1->get() & ECON1_BSEL; }
    uint8_t peek(reg_addr a) const; // the value an RCR would return
    uint16_t peek16(reg_addr lo) const;
    uint8_t mem(uint16_t a) const { return m_mem[a & ptr_mask]; }
    void poke_mem(uint16_t a, uint8_t v) { m_mem[a & ptr_mask] = v; }
    uint16_t rx_read_pointer() const { return m_rxrdpt; } // effective ERXRDPT
    unsigned rx_free() const;                             // datasheet free-space formula
    bool clock_ready() const;
    const params& prm() const { return m_p; }
    const regs::reg_map<uint8_t>& registers() const { return m_regs; }
    enc::phy& phy() { return m_phy; }
    finding_log& findings() { return m_findings; }
    const core_stats& stats() const { return m_stats; }
    std::string reg_name(uint8_t addr) const { return m_regs.name_of(bank(), addr); }

  private:
    void declare_registers();
    void declare_mii_registers();
    void reset_state();
    reg8& R(reg_addr a) { return m_regs.at(a.bank, a.off); }
    const reg8& R(reg_addr a) const { return m_regs.at(a.bank, a.off); }
    uint16_t ptr(reg_addr lo) const;
    void set_ptr(reg_addr lo, uint16_t v);
    uint16_t rx_advance(uint16_t p, unsigned n) const; // inside ERXST..ERXND
    // Visits the `n` buffer addresses from `p` on as the RX-wrapping auto-increment steps
    // through them (ERXND -> ERXST, 0x1FFF -> 0), in contiguous runs: run(addr, count). Returns
    // the address after the last one.
    template <class Run> uint16_t rx_ring_runs(uint16_t p, size_t n, Run&& run) const;
    // Stores `n` bytes from `p` on in the RX ring (as rx_ring_runs steps); returns the address
    // after the last one.
    uint16_t rx_ring_write(uint16_t p, const uint8_t* in, size_t n);
    uint8_t eir_value() const;
    void update_irq();
    void note_write(const reg8& r, const regs::write_result<uint8_t>& res);

    // register handlers
    void write_econ1(uint8_t old_v, uint8_t v);
    void write_econ2(uint8_t old_v, uint8_t v);
    void write_micmd(uint8_t old_v, uint8_t v);

    // MAC (enc28j60_mac.cc)
    void tx_engine(); // SC_THREAD
    bool build_tx(std::vector<uint8_t>& out, bool& giant);
    void write_tsv(const std::vector<uint8_t>& frame, bool giant);
    void tx_error(const std::string& why);
    void commit_rx(); // SC_METHOD
    void receive(const eth::eth_frame& f);
    bool accept(const std::vector<uint8_t>& b, bool crc_ok) const;

    params m_p;
    finding_log m_findings;
    core_stats m_stats;
    regs::reg_map<uint8_t> m_regs;
    enc::phy m_phy;
    std::array<uint8_t, buffer_bytes> m_mem{};
    eth::eth_wire* m_wire = nullptr;

    // registers with behaviour (references into m_regs)
    reg8* m_eie = nullptr;
    reg8* m_eir = nullptr;
    reg8* m_estat = nullptr;
    reg8* m_econ2 = nullptr;
    reg8* m_econ1 = nullptr;
    std::array<reg8*, 0x18> m_bank0{}; // the pointer registers, for the per-byte paths
    uint16_t m_rxrdpt = 0; // effective ERXRDPT (ERXRDPTL is buffered until ERXRDPTH is written)

    bool m_irq_level = true; // INT idles high (active low)
    sc_core::sc_time m_clk_ready_at;
    sc_core::sc_time m_src_at;
    bool m_src_seen = false;
    bool m_duplex_warned = false;

    // TX
    uint64_t m_tx_gen = 0; // bumped by TXRTS clear, TXRST and reset: a pending TX is dropped
    bool m_tx_pending = false;
    sc_core::sc_event m_tx_kick;
    std::vector<uint8_t> m_tx_frame;

    // RX: frames from the wire waiting for rx_commit
    std::deque<std::pair<sc_core::sc_time, eth::eth_frame>> m_rx_pending;
    sc_core::sc_event m_rx_ev;
};

} // namespace nicsim::enc
