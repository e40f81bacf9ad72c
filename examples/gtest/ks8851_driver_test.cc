// SPDX-License-Identifier: MIT
// Example: GoogleTests of the 6.1 ks8851 driver against nicsim's KSZ8851SNL model, written as a
// user writes them for a driver change (docs/driver-testing.md "GoogleTest").
#include <nicsim/scenario_test.h>

using nicsim::testing::shipped_config;

class Ks8851 : public nicsim::testing::ScenarioTest {};

// Expectations in the `expect:` syntax of scenario files, evaluated by nicsim itself.
TEST_F(Ks8851, AnswersEveryPingWithinTwoMilliseconds) {
    Check(shipped_config("ks8851-spi-ping.yaml"),
          {"findings.error == 0", "flows[0].packets_received == 5", "rtt_ms.max < 2ms",
           "skbs_in_flight == 0"},
          {"traffic.count=5"});
}

// The JSON report for any other assertion: each ping is one frame each way.
TEST_F(Ks8851, SendsOneFramePerPing) {
    const auto r = Check(shipped_config("ks8851-spi-ping.yaml"), {}, {"traffic.count=3"});
    EXPECT_EQ(r.at("devices[eth0].frames_tx").get<int>(), 3);
    EXPECT_EQ(r.at("flows[0].packets_received").get<int>(), 3);
}

// Throughput over the 25 MHz SPI bus of the shipped scenario, on a shorter transfer.
TEST_F(Ks8851, ReceivesAtLeastFifteenMegabitsPerSecondOverSpi) {
    Check(shipped_config("ks8851-spi-iperf-rx.yaml"), {"goodput_bps >= 15Mbit/s"},
          {"traffic.bytes=2MiB"});
}

// A fault from configs/faults/: the cable is out for 200 ms; the driver must see the carrier
// go and come back, and TCP must still deliver every byte.
TEST_F(Ks8851, RecoversFromALinkDownAndDeliversEveryByte) {
    const auto r = Check(shipped_config("faults/ks8851-spi-link-down.yaml"),
                         {"end_reason == \"traffic complete\"", "findings.error == 0"});
    EXPECT_EQ(r.at("totals.bytes").get<long long>(), 1 << 20);
    EXPECT_EQ(r.at("faults[link_down].outcome"), "recovered");
    EXPECT_EQ(r.at("faults[link_down].effects[link came back up].count").get<int>(), 1);
}
