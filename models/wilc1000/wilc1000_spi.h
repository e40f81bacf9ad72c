// SPDX-License-Identifier: MIT
// WILC1000 SPI slave front-end: the command protocol of the ATWILC1000 SPI interface as the 6.1
// driver (spi.c) uses it, translated into chip-core calls.
//
// The slave is a byte-stream state machine that keeps its state across chip-select frames, as
// the real chip does: the driver sends every phase (command + response, data-start tag, data,
// CRC, data response) as its own spi_sync. For every byte the MISO value is produced from the
// current state before the MOSI byte is consumed, so MISO byte i depends only on MOSI bytes < i.
//
// Framing (n = command length, +1 CRC7 byte when PROTOCOL_CONFIG bit 2 is set):
//   0xc3 INTERNAL_WRITE cmd a1 a0 d3 d2 d1 d0      -> echo status
//   0xc4 INTERNAL_READ  cmd a1 a0 00               -> echo status [0..k filler] F3 d0 d1 d2 d3
//   [crc16] 0xc7 DMA_EXT_WRITE  cmd a2 a1 a0 s2 s1 s0      -> echo status; then per packet: tag
//   F1/F2/F3,
//                                                     data, [crc16]; chip answers C<order> status
//   0xc8 DMA_EXT_READ   cmd a2 a1 a0 s2 s1 s0      -> echo status; then per packet: 00.. tag data
//   [crc16] 0xc9 SINGLE_WRITE   cmd a2 a1 a0 d3 d2 d1 d0   -> echo status 0xca SINGLE_READ    cmd
//   a2 a1 a0               -> like INTERNAL_READ 0xcf RESET          cmd ff ff ff               ->
//   skip echo status
// Status byte (assumption, after the ATWILC1000 user guide's command-response description):
// 0 ok, 1 unsupported command, 2 unexpected data, 3 CRC7 error, 4 CRC16 error, 5 internal error
// (used for clocked accesses while the chip clock is off).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "bus/spi/spi_sockets.h"
#include "models/common/fault_point.h"
#include "models/wilc1000/wilc1000_core.h"

namespace nicsim::wilc {

namespace spi_cmd {
constexpr uint8_t DMA_WRITE = 0xc1, DMA_READ = 0xc2, INTERNAL_WRITE = 0xc3, INTERNAL_READ = 0xc4,
                  TERMINATE = 0xc5, REPEAT = 0xc6, DMA_EXT_WRITE = 0xc7, DMA_EXT_READ = 0xc8,
                  SINGLE_WRITE = 0xc9, SINGLE_READ = 0xca, RESET = 0xcf;
}
namespace spi_status {
constexpr uint8_t OK = 0x00, UNSUPPORTED = 0x01, UNEXPECTED_DATA = 0x02, CRC7 = 0x03, CRC16 = 0x04,
                  INTERNAL = 0x05;
}

struct spi_frontend_stats {
    uint64_t frames = 0, bytes = 0;
    std::array<uint64_t, 256> commands{}; // executed commands by command byte
    uint64_t crc7_errors = 0, crc16_errors = 0;
};

// Fault points of the SPI interface (docs/faults.md).
struct spi_faults {
    fault::point data_bit_error{"spi_bit_error"};    // per DMA write data packet: one bit flips
    fault::point cmd_bit_error{"spi_cmd_bit_error"}; // per command: one bit of its last byte
    fault::point truncated{"spi_truncated"};         // per CS frame: only the first half clocks
    fault::point_list all() { return {&data_bit_error, &cmd_bit_error, &truncated}; }
};

class spi_frontend : public spi::spi_slave_if {
  public:
    explicit spi_frontend(core& c) : m_core(c) {}
    spi_faults faults;
    void spi_transport(spi::spi_payload& frame, sc_core::sc_time& delay) override;
    // A register read (SINGLE_READ / INTERNAL_READ, command and response in one frame) is
    // answered at the host's local time: it only reads state that is a function of time (the
    // power model, the registers). Every other frame syncs first (bus/common/local_time.h).
    bool answers_at_local_time() const override { return true; }

    const spi_frontend_stats& stats() const { return m_stats; }
    // Filler bytes the chip inserts before the data-start tag of a register read at f_sck, for
    // an internal data access time `access` (see params::ahb_read_access).
    static unsigned filler_bytes(sc_core::sc_time access, double sck_hz);

  private:
    enum class state { idle, command, response, dma_write, dma_read };
    enum class phase { tag, data, crc };

    bool register_read_frame(const spi::spi_payload& frame) const;
    size_t bulk_data(const spi::spi_xfer& x, size_t i);
    uint8_t miso(sc_core::sc_time t_start);
    void mosi(uint8_t b, sc_core::sc_time t_end, double sck_hz);
    void execute(sc_core::sc_time t, double sck_hz);
    void read_response(uint8_t cmd, uint32_t v, bool clockless, sc_core::sc_time access,
                       double sck_hz);
    void finish_write_packet(sc_core::sc_time t);
    void cs_deassert(sc_core::sc_time t);
    void start_read_packet();
    uint32_t block_size() const;
    void find(sc_core::sc_time t, finding_kind k, std::string text) {
        m_core.finding(t, k, std::move(text));
    }

    core& m_core;
    spi_frontend_stats m_stats;
    state m_state = state::idle;
    state m_after = state::idle;
    std::vector<uint8_t> m_cmd;
    size_t m_cmd_need = 0;
    bool m_cmd_crc7 = false;
    std::deque<uint8_t> m_rsp;   // command response: MOSI is ignored while it is clocked out
    std::deque<uint8_t> m_async; // data-packet responses: clocked out while MOSI is parsed
    bool m_warned_speed = false;

    // DMA state (one transfer at a time)
    uint32_t m_dma_addr = 0, m_dma_size = 0, m_dma_pos = 0; // pos = bytes moved so far
    uint32_t m_pkt_len = 0, m_pkt_pos = 0;
    phase m_phase = phase::tag;
    bool m_dma_crc16 = false, m_dma_error = false;
    uint32_t m_blk = 8192;
    std::vector<uint8_t> m_dma_buf;
    uint8_t m_crc_buf[2] = {0, 0};
    sc_core::sc_time m_rd_ready;
};

} // namespace nicsim::wilc
