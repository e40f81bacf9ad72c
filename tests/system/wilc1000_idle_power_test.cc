// SPDX-License-Identifier: MIT
// Issue 12 (power meters): a WILC1000 that is up but not associated, sending a trickle, draws
// the same power with chip sleep on and off, because chip sleep gates only the host interface
// and the radio keeps listening (docs/sources.md#cal-wilc1000-sama5: board power 1460 mW either
// way). The comparison needs two runs, which cannot share a process (SystemC cannot restart),
// so it runs the shipped `nicsim` binary twice; the in-process test watches the meters' states
// over one run.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

namespace fs = std::filesystem;
using test::load_shipped;
using test::wilc1000_spi_test_system;

// The trickle, as the validation check runs it.
const char* const trickle[] = {"traffic={kind: udp_tx, bytes: 14720B, rate: 12kbps}",
                               "duration=20s"};

nlohmann::json run_nicsim(bool power_save, const fs::path& dir) {
    const std::string tag = power_save ? "on" : "off";
    const fs::path json = dir / ("ps-" + tag + ".json"), out = dir / ("ps-" + tag + ".out");
    std::string cmd = std::string("'") + NICSIM_EXE + "' run '" + NICSIM_SOURCE_DIR +
                      "/configs/wilc1000-spi-ttcp-tx.yaml'";
    for (const char* s : trickle)
        cmd += std::string(" --set '") + s + "'";
    cmd += std::string(" --set driver.power_save=") + (power_save ? "true" : "false") +
           " --quiet --json '" + json.string() + "' > '" + out.string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    EXPECT_EQ(rc, 0) << cmd << "\n(output in " << out << ")";
    std::ifstream in(json);
    EXPECT_TRUE(in.good()) << "no JSON written by: " << cmd;
    return in.good() ? nlohmann::json::parse(in) : nlohmann::json();
}

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

TEST(Wilc1000SpiIdlePower, ChipSleepOnAndOffDrawTheSamePowerWithinTwoPercent) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = fs::path(::testing::TempDir()) / "nicsim-system" / info->name();
    fs::remove_all(dir);
    fs::create_directories(dir);
    const nlohmann::json off = run_nicsim(false, dir), on = run_nicsim(true, dir);
    ASSERT_TRUE(off.is_object() && on.is_object());
    for (const auto* r : {&off, &on}) {
        const auto& dev = r->at("devices").at(0);
        const double t = r->at("sim_time_s").get<double>();
        EXPECT_GT(t, 5.0); // the 10 datagrams take ~9 s; the run ends when they arrived
        EXPECT_GT(r->at("flows").at(0).at("bytes").get<double>(), 0.0); // the trickle ran
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
        // 802.11 power save is not modelled: the radio never dozes.
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
    EXPECT_GT(d_on["wakeups"].get<double>(), 0.0);
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

TEST(Wilc1000SpiIdlePower, RadioIsNeverOffOrDozingWhileTheHostInterfaceSleeps) {
    test::driver_log log;
    std::vector<std::string> sets(std::begin(trickle), std::end(trickle));
    sets.push_back("driver.power_save=true");
    auto ls = load_shipped("wilc1000-spi-ttcp-tx.yaml", sets);
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    sleep_watch w;
    sys.chip().power().set_observer(&w);
    const report::report r = sys.run();
    sys.chip().power().set_observer(nullptr);
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_GT(w.sleeps, 3u) << "the host interface hardly slept: the check proves little";
    EXPECT_EQ(w.violations, 0u);
    EXPECT_EQ(w.radio, wilc::radio_state::listen); // up and listening at the end
}

} // namespace
} // namespace nicsim
