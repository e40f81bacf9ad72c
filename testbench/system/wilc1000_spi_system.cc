// SPDX-License-Identifier: MIT
#include "testbench/system/wilc1000_spi_system.h"

#include <stdexcept>
#include <string>

#include "driver/include/lx_kit/irq_line_source.h"
#include "driver/include/lx_kit/lx_emul_api.h"
#include "driver/include/lx_kit/runtime.h"
#include "driver/include/nicsim/lx_bus.h"
#include "driver/lx_emul_bus/bus_bridge.h"
#include "models/wilc1000/wilc1000_fw_image.h"
#include "testbench/runner.h"
#include "testbench/system/system_common.h"
#include "testbench/system/wilc1000_common.h"
#include "testbench/trace/wilc1000_spi_decoder.h"

namespace nicsim {

using namespace sc_core;
using system::to_sc;

namespace {

constexpr int wilc_irq_number = 1; // the Linux IRQ number of the GPIO the chip's IRQ pin is on

} // namespace

// The chip's IRQ wire as the driver's interrupt source (kept with the system's lifetime).
struct wilc1000_spi_system::irq_binding {
    lx_kit::irq_line_source src;
    explicit irq_binding(const irq_line& l) : src(l) {}
};

wilc1000_spi_system::wilc1000_spi_system(sc_module_name name,
                                         const config::scenario_config& scenario,
                                         const config::platform_profile& platform,
                                         const wilc::params& chip_params)
    : sc_module(name), m_sc(scenario), m_pf(platform),
      m_chip_params(system::wilc_chip_params_for(scenario.device, chip_params)),
      m_cpu("cpu", platform.cpu.cores),
      m_spi_host("spi_host", 1, system::spi_host_timing_of(platform.spi_host)), m_irq("irq", true),
      m_air("air", system::wilc_air_params(scenario.link)) {
    m_chip = std::make_unique<wilc1000>("wilc1000", m_chip_params);
    m_spi_host.spi_out[0].bind(m_chip->spi_in);
    m_chip->irq.bind(m_irq);
    m_chip->attach_air(m_air);
    m_port = std::make_unique<cpu_spi_port>(m_cpu, m_spi_host, 0,
                                            to_sc(platform.spi_host.per_message_overhead),
                                            platform.spi_host.dma_threshold.bytes);

    // Host = the station (the chip's MAC, which the driver reads from the firmware); peer = the
    // far host behind the access point.
    const auto host_addr = system::endpoint_addr_of(m_chip_params.mac_addr, 0xc0a80102, 40000);
    const auto peer_addr =
        system::endpoint_addr_of({0x02, 0x00, 0x00, 0x00, 0xb0, 0x01}, 0xc0a80101, 5001);
    m_traffic =
        std::make_unique<traffic_session>(scenario.traffic, scenario.seed, host_addr, peer_addr);
    m_irq_src = std::make_unique<irq_binding>(m_irq);
    system::wilc_bind_traffic(*m_traffic, m_cpu, m_ndev, m_pf, m_sc, m_air);
    // Opt-in traces (scenario.trace): nothing is attached when they are off.
    if ((m_trace = trace::trace_session::open(scenario.trace))) {
        m_trace->attach_tasks();
        m_trace->attach_spi(m_spi_host, "spi0",
                            std::make_unique<trace::wilc1000_spi_decoder>([this](uint32_t a) {
                                const wilc::reg_def* r = m_chip->core.registers().find(a);
                                return r ? r->name : nullptr;
                            }));
        m_trace->attach_irq(m_irq, "wilc1000");
        m_trace->attach_power(m_chip->power(), "wilc1000");
    }
    SC_HAS_PROCESS(wilc1000_spi_system);
    SC_THREAD(main);
}

wilc1000_spi_system::~wilc1000_spi_system() = default;

std::string wilc1000_spi_system::bring_up() {
    const std::string variant = m_sc.driver.variant;
    system::apply_kernel_platform(m_pf, m_cpu);
    // insmod: module parameters, then module_init (registers the spi/sdio drivers).
    if (std::string err = system::load_driver_modules("wilc1000", m_sc.driver); !err.empty())
        return err;

    // /lib/firmware/atmel/wilc1000_wifi_firmware-1.bin: the chip model's well-formed image.
    // request_firmware() hands out this buffer without copying: it lives as long as the system.
    m_firmware = wilc::make_firmware_image(m_chip_params);
    lx_bus_firmware_register("atmel/wilc1000_wifi_firmware-1.bin", m_firmware.data(),
                             m_firmware.size());

    lx_bus_device_desc d{};
    d.name = "spi0.0";
    d.compatible = "microchip,wilc1000";
    d.max_speed_hz = static_cast<uint32_t>(m_sc.device.bus_clock.hz);
    d.spi_mode = 0;
    d.irq = m_sc.device.irq == config::irq_mode::gpio ? wilc_irq_number : 0;
    if (d.irq)
        lx_kit::register_irq(d.irq, m_irq_src->src);
    ::spi_device* spi = lx_bus_spi_create(&d);
    lx_bus::spi_attach(spi, *m_port, 0);
    if (int ret = lx_bus_spi_probe(spi, "wilc1000_spi", variant.c_str()))
        return "wilc1000 probe failed: " + std::to_string(ret);
    return system::wilc_bring_up_netdev("wilc1000_spi", m_sc, m_chip_params, *m_traffic, m_ndev);
}

void wilc1000_spi_system::main() {
    m_run.drive([this] { return bring_up(); }, *m_traffic, to_sc(m_sc.traffic.start));
}

report::report wilc1000_spi_system::run() {
    std::string error;
    report::report r = run(error);
    if (!error.empty())
        throw run_error(error);
    return r;
}

report::report wilc1000_spi_system::run(std::string& error) {
    error = m_run.simulate(to_sc(m_sc.duration_limit), m_trace.get());
    return error.empty() ? make_report() : report::report{};
}

report::report wilc1000_spi_system::make_report() const {
    report::report r = system::start_report(m_run, *m_traffic, m_cpu, m_driver_log);
    const sc_time now = sc_time_stamp();
    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "wilc1000";
    d.bus = "spi";
    d.bus_clock_hz = m_sc.device.bus_clock.hz;
    system::wilc_fill_device_report(*m_chip, m_chip_params, now, d);
    const auto& hs = m_spi_host.stats();
    d.bus_transactions = hs.frames;
    d.bus_bytes = hs.bytes;
    d.bus_busy_s = hs.wire_time.to_seconds();
    r.devices.push_back(d);
    for (const auto& f : m_chip->findings().list())
        r.findings.push_back({f.time.to_seconds(), "wilc1000", "warning",
                              std::string(wilc::to_string(f.kind)) + ": " + f.text});
    return r;
}

} // namespace nicsim
