// SPDX-License-Identifier: MIT
// The WILC1000 on the board's SDIO host (strapped for SDIO), interrupting in band on DAT1.
#include <stdexcept>

#include "kernel/include/nicsim/bus_attach.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "devices/wilc1000/wilc1000_device.h"
#include "devices/wilc1000/wilc1000_sdio_decoder.h"
#include "trace/trace_session.h"

namespace nicsim::bindings {

namespace {

// CCCR registers the MMC core's card set-up touches (SDIO spec 6.9).
constexpr unsigned cccr_bus_if = 0x07, cccr_speed = 0x13;
constexpr uint8_t bus_width_4bit = 0x02, speed_ehs = 0x02, speed_shs = 0x01;
constexpr double default_speed_max_hz = 25e6; // above this the card must run high speed

wilc::params sdio_strapped(wilc::params p) {
    p.bus_strap = wilc::host_bus::sdio;
    return p;
}

} // namespace

wilc1000_sdio_device::wilc1000_sdio_device(board::board& b, const config::scenario_config& sc,
                                           const wilc::params& p)
    : wilc1000_device(b, sc, sdio_strapped(p)), m_sdio_host(b.sdio_host(sc.device.bus_clock)),
      m_card_irq("card_irq", false) {
    create_chip();
    m_sdio_host.sdio_out.bind(m_chip->sdio_in);
    m_chip->sdio_irq.bind(m_card_irq);
    m_sdio_host.connect_card_irq(m_card_irq);
}

std::string wilc1000_sdio_device::enumerate_card() {
    // mmc_attach_sdio after identification (CMD5/CMD3/CMD7 are not replayed): read the CCCR
    // capabilities, switch the card to 4-bit (sdio_enable_4bit_bus) and to high speed
    // (sdio_enable_hs) as the requested clock needs, then program the host's ios.
    auto read = [&](unsigned reg, uint8_t& v, const char* what) -> std::string {
        if (int ret = m_sdio_host.cmd52(0, false, reg, v))
            return std::string("reading CCCR for ") + what + " failed: " + std::to_string(ret);
        return {};
    };
    auto write = [&](unsigned reg, uint8_t v, const char* what) -> std::string {
        if (int ret = m_sdio_host.cmd52(0, true, reg, v))
            return std::string("writing CCCR for ") + what + " failed: " + std::to_string(ret);
        return {};
    };
    uint8_t v = 0;
    if (m_sc.device.bus_width == 4) {
        if (std::string err = read(cccr_bus_if, v, "4-bit bus"); !err.empty())
            return err;
        if (std::string err = write(cccr_bus_if, v | bus_width_4bit, "4-bit bus"); !err.empty())
            return err;
    }
    if (m_sc.device.bus_clock.hz > default_speed_max_hz) {
        if (std::string err = read(cccr_speed, v, "high speed"); !err.empty())
            return err;
        if (!(v & speed_shs))
            return "device.bus_clock " + config::to_string(m_sc.device.bus_clock) +
                   " needs high speed, which the card does not support (CCCR 0x13 SHS = 0)";
        if (std::string err = write(cccr_speed, v | speed_ehs, "high speed"); !err.empty())
            return err;
    }
    try {
        // The card runs at the SD clock the host driver's divider makes of the request.
        m_sdio_host.set_ios(m_board.sd_clock(m_sc.device.bus_clock), m_sc.device.bus_width);
    } catch (const std::invalid_argument& e) {
        return std::string("SDIO host: ") + e.what();
    }
    return {};
}

std::string wilc1000_sdio_device::probe() {
    if (std::string err = enumerate_card(); !err.empty())
        return err;
    lx_bus_device_desc d{};
    d.name = "mmc0:0001:1";
    d.compatible = "microchip,wilc1000";
    ::sdio_func* func = lx_bus_sdio_create(&d, 1);
    lx_bus::sdio_attach(func, m_board.sdio_port());
    if (int ret = lx_bus_sdio_probe(func, modname(), m_sc.driver.build_key().c_str()))
        return "wilc1000 sdio probe failed: " + std::to_string(ret);
    return {};
}

void wilc1000_sdio_device::attach_traces(trace::trace_session& trace) {
    trace.attach_sdio(m_sdio_host, "sdio0",
                      std::make_unique<trace::wilc1000_sdio_decoder>(
                          [this](uint32_t a) { return register_name(a); }));
    trace.attach_irq(m_card_irq, "wilc1000");
    trace.attach_power(m_chip->power(), "wilc1000");
}

void wilc1000_sdio_device::fill_bus_report(report::device_report& d) const {
    const auto& hs = m_sdio_host.stats();
    d.irqs = hs.card_irqs;
    d.bus_transactions = hs.cmd52 + hs.cmd53;
    d.bus_commands = {{"cmd52", hs.cmd52}, {"cmd53", hs.cmd53}};
    d.bus_bytes = hs.data_bytes;
    d.bus_busy_s = hs.bus_busy.to_seconds();
}

} // namespace nicsim::bindings
