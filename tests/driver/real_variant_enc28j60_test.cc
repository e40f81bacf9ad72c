// SPDX-License-Identifier: MIT
// The real-header ENC28J60 variants (kernel/cmake/RealVariant.cmake, every tree built) against
// the ENC28J60 chip model on a 10 Mb/s wire, through the calls the simulator makes
// (nicsim/lx_bus.h and the variant's table): probe with the board's MAC, ifup with the link
// reaching the carrier, a frame from the wire delivered byte for byte with its FCS, two frames
// out (a full one and a short one the chip pads), no skb left. Each tree's variant drives its
// own chip, wire and interrupt line (falling edge, as the board's device tree gives it) in one
// simulation.
// Run: ctest --test-dir build -R RealVariantEnc28j60
#include <lx_kit/irq_line_source.h>

#include "models/enc28j60/enc28j60.h"
#include "tests/driver/real_variant_board.h"

namespace {

using namespace nicsim;
using namespace nicsim::test::real_variant;

const uint8_t mac[6] = {0x02, 0x00, 0x28, 0x60, 0x00, 0x01};

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
    traffic t;

    board(const sc_core::sc_module_name& n, const nicsim_real_variant* v, int irq_number)
        : sc_module(n), variant(v), irq(irq_number), chip("enc28j60") {
        chip.irq.bind(line);
        chip.attach_wire(wire);
        host.spi_out[0].bind(chip.spi_in);
        // interrupts = <gpio IRQ_TYPE_EDGE_FALLING>, as the board's device tree has it.
        lx_kit::register_irq(irq, irq_src, LX_KIT_IRQ_EDGE_FALLING);
        lx_kit_task_create(name(), &board::driver, this);
    }
    static void driver(void* arg) {
        auto& b = *static_cast<board*>(arg);
        lx_kit_sleep_ns(1'000'000); // past the chip's oscillator start-up
        const lx_bus_emulation* emu = b.variant->emulation;
        const lx_bus_device_desc d = spi_device_desc("microchip,enc28j60", 20'000'000, b.irq, mac);
        net_device* dev = bring_up(b.t, emu, d, b.host, "enc28j60", 20'000'000);
        if (!dev)
            return;
        b.wire.peer_send(make_frame(mac, peer, 300, 1));
        lx_kit_sleep_ns(20'000'000);
        lx_bus_netdev_state(dev, &b.t.after_rx);
        transmit_two(b.t, dev, emu, b.wire, mac, 20'000'000);
        b.t.done = true;
    }
};

TEST(RealVariantEnc28j60, OnTheChipModelProbesLinksReceivesAndTransmits) {
    auto all = boards<board>(11);
    sc_core::sc_start(sc_core::sc_time(300, sc_core::SC_MS));
    ASSERT_FALSE(lx_kit::aborted()) << lx_kit::abort_message();
    for (auto& b : all) {
        SCOPED_TRACE(b->variant->kernel);
        expect_bring_up_and_transmit(b->t, b->wire, mac);
        // The driver hands the frame up with its FCS (enc28j60_hw_rx takes the chip's byte count).
        ASSERT_EQ(b->t.rx.size(), 1u);
        const auto in = make_frame(mac, peer, 300, 1);
        ASSERT_EQ(b->t.rx[0].size(), in.size() + 4);
        EXPECT_TRUE(std::equal(in.begin(), in.end(), b->t.rx[0].begin()));
        EXPECT_TRUE(eth::fcs_ok(b->t.rx[0]));
        EXPECT_EQ(b->t.after_rx.rx_packets, 1u);
        for (const auto& f : b->chip.core.findings().list())
            ADD_FAILURE() << "chip finding: " << enc::to_string(f.kind) << ": " << f.text;
    }
}

} // namespace
