// SPDX-License-Identifier: MIT
// The unmodified Linux 6.1 ks8851 driver (common + SPI / parallel bus files) against the chip
// model: probe (chip id, soft reset, MAC), open (QMU reset, RX/TX setup, rx-mode handshake via
// RXPSI, link via P1MBSR), then a frame in each direction, byte for byte.
#include <gtest/gtest.h>

#include <lx_kit/irq_line_source.h>

#include "bus/par/par_host.h"
#include "bus/spi/spi_host.h"
#include "models/ethernet/eth_crc.h"
#include "models/ks8851/ks8851.h"
#include "models/ks8851/ks8851_regs.h"
#include "kernel/include/nicsim/driver_variant.h"
#include "tests/driver/probe_support.h"
#include "tests/models/ks8851_driver_frames.h"

using namespace nicsim;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// Referencing the variant table makes the linker pull every driver variant (and its module
// registration) out of the static nicsim_drivers library.
bool ks8851_variant_linked() {
    for (auto* const* v = nicsim_driver_variants; *v; ++v)
        if (std::string((*v)->driver) == "ks8851")
            return true;
    return false;
}

using namespace nicsim::test::ks8851_driver;

struct driver_bench : sc_core::sc_module {
    ks8851 chip;
    eth::eth_wire wire{"wire"};
    irq_line line{"intrn", true};
    lx_kit::irq_line_source irq_src{line};
    std::unique_ptr<spi::spi_host> spi_host;
    std::unique_ptr<par::par_host> par_host;
    std::vector<std::vector<uint8_t>> rx; // frames netif_rx delivered
    std::function<void(driver_bench&)> body;
    bool done = false; // the body ran to its end (a blocked driver call would leave it false)

    SC_HAS_PROCESS(driver_bench);
    driver_bench(const sc_core::sc_module_name& n, ks::bus_variant bus,
                 std::function<void(driver_bench&)> b)
        : sc_module(n), chip("ks8851", params(bus)), body(std::move(b)) {
        chip.irq.bind(line);
        chip.attach_wire(wire);
        if (bus == ks::bus_variant::spi) {
            spi_host = std::make_unique<spi::spi_host>("spi", 1);
            spi_host->spi_out[0].bind(chip.spi_in());
        } else {
            par_host = std::make_unique<par::par_host>("eim", par::par_timing{}, 0x10000000, 4);
            par_host->par_out.bind(chip.par_in());
        }
        lx_kit::register_irq(9, irq_src);
        SC_THREAD(run);
    }
    static ks::params params(ks::bus_variant bus) {
        ks::params p;
        p.bus = bus;
        return p;
    }
    static void sink(void* ctx, net_device*, const uint8_t* f, size_t len) {
        static_cast<driver_bench*>(ctx)->rx.emplace_back(f, f + len);
    }
    void run() {
        body(*this);
        done = true;
        sc_core::sc_stop();
    }
};

// Probe + open, then RX one frame and TX one frame; checks common to both buses.
void exercise(driver_bench& b, net_device* dev) {
    ASSERT_NE(dev, nullptr);
    EXPECT_TRUE(std::equal(mac, mac + 6, lx_bus_netdev_addr(dev)));
    lx_emul_netdev_set_rx_sink(dev, &driver_bench::sink, &b);
    ASSERT_EQ(lx_emul_netdev_open(dev), 0);
    sc_core::wait(sc_time(5, SC_MS));
    struct lx_bus_netdev_state st {};
    lx_bus_netdev_state(dev, &st);
    EXPECT_TRUE(st.carrier) << "link up must reach the carrier via P1MBSR";
    auto& c = b.chip.core;
    // The rx-mode handshake completed: RXCR1 was cleared (RXPSI) and rewritten by the IRQ thread.
    EXPECT_EQ(c.reg_peek(ks::reg::RXCR1), 0x0CA1);
    EXPECT_EQ(c.reg_peek(ks::reg::MARH), 0x0212);
    EXPECT_EQ(c.reg_peek(ks::reg::MARL), 0x789A);

    const auto in = make_frame(mac, peer, 300, 1);
    b.wire.peer_send(in);
    const auto bc = make_frame(std::vector<uint8_t>(6, 0xFF).data(), peer, 60, 2);
    b.wire.peer_send(bc);
    const auto other = make_frame(peer, peer, 100, 3); // not for us: filtered
    b.wire.peer_send(other);
    sc_core::wait(sc_time(5, SC_MS));
    ASSERT_EQ(b.rx.size(), 2u);
    EXPECT_EQ(b.rx[0], in);
    EXPECT_EQ(b.rx[1], bc);
    EXPECT_EQ(c.stats().rx_filtered, 1u);

    const auto out = make_frame(peer, mac, 1514, 4);
    EXPECT_EQ(lx_emul_netdev_xmit(dev, out.data(), out.size()), 0);
    const auto small = make_frame(peer, mac, 42, 5);
    EXPECT_EQ(lx_emul_netdev_xmit(dev, small.data(), small.size()), 0);
    sc_core::wait(sc_time(5, SC_MS));
    ASSERT_EQ(b.wire.peer_received().size(), 2u);
    EXPECT_EQ(b.wire.peer_received()[0].payload(), out);
    EXPECT_TRUE(eth::fcs_ok(b.wire.peer_received()[0].bytes));
    auto padded = small;
    padded.resize(60, 0);
    EXPECT_EQ(b.wire.peer_received()[1].payload(), padded);
    lx_bus_netdev_state(dev, &st);
    EXPECT_EQ(st.rx_packets, 2u);
    EXPECT_EQ(st.tx_packets, 2u);
    EXPECT_EQ(c.txq_free(), 6144u);
    EXPECT_EQ(c.rxq_used(), 0u);
    for (const auto& f : c.findings().list())
        ADD_FAILURE() << "chip finding: " << ks::to_string(f.kind) << ": " << f.text;
    EXPECT_FALSE(lx_kit::aborted()) << lx_kit::abort_message();
}

} // namespace

TEST(Ks8851Driver, SpiProbeOpenRxTx) {
    ASSERT_TRUE(ks8851_variant_linked());
    test::init_all_modules();
    driver_bench b("bench", ks::bus_variant::spi, [](driver_bench& b) {
        lx_bus_device_desc d{};
        d.name = "spi1.0";
        d.compatible = "micrel,ks8851";
        d.max_speed_hz = 25'000'000;
        d.irq = 9;
        d.has_mac_address = 1;
        std::copy(mac, mac + 6, d.mac_address);
        spi_device* spi = lx_bus_spi_create(&d);
        lx_bus::spi_attach(spi, *b.spi_host, 0);
        ASSERT_EQ(lx_bus_spi_probe(spi, "ks8851_spi", "pristine"), 0);
        exercise(b, lx_bus_netdev_find("ks8851_spi", "pristine", 0));
        EXPECT_GT(b.chip.spi_frontend().stats().rxq_reads, 0u);
    });
    sc_core::sc_start(sc_time(100, SC_MS));
    EXPECT_TRUE(b.done);
    EXPECT_EQ(b.rx.size(), 2u);
}

TEST(Ks8851Driver, ParProbeOpenRxTx) {
    ASSERT_TRUE(ks8851_variant_linked());
    test::init_all_modules();
    driver_bench b("bench", ks::bus_variant::par, [](driver_bench& b) {
        lx_bus_device_desc d{};
        d.name = "ks8851-mll";
        d.compatible = "micrel,ks8851-mll";
        d.mem_base[0] = 0x10000000; // data port
        d.mem_size[0] = 2;
        d.mem_base[1] = 0x10000002; // command port (CMD on A1)
        d.mem_size[1] = 2;
        d.irq = 9;
        d.has_mac_address = 1;
        std::copy(mac, mac + 6, d.mac_address);
        platform_device* pdev = lx_bus_platform_create(&d);
        lx_bus::mmio16_attach(pdev, *b.par_host);
        ASSERT_EQ(lx_bus_platform_probe(pdev, "ks8851_par", "pristine"), 0);
        exercise(b, lx_bus_netdev_find("ks8851_par", "pristine", 0));
        EXPECT_GT(b.chip.par_frontend().stats().fifo_reads, 0u);
    });
    sc_core::sc_start(sc_time(100, SC_MS));
    EXPECT_TRUE(b.done);
    EXPECT_EQ(b.rx.size(), 2u);
}
