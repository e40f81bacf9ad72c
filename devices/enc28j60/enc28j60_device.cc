// SPDX-License-Identifier: MIT
#include "devices/enc28j60/enc28j60_device.h"

#include <algorithm>

#include "host/board/bus_clock.h"
#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "devices/enc28j60/enc28j60_decoder.h"
#include "devices/chip_findings.h"
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
constexpr std::array<uint8_t, 6> mac_of_board = {0x02, 0x04, 0xa3, 0x28, 0x60, 0x01};
// The far host on the other end of the cable.
constexpr std::array<uint8_t, 6> peer_mac = {0x02, 0x00, 0x00, 0x00, 0xb0, 0x01};

eth::eth_wire_params wire_params(const config::scenario_config& sc) {
    if (sc.device.type != "enc28j60")
        throw run_error("enc28j60 binding: device.type is " + sc.device.type +
                        ", expected enc28j60");
    if (sc.device.bus != config::bus_type::spi)
        throw run_error(std::string("device.bus: enc28j60 has only an SPI interface, got ") +
                        config::to_string(sc.device.bus));
    if (sc.link.mac_efficiency != 1.0)
        throw run_error("link.mac_efficiency: must be 1 for enc28j60 (Ethernet framing, preamble "
                        "and IFG are modelled by the wire)");
    eth::eth_wire_params w;
    w.rate_bps = sc.link.phy_rate.bps;
    w.record_peer_rx = false; // long runs: the traffic layer checks the bytes
    return w;
}

} // namespace

const std::array<uint8_t, 6>& enc28j60_device::board_mac() {
    return mac_of_board;
}

enc28j60_device::enc28j60_device(board::board& b, const config::scenario_config& sc,
                                 const enc::params& chip_params)
    : m_board(b), m_sc(sc), m_irq("irq", true), m_wire("wire", wire_params(sc)) {
    if (m_sc.device.irq != config::irq_mode::gpio)
        throw run_error(std::string("device.irq: enc28j60 needs its INT pin on a GPIO (gpio); "
                                    "the driver has no polled mode, got ") +
                        config::to_string(m_sc.device.irq));
    m_spi_host = &b.spi_host();
    m_chip = std::make_unique<enc28j60>("enc28j60", chip_params);
    m_chip->irq.bind(m_irq);
    m_chip->attach_wire(m_wire);
    m_spi_host->spi_out[0].bind(m_chip->spi_in);
}

// Host = the board (the MAC the driver programs from the device tree); peer = the far host on
// the other end of the cable.
traffic::endpoint_addr enc28j60_device::host_addr() const {
    return endpoint_addr_of(mac_of_board, 0xc0a80102, 40000);
}
traffic::endpoint_addr enc28j60_device::peer_addr() const {
    return endpoint_addr_of(peer_mac, 0xc0a80101, 5201);
}

std::string enc28j60_device::bring_up(traffic_session& traffic) {
    // The registry key of the scenario's build (kernel × variant).
    const std::string variant = m_sc.driver.build_key();
    if (std::string err = load_driver_modules("enc28j60", m_sc.driver); !err.empty())
        return err;

    // The device-tree node: interrupts = <gpio IRQ_TYPE_EDGE_FALLING> (the binding's example
    // and the chip's native polarity), local-mac-address, spi-max-frequency = device.bus_clock.
    lx_bus_device_desc d{};
    d.name = "spi0.0";
    d.compatible = "microchip,enc28j60";
    d.irq = m_board.wire_gpio_irq(m_irq, LX_KIT_IRQ_EDGE_FALLING);
    d.has_mac_address = 1;
    std::copy(mac_of_board.begin(), mac_of_board.end(), d.mac_address);
    d.max_speed_hz = static_cast<uint32_t>(m_sc.device.bus_clock.hz);
    d.spi_mode = 0;
    ::spi_device* spi = lx_bus_spi_create(&d);
    lx_bus::spi_attach(spi, m_board.spi_port(0, m_sc.device.bus_clock), 0);
    if (int ret = lx_bus_spi_probe(spi, "enc28j60", variant.c_str()); ret)
        return "enc28j60 probe failed: " + std::to_string(ret) + " (see the driver log above)";

    // ip link set eth0 up, then wait for the carrier (the driver reads PHSTAT2.LSTAT in open
    // and on the link interrupt) as the stack does before it transmits.
    if (std::string err = open_netdev("enc28j60", variant, traffic, m_ndev); !err.empty())
        return err;
    return wait_for_carrier(m_ndev, m_wire);
}

void enc28j60_device::bind_traffic(traffic_session& traffic) {
    bind_ethernet_traffic(traffic, m_board.cpu(), m_ndev, m_board.profile().kernel, m_wire,
                          to_sc(m_sc.link.latency));
}

void enc28j60_device::attach_traces(trace::trace_session& trace) {
    trace.attach_spi(*m_spi_host, "spi0",
                     std::make_unique<trace::enc28j60_spi_decoder>(m_chip->core.registers()));
    trace.attach_irq(m_irq, "enc28j60");
}

void enc28j60_device::fill_report(report::report& r) const {
    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "enc28j60";
    d.type = "enc28j60";
    d.bus = "spi";
    d.bus_clock_hz =
        board::actual_bus_clock_hz(m_board.profile(), m_sc.device.bus, m_sc.device.bus_clock);
    const auto& cs = m_chip->stats();
    d.frames_tx = cs.tx_frames;
    d.frames_rx = cs.pktdec;    // packets the driver took out of the RX ring (ECON2.PKTDEC)
    d.irqs = cs.irq_assertions; // falling edges of INT: the interrupts the GPIO saw
    d.power_is_proxy = false;
    d.power_source = "not modelled: ENC28J60 supply currents are not in the model";
    const auto& hs = m_spi_host->stats();
    d.bus_transactions = hs.frames;
    d.bus_bytes = hs.bytes;
    d.bus_busy_s = hs.wire_time.to_seconds();
    r.devices.push_back(d);
    append_chip_findings(m_chip->core.findings(), "enc28j60", r.findings);
    if (cs.rx_overruns > 0)
        r.findings.push_back({sc_time_stamp().to_seconds(), "enc28j60", "info",
                              std::to_string(cs.rx_overruns) +
                                  " RX frames lost to a full RX ring (EIR.RXERIF); " +
                                  the_driver(m_sc.driver) +
                                  " counts rx_dropped only when it finds the ring without free "
                                  "space while it handles RXERIF"});
}

const config::device_keys& enc28j60_keys(); // enc28j60_keys.cc

namespace {
class enc28j60_binding_impl final : public binding {
  public:
    const config::device_keys& keys() const override { return enc28j60_keys(); }
    std::unique_ptr<device> attach(board::board& b,
                                   const config::scenario_config& sc) const override {
        return std::make_unique<enc28j60_device>(b, sc);
    }
};
} // namespace

const binding& enc28j60_binding() {
    static const enc28j60_binding_impl b;
    return b;
}

} // namespace nicsim::bindings
