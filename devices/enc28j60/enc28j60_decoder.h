// SPDX-License-Identifier: MIT
// Names ENC28J60 SPI commands. One chip-select frame is one command: byte 0 is the opcode (top
// three bits) and a 5-bit argument (models/enc28j60/enc28j60_spi.h). Control-register commands
// are named by the register the chip resolves: the decoder follows the bank ECON1.BSEL selects
// (WCR/BFS/BFC of ECON1, SRC resets it to 0) and takes names from the chip model's register
// declarations, never from a table of its own. A MAC/MII register's RCR shifts a dummy byte
// before the data.
#pragma once

#include <cstdint>
#include <vector>

#include "bus/common/reg.h"
#include "trace/bus_decoder.h"

namespace nicsim::trace {

class enc28j60_spi_decoder : public spi_decoder {
  public:
    // `regs`: the chip's declared registers (enc::core::registers()); must outlive the decoder.
    explicit enc28j60_spi_decoder(const regs::reg_map<uint8_t>& regs) : m_regs(regs) {}
    void decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations& a) override;
    unsigned bank() const { return m_bank; }

  private:
    std::string reg_text(uint8_t addr) const;
    const regs::reg_map<uint8_t>& m_regs;
    unsigned m_bank = 0;
    std::vector<uint8_t> m_mosi, m_miso;
};

} // namespace nicsim::trace
