// SPDX-License-Identifier: MIT
// ENC28J60 SPI slave front-end (SPI mode 0,0). Each chip-select window is one command:
//
//   byte 0  [op2 op1 op0][a4..a0]
//   RCR 000 aaaaa  ETH register: 1 data byte out; MAC/MII register: 1 dummy byte, then data
//   RBM 001 11010  buffer bytes out from ERDPT (auto-increment, wraps ERXND -> ERXST)
//   WCR 010 aaaaa  1 data byte in
//   WBM 011 11010  buffer bytes in at EWRPT (auto-increment)
//   BFS 100 aaaaa  1 mask byte: set bits (ETH registers only)
//   BFC 101 aaaaa  1 mask byte: clear bits (ETH registers only)
//   SRC 111 11111  soft reset
//
// The transfers of a frame up to a cs_change form one CS window and are one byte stream, so
// the driver's spi_write_then_read (opcode + read transfer), its 2-transfer buffer read and
// plain spi_write all work (as the KS8851 front-end flattens a frame). MISO byte i depends only
// on MOSI bytes before i. MISO while the opcode shifts in is 0 [assumption].
#pragma once

#include <cstdint>
#include <vector>

#include "bus/spi/spi_sockets.h"
#include "models/enc28j60/enc28j60_core.h"

namespace nicsim::enc {

struct spi_frontend_stats {
    uint64_t frames = 0;   // spi_transport calls
    uint64_t commands = 0; // CS windows
    uint64_t rcr = 0, wcr = 0, bfs = 0, bfc = 0, rbm = 0, wbm = 0, src = 0;
    uint64_t buffer_bytes_read = 0, buffer_bytes_written = 0;
    uint64_t bytes = 0;
};

class spi_frontend : public spi::spi_slave_if {
  public:
    explicit spi_frontend(core& c) : m_core(c) {}
    void spi_transport(spi::spi_payload& frame, sc_core::sc_time& delay) override;
    // Temporal decoupling: spi_transport() synchronises itself unless every command of the
    // frame only reads, writes buffer memory or switches the register bank (local_only()).
    bool answers_at_local_time() const override { return true; }
    const spi_frontend_stats& stats() const { return m_stats; }

  private:
    void command(const uint8_t* mosi, uint8_t* miso, size_t n);
    // RCR, RBM, WBM, BFS/BFC of ECON1's bank-select bits and WCR of the buffer pointers
    // ERDPT/EWRPT: they read the chip at the given time or change state no other process of the
    // chip reads, and schedule nothing. Anything else (other WCRs and bit-field commands, SRC)
    // can start the chip's engines or move its RX ring: SystemC time.
    bool local_only(const spi::spi_payload& frame) const;
    core& m_core;
    spi_frontend_stats m_stats;
    std::vector<uint8_t> m_mosi, m_miso; // reused per window
};

} // namespace nicsim::enc
