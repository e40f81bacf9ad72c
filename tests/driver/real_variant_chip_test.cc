// SPDX-License-Identifier: MIT
// The real-header KS8851 variants (kernel/cmake/RealVariant.cmake, every tree built) against the
// KSZ8851SNL chip model, through the calls the simulator makes (nicsim/lx_bus.h and the
// variant's table): probe, ifup with the link reaching the carrier, three frames from the wire
// (two for the board, one filtered by the chip) and two frames out, byte for byte, as
// tests/models/ks8851_driver_test.cc checks the shadow-header build; then a burst of frames
// whose memory the stack accounts, one refused while the chip's TX queue is full and offered
// again, each owner told once when the driver frees it. Each tree's variant drives
// its own chip, wire and interrupt line in the one simulation.
// Run: ctest --test-dir build -R RealVariantChip
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
#include "models/ethernet/eth_crc.h"
#include "models/ks8851/ks8851.h"
#include "models/ks8851/ks8851_regs.h"
#include "tests/models/ks8851_driver_frames.h"

// NICSIM_REAL_ANCHORS: X(anchor) per linked real-header variant (tests/driver/CMakeLists.txt).
#define X(anchor) extern "C" const struct nicsim_real_variant anchor;
NICSIM_REAL_ANCHORS
#undef X

namespace {

using namespace nicsim;

const nicsim_real_variant* const variants[] = {
#define X(anchor) &anchor,
    NICSIM_REAL_ANCHORS
#undef X
};

using namespace nicsim::test::ks8851_driver;

ks::params spi_chip() {
    ks::params p;
    p.bus = ks::bus_variant::spi;
    return p;
}

// One board: a chip with its wire, interrupt line and SPI host, and the driver of one
// real-header variant run on an lx_kit task.
struct board : sc_core::sc_module {
    const nicsim_real_variant* variant;
    int irq;
    ks8851 chip;
    eth::eth_wire wire{"wire"};
    irq_line line{"intrn", true};
    lx_kit::irq_line_source irq_src{line};
    spi::spi_host host{"spi", 1};
    std::vector<std::vector<uint8_t>> rx; // frames netif_rx delivered
    // What the driver task saw.
    int probe_ret = 12345, open_ret = 12345, xmit_big = 12345, xmit_small = 12345;
    bool addr_ok = false;
    struct lx_bus_netdev_state after_open {}, after_rx{}, after_tx{};
    size_t skbs_live = 12345, peer_frames_after_tx = 12345;
    // The owned burst: the stack's accounting told per frame (cookies), the refusals, the wakes.
    std::vector<std::vector<uint8_t>> burst;
    std::vector<uint64_t> freed;
    unsigned busy = 0, wakes = 0;
    size_t skbs_live_after_burst = 12345;
    bool done = false;

    board(const sc_core::sc_module_name& n, const nicsim_real_variant* v, int irq_number)
        : sc_module(n), variant(v), irq(irq_number), chip("ks8851", spi_chip()) {
        chip.irq.bind(line);
        chip.attach_wire(wire);
        host.spi_out[0].bind(chip.spi_in());
        lx_kit::register_irq(irq, irq_src);
        lx_kit_task_create(name(), &board::driver, this);
    }
    static void sink(void* ctx, net_device*, const uint8_t* f, size_t len) {
        static_cast<board*>(ctx)->rx.emplace_back(f, f + len);
    }
    static void freed_fn(void* ctx, uint64_t cookie) {
        static_cast<board*>(ctx)->freed.push_back(cookie);
    }
    static void wake_fn(void* ctx, net_device*) { static_cast<board*>(ctx)->wakes++; }
    static void driver(void* arg) {
        auto& b = *static_cast<board*>(arg);
        const lx_bus_emulation* emu = b.variant->emulation;
        emu->init_modules();
        lx_bus_device_desc d{};
        d.name = "spi0.0";
        d.compatible = "micrel,ks8851";
        d.max_speed_hz = 40'000'000;
        d.irq = b.irq;
        d.has_mac_address = 1;
        std::copy(mac, mac + 6, d.mac_address);
        spi_device* spi = lx_bus_spi_create_on(emu, &d);
        lx_bus::spi_attach(spi, b.host, 0);
        b.probe_ret = emu->spi_probe(spi, "ks8851");
        net_device* dev = lx_bus_spi_netdev(spi);
        if (!dev)
            return;
        b.addr_ok = std::equal(mac, mac + 6, lx_bus_netdev_addr(dev));
        lx_emul_netdev_set_rx_sink(dev, &board::sink, &b);
        b.open_ret = lx_emul_netdev_open(dev);
        lx_kit_sleep_ns(5'000'000);
        lx_bus_netdev_state(dev, &b.after_open);
        b.wire.peer_send(make_frame(mac, peer, 300, 1));
        b.wire.peer_send(make_frame(std::vector<uint8_t>(6, 0xFF).data(), peer, 60, 2));
        b.wire.peer_send(make_frame(peer, peer, 100, 3)); // not for the board: filtered
        lx_kit_sleep_ns(5'000'000);
        lx_bus_netdev_state(dev, &b.after_rx);
        const auto out = make_frame(peer, mac, 1514, 4);
        b.xmit_big = lx_emul_netdev_xmit(dev, out.data(), out.size());
        const auto small = make_frame(peer, mac, 42, 5);
        b.xmit_small = lx_emul_netdev_xmit(dev, small.data(), small.size());
        lx_kit_sleep_ns(5'000'000);
        lx_bus_netdev_state(dev, &b.after_tx);
        b.skbs_live = emu->skb_live_count();
        b.peer_frames_after_tx = b.wire.peer_received().size();
        // Six full frames back to back, each owned by the stack: the chip's 6 KB TX queue holds
        // four, so the driver refuses one (NETDEV_TX_BUSY, queue stopped) and the stack offers
        // it again after the driver woke the queue.
        lx_emul_netdev_set_queue_wake(dev, &board::wake_fn, &b);
        for (int i = 0; i < 6; i++)
            b.burst.push_back(make_frame(peer, mac, 1514, uint8_t(10 + i)));
        for (size_t i = 0; i < b.burst.size();) {
            if (lx_emul_netdev_xmit_owned(dev, b.burst[i].data(), b.burst[i].size(),
                                          &board::freed_fn, &b, i + 1) == 0) {
                i++;
                continue;
            }
            b.busy++;
            lx_kit_sleep_ns(1'000'000);
        }
        lx_kit_sleep_ns(10'000'000);
        b.skbs_live_after_burst = emu->skb_live_count();
        b.done = true;
    }
};

TEST(RealVariantChip, Ks8851OnTheChipModelProbesLinksReceivesTransmitsAndRequeues) {
    std::vector<std::unique_ptr<board>> boards;
    int irq = 9;
    for (const auto* v : variants) {
        std::string name = "board_" + std::string(v->kernel);
        std::replace(name.begin(), name.end(), '.', '_'); // SystemC names have no dots
        boards.push_back(std::make_unique<board>(name.c_str(), v, irq++));
    }
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_MS));
    ASSERT_FALSE(lx_kit::aborted()) << lx_kit::abort_message();
    for (auto& b : boards) {
        SCOPED_TRACE(b->variant->kernel);
        EXPECT_TRUE(b->done);
        EXPECT_EQ(b->probe_ret, 0);
        EXPECT_TRUE(b->addr_ok);
        EXPECT_EQ(b->open_ret, 0);
        EXPECT_TRUE(b->after_open.running);
        EXPECT_TRUE(b->after_open.carrier) << "link up must reach the carrier via P1MBSR";
        auto& c = b->chip.core;
        // The rx-mode handshake completed: RXCR1 cleared (RXPSI) and rewritten by the IRQ thread.
        EXPECT_EQ(c.reg_peek(ks::reg::RXCR1), 0x0CA1);
        EXPECT_EQ(c.reg_peek(ks::reg::MARH), 0x0212);
        EXPECT_EQ(c.reg_peek(ks::reg::MARL), 0x789A);

        ASSERT_EQ(b->rx.size(), 2u);
        EXPECT_EQ(b->rx[0], make_frame(mac, peer, 300, 1));
        EXPECT_EQ(b->rx[1], make_frame(std::vector<uint8_t>(6, 0xFF).data(), peer, 60, 2));
        EXPECT_EQ(c.stats().rx_filtered, 1u);
        EXPECT_EQ(b->after_rx.rx_packets, 2u);
        EXPECT_EQ(b->after_rx.netif_rx_calls, 2u);

        EXPECT_EQ(b->xmit_big, 0);
        EXPECT_EQ(b->xmit_small, 0);
        ASSERT_EQ(b->peer_frames_after_tx, 2u);
        ASSERT_GE(b->wire.peer_received().size(), 2u);
        EXPECT_EQ(b->wire.peer_received()[0].payload(), make_frame(peer, mac, 1514, 4));
        EXPECT_TRUE(eth::fcs_ok(b->wire.peer_received()[0].bytes));
        auto padded = make_frame(peer, mac, 42, 5);
        padded.resize(60, 0);
        EXPECT_EQ(b->wire.peer_received()[1].payload(), padded);
        EXPECT_EQ(b->after_tx.tx_packets, 2u);
        EXPECT_EQ(c.txq_free(), 6144u);
        EXPECT_EQ(c.rxq_used(), 0u);
        EXPECT_EQ(b->skbs_live, 0u);

        EXPECT_GE(b->busy, 1u);
        EXPECT_GE(b->wakes, 1u);
        EXPECT_EQ(b->freed, (std::vector<uint64_t>{1, 2, 3, 4, 5, 6})); // each once, in order
        ASSERT_EQ(b->wire.peer_received().size(), 2u + b->burst.size());
        for (size_t i = 0; i < b->burst.size(); i++)
            EXPECT_EQ(b->wire.peer_received()[2 + i].payload(), b->burst[i]) << i;
        EXPECT_EQ(b->skbs_live_after_burst, 0u);
        for (const auto& f : c.findings().list())
            ADD_FAILURE() << "chip finding: " << ks::to_string(f.kind) << ": " << f.text;
    }
}

} // namespace
