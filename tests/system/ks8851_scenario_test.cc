// SPDX-License-Identifier: MIT
// The shipped KS8851 scenarios through ks8851_test_system, as `nicsim run` runs them: the SPI RX
// scenario stays within ±15 % of its calibration point (docs/sources.md#cal-ks8851-revpi), the ping
// scenario reports RTT statistics (rtt_ms in --json), and the report carries interrupts and
// frames per interrupt.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tools/report/json_writer.h"
#include "tests/system/ks8851_system_support.h"

using namespace nicsim;
using namespace nicsim::test;

namespace {

TEST(Ks8851Scenario, SpiIperfRxReproducesTheCalibrationPoint) {
    const auto l = ks_load("ks8851-spi-iperf-rx.yaml");
    ks8851_test_system sys("system", l.scenario, l.platform);
    sys.ifdown_after_run = false; // live model state is compared with the report below
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    ASSERT_EQ(r.flows.size(), 1u);
    EXPECT_EQ(r.flows[0].bytes, l.scenario.traffic.bytes.bytes);
    const double target = 15960e3; // iperf3 Kbit/s, RevPi, 25 MHz SPI
    EXPECT_NEAR(r.flows[0].goodput_bps, target, 0.15 * target);
    const auto& d = r.devices.at(0);
    EXPECT_EQ(d.irqs, sys.chip().core.stats().isr_reads);
    ASSERT_TRUE(report::frames_per_irq(d));
    EXPECT_GT(*report::frames_per_irq(d), 1.0) << "RX threshold coalescing under load";
    // No window cap stands in for congestion control any more: the 100 Mbit/s peer overruns the
    // chip's 12 KB RX queue, the lost segments are retransmitted and CUBIC backs off.
    EXPECT_GT(sys.chip().core.stats().rx_overruns, 0u);
    ASSERT_NE(sys.traffic().linux_flow(), nullptr);
    EXPECT_GT(sys.traffic().linux_flow()->result().retransmits, 0u);
    // The report says how: SACK (both hosts' default) and RACK repair every overrun without a
    // retransmission timeout, each hole resent about once.
    ASSERT_TRUE(r.flows[0].tcp);
    const auto& tcp = *r.flows[0].tcp;
    EXPECT_TRUE(tcp.sack);
    EXPECT_EQ(tcp.retransmits, sys.traffic().linux_flow()->result().retransmits);
    EXPECT_GT(tcp.fast_recoveries, 0u);
    EXPECT_EQ(tcp.timeouts, 0u);
    EXPECT_GE(tcp.sacked_segments, tcp.retransmits);
    EXPECT_LE(tcp.retransmits, sys.chip().core.stats().rx_overruns * 11 / 10);
    for (const auto& f : r.findings)
        EXPECT_EQ(f.severity, "info") << f.message; // the RXOI count the 6.1 driver lacks
}

TEST(Ks8851Scenario, SpiPingReportsRttMinAvgMaxMdev) {
    const auto l = ks_load("ks8851-spi-ping.yaml", {"traffic.count=20"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    uint64_t bringup_irqs = 0; // the rx-mode handshake (RXPSI) during ifup
    sys.after_up = [&](ks8851_test_system& s) {
        bringup_irqs = s.chip().core.stats().isr_reads;
        return true;
    };
    const auto r = sys.run();
    EXPECT_EQ(bringup_irqs, 1u);
    ASSERT_EQ(r.flows.size(), 1u);
    const auto& f = r.flows[0];
    EXPECT_EQ(f.kind, "ping");
    ASSERT_TRUE(f.rtt.has_value());
    // The board's receive latencies are seeded distributions (rpi-class p99s): RTTs spread.
    EXPECT_LT(f.rtt->min_ms, f.rtt->avg_ms);
    EXPECT_LT(f.rtt->avg_ms, f.rtt->max_ms);
    EXPECT_GT(f.rtt->mdev_ms, 0.0);
    // A lone reply waits for the RX duration timer the driver programs (RXDTTR = 1000 us).
    EXPECT_GE(f.rtt->min_ms, 1.0);
    EXPECT_LT(f.rtt->max_ms, 5.0);
    // One interrupt per reply (duration timer) plus one TXI per request.
    const auto& d = r.devices.at(0);
    EXPECT_EQ(d.irqs - bringup_irqs, 40u);
    EXPECT_EQ(d.frames_tx, 20u);
    EXPECT_EQ(d.frames_rx, 20u);

    const auto j = report::to_json(r);
    const auto& jr = j["flows"][0]["rtt_ms"];
    ASSERT_TRUE(jr.is_object());
    EXPECT_DOUBLE_EQ(jr["min"].get<double>(), f.rtt->min_ms);
    EXPECT_DOUBLE_EQ(jr["avg"].get<double>(), f.rtt->avg_ms);
    EXPECT_DOUBLE_EQ(jr["max"].get<double>(), f.rtt->max_ms);
    EXPECT_DOUBLE_EQ(jr["mdev"].get<double>(), f.rtt->mdev_ms);
    EXPECT_TRUE(j["flows"][0].contains("goodput_bps"));
    EXPECT_EQ(j["devices"][0]["irqs"].get<uint64_t>(), d.irqs);
    EXPECT_DOUBLE_EQ(j["devices"][0]["frames_per_irq"].get<double>(), 40.0 / double(d.irqs));
    // And it reads back.
    const auto back = report::read_json(report::write_json(r), "ping.json");
    ASSERT_TRUE(back.flows[0].rtt.has_value());
    EXPECT_EQ(back.flows[0].rtt->avg_ms, f.rtt->avg_ms);
    EXPECT_EQ(back.devices[0].irqs, d.irqs);
}

TEST(Ks8851Scenario, ParIperfTxIsWireLimited) {
    // 8 MiB: long enough that slow start (from 10 segments) is a small part of the run.
    const auto l = ks_load("ks8851-par-iperf-tx.yaml", {"traffic.bytes=8MiB"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_EQ(r.flows.at(0).bytes, 8u << 20);
    // 1448 payload bytes (MSS with timestamps) per 1538 byte times on 100BASE-TX: at most
    // 94.1 Mbit/s of goodput. The EIM moves a frame in ~50 us (< 123 us on the wire), so the
    // wire is the limit.
    EXPECT_LT(r.flows[0].goodput_bps, 100e6 * 1448 / 1538 * 1.0001);
    EXPECT_GT(r.flows[0].goodput_bps, 85e6);
    EXPECT_EQ(r.devices.at(0).bus, "par");
    EXPECT_TRUE(r.findings.empty());
}

TEST(Ks8851Scenario, SpiIperfTxCompletesThroughTheDriversFlowControl) {
    const auto l = ks_load("ks8851-spi-iperf-tx.yaml", {"traffic.bytes=1MiB"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_EQ(r.flows.at(0).bytes, 1u << 20);
    // SPI at 25 MHz caps the rate well below the wire.
    EXPECT_LT(r.flows[0].goodput_bps, 25e6);
    EXPECT_GT(r.flows[0].goodput_bps, 5e6);
    EXPECT_GT(r.devices.at(0).irqs, 0u);
    EXPECT_TRUE(r.findings.empty());
}

// A patch variant of the ks8851 driver (kernel/patches/ks8851/rx-coalescing-params): its module
// parameters reach the chip's RX threshold registers at ndo_open. With the pristine thresholds a
// lone frame (a ping reply) raises its interrupt only when RXDTTR's 1 ms expires, so every RTT of
// the pristine driver is above 1 ms; an interrupt after every frame takes that millisecond out.
TEST(Ks8851Scenario, RxCoalescingVariantProgramsTheThresholdsItIsGiven) {
    const auto l =
        ks_load("ks8851-spi-ping.yaml",
                {"driver.variant=rx-coalescing-params", "driver.module_params.rx_frame_threshold=1",
                 "driver.module_params.rx_time_threshold_us=200"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    uint16_t rxfctr = 0, rxdttr = 0, rxdbctr = 0;
    sys.after_up = [&](ks8851_test_system& s) {
        rxfctr = s.chip().core.reg_peek(0x9c);  // KS_RXFCTR
        rxdttr = s.chip().core.reg_peek(0x8c);  // KS_RXDTTR
        rxdbctr = s.chip().core.reg_peek(0x8e); // KS_RXDBCTR
        return true;
    };
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_EQ(rxfctr & 0xff, 1);
    EXPECT_EQ(rxdttr, 200);
    EXPECT_EQ(rxdbctr, 4096) << "an unset parameter keeps the pristine value";
    ASSERT_TRUE(r.flows.at(0).rtt);
    EXPECT_LT(r.flows[0].rtt->max_ms, 1.0) << "the reply still waited for a 1 ms RX timer";
}

// Power (issue 12, item 5): the chip's one meter ("chip") reports the time per state of the
// whole run. The 6.1 driver writes only PMECR.PM = normal, so a run is normal mode with the link
// up: idle, and active while frames are on the wire. No KSZ8851 current is sourced: the
// currents and every energy figure are null, never 0.
TEST(Ks8851Scenario, SpiRunMetersNormalModeTimePerStateWithNullEnergy) {
    const auto l = ks_load("ks8851-spi-iperf-tx.yaml", {"traffic.bytes=256KiB"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    const auto& pm = sys.chip().core.power();
    EXPECT_EQ(pm.mode(), ks::pm_mode::normal);
    EXPECT_EQ(pm.mode_changes(), 0u) << "the 6.1 driver never leaves normal mode";
    const auto j = report::to_json(r);
    const auto& d = j["devices"][0];
    ASSERT_EQ(d["meters"].size(), 1u);
    const auto& m = d["meters"][0];
    EXPECT_EQ(m["name"], "chip");
    EXPECT_DOUBLE_EQ(m["supply_voltage_v"].get<double>(), 3.3);
    const std::vector<std::string> names = {
        "active", "idle", "link_down", "energy_detect", "soft_power_down", "power_saving"};
    ASSERT_EQ(m["states"].size(), names.size());
    double sum = 0;
    std::map<std::string, double> t;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const auto& st = m["states"][i];
        EXPECT_EQ(st["state"], names[i]);
        EXPECT_TRUE(st["current_a"].is_null()) << names[i];
        EXPECT_TRUE(st["energy_j"].is_null()) << names[i];
        t[names[i]] = st["time_s"].get<double>();
        sum += t[names[i]];
    }
    EXPECT_NEAR(sum, r.sim_time_s, 1e-12 * r.sim_time_s);
    EXPECT_GT(t["active"], 0.0);
    EXPECT_GT(t["idle"], 0.0);
    for (const char* s : {"link_down", "energy_detect", "soft_power_down", "power_saving"})
        EXPECT_EQ(t[s], 0.0) << s;
    // Active = the union of the two directions' wire time (a frame still on the wire at the end
    // is in the meter but not yet in the wire's totals).
    const auto& ws = sys.wire().stats();
    EXPECT_GE(t["active"], std::max(ws.station_busy, ws.peer_busy).to_seconds() - 1e-12);
    EXPECT_LE(t["active"], (ws.station_busy + ws.peer_busy).to_seconds() + 130e-6);
    EXPECT_TRUE(m["energy_j"].is_null());
    EXPECT_TRUE(m["avg_power_w"].is_null());
    EXPECT_TRUE(d["energy_j"].is_null());
    EXPECT_TRUE(d["avg_power_w"].is_null());
    EXPECT_FALSE(d["power_is_proxy"].get<bool>());
    EXPECT_NE(d["power_source"].get<std::string>().find("not modelled"), std::string::npos);
    EXPECT_EQ(d["power_states"].size(), names.size());
}

// Currents a scenario assumes (device.power.currents) give energy = Σ I·V·t over the states the
// chip was in; the report names them as the scenario's assumption.
TEST(Ks8851Scenario, ScenarioCurrentsGiveEnergySumOfIVt) {
    const auto l = ks_load("ks8851-spi-ping.yaml",
                           {"traffic.count=3", "device.power.currents.active=80mA",
                            "device.power.currents.idle=50mA", "device.power.supply_voltage=3V"});
    ks8851_test_system sys("system", l.scenario, l.platform);
    const auto r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    const auto j = report::to_json(r);
    const auto& d = j["devices"][0];
    const auto& m = d["meters"][0];
    double e = 0;
    for (const auto& st : m["states"]) {
        if (st["state"] == "active" || st["state"] == "idle") {
            const double i = st["state"] == "active" ? 0.080 : 0.050;
            EXPECT_DOUBLE_EQ(st["current_a"].get<double>(), i);
            EXPECT_NEAR(st["energy_j"].get<double>(), i * 3.0 * st["time_s"].get<double>(), 1e-15);
            e += i * 3.0 * st["time_s"].get<double>();
        } else {
            EXPECT_TRUE(st["current_a"].is_null()) << st["state"];
            EXPECT_EQ(st["time_s"].get<double>(), 0.0) << st["state"];
        }
    }
    EXPECT_GT(e, 0.0);
    EXPECT_NEAR(m["energy_j"].get<double>(), e, 1e-12 * e);
    EXPECT_NEAR(d["energy_j"].get<double>(), e, 1e-12 * e);
    EXPECT_NEAR(d["avg_power_w"].get<double>(), e / r.sim_time_s, 1e-12 * e / r.sim_time_s);
    EXPECT_DOUBLE_EQ(d["supply_voltage_v"].get<double>(), 3.0);
    const auto src = d["power_source"].get<std::string>();
    EXPECT_EQ(src, "scenario assumption (device.power.currents: active, idle; not modelled: "
                   "link_down, energy_detect, soft_power_down, power_saving)");
}

} // namespace
