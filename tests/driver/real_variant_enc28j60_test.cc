// SPDX-License-Identifier: MIT
// The real-header ENC28J60 variants (kernel/cmake/RealVariant.cmake, every tree built) against
// the ENC28J60 chip model on a 10 Mb/s wire, through the calls the simulator makes
// (nicsim/lx_bus.h and the variant's table): probe with the board's MAC, ifup with the link
// reaching the carrier, a frame from the wire delivered byte for byte with its FCS, two frames
// out (a full one and a short one the chip pads), no skb left. Each tree's variant drives its own chip,
// wire and interrupt line (falling edge, as the board's device tree gives it) in one simulation.
// Run: ctest --test-dir build -R RealVariantEnc28j60
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <lx_kit/irq_line_source.h>

#include "bus/spi/spi_host.h"
#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "kernel/include/nicsim/lx_bus_emulation.h"
#include "models/enc28j60/enc28j60.h"
#include "models/ethernet/eth_crc.h"
#include "tests/models/ks8851_driver_frames.h"

// NICSIM_REAL_ANCHORS: X(anchor) per linked real-header variant (tests/driver/CMakeLists.txt).
#define X(anchor) extern "C" const struct nicsim_real_variant anchor;
NICSIM_REAL_ANCHORS
#undef X

namespace {

using namespace nicsim;
using nicsim::test::ks8851_driver::make_frame;

const nicsim_real_variant* const variants[] = {
#define X(anchor) &anchor,
    NICSIM_REAL_ANCHORS
#undef X
};

const uint8_t mac[6] = {0x02, 0x00, 0x28, 0x60, 0x00, 0x01};
const uint8_t peer[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};

eth::eth_wire_params ten_mbit() {
    eth::eth_wire_params w;
    w.rate_bps = 10e6; // 10BASE-T, the ENC28J60's only rate
    return w;
}

// One board: a chip with its wire, interrupt line and SPI host, and the driver of one
// real-header variant run on an lx_kit task.
struct board : sc_core::sc_module {
    const nicsim_real_variant* variant;
    int irq;
    enc28j60 chip;
    eth::eth_wire wire{"wire", ten_mbit()};
    irq_line line{"int_line", true};
    lx_kit::irq_line_source irq_src{line};
    spi::spi_host host{"spi", 1};
    std::vector<std::vector<uint8_t>> rx; // frames netif_rx delivered
    int probe_ret = 12345, open_ret = 12345, xmit_big = 12345, xmit_small = 12345;
    bool addr_ok = false;
    struct lx_bus_netdev_state after_open {}, after_rx{}, after_tx{};
    size_t skbs_live = 12345;
    bool done = false;

    board(const sc_core::sc_module_name& n, const nicsim_real_variant* v, int irq_number)
        : sc_module(n), variant(v), irq(irq_number), chip("enc28j60") {
        chip.irq.bind(line);
        chip.attach_wire(wire);
        host.spi_out[0].bind(chip.spi_in);
        // interrupts = <gpio IRQ_TYPE_EDGE_FALLING>, as the board's device tree has it.
        lx_kit::register_irq(irq, irq_src, LX_KIT_IRQ_EDGE_FALLING);
        lx_kit_task_create(name(), &board::driver, this);
    }
    static void sink(void* ctx, net_device*, const uint8_t* f, size_t len) {
        static_cast<board*>(ctx)->rx.emplace_back(f, f + len);
    }
    static void driver(void* arg) {
        auto& b = *static_cast<board*>(arg);
        lx_kit_sleep_ns(1'000'000); // past the chip's oscillator start-up
        const lx_bus_emulation* emu = b.variant->emulation;
        emu->init_modules();
        lx_bus_device_desc d{};
        d.name = "spi0.0";
        d.compatible = "microchip,enc28j60";
        d.max_speed_hz = 20'000'000;
        d.irq = b.irq;
        d.has_mac_address = 1;
        std::copy(mac, mac + 6, d.mac_address);
        spi_device* spi = lx_bus_spi_create_on(emu, &d);
        lx_bus::spi_attach(spi, b.host, 0);
        b.probe_ret = emu->spi_probe(spi, "enc28j60");
        net_device* dev = lx_bus_spi_netdev(spi);
        if (!dev)
            return;
        b.addr_ok = std::equal(mac, mac + 6, lx_bus_netdev_addr(dev));
        lx_emul_netdev_set_rx_sink(dev, &board::sink, &b);
        b.open_ret = lx_emul_netdev_open(dev);
        lx_kit_sleep_ns(20'000'000);
        lx_bus_netdev_state(dev, &b.after_open);
        b.wire.peer_send(make_frame(mac, peer, 300, 1));
        lx_kit_sleep_ns(20'000'000);
        lx_bus_netdev_state(dev, &b.after_rx);
        const auto out = make_frame(peer, mac, 1514, 4);
        b.xmit_big = lx_emul_netdev_xmit(dev, out.data(), out.size());
        lx_kit_sleep_ns(20'000'000);
        const auto small = make_frame(peer, mac, 42, 5);
        b.xmit_small = lx_emul_netdev_xmit(dev, small.data(), small.size());
        lx_kit_sleep_ns(20'000'000);
        lx_bus_netdev_state(dev, &b.after_tx);
        b.skbs_live = emu->skb_live_count();
        b.done = true;
    }
};

TEST(RealVariantEnc28j60, OnTheChipModelProbesLinksReceivesAndTransmits) {
    std::vector<std::unique_ptr<board>> boards;
    int irq = 11;
    for (const auto* v : variants) {
        std::string name = "board_" + std::string(v->kernel);
        std::replace(name.begin(), name.end(), '.', '_'); // SystemC names have no dots
        boards.push_back(std::make_unique<board>(name.c_str(), v, irq++));
    }
    sc_core::sc_start(sc_core::sc_time(300, sc_core::SC_MS));
    ASSERT_FALSE(lx_kit::aborted()) << lx_kit::abort_message();
    for (auto& b : boards) {
        SCOPED_TRACE(b->variant->kernel);
        EXPECT_TRUE(b->done);
        EXPECT_EQ(b->probe_ret, 0);
        EXPECT_TRUE(b->addr_ok);
        EXPECT_EQ(b->open_ret, 0);
        EXPECT_TRUE(b->after_open.running);
        EXPECT_TRUE(b->after_open.carrier);
        ASSERT_EQ(b->rx.size(), 1u);
        // The driver hands the frame up with its FCS (enc28j60_hw_rx takes the chip's byte count).
        const auto in = make_frame(mac, peer, 300, 1);
        ASSERT_EQ(b->rx[0].size(), in.size() + 4);
        EXPECT_TRUE(std::equal(in.begin(), in.end(), b->rx[0].begin()));
        EXPECT_TRUE(eth::fcs_ok(b->rx[0]));
        EXPECT_EQ(b->after_rx.rx_packets, 1u);
        EXPECT_EQ(b->xmit_big, 0);
        EXPECT_EQ(b->xmit_small, 0);
        ASSERT_EQ(b->wire.peer_received().size(), 2u);
        EXPECT_EQ(b->wire.peer_received()[0].payload(), make_frame(peer, mac, 1514, 4));
        auto padded = make_frame(peer, mac, 42, 5);
        padded.resize(60, 0);
        EXPECT_EQ(b->wire.peer_received()[1].payload(), padded);
        EXPECT_EQ(b->after_tx.tx_packets, 2u);
        EXPECT_EQ(b->skbs_live, 0u);
        for (const auto& f : b->chip.core.findings().list())
            ADD_FAILURE() << "chip finding: " << enc::to_string(f.kind) << ": " << f.text;
    }
}

} // namespace
