// SPDX-License-Identifier: MIT
// Per-frame bus transaction counts of the real 6.1 ks8851 driver, counted at the bus models while
// the driver moves controlled frames. Expected counts are derived from the 6.1 code path
// (the per-register spi_sync design of the driver, read in ks8851_common.c /
// ks8851_spi.c / ks8851_par.c of 6.1.192):
//
//  SPI (one chip-select frame per spi_sync):
//   IRQ handler run:  ISR read, ISR write-back                                       = 2
//     + RXI:          RXFCTR read                                                   + 1
//     + TXI:          TXMIR read                                                    + 1
//   per RX frame:     RXFHSR, RXFHBCR, RXFDPR, RXQCR|SDA, FIFO read, RXQCR|RRXEF    = 6
//   per TX frame:     RXQCR|SDA, FIFO write, RXQCR, TXQCR|METFE                     = 4
//   per TX batch:     TXMIR read at the end of ks8851_tx_work                       = 1
//  So an RX-only interrupt costs 3 + 6 per frame, a lone TX frame 4 + 1 + (TXI) 3 = 8.
//
//  PAR (one bus access per ioread16/iowrite16; a register access = command + data = 2):
//   IRQ handler run with RXI: ISR rd, ISR wr, RXFCTR rd                          = 6
//   per RX frame of n bytes (without CRC): 5 register accesses + (ALIGN(n,4) + 8)/2 FIFO reads
//   per TX frame of n bytes: TXMIR, RXQCR|SDA, 2 header words + ALIGN(n,4)/2 data words,
//     RXQCR, TXQCR|METFE, and one TXQCR poll (METFE already clear)  = 12 + ALIGN(n,4)/2
//   (PAR enables no TXI, so TX raises no interrupt.)
//
// The interrupt count comes from the chip (reads of ISR: the handler reads it once per run).
#include <gtest/gtest.h>

#include "tests/system/ks8851_system_support.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;

namespace {

struct counts {
    uint64_t bus = 0, irqs = 0;
};
counts snapshot(ks8851_test_system& s) {
    return {s.bus_transactions(), s.chip().core.stats().isr_reads};
}

TEST(Ks8851BusCounts, SpiSingleRxFrameIsNineSpiSyncs) {
    const auto l = ks_load(ks_scenario_for(false));
    ks8851_test_system sys("system", l.scenario, l.platform);
    counts d1, d2;
    uint64_t burst_irqs = 0;
    constexpr unsigned burst = 7;
    sys.after_up = [&](ks8851_test_system& s) {
        const uint8_t* mac = lx_bus_netdev_addr(s.netdev());
        sc_core::wait(sc_time(10, SC_MS)); // let the open sequence's interrupts settle
        auto c0 = snapshot(s);
        s.wire().peer_send(ks_frame(mac, ks_peer_mac.data(), 1000, 1));
        sc_core::wait(sc_time(10, SC_MS));
        auto c1 = snapshot(s);
        d1 = {c1.bus - c0.bus, c1.irqs - c0.irqs};
        // A burst: the driver reads out every frame RXFCTR reports per interrupt.
        for (unsigned i = 0; i < burst; ++i)
            s.wire().peer_send(ks_frame(mac, ks_peer_mac.data(), 700, uint8_t(10 + i)));
        sc_core::wait(sc_time(20, SC_MS));
        auto c2 = snapshot(s);
        d2 = {c2.bus - c1.bus, c2.irqs - c1.irqs};
        burst_irqs = d2.irqs;
        return false;
    };
    sys.run();
    EXPECT_EQ(d1.irqs, 1u) << "one isolated frame, one interrupt (duration timer)";
    EXPECT_EQ(d1.bus, 3u + 6u);
    EXPECT_GE(burst_irqs, 1u);
    EXPECT_LT(burst_irqs, burst) << "the RX thresholds coalesce a burst";
    EXPECT_EQ(d2.bus, 3 * d2.irqs + 6 * burst);
    EXPECT_EQ(ks_state(sys.netdev()).rx_packets, 1u + burst);
}

TEST(Ks8851BusCounts, SpiSingleTxFrameIsEightSpiSyncs) {
    const auto l = ks_load(ks_scenario_for(false));
    ks8851_test_system sys("system", l.scenario, l.platform);
    counts d;
    sys.after_up = [&](ks8851_test_system& s) {
        const uint8_t* mac = lx_bus_netdev_addr(s.netdev());
        sc_core::wait(sc_time(10, SC_MS));
        auto c0 = snapshot(s);
        ks_xmit(s.netdev(), ks_frame(ks_peer_mac.data(), mac, 1514, 3));
        sc_core::wait(sc_time(10, SC_MS));
        auto c1 = snapshot(s);
        d = {c1.bus - c0.bus, c1.irqs - c0.irqs};
        return false;
    };
    sys.run();
    EXPECT_EQ(d.irqs, 1u) << "TXIC on the batch's last frame: one TXI";
    EXPECT_EQ(d.bus, 4u + 1u + 3u);
    EXPECT_EQ(ks_state(sys.netdev()).tx_packets, 1u);
    EXPECT_EQ(sys.wire().stats().station_frames, 1u);
}

TEST(Ks8851BusCounts, ParRxAndTxFramesCostTheDriversAccesses) {
    const auto l = ks_load(ks_scenario_for(true));
    ks8851_test_system sys("system", l.scenario, l.platform);
    counts rx1, tx1, tx2;
    constexpr unsigned rx_len = 1001, tx_len = 1514, tx_short = 42;
    sys.after_up = [&](ks8851_test_system& s) {
        const uint8_t* mac = lx_bus_netdev_addr(s.netdev());
        sc_core::wait(sc_time(10, SC_MS));
        auto c0 = snapshot(s);
        s.wire().peer_send(ks_frame(mac, ks_peer_mac.data(), rx_len, 1));
        sc_core::wait(sc_time(10, SC_MS));
        auto c1 = snapshot(s);
        ks_xmit(s.netdev(), ks_frame(ks_peer_mac.data(), mac, tx_len, 2));
        sc_core::wait(sc_time(10, SC_MS));
        auto c2 = snapshot(s);
        ks_xmit(s.netdev(), ks_frame(ks_peer_mac.data(), mac, tx_short, 3));
        sc_core::wait(sc_time(10, SC_MS));
        auto c3 = snapshot(s);
        rx1 = {c1.bus - c0.bus, c1.irqs - c0.irqs};
        tx1 = {c2.bus - c1.bus, c2.irqs - c1.irqs};
        tx2 = {c3.bus - c2.bus, c3.irqs - c2.irqs};
        return false;
    };
    sys.run();
    EXPECT_EQ(rx1.irqs, 1u);
    EXPECT_EQ(rx1.bus, 6u + 10u + (ks_align4(rx_len) + 8) / 2);
    EXPECT_EQ(tx1.irqs, 0u) << "the PAR driver enables no TXI";
    EXPECT_EQ(tx1.bus, 12u + ks_align4(tx_len) / 2);
    EXPECT_EQ(tx2.bus, 12u + ks_align4(tx_short) / 2) << "the driver writes skb->len, unpadded";
    const auto st = ks_state(sys.netdev());
    EXPECT_EQ(st.rx_packets, 1u);
    EXPECT_EQ(st.tx_packets, 2u);
}

} // namespace
