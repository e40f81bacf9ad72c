// SPDX-License-Identifier: MIT
// WILC1000 SDIO function device: the SDIO card side of the chip as the 6.1 driver (sdio.c) and
// the MMC core use it, translated into chip-core calls (the same core the SPI front-end uses).
//
//   F0  CCCR 0x00-0x16, FBR1 0x100-0x111 (CSA pointer 0x10C-0x10E, CSA data window 0x10F =
//       the chip's AHB space through the core), WILC vendor registers 0xf0-0xfc (sleep/wake,
//       interrupt size/flags/clear), CIS at 0x1000 (common) and 0x2000 (F1).
//   F1  data port 0x0 (CMD53: TX DMA into the VMM, RX DMA out of the RX buffer), IRQ flags 0x4.
//
// One sdio_transport call per CMD52/CMD53 (bus/sdio/sdio_sockets.h). Errors are answered with
// the R5 response code and an `error` text naming function and register, and logged as findings.
// The in-band interrupt (on_irq, level true = pending) is INT0 pending AND IENx master + F1.
// Register table: docs/models/wilc1000.md "SDIO front-end".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bus/sdio/sdio_sockets.h"
#include "models/wilc1000/wilc1000_core.h"

namespace nicsim::wilc {

namespace sdio_reg {
// CCCR (function 0).
constexpr uint32_t CCCR_REV = 0x00, SD_REV = 0x01, IOEx = 0x02, IORx = 0x03, IENx = 0x04,
                   INTx = 0x05, ABORT = 0x06, BUS_IF = 0x07, CAPS = 0x08, CIS_PTR = 0x09,
                   BUS_SUSPEND = 0x0c, FN_SELECT = 0x0d, EXEC = 0x0e, READY = 0x0f,
                   F0_BLKSIZE = 0x10, POWER = 0x12, SPEED = 0x13, UHS = 0x14, DRIVE = 0x15,
                   INT_EXT = 0x16, CCCR_END = 0x17;
// WILC vendor area of the CCCR.
constexpr uint32_t WAKEUP = 0xf0, CLK_STATUS = 0xf1, INT_SIZE_LO = 0xf2, INT_SIZE_HI = 0xf3,
                   VMM_CTL = 0xf6, IRQ_FLAG = 0xf7, IRQ_CLEAR = 0xf8, HOST_TO_FW = 0xfa,
                   FW_TO_HOST = 0xfc;
// FBR of function 1.
constexpr uint32_t FBR1 = 0x100, FBR1_IF_EXT = 0x101, FBR1_POWER = 0x102, FBR1_CIS_PTR = 0x109,
                   CSA_PTR = 0x10c, CSA_DATA = 0x10f, F1_BLKSIZE = 0x110, FBR1_END = 0x112;
// CIS area (read-only tuples).
constexpr uint32_t CIS_BASE = 0x1000, CIS_COMMON = 0x1000, CIS_F1 = 0x2000, CIS_END = 0x18000;
// Function 1.
constexpr uint32_t F1_DATA = 0x0, F1_IRQ_FLAG = 0x4;
// Field values.
constexpr uint8_t IO_F1 = 1u << 1;
constexpr uint8_t IEN_MASTER = 1u << 0, IEN_F1 = 1u << 1;
constexpr uint8_t ABORT_RES = 1u << 3, ABORT_AS_MASK = 0x7;
constexpr uint8_t CSA_SUPPORT = 0x40, CSA_ENABLE = 0x80;
} // namespace sdio_reg

struct sdio_frontend_stats {
    uint64_t cmd52 = 0, cmd53 = 0;
    uint64_t csa_bytes_written = 0, csa_bytes_read = 0; // F0 CSA window (AHB)
    uint64_t f1_bytes_written = 0, f1_bytes_read = 0;   // F1 data port (VMM TX / RX)
    uint64_t errors = 0;                                // commands answered with response != ok
    uint64_t irq_assertions = 0;                        // in-band interrupt rising edges
};

class sdio_frontend : public sdio::sdio_card_if {
  public:
    explicit sdio_frontend(core& c);
    void sdio_transport(sdio::sdio_payload& p, sc_core::sc_time& delay) override;

    // In-band interrupt level (DAT1 interrupt), true = pending. on_irq is called on changes.
    bool irq_level() const { return m_irq; }
    std::function<void(bool pending)> on_irq;
    // Re-evaluates the interrupt level (the chip calls it when the core's INT0 changes).
    void update_irq();

    // Observation (tests/reports).
    const sdio_frontend_stats& stats() const { return m_stats; }
    uint8_t io_enable() const { return m_ioe; }
    uint8_t int_enable() const { return m_ien; }
    uint8_t bus_interface() const { return m_bus_if; }
    uint16_t block_size(unsigned fn) const { return fn == 0 ? m_blk[0] : m_blk[1]; }
    uint32_t csa_pointer() const { return m_csa_ptr; }
    bool strapped() const { return m_core.config().bus_strap == host_bus::sdio; }

  private:
    struct result {
        sdio::sdio_response rsp = sdio::sdio_response::ok;
        std::string error;
        static result ok() { return {}; }
    };

    result cmd52(sdio::sdio_payload& p, sc_core::sc_time t);
    // f0_cont/f1_cont: address that continues the previous command's window (or no_cont).
    result cmd53(sdio::sdio_payload& p, sc_core::sc_time t, uint32_t f0_cont, uint32_t f1_cont);
    result f0_read(uint32_t addr, uint8_t& v, sc_core::sc_time t);
    result f0_write(uint32_t addr, uint8_t v, sc_core::sc_time t);
    result f1_check_enabled(sc_core::sc_time t, const char* what);
    result csa_transfer(sdio::sdio_payload& p, sc_core::sc_time t);
    result f1_data_write(const uint8_t* d, size_t n, sc_core::sc_time t);
    result f1_data_read(uint8_t* d, size_t n, sc_core::sc_time t);
    result fail(sc_core::sc_time t, finding_kind k, sdio::sdio_response r, std::string text);
    result from_core(access_status s, sc_core::sc_time t, const std::string& what);
    void abandon_streams(sc_core::sc_time t, const char* why);
    void io_reset(sc_core::sc_time t);
    uint8_t io_ready(sc_core::sc_time t) const;
    uint8_t cis_byte(uint32_t addr) const;
    void build_cis();

    core& m_core;
    sdio_frontend_stats m_stats;

    // CCCR / FBR state (reset by ABORT.RES).
    uint8_t m_ioe = 0, m_ien = 0, m_bus_if = 0, m_caps_e4mi = 0, m_speed_ehs = 0;
    uint16_t m_blk[2] = {0, 0};
    uint8_t m_fbr1 = 0; // CSA enable bit as written
    uint32_t m_csa_ptr = 0;
    sc_core::sc_time m_f1_ready_at;
    // Vendor registers the host writes (bit 0 is mapped onto the core's clockless registers).
    uint8_t m_wakeup = 0, m_host_to_fw = 0;
    bool m_irq = false;

    // CIS tuples.
    std::vector<uint8_t> m_cis_common, m_cis_f1;

    // Transfers split over several CMD53s (MMC core splitting with incrementing address).
    static constexpr uint32_t no_cont = ~0u;
    uint32_t m_f0_cont = no_cont, m_f1_cont = no_cont; // next address that continues a window
    std::vector<uint8_t> m_tx_buf;                     // TX DMA gathered until the VMM is full
    size_t m_rx_pos = 0;                               // bytes of the RX batch already read
    bool m_rx_active = false;
};

} // namespace nicsim::wilc
