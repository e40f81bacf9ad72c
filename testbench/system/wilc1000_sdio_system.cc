// SPDX-License-Identifier: MIT
#include "testbench/system/wilc1000_sdio_system.h"

#include <stdexcept>
#include <string>

#include "driver/include/lx_kit/runtime.h"
#include "driver/include/nicsim/lx_bus.h"
#include "driver/lx_emul_bus/bus_bridge.h"
#include "models/wilc1000/wilc1000_fw_image.h"
#include "testbench/runner.h"
#include "testbench/system/system_common.h"
#include "testbench/system/wilc1000_common.h"
#include "testbench/trace/wilc1000_sdio_decoder.h"

namespace nicsim {

using namespace sc_core;
using system::to_sc;

namespace {

// CCCR registers the MMC core's card set-up touches (SDIO spec 6.9).
constexpr unsigned cccr_bus_if = 0x07, cccr_speed = 0x13;
constexpr uint8_t bus_width_4bit = 0x02, speed_ehs = 0x02, speed_shs = 0x01;
constexpr double default_speed_max_hz = 25e6; // above this the card must run high speed

const config::platform_profile& with_sdio_host(const config::platform_profile& p,
                                               const config::scenario_config& s) {
    if (!p.sdio_host.present)
        throw run_error("device.bus: sdio needs a platform with an SDIO host, but platform '" +
                        p.name + "' (" + p.source_file + ") has no sdio_host section");
    if (s.device.bus_clock.hz > p.sdio_host.max_clock.hz)
        throw run_error(
            "device.bus_clock: " + config::to_string(s.device.bus_clock) +
            " is above the SD clock the host of platform '" + p.name +
            "' generates (sdio_host.max_clock = " + config::to_string(p.sdio_host.max_clock) + ")");
    return p;
}

sdio::sdio_host_timing sdio_timing_of(const config::sdio_host_config& c) {
    sdio::sdio_host_timing t;
    // per_request_overhead is charged on the host CPU by cpu_sdio_port, not by the bus model.
    t.completion_overhead = to_sc(c.completion_overhead);
    t.per_block_overhead = to_sc(c.per_block_overhead);
    t.dma_threshold_bytes = c.dma_threshold.bytes;
    t.dma_setup = to_sc(c.dma_setup);
    t.max_clock_hz = static_cast<uint32_t>(c.max_clock.hz);
    return t;
}

wilc::params sdio_strapped(wilc::params p) {
    p.bus_strap = wilc::host_bus::sdio;
    return p;
}

} // namespace

wilc1000_sdio_system::wilc1000_sdio_system(sc_module_name name,
                                           const config::scenario_config& scenario,
                                           const config::platform_profile& platform,
                                           const wilc::params& chip_params)
    : sc_module(name), m_sc(scenario), m_pf(with_sdio_host(platform, scenario)),
      m_chip_params(sdio_strapped(system::wilc_chip_params_for(scenario.device, chip_params))),
      m_cpu("cpu", platform.cpu.cores),
      m_sdio_host("sdio_host", sdio_timing_of(platform.sdio_host)), m_card_irq("card_irq", false),
      m_air("air", system::wilc_air_params(scenario.link)) {
    m_chip = std::make_unique<wilc1000>("wilc1000", m_chip_params);
    m_sdio_host.sdio_out.bind(m_chip->sdio_in);
    m_chip->sdio_irq.bind(m_card_irq);
    m_sdio_host.connect_card_irq(m_card_irq);
    m_chip->attach_air(m_air);
    m_port = std::make_unique<cpu_sdio_port>(
        m_cpu, m_sdio_host, to_sc(platform.sdio_host.per_request_overhead),
        platform.sdio_host.dma_threshold.bytes, to_sc(platform.sdio_host.irq_latency));

    const auto host_addr = system::endpoint_addr_of(m_chip_params.mac_addr, 0xc0a80102, 40000);
    const auto peer_addr =
        system::endpoint_addr_of({0x02, 0x00, 0x00, 0x00, 0xb0, 0x01}, 0xc0a80101, 5001);
    m_traffic =
        std::make_unique<traffic_session>(scenario.traffic, scenario.seed, host_addr, peer_addr);
    system::wilc_bind_traffic(*m_traffic, m_cpu, m_ndev, m_pf, m_sc, m_air);
    // Opt-in traces (scenario.trace): nothing is attached when they are off.
    if ((m_trace = trace::trace_session::open(scenario.trace))) {
        m_trace->attach_tasks();
        m_trace->attach_sdio(m_sdio_host, "sdio0",
                             std::make_unique<trace::wilc1000_sdio_decoder>([this](uint32_t a) {
                                 const wilc::reg_def* r = m_chip->core.registers().find(a);
                                 return r ? r->name : nullptr;
                             }));
        m_trace->attach_irq(m_card_irq, "wilc1000");
        m_trace->attach_power(m_chip->power(), "wilc1000");
    }
    SC_HAS_PROCESS(wilc1000_sdio_system);
    SC_THREAD(main);
}

wilc1000_sdio_system::~wilc1000_sdio_system() = default;

std::string wilc1000_sdio_system::enumerate_card() {
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
        m_sdio_host.set_ios(static_cast<uint32_t>(m_sc.device.bus_clock.hz), m_sc.device.bus_width);
    } catch (const std::invalid_argument& e) {
        return std::string("SDIO host: ") + e.what();
    }
    return {};
}

std::string wilc1000_sdio_system::bring_up() {
    system::apply_kernel_platform(m_pf, m_cpu);
    if (std::string err = system::load_driver_modules("wilc1000", m_sc.driver); !err.empty())
        return err;
    m_firmware = wilc::make_firmware_image(m_chip_params);
    lx_bus_firmware_register("atmel/wilc1000_wifi_firmware-1.bin", m_firmware.data(),
                             m_firmware.size());
    if (std::string err = enumerate_card(); !err.empty())
        return err;

    lx_bus_device_desc d{};
    d.name = "mmc0:0001:1";
    d.compatible = "microchip,wilc1000";
    ::sdio_func* func = lx_bus_sdio_create(&d, 1);
    lx_bus::sdio_attach(func, *m_port);
    if (int ret = lx_bus_sdio_probe(func, "wilc1000_sdio", m_sc.driver.variant.c_str()))
        return "wilc1000 sdio probe failed: " + std::to_string(ret);
    return system::wilc_bring_up_netdev("wilc1000_sdio", m_sc, m_chip_params, *m_traffic, m_ndev);
}

void wilc1000_sdio_system::main() {
    m_run.drive([this] { return bring_up(); }, *m_traffic, to_sc(m_sc.traffic.start));
}

report::report wilc1000_sdio_system::run() {
    std::string error;
    report::report r = run(error);
    if (!error.empty())
        throw run_error(error);
    return r;
}

report::report wilc1000_sdio_system::run(std::string& error) {
    error = m_run.simulate(to_sc(m_sc.duration_limit), m_trace.get());
    return error.empty() ? make_report() : report::report{};
}

report::report wilc1000_sdio_system::make_report() const {
    report::report r = system::start_report(m_run, *m_traffic, m_cpu, m_driver_log);
    const sc_time now = sc_time_stamp();
    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "wilc1000";
    d.bus = "sdio";
    d.bus_clock_hz = m_sc.device.bus_clock.hz;
    system::wilc_fill_device_report(*m_chip, m_chip_params, now, d);
    const auto& hs = m_sdio_host.stats();
    d.irqs = hs.card_irqs;
    d.bus_transactions = hs.cmd52 + hs.cmd53;
    d.bus_commands = {{"cmd52", hs.cmd52}, {"cmd53", hs.cmd53}};
    d.bus_bytes = hs.data_bytes;
    d.bus_busy_s = hs.bus_busy.to_seconds();
    r.devices.push_back(d);
    for (const auto& f : m_chip->findings().list())
        r.findings.push_back({f.time.to_seconds(), "wilc1000", "warning",
                              std::string(wilc::to_string(f.kind)) + ": " + f.text});
    return r;
}

} // namespace nicsim
