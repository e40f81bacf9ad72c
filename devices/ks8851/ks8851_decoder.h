// SPDX-License-Identifier: MIT
// Names KS8851 bus transactions. SPI (KSZ8851SNL): one frame is one command; byte 0 carries the
// opcode (RD, WR, RXQ read, TXQ write) and for register commands the byte enables and A7..A6,
// byte 1 A5..A0 (ks8851_spi.c MK_OP). Parallel bus (KSZ8851-16MLL): a write to the command port
// (host A1 set) selects a register, the next data-port accesses read or write it; while RXQCR
// has SDA set the data port streams the RX/TX queue (ks8851_par.c). Register names come from
// the chip's declarations (ks::reg_name).
#pragma once

#include <cstdint>

#include "trace/bus_decoder.h"

namespace nicsim::trace {

class ks8851_spi_decoder : public spi_decoder {
  public:
    void decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations& a) override;

  private:
    std::vector<uint8_t> m_mosi, m_miso;
};

class ks8851_par_decoder : public par_decoder {
  public:
    // window_base: bus address of the chip select; cmd_mask: the address bit of the command
    // port (ks::params::par_cmd_addr_mask).
    ks8851_par_decoder(uint64_t window_base, uint64_t cmd_mask)
        : m_base(window_base), m_cmd_mask(cmd_mask) {}
    void decode(const par::par_payload& access, bus_txn& t, bus_annotations& a) override;

  private:
    uint64_t m_base, m_cmd_mask;
    uint32_t m_reg = 0;
    bool m_have_reg = false;
    bool m_fresh = false; // a register was selected and not yet accessed
    bool m_sda = false;   // RXQCR.SDA: data port is the queue
};

} // namespace nicsim::trace
