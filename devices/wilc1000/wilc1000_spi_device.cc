// SPDX-License-Identifier: MIT
// The WILC1000 on the board's SPI host, its IRQ pin on a GPIO (or not wired: the driver polls).
#include "kernel/include/nicsim/bus_attach.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "devices/wilc1000/wilc1000_device.h"
#include "devices/wilc1000/wilc1000_spi_decoder.h"
#include "trace/trace_session.h"

namespace nicsim::bindings {

wilc1000_spi_device::wilc1000_spi_device(board::board& b, const config::scenario_config& sc,
                                         const wilc::params& p)
    : wilc1000_device(b, sc, p), m_spi_host(b.spi_host()), m_irq("irq", true) {
    create_chip();
    m_spi_host.spi_out[0].bind(m_chip->spi_in);
    m_chip->irq.bind(m_irq);
}

std::string wilc1000_spi_device::probe() {
    lx_bus_device_desc d{};
    d.name = "spi0.0";
    d.compatible = "microchip,wilc1000";
    d.max_speed_hz = static_cast<uint32_t>(m_sc.device.bus_clock.hz);
    d.spi_mode = 0;
    d.irq = m_sc.device.irq == config::irq_mode::gpio ? m_board.wire_gpio_irq(m_irq) : 0;
    m_linux_irq = d.irq;
    ::spi_device* spi = lx_bus_spi_create(&d);
    lx_bus::spi_attach(spi, m_board.spi_port(0, m_sc.device.bus_clock), 0);
    if (int ret = lx_bus_spi_probe(spi, modname(), m_sc.driver.build_key().c_str()))
        return "wilc1000 probe failed: " + std::to_string(ret);
    return {};
}

void wilc1000_spi_device::attach_traces(trace::trace_session& trace) {
    trace.attach_spi(m_spi_host, "spi0",
                     std::make_unique<trace::wilc1000_spi_decoder>(
                         [this](uint32_t a) { return register_name(a); }));
    trace.attach_irq(m_irq, "wilc1000");
    trace.attach_power(m_chip->power(), "wilc1000");
}

void wilc1000_spi_device::fill_bus_report(report::device_report& d) const {
    const auto& hs = m_spi_host.stats();
    d.bus_transactions = hs.frames;
    d.bus_bytes = hs.bytes;
    d.bus_busy_s = hs.wire_time.to_seconds();
    // Runs of the driver's threaded handler (isr_bh_routine), as for the other chips.
    d.irqs = lx_bus_irq_handler_runs(m_linux_irq);
}

} // namespace nicsim::bindings
