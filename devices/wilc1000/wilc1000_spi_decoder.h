// SPDX-License-Identifier: MIT
// Names the frames of the WILC1000 SPI protocol as the 6.1 driver (spi.c, wlan.c) sends them.
// The driver sends each phase of a command as its own spi_sync, so the decoder follows the
// protocol across frames: a command frame (command byte, address, response), then for
// DMA_EXT_WRITE per packet a data-start tag, the data and an optional CRC16, closed by a 4-byte
// data response; for DMA_EXT_READ per packet 1-byte header polls, the data and an optional CRC16.
//
// Besides the frame names it marks on lanes of the bus process:
//  * "operations": one span per DMA transfer (command .. last data / data response);
//  * "power handshake": the host wake-up (chip_wakeup: HOST_TO_FW and WAKEUP set, CLK_STATUS
//    polled until bit 2) and the allow-sleep sequence (chip_allow_sleep: FW_TO_HOST polled,
//    WAKEUP and HOST_TO_FW cleared), with the number of clock-status polls.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "trace/bus_decoder.h"
#include "devices/wilc1000/wilc1000_handshake.h"

namespace nicsim::trace {

class wilc1000_spi_decoder : public spi_decoder {
  public:
    // Register names for SINGLE_READ/WRITE addresses and the SPI block (0xe800 + offset) of
    // INTERNAL accesses: the chip model's register table. Returns nullptr for an unknown one.
    using reg_namer = std::function<const char*(uint32_t addr)>;
    explicit wilc1000_spi_decoder(reg_namer names) : m_names(std::move(names)) {}

    void decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations& a) override;

    uint64_t wakeups() const { return m_hs.wakeups(); }

  private:
    enum class phase { none, w_tag, w_data, w_after, r_hdr, r_data, r_after };
    bool continue_dma(size_t len, bus_txn& t, bus_annotations& a);
    void command(size_t len, bus_txn& t, bus_annotations& a);
    void end_op(uint64_t end_ps, bus_annotations& a, const char* how);
    std::string reg(uint32_t addr, bool clockless, bool internal) const;
    // Value of a register read from MISO: echo at cmd_len or cmd_len+1 (CRC7), status, then up to
    // 8 bytes before the 0xF? data-start tag, then 4 data bytes little-endian.
    bool read_value(uint8_t cmd, size_t cmd_len, uint32_t& v, uint8_t& status) const;
    bool write_status(uint8_t cmd, size_t cmd_len, uint8_t& status) const;

    reg_namer m_names;
    std::vector<uint8_t> m_mosi, m_miso;
    phase m_phase = phase::none;
    bool m_write = false;
    uint32_t m_addr = 0;
    uint64_t m_size = 0, m_left = 0, m_op_start = 0;
    unsigned m_packets = 0;
    wilc1000_handshake m_hs;
};

} // namespace nicsim::trace
