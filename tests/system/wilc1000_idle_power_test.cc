// SPDX-License-Identifier: MIT
// Issue 12 (power meters, 802.11 power save): a WILC1000 that is up but not associated draws
// the same power with chip sleep on and off, because chip sleep gates only the host interface
// and, without an association, the radio keeps listening (docs/sources.md#cal-wilc1000-sama5:
// board power 1460 mW either way). Associated, power save lets the radio doze between DTIM
// beacons: idle power falls and the RTT of a ping from the peer grows with the DTIM period.
// Comparisons need several runs, which cannot share a process (SystemC cannot restart), so they
// run the shipped `nicsim` binary; the in-process test watches the meters' states over one run.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/system/nicsim_cli.h"
#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

namespace fs = std::filesystem;
using test::load_shipped;
using test::run_nicsim;
using test::test_dir;
using test::wilc1000_spi_test_system;

// Up, not associated, idle, as the validation checks run it.
const std::vector<std::string> unassociated = {"traffic={kind: idle}", "duration=20s",
                                               "link.associated=false"};

const nlohmann::json& meter(const nlohmann::json& dev, const std::string& name) {
    for (const auto& m : dev.at("meters"))
        if (m.at("name") == name)
            return m;
    ADD_FAILURE() << "no meter " << name;
    static const nlohmann::json none = {{"states", nlohmann::json::array()}};
    return none;
}

double time_in(const nlohmann::json& m, const std::string& state) {
    for (const auto& s : m.at("states"))
        if (s.at("state") == state)
            return s.at("time_s").get<double>();
    ADD_FAILURE() << "no state " << state;
    return -1;
}

nlohmann::json run_unassociated(bool power_save, const fs::path& dir) {
    std::vector<std::string> sets = unassociated;
    sets.push_back(std::string("driver.power_save=") + (power_save ? "true" : "false"));
    return run_nicsim("wilc1000-spi-ttcp-tx.yaml", sets, power_save ? "ps-on" : "ps-off", dir);
}

TEST(Wilc1000SpiIdlePower, ChipSleepOnAndOffDrawTheSamePowerWithinTwoPercent) {
    const fs::path dir = test_dir();
    const nlohmann::json off = run_unassociated(false, dir), on = run_unassociated(true, dir);
    ASSERT_TRUE(off.is_object() && on.is_object());
    for (const auto* r : {&off, &on}) {
        const auto& dev = r->at("devices").at(0);
        const double t = r->at("sim_time_s").get<double>();
        EXPECT_NEAR(t, 20.0, 1e-6); // idle: the run lasts its duration
        EXPECT_TRUE(r->at("flows").empty());
        double sum = 0;
        for (const auto& m : dev.at("meters")) {
            // Each meter covers the run once, and its energy is the sum of I * V * t.
            double e = 0, time = 0;
            for (const auto& s : m.at("states")) {
                e += s.at("current_a").get<double>() * m.at("supply_voltage_v").get<double>() *
                     s.at("time_s").get<double>();
                time += s.at("time_s").get<double>();
            }
            EXPECT_NEAR(time, t, 1e-9) << m.at("name");
            EXPECT_NEAR(m.at("energy_j").get<double>(), e, 1e-12 + 1e-12 * e) << m.at("name");
            EXPECT_NEAR(m.at("avg_power_w").get<double>(), e / t, 1e-12) << m.at("name");
            sum += e;
        }
        EXPECT_NEAR(dev.at("energy_j").get<double>(), sum, 1e-12 + 1e-12 * sum);
        // Not associated: no 802.11 power save, the radio never dozes.
        EXPECT_EQ(time_in(meter(dev, "radio"), "doze"), 0.0);
        // Off only until the firmware runs: a small part of the run.
        EXPECT_LT(time_in(meter(dev, "radio"), "off"), 0.1 * t);
    }
    const auto& d_off = off["devices"][0];
    const auto& d_on = on["devices"][0];
    // Chip sleep is on and the host interface does sleep; with it off it never does.
    EXPECT_GT(time_in(meter(d_on, "host_interface"), "sleep"),
              0.5 * on["sim_time_s"].get<double>());
    EXPECT_EQ(time_in(meter(d_off, "host_interface"), "sleep"), 0.0);
    const double p_off = d_off["avg_power_w"].get<double>(),
                 p_on = d_on["avg_power_w"].get<double>();
    ::testing::Test::RecordProperty("avg_power_mw_off", std::to_string(p_off * 1e3));
    ::testing::Test::RecordProperty("avg_power_mw_on", std::to_string(p_on * 1e3));
    EXPECT_LT(std::abs(p_on - p_off) / p_off, 0.02) << p_off << " W off, " << p_on << " W on";
    // The radio's listening dominates both.
    EXPECT_GT(meter(d_on, "radio")["energy_j"].get<double>(),
              10 * meter(d_on, "host_interface")["energy_j"].get<double>());
}

// Watches the power model's two state streams (they arrive in time order through one
// observer) and records whether the radio was ever off or dozing while the host interface slept.
struct sleep_watch : wilc::power_observer {
    wilc::power_state host = wilc::power_state::awake;
    wilc::radio_state radio = wilc::radio_state::off;
    uint64_t sleeps = 0, violations = 0;
    void check() {
        if (host == wilc::power_state::asleep &&
            (radio == wilc::radio_state::off || radio == wilc::radio_state::doze))
            ++violations;
    }
    void on_power_state(sc_core::sc_time, wilc::power_state s) override {
        if (s == wilc::power_state::asleep && host != s)
            ++sleeps;
        host = s;
        check();
    }
    void on_radio_state(sc_core::sc_time, wilc::radio_state s) override {
        radio = s;
        check();
    }
};

TEST(Wilc1000SpiIdlePower, UnassociatedRadioIsNeverOffOrDozingWhileTheHostInterfaceSleeps) {
    test::driver_log log;
    std::vector<std::string> sets = unassociated;
    sets.push_back("driver.power_save=true");
    auto ls = load_shipped("wilc1000-spi-ttcp-tx.yaml", sets);
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    sleep_watch w;
    sys.chip().power().set_observer(&w);
    const report::report r = sys.run();
    sys.chip().power().set_observer(nullptr);
    EXPECT_EQ(r.end_reason, "duration limit");
    // Idle: the host interface falls asleep once and stays asleep while the radio listens.
    EXPECT_GE(w.sleeps, 1u) << "the host interface never slept: the check proves nothing";
    EXPECT_GT(sys.chip().power().time_in(wilc::host_if_state::sleep, sc_core::sc_time_stamp()),
              sc_core::sc_time(15, sc_core::SC_SEC));
    EXPECT_EQ(w.violations, 0u);
    EXPECT_EQ(w.radio, wilc::radio_state::listen); // up and listening at the end
}

double avg_power_w(const nlohmann::json& r) {
    return r.at("devices").at(0).at("avg_power_w").get<double>();
}

TEST(Wilc1000SpiAssociatedIdle, PowerSaveDozesTheRadioAndPowerFallsWithTheDtimPeriod) {
    const fs::path dir = test_dir();
    const auto run = [&](bool ps, unsigned dtim) {
        return run_nicsim("wilc1000-spi-ttcp-tx.yaml",
                          {"traffic={kind: idle}", "duration=10s",
                           std::string("driver.power_save=") + (ps ? "true" : "false"),
                           "link.dtim_period=" + std::to_string(dtim)},
                          (ps ? "on-" : "off-") + std::to_string(dtim), dir);
    };
    const nlohmann::json off = run(false, 1), d1 = run(true, 1), d3 = run(true, 3),
                         d10 = run(true, 10);
    for (const auto* r : {&off, &d1, &d3, &d10})
        ASSERT_TRUE(r->is_object());
    // Power save off: the radio listens all the time, whatever the DTIM period.
    EXPECT_EQ(time_in(meter(off["devices"][0], "radio"), "doze"), 0.0);
    // On: the radio dozes most of the idle time and wakes for fewer beacons as DTIM grows.
    for (const auto* r : {&d1, &d3, &d10})
        EXPECT_GT(time_in(meter((*r)["devices"][0], "radio"), "doze"),
                  0.8 * (*r)["sim_time_s"].get<double>());
    // The report says why: with power save off the firmware never dozes; on, it wakes once per
    // DTIM interval (DTIM x 102.4 ms) of the 10 s it dozes through.
    EXPECT_EQ(off["devices"][0]["power_save"]["dozes"].get<int>(), 0);
    for (const auto& [r, dtim] : {std::pair{&d1, 1}, {&d3, 3}, {&d10, 10}}) {
        const double expected = 10.0 / (dtim * 0.1024);
        const auto& ps = (*r)["devices"][0]["power_save"];
        EXPECT_GT(ps["dozes"].get<int>(), 0);
        EXPECT_NEAR(ps["beacon_wakeups"].get<double>(), expected, 0.1 * expected + 1) << dtim;
        EXPECT_EQ(ps["tim_wakeups"].get<int>(), 0); // nothing was sent to the idle board
    }
    EXPECT_GT(avg_power_w(off), 5 * avg_power_w(d1));
    EXPECT_GT(avg_power_w(d1), avg_power_w(d3));
    EXPECT_GT(avg_power_w(d3), avg_power_w(d10));
}

TEST(Wilc1000SpiAssociatedIdle, PingFromThePeerWaitsForTheDtimBeaconUnderPowerSave) {
    const fs::path dir = test_dir();
    const auto run = [&](bool ps, unsigned dtim) {
        return run_nicsim("wilc1000-spi-ttcp-tx.yaml",
                          {"traffic={kind: ping, from: peer, count: 10, adaptive: false}",
                           std::string("driver.power_save=") + (ps ? "true" : "false"),
                           "link.dtim_period=" + std::to_string(dtim)},
                          (ps ? "on-" : "off-") + std::to_string(dtim), dir);
    };
    const nlohmann::json off = run(false, 3), d1 = run(true, 1), d3 = run(true, 3);
    const auto rtt = [](const nlohmann::json& r, const char* k) {
        return r.at("flows").at(0).at("rtt_ms").at(k).get<double>();
    };
    for (const auto* r : {&off, &d1, &d3})
        ASSERT_EQ(r->at("flows").at(0).at("packets_received").get<int>(), 10);
    // Awake, a reply takes a few ms; dozing, a request waits in the AP for the next DTIM beacon
    // (one every DTIM x 102.4 ms), so the mean grows with the period and stays below it.
    EXPECT_LT(rtt(off, "max"), 10.0);
    // Under power save every request was fetched after a beacon's TIM.
    EXPECT_GE(d3["devices"][0]["power_save"]["tim_wakeups"].get<int>(), 9);
    EXPECT_GT(rtt(d1, "avg"), 2 * rtt(off, "avg"));
    EXPECT_GT(rtt(d3, "avg"), rtt(d1, "avg"));
    EXPECT_LT(rtt(d1, "max"), 102.4 + 20);
    EXPECT_LT(rtt(d3, "max"), 3 * 102.4 + 20);
}

} // namespace
} // namespace nicsim
