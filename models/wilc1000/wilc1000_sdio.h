// SPDX-License-Identifier: MIT
// WILC1000 SDIO function device: the SDIO card side of the chip as the 6.1 driver (sdio.c) and
// the MMC core use it, translated into chip-core calls (the same core the SPI front-end uses).
//
//   F0  the standard card registers (CCCR, FBR1 with the CSA pointer, CIS) are the generic
//       sdio::card_regs block; this front-end adds the WILC vendor registers 0xf0-0xfc
//       (sleep/wake, interrupt size/flags/clear), declared the same way, and the CSA data
//       window 0x10F (the chip's AHB space through the core).
//   F1  data port 0x0 (CMD53: TX DMA into the VMM, RX DMA out of the RX buffer), IRQ flags 0x4.
//
// Files: wilc1000_sdio.cc (commands, responses, interrupt), wilc1000_sdio_f0.cc (function-0
// registers and the CSA window), wilc1000_sdio_f1.cc (the F1 data port DMA).
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

#include "bus/common/reg.h"
#include "bus/sdio/sdio_card_regs.h"
#include "bus/sdio/sdio_sockets.h"
#include "models/common/fault_point.h"
#include "models/wilc1000/wilc1000_core.h"

namespace nicsim::wilc {

namespace sdio_reg {
using namespace sdio::card_reg; // CCCR, FBR1, CIS (bus/sdio/sdio_card_regs.h)
// WILC vendor area of the CCCR.
constexpr uint32_t WAKEUP = 0xf0, CLK_STATUS = 0xf1, INT_SIZE_LO = 0xf2, INT_SIZE_HI = 0xf3,
                   VMM_CTL = 0xf6, IRQ_FLAG = 0xf7, IRQ_CLEAR = 0xf8, HOST_TO_FW = 0xfa,
                   FW_TO_HOST = 0xfc;
// Function 1.
constexpr uint32_t F1_DATA = 0x0, F1_IRQ_FLAG = 0x4;
} // namespace sdio_reg

struct sdio_frontend_stats {
    uint64_t cmd52 = 0, cmd53 = 0;
    uint64_t csa_bytes_written = 0, csa_bytes_read = 0; // F0 CSA window (AHB)
    uint64_t f1_bytes_written = 0, f1_bytes_read = 0;   // F1 data port (VMM TX / RX)
    uint64_t errors = 0;                                // commands answered with response != ok
    uint64_t irq_assertions = 0;                        // in-band interrupt rising edges
};

// Fault points of the SDIO interface (docs/faults.md).
struct sdio_faults {
    fault::point crc_error{"sdio_crc_error"}; // per command: a CRC check fails (-EILSEQ)
    fault::point timeout{"sdio_timeout"};     // per command: the card does not answer
    fault::point_list all() { return {&crc_error, &timeout}; }
};

class sdio_frontend : public sdio::sdio_card_if {
  public:
    explicit sdio_frontend(core& c);
    sdio_faults faults;
    void sdio_transport(sdio::sdio_payload& p, sc_core::sc_time& delay) override;
    // Register reads (CMD52 reads of function 0, 4-byte CMD53 reads through the CSA window) and
    // the CSA pointer writes that set them up, as the SPI front-end's register reads.
    bool answers_at_local_time(const sdio::sdio_payload& p) const override;

    // In-band interrupt level (DAT1 interrupt), true = pending. on_irq is called on changes.
    bool irq_level() const { return m_irq; }
    std::function<void(bool pending)> on_irq;
    // Re-evaluates the interrupt level (the chip calls it when the core's INT0 changes).
    void update_irq();

    // Observation (tests/reports).
    const sdio_frontend_stats& stats() const { return m_stats; }
    uint8_t io_enable() const { return m_card.io_enable(); }
    uint8_t int_enable() const { return m_card.int_enable(); }
    uint8_t bus_interface() const { return m_card.bus_interface(); }
    uint16_t block_size(unsigned fn) const { return m_card.block_size(fn); }
    uint32_t csa_pointer() const { return m_card.csa_pointer(); }
    bool strapped() const { return m_core.config().bus_strap == host_bus::sdio; }

    // Declares the vendor registers and the CSA window (without handlers) into `m`.
    static void declare_vendor_registers(regs::reg_map<uint8_t>& m);
    // Name of a function-0 register for traces (standard or vendor), nullptr if none.
    static const char* f0_name(uint32_t addr);

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
    result csa_byte(uint32_t addr, uint8_t& v, bool write, sc_core::sc_time t);
    void attach_vendor_handlers();
    result f1_check_enabled(sc_core::sc_time t, const char* what);
    result csa_transfer(sdio::sdio_payload& p, sc_core::sc_time t);
    result f1_data_write(const uint8_t* d, size_t n, sc_core::sc_time t);
    result f1_data_read(uint8_t* d, size_t n, sc_core::sc_time t);
    result fail(sc_core::sc_time t, finding_kind k, sdio::sdio_response r, std::string text);
    result from_card(const sdio::card_result& r, sc_core::sc_time t);
    result from_core(access_status s, sc_core::sc_time t, const std::string& what);
    void abandon_streams(sc_core::sc_time t, const char* why);

    core& m_core;
    sdio_frontend_stats m_stats;

    // Function 0: the standard card registers and the WILC vendor registers.
    sdio::card_regs m_card;
    regs::reg_map<uint8_t> m_vendor;
    sc_core::sc_time m_now = sc_core::SC_ZERO_TIME; // time of the vendor access being served
    bool m_irq = false;

    // Transfers split over several CMD53s (MMC core splitting with incrementing address).
    static constexpr uint32_t no_cont = ~0u;
    uint32_t m_f0_cont = no_cont, m_f1_cont = no_cont; // next address that continues a window
    std::vector<uint8_t> m_tx_buf;                     // TX DMA gathered until the VMM is full
    size_t m_rx_pos = 0;                               // bytes of the RX batch already read
    bool m_rx_active = false;
};

} // namespace nicsim::wilc
