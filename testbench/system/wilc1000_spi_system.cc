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

namespace nicsim {

using namespace sc_core;
using system::to_sc;

namespace {

constexpr int wilc_irq_number = 1; // the Linux IRQ number of the GPIO the chip's IRQ pin is on
// How often the application retries while the driver has stopped the netdev queue.
// Assumption: the real stack is woken by netif_wake_queue; 50 us bounds the extra delay.
const sc_time queue_stopped_poll(50, SC_US);

air_link_params air_params(const config::link_config& l) {
    air_link_params p;
    if (l.phy_rate.bps > 0)
        p.phy_rate_bps = l.phy_rate.bps;
    p.mac_efficiency = l.mac_efficiency;
    p.record_peer_rx = false; // copies of every delivered frame are for model tests only
    return p;
}

// The scenario's device.timing / device.power overrides applied to the chip parameters.
wilc::params chip_params_for(const config::device_config& dev, wilc::params p) {
    const auto& t = dev.timing;
    if (t.wake_latency)
        p.wake_latency = to_sc(*t.wake_latency);
    if (t.sleep_entry_delay)
        p.sleep_entry_delay = to_sc(*t.sleep_entry_delay);
    if (t.deep_sleep_after)
        p.deep_sleep_after = to_sc(*t.deep_sleep_after);
    if (t.deep_wake_latency)
        p.deep_wake_latency = to_sc(*t.deep_wake_latency);
    if (t.boot_delay)
        p.boot_delay = to_sc(*t.boot_delay);
    if (dev.power.supply_voltage_v > 0)
        p.supply_voltage_v = dev.power.supply_voltage_v;
    for (const auto& [state, amps] : dev.power.state_current_a) {
        if (state == "sleep")
            p.sleep_current_a = amps;
        else if (state == "idle")
            p.idle_current_a = amps;
        else if (state == "wakeup")
            p.wakeup_current_a = amps;
        else if (state == "rx")
            p.rx_current_a = amps;
        else if (state == "tx")
            p.tx_current_a = amps;
        else
            throw run_error("device.power.currents: unknown wilc1000 power state '" + state + "'");
    }
    return p;
}

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
      m_chip_params(chip_params_for(scenario.device, chip_params)),
      m_cpu("cpu", platform.cpu.cores),
      m_spi_host("spi_host", 1, system::spi_host_timing_of(platform.spi_host)), m_irq("irq", true),
      m_air("air", air_params(scenario.link)) {
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
    bind_traffic();
    SC_HAS_PROCESS(wilc1000_spi_system);
    SC_THREAD(main);
}

wilc1000_spi_system::~wilc1000_spi_system() = default;

void wilc1000_spi_system::fail(const std::string& why) {
    if (m_failure.empty())
        m_failure = why;
    sc_stop();
}

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
    m_ndev = lx_bus_netdev_find("wilc1000_spi", variant.c_str(), 0);
    if (!m_ndev)
        return "wilc1000 probe registered no network device";
    lx_emul_netdev_set_rx_sink(
        m_ndev,
        [](void* ctx, ::net_device*, const uint8_t* frame, size_t len) {
            static_cast<traffic_session*>(ctx)->host_side().receive(frame, len);
        },
        m_traffic.get());

    // ip link set wlan0 up: firmware download, start, the init config exchange, MAC query.
    if (int ret = lx_emul_netdev_open(m_ndev))
        return "ndo_open (ifup) of " + std::string(lx_bus_netdev_name(m_ndev)) +
               " failed: " + std::to_string(ret) + " (see the driver log above)";
    // Stand-in for cfg80211 connect + NETDEV_UP power-save handling (docs/driver-build.md).
    const lx_bus_wilc_ops* ops = lx_bus_wilc_ops_find(variant.c_str());
    if (!ops)
        return "wilc1000 glue of variant '" + variant + "' is not linked";
    ops->set_bssid(m_ndev, m_chip_params.bssid.data());
    if (m_sc.driver.power_save) {
        if (int ret = ops->set_power_mgmt(m_ndev, 1))
            return "enabling power save (WID_POWER_MANAGEMENT) failed: " + std::to_string(ret);
    }
    return {};
}

void wilc1000_spi_system::bind_traffic() {
    // Host side: the real driver's xmit; the board CPU pays the stack cost.
    m_traffic->host_side().bind(
        system::host_traffic_port(m_cpu, m_ndev, m_pf.kernel, queue_stopped_poll));

    // Peer side: the far host answers through the access point after the link latency.
    traffic::port peer;
    const sc_time latency = to_sc(m_sc.link.latency);
    peer.send = [this, latency](std::vector<uint8_t> f) {
        m_air.peer_send(std::move(f), sc_time_stamp() + latency);
    };
    m_traffic->peer_side().bind(peer);
    m_air.set_peer_sink([this](const air_frame& f) {
        m_traffic->peer_side().receive(f.bytes.data(), f.bytes.size());
    });
}

void wilc1000_spi_system::main() {
    // Errors come back as text, not exceptions: throwing inside a SystemC thread confuses
    // AddressSanitizer's stack bookkeeping (it does not know the coroutine stacks).
    if (std::string err = bring_up(); !err.empty()) {
        fail(err);
        return;
    }
    m_up_time = sc_time_stamp();

    wait(to_sc(m_sc.traffic.start));
    m_traffic->start();
    if (!m_traffic->finished())
        wait(m_traffic->done_event());
    if (m_traffic->failed())
        fail("traffic failed: " + m_traffic->error());
    m_end_reason = "traffic complete";
    sc_stop();
}

report::report wilc1000_spi_system::run() {
    std::string error;
    report::report r = run(error);
    if (!error.empty())
        throw run_error(error);
    return r;
}

report::report wilc1000_spi_system::run(std::string& error) {
    lx_kit::set_abort_mode(lx_kit::abort_mode::stop_simulation);
    // SystemC's own info messages ("Simulation stopped by user.") are noise in a report.
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    sc_start(to_sc(m_sc.duration_limit));
    if (lx_kit::aborted())
        error = "driver run stopped: " + lx_kit::abort_message();
    else if (!m_failure.empty())
        error = m_failure;
    if (!error.empty())
        return {};
    if (m_end_reason.empty())
        m_end_reason = "duration limit";
    return make_report();
}

report::report wilc1000_spi_system::make_report() const {
    report::report r;
    const sc_time now = sc_time_stamp();
    r.sim_time_s = now.to_seconds();
    r.end_reason = m_end_reason;
    r.flows.push_back(m_traffic->flow_report());

    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "wilc1000";
    d.type = "wilc1000";
    d.bus = "spi";
    d.bus_clock_hz = m_sc.device.bus_clock.hz;
    const auto& cs = m_chip->core.stats();
    d.frames_tx = cs.tx_frames_to_air;
    d.frames_rx = cs.rx_frames_from_air - cs.rx_frames_dropped;
    auto& pm = m_chip->power();
    d.wakeups = pm.host_wake_requests();
    d.wake_time_s = pm.waking_time(now).to_seconds();
    const wilc::params& p = m_chip_params;
    d.supply_voltage_v = p.supply_voltage_v;
    d.power_is_proxy = true;
    d.power_source = "ATWILC3000 table (hardware-facts.md §1.3)";
    for (size_t i = 0; i < size_t(wilc::energy_state::count_); ++i) {
        const auto s = static_cast<wilc::energy_state>(i);
        report::power_state_report ps;
        ps.state = wilc::to_string(s);
        ps.time_s = pm.time_in(s, now).to_seconds();
        ps.current_a = pm.current_a(s);
        ps.energy_j = ps.time_s * ps.current_a * p.supply_voltage_v;
        d.power_states.push_back(ps);
    }
    const auto& hs = m_spi_host.stats();
    d.bus_transactions = hs.frames;
    d.bus_bytes = hs.bytes;
    d.bus_busy_s = hs.wire_time.to_seconds();
    r.devices.push_back(d);

    r.host_cpu_cores = m_cpu.cores();
    r.host_cpu_busy_s = m_cpu.busy_time().to_seconds();
    m_driver_log.append_findings(r.findings);
    for (const auto& f : m_chip->findings().list())
        r.findings.push_back({f.time.to_seconds(), "wilc1000", "warning",
                              std::string(wilc::to_string(f.kind)) + ": " + f.text});
    return r;
}

} // namespace nicsim
