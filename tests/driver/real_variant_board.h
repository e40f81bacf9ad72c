// SPDX-License-Identifier: MIT
// What the real-header variant tests on chip models share (real_variant_chip_test.cc: the
// KS8851; real_variant_enc28j60_test.cc): the variants linked into the test (NICSIM_REAL_ANCHORS,
// X(anchor) each, from tests/driver/CMakeLists.txt), one board per variant, and a driver task's
// bring-up and transmit through the calls the simulator makes (nicsim/lx_bus.h and the variant's
// table) with the checks common to every chip.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bus/spi/spi_host.h"
#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "kernel/include/nicsim/lx_bus_emulation.h"
#include "models/ethernet/eth_crc.h"
#include "models/ethernet/eth_wire.h"
#include "tests/models/ks8851_driver_frames.h"

#define X(anchor) extern "C" const struct nicsim_real_variant anchor;
NICSIM_REAL_ANCHORS
#undef X

namespace nicsim::test::real_variant {

using ks8851_driver::make_frame;
using ks8851_driver::peer;

inline const nicsim_real_variant* const variants[] = {
#define X(anchor) &anchor,
    NICSIM_REAL_ANCHORS
#undef X
};

// One Board(name, variant, irq) per linked variant, named after the tree, IRQs from first_irq.
template <class Board> std::vector<std::unique_ptr<Board>> boards(int first_irq) {
    std::vector<std::unique_ptr<Board>> all;
    for (const auto* v : variants) {
        std::string name = "board_" + std::string(v->kernel);
        std::replace(name.begin(), name.end(), '.', '_'); // SystemC names have no dots
        all.push_back(std::make_unique<Board>(name.c_str(), v, first_irq++));
    }
    return all;
}

// What a driver task saw of its board.
struct traffic {
    std::vector<std::vector<uint8_t>> rx; // frames netif_rx delivered
    int probe_ret = 12345, open_ret = 12345, xmit_big = 12345, xmit_small = 12345;
    bool addr_ok = false;
    struct lx_bus_netdev_state after_open {}, after_rx{}, after_tx{};
    size_t skbs_live = 12345, peer_frames_after_tx = 12345;
    bool done = false;

    static void sink(void* ctx, net_device*, const uint8_t* f, size_t len) {
        static_cast<traffic*>(ctx)->rx.emplace_back(f, f + len);
    }
};

// The board's SPI device "spi0.0" as its device tree describes it, with its MAC address.
inline lx_bus_device_desc spi_device_desc(const char* compatible, uint32_t max_speed_hz, int irq,
                                          const uint8_t* mac) {
    lx_bus_device_desc d{};
    d.name = "spi0.0";
    d.compatible = compatible;
    d.max_speed_hz = max_speed_hz;
    d.irq = irq;
    d.has_mac_address = 1;
    std::copy(mac, mac + 6, d.mac_address);
    return d;
}

// Probe of `driver_name` on an SPI device of `emu` described by d (with the board's MAC) on
// `host`, then ifup; the net device after `settle_ns`, or NULL when the probe registered none.
inline net_device* bring_up(traffic& t, const lx_bus_emulation* emu, const lx_bus_device_desc& d,
                            spi::spi_host& host, const char* driver_name, uint64_t settle_ns) {
    emu->init_modules();
    spi_device* spi = lx_bus_spi_create_on(emu, &d);
    lx_bus::spi_attach(spi, host, 0);
    t.probe_ret = emu->spi_probe(spi, driver_name);
    net_device* dev = lx_bus_spi_netdev(spi);
    if (!dev)
        return nullptr;
    t.addr_ok = std::equal(d.mac_address, d.mac_address + 6, lx_bus_netdev_addr(dev));
    lx_emul_netdev_set_rx_sink(dev, &traffic::sink, &t);
    t.open_ret = lx_emul_netdev_open(dev);
    lx_kit_sleep_ns(settle_ns);
    lx_bus_netdev_state(dev, &t.after_open);
    return dev;
}

// A full frame and a short one (the chip pads it) to the peer, `gap_ns` after each.
inline void transmit_two(traffic& t, net_device* dev, const lx_bus_emulation* emu,
                         const eth::eth_wire& wire, const uint8_t* mac, uint64_t gap_ns) {
    const auto out = make_frame(peer, mac, 1514, 4);
    t.xmit_big = lx_emul_netdev_xmit(dev, out.data(), out.size());
    lx_kit_sleep_ns(gap_ns);
    const auto small = make_frame(peer, mac, 42, 5);
    t.xmit_small = lx_emul_netdev_xmit(dev, small.data(), small.size());
    lx_kit_sleep_ns(gap_ns);
    lx_bus_netdev_state(dev, &t.after_tx);
    t.skbs_live = emu->skb_live_count();
    t.peer_frames_after_tx = wire.peer_received().size();
}

// The checks every chip shares: the task ran to its end, probe and ifup succeeded with the
// board's MAC, the link reached the carrier, both frames left byte for byte with their FCS (the
// short one padded to 60), the driver freed every skb.
inline void expect_bring_up_and_transmit(const traffic& t, const eth::eth_wire& wire,
                                         const uint8_t* mac) {
    EXPECT_TRUE(t.done);
    EXPECT_EQ(t.probe_ret, 0);
    EXPECT_TRUE(t.addr_ok);
    EXPECT_EQ(t.open_ret, 0);
    EXPECT_TRUE(t.after_open.running);
    EXPECT_TRUE(t.after_open.carrier);
    EXPECT_EQ(t.xmit_big, 0);
    EXPECT_EQ(t.xmit_small, 0);
    ASSERT_EQ(t.peer_frames_after_tx, 2u);
    ASSERT_GE(wire.peer_received().size(), 2u);
    EXPECT_EQ(wire.peer_received()[0].payload(), make_frame(peer, mac, 1514, 4));
    EXPECT_TRUE(eth::fcs_ok(wire.peer_received()[0].bytes));
    auto padded = make_frame(peer, mac, 42, 5);
    padded.resize(60, 0);
    EXPECT_EQ(wire.peer_received()[1].payload(), padded);
    EXPECT_EQ(t.after_tx.tx_packets, 2u);
    EXPECT_EQ(t.skbs_live, 0u);
}

} // namespace nicsim::test::real_variant
