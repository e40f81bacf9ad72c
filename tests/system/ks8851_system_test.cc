// SPDX-License-Identifier: MIT
// The real Linux 6.1 ks8851 driver (common + SPI or parallel bus file) in the system `nicsim run`
// composes from the shipped scenarios: bring-up to link-up, frames conserved byte for byte both
// ways, the address filter as the driver programs it, RX overrun when the host cannot keep up,
// and the driver's per-frame bus transaction counts (a regression guard for the emulation layer:
// any extra or missing register access in the driver's path changes them).
#include <gtest/gtest.h>

#include "tests/system/ks8851_system_support.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;

namespace {

// --- probe + open ---------------------------------------------------------------------------

void probe_open_link_up(bool par) {
    const auto l = ks_load(ks_scenario_for(par));
    ks8851_test_system sys("system", l.scenario, l.platform);
    bool hook_ran = false;
    sys.after_up = [&](ks8851_test_system& s) {
        hook_ran = true;
        ::net_device* dev = s.netdev();
        EXPECT_TRUE(ks_state(dev).carrier) << "carrier must come up via P1MBSR link status";
        EXPECT_TRUE(ks_state(dev).running);
        // The MAC the driver reports is the one it programmed into the chip (MARH = bytes 0-1).
        const uint8_t* mac = lx_bus_netdev_addr(dev);
        auto& c = s.chip().core;
        EXPECT_EQ(c.reg_peek(ks::reg::MARH), uint16_t(mac[0] << 8 | mac[1]));
        EXPECT_EQ(c.reg_peek(ks::reg::MARM), uint16_t(mac[2] << 8 | mac[3]));
        EXPECT_EQ(c.reg_peek(ks::reg::MARL), uint16_t(mac[4] << 8 | mac[5]));
        EXPECT_NE(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5], 0);
        // open() enabled RX and TX and the driver's interrupt set for its bus.
        EXPECT_TRUE(c.reg_peek(ks::reg::RXCR1) & ks::RXCR1_RXE);
        EXPECT_TRUE(c.reg_peek(ks::reg::TXCR) & ks::TXCR_TXE);
        EXPECT_EQ(c.reg_peek(ks::reg::IER), par ? 0xA100 : 0xE302);
        return false;
    };
    const auto r = sys.run();
    EXPECT_TRUE(hook_ran);
    EXPECT_EQ(r.end_reason, "test hook");
    ASSERT_EQ(r.devices.size(), 1u);
    EXPECT_EQ(r.devices[0].bus, par ? "par" : "spi");
    EXPECT_GT(r.devices[0].bus_transactions, 0u);
    EXPECT_TRUE(r.findings.empty()) << r.findings[0].message;
}

TEST(Ks8851System, SpiProbeOpenReachesLinkUpWithTheChipMac) {
    probe_open_link_up(false);
}
TEST(Ks8851System, ParProbeOpenReachesLinkUpWithTheChipMac) {
    probe_open_link_up(true);
}

// --- frames conserved both ways ---------------------------------------------------------------

void frames_conserved(bool par) {
    const auto l = ks_load(ks_scenario_for(par));
    ks8851_test_system sys("system", l.scenario, l.platform);
    const std::vector<size_t> sizes = {60, 61, 62, 63, 64, 100, 333, 777, 1001, 1499, 1514, 42};
    ks_rx_capture rx;
    std::vector<std::vector<uint8_t>> peer_rx;
    std::vector<std::vector<uint8_t>> sent_in, sent_out;
    sys.after_up = [&](ks8851_test_system& s) {
        ::net_device* dev = s.netdev();
        rx.attach(dev);
        s.wire().set_peer_sink([&](const eth::eth_frame& f) {
            EXPECT_TRUE(eth::fcs_ok(f.bytes)) << "frame " << f.id << " left with a bad FCS";
            peer_rx.push_back(f.payload());
        });
        const uint8_t* mac = lx_bus_netdev_addr(dev);
        uint8_t seed = 1;
        for (size_t n : sizes) {
            if (n >= 60) { // the peer's MAC pads shorter frames; keep RX frames exact
                sent_in.push_back(ks_frame(mac, ks_peer_mac.data(), n, seed++));
                s.wire().peer_send(sent_in.back());
            }
            sent_out.push_back(ks_frame(ks_peer_mac.data(), mac, n, seed++));
            ks_xmit(dev, sent_out.back());
        }
        sc_core::wait(sc_time(50, SC_MS));
        return false;
    };
    sys.run();
    ASSERT_EQ(rx.frames.size(), sent_in.size());
    for (size_t i = 0; i < sent_in.size(); ++i)
        EXPECT_EQ(rx.frames[i], sent_in[i])
            << "RX frame " << i << " (" << sent_in[i].size() << " bytes) differs";
    ASSERT_EQ(peer_rx.size(), sent_out.size());
    for (size_t i = 0; i < sent_out.size(); ++i) {
        auto expect = sent_out[i];
        if (expect.size() < 60)
            expect.resize(60, 0); // TXCR.TXPE: the chip pads short frames with zeros
        EXPECT_EQ(peer_rx[i], expect)
            << "TX frame " << i << " (" << sent_out[i].size() << " bytes) differs";
    }
    const auto st = ks_state(sys.netdev());
    EXPECT_EQ(st.rx_packets, sent_in.size());
    EXPECT_EQ(st.tx_packets, sent_out.size());
    const auto& cs = sys.chip().core.stats();
    EXPECT_EQ(cs.rx_overruns, 0u);
    EXPECT_EQ(cs.rx_released, sent_in.size());
    EXPECT_EQ(sys.chip().core.txq_free(), 6144u) << "every TX frame left the TXQ";
    EXPECT_EQ(sys.chip().core.rxq_used(), 0u) << "every RX frame was released";
    for (const auto& f : sys.chip().findings().list())
        ADD_FAILURE() << "chip finding: " << ks::to_string(f.kind) << ": " << f.text;
}

TEST(Ks8851System, SpiFramesConservedByteForByteBothWays) {
    frames_conserved(false);
}
TEST(Ks8851System, ParFramesConservedByteForByteBothWays) {
    frames_conserved(true);
}

// --- address filter as the driver programs it -------------------------------------------------

TEST(Ks8851System, SpiFilterPassesUnicastAndBroadcastDropsOtherUnicastAndMulticast) {
    const auto l = ks_load(ks_scenario_for(false));
    ks8851_test_system sys("system", l.scenario, l.platform);
    ks_rx_capture rx;
    std::vector<std::vector<uint8_t>> expect;
    uint64_t filtered_before = 0;
    sys.after_up = [&](ks8851_test_system& s) {
        ::net_device* dev = s.netdev();
        rx.attach(dev);
        filtered_before = s.chip().core.stats().rx_filtered;
        const uint8_t* mac = lx_bus_netdev_addr(dev);
        const uint8_t bcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        const uint8_t mcast[6] = {0x01, 0x00, 0x5E, 0x00, 0x00, 0xFB}; // mDNS group
        const uint8_t ipv6_mc[6] = {0x33, 0x33, 0x00, 0x00, 0x00, 0x01};
        uint8_t other[6];
        std::memcpy(other, mac, 6);
        other[5] ^= 0x01; // one bit away from ours
        const auto ucast = ks_frame(mac, ks_peer_mac.data(), 200, 1);
        const auto bc = ks_frame(bcast, ks_peer_mac.data(), 64, 2);
        s.wire().peer_send(ucast);
        s.wire().peer_send(ks_frame(other, ks_peer_mac.data(), 200, 3));
        s.wire().peer_send(bc);
        s.wire().peer_send(ks_frame(mcast, ks_peer_mac.data(), 90, 4));
        s.wire().peer_send(ks_frame(ipv6_mc, ks_peer_mac.data(), 90, 5));
        expect = {ucast, bc};
        sc_core::wait(sc_time(20, SC_MS));
        return false;
    };
    sys.run();
    // Default rx mode (no IFF_PROMISC/ALLMULTI, empty multicast list): the driver's
    // ks8851_set_rx_mode programs RXPAFMA | RXUE | RXBE | RXE | RXFCE, no RXME.
    EXPECT_EQ(sys.chip().core.reg_peek(ks::reg::RXCR1) &
                  (ks::RXCR1_RXME | ks::RXCR1_RXBE | ks::RXCR1_RXUE | ks::RXCR1_RXAE),
              ks::RXCR1_RXBE | ks::RXCR1_RXUE);
    EXPECT_EQ(rx.frames, expect);
    EXPECT_EQ(sys.chip().core.stats().rx_filtered - filtered_before, 3u);
    EXPECT_EQ(ks_state(sys.netdev()).rx_packets, 2u);
}

// --- RX overrun -------------------------------------------------------------------------------

TEST(Ks8851System, SpiRxOverrunWhenTheHostCannotKeepUpShowsInChipAndDriverCounts) {
    const auto l = ks_load(ks_scenario_for(false));
    ks8851_test_system sys("system", l.scenario, l.platform);
    constexpr unsigned burst = 60; // 60 full frames back to back: 7.4 ms at 100 Mbit/s
    ks_rx_capture rx;
    sys.after_up = [&](ks8851_test_system& s) {
        ::net_device* dev = s.netdev();
        rx.attach(dev);
        const uint8_t* mac = lx_bus_netdev_addr(dev);
        for (unsigned i = 0; i < burst; ++i)
            s.wire().peer_send(ks_frame(mac, ks_peer_mac.data(), 1514, uint8_t(i)));
        sc_core::wait(sc_time(100, SC_MS));
        return false;
    };
    const auto r = sys.run();
    const auto& cs = sys.chip().core.stats();
    // 25 MHz SPI drains ~16 Mbit/s, the wire fills at 100 Mbit/s into a 12 KB RXQ (8 frames).
    EXPECT_GT(cs.rx_overruns, 10u);
    EXPECT_EQ(cs.rx_frames + cs.rx_overruns, burst) << "every frame was stored or overran";
    const auto st = ks_state(sys.netdev());
    // The 6.1 driver neither enables nor counts RXOI (IER 0xE302 has no RXOI bit; nothing
    // increments rx_over_errors or rx_dropped): the loss shows in its stats only as the missing
    // rx_packets. Assert exactly that, so a driver or emulation change that starts counting is
    // noticed.
    EXPECT_EQ(st.rx_packets, burst - cs.rx_overruns);
    EXPECT_EQ(st.rx_dropped, 0u);
    EXPECT_EQ(rx.frames.size(), burst - cs.rx_overruns);
    // The report names the overrun.
    bool reported = false;
    for (const auto& f : r.findings)
        reported = reported || f.message.find("RXQ overrun") != std::string::npos;
    EXPECT_TRUE(reported);
}

} // namespace
