// SPDX-License-Identifier: MIT
// Issue 3 acceptance: the same scenario run twice gives identical --json output apart from the
// one "host" block (wall time, peak RSS). Two runs cannot share a process (SystemC cannot
// restart), so this runs the shipped `nicsim` binary twice.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

fs::path fresh_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::path(::testing::TempDir()) / "nicsim-system" /
                 (std::string(info->test_suite_name()) + "." + info->name());
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

nlohmann::json run_nicsim(const std::string& scenario, const std::string& sets,
                          const fs::path& json, const fs::path& out) {
    const std::string cmd = std::string("'") + NICSIM_EXE + "' run '" + NICSIM_SOURCE_DIR +
                            "/configs/" + scenario + "' " + sets + " --json '" + json.string() +
                            "' > '" + out.string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    EXPECT_EQ(rc, 0) << cmd << "\n(output in " << out << ")";
    std::ifstream in(json);
    EXPECT_TRUE(in.good()) << "no JSON written by: " << cmd;
    return in.good() ? nlohmann::json::parse(in) : nlohmann::json();
}

void expect_identical_runs(const std::string& scenario, const std::string& sets) {
    const fs::path d = fresh_dir();
    nlohmann::json a = run_nicsim(scenario, sets, d / "a.json", d / "a.out");
    nlohmann::json b = run_nicsim(scenario, sets, d / "b.json", d / "b.out");
    ASSERT_TRUE(a.is_object() && b.is_object());
    // The run did something worth comparing.
    ASSERT_TRUE(a.contains("sim_time_s"));
    EXPECT_GT(a["sim_time_s"].get<double>(), 0.0);
    EXPECT_EQ(a.value("end_reason", ""), "traffic complete");
    EXPECT_EQ(a["flows"].at(0).value("bytes", 0ull), 128u * 1024);
    ASSERT_TRUE(a.contains("host")) << "the report has no host block to exclude";
    a.erase("host");
    b.erase("host");
    EXPECT_EQ(a, b) << "diff: " << nlohmann::json::diff(a, b).dump(1);
}

TEST(Wilc1000SpiDeterminism, TxPowerSaveOnTwiceGivesIdenticalJson) {
    expect_identical_runs("wilc1000-spi-ttcp-tx.yaml",
                          "--set traffic.bytes=128KiB --set driver.power_save=true");
}

TEST(Wilc1000SpiDeterminism, RxPowerSaveOffTwiceGivesIdenticalJson) {
    expect_identical_runs("wilc1000-spi-ttcp-rx.yaml",
                          "--set traffic.bytes=128KiB --set driver.power_save=false");
}

} // namespace
