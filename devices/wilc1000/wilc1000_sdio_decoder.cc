// SPDX-License-Identifier: MIT
#include "devices/wilc1000/wilc1000_sdio_decoder.h"

#include "models/wilc1000/wilc1000_sdio.h"

namespace nicsim::trace {

namespace {
namespace sr = wilc::sdio_reg;
// Register bits of the handshake (wlan.h WILC_SDIO_*_BIT).
constexpr uint8_t wakeup_bit = 1u << 0, clk_status_bit = 1u << 0, host_to_fw_bit = 1u << 0;

std::string data_hex(const sdio::sdio_payload& c) {
    // Little-endian word of the first (up to) 4 data bytes.
    const size_t n = c.is_cmd52() ? 1 : std::min<size_t>(4, c.data_bytes());
    uint32_t v = 0;
    for (size_t i = 0; i < n && c.data; ++i)
        v |= uint32_t(c.data[i]) << (8 * i);
    return hex(v, int(2 * n));
}
} // namespace

std::string wilc1000_sdio_decoder::f0_name(uint32_t addr) const {
    const char* n = wilc::sdio_frontend::f0_name(addr); // from the register declarations
    return hex(addr, 3) + (n ? std::string(" ") + n : std::string());
}

void wilc1000_sdio_decoder::decode(const sdio::sdio_payload& c, bus_txn& t, bus_annotations& a) {
    const std::string head = std::string(c.is_cmd52() ? "CMD52 " : "CMD53 ") +
                             (c.write ? "W" : "R") + " F" + std::to_string(c.fn) + " ";
    t.dir = c.write ? "wr" : "rd";
    const bool ok = c.response == sdio::sdio_response::ok;
    if (c.fn == 0 && c.is_cmd52()) {
        const uint8_t v = c.data ? c.data[0] : 0;
        t.name = head + f0_name(c.addr);
        t.detail = (c.write ? "= " : "-> ") + hex(v, 2);
        if (c.write && c.addr >= sr::CSA_PTR && c.addr <= sr::CSA_PTR + 2) {
            const unsigned sh = 8 * (c.addr - sr::CSA_PTR);
            m_csa = (m_csa & ~(0xffu << sh)) | uint32_t(v) << sh;
        } else if (c.write && ((c.addr == sr::HOST_TO_FW && (v & host_to_fw_bit)) ||
                               (c.addr == sr::WAKEUP && (v & wakeup_bit)))) {
            m_hs.wake_request(t.start_ps, a);
        } else if (c.write && c.addr == sr::HOST_TO_FW) {
            m_hs.host_to_fw_cleared(t.end_ps, a);
        } else if (!c.write && c.addr == sr::CLK_STATUS) {
            t.name += " poll";
            const bool ready = ok && (v & clk_status_bit);
            t.detail += ready ? " (clock ready)" : " (clock off)";
            if (const unsigned n = m_hs.clock_poll(ready, t.end_ps, a))
                t.detail = "#" + std::to_string(n) + " " + t.detail;
        } else if (!c.write && c.addr == sr::FW_TO_HOST) {
            m_hs.fw_to_host_poll(t.start_ps);
        }
    } else if (c.fn == 0 && c.is_cmd53() && c.addr == sr::CSA_DATA) {
        // Chip memory/registers through the CSA window at the pointer's AHB address.
        const char* n = m_names ? m_names(m_csa) : nullptr;
        t.name = head + "csa " + hex(m_csa, 4) + (n ? std::string(" ") + n : std::string()) + " " +
                 std::to_string(c.data_bytes()) + " B";
        if (c.data_bytes() <= 4)
            t.detail = (c.write ? "= " : "-> ") + data_hex(c);
    } else if (c.fn == 1 && c.is_cmd53() && c.addr == sr::F1_DATA) {
        t.name = sdio_command_text(c) + " data";
    } else {
        t.name = sdio_command_text(c);
        if (c.is_cmd52() || c.data_bytes() <= 4)
            t.detail = (c.write ? "= " : "-> ") + data_hex(c);
    }
    if (!ok)
        t.detail += (t.detail.empty() ? "" : " ") + std::string("error ") +
                    (c.error.empty() ? "response" : c.error);
}

} // namespace nicsim::trace
