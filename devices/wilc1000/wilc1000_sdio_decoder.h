// SPDX-License-Identifier: MIT
// Names the SDIO commands of the WILC1000 as the 6.1 driver (sdio.c, wlan.c) issues them:
// CMD52 to the CCCR, the FBR and the WILC vendor registers of function 0 (0xf0 wakeup, 0xf1
// clk_status, 0xfa host_to_fw, 0xfc fw_to_host, ...); CMD53 on function 0 through the CSA window
// (0x10f; the AHB address comes from the preceding CMD52 writes of the CSA pointer 0x10c-0x10e),
// named by the chip register there; CMD53 on function 1 (0x0: the VMM data port). Marks the
// wake-up and allow-sleep handshakes like the SPI decoder (wilc1000_handshake.h).
#pragma once

#include <cstdint>
#include <functional>

#include "trace/bus_decoder.h"
#include "devices/wilc1000/wilc1000_handshake.h"

namespace nicsim::trace {

class wilc1000_sdio_decoder : public sdio_decoder {
  public:
    // Chip register names by AHB address (the model's register table); nullptr if unknown.
    using reg_namer = std::function<const char*(uint32_t addr)>;
    explicit wilc1000_sdio_decoder(reg_namer names) : m_names(std::move(names)) {}

    void decode(const sdio::sdio_payload& cmd, bus_txn& t, bus_annotations& a) override;
    uint64_t wakeups() const { return m_hs.wakeups(); }

  private:
    std::string f0_name(uint32_t addr) const;

    reg_namer m_names;
    uint32_t m_csa = 0; // CSA pointer as the driver last wrote it
    wilc1000_handshake m_hs;
};

} // namespace nicsim::trace
