// SPDX-License-Identifier: MIT
// The real-header KS8851 variants (kernel/cmake/RealVariant.cmake, every tree built) against the
// KSZ8851SNL chip model, through the calls the simulator makes (nicsim/lx_bus.h and the
// variant's table): probe, ifup with the link reaching the carrier, three frames from the wire
// (two for the board, one filtered by the chip) and two frames out, byte for byte, as
// tests/models/ks8851_driver_test.cc checks the shadow-header build; then a burst of frames
// whose memory the stack accounts, one refused while the chip's TX queue is full and offered
// again, each owner told once when the driver frees it. Each tree's variant drives its own chip,
// wire and interrupt line in the one simulation.
// Run: ctest --test-dir build -R RealVariantChip
#include <lx_kit/irq_line_source.h>

#include "models/ks8851/ks8851.h"
#include "models/ks8851/ks8851_regs.h"
#include "tests/driver/real_variant_board.h"

namespace {

using namespace nicsim;
using namespace nicsim::test::real_variant;
using nicsim::test::ks8851_driver::mac;

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
    traffic t;
    // The owned burst: the stack's accounting told per frame (cookies), the refusals, the wakes.
    std::vector<std::vector<uint8_t>> burst;
    std::vector<uint64_t> freed;
    unsigned busy = 0, wakes = 0;
    size_t skbs_live_after_burst = 12345;

    board(const sc_core::sc_module_name& n, const nicsim_real_variant* v, int irq_number)
        : sc_module(n), variant(v), irq(irq_number), chip("ks8851", spi_chip()) {
        chip.irq.bind(line);
        chip.attach_wire(wire);
        host.spi_out[0].bind(chip.spi_in());
        lx_kit::register_irq(irq, irq_src);
        lx_kit_task_create(name(), &board::driver, this);
    }
    static void freed_fn(void* ctx, uint64_t cookie) {
        static_cast<board*>(ctx)->freed.push_back(cookie);
    }
    static void wake_fn(void* ctx, net_device*) { static_cast<board*>(ctx)->wakes++; }
    static void driver(void* arg) {
        auto& b = *static_cast<board*>(arg);
        const lx_bus_emulation* emu = b.variant->emulation;
        const lx_bus_device_desc d = spi_device_desc("micrel,ks8851", 40'000'000, b.irq, mac);
        net_device* dev = bring_up(b.t, emu, d, b.host, "ks8851", 5'000'000);
        if (!dev)
            return;
        b.wire.peer_send(make_frame(mac, peer, 300, 1));
        b.wire.peer_send(make_frame(std::vector<uint8_t>(6, 0xFF).data(), peer, 60, 2));
        b.wire.peer_send(make_frame(peer, peer, 100, 3)); // not for the board: filtered
        lx_kit_sleep_ns(5'000'000);
        lx_bus_netdev_state(dev, &b.t.after_rx);
        transmit_two(b.t, dev, emu, b.wire, mac, 5'000'000);
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
        b.t.done = true;
    }
};

TEST(RealVariantChip, Ks8851OnTheChipModelProbesLinksReceivesTransmitsAndRequeues) {
    auto all = boards<board>(9);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_MS));
    ASSERT_FALSE(lx_kit::aborted()) << lx_kit::abort_message();
    for (auto& b : all) {
        SCOPED_TRACE(b->variant->kernel);
        expect_bring_up_and_transmit(b->t, b->wire, mac);
        auto& c = b->chip.core;
        // The rx-mode handshake completed: RXCR1 cleared (RXPSI) and rewritten by the IRQ thread.
        EXPECT_EQ(c.reg_peek(ks::reg::RXCR1), 0x0CA1);
        EXPECT_EQ(c.reg_peek(ks::reg::MARH), 0x0212);
        EXPECT_EQ(c.reg_peek(ks::reg::MARL), 0x789A);

        ASSERT_EQ(b->t.rx.size(), 2u);
        EXPECT_EQ(b->t.rx[0], make_frame(mac, peer, 300, 1));
        EXPECT_EQ(b->t.rx[1], make_frame(std::vector<uint8_t>(6, 0xFF).data(), peer, 60, 2));
        EXPECT_EQ(c.stats().rx_filtered, 1u);
        EXPECT_EQ(b->t.after_rx.rx_packets, 2u);
        EXPECT_EQ(b->t.after_rx.netif_rx_calls, 2u);
        EXPECT_EQ(c.txq_free(), 6144u);
        EXPECT_EQ(c.rxq_used(), 0u);

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
