// SPDX-License-Identifier: MIT
#include "devices/ks8851/ks8851_device.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <utility>

#include "host/board/bus_clock.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "devices/ks8851/ks8851_decoder.h"
#include "devices/chip_findings.h"
#include "devices/meter_report.h"
#include "devices/ethernet_link.h"
#include "devices/netdev_support.h"
#include "core/run_error.h"
#include "host/traffic_session.h"
#include "trace/trace_session.h"

namespace nicsim::bindings {

using namespace sc_core;
using board::to_sc;

namespace {

// The board's MAC (device tree local-mac-address). Locally administered.
constexpr std::array<uint8_t, 6> board_mac = {0x02, 0x4b, 0x53, 0x88, 0x51, 0x01};
// The far host on the other end of the cable.
constexpr std::array<uint8_t, 6> peer_mac = {0x02, 0x00, 0x00, 0x00, 0xb0, 0x01};

ks::params chip_params_for(const config::scenario_config& sc, ks::params p) {
    if (sc.device.type != "ks8851")
        throw run_error("ks8851 binding: device.type is " + sc.device.type + ", expected ks8851");
    if (sc.device.bus == config::bus_type::sdio)
        throw run_error("device.bus: ks8851 has no SDIO interface (supported: spi, par)");
    p.bus = sc.device.bus == config::bus_type::par ? ks::bus_variant::par : ks::bus_variant::spi;
    // device.power: the supply and the currents a scenario assumes (none are sourced).
    if (sc.device.power.supply_voltage_v > 0)
        p.supply_voltage_v = sc.device.power.supply_voltage_v;
    const std::pair<ks::power_state, std::optional<double>*> currents[] = {
        {ks::power_state::active, &p.active_current_a},
        {ks::power_state::idle, &p.idle_current_a},
        {ks::power_state::link_down, &p.link_down_current_a},
        {ks::power_state::energy_detect, &p.energy_detect_current_a},
        {ks::power_state::soft_power_down, &p.soft_power_down_current_a},
        {ks::power_state::power_saving, &p.power_saving_current_a}};
    for (const auto& [state, amps] : sc.device.power.state_current_a) {
        const auto it = std::find_if(std::begin(currents), std::end(currents), [&](const auto& c) {
            return state == ks::to_string(c.first);
        });
        if (it == std::end(currents))
            throw run_error("device.power.currents: unknown ks8851 power state '" + state + "'");
        *it->second = amps;
    }
    return p;
}

// Where the meter's currents come from, for the report.
std::string power_source(const ks::power_model& pm) {
    const energy_meter& m = pm.meter();
    std::string set, unset;
    for (std::size_t s = 0; s < m.size(); ++s) {
        std::string& list = m.current_a(s) ? set : unset;
        list += (list.empty() ? "" : ", ") + m.state_name(s);
    }
    if (set.empty())
        return "not modelled: no KSZ8851 supply-current figures (docs/sources.md#gaps)";
    return "scenario assumption (device.power.currents: " + set +
           (unset.empty() ? std::string() : "; not modelled: " + unset) + ")";
}

eth::eth_wire_params wire_params(const config::scenario_config& sc) {
    if (sc.link.mac_efficiency != 1.0)
        throw run_error("link.mac_efficiency: must be 1 for ks8851 (Ethernet framing, preamble "
                        "and IFG are modelled by the wire)");
    eth::eth_wire_params w;
    w.rate_bps = sc.link.phy_rate.bps;
    w.record_peer_rx = false; // long runs: the traffic layer checks the bytes
    return w;
}

} // namespace

ks8851_device::ks8851_device(board::board& b, const config::scenario_config& sc,
                             const ks::params& chip_params)
    : m_board(b), m_sc(sc), m_par(sc.device.bus == config::bus_type::par),
      m_params(chip_params_for(sc, chip_params)), m_irq("irq", true),
      m_wire("wire", wire_params(sc)) {
    if (m_sc.device.irq != config::irq_mode::gpio)
        throw run_error(std::string("device.irq: ks8851 needs its INTRN pin on a GPIO (gpio); "
                                    "the driver has no polled mode, got ") +
                        config::to_string(m_sc.device.irq));
    if (m_par)
        m_par_host = &b.par_host();
    else
        m_spi_host = &b.spi_host();
    m_chip = std::make_unique<ks8851>("ks8851", m_params);
    m_chip->irq.bind(m_irq);
    m_chip->attach_wire(m_wire);
    if (m_par)
        m_par_host->par_out.bind(m_chip->par_in());
    else
        m_spi_host->spi_out[0].bind(m_chip->spi_in());
}

uint64_t ks8851_device::bus_transactions() const {
    if (m_par)
        return m_par_host->stats().reads + m_par_host->stats().writes;
    return m_spi_host->stats().frames;
}

// Host = the board (the MAC the driver programs from the device tree); peer = the far host on
// the other end of the cable.
traffic::endpoint_addr ks8851_device::host_addr() const {
    return endpoint_addr_of(board_mac, 0xc0a80102, 40000);
}
traffic::endpoint_addr ks8851_device::peer_addr() const {
    return endpoint_addr_of(peer_mac, 0xc0a80101, 5201);
}

std::string ks8851_device::bring_up(traffic_session& traffic) {
    // The registry key of the scenario's build (kernel × variant).
    const std::string variant = m_sc.driver.build_key();
    // insmod: module parameters, then module_init of the variant's ks8851 modules.
    const std::string mod = driver_modname();
    if (std::string err = load_driver_modules("ks8851", m_sc.driver); !err.empty())
        return err;

    lx_bus_device_desc d{};
    d.irq = m_board.wire_gpio_irq(m_irq);
    d.has_mac_address = 1;
    std::copy(board_mac.begin(), board_mac.end(), d.mac_address);
    int ret = 0;
    if (m_par) {
        const uint64_t base = m_board.par_window_base();
        d.name = "8000000.ethernet";
        d.compatible = "micrel,ks8851-mll";
        d.mem_base[0] = base; // data port
        d.mem_size[0] = 2;
        d.mem_base[1] = base + 2; // command port (CMD on host A1, ks::params::par_cmd_addr_mask)
        d.mem_size[1] = 2;
        ::platform_device* pdev = lx_bus_platform_create(&d);
        lx_bus::mmio16_attach(pdev, m_board.mmio16_port());
        ret = lx_bus_platform_probe(pdev, mod.c_str(), variant.c_str());
    } else {
        d.name = "spi0.0";
        d.compatible = "micrel,ks8851";
        d.max_speed_hz = static_cast<uint32_t>(m_sc.device.bus_clock.hz);
        d.spi_mode = 0;
        ::spi_device* spi = lx_bus_spi_create(&d);
        lx_bus::spi_attach(spi, m_board.spi_port(0, m_sc.device.bus_clock), 0);
        ret = lx_bus_spi_probe(spi, mod.c_str(), variant.c_str());
    }
    if (ret)
        return mod + " probe failed: " + std::to_string(ret) + " (see the driver log above)";

    // ip link set eth0 up, then wait for the carrier (link-up seen through P1MBSR) as the stack
    // does before it transmits.
    if (std::string err = open_netdev(mod.c_str(), variant, traffic, m_ndev); !err.empty())
        return err;
    return wait_for_carrier(m_ndev, m_wire);
}

void ks8851_device::bind_traffic(traffic_session& traffic) {
    bind_ethernet_traffic(traffic, m_board.cpu(), m_ndev, m_board.profile().kernel, m_wire,
                          to_sc(m_sc.link.latency));
}

void ks8851_device::attach_traces(trace::trace_session& trace) {
    if (m_par)
        trace.attach_par(*m_par_host, "par0",
                         std::make_unique<trace::ks8851_par_decoder>(m_board.par_window_base(),
                                                                     m_params.par_cmd_addr_mask));
    else
        trace.attach_spi(*m_spi_host, "spi0", std::make_unique<trace::ks8851_spi_decoder>());
    trace.attach_irq(m_irq, "ks8851");
}

void ks8851_device::fill_report(report::report& r) const {
    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "ks8851";
    d.type = "ks8851";
    d.bus = m_par ? "par" : "spi";
    d.bus_clock_hz = m_par ? m_board.profile().par_bus.bus_clock.hz
                           : board::actual_bus_clock_hz(m_board.profile(), m_sc.device.bus,
                                                        m_sc.device.bus_clock);
    const auto& cs = m_chip->core.stats();
    d.frames_tx = cs.tx_frames;
    d.frames_rx = cs.rx_released;
    d.irqs = cs.isr_reads;
    // One meter: PMECR's power-management mode and, in normal mode, the PHY's link and wire
    // activity (models/ks8851/ks8851_power.h).
    const auto& pm = m_chip->core.power();
    d.meters.push_back(meter_report_of(pm.meter(), sc_time_stamp()));
    d.supply_voltage_v = pm.meter().supply_voltage_v();
    d.power_is_proxy = false;
    d.power_source = power_source(pm);
    d.bus_transactions = bus_transactions();
    if (m_par) {
        const auto& ps = m_par_host->stats();
        d.bus_bytes = 2 * (ps.reads + ps.writes);
        d.bus_busy_s = ps.busy.to_seconds();
    } else {
        const auto& hs = m_spi_host->stats();
        d.bus_bytes = hs.bytes;
        d.bus_busy_s = hs.wire_time.to_seconds();
    }
    r.devices.push_back(d);
    append_chip_findings(m_chip->findings(), "ks8851", r.findings);
    if (cs.rx_overruns > 0)
        r.findings.push_back(
            {sc_time_stamp().to_seconds(), "ks8851", "info",
             std::to_string(cs.rx_overruns) + " RX frames lost to RXQ overrun (ISR.RXOI); " +
                 the_driver(m_sc.driver) +
                 " does not enable or count RXOI, so its stats show them only as missing "
                 "rx_packets"});
}

const config::device_keys& ks8851_keys(); // ks8851_keys.cc

namespace {
class ks8851_binding_impl final : public binding {
  public:
    const config::device_keys& keys() const override { return ks8851_keys(); }
    std::unique_ptr<device> attach(board::board& b,
                                   const config::scenario_config& sc) const override {
        return std::make_unique<ks8851_device>(b, sc);
    }
};
} // namespace

const binding& ks8851_binding() {
    static const ks8851_binding_impl b;
    return b;
}

} // namespace nicsim::bindings
